"""Relevance to the item: which parts of an answer are about the item's premise and question.

The offline judges use it so that an answer to a *different* question — fluent and causal,
but about another premise — earns neither supported edges nor rubric credit.

* **question lemmas** ``Q`` — content lemmas (:func:`._text.content_lemmas`) of the question and
  the rubric's ``question_focus``, minus meta words ("question", "happen" …);
* **topic lemmas** ``T`` — the nouns among the content lemmas of the rubric criteria's names and
  descriptions (words that name things; "early", "political" do not), minus the question lemmas
  and rubric boilerplate ("assesses", "plausible", "consequences" …);
* a text is **anchored** when it shares at least one stem with ``Q``, or at least two with
  ``T`` (one topic word alone — "ice" in "ice ages" for a Moon question — is not enough);
* a sentence of the answer is **on premise** when it is anchored, or when it continues an
  on-premise sentence: it opens with an anaphor, a personal pronoun or a linking cue ("This
  would …", "His approval …", "As a result, …", "Because of that …") right after one, shares
  two content lemmas with the sentence before it, which is on premise, or is only the rest of
  that sentence cut after an abbreviation ("U.S. prestige" → "prestige …") or holds no
  content word.  A clause that opens a condition of its own after a forward cue ("…, so if
  Latin had remained the common language, scholars …") is a sentence of its own here, as one
  that opens with "If" is: it is on premise only when it is anchored or shares two content
  lemmas with what comes before.  Everything else is **off premise**: nothing in
  it is tied to the item's intervention.

The rules compare words only; they never follow instructions in the text.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from causalcheck.explain._cues import lead_cue, starts_with_anaphor
from causalcheck.explain._text import SENTENCE_PIECES, content_lemmas, pos_lexicon

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.explain.data import WhatIfItem

__all__ = ["Premise", "meta_words", "new_conditions", "on_premise_spans", "own_condition", "premise_of", "rubric_words"]


@lru_cache(maxsize=1)
def meta_words() -> frozenset[str]:
    """Lemmas of words about the asking, not about the content ("question", "happen" …)."""
    return content_lemmas("question questions asks asked ask interesting happen happens happened wonder answer think")


@lru_cache(maxsize=1)
def rubric_words() -> frozenset[str]:
    """Lemmas of rubric boilerplate that says nothing about a question's content ("assesses", "plausible" …)."""
    return content_lemmas(
        "answer answers response assesses assess evaluates evaluate evaluation whether explains explain explanation "
        "discusses discussion treatment treats coverage covers mentions mention provides provide offers offer "
        "identifies identify notes note develops develop integrates integrate reasoning reasons causal plausible "
        "plausibly plausibility coherent coherence credible nuanced detailed clear clearly strong weak generic "
        "superficial superficially meaningful minimal major minor some several multiple little attention claims "
        "counterfactual premise scenario consequences effects effect mechanisms mechanism analysis specific "
        "concrete important key central relevant passing treating treat considers consider shows show "
        # the words of the rubric template itself (every generated rubric has an uncertainty / calibration
        # / contradiction criterion and speaks of likely, long-term, historical, direct or indirect outcomes)
        "uncertainty uncertain calibration calibrated contradiction contradictions control controls likely "
        "likelihood long term short range historical history continuation continuity outcome outcomes result "
        "results impact impacts implications implication direct indirect downstream overall broader broad "
        "change changes changed factors factor dynamics actors constraints constraint context realistic realism "
        "trajectory trajectories development developments possible possibilities alternative alternatives "
        "across within beyond handling handles distinguishes distinguish avoids avoid ignores ignore misreads "
        "restates simply says nothing acknowledges uses starting point builds traces linked integrates coherent "
        "chain precisely defines derives every later step limited depth several mechanisms deep rich robust "
        "sustained logically connected listing isolated measures"
    )


#: Cue kinds that tie a sentence to the one before it; a condition ("If …", "Without …") opens a premise of its own.
_LINK_KINDS = frozenset({"fwd", "back", "concession", "contrast", "example", "summary", "elaboration", "restatement"})
#: Shortest lemma that grounds a longer word containing it ("moon" in "moonlight", "tidal" in "intertidal").
_MIN_PART = 4
#: Length of the shared beginning that relates two words of one family ("electric", "electronic").
_SHARED_PREFIX = 6


@dataclass(frozen=True)
class Premise:
    """What the offline judges know of an item (module docstring).

    ``question`` — lemmas of the question and the rubric's question focus (the premise);
    ``topic`` — lemmas of the criteria's names and descriptions beyond the question;
    ``vocabulary`` — every content lemma the item states: question, criteria with all their
    bands, and the reference answers, minus rubric boilerplate and meta words.
    """

    question: frozenset[str]
    topic: frozenset[str]
    vocabulary: frozenset[str] = frozenset()

    def anchors(self, lemmas: frozenset[str]) -> bool:
        """True when *lemmas* share one question lemma (or a word of its family: "Catholic" for
        "Catholicism") or two topic lemmas."""
        return len(lemmas & self.topic) >= 2 or self.asks_about(lemmas)

    def asks_about(self, lemmas: frozenset[str]) -> bool:
        """True when *lemmas* hold a question lemma or a word of its family (the premise itself)."""
        return bool(lemmas & self.question) or any(_part_of_vocabulary(w, self.question) for w in lemmas)

    def grounded(self, lemmas: frozenset[str]) -> frozenset[str]:
        """The lemmas of *lemmas* the item states: in its vocabulary, or containing a vocabulary word of
        four letters or more ("moonlight" for "moon") or contained in one ("tidal" in "intertidal")."""
        return frozenset(w for w in lemmas if w in self.vocabulary or _part_of_vocabulary(w, self.vocabulary))


