"""Segmenting an answer into elementary discourse units (EDUs).

An EDU is a minimal clause-like span that carries one proposition — the unit RST relations
connect.  ``rules`` (the default) needs no model: spaCy's blank English tokenizer with the
rule of spaCy's ``sentencizer`` (its punctuation set, applied to the token arrays — the same
boundaries as running the pipe, at a fraction of the cost) gives sentences (newlines also
end one), and each sentence is cut further at clause boundaries:

* after a semicolon;
* before a discourse cue (:mod:`._cues`) that follows ``,`` ``;`` ``:`` or a dash
  ("…, so tides shrink", "…, which would …");
* before a *splitting* cue anywhere ("… because the Moon is gone", "… leads to …");
* after the first comma of a sentence that opens with a conditional or causal cue
  ("If the Moon vanished, | tides would shrink", "Without the Moon, | only the Sun …");
* before an arrow (``→``, ``->``, ``=>``);
* before the verb group of a causative verb (:data:`._cues.CAUSATIVE`) with an object, when
  what comes before it is a subject that opens its sentence or follows punctuation and is
  itself a claim — a word of change or two content words, and no verb ("Smaller tides | would
  shrink intertidal zones"); a subject after a cue ("…, so smaller tides would …") stays with
  it, the cue already links the clause.

A cue word inside an idiom ("if at all", "so far", "since then") cuts nothing.  A cut is made
only when both sides keep at least three words (two on the subject side of a causative cut).  ``parser:<pipeline>``
(e.g. ``parser:en_core_web_sm``) loads an installed spaCy English pipeline and also cuts at
the left edge of adverbial, relative and conjoined clauses from the dependency parse.

Offsets are character positions into the original text: ``text[e.start:e.end] == e.text``
for every EDU, with surrounding whitespace trimmed.  The same text always gives the same
EDUs.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from itertools import pairwise
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.explain._claims import claim_of
from causalcheck.explain._cues import (
    CAUSATIVE,
    CUES,
    idiom_at,
    lead_cue,
    participle_cue,
    takes_object,
)
from causalcheck.explain._text import lemma, stop_words, word_set
from causalcheck.explain.judges import Segmenter
from causalcheck.explain.rst import EDU
from causalcheck.plugins import Registry, create

__all__ = ["ParserSegmenter", "RuleSegmenter", "Segmenter", "get_segmenter", "segmenter_names"]

_MIN_WORDS = 3
_NEWLINES = re.compile(r"\n+")
_WORDS = re.compile(r"\w+")
_OPENER = re.compile(
    r"[\W_]*(?:if|unless|when|whenever|once|because|since|although|though|even if|even though|while|given that|"
    r"without|with|in the absence of|absent|had|were it not for|but for|supposing|assuming|suppose)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4)
def _blank_pipeline() -> Any:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.max_length = 2_000_000
    return nlp


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    piece = text[start:end]
    core = piece.strip()
    if not core:
        return start, start
    lead = len(piece) - len(piece.lstrip())
    return start + lead, start + lead + len(core)


def _token_arrays(doc: Any) -> tuple[list[int], list[int], list[int]]:
    """``(start offsets, lengths, is_punct flags)`` of the tokens, read in bulk (no Token objects)."""
    from spacy.attrs import IDX, IS_PUNCT, LENGTH

    if len(doc) == 0:
        return [], [], []
    arr = doc.to_array([IDX, LENGTH, IS_PUNCT])
    return arr[:, 0].tolist(), arr[:, 1].tolist(), arr[:, 2].tolist()


def _rule_sentences(
    text: str, idx: list[int], length: list[int], punct: list[int], punct_chars: Any, pieces: list[str] | None = None
) -> list[tuple[int, int]]:
    """Sentence character spans by spaCy's ``sentencizer`` rule: a sentence starts at the first
    token after a sentence-final punctuation token that is not punctuation itself."""
    n = len(idx)
    if n == 0:
        return []
    if pieces is None:
        pieces = [text[a : a + ln] for a, ln in zip(idx, length, strict=True)]
    starts = [0]
    i = 0
    # only tokens in punct_chars change the state; jump from one to the next
    enders = [k for k, piece in enumerate(pieces) if piece in punct_chars]
    for k in enders:
        if k < i:
            continue
        j = k + 1
        while j < n and (punct[j] or pieces[j] in punct_chars):
            j += 1
        if j < n:
            starts.append(j)
        i = j
    bounds = [*starts, n]
    return [(idx[a], idx[b - 1] + length[b - 1]) for a, b in pairwise(bounds) if b > a]


def _sentence_spans(text: str, doc: Any, sents: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
    """Sentence spans (from *sents*, else ``doc.sents``) cut again at newlines and trimmed."""
    spans: list[tuple[int, int]] = []
    raw = sents if sents is not None else [(s.start_char, s.end_char) for s in doc.sents]
    for lo, hi in raw:
        pos = lo
        for m in _NEWLINES.finditer(text, lo, hi):
            spans.append((pos, m.start()))
            pos = m.end()
        spans.append((pos, hi))
    out = []
    for lo, hi in spans:
        lo, hi = _trim(text, lo, hi)
        if hi > lo:
            out.append((lo, hi))
    return out


def _enough(text: str, lo: int, hi: int, least: int = _MIN_WORDS) -> bool:
    """True when *text*[lo:hi] holds at least *least* words (stops counting there)."""
    return any(count >= least for count, _ in enumerate(_WORDS.finditer(text, lo, hi), start=1))


def _cue_table() -> dict[str, list[tuple[tuple[str, ...], bool]]]:
    """Cue phrases by first word: ``word -> [(remaining words, splits without comma)]``, longest first."""
    table: dict[str, list[tuple[tuple[str, ...], bool]]] = {}
    for cue in sorted(CUES, key=lambda c: -len(c.phrase)):
        if cue.opener:
            continue  # a condition only where it opens a sentence: the comma rule cuts after it
        words = tuple(cue.phrase.split())
        table.setdefault(words[0], []).append((words[1:], cue.split))
    return table


_TABLE = _cue_table()
_PUNCT_BEFORE = frozenset({",", ";", ":", "—", "–", "-"})


_SEMICOLON = re.compile(r";\s*(?=\S)")
_COMMA_NEXT = re.compile(r",\s+(?=\S)")


def _token_cuts(
    text: str, doc: Any, spans: list[tuple[int, int]], arrays: tuple[list[int], list[str]] | None = None
) -> list[list[int]]:
    """Rule cut positions per sentence span (module docstring rules); only cue tokens are visited.

    *arrays* = ``(token offsets, token texts)`` when the caller already has them.
    """
    if arrays is None:
        all_idx, all_len, _ = _token_arrays(doc)
        pieces = [text[a : a + ln] for a, ln in zip(all_idx, all_len, strict=True)]
    else:
        all_idx, pieces = arrays
    keep = [k for k, piece in enumerate(pieces) if not piece.isspace()]
    idxs = [all_idx[k] for k in keep]
    lows = [pieces[k].lower() for k in keep]
    n = len(lows)
    starts = [lo for lo, _ in spans]
    out: list[list[int]] = [[] for _ in spans]

    def span_of(pos: int) -> int:
        k = bisect_right(starts, pos) - 1
        return k if k >= 0 and spans[k][0] < pos < spans[k][1] else -1

    for k, (lo, hi) in enumerate(spans):
        if _OPENER.match(text, lo, hi):
            m = _COMMA_NEXT.search(text, lo, hi)
            if m:
                out[k].append(m.end())
    for m in _SEMICOLON.finditer(text):
        k = span_of(m.end())
        if k >= 0:
            out[k].append(m.end())
    skip_until = -1
    for i in [j for j, w in enumerate(lows) if j and (w in _TABLE or w == "and")]:
        if i < skip_until:
            continue
        k = span_of(idxs[i])
        if k < 0:
            continue
        start = i
        if idiom_at(lows, i):
            continue
        after_punct = lows[i - 1] in _PUNCT_BEFORE
        if lows[i] == "and":
            if not after_punct or i + 1 >= n or lows[i + 1] not in _TABLE:
                continue
            i += 1  # ", and so …": the cut goes before "and"
        for rest, splits in _TABLE[lows[i]]:
            width = len(rest)
            if i + width < n and tuple(lows[i + 1 : i + 1 + width]) == rest:
                if after_punct or (splits and not (i + width + 1 < n and lows[i + width + 1][:1].isdigit())):
                    out[k].append(idxs[start])
                skip_until = i + width + 1
                break
    for i, w in enumerate(lows):
        if i and lows[i - 1] in _PUNCT_BEFORE and w not in _TABLE and text[idxs[i] - 1 : idxs[i]].isspace() and lead_cue(text[idxs[i] : idxs[i] + 80]) is not None:
            k = span_of(idxs[i])
            if k >= 0:
                out[k].append(idxs[i])  # ", raising insurance": an effect
        if w in _ARROWS or (w == ">" and i and lows[i - 1] in ("-", "=")):
            k = span_of(idxs[i - 1] if w == ">" else idxs[i])
            if k >= 0:
                out[k].append(idxs[i - 1] if w == ">" else idxs[i])
    return out


_ARROWS = frozenset({"→", "⇒", "⟶"})
_ARROW_TEXT = re.compile(r"→|⇒|⟶|->|=>")


def _participle_cuts(text: str, idx: list[int], pieces: list[str]) -> frozenset[int]:
    """Offsets of the "-ing" forms that open an effect after punctuation (their cuts need two words on each side)."""
    out: set[int] = set()
    prev = ""
    for a, piece in zip(idx, pieces, strict=True):
        if piece.isspace():
            continue
        low = piece.lower()
        if prev in _PUNCT_BEFORE and text[a - 1 : a].isspace() and low not in _TABLE and participle_cue(low) is not None and lead_cue(text[a : a + 80]) is not None:
            out.add(a)
        prev = low
    return frozenset(out)


def _arrow_cuts(text: str) -> frozenset[int]:
    """Offsets of the arrows in *text* (their cuts need two words on each side)."""
    return frozenset(m.start() for m in _ARROW_TEXT.finditer(text))
_BOUNDARY = frozenset({",", ";", ":", "—", "–", "(", "-"})
_SUBJECT_GLUE = word_set("the a an its their his her our this that these those much many more less fewer some any all most of and or 's ’s")
_VERB_GROUP = word_set("would could will might may can should must shall also further still even then soon eventually")


def _verb_form(word: str) -> bool:
    """An inflected verb that ends a subject ("raised", "made"); "-ing" forms stay nouns there ("Cold War funding")."""
    lem = lemma(word)
    return lem != word and not word.endswith(("s", "ing")) and lem in CAUSATIVE | _COMMON_VERBS


_COMMON_VERBS = word_set("be have do make take give get go come keep stay remain seem become mean")


def _causative_cuts(text: str, idxs: list[int], lows: list[str], span_of: Any, starts: list[int]) -> list[list[int]]:
    """Cut positions before the verb group of a causative verb whose subject is a claim (module docstring)."""
    out: list[list[int]] = [[] for _ in starts]
    stop = stop_words()
    for i, w in enumerate(lows):
        if i == 0 or i + 1 >= len(lows) or lemma(w) not in CAUSATIVE or w.endswith("ing"):
            continue
        if not takes_object(lows, i):
            continue  # no object ("would shrink to a third"), or a noun before its verb ("costs would …")
        j = i - 1
        while j >= 0 and (lows[j] in _VERB_GROUP or (lows[j].endswith("ly") and len(lows[j]) > 4)):
            j -= 1
        b = j
        while b >= 0 and (lows[b] in _SUBJECT_GLUE or (lows[b].isalpha() and lows[b] not in stop and not _verb_form(lows[b]))):
            b -= 1
        first = b + 1
        k = span_of(idxs[j + 1])
        if k < 0:
            continue
        if b >= 0 and lows[b].endswith("ing") and (b == 0 or idxs[b] == starts[k] or lows[b - 1] in _BOUNDARY):
            first, b = b, b - 1  # a gerund opens the subject: "Doubling the oxygen pressure would make …"
        if first > j or j - first > 7:
            continue
        opens = b < 0 or idxs[first] == starts[k] or lows[b] in _BOUNDARY
        if not opens:
            continue
        subject = text[idxs[first] : idxs[j + 1]]
        claim = claim_of(subject)
        if claim.assertions or len(claim.lemmas) >= 2:
            out[k].append(idxs[j + 1])
    return out


def _assemble(text: str, spans: list[tuple[int, int]], cuts_for: Any, relaxed: frozenset[int] = frozenset()) -> list[EDU]:
    """EDUs of *spans* cut at *cuts_for(lo, hi)*; a cut in *relaxed* needs two words on each side, not three."""
    edus: list[EDU] = []
    for lo, hi in spans:
        start = lo
        for cut in cuts_for(lo, hi):
            if cut <= start or cut >= hi:
                continue
            least = 2 if cut in relaxed else _MIN_WORDS
            if _enough(text, start, cut, least) and _enough(text, cut, hi, least):
                a, b = _trim(text, start, cut)
                edus.append(EDU(f"EDU{len(edus) + 1}", text[a:b], a, b))
                start = cut
        a, b = _trim(text, start, hi)
        if b > a:
            edus.append(EDU(f"EDU{len(edus) + 1}", text[a:b], a, b))
    return edus


def _causative_spans(text: str, idx: list[int], pieces: list[str], spans: list[tuple[int, int]]) -> list[list[int]]:
    """:func:`_causative_cuts` per sentence span, from the token offsets *idx* and texts *pieces*."""
    keep = [k for k, piece in enumerate(pieces) if not piece.isspace()]
    idxs = [idx[k] for k in keep]
    lows = [pieces[k].lower() for k in keep]
    starts = [lo for lo, _ in spans]

    def span_of(pos: int) -> int:
        k = bisect_right(starts, pos) - 1
        return k if k >= 0 and spans[k][0] <= pos < spans[k][1] else -1

    return _causative_cuts(text, idxs, lows, span_of, starts)


class RuleSegmenter:
    """The model-free default segmenter (module docstring)."""

    name = "rules"

    def segment(self, text: str) -> list[EDU]:
        if not isinstance(text, str):
            raise InputFormatError(f"text={text!r:.60} must be a string")
        if not text.strip():
            return []
        nlp = _blank_pipeline()
        doc = nlp.make_doc(text)
        idx, length, punct = _token_arrays(doc)
        pieces = [text[a : a + ln] for a, ln in zip(idx, length, strict=True)]
        sents = _rule_sentences(text, idx, length, punct, nlp.get_pipe("sentencizer").punct_chars, pieces)
        spans = _sentence_spans(text, doc, sents)
        cuts = _token_cuts(text, doc, spans, (idx, pieces))
        causative = _causative_spans(text, idx, pieces, spans)
        per_span = {span: sorted(set(c) | set(v)) for span, c, v in zip(spans, cuts, causative, strict=True)}
        relaxed = frozenset(p for v in causative for p in v) | _arrow_cuts(text) | _participle_cuts(text, idx, pieces)
        return _assemble(text, spans, lambda lo, hi: per_span[(lo, hi)], relaxed)


class ParserSegmenter:
    """Rule cuts plus dependency-parse cuts from an installed spaCy English pipeline."""

    _CLAUSE_DEPS = frozenset({"advcl", "relcl", "ccomp", "conj"})

    def __init__(self, pipeline: str, nlp: Any = None) -> None:
        """*nlp* may be given directly (a loaded ``spacy.Language`` with a ``parser`` pipe)."""
        self.pipeline = pipeline
        self.name = f"parser:{pipeline}"
        self._nlp: Any = nlp
        if nlp is not None and not nlp.has_pipe("parser"):
            raise InputFormatError(f"segmenter={self.name!r}: the given pipeline has no 'parser' pipe")

    def load(self) -> Any:
        """Load the pipeline now (raises :class:`InputFormatError` when it is missing or has no parser)."""
        return self._load()

    def _load(self) -> Any:
        if self._nlp is None:
            import spacy

            if not spacy.util.is_package(self.pipeline):
                raise InputFormatError(
                    f"segmenter={self.name!r}: spaCy pipeline {self.pipeline!r} is not installed "
                    f"(install it with `python -m spacy download {self.pipeline}`, or use --segmenter rules)"
                )
            self._nlp = spacy.load(self.pipeline)
            if not self._nlp.has_pipe("parser"):
                raise InputFormatError(f"segmenter={self.name!r}: pipeline {self.pipeline!r} has no dependency parser")
        return self._nlp

    def segment(self, text: str) -> list[EDU]:
        if not isinstance(text, str):
            raise InputFormatError(f"text={text!r:.60} must be a string")
        if not text.strip():
            return []
        doc = self._load()(text)
        spans = _sentence_spans(text, doc)
        parse_cuts: set[int] = set()
        for tok in doc:
            if tok.dep_ in self._CLAUSE_DEPS and tok.head.i != tok.i:
                edge = tok.left_edge
                if edge.i > edge.sent.start:
                    parse_cuts.add(edge.idx)

        rule_cuts = dict(zip(spans, _token_cuts(text, doc, spans), strict=True))
        causative = _causative_spans(text, [t.idx for t in doc], [t.text for t in doc], spans)
        verb_cuts = {span: set(v) for span, v in zip(spans, causative, strict=True)}

        def cuts(lo: int, hi: int) -> list[int]:
            return sorted(set(rule_cuts[(lo, hi)]) | verb_cuts[(lo, hi)] | {c for c in parse_cuts if lo < c < hi})

        return _assemble(text, spans, cuts, frozenset(p for v in causative for p in v) | _arrow_cuts(text))


def segmenter_names() -> tuple[str, ...]:
    """Names accepted by :func:`get_segmenter` (``parser:<pipeline>`` takes any installed pipeline)."""
    return ("rules", "parser:<spaCy English pipeline>")


def get_segmenter(name: str = "rules") -> Segmenter:
    """``"rules"`` → :class:`RuleSegmenter`; ``"parser:en_core_web_sm"`` (or a bare pipeline name) → :class:`ParserSegmenter`;
    a plug-in (a ``causalcheck.segmenters`` entry point or ``package.module:factory``, :mod:`causalcheck.plugins`) → its segmenter."""
    if not isinstance(name, str) or not name.strip():
        raise InputFormatError(f"segmenter={name!r} must be 'rules' or 'parser:<pipeline>'")
    if name == "rules":
        return RuleSegmenter()

    if not name.startswith("parser:") and name in Registry("segmenter"):  # a plug-in (causalcheck.plugins)
        return create("segmenter", name)
    pipeline = name.split(":", 1)[1] if name.startswith("parser:") else name
    if not re.fullmatch(r"[A-Za-z0-9_.\-]+", pipeline):
        raise InputFormatError(f"segmenter={name!r} must be 'rules' or 'parser:<pipeline>'")
    return ParserSegmenter(pipeline)
