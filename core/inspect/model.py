"""An inspect_ai model as a causalcheck :class:`~causalcheck.protocols.LLM` — the one adapter.

Everything in causalcheck that talks to a model receives an object with ``provider``,
``model``, ``endpoint`` and ``await complete(Request) -> Completion``.  :class:`InspectLLM`
is that object for an inspect ``Model`` (the model under evaluation, a model role, any
``get_model(...)``), so the LLM lab agent and the LLM parser and judges run inside an inspect
evaluation unchanged: every call becomes an inspect ``generate()`` — with inspect's retries,
limits, cache, usage accounting and a ``ModelEvent`` in the sample's transcript.

The mapping: the request's messages become ``ChatMessageSystem`` / ``User`` / ``Assistant``;
``temperature``, ``max_tokens`` and ``seed`` go into the call's ``GenerateConfig`` (they take
precedence over the evaluation's own settings, as a solver's explicit settings do).
``json_mode`` (any JSON object) has no provider-neutral form in inspect, and a ``json_schema``
sent as inspect's ``ResponseSchema`` becomes the ``json_schema`` response format that
llama.cpp's server rejects (HTTP 500), so both are left to the prompt — which asks for JSON
anyway — unless ``response_schemas=True`` passes schemas on.
The reply's ``completion``, ``usage`` and stop reason become the :class:`Completion`
(``max_tokens`` / ``model_length`` → ``"length"``, the OpenAI vocabulary the core reads).
A refusal that inspect reports in ``ModelOutput.error`` raises
:class:`~causalcheck.protocols.LLMError` (the agent records a degraded ``WAIT`` step, a judge
falls back); any other failure is inspect's to handle and propagates.

**Threads and loops.**  causalcheck's agents and judges are synchronous: they call the model
through :func:`causalcheck.base.aio.run_sync`, which runs ``complete()`` on causalcheck's own
background loop.  An inspect model belongs to inspect's loop and to the sample's context
(transcript, limits, active model).  So :class:`InspectLLM` is created inside a solver or
scorer: it remembers the running loop and a copy of the sample's context, and a
``complete()`` that arrives on another loop is handed back to inspect's loop inside that
context.  The synchronous work itself — the episode loop, scoring an answer — must then run
in a worker thread (:func:`run_in_thread`), never on inspect's loop, which it would block.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
from collections.abc import Callable
from typing import TypeVar

import anyio
from causalcheck.base.errors import CausalCheckError
from causalcheck.protocols import Completion, LLMError, Message, Request, Usage
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    ResponseSchema,
    get_model,
)
from inspect_ai.util import JSONSchema

__all__ = ["InspectLLM", "SampleClosedError", "completion_of", "generate_config", "inspect_messages", "run_in_thread"]

T = TypeVar("T")

_FINISH = {"max_tokens": "length", "model_length": "length", "stop": "stop"}


def inspect_messages(messages: tuple[Message, ...] | list[Message]) -> list[ChatMessage]:
    """Our chat messages as inspect chat messages (same roles, same text)."""
    out: list[ChatMessage] = []
    for m in messages:
        if m.role == "system":
            out.append(ChatMessageSystem(content=m.content))
        elif m.role == "assistant":
            out.append(ChatMessageAssistant(content=m.content))
        else:
            out.append(ChatMessageUser(content=m.content))
    return out


def generate_config(request: Request, *, response_schemas: bool = False) -> GenerateConfig:
    """The ``GenerateConfig`` of one request (module docstring).

    >>> generate_config(Request.chat([{"role": "user", "content": "?"}], temperature=0.2, max_tokens=9, seed=4)).model_dump(exclude_none=True)
    {'max_tokens': 9, 'temperature': 0.2, 'seed': 4}
    """
    schema = None
    if response_schemas and request.json_schema is not None:
        schema = ResponseSchema(name="causalcheck", json_schema=JSONSchema.model_validate(dict(request.json_schema)))
    return GenerateConfig(
        temperature=float(request.temperature),
        max_tokens=int(request.max_tokens),
        seed=request.seed,
        response_schema=schema,
    )


def completion_of(output: ModelOutput) -> Completion:
    """The :class:`Completion` of an inspect ``ModelOutput`` (raises :class:`LLMError` for a reported error)."""
    if output.error:
        raise LLMError(f"model error: {output.error}")
    usage = output.usage
    stop = output.stop_reason if output.choices else "unknown"
    return Completion(
        text=output.completion,
        usage=Usage(usage.input_tokens, usage.output_tokens) if usage is not None else Usage(),
        finish_reason=_FINISH.get(stop, stop),
    )


class SampleClosedError(CausalCheckError):
    """A call through an :class:`InspectLLM` whose sample has ended (not an :class:`LLMError`: it stops the work)."""


class InspectLLM:
    """An inspect ``Model`` behind the :class:`~causalcheck.protocols.LLM` protocol (module docstring).

    *model* is a ``Model`` or a model string; ``None`` means the model being evaluated (or the
    model bound to *role*, when given and bound).  *response_schemas* passes a request's JSON
    schema on as a ``ResponseSchema`` (module docstring).  Create it inside a solver or scorer.
    ``outputs`` keeps every ``ModelOutput`` it received, in order.
    """

    def __init__(self, model: Model | str | None = None, *, role: str | None = None, response_schemas: bool = False) -> None:
        try:
            self._loop = asyncio.get_running_loop()
        except RuntimeError:
            raise CausalCheckError(
                "InspectLLM must be created inside an inspect solver or scorer (on inspect's running event loop)"
            ) from None
        self._context = contextvars.copy_context()
        self.inspect_model: Model = get_model(model, role=role) if role is not None or not isinstance(model, Model) else model
        self.outputs: list[ModelOutput] = []
        self.response_schemas = response_schemas
        self.closed = False

    def close(self) -> None:
        """Refuse further calls (the sample was cancelled: a worker thread still playing stops at its next call)."""
        self.closed = True

    @property
    def provider(self) -> str:
        return str(self.inspect_model).partition("/")[0]

    @property
    def model(self) -> str:
        return self.inspect_model.name

    @property
    def endpoint(self) -> str:
        return self.inspect_model.api.base_url or ""

    async def _generate(self, request: Request) -> ModelOutput:
        config = generate_config(request, response_schemas=self.response_schemas)
        output = await self.inspect_model.generate(inspect_messages(request.messages), config=config)
        self.outputs.append(output)
        return output

    async def complete(self, request: Request) -> Completion:
        """One inspect ``generate()`` (on inspect's loop, in the sample's context; module docstring)."""
        if self.closed:
            raise SampleClosedError("the inspect sample this model belongs to has ended; no further calls")
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:  # pragma: no cover - complete() is a coroutine: a loop is always running
            here = None
        if here is self._loop:
            return completion_of(await self._generate(request))
        done: concurrent.futures.Future[ModelOutput] = concurrent.futures.Future()

        def start() -> None:
            task = self._loop.create_task(self._generate(request))  # in self._context: the task copies it

            def finish(t: asyncio.Task[ModelOutput]) -> None:
                if t.cancelled():
                    done.cancel()
                    return
                exc = t.exception()
                if exc is not None:
                    done.set_exception(exc)
                else:
                    done.set_result(t.result())

            task.add_done_callback(finish)

        self._loop.call_soon_threadsafe(start, context=self._context)
        return completion_of(await asyncio.wrap_future(done))


async def run_in_thread(fn: Callable[[], T], *, models: tuple[InspectLLM, ...] = ()) -> T:
    """Run the synchronous *fn* in a worker thread (with the current context) and await its result.

    When the sample is cancelled while *fn* runs (a time limit, an interrupt), the wait ends at
    once and *models* are closed, so the thread stops at its next model call.
    """
    try:
        return await anyio.to_thread.run_sync(fn, abandon_on_cancel=True)
    except BaseException:
        for m in models:
            m.close()
        raise
