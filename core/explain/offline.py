"""How the offline judges read an answer: which causal links it supports, and what it claims.

PRISM's LLM judges are "adversarially strict": an edge is supported only when the answer
states that exact directed link, about real claims, without contradicting it; a rubric
criterion is scored by the mechanism the answer gives for it.  The offline judges approximate
those verdicts with rules over words, positions and the item's own texts — no model.

**Edges.**  A causal edge ``S → T`` (CAUSE, RESULT, CONSEQUENCE, CONDITION) is supported only
when every rule holds, checked in this order (the first that fails is named in the rationale):

1. *explicit endpoints* — both texts occur in the answer and neither is vague (fewer than two
   content lemmas and no word of change);
2. *local link* — the two units are adjacent: only spacing, punctuation or one cue phrase
   between them;
3. *a link in that direction* — a cue of the right kind joins them ("S, so T", "T because S",
   "If S, T"), an arrow, or a causative verb with an object opens ``T`` right after its subject
   ``S`` ("Smaller tides | would shrink intertidal zones"); meta-talk about the question is no
   claim; a ``T`` that opens a condition of its own right after the cue ("S, so if Latin had
   stayed, scholars would travel") follows from that condition, not from ``S``, unless the
   condition is about ``S`` ("cranes cut handling, so without them costs would stay high");
4. *cohesion* — units in different sentences share a content lemma or the later one points back
   ("This would …");
5. *the premise is exogenous* — ``T`` adds something beyond the question and does not restate
   the premise unless ``S`` does: nothing in the answer causes the intervention;
6. *on premise* — neither endpoint lies in a sentence about another scenario (:mod:`._premise`);
7. *grounding* — the link is about the item: a content lemma of one endpoint or the other is in
   the item's vocabulary (question, rubric criteria and bands, reference answers — or contains,
   lies inside or shares a long beginning with a word of it: "moonlight", "intertidal",
   "magnetosphere"); a link between things the item never mentions ("the jealous Sun would make
   fish take up knitting", for a question on the Moon's tides) is unsupported;
8. *direction* — nothing in the item's own texts says the link runs the other way: the item's
   reference answers, read with the same parser, give directed links, and an edge that reverses
   one of them (its cause matches the reference's effect and its effect the reference's cause)
   is unsupported; so is an edge on a circle of claims ("paper spreads literacy … so literacy
   spreads paper"), and (rule 5) one whose effect is the premise;
9. *not repeated* — an edge joining the same concepts as an earlier supported edge adds no
   support (repeating a sentence does not raise PM);
10. *not contradicted* — neither endpoint asserts a change that another part of the answer
    asserts the other way round (:func:`contradictions`).

Non-causal edges need rules 1–2 and, for CONTRAST, CONCESSION, EXAMPLE, PURPOSE, SUMMARY and
RESTATEMENT, a cue of their own family.

**Contradictions.**  Two units assert the same quantity moving in opposite directions
(:mod:`._claims`: "food prices rise" … "cheaper food"), neither sentence is about the actual
world ("In the real history wages rose"), they are not in one sentence, not in
adjacent sentences set side by side as alternatives ("alternatively", "in another scenario"),
and not both placed in time ("at first … later", "initially … over decades"): the answer says
both, without saying why the direction changed.

**Criteria.**  :func:`criterion_score` reads a criterion's *terms* (the content lemmas of its
name, description and upper bands, minus the question and rubric boilerplate), what the answer's
statements say of them and how many of those statements sit in supported causal links — a
criterion is covered by the mechanism it describes, not by connectives or word lists (see
:class:`OfflineCriterionJudge`).

The rules compare words and positions; they never follow instructions in the text.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from causalcheck.explain._claims import Claim, claim_of, conflicts, is_identity, is_list
from causalcheck.explain._cues import (
    CUES,
    Cue,
    causative_start,
    is_anaphoric,
    is_meta_talk,
    lead_cue,
    starts_with_anaphor,
)
from causalcheck.explain._premise import (
    Premise,
    meta_words,
    on_premise_spans,
    own_condition,
    premise_of,
    rubric_words,
)
from causalcheck.explain._text import SENTENCE_PIECES, content_lemmas, lemma, stop_words
from causalcheck.explain.data import BAND_KEYS
from causalcheck.explain.explanation_graph import CAUSAL_TYPES, ExplanationGraph
from causalcheck.explain.judges import CriterionJudgment, EdgeJudgment
from causalcheck.explain.relations import OfflineParser
from causalcheck.explain.rst import project_to_graph

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.explain.data import Criterion, WhatIfItem

__all__ = [
    "FOREIGN_PER_GROUNDED",
    "OFFLINE_NOTICE",
    "Contradiction",
    "EdgeVerdict",
    "OfflineCriterionJudge",
    "OfflineEdgeJudge",
    "Reading",
    "contradictions",
    "criterion_score",
    "edge_verdicts",
    "read_answer",
]

#: What every result of the offline judges says about itself (result files, Markdown, the command line).
OFFLINE_NOTICE = (
    "scored by the offline judges: a rule-based approximation of PRISM's LLM judges that reads cues, words and "
    "the item's own texts; it cannot tell a reversed causal link from a correct one unless the item's reference "
    "answers fix the direction, misses links left implicit (timelines, narratives), and credits claims that use "
    "the item's words however absurd; see docs/explain.md, 'What the offline judges can and cannot see'"
)

#: Concepts from outside the item's vocabulary an endpoint may name per concept from inside it before the
#: criterion judge counts it as mostly about other things.
FOREIGN_PER_GROUNDED = 2

_TERMINATOR = re.compile(r"[.!?][\"'”’)\]]*\s*$")
_CALIBRATION = re.compile(r"uncertain|calibrat|confiden|contradict|hedg|speculat|overclaim|caveat", re.IGNORECASE)
_PREMISE_CRITERION = re.compile(r"premise|anchor|starting|setup|set-up|grounding", re.IGNORECASE)
_GAP_END = re.compile(r"[.!?\n]")
_FAMILY_LABELS = frozenset({"CONTRAST", "CONCESSION", "EXAMPLE", "PURPOSE", "SUMMARY", "RESTATEMENT"})
#: Words that place a claim in time ("at first", "over decades"): two claims about one quantity that
#: both carry one describe a course over time, not a contradiction.
_TIME = re.compile(
    r"\b(?:at first|initially|first|immediately|soon|early|in the short (?:run|term)|short-term|temporarily|briefly|"
    r"then|later|eventually|afterwards|over time|over (?:the )?(?:following )?(?:years|decades|centuries)|"
    r"in the long (?:run|term)|long-term|ultimately|by the \w+ century|until|recover\w*|rebound\w*)\b",
    re.IGNORECASE,
)
#: Words that put a sentence in the actual world, not the counterfactual one ("In the real history
#: wages rose"): it contradicts nothing the answer says would happen.
_ACTUAL_WORLD = re.compile(
    r"\b(?:in (?:the )?real (?:history|world|timeline)|in our (?:history|timeline|world)|historically|in reality|"
    r"in fact|actually happened|as (?:it )?(?:actually )?happened|in (?:the )?actual (?:history|timeline))\b",
    re.IGNORECASE,
)
#: Words that set two claims side by side as alternatives ("alternatively", "in one branch … in another").
_ALTERNATIVE = re.compile(r"\b(?:alternatively|otherwise|instead|either|or|whereas|in another|in one|scenario|branch)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class EdgeVerdict:
    """The offline verdict on one edge: ``ok``, the rule that decided (``why``), and a short ``kind``
    (``"supported"``, ``"reversed"``, ``"contradicted"``, ``"ungrounded"``, ``"repeated"`` or ``"unlinked"``)."""

    ok: bool
    why: str
    kind: str


@dataclass(frozen=True, slots=True)
class Contradiction:
    """Two units of the answer that move one quantity both ways: their texts and the quantity's head lemma."""

    first: str
    second: str
    quantity: str

    def describe(self) -> str:
        """One line for reasons and findings."""
        return f"{self.quantity!r} moves both ways: {self.first[:60]!r} / {self.second[:60]!r}"


