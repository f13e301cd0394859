"""The Gymnasium lab environment: the agent's prompt, the same episode as lab run, check_env, vector forms."""

from __future__ import annotations

import json
from typing import Any

import pytest

gymnasium = pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed: pip install 'causalcheck[rl]'")

import causalcheck.rl  # noqa: E402  (registers the environment)
from _rl import planner_replies  # noqa: E402
from causalcheck.adapters import LLMClient, RetryPolicy, ScriptedLLM  # noqa: E402
from causalcheck.base.errors import BudgetExceededError, InputFormatError  # noqa: E402
from causalcheck.episodes import Trajectory, trajectory_episode  # noqa: E402
from causalcheck.lab.episode import EpisodeConfig  # noqa: E402
from causalcheck.lab.llm_agent import LLMAgent  # noqa: E402
from causalcheck.lab.runner import run_episode  # noqa: E402
from causalcheck.lab.score import score_episode  # noqa: E402
from causalcheck.lab.suites import load_suite  # noqa: E402
from causalcheck.rl.env import CausaLabEnv, rollout  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

ENV = causalcheck.rl.ENV_ID


@pytest.fixture(scope="module")
def mini() -> Any:
    """The bundled mini suite."""
    return load_suite("mini")


def _without_info(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in s.items() if k != "info"} for s in steps]


@pytest.mark.parametrize("index,seed", [(0, 3), (4, 11), (9, 0)])
def test_a_seeded_rollout_equals_lab_run_with_the_same_scripted_agent(mini: Any, index: int, seed: int) -> None:
    """Same replies, same seed: the env's prompts are the LLM agent's, its trajectory and final metrics lab run's."""
    graph = mini.graphs[index]
    replies = planner_replies(graph, seed)
    llm = ScriptedLLM(list(replies))
    agent = LLMAgent(LLMClient(llm, retry=RetryPolicy(max_attempts=1)))
    header, steps, summary = run_episode(graph, agent, seed, suite_name="mini", agent_name="gymnasium")
    env = gymnasium.make(ENV, suite="mini", graph=graph.graph_id)
    obs, info = env.reset(seed=seed)
    k, done = 0, False
    while not done:
        sent = [{"role": m.role, "content": m.content} for m in llm.calls[k].messages]
        assert info["messages"] == sent and obs == sent[-1]["content"]
        obs, _, terminated, truncated, info = env.step(replies[k])
        k, done = k + 1, terminated or truncated
    env_header, env_steps = env.unwrapped.trajectory
    assert env_header == header
    assert _without_info(env_steps) == _without_info(steps)
    assert info["summary"] == {k: v for k, v in summary.items() if k in info["summary"]}
    env_summary = env.unwrapped.episode.summary()
    scores = [
        score_episode(trajectory_episode(Trajectory(header, tuple(s), summ), source="x")).final
        for s, summ in ((steps, summary), (env_steps, env_summary))
    ]
    assert scores[0] == scores[1] and scores[0]["task_accuracy"] is not None
    final = info["reward_details"]["final"]
    assert final == {k: scores[0][k] for k in ("edge_f1", "parent_f1", "coefficient_f1", "shd")}


def test_reset_with_a_seed_reproduces_the_episode_byte_for_byte(mini: Any) -> None:
    """Two rollouts of one seed give the same prompts, rewards and infos; another seed differs."""
    replies = planner_replies(mini.graphs[2], 5)
    env = gymnasium.make(ENV, suite="mini", graph=2)

    def play(seed: int) -> str:
        obs, info = env.reset(seed=seed)
        out = [obs]
        for reply in replies:
            obs, reward, terminated, truncated, info = env.step(reply)
            out.append(json.dumps([obs, reward, terminated, truncated, info], sort_keys=True))
            if terminated or truncated:
                break
        return "\n".join(out)

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_check_env_passes() -> None:
    """Gymnasium's environment checker accepts the environment (random actions are degraded steps)."""
    check_env(gymnasium.make(ENV, suite="mini", graph=0).unwrapped)
    check_env(gymnasium.make(ENV, suite="mini", render_mode="ansi").unwrapped)


