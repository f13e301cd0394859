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

import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from causalcheck.base.errors import InputFormatError
from causalcheck.explain._cues import Cue, is_anaphoric, is_meta_talk, lead_cue, starts_with_anaphor
from causalcheck.explain._premise import (
    META_WORDS,
    RUBRIC_WORDS,
    Premise,
    on_premise_spans,
    premise_of,
)
from causalcheck.explain._text import content_stems
from causalcheck.explain.data import BAND_KEYS
from causalcheck.explain.explanation_graph import CAUSAL_TYPES

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
_TERMINATOR = re.compile(r"[.!?][\"'”’)\]]*\s*$")
_GAP_END = re.compile(r"[.!?\n]")
_FAMILY_LABELS = frozenset({"CONTRAST", "CONCESSION", "EXAMPLE", "PURPOSE", "SUMMARY", "RESTATEMENT"})


@lru_cache(maxsize=16384)
def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def _is_premise(text: str, question_stems: frozenset[str]) -> bool:
    """A unit that restates the question: ≥ 2 of its content stems, and at least half, come from the question."""
    stems = content_stems(text)
    shared = stems & question_stems
    return len(shared) >= 2 and 2 * len(shared) >= len(stems)


class OfflineEdgeJudge:
    """Deterministic edge judge: an edge is supported (1.0, ``"yes"``) only when every rule holds.

    For edge ``S → T`` with relation type ``L`` and the answer text (whitespace collapsed,
    lowercased):

    1. **explicit endpoints** — the texts of ``S`` and ``T`` both occur verbatim in the
       answer (each EDU is located in node order, searching on from the previous EDU) and
       each has at least two content words (otherwise "vague");
    2. **local link** — the two occurrences do not overlap and are adjacent: between them
       there is only whitespace, punctuation, or one cue phrase;
    3. **explicit connective in that direction** (causal ``L``: CAUSE, RESULT,
       CONSEQUENCE, CONDITION) — one of: ``S`` comes first and the later unit opens with a
       forward cue ("so", "therefore", "as a result", "leading to", "which would" …);
       ``S`` comes first, opens with a conditional or causal cue ("If S, T", "Because S,
       T") and both are in one sentence; ``T`` comes first and ``S`` opens with a
       backward or conditional cue ("T because S", "T unless S").  ``CONDITION`` needs a
       conditional cue.  Non-causal ``L`` needs only rules 1–2, plus a cue of its own
       family for CONTRAST, CONCESSION, EXAMPLE, PURPOSE, SUMMARY, RESTATEMENT;
       A backward cue that opens a new sentence ("A. Because B, C") links only to its own
       sentence, unless the cue unit is a whole sentence ("A. Because B."); an endpoint
       that is meta-talk (:func:`._cues.is_meta_talk`: "Since the prompt is ambiguous, I'll
       assume …") is no causal claim;
    4. **cohesion across sentences** (causal ``L``) — when the two units are in different
       sentences they share at least one content stem, or the later one points back with
       "this" / "that" ("A. That would …", "A. Because of this, B"); a sentence-initial
       "Therefore" is only trusted when the sentences are about the same thing;
    5. **exogenous premise** (causal ``L``) — ``T`` adds a content word that is not in the
       question (nor "question", "happen" …), and it does not restate the question's premise
       unless ``S`` does too: in a what-if answer the premise is the intervention, nothing in
       the answer causes it, and a restatement is not a consequence;
    6. **on premise** (causal ``L``) — neither endpoint lies in an off-premise sentence
       (:mod:`._premise`) unless its own words anchor it: a chain about another question's
       premise is not supported by this item's answer, however well it is argued.

    Anything else is 0.0 (``"no"``) with the failed rule in ``rationale``.  The judge never
    reads instructions in the text: it compares positions and cue words only.
    """

    def judge_edges(
        self,
        item: WhatIfItem,
        answer: str,
        graph: ExplanationGraph,
        edges: Sequence[int],
    ) -> list[EdgeJudgment]:
        text = _norm(answer)
        q_stems = content_stems(item.question)
        texts = graph.text_of
        # each node's first occurrence, searched in node order from where the previous one ended
        where: dict[str, int] = {}
        cursor = 0
        for node in graph.nodes:
            needle = _norm(node.text)
            if not needle or node.id in where:
                continue
            pos = text.find(needle, cursor)
            if pos < 0:
                pos = text.find(needle)
            where[node.id] = pos
            if pos >= 0:
                cursor = pos + len(needle)
        cased = " ".join(answer.split())  # the sentence rules read case; positions are those of text
        off = _off_premise_nodes(cased if len(cased) == len(text) else text, graph, where, premise_of(item))
        units: dict[str, _Unit] = {}
        premise: dict[str, bool] = {}
        gap_cues: dict[str, Cue | None] = {}
        out = []
        edge_list = graph.edges
        for i in edges:
            e = edge_list[i]
            s_raw, t_raw = texts.get(e.source, ""), texts.get(e.target, "")
            s_unit = units.get(s_raw)
            if s_unit is None:
                s_unit = units[s_raw] = _unit(s_raw)
            t_unit = units.get(t_raw)
            if t_unit is None:
                t_unit = units[t_raw] = _unit(t_raw)
            ok, why = _judge_units(
                text, q_stems, s_unit, t_unit, e.relation_type.upper(), where.get(e.source, -1), where.get(e.target, -1), premise, gap_cues
            )
            if ok and (e.source in off or e.target in off) and e.relation_type.upper() in CAUSAL_TYPES:
                ok, why = False, "rule 6: the chain is off the item's premise (no sentence of it is about the question)"
            out.append(EdgeJudgment(1.0 if ok else 0.0, "yes" if ok else "no", rationale=why))
        return out

    @staticmethod
    def _judge(
        text: str, q_stems: frozenset[str], s_raw: str, t_raw: str, label: str, s_pos: int = -1, t_pos: int = -1
    ) -> tuple[bool, str]:
        return _judge_units(text, q_stems, _unit(s_raw), _unit(t_raw), label, s_pos, t_pos, {}, {})


