"""Per-answer judge calls (``--judge-calls per-answer``): one call for an answer's edges, one for its criteria.

A scripted fake model (:func:`judge_fake`) reads every prompt layout — the paper's one-call
prompts, the answer-first one-call prompts and the two per-answer prompts — and answers each
judgment the same way in all of them (optionally with noise on the per-answer replies), so the two
modes can be compared; ``tests/benchmarks/bench_judge_batching.py`` uses it on the recorded files.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _fake_server import FakeServer, prism_responder
from causalcheck.adapters import LLMRun, RetryPolicy, ScriptedLLM, fault
from causalcheck.base.errors import InputFormatError
from causalcheck.cli import main
from causalcheck.explain.data import parse_item
from causalcheck.explain.llm import (
    LLMCriterionJudge,
    LLMEdgeJudge,
    LLMParser,
    criteria_batch_messages,
    criterion_messages,
    criterion_one_messages,
    edge_batch_messages,
    edge_messages,
    edge_one_messages,
    parse_criteria_batch,
    parse_edge_batch,
    shared_prefix,
)
from causalcheck.explain.scoring import score_item

_Q = re.compile(r"^Question: (.*)$", re.MULTILINE)
_ONE_EDGE = re.compile(r"^Source claim: (.*)\nTarget claim: (.*)\nStated relation: (.*)$", re.MULTILINE)
_LINK = re.compile(r"^Link (\d+)\nSource claim: (.*)\nTarget claim: (.*)\nStated relation: (.*)$", re.MULTILINE)
_CRIT_HEAD = re.compile(r"^Criterion (\d+) \(JSON\):\n", re.MULTILINE)

#: (question, source, target, relation) -> "yes" / "no" / "" (the call fails)
EdgeVerdict = Callable[[str, str, str, str], str]
#: (question, criterion object) -> the reply object {"score", "reason"}, or None (the call fails)
CriterionVerdict = Callable[[str, dict[str, Any]], "dict[str, Any] | None"]


def _first_json(text: str) -> dict[str, Any]:
    value, _ = json.JSONDecoder().raw_decode(text)
    return dict(value)


def _rng(seed: int, *parts: str) -> random.Random:
    return random.Random(hashlib.sha256("|".join([str(seed), *parts]).encode()).hexdigest())


def judge_fake(
    edge: EdgeVerdict,
    criterion: CriterionVerdict,
    parse: Callable[[str], str | BaseException] | None = None,
    *,
    noise: float = 0.0,
    seed: int = 0,
) -> Callable[[str], str | BaseException]:
    """A reply function ``user message -> reply`` answering every judgment by *edge* / *criterion*.

    One-call prompts (the paper's and the answer-first ones) get exactly that verdict; per-answer
    prompts get all verdicts in one JSON list, where *noise* is the chance that an edge verdict is
    flipped, a criterion score moved by one, or (half as often) an entry left out.  A judgment
    whose one call fails is left out of the per-answer reply (so its fallback call fails too).
    """

    def edges(user: str, q: str) -> str | BaseException:
        links = _LINK.findall(user)
        if not links:
            raw = edge(q, *_ONE_EDGE.search(user).groups())  # type: ignore[union-attr]
            return fault("connection") if raw == "" else raw
        out = []
        for n, s, t, r in links:
            raw, rng = edge(q, s, t, r), _rng(seed, q, "edge", n)
            if raw == "" or rng.random() < noise / 2:
                continue
            if rng.random() < noise:
                raw = "no" if raw == "yes" else "yes"
            out.append({"edge": int(n), "verdict": raw})
        return json.dumps({"verdicts": out})

    def criteria(user: str, q: str) -> str | BaseException:
        heads = list(_CRIT_HEAD.finditer(user))
        if not heads:
            body = user.split("Criterion (JSON):\n", 1)[1]
            got = criterion(q, _first_json(body))
            return fault("connection") if got is None else json.dumps(got)
        out = []
        for h in heads:
            got, rng = criterion(q, _first_json(user[h.end() :])), _rng(seed, q, "criterion", h.group(1))
            if got is None or rng.random() < noise / 2:
                continue
            score = int(got["score"])
            if rng.random() < noise:
                score = min(10, score + 1) if rng.random() < 0.5 or score == 1 else score - 1
            out.append({"criterion": int(h.group(1)), "score": score, "reason": got.get("reason", "")})
        return json.dumps({"scores": out})

    def respond(user: str) -> str | BaseException:
        if "\nText:\n" in user:
            if parse is None:
                return fault("connection")
            return parse(user.split("\nText:\n", 1)[1])
        q = _Q.search(user).group(1)  # type: ignore[union-attr]
        return edges(user, q) if "Source claim:" in user else criteria(user, q)

    return respond


def hashed_edge(q: str, s: str, t: str, r: str) -> str:
    """A deterministic yes/no per edge."""
    return "yes" if hashlib.sha256(f"{q}|{s}|{t}|{r}".encode()).digest()[0] % 3 else "no"


def hashed_criterion(q: str, c: dict[str, Any]) -> dict[str, Any]:
    """A deterministic 1..10 per criterion."""
    score = 1 + hashlib.sha256(f"{q}|{c['name']}".encode()).digest()[0] % 10
    return {"score": score, "reason": f"scripted {score}"}


def chain_parse(text: str) -> str:
    """A PRISM parser reply: the first four sentences, CAUSE-chained (prism_responder's, longer)."""
    parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+", text) if p.strip()][:4]
    edus = "\n".join(f"EDU{i}: {p}" for i, p in enumerate(parts, 1))
    rels = "\n".join(f"RELATION(EDU{i}, EDU{i + 1}): {'CAUSE' if i % 2 else 'ELABORATION'} [SN]" for i in range(1, len(parts)))
    return f"EDUs:\n{edus}\nRST ANALYSIS:\n{rels}\nTREE STRUCTURE:\nROOT\n"


def scripted(respond: Callable[[str], str | BaseException]) -> ScriptedLLM:
    return ScriptedLLM(lambda req: respond(req.messages[-1].content))


def _client(llm: ScriptedLLM) -> Any:
    return LLMRun.create(cache_mode="off", retry=RetryPolicy(max_attempts=2, base_delay=0.0)).client(llm)


ITEM = parse_item(
    {
        "id": 1,
        "question": "What if the Nile had never flooded?",
        "domain": "HASS",
        "rubrics": {
            "criteria": [
                {"name": f"C{i}", "criteria_description": f"criterion {i}", "1-2": "a", "3-4": "b", "5-6": "c", "7-8": "d", "9-10": "e"}
                for i in range(1, 6)
            ]
        },
    }
)
ANSWER = (
    "Without floods the soil would lose its silt. Harvests would shrink. Farmers would move to the delta. "
    "Cities would then grow there. Trade would follow the people."
)


# ------------------------------------------------------------------ prompts
def test_paper_prompts_are_unchanged() -> None:
    """The default one-call prompts are byte for byte the paper-layout prompts (question, claims, answer last)."""
    crit = {"name": "N", "criteria_description": "d", "1-2": "a", "3-4": "b", "5-6": "c", "7-8": "e", "9-10": "f"}
    text = json.dumps([edge_messages("Q?", "Ans {x}", "s", "t", "CAUSE"), criterion_messages("Q?", "Ans", crit)])
    # the digest of these prompts before per-answer calls were added (git HEAD's core/explain/llm.py)
    assert hashlib.sha256(text.encode()).hexdigest() == "8288ccef8b1903471b3df3b5c3539b8056f6ab381eafe2378f00dee1d5e6c6eb"
    user = edge_messages("Q?", "ANS", "s", "t", "CAUSE")[1]["content"]
    assert user.index("ANS") > user.index("Source claim")


def test_per_answer_prompts_share_the_answer_prefix() -> None:
    """Every per-answer prompt on one answer starts with the same system message, question and answer."""
    crits = [c.to_json() for c in ITEM.rubric.criteria]  # type: ignore[union-attr]
    prefix = shared_prefix(ITEM.question, ANSWER)
    prompts = [
        edge_batch_messages(ITEM.question, ANSWER, [("a", "b", "CAUSE"), ("c", "d", "RESULT")]),
        edge_one_messages(ITEM.question, ANSWER, "a", "b", "CAUSE"),
        criteria_batch_messages(ITEM.question, ANSWER, crits),
        criterion_one_messages(ITEM.question, ANSWER, crits[0]),
    ]
    for msgs in prompts:
        assert msgs[0] == prefix[0]
        assert msgs[1]["content"].startswith(prefix[1]["content"])
        assert len(msgs[1]["content"]) > len(prefix[1]["content"])
    assert ANSWER in prefix[1]["content"] and "Source claim" not in prefix[1]["content"]


# ------------------------------------------------------------------ reply rules
def test_edge_batch_reads_entries_by_number() -> None:
    """Entries match edges by number (any order, fenced or not); verdicts are read like one-call replies."""
    reply = '```json\n{"verdicts": [{"edge": 2, "verdict": "No."}, {"edge": 1, "verdict": "**yes**"}]}\n```'
    got = parse_edge_batch(reply, 2)
    assert dict(got.values) == {1: 1.0, 2: 0.0} and not got.problems


@pytest.mark.parametrize(
    ("entries", "values", "problem"),
    [
        ([{"edge": 1, "verdict": "yes"}], {1: 1.0}, "no entry for edge 2"),
        ([{"edge": 1, "verdict": "yes"}, {"edge": 2, "verdict": "no"}, {"edge": 2, "verdict": "no"}], {1: 1.0}, "answers edge 2 2 times"),
        ([{"edge": 1, "verdict": "yes"}, {"edge": 2, "verdict": "maybe"}], {1: 1.0}, "unusable"),
        ([{"edge": 1, "verdict": "no"}, {"edge": True, "verdict": "no"}, {"edge": 7, "verdict": "no"}], {1: 0.0}, "no entry for edge 2"),
        ([{"edge": 1, "verdict": "no"}, {"verdict": "yes"}, "yes"], {1: 0.0}, "no entry for edge 2"),
    ],
)
def test_edge_batch_problems_name_only_the_bad_edge(entries: list[Any], values: dict[int, float], problem: str) -> None:
    """A missing, doubled or unreadable verdict makes a problem of that edge only; unnumbered entries are ignored."""
    got = parse_edge_batch(json.dumps({"verdicts": entries}), 2)
    assert dict(got.values) == values
    assert list(got.problems) == [2] and problem in got.problems[2]


@pytest.mark.parametrize("reply", ['{"score": 7}', '{"verdicts": "yes"}', "yes", '{"verdicts": [{"edge": 3, "verdict": "yes"}]}', '{"verdicts": []}'])
def test_edge_batch_with_nothing_usable_is_asked_again(reply: str) -> None:
    """No verdicts list, or no usable verdict at all: ValueError (the client asks again, then falls back)."""
    with pytest.raises(ValueError, match=r"verdicts|answers none|no complete JSON"):
        parse_edge_batch(reply, 2)


def test_criteria_batch_scores_follow_the_paper_rule() -> None:
    """Scores are rounded and clamped to 1..10 as one-call replies; a boolean or text score is a problem of its criterion."""
    entries = [
        {"criterion": 1, "score": 7.6, "reason": "r1"},
        {"criterion": 2, "score": 14},
        {"criterion": 3, "score": True},
        {"criterion": 4, "score": "high"},
        {"criterion": 5, "score": 0, "reason": 5},
    ]
    got = parse_criteria_batch(json.dumps({"scores": entries}), 6)
    assert {n: v[:2] for n, v in got.values.items()} == {1: (8, "r1"), 2: (10, ""), 5: (1, "")}
    assert sorted(got.problems) == [3, 4, 6]
    assert "no entry for criterion 6" in got.problems[6] and "must be a number" in got.problems[3]


# ------------------------------------------------------------------ the judges
def _graph_and_edges() -> tuple[Any, list[int]]:
    result = score_item(ITEM, ANSWER, LLMParser(_client(scripted(judge_fake(hashed_edge, hashed_criterion, chain_parse)))),
                        LLMEdgeJudge(_client(scripted(judge_fake(hashed_edge, hashed_criterion)))),
                        LLMCriterionJudge(_client(scripted(judge_fake(hashed_edge, hashed_criterion)))))  # fmt: skip
    return result.graph, list(range(len(result.graph.edges)))  # type: ignore[union-attr]


def test_per_answer_edges_one_call_same_verdicts() -> None:
    """All edges of an answer in one call, with the verdicts one call per edge gives."""
    graph, edges = _graph_and_edges()
    assert len(edges) == 3
    one, many = scripted(judge_fake(hashed_edge, hashed_criterion)), scripted(judge_fake(hashed_edge, hashed_criterion))
    batched = LLMEdgeJudge(_client(one), calls="per-answer").judge_edges(ITEM, ANSWER, graph, edges)
    each = LLMEdgeJudge(_client(many)).judge_edges(ITEM, ANSWER, graph, edges)
    assert len(one.calls) == 1 and len(many.calls) == 3
    assert [j.score for j in batched] == [j.score for j in each]
    assert {j.score for j in batched} == {0.0, 1.0}
    assert not any(j.degraded or j.rationale for j in batched)


def test_missing_and_doubled_edges_fall_back_to_their_own_call() -> None:
    """Only the edges the reply misses or doubles are asked again, one call each; they are not degraded."""
    graph, edges = _graph_and_edges()
    fake = judge_fake(hashed_edge, hashed_criterion)

    def respond(user: str) -> str | BaseException:
        if "Links:" in user:
            return json.dumps({"verdicts": [{"edge": 1, "verdict": "no"}, {"edge": 2, "verdict": "yes"}, {"edge": 2, "verdict": "no"}]})
        return fake(user)

    llm = scripted(respond)
    got = LLMEdgeJudge(_client(llm), calls="per-answer").judge_edges(ITEM, ANSWER, graph, edges)
    assert len(llm.calls) == 3  # the batch, then edges 2 and 3 alone
    assert [m.messages[-1].content.count("Link ") for m in llm.calls] == [3, 0, 0]
    assert got[0].score == 0.0 and got[0].rationale == ""
    truth = LLMEdgeJudge(_client(scripted(fake))).judge_edges(ITEM, ANSWER, graph, edges)
    assert [j.score for j in got[1:]] == [j.score for j in truth[1:]]
    assert "answers edge 2 2 times" in got[1].rationale and "no entry for edge 3" in got[2].rationale
    assert not any(j.degraded for j in got)


def test_a_failed_fallback_degrades_only_that_edge() -> None:
    """An edge whose own call fails too is a degraded 0.0 naming both failures; the others keep their verdicts."""
    graph, edges = _graph_and_edges()

    def respond(user: str) -> str | BaseException:
        if "Links:" in user:
            return json.dumps({"verdicts": [{"edge": 1, "verdict": "yes"}, {"edge": 2, "verdict": "yes"}]})
        return fault("500")

    got = LLMEdgeJudge(_client(scripted(respond)), calls="per-answer").judge_edges(ITEM, ANSWER, graph, edges)
    assert [j.degraded for j in got] == [False, False, True]
    assert got[2].score == 0.0 and "no entry for edge 3" in (got[2].error or "") and "own call failed" in (got[2].error or "")
    assert got[2].to_official()["raw"]["error"] == got[2].error


def test_a_failing_batch_call_falls_back_to_one_call_per_edge() -> None:
    """A per-answer call that fails (after its re-ask) leaves every edge to its own call."""
    graph, edges = _graph_and_edges()
    fake = judge_fake(hashed_edge, hashed_criterion)
    llm = scripted(lambda user: "I cannot say." if "Links:" in user else fake(user))
    got = LLMEdgeJudge(_client(llm), calls="per-answer").judge_edges(ITEM, ANSWER, graph, edges)
    assert len(llm.calls) == 2 + 3  # the batch and its re-ask, then one call per edge
    truth = LLMEdgeJudge(_client(scripted(fake))).judge_edges(ITEM, ANSWER, graph, edges)
    assert [j.score for j in got] == [j.score for j in truth]
    assert all("the batched call failed" in j.rationale for j in got)


def test_per_answer_criteria_one_call_and_fallback() -> None:
    """All criteria in one call with the one-call scores; a missing one is graded alone and says so in raw."""
    fake = judge_fake(hashed_edge, hashed_criterion)
    crits = ITEM.rubric.criteria  # type: ignore[union-attr]
    llm = scripted(fake)
    judge = LLMCriterionJudge(_client(llm), calls="per-answer")
    got = [judge.judge_criterion(ITEM, ANSWER, c, i) for i, c in enumerate(crits, 1)]
    assert len(llm.calls) == 1
    assert [j.score for j in got] == [hashed_criterion(ITEM.question, c.to_json())["score"] for c in crits]

    def drop_third(user: str) -> str | BaseException:
        reply = fake(user)
        if "Criteria:" in user:
            obj = json.loads(str(reply))
            return json.dumps({"scores": [e for e in obj["scores"] if e["criterion"] != 3]})
        return reply

    llm = scripted(drop_third)
    judge = LLMCriterionJudge(_client(llm), calls="per-answer")
    again = [judge.judge_criterion(ITEM, ANSWER, c, i) for i, c in enumerate(crits, 1)]
    assert len(llm.calls) == 2 and [j.score for j in again] == [j.score for j in got]
    assert "no entry for criterion 3" in again[2].raw["fallback"] and not any(j.degraded for j in again)


def test_modes_score_an_item_alike_with_a_consistent_model() -> None:
    """PM, RM and Final of an item are the same in both modes when the model answers each judgment alike."""
    out = {}
    for calls in ("per-judgment", "per-answer"):
        llm = scripted(judge_fake(hashed_edge, hashed_criterion, chain_parse))
        client = _client(llm)
        res = score_item(ITEM, ANSWER, LLMParser(client), LLMEdgeJudge(client, calls=calls), LLMCriterionJudge(client, calls=calls), judge_edges="all")  # type: ignore[arg-type]
        out[calls] = (res.pm, res.rm, res.final, len(llm.calls))
    assert out["per-judgment"][:3] == out["per-answer"][:3]
    assert (out["per-judgment"][3], out["per-answer"][3]) == (1 + 3 + 5, 1 + 1 + 1)


def test_unknown_calls_mode_is_refused() -> None:
    """A judge mode other than per-judgment / per-answer is an input error naming it."""
    with pytest.raises(InputFormatError, match="'batch'"):
        LLMEdgeJudge(ScriptedLLM([]), calls="batch")  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="'batch'"):
        LLMCriterionJudge(ScriptedLLM([]), calls="batch")  # type: ignore[arg-type]


# ------------------------------------------------------------------ the command, through the HTTP fake server
def _server_reply(body: dict[str, Any]) -> str:
    user = body["messages"][-1]["content"]
    if "\nText:\n" in user:
        return prism_responder(body)
    reply = judge_fake(hashed_edge, hashed_criterion)(user)
    assert isinstance(reply, str)
    return reply


def _score(out: Path, base: str, cache: Path, *extra: str) -> int:
    return main([
        "explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong", "--limit", "2",
        "--out", str(out), "--judge", "openai/fake-judge", "--base-url", base, "--cache", str(cache),
        "--retry-base-delay", "0", "--max-retries", "1", *extra,
    ])  # fmt: skip


def test_command_counts_calls_and_keeps_the_modes_apart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Over HTTP: one edge call and one criterion call per item; the per-answer results go to their own
    files, say their mode, and leave the per-judgment results of the same folder untouched."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "out"
    with FakeServer(_server_reply) as srv:
        assert _score(out, srv.base_url, tmp_path / "c.sqlite") == 0
        [paper] = sorted(out.glob("*_metrics_*.json"))
        before = paper.read_bytes()
        paper_users = [b["messages"][-1]["content"] for b in srv.requests]
        n_before = len(srv.requests)
        assert _score(out, srv.base_url, tmp_path / "c.sqlite", "--judge-calls", "per-answer") == 0
        batched = srv.requests[n_before:]
    files = sorted(out.glob("*_metrics_*.json"))
    assert len(files) == 2 and paper.read_bytes() == before
    [mine] = [f for f in files if f != paper]
    assert mine.name.endswith("_metrics_openai_fake-judge_per-answer_calls.json")
    doc, first = json.loads(mine.read_text()), json.loads(before)
    assert doc["meta"]["judge_model"] == "openai/fake-judge (per-answer calls)" and first["meta"]["judge_model"] == "openai/fake-judge"
    assert json.loads(mine.with_suffix(".run").read_text())["options"]["judge"] == "openai/fake-judge (per-answer calls)"
    users = [b["messages"][-1]["content"] for b in batched]
    items = len(doc["items"])
    judged = sum(1 for it in doc["items"] if any(e["relation_type"] == "CAUSE" for e in it["parsed_dag"]["edges"]))
    assert sum("Source claim:" in u for u in users) == judged
    assert sum("Criteri" in u for u in users) == items == 2
    assert sum("Criteri" in u for u in paper_users) == 5 * items
    assert sum("Source claim:" in u for u in paper_users) > judged
    assert [it["pm_score"] for it in doc["items"]] == [it["pm_score"] for it in first["items"]]
    assert [it["rm_score"] for it in doc["items"]] == [it["rm_score"] for it in first["items"]]


def test_judge_calls_without_a_model_judge_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--judge-calls per-answer without --judge exits 2 naming the flag."""
    code = main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(tmp_path / "o"), "--judge-calls", "per-answer"])
    assert code == 2 and "--judge-calls per-answer needs --judge" in capsys.readouterr().err
