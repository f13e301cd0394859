"""The LLM-backed PRISM pipeline reproduces a recorded result through a scripted model.

The fake model answers from the recorded file: the parser call gets the recorded
``parsed_rst_raw`` (or, where the recorded parse failed, a reset connection — so it fails
here too), each edge call the recorded yes/no (or a reset where the recording has an error),
each criterion call the recorded JSON.  Lookups go by the claim texts and the criterion
name, so they line up only with ``compat="anchor"`` parsing and all-edge judging.

The reproduction of the original system's numbers runs on the official test2 gpt-5.5 file
(``whatif_result``: skips without the anchors); the tests that replay a recorded file also run on
our own LLM pipeline's (``own_llm_result``: written through a scripted model on hand-written items).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from causalcheck.adapters import LLMRun, Request, RetryPolicy, ScriptedLLM, fault
from causalcheck.explain.data import parse_item
from causalcheck.explain.llm import (
    LLMCriterionJudge,
    LLMEdgeJudge,
    LLMParser,
    extract_json_object,
    parse_criterion_reply,
    parse_yes_no,
)
from causalcheck.explain.scoring import score_item

_SRC = re.compile(r"^Source claim: (.*)$", re.MULTILINE)
_TGT = re.compile(r"^Target claim: (.*)$", re.MULTILINE)
_REL = re.compile(r"^Stated relation: (.*)$", re.MULTILINE)
_Q = re.compile(r"^Question: (.*)$", re.MULTILINE)


def recorded_responder(items: list[dict[str, Any]]) -> Any:
    """A responder that replays the recorded parser output and judge answers of *items*."""
    parser_replies: dict[str, str | None] = {}
    edges: dict[tuple[str, str, str, str], str] = {}
    criteria: dict[tuple[str, str], dict[str, Any]] = {}
    for it in items:
        parser_replies[it["model_answer"]] = it["parsed_rst_raw"] if it["parsed_rst_source"] == "parser" else None
        text = {n["id"]: n["text"] for n in it["parsed_dag"]["nodes"]}
        for e, j in zip(it["parsed_dag"]["edges"], it["metrics"]["pm"]["edges"], strict=True):
            edges[(it["question"], text[e["source"]], text[e["target"]], e["relation_type"])] = j["raw"]["raw"]
        for c in it["metrics"]["rm"]["criterion_evaluations"]:
            criteria[(it["question"], c["name"])] = c["raw"]

    def respond(req: Request) -> Any:
        user = req.messages[-1].content
        if "\nText:\n" in user:
            reply = parser_replies[user.split("\nText:\n", 1)[1]]
            return fault("connection") if reply is None else reply
        if "Source claim:" in user:
            key = (_Q.search(user).group(1), _SRC.search(user).group(1), _TGT.search(user).group(1), _REL.search(user).group(1))  # type: ignore[union-attr]
            raw = edges[key]
            return fault("connection") if raw == "" else raw
        crit = json.loads(user.split("Criterion (JSON):\n", 1)[1].split("\n\nAnswer:\n", 1)[0])
        return json.dumps(criteria[(_Q.search(user).group(1), crit["name"])])  # type: ignore[union-attr]

    return respond


def _pipeline(llm: ScriptedLLM, compat: str = "anchor") -> tuple[LLMRun, Any, Any, Any]:
    run = LLMRun.create(cache_mode="off", retry=RetryPolicy(max_attempts=2, base_delay=0.0))
    client = run.client(llm)
    return run, LLMParser(client, compat=compat), LLMEdgeJudge(client), LLMCriterionJudge(client)  # type: ignore[arg-type]


def _items(path: Path) -> list[dict[str, Any]]:
    return list(json.loads(path.read_text(encoding="utf-8"))["items"])


@pytest.fixture(params=["own_llm_result", "whatif_result"])
def recorded(request: pytest.FixtureRequest) -> list[dict[str, Any]]:
    """The items of a recorded result file: our LLM pipeline's, and the official test2 gpt-5.5 file."""
    return _items(request.getfixturevalue(request.param))


