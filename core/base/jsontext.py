"""JSON inside text: the one place that finds a JSON object in model output and decodes JSON streams.

Models wrap the object they were asked for in ``<think>…</think>`` blocks, Markdown code
fences and prose, and logs hold many JSON values back to back.  Everything in causalcheck
that looks for JSON in text goes through this module, which offers exactly two *policies*
for finding one object and one *decoder* for streams:

**Controller policy** (:func:`candidates`, :func:`controller_object`) — the order of the
CausaLab controller (causalab-spec §3.4), used for agent records: blank out think blocks
(offsets are kept, so error positions still point into the original text), then try every
fenced block holding a ``{`` (``json``-tagged fences first), then the whole text, then every
balanced top-level ``{…}`` from the **last** to the first.  :func:`candidates` yields those
slices with their offsets and the repairs each took (the tolerant record parser
:mod:`causalcheck.parsing` decodes them leniently); :func:`controller_object` returns the
first one that is a strict JSON object.

>>> controller_object('<think>{"draft": 1}</think> plan {"a": 1} then {"action": "WAIT"}')
{'action': 'WAIT'}

**First-object policy** (:func:`first_object`) — for judges' replies and for observation
JSON embedded in prompts: the first object inside the first fenced block that holds one,
else the first ``{`` anywhere in the text that starts a complete JSON object.

>>> first_object('Sure! {"score": 7} and later {"score": 2}')
{'score': 7}

**Streams** (:func:`iter_json_values`, :func:`iter_json_spans`) — JSONL, concatenated
pretty-printed JSON (the official ``raw_io.jsonl``), or one value: whitespace between values
is skipped, and the first character that does not decode raises
:class:`~causalcheck.base.errors.DSLSyntaxError` with line, column, the expected tokens and a caret.

>>> list(iter_json_values('{"a": 1}\\n{\\n  "b": [2]\\n}'))
[{'a': 1}, {'b': [2]}]

**Writing** (:func:`dumps`) — every JSON causalcheck prints (``--json``) is strict JSON: a
non-finite float (``NaN``, ``±Infinity``: not JSON, and refused by strict parsers) is written
as ``null``, never as a bare ``NaN`` token.

>>> dumps({"p": float("nan"), "z": [1.5, float("inf")]})
'{"p": null, "z": [1.5, null]}'

Values are decoded by :mod:`causalcheck.base.safejson` (nesting deeper than ``MAX_DEPTH``, huge
integers, non-finite numbers and lone surrogates are refused with the source named).

**Bounded work.**  Every scan here is linear in the text: think tags are paired in one
pass, balanced objects are found with one tokenising pass, at most
:data:`MAX_CANDIDATES` candidate slices are offered per text and at most
:data:`MAX_OBJECT_STARTS` ``{`` positions are tried by the first-object policy, so a
hostile text (thousands of unclosed fences, ``<think>`` tags or braces) costs at most a
fixed number of linear passes.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from causalcheck.base import safejson
from causalcheck.base.errors import DSLSyntaxError, InputFormatError, Notice

__all__ = [
    "MAX_CANDIDATES",
    "MAX_OBJECT_STARTS",
    "Candidate",
    "balanced_objects",
    "candidates",
    "controller_object",
    "dumps",
    "first_object",
    "iter_json_spans",
    "iter_json_values",
    "strip_think",
]

#: Most candidate slices :func:`candidates` offers for one text (fences, the whole text,
#: balanced objects).  A model reply holds one record and rarely more than a handful of
#: fences or objects; past this the rest are not tried (a repair note says so).
MAX_CANDIDATES = 32
#: Most ``{`` positions the first-object policy tries to decode from (each try is linear).
MAX_OBJECT_STARTS = 64

_THINK_TAG = re.compile(r"<(/?)think>", re.IGNORECASE)
_BRACE_TOKENS = re.compile(r'[{}"\\]')
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)(?:```|\Z)", re.DOTALL)
_FIRST_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


# ============================================================================ controller policy
@dataclass(frozen=True)
class Candidate:
    """A slice ``text[start:start+len(body)]`` to decode, and the repairs that produced it.

    The repairs are :class:`~causalcheck.base.errors.Notice` values with the codes ``think-removed``,
    ``think-unclosed``, ``code-fence`` and ``prose-around`` (see ``causalcheck.parsing.REPAIR_CODES``).
    """

    body: str
    start: int
    repairs: tuple[Notice, ...]


def strip_think(text: str) -> tuple[str, list[Notice]]:
    """Blank out ``<think>…</think>`` blocks (keeping offsets); an unclosed tag alone is blanked.

    One pass over the tags (the same blocks as the non-greedy ``<think>.*?</think>``): an
    opening tag starts a block, the next closing tag ends it; of an opening tag that is never
    closed only the tag itself is blanked.

    >>> strip_think("a<think>b</think>c<THINK>d")
    ('a                c       d', ['removed 1 <think>…</think> block(s)', 'removed an unclosed <think> tag'])
    """
    repairs: list[Notice] = []
    if "<" not in text:  # no tag at all (most replies): skip the scan
        return text, repairs
    spans: list[tuple[int, int]] = []
    start = -1
    open_tag: tuple[int, int] | None = None
    for m in _THINK_TAG.finditer(text):
        closing = m.group(1) == "/"
        if start < 0 and not closing:
            start, open_tag = m.start(), (m.start(), m.end())
        elif start >= 0 and closing:
            spans.append((start, m.end()))
            start, open_tag = -1, None
    if not spans and open_tag is None:
        return text, repairs
    parts: list[str] = []
    pos = 0
    for a, b in spans:
        parts.append(text[pos:a])
        parts.append(re.sub(r"[^\n]", " ", text[a:b]))
        pos = b
    if open_tag is not None:  # unclosed: drop the tag; the balanced-object search skips the prose that follows
        a, b = open_tag
        parts.append(text[pos:a])
        parts.append(" " * (b - a))
        pos = b
    parts.append(text[pos:])
    if spans:
        repairs.append(Notice(f"removed {len(spans)} <think>…</think> block(s)", "think-removed"))
    if open_tag is not None:
        repairs.append(Notice("removed an unclosed <think> tag", "think-unclosed"))
    return "".join(parts), repairs


def balanced_objects(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every balanced top-level ``{…}`` in *text* (strings respected).

    One pass over the braces, quotes and backslashes only (the rest of the text is skipped
    by the tokenising regular expression).

    >>> balanced_objects('a {"x": "}"} b {}')
    [(2, 12), (15, 17)]
    """
    spans: list[tuple[int, int]] = []
    depth = 0
    start = -1
    in_str = False
    skip_to = -1
    for m in _BRACE_TOKENS.finditer(text):
        i = m.start()
        if i < skip_to:  # the character escaped by a backslash
            continue
        ch = text[i]
        if in_str:
            if ch == "\\":
                skip_to = i + 2
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            if depth > 0:
                in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    return spans