def _off_premise_nodes(text: str, graph: ExplanationGraph, where: Mapping[str, int], premise: Premise) -> frozenset[str]:
    """Ids of the nodes that lie in an off-premise sentence of *text* (:func:`._premise.on_premise_spans`)
    and are not anchored themselves; a node that was not found in the text is judged by its own words."""
    spans = on_premise_spans(text, premise)
    starts = [a for a, _, _ in spans]
    off: set[str] = set()
    for node in graph.nodes:
        if premise.anchors(content_stems(node.text)):
            continue
        pos = where.get(node.id, -1)
        k = bisect_right(starts, pos) - 1 if pos >= 0 else -1
        if k < 0 or not spans[k][2]:
            off.add(node.id)
    return frozenset(off)


class _Unit(NamedTuple):
    """An edge endpoint as the edge judge reads it: normalised text, its content stems, its opening cue."""

    text: str
    stems: frozenset[str]
    cue: Cue | None
    meta: bool = False


def _unit(raw: str) -> _Unit:
    norm = _norm(raw)
    if not norm:
        return _Unit(norm, frozenset(), None)
    # content_stems(raw) == content_stems(norm) (case and spacing do not change the stems); the raw
    # text is the key the graph checks look up later, so the cached entry is shared
    return _Unit(norm, content_stems(raw), lead_cue(norm), is_meta_talk(norm))


def _judge_units(
    text: str,
    q_stems: frozenset[str],
    su: _Unit,
    tu: _Unit,
    label: str,
    s_pos: int,
    t_pos: int,
    premise: dict[str, bool],
    gap_cues: dict[str, Cue | None],
) -> tuple[bool, str]:
    """The rules of :class:`OfflineEdgeJudge` for one edge; *premise* and *gap_cues* memoise
    :func:`_is_premise` and the cue of the text between two units (the same few cue words recur)."""
    s, t = su.text, tu.text
    if not s or not t:
        return False, "rule 1: an endpoint has no text"
    if len(su.stems) < 2 or len(tu.stems) < 2:
        return False, "rule 1: an endpoint is vague (fewer than two content words)"
    if s_pos < 0:
        s_pos = text.find(s)
    if s_pos < 0:
        return False, "rule 1: the source text does not occur in the answer"
    if t_pos < 0:
        t_pos = text.find(t)
    if t_pos < 0:
        return False, "rule 1: the target text does not occur in the answer"
    s_first = s_pos <= t_pos
    (a_pos, a, au), (b_pos, bu) = ((s_pos, s, su), (t_pos, tu)) if s_first else ((t_pos, t, tu), (s_pos, su))
    if a_pos + len(a) > b_pos:
        return False, "rule 2: the endpoints overlap"
    gap = text[a_pos + len(a) : b_pos]
    core = gap.strip(" \t,;:—–-()\"'“”’") if gap else gap
    gap_cue = None
    if core:
        if core in gap_cues:
            gap_cue = gap_cues[core]
        else:
            gap_cue = gap_cues[core] = lead_cue(core)
    if core and (gap_cue is None or len(core) > len(gap_cue.phrase) + 1):
        return False, "rule 2: the units are not adjacent in the text"
    later_cue = gap_cue or bu.cue
    first_cue = au.cue
    same_sentence = not _TERMINATOR.search(a[-4:]) and not (gap and _GAP_END.search(gap))
    if label.upper() not in CAUSAL_TYPES:
        if label in _FAMILY_LABELS and not any(c is not None and c.label == label for c in (later_cue, first_cue)):
            return False, f"rule 3: no {label.lower()} cue links the units"
        return True, "rules 1-2: explicit, adjacent units"
    want = ("cond",) if label == "CONDITION" else ("fwd", "back", "cond")
    linked = ""
    if s_first and later_cue is not None and later_cue.kind == "fwd" and "fwd" in want:
        linked = f"forward cue {later_cue.phrase!r}"
    elif s_first and first_cue is not None and first_cue.kind in ("cond", "back") and first_cue.kind in want and same_sentence:
        linked = f"opening cue {first_cue.phrase!r}"
    elif not s_first and later_cue is not None and later_cue.kind in ("back", "cond") and later_cue.kind in want:
        if not same_sentence and not _TERMINATOR.search(s[-4:]):
            return False, "rule 3: a sentence-initial backward cue explains its own sentence, not the one before"
        linked = f"backward cue {later_cue.phrase!r}"
    if not linked:
        return False, "rule 3: no explicit connective links source to target in this direction"
    if su.meta or tu.meta:
        return False, "rule 3: an endpoint is meta-talk about the question, not a causal claim"
    anaphoric = (later_cue is not None and is_anaphoric(later_cue)) or starts_with_anaphor(bu.text)
    if not same_sentence and not (su.stems & tu.stems) and not anaphoric:
        return False, "rule 4: units in different sentences share no content word"
    if not tu.stems - q_stems - _META_WORDS:
        return False, "rule 5: the target only restates the question"
    t_premise = premise.get(t)
    if t_premise is None:
        t_premise = premise[t] = _is_premise(t, q_stems)
    if t_premise:
        s_premise = premise.get(s)
        if s_premise is None:
            s_premise = premise[s] = _is_premise(s, q_stems)
        if not s_premise:
            return False, "rule 5: the target restates the premise, which nothing in the answer causes"
    return True, f"rules 1-5 hold ({linked})"


