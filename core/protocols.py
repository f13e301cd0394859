"""The protocols causalcheck is written against — what a user, an adapter or a plug-in supplies.

The core never depends on a concrete model client, agent or judge: it receives objects that
*have the right methods* (:class:`typing.Protocol`, checked structurally) and the small frozen
values that cross those boundaries.  Everything here is light to import.

**Language models.**  A chat model is a function from a :class:`Request` (messages plus
sampling parameters) to a :class:`Completion` (text, :class:`Usage`, finish reason)::

    await llm.complete(request) -> Completion           # the whole LLM protocol

``provider``, ``model`` and ``endpoint`` name the model (they are part of a call-cache key).
Implementations raise :class:`TransientLLMError` for failures worth retrying (rate limits,
5xx, timeouts) and :class:`LLMError` for the rest.  The adapters in
:mod:`causalcheck.adapters` (OpenAI-compatible servers, Anthropic, a scripted fake, and
:class:`~causalcheck.adapters.LLMClient` with its cache, retries and cost meter) implement it;
so does any object of yours with those four members.

Two **optional capabilities** let a richer client do more, without the core ever asking for
its class:

* :class:`ParsingLLM` — ``complete_parsed(request, parse)``: the client runs the caller's
  ``parse`` on the answer and asks again when it is rejected (and caches only accepted
  answers).  :func:`complete_parsed` uses it when the model has it, else makes one call and
  parses once;
* :class:`MeteredLLM` — a ``meter`` whose ``summary()`` is the run's call / token / cost
  accounting.  :func:`meter_summary` returns it, or ``{}`` for a model without one.

>>> class Echo:  # a model of your own: only complete() and its names
...     provider, model, endpoint = "mine", "echo", ""
...     async def complete(self, request: Request) -> Completion:
...         return Completion(request.messages[-1].content)
>>> isinstance(Echo(), LLM), isinstance(Echo(), ParsingLLM), isinstance(Echo(), MeteredLLM)
(True, False, False)
>>> import asyncio
>>> request = Request.chat([{"role": "user", "content": "42"}])
>>> asyncio.run(complete_parsed(Echo(), request, lambda c: int(c.text)))[1]
42
>>> meter_summary(Echo())
{}

The pipelines' own plug-in protocols live in their pipelines, next to the values they
exchange: the lab's :class:`~causalcheck.lab.episode.Agent` (``causalcheck.lab.Agent``) and
the explain parser, judges and segmenter (:mod:`causalcheck.explain.judges`; also
``causalcheck.explain.EdgeJudge`` …).  This module sits below every other layer but the
foundations, so it names none of their types.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from causalcheck.base.errors import CausalCheckError, InputFormatError

__all__ = [
    "LLM",
    "Completion",
    "LLMError",
    "Message",
    "Meter",
    "MeteredLLM",
    "ParsingLLM",
    "Request",
    "Role",
    "TransientLLMError",
    "Usage",
    "complete_parsed",
    "meter_summary",
]

T = TypeVar("T")
Role = Literal["system", "user", "assistant"]
_ROLES = ("system", "user", "assistant")


# ====================================================================== language models
class LLMError(CausalCheckError):  # type: ignore[misc,unused-ignore]
    """A model call failed for a reason that retrying will not fix (or retries ran out)."""


class TransientLLMError(LLMError):
    """A model call failed in a way worth retrying: HTTP 429 / 5xx, a timeout, a reset connection.

    ``retry_after`` is the server's ``Retry-After`` in seconds, when it sent one; ``kind`` is a
    short tag for logs (``"429"``, ``"500"``, ``"timeout"``, ``"connection"``, ``"truncated"``).
    """

    def __init__(self, message: str, *, kind: str = "transient", retry_after: float | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.retry_after = retry_after


@dataclass(frozen=True)
class Message:
    """One chat message."""

    role: Role
    content: str

    def __post_init__(self) -> None:
        if self.role not in _ROLES:
            raise InputFormatError(f"role={self.role!r} must be one of {_ROLES}")
        if not isinstance(self.content, str):
            raise InputFormatError(f"content={self.content!r} must be a string")

    def to_dict(self) -> dict[str, str]:
        return {"role": self.role, "content": self.content}


@dataclass(frozen=True)
class Usage:
    """Token counts of one call (0 where the provider did not report them)."""

    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens)

    def to_dict(self) -> dict[str, int]:
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens}


@dataclass(frozen=True)
class Completion:
    """What a model returned: ``text``, ``usage`` and ``finish_reason``.

    ``finish_reason`` uses the OpenAI vocabulary: ``"stop"`` (natural end), ``"length"`` (hit
    ``max_tokens``; JSON may be truncated), or whatever else the provider said.  ``cached`` is
    true when the completion came from the call cache (it then cost nothing this run).
    """

    text: str
    usage: Usage = field(default_factory=Usage)
    finish_reason: str = "stop"
    cached: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "usage": self.usage.to_dict(), "finish_reason": self.finish_reason}


@dataclass(frozen=True)
class Request:
    """A provider-neutral chat request.

    ``json_schema`` asks for output that follows a JSON schema; ``json_mode`` for any JSON
    object.  Providers map these to what they support (OpenAI-compatible servers get
    ``response_format={"type": "json_object", "schema": ...}``, which llama.cpp, vLLM and
    Ollama honour and OpenAI treats as plain JSON mode).
    """

    messages: tuple[Message, ...]
    temperature: float = 0.0
    max_tokens: int = 1024
    json_schema: Mapping[str, Any] | None = None
    json_mode: bool = False
    seed: int | None = None

    def __post_init__(self) -> None:
        if not self.messages:
            raise InputFormatError("messages=() must hold at least one message")
        if not 0.0 <= float(self.temperature) <= 2.0:
            raise InputFormatError(f"temperature={self.temperature!r} must be in [0, 2]")
        if int(self.max_tokens) < 1:
            raise InputFormatError(f"max_tokens={self.max_tokens!r} must be a positive integer")

    @classmethod
    def chat(
        cls,
        messages: Sequence[Message | Mapping[str, str]],
        **params: Any,
    ) -> Request:
        """Build a request from :class:`Message` objects or ``{"role", "content"}`` dicts."""
        msgs: list[Message] = []
        for m in messages:
            if isinstance(m, Message):
                msgs.append(m)
            else:
                try:
                    msgs.append(Message(m["role"], m["content"]))  # type: ignore[arg-type]
                except (KeyError, TypeError) as exc:
                    raise InputFormatError(f"message={m!r} must have 'role' and 'content'") from exc
        return cls(tuple(msgs), **params)

    def params(self) -> dict[str, Any]:
        """The sampling parameters as a plain dict (part of the cache key)."""
        out: dict[str, Any] = {"temperature": float(self.temperature), "max_tokens": int(self.max_tokens)}
        if self.json_schema is not None:
            out["json_schema"] = json.loads(json.dumps(self.json_schema, sort_keys=True))
        if self.json_mode:
            out["json_mode"] = True
        if self.seed is not None:
            out["seed"] = int(self.seed)
        return out


@runtime_checkable
class LLM(Protocol):
    """A chat model: ``await llm.complete(request)`` → :class:`Completion`.

    ``provider`` and ``model`` name it (they are part of the cache key); ``endpoint`` tells
    apart two servers that serve a model of the same name (``""`` when there is one).
    Implementations raise :class:`TransientLLMError` for retryable failures and
    :class:`LLMError` for the rest, with any secret already removed from the message.
    """

    @property
    def provider(self) -> str: ...

    @property
    def model(self) -> str: ...

    @property
    def endpoint(self) -> str: ...

    async def complete(self, request: Request) -> Completion: ...


@runtime_checkable
class ParsingLLM(LLM, Protocol):
    """Optional capability: a model that checks its answer with the caller's ``parse``.

    ``complete_parsed(request, parse)`` returns the completion and ``parse(completion)``; an
    answer that ``parse`` rejects (``ValueError`` or :class:`LLMError`) is asked again (within
    the client's retry budget) and is never cached.  When it gives up it raises
    :class:`LLMError`.
    """

    async def complete_parsed(self, request: Request, parse: Callable[[Completion], T]) -> tuple[Completion, T]: ...


class Meter(Protocol):
    """The accounting of a run: ``summary()`` is a JSON-ready dict (calls, cache hits, retries, cost…)."""

    def summary(self) -> Mapping[str, Any]: ...


@runtime_checkable
class MeteredLLM(LLM, Protocol):
    """Optional capability: a model with a :class:`Meter` (e.g. :class:`~causalcheck.adapters.LLMClient`)."""

    @property
    def meter(self) -> Meter: ...


async def complete_parsed(llm: LLM, request: Request, parse: Callable[[Completion], T]) -> tuple[Completion, T]:
    """``(completion, parse(completion))`` — through the model's own ``complete_parsed`` when it
    is a :class:`ParsingLLM` (a rejected answer is asked again), else one call and one parse
    (a rejection propagates as the ``ValueError`` or :class:`LLMError` that ``parse`` raised)."""
    if isinstance(llm, ParsingLLM):
        return await llm.complete_parsed(request, parse)
    completion = await llm.complete(request)
    return completion, parse(completion)


def meter_summary(llm: LLM) -> dict[str, Any]:
    """The model's accounting summary when it is a :class:`MeteredLLM`, else ``{}``."""
    return dict(llm.meter.summary()) if isinstance(llm, MeteredLLM) else {}
