"""The offline judges notice relevance: an answer to another item's question scores below the
item's own good answer; cue rules for meta-talk, "this / that" across sentences, clause direction.

The held-out check uses causalcheck's own held-out validity set (``tests/fixtures/explain_validity/heldout``,
written by hand and not used while the rules were written); ``tests/benchmarks/bench_explain_relevance.py``
prints its figures on a recorded WhatIfBench result file when the anchors are present.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path

from causalcheck.explain._text import content_lemmas
from causalcheck.explain.data import WhatIfItem, load_answer_sets, load_benchmark
from causalcheck.explain.explanation_graph import ExplanationEdge, ExplanationGraph, ExplanationNode
from causalcheck.explain.offline import OfflineCriterionJudge, OfflineEdgeJudge
from causalcheck.explain.relations import OfflineParser
from causalcheck.explain.scoring import score_item

PARSER, EDGE, CRIT = OfflineParser(), OfflineEdgeJudge(), OfflineCriterionJudge()


def _final(item: WhatIfItem, answer: str) -> float:
    return score_item(item, answer, PARSER, EDGE, CRIT).final


def _cross(pairs: Sequence[tuple[WhatIfItem, str]], keys: set[str]) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """Own Final per item in *keys*, and the Final of every other item's answer scored against it."""
    own = {it.key: _final(it, a) for it, a in pairs if it.key in keys}
    cross = {(it.key, other.key): _final(it, b) for it, _ in pairs if it.key in keys for other, b in pairs if other.key != it.key}
    return own, cross


def _demo_pairs() -> list[tuple[WhatIfItem, str]]:
    strong = {s.model: s for s in load_answer_sets("demo")}["demo-strong"]
    return [(it, strong.answers[it.key].text or "") for it in load_benchmark("demo").items]


def test_demo_answers_to_other_questions_score_far_below_the_own_answer() -> None:
    """Bundled demo: each item's strong answer against every other item's strong answer (132 pairs)."""
    pairs = _demo_pairs()
    own, cross = _cross(pairs, {it.key for it, _ in pairs})
    beaten = {k: v for k, v in cross.items() if v >= own[k[0]]}
    assert not beaten, f"answers to another question reach the item's own Final: {beaten}"
    # before relevance: cross mean Final 0.70 against 0.83 for the own answers
    assert statistics.mean(cross.values()) <= 0.5 * statistics.mean(own.values())


def test_an_off_premise_chain_is_not_a_supported_edge() -> None:
    """The Moon item's strong answer scored for the ice item (before: PM 1.00, RM 0.50, Final 0.75 against
    the ice answer's 0.80): its tidal chain is off premise; only the "ice ages" sentence still counts."""
    pairs = dict((it.key, (it, a)) for it, a in _demo_pairs())
    ice, ice_answer = pairs["demo_stem_03"]
    _, moon_answer = pairs["demo_stem_01"]
    wrong = score_item(ice, moon_answer, PARSER, EDGE, CRIT)
    right = score_item(ice, ice_answer, PARSER, EDGE, CRIT)
    causal = [wrong.edge_judgments[i] for i in wrong.graph.causal_indices()] if wrong.graph else []
    assert causal, "the Moon answer has causal edges"
    assert wrong.pm <= 0.4 < right.pm
    assert any("rule 6" in j.rationale for j in causal if j is not None)
    assert wrong.rm < right.rm - 0.25
    assert wrong.final < 0.5 * right.final


HELDOUT = Path(__file__).resolve().parent / "fixtures" / "explain_validity" / "heldout"


