"""The discourse-cue lexicon shared by the segmenter, the relation extractor and the edge judge.

Each cue phrase has a *kind* that says which way the relation runs:

* ``fwd``  — the unit the cue opens is the **effect** of the unit before it
  ("A, so B", "A. As a result, B", "A, leading to B");
* ``back`` — the unit the cue opens is the **cause** ("B because A", "Because A, B");
* ``cond`` — the unit is a **condition** ("If A, B", "B unless A");
* other kinds (``contrast``, ``concession``, ``example``, ``purpose``, ``temporal``,
  ``summary``, ``elaboration``, ``restatement``) give non-causal relations.

A ``fwd`` cue that names the cause with "this" / "that" ("That would …", "Because of this,
…", "This is why …") is *anaphoric*: the unit it opens is the effect of the one before it,
also across a sentence boundary.  *Meta-talk* — text about the question or the answering
("Since the prompt is ambiguous, I'll assume …", "So, to answer the question …") — carries
no causal claim, whatever cue it holds (:func:`is_meta_talk`).

``split`` cues open a new unit even without a comma before them (``because``, ``leads
to``, ``which would`` …); the others open one only after ``,`` ``;`` ``:`` or a dash, or at
a sentence start.  "as" and bare "since"-with-a-year are deliberately not cues.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CUES", "Cue", "is_anaphoric", "is_meta_talk", "lead_cue", "starts_with_anaphor"]


@dataclass(frozen=True)
class Cue:
    """A cue phrase with its relation ``label``, direction ``kind`` and whether it ``split``s without a comma."""

    phrase: str
    kind: str
    label: str
    split: bool = False


def _mk(kind: str, label: str, phrases: str, split: bool = False) -> list[Cue]:
    return [Cue(p.strip(), kind, label, split) for p in phrases.split("|") if p.strip()]


CUES: tuple[Cue, ...] = tuple(
    _mk("back", "CAUSE", "because|because of|due to|owing to|thanks to|given that|this is because|that is because|"
        "this happens because|this is due to|the reason is that|since", split=True)
    + _mk("fwd", "RESULT", "so|therefore|thus|hence|as a result|which means|which would mean|this means|"
          "this would mean|this leads to|this would lead to|this causes|this would cause|in turn|accordingly|"
          "this would|which in turn", split=False)
    + _mk("fwd", "RESULT", "leads to|lead to|leading to|led to|would lead to|could lead to|results in|resulting in|"
          "would result in|causes|causing|caused|would cause|which would|which could|which will|which leads to|"
          "which causes|triggers|triggering|would trigger|forcing|driving|pushing", split=True)
    + _mk("fwd", "RESULT", "that would|that will|that could|this will|this could|that means|that would mean|"
          "that leads to|that would lead to|that causes|that would cause|this in turn|that in turn|"
          "because of this|because of that|due to this|due to that|as a result of this|as a result of that|"
          "for this reason|for that reason|this is why|that is why", split=False)
    + _mk("fwd", "CONSEQUENCE", "consequently|as a consequence|in consequence|with the result that")
    + _mk("cond", "CONDITION", "if|unless|provided that|as long as|in case|whenever|once", split=False)
    + _mk("cond", "CONDITION", "only if|even if|if and only if", split=True)
    + _mk("contrast", "CONTRAST", "but|however|yet|whereas|on the other hand|in contrast|instead|by contrast")
    + _mk("concession", "CONCESSION", "although|though|even though|despite|nevertheless|nonetheless|still")
    + _mk("example", "EXAMPLE", "for example|for instance|such as|e.g.|including")
    + _mk("purpose", "PURPOSE", "in order to|so as to|to ensure")
    + _mk("temporal", "SEQUENCE", "then|later|afterwards|afterward|eventually|subsequently|meanwhile|over time|"
          "after that|next|finally|within decades|within years|in the long run|in the long term")
    + _mk("summary", "SUMMARY", "in short|in summary|overall|in sum|in conclusion|ultimately|to sum up|all in all")
    + _mk("elaboration", "ELABORATION", "also|moreover|furthermore|in addition|additionally|which|who|whose|where|"
          "in particular|specifically")
    + _mk("restatement", "RESTATEMENT", "in other words|that is|i.e.|put differently")
)  # fmt: skip

_BY_PHRASE = {c.phrase: c for c in CUES}
_ALT = "|".join(re.escape(p) for p in sorted(_BY_PHRASE, key=len, reverse=True))
#: A cue at the start of a unit, after optional punctuation and a leading "and".
_LEAD = re.compile(rf"^[\W_]*(?:and\s+|but\s+(?=so\b|because\b|then\b|if\b))?({_ALT})(?![\w])", re.IGNORECASE)
_ANAPHOR = re.compile(r"^[\W_]*(this|that|these|those|such|it|they|its|their)\b", re.IGNORECASE)


_FIRST_WORDS = frozenset(c.phrase.split()[0] for c in CUES) | {"and", "but"}
_FIRST = re.compile(r"^[\W_]*(\w+)")


def _lead_by_word() -> dict[str, re.Pattern[str]]:
    """Per opening word, :data:`_LEAD` restricted to the phrases that can match after it.

    A phrase starts at the text's first word character and its first word is that whole
    word, so only phrases with that first word can match; "and" / "but" (the optional
    prefixes) keep the full pattern.  The phrases keep their order, so the same one wins.
    """
    order = sorted(_BY_PHRASE, key=len, reverse=True)
    out: dict[str, re.Pattern[str]] = {}
    for word in _FIRST_WORDS:
        if word in ("and", "but"):
            out[word] = _LEAD
            continue
        alt = "|".join(re.escape(p) for p in order if p.split()[0] == word)
        out[word] = re.compile(rf"^[\W_]*({alt})(?![\w])", re.IGNORECASE)
    return out


_LEAD_BY_WORD = _lead_by_word()


def lead_cue(text: str) -> Cue | None:
    """The cue phrase that opens *text*, if any (longest match wins).

    >>> lead_cue("As a result, tides shrink.").label, lead_cue("because the Moon is gone").kind
    ('RESULT', 'back')
    """
    first = _FIRST.match(text)
    if first is None:
        return None
    lead = _LEAD_BY_WORD.get(first.group(1).lower())
    if lead is None:
        return None
    m = lead.match(text)
    if not m:
        return None
    phrase = m.group(1).lower()
    if phrase == "since" and re.match(r"\s*\d", text[m.end() :]):
        return None  # "since 1900" is temporal
    return _BY_PHRASE.get(phrase)


def starts_with_anaphor(text: str) -> bool:
    """True when *text* opens with a pronoun or demonstrative pointing back ("This", "It", "Such" …)."""
    return _ANAPHOR.match(text) is not None


#: Talk about the question or the answering, not about the world.
_META_TALK = re.compile(
    r"\b(?:the prompt|this prompt|your prompt|the question|this question|your question|the premise is|"
    r"ambiguous|i(?:'ll| will| would|'d)? (?:assume|interpret|take|read|focus|answer|treat|consider|argue)|"
    r"assuming you mean|if you mean|you mean|to answer|let me|let's|i'm going to|i am going to|"
    r"in this answer|this answer|as an ai|for the purposes? of)\b",
    re.IGNORECASE,
)
_ANAPHORIC_CUE = re.compile(r"\b(this|that)\b")


def is_meta_talk(text: str) -> bool:
    """True when *text* talks about the question or the answering ("Since the prompt is ambiguous, …").

    >>> is_meta_talk("Since the prompt is ambiguous, I'll assume an overnight loss."), is_meta_talk("Since tides shrink, reefs die.")
    (True, False)
    """
    return _META_TALK.search(text) is not None


def is_anaphoric(cue: Cue) -> bool:
    """True for a cue that names the cause with "this" / "that" ("That would", "Because of this")."""
    return cue.kind == "fwd" and _ANAPHORIC_CUE.search(cue.phrase) is not None

