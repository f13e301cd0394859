"""Model adapters: the providers behind the core's one small model protocol, and the call cache.

Everything in causalcheck that needs a language model receives an object satisfying
:class:`~causalcheck.protocols.LLM` — ``await llm.complete(Request)`` → :class:`Completion` —
and nothing else.  The protocol and its values live in the core (:mod:`causalcheck.protocols`)
and are re-exported here (``from causalcheck.adapters import LLM, Request, Completion`` works).
This package supplies the implementations (an OpenAI-compatible adapter for OpenAI,
OpenRouter, vLLM, llama.cpp and Ollama; Anthropic; a :class:`ScriptedLLM` fake) and the
machinery around them: a content-addressed SQLite :class:`CallCache` with a replay mode,
:class:`LLMClient` (per-provider concurrency, seeded exponential backoff honouring
``Retry-After``, token and cost accounting with ``max_cost``), and :func:`run_sync` for
synchronous callers.  Provider SDKs are imported only when a call is made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from causalcheck.lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "add_llm_arguments": "causalcheck.adapters._options",
    "AnthropicLLM": "causalcheck.adapters._anthropic",
    "CACHE_MODES": "causalcheck.adapters._cache",
    "CacheMode": "causalcheck.adapters._cache",
    "CallCache": "causalcheck.adapters._cache",
    "Completion": "causalcheck.protocols",
    "CostLimitError": "causalcheck.adapters._errors",
    "CostMeter": "causalcheck.adapters._client",
    "default_cache_path": "causalcheck.adapters._registry",
    "fault": "causalcheck.adapters._fake",
    "LLM": "causalcheck.protocols",
    "llm_run_from_args": "causalcheck.adapters._registry",
    "LLMClient": "causalcheck.adapters._client",
    "LLMError": "causalcheck.protocols",
    "LLMRun": "causalcheck.adapters._registry",
    "make_llm": "causalcheck.adapters._registry",
    "Message": "causalcheck.protocols",
    "OpenAICompatibleLLM": "causalcheck.adapters._openai",
    "parse_model_string": "causalcheck.adapters._registry",
    "Prices": "causalcheck.adapters._client",
    "ProviderLimits": "causalcheck.adapters._client",
    "PROVIDERS": "causalcheck.adapters._registry",
    "redact": "causalcheck.redaction",
    "RedactingFilter": "causalcheck.redaction",
    "register_secret": "causalcheck.redaction",
    "ReplayMissError": "causalcheck.adapters._errors",
    "Request": "causalcheck.protocols",
    "request_key": "causalcheck.adapters._cache",
    "RetryPolicy": "causalcheck.adapters._client",
    "run_sync": "causalcheck.aio",
    "ScriptedLLM": "causalcheck.adapters._fake",
    "setup_llm_logging": "causalcheck.adapters._registry",
    "TransientLLMError": "causalcheck.protocols",
    "truncated": "causalcheck.adapters._fake",
    "Usage": "causalcheck.protocols",
}

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


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)


if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.aio import run_sync
    from causalcheck.protocols import (
        LLM,
        Completion,
        LLMError,
        Message,
        Request,
        TransientLLMError,
        Usage,
    )
    from causalcheck.redaction import RedactingFilter, redact, register_secret

    from ._anthropic import AnthropicLLM
    from ._cache import CACHE_MODES, CacheMode, CallCache, request_key
    from ._client import (
        CostMeter,
        LLMClient,
        Prices,
        ProviderLimits,
        RetryPolicy,
    )
    from ._errors import CostLimitError, ReplayMissError
    from ._fake import ScriptedLLM, fault, truncated
    from ._openai import OpenAICompatibleLLM
    from ._options import add_llm_arguments
    from ._registry import (
        PROVIDERS,
        LLMRun,
        default_cache_path,
        llm_run_from_args,
        make_llm,
        parse_model_string,
        setup_llm_logging,
    )
