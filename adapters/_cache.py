"""A content-addressed on-disk cache of model calls (SQLite).

The key of a call is the SHA-256 of a canonical JSON document holding the provider, the
endpoint, the model, the messages and the sampling parameters — everything that determines
the answer, and nothing secret (API keys are never part of a request).  The row stores the
request document and the completion, so a cache file doubles as a readable log of what was
asked and answered.

Modes:

* ``"rw"`` (default) — read hits, call on a miss, store successful completions;
* ``"ro"`` — read hits, call on a miss, store nothing;
* ``"off"`` — always call, store nothing;
* ``"replay"`` — read hits; a miss raises :class:`~causalcheck.adapters.ReplayMissError`
  instead of calling (a replayed run is offline by construction).

A warm re-run of the same command therefore makes zero calls.  Only completions that the
caller accepted are stored, and never one cut at ``max_tokens`` (``finish_reason ==
"length"``), so a resumed run asks again instead of replaying the failure.  A cache write
that fails (a full disk) is logged and the run goes on; a path that is not a regular file
is refused.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Literal

from causalcheck.base.errors import InputFormatError
from causalcheck.protocols import Completion, Request, Usage

__all__ = ["CACHE_MODES", "CacheMode", "CallCache", "request_key"]

log = logging.getLogger("causalcheck.llm")
CacheMode = Literal["rw", "ro", "off", "replay"]
CACHE_MODES: tuple[str, ...] = ("rw", "ro", "off", "replay")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    request TEXT NOT NULL,
    text TEXT NOT NULL,
    finish_reason TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    created REAL NOT NULL
)
"""


def request_document(provider: str, endpoint: str, model: str, request: Request) -> dict[str, Any]:
    """The canonical, secret-free description of a call that the key is computed from."""
    return {
        "provider": provider,
        "endpoint": endpoint,
        "model": model,
        "messages": [m.to_dict() for m in request.messages],
        "params": request.params(),
    }


def request_key(provider: str, endpoint: str, model: str, request: Request) -> str:
    """SHA-256 hex digest of the canonical JSON of :func:`request_document`."""
    doc = request_document(provider, endpoint, model, request)
    blob = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    # a lone surrogate a caller put in a message keys the call too (its UTF-8 is what surrogatepass writes)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


class CallCache:
    """The SQLite-backed call cache; safe to share between threads of one process.

    Several processes may use one file (SQLite WAL mode, short transactions); a row is
    written in one transaction, so a killed process leaves either the whole row or none.
    """

    def __init__(self, path: str | Path, mode: CacheMode = "rw") -> None:
        if mode not in CACHE_MODES:
            raise InputFormatError(f"cache mode={mode!r} must be one of {CACHE_MODES}")
        self.path = Path(path)
        self.mode: CacheMode = mode
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self.hits = 0
        self.misses = 0
        if mode != "off" and self.path.exists() and not self.path.is_file():
            raise InputFormatError(
                f"cache={str(self.path)!r} is not a regular file (a folder, pipe or device); give an SQLite file path"
            )
        if mode != "off":
            try:
                if mode == "rw":
                    self.path.parent.mkdir(parents=True, exist_ok=True)
                elif not self.path.exists():
                    if mode == "replay":
                        raise InputFormatError(f"cache={str(self.path)!r} does not exist (replay needs a filled cache)")
                    return
                conn = sqlite3.connect(str(self.path), check_same_thread=False, timeout=30.0)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute(_SCHEMA)
                conn.commit()
                self._conn = conn
            except (sqlite3.Error, OSError) as exc:
                raise InputFormatError(f"cache={str(self.path)!r} cannot be opened as an SQLite cache: {exc}") from exc

    @property
    def readable(self) -> bool:
        return self._conn is not None and self.mode in ("rw", "ro", "replay")

    @property
    def writable(self) -> bool:
        return self._conn is not None and self.mode == "rw"

    def get(self, key: str) -> Completion | None:
        """The stored completion for *key*, or ``None``."""
        if not self.readable or self._conn is None:
            return None
        try:
            with self._lock:
                row = self._conn.execute(
                    "SELECT text, finish_reason, input_tokens, output_tokens FROM calls WHERE key = ?", (key,)
                ).fetchone()
        except sqlite3.Error as exc:
            raise InputFormatError(f"cache={str(self.path)!r} cannot be read: {exc}") from None
        if row is None:
            self.misses += 1
            return None
        try:
            completion = Completion(text=str(row[0]), usage=Usage(int(row[2]), int(row[3])), finish_reason=str(row[1]), cached=True)
        except (TypeError, ValueError):  # a damaged row: a miss, asked again and overwritten
            self.misses += 1
            return None
        self.hits += 1
        return completion

    def put(self, key: str, provider: str, endpoint: str, model: str, request: Request, completion: Completion) -> None:
        """Store *completion* under *key* (no-op unless the mode is ``rw``)."""
        if not self.writable or self._conn is None:
            return
        if completion.finish_reason == "length":  # a reply cut at max_tokens is never stored
            return
        doc = json.dumps(request_document(provider, endpoint, model, request), ensure_ascii=False, sort_keys=True)
        try:
            self._put(key, provider, model, doc, completion)
        except (sqlite3.Error, UnicodeEncodeError) as exc:  # a full disk, a locked file, a lone surrogate in a
            # caller's message: the answer is still used, only not cached
            log.warning("cache %s: could not store a call (%s); it will be asked again next run", self.path, exc)

    def _put(self, key: str, provider: str, model: str, doc: str, completion: Completion) -> None:
        assert self._conn is not None
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO calls VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key,
                    provider,
                    model,
                    doc,
                    completion.text,
                    completion.finish_reason,
                    completion.usage.input_tokens,
                    completion.usage.output_tokens,
                    time.time(),
                ),
            )
            self._conn.commit()

    def __len__(self) -> int:
        if self._conn is None:
            return 0
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM calls").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
