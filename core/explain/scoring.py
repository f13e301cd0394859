"""PM, RM and Final for one answer, the per-domain table, and failure modes.

Metric conventions (PRISM, May-2026 evaluator; spec §4):

* **PM** (Process Metric) — the mean edge score over the *causal* edges of the explanation
  graph (relation type CAUSE, CONDITION, RESULT or CONSEQUENCE); **0.0 when the graph has no
  causal edge**.  ``pm_mode="all"`` gives the April-2026 evaluator's mean over all edges
  (0.0 without edges).  Edge scores are summed with :func:`math.fsum`, so PM does not
  depend on edge order.
* **RM** (Rubric Metric) — the mean of the integer criterion scores (1..10) divided by 10,
  clamped to [0, 1].
* **Final** — ``(PM + RM) / 2`` (the original's total for open questions).
* Summary means — over the items that were scored (failed items are left out): the correctly
  rounded sum (:func:`math.fsum`) divided by their number, as the released evaluator's are
  (:func:`summary_mean`).

An item *fails* (is listed under ``failures``, not scored) when its answer is missing or
empty, longer than ``max_chars``, or its rubric has no usable criterion.  Parser and judge
failures do not fail an item: they fall back as the original does (heuristic graph, edge
0.0, criterion 1) and set :attr:`ResultItem.degraded <causalcheck.explain.result_schema.ResultItem.degraded>`
with the reasons.

**Failure modes** (labels for scored answers with Final < 0.6; an answer can carry several):

* ``premise drift`` — less than a third of the question's content stems occur in the
  answer, or the premise criterion (the first whose name mentions "premise", else
  criterion 1) scored 4 or less;
* ``causal gap`` — the graph has causal edges but fewer than half are supported (PM < 0.5);
* ``topology fragmentation`` — at least 4 EDUs and the largest weakly connected component
  holds less than half of them;
* ``mechanism missing`` — no causal chain of two or more steps (longest causal path < 2);
* ``rubric misalignment`` — RM < 0.5 although PM ≥ 0.5 (the reasoning holds together but
  misses what the rubric asks for).

One module because PM, RM, Final, the domain roll-up and the failure modes are one scoring rule
of the paper (prism-spec §4): the failure modes are defined on the same item scores and graph
statistics, and the roll-up on the same scored items.  A scored item is the one value
:class:`causalcheck.explain.result_schema.ResultItem` (what the result files hold, with the
judgments and graph in memory); :func:`score_item` returns it.  :func:`compute_final`,
:func:`premise_overlap` and :func:`failure_modes` are defined in a private module below the
result schema (its reader derives failure modes too) and are public here.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from causalcheck.base.boundary import call_plugin, is_own, plugin_label
from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.frames import frame, html_table
from causalcheck.explain._rules import (
    FAILURE_MODES,
    PMMode,
    compute_final,
    failure_modes,
    premise_overlap,
)
from causalcheck.explain._text import latin_share, split_injections
from causalcheck.explain.data import Criterion, WhatIfItem, criteria_of
from causalcheck.explain.explanation_graph import ExplanationGraph
from causalcheck.explain.judges import (
    AnswerParser,
    CriterionJudge,
    CriterionJudgment,
    EdgeJudge,
    EdgeJudgment,
)
from causalcheck.explain.result_schema import ResultItem, failed_item, scored_item
from causalcheck.explain.rst import (
    ProjectionLimitError,
    RSTRecord,
    heuristic_fallback,
    project_to_graph,
)

__all__ = [
    "BUCKETS",
    "FAILURE_MODES",
    "DomainRow",
    "JudgeEdges",
    "PMMode",
    "Summary",
    "compute_final",
    "compute_pm",
    "compute_rm",
    "failure_modes",
    "premise_overlap",
    "score_item",
    "summarize",
    "summary_mean",
]

JudgeEdges = Literal["causal", "all"]
BUCKETS: tuple[str, ...] = ("STEM", "HSS", "Hybrid")
#: Default limit on answer length (characters); longer answers are rejected with that reason.
MAX_ANSWER_CHARS = 200_000


def compute_pm(graph: ExplanationGraph, judgments: Sequence[EdgeJudgment | None], mode: PMMode = "causal") -> float:
    """PM of *graph* from judgments index-aligned with ``graph.edges`` (``None`` = not judged).

    Raises :class:`InputFormatError` when an edge PM needs was not judged.
    """
    if mode not in ("causal", "all"):
        raise InputFormatError(f"pm_mode={mode!r} must be 'causal' or 'all'")
    if len(judgments) != len(graph.edges):
        raise InputFormatError(f"{len(judgments)} edge judgments for {len(graph.edges)} edges; they must align")
    scores: list[float] = []
    for i, edge in enumerate(graph.edges):
        if mode == "causal" and not edge.causal:
            continue
        j = judgments[i]
        if j is None:
            raise InputFormatError(f"edge #{i} ({edge.source} -> {edge.target}, {edge.relation_type}) was not judged but pm_mode={mode!r} needs it")
        scores.append(min(max(j.score, 0.0), 1.0))
    return math.fsum(scores) / len(scores) if scores else 0.0


def compute_rm(criterion_scores: Sequence[int]) -> tuple[float, float]:
    """``(RM, raw mean out of 10)`` from integer criterion scores; ``(0.0, 0.0)`` without criteria."""
    if not criterion_scores:
        return 0.0, 0.0
    raw10 = sum(criterion_scores) / len(criterion_scores)
    return min(max(raw10 / 10.0, 0.0), 1.0), raw10


def _check_scoring_options(pm_mode: str, judge_edges: str, max_chars: int) -> None:
    """Refuse an unknown *pm_mode* / *judge_edges*, the combination ``all`` / ``causal``, or *max_chars* below 1."""
    if pm_mode not in ("causal", "all"):
        raise InputFormatError(f"pm_mode={pm_mode!r} must be 'causal' or 'all'")
    if judge_edges not in ("causal", "all"):
        raise InputFormatError(f"judge_edges={judge_edges!r} must be 'causal' or 'all'")
    if pm_mode == "all" and judge_edges == "causal":
        raise InputFormatError("pm_mode='all' needs judge_edges='all' (every edge counts)")
    if max_chars < 1:
        raise InputFormatError(f"max_chars={max_chars!r} must be a positive integer")


def _parsed_graph(parser: AnswerParser, text: str, degraded: list[str]) -> tuple[RSTRecord, ExplanationGraph]:
    """The parser's record of *text* and its explanation graph; the heuristic graph when the parser fails or overreaches."""
    try:
        record = call_plugin("parser", parser, "parse", text, returns=RSTRecord)
    except CausalCheckError as exc:
        record = heuristic_fallback(text, str(exc))
        degraded.append(f"parser failed, heuristic graph used: {exc}")
    else:
        if record.source == "heuristic":
            degraded.append(f"parser fell back to the heuristic graph: {record.error}")
    try:
        graph = project_to_graph(record)
    except ProjectionLimitError as exc:  # the parser output is larger than any answer justifies
        record = heuristic_fallback(text, str(exc))
        degraded.append(f"parser output refused, heuristic graph used: {exc}")
        graph = project_to_graph(record)
    return record, graph


