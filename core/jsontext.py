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
:class:`~causalcheck.errors.DSLSyntaxError` with line, column, the expected tokens and a caret.

>>> list(iter_json_values('{"a": 1}\\n{\\n  "b": [2]\\n}'))
[{'a': 1}, {'b': [2]}]
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from causalcheck.errors import DSLSyntaxError, InputFormatError

__all__ = [
    "Candidate",
    "balanced_objects",
    "candidates",
    "controller_object",
    "first_object",
    "iter_json_spans",
    "iter_json_values",
    "strip_think",
]

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_THINK_OPEN = re.compile(r"<think>", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)(?:```|\Z)", re.DOTALL)
_FIRST_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)


# ============================================================================ controller policy
@dataclass(frozen=True)
class Candidate:
    """A slice ``text[start:start+len(body)]`` to decode, and the repairs that produced it."""

    body: str
    start: int
    repairs: tuple[str, ...]


def strip_think(text: str) -> tuple[str, list[str]]:
    """Blank out ``<think>…</think>`` blocks (keeping offsets); an unclosed tag alone is blanked."""
    repairs: list[str] = []

    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    out, n = _THINK.subn(blank, text)
    if n:
        repairs.append(f"removed {n} <think>…</think> block(s)")
    m = _THINK_OPEN.search(out)
    if m:  # unclosed: drop the tag; the balanced-object search skips the prose that follows
        out = out[: m.start()] + " " * len(m.group(0)) + out[m.end() :]
        repairs.append("removed an unclosed <think> tag")
    return out, repairs


def balanced_objects(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every balanced top-level ``{…}`` in *text* (strings respected).

    >>> balanced_objects('a {"x": "}"} b {}')
    [(2, 12), (15, 17)]
    """
    spans: list[tuple[int, int]] = []
    depth = 0
    start = -1
    in_str = False
    esc = False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
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
    """Slices of *text* that may hold the object, in the controller's order (module docstring)."""
    cleaned, repairs = strip_think(text)
    fences = [m for m in _FENCE.finditer(cleaned) if "{" in m.group(2)]
    fences.sort(key=lambda m: 0 if m.group(1).lower() in ("json", "jsonc", "json5") else 1)
    for m in fences:
        yield Candidate(m.group(2), m.start(2), (*repairs, "took the record out of a ``` code fence"))
    stripped = cleaned.strip()
    if stripped:
        lead = len(cleaned) - len(cleaned.lstrip())
        yield Candidate(stripped, lead, tuple(repairs))
    spans = balanced_objects(cleaned)
    for s, e in reversed(spans):
        if cleaned[s:e].strip() == stripped:
            continue
        yield Candidate(cleaned[s:e], s, (*repairs, "ignored prose around the JSON object"))


def _loads(body: str) -> Any:
    """``json.loads`` that reports every failure as ``None`` (also nesting too deep to decode)."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


def controller_object(text: str) -> dict[str, Any] | None:
    """The first candidate (controller order) that decodes, strictly, to a JSON object; else ``None``."""
    for cand in candidates(text):
        value = _loads(cand.body)
        if isinstance(value, dict):
            return value
    return None


# ============================================================================ first-object policy
def _first_in(text: str) -> dict[str, Any] | None:
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
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
    decoder = json.JSONDecoder()
    pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
    n = len(text)
    while pos < n:
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            expected = _JSON_EXPECT.get(exc.msg, [])
            label = None
            if exc.pos >= n or exc.msg.startswith("Unterminated string"):
                label = "the text ends too early: truncated, or a bracket/quote is not closed"
            raise DSLSyntaxError(
                f"not valid JSON: {exc.msg}",
                text=text,
                line=exc.lineno,
                column=exc.colno,
                expected=expected,
                source=source,
                label=label,
            ) from None
        except RecursionError:
            raise InputFormatError(f"{source}: JSON nests too deeply to decode") from None
        yield pos, value
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]


def iter_json_values(text: str, *, source: str = "<string>") -> Iterator[Any]:
    """The JSON values of *text*: JSONL, concatenated pretty-printed JSON, or one value.

    Raises :class:`~causalcheck.errors.DSLSyntaxError` at the first character that does not
    decode (line, column, expected tokens, caret; the message says when the text ends too
    early), :class:`~causalcheck.errors.InputFormatError` when a value nests too deeply.
    """
    for _, value in iter_json_spans(text, source=source):
        yield value
