"""Fault injection: retries with backoff and Retry-After, degraded results, cost limits, kill and resume."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from _fake_server import FakeServer
from causalcheck.adapters import (
    CostLimitError,
    LLMClient,
    LLMError,
    LLMRun,
    Prices,
    ProviderLimits,
    Request,
    RetryPolicy,
    ScriptedLLM,
    fault,
    make_llm,
    run_sync,
)
from causalcheck.explain.answer import generate_answers, read_answer_journal
from causalcheck.explain.data import parse_item

REPO = Path(__file__).resolve().parents[1]


def _req(text: str = "q") -> Request:
    return Request.chat([{"role": "user", "content": text}])


class SleepRecorder:
    """An injectable sleep that records the waits instead of waiting."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def _client(llm: Any, sleep: SleepRecorder | None = None, **retry: Any) -> LLMClient:
    return LLMClient(llm, retry=RetryPolicy(**retry), sleep=sleep)


def test_transient_faults_are_retried_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    """429 (Retry-After honoured), 500, reset and timeout are retried; every retry is logged."""
    llm = ScriptedLLM([fault("429", retry_after=7.0), fault("500"), fault("connection"), fault("timeout"), "fine"])
    sleep = SleepRecorder()
    client = _client(llm, sleep, max_attempts=5, base_delay=1.0, jitter=0.25)
    with caplog.at_level(logging.WARNING, logger="causalcheck.llm"):
        assert run_sync(client.complete(_req())).text == "fine"
    assert sleep.waits[0] == 7.0
    assert all(1.0 * 2 ** (i - 1) <= w <= 1.25 * 2 ** (i - 1) for i, w in enumerate(sleep.waits[1:], start=2))
    assert client.meter.retries == 4 and client.meter.calls == 5
    retry_lines = [r.getMessage() for r in caplog.records if "retry" in r.getMessage()]
    assert len(retry_lines) == 4 and "429" in retry_lines[0] and "Retry-After 7s" in retry_lines[0]


def test_backoff_schedule_is_seeded() -> None:
    """The jittered schedule is identical for the same seed and differs for another seed."""

    def schedule(seed: int) -> list[float]:
        sleep = SleepRecorder()
        llm = ScriptedLLM([fault("500")] * 4 + ["ok"])
        run_sync(_client(llm, sleep, seed=seed, jitter=0.5).complete(_req()))
        return sleep.waits

    assert schedule(3) == schedule(3)
    assert schedule(3) != schedule(4)


def test_retries_run_out_and_hard_errors_are_not_retried() -> None:
    """After max_attempts the call fails with the last error; a non-transient error fails at once."""
    llm = ScriptedLLM([fault("503")] * 3)
    with pytest.raises(LLMError, match=r"after 3 attempts.*503"):
        run_sync(_client(llm, SleepRecorder(), max_attempts=3).complete(_req()))
    hard = ScriptedLLM([LLMError("HTTP 400: bad request"), "unused"])
    with pytest.raises(LLMError, match="400"):
        run_sync(_client(hard, SleepRecorder()).complete(_req()))
    assert len(hard.calls) == 1


@pytest.mark.parametrize("kind", ["429", "500", "reset", "badjson", "timeout"])
def test_misbehaving_server_recovers(kind: str, caplog: pytest.LogCaptureFixture) -> None:
    """Each misbehaviour of a real HTTP server is retried through the real adapter until it answers."""
    with FakeServer(lambda b: "recovered", faults=[kind, kind], hang=2.0) as srv, caplog.at_level(logging.WARNING, logger="causalcheck.llm"):
        llm = make_llm("openai/m", base_url=srv.base_url, env={}, timeout=0.5)
        client = LLMClient(llm, retry=RetryPolicy(base_delay=0.01, max_attempts=4, timeout=0.5))
        assert run_sync(client.complete(_req())).text == "recovered"
    assert srv.served == [kind, kind, "ok"]
    assert client.meter.retries == 2
    assert caplog.text.count("retry") == 2


def test_truncated_json_is_reasked_then_degraded() -> None:
    """A JSON reply cut at max_tokens is re-asked; when it stays cut the judgment is degraded, not zero."""
    from causalcheck.explain.data import Criterion
    from causalcheck.explain.llm import LLMCriterionJudge

    item = parse_item({"id": 1, "question": "What if?", "domain": "STEM"})
    crit = Criterion("c", "d", ("1", "2", "3", "4", "5"))
    with FakeServer(faults=["truncated", None]) as srv:
        client = LLMClient(make_llm("openai/m", base_url=srv.base_url, env={}), retry=RetryPolicy(base_delay=0.0))
        good = LLMCriterionJudge(client).judge_criterion(item, "answer", crit, 1)
    assert not good.degraded and good.score == 7 and srv.served == ["truncated", "ok"]
    with FakeServer(faults=lambda n, b: "truncated") as srv:
        client = LLMClient(make_llm("openai/m", base_url=srv.base_url, env={}), retry=RetryPolicy(base_delay=0.0))
        bad = LLMCriterionJudge(client).judge_criterion(item, "answer", crit, 1)
    assert bad.degraded and bad.score == 1 and "truncated" in (bad.error or "")
    assert len(srv.requests) == 2


