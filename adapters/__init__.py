"""Model adapters: one small protocol, the providers behind it, and the call cache.

Everything in causalcheck that needs a language model receives an object satisfying
:class:`LLM` — ``await llm.complete(Request)`` → :class:`Completion` — and nothing else.
This package supplies the implementations (an OpenAI-compatible adapter for OpenAI,
OpenRouter, vLLM, llama.cpp and Ollama; Anthropic; a :class:`ScriptedLLM` fake) and the
machinery around them: a content-addressed SQLite :class:`CallCache` with a replay mode,
:class:`LLMClient` (per-provider concurrency, seeded exponential backoff honouring
``Retry-After``, token and cost accounting with ``max_cost``), and :func:`run_sync` for
synchronous callers.  Provider SDKs are imported only when a call is made.
"""

from __future__ import annotations

from causalcheck.adapters._anthropic import AnthropicLLM
from causalcheck.adapters._cache import CACHE_MODES, CacheMode, CallCache, request_key
from causalcheck.adapters._client import CostMeter, LLMClient, Prices, ProviderLimits, RetryPolicy
from causalcheck.adapters._fake import ScriptedLLM, fault, truncated
from causalcheck.adapters._loop import run_sync
from causalcheck.adapters._openai import OpenAICompatibleLLM
from causalcheck.adapters._registry import (
    PROVIDERS,
    LLMRun,
    add_llm_arguments,
    default_cache_path,
    llm_run_from_args,
    make_llm,
    parse_model_string,
    setup_llm_logging,
)
from causalcheck.adapters._secrets import RedactingFilter, redact, register_secret
from causalcheck.adapters._types import (
    LLM,
    Completion,
    CostLimitError,
    LLMError,
    Message,
    ReplayMissError,
    Request,
    TransientLLMError,
    Usage,
)

__all__ = [
    "CACHE_MODES",
    "LLM",
    "PROVIDERS",
    "AnthropicLLM",
    "CacheMode",
    "CallCache",
    "Completion",
    "CostLimitError",
    "CostMeter",
    "LLMClient",
    "LLMError",
    "LLMRun",
    "Message",
    "OpenAICompatibleLLM",
    "Prices",
    "ProviderLimits",
    "RedactingFilter",
    "ReplayMissError",
    "Request",
    "RetryPolicy",
    "ScriptedLLM",
    "TransientLLMError",
    "Usage",
    "add_llm_arguments",
    "default_cache_path",
    "fault",
    "llm_run_from_args",
    "make_llm",
    "parse_model_string",
    "redact",
    "register_secret",
    "request_key",
    "run_sync",
    "setup_llm_logging",
    "truncated",
]
