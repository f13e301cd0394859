"""The verifiers rubric: a transcript of any replies scores the Gymnasium return of those replies.

Traces are built directly (turns committed as verifiers' interception commits them), so no
rollout runs; the task's ``score`` reads the transcript alone, as one conversation or as one
branch a turn (``user_turn="fresh"``).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

vf = pytest.importorskip("verifiers.v1", reason="the verifiers extra is not installed: pip install 'causalcheck[verifiers]'")
pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed: pip install 'causalcheck[rl]'")

from causalcheck.rl import verifiers_env as ve  # noqa: E402
from causalcheck.rl.env import CausaLabEnv  # noqa: E402
from causalcheck.rl.rewards import TERMS  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from verifiers.v1 import graph  # noqa: E402

_RECORDS = st.fixed_dictionaries(
    {"action": st.sampled_from(["INTERVENE", "OPEN_REACTOR", "SET_FREQUENCY", "SUBMIT", "WAIT"])},
    optional={
        "arg1": st.sampled_from(["pressure", "moisture", "temperature", "nope", 12.5]),
        "arg2": st.integers(-100, 900),
        "hypothesis": st.just({"edges": [{"from": "pressure", "to": "resonanceFreq"}], "freq_equation": "resonanceFreq = base + c_pressure*pressure", "coefficients": {"base": 3, "c_pressure": 1}}),
    },
)
_REPLIES = st.text(max_size=40) | _RECORDS.map(json.dumps)
_WEIGHTS = st.sampled_from(["dense", "paper"]) | st.dictionaries(st.sampled_from(sorted(TERMS)), st.floats(-2, 2, allow_nan=False), max_size=4)

_TASKS: dict[Any, Any] = {}


def _task(rewards: Any, seed: int) -> Any:
    key = (json.dumps(rewards, sort_keys=True), seed)
    if key not in _TASKS:
        config = ve.CausaLabConfig(id=ve.TASKSET_ID, suite="mini", graphs=["mini3nodes_0"], seeds=[seed], rewards=rewards)
        (_TASKS[key],) = list(ve.CausaLabTaskset(config))
    return _TASKS[key]


def _trace(task: Any, replies: list[str], fresh: bool) -> Any:
    """A trace of *replies*: one conversation, or (*fresh*) each turn a context of its own, one branch a turn."""
    trace = vf.Trace(agent=vf.AgentInfo(config=vf.AgentConfig()), task=vf.TraceTask(type="CausaLabTask", data=task.data))
    system = vf.SystemMessage(content=task.data.system_prompt)
    messages: list[Any] = [system, vf.UserMessage(content=task.data.prompt)]
    for k, reply in enumerate(replies):
        answer = vf.AssistantMessage(content=reply)
        graph.prepare_turn(trace, messages).commit(vf.Response(id=str(k), created=0, model="m", message=answer, finish_reason="stop"))
        turn = vf.UserMessage(content=f"turn {k}")
        messages = [system, turn] if fresh else [*messages, answer, turn]
    return trace


@settings(max_examples=40, deadline=None)
@given(_WEIGHTS, st.integers(0, 50), st.lists(_REPLIES, min_size=1, max_size=10), st.booleans())
def test_transcript_score_is_the_gymnasium_return(rewards: Any, seed: int, replies: list[str], fresh: bool) -> None:
    """Any replies score the Gymnasium return of those replies, whether the trace holds one
    conversation or a context a turn (user_turn="fresh")."""
    task = _task(rewards, seed)
    trace = _trace(task, replies, fresh)
    assert trace.num_branches == (len(replies) if fresh else 1)
    asyncio.run(task.score(trace))
    env = CausaLabEnv("mini", "mini3nodes_0", rewards=rewards)
    env.reset(seed=seed)
    total, played = 0.0, 0
    for reply in replies:
        _, reward, terminated, truncated, _ = env.step(reply.strip())
        total += reward
        played += 1
        if terminated or truncated:
            break
    assert trace.reward == pytest.approx(total, abs=1e-9)
    assert trace.metrics["steps"] == played
    assert trace.metrics["unused_replies"] == len(replies) - played
    weights = task.data.weights
    for name, value in trace.rewards.items():
        assert value is not None and weights[name] != 0 and value.weight == weights[name]
        low, high = TERMS[name]
        assert played * low - 1e-9 <= value.score <= played * high + 1e-9