@pytest.mark.parametrize("mode,kwargs", [("sync", {}), ("async", {"shared_memory": False})])
def test_the_vector_forms_step_batches(mini: Any, mode: str, kwargs: dict[str, Any]) -> None:
    """make_vec in sync and async mode: each sub-environment plays its own seed like a single env."""
    replies = planner_replies(mini.graphs[0], 1)
    envs = gymnasium.make_vec(ENV, num_envs=2, vectorization_mode=mode, vector_kwargs=kwargs, suite="mini", graph=0)
    try:
        obs, _ = envs.reset(seed=[1, 2])
        single = CausaLabEnv("mini", graph=0)
        assert obs[0] == single.reset(seed=1)[0] and obs[1] == single.reset(seed=2)[0]
        obs, rewards, _terminated, _truncated, info = envs.step((replies[0], "not a record"))
        assert len(obs) == 2 and rewards.shape == (2,)
        assert info["degraded"][1] and not info["_degraded"][0]
    finally:
        envs.close()


def test_an_unusable_reply_is_a_degraded_wait_with_the_format_penalty(mini: Any) -> None:
    """Prose, non-record JSON and over-long replies become the agent's WAIT; the episode goes on."""
    env = CausaLabEnv(mini, graph=0)
    env.reset(seed=0)
    for reply, why in (("I think 42", "no JSON record"), ('{"score": 7}', "not a step record"), ("x" * (env.action_space.max_length + 1), "MAX_RL_ACTION_CHARS")):
        obs, _reward, terminated, _, info = env.step(reply)
        assert info["degraded"] and why in info["error"] and info["action"]["kind"] == "wait"
        assert info["reward_terms"]["format"] == -1.0 and not terminated
        assert "could not be used" in obs


def test_refusals_and_budgets_are_the_episodes(mini: Any) -> None:
    """An intervention on an unknown property is refused in info; a finished episode cannot be stepped."""
    env = CausaLabEnv(mini, graph=0)
    env.reset(seed=0)
    _, _, _, _, info = env.step('{"action": "INTERVENE", "arg1": "nope", "arg2": 3}')
    assert "unknown property='nope'" in info["refused"]
    _, _, terminated, _, info = env.step('{"action": "SUBMIT", "arg1": "done"}')
    assert terminated and info["reward_terms"]["premature_stop"] == -1.0
    with pytest.raises(BudgetExceededError):
        env.step('{"action": "OPEN_REACTOR"}')


def test_bad_options_are_refused_naming_them(mini: Any) -> None:
    """Unknown options, graphs, weights and seeds are input errors."""
    for kwargs, text in (({"colour": 1}, "colour"), ({"graph": "zz"}, "'zz'"), ({"rewards": "fast"}, "'fast'"), ({"budget": "x"}, "'x'")):
        with pytest.raises(InputFormatError, match=text):
            CausaLabEnv(mini, **kwargs)
    with pytest.raises(InputFormatError, match="seed"):
        CausaLabEnv(mini).reset(seed="1")  # type: ignore[arg-type]


def test_rollout_helper_and_graph_draws(mini: Any) -> None:
    """Without a graph each reset draws one from the seeded generator; rollout plays until the end."""
    env = CausaLabEnv(mini, rewards="paper")
    ids = [env.reset(seed=s)[1]["graph_id"] for s in range(6)]
    assert ids == [env.reset(seed=s)[1]["graph_id"] for s in range(6)] and len(set(ids)) > 1
    steps = rollout(env, lambda obs: '{"action": "SUBMIT"}', seed=0)
    assert len(steps) == 1 and steps[0]["reward"] == 0.0


def test_a_reply_that_is_not_text_is_degraded(mini: Any) -> None:
    """A non-string action (bytes, None) is a degraded step naming the value, not a crash."""
    env = CausaLabEnv(mini, graph=0)
    env.reset(seed=0)
    for action in (b'{"action": "OPEN_REACTOR"}', None):
        _, _, _, _, info = env.step(action)  # type: ignore[arg-type]
        assert info["degraded"] and "must be a string" in info["error"]


