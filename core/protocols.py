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

**Plug-ins.**  The pipelines' plug-in protocols live here too, below the pipelines that call
them and :mod:`causalcheck.plugins`, which finds them by name: the lab's :class:`Agent`
(``reset(task)``, ``act(observation)``; also ``causalcheck.lab.episode.Agent``) and the explain
parser, judges and segmenter — :class:`AnswerParser`, :class:`EdgeJudge`,
:class:`CriterionJudge`, :class:`Segmenter` — with the judgments the judges return,
:class:`EdgeJudgment` and :class:`CriterionJudgment` (also :mod:`causalcheck.explain.judges`) —, and
:class:`JudgeBackend`, what turns ``explain score``'s command-line options into those judges.
PRISM scores an answer with an edge judgment per graph edge (is ``source → target`` explicitly
supported by the answer? 1.0 / 0.0; the Process Metric is the share of causal edges judged
supported) and a criterion judgment per rubric criterion (an integer 1–10 following the
criterion's five bands; the Rubric Metric is their mean over 10).  A judgment that could not be
obtained (an API error, an unparseable reply) comes back with ``degraded=True`` and an
``error``: it is scored as the original does (edge 0.0, criterion 1) but the item is flagged,
never a silent zero.  This module sits below every layer but the foundations: the types the
protocols' signatures name (an observation, a graph, an item) are imported for the type checker
only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

from causalcheck.base.errors import CausalCheckError, InputFormatError

if TYPE_CHECKING:  # pragma: no cover - the types the plug-in protocols name, for the type checker only
    import argparse

    from causalcheck.explain.data import Criterion, WhatIfItem
    from causalcheck.explain.explanation_graph import ExplanationGraph
    from causalcheck.explain.rst import EDU, RSTRecord
    from causalcheck.explain.run import Judges
    from causalcheck.lab.episode import AgentStep, Observation, TaskInfo

__all__ = [
    "LLM",
    "Agent",
    "AnswerParser",
    "Completion",
    "CriterionJudge",
    "CriterionJudgment",
    "EdgeJudge",
    "EdgeJudgment",
    "JudgeBackend",
    "LLMError",
    "Message",
    "Meter",
    "MeteredLLM",
    "ParsingLLM",
    "Request",
    "Role",
    "Segmenter",
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


# ====================================================================== the lab's agent protocol
@runtime_checkable
class Agent(Protocol):
    """Anything that can play a lab episode: ``reset(task)`` once, then ``act(observation)`` every step (causalab-spec §3)."""

    def reset(self, task: TaskInfo) -> None:
        """Start a new episode with the task description."""

    def act(self, observation: Observation) -> AgentStep:
        """Choose the next step from the current observation."""


# ====================================================================== the explain judgments and protocols
@dataclass(frozen=True, slots=True)
class EdgeJudgment:
    """One edge verdict: ``score`` 1.0 (supported) or 0.0; ``raw`` the judge's reply (``"yes"``/``"no"``).

    ``degraded`` marks a verdict that is a fallback (the judge failed: ``error`` says why).
    ``rationale`` is a short explanation (the offline judge names the rule that decided).
    """

    score: float
    raw: str = ""
    error: str | None = None
    degraded: bool = False
    rationale: str = ""

    def to_official(self) -> dict[str, Any]:
        """The official per-edge record ``{"score", "rationale", "raw": {"score", "raw", ["error"]}}``."""
        inner: dict[str, Any] = {"score": self.score, "raw": self.raw}
        if self.error is not None:
            inner["error"] = self.error
        return {"score": self.score, "rationale": self.rationale, "raw": inner}

    @classmethod
    def from_official(cls, obj: Any, where: str = "edge record") -> EdgeJudgment:
        """Read an official per-edge record (replay).  A record with an ``error`` is degraded.

        A score that is not a number counts as 0 and one outside 0..1 is clamped, as in the
        original; an integer beyond float range (``10**400``) is refused, naming *where*.
        """
        if not isinstance(obj, Mapping):
            return cls(0.0, "", f"edge record={obj!r:.60} is not an object", True)
        inner = obj.get("raw") if isinstance(obj.get("raw"), Mapping) else {}
        value = obj.get("score", 0.0)
        try:
            score = min(max(float(value), 0.0), 1.0)
        except (TypeError, ValueError):
            score = 0.0
        except OverflowError:
            raise InputFormatError(f"{where}.score={value!r:.60} must be a finite number in float range") from None
        if score != score:  # NaN counts as 0, as in the original
            score = 0.0
        err = inner.get("error") if isinstance(inner, Mapping) else None
        raw = inner.get("raw", "") if isinstance(inner, Mapping) else ""
        return cls(
            score=score,
            raw=str(raw),
            error=None if err is None else str(err),
            degraded=err is not None,
            rationale=str(obj.get("rationale", "")),
        )


@dataclass(frozen=True, slots=True)
class CriterionJudgment:
    """One criterion verdict: an integer ``score`` 1..10, a ``reason``, the judge's parsed ``raw`` object."""

    score: int
    reason: str = ""
    raw: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None
    degraded: bool = False


# ====================================================================== the plug-in protocols
@runtime_checkable
class AnswerParser(Protocol):
    """Turns an answer into an RST record (EDUs + relations)."""

    def parse(self, answer: str) -> RSTRecord:
        """Parse *answer*.  May raise :class:`~causalcheck.base.errors.CausalCheckError`; the scorer then
        falls back to :func:`~causalcheck.explain.rst.heuristic_fallback` and flags the item degraded."""
        ...


@runtime_checkable
class EdgeJudge(Protocol):
    """Judges graph edges against the answer text."""

    def judge_edges(
        self,
        item: WhatIfItem,
        answer: str,
        graph: ExplanationGraph,
        edges: Sequence[int],
    ) -> list[EdgeJudgment]:
        """One judgment per index in *edges* (indices into ``graph.edges``), in the same order."""
        ...


@runtime_checkable
class CriterionJudge(Protocol):
    """Scores an answer on one rubric criterion."""

    def judge_criterion(
        self,
        item: WhatIfItem,
        answer: str,
        criterion: Criterion,
        index: int,
    ) -> CriterionJudgment:
        """The verdict for criterion number *index* (1-based) of the item's rubric."""
        ...


@runtime_checkable
class Segmenter(Protocol):
    """Splits text into EDUs with character offsets."""

    name: str

    def segment(self, text: str) -> list[EDU]:
        """EDUs of *text* in order, ids ``EDU1``…, ``text[e.start:e.end] == e.text``."""
        ...


@runtime_checkable
class JudgeBackend(Protocol):
    """A source of judges for ``explain score``: options it adds, and the judges it builds from them.

    ``explain score`` asks every registered back-end (:mod:`causalcheck.plugins`, kind
    ``judge_backend``) to add its options, then asks each in turn for judges; the first that answers
    (not ``None``) judges the run, and the offline judges answer when none does.  The options object
    is only read: a back-end needs no argparse beyond ``add_argument``.
    """

    def add_cli_options(self, parser: argparse.ArgumentParser) -> None:
        """Add the back-end's options (an argument group of ``explain score``)."""
        ...

    def judges_from_args(self, args: argparse.Namespace) -> Judges | None:
        """The judges the options ask for, or ``None`` when none of the back-end's options was given."""
        ...
