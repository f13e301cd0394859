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

>>> from hypothesis import find
>>> a = find(whatif_answers(), lambda a: len(a.links) == 2)
>>> len(a.clauses), [label for _, _, label in a.links]
(3, ['RESULT', 'RESULT'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from causalcheck.explain.explanation_graph import ExplanationGraph, GraphEdge, GraphNode
from causalcheck.explain.rst import RELATION_LABELS
from causalcheck.testing.pools import CLAUSE_MANNERS, CLAUSE_SUBJECTS, CLAUSE_VERBS, CUE_TEMPLATES
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


@st.composite
def explanation_graphs(draw: st.DrawFn, *, max_nodes: int = 8, max_edges: int = 15, labels: Sequence[str] = RELATION_LABELS) -> ExplanationGraph:
    """A graph over ``EDU1..EDUn`` with edges labelled from *labels* (self-loops excluded)."""
    n = draw(st.integers(1, max_nodes))
    nodes = tuple(GraphNode(f"EDU{i}", f"unit {i}") for i in range(1, n + 1))
    pairs = [(i, j) for i in range(1, n + 1) for j in range(1, n + 1) if i != j]
    edges: list[GraphEdge] = []
    if pairs:
        for i, j in draw(st.lists(st.sampled_from(pairs), max_size=max_edges)):
            edges.append(GraphEdge(f"EDU{i}", f"EDU{j}", draw(st.sampled_from(list(labels)))))
    return ExplanationGraph(nodes, tuple(edges))


_SCORES = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0, allow_nan=False))


@st.composite
def judged_graphs(draw: st.DrawFn, **kwargs: object) -> JudgedGraph:
    """:func:`explanation_graphs` (same keywords) with a score in [0, 1] per edge (mostly 0 or 1, as judges answer)."""
    g = draw(explanation_graphs(**kwargs))  # type: ignore[arg-type]
    return JudgedGraph(g, tuple(draw(_SCORES) for _ in g.edges))


def criterion_scores(*, min_size: int = 1, max_size: int = 8) -> st.SearchStrategy[list[int]]:
    """Integer rubric criterion scores in 1..10 (PRISM rubrics have five criteria)."""
    return st.lists(st.integers(1, 10), min_size=min_size, max_size=max_size)


@st.composite
def _clauses(draw: st.DrawFn, min_size: int, max_size: int) -> list[str]:
    subjects = draw(st.lists(st.sampled_from(_SUBJECTS), min_size=min_size, max_size=max_size, unique=True))
    return [f"{s} {draw(st.sampled_from(_VERBS))} {draw(st.sampled_from(_MANNER))}" for s in subjects]


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
def whatif_answers(draw: st.DrawFn, *, min_links: int = 1, max_links: int = 4, labels: Sequence[str] = tuple(CUE_TEMPLATES)) -> GeneratedAnswer:
    """A causal chain ``c0 → c1 → … → ck`` written one link per sentence with a cue template."""
    clauses = draw(_clauses(min_links + 1, max_links + 1))
    links = []
    sentences = []
    plain = []
    for i in range(len(clauses) - 1):
        # the offline segmenter cuts "If A, B" only in an answer's first sentence (see GeneratedAnswer)
        usable = [lb for lb in labels if lb != "CONDITION" or i == 0] or ["RESULT"]
        label = draw(st.sampled_from(usable))
        a, b = clauses[i], clauses[i + 1]
        sentences.append(CUE_TEMPLATES[label].format(a=a, b=b, A=_cap(a), B=_cap(b)))
        plain.append(f"{_cap(a)}. {_cap(b)}.")
        links.append((i, i + 1, label))
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