@pytest.mark.parametrize("where", ["memory", "arg1", "outside the record"])
def test_a_reply_holding_a_lone_surrogate_is_degraded_and_every_later_text_encodes(mini: Any, where: str) -> None:
    """A lone surrogate anywhere in a reply: a degraded step; the next observation, the trajectory and
    the info stay valid UTF-8 (the episode goes on and lab score can read the rollout)."""
    env = CausaLabEnv(mini, graph=0)
    env.reset(seed=0)
    record = {"memory": "m", "thought": "t", "action": "INTERVENE", "arg1": "density", "arg2": 3}
    if where == "outside the record":
        reply = "Sure \ud800 " + json.dumps(record)
    else:
        reply = json.dumps({**record, where: f"{record[where]}\udfff"}, ensure_ascii=False)
    obs, _, terminated, _, info = env.step(reply)
    assert not terminated
    assert info["degraded"] and "lone surrogate" in info["error"] and info["reward_terms"]["format"] == -1.0
    obs.encode("utf-8")
    json.dumps(info, ensure_ascii=False).encode("utf-8")
    env.step('{"action": "SUBMIT", "arg1": "done"}')
    header, steps = env.trajectory
    json.dumps([header, *steps], ensure_ascii=False).encode("utf-8")
    summary = env.episode.summary()
    assert score_episode(trajectory_episode(Trajectory(header, tuple(steps), summary), source="x")).final is not None


