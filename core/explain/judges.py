"""Judgments, the explain plug-in protocols (parser, judges, segmenter), and the offline judges.

PRISM scores an answer with two kinds of judgment:

* an **edge judgment** per graph edge — is the directed relation ``source → target``
  explicitly supported by the answer text?  (yes = 1.0, no = 0.0; the Process Metric is
  the share of *causal* edges judged supported);
* a **criterion judgment** per rubric criterion — one integer 1–10 following the
  criterion's five bands (the Rubric Metric is their mean divided by 10).

Anything that implements :class:`EdgeJudge`, :class:`CriterionJudge` or
:class:`AnswerParser` (the explain plug-in protocols, defined here together with the
:class:`Segmenter`; prism-spec §3–4) plugs into :func:`causalcheck.explain.scoring.score_item`: the offline judges of :mod:`causalcheck.explain.offline`, the LLM-backed ones in :mod:`causalcheck.explain.llm`, or recorded
judgments replayed from a result file.  A judgment that could not be obtained (API error,
unparseable reply) must come back with ``degraded=True`` and an ``error`` — it is scored
as the original does (edge 0.0, criterion 1) but the item is flagged, never silently a
normal zero.

One module because the protocols and the judgment values they return are one contract: every
judge, parser and segmenter plug-in is checked against it (:mod:`causalcheck.plugins`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from causalcheck.base.errors import InputFormatError

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.explain.data import Criterion, WhatIfItem
    from causalcheck.explain.explanation_graph import ExplanationGraph
    from causalcheck.explain.rst import EDU, RSTRecord

__all__ = [
    "AnswerParser",
    "CriterionJudge",
    "CriterionJudgment",
    "EdgeJudge",
    "EdgeJudgment",
    "Segmenter",
]


@dataclass(frozen=True, slots=True)
class EdgeJudgment:
    """One edge verdict: ``score`` 1.0 (supported) or 0.0; ``raw`` the judge's reply (``"yes"``/``"no"``).

    ``degraded`` marks a verdict that is a fallback (the judge failed: ``error`` says why).
    ``rationale`` is a short explanation (the offline judge names the rule that decided).
    """

    score: float
    raw: str = ""
    error: str | None = None
    degraded: bool = False
    rationale: str = ""

    def to_official(self) -> dict[str, Any]:
        """The official per-edge record ``{"score", "rationale", "raw": {"score", "raw", ["error"]}}``."""
        inner: dict[str, Any] = {"score": self.score, "raw": self.raw}
        if self.error is not None:
            inner["error"] = self.error
        return {"score": self.score, "rationale": self.rationale, "raw": inner}

    @classmethod
    def from_official(cls, obj: Any, where: str = "edge record") -> EdgeJudgment:
        """Read an official per-edge record (replay).  A record with an ``error`` is degraded.

        A score that is not a number counts as 0 and one outside 0..1 is clamped, as in the
        original; an integer beyond float range (``10**400``) is refused, naming *where*.
        """
        if not isinstance(obj, Mapping):
            return cls(0.0, "", f"edge record={obj!r:.60} is not an object", True)
        inner = obj.get("raw") if isinstance(obj.get("raw"), Mapping) else {}
        value = obj.get("score", 0.0)
        try:
            score = min(max(float(value), 0.0), 1.0)
        except (TypeError, ValueError):
            score = 0.0
        except OverflowError:
            raise InputFormatError(f"{where}.score={value!r:.60} must be a finite number in float range") from None
        if score != score:  # NaN counts as 0, as in the original
            score = 0.0
        err = inner.get("error") if isinstance(inner, Mapping) else None
        raw = inner.get("raw", "") if isinstance(inner, Mapping) else ""
        return cls(
            score=score,
            raw=str(raw),
            error=None if err is None else str(err),
            degraded=err is not None,
            rationale=str(obj.get("rationale", "")),
        )


@dataclass(frozen=True, slots=True)
class CriterionJudgment:
    """One criterion verdict: an integer ``score`` 1..10, a ``reason``, the judge's parsed ``raw`` object."""

    score: int
    reason: str = ""
    raw: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None
    degraded: bool = False


# ====================================================================== the plug-in protocols
@runtime_checkable
class AnswerParser(Protocol):
    """Turns an answer into an RST record (EDUs + relations)."""

    def parse(self, answer: str) -> RSTRecord:
        """Parse *answer*.  May raise :class:`~causalcheck.base.errors.CausalCheckError`; the scorer then
        falls back to :func:`~causalcheck.explain.rst.heuristic_fallback` and flags the item degraded."""
        ...


@runtime_checkable
class EdgeJudge(Protocol):
    """Judges graph edges against the answer text."""

    def judge_edges(
        self,
        item: WhatIfItem,
        answer: str,
        graph: ExplanationGraph,
        edges: Sequence[int],
    ) -> list[EdgeJudgment]:
        """One judgment per index in *edges* (indices into ``graph.edges``), in the same order."""
        ...


@runtime_checkable
class CriterionJudge(Protocol):
    """Scores an answer on one rubric criterion."""

    def judge_criterion(
        self,
        item: WhatIfItem,
        answer: str,
        criterion: Criterion,
        index: int,
    ) -> CriterionJudgment:
        """The verdict for criterion number *index* (1-based) of the item's rubric."""
        ...


@runtime_checkable
class Segmenter(Protocol):
    """Splits text into EDUs with character offsets."""

    name: str

    def segment(self, text: str) -> list[EDU]:
        """EDUs of *text* in order, ids ``EDU1``…, ``text[e.start:e.end] == e.text``."""
        ...