def candidates(text: str) -> Iterator[Candidate]:
    """Slices of *text* that may hold the object, in the controller's order (module docstring).

    At most :data:`MAX_CANDIDATES` slices; the last one offered past that limit carries a
    repair note naming it.
    """
    cleaned, repairs = strip_think(text)

    def all_slices() -> Iterator[Candidate]:
        fences = [m for m in _FENCE.finditer(cleaned) if "{" in m.group(2)]
        fences.sort(key=lambda m: 0 if m.group(1).lower() in ("json", "jsonc", "json5") else 1)
        for m in fences:
            yield Candidate(m.group(2), m.start(2), (*repairs, Notice("took the record out of a ``` code fence", "code-fence")))
        stripped = cleaned.strip()
        if stripped:
            lead = len(cleaned) - len(cleaned.lstrip())
            yield Candidate(stripped, lead, tuple(repairs))
        for s, e in reversed(balanced_objects(cleaned)):
            if e - s == len(stripped) and cleaned[s:e] == stripped:
                continue
            yield Candidate(cleaned[s:e], s, (*repairs, Notice("ignored prose around the JSON object", "prose-around")))

    for n, cand in enumerate(all_slices(), 1):
        if n > MAX_CANDIDATES:
            return
        yield cand


def _loads(body: str) -> Any:
    """The safe decoder's value of *body*, or ``None`` for every failure (also refused values)."""
    try:
        return safejson.loads(body, source="<reply>")
    except InputFormatError:
        return None


