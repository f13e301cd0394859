"""The verifiers (v1) lab environment: a rollout with a scripted policy, in-process, no model.

The scripted policy is the offline planner's records replayed as replies (tests/_rl.py), played
by the in-process ``causalcheck-scripted`` harness; every rollout is compared with the
Gymnasium environment stepped with the same replies and seed.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

vf = pytest.importorskip("verifiers.v1", reason="needs the [verifiers] extra: pip install 'causalcheck[verifiers]'")
pytest.importorskip("gymnasium", reason="needs the [rl] extra: pip install 'causalcheck[rl]'")

from _rl import planner_replies  # noqa: E402
from causalcheck.base.errors import InputFormatError  # noqa: E402
from causalcheck.lab.suites import load_suite  # noqa: E402
from causalcheck.rl import verifiers_env as ve  # noqa: E402
from causalcheck.rl.env import CausaLabEnv  # noqa: E402
from causalcheck.rl.rewards import TERMS, reward_weights  # noqa: E402

SUITE = load_suite("mini")
# a client config that needs no key (the scripted harness never calls a model)
CTX = vf.ModelContext(model="scripted", client=vf.EvalClientConfig(base_url="http://127.0.0.1:9/v1", api_key_var="CAUSALCHECK_TEST_NO_KEY"))


@pytest.fixture(autouse=True)
def _runtime_dir(tmp_path, monkeypatch):
    """The subprocess runtime's work folders under tmp_path, not ~/.cache."""
    from verifiers.v1.runtimes import subprocess as vf_subprocess

    monkeypatch.setattr(vf_subprocess, "CACHE_DIR", tmp_path / "vf-cache")


def _rollout(replies: list[str], graph_id: str, seed: int, **kwargs: Any) -> tuple[Any, Any]:
    env = ve.load_environment("mini", graphs=[graph_id], seeds=[seed], harness={"id": ve.SCRIPTED_HARNESS_ID, "replies": replies}, **kwargs)
    (task,) = list(env.taskset)

    async def run() -> Any:
        async with env.serving():
            return await env.run_episode(task, CTX)

    episode = asyncio.run(run())
    assert episode.ok, episode.errors
    (trace,) = episode.traces
    assert trace.ok, trace.errors
    return task, trace


def _gym(replies: list[str], graph_id: str, seed: int, rewards: Any = "dense", **flags: Any) -> tuple[list[str], list[float], dict[str, float], Any]:
    env = CausaLabEnv("mini", graph_id, rewards=rewards, **flags)
    obs, _ = env.reset(seed=seed)
    prompts, rewards_out = [obs], []
    sums = dict.fromkeys(TERMS, 0.0)
    for reply in replies:
        obs, reward, terminated, truncated, info = env.step(reply)
        rewards_out.append(reward)
        for k, v in info["reward_terms"].items():
            sums[k] += v
        if terminated or truncated:
            break
        prompts.append(obs)
    return prompts, rewards_out, sums, env


@pytest.mark.slow
@pytest.mark.parametrize(("index", "seed", "rewards"), [(0, 3, "dense"), (1, 5, "paper")])
def test_scripted_rollout_equals_gymnasium(index: int, seed: int, rewards: str) -> None:
    graph = SUITE.graphs[index]
    replies = planner_replies(graph, seed)
    task, trace = _rollout(replies, graph.graph_id, seed, rewards=rewards)
    prompts, step_rewards, sums, env = _gym(replies, graph.graph_id, seed, rewards)
    # the turns are the Gymnasium steps: the user messages are its observations, the replies its actions
    users = [m.content for m in trace.messages if m.role == "user"]
    assert users == prompts
    assert [m.content for m in trace.messages if m.role == "system"] == [env.system_prompt]
    assert [m.content for m in trace.assistant_messages] == replies[: len(step_rewards)]
    assert trace.num_turns == len(step_rewards)
    # the rubric: one verifiers reward per weighted term, its score the term's sum, its weight the preset's
    weights = reward_weights(rewards).to_json()
    assert {k for k, r in trace.rewards.items() if r is not None} == {k for k, w in weights.items() if w}
    for name, reward in trace.rewards.items():
        assert reward is not None
        assert reward.weight == weights[name]
        assert reward.score == pytest.approx(sums[name], abs=1e-12)
    assert trace.reward == pytest.approx(sum(step_rewards), abs=1e-9)
    assert trace.info["causalab"]["return"] == pytest.approx(sum(step_rewards), abs=1e-12)
    assert trace.metrics["steps"] == len(step_rewards)
    assert trace.metrics["success"] == float(env.episode.success)
    assert trace.metrics["done"] == 1.0
    if rewards == "paper":  # the paper reward is lab score's task accuracy
        assert trace.reward == float(env.episode.success)
    for name in ve.MECHANISM_TERMS:
        assert trace.metrics[name] == pytest.approx(sums[name], abs=1e-12)
    assert task.data.graph_id == graph.graph_id and task.data.seed == seed


