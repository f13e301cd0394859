"""Judgments, the explain plug-in protocols (parser, judges, segmenter), and the offline judges.

PRISM scores an answer with two kinds of judgment:

* an **edge judgment** per graph edge — is the directed relation ``source → target``
  explicitly supported by the answer text?  (yes = 1.0, no = 0.0; the Process Metric is
  the share of *causal* edges judged supported);
* a **criterion judgment** per rubric criterion — one integer 1–10 following the
  criterion's five bands (the Rubric Metric is their mean divided by 10).

Anything that implements :class:`EdgeJudge`, :class:`CriterionJudge` or
:class:`AnswerParser` (the explain plug-in protocols, defined here together with the
:class:`Segmenter`; prism-spec §3–4) plugs into :func:`causalcheck.explain.scoring.score_item`: the offline judges here, the LLM-backed ones in :mod:`causalcheck.explain.llm`, or recorded
judgments replayed from a result file.  A judgment that could not be obtained (API error,
unparseable reply) must come back with ``degraded=True`` and an ``error`` — it is scored
as the original does (edge 0.0, criterion 1) but the item is flagged, never silently a
normal zero.

The offline judges are transparent, deterministic approximations; their rules are in
the docstrings of :class:`OfflineEdgeJudge` and :class:`OfflineCriterionJudge`.

One module because the offline edge and criterion judges share the judgment types and text
profiles defined here, and the ``offline`` built-ins are registered from this one module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from causalcheck.base.errors import InputFormatError
from causalcheck.explain.data import BAND_KEYS

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
    "OfflineCriterionJudge",
    "OfflineEdgeJudge",
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


# ====================================================================== offline judges
class OfflineEdgeJudge:
    """Deterministic edge judge: the rules of :mod:`causalcheck.explain.offline` (explicit, adjacent
    endpoints linked by a cue or a causative verb in that direction; cohesion; the premise
    exogenous; on premise; grounded in the item; outward from the premise; not repeated; not
    contradicted).  An edge is 1.0 (``"yes"``) only when every rule holds; otherwise 0.0 (``"no"``)
    with the rule that failed in ``rationale``.  The judge never reads instructions in the text.
    """

    def judge_edges(
        self,
        item: WhatIfItem,
        answer: str,
        graph: ExplanationGraph,
        edges: Sequence[int],
    ) -> list[EdgeJudgment]:
        # late: the offline rules parse reference texts with the offline parser, whose segmenter imports this module
        from causalcheck.explain.offline import edge_verdicts

        return [EdgeJudgment(1.0 if v.ok else 0.0, "yes" if v.ok else "no", rationale=v.why) for v in edge_verdicts(item, answer, graph, edges)]


def _band_of(score: int) -> str:
    return str(BAND_KEYS[min((score - 1) // 2, 4)])


class OfflineCriterionJudge:
    """Deterministic criterion judge: the criterion's mechanism as the answer supports it, mapped onto the bands.

    The answer is read once (:func:`causalcheck.explain.offline.read_answer`: the offline parser
    and edge rules, whatever parser scored PM).  For a criterion, its *terms* are the content
    lemmas of its name, description and upper bands (``5-6``, ``7-8``, ``9-10``) minus the
    question's and rubric boilerplate ("assesses", "plausible" …).  Only on-premise sentences that
    add something beyond the question count; an answer with none gets 1 on every criterion.

    * **no supported mechanism** reaching the terms — 1 when no term is mentioned, else 3, or 4
      when a third of them are (band 3–4: "mentions in passing without a mechanism");
    * **a mechanism** — ``score = 4 + round(6·raw)`` with ``raw = 0.45·min(1, m/0.5) +
      0.35·min(1, links/4) + 0.2·min(1, (chain−1)/2)``: ``m`` the share of terms that supported
      causal edges reach, ``links`` how many supported edges touch the terms, ``chain`` the longest
      run of such edges that feed each other ("several linked mechanisms", "a coherent causal
      chain"); the premise criterion also counts links rooted in the premise;
    * **calibration criteria** (about uncertainty, calibration, contradiction) — ``1 +
      round(9·raw)`` with ``raw = 0.35·mentions + 0.3·min(1, supported/6) + 0.35·h``, ``h`` hedges
      per sentence saturating at 0.5 minus overconfident words per sentence; at most 3 when the
      answer contradicts itself;
    * **errors cap** — a reversed or contradicted link that touches the criterion caps it at 5 and
      each further one takes a point; a contradiction about a quantity the criterion's mechanism
      uses caps it at 5 ("serious contradiction or major error ≤ 5").

    Connectives, repeated sentences and lists of rubric words earn nothing by themselves: only
    supported links count.  The score is content-blind to instructions.
    """

    def judge_criterion(self, item: WhatIfItem, answer: str, criterion: Criterion, index: int) -> CriterionJudgment:
        # late: the offline reading parses the answer with the offline parser, whose segmenter imports this module
        from causalcheck.explain.offline import criterion_score

        score, reason, details = criterion_score(item, answer, criterion, index)
        reason = f"{reason} -> band {_band_of(score)}"
        return CriterionJudgment(score=score, reason=reason, raw={"score": score, "reason": reason, **details})
