"""The fast twin of :mod:`causalcheck.episodes.files` for the many small files of run folders.

``lab score`` reads five files per official seed folder; at thousands of folders the plain
readers' per-file overhead (path objects, a ``stat`` before the ``open``, a read buffer as
large as the byte limit, a hooked JSON decoder) costs more than the decoding itself.  These
readers take a path *string*, open it once (``O_NONBLOCK``: a FIFO cannot block), read exactly
its size, hash the same bytes and decode concatenated JSON with the C decoder, checking the
decoded values with :func:`causalcheck.base.safejson.plain_value_ok`.

Anything unusual — a file that is missing, not regular, over the limit, binary, not UTF-8,
not (clean) JSON, or holding a value :mod:`causalcheck.base.safejson` refuses — is handed to
the plain twin in :mod:`causalcheck.episodes.files` (``read_input``, ``read_json_values_input``,
:func:`~causalcheck.base.jsontext.iter_json_values`), which gives the same value or the precise
error.  So both give equal results on every input (``tests/test_episodes_fast_paths.py`` holds
the plain readers as the oracle).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from typing import Any

from causalcheck.base.files import DEFAULT_MAX_INPUT_BYTES
from causalcheck.base.jsontext import iter_json_values
from causalcheck.base.safejson import MAX_DEPTH, has_surrogate_escape, plain_value_ok
from causalcheck.episodes import files as plain
from causalcheck.episodes.model import InputFile

__all__ = ["fast_read_input", "fast_read_json_values_input", "json_values"]

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_DECODER = json.JSONDecoder()
_WS = re.compile(r"\s*")


def _bytes(path: str) -> bytes | None:
    """The bytes of the regular file *path* within the limit, or ``None`` (the plain reader then decides)."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > DEFAULT_MAX_INPUT_BYTES:
            return None
        data = os.read(fd, st.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) == st.st_size else None  # grew or shrank while read: the plain reader decides


def _text(path: str) -> tuple[str, InputFile] | None:
    data = _bytes(path)
    if data is None or b"\x00" in data[:8192]:
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    return text, InputFile(path, hashlib.sha256(data).hexdigest(), len(data))


def fast_read_input(path: str) -> tuple[str, InputFile]:
    """:func:`causalcheck.episodes.files.read_input` of the file *path* (a string), faster."""
    got = _text(path)
    return got if got is not None else plain.read_input(path)


def _values(text: str) -> list[Any] | None:
    """The JSON values of *text* when it is clean concatenated JSON that the safe decoder accepts, else ``None``."""
    if "\\u" in text and has_surrogate_escape(text):
        return None
    out: list[Any] = []
    pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
    n = len(text)
    try:
        while pos < n:
            value, end = _DECODER.raw_decode(text, pos)
            if not plain_value_ok(value, MAX_DEPTH):
                return None
            out.append(value)
            pos = _WS.match(text, end).end()  # type: ignore[union-attr]
    except (ValueError, RecursionError):
        return None
    return out


def fast_read_json_values_input(path: str) -> tuple[list[Any], InputFile]:
    """:func:`causalcheck.episodes.files.read_json_values_input` of the file *path* (a string), faster."""
    got = _text(path)
    if got is not None:
        values = _values(got[0])
        if values is not None:
            return values, got[1]
    return plain.read_json_values_input(path)


def json_values(text: str, *, source: str) -> list[Any]:
    """:func:`causalcheck.base.jsontext.iter_json_values` of *text* as a list, the C decoder first (errors name *source*)."""
    values = _values(text)
    return values if values is not None else list(iter_json_values(text, source=source))
