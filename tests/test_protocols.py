"""The model protocol from the user's side: a bare ``complete()`` object works everywhere, and the
optional capabilities (``complete_parsed``, ``meter``) are found by shape, never by class."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import pytest
from causalcheck.base.aio import run_sync
from causalcheck.explain.answer import generate_answers
from causalcheck.explain.data import load_benchmark
from causalcheck.explain.llm import LLMCriterionJudge, LLMEdgeJudge, LLMParser
from causalcheck.explain.scoring import score_item
from causalcheck.lab.episode import Agent
from causalcheck.lab.llm_agent import LLMAgent
from causalcheck.lab.runner import run_episode
from causalcheck.lab.suites import load_suite
from causalcheck.protocols import (
    LLM,
    Completion,
    MeteredLLM,
    ParsingLLM,
    Request,
    complete_parsed,
    meter_summary,
)

ANSWER = "If the Moon vanished, tides would shrink. As a result, coastal ecosystems would change."
RST = (
    "EDUs:\nEDU1: If the Moon vanished,\nEDU2: tides would shrink.\nEDU3: As a result, coastal ecosystems would change.\n"
    "RST ANALYSIS:\nRELATION(EDU1, EDU2): CONDITION [SN]\nRELATION(EDU2, EDU3): RESULT [SN]\n"
    "TREE STRUCTURE:\nROOT\n"
)
T = TypeVar("T")
RECORD = {"memory": "m", "thought": "t", "past_data": [], "hypothesis": {}, "experiment": {}, "action": "OPEN_REACTOR"}


def reply_for(request: Request) -> str:
    """What a cooperative model says to each kind of causalcheck prompt."""
    user = request.messages[-1].content
    if "\nText:\n" in user:
        return RST
    if "Source claim:" in user:
        return "yes"
    if "Criterion (JSON):" in user:
        return json.dumps({"score": 7, "reason": "fine"})
    if "Your JSON record:" in user:
        return json.dumps(RECORD)
    return ANSWER


class PlainLLM:
    """A user's own model: the four members of the protocol and nothing else (not an adapter class)."""

    provider = "mine"
    model = "plain"
    endpoint = ""

    def __init__(self, reply: Callable[[Request], str] = reply_for) -> None:
        self.reply = reply
        self.requests: list[Request] = []

    async def complete(self, request: Request) -> Completion:
        self.requests.append(request)
        return Completion(self.reply(request))


class ParsingPlainLLM(PlainLLM):
    """A model of one's own that also offers the parsing capability (it records that it was used)."""

    def __init__(self, reply: Callable[[Request], str] = reply_for) -> None:
        super().__init__(reply)
        self.parsed_calls = 0

    async def complete_parsed(self, request: Request, parse: Callable[[Completion], T]) -> tuple[Completion, T]:
        self.parsed_calls += 1
        completion = await self.complete(request)
        return completion, parse(completion)


class Meter:
    def summary(self) -> Mapping[str, Any]:
        return {"calls": 3, "cost_usd": 0.5}


class MeteredPlainLLM(PlainLLM):
    """A model of one's own with a meter."""

    meter = Meter()


def test_capabilities_are_structural() -> None:
    """A bare model is an LLM and nothing more; adding a method or a meter adds the capability."""
    assert isinstance(PlainLLM(), LLM)
    assert not isinstance(PlainLLM(), ParsingLLM) and not isinstance(PlainLLM(), MeteredLLM)
    assert isinstance(ParsingPlainLLM(), ParsingLLM)
    assert isinstance(MeteredPlainLLM(), MeteredLLM)
    assert meter_summary(PlainLLM()) == {} and meter_summary(MeteredPlainLLM()) == {"calls": 3, "cost_usd": 0.5}


def test_complete_parsed_uses_the_capability_only_when_present() -> None:
    """The helper calls the model's own complete_parsed when it has one, else complete() and parse once."""
    request = Request.chat([{"role": "user", "content": "Source claim: a"}])
    plain, parsing = PlainLLM(), ParsingPlainLLM()
    assert run_sync(complete_parsed(plain, request, lambda c: c.text.upper()))[1] == "YES"
    assert run_sync(complete_parsed(parsing, request, lambda c: c.text.upper()))[1] == "YES"
    assert parsing.parsed_calls == 1 and len(plain.requests) == 1


def test_plain_model_drives_the_prism_parser_and_judges() -> None:
    """The LLM parser, edge judge and criterion judge score an item through a bare model, not degraded."""
    item = load_benchmark("demo").items[0]
    llm = PlainLLM()
    result = score_item(item, ANSWER, LLMParser(llm), LLMEdgeJudge(llm), LLMCriterionJudge(llm), strip_injections=False)
    assert result.ok and not result.degraded, result.degraded_reasons
    assert result.record is not None and result.record.source == "parser"
    assert result.pm == 1.0 and result.rm == pytest.approx(0.7)


def test_plain_model_rejection_is_degraded_after_one_call() -> None:
    """Without the parsing capability an unreadable verdict is not re-asked: one call, a degraded 0.0."""
    item = load_benchmark("demo").items[0]
    llm = PlainLLM(lambda r: "RST" if "\nText:\n" in r.messages[-1].content else "maybe")
    [judgment] = run_sync(LLMEdgeJudge(llm).ajudge_edges(item, ANSWER, _graph(), [0]))
    assert judgment.degraded and judgment.score == 0.0 and "yes or no" in (judgment.error or "")
    assert len(llm.requests) == 1


def test_parsing_capability_is_used_by_the_judges() -> None:
    """A user model offering complete_parsed gets every judge call through it."""
    item = load_benchmark("demo").items[0]
    llm = ParsingPlainLLM()
    score_item(item, ANSWER, LLMParser(llm), LLMEdgeJudge(llm), LLMCriterionJudge(llm), strip_injections=False)
    assert llm.parsed_calls == len(llm.requests) > 0


def test_plain_and_metered_models_generate_answers(tmp_path: Path) -> None:
    """Answer generation runs on a bare model (empty accounting) and reports a user meter's summary."""
    items = load_benchmark("demo").items[:2]
    plain = run_sync(generate_answers(items, PlainLLM(), tmp_path / "plain.jsonl"))
    assert (plain.answered, plain.failed, dict(plain.accounting)) == (2, 0, {})
    metered = run_sync(generate_answers(items, MeteredPlainLLM(), tmp_path / "metered.jsonl"))
    assert dict(metered.accounting) == {"calls": 3, "cost_usd": 0.5}
    lines = [json.loads(x) for x in (tmp_path / "plain.jsonl").read_text().splitlines()]
    assert [x["model_name"] for x in lines] == ["mine/plain"] * 2 and all(x["model_answer"] == ANSWER for x in lines)


def test_plain_model_plays_a_lab_episode() -> None:
    """The LLM lab agent plays an episode through a bare model; the agent satisfies the Agent protocol."""
    agent = LLMAgent(PlainLLM())
    assert isinstance(agent, Agent)
    _, steps, _ = run_episode(load_suite("mini").graphs[0], agent, 1)
    assert steps[0]["action"]["kind"] == "open_reactor" and not steps[0]["info"].get("degraded")


def _graph() -> Any:
    from causalcheck.explain.explanation_graph import (
        ExplanationEdge,
        ExplanationGraph,
        ExplanationNode,
    )

    return ExplanationGraph(
        nodes=(ExplanationNode("EDU1", "tides would shrink."), ExplanationNode("EDU2", "coastal ecosystems would change.")),
        edges=(ExplanationEdge("EDU1", "EDU2", "RESULT"),),
    )
