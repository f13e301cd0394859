"""The verifiers (v1) lab environment: a rollout with a scripted policy, in-process, no model.

The scripted policy is the offline planner's records replayed as replies (tests/_rl.py), played
by the in-process ``causalcheck-scripted`` harness; every rollout is compared with the
Gymnasium environment stepped with the same replies and seed.  The requests a model would have
been sent are read back from the trace (each reply's node and the path to it), and their size in
tokens is estimated without a tokenizer (:func:`_tokens`).
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

vf = pytest.importorskip("verifiers.v1", reason="needs the [verifiers] extra: pip install 'causalcheck[verifiers]'")
pytest.importorskip("gymnasium", reason="needs the [rl] extra: pip install 'causalcheck[rl]'")

from _rl import planner_replies  # noqa: E402
from causalcheck.base.errors import InputFormatError  # noqa: E402
from causalcheck.lab.suites import load_suite  # noqa: E402
from causalcheck.rl import verifiers_env as ve  # noqa: E402
from causalcheck.rl import verifiers_harness as vh  # noqa: E402
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


#: The context window the defaults are made for (docs/rl-verifiers.md): a request may take
#: CONTEXT_TOKENS - REPLY_TOKENS tokens, the rest is the reply's.
CONTEXT_TOKENS = 4096
REPLY_TOKENS = 1024


def _tokens(messages: list[Any]) -> int:
    """A tokenizer-free estimate of a chat request's tokens, on the high side for the lab's prompts.

    One token per 2.5 characters of each message (SmolLM2's tokenizer reads the prompts of the
    planner's 7-node episodes at 2.56 to 3.36 characters a token), 5 tokens a message for the chat
    template's role markers and 3 for the reply's opening (ChatML).
    """
    return sum(math.ceil(len(m.content) / 2.5) + 5 for m in messages) + 3


def _requests(trace: Any) -> list[tuple[list[Any], str]]:
    """Each turn's request (the messages on the path to its reply) and reply, in order."""
    turns = []
    for node in trace.nodes:
        if node.sampled:
            path, parent = [], node.parent
            while parent is not None:
                path.append(trace.nodes[parent].message)
                parent = trace.nodes[parent].parent
            turns.append((path[::-1], node.message.content))
    return turns


def _rollout(replies: list[str], graph_id: str, seed: int, suite: str = "mini", **kwargs: Any) -> tuple[Any, Any]:
    env = ve.load_environment(suite, graphs=[graph_id], seeds=[seed], harness={"id": ve.SCRIPTED_HARNESS_ID, "replies": replies}, **kwargs)
    (task,) = list(env.taskset)

    async def run() -> Any:
        async with env.serving():
            return await env.run_episode(task, CTX)

    episode = asyncio.run(run())
    assert episode.ok, episode.errors
    (trace,) = episode.traces
    assert trace.ok, trace.errors
    return task, trace


def _gym(replies: list[str], graph_id: str, seed: int, rewards: Any = "dense", suite: str = "mini", **flags: Any) -> tuple[list[str], list[float], dict[str, float], Any]:
    env = CausaLabEnv(suite, graph_id, rewards=rewards, **flags)
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
@pytest.mark.parametrize(("index", "seed", "rewards", "user_turn"), [(0, 3, "dense", "fresh"), (1, 5, "paper", "prompt")])
def test_scripted_rollout_equals_gymnasium(index: int, seed: int, rewards: str, user_turn: str) -> None:
    """Each reply is one Gymnasium step and each user turn its observation; user_turn="fresh" (the
    default) sends each turn as a context of its own, "prompt" appends it to the conversation."""
    graph = SUITE.graphs[index]
    replies = planner_replies(graph, seed)
    task, trace = _rollout(replies, graph.graph_id, seed, rewards=rewards, user_turn=user_turn)
    prompts, step_rewards, sums, env = _gym(replies, graph.graph_id, seed, rewards)
    # the turns are the Gymnasium steps: the user messages are its observations, the replies its actions
    system = vf.SystemMessage(content=env.system_prompt)
    requests = _requests(trace)
    played = replies[: len(step_rewards)]
    if user_turn == "fresh":  # each request: the system message and the current prompt, nothing else
        assert [r for r, _ in requests] == [[system, vf.UserMessage(content=p)] for p in prompts]
        assert trace.num_branches == len(prompts)
    else:  # the conversation so far and the next whole prompt
        conversation = [system]
        for (request, _), prompt, reply in zip(requests, prompts, played, strict=True):
            conversation.append(vf.UserMessage(content=prompt))
            assert request == conversation
            conversation.append(vf.AssistantMessage(content=reply))
        assert trace.num_branches == 1
    assert [reply for _, reply in requests] == played
    assert [m.content for m in trace.assistant_messages] == played
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
    assert config.agent_harnesses()["player"].id == ve.TASKSET_ID  # a model plays through the lab's chat harness
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


@pytest.mark.parametrize("graph_id", ["7nodes_0", "7nodes_46"])
def test_default_requests_fit_a_4096_token_context(graph_id: str) -> None:
    """A whole 7-node episode under the defaults: every request is the system message and the
    current prompt, estimated at most CONTEXT_TOKENS - REPLY_TOKENS tokens (7nodes_46 has the
    longest prompts of the planner's episodes on the suite's 50 graphs, seeds 0 and 1)."""
    graph = load_suite("7nodes").get(graph_id)
    replies = planner_replies(graph, 0)
    _, trace = _rollout(replies, graph_id, 0, suite="7nodes")
    prompts, step_rewards, _, env = _gym(replies, graph_id, 0, suite="7nodes")
    assert env.episode.done and trace.metrics["done"] == 1.0
    requests = _requests(trace)
    assert len(prompts) == len(step_rewards) == len(replies) >= 8
    system = vf.SystemMessage(content=env.system_prompt)
    assert [r for r, _ in requests] == [[system, vf.UserMessage(content=p)] for p in prompts]
    sizes = [_tokens(request) for request, _ in requests]
    assert max(sizes) <= CONTEXT_TOKENS - REPLY_TOKENS, sizes
    assert trace.reward == pytest.approx(sum(step_rewards), abs=1e-9)


@pytest.mark.parametrize("user_turn", ["prompt", "observation"])
def test_conversation_modes_outgrow_a_4096_token_context(user_turn: str) -> None:
    """The modes that keep the conversation outgrow the budget within a 7-node episode (why
    user_turn="fresh" is the default), and score the same replies the same."""
    graph = load_suite("7nodes").get("7nodes_0")
    replies = planner_replies(graph, 0)
    _, trace = _rollout(replies, graph.graph_id, 0, suite="7nodes", user_turn=user_turn)
    _, step_rewards, _, _ = _gym(replies, graph.graph_id, 0, suite="7nodes")
    sizes = [_tokens(request) for request, _ in _requests(trace)]
    assert sizes == sorted(sizes) and max(sizes) > CONTEXT_TOKENS, sizes
    assert trace.reward == pytest.approx(sum(step_rewards), abs=1e-9)


def test_fresh_turns_need_a_harness_that_starts_each_turn_afresh() -> None:
    """A harness that resends the conversation cannot play user_turn="fresh": the environment
    refuses it by name; the conversation modes take any harness."""
    with pytest.raises(InputFormatError, match=r"harness 'null'.*user_turn"):
        ve.load_environment("mini", graphs=["mini3nodes_0"], harness={"id": "null"})
    env = ve.load_environment("mini", graphs=["mini3nodes_0"], harness={"id": "null"}, user_turn="observation")
    assert isinstance(env, ve.CausaLabVerifiersEnv)


def test_the_id_resolves_to_the_top_level_module() -> None:
    """verifiers resolves "causalcheck-lab" by importing the top-level module causalcheck_lab:
    its taskset, its environment, and its harness as the taskset's default (the chat harness)."""
    module = vf.import_taskset(ve.TASKSET_ID)
    assert module.__name__ == "causalcheck_lab"
    assert vf.environment_class(ve.TASKSET_ID) is ve.CausaLabVerifiersEnv
    assert vf.taskset_config_type(ve.TASKSET_ID) is ve.CausaLabConfig
    assert vf.default_harness_id(ve.TASKSET_ID) == ve.TASKSET_ID
    assert isinstance(vf.load_harness(vf.harness_config_type(ve.TASKSET_ID)(id=ve.TASKSET_ID)), vh.CausaLabChatHarness)


@pytest.mark.parametrize("user_turn", ["fresh", "prompt"])
def test_the_chat_harness_resumes_on_the_new_turn_alone(user_turn: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The chat harness (verifiers' chat program) relaunches a fresh-context task on the new user
    turn alone, and any other task on the conversation so far and the new turn."""
    harness = vf.load_harness(vf.harness_config_type(ve.TASKSET_ID)(id=ve.TASKSET_ID))
    launched: list[Any] = []

    async def launch(ctx: Any, trace: Any, runtime: Any, endpoint: str, secret: str, mcp_urls: Any, data: Any, **kwargs: Any) -> Any:
        launched.append(harness.resolve_prompt(data))
        return vf.ProgramResult(exit_code=0, stdout="", stderr="")

    monkeypatch.setattr(harness, "launch", launch)
    data = next(iter(ve.CausaLabTaskset(ve.CausaLabConfig(id=ve.TASKSET_ID, graphs=["mini3nodes_0"], user_turn=user_turn)))).data
    trace = vf.Trace(agent=vf.AgentInfo(config=vf.AgentConfig()), task=vf.TraceTask(type="CausaLabTask", data=data))
    first = [vf.SystemMessage(content=data.system_prompt), vf.UserMessage(content=data.prompt)]
    reply = vf.AssistantMessage(content='{"action": "OPEN_REACTOR"}')
    vf.graph.prepare_turn(trace, first).commit(vf.Response(id="0", created=0, model="m", message=reply, finish_reason="stop"))
    turn = [vf.UserMessage(content="the next prompt")]
    asyncio.run(harness.resume(CTX, trace, None, "http://127.0.0.1:9/v1", "secret", {}, data, turn))
    (system, prompt), = launched
    assert system == data.system_prompt
    assert prompt == (turn if user_turn == "fresh" else [first[1], reply, *turn])


@pytest.mark.slow
def test_vf_eval_finds_the_lab_by_id(tmp_path: Path) -> None:
    """`vf-eval causalcheck-lab` (verifiers' console script, in a new interpreter) finds the lab by
    its id alone and runs an episode (the scripted harness plays the replies, so no model is
    called); the trace it writes scores the Gymnasium return."""
    (script,) = importlib.metadata.entry_points(group="console_scripts", name="vf-eval")
    module, _, function = script.value.partition(":")
    graph = SUITE.graphs[0]
    replies = planner_replies(graph, 2)
    run = {"env": {"taskset": {"graphs": [graph.graph_id], "seeds": [2]}, "player": {"harness": {"id": ve.SCRIPTED_HARNESS_ID, "replies": replies}}}}
    (tmp_path / "run.json").write_text(json.dumps(run), encoding="utf-8")
    args = [
        "causalcheck-lab", "@", "run.json", "--model", "scripted", "--client.base-url", "http://127.0.0.1:9/v1",
        "--client.api-key-var", "CAUSALCHECK_TEST_NO_KEY", "--no-push", "--no-rich", "--output-dir", "out", "--run.name", "lab",
    ]
    env = {**os.environ, "HOME": str(tmp_path)}  # verifiers' cache folder under tmp_path
    vf_eval = [sys.executable, "-c", f"import sys; from {module} import {function}; sys.exit({function}())"]
    result = subprocess.run([*vf_eval, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600, check=False)
    assert result.returncode == 0, result.stderr[-4000:]
    (line,) = (tmp_path / "out" / "lab" / "traces.jsonl").read_text(encoding="utf-8").splitlines()
    (trace,) = json.loads(line)["traces"]
    _, step_rewards, _, _ = _gym(replies, graph.graph_id, 2)
    assert trace["task"]["data"]["graph_id"] == graph.graph_id
    assert trace["metrics"]["steps"] == len(step_rewards) == len(replies)
    total = sum(r["score"] * r["weight"] for r in trace["rewards"].values() if r is not None)
    assert total == pytest.approx(sum(step_rewards), abs=1e-9)
