"""Values and the one protocol that everything model-facing is written against.

A chat model is, for causalcheck, a function from a list of messages (plus a few sampling
parameters) to a :class:`Completion`: the text, the tokens it cost and why it stopped.
Code in ``causalcheck`` (the PRISM parser and judges, answer generation, the lab agent) only
ever sees an object satisfying :class:`LLM`; which provider answers — an OpenAI-compatible
server, Anthropic, a scripted fake, or the on-disk cache — is decided at the edge.

Errors a provider raises are sorted into two kinds: :class:`TransientLLMError` (rate limits,
5xx, timeouts, reset connections — worth retrying, optionally after ``retry_after`` seconds)
and :class:`LLMError` (anything else: a bad request, an unknown model, a missing key).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from causalcheck.errors import BudgetExceededError, CausalCheckError, InputFormatError

__all__ = [
    "LLM",
    "Completion",
    "CostLimitError",
    "LLMError",
    "Message",
    "ReplayMissError",
    "Request",
    "TransientLLMError",
    "Usage",
]

Role = Literal["system", "user", "assistant"]
_ROLES = ("system", "user", "assistant")


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


class ReplayMissError(LLMError, BudgetExceededError):  # type: ignore[misc,unused-ignore]
    """Replay mode was asked for a call that is not in the cache (a replay never goes online).

    It is also a :class:`~causalcheck.errors.BudgetExceededError` — a replay has no budget
    for network calls — so pipelines stop on it (CLI exit code 3) instead of degrading.
    """


class CostLimitError(BudgetExceededError):  # type: ignore[misc,unused-ignore]
    """The run reached ``--max-cost``; no further calls are made (CLI exit code 3)."""


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
