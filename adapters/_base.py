"""What the model adapters share: the names that identify a model, and reading HTTP replies.

Every adapter answers the :class:`~causalcheck.protocols.LLM` protocol's three names —
``provider``, ``model`` and ``endpoint`` (part of the call cache's key) — from
:class:`NamedModel`.  The HTTP adapters normalise the endpoint they report with
:func:`clean_endpoint` (no key or user info in a cache key or a log) and read a
``Retry-After`` header with :func:`retry_after`.

>>> clean_endpoint("http://user:pw@localhost:8080/v1/?x=1")
'http://localhost:8080/v1'
>>> retry_after({"retry-after": "2.5"}), retry_after({"retry-after": "soon"}), retry_after(None)
(2.5, None, None)
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

__all__ = ["NamedModel", "clean_endpoint", "retry_after"]


def clean_endpoint(base_url: str) -> str:
    """*base_url* without user info, query or fragment, and without a trailing slash."""
    parts = urlsplit(base_url.strip())
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, host, parts.path.rstrip("/"), "", ""))


def retry_after(headers: Any) -> float | None:
    """Seconds from a ``Retry-After`` header (not negative), or ``None`` when absent or unreadable."""
    try:
        value = headers.get("retry-after") if headers is not None else None
    except Exception:
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except (TypeError, ValueError):
        return None


class NamedModel:
    """Base of the adapters: the ``provider``, ``model`` and ``endpoint`` that name a model."""

    def __init__(self, provider: str, model: str, endpoint: str) -> None:
        self._provider = provider
        self._model = model
        self._endpoint = endpoint

    @property
    def provider(self) -> str:
        return self._provider

    @property
    def model(self) -> str:
        return self._model

    @property
    def endpoint(self) -> str:
        return self._endpoint