@pytest.fixture
def own_recorded(own_llm_result: Path) -> list[dict[str, Any]]:
    """The items of our LLM pipeline's result file (parser and heuristic items, a failed edge call)."""
    return _items(own_llm_result)


def test_reproduces_official_scores(recorded: list[dict[str, Any]]) -> None:
    """Per-item PM, RM, total, graph and edge answers equal the file; failed parses come out degraded."""
    llm = ScriptedLLM(recorded_responder(recorded), model="gpt-5.5")
    _, parser, edge_judge, crit_judge = _pipeline(llm)
    for it in recorded:
        res = score_item(parse_item(it), it["model_answer"], parser, edge_judge, crit_judge, judge_edges="all", strip_injections=False)
        assert res.ok, res.error
        assert res.pm == pytest.approx(it["pm_score"], abs=1e-12), it["id"]
        assert res.rm == pytest.approx(it["rm_score"], abs=1e-12), it["id"]
        assert res.final == pytest.approx(it["total_score"], abs=1e-12), it["id"]
        assert res.graph is not None and res.graph.to_json() == it["parsed_dag"], it["id"]
        assert [j.raw for j in res.edge_judgments if j is not None] == [e["raw"]["raw"] for e in it["metrics"]["pm"]["edges"]]
        assert [c.score for c in res.criterion_judgments] == it["metrics"]["rm"]["criterion_scores"]
        parse_failed = it["parsed_rst_source"] != "parser"
        assert res.record is not None and (res.record.source == "heuristic") == parse_failed
        assert any("parser" in r for r in res.degraded_reasons) == parse_failed, it["id"]
        edge_failed = any("error" in e["raw"] for e in it["metrics"]["pm"]["edges"])
        assert res.degraded == (parse_failed or edge_failed)


def test_causal_only_judging_same_scores_fewer_calls(own_recorded: list[dict[str, Any]]) -> None:
    """Judging only the causal edges gives the same PM, RM and total with fewer calls."""
    counts = {}
    for mode in ("all", "causal"):
        llm = ScriptedLLM(recorded_responder(own_recorded), model="gpt-5.5")
        run, parser, edge_judge, crit_judge = _pipeline(llm)
        totals = []
        for it in own_recorded:
            res = score_item(parse_item(it), it["model_answer"], parser, edge_judge, crit_judge, judge_edges=mode, strip_injections=False)  # type: ignore[arg-type]
            totals.append((res.pm, res.rm, res.final))
        counts[mode] = (run.meter.calls, totals)
    assert counts["causal"][1] == counts["all"][1]
    assert counts["causal"][0] < counts["all"][0]


def test_full_compat_reads_span_references() -> None:
    """compat='full' keeps `EDU2+3` / `EDU1-EDU2` relations the anchor drops, and honours NS."""
    raw = (
        "EDUs:\nEDU1: The Moon vanishes.\nEDU2: Tides shrink.\nEDU3: Coastal life changes.\nEDU4: Fishing fails.\n"
        "RST ANALYSIS:\nRELATION(EDU1, EDU2+3): CAUSE [SN]\nRELATION(EDU4, EDU3): RESULT [NS]\n"
        "TREE STRUCTURE:\nROOT\n"
    )
    answer = "The Moon vanishes. Tides shrink. Coastal life changes. Fishing fails."
    from causalcheck.explain.rst import project_to_graph

    graphs = {}
    for compat in ("full", "anchor"):
        _, parser, _, _ = _pipeline(ScriptedLLM([raw]), compat)
        graphs[compat] = {(e.source, e.target, e.relation_type) for e in project_to_graph(parser.parse(answer)).edges}
    assert ("EDU1", "EDU2", "CAUSE") in graphs["full"] and ("EDU1", "EDU3", "CAUSE") in graphs["full"]
    assert ("EDU3", "EDU4", "RESULT") in graphs["full"]
    assert ("EDU4", "EDU3", "RESULT") in graphs["anchor"]
    assert not any(r == "CAUSE" for _, _, r in graphs["anchor"])


