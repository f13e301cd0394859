"""Any OpenAI-compatible chat endpoint: OpenAI, OpenRouter, vLLM, llama.cpp's server, Ollama.

All of these accept ``POST <base>/chat/completions`` with ``model``, ``messages``,
``temperature`` and ``max_tokens``; they differ in how they take a JSON schema.  The hosted
APIs (OpenAI, OpenRouter) take ``response_format={"type": "json_schema", ...}``; local servers
take ``{"type": "json_object", "schema": ...}`` (llama.cpp's server answers HTTP 500 to the
first form), which is what ``json_style="auto"`` picks for any other host.

The ``openai`` SDK is an optional extra (``pip install 'causalcheck[llm]'``) imported on first
use; its own retries are switched off (``max_retries=0``) because :class:`LLMClient` retries
with its own seeded schedule and honours ``Retry-After``.
"""

from __future__ import annotations

import json
import threading
from typing import Any, Literal
from urllib.parse import urlsplit

from causalcheck.base.errors import missing_extra
from causalcheck.base.redaction import redact, register_secret
from causalcheck.protocols import Completion, LLMError, Request, TransientLLMError, Usage

from ._base import NamedModel, clean_endpoint, retry_after

__all__ = ["OpenAICompatibleLLM"]

JsonStyle = Literal["auto", "json_schema", "json_object_schema", "json_object"]
_HOSTED = ("api.openai.com", "openrouter.ai")
# SDK clients (and their connection pools) are kept for the life of the process, one per event
# loop, endpoint, key and timeout: building one per call costs more than a local call itself.
_POOL: dict[tuple[int, str, str, float], Any] = {}
_POOL_LOCK = threading.Lock()


class OpenAICompatibleLLM(NamedModel):
    """A chat model behind an OpenAI-compatible HTTP API (see the module docstring)."""

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str | None,
        provider: str = "openai",
        timeout: float = 120.0,
        json_style: JsonStyle = "auto",
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        try:  # checked now, so a missing extra is a setup error (exit 2) before any item is scored
            import openai  # noqa: F401
        except ImportError:
            raise missing_extra(f"model={provider}/{model}", "openai") from None
        super().__init__(provider, model, clean_endpoint(base_url))
        self._base_url = base_url
        self._api_key = api_key or "EMPTY"  # local servers ignore the key; the SDK needs one
        register_secret(api_key)
        self._timeout = timeout
        if json_style == "auto":
            host = urlsplit(base_url).hostname or ""
            json_style = "json_schema" if host in _HOSTED else "json_object_schema"
        self._json_style = json_style
        self._extra_body = extra_body

    def __repr__(self) -> str:  # never shows the key
        return f"OpenAICompatibleLLM(provider={self._provider!r}, model={self._model!r}, endpoint={self._endpoint!r})"

    def _client(self) -> Any:
        """The SDK client for this endpoint on the running loop (one pooled client per loop and endpoint)."""
        import asyncio
        import hashlib

        try:
            import openai
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise missing_extra("the OpenAI-compatible adapter", "openai") from exc
        loop = asyncio.get_running_loop()
        secret = hashlib.sha256(self._api_key.encode("utf-8")).hexdigest()
        key = (id(loop), self._base_url, secret, self._timeout)
        with _POOL_LOCK:
            client = _POOL.get(key)
            if client is None:
                client = openai.AsyncOpenAI(api_key=self._api_key, base_url=self._base_url, max_retries=0, timeout=self._timeout)
                _POOL[key] = client
        return client

    def _response_format(self, request: Request) -> dict[str, Any] | None:
        if request.json_schema is not None:
            schema = dict(request.json_schema)
            if self._json_style == "json_schema":
                return {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}
            if self._json_style == "json_object_schema":
                return {"type": "json_object", "schema": schema}
            return {"type": "json_object"}
        if request.json_mode:
            return {"type": "json_object"}
        return None

    async def complete(self, request: Request) -> Completion:
        import openai

        kwargs: dict[str, Any] = {
            "model": self._model,
            "messages": [m.to_dict() for m in request.messages],
            "temperature": float(request.temperature),
            "max_tokens": int(request.max_tokens),
        }
        fmt = self._response_format(request)
        if fmt is not None:
            kwargs["response_format"] = fmt
        if request.seed is not None:
            kwargs["seed"] = int(request.seed)
        if self._extra_body:
            kwargs["extra_body"] = self._extra_body
        client = self._client()
        try:
            resp = await client.chat.completions.create(**kwargs)
        except openai.APITimeoutError as exc:
            raise TransientLLMError(redact(f"timeout: {exc}"), kind="timeout") from None
        except openai.APIConnectionError as exc:
            raise TransientLLMError(redact(f"connection error: {exc}"), kind="connection") from None
        except openai.APIStatusError as exc:
            status = int(exc.status_code)
            text = redact(f"HTTP {status}: {exc.message}")[:500]
            if status == 429 or status >= 500 or status in (408, 409):
                raise TransientLLMError(text, kind=str(status), retry_after=retry_after(exc.response.headers)) from None
            raise LLMError(text) from None
        except (openai.APIError, json.JSONDecodeError) as exc:
            raise TransientLLMError(redact(f"bad response: {type(exc).__name__}: {exc}")[:500], kind="bad response") from None
        try:
            choice = resp.choices[0]
            text = choice.message.content or ""
            finish = str(choice.finish_reason or "stop")
        except (AttributeError, IndexError, TypeError) as exc:
            raise TransientLLMError(f"bad response: no choices in {str(resp)[:200]!r}", kind="bad response") from exc
        usage = getattr(resp, "usage", None)
        u = Usage(
            int(getattr(usage, "prompt_tokens", 0) or 0),
            int(getattr(usage, "completion_tokens", 0) or 0),
        )
        return Completion(text=text, usage=u, finish_reason=finish)
