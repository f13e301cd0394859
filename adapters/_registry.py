"""Model strings, command-line options and the per-run bundle of clients.

A model string is ``provider/model``:

==============  ===========================================================================
``openai/M``    any OpenAI-compatible endpoint: ``--base-url``, else ``OPENAI_BASE_URL``, else
                OpenAI; key from ``OPENAI_API_KEY`` (local servers need none)
``openrouter/M`` OpenRouter (``OPENROUTER_BASE_URL`` / ``OPENROUTER_API_KEY``)
``ollama/M``    a local Ollama (``OLLAMA_HOST``, default ``http://127.0.0.1:11434``)
``vllm/M``, ``llamacpp/M``  a local server at ``--base-url`` / ``OPENAI_BASE_URL``
``anthropic/M`` Anthropic (``ANTHROPIC_BASE_URL`` / ``ANTHROPIC_API_KEY``)
==============  ===========================================================================

So ``OPENAI_BASE_URL=http://127.0.0.1:8000/v1 causalcheck … --model openai/smollm2`` talks to
a local server.  A model string without a provider means ``openai/``.

:class:`LLMRun` holds what the clients of one run share: the call cache, the per-provider
concurrency limits, the retry policy and the :class:`CostMeter`.
"""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from causalcheck import plugins
from causalcheck.base import safejson
from causalcheck.base.errors import InputFormatError
from causalcheck.base.redaction import RedactingFilter
from causalcheck.protocols import LLM, LLMError

from ._anthropic import AnthropicLLM
from ._cache import CacheMode, CallCache
from ._client import CostMeter, LLMClient, Prices, ProviderLimits, RetryPolicy
from ._openai import OpenAICompatibleLLM
from ._options import add_llm_arguments

__all__ = [
    "LLMRun",
    "add_llm_arguments",
    "anthropic_llm",
    "default_cache_path",
    "llamacpp_llm",
    "llm_run_from_args",
    "make_llm",
    "ollama_llm",
    "openai_llm",
    "openrouter_llm",
    "parse_model_string",
    "setup_llm_logging",
    "vllm_llm",
]

def parse_model_string(spec: str) -> tuple[str, str]:
    """``"openai/gpt-4o"`` → ``("openai", "gpt-4o")``; a bare name means ``openai``.

    The provider is any name of the ``llm_provider`` registry (:mod:`causalcheck.plugins`: the
    built-ins above and any you register), matched without regard to case.  Only the first ``/``
    splits, so ``openrouter/meta-llama/llama-3-8b`` keeps its model path.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise InputFormatError(f"model={spec!r} must be a non-empty string like 'openai/gpt-4o'")
    spec = spec.strip()
    head, sep, rest = spec.partition("/")
    if sep:
        provider = _provider_name(head)
        if provider is not None:
            if not rest:
                raise InputFormatError(f"model={spec!r} must name a model after '{head}/'")
            return provider, rest
    return "openai", spec


def _provider_name(head: str) -> str | None:
    """The registered provider *head* names (exact, else without regard to case), or ``None``."""
    if head in plugins.BUILTINS["llm_provider"]:
        return head
    names = plugins.registered("llm_provider")
    if head in names:
        return head
    folded = [n for n in names if n.lower() == head.lower()]
    return folded[0] if len(folded) == 1 else None


def make_llm(
    spec: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    timeout: float = 120.0,
    env: Mapping[str, str] | None = None,
) -> LLM:
    """The provider adapter for model string *spec* (see the module docstring), made by the
    provider's factory in the ``llm_provider`` registry and checked against the LLM protocol."""
    provider, model = parse_model_string(spec)
    return plugins.create(
        "llm_provider", provider, model=model, base_url=base_url, api_key=api_key, timeout=timeout, env=os.environ if env is None else env
    )


