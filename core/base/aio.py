"""One background event loop for the synchronous entry points.

The :class:`~causalcheck.protocols.LLM` protocol is asynchronous (many calls in flight, one
semaphore per provider).  Code that is synchronous — a judge protocol method, a lab agent's
``act`` — calls :func:`run_sync`, which runs the coroutine on a single daemon loop thread
shared by the whole process, so every semaphore, HTTP connection pool and rate limit lives
on one loop.  (Also exported as :func:`causalcheck.adapters.run_sync`.)

>>> async def answer() -> int:
...     return 42
>>> run_sync(answer())
42
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run_sync"]

T = TypeVar("T")

_LOCK = threading.Lock()
_LOOP: asyncio.AbstractEventLoop | None = None
_THREAD: threading.Thread | None = None


def _loop() -> asyncio.AbstractEventLoop:
    global _LOOP, _THREAD
    with _LOCK:
        if _LOOP is None or _LOOP.is_closed() or _THREAD is None or not _THREAD.is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="causalcheck-llm-loop", daemon=True)
            thread.start()
            _LOOP, _THREAD = loop, thread
        return _LOOP


def run_sync(coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
    """Run *coro* on the shared LLM loop and wait for its result (from any thread but that loop's)."""
    loop = _loop()
    if threading.current_thread() is _THREAD:
        coro.close()
        raise RuntimeError("run_sync() called from the LLM loop thread; await the coroutine instead")
    future = asyncio.run_coroutine_threadsafe(coro, loop)
    return future.result(timeout)
