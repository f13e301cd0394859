"""The call cache: content addressing, modes, replay, warm re-runs and secret hygiene."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from _fake_server import FakeServer
from causalcheck.adapters import (
    CallCache,
    Completion,
    LLMClient,
    LLMRun,
    ReplayMissError,
    Request,
    RetryPolicy,
    ScriptedLLM,
    Usage,
    make_llm,
    request_key,
    run_sync,
    truncated,
)
from causalcheck.base.errors import BudgetExceededError, InputFormatError


def _req(text: str = "q", **kw: object) -> Request:
    return Request.chat([{"role": "user", "content": text}], **kw)


def test_key_depends_on_every_part_of_the_call() -> None:
    """Same call, same key; a change of provider, endpoint, model, message or parameter changes it."""
    base = request_key("openai", "", "m", _req())
    assert base == request_key("openai", "", "m", Request.chat([{"role": "user", "content": "q"}]))
    variants = {
        request_key("anthropic", "", "m", _req()),
        request_key("openai", "http://127.0.0.1:1/v1", "m", _req()),
        request_key("openai", "", "m2", _req()),
        request_key("openai", "", "m", _req("q2")),
        request_key("openai", "", "m", _req(temperature=0.6)),
        request_key("openai", "", "m", _req(max_tokens=7)),
        request_key("openai", "", "m", _req(json_schema={"type": "object"})),
    }
    assert base not in variants and len(variants) == 7


def test_put_get_round_trip(tmp_path: Path) -> None:
    """A stored completion comes back marked cached, with its usage and finish reason; a reply cut at
    max_tokens is never stored."""
    cache = CallCache(tmp_path / "c.sqlite")
    comp = Completion("abc", Usage(5, 3), "content_filter")
    cache.put("k", "fake", "", "m", _req(), comp)
    got = cache.get("k")
    assert got is not None and got.cached
    assert (got.text, got.finish_reason, got.usage) == ("abc", "content_filter", comp.usage)
    cache.put("cut", "fake", "", "m", _req(), truncated("abcdef", 3))
    assert cache.get("cut") is None
    assert cache.get("other") is None and len(cache) == 1


def test_warm_rerun_makes_zero_calls(tmp_path: Path) -> None:
    """A second run of the same calls is answered entirely from the cache."""
    path = tmp_path / "c.sqlite"
    for round_ in range(2):
        llm = ScriptedLLM(lambda r: "answer to " + r.messages[-1].content)
        run = LLMRun.create(cache_path=path)
        client = run.client(llm)
        texts = [run_sync(client.complete(_req(f"q{i}"))).text for i in range(5)]
        assert texts == [f"answer to q{i}" for i in range(5)]
        if round_ == 0:
            assert run.meter.calls == 5 and len(llm.calls) == 5
        else:
            assert run.meter.calls == 0 and len(llm.calls) == 0 and run.meter.cache_hits == 5


def test_read_only_and_off_modes_store_nothing(tmp_path: Path) -> None:
    """ro reads but never writes; off neither reads nor writes."""
    path = tmp_path / "c.sqlite"
    run_sync(LLMRun.create(cache_path=path).client(ScriptedLLM(["x"])).complete(_req()))
    ro = LLMRun.create(cache_path=path, cache_mode="ro")
    assert run_sync(ro.client(ScriptedLLM([])).complete(_req())).cached
    run_sync(ro.client(ScriptedLLM(["y"])).complete(_req("new")))
    assert len(CallCache(path)) == 1
    off = LLMRun.create(cache_path=path, cache_mode="off")
    llm = ScriptedLLM(["z"])
    assert run_sync(off.client(llm).complete(_req())).text == "z" and len(llm.calls) == 1


def test_replay_miss_fails_loudly(tmp_path: Path) -> None:
    """Replay answers hits and raises on a miss without calling; it stops runs like a budget."""
    path = tmp_path / "c.sqlite"
    run_sync(LLMRun.create(cache_path=path).client(ScriptedLLM(["x"])).complete(_req()))
    replay = LLMRun.create(cache_path=path, cache_mode="replay")
    llm = ScriptedLLM(["never"])
    assert run_sync(replay.client(llm).complete(_req())).text == "x"
    with pytest.raises(ReplayMissError, match="no cached answer"):
        run_sync(replay.client(llm).complete(_req("unseen")))
    assert llm.calls == []
    assert issubclass(ReplayMissError, BudgetExceededError)
    with pytest.raises(InputFormatError, match="does not exist"):
        CallCache(tmp_path / "missing.sqlite", "replay")


def test_rejected_answers_are_not_cached(tmp_path: Path) -> None:
    """An answer the caller's parser rejects is re-asked and never stored."""
    path = tmp_path / "c.sqlite"
    llm = ScriptedLLM([truncated('{"score": 7, "reason": "long"}', 9), Completion('{"score": 7}')])
    client = LLMRun.create(cache_path=path, retry=RetryPolicy(base_delay=0.0)).client(llm)
    import json

    _, parsed = run_sync(client.complete_parsed(_req(), lambda c: json.loads(c.text)))
    assert parsed == {"score": 7} and len(llm.calls) == 2
    with sqlite3.connect(path) as conn:
        texts = [r[0] for r in conn.execute("SELECT text FROM calls")]
    assert texts == ['{"score": 7}']