#: A predicate that says something would differ without saying how ("Europe would have been different").
_VAGUE_CHANGE = re.compile(
    r"\b(?:be|been|look|looks|become|seem|turn out)\s+(?:very\s+|quite\s+|completely\s+|rather\s+)?(?:different|otherwise|unrecognizable|unrecognisable)\b"
    r"|\b(?:change|changes|changed|affected|impacted|altered)\s*[.,;:]?\s*$|\bnot be the same\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=1)
def _vague_words() -> frozenset[str]:
    """Lemmas that name no particular thing: meta and rubric words, and words like "different", "main", "things"."""
    return (
        meta_words()
        | rubric_words()
        | content_lemmas("different differently same similar main general look looks seem seems thing things way ways lot lots kind sort aspect aspects situation event events world")
    )


class _Unit(NamedTuple):
    """An edge endpoint as the rules read it: normalised text, its claim, its opening cue, meta-talk."""

    text: str
    claim: Claim
    cue: Cue | None
    meta: bool
    causative: str | None
    identity: bool


@lru_cache(maxsize=16384)
def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


@lru_cache(maxsize=16384)
def _unit(raw: str) -> _Unit:
    norm = _norm(raw)
    if not norm:
        return _Unit(norm, claim_of(""), None, False, None, False)
    return _Unit(norm, claim_of(raw), lead_cue(norm), is_meta_talk(norm), causative_start(norm), is_identity(norm) or is_list(raw))


def _is_premise(lemmas: frozenset[str], question: frozenset[str]) -> bool:
    """A unit that restates the question: ≥ 2 of its content lemmas, and at least half, come from the question."""
    shared = lemmas & question
    return len(shared) >= 2 and 2 * len(shared) >= len(lemmas)


# ---------------------------------------------------------------------------- rules 1-5
def _local_rules(text: str, q: frozenset[str], su: _Unit, tu: _Unit, label: str, s_pos: int, t_pos: int) -> EdgeVerdict:
    """Rules 1-5 for one edge (module docstring) on the lowercased, space-normalised *text*."""
    s, t = su.text, tu.text
    if not s or not t:
        return EdgeVerdict(False, "rule 1: an endpoint has no text", "unlinked")
    for u in (su, tu):
        if len(u.claim.lemmas) < 2 and not u.claim.assertions:
            return EdgeVerdict(False, "rule 1: an endpoint is vague (fewer than two content words, no change)", "unlinked")
        if not u.claim.lemmas - _vague_words():
            return EdgeVerdict(False, "rule 1: an endpoint is vague (only words like 'consequences', 'different', 'things')", "unlinked")
        if not u.claim.assertions and u.causative is None and _VAGUE_CHANGE.search(u.text):
            return EdgeVerdict(False, "rule 1: an endpoint says only that something would differ, not how", "unlinked")
    if s_pos < 0:
        s_pos = text.find(s)
    if s_pos < 0:
        return EdgeVerdict(False, "rule 1: the source text does not occur in the answer", "unlinked")
    if t_pos < 0:
        t_pos = text.find(t)
    if t_pos < 0:
        return EdgeVerdict(False, "rule 1: the target text does not occur in the answer", "unlinked")
    s_first = s_pos <= t_pos
    (a_pos, a, au), (b_pos, bu) = ((s_pos, s, su), (t_pos, tu)) if s_first else ((t_pos, t, tu), (s_pos, su))
    if a_pos + len(a) > b_pos:
        return EdgeVerdict(False, "rule 2: the endpoints overlap", "unlinked")
    gap = text[a_pos + len(a) : b_pos]
    core = gap.strip(" \t,;:—–-()\"'“”’") if gap else gap
    gap_cue = lead_cue(core) if core else None
    if core and (gap_cue is None or len(core) > len(gap_cue.phrase) + 1):
        return EdgeVerdict(False, "rule 2: the units are not adjacent in the text", "unlinked")
    same_sentence = not _TERMINATOR.search(a[-4:]) and not (gap and _GAP_END.search(gap))
    later_cue = gap_cue or bu.cue
    if later_cue is not None and later_cue.inner and not same_sentence:
        later_cue = None  # a gerund opening a sentence is its subject, not a cue
    first_cue = au.cue
    if label not in CAUSAL_TYPES:
        if label in _FAMILY_LABELS and not any(c is not None and c.label == label for c in (later_cue, first_cue)):
            return EdgeVerdict(False, f"rule 3: no {label.lower()} cue links the units", "unlinked")
        return EdgeVerdict(True, "rules 1-2: explicit, adjacent units", "supported")
    want = ("cond",) if label == "CONDITION" else ("fwd", "back", "cond")
    linked = ""
    if s_first and later_cue is not None and later_cue.kind == "fwd" and "fwd" in want:
        linked = f"forward cue {later_cue.phrase!r}"
    elif s_first and first_cue is not None and first_cue.kind in ("cond", "back") and first_cue.kind in want and same_sentence:
        linked = f"opening cue {first_cue.phrase!r}"
    elif not s_first and later_cue is not None and later_cue.kind in ("back", "cond") and later_cue.kind in want:
        if not same_sentence and not _TERMINATOR.search(s[-4:]):
            return EdgeVerdict(False, "rule 3: a sentence-initial backward cue explains its own sentence, not the one before", "unlinked")
        linked = f"backward cue {later_cue.phrase!r}"
    elif s_first and same_sentence and not core and bu.causative is not None and label != "CONDITION":
        linked = f"causative verb {bu.causative!r}"
    if not linked:
        return EdgeVerdict(False, "rule 3: no explicit connective links source to target in this direction", "unlinked")
    if label != "CONDITION" and s_first and _own_condition(text[_sentence_start(text, s_pos) : t_pos], t):
        return EdgeVerdict(False, "rule 3: the target opens a condition of its own ('so if …'), which is its cause", "unlinked")
    if su.meta or tu.meta:
        return EdgeVerdict(False, "rule 3: an endpoint is meta-talk about the question, not a causal claim", "unlinked")
    if su.identity or tu.identity:
        return EdgeVerdict(False, "rule 1: an endpoint only equates or lists things (not a state or a change)", "identity")
    anaphoric = (later_cue is not None and is_anaphoric(later_cue)) or starts_with_anaphor(bu.text)
    if not same_sentence and not (su.claim.lemmas & tu.claim.lemmas) and not anaphoric:
        return EdgeVerdict(False, "rule 4: units in different sentences share no content word", "unlinked")
    if not tu.claim.lemmas - q - meta_words():
        return EdgeVerdict(False, "rule 5: the target only restates the question", "reversed")
    if _is_premise(tu.claim.lemmas, q) and not _is_premise(su.claim.lemmas, q):
        if same_sentence and not core and _is_premise(su.claim.lemmas | tu.claim.lemmas, q):
            return EdgeVerdict(False, "rule 5: the two units together only state the premise", "premise")
        return EdgeVerdict(False, "rule 5: the target restates the premise, which nothing in the answer causes", "reversed")
    return EdgeVerdict(True, f"rules 1-5 hold ({linked})", "supported")


def _own_condition(before: str, target: str) -> bool:
    """True when *target* opens, right after its forward cue, a condition of its own that shares no
    content lemma with the sentence *before* it (:func:`._premise.own_condition`): its consequence
    follows from that condition, not from what came before."""
    found = own_condition(target)
    return found is not None and not (content_lemmas(found[1]) - _cue_words()) & content_lemmas(before)


def _sentence_start(text: str, pos: int) -> int:
    """Where the sentence holding offset *pos* of *text* starts."""
    return max(text.rfind(c, 0, pos) for c in ".!?\n") + 1


# ---------------------------------------------------------------------------- rules 6-10
def _off_premise_nodes(text: str, graph: ExplanationGraph, where: Mapping[str, int], premise: Premise) -> frozenset[str]:
    """Ids of the nodes in an off-premise sentence of *text* that are not anchored themselves."""
    spans = on_premise_spans(text, premise)
    starts = [a for a, _, _ in spans]
    off: set[str] = set()
    for node in graph.nodes:
        if premise.anchors(content_lemmas(node.text)):
            continue
        pos = where.get(node.id, -1)
        k = bisect_right(starts, pos) - 1 if pos >= 0 else -1
        if k < 0 or not spans[k][2]:
            off.add(node.id)
    return frozenset(off)


def _grounded(claim: Claim, premise: Premise) -> bool:
    """Rule 7 for one endpoint: some content lemma of it is in the item's vocabulary."""
    return bool(premise.grounded(claim.lemmas - _cue_words()))


def _unrelated(s: Claim, t: Claim, memo: _Memo) -> bool:
    """True when neither claim is about the premise, each touches some mechanism criterion, no
    criterion both, and they share no concept: a link the item's rubric does not suggest."""
    if s.concepts & t.concepts or memo.premise.asks_about(s.lemmas) or memo.premise.asks_about(t.lemmas):
        return False
    a, b = memo.areas_of(s), memo.areas_of(t)
    return bool(a) and bool(b) and not a & b


def _mostly_foreign(claim: Claim, premise: Premise) -> bool:
    """True when an endpoint names more than :data:`FOREIGN_PER_GROUNDED` concepts from outside the
    item's vocabulary for each one from inside it (the criterion judge's cap reads this)."""
    concepts = (claim.concepts or claim.lemmas) - _cue_words()
    inside = premise.grounded(concepts)
    return not inside or len(concepts) - len(inside) > FOREIGN_PER_GROUNDED * len(inside)


@lru_cache(maxsize=1)
def _cue_words() -> frozenset[str]:
    """Lemmas of the cue phrases ("leading to", "as a result"): the link, not what is linked."""
    return frozenset(lemma(w) for c in CUES for w in c.phrase.split()) - stop_words()


def _sentence_index(text: str) -> tuple[list[int], list[tuple[int, int]]]:
    spans = [(m.start(), m.end()) for m in SENTENCE_PIECES.finditer(text)]
    return [a for a, _ in spans], spans


def contradictions(text: str, units: Sequence[str]) -> list[tuple[int, int, Contradiction]]:
    """Pairs of *units* (indices, in text order) that move one quantity both ways (module docstring).

    *text* is the answer the units come from (lowercased and space-normalised like the units);
    a unit not found in it is placed after the previous one.
    """
    starts, spans = _sentence_index(text)
    where: list[int] = []
    cursor = 0
    for u in units:
        pos = text.find(_norm(u), cursor) if u else -1
        where.append(pos if pos >= 0 else cursor)
        if pos >= 0:
            cursor = pos + len(_norm(u))
    sent = [max(0, bisect_right(starts, p) - 1) for p in where]
    actual = {k for k, (a, b) in enumerate(spans) if _ACTUAL_WORLD.search(text, a, b)}
    claims = [claim_of(u) if sent[n] not in actual else claim_of("") for n, u in enumerate(units)]
    by_quantity: dict[tuple[str, str], list[int]] = {}  # only assertions about one head and dimension can conflict
    for j, cj in enumerate(claims):
        for a in cj.assertions:
            by_quantity.setdefault((a.head, a.dim), []).append(j)
    found: list[tuple[int, int, Contradiction]] = []
    for j, cj in enumerate(claims):
        if not cj.assertions:
            continue
        earlier = sorted({i for a in cj.assertions for i in by_quantity[(a.head, a.dim)] if i < j})
        for i in earlier:
            ci = claims[i]
            hit = next((a for a in ci.assertions for b in cj.assertions if conflicts(a, b)), None)
            if hit is None or _explained_turn(text, spans, sent[i], sent[j]):
                continue
            found.append((i, j, Contradiction(units[i], units[j], hit.head)))
    return found


def _explained_turn(text: str, spans: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    """True when sentences *a* ≤ *b* are one sentence, or adjacent ones set side by side as alternatives,
    or both place their claim in time (a course over time: "at first … later")."""
    if a == b:
        return True
    if a >= len(spans) or b >= len(spans):
        return False
    first, second = text[spans[a][0] : spans[a][1]], text[spans[b][0] : spans[b][1]]
    if b - a == 1 and _ALTERNATIVE.search(second):
        return True
    return _TIME.search(first) is not None and _TIME.search(second) is not None


class _Memo(NamedTuple):
    """Per-item texts the rules compare with."""

    question: frozenset[str]
    premise: Premise
    references: frozenset[tuple[frozenset[str], frozenset[str]]]
    areas: tuple[frozenset[str], ...] = ()

    def areas_of(self, claim: Claim) -> frozenset[int]:
        """The mechanism criteria (by position) whose terms *claim* touches."""
        return frozenset(k for k, terms in enumerate(self.areas) if _touches(claim, terms))


def _reference_links(reference: str) -> set[tuple[frozenset[str], frozenset[str]]]:
    """The causal links of a reference text, read with the offline parser, as ``(cause concepts, effect concepts)``."""
    record = _offline_parser().parse(reference)
    text_of = {e.id: e.text for e in record.edus}
    out: set[tuple[frozenset[str], frozenset[str]]] = set()
    for rel in record.relations:
        if rel.type.upper() not in CAUSAL_TYPES:
            continue
        s, t = claim_of(text_of.get(rel.source, "")), claim_of(text_of.get(rel.target, ""))
        if s.concepts and t.concepts and not s.concepts & t.concepts:
            out.add((s.concepts, t.concepts))
    return out


@lru_cache(maxsize=1)
def _offline_parser() -> OfflineParser:
    """The default offline parser (rules segmenter), made once."""
    return OfflineParser()


@lru_cache(maxsize=128)
def _references(texts: tuple[str, ...]) -> frozenset[tuple[frozenset[str], frozenset[str]]]:
    links: set[tuple[frozenset[str], frozenset[str]]] = set()
    for t in texts:
        links |= _reference_links(t)
    return frozenset(links)


def _memo(item: WhatIfItem) -> _Memo:
    premise = premise_of(item)
    texts = tuple(h for h in item.human_answers if h.strip())
    areas = tuple(
        criterion_terms(item, c)
        for i, c in enumerate(item.rubric.criteria if item.rubric else (), start=1)
        if i != 1 and not _PREMISE_CRITERION.search(c.name) and not _CALIBRATION.search(f"{c.name} {c.description}")
    )
    return _Memo(content_lemmas(item.question), premise, _references(texts), areas)


def _against_reference(s: Claim, t: Claim, refs: frozenset[tuple[frozenset[str], frozenset[str]]]) -> bool:
    """True when a reference link runs from the effect's concepts to the cause's (its cause shares a
    concept with *t* only, its effect with *s* only), and no reference link runs the edge's way."""
    back = fwd = False
    for a, b in refs:
        if a & s.concepts and b & t.concepts and not (a & t.concepts or b & s.concepts):
            fwd = True
        elif a & t.concepts and b & s.concepts and not (a & s.concepts or b & t.concepts):
            back = True
    return back and not fwd


def edge_verdicts(item: WhatIfItem, answer: str, graph: ExplanationGraph, edges: Sequence[int]) -> list[EdgeVerdict]:
    """The offline verdict on each edge index in *edges* of *graph*, an explanation graph of *answer* (module docstring)."""
    verdicts = _verdicts(item, answer, graph)
    return [verdicts[k] for k in edges]


@lru_cache(maxsize=64)
def _verdicts(item: WhatIfItem, answer: str, graph: ExplanationGraph) -> tuple[EdgeVerdict, ...]:
    """The verdict on every edge of *graph* (one computation for the edge judge and the criterion judge)."""
    edges = range(len(graph.edges))
    text = _norm(answer)
    memo = _memo(item)
    texts = graph.text_of
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
    cased = " ".join(answer.split())
    off = _off_premise_nodes(cased if len(cased) == len(text) else text, graph, where, memo.premise)
    order = sorted((n for n in graph.nodes if where.get(n.id, -1) >= 0), key=lambda n: where[n.id])
    ordered_ids = list(dict.fromkeys(n.id for n in order))
    contradicted: dict[str, Contradiction] = {}
    for i, j, c in contradictions(text, [texts.get(n, "") for n in ordered_ids]):
        contradicted.setdefault(ordered_ids[i], c)
        contradicted.setdefault(ordered_ids[j], c)
    wanted = set(edges)
    all_causal = [k for k, e in enumerate(graph.edges) if e.relation_type.upper() in CAUSAL_TYPES]
    verdicts: dict[int, EdgeVerdict] = {}
    for k in sorted(wanted | set(all_causal)):
        e = graph.edges[k]
        su, tu = _unit(texts.get(e.source, "")), _unit(texts.get(e.target, ""))
        label = e.relation_type.upper()
        v = _local_rules(text, memo.question, su, tu, label, where.get(e.source, -1), where.get(e.target, -1))
        if v.ok and label in CAUSAL_TYPES:
            v = _item_rules(e.source, e.target, su, tu, off, memo, contradicted)
        verdicts[k] = v
    _chain_rules(graph, texts, where, verdicts, all_causal, memo)
    return tuple(verdicts[k] for k in edges)


def _item_rules(s_id: str, t_id: str, su: _Unit, tu: _Unit, off: frozenset[str], memo: _Memo, contradicted: Mapping[str, Contradiction]) -> EdgeVerdict:
    """Rules 6, 7 and 10 for a causal edge that passed rules 1-5."""
    if s_id in off or t_id in off:
        return EdgeVerdict(False, "rule 6: the chain is off the item's premise (no sentence of it is about the question)", "off-premise")
    if not _grounded(su.claim, memo.premise) and not _grounded(tu.claim, memo.premise):
        return EdgeVerdict(False, "rule 7: the link is between things the item never mentions (not in its question, rubric or references)", "ungrounded")
    if _unrelated(su.claim, tu.claim, memo):
        return EdgeVerdict(False, "rule 7: cause and effect belong to different parts of the rubric and share nothing", "unrelated")
    for u_id in (s_id, t_id):
        c = contradicted.get(u_id)
        if c is not None:
            return EdgeVerdict(False, f"rule 10: contradicted elsewhere in the answer ({c.describe()})", "contradicted")
    return EdgeVerdict(True, "rules 1-7 and 10 hold", "supported")


def _chain_rules(
    graph: ExplanationGraph,
    texts: Mapping[str, str],
    where: Mapping[str, int],
    verdicts: dict[int, EdgeVerdict],
    causal: Sequence[int],
    memo: _Memo,
) -> None:
    """Rules 8 and 9 over the causal edges still supported, in text order of their later endpoint (in place)."""
    seen: set[tuple[frozenset[str], frozenset[str]]] = set()
    circular = _circular(graph, texts, verdicts, causal)

    def later(k: int) -> tuple[int, int]:
        e = graph.edges[k]
        return (max(where.get(e.source, -1), where.get(e.target, -1)), k)

    for k in sorted(causal, key=later):
        v = verdicts[k]
        if not v.ok:
            continue
        e = graph.edges[k]
        if k in circular:
            verdicts[k] = EdgeVerdict(False, "rule 8: the link lies on a circle of claims (each one causes the next and the last the first)", "reversed")
            continue
        s, t = _unit(texts.get(e.source, "")).claim, _unit(texts.get(e.target, "")).claim
        if _against_reference(s, t, memo.references):
            verdicts[k] = EdgeVerdict(False, "rule 8: the item's reference answers link these concepts the other way round", "reversed")
            continue
        key = (s.concepts, t.concepts)
        if key in seen and s.concepts and t.concepts:
            verdicts[k] = EdgeVerdict(False, "rule 9: repeats a link the answer already made", "repeated")
            continue
        seen.add(key)
        verdicts[k] = EdgeVerdict(True, v.why.replace("rules 1-7 and 10 hold", "rules 1-10 hold"), "supported")


def _circular(graph: ExplanationGraph, texts: Mapping[str, str], verdicts: Mapping[int, EdgeVerdict], causal: Sequence[int]) -> frozenset[int]:
    """Indices of the supported causal edges that lie on a directed cycle once units naming the same
    concepts are one claim ("paper spreads literacy … so literacy spreads paper")."""
    key: dict[str, frozenset[str]] = {}
    pairs: dict[int, tuple[frozenset[str], frozenset[str]]] = {}
    for k in causal:
        if not verdicts[k].ok:
            continue
        e = graph.edges[k]
        for n in (e.source, e.target):
            if n not in key:
                c = _unit(texts.get(n, "")).claim
                key[n] = c.concepts or frozenset({n})
        a, b = key[e.source], key[e.target]
        if a != b:
            pairs[k] = (a, b)
    if not pairs:
        return frozenset()
    succ: dict[frozenset[str], set[frozenset[str]]] = {}
    indeg: dict[frozenset[str], int] = {}
    for a, b in set(pairs.values()):
        succ.setdefault(a, set()).add(b)
        indeg[b] = indeg.get(b, 0) + 1
        indeg.setdefault(a, 0)
    todo = [c for c, d in indeg.items() if d == 0]
    while todo:  # Kahn's order: what remains lies on or between cycles
        done = todo.pop()
        for m in succ.get(done, set()):
            indeg[m] -= 1
            if indeg[m] == 0:
                todo.append(m)
        indeg[done] = -1
    if all(d < 0 for d in indeg.values()):
        return frozenset()
    # late: networkx only when the claims contain a cycle
    import networkx as nx

    g = nx.DiGraph([p for p in set(pairs.values())])
    comp = {n: i for i, c in enumerate(nx.strongly_connected_components(g)) for n in c}
    return frozenset(k for k, (a, b) in pairs.items() if comp[a] == comp[b])


# ---------------------------------------------------------------------------- the whole answer
@dataclass(frozen=True, slots=True)
class Unit:
    """One unit (EDU) of the answer as the criterion judge reads it.

    ``statement``: a claim about the world — not a list of words, an identity or talk about the
    question; ``on_premise``: in a sentence about the item (:mod:`._premise`); ``linked``: an
    endpoint of a supported causal edge inside one sentence, or across sentences by pointing back
    ("This would …") — a sentence-initial "Therefore," adds no mechanism the answer did not state;
    ``wrong``: an endpoint of a reversed, contradicted or empty causal edge.
    """

    claim: Claim
    statement: bool
    on_premise: bool
    linked: bool
    wrong: bool


@dataclass(frozen=True)
class Reading:
    """The offline reading of one answer: its causal edges with verdicts, its units, contradictions,
    and the words of calibration in its statements about the item."""

    edges: tuple[tuple[Claim, Claim, EdgeVerdict], ...]
    units: tuple[Unit, ...]
    contradictions: tuple[Contradiction, ...]
    off_premise: int
    hedges: int
    overconfident: int
    statements: int

    @property
    def novel(self) -> bool:
        """True when some on-premise statement says more than the question."""
        return self.statements > 0

    @property
    def supported(self) -> tuple[tuple[Claim, Claim], ...]:
        """The supported causal edges as ``(cause, effect)`` claims."""
        return tuple((s, t) for s, t, v in self.edges if v.ok)

    def bad(self) -> tuple[tuple[Claim, Claim, EdgeVerdict], ...]:
        """The causal edges judged reversed, contradicted or mere identities."""
        return tuple(x for x in self.edges if x[2].kind in _WRONG)

    def share(self, *kinds: str) -> float:
        """Share of the causal edges with a link (not ``"unlinked"``) whose verdict is one of *kinds*."""
        judged = [v for _, _, v in self.edges if v.kind != "unlinked"]
        return sum(1 for v in judged if v.kind in kinds) / len(judged) if judged else 0.0


_WRONG = frozenset({"reversed", "contradicted", "identity"})
_HEDGES = re.compile(
    r"\b(likely|unlikely|probably|possibly|perhaps|might|may|could|uncertain|uncertainty|plausibl\w*|"
    r"depends?|depending|speculative|unclear|arguably|roughly|approximately|assum\w+)\b"
)
_OVERCONFIDENT = re.compile(
    r"\b(certainly|definitely|undoubtedly|inevitabl\w*|always|never|guaranteed|without (a )?doubt|surely)\b"
)


@lru_cache(maxsize=64)
def _read(answer: str, item: WhatIfItem) -> Reading:
    record = _offline_parser().parse(answer)
    graph = project_to_graph(record)
    causal = [k for k, e in enumerate(graph.edges) if e.relation_type.upper() in CAUSAL_TYPES]
    verdicts = edge_verdicts(item, answer, graph, causal) if causal else []
    texts = graph.text_of
    premise = premise_of(item)
    spans = on_premise_spans(answer, premise)
    starts = [a for a, _, _ in spans]
    sentence = {e.id: bisect_right(starts, e.start if e.start is not None else 0) - 1 for e in record.edus}
    edges = []
    linked: set[str] = set()
    wrong: set[str] = set()
    for k, v in zip(causal, verdicts, strict=True):
        e = graph.edges[k]
        s, t = claim_of(texts.get(e.source, "")), claim_of(texts.get(e.target, ""))
        edges.append((s, t, v))
        if v.kind in _WRONG:
            wrong.update((e.source, e.target))
        elif v.ok and (sentence.get(e.source) == sentence.get(e.target) or _anaphoric_link(texts.get(e.target, ""), texts.get(e.source, ""))):
            linked.update((e.source, e.target))
    known = content_lemmas(item.question) | meta_words()
    units: list[Unit] = []
    sentences_on: set[int] = set()
    sentences_off: set[int] = set()
    hedges = over = 0
    said: set[str] = set()
    for edu in record.edus:
        said_before = _norm(edu.text).strip(" ,.;:!?") in said
        said.add(_norm(edu.text).strip(" ,.;:!?"))
        if said_before:
            continue  # a unit said again adds nothing: not to the mentions, the links or the hedges
        claim = claim_of(edu.text)
        k = bisect_right(starts, edu.start if edu.start is not None else 0) - 1
        on = (k >= 0 and spans[k][2]) or premise.anchors(claim.lemmas)
        new = not claim.lemmas <= known
        in_list = k >= 0 and is_list(answer[spans[k][0] : spans[k][1]])  # a unit of a sentence that lists words
        statement = new and not (in_list or is_list(edu.text) or is_identity(edu.text) or is_meta_talk(edu.text))
        units.append(Unit(claim, statement, on, edu.id in linked, edu.id in wrong))
        if not new:
            continue
        (sentences_on if on else sentences_off).add(k)
        if on and statement and premise.grounded(claim.lemmas):
            low = edu.text.lower()
            hedges += len(_HEDGES.findall(low))
            over += len(_OVERCONFIDENT.findall(low))
    found = contradictions(_norm(answer), [e.text for e in record.edus])
    return Reading(
        edges=tuple(edges),
        units=tuple(units),
        contradictions=tuple(dict.fromkeys(c for _, _, c in found)),
        off_premise=len(sentences_off - sentences_on),
        hedges=hedges,
        overconfident=over,
        statements=sum(1 for u in units if u.statement and u.on_premise),
    )


def _anaphoric_link(*texts: str) -> bool:
    """True when one of *texts* opens by pointing back ("This would …", "Because of that, …")."""
    for text in texts:
        cue = lead_cue(text)
        if starts_with_anaphor(text) or (cue is not None and is_anaphoric(cue)):
            return True
    return False


def read_answer(item: WhatIfItem, answer: str) -> Reading:
    """The :class:`Reading` of *answer* to *item* with the offline parser and the edge rules (cached)."""
    return _read(answer, item)


# ---------------------------------------------------------------------------- criteria
@dataclass(frozen=True)
class CriterionEvidence:
    """What :func:`criterion_score` found for one criterion: its terms, those the answer's statements
    mention, those its linked statements reach, how many linked statements touch it, and how many
    statements in wrong links do."""

    terms: frozenset[str]
    mentioned: frozenset[str]
    in_mechanism: frozenset[str]
    claims: int
    bad: int


def _touches(claim: Claim, terms: frozenset[str]) -> frozenset[str]:
    words = claim.lemmas
    return frozenset(t for t in terms if t in words or any(len(t) >= 4 and (t in w or (len(w) >= 5 and w in t)) for w in words))


def criterion_terms(item: WhatIfItem, criterion: Criterion) -> frozenset[str]:
    """The content lemmas a criterion asks about: name, description and the upper bands, beyond the question."""
    q = content_lemmas(item.question) | content_lemmas(item.rubric.question_focus if item.rubric else "")
    source = " ".join([criterion.name, criterion.description, *criterion.bands[2:]])
    return content_lemmas(source) - q - rubric_words() - meta_words()


def criterion_evidence(reading: Reading, terms: frozenset[str], premise_criterion: bool, premise: Premise) -> CriterionEvidence:
    """The criterion's terms the answer's statements mention and those its linked statements reach (a
    statement mostly about things the item never mentions reaches nothing); the premise criterion
    also counts linked statements about the premise itself."""
    mentioned: set[str] = set()
    reached: set[str] = set()
    claims = bad = 0
    for u in reading.units:
        if not (u.statement and u.on_premise):
            continue
        hit = _touches(u.claim, terms) if terms else frozenset()
        mentioned |= hit
        if u.wrong and (hit or not terms):
            bad += 1
        if u.linked and not _mostly_foreign(u.claim, premise):
            rooted = premise_criterion and premise.asks_about(u.claim.lemmas)
            if hit or rooted or not terms:
                claims += 1
                reached |= hit
    return CriterionEvidence(terms, frozenset(mentioned), frozenset(reached), claims, bad)


def criterion_score(item: WhatIfItem, answer: str, criterion: Criterion, index: int) -> tuple[int, str, dict[str, Any]]:
    """The offline score 1..10 of *answer* on *criterion*, a reason, and the details (see the judge's docstring)."""
    reading = read_answer(item, answer)
    premise = premise_of(item)
    if not reading.novel:
        why = f"no statement about the item's premise ({reading.off_premise} sentence(s) off premise)" if reading.off_premise else "restates the question without new content"
        return 1, why, {"coverage": 0.0}
    terms = criterion_terms(item, criterion)
    calibration = bool(_CALIBRATION.search(criterion.name + " " + criterion.description))
    is_premise = index == 1 or bool(_PREMISE_CRITERION.search(criterion.name))
    ev = criterion_evidence(reading, terms, is_premise, premise)
    n_terms = max(1, len(terms))
    cov_any = len(ev.mentioned) / n_terms if terms else 1.0
    parts: list[str] = []
    if calibration:
        hedges = reading.hedges / reading.statements
        over = reading.overconfident / reading.statements
        calib = min(1.0, max(0.0, min(1.0, hedges / 0.5) - over))
        linked = sum(1 for u in reading.units if u.linked and u.statement and u.on_premise)
        support = min(1.0, linked / 8)
        score = 2 + math.floor(6 * (0.25 * min(1.0, cov_any / 0.5) + 0.35 * support + 0.4 * calib) + 0.5)
        parts.append(f"calibration {calib:.2f}, {linked} linked statement(s)")
        if reading.contradictions:
            score = min(score, 3)
            parts.append(f"at most 3: the answer contradicts itself ({reading.contradictions[0].describe()})")
    else:
        mech = min(1.0, ev.claims / 4)
        raw = 0.65 * min(1.0, cov_any / 0.6) + 0.35 * mech
        score = 1 + math.floor(8 * raw + 0.5)
        parts.append(f"mentions {len(ev.mentioned)}/{len(terms)} criterion terms; {ev.claims} statement(s) in causal links reach them")
        if ev.claims == 0 and score > 5:
            score = 5
            parts.append("at most 5: no causal link reaches it (a conclusion without a mechanism)")
    if ev.bad and not calibration:
        score = min(score, 5 if ev.bad < 3 else 4)
        parts.append(f"at most {5 if ev.bad < 3 else 4}: {ev.bad} statement(s) in reversed, contradicted or empty links touch it")
    failed = reading.share(*_WRONG)
    if failed >= 1 / 3 and len(reading.bad()) >= 2:
        cap = 3 if failed >= 1 / 2 else 5
        if score > cap:
            score = cap
            parts.append(f"at most {cap}: {failed:.0%} of the answer's causal links are reversed, contradicted, circular or mere identities")
    if reading.contradictions and not calibration and score > 5:
        score = 5
        parts.append(f"at most 5: the answer contradicts itself ({reading.contradictions[0].describe()})")
    score = max(1, min(10, score))
    details = {
        "coverage": round(len(ev.mentioned) / n_terms, 4) if terms else 0.0,
        "mechanism_coverage": round(len(ev.in_mechanism) / n_terms, 4) if terms else 0.0,
        "matched_terms": sorted(ev.in_mechanism),
        "linked_statements": ev.claims,
        "wrong_statements": ev.bad,
    }
    return score, "; ".join(parts), details


# ---------------------------------------------------------------------------- the judges
class OfflineEdgeJudge:
    """Deterministic edge judge: the rules of this module (explicit, adjacent
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
        return [EdgeJudgment(1.0 if v.ok else 0.0, "yes" if v.ok else "no", rationale=v.why) for v in edge_verdicts(item, answer, graph, edges)]


def _band_of(score: int) -> str:
    return str(BAND_KEYS[min((score - 1) // 2, 4)])


class OfflineCriterionJudge:
    """Deterministic criterion judge: what the answer states about a criterion, and how much of it sits in
    causal links, mapped onto the bands.

    The answer is read once (:func:`read_answer`: the offline parser and edge rules, whatever parser
    scored PM) into *statements* — units that claim something about the world (not lists of words,
    identities or talk about the question), on the item's premise, each counted once however often it
    is repeated.  An answer with no statement beyond the question gets 1 on every criterion.  A
    criterion's *terms* are the content lemmas of its name, description and upper bands (``5-6``,
    ``7-8``, ``9-10``) minus the question's and rubric boilerplate ("assesses", "plausible" …).

    * **mechanism criteria** — ``score = 1 + round(8·raw)``, ``raw = 0.65·min(1, m/0.6) +
      0.35·min(1, c/4)``: ``m`` the share of terms the statements mention, ``c`` how many statements
      touching the terms take part in a supported causal link inside their sentence (or across
      sentences by pointing back: "This would …") and are about the item; the premise criterion also
      counts linked statements about the premise itself.  Without such a statement the score is at
      most 5 ("a plausible conclusion without mechanism ≤ 5");
    * **calibration criteria** (about uncertainty, calibration, contradiction) — ``2 + round(6·raw)``,
      ``raw = 0.25·min(1, m/0.5) + 0.35·min(1, linked/8) + 0.4·h``, ``h`` hedges per statement about
      the item (saturating at 0.5) minus overconfident words per statement; at most 3 when the
      answer contradicts itself;
    * **errors cap** — statements in reversed, contradicted or empty links that touch the criterion
      cap it at 5 (at 4 from three on); a contradiction anywhere caps every criterion at 5 ("serious
      contradiction or major error ≤ 5"); when a third of the answer's linked causal edges are wrong
      (two at least), every criterion is at most 5, at half at most 3.

    Connectives, repeated sentences and lists of rubric words add no statement and no link, so they
    earn nothing by themselves (``tests/test_explain_reward_hacking.py``).  The score is
    content-blind to instructions.
    """

    def judge_criterion(self, item: WhatIfItem, answer: str, criterion: Criterion, index: int) -> CriterionJudgment:
        score, reason, details = criterion_score(item, answer, criterion, index)
        reason = f"{reason} -> band {_band_of(score)}"
        return CriterionJudgment(score=score, reason=reason, raw={"score": score, "reason": reason, **details})