def controller_object(text: str) -> dict[str, Any] | None:
    """The first candidate (controller order) that decodes, strictly, to a JSON object; else ``None``."""
    if "```" not in text:
        # no fence, so the first candidate is the whole text (think blocks blanked): a reply that
        # is just the object decodes without building the candidate list (the common case)
        cleaned, _ = strip_think(text)
        body = cleaned.strip()
        if body.startswith("{"):
            value = _loads(body)
            if isinstance(value, dict):
                return value
    for cand in candidates(text):
        value = _loads(cand.body)
        if isinstance(value, dict):
            return value
    return None


# ============================================================================ first-object policy
def _first_in(text: str) -> dict[str, Any] | None:
    start = text.find("{")
    tries = 0
    while start != -1 and tries < MAX_OBJECT_STARTS:
        tries += 1
        try:
            value, _ = safejson.raw_decode(text, start, source="<reply>")
        except InputFormatError:
            value = None
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


def first_object(text: str) -> dict[str, Any] | None:
    """The first JSON object: in the first fenced block that holds one, else anywhere; else ``None``."""
    for m in _FIRST_FENCE.finditer(text):
        found = _first_in(m.group(1))
        if found is not None:
            return found
    return _first_in(text)


# ============================================================================ streams
_JSON_EXPECT = {
    "Expecting value": ["a value"],
    "Expecting ',' delimiter": ['","', '"}"', '"]"'],
    "Expecting ':' delimiter": ['":"'],
    "Expecting property name enclosed in double quotes": ["a string"],
}
_WS = re.compile(r"\s*")


def iter_json_spans(text: str, *, source: str = "<string>") -> Iterator[tuple[int, Any]]:
    """``(start offset, value)`` of every JSON value of *text*; see :func:`iter_json_values`.

    The offsets let a caller name the line of a value that decodes but has the wrong shape
    (``text.count("\\n", 0, start) + 1``).
    """
    pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
    n = len(text)
    while pos < n:
        try:
            value, end = safejson.raw_decode(text, pos, source=source)
        except safejson.JSONSyntaxError as exc:
            expected = _JSON_EXPECT.get(exc.msg, [])
            label = None
            if exc.pos >= n or exc.msg.startswith("Unterminated string"):
                label = "the text ends too early: truncated, or a bracket/quote is not closed"
            raise DSLSyntaxError(
                f"not valid JSON: {exc.msg}",
                text=text,
                line=exc.line,
                column=exc.column,
                expected=expected,
                source=source,
                label=label,
            ) from None
        yield pos, value
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]


def iter_json_values(text: str, *, source: str = "<string>") -> Iterator[Any]:
    """The JSON values of *text*: JSONL, concatenated pretty-printed JSON, or one value.

    Raises :class:`~causalcheck.base.errors.DSLSyntaxError` at the first character that does not
    decode (line, column, expected tokens, caret; the message says when the text ends too
    early), :class:`~causalcheck.base.errors.InputFormatError` for a value :mod:`causalcheck.base.safejson`
    refuses (nested deeper than ``MAX_DEPTH``, a huge integer, a non-finite number, a lone
    surrogate).
    """
    for _, value in iter_json_spans(text, source=source):
        yield value


def _finite(value: Any) -> Any:
    """*value* with every non-finite float (in dicts, lists and tuples, at any depth) replaced by ``None``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def dumps(value: Any, **options: Any) -> str:
    """``json.dumps(value, **options)`` as strict JSON: ``NaN`` and ``±Infinity`` become ``null`` (module docstring).

    The options are :func:`json.dumps`'s (``indent``, ``sort_keys``, ``default``, ``ensure_ascii``);
    ``allow_nan`` is always ``False``.  Output without a non-finite float is byte-identical to
    :func:`json.dumps`'s; a ``default`` that returns a non-finite float is refused (``ValueError``).
    """
    options.pop("allow_nan", None)
    try:
        return json.dumps(value, allow_nan=False, **options)
    except ValueError as exc:
        if "Out of range float values" not in str(exc):
            raise
    return json.dumps(_finite(value), allow_nan=False, **options)
