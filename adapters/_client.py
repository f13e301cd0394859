"""Robust execution of model calls: cache, concurrency limit, retries, cost accounting.

:class:`LLMClient` wraps any :class:`~causalcheck.protocols.LLM` and is itself one, so the
code that needs a model never knows whether it talks to the network, the cache or a fake.
It also has both optional capabilities of the protocol: it is a
:class:`~causalcheck.protocols.ParsingLLM` (``complete_parsed``, steps 4–5) and a
:class:`~causalcheck.protocols.MeteredLLM` (``meter``, a :class:`CostMeter`).
For every call it

1. looks the request up in the :class:`~causalcheck.adapters.CallCache` (a hit costs nothing
   and makes no call; in replay mode a miss raises);
2. stops cleanly with :class:`~causalcheck.adapters.CostLimitError` once the run's spend
   reached ``max_cost``;
3. waits for a slot of its provider's semaphore (at most ``concurrency`` calls in flight per
   provider, shared by every client built with the same :class:`ProviderLimits`);
4. calls the model and retries transient failures (HTTP 429, 5xx, timeouts, reset
   connections, and — at most ``max_invalid`` times — answers the caller's ``parse``
   rejected and every reply cut at ``max_tokens`` (``finish_reason == "length"``, rejected
   whatever ``parse`` says)) with exponential backoff —
   ``min(max_delay, base_delay·2^(attempt-1))·(1 + jitter·u)`` where ``u`` is drawn from a
   ``numpy`` generator seeded with (seed, request key, attempt), so the schedule is the same
   on every run — or exactly the server's ``Retry-After`` when it sent one; every retry is
   logged on the ``causalcheck.llm`` logger;
5. stores the accepted completion and adds its tokens and cost to the :class:`CostMeter`.
   A reply cut at ``max_tokens`` is never stored, and one found in a cache written by an
   older version is not served.
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar, overload

from causalcheck.base.errors import InputFormatError
from causalcheck.base.redaction import redact
from causalcheck.base.surrogates import has_lone_surrogates, scrub
from causalcheck.protocols import LLM, Completion, LLMError, Request, TransientLLMError, Usage

from ._cache import CallCache, request_key
from ._errors import CostLimitError, ReplayMissError

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.protocols import MeteredLLM, ParsingLLM

__all__ = ["CostMeter", "LLMClient", "Prices", "ProviderLimits", "RetryPolicy"]

log = logging.getLogger("causalcheck.llm")
T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how patiently to retry a transient failure."""

    max_attempts: int = 5
    base_delay: float = 1.0
    max_delay: float = 60.0
    jitter: float = 0.25
    max_retry_after: float = 300.0
    seed: int = 0
    timeout: float = 120.0
    max_invalid: int = 2

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise InputFormatError(f"max_attempts={self.max_attempts!r} must be >= 1")
        if not all(math.isfinite(v) and v >= 0 for v in (self.base_delay, self.max_delay, self.jitter)):
            raise InputFormatError(
                f"base_delay={self.base_delay!r}, max_delay={self.max_delay!r}, jitter={self.jitter!r} must be finite and >= 0"
            )
        if not (math.isfinite(self.timeout) and self.timeout > 0):
            raise InputFormatError(f"timeout={self.timeout!r} must be a finite number of seconds > 0")

    def delay(self, key: str, attempt: int, retry_after: float | None) -> float:
        """Seconds to wait before attempt ``attempt + 1`` (``attempt`` is 1-based)."""
        if retry_after is not None and retry_after >= 0:
            return float(min(retry_after, self.max_retry_after))
        import numpy as np

        rng = np.random.default_rng([self.seed, int(key[:12], 16), attempt])
        base = min(self.max_delay, self.base_delay * (2.0 ** (attempt - 1)))
        return float(base * (1.0 + self.jitter * rng.random()))