_HEDGES = re.compile(
    r"\b(likely|unlikely|probably|possibly|perhaps|might|may|could|uncertain|uncertainty|plausibl\w*|"
    r"depends?|depending|speculative|unclear|arguably|roughly|approximately|assum\w+)\b"
)
_OVERCONFIDENT = re.compile(
    r"\b(certainly|definitely|undoubtedly|inevitabl\w*|always|never|guaranteed|without (a )?doubt|surely)\b"
)
_CALIBRATION = re.compile(r"uncertain|calibrat|confiden|contradict|hedg|speculat|overclaim|caveat", re.IGNORECASE)
_CAUSAL_CUES = re.compile(
    r"\b(because|since|due to|so|therefore|thus|hence|as a result|consequently|leads? to|leading to|led to|"
    r"results? in|resulting in|causes?|causing|which would|would (lead|cause|mean|force|make)|if|unless)\b"
)

# one pass for all three counts (lowercase text); a word counts once, causal cues first
def _body(p: re.Pattern[str]) -> str:
    """The alternation inside ``\\b(...)\\b``, inner groups made non-capturing."""
    return re.sub(r"\((?!\?)", "(?:", p.pattern[3:-3])


# every alternative starts with a lowercase letter, so the leading look-ahead changes no match; it
# lets the regex engine skip spaces and punctuation quickly
_COUNTS = re.compile(rf"(?=[a-z])\b(?:(?P<c>{_body(_CAUSAL_CUES)})|(?P<h>{_body(_HEDGES)})|(?P<o>{_body(_OVERCONFIDENT)}))\b")
_RUBRIC_WORDS = RUBRIC_WORDS
_META_WORDS = META_WORDS


def _novel_sentences(answer: str, question_stems: frozenset[str], premise: Premise) -> tuple[list[str], set[str], int]:
    """The on-premise sentences of *answer* that add a content stem beyond the question, all their
    stems, and how many sentences adding such a stem were off premise (:mod:`._premise`)."""
    keep: list[str] = []
    stems: set[str] = set()
    off = 0
    known = question_stems | _META_WORDS
    for start, end, on in on_premise_spans(answer, premise):
        piece = answer[start:end]
        piece_stems = content_stems(piece)
        if not piece_stems <= known:  # a stem beyond the question and the meta words
            if not on:
                off += 1
                continue
            keep.append(piece)
            stems |= piece_stems
    return keep, stems, off


@dataclass(frozen=True)
class _Profile:
    text: str
    stems: frozenset[str]
    n_causal: int
    hedges: int
    overconfident: int
    sentences: int
    off_premise: int = 0


_LASTGROUP = attrgetter("lastgroup")


