"""Keeping API keys out of everything causalcheck writes.

Keys reach causalcheck only through the environment (``OPENAI_API_KEY``,
``OPENROUTER_API_KEY``, ``ANTHROPIC_API_KEY``; there is no key option on the command line) and are
handed to the provider client; they are never part of a request, a cache key, a cache row or a result.
What can still leak is an error message: some providers echo (part of) a bad key back in a
401 body.  :func:`redact` scrubs every registered secret and anything shaped like a provider
key from a text, and the credentials a URL can carry (``http://user:PASS@host/v1?api-key=KEY``
keeps ``http://[REDACTED]@host/v1?api-key=[REDACTED]``); :func:`redact_json` does the same to every
string of a JSON value (the options a run records), and :class:`RedactingFilter` applies
:func:`redact` to every log record of the ``causalcheck`` loggers.  The adapters register the keys they are given
(:func:`register_secret`); the core redacts every model error text it writes.  (All three
are also exported by :mod:`causalcheck.adapters`.)

>>> register_secret("hunter2-doctest-value")
>>> redact("HTTP 401: key hunter2-doctest-value rejected; Bearer abcdefgh12345")
'HTTP 401: key [REDACTED] rejected; [REDACTED]'
>>> redact_json({"base_url": "http://me:pw@localhost:8080/v1?api-key=abc&temperature=0"})
{'base_url': 'http://[REDACTED]@localhost:8080/v1?api-key=[REDACTED]&temperature=0'}
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Any

__all__ = ["RedactingFilter", "redact", "redact_json", "register_secret"]

_LOCK = threading.Lock()
_SECRETS: set[str] = set()
# sk-..., sk-ant-..., sk-or-v1-..., key-..., Bearer tokens: long runs of key characters.
_KEYLIKE = re.compile(r"\b(?:sk|pk|rk|key)[-_][A-Za-z0-9_\-*]{8,}|(?i:bearer)\s+[A-Za-z0-9_\-.=]{8,}")
MASK = "[REDACTED]"
# the user info of a URL (``scheme://user:password@``) and the query parameters that carry secrets
_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://)[^/\s@?#]+@")
_URL_SECRET = re.compile(
    r"(?i)([?&;](?:api[-_]?key|apikey|key|token|access[-_]?token|auth|authorization|password|passwd|pwd|"
    r"secret|client[-_]?secret|sig|signature)=)[^&;#\s]+"
)


def register_secret(value: str | None) -> None:
    """Remember *value* as a secret to scrub from logs and error texts (ignores short values)."""
    if value and len(value) >= 6:
        with _LOCK:
            _SECRETS.add(value)


def redact(text: str) -> str:
    """*text* with every registered secret and every key-shaped token replaced by ``[REDACTED]``."""
    with _LOCK:
        secrets = sorted(_SECRETS, key=len, reverse=True)
    for s in secrets:
        if s in text:
            text = text.replace(s, MASK)
    text = _URL_USERINFO.sub(lambda m: m.group(1) + MASK + "@", text)
    text = _URL_SECRET.sub(lambda m: m.group(1) + MASK, text)
    return _KEYLIKE.sub(MASK, text)


def redact_json(value: Any) -> Any:
    """*value* (decoded JSON: dicts, lists, strings, numbers) with :func:`redact` applied to every string."""
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {redact(k) if isinstance(k, str) else k: redact_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [redact_json(v) for v in value]
    return value


class RedactingFilter(logging.Filter):
    """A logging filter that renders the message once and scrubs secrets from it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            msg = record.getMessage()
        except Exception:  # a malformed record: leave it to logging's own error path
            return True
        clean = redact(msg)
        if clean != msg or record.args:
            record.msg = clean
            record.args = None
        return True