def test_max_cost_stops_cleanly() -> None:
    """Once the spend reaches --max-cost the next call raises CostLimitError and nothing is sent."""
    llm = ScriptedLLM(lambda r: "x" * 4000, model="pricey")
    run = LLMRun.create(cache_mode="off", prices=Prices.from_mapping({"fake/pricey": [1000.0, 1000.0]}), max_cost=1.0)
    client = run.client(llm)
    run_sync(client.complete(_req("a")))
    assert run.meter.cost >= 1.0
    with pytest.raises(CostLimitError, match=r"max_cost=1\.0"):
        run_sync(client.complete(_req("b")))
    assert len(llm.calls) == 1
    assert run.meter.summary()["models"]["fake/pricey"]["priced"] is True


def test_per_provider_concurrency_limit() -> None:
    """No more than the provider's limit of calls is ever in flight."""
    import asyncio

    state = {"now": 0, "peak": 0}

    class Probe(ScriptedLLM):
        async def complete(self, request: Request) -> Any:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
            await asyncio.sleep(0.01)
            state["now"] -= 1
            return await super().complete(request)

    client = LLMClient(Probe(lambda r: "ok"), limits=ProviderLimits(3))

    async def many() -> list[Any]:
        return list(await asyncio.gather(*(client.complete(_req(str(i))) for i in range(20))))

    assert len(run_sync(many())) == 20
    assert state["peak"] == 3


def _items(n: int) -> list[Any]:
    return [parse_item({"id": i, "canonical_id": f"q{i:03d}", "question": f"What if {i}?", "domain": "STEM"}) for i in range(1, n + 1)]


def test_answers_failed_items_redone_on_resume(tmp_path: Path) -> None:
    """Items that fail after retries are written as failed, and --resume asks only those again."""
    out = tmp_path / "answers.jsonl"
    bad = {"What if 2?", "What if 5?"}

    def flaky(req: Request) -> Any:
        q = req.messages[-1].content
        return fault("500") if any(b in q for b in bad) else "answer: " + q[-30:]

    run = LLMRun.create(cache_path=tmp_path / "c.sqlite", retry=RetryPolicy(max_attempts=2, base_delay=0.0))
    s1 = run_sync(generate_answers(_items(6), run.client(ScriptedLLM(flaky)), out))
    assert (s1.answered, s1.failed) == (4, 2)
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(r["canonical_id"] for r in lines if r["status"] == "failed") == ["q002", "q005"]
    assert all(r["model_answer"] is None and "500" in r["model_answer_error"] for r in lines if r["status"] == "failed")

    healed = ScriptedLLM(lambda r: "answer: " + r.messages[-1].content[-30:])
    s2 = run_sync(generate_answers(_items(6), run.client(healed), out, resume=True))
    assert (s2.answered, s2.failed, s2.skipped) == (2, 0, 4)
    assert len(healed.calls) == 2
    done, dropped = read_answer_journal(out)
    assert sorted(done) == [f"q{i:03d}" for i in range(1, 7)] and dropped == 0
    assert len(out.read_text().splitlines()) == 6


def _bench(tmp_path: Path, n: int) -> Path:
    path = tmp_path / "bench.json"
    items = [{"id": i, "canonical_id": f"q{i:03d}", "question": f"What if {i}?", "domain": "STEM"} for i in range(1, n + 1)]
    path.write_text(json.dumps({"meta": {}, "items": items}))
    return path


def _answer_cmd(port: int, bench: Path, out: Path, cache: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "causalcheck.explain.answer", "--model", "openai/fake", "--base-url",
        f"http://127.0.0.1:{port}/v1", "--benchmark", str(bench), "--out", str(out), "--cache", str(cache),
        "--concurrency", "2", *extra,
    ]  # fmt: skip