def test_a_prompt_over_the_observation_limit_is_refused_naming_the_limit(mini: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """With MAX_RL_OBSERVATION_CHARS set below the prompt size, reset refuses the episode (exit-2 error)."""
    from causalcheck.base.limits import LimitExceededError

    monkeypatch.setenv("CAUSALCHECK_MAX_RL_OBSERVATION_CHARS", "100")
    env = CausaLabEnv(mini, graph=0)
    with pytest.raises(LimitExceededError, match="MAX_RL_OBSERVATION_CHARS=100"):
        env.reset(seed=0)


@pytest.mark.parametrize("flags", [{"do": True}, {"candidate_tool": True, "oracle_chains": True}, {"budget": "1o2i", "known_structure": True}, {"max_steps": 2}])
def test_episode_options_are_lab_runs_flags(mini: Any, flags: dict[str, Any]) -> None:
    """lab run's episode flags configure the environment; a step limit truncates instead of terminating."""
    replies = planner_replies(mini.graphs[1], 2)
    env = CausaLabEnv(mini, graph=1, **flags)
    env.reset(seed=2)
    for reply in replies:
        _, _, terminated, truncated, info = env.step(reply)
        if terminated or truncated:
            break
    assert terminated or truncated
    assert truncated == (info["summary"]["done_reason"] == "step-limit")
    assert truncated == ("max_steps" in flags)


def test_reward_weights_are_checked_and_named(mini: Any) -> None:
    """A weight that is not a finite number, or a name that is not a term, is an input error naming it."""
    with pytest.raises(InputFormatError, match="consistency"):
        CausaLabEnv(mini, rewards={"consistency": float("nan")})
    with pytest.raises(InputFormatError, match="'speed'"):
        CausaLabEnv(mini, rewards={"speed": 1.0})


def test_a_made_env_pickles_and_plays_on_identically() -> None:
    """gymnasium.make's env (wrappers and all) pickles mid-episode; the copy steps and resets as the original."""
    import pickle

    env = gymnasium.make(ENV, suite="mini")
    env.reset(seed=0)
    env.step('{"action": "INTERVENE", "arg1": "pressure", "arg2": 30}')
    copy = pickle.loads(pickle.dumps(env))
    reply = '{"action": "SUBMIT", "arg1": "done"}'
    assert env.step(reply)[:4] == copy.step(reply)[:4]
    assert env.reset(seed=3)[0] == copy.reset(seed=3)[0]


def test_async_vectors_with_shared_memory_are_refused_saying_what_to_do() -> None:
    """Free-text observations cannot live in Gymnasium's shared memory: a clear error, not a worker's KeyError(':')."""
    with pytest.raises(InputFormatError, match=r"shared_memory=False"):
        gymnasium.make_vec(ENV, num_envs=2, vectorization_mode="async", suite="mini")


def test_an_impossible_action_pays_the_format_penalty_as_a_malformed_reply_does(mini: Any) -> None:
    """INTERVENE on a property that does not exist is refused by the episode and scored like 'hello'."""
    env = CausaLabEnv(mini, graph=0)
    env.reset(seed=0)
    _, impossible, _, _, info = env.step('{"action": "INTERVENE", "arg1": "nope", "arg2": 3}')
    assert info["refused"] and info["reward_terms"]["format"] == -1.0
    env.reset(seed=0)
    _, malformed, _, _, _ = env.step("hello")
    assert impossible <= malformed < 0


@pytest.mark.slow
def test_ten_thousand_degraded_steps_after_a_large_reply_share_one_carried_state(mini: Any) -> None:
    """One valid reply carrying past_data, then 10 000 garbage replies: the records the env keeps for the
    trajectory all share one read-only copy of the carried state (memory does not grow with its size, and
    its prompt JSON is dumped once); each step's info gets a fresh copy of its own (Gymnasium's rule)."""
    from causalcheck.lab.episode import EpisodeConfig

    env = CausaLabEnv(mini, graph=0, config=EpisodeConfig(max_steps=10_050))
    env.reset(seed=0)
    data = [{"id": f"r{i}", "props": {"pressure": i, "moisture": i / 2}, "freq": 10.0 + i} for i in range(300)]
    reply = {"memory": "m", "thought": "t", "past_data": data, "hypothesis": {}, "experiment": {},
             "action": "INTERVENE", "arg1": "pressure", "arg2": 30}  # fmt: skip
    assert not env.step(json.dumps(reply))[4].get("degraded")
    infos = []
    for k in range(10_000):
        _, _, terminated, truncated, info = env.step("garbage")
        assert info["degraded"] and not (terminated or truncated), k
        if k in (0, 9_999):
            infos.append(info)
    _, steps = env.trajectory
    carried = [s["record"]["past_data"] for s in steps[1:]]
    assert len(carried) == 10_000 and all(c is env.past_data for c in carried) and env.past_data == data
    assert infos[0]["record"]["past_data"] == data and infos[0]["record"]["past_data"] is not infos[1]["record"]["past_data"]
    infos[1]["record"]["past_data"].append({"mine": 1})  # info is the caller's own copy
    assert len(env.past_data) == 300
    with pytest.raises(TypeError, match="read-only"):
        steps[1]["record"]["past_data"].append({"mine": 1})


def test_the_spec_names_the_longest_step_limit_and_every_episode_truncates_within_it(mini: Any) -> None:
    """spec.max_episode_steps is the largest step limit of the graphs the env can draw; a wrong-only
    policy is truncated at its episode's own limit (the reset's info), never later than the spec's."""
    env = gymnasium.make(ENV, suite="mini")
    limits = {g.graph_id: EpisodeConfig().step_limit(g) for g in mini.graphs}
    assert env.spec is not None and env.spec.max_episode_steps == max(limits.values())
    for seed in range(4):
        _, info = env.reset(seed=seed)
        assert info["max_steps"] == limits[info["graph_id"]]
        steps, terminated, truncated = 0, False, False
        while not (terminated or truncated) and steps <= info["max_steps"]:
            *_, terminated, truncated, _ = env.step('{"action": "WAIT"}')
            steps += 1
        assert truncated and steps == info["max_steps"]
    fixed = gymnasium.make(ENV, suite="mini", graph=0, max_steps=7)
    assert fixed.spec is not None and fixed.spec.max_episode_steps == 7


def _play_both(mini: Any, graph: int, seed: int, replies: list[str]) -> tuple[list[Any], list[Any], CausaLabEnv, CausaLabEnv]:
    """Each step's (observation, reward, terminated, truncated, info) of a prompt-mode and a chat-mode env."""
    out: list[list[Any]] = [[], []]
    envs = (CausaLabEnv(mini, graph=graph), CausaLabEnv(mini, graph=graph, observation="chat"))
    for env, steps in zip(envs, out, strict=True):
        steps.append(env.reset(seed=seed))
        for reply in replies:
            steps.append(env.step(reply))
            if steps[-1][2] or steps[-1][3]:
                break
    return out[0], out[1], envs[0], envs[1]


def test_chat_mode_returns_the_new_user_turn_and_info_holds_the_conversation(mini: Any) -> None:
    """observation="chat": the first observation is the first prompt, each later one the environment's
    observation text; info["messages"] is system, first prompt, then reply / user-turn pairs; rewards,
    terminations, infos (messages aside) and the trajectory are prompt mode's."""
    replies = ["I think 42", '{"action": "INTERVENE", "arg1": "nope", "arg2": 3}', *planner_replies(mini.graphs[0], 3)]
    prompt, chat, penv, cenv = _play_both(mini, 0, 3, replies)
    assert chat[0][0] == prompt[0][0] and chat[0][1] == prompt[0][1]
    system, first = prompt[0][1]["messages"]
    conversation = [system, first]
    for k, (p, c) in enumerate(zip(prompt[1:], chat[1:], strict=True)):
        assert c[1:4] == p[1:4]
        assert {n: v for n, v in c[4].items() if n != "messages"} == {n: v for n, v in p[4].items() if n != "messages"}
        assert c[0] in p[0]  # the full prompt carries the same observation text
        conversation += [{"role": "assistant", "content": replies[k]}, {"role": "user", "content": c[0]}]
        assert c[4]["messages"] == conversation
    assert "could not be used" in chat[1][0] and "Refused: unknown property='nope'" in chat[2][0]
    assert cenv.trajectory == penv.trajectory
    shown = CausaLabEnv(mini, graph=0, observation="chat", render_mode="ansi")
    assert shown.reset(seed=1)[0] == shown.render() and shown.step('{"action": "OPEN_REACTOR"}')[0] == shown.render()


def test_chat_mode_keeps_each_reply_as_text_within_the_action_limit(mini: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reply that is not text is kept as "", an over-long one cut to MAX_RL_ACTION_CHARS, a lone
    surrogate replaced by U+FFFD: the conversation stays valid UTF-8 and bounded; every step is degraded."""
    monkeypatch.setenv("CAUSALCHECK_MAX_RL_ACTION_CHARS", "100")
    env = CausaLabEnv(mini, graph=0, observation="chat")
    env.reset(seed=0)
    for reply, kept in ((None, ""), ("x" * 150, "x" * 100), ('{"action": "OPEN_REACTOR", "memory": "\ud800"}', '{"action": "OPEN_REACTOR", "memory": "\ufffd"}')):
        obs, _, _, _, info = env.step(reply)  # type: ignore[arg-type]
        assert info["degraded"] and info["messages"][-2] == {"role": "assistant", "content": kept}
        assert info["messages"][-1] == {"role": "user", "content": obs}
    json.dumps(info, ensure_ascii=False).encode("utf-8")
    assert len(info["messages"]) == 2 + 2 * 3


def test_chat_mode_refuses_an_observation_over_the_limit_naming_it(mini: Any) -> None:
    """A user turn longer than MAX_RL_OBSERVATION_CHARS is refused as a prompt over it is."""
    from causalcheck.base.limits import LimitExceededError

    env = CausaLabEnv(mini, graph=0, observation="chat")
    env.reset(seed=0)
    env.max_observation_chars = 20
    with pytest.raises(LimitExceededError, match="MAX_RL_OBSERVATION_CHARS"):
        env.step('{"action": "OPEN_REACTOR"}')


def test_chat_mode_conversation_is_the_callers_own_each_step(mini: Any) -> None:
    """info["messages"] of one step is a list of its own: a later step does not grow it, and changing it
    changes nothing the environment keeps."""
    env = CausaLabEnv(mini, graph=0, observation="chat")
    _, info0 = env.reset(seed=0)
    _, _, _, _, info1 = env.step('{"action": "OPEN_REACTOR"}')
    assert len(info0["messages"]) == 2 and len(info1["messages"]) == 4
    info1["messages"].append({"role": "user", "content": "mine"})
    _, _, _, _, info2 = env.step('{"action": "SUBMIT"}')
    assert len(info2["messages"]) == 6 and info2["messages"][:4] == info1["messages"][:4]


def test_the_observation_and_valid_actions_options_are_checked(mini: Any) -> None:
    """observation is 'prompt' or 'chat', valid_actions true or false: anything else names the option."""
    with pytest.raises(InputFormatError, match=r"observation='full' must be 'prompt' or 'chat'"):
        CausaLabEnv(mini, observation="full")
    with pytest.raises(InputFormatError, match=r"valid_actions='yes' must be true or false"):
        CausaLabEnv(mini, valid_actions="yes")  # type: ignore[arg-type]


def _names(actions: list[dict[str, Any]]) -> list[str]:
    return [a["action"] for a in actions]


def test_valid_actions_follow_the_episode_state(mini: Any) -> None:
    """info["valid_actions"] (opt-in) lists what the episode accepts now: INTERVENE on the controllable
    properties while the manipulator is unlocked and interventions remain, OPEN_REACTOR, SET_FREQUENCY
    while submissions remain, SUBMIT; nothing once the episode is over. Default infos have no such key."""
    graph = mini.graphs[0]
    assert "valid_actions" not in CausaLabEnv(mini, graph=0).reset(seed=0)[1]
    env = CausaLabEnv(mini, graph=0, valid_actions=True, interventions=1, submissions=2)
    _, info = env.reset(seed=0)
    actions = info["valid_actions"]
    assert _names(actions) == ["INTERVENE", "OPEN_REACTOR", "SET_FREQUENCY", "SUBMIT"]
    assert actions[0] == {"action": "INTERVENE", "arg1": {"enum": list(graph.scm.controllable_names)}, "arg2": {"type": "number"}}
    assert actions[2] == {"action": "SET_FREQUENCY", "arg1": {"type": "number"}}
    prop = graph.scm.controllable_names[0]
    *_, info = env.step(json.dumps({"action": "INTERVENE", "arg1": prop, "arg2": 7}))
    assert not info["refused"] and _names(info["valid_actions"]) == ["OPEN_REACTOR", "SET_FREQUENCY", "SUBMIT"]
    *_, info = env.step('{"action": "SET_FREQUENCY", "arg1": -1}')
    assert not info["refused"] and _names(info["valid_actions"]) == ["OPEN_REACTOR", "SET_FREQUENCY", "SUBMIT"]
    *_, terminated, _, info = env.step('{"action": "SET_FREQUENCY", "arg1": -1}')
    assert terminated and info["valid_actions"] == []
    env = CausaLabEnv(mini, graph=0, valid_actions=True, submissions=0, observation="chat")
    _, info = env.reset(seed=0)
    assert _names(info["valid_actions"]) == ["INTERVENE", "OPEN_REACTOR", "SUBMIT"]
    *_, info = env.step('{"action": "OPEN_REACTOR"}')
    assert _names(info["valid_actions"]) == ["OPEN_REACTOR", "SUBMIT"]


@pytest.mark.parametrize("kwargs", [{"observation": "chat"}, {"observation": "chat", "valid_actions": True}, {"valid_actions": True}])
def test_check_env_passes_in_chat_mode_and_with_valid_actions(kwargs: dict[str, Any]) -> None:
    """Gymnasium's checker accepts the chat observations and the action list, and they pickle mid-episode."""
    import pickle

    check_env(gymnasium.make(ENV, suite="mini", graph=0, **kwargs).unwrapped)
    env = gymnasium.make(ENV, suite="mini", **kwargs)
    env.reset(seed=0)
    env.step('{"action": "INTERVENE", "arg1": "pressure", "arg2": 30}')
    copy = pickle.loads(pickle.dumps(env))
    reply = '{"action": "SUBMIT", "arg1": "done"}'
    mine, theirs = env.step(reply), copy.step(reply)
    assert mine[:4] == theirs[:4] and mine[4] == theirs[4]
