"""Segmenting an answer into elementary discourse units (EDUs).

An EDU is a minimal clause-like span that carries one proposition — the unit RST relations
connect.  ``rules`` (the default) needs no model: spaCy's blank English tokenizer with the
rule-based ``sentencizer`` gives sentences (newlines also end one), and each sentence is cut
further at clause boundaries:

* after a semicolon;
* before a discourse cue (:mod:`._cues`) that follows ``,`` ``;`` ``:`` or a dash
  ("…, so tides shrink", "…, which would …");
* before a *splitting* cue anywhere ("… because the Moon is gone", "… leads to …");
* after the first comma of a sentence that opens with a conditional or causal cue
  ("If the Moon vanished, | tides would shrink").

A cut is made only when both sides keep at least three words.  ``parser:<pipeline>``
(e.g. ``parser:en_core_web_sm``) loads an installed spaCy English pipeline and also cuts at
the left edge of adverbial, relative and conjoined clauses from the dependency parse.

Offsets are character positions into the original text: ``text[e.start:e.end] == e.text``
for every EDU, with surrounding whitespace trimmed.  The same text always gives the same
EDUs.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Protocol, runtime_checkable

from causalcheck.errors import InputFormatError
from causalcheck.explain._cues import CUES
from causalcheck.explain.rst import EDU

__all__ = ["ParserSegmenter", "RuleSegmenter", "Segmenter", "get_segmenter", "segmenter_names"]

_MIN_WORDS = 3
_WORDS = re.compile(r"\w+")
_SPLIT_ALT = "|".join(re.escape(c.phrase) for c in sorted(CUES, key=lambda c: -len(c.phrase)) if c.split)
_COMMA_ALT = "|".join(re.escape(c.phrase) for c in sorted(CUES, key=lambda c: -len(c.phrase)))
#: Candidate cut positions inside a sentence: group "cut" starts the new unit.
_BOUNDARY = re.compile(
    rf"(?:[,;:—–]|\s-)\s+(?P<cut>(?:and\s+)?(?:{_COMMA_ALT})\b)"
    rf"|(?<=\s)(?P<cut2>(?:{_SPLIT_ALT})\b)(?!\s+\d)"
    r"|;\s+(?P<cut3>\S)",
    re.IGNORECASE,
)
_OPENER = re.compile(r"^[\W_]*(?:if|unless|when|whenever|once|because|since|although|though|even if|even though|while|given that)\b", re.IGNORECASE)
_FIRST_COMMA = re.compile(r",\s+(?P<cut>\S)")


@runtime_checkable
class Segmenter(Protocol):
    """Splits text into EDUs with character offsets."""

    name: str

    def segment(self, text: str) -> list[EDU]:
        """EDUs of *text* in order, ids ``EDU1``…, ``text[e.start:e.end] == e.text``."""
        ...


@lru_cache(maxsize=4)
def _blank_pipeline() -> Any:
    import spacy

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.max_length = 2_000_000
    return nlp


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _sentence_spans(text: str, doc: Any) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for sent in doc.sents:
        lo, hi = sent.start_char, sent.end_char
        pos = lo
        for m in re.finditer(r"\n+", text[lo:hi]):
            spans.append((pos, lo + m.start()))
            pos = lo + m.end()
        spans.append((pos, hi))
    out = []
    for lo, hi in spans:
        lo, hi = _trim(text, lo, hi)
        if hi > lo:
            out.append((lo, hi))
    return out


def _enough(text: str, lo: int, hi: int) -> bool:
    for count, _ in enumerate(_WORDS.finditer(text, lo, hi), start=1):
        if count >= _MIN_WORDS:
            return True
    return False


def _cuts_in(text: str, lo: int, hi: int) -> list[int]:
    """Rule cut positions (absolute offsets) inside the sentence ``text[lo:hi]``."""
    sentence = text[lo:hi]
    cuts: set[int] = set()
    if _OPENER.match(sentence):
        m = _FIRST_COMMA.search(sentence)
        if m:
            cuts.add(lo + m.start("cut"))
    for m in _BOUNDARY.finditer(sentence):
        group = "cut" if m.group("cut") else ("cut2" if m.group("cut2") else "cut3")
        cuts.add(lo + m.start(group))
    return sorted(cuts)


def _assemble(text: str, spans: list[tuple[int, int]], cuts_for: Any) -> list[EDU]:
    edus: list[EDU] = []
    for lo, hi in spans:
        start = lo
        for cut in cuts_for(lo, hi):
            if cut <= start or cut >= hi:
                continue
            if _enough(text, start, cut) and _enough(text, cut, hi):
                a, b = _trim(text, start, cut)
                edus.append(EDU(f"EDU{len(edus) + 1}", text[a:b], a, b))
                start = cut
        a, b = _trim(text, start, hi)
        if b > a:
            edus.append(EDU(f"EDU{len(edus) + 1}", text[a:b], a, b))
    return edus


class RuleSegmenter:
    """The model-free default segmenter (module docstring)."""

    name = "rules"

    def segment(self, text: str) -> list[EDU]:
        if not isinstance(text, str):
            raise InputFormatError(f"text={text!r:.60} must be a string")
        if not text.strip():
            return []
        doc = _blank_pipeline()(text)
        spans = _sentence_spans(text, doc)
        return _assemble(text, spans, lambda lo, hi: _cuts_in(text, lo, hi))


class ParserSegmenter:
    """Rule cuts plus dependency-parse cuts from an installed spaCy English pipeline."""

    _CLAUSE_DEPS = frozenset({"advcl", "relcl", "ccomp", "conj"})

    def __init__(self, pipeline: str) -> None:
        self.pipeline = pipeline
        self.name = f"parser:{pipeline}"
        self._nlp: Any = None

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

        def cuts(lo: int, hi: int) -> list[int]:
            return sorted(set(_cuts_in(text, lo, hi)) | {c for c in parse_cuts if lo < c < hi})

        return _assemble(text, spans, cuts)


def segmenter_names() -> tuple[str, ...]:
    """Names accepted by :func:`get_segmenter` (``parser:<pipeline>`` takes any installed pipeline)."""
    return ("rules", "parser:<spaCy English pipeline>")


def get_segmenter(name: str = "rules") -> Segmenter:
    """``"rules"`` → :class:`RuleSegmenter`; ``"parser:en_core_web_sm"`` (or a bare pipeline name) → :class:`ParserSegmenter`."""
    if not isinstance(name, str) or not name.strip():
        raise InputFormatError(f"segmenter={name!r} must be 'rules' or 'parser:<pipeline>'")
    if name == "rules":
        return RuleSegmenter()
    pipeline = name.split(":", 1)[1] if name.startswith("parser:") else name
    if not re.fullmatch(r"[A-Za-z0-9_.\-]+", pipeline):
        raise InputFormatError(f"segmenter={name!r} must be 'rules' or 'parser:<pipeline>'")
    return ParserSegmenter(pipeline)
