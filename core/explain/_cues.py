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
("Since the prompt is ambiguous, I'll assume …", "So, to answer the question …") or about how
sure a claim is ("… so these effects are uncertain") — carries no causal claim, whatever cue it
holds (:func:`is_meta_talk`).

``inner`` cues (participles) link only inside a sentence: a gerund that opens one is its
subject ("Replacing forest with grass cuts rainfall").  ``split`` cues open a new unit even without a comma before them (``because``, ``leads
to``, ``which would`` …); the others open one only after ``,`` ``;`` ``:`` or a dash, or at
a sentence start.  ``opener`` cues ("Without X, …", "With less X, …", "In the absence of X,
…") are conditions only where they open a sentence.  "as" and bare "since"-with-a-year are
deliberately not cues, and a cue word inside an idiom is none (:data:`IDIOMS`: "if at all",
"so far", "as if", "since then" …).

Causal claims also come without a cue word: a subject that is itself a claim and a causative
verb with an object ("Smaller tides would shrink intertidal zones", "Higher oxygen raises fire
risk") — :data:`CAUSATIVE` lists those verbs by lemma, :func:`causative_start` finds one opening
a unit; participles of them after a comma (", cutting nutrient flows", ", leaving only the Sun")
are forward cues.  The parser, the segmenter and every offline judge read this one inventory.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from causalcheck.explain._text import lemma, pos_lexicon, stop_words, word_set

__all__ = [
    "ARROW",
    "CAUSATIVE",
    "CUES",
    "IDIOMS",
    "Cue",
    "causative_start",
    "idiom_at",
    "is_anaphoric",
    "is_meta_talk",
    "lead_cue",
    "participle_cue",
    "starts_with_anaphor",
    "table_cue",
    "takes_object",
]


@dataclass(frozen=True)
class Cue:
    r"""A cue phrase with its relation ``label``, direction ``kind``, whether it ``split``s without a comma,
    acts only as a sentence's ``opener`` or only ``inner``\ ly (after a comma in its sentence)."""

    phrase: str
    kind: str
    label: str
    split: bool = False
    opener: bool = False
    inner: bool = False


def _mk(kind: str, label: str, phrases: str, split: bool = False, opener: bool = False) -> list[Cue]:
    return [Cue(p.strip(), kind, label, split, opener) for p in phrases.split("|") if p.strip()]


#: Verbs (lemmas) whose subject causes a change in their object ("X raises Y", "X would starve Y").
CAUSATIVE: frozenset[str] = word_set("raise lower increase reduce cut boost drive cause create produce trigger spark prevent stop block enable allow "
    "force push weaken strengthen erode destroy kill starve shrink expand slow accelerate limit restrict undermine "
    "fuel feed spur bring end transform reshape disrupt damage harm threaten favour favor benefit hurt deprive "
    "remove eliminate expose deplete worsen improve alter shift lift curb halve double encourage discourage "
    "suppress stimulate promote hinder impede hamper cripple shorten lengthen widen narrow deepen intensify amplify "
    "dampen loosen tighten erase flood dry stabilize destabilize steady release trap overwhelm swamp make keep leave "
    "spare fund finance supply shape tempt strain stretch strip sustain support protect shield free let help delay "
    "hasten carry deliver give deny cost save power cap dominate risk invite provoke fragment unify unite isolate "
    "divert redirect concentrate disperse attract repel nourish wipe decimate devastate ruin spoil "
    "revive rebuild replace displace outcompete pull turn render")
#: Participles of :data:`CAUSATIVE` verbs that open an effect after a comma (", cutting nutrient flows").
_PARTICIPLES = (
    "raising|lowering|increasing|reducing|cutting|boosting|creating|producing|sparking|preventing|stopping|blocking|"
    "enabling|allowing|weakening|strengthening|eroding|destroying|killing|starving|shrinking|expanding|slowing|"
    "accelerating|limiting|restricting|undermining|fueling|fuelling|feeding|spurring|bringing|ending|transforming|"
    "reshaping|disrupting|damaging|harming|threatening|depriving|removing|eliminating|exposing|depleting|worsening|"
    "improving|encouraging|discouraging|suppressing|stimulating|promoting|hindering|crippling|leaving|making|giving|"
    "sending|turning|opening|freeing|erasing|flooding|drying|releasing|trapping|intensifying|amplifying|keeping|"
    "sparing|funding|shaping|tempting|straining|stretching|stripping|sustaining|protecting|shielding|delaying|"
    "hastening|denying|costing|saving|capping|provoking|fragmenting|isolating|diverting|devastating|ruining|"
    "reviving|replacing|displacing|rendering|locking|wiping|decimating|inviting|halving|doubling"
)


CUES: tuple[Cue, ...] = tuple(
    _mk("back", "CAUSE", "because|because of|due to|owing to|thanks to|given that|this is because|that is because|"
        "this happens because|this is due to|the reason is that|since", split=True)
    + _mk("fwd", "RESULT", "so|therefore|thus|hence|as a result|which means|which would mean|this means|"
          "this would mean|this leads to|this would lead to|this causes|this would cause|in turn|accordingly|"
          "this would|which in turn", split=False)
    + _mk("fwd", "RESULT", "leads to|lead to|leading to|led to|would lead to|could lead to|results in|resulting in|"
          "would result in|causes|causing|caused|would cause|which would|which could|which will|which leads to|"
          "which causes|triggers|triggering|would trigger", split=True)
    + _mk("fwd", "RESULT", "forcing|driving|pushing|" + _PARTICIPLES)
    + _mk("fwd", "RESULT", "that would|that will|that could|this will|this could|that means|that would mean|"
          "that leads to|that would lead to|that causes|that would cause|this in turn|that in turn|"
          "because of this|because of that|due to this|due to that|as a result of this|as a result of that|"
          "for this reason|for that reason|this is why|that is why", split=False)
    + _mk("fwd", "CONSEQUENCE", "consequently|as a consequence|in consequence|with the result that")
    + _mk("cond", "CONDITION", "if|unless|provided that|as long as|in case|whenever|once", split=False)
    + _mk("cond", "CONDITION", "only if|even if|if and only if", split=True)
    + _mk("cond", "CONDITION", "without|with|in the absence of|absent|had|were it not for|but for|supposing|assuming|suppose", opener=True)
    + _mk("cond", "CONDITION", "so long as")
    + _mk("purpose", "PURPOSE", "so that")
    + _mk("fwd", "RESULT", "which is why|which explains why", split=True)
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
#: Words between a subject and its verb ("tides would also shrink …").
_MODALS = word_set("would could will might may can should must shall also further still even then soon eventually in turn")
#: Words after a verb that show it has no object here ("would shrink to a third", "is driven by").
_NOT_OBJECT = word_set("to by from in on at into as than up down out off away back over with for about and or but is are was were "
    "would could will might may can should must much further somewhat sharply")
#: Measure words after "a" that make an adverb, not an object ("shrink a lot", "rise a little").
_A_MEASURE = word_set("lot bit little great good")


def takes_object(words: Sequence[str], i: int) -> bool:
    """True when the lowercase *words* continue after the verb at index *i* with an object (a determiner
    or a content word), not with a preposition, an auxiliary, an adverb or "a lot"."""
    if i + 1 >= len(words):
        return False
    nxt = words[i + 1]
    if not nxt[:1].isalpha() or nxt in _NOT_OBJECT or (nxt.endswith("ly") and len(nxt) > 4):
        return False
    if nxt in stop_words() and nxt not in _OBJECT_OPENERS:
        return False  # "would shrink everywhere", "would grow further": an adverb, no object
    return not (nxt == "a" and i + 2 < len(words) and words[i + 2] in _A_MEASURE)


#: Stop words that open an object ("would cut *their* supply", "would raise *much* of the cost").
_OBJECT_OPENERS = word_set("a an the its their his her our this that these those much many some any all most no each every both several other another")
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


#: Phrases in which a cue word is no cue ("if at all", "so far", "since then"), by their first word.
IDIOMS: dict[str, tuple[tuple[str, ...], ...]] = {}
for _idiom in ["if at all", "if any", "if anything", "if ever", "if so", "if not", "as if", "even so", "so far", "so much", "so many", "so called", "so-called", "or so", "and so on", "and so forth", "so too", "then again", "since then", "by then", "until then", "still more", "still less", "with respect to", "with regard to", "with the exception of", "with time", "were to", "had to", "had been", "had already", "had not", "as well", "in particular", "next to", "then there"]:
    _w = tuple(_idiom.split())
    IDIOMS[_w[0]] = (*IDIOMS.get(_w[0], ()), _w)
del _idiom, _w
#: The cue of an arrow between two claims ("tides drop → habitats shrink").
ARROW = Cue("→", "fwd", "RESULT", split=True)
_ARROW = re.compile(r"^\s*(?:→|->|=>|⇒)")
_WORDS_OF = re.compile(r"[\w'’-]+")


def idiom_at(words: Sequence[str], i: int) -> bool:
    """True when the lowercase *words* hold an idiom (:data:`IDIOMS`) starting at index *i*, or the
    cue word at *i* follows "as" ("as if") or "even" ("even so")."""
    w = words[i]
    if i > 0 and ((w == "if" and words[i - 1] == "as") or (w == "so" and words[i - 1] in ("even", "or"))):
        return True
    return any(tuple(words[i : i + len(idiom)]) == idiom for idiom in IDIOMS.get(w, ()))


def lead_cue(text: str) -> Cue | None:
    """The cue that opens *text*, if any: an arrow, the longest cue phrase of :data:`CUES` (a cue word
    that opens an idiom is none), else a participle that opens an effect (:func:`participle_cue`).

    >>> lead_cue("As a result, tides shrink.").label, lead_cue("because the Moon is gone").kind
    ('RESULT', 'back')
    >>> lead_cue("if at all, slowly") is None
    True
    """
    if _ARROW.match(text):
        return ARROW
    first = _FIRST.match(text)
    if first is None:
        return None
    cue = table_cue(text)
    if cue is not None:
        head = [w.lower() for w in _WORDS_OF.findall(text[first.start(1) : first.start(1) + 60])]
        if head and head[0] in IDIOMS and idiom_at(head, 0):
            return None
        return cue
    if first.group(1).lower() in _FIRST_WORDS:
        return None
    cue = participle_cue(first.group(1))
    if cue is not None and _heads_a_subject(text[first.end(1) :]):
        return None  # "fishing fleets would shrink": the "-ing" word starts a subject, not an effect
    return cue


_FINITE = frozenset(word_set("would could will might may can should must shall is are was were has have had does do did"))


def _heads_a_subject(rest: str) -> bool:
    """True when a finite verb follows within the next few words of *rest* (before any punctuation)."""
    clause = re.split(r"[,.;:!?]", rest[:80], maxsplit=1)[0]
    return any(w.lower() in _FINITE for w in _WORDS_OF.findall(clause)[:5])


def table_cue(text: str) -> Cue | None:
    """The longest phrase of :data:`CUES` that opens *text* (after punctuation and a leading "and"), if any."""
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


#: "-ing" forms after a comma that do not open an effect (", including …", ", depending on …").
_NOT_EFFECT = word_set("being having including according depending assuming following using regarding concerning considering excluding "
    "involving ranging spanning beginning starting suggesting showing noting saying arguing thinking hoping seeing "
    "trying looking lasting remaining staying existing living working waiting during notwithstanding")


def participle_cue(word: str) -> Cue | None:
    """A forward cue for a verb's "-ing" form that opens an effect after a comma (", pressing Jefferson
    toward …", ", raising insurance"); ``None`` for other words and for :data:`_NOT_EFFECT`."""
    low = word.lower()
    if len(low) < 6 or not low.endswith("ing") or low in _NOT_EFFECT:
        return None
    base = lemma(low)
    if base == low or base not in pos_lexicon()["verb"]:
        return None
    return _PARTICIPLE_CUES.setdefault(low, Cue(low, "fwd", "RESULT", inner=True))


_PARTICIPLE_CUES: dict[str, Cue] = {}


def causative_start(text: str) -> str | None:
    """The lemma of the causative verb (:data:`CAUSATIVE`) that opens *text* after modals and adverbs,
    when an object follows it ("would shrink intertidal zones" -> ``"shrink"``); else ``None``."""
    words = [w.lower() for w in _WORDS_OF.findall(text[:200])]
    i = 0
    while i < len(words) and (words[i] in _MODALS or (words[i].endswith("ly") and len(words[i]) > 4)):
        i += 1
    if i >= len(words) - 1:
        return None
    verb = lemma(words[i])
    if verb not in CAUSATIVE or not takes_object(words, i):
        return None
    return verb


def starts_with_anaphor(text: str) -> bool:
    """True when *text* opens with a pronoun or demonstrative pointing back ("This", "It", "Such" …)."""
    return _ANAPHOR.match(text) is not None


#: Talk about the question or the answering, not about the world.
_META_TALK = re.compile(
    r"\b(?:the prompt|this prompt|your prompt|the question|this question|your question|the premise is|"
    r"ambiguous|i(?:'ll| will| would|'d)? (?:assume|interpret|take|read|focus|answer|treat|consider|argue)|"
    r"assuming you mean|if you mean|you mean|to answer|let me|let's|i'm going to|i am going to|"
    r"in this answer|this answer|the answer|as an ai|for the purposes? of|"
    # talk about how sure a claim is: calibration, not a consequence ("these effects are uncertain")
    r"(?:is|are|remains?|stays?|would be|seems?|looks?)\s+(?:\w+\s+)?(?:uncertain|unclear|speculative|debated|unknown|contested)|"
    r"hard to (?:say|predict|know|tell))\b",
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

