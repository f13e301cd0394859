"""The LLM lab agent: prompt contents, memory carried forward, unreadable replies, verification."""

from __future__ import annotations

import json
from typing import Any

import pytest
from causalcheck.adapters import LLMClient, Request, RetryPolicy, ScriptedLLM
from causalcheck.base.errors import InputFormatError
from causalcheck.lab.llm_agent import LLMAgent, extract_record, make_llm_agent
from causalcheck.lab.runner import run_episode
from causalcheck.lab.suites import load_suite


def _rec(memory: str, action: dict[str, Any], **extra: Any) -> str:
    base = {"memory": memory, "thought": "t", "past_data": [], "hypothesis": {}, "experiment": {}}
    return json.dumps({**base, **extra, **action})


def _agent(replies: Any, **kw: Any) -> tuple[LLMAgent, ScriptedLLM]:
    llm = ScriptedLLM(replies)
    return LLMAgent(LLMClient(llm, retry=RetryPolicy(max_attempts=1)), **kw), llm


@pytest.fixture
def graph() -> Any:
    """The first graph of the bundled mini suite."""
    return load_suite("mini").graphs[0]


def test_episode_with_memory_and_observations(graph: Any) -> None:
    """Each prompt holds the task text, the carried state, own past actions and the environment's text."""
    evidence = [{"id": "0/2", "props": {"pressure": 1}, "freq": 2}]
    agent, llm = _agent(
        [
            _rec("remember pressure", {"action": "INTERVENE", "arg1": "pressure", "arg2": 50}, past_data=evidence),
            _rec("now the reactor", {"action": "OPEN_REACTOR"}),
            _rec("guess", {"action": "SET_FREQUENCY", "arg1": 400}),
            *[_rec("done", {"action": "SUBMIT", "arg1": "done"})] * 5,
        ]
    )
    header, steps, summary = run_episode(graph, agent, 1)
    assert [s["action"]["kind"] for s in steps[:3]] == ["intervene", "open_reactor", "submit_frequency"]
    first, second = (c.messages[-1].content for c in llm.calls[:2])
    assert header["task_text"] in first and "Current Environment Observation:\nStep 0" in first
    assert "memory: remember pressure" in second
    assert json.dumps(evidence) in second  # past_data carried although step 2 wrote an empty list
    assert '{"action": "INTERVENE", "arg1": "pressure", "arg2": 50}' in second
    assert steps[1]["observation"]["text"] in second
    assert all(c.temperature == 0.1 and c.json_mode for c in llm.calls)
    assert summary["steps"] == len(steps)
    [usage] = steps[0]["info"]["llm_calls"]
    assert usage["input_tokens"] > 0 and usage["finish_reason"] == "stop" and usage["cached"] is False


def test_unreadable_reply_waits_and_keeps_state(graph: Any) -> None:
    """A reply without JSON becomes a degraded WAIT step that keeps memory and hypothesis."""
    hyp = {"edges": [{"from": "pressure", "to": "resonanceFreq"}], "freq_equation": "resonanceFreq = base + c_pressure*pressure", "coefficients": {"base": 1, "c_pressure": 2}}
    agent, _ = _agent([_rec("m1", {"action": "OPEN_REACTOR"}, hypothesis=hyp), "I think the answer is 42", *[_rec("x", {"action": "SUBMIT"})] * 5])
    _, steps, _ = run_episode(graph, agent, 1)
    wait = steps[1]
    assert wait["action"]["kind"] == "wait"
    assert wait["info"]["degraded"] is True and "no JSON record" in wait["info"]["error"]
    assert wait["record"]["hypothesis"] == hyp and wait["record"]["memory"] == "m1"


def test_history_drops_oldest_actions_first() -> None:
    """Own past actions are trimmed oldest-first to keep the prompt within its size."""
    agent, _ = _agent([], max_prompt_chars=2600)
    agent.actions = [{"action": "INTERVENE", "arg1": f"p{i}", "arg2": i} for i in range(200)]
    text = agent.prompt("obs")[-1]["content"]
    assert '"arg1": "p199"' in text and '"arg1": "p0",' not in text
    assert sum(len(m["content"]) for m in agent.prompt("obs")) <= 2600


def test_verification_step_revises_inconsistent_record(graph: Any) -> None:
    """With verify=True a record whose hypothesis has a cycle is sent back once with the findings."""
    cyclic = {
        "edges": [{"from": "pressure", "to": "moisture"}, {"from": "moisture", "to": "pressure"}],
        "freq_equation": "resonanceFreq = base",
        "coefficients": {"base": 1},
    }
    fixed = {"edges": [{"from": "pressure", "to": "moisture"}], "freq_equation": "resonanceFreq = base", "coefficients": {"base": 1}}

    def respond(req: Request) -> str:
        if "consistency check" in req.messages[-1].content:
            return _rec("fixed", {"action": "SUBMIT"}, hypothesis=fixed)
        return _rec("first", {"action": "SUBMIT"}, hypothesis=cyclic)

    agent, llm = _agent(respond, verify=True)
    _, steps, _ = run_episode(graph, agent, 1)
    check = steps[0]["info"]["verification"]
    assert check["revised"] is True and check["problems"] and check["problems_after"] == []
    assert steps[0]["record"]["hypothesis"] == fixed
    assert len(llm.calls) == 2 and len(steps[0]["info"]["llm_calls"]) == 2


def test_extract_record_forms() -> None:
    """Think blocks, fences and prose around the object are handled; the last balanced object wins."""
    assert extract_record('<think>{"no": 1}</think>{"action": "SUBMIT"}') == {"action": "SUBMIT"}
    assert extract_record('plan: {"a": 1} then {"action": "WAIT", "s": "}"}') == {"action": "WAIT", "s": "}"}
    with pytest.raises(ValueError):
        extract_record('{"action": "SUB')


def test_factory_needs_a_model() -> None:
    """The registry factory refuses to start without a model and checks the cache mode."""
    with pytest.raises(InputFormatError, match="--model"):
        make_llm_agent(seed=1)
    with pytest.raises(InputFormatError, match="cache_mode='sometimes'"):
        make_llm_agent(seed=1, model="openai/x", cache_mode="sometimes")
    for bad in ({"temperature": "hot"}, {"max_tokens": 0}, {"verify": "yes"}, {"max_cost": -1}):
        with pytest.raises(InputFormatError, match=f"{next(iter(bad))}="):
            make_llm_agent(seed=1, llm=ScriptedLLM([]), cache_mode="off", **bad)  # type: ignore[arg-type]
    agent = make_llm_agent(seed=3, llm=ScriptedLLM([]), cache_mode="off")
    assert agent.seed == 3 and isinstance(agent.llm, LLMClient)


def test_render_prompt_head_cache_gives_the_uncached_prompt() -> None:
    """A caller's head cache returns the prompt built without it, and a changed state text is not served from it."""
    from causalcheck.lab.llm_agent import render_prompt

    cache: list = [None]
    task, past, hyp = "the task", "[]", '{"edges": []}'
    for memory in ("m1", "m1", "m2", "m2"):
        args = (task, "obs", past, hyp, memory, ['{"action": "WAIT"}'], 16384)
        assert render_prompt(*args, cache) == render_prompt(*args)
    assert cache[0] is not None and cache[0][3] == "m2"
    assert "memory: m3" in render_prompt(task, "obs", past, hyp, "m3", [], 16384, cache)[1]["content"]