def test_bad_mode_and_bad_file(tmp_path: Path) -> None:
    """An unknown mode or a non-SQLite file is an input error naming the value."""
    with pytest.raises(InputFormatError, match="mode='sometimes'"):
        CallCache(tmp_path / "c", "sometimes")  # type: ignore[arg-type]
    bad = tmp_path / "bad.sqlite"
    bad.write_text("not a database at all, just text" * 10)
    with pytest.raises(InputFormatError, match=r"bad\.sqlite"):
        CallCache(bad)


def test_planted_key_never_written(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A planted API key reaches the server's Authorization header but no cache row, log or result."""
    key = "sk-planted-SECRET-0123456789abcdef"
    path = tmp_path / "c.sqlite"
    with FakeServer(faults=["429", "500", None, None]) as srv, caplog.at_level("DEBUG", logger="causalcheck"):
        llm = make_llm("openai/m", base_url=srv.base_url, api_key=key, env={})
        client = LLMClient(llm, cache=CallCache(path), retry=RetryPolicy(base_delay=0.0))
        run_sync(client.complete(_req("one")))
        run_sync(client.complete(_req("two")))
    assert srv.auth_headers[0] == f"Bearer {key}"
    assert key.encode() not in path.read_bytes()
    for extra in ("-wal", "-shm"):
        side = Path(str(path) + extra)
        if side.exists():
            assert key.encode() not in side.read_bytes()
    assert "retry" in caplog.text and key not in caplog.text
    assert key not in repr(llm)


def test_a_reply_with_lone_surrogates_is_cached_as_valid_text(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A provider's reply holding lone surrogates (JSON "\\ud800"): each becomes U+FFFD where it enters,
    with a warning; it is cached and served back exactly as returned the first time."""
    cache = CallCache(tmp_path / "c.sqlite")
    client = LLMClient(ScriptedLLM(["ok \ud800 then \udfff"]), cache=cache, retry=RetryPolicy(base_delay=0))
    with caplog.at_level("WARNING", logger="causalcheck"):
        first = run_sync(client.complete(_req()))
    assert first.text == "ok \ufffd then \ufffd" and "lone surrogates" in caplog.text
    again = LLMClient(ScriptedLLM([]), cache=cache)
    assert run_sync(again.complete(_req())).text == first.text


def test_a_call_whose_message_holds_a_lone_surrogate_is_answered_not_cached(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A caller's message with a lone surrogate: the call is keyed and answered; the cache write is
    skipped with a warning (the documented behaviour of a failed write), never an exception."""
    cache = CallCache(tmp_path / "c.sqlite")
    client = LLMClient(ScriptedLLM(["fine"]), cache=cache, retry=RetryPolicy(base_delay=0))
    with caplog.at_level("WARNING", logger="causalcheck"):
        assert run_sync(client.complete(_req("q \ud800"))).text == "fine"
    assert "could not store a call" in caplog.text and len(cache) == 0
    assert request_key("fake", "", "m", _req("q \ud800")) != request_key("fake", "", "m", _req("q \udfff"))