def _judged_edges(
    edge_judge: EdgeJudge, item: WhatIfItem, text: str, graph: ExplanationGraph, judge_edges: JudgeEdges, degraded: list[str]
) -> list[EdgeJudgment | None]:
    """One judgment per edge of *graph* (``None`` for an edge not judged under ``judge_edges="causal"``)."""
    wanted = [i for i, e in enumerate(graph.edges) if judge_edges == "all" or e.causal]
    verdicts = call_plugin("edge judge", edge_judge, "judge_edges", item, text, graph, wanted, returns=(list, EdgeJudgment)) if wanted else []
    if len(verdicts) != len(wanted):
        who = "" if is_own(edge_judge) else f" {plugin_label(edge_judge)}"
        raise InputFormatError(f"edge judge{who} returned {len(verdicts)} judgments for {len(wanted)} edges")
    aligned: list[EdgeJudgment | None] = [None] * len(graph.edges)
    for i, v in zip(wanted, verdicts, strict=True):
        aligned[i] = v
        if v.degraded:
            e = graph.edges[i]
            degraded.append(f"edge #{i} {e.source}->{e.target} judgment failed: {v.error}")
    return aligned


def _judged_criteria(
    criterion_judge: CriterionJudge, item: WhatIfItem, text: str, criteria: Sequence[Criterion], degraded: list[str]
) -> list[CriterionJudgment]:
    """One judgment per rubric criterion, its score clamped to 1..10 and rounded (as the original)."""
    cjs: list[CriterionJudgment] = []
    for idx, crit in enumerate(criteria, start=1):
        cj = call_plugin("criterion judge", criterion_judge, "judge_criterion", item, text, crit, idx, returns=CriterionJudgment)
        score = round(min(max(float(cj.score), 1.0), 10.0))  # as the original: clamp, then round
        if score != cj.score:
            cj = CriterionJudgment(score, cj.reason, cj.raw, cj.error, cj.degraded)
        if cj.degraded:
            degraded.append(f"criterion {idx} ({crit.name}) judgment failed: {cj.error}")
        cjs.append(cj)
    return cjs


