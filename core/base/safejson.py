"""Decoding JSON from files and replies that causalcheck does not control, safely.

The standard :func:`json.loads` accepts documents that later crash a program far from the
place they were read: ``[[[[…`` 100 000 levels deep raises :class:`RecursionError`; a
400-digit integer decodes, then overflows the first ``float()``; ``1e400`` becomes ``inf``
and ``NaN`` / ``Infinity`` are accepted although they are not JSON, so writing the value
back fails; a lone surrogate escape (``"\\ud83c"``) gives a string that cannot be encoded
as UTF-8.  Every such document is *bad input*, and this module says so where it is read:

* :func:`loads` decodes a whole document, :func:`raw_decode` the value starting at an offset
  (for JSON embedded in a model reply), :func:`load_file` reads a user's file through
  :func:`causalcheck.base.files.read_input_text` (regular files only, a size limit) and decodes it.
* Nesting deeper than :data:`MAX_DEPTH`, integer literals longer than
  :data:`MAX_INT_DIGITS` digits, numbers that are not finite, the non-JSON constants
  ``NaN`` / ``Infinity`` / ``-Infinity``, and lone surrogates raise
  :class:`~causalcheck.base.errors.InputFormatError` naming the *source* and the limit.
* Malformed JSON raises :class:`JSONSyntaxError` (an ``InputFormatError``) with line and
  column, so a caller that tries "one JSON document, else JSON lines" can tell the two apart.

>>> loads('{"score": 7, "reason": "ok"}', source="reply")
{'score': 7, 'reason': 'ok'}
>>> loads('[' * 500 + ']' * 500, source="deep.json")
Traceback (most recent call last):
...
causalcheck.base.errors.InputFormatError: deep.json: JSON nested deeper than MAX_DEPTH=100 levels
>>> loads('{"id": 1e400}', source="big.json")
Traceback (most recent call last):
...
causalcheck.base.errors.InputFormatError: big.json: number 1e400 is not finite (JSON numbers must be)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import read_input_text

__all__ = ["MAX_DEPTH", "MAX_INT_DIGITS", "JSONSyntaxError", "check_value", "has_surrogate_escape", "load_file", "loads", "plain_value_ok", "raw_decode"]

#: Deepest nesting of arrays and objects accepted.  The official WhatIfBench / PRISM result
#: files and CausaLab records nest at most 8 levels; 100 leaves room and stays far below
#: Python's recursion limit (which the standard decoder and encoder both run into).
MAX_DEPTH = 100

#: Longest integer literal accepted, in digits.  No field of any format causalcheck reads
#: needs more than 19 (a 64-bit id); past 308 digits an integer no longer converts to a float.
MAX_INT_DIGITS = 100


class JSONSyntaxError(InputFormatError):
    """The text is not well-formed JSON (``line`` / ``column`` say where; ``msg`` is the
    decoder's own message and ``pos`` the character offset, for callers that render their
    own error)."""

    def __init__(self, message: str, *, line: int = 0, column: int = 0, msg: str = "", pos: int = 0) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.msg = msg
        self.pos = pos


class _Refused(Exception):
    """Raised inside a decoder hook; turned into :class:`InputFormatError` with the source."""


def _parse_int(text: str) -> int:
    digits = len(text) - (text[0] == "-")
    if digits > MAX_INT_DIGITS:
        raise _Refused(f"integer literal {text[:12]}… has {digits} digits; the limit is MAX_INT_DIGITS={MAX_INT_DIGITS}")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"number {text[:40]} is not finite (JSON numbers must be)")
    return value


def _parse_constant(name: str) -> Any:
    raise _Refused(f"{name} is not JSON (numbers must be finite)")


_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
_INT_LIMIT = 10**MAX_INT_DIGITS
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _lone_surrogate(s: str) -> int:
    """Index of the first lone surrogate in *s*, or -1."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError as exc:
        return exc.start
    return -1