@pytest.mark.slow
def test_observation_turns_and_a_short_script() -> None:
    """user_turn="observation" sends the environment's new text only; a script that runs out
    ends the exchange before the episode, and the rubric scores the steps played."""
    graph = SUITE.graphs[0]
    replies = planner_replies(graph, 4)
    assert len(replies) >= 3
    short = [*replies[:2], "not a record"]
    _, trace = _rollout(short, graph.graph_id, 4, user_turn="observation")
    prompts, step_rewards, sums, env = _gym(short, graph.graph_id, 4)
    assert not env.episode.done
    users = [m.content for m in trace.messages if m.role == "user"]
    assert users[0] == prompts[0]
    check = CausaLabEnv("mini", graph.graph_id)
    check.reset(seed=4)
    texts = []
    for reply in short:
        check.step(reply)
        texts.append(check.observation.text)
    # each later user turn is the observation text after the previous step; the last one was
    # sent but never answered (the script ran out), so the trace holds no node for it
    assert users[1:] == texts[:-1]
    assert all(texts) and texts[0] not in prompts[0]
    assert trace.metrics["done"] == 0.0 and trace.metrics["steps"] == 3 and trace.metrics["degraded_steps"] == 1
    assert trace.rewards["format"] is not None and trace.rewards["format"].score == -1.0
    assert trace.reward == pytest.approx(sum(step_rewards), abs=1e-9)
    assert sums["format"] == -1.0


def test_rubric_scores_a_recorded_transcript() -> None:
    """score_replies reads a transcript alone: the same replies give the Gymnasium return;
    replies after the end of the episode are not played."""
    graph = SUITE.graphs[2]
    replies = planner_replies(graph, 1)
    data = next(iter(ve.CausaLabTaskset(ve.CausaLabConfig(id=ve.TASKSET_ID, graphs=[graph.graph_id], seeds=[1])))).data
    _, step_rewards, sums, env = _gym(replies, graph.graph_id, 1)
    result = ve.score_replies(data, [*replies, json.dumps({"action": "WAIT"})])
    assert result.rewards == step_rewards
    assert result.terms == sums
    assert result.done and result.unused_replies == 1
    assert result.success == env.episode.success
    assert result.summary == env.episode.summary()
    assert result.weights == reward_weights("dense").to_json()
    # a task that names no weights is scored with the dense preset, as the Gymnasium default
    bare = ve.score_replies(data.model_copy(update={"weights": {}}), replies)
    assert bare.total == result.total and bare.weights == result.weights
    paper = ve.score_replies(data.model_copy(update={"weights": reward_weights("paper").to_json()}), replies)
    assert paper.total == float(env.episode.success)


def test_taskset_tasks_and_loading_by_id() -> None:
    ids = [g.graph_id for g in SUITE.graphs[:2]]
    config = vf.resolve_env_config({"taskset": {"id": ve.TASKSET_ID, "graphs": ids, "seeds": [0, 7], "options": {"budget": "2o6i"}}})
    assert isinstance(config, ve.CausaLabEnvConfig)
    assert config.agent_harnesses()["player"].id == "null"  # a model plays through verifiers' chat loop
    assert config.player.runtime.type == "subprocess"
    assert vf.environment_class(ve.TASKSET_ID) is ve.CausaLabVerifiersEnv
    env = vf.load_environment(config)
    tasks = list(env.taskset)
    assert [(t.data.graph_id, t.data.seed) for t in tasks] == [(g, s) for g in ids for s in (0, 7)]
    for t in tasks:
        gym = CausaLabEnv("mini", t.data.graph_id, budget="2o6i")
        prompt, _ = gym.reset(seed=t.data.seed)
        assert t.data.prompt == prompt
        assert t.data.system_prompt == gym.system_prompt
        assert t.data.options == {"budget": "2o6i"}
        assert t.data.weights == reward_weights("dense").to_json()
    every = list(ve.CausaLabTaskset(ve.CausaLabConfig(id=ve.TASKSET_ID)))
    assert [t.data.graph_id for t in every] == [g.graph_id for g in SUITE.graphs]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"options": {"budgett": "2o6i"}}, "budgett"),
        ({"graphs": ["nope"]}, "nope"),
        ({"seeds": []}, "seeds"),
        ({"seeds": [-1]}, "-1"),
        ({"seeds": [2, 2]}, "repeated"),
        ({"graphs": ["mini3nodes_0", "mini3nodes_0"]}, "repeated"),
        ({"rewards": "sparse"}, "sparse"),
        ({"rewards": {"speed": 1.0}}, "speed"),
        ({"suite": "no-such-suite"}, "no-such-suite"),
        ({"max_prompt_chars": 10}, "max_prompt_chars"),
    ],
)
def test_bad_taskset_options_raise_input_errors(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(InputFormatError, match=message):
        ve.CausaLabTaskset(ve.CausaLabConfig(id=ve.TASKSET_ID, **overrides))
