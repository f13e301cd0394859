"""Property tests of the reply readers, the cache key and the secret scrubber (hypothesis)."""

from __future__ import annotations

import contextlib
import json

from causalcheck.adapters import Request, redact, register_secret, request_key
from causalcheck.explain.llm import extract_json_object, parse_criterion_reply, parse_yes_no
from causalcheck.lab.llm_agent import extract_record
from hypothesis import given
from hypothesis import strategies as st

texts = st.text(max_size=300)


@given(texts)
def test_reply_readers_raise_only_value_error(text: str) -> None:
    """Arbitrary model output gives a value or a ValueError, never another exception."""
    for read in (parse_yes_no, extract_json_object, extract_record):
        with contextlib.suppress(ValueError):
            read(text)
    try:
        score, reason, obj = parse_criterion_reply(text)
    except ValueError:
        return
    assert 1 <= score <= 10 and isinstance(reason, str) and isinstance(obj, dict)


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6), texts)
def test_criterion_score_is_rounded_and_clamped(value: float, reason: str) -> None:
    """Any numeric score comes back as round(clamp(score, 1, 10))."""
    score, got_reason, _ = parse_criterion_reply(json.dumps({"score": value, "reason": reason}))
    assert score == round(min(max(value, 1.0), 10.0)) and got_reason == reason


@given(st.lists(st.text(max_size=40), min_size=1, max_size=4), st.text(max_size=40))
def test_request_key_is_deterministic_and_content_sensitive(contents: list[str], extra: str) -> None:
    """The key depends only on the content: equal calls share it, a changed message changes it."""
    msgs = [{"role": "user", "content": c} for c in contents]
    a = request_key("openai", "", "m", Request.chat(msgs))
    assert a == request_key("openai", "", "m", Request.chat([dict(m) for m in msgs]))
    changed = [*msgs[:-1], {"role": "user", "content": msgs[-1]["content"] + "x" + extra}]
    assert a != request_key("openai", "", "m", Request.chat(changed))


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=12, max_size=30), texts, texts)
def test_registered_secret_never_survives_redaction(secret: str, before: str, after: str) -> None:
    """A registered secret is scrubbed wherever it occurs in a text."""
    register_secret(secret)
    assert secret not in redact(before + secret + after)