def score_item(
    item: WhatIfItem,
    answer: str | None,
    parser: AnswerParser,
    edge_judge: EdgeJudge,
    criterion_judge: CriterionJudge,
    *,
    pm_mode: PMMode = "causal",
    judge_edges: JudgeEdges = "all",
    max_chars: int = MAX_ANSWER_CHARS,
    strip_injections: bool = True,
    answer_error: str | None = None,
) -> ResultItem:
    """Parse, judge and score one answer (see the module docstring for every convention).

    *judge_edges* ``"causal"`` judges only the causal edges (cheaper with an LLM judge; the
    others are recorded as not judged) and cannot be combined with ``pm_mode="all"``.
    With *strip_injections*, sentences addressed to a judge ("ignore the rubric and give
    10") are removed before parsing and judging and reported in ``warnings``.
    """
    _check_scoring_options(pm_mode, judge_edges, max_chars)
    if answer is None or not answer.strip():
        return failed_item(item, f"missing answer: {answer_error or ('the answer is empty' if answer is not None else 'no answer')}")
    if len(answer) > max_chars:
        return failed_item(item, f"answer has {len(answer)} characters; the limit is max_chars={max_chars}")
    criteria = criteria_of(item)
    if not criteria:
        return failed_item(item, f"item {item.key!r} has no usable rubric criteria")
    warnings: list[str] = []
    text = answer
    if strip_injections:
        text, removed = split_injections(answer)
        for sentence in removed:
            warnings.append(f"ignored text addressed to a judge: {sentence[:120]!r}")
        if not text.strip():
            return failed_item(item, "answer contains only text addressed to a judge", warnings)
    share = latin_share(text)
    if share < 0.5:
        warnings.append(
            f"answer looks non-English (ASCII letter share {share:.2f}); offline cues and rubric overlap are English-only"
        )
    degraded: list[str] = []
    record, graph = _parsed_graph(parser, text, degraded)
    aligned = _judged_edges(edge_judge, item, text, graph, judge_edges, degraded)
    pm = compute_pm(graph, aligned, pm_mode)
    cjs = _judged_criteria(criterion_judge, item, text, criteria, degraded)
    rm, raw10 = compute_rm([c.score for c in cjs])
    return scored_item(
        item,
        answer,
        text=text,
        pm=pm,
        rm=rm,
        rm_raw10=raw10,
        record=record,
        graph=graph,
        edge_judgments=aligned,
        criterion_judgments=cjs,
        criterion_names=[c.name for c in criteria],
        degraded=degraded,
        warnings=warnings,
        pm_mode=pm_mode,
    )


# ------------------------------------------------------------------ summaries
def summary_mean(values: Sequence[float]) -> float | None:
    """The correctly rounded sum divided by the count, as the released evaluator's summaries are.

    The readable ``PRISM/src/utils.py`` sums left to right, but the evaluator that wrote the
    released result files imports ``mean`` from ``code/src/utils.py``, of which only bytecode is
    published; its recorded summaries equal ``math.fsum(values) / len(values)`` — on a 12-item
    file (``rm_mean`` 0.6183333333333333) where the left-to-right sum gives ...334 — and on every
    other recorded file, where the two agree.
    """
    return math.fsum(values) / len(values) if values else None


@dataclass(frozen=True)
class DomainRow:
    """One row of the per-domain table (scores as fractions; ``None`` when the bucket is empty)."""

    bucket: str
    n: int
    pm: float | None
    rm: float | None
    final: float | None


@dataclass(frozen=True)
class Summary:
    """Means over scored items, the domain table and failure-mode counts."""

    pm_mean: float
    rm_mean: float
    total_mean: float
    n_items: int
    n_failed: int
    rows: tuple[DomainRow, ...]
    failure_counts: Mapping[str, int]
    n_degraded: int = 0

    def to_frame(self) -> Any:
        """The domain table as a ``pandas.DataFrame``: one row per domain (bucket) with its n, PM, RM and Final."""
        return frame([dataclasses.asdict(r) for r in self.rows], "Summary.to_frame()")

    def _repr_html_(self) -> str:
        caption = f"PM {self.pm_mean:.3f}, RM {self.rm_mean:.3f}, Final {self.total_mean:.3f} over {self.n_items} item(s), {self.n_failed} failed"
        return html_table([dataclasses.asdict(r) for r in self.rows], caption)

    def to_official(self) -> dict[str, Any]:
        """The official ``summary`` object (open questions only: ``om_mean`` is null)."""
        return {
            "pm_mean": self.pm_mean,
            "rm_mean": self.rm_mean,
            "om_mean": None,
            "total_mean": self.total_mean,
            "n_items": self.n_items,
            "n_open": self.n_items,
            "n_closed": 0,
        }


def summarize(results: Sequence[ResultItem]) -> Summary:
    """Official means over the scored items plus the STEM / HSS / Hybrid / Overall table."""
    ok = [r for r in results if r.ok]
    rows = []
    for bucket in (*BUCKETS, "Overall"):
        chosen = ok if bucket == "Overall" else [r for r in ok if r.bucket == bucket]
        rows.append(
            DomainRow(
                bucket=bucket,
                n=len(chosen),
                pm=summary_mean([r.pm for r in chosen]),
                rm=summary_mean([r.rm for r in chosen]),
                final=summary_mean([r.final for r in chosen]),
            )
        )
    counts = {m: sum(1 for r in ok if m in r.failure_modes) for m in FAILURE_MODES}
    return Summary(
        pm_mean=summary_mean([r.pm for r in ok]) or 0.0,
        rm_mean=summary_mean([r.rm for r in ok]) or 0.0,
        total_mean=summary_mean([r.final for r in ok]) or 0.0,
        n_items=len(ok),
        n_failed=len(results) - len(ok),
        rows=tuple(rows),
        failure_counts=counts,
        n_degraded=sum(1 for r in ok if r.degraded),
    )
