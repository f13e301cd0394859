"""Properties of the offline judges' relevance and cue rules (causalcheck.explain.judges, ._premise).

* an answer whose words are all foreign to the item gets no supported causal edge and the
  lowest band on every criterion, however it is cued (rule 6; off-premise sentences are not read);
* appending a sentence of foreign words to an answer changes no criterion score and no verdict
  of an edge between the answer's own units;
* meta-talk ("Since the prompt is ambiguous, I'll assume …") never takes part in a causal relation.
"""

from __future__ import annotations

from functools import lru_cache

from causalcheck.explain.data import WhatIfItem, criteria_of, load_answer_sets, load_benchmark
from causalcheck.explain.offline import OfflineCriterionJudge, OfflineEdgeJudge
from causalcheck.explain.relations import OfflineParser
from causalcheck.explain.rst import project_to_graph
from hypothesis import given, settings
from hypothesis import strategies as st

PARSER, EDGE, CRIT = OfflineParser(), OfflineEdgeJudge(), OfflineCriterionJudge()

#: Words without vowels: never English, never a stop word, a cue or a stem of any item.
FOREIGN = st.text(alphabet="bcdfgkmpqvwxz", min_size=4, max_size=8)
CUED = st.sampled_from([", so ", " because ", ", which would ", ". As a result, ", ". That would ", ", leading to ", ". "])


@lru_cache(maxsize=1)
def _demo() -> tuple[tuple[WhatIfItem, ...], dict[str, str]]:
    strong = {s.model: s for s in load_answer_sets("demo")}["demo-strong"]
    items = load_benchmark("demo").items
    return items, {it.key: strong.answers[it.key].text or "" for it in items}


@st.composite
def foreign_answers(draw: st.DrawFn) -> str:
    """Clauses of 3–5 foreign words joined by causal cues."""
    clauses = draw(st.lists(st.lists(FOREIGN, min_size=3, max_size=5).map(" ".join), min_size=2, max_size=6))
    out = clauses[0].capitalize()
    for clause in clauses[1:]:
        out += draw(CUED) + clause
    return out + "."


def _judge(item: WhatIfItem, answer: str) -> tuple[list[tuple[str, str, str, float]], list[int]]:
    record = PARSER.parse(answer)
    graph = project_to_graph(record)
    judged = EDGE.judge_edges(item, answer, graph, range(len(graph.edges)))
    text = graph.text_of
    edges = [(text[e.source], text[e.target], e.relation_type, j.score) for e, j in zip(graph.edges, judged, strict=True) if e.causal]
    scores = [CRIT.judge_criterion(item, answer, c, k).score for k, c in enumerate(criteria_of(item), start=1)]
    return edges, scores


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 11), foreign_answers())
def test_an_answer_foreign_to_the_item_earns_nothing(index: int, answer: str) -> None:
    item = _demo()[0][index]
    edges, scores = _judge(item, answer)
    assert all(score == 0.0 for *_, score in edges)
    assert scores == [1] * len(scores)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 11), st.lists(FOREIGN, min_size=3, max_size=8).map(" ".join))
def test_a_foreign_sentence_changes_nothing_that_was_judged(index: int, words: str) -> None:
    items, answers = _demo()
    item = items[index]
    answer = answers[item.key]
    longer = answer + " " + words.capitalize() + "."
    edges, scores = _judge(item, answer)
    edges2, scores2 = _judge(item, longer)
    assert scores2 == scores
    tail = words.lower()
    kept = [e for e in edges2 if tail not in e[0].lower() and tail not in e[1].lower()]
    assert kept == edges


CLAUSES = st.sampled_from(["the ice sank to the bottom of every lake", "tides fell by two thirds",
                           "the printing press spread early", "oxygen doubled in the air"])  # fmt: skip
META = st.sampled_from(["Since the prompt is ambiguous, I will assume that", "So, to answer the question, I'll assume that",
                        "Because the question is ambiguous, let me assume that"])  # fmt: skip


@settings(max_examples=30, deadline=None)
@given(META, CLAUSES, CLAUSES)
def test_meta_talk_takes_no_part_in_a_causal_relation(meta: str, premise: str, claim: str) -> None:
    answer = f"{meta} {premise}. Lakes would freeze solid, so {claim}."
    record = PARSER.parse(answer)
    text = {e.id: e.text for e in record.edus}
    meta_ids = {i for i, t in text.items() if "assume" in t or "question" in t or "prompt" in t}
    causal = [r for r in record.relations if r.type in ("CAUSE", "RESULT", "CONSEQUENCE", "CONDITION")]
    assert meta_ids and not [r for r in causal if {r.source, r.target} & meta_ids]
    assert any(r.type == "RESULT" for r in causal)