def anthropic_llm(
    model: str, *, base_url: str | None = None, api_key: str | None = None, timeout: float = 120.0, env: Mapping[str, str] | None = None
) -> LLM:
    """``anthropic/M``: Anthropic (``ANTHROPIC_BASE_URL`` / ``ANTHROPIC_API_KEY``)."""
    env = os.environ if env is None else env
    return AnthropicLLM(
        model,
        api_key=api_key or env.get("ANTHROPIC_API_KEY"),
        base_url=_checked_url(base_url or env.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com"),
        timeout=timeout,
    )


def openai_llm(
    model: str, *, base_url: str | None = None, api_key: str | None = None, timeout: float = 120.0, env: Mapping[str, str] | None = None
) -> LLM:
    """``openai/M``: any OpenAI-compatible endpoint (``--base-url``, else ``OPENAI_BASE_URL``, else OpenAI)."""
    env = os.environ if env is None else env
    url = base_url or env.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    key = api_key or env.get("OPENAI_API_KEY")
    if not key and "api.openai.com" in url:
        raise LLMError(f"model='openai/{model}' on {url} needs a key: set OPENAI_API_KEY (or --base-url for a local server)")
    return OpenAICompatibleLLM(model, base_url=_checked_url(url), api_key=key, provider="openai", timeout=timeout)


def openrouter_llm(
    model: str, *, base_url: str | None = None, api_key: str | None = None, timeout: float = 120.0, env: Mapping[str, str] | None = None
) -> LLM:
    """``openrouter/M``: OpenRouter (``OPENROUTER_BASE_URL`` / ``OPENROUTER_API_KEY``)."""
    env = os.environ if env is None else env
    url = base_url or env.get("OPENROUTER_BASE_URL") or "https://openrouter.ai/api/v1"
    key = api_key or env.get("OPENROUTER_API_KEY") or env.get("OPENAI_API_KEY")
    return OpenAICompatibleLLM(model, base_url=_checked_url(url), api_key=key, provider="openrouter", timeout=timeout)


def ollama_llm(
    model: str, *, base_url: str | None = None, api_key: str | None = None, timeout: float = 120.0, env: Mapping[str, str] | None = None
) -> LLM:
    """``ollama/M``: a local Ollama (``OLLAMA_HOST``, default ``http://127.0.0.1:11434``)."""
    env = os.environ if env is None else env
    host = env.get("OLLAMA_HOST") or "http://127.0.0.1:11434"
    if "://" not in host:
        host = "http://" + host
    url = base_url or host.rstrip("/") + "/v1"
    return OpenAICompatibleLLM(model, base_url=_checked_url(url), api_key=api_key or "ollama", provider="ollama", timeout=timeout)


def vllm_llm(
    model: str, *, base_url: str | None = None, api_key: str | None = None, timeout: float = 120.0, env: Mapping[str, str] | None = None
) -> LLM:
    """``vllm/M``: a local vLLM server at ``--base-url`` / ``OPENAI_BASE_URL``."""
    return _local_server("vllm", model, base_url, api_key, timeout, os.environ if env is None else env)


def llamacpp_llm(
    model: str, *, base_url: str | None = None, api_key: str | None = None, timeout: float = 120.0, env: Mapping[str, str] | None = None
) -> LLM:
    """``llamacpp/M``: a local llama.cpp server at ``--base-url`` / ``OPENAI_BASE_URL``."""
    return _local_server("llamacpp", model, base_url, api_key, timeout, os.environ if env is None else env)


def _local_server(provider: str, model: str, base_url: str | None, api_key: str | None, timeout: float, env: Mapping[str, str]) -> LLM:
    url = base_url or env.get("OPENAI_BASE_URL") or ""
    if not url:
        raise InputFormatError(f"model='{provider}/{model}' needs --base-url or OPENAI_BASE_URL (the server's /v1 URL)")
    return OpenAICompatibleLLM(model, base_url=_checked_url(url), api_key=api_key or env.get("OPENAI_API_KEY"), provider=provider, timeout=timeout)


def _checked_url(url: str) -> str:
    if not url.startswith(("http://", "https://")):
        raise InputFormatError(f"base_url={url!r} must start with http:// or https://")
    return url


def default_cache_path(env: Mapping[str, str] | None = None) -> Path:
    """``$CAUSALCHECK_CACHE``, else ``$XDG_CACHE_HOME/causalcheck/llm-calls.sqlite`` (``~/.cache``)."""
    env = os.environ if env is None else env
    if env.get("CAUSALCHECK_CACHE"):
        return Path(env["CAUSALCHECK_CACHE"])
    base = Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "causalcheck" / "llm-calls.sqlite"


@dataclass
class LLMRun:
    """What the model clients of one run share; ``client(spec)`` builds one per model string."""

    cache: CallCache | None
    limits: ProviderLimits
    retry: RetryPolicy
    meter: CostMeter
    base_url: str | None = None
    timeout: float = 120.0

    @classmethod
    def create(
        cls,
        *,
        cache_path: str | Path | None = None,
        cache_mode: CacheMode = "rw",
        concurrency: int = 4,
        retry: RetryPolicy | None = None,
        prices: Prices | None = None,
        max_cost: float | None = None,
        base_url: str | None = None,
    ) -> LLMRun:
        cache = None if cache_mode == "off" else CallCache(cache_path or default_cache_path(), cache_mode)
        retry = retry or RetryPolicy()
        return cls(
            cache=cache,
            limits=ProviderLimits(concurrency),
            retry=retry,
            meter=CostMeter(prices, max_cost),
            base_url=base_url,
            timeout=retry.timeout,
        )

    def client(self, spec: str | LLM) -> LLMClient:
        """An :class:`LLMClient` for a model string (or an already built adapter, e.g. a fake)."""
        llm = spec if not isinstance(spec, str) else make_llm(spec, base_url=self.base_url, timeout=self.timeout)
        return LLMClient(llm, cache=self.cache, limits=self.limits, retry=self.retry, meter=self.meter)


def _load_prices(path: str | None) -> Prices | None:
    if not path:
        return None
    data = safejson.load_file(path, what="--prices")
    if not isinstance(data, dict):
        raise InputFormatError(f"prices={path!r} must hold a JSON object")
    return Prices.from_mapping(data)


def llm_run_from_args(args: argparse.Namespace) -> LLMRun:
    """Build the :class:`LLMRun` that :func:`add_llm_arguments`' options describe."""
    import math

    if args.max_retries < 0:
        raise InputFormatError(f"--max-retries={args.max_retries!r} must be >= 0")
    if not (math.isfinite(args.timeout) and args.timeout > 0):
        raise InputFormatError(f"--timeout={args.timeout!r} must be a finite number of seconds > 0")
    if not (math.isfinite(args.retry_base_delay) and args.retry_base_delay >= 0):
        raise InputFormatError(f"--retry-base-delay={args.retry_base_delay!r} must be a finite number of seconds >= 0")
    if args.max_cost is not None and not (math.isfinite(args.max_cost) and args.max_cost >= 0):
        raise InputFormatError(f"--max-cost={args.max_cost!r} must be a finite number of dollars >= 0")
    if args.concurrency < 1:
        raise InputFormatError(f"--concurrency={args.concurrency!r} must be >= 1")
    retry = RetryPolicy(
        max_attempts=args.max_retries + 1, base_delay=args.retry_base_delay, seed=args.retry_seed, timeout=args.timeout
    )
    return LLMRun.create(
        cache_path=args.cache,
        cache_mode=args.cache_mode,
        concurrency=args.concurrency,
        retry=retry,
        prices=_load_prices(args.prices),
        max_cost=args.max_cost,
        base_url=args.base_url,
    )


class _StderrHandler(logging.StreamHandler):  # type: ignore[type-arg,unused-ignore]
    """A stream handler that writes to whatever ``sys.stderr`` is at the time of the record."""

    def __init__(self) -> None:
        super().__init__()

    @property
    def stream(self) -> Any:
        import sys

        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:  # logging sets it in __init__; the property ignores it
        return


def setup_llm_logging(level: int = logging.INFO, stream: Any = None) -> None:
    """Log ``causalcheck`` messages (retries, degraded items) to stderr, with secrets redacted."""
    logger = logging.getLogger("causalcheck")
    if any(getattr(h, "_causalcheck", False) for h in logger.handlers):
        return
    handler = logging.StreamHandler(stream) if stream is not None else _StderrHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactingFilter())
    handler._causalcheck = True  # type: ignore[attr-defined]
    logger.addHandler(handler)
    logger.setLevel(level)