@lru_cache(maxsize=65536)
def _part_of_vocabulary(word: str, vocabulary: frozenset[str]) -> bool:
    """True when *word* contains a vocabulary word of :data:`_MIN_PART` letters or more, lies inside one
    (five letters or more), or shares its first :data:`_SHARED_PREFIX` letters with one when both are longer
    ("magnetosphere" and "magnetic": a family of words, for grounding only, never for identity)."""
    if len(word) < _MIN_PART:
        return False
    head = word[:_SHARED_PREFIX] if len(word) > _SHARED_PREFIX else None
    for v in vocabulary:
        if len(v) >= _MIN_PART and (v in word or (len(word) >= 5 and word in v)):
            return True
        if head is not None and len(v) > _SHARED_PREFIX and v.startswith(head):
            return True
    return False


@lru_cache(maxsize=256)
def _premise(question: str, focus: str, criteria: tuple[str, ...], bands: tuple[str, ...], references: tuple[str, ...]) -> Premise:
    meta, boiler = meta_words(), rubric_words()
    q = (content_lemmas(question) | content_lemmas(focus)) - meta
    topic: set[str] = set()
    for text in criteria:
        topic |= content_lemmas(text)
    vocab = set(topic) | q
    for text in (*bands, *references):
        vocab |= content_lemmas(text)
    pos = pos_lexicon()
    things = {w for w in topic if w not in pos["adj"] and w not in pos["adv"] and (w in pos["noun"] or w not in pos["verb"])}
    return Premise(q, frozenset(things) - q - boiler - meta, frozenset(vocab - boiler - meta) | q)


def premise_of(item: WhatIfItem) -> Premise:
    """The :class:`Premise` of *item* (cached on its question, rubric and reference texts)."""
    rubric = item.rubric
    criteria = tuple(f"{c.name} {c.description}" for c in rubric.criteria) if rubric else ()
    bands = tuple(b for c in rubric.criteria for b in c.bands) if rubric else ()
    return _premise(item.question, rubric.question_focus if rubric else "", criteria, bands, tuple(item.human_answers))


#: A piece that opens with a lowercase letter (or "-" and one) is the rest of a sentence the
#: sentence pattern cut after an abbreviation ("George W. Bush", "U.S. prestige", "Sr.-style").
_CUT = re.compile(r"^[ \t]*-?[a-z]")
#: Personal pronouns that point back to the sentence before ("His approval …", "She …").
_PRONOUN = re.compile(r"^[\W_]*(he|she|his|her|him|hers|them|there|we|our)\b", re.IGNORECASE)


def _continues(piece: str, lemmas: frozenset[str], before: frozenset[str], condition: bool = False) -> bool:
    """True when the sentence *piece* is tied to the sentence before it (lemmas *before*); a
    *condition* clause cut from inside a sentence (:func:`new_conditions`) is not the rest of a cut sentence."""
    if not lemmas or (_CUT.match(piece) and not condition) or starts_with_anaphor(piece) or _PRONOUN.match(piece):
        return True
    cue = lead_cue(piece.lstrip())
    if cue is not None and cue.kind in _LINK_KINDS:
        return True
    return len(lemmas & before) >= 2


@lru_cache(maxsize=256)
def on_premise_spans(text: str, premise: Premise) -> tuple[tuple[int, int, bool], ...]:
    """``(start, end, on_premise)`` of each sentence piece of *text* (module docstring)."""
    out: list[tuple[int, int, bool]] = []
    before: frozenset[str] = frozenset()
    prev_on = False
    for m in SENTENCE_PIECES.finditer(text):
        inner = [m.start() + k for k in new_conditions(m.group())]
        for a, b in itertools.pairwise([m.start(), *inner, m.end()]):
            piece = text[a:b]
            lemmas = content_lemmas(piece)
            if not lemmas and not piece.strip(" \t\r\n.!?"):
                continue
            on = premise.anchors(lemmas) or (prev_on and _continues(piece, lemmas, before, condition=a in inner))
            out.append((a, b, on))
            before, prev_on = lemmas, on
    return tuple(out)


#: A clause boundary: a comma or semicolon, then a word.
_CLAUSE = re.compile(r"[,;]\s+(?=\w)")
#: A condition on what was just said ("without them", "if so", "if it does"): no new premise.
_BACK_REFERENCE = re.compile(r"^\s*(them|it|this|that|these|those|so|not)\b", re.IGNORECASE)


def own_condition(clause: str) -> tuple[int, str] | None:
    """When *clause* opens with a forward cue and then a condition with a consequence of its own
    ("so if Latin had remained the common language, scholars …"): the offset where the condition
    starts and the condition's text ("Latin had remained the common language"); else None.  A
    condition on what was just said ("so without them, costs …", "so if so, …") is none."""
    cue = lead_cue(clause)
    if cue is None or cue.kind != "fwd" or not clause.lower().startswith(cue.phrase):
        return None
    after = clause[len(cue.phrase) :]
    start = len(cue.phrase) + len(after) - len(after.lstrip(" ,"))
    rest = clause[start:]
    cond = lead_cue(rest)
    if cond is None or cond.kind != "cond" or not rest.lower().startswith(cond.phrase) or "," not in rest:
        return None
    condition = rest[len(cond.phrase) : rest.index(",")]
    if _BACK_REFERENCE.match(condition) or starts_with_anaphor(condition.lstrip()):
        return None
    return start, condition.strip()


def new_conditions(sentence: str) -> list[int]:
    """Offsets in *sentence* where a clause opens a condition of its own (:func:`own_condition`):
    the condition starts a new premise, as a sentence that opens with one does."""
    out: list[int] = []
    for m in _CLAUSE.finditer(sentence):
        found = own_condition(sentence[m.end() :])
        if found is not None:
            out.append(m.end() + found[0])
    return out