def _heldout_pairs() -> list[tuple[WhatIfItem, str]]:
    """The held-out validity items with their best hand-written answers (kind A)."""
    rows = [json.loads(line) for line in (HELDOUT / "answers.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    best = {r["id"]: r["answer"] for r in rows if r["kind"] == "A"}
    return [(it, best[it.key]) for it in load_benchmark(HELDOUT / "items.json").items]


def test_held_out_answers_to_other_questions_score_below() -> None:
    """Held-out validity set (12 items, 132 pairs): every other item's answer scores below the item's own,
    and far below on average."""
    pairs = _heldout_pairs()
    assert len(pairs) == 12
    own, cross = _cross(pairs, {it.key for it, _ in pairs})
    beaten = {k: round(v, 3) for k, v in cross.items() if v >= own[k[0]]}
    assert not beaten, f"answers to another question reach the item's own Final: {beaten}"
    assert statistics.mean(cross.values()) <= 0.6 * statistics.mean(own.values())


def _judge_two(item: WhatIfItem, answer: str, source: str, target: str, label: str = "RESULT") -> tuple[float, str]:
    graph = ExplanationGraph(nodes=(ExplanationNode("EDU1", source), ExplanationNode("EDU2", target)), edges=(ExplanationEdge("EDU1", "EDU2", label),))
    j = EDGE.judge_edges(item, answer, graph, [0])[0]
    return j.score, j.rationale


def test_meta_talk_is_no_causal_claim() -> None:
    """"Since the prompt is ambiguous, I'll assume …" gives no relation and no supported edge."""
    answer = "Since the prompt is ambiguous, I will assume that ice sank in every lake. Lakes would freeze solid, so fish would die."
    rels = PARSER.parse(answer).relations
    texts = {e.id: e.text for e in PARSER.parse(answer).edus}
    meta = {i for i, t in texts.items() if "prompt" in t or "assume" in t}
    assert meta and not [r for r in rels if {r.source, r.target} & meta]
    assert any(r.type == "RESULT" for r in rels)  # the real claim keeps its edge
    item = load_benchmark("demo").items[2]
    score, why = _judge_two(item, answer, "Since the prompt is ambiguous,", "I will assume that ice sank in every lake.", "CAUSE")
    assert score == 0.0 and "meta-talk" in why


def test_that_would_links_across_sentences() -> None:
    """"A. That would B": the parser draws A → B (RESULT) and the judge supports it without shared words."""
    answer = "If ice sank, lakes would freeze from the bottom up. That would kill most fish during winter."
    record = PARSER.parse(answer)
    texts = {e.id: e.text for e in record.edus}
    result = [(texts[r.source], texts[r.target]) for r in record.relations if r.type == "RESULT"]
    assert ("lakes would freeze from the bottom up.", "That would kill most fish during winter.") in result
    item = load_benchmark("demo").items[2]
    score, why = _judge_two(item, answer, "lakes would freeze from the bottom up.", "That would kill most fish during winter.")
    assert score == 1.0, why
    assert not content_lemmas("lakes would freeze from the bottom up.") & content_lemmas("That would kill most fish during winter.")


def test_because_of_this_links_the_sentences_around_it() -> None:
    """"A. Because of this, B" → A → B (not the vague stub "Because of this," as a cause)."""
    answer = "If ice sank, lakes would freeze from the bottom up. Because of this, most fish would die during winter."
    record = PARSER.parse(answer)
    texts = {e.id: e.text for e in record.edus}
    pairs = [(texts[r.source], texts[r.target]) for r in record.relations]
    assert ("lakes would freeze from the bottom up.", "most fish would die during winter.") in pairs


def test_a_sentence_initial_because_explains_its_own_sentence() -> None:
    """"A. Because B, C": B is the cause of C, not of A — an edge B → A is not supported."""
    item = load_benchmark("demo").items[2]
    answer = "Lakes would freeze from the bottom up. Because dense ice would sink, fish would lose their refuge."
    score, why = _judge_two(item, answer, "Because dense ice would sink,", "Lakes would freeze from the bottom up.", "CAUSE")
    assert score == 0.0 and "own sentence" in why
    score, why = _judge_two(item, answer, "Because dense ice would sink,", "fish would lose their refuge.", "CAUSE")
    assert score == 1.0, why
    # a whole-sentence "Because B." still explains the sentence before it
    fragment = "Lakes would freeze from the bottom up. Because dense ice would sink to the floor of the lakes."
    score, why = _judge_two(item, fragment, "Because dense ice would sink to the floor of the lakes.", "Lakes would freeze from the bottom up.", "CAUSE")
    assert score == 1.0, why
