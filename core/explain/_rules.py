"""The per-item rules that the scorer and the result-file reader share: Final, premise overlap, failure modes.

Defined here, below :mod:`causalcheck.explain.result_schema` (whose reader derives the failure
modes of an official file without causalcheck's additions) and re-exported by
:mod:`causalcheck.explain.scoring`, whose module docstring states them (prism-spec §4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from causalcheck.explain._text import content_lemmas, text_lemmas
from causalcheck.explain.data import WhatIfItem
from causalcheck.explain.explanation_graph import GraphStats

__all__ = ["FAILURE_MODES", "PMMode", "compute_final", "failure_modes", "premise_overlap"]

#: PM over the causal edges (May-2026 evaluator) or over all edges (April-2026).
PMMode = Literal["causal", "all"]

FAILURE_MODES: tuple[str, ...] = (
    "premise drift",
    "causal gap",
    "topology fragmentation",
    "mechanism missing",
    "rubric misalignment",
)


def compute_final(pm: float, rm: float) -> float:
    """``(pm + rm) / 2``."""
    return (pm + rm) / 2


def premise_overlap(item: WhatIfItem, answer: str) -> float:
    """Share of the question's content stems that occur in *answer* (1.0 for a question without any)."""
    q = content_lemmas(item.question)
    if not q:
        return 1.0
    return len(q & text_lemmas(answer)) / len(q)


def failure_modes(
    pm: float,
    rm: float,
    stats: GraphStats,
    premise: float,
    criterion_scores: Sequence[int],
    criterion_names: Sequence[str] = (),
) -> tuple[str, ...]:
    """The failure-mode labels of a scored answer (:mod:`causalcheck.explain.scoring`); empty when Final ≥ 0.6."""
    if compute_final(pm, rm) >= 0.6:
        return ()
    out: list[str] = []
    idx = next((i for i, n in enumerate(criterion_names) if "premise" in n.lower()), 0)
    premise_score = criterion_scores[idx] if idx < len(criterion_scores) else None
    if premise < 1 / 3 or (premise_score is not None and premise_score <= 4):
        out.append("premise drift")
    if stats.causal_edges > 0 and pm < 0.5:
        out.append("causal gap")
    if stats.nodes >= 4 and stats.largest_component * 2 < stats.nodes:
        out.append("topology fragmentation")
    if stats.longest_path < 2:
        out.append("mechanism missing")
    if rm < 0.5 and pm >= 0.5:
        out.append("rubric misalignment")
    return tuple(out)
