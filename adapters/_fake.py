"""A scripted model for tests and offline reproductions.

:class:`ScriptedLLM` answers from a script instead of a network: either a list of replies
used in order, or a *responder* function that looks at the request and returns the reply
(handy for replaying a recorded run, where the reply depends on which edge or criterion is
asked about).  A reply may be a string, a full :class:`Completion`, or an exception to raise —
so faults (429 with ``Retry-After``, 500, reset connections, timeouts, truncated JSON) can be
injected exactly where a test wants them.  Every request is recorded in ``calls``.

>>> from causalcheck.adapters import Request, ScriptedLLM, run_sync
>>> llm = ScriptedLLM(["yes", "no"])
>>> run_sync(llm.complete(Request.chat([{"role": "user", "content": "?"}]))).text
'yes'
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from typing import TypeAlias

from causalcheck.protocols import Completion, LLMError, Request, TransientLLMError, Usage

from ._base import NamedModel

__all__ = ["ScriptedLLM", "fault", "truncated"]

Reply: TypeAlias = "str | Completion | BaseException"
Responder: TypeAlias = "Callable[[Request], Reply]"


def fault(kind: str, *, retry_after: float | None = None) -> BaseException:
    """An injected failure: ``"429"``, ``"500"``, ``"503"``, ``"timeout"``, ``"connection"`` or
    ``"truncated"`` (the last is a completion cut at ``max_tokens``, returned by
    :func:`truncated`, not raised)."""
    messages = {
        "429": "HTTP 429 Too Many Requests",
        "500": "HTTP 500 Internal Server Error",
        "502": "HTTP 502 Bad Gateway",
        "503": "HTTP 503 Service Unavailable",
        "timeout": "request timed out",
        "connection": "[Errno 104] Connection reset by peer",
    }
    if kind not in messages:
        raise ValueError(f"kind={kind!r} must be one of {sorted(messages)}")
    return TransientLLMError(messages[kind], kind=kind, retry_after=retry_after)


def truncated(text: str, keep: int) -> Completion:
    """A completion cut after *keep* characters, as a server does at ``max_tokens``."""
    return Completion(text=text[:keep], usage=Usage(0, keep), finish_reason="length")


class ScriptedLLM(NamedModel):
    """A fake :class:`~causalcheck.adapters.LLM` that replays a script.

    ``replies``: a sequence (used in order; running out raises :class:`LLMError`) or a
    responder ``request -> reply``.  ``delay`` seconds are awaited per call (to exercise
    concurrency).  Usage is estimated as characters / 4 so cost accounting has numbers.
    """

    def __init__(
        self,
        replies: Sequence[Reply] | Responder = (),
        *,
        model: str = "scripted",
        provider: str = "fake",
        endpoint: str = "",
        delay: float = 0.0,
    ) -> None:
        super().__init__(provider, model, endpoint)
        self._delay = delay
        self._lock = threading.Lock()
        self._responder: Responder | None = None
        self._queue: list[Reply] = []
        if callable(replies):
            self._responder = replies
        else:
            self._queue = list(replies)
        self.calls: list[Request] = []

    def _next(self, request: Request) -> Reply:
        with self._lock:
            self.calls.append(request)
            if self._responder is not None:
                return self._responder(request)
            if not self._queue:
                raise LLMError(f"scripted model {self._model!r} ran out of replies after {len(self.calls) - 1} calls")
            return self._queue.pop(0)

    async def complete(self, request: Request) -> Completion:
        if self._delay:
            await asyncio.sleep(self._delay)
        reply = self._next(request)
        if isinstance(reply, BaseException):
            raise reply
        if isinstance(reply, Completion):
            return reply
        prompt_chars = sum(len(m.content) for m in request.messages)
        return Completion(text=reply, usage=Usage(prompt_chars // 4 + 1, len(reply) // 4 + 1), finish_reason="stop")