def test_parser_failure_raises_after_one_reask() -> None:
    """Output without EDUs is asked twice, then the parser raises (the scorer falls back, degraded)."""
    from causalcheck.base.errors import CausalCheckError

    llm = ScriptedLLM(["I cannot do that.", "Still no."])
    _, parser, _, _ = _pipeline(llm)
    with pytest.raises(CausalCheckError, match="EDUs"):
        parser.parse("Some answer.")
    assert len(llm.calls) == 2


def test_judges_degrade_with_error_instead_of_silent_zero() -> None:
    """Unusable replies become degraded judgments that carry the error."""
    from causalcheck.explain.explanation_graph import (
        ExplanationEdge,
        ExplanationGraph,
        ExplanationNode,
    )

    item = parse_item({"id": 1, "question": "What if?", "domain": "STEM"})
    graph = ExplanationGraph((ExplanationNode("EDU1", "a"), ExplanationNode("EDU2", "b")), (ExplanationEdge("EDU1", "EDU2", "CAUSE"),))
    _, _, edge_judge, crit_judge = _pipeline(ScriptedLLM(["maybe", "perhaps", '{"score": "high"}', '{"score": "x"']))
    [ej] = edge_judge.judge_edges(item, "a so b", graph, [0])
    assert ej.degraded and ej.score == 0.0 and "yes or no" in (ej.error or "")
    from causalcheck.explain.data import Criterion

    cj = crit_judge.judge_criterion(item, "a so b", Criterion("c", "d", ("1", "2", "3", "4", "5")), 1)
    assert cj.degraded and cj.score == 1 and cj.error


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"score": 7.6, "reason": "r"}', 8),
        ('```json\n{"score": 12, "reason": "r"}\n```', 10),
        ('Here: {"score": 0, "reason": "r"}', 1),
        ('{"reason": "r", "score": "6"}', 6),
    ],
)
def test_parse_criterion_reply(text: str, expected: int) -> None:
    """Scores are read from fenced or embedded JSON, rounded and clamped to 1..10."""
    assert parse_criterion_reply(text)[0] == expected


@pytest.mark.parametrize("text", ['{"score": 7, "reas', "no json", '{"score": null}', '{"score": true}'])
def test_parse_criterion_reply_rejects(text: str) -> None:
    """Truncated JSON and missing or non-numeric scores are rejected (then re-asked / degraded)."""
    with pytest.raises(ValueError):
        parse_criterion_reply(text)


def test_yes_no_and_json_helpers() -> None:
    """Yes/no replies tolerate case and markdown; JSON extraction skips prose around the object."""
    assert parse_yes_no("  YES, clearly") == 1.0
    assert parse_yes_no("`no`") == 0.0
    with pytest.raises(ValueError):
        parse_yes_no("unclear")
    assert extract_json_object('x {"a": {"b": 1}} y') == {"a": {"b": 1}}


def test_criteria_of_an_item_are_judged_concurrently() -> None:
    """The first criterion request judges all of the item's criteria at once; each verdict goes to its criterion."""
    import time

    from causalcheck.explain.data import criteria_of

    crits = [
        {"name": f"c{i}", "criteria_description": "d", "1-2": "a", "3-4": "b", "5-6": "c", "7-8": "d", "9-10": "e"}
        for i in range(1, 6)
    ]
    item = parse_item({"id": 1, "question": "What if?", "domain": "STEM", "rubrics": {"criteria": crits}})

    def respond(req: Request) -> str:
        name = json.loads(req.messages[-1].content.split("Criterion (JSON):\n", 1)[1].split("\n\nAnswer:\n", 1)[0])["name"]
        return json.dumps({"score": int(name[1:]) + 2, "reason": name})

    llm = ScriptedLLM(respond, delay=0.3)
    _, _, _, judge = _pipeline(llm)
    t0 = time.perf_counter()
    got = [judge.judge_criterion(item, "answer", c, i) for i, c in enumerate(criteria_of(item), start=1)]
    elapsed = time.perf_counter() - t0
    assert [(g.score, g.reason) for g in got] == [(i + 2, f"c{i}") for i in range(1, 6)]
    assert len(llm.calls) == 5 and elapsed < 5 * 0.3
