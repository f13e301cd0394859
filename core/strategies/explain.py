"""Explanation graphs, EDU sequences and what-if answers whose cue structure is known.

* :func:`explanation_graphs` — :class:`~causalcheck.explain.explanation_graph.ExplanationGraph`
  values in the official ``parsed_dag`` shape (EDU nodes, labelled edges from the 24-label
  set, repeats and cycles allowed — model graphs have them);
* :func:`judged_graphs` — a graph with one edge score in [0, 1] per edge (what PM reads);
* :func:`criterion_scores` — integer rubric scores 1..10 (what RM reads);
* :func:`edu_sequences` — lists of EDU texts (three or more words each, distinct content words);
* :func:`whatif_answers` — an answer built from clauses joined by cue templates whose
  relation is known (``"A, so B."`` → A→B RESULT, ``"If A, B."`` → CONDITION,
  ``"B because A."`` → CAUSE), with its question, the expected causal links, a paraphrase
  with every causal cue removed and a version with the sentences in another order.  The
  offline parser (:class:`~causalcheck.explain.relations.OfflineParser`) finds exactly the
  expected links.

>>> from hypothesis import find, settings
>>> a = find(whatif_answers(), lambda a: len(a.links) == 2, settings=settings(database=None, derandomize=True))
>>> len(a.clauses) >= 3, all(label in ("RESULT", "CONDITION", "CAUSE") for _, _, label in a.links)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from causalcheck.base.pools import CLAUSE_MANNERS, CLAUSE_SUBJECTS, CLAUSE_VERBS, CUE_TEMPLATES
from causalcheck.explain.explanation_graph import ExplanationEdge, ExplanationGraph, ExplanationNode
from causalcheck.explain.rst import RELATION_LABELS
from hypothesis import strategies as st

__all__ = [
    "CUE_TEMPLATES",
    "GeneratedAnswer",
    "JudgedGraph",
    "criterion_scores",
    "edu_sequences",
    "explanation_graphs",
    "judged_graphs",
    "whatif_answers",
]

_SUBJECTS, _VERBS, _MANNER = CLAUSE_SUBJECTS, CLAUSE_VERBS, CLAUSE_MANNERS


@dataclass(frozen=True)
class JudgedGraph:
    """An explanation graph and one edge score per edge (index-aligned)."""

    graph: ExplanationGraph
    scores: tuple[float, ...]


def _edge_lists(n: int, max_edges: int, labels: Sequence[str], scored: bool) -> st.SearchStrategy[list[tuple[Any, ...]]]:
    pairs = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j]
    if not pairs:
        return st.just([])
    one: st.SearchStrategy[tuple[Any, ...]] = st.tuples(st.sampled_from(pairs), st.sampled_from(list(labels)))
    if scored:  # each edge is drawn with its label and score, so the shrinker deletes them together
        one = st.tuples(st.sampled_from(pairs), st.sampled_from(list(labels)), _SCORES)
    return st.lists(one, max_size=max_edges)


@st.composite
def _graphs(draw: st.DrawFn, max_nodes: int, max_edges: int, labels: Sequence[str], scored: bool) -> tuple[ExplanationGraph, tuple[float, ...]]:
    n = draw(st.integers(1, max_nodes))
    nodes = tuple(ExplanationNode(f"EDU{i}", f"unit {i}") for i in range(1, n + 1))
    drawn = draw(_edge_lists(n, max_edges, labels, scored))
    edges = tuple(ExplanationEdge(f"EDU{d[0][0]}", f"EDU{d[0][1]}", d[1]) for d in drawn)
    return ExplanationGraph(nodes, edges), tuple(d[2] for d in drawn) if scored else ()


_SCORES = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0, allow_nan=False))


def explanation_graphs(*, max_nodes: int = 8, max_edges: int = 15, labels: Sequence[str] = RELATION_LABELS) -> st.SearchStrategy[ExplanationGraph]:
    """A graph over ``EDU1..EDUn`` with edges labelled from *labels* (self-loops excluded)."""
    return _graphs(max_nodes, max_edges, labels, False).map(lambda gs: gs[0])


def judged_graphs(*, max_nodes: int = 8, max_edges: int = 15, labels: Sequence[str] = RELATION_LABELS) -> st.SearchStrategy[JudgedGraph]:
    """:func:`explanation_graphs` (same keywords) with a score in [0, 1] per edge (mostly 0 or 1, as judges answer)."""
    return _graphs(max_nodes, max_edges, labels, True).map(lambda gs: JudgedGraph(*gs))


def criterion_scores(*, min_size: int = 1, max_size: int = 8) -> st.SearchStrategy[list[int]]:
    """Integer rubric criterion scores in 1..10 (PRISM rubrics have five criteria)."""
    return st.lists(st.integers(1, 10), min_size=min_size, max_size=max_size)


def _clause() -> st.SearchStrategy[tuple[str, str]]:
    """``(subject, clause)``: a subject and its clause, drawn in one span."""
    return st.builds(lambda s, v, m: (s, f"{s} {v} {m}"), st.sampled_from(_SUBJECTS), st.sampled_from(_VERBS), st.sampled_from(_MANNER))


def _clauses(min_size: int, max_size: int) -> st.SearchStrategy[list[str]]:
    return st.lists(_clause(), min_size=min_size, max_size=max_size, unique_by=lambda sc: sc[0]).map(lambda scs: [c for _, c in scs])


def edu_sequences(*, min_size: int = 1, max_size: int = 6) -> st.SearchStrategy[list[str]]:
    """Lists of EDU texts: clauses of three or more words whose subjects are all different."""
    return _clauses(min_size, max_size)


@dataclass(frozen=True)
class GeneratedAnswer:
    """A what-if answer with known structure.

    ``clauses[i]`` is the i-th unit's text (lower-case, no cue); ``links`` are the causal
    relations the text states, ``(cause index, effect index, label)``; ``paraphrase`` says the
    same clauses with every causal cue removed; ``shuffled`` has the same sentences in
    another order (equal to ``text`` for a single sentence).  ``CONDITION`` ("If A, B.")
    only opens an answer: causalcheck's offline segmenter recognises a sentence-opening
    "If" only at the start of the text (its opener pattern is anchored with ``^``).
    """

    question: str
    text: str
    clauses: tuple[str, ...]
    links: tuple[tuple[int, int, str], ...]
    paraphrase: str
    shuffled: str


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


@st.composite
def whatif_answers(draw: st.DrawFn, *, min_links: int = 1, max_links: int = 4, labels: Sequence[str] = ("RESULT", "CAUSE", "CONDITION")) -> GeneratedAnswer:
    """A causal chain ``c0 → c1 → … → ck`` written one link per sentence with a cue template."""
    first = draw(_clause())
    # each link is drawn in one span (its effect clause and its label), so the shrinker drops links whole
    steps = draw(
        st.lists(st.tuples(_clause(), st.sampled_from(list(labels))), min_size=min_links, max_size=max_links, unique_by=lambda t: t[0][0]).filter(
            lambda steps: all(sc[0] != first[0] for sc, _ in steps)
        )
    )
    clauses = [first[1], *(sc[1] for sc, _ in steps)]
    links = []
    sentences = []
    plain = []
    for i, (_, label) in enumerate(steps):
        # the offline segmenter cuts "If A, B" only in an answer's first sentence (see GeneratedAnswer)
        lab = "RESULT" if label == "CONDITION" and i > 0 else label
        a, b = clauses[i], clauses[i + 1]
        sentences.append(CUE_TEMPLATES[lab].format(a=a, b=b, A=_cap(a), B=_cap(b)))
        plain.append(f"{_cap(a)}. {_cap(b)}.")
        links.append((i, i + 1, lab))
    order = draw(st.permutations(range(len(sentences))))
    question = f"What would happen if {clauses[0].replace('would ', '', 1)}?"
    return GeneratedAnswer(
        question=question,
        text=" ".join(sentences),
        clauses=tuple(clauses),
        links=tuple(links),
        paraphrase=" ".join(plain),
        shuffled=" ".join(sentences[i] for i in order),
    )