def _walk(value: Any, source: str, max_depth: int, scalars: tuple[type, ...], visit: Callable[[Any, str], None] | None) -> None:
    """Every container of *value* (iteratively) against *max_depth*; with *scalars*, every string
    key for lone surrogates and every value of those types through *visit* — in one order."""
    pushed = (dict, list, *scalars)
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        obj, depth = stack.pop()
        if isinstance(obj, dict):
            items: Any = obj.items()
        elif isinstance(obj, list):
            items = enumerate(obj)
        else:
            if visit is not None:
                visit(obj, source)
            continue
        if depth > max_depth:
            raise InputFormatError(f"{source}: JSON nested deeper than MAX_DEPTH={max_depth} levels")
        for key, child in items:
            if scalars and isinstance(key, str) and _lone_surrogate(key) >= 0:
                _surrogate(source, key)
            if isinstance(child, pushed):
                stack.append((child, depth + 1))


def _check_string(obj: Any, source: str) -> None:
    if isinstance(obj, str) and _lone_surrogate(obj) >= 0:
        _surrogate(source, obj)


def _check(value: Any, source: str, max_depth: int, strings: bool) -> None:
    """Depth and, when *strings*, lone surrogates in every key and string."""
    if strings:
        _walk(value, source, max_depth, (str,), _check_string)
    else:
        _walk(value, source, max_depth, (), None)


def check_value(value: Any, *, source: str = "<json>", max_depth: int = MAX_DEPTH) -> None:
    """Apply this module's limits to a value decoded by another reader (a lenient grammar, say).

    Raises :class:`~causalcheck.base.errors.InputFormatError` naming *source* for nesting deeper
    than *max_depth*, an integer of more than :data:`MAX_INT_DIGITS` digits, a float that is
    not finite and a string or key holding a lone surrogate.

    >>> check_value({"a": [1, 2.5, "x"]})
    >>> check_value([float("inf")], source="reply")
    Traceback (most recent call last):
    ...
    causalcheck.base.errors.InputFormatError: reply: number inf is not finite (JSON numbers must be)
    """
    _walk(value, source, max_depth, (object,), _check_scalar)


def _check_scalar(obj: Any, source: str) -> None:
    if isinstance(obj, str):
        if _lone_surrogate(obj) >= 0:
            _surrogate(source, obj)
    elif isinstance(obj, bool):
        return
    elif isinstance(obj, int):
        if not -_INT_LIMIT < obj < _INT_LIMIT:
            raise InputFormatError(f"{source}: an integer has more than MAX_INT_DIGITS={MAX_INT_DIGITS} digits")
    elif isinstance(obj, float) and not math.isfinite(obj):
        raise InputFormatError(f"{source}: number {obj!r} is not finite (JSON numbers must be)")


def _surrogate(source: str, s: str) -> None:
    i = _lone_surrogate(s)
    raise InputFormatError(
        f"{source}: string {s[max(i - 20, 0) : i]!r}… holds a lone surrogate \\u{ord(s[i]):04x} "
        "(half of a UTF-16 pair; not a character)"
    )


_PLAIN = json.JSONDecoder()


def has_surrogate_escape(text: str) -> bool:
    """True when *text* holds a ``\\uD800``–``\\uDFFF`` escape (only such an escape can decode to a lone surrogate)."""
    return _SURROGATE_ESCAPE.search(text) is not None


def plain_value_ok(value: Any, max_depth: int = MAX_DEPTH, skip: frozenset[int] | set[int] = frozenset()) -> bool:
    """True when a value decoded by the plain :mod:`json` decoder passes this module's limits.

    Checks nesting depth, integers (fewer than :data:`MAX_INT_DIGITS` digits) and floats
    (finite: ``NaN``, ``Infinity`` and ``1e400`` all decode to non-finite floats); not strings —
    a lone surrogate can only come from a ``\\u`` escape, which the caller looks for in the
    text.  Containers whose ``id`` is in *skip* were checked before and are not walked again.
    ``False`` means "let the hooked decoder decide" (it gives the precise message).
    """
    limit = _INT_LIMIT
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        obj, depth = stack.pop()
        t = type(obj)
        if t is dict:
            children: Any = obj.values()
        elif t is list:
            children = obj
        elif t is float:
            if obj - obj != 0.0:  # inf - inf and nan - nan are nan
                return False
            continue
        elif t is int:
            if not -limit < obj < limit:
                return False
            continue
        else:
            continue
        if depth > max_depth:
            return False
        for child in children:
            ct = type(child)
            if ct is dict or ct is list:
                if id(child) not in skip:
                    stack.append((child, depth + 1))
            elif ct is float:
                if child - child != 0.0:
                    return False
            elif ct is int and not -limit < child < limit:
                return False
    return True


