"""Relevance to the item: which parts of an answer are about the item's premise and question.

The offline judges use it so that an answer to a *different* question — fluent and causal,
but about another premise — earns neither supported edges nor rubric credit.

* **question stems** ``Q`` — content stems (:func:`._text.content_stems`) of the question and
  the rubric's ``question_focus``, minus meta words ("question", "happen" …);
* **topic stems** ``T`` — content stems of the rubric criteria's names and descriptions,
  minus the question stems and rubric boilerplate ("assesses", "plausible", "consequences" …);
* a text is **anchored** when it shares at least one stem with ``Q``, or at least two with
  ``T`` (one topic word alone — "ice" in "ice ages" for a Moon question — is not enough);
* a sentence of the answer is **on premise** when it is anchored, or when it continues an
  on-premise sentence: it opens with an anaphor, a personal pronoun or a linking cue ("This
  would …", "His approval …", "As a result, …", "Because of that …") right after one, shares
  two content stems with the sentence before it, which is on premise, or is only the rest of
  that sentence cut after an abbreviation ("U.S. prestige" → "prestige …") or holds no
  content word.  Everything else is **off premise**: nothing in
  it is tied to the item's intervention.

The rules compare words only; they never follow instructions in the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from causalcheck.explain._cues import lead_cue, starts_with_anaphor
from causalcheck.explain._text import SENTENCE_PIECES, content_stems

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.explain.data import WhatIfItem

__all__ = ["META_WORDS", "RUBRIC_WORDS", "Premise", "on_premise_spans", "premise_of"]

#: Words about the asking, not about the content.
META_WORDS = content_stems("question questions asks asked ask interesting happen happens happened wonder answer think")

#: Rubric boilerplate that says nothing about a question's content.
RUBRIC_WORDS = content_stems(
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
    "across within beyond handling handles distinguishes distinguish avoids avoid"
)

_LINK_KINDS = frozenset({"fwd", "back", "cond", "concession", "contrast", "example", "summary", "elaboration", "restatement"})


@dataclass(frozen=True)
class Premise:
    """The item's question stems ``question`` and topic stems ``topic`` (module docstring)."""

    question: frozenset[str]
    topic: frozenset[str]

    def anchors(self, stems: frozenset[str]) -> bool:
        """True when *stems* share one question stem or two topic stems."""
        return bool(stems & self.question) or len(stems & self.topic) >= 2


@lru_cache(maxsize=256)
def _premise(question: str, focus: str, criteria: tuple[str, ...]) -> Premise:
    q = (content_stems(question) | content_stems(focus)) - META_WORDS
    topic: set[str] = set()
    for text in criteria:
        topic |= content_stems(text)
    return Premise(q, frozenset(topic) - q - RUBRIC_WORDS - META_WORDS)


def premise_of(item: WhatIfItem) -> Premise:
    """The :class:`Premise` of *item* (cached on its question and rubric texts)."""
    rubric = item.rubric
    criteria = tuple(f"{c.name} {c.description}" for c in rubric.criteria) if rubric else ()
    return _premise(item.question, rubric.question_focus if rubric else "", criteria)


#: A piece that opens with a lowercase letter (or "-" and one) is the rest of a sentence the
#: sentence pattern cut after an abbreviation ("George W. Bush", "U.S. prestige", "Sr.-style").
_CUT = re.compile(r"^[ \t]*-?[a-z]")
#: Personal pronouns that point back to the sentence before ("His approval …", "She …").
_PRONOUN = re.compile(r"^[\W_]*(he|she|his|her|him|hers|them|there|we|our)\b", re.IGNORECASE)


def _continues(piece: str, stems: frozenset[str], before: frozenset[str]) -> bool:
    """True when the sentence *piece* is tied to the sentence before it (stems *before*)."""
    if not stems or _CUT.match(piece) or starts_with_anaphor(piece) or _PRONOUN.match(piece):
        return True
    cue = lead_cue(piece.lstrip())
    if cue is not None and cue.kind in _LINK_KINDS:
        return True
    return len(stems & before) >= 2


@lru_cache(maxsize=256)
def on_premise_spans(text: str, premise: Premise) -> tuple[tuple[int, int, bool], ...]:
    """``(start, end, on_premise)`` of each sentence piece of *text* (module docstring)."""
    out: list[tuple[int, int, bool]] = []
    before: frozenset[str] = frozenset()
    prev_on = False
    for m in SENTENCE_PIECES.finditer(text):
        piece = m.group()
        stems = content_stems(piece)
        if not stems and not piece.strip(" \t\r\n.!?"):
            continue
        on = premise.anchors(stems) or (prev_on and _continues(piece, stems, before))
        out.append((m.start(), m.end(), on))
        before, prev_on = stems, on
    return tuple(out)