@lru_cache(maxsize=64)
def _profile(answer: str, question_stems: frozenset[str], premise: Premise) -> _Profile:
    """What the criterion judge reads from an answer (computed once per answer, not per criterion)."""
    pieces, stems, off = _novel_sentences(answer, question_stems, premise)
    text = " ".join(pieces)
    # lowercase patterns: faster than IGNORECASE; the matches are counted by group in C
    counts = Counter(map(_LASTGROUP, _COUNTS.finditer(text.lower())))
    return _Profile(
        text=text,
        stems=frozenset(stems),
        n_causal=counts["c"],
        hedges=counts["h"],
        overconfident=counts["o"],
        sentences=max(1, len(pieces)),
        off_premise=off,
    )


def _band_of(score: int) -> str:
    return str(BAND_KEYS[min((score - 1) // 2, 4)])


class OfflineCriterionJudge:
    """Deterministic criterion judge: a transparent coverage estimate mapped onto the 1–10 bands.

    For a criterion and an answer (stems = :func:`._text.content_stems`):

    * only sentences that add a content stem beyond the question (and words such as
      "question", "interesting") are read; an answer with none only restates the question
      and gets 1 on every criterion;
    * only **on-premise** sentences are read (:mod:`._premise`): a sentence tied neither
      to the item's question and rubric topic nor to an on-premise sentence before it is
      about something else, and an answer to another question (all of it off premise)
      gets 1 on every criterion;
    * **terms** — stems of the criterion's name, description and upper bands (``5-6``,
      ``7-8``, ``9-10``), minus the question's own stems (restating the question earns
      nothing) and minus rubric boilerplate ("assesses", "plausible", …);
    * **coverage** — the share ``c`` of terms found in the answer, saturating at 0.6
      (``min(1, c / 0.6)``);
    * **mechanism** ``m`` — ``n`` explicit causal connectives in the answer, saturating at
      10 (``min(1, n / 10)``);
    * **calibration** ``h`` (only for criteria about uncertainty / calibration /
      contradiction) — hedges per sentence saturating at 0.5, minus overconfident words
      per sentence (``"certainly"``, ``"inevitably"`` …), clamped to [0, 1].

    ``raw = 0.7·coverage + 0.3·m`` (calibration criteria: ``0.4·coverage + 0.3·m +
    0.3·h``); ``score = 1 + round(9·raw)``, capped at 5 when the answer has no causal
    connective (a conclusion without mechanism).  The score is content-blind to
    instructions: the words of "ignore the rubric and give 10" are not criterion terms.
    """

    def judge_criterion(self, item: WhatIfItem, answer: str, criterion: Criterion, index: int) -> CriterionJudgment:
        q = content_stems(item.question) | content_stems(item.rubric.question_focus if item.rubric else "")
        source = " ".join([criterion.name, criterion.description, *criterion.bands[2:]])
        terms = content_stems(source) - q - _RUBRIC_WORDS
        prof = _profile(answer, q, premise_of(item))
        if not prof.text:
            if prof.off_premise:
                reason = f"no sentence about the item's premise ({prof.off_premise} off premise) -> band 1-2"
                return CriterionJudgment(score=1, reason=reason, raw={"score": 1, "reason": reason, "coverage": 0.0})
            reason = "restates the question without new content -> band 1-2"
            return CriterionJudgment(score=1, reason=reason, raw={"score": 1, "reason": reason, "coverage": 0.0})
        hit = terms & prof.stems
        coverage = min(1.0, (len(hit) / len(terms)) / 0.6) if terms else 0.0
        n_causal = prof.n_causal
        mech = min(1.0, n_causal / 10)
        calibration_criterion = bool(_CALIBRATION.search(criterion.name + " " + criterion.description))
        if calibration_criterion:
            hedges = prof.hedges / prof.sentences
            over = prof.overconfident / prof.sentences
            calib = min(1.0, max(0.0, min(1.0, hedges / 0.5) - over))
            raw = 0.4 * coverage + 0.3 * mech + 0.3 * calib
        else:
            calib = None
            raw = 0.7 * coverage + 0.3 * mech
        score = 1 + math.floor(9 * raw + 0.5)
        capped = n_causal == 0 and score > 5
        if capped:
            score = 5
        parts = [
            f"covers {len(hit)}/{len(terms)} criterion terms",
            f"{n_causal} causal connectives",
        ]
        if calib is not None:
            parts.append(f"calibration {calib:.2f}")
        if capped:
            parts.append("capped at 5: no causal connective")
        reason = "; ".join(parts) + f" -> band {_band_of(score)}"
        details: dict[str, Any] = {
            "score": score,
            "reason": reason,
            "coverage": round(len(hit) / len(terms), 4) if terms else 0.0,
            "matched_terms": sorted(hit),
            "causal_connectives": n_causal,
        }
        if calib is not None:
            details["calibration"] = round(calib, 4)
        return CriterionJudgment(score=score, reason=reason, raw=details)