@dataclass(frozen=True)
class Prices:
    """US dollars per million input / output tokens, by ``provider/model`` (or bare model).

    Unknown models cost 0 (and are listed in the run's accounting so the gap is visible).
    """

    per_million: Mapping[str, tuple[float, float]] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Prices:
        """Build from ``{"openai/gpt-4o": [2.5, 10.0]}`` or ``{... : {"input": 2.5, "output": 10}}``."""
        out: dict[str, tuple[float, float]] = {}
        for name, val in data.items():
            try:
                if isinstance(val, Mapping):
                    pair = (float(val["input"]), float(val["output"]))
                else:
                    a, b = val
                    pair = (float(a), float(b))
            except (KeyError, TypeError, ValueError) as exc:
                raise InputFormatError(
                    f"price for {name!r}={val!r} must be [input, output] or {{'input':…, 'output':…}} in $/Mtok"
                ) from exc
            if not all(math.isfinite(x) and x >= 0 for x in pair):
                raise InputFormatError(f"price for {name!r}={val!r} must be finite and not negative")
            out[str(name)] = pair
        return cls(out)

    def lookup(self, provider: str, model: str) -> tuple[float, float] | None:
        return self.per_million.get(f"{provider}/{model}") or self.per_million.get(model)

    def cost(self, provider: str, model: str, usage: Usage) -> float:
        p = self.lookup(provider, model)
        if p is None:
            return 0.0
        return (usage.input_tokens * p[0] + usage.output_tokens * p[1]) / 1_000_000.0


@dataclass
class _ModelTally:
    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    failures: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0
    priced: bool = True


class CostMeter:
    """Token, call and cost accounting for one run, shared by all its clients (thread-safe).

    ``calls`` counts requests sent to a provider (every attempt, retries included);
    ``cache_hits`` counts calls answered from the cache; ``max_cost`` (dollars) makes the next
    call raise :class:`CostLimitError` once the spend reached it.
    """

    def __init__(self, prices: Prices | None = None, max_cost: float | None = None) -> None:
        if max_cost is not None and not (math.isfinite(max_cost) and max_cost >= 0):
            raise InputFormatError(f"max_cost={max_cost!r} must be a finite number >= 0 (dollars)")
        self.prices = prices or Prices()
        self.max_cost = max_cost
        self._lock = threading.Lock()
        self._by_model: dict[str, _ModelTally] = {}

    def _tally(self, provider: str, model: str) -> _ModelTally:
        name = f"{provider}/{model}"
        t = self._by_model.get(name)
        if t is None:
            t = self._by_model[name] = _ModelTally(priced=self.prices.lookup(provider, model) is not None)
        return t

    def check(self) -> None:
        """Raise :class:`CostLimitError` when the budget is spent."""
        if self.max_cost is not None:
            spent = self.cost
            if spent >= self.max_cost:
                raise CostLimitError(f"max_cost={self.max_cost!r} reached: ${spent:.4f} spent; stopping cleanly")

    def record_attempt(self, provider: str, model: str) -> None:
        with self._lock:
            self._tally(provider, model).calls += 1

    def record_retry(self, provider: str, model: str) -> None:
        with self._lock:
            self._tally(provider, model).retries += 1

    def record_failure(self, provider: str, model: str) -> None:
        with self._lock:
            self._tally(provider, model).failures += 1

    def record_hit(self, provider: str, model: str) -> None:
        with self._lock:
            self._tally(provider, model).cache_hits += 1

    def record_usage(self, provider: str, model: str, usage: Usage) -> None:
        with self._lock:
            t = self._tally(provider, model)
            t.input_tokens += usage.input_tokens
            t.output_tokens += usage.output_tokens
            t.cost += self.prices.cost(provider, model, usage)

    @property
    def calls(self) -> int:
        with self._lock:
            return sum(t.calls for t in self._by_model.values())

    @property
    def cache_hits(self) -> int:
        with self._lock:
            return sum(t.cache_hits for t in self._by_model.values())

    @property
    def retries(self) -> int:
        with self._lock:
            return sum(t.retries for t in self._by_model.values())

    @property
    def cost(self) -> float:
        with self._lock:
            return sum(t.cost for t in self._by_model.values())

    def summary(self) -> dict[str, Any]:
        """A JSON-ready summary: totals (calls, cache hits, retries, failed calls, cost) and one entry per ``provider/model``."""
        with self._lock:
            models = {
                name: {
                    "calls": t.calls,
                    "cache_hits": t.cache_hits,
                    "retries": t.retries,
                    "failures": t.failures,
                    "input_tokens": t.input_tokens,
                    "output_tokens": t.output_tokens,
                    "cost_usd": round(t.cost, 6),
                    "priced": t.priced,
                }
                for name, t in sorted(self._by_model.items())
            }
        return {
            "calls": sum(m["calls"] for m in models.values()),
            "cache_hits": sum(m["cache_hits"] for m in models.values()),
            "retries": sum(m["retries"] for m in models.values()),
            "failures": sum(m["failures"] for m in models.values()),
            "cost_usd": round(sum(float(m["cost_usd"]) for m in models.values()), 6),
            "max_cost_usd": self.max_cost,
            "models": models,
        }


