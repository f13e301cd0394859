"""Anthropic's Messages API over plain HTTP (standard library only).

``POST <base>/v1/messages`` with ``x-api-key`` and ``anthropic-version`` headers; system
messages go to the top-level ``system`` field; the reply's text blocks are joined.  The API
has no JSON mode, so a requested schema is stated in the system prompt instead.  Stop
reasons are mapped to the OpenAI vocabulary (``end_turn`` → ``stop``, ``max_tokens`` →
``length``).  No SDK is needed; the blocking request runs in a worker thread.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from causalcheck.base import safejson
from causalcheck.base.errors import InputFormatError
from causalcheck.base.redaction import redact, register_secret
from causalcheck.protocols import Completion, LLMError, Request, TransientLLMError, Usage

from ._base import NamedModel, clean_endpoint, retry_after

__all__ = ["AnthropicLLM", "completion_of"]

API_VERSION = "2023-06-01"


class AnthropicLLM(NamedModel):
    """A Claude model behind the Anthropic Messages API."""

    def __init__(self, model: str, *, api_key: str | None, base_url: str = "https://api.anthropic.com", timeout: float = 120.0) -> None:
        if not api_key:
            raise LLMError(f"model=anthropic/{model} needs a key: set the ANTHROPIC_API_KEY environment variable")
        super().__init__("anthropic", model, clean_endpoint(base_url))
        self._api_key = api_key
        register_secret(api_key)
        self._base = base_url.rstrip("/")
        self._timeout = timeout

    def __repr__(self) -> str:
        return f"AnthropicLLM(model={self._model!r}, endpoint={self._endpoint!r})"

    def _body(self, request: Request) -> dict[str, Any]:
        system = [m.content for m in request.messages if m.role == "system"]
        if request.json_schema is not None:
            system.append("Reply with one JSON object that follows this JSON schema, and nothing else:\n" + json.dumps(dict(request.json_schema)))
        elif request.json_mode:
            system.append("Reply with one JSON object and nothing else.")
        body: dict[str, Any] = {
            "model": self._model,
            "max_tokens": int(request.max_tokens),
            "temperature": float(request.temperature),
            "messages": [m.to_dict() for m in request.messages if m.role != "system"],
        }
        if system:
            body["system"] = "\n\n".join(system)
        return body

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        import urllib.error
        import urllib.request

        data = json.dumps(body).encode("utf-8")
        url = self._base + ("/messages" if self._base.endswith("/v1") else "/v1/messages")
        req = urllib.request.Request(
            url,
            data=data,
            method="POST",
            headers={"content-type": "application/json", "x-api-key": self._api_key, "anthropic-version": API_VERSION},
        )
        try:
            with urllib.request.urlopen(req, timeout=self._timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            status = int(exc.code)
            detail = redact(exc.read().decode("utf-8", "replace"))[:300]
            if status in (408, 409, 429) or status >= 500:
                raise TransientLLMError(
                    f"HTTP {status}: {detail}", kind=str(status), retry_after=retry_after(exc.headers)
                ) from None
            raise LLMError(f"HTTP {status}: {detail}") from None
        except TimeoutError:
            raise TransientLLMError("request timed out", kind="timeout") from None
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            raise TransientLLMError(redact(f"connection error: {exc}"), kind="connection") from None
        try:
            out = safejson.loads(raw.decode("utf-8"), source="Anthropic response")
        except (UnicodeDecodeError, InputFormatError) as exc:
            raise TransientLLMError(f"bad response: {exc}"[:300], kind="bad response") from None
        if not isinstance(out, dict):
            raise TransientLLMError(f"bad response: {str(out)[:200]!r}", kind="bad response")
        return out

    async def complete(self, request: Request) -> Completion:
        out = await asyncio.to_thread(self._post, self._body(request))
        return completion_of(out)


def completion_of(out: dict[str, Any]) -> Completion:
    """The :class:`Completion` in a Messages API response; a response of another shape is a
    :class:`TransientLLMError` (``bad response``), never a ``TypeError``.

    >>> completion_of({"content": [{"type": "text", "text": "yes"}], "stop_reason": "max_tokens"}).finish_reason
    'length'
    """
    blocks = out.get("content") or []
    usage = out.get("usage") or {}
    stop = out.get("stop_reason") or "end_turn"
    if not isinstance(blocks, list) or not isinstance(usage, dict) or not isinstance(stop, str):
        raise TransientLLMError(f"bad response: {str(out)[:200]!r}", kind="bad response")
    texts = [b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text"]
    tokens = [usage.get("input_tokens", 0) or 0, usage.get("output_tokens", 0) or 0]
    if not all(isinstance(t, str) for t in texts) or not all(isinstance(t, int) and not isinstance(t, bool) for t in tokens):
        raise TransientLLMError(f"bad response: {str(out)[:200]!r}", kind="bad response")
    finish = {"end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}.get(stop, stop)
    return Completion(text="".join(texts), usage=Usage(tokens[0], tokens[1]), finish_reason=finish)
