"""Reading inspect_ai evaluation logs: detection, reading, and the part of each sample causalcheck uses.

An inspect log is a ``.eval`` file (a zip) or a ``.json`` file written by ``inspect eval``.
Two readers build on this module: :mod:`causalcheck.episodes.inspect_logs` turns the samples
of a ``causalcheck/lab`` log into lab episodes (what ``lab score LOG`` reads), and
:mod:`causalcheck.explain.inspect_answers` turns the samples of a ``causalcheck/whatif`` log
into answers (what ``explain score --answers LOG`` reads).

:func:`is_inspect_log` only looks at a file's first bytes and imports nothing, so callers can
ask it of any input.  :func:`log_samples` reads a log with ``inspect_ai.log.read_eval_log`` —
imported on first use, with an install hint when inspect_ai is absent — skipping events,
messages and attachments, once per file and process while the file is unchanged.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "run.json").write_text('{"suite": "mini"}')
>>> _ = (folder / "log.json").write_text('{"version": 2, "status": "success", "eval": {}}')
>>> is_inspect_log(folder / "run.json"), is_inspect_log(folder / "log.json")
(False, True)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.errors import InputFormatError

if TYPE_CHECKING:  # pragma: no cover
    from inspect_ai.log import EvalLog

__all__ = ["INSTALL_HINT", "LogSample", "is_inspect_log", "log_samples", "read_inspect_log"]

#: What to install to read (or write) inspect logs.
INSTALL_HINT = "pip install 'causalcheck[inspect]'"

_JSON_LOG = re.compile(rb'\A\s*\{\s*"version"\s*:\s*\d+\s*,')


def is_inspect_log(path: str | Path) -> bool:
    """True when *path* is an inspect log: a ``.eval`` zip, or a ``.json`` that opens like one (cheap)."""
    p = Path(path)
    if p.suffix not in (".eval", ".json") or not p.is_file():
        return False
    try:
        with p.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    if p.suffix == ".eval":
        return head.startswith(b"PK")
    return _JSON_LOG.match(head) is not None and b'"eval"' in head


def read_inspect_log(path: str | Path, *, samples: bool = True) -> EvalLog:
    """The log at *path* (without events, messages and attachments); raises :class:`InputFormatError`."""
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise InputFormatError(f"path={str(path)!r} is an inspect_ai log; reading it needs inspect_ai: {INSTALL_HINT}") from None
    try:
        return read_eval_log(
            str(path), header_only=not samples, exclude_fields={"events", "messages", "attachments", "store"}
        )
    except Exception as exc:  # inspect raises plain ValueError / KeyError / zip errors for damaged files
        raise InputFormatError(f"path={str(path)!r} cannot be read as an inspect log: {type(exc).__name__}: {exc}") from exc


@dataclass(frozen=True)
class LogSample:
    """What is kept of one sample of a log: its id, epoch, metadata, output text and error."""

    id: str
    epoch: int
    metadata: Mapping[str, Any]
    completion: str | None
    error: str | None


@functools.lru_cache(maxsize=4)
def _samples(path: str, mtime_ns: int, size: int) -> tuple[str, tuple[LogSample, ...]]:
    log = read_inspect_log(path)
    out = []
    for s in log.samples or []:
        text = s.output.completion if s.output is not None and s.output.choices else None
        out.append(LogSample(str(s.id), int(s.epoch), dict(s.metadata or {}), text, s.error.message if s.error else None))
    return str(log.eval.model), tuple(out)


def log_samples(path: str | Path) -> tuple[str, tuple[LogSample, ...]]:
    """``(model, samples)`` of the log at *path*, read once per process while the file is unchanged."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise InputFormatError(f"path={str(p)!r} cannot be read: {exc.strerror or exc}") from exc
    return _samples(str(p), st.st_mtime_ns, st.st_size)