class ProviderLimits:
    """At most ``default`` (or ``per_provider[name]``) calls in flight per provider.

    One instance is shared by all clients of a run; the semaphores are made per event loop.
    """

    def __init__(self, default: int = 4, per_provider: Mapping[str, int] | None = None) -> None:
        if default < 1:
            raise InputFormatError(f"concurrency={default!r} must be >= 1")
        self.default = default
        self.per_provider = dict(per_provider or {})
        self._lock = threading.Lock()
        self._sems: dict[tuple[int, str], asyncio.Semaphore] = {}

    def semaphore(self, provider: str) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        key = (id(loop), provider)
        with self._lock:
            sem = self._sems.get(key)
            if sem is None:
                sem = self._sems[key] = asyncio.Semaphore(self.per_provider.get(provider, self.default))
            return sem


class LLMClient:
    """An :class:`~causalcheck.protocols.LLM` with cache, limits, retries and accounting.

    ``sleep`` is injectable so tests of the backoff schedule need not wait.
    """

    def __init__(
        self,
        llm: LLM,
        *,
        cache: CallCache | None = None,
        limits: ProviderLimits | None = None,
        retry: RetryPolicy | None = None,
        meter: CostMeter | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ) -> None:
        self.llm = llm
        self.cache = cache
        self.limits = limits or ProviderLimits()
        self.retry = retry or RetryPolicy()
        self.meter = meter or CostMeter()
        self._sleep = sleep or asyncio.sleep

    @property
    def provider(self) -> str:
        return self.llm.provider

    @property
    def model(self) -> str:
        return self.llm.model

    @property
    def endpoint(self) -> str:
        return self.llm.endpoint

    @property
    def name(self) -> str:
        return f"{self.provider}/{self.model}"

    async def complete(self, request: Request) -> Completion:
        """The completion for *request* (see the module docstring for the steps)."""
        completion, _ = await self.complete_parsed(request, None)
        return completion

    @overload
    async def complete_parsed(self, request: Request, parse: Callable[[Completion], T]) -> tuple[Completion, T]: ...

    @overload
    async def complete_parsed(self, request: Request, parse: None) -> tuple[Completion, None]: ...

    async def complete_parsed(
        self, request: Request, parse: Callable[[Completion], T] | None
    ) -> tuple[Completion, T | None]:
        """Like :meth:`complete`, and also run ``parse`` on the text.

        A completion that ``parse`` rejects (raises ``ValueError`` or :class:`LLMError`) is
        neither returned nor cached; the call is retried like a transient failure.
        """
        key = request_key(self.provider, self.endpoint, self.model, request)
        cached = self._cached(key, request, parse)
        if cached is not None:
            return cached
        return await self._call(key, request, parse)

    def _cached(
        self, key: str, request: Request, parse: Callable[[Completion], T] | None
    ) -> tuple[Completion, T | None] | None:
        """The cached completion of *key* that still parses, else ``None``; in replay mode a miss raises :class:`ReplayMissError`."""
        cache = self.cache
        if cache is not None and cache.readable:
            hit = cache.get(key)
            if hit is not None and hit.finish_reason == "length":  # stored by an older version: never served
                hit = None
            if hit is not None:
                try:
                    parsed = parse(hit) if parse is not None else None
                except (ValueError, LLMError):
                    if cache.mode == "replay":
                        raise ReplayMissError(
                            f"replay: cached answer for {self.name} key={key[:16]} no longer parses"
                        ) from None
                else:
                    self.meter.record_hit(self.provider, self.model)
                    return hit, parsed
            if cache.mode == "replay":
                raise ReplayMissError(
                    f"replay: no cached answer for {self.name} key={key[:16]} "
                    f"(first message: {request.messages[0].content[:80]!r}); run without --cache-mode replay to record it"
                )
        elif cache is not None and cache.mode == "replay":
            raise ReplayMissError(f"replay: cache {str(cache.path)!r} is not readable")
        return None

    async def _call(
        self, key: str, request: Request, parse: Callable[[Completion], T] | None
    ) -> tuple[Completion, T | None]:
        """Call the model under the limits and the budget, retrying transient failures and rejected answers; cache the answer."""
        cache = self.cache
        last: BaseException | None = None
        attempts = self.retry.max_attempts
        invalid = 0
        for attempt in range(1, attempts + 1):
            sem = self.limits.semaphore(self.provider)
            async with sem:
                self.meter.check()  # after the wait for a slot: calls queued before the limit was reached stop too
                self.meter.record_attempt(self.provider, self.model)
                completion: Completion | None = None
                try:
                    completion = await asyncio.wait_for(self.llm.complete(request), self.retry.timeout + 30.0)
                except asyncio.TimeoutError:
                    last = TransientLLMError("request timed out", kind="timeout")
                except TransientLLMError as exc:
                    last = exc
                except LLMError as exc:
                    self.meter.record_failure(self.provider, self.model)
                    raise LLMError(redact(f"{self.name}: {exc}")) from None
            if completion is not None:
                self.meter.record_usage(self.provider, self.model, completion.usage)
                if has_lone_surrogates(completion.text):  # causalcheck.base.surrogates: valid text where it enters
                    log.warning("%s: the reply holds lone surrogates; each is replaced by U+FFFD", self.name)
                    completion = replace(completion, text=scrub(completion.text))
                try:
                    if completion.finish_reason == "length":
                        raise ValueError(f"reply cut at max_tokens={request.max_tokens}")
                    parsed = parse(completion) if parse is not None else None
                except (ValueError, LLMError) as exc:
                    invalid += 1
                    last = TransientLLMError(
                        f"answer rejected (finish_reason={completion.finish_reason!r}): {exc}",
                        kind="truncated" if completion.finish_reason == "length" else "invalid output",
                    )
                else:
                    if cache is not None:
                        cache.put(key, self.provider, self.endpoint, self.model, request, completion)
                    return completion, parsed
            if attempt == attempts or invalid >= self.retry.max_invalid:
                break
            retry_after = getattr(last, "retry_after", None)
            kind = getattr(last, "kind", "invalid output")
            wait = self.retry.delay(key, attempt, retry_after)
            self.meter.record_retry(self.provider, self.model)
            log.warning(
                "retry %d/%d %s after %s%s: %s; waiting %.2fs",
                attempt,
                attempts - 1,
                self.name,
                kind,
                f" (Retry-After {retry_after:g}s)" if retry_after is not None else "",
                redact(str(last))[:200],
                wait,
            )
            await self._sleep(wait)
        self.meter.record_failure(self.provider, self.model)
        kind = getattr(last, "kind", "error")
        raise LLMError(redact(f"{self.name} failed after {attempt} attempts ({kind}): {last}"))



if TYPE_CHECKING:  # pragma: no cover - a static check: the client has both optional capabilities

    def _capabilities(client: LLMClient) -> tuple[ParsingLLM, MeteredLLM]:
        return client, client