def _decode(text: str, pos: int, source: str, max_depth: int, whole: bool) -> tuple[Any, int]:
    # Fast path: the C decoder without hooks, then a walk of the decoded value for anything
    # the hooks would refuse (numbers, depth) and a search for \u escapes (surrogates); on
    # any doubt the hooked decoder decides.  Both give the same values: the hooks only refuse.
    try:
        if whole:
            value, end = _PLAIN.decode(text), len(text)
        else:
            value, end = _PLAIN.raw_decode(text, pos)
    except (ValueError, RecursionError):
        pass
    else:
        escapes = text.find("\\u", pos, end) >= 0  # \u2500 is common (ensure_ascii); a surrogate one is rare
        if (not escapes or _SURROGATE_ESCAPE.search(text, pos, end) is None) and plain_value_ok(value, max_depth):
            return value, end
    try:
        if whole:
            value, end = _DECODER.decode(text), len(text)
        else:
            value, end = _DECODER.raw_decode(text, pos)
    except _Refused as exc:
        raise InputFormatError(f"{source}: {exc}") from None
    except RecursionError:
        raise InputFormatError(f"{source}: JSON nested deeper than MAX_DEPTH={max_depth} levels") from None
    except json.JSONDecodeError as exc:
        raise JSONSyntaxError(
            f"{source}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            line=exc.lineno,
            column=exc.colno,
            msg=exc.msg,
            pos=exc.pos,
        ) from None
    except ValueError as exc:  # e.g. an integer longer than Python's own digit limit
        raise InputFormatError(f"{source}: {exc}") from None
    return _checked(value, text, pos, end, source, max_depth)


def _checked(value: Any, text: str, pos: int, end: int, source: str, max_depth: int) -> tuple[Any, int]:
    """*value* after the depth and surrogate checks (walked only when the text could fail them)."""
    strings = _SURROGATE_ESCAPE.search(text, pos, end) is not None
    # a document with at most max_depth brackets cannot nest deeper: skip the walk
    if strings or text.count("[", pos, end) + text.count("{", pos, end) > max_depth:
        _check(value, source, max_depth, strings=strings)
    return value, end


def loads(text: str, *, source: str = "<json>", max_depth: int = MAX_DEPTH) -> Any:
    """Decode the JSON document *text* (module docstring); errors name *source*."""
    if not isinstance(text, str):
        raise InputFormatError(f"{source}: JSON text={text!r:.40} must be a string")
    value, _ = _decode(text, 0, source, max_depth, whole=True)
    return value


def raw_decode(text: str, pos: int = 0, *, source: str = "<json>", max_depth: int = MAX_DEPTH) -> tuple[Any, int]:
    """Decode the JSON value that starts at ``text[pos]``; returns ``(value, end offset)``.

    >>> raw_decode('Sure: {"a": [1, 2]} thanks', 6)
    ({'a': [1, 2]}, 19)
    """
    return _decode(text, pos, source, max_depth, whole=False)


def load_file(path: str | Path, *, what: str = "input", max_depth: int = MAX_DEPTH) -> Any:
    """Read the user's file at *path* with :func:`causalcheck.base.files.read_input_text` and :func:`loads` it."""
    return loads(read_input_text(path, what=what), source=f"{what} {str(path)!r}", max_depth=max_depth)