def test_sigkill_and_resume_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    """A run killed with SIGKILL mid-way and resumed ends with every item exactly once; a warm re-run calls nothing."""
    n = 12
    bench, out, cache = _bench(tmp_path, n), tmp_path / "answers.jsonl", tmp_path / "c.sqlite"
    env = {**os.environ, "OPENAI_API_KEY": "sk-planted-KEY-9f8e7d6c5b4a3210"}
    server = subprocess.Popen([sys.executable, str(REPO / "tests" / "_fake_server.py"), "0.15"], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline())
        proc = subprocess.Popen(_answer_cmd(port, bench, out, cache), env=env, stderr=subprocess.DEVNULL)
        deadline = time.time() + 60
        while time.time() < deadline:
            if out.exists() and len(read_answer_journal(out)[0]) >= 3:
                break
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        killed_with = len(read_answer_journal(out)[0])
        assert 3 <= killed_with < n

        resumed = subprocess.run(_answer_cmd(port, bench, out, cache, "--resume"), env=env, capture_output=True, text=True, timeout=120)
        assert resumed.returncode == 0, resumed.stderr
        summary = json.loads(resumed.stdout.strip().splitlines()[-1])
        assert summary["skipped"] == killed_with and summary["answered"] == n - killed_with
        lines = [json.loads(x) for x in out.read_text().splitlines()]
        keys = [r["canonical_id"] for r in lines if "causalcheck_run" not in r]
        assert sorted(keys) == [f"q{i:03d}" for i in range(1, n + 1)]
        assert [r["causalcheck_run"]["command"] for r in lines if "causalcheck_run" in r] == ["explain answer"] * 2

        out.unlink()
        warm = subprocess.run(_answer_cmd(port, bench, out, cache), env=env, capture_output=True, text=True, timeout=120)
        assert warm.returncode == 0, warm.stderr
        warm_summary = json.loads(warm.stdout.strip().splitlines()[-1])
        assert warm_summary["accounting"]["calls"] == 0 and warm_summary["accounting"]["cache_hits"] == n
        assert len(out.read_text().splitlines()) == n + 1  # the run header, then one line per item
        for f in (out, cache):
            assert b"sk-planted-KEY" not in f.read_bytes()
        assert "sk-planted-KEY" not in resumed.stderr + resumed.stdout + warm.stderr
    finally:
        server.kill()
        server.wait()
        if server.stdout is not None:
            server.stdout.close()


# ------------------------------------------------- links planted in an output folder (trust round 3, class 1)


def _planted(tmp_path: Path) -> Path:
    precious = tmp_path / "users" / "notes.txt"
    precious.parent.mkdir()
    precious.write_text("keep me\n")
    return precious


@pytest.mark.parametrize("command", ["lab run", "lab score", "explain score", "report", "sweep"])
def test_every_locked_command_refuses_a_lock_that_is_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """The lock file (`.causalcheck.lock` in --out, `.<name>.lock` beside it) planted as a symlink to a
    user's file: exit 2 naming the link, the user's file keeps its bytes, nothing else is written."""
    from causalcheck.cli import main

    precious = _planted(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    if command in ("lab score", "report"):
        assert main(["lab", "run", "--suite", "mini", "--limit", "1", "--agent", "planner", "--out", str(tmp_path / "run"), "--quiet"]) == 0
    lock = out / ".causalcheck.lock"
    args = {
        "lab run": ["lab", "run", "--suite", "mini", "--limit", "1", "--agent", "planner", "--out", str(out), "--quiet"],
        "lab score": ["lab", "score", str(tmp_path / "run"), "--out", str(out)],
        "explain score": ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong",
                          "--limit", "1", "--out", str(out)],
        "report": ["report", str(tmp_path / "run"), "--out", str(out / "report")],
        "sweep": ["sweep", str(tmp_path / "grid.toml"), "--out", str(out), "--quiet"],
    }[command]  # fmt: skip
    if command == "report":
        lock = out / ".report.lock"
    if command == "sweep":
        (tmp_path / "grid.toml").write_text('suites = ["mini"]\nseeds = [0]\nlimit = 1\n[[agents]]\nname = "planner"\n')
    lock.symlink_to(precious)
    capsys.readouterr()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert str(lock) in err and "symbolic link" in err, err
    assert precious.read_text() == "keep me\n"
    assert [p.name for p in out.iterdir()] == [lock.name]


def test_explain_score_never_writes_through_a_dangling_link_named_like_its_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dangling symlink named like a result file of --out: exit 2 naming it; nothing appears where it points."""
    from causalcheck.cli import main

    out = tmp_path / "out"
    out.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    for suffix in ("jsonl", "json", "md", "run"):
        (out / f"demo-strong_metrics_offline.{suffix}").symlink_to(outside / f"planted.{suffix}")
    args = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong", "--limit", "2", "--out", str(out)]
    assert main(args) == 2
    assert "is a symbolic link" in capsys.readouterr().err
    assert list(outside.iterdir()) == []
