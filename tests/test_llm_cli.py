"""The model-backed commands end to end: explain score --judge, explain answer, lab run --agent llm.

A local fake OpenAI-compatible server stands in for the provider; it injects faults on purpose.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from _fake_server import FakeServer, prism_responder
from causalcheck.cli import main

KEY = "sk-planted-CLI-KEY-0123456789abcdef"


def _score_args(out: Path, base: str, cache: Path, *extra: str) -> list[str]:
    return [
        "explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong",
        "--limit", "3", "--out", str(out), "--judge", "openai/fake-judge", "--base-url", base,
        "--cache", str(cache), "--retry-base-delay", "0", "--max-retries", "2", *extra,
    ]  # fmt: skip


def _result(out: Path) -> dict[str, Any]:
    [path] = sorted(out.glob("*_metrics_*.json"))
    return dict(json.loads(path.read_text()))


def test_score_with_llm_judge_faults_degraded_and_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Faults are retried and logged; an item whose judge keeps failing is degraded, then redone by a resumed run."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    out, cache = tmp_path / "out", tmp_path / "calls.sqlite"
    broken = {"on": True}

    def faults(n: int, body: dict[str, Any]) -> str | None:
        user = body["messages"][-1]["content"]
        if n in (0, 1):
            return "429" if n == 0 else "reset"
        if broken["on"] and "Moon" in user and "Criterion (JSON)" in user:
            return "500"
        return None

    with FakeServer(prism_responder, faults) as srv:
        assert main(_score_args(out, srv.base_url, cache)) == 0
        first = _result(out)
        err = capsys.readouterr().err
        assert "retry" in err and KEY not in err
        degraded = [it for it in first["items"] if it["metrics"].get("degraded")]
        assert [it["canonical_id"] for it in degraded] == ["demo_stem_01"]
        assert all("criterion" in r for r in degraded[0]["metrics"]["degraded_reasons"])
        edge_calls = sum(1 for b in srv.requests if "Source claim:" in b["messages"][-1]["content"])
        causal_edges = sum(1 for it in first["items"] for e in it["parsed_dag"]["edges"] if e["relation_type"] == "CAUSE")
        assert edge_calls == causal_edges

        broken["on"] = False
        before = len(srv.requests)
        assert main(_score_args(out, srv.base_url, cache)) == 0
        second = _result(out)
        assert not any(it["metrics"].get("degraded") for it in second["items"])
        assert len(second["items"]) == 3
        redo = [b for b in srv.requests[before:]]
        assert redo and all("Moon" in b["messages"][-1]["content"] for b in redo)

        # a warm re-run of the same command (fresh output) makes zero calls
        before = len(srv.requests)
        capsys.readouterr()
        assert main(_score_args(tmp_path / "out2", srv.base_url, cache)) == 0
        assert len(srv.requests) == before
        assert "model calls: 0 sent" in capsys.readouterr().err
    for f in [*out.iterdir(), cache]:
        assert KEY.encode() not in f.read_bytes()


def test_score_judge_all_edges_flag(tmp_path: Path) -> None:
    """--judge-all-edges judges every edge, as the original does."""
    with FakeServer(prism_responder) as srv:
        assert main([*_score_args(tmp_path / "o", srv.base_url, tmp_path / "c.sqlite"), "--judge-all-edges"]) == 0
        res = _result(tmp_path / "o")
        edges = sum(len(it["parsed_dag"]["edges"]) for it in res["items"])
        judged = sum(1 for b in srv.requests if "Source claim:" in b["messages"][-1]["content"])
    assert judged == edges


def test_explain_answer_command(tmp_path: Path) -> None:
    """`causalcheck explain answer` writes one line per item at temperature 0.6 / 4096 tokens; --max-cost stops with 3."""
    out = tmp_path / "a.jsonl"
    with FakeServer(lambda b: "An answer.") as srv:
        args = ["explain", "answer", "--model", "openai/fake", "--base-url", srv.base_url, "--benchmark", "demo",
                "--limit", "2", "--out", str(out), "--cache", str(tmp_path / "c.sqlite")]  # fmt: skip
        assert main(args) == 0
        assert {(b["temperature"], b["max_tokens"]) for b in srv.requests} == {(0.6, 4096)}
        assert main(args) == 2  # the file exists and --resume was not given
        prices = tmp_path / "p.json"
        prices.write_text(json.dumps({"openai/fake": [1e6, 1e6]}))
        capped = ["explain", "answer", "--model", "openai/fake", "--base-url", srv.base_url, "--benchmark", "demo",
                  "--out", str(tmp_path / "b.jsonl"), "--cache-mode", "off", "--prices", str(prices),
                  "--max-cost", "1", "--concurrency", "1"]  # fmt: skip
        assert main(capped) == 3
    assert len(out.read_text().splitlines()) == 3  # the run header and one line per item
    assert 2 <= len((tmp_path / "b.jsonl").read_text().splitlines()) < 13


def test_lab_run_llm_agent(tmp_path: Path) -> None:
    """`causalcheck lab run --agent llm --model …` plays an episode through the adapter."""
    reply = json.dumps({"memory": "m", "thought": "t", "past_data": [], "hypothesis": {}, "experiment": {}, "action": "SUBMIT", "arg1": "done"})
    with FakeServer(lambda b: reply) as srv:
        code = main([
            "lab", "run", "--suite", "mini", "--limit", "1", "--agent", "llm", "--model", "openai/fake",
            "--agent-opt", f"base_url=\"{srv.base_url}\"", "--agent-opt", f"cache=\"{tmp_path / 'c.sqlite'}\"",
            "--out", str(tmp_path / "run"), "--quiet",
        ])  # fmt: skip
        assert code == 0
        assert srv.requests and srv.requests[0]["response_format"] == {"type": "json_object"}
    trajectories = list((tmp_path / "run").rglob("*.jsonl"))
    assert trajectories


def test_score_max_cost_stops_with_exit_3_and_resumes(tmp_path: Path) -> None:
    """explain score stops cleanly at --max-cost (exit 3, finished items kept); a resumed run completes."""
    prices = tmp_path / "p.json"
    prices.write_text(json.dumps({"openai/fake-judge": [1e4, 1e4]}))
    out, cache = tmp_path / "out", tmp_path / "c.sqlite"
    with FakeServer(prism_responder) as srv:
        base = _score_args(out, srv.base_url, cache, "--prices", str(prices), "--concurrency", "1")
        assert main([*base, "--max-cost", "1.5"]) == 3
        [jsonl] = out.glob("*.jsonl")
        kept = [json.loads(x) for x in jsonl.read_text().splitlines()]
        assert len(kept) < 3
        assert main([*base, "--max-cost", "1000"]) == 0
        assert len(_result(out)["items"]) == 3


def test_score_sigkill_and_resume(tmp_path: Path) -> None:
    """explain score --judge killed with SIGKILL and resumed ends with every item exactly once."""
    out, cache = tmp_path / "out", tmp_path / "c.sqlite"
    repo = Path(__file__).resolve().parents[1]
    server = subprocess.Popen([sys.executable, str(repo / "tests" / "_fake_server.py"), "0.03", "prism"], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        base = f"http://127.0.0.1:{int(server.stdout.readline())}/v1"
        args = _score_args(out, base, cache)
        args[args.index("--limit") + 1] = "6"
        cmd = [sys.executable, "-m", "causalcheck", *args]
        proc = subprocess.Popen(cmd, stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        deadline = time.time() + 90
        while time.time() < deadline:
            rows = list(out.glob("*.jsonl"))
            if rows and len(rows[0].read_text().splitlines()) >= 2:
                break
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        [jsonl] = out.glob("*.jsonl")
        assert 2 <= len(jsonl.read_text().splitlines()) < 6
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
        assert done.returncode == 0, done.stderr
        ids = [it["canonical_id"] for it in _result(out)["items"]]
        assert len(ids) == 6 and len(set(ids)) == 6
    finally:
        server.kill()
        server.wait()
        if server.stdout is not None:
            server.stdout.close()


def test_answer_file_feeds_score(tmp_path: Path) -> None:
    """Answers written by `explain answer` are scored by `explain score --judge` under the answering model's name."""
    answers = tmp_path / "answers.jsonl"

    def respond(body: dict[str, Any]) -> str:
        if "Question domain:" in body["messages"][-1]["content"]:
            return "The Moon vanishes. Tides shrink because the Moon pulled on the sea. Coasts change."
        return prism_responder(body)

    with FakeServer(respond) as srv:
        common = ["--base-url", srv.base_url, "--cache", str(tmp_path / "c.sqlite")]
        assert main(["explain", "answer", "--model", "openai/answerer", "--benchmark", "demo", "--limit", "2", "--out", str(answers), *common]) == 0
        assert main(["explain", "score", "--benchmark", "demo", "--answers", str(answers), "--limit", "2",
                     "--out", str(tmp_path / "out"), "--judge", "openai/judge", *common]) == 0  # fmt: skip
    res = _result(tmp_path / "out")
    assert res["meta"]["answer_model"] == "openai/answerer" and res["meta"]["judge_model"] == "openai/judge"
    assert len(res["items"]) == 2 and all(it["parsed_rst_source"] == "parser" for it in res["items"])


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--temperature", "5"], "temperature=5.0"),
        (["--max-tokens", "0"], "max_tokens=0"),
        (["--concurrency", "0"], "concurrency=0"),
        (["--limit", "0"], "--limit=0"),
        (["--cache-mode", "replay", "--cache", "/nonexistent/dir/c.sqlite"], "does not exist"),
    ],
)
def test_answer_bad_options_are_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    """Bad option values exit 2 with the offending value, before any call."""
    args = ["explain", "answer", "--model", "openai/x", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", "demo",
            "--out", str(tmp_path / "a.jsonl"), "--cache", str(tmp_path / "c.sqlite"), *extra]  # fmt: skip
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_answer_out_is_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An --out that cannot be written is an input error, not a crash."""
    args = ["explain", "answer", "--model", "openai/x", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", "demo",
            "--out", str(tmp_path), "--resume", "--cache-mode", "off"]  # fmt: skip
    assert main(args) == 2
    assert "out=" in capsys.readouterr().err


def test_score_resume_after_a_torn_line(tmp_path: Path) -> None:
    """A result line cut by a kill is dropped on resume, and resuming twice more still works."""
    out, cache = tmp_path / "out", tmp_path / "c.sqlite"
    with FakeServer(prism_responder) as srv:
        args = _score_args(out, srv.base_url, cache)
        assert main(args) == 0
        [jsonl] = out.glob("*.jsonl")
        data = jsonl.read_bytes()
        jsonl.write_bytes(data[: len(data) - 40])  # the last line loses its end (and newline)
        assert main(args) == 0
        assert main(args) == 0
    ids = [it["canonical_id"] for it in _result(out)["items"]]
    assert len(ids) == 3 and len(set(ids)) == 3
    assert all(json.loads(x) for x in jsonl.read_text().splitlines())


def test_a_base_url_with_credentials_is_recorded_redacted(tmp_path: Path) -> None:
    """`--agent-opt base_url=http://user:PASS@host/v1?api-key=KEY`: the run works, and no output file holds PASS or KEY."""
    reply = json.dumps({"memory": "m", "thought": "t", "past_data": [], "hypothesis": {}, "experiment": {}, "action": "SUBMIT", "arg1": "done"})
    with FakeServer(lambda b: reply) as srv:
        url = srv.base_url.replace("http://", "http://someone:PLANTEDPASS@") + "?api-key=PLANTEDKEY"
        code = main([
            "lab", "run", "--suite", "mini", "--limit", "1", "--agent", "llm", "--model", "openai/fake",
            "--agent-opt", f"base_url=\"{url}\"", "--agent-opt", f"cache=\"{tmp_path / 'c.sqlite'}\"",
            "--out", str(tmp_path / "run"), "--quiet",
        ])  # fmt: skip
        assert code == 0 and srv.requests
    written = [p for p in (tmp_path / "run").rglob("*") if p.is_file()]
    assert any(p.name == "run.json" for p in written) and any(p.name == "summary.json" for p in written)
    for p in written:
        text = p.read_text(encoding="utf-8", errors="replace")
        assert "PLANTEDPASS" not in text and "PLANTEDKEY" not in text, p
    assert "[REDACTED]@" in (tmp_path / "run" / "run.json").read_text()


def test_a_reply_with_a_lone_surrogate_runs_and_writes_valid_utf8(tmp_path: Path) -> None:
    """`lab run --agent llm` whose model replies with a lone surrogate: exit 0, every file valid UTF-8."""
    reply = "Here \ud800 it is: " + json.dumps({"memory": "m", "thought": "t", "past_data": [], "hypothesis": {}, "experiment": {}, "action": "SUBMIT", "arg1": "done"})
    with FakeServer(lambda b: reply) as srv:
        code = main([
            "lab", "run", "--suite", "mini", "--limit", "1", "--agent", "llm", "--model", "openai/fake",
            "--agent-opt", f"base_url=\"{srv.base_url}\"", "--agent-opt", f"cache=\"{tmp_path / 'c.sqlite'}\"",
            "--out", str(tmp_path / "run"), "--quiet",
        ])  # fmt: skip
    assert code == 0
    for p in (tmp_path / "run").rglob("*"):
        if p.is_file():
            p.read_bytes().decode("utf-8")
