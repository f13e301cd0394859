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

from causalcheck.base.lazy import lazy_exports

_EXPORTS: dict[str, tuple[str, ...]] = {
    "causalcheck.adapters._anthropic": ("AnthropicLLM",),
    "causalcheck.adapters._cache": ("CACHE_MODES", "CacheMode", "CallCache", "request_key"),
    "causalcheck.adapters._client": (
        "CostMeter", "LLMClient", "Prices", "ProviderLimits", "RetryPolicy",
    ),
    "causalcheck.adapters._errors": ("CostLimitError", "ReplayMissError"),
    "causalcheck.adapters._fake": ("ScriptedLLM", "fault", "truncated"),
    "causalcheck.adapters._openai": ("OpenAICompatibleLLM",),
    "causalcheck.adapters._options": ("add_llm_arguments",),
    "causalcheck.adapters._registry": (
        "LLMRun", "default_cache_path", "llm_run_from_args", "make_llm",
        "parse_model_string", "setup_llm_logging",
    ),
    "causalcheck.base.aio": ("run_sync",),
    "causalcheck.protocols": (
        "Completion", "LLM", "LLMError", "Message", "Request", "TransientLLMError", "Usage",
    ),
    "causalcheck.base.redaction": ("RedactingFilter", "redact", "register_secret"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover  (the same names for the type checker; aliases mark re-exports)
    from causalcheck.adapters._anthropic import AnthropicLLM as AnthropicLLM
    from causalcheck.adapters._cache import CACHE_MODES as CACHE_MODES
    from causalcheck.adapters._cache import CacheMode as CacheMode
    from causalcheck.adapters._cache import CallCache as CallCache
    from causalcheck.adapters._cache import request_key as request_key
    from causalcheck.adapters._client import CostMeter as CostMeter
    from causalcheck.adapters._client import LLMClient as LLMClient
    from causalcheck.adapters._client import Prices as Prices
    from causalcheck.adapters._client import ProviderLimits as ProviderLimits
    from causalcheck.adapters._client import RetryPolicy as RetryPolicy
    from causalcheck.adapters._errors import CostLimitError as CostLimitError
    from causalcheck.adapters._errors import ReplayMissError as ReplayMissError
    from causalcheck.adapters._fake import ScriptedLLM as ScriptedLLM
    from causalcheck.adapters._fake import fault as fault
    from causalcheck.adapters._fake import truncated as truncated
    from causalcheck.adapters._openai import OpenAICompatibleLLM as OpenAICompatibleLLM
    from causalcheck.adapters._options import add_llm_arguments as add_llm_arguments
    from causalcheck.adapters._registry import LLMRun as LLMRun
    from causalcheck.adapters._registry import default_cache_path as default_cache_path
    from causalcheck.adapters._registry import llm_run_from_args as llm_run_from_args
    from causalcheck.adapters._registry import make_llm as make_llm
    from causalcheck.adapters._registry import parse_model_string as parse_model_string
    from causalcheck.adapters._registry import setup_llm_logging as setup_llm_logging
    from causalcheck.base.aio import run_sync as run_sync
    from causalcheck.base.redaction import RedactingFilter as RedactingFilter
    from causalcheck.base.redaction import redact as redact
    from causalcheck.base.redaction import register_secret as register_secret
    from causalcheck.protocols import LLM as LLM
    from causalcheck.protocols import Completion as Completion
    from causalcheck.protocols import LLMError as LLMError
    from causalcheck.protocols import Message as Message
    from causalcheck.protocols import Request as Request
    from causalcheck.protocols import TransientLLMError as TransientLLMError
    from causalcheck.protocols import Usage as Usage
