"""What one unit of an answer claims: its concepts, and the quantities it says move up or down.

The offline judges read an answer as claims about quantities and states.  For a unit of text
(an EDU) :func:`claim_of` finds

* its **concepts** — content lemmas (:func:`._text.content_lemmas`) that name things:
  nouns and adjectives, not the verbs or words of change ("tides would shrink" → ``tide``);
* its **assertions** — each word of change from the polarity lexicon (:data:`POLARITY`) with
  the noun phrase it applies to and its sign: "tides would shrink" → ``tide`` down; "smaller
  tides" → ``tide`` down; "would lower nutrient supply" → ``supply`` (of nutrients) down;
  "more oxygen" → ``oxygen`` up; "the loss of the Moon" and "without the Moon" → ``moon``
  down; a negation just before the word ("would not rise", "no longer grows") flips the sign.

Words of change carry a *dimension* — level (rise / fall, more / less, grow / shrink), strength,
speed, price, frequency, temperature, light, existence — and two assertions contradict each other
only in the same dimension: "larger insects" and "fewer insects" do not.  Comparatives count
("higher", "cheaper", "more frequent"), plain adjectives do not: "high tides" is a state, not a
change.

The noun phrase a word of change applies to is found by position, without a parser: the phrase
right after it (an object or the noun it modifies, "of"/"in" after a noun of change: "a rise in
prices"), else the phrase before it (the subject, skipping auxiliaries and adverbs: "prices
would probably rise").  Its last content word is the *head* (``tide`` in "ocean tides"); a
phrase like "the supply of nutrients" takes the noun after "of" when the first one is a measure
("amount", "level", "number", "supply", "rate" …).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from causalcheck.explain._text import content_lemmas, lemma, pos_lexicon, stop_words, word_set

__all__ = ["POLARITY", "Assertion", "Claim", "claim_of", "concepts_of", "conflicts", "is_identity", "is_list", "ordered_concepts"]


def _entries(dim: str, sign: int, words: str) -> dict[str, tuple[str, int]]:
    return {w: (dim, sign) for w in words.split()}


#: Words of change by lemma: ``lemma -> (dimension, sign)``.  Verbs in any form count; adjectives
#: only as comparatives (:data:`_COMPARATIVE`) or after "more" / "less".
POLARITY: dict[str, tuple[str, int]] = {
    **_entries("level", +1, "rise increase grow expand climb soar surge swell spike jump mount multiply double triple "
               "widen deepen spread proliferate boom balloon escalate accumulate extend lengthen enlarge raise boost "
               "lift heighten amplify add gain more great large big high wide deep long tall thick abundant plentiful "
               "surplus abundance growth expansion upsurge extra additional much many"),
    **_entries("level", -1, "fall decrease decline shrink drop sink plunge plummet collapse contract dwindle diminish "
               "fade wane lessen reduce lower cut curb halve narrow shorten deplete recede subside slump dip erode retreat "
               "drain little few less small low narrow short thin scarce shortage scarcity decline reduction "
               "contraction depletion"),
    **_entries("strength", +1, "strengthen intensify reinforce bolster entrench strong powerful intense stable stabilize"),
    **_entries("strength", -1, "weaken undermine soften loosen destabilize cripple sap weak feeble fragile unstable"),
    **_entries("speed", +1, "accelerate quicken hasten speed fast quick rapid"),
    **_entries("speed", -1, "slow decelerate delay stall retard slowdown"),
    **_entries("price", +1, "expensive costly dear pricey"),
    **_entries("price", -1, "cheap inexpensive affordable"),
    **_entries("frequency", +1, "frequent common"),
    **_entries("frequency", -1, "rare infrequent uncommon"),
    **_entries("temperature", +1, "warm heat hot"),
    **_entries("temperature", -1, "cool chill cold freeze"),
    **_entries("light", +1, "brighten bright light"),
    **_entries("light", -1, "darken dark dim"),
    **_entries("existence", +1, "appear emerge arise survive persist flourish thrive"),
    **_entries("existence", -1, "vanish disappear die end cease lose lack eliminate destroy kill extinguish eradicate "
               "abolish loss absence extinction disappearance"),
    **_entries("quality", +1, "improve recover rebound better"),
    **_entries("quality", -1, "worsen deteriorate decay degrade bad worse"),
}  # fmt: skip

#: Surface forms that are comparatives of a :data:`POLARITY` adjective ("higher", "fewer", "worse").
_COMPARATIVE = re.compile(r"^(?:more|less|fewer|lesser|worse|better|extra|additional|[a-z]{2,}(?:er|ier))$")
#: Adjectives of :data:`POLARITY` (only their comparatives assert a change).
_ADJECTIVES = word_set("extra additional more much many great large big high wide deep long tall thick abundant plentiful little few less small low narrow short thin "
    "scarce strong powerful intense stable weak feeble fragile unstable fast quick rapid expensive costly dear pricey "
    "cheap inexpensive affordable frequent common rare infrequent uncommon warm hot cool cold bright light dark dim "
    "better bad worse")
#: Nouns of change after which "of" / "in" introduces the phrase changed ("a rise in prices").
_CHANGE_NOUNS = word_set("rise increase growth expansion surge spike jump boom upsurge fall decrease decline drop collapse contraction "
    "reduction shortage scarcity depletion loss absence lack extinction disappearance slowdown surplus abundance gain "
    "retreat")
#: Nouns that measure the noun after "of" ("the supply of nutrients" is about nutrients).
_MEASURES = word_set("amount level number quantity supply share rate volume degree extent proportion density")
_NEGATION = frozenset({"not", "never", "no", "n't", "cannot", "hardly", "barely", "longer"})
_MODALS = word_set("would could will might may can should must shall to does did do not n't")
_PREPOSITIONS = word_set("of in on at from to into toward towards with by for over under between among about")
_DETERMINERS = word_set("the a an its their his her our your this that these those much many some any all most such each every own")
#: Words skipped between a subject and its verb ("prices would probably rise").
_AUX = word_set("would could will might may can should must shall be is are was were been being become becomes became get gets got "
    "have has had "
    "also still even then soon eventually further likely probably possibly perhaps quickly rapidly slowly gradually "
    "sharply steadily greatly dramatically significantly substantially slightly eventually initially later "
    "only just already ultimately largely mostly partly not never no longer n't")
_TOKEN = re.compile(r"[^\W\d_][^\W_]*(?:['’][^\W\d_]+)?|\d+(?:[.,]\d+)?|[^\w\s]")
_MAX_PHRASE = 4


@dataclass(frozen=True, slots=True)
class Assertion:
    """A quantity said to move: the noun phrase's ``head`` lemma, its other content lemmas ``mods``,
    the ``dim``\\ ension of the change and its ``sign`` (+1 up, -1 down)."""

    head: str
    mods: frozenset[str]
    dim: str
    sign: int
    agent: bool = False

    def same_quantity(self, other: Assertion) -> bool:
        """True when both name one quantity in one dimension: the same head, and modifiers that agree
        (one set holds the other, or they share a word)."""
        if self.head != other.head or self.dim != other.dim:
            return False
        a, b = self.mods, other.mods
        return not a or not b or a <= b or b <= a or bool(a & b)


@dataclass(frozen=True, slots=True)
class Claim:
    """One unit read as a claim: its ``text``, content ``lemmas``, ``concepts`` and ``assertions``."""

    text: str
    lemmas: frozenset[str]
    concepts: frozenset[str]
    assertions: tuple[Assertion, ...]

    @property
    def change(self) -> bool:
        """True when the unit says some quantity moves."""
        return bool(self.assertions)


def conflicts(a: Assertion, b: Assertion) -> bool:
    """True when *a* and *b* move the same quantity in opposite directions (neither an agent's statement)."""
    return a.sign != b.sign and not a.agent and not b.agent and a.same_quantity(b)


def _is_verb_only(lem: str) -> bool:
    pos = pos_lexicon()
    return lem in pos.get("verb", frozenset()) and lem not in pos.get("noun", frozenset()) and lem not in pos.get("adj", frozenset())


@lru_cache(maxsize=16384)
def concepts_of(text: str) -> frozenset[str]:
    """The content lemmas of *text* that name things: not words of change, not verbs only, not adverbs in -ly."""
    return frozenset(
        w for w in content_lemmas(text) if w not in POLARITY and not _is_verb_only(w) and not (w.endswith("ly") and len(w) > 4)
    )


def ordered_concepts(text: str) -> list[str]:
    """The concepts of *text* (:func:`concepts_of`) in the order they first occur."""
    wanted = concepts_of(text)
    out: list[str] = []
    for w in _TOKEN.findall(text.lower()):
        lem = lemma(w)
        if lem in wanted and lem not in out:
            out.append(lem)
    return out


def _content(word: str) -> bool:
    return word[:1].isalpha() and word.isalnum() and len(word) >= 3 and word not in stop_words()


def _verb_form(word: str) -> bool:
    """True for an inflected verb ("meant", "raised"): its lemma is a verb and differs from it, not by a plural -s."""
    lem = lemma(word)
    return lem != word and not word.endswith("s") and lem in pos_lexicon()["verb"]


def _noun_word(word: str) -> bool:
    """A word that can stand in a noun phrase: content, not a word of change, not a verb."""
    if not _content(word) or (word.endswith("ly") and len(word) > 4 and word in pos_lexicon()["adv"]):
        return False  # "sharply", "quickly": adverbs, not things
    lem = lemma(word)
    return lem not in POLARITY and not _verb_form(word) and not _is_verb_only(lem)


def _phrase_after(low: list[str], i: int, consumed: set[int] | None = None) -> list[str]:
    """Content words of the noun phrase starting after token *i* (determiners skipped).

    A noun of change that ends the phrase ("lower carbon *gain*") belongs to it: it is recorded in
    *consumed* and asserts nothing of its own.
    """
    j = i + 1
    while j < len(low) and low[j] in _DETERMINERS:
        j += 1
    out: list[str] = []
    while j < len(low) and len(out) < _MAX_PHRASE:
        w = low[j]
        if _noun_word(w):
            out.append(w)
        elif out and lemma(w) in _CHANGE_NOUNS and consumed is not None:
            consumed.add(j)  # "lower carbon gain": the gain is the phrase's, carbon its head
            j += 1
            break
        else:
            break
        j += 1
    if out and j + 1 < len(low) and low[j] == "of" and lemma(out[-1]) in _MEASURES:
        more = _phrase_after(low, j)
        if more:
            return out[:-1] + more
    return out


def _phrase_before(low: list[str], i: int) -> list[str]:
    """Content words of the noun phrase ending before token *i* (auxiliaries and adverbs skipped)."""
    j = i - 1
    while j >= 0 and (low[j] in _AUX or (low[j].endswith("ly") and len(low[j]) > 4)):
        j -= 1
    out: list[str] = []
    while j >= 0 and len(out) < _MAX_PHRASE and _noun_word(low[j]):
        out.insert(0, low[j])
        j -= 1
    if out and j >= 1 and low[j] in ("of", "in", "on", "for") and _noun_word(low[j - 1]) and lemma(low[j - 1]) not in _MEASURES:
        head = _phrase_before(low, j)  # "the Army of Flanders would …", "the edge in precision warfare …"
        if head:
            return out + head
    return out


def _negated(low: list[str], i: int) -> bool:
    return any(w in _NEGATION for w in low[max(0, i - 3) : i])


def _assertion(phrase: list[str], dim: str, sign: int) -> Assertion | None:
    lems = [lemma(w) for w in phrase]
    lems = [w for w in lems if w not in POLARITY and len(w) >= 3]
    if not lems:
        return None
    if dim == "price":  # "cheaper food" and "higher food prices" are about one quantity: the price
        return Assertion("price", frozenset(w for w in lems if w not in ("price", "cost")), "level", sign)
    return Assertion(lems[-1], frozenset(lems[:-1]), dim, sign)


_DEGREE = word_set("somewhat well far much slightly very quite rather fairly too even still")
#: Verbs that give a plain adjective after them a change or a kept state ("became common", "stays rare").
_STATE_VERBS = word_set("become grow get turn stay remain keep")


def _state_verb(low: list[str], i: int) -> int:
    """Index of the verb of state or becoming just before the adjective at *i* (adverbs skipped), or -1."""
    j = i - 1
    while j >= 0 and ((low[j].endswith("ly") and len(low[j]) > 4) or low[j] in _DEGREE):
        j -= 1
    return j if j >= 0 and lemma(low[j]) in _STATE_VERBS else -1


def _noun_reading(low: list[str], i: int) -> bool:
    """True when the word of change at *i* reads as a noun: after a determiner, a number or an
    adjective ("the decline", "a sharp rise"), or ending a noun phrase that follows a preposition or
    a determiner ("from carbon *sink*", "the carbon *gain*"); not after a modal or "to"."""
    word = low[i]
    if word.endswith(("ed", "ing")) or i == 0:
        return False
    prev = low[i - 1]
    if prev in _MODALS:
        return False
    if prev in _DETERMINERS or prev[:1].isdigit() or (prev in _PREPOSITIONS):
        return True
    j = i - 1
    while j >= 0 and _noun_word(low[j]):
        j -= 1
    return j < i - 1 and j >= 0 and (low[j] in _DETERMINERS or low[j] in _PREPOSITIONS)


def _assertions(text: str) -> tuple[Assertion, ...]:
    low = [t.lower() for t in _TOKEN.findall(text)]
    out: list[Assertion] = []
    consumed: set[int] = set()
    for i, word in enumerate(low):
        if i in consumed:
            continue
        lem = lemma(word)
        entry = POLARITY.get(lem)
        if entry is None:
            phrase, dim, sign = [], "level", 0
            if word in ("without", "no") and i + 1 < len(low) and low[i + 1] != "longer":
                phrase, dim, sign = _phrase_after(low, i), "existence", -1
            elif word in ("up", "down") and i and _noun_word(low[i - 1]):
                phrase, sign = _phrase_before(low, i), 1 if word == "up" else -1  # "driving prices up"
            elif word in ("above", "below") and _state_verb(low, i) >= 0:
                phrase, sign = _phrase_before(low, _state_verb(low, i)), 1 if word == "above" else -1  # "stays below"
            a = _assertion(phrase, dim, sign) if sign else None
            if a is not None:
                out.append(a)
            continue
        dim, sign = entry
        agent = False
        nxt = low[i + 1] if i + 1 < len(low) else ""
        if word in ("more", "less", "fewer"):
            nxt_lem = lemma(nxt)
            if nxt_lem in POLARITY and nxt_lem in _ADJECTIVES and nxt not in ("more", "less", "fewer"):
                dim, sign = POLARITY[nxt_lem][0], POLARITY[nxt_lem][1] * (1 if word == "more" else -1)
                consumed.add(i + 1)  # "more frequent fires": the adjective is this assertion's
                phrase = _phrase_after(low, i + 1, consumed) or _phrase_before(low, i)
            elif nxt == "than" or not _content(nxt):
                phrase = _phrase_before(low, i)
            else:
                phrase = _phrase_after(low, i, consumed)
        elif lem in _ADJECTIVES:
            if not _COMPARATIVE.match(word):
                state = _state_verb(low, i)
                if state < 0:
                    continue  # "high tides" is a state, not a change
                phrase = _phrase_before(low, state)  # "would stay rare", "became common"
            else:
                phrase = _phrase_after(low, i, consumed) if nxt != "than" else []
                phrase = phrase or _phrase_before(low, i)
        elif _noun_reading(low, i):
            if lem not in _CHANGE_NOUNS:
                continue  # "a carbon sink", "the light": not a word of change here
            phrase = _phrase_after(low, i + 1) if nxt in ("of", "in") else _phrase_before(low, i)
        else:  # a verb: its object, else its subject
            phrase = _phrase_after(low, i, consumed)
            if not phrase or _is_verb_only(lemma(nxt)):
                phrase = _phrase_before(low, i)
            elif _plain_subject(low, i):
                agent = True
        if _negated(low, i):
            sign = -sign
        a = _assertion(phrase, dim, sign)
        if a is not None and agent:
            a = Assertion(a.head, a.mods, a.dim, a.sign, agent=True)
        if a is not None and a.head in _GENERIC_HEADS:
            a = Assertion(a.head, a.mods | _predicate(low, i), a.dim, a.sign)  # "fewer people *die*"
        if a is not None:
            out.append(a)
    return tuple(dict.fromkeys(out))


def _plain_subject(low: list[str], i: int) -> bool:
    """True when the verb at *i* states what a thing does rather than a change it makes: the clause
    before it says the thing only, still or alone does it ("only the Sun would still raise tides",
    "the Moon alone keeps …"), and its subject names no change itself ("higher oxygen would …")."""
    j = i - 1
    while j >= 0 and low[j] not in (",", ";", ":", ".", "because", "since", "so", "and", "which", "that"):
        j -= 1
    clause = low[j + 1 : i]
    if not any(w in _AGENT_MARKS for w in clause):
        return False
    return not any(_COMPARATIVE.match(w) and lemma(w) in POLARITY for w in clause)


#: Words that make a causative verb a statement of what its subject does ("only", "still", "alone").
_AGENT_MARKS = word_set("only still alone always normally usually continue continues keep keeps")


#: Heads that name no quantity by themselves: "fewer people would die" and "more people would be
#: poisoned" are about different quantities, told apart by the verb after them.
_GENERIC_HEADS = word_set("people person number amount level thing group part share case")


def _predicate(low: list[str], i: int) -> frozenset[str]:
    """The first content lemma after token *i* that is not part of its noun phrase: the verb that says what the phrase does."""
    j = i + 1
    while j < len(low) and (_noun_word(low[j]) or low[j] in _DETERMINERS):
        j += 1
    while j < len(low):
        w = low[j]
        if w in (".", ",", ";", ":"):
            break
        if _content(w) and w not in _AUX:
            return frozenset({lemma(w)})
        j += 1
    return frozenset()


@lru_cache(maxsize=16384)
def claim_of(text: str) -> Claim:
    """The :class:`Claim` of one unit of text (module docstring).

    >>> [(a.head, a.sign) for a in claim_of("smaller tides would shrink intertidal habitats").assertions]
    [('tide', -1), ('habitat', -1)]
    """
    return Claim(text, content_lemmas(text), concepts_of(text), _assertions(text))


_COPULA = word_set("is are was were be been 's ’s means mean meant equals equal equalled becomes became become")
#: Words of the cues that open a unit (:data:`._cues.CUES`), skipped before an identity's first phrase.
_CUE_WORDS = word_set("consequently therefore thus hence accordingly ultimately overall finally")
_HEDGE = word_set("basically really just simply merely only actually essentially literally truly kind sort form type a an the of")


def is_identity(text: str) -> bool:
    """True when *text* only equates two noun phrases ("literacy is church control", "X means Y"):
    a copula or "means" between phrases of nouns and adjectives, with no word of change.

    Such a unit states what something *is*, not a state it is in or a change, so it is no
    causal claim.

    >>> is_identity("because literacy is church control,"), is_identity("tides would be smaller")
    (True, False)
    """
    low = [t.lower() for t in _TOKEN.findall(text)]
    words = [w for w in low if w[:1].isalpha()]
    pos = pos_lexicon()
    for i, w in enumerate(words):
        if w not in _COPULA or not 0 < i < len(words) - 1:
            continue
        left = words[:i]
        while left and (left[0] in stop_words() or left[0] in _CUE_WORDS) and left[0] not in _DETERMINERS:
            left = left[1:]  # the cue that opens the unit: "because", "which means", "so"
        right = [x for x in words[i + 1 :] if x not in _HEDGE]
        if not right or not left or not any(_noun_word(x) for x in left):
            continue
        if not all(_noun_word(x) or x in _DETERMINERS for x in left + right):
            continue
        if lemma(right[-1]) in pos["noun"] and not any(lemma(x) in POLARITY for x in left + right):
            return True
    return False


#: Words of a predicate that says nothing about the things listed before it ("… all matter").
_EMPTY_PREDICATE = word_set(
    "all of these those them they this that it is are be was were would will also too here there matter matters "
    "important key relevant crucial essential central significant count counts change changes exist exists involved "
    "relate related apply applies so therefore the answer covers cover mention mentions"
)
_ITEM_SPLIT = re.compile(r",|;|:|\band\b|\bor\b")


def is_list(text: str) -> bool:
    """True when *text* only lists things: three or more phrases of at most three words each, and
    nothing after them but a predicate that says nothing ("Tides, habitats, estuaries and fisheries
    all matter").

    >>> is_list("Tides, habitats, estuaries, fisheries, obliquity: all of these matter,"), is_list("Coal, oil and gas come from buried plants;")
    (True, False)
    """
    parts = [p.split() for p in _ITEM_SPLIT.split(text.strip().rstrip(".!?"))]
    parts = [p for p in parts if p]
    if len(parts) < 3:
        return False
    *items, last = parts
    if any(len(p) > 3 or any(_verb_form(w.lower()) for w in p) for p in items):
        return False  # "wiring transfers and trading stock": actions, not a list of things
    rest = [w.lower().strip("'\"“”") for w in last]
    while rest and rest[-1] in _EMPTY_PREDICATE:
        rest.pop()  # "… all matter", "… all of these are important"
    while rest and rest[0] in _EMPTY_PREDICATE:
        rest.pop(0)
    return len(rest) <= 3
