"""Results you can trust on the LLM path: truncated replies, the lab agent's fallback, missing extras,
option and response validation, and explain answer's resume, lock, exit codes and provenance."""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from causalcheck.adapters import (
    CallCache,
    Completion,
    LLMClient,
    LLMError,
    Request,
    RetryPolicy,
    ScriptedLLM,
    TransientLLMError,
    make_llm,
    run_sync,
    truncated,
)
from causalcheck.base.errors import InputFormatError
from causalcheck.cli import main
from causalcheck.explain.answer import generate_answers, read_answer_journal
from causalcheck.explain.data import parse_item
from causalcheck.lab.llm_agent import LLMAgent
from causalcheck.lab.runner import run_episode
from causalcheck.lab.suites import load_suite


def _req(text: str = "q") -> Request:
    return Request.chat([{"role": "user", "content": text}])


def _items(n: int) -> list[Any]:
    return [parse_item({"id": i, "canonical_id": f"q{i:03d}", "question": f"What if {i}?", "domain": "STEM"}) for i in range(1, n + 1)]


def _rows(cache: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(cache) as conn:
        return list(conn.execute("SELECT text, finish_reason FROM calls"))


# ----------------------------------------------------------------- replies cut at max_tokens
def test_a_reply_cut_at_max_tokens_is_asked_again_and_never_cached(tmp_path: Path) -> None:
    """A truncated reply that would still parse ("yes" cut at max_tokens) is re-asked; only the complete
    reply is stored (the truncated one was stored and replayed on every resume)."""
    cache = CallCache(tmp_path / "c.sqlite")
    llm = ScriptedLLM([truncated("yes, because the text says so", 3), "yes"])
    client = LLMClient(llm, cache=cache, retry=RetryPolicy(base_delay=0.0))
    comp = run_sync(client.complete(_req()))
    assert comp.text == "yes" and comp.finish_reason == "stop" and len(llm.calls) == 2
    assert _rows(tmp_path / "c.sqlite") == [("yes", "stop")]


def test_a_truncated_reply_in_an_old_cache_is_not_served(tmp_path: Path) -> None:
    """A length-cut row written by an older version is a miss: the model is asked and the row replaced."""
    from causalcheck.adapters import request_key

    path = tmp_path / "c.sqlite"
    cache = CallCache(path)
    llm = ScriptedLLM(["complete answer"])
    client = LLMClient(llm, cache=cache, retry=RetryPolicy(base_delay=0.0))
    key = request_key(llm.provider, llm.endpoint, llm.model, _req())
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO calls VALUES (?, 'fake', 'scripted', '{}', 'cut', 'length', 1, 1, 0)", (key,))
    assert run_sync(client.complete(_req())).text == "complete answer"
    assert _rows(path) == [("complete answer", "stop")]


def test_answers_cut_at_max_tokens_are_reasked_and_failed_when_always_cut(tmp_path: Path) -> None:
    """explain answer: a cut answer is asked again; an item whose answers are always cut fails with the reason
    (it was stored as a complete answer)."""
    cache = CallCache(tmp_path / "c.sqlite")
    always_cut = ScriptedLLM(lambda r: truncated("A long answer that never ends " * 10, 40))
    out = tmp_path / "a.jsonl"
    client = LLMClient(always_cut, cache=cache, retry=RetryPolicy(base_delay=0.0))
    summary = run_sync(generate_answers(_items(1), client, out))
    assert (summary.answered, summary.failed) == (0, 1)
    assert "cut at max_tokens" in summary.failures[0][1]
    assert _rows(tmp_path / "c.sqlite") == []


# ----------------------------------------------------------------- the LLM lab agent
def _record(action: dict[str, Any]) -> str:
    return json.dumps({"memory": "m", "thought": "t", "past_data": [], "hypothesis": {}, "experiment": {}, **action})


def test_the_agents_own_wait_is_not_reported_back_as_an_unknown_action() -> None:
    """After an unusable reply the model is told its reply could not be used — not "unknown action='WAIT'"."""
    graph = load_suite("mini").graphs[0]
    llm = ScriptedLLM(["no json here", *[_record({"action": "SUBMIT", "arg1": "done"})] * 3])
    agent = LLMAgent(LLMClient(llm, retry=RetryPolicy(max_attempts=1)))
    _, steps, _ = run_episode(graph, agent, 1)
    assert steps[0]["info"]["degraded"] is True
    second_prompt = llm.calls[1].messages[-1].content
    assert "unknown action" not in second_prompt
    assert "could not be used" in second_prompt


@pytest.mark.parametrize("reply", ['{"score": 7, "reason": "fine"}', '{"action": 3}', '{"action": "DANCE"}', "[1, 2, 3]"])
def test_json_that_is_not_a_step_record_is_degraded_with_a_warning(reply: str, caplog: pytest.LogCaptureFixture) -> None:
    """JSON without a usable action is a degraded step with a logged warning (it silently became a WAIT,
    and the episode ran to the step limit without a word)."""
    graph = load_suite("mini").graphs[0]
    llm = ScriptedLLM([reply, *[_record({"action": "SUBMIT", "arg1": "done"})] * 3])
    agent = LLMAgent(LLMClient(llm, retry=RetryPolicy(max_attempts=1)))
    with caplog.at_level(logging.WARNING, logger="causalcheck.llm"):
        _, steps, _ = run_episode(graph, agent, 1)
    assert steps[0]["info"]["degraded"] is True and steps[0]["action"]["kind"] == "wait"
    assert "no usable reply" in caplog.text
    assert agent.degraded_steps == 1


def test_lab_run_max_steps_caps_the_episode(tmp_path: Path) -> None:
    """--max-steps N ends every episode after N agent steps (done_reason step-limit) and is recorded in run.json."""
    out = tmp_path / "run"
    assert main(["lab", "run", "--suite", "mini", "--agent", "random", "--limit", "1", "--max-steps", "2", "--out", str(out), "--quiet"]) == 0
    assert json.loads((out / "run.json").read_text())["config"]["max_steps"] == 2
    [episode] = sorted((out / "episodes").glob("*.jsonl"))
    lines = [json.loads(x) for x in episode.read_text().splitlines()]
    steps = [x for x in lines if x.get("type") == "step" or "action" in x]
    assert 1 <= len(steps) <= 2
    with pytest.raises(SystemExit):
        main(["lab", "run", "--suite", "mini", "--agent", "random", "--max-steps", "0", "--out", str(tmp_path / "x")])


# ----------------------------------------------------------------- setup errors exit 2
def test_without_the_openai_package_an_llm_command_exits_2_with_the_install_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No openai package: exit 2 and pip install 'causalcheck[llm]' (it was an internal error, exit 70)."""
    monkeypatch.setitem(sys.modules, "openai", None)
    code = main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--limit", "1", "--out", str(tmp_path / "o"),
                 "--judge", "openai/m", "--base-url", "http://127.0.0.1:9/v1", "--cache-mode", "off"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2, err
    assert "pip install 'causalcheck[llm]'" in err


def test_the_anthropic_key_message_names_what_exists() -> None:
    """The missing-key error names the ANTHROPIC_API_KEY variable, not a --api-key option that does not exist."""
    with pytest.raises(LLMError) as info:
        make_llm("anthropic/claude-x", env={})
    assert "ANTHROPIC_API_KEY" in str(info.value) and "--api-key" not in str(info.value)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--max-cost", "nan"], "--max-cost"),
        (["--timeout", "inf"], "--timeout"),
        (["--retry-base-delay", "nan"], "--retry-base-delay"),
        (["--concurrency", "0"], "--concurrency"),
    ],
)
def test_non_finite_model_call_options_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str) -> None:
    """NaN / infinite budgets and delays exit 2 naming the option (NaN turned --max-cost off silently)."""
    code = main(["explain", "answer", "--model", "openai/m", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", "demo",
                 "--out", str(tmp_path / "a.jsonl"), *extra])  # fmt: skip
    assert code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("content", ['{"openai/m": ["inf", 1]}', '{"openai/m": [1e400, 1]}', "fifo"])
def test_bad_price_files_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    """A price file with infinite prices, or a FIFO as --prices, exits 2 (infinite cost / blocked read)."""
    prices = tmp_path / "p.json"
    if content == "fifo":
        os.mkfifo(prices)
    else:
        prices.write_text(content)
    code = main(["explain", "answer", "--model", "openai/m", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", "demo",
                 "--out", str(tmp_path / "a.jsonl"), "--prices", str(prices)])  # fmt: skip
    assert code == 2, capsys.readouterr().err


def test_a_cache_path_that_is_not_a_file_is_refused(tmp_path: Path) -> None:
    """A FIFO or folder as --cache is refused at once (SQLite would block on the FIFO)."""
    fifo = tmp_path / "c.sqlite"
    os.mkfifo(fifo)
    with pytest.raises(InputFormatError, match="not a regular file"):
        CallCache(fifo)
    with pytest.raises(InputFormatError, match="not a regular file"):
        CallCache(tmp_path, "ro")


@pytest.mark.parametrize(
    "response",
    [{"content": "text"}, {"content": [{"type": "text", "text": 5}]}, {"usage": [1]}, {"usage": {"input_tokens": "many"}}, {"stop_reason": 7}],
)
def test_malformed_anthropic_responses_are_transient_errors(response: dict[str, Any]) -> None:
    """A Messages response of the wrong shape is a retried 'bad response', never a TypeError (exit 70)."""
    from causalcheck.adapters._anthropic import completion_of

    with pytest.raises(TransientLLMError, match="bad response"):
        completion_of(response)


# ----------------------------------------------------------------- explain answer
def _answer_args(out: Path, *extra: str) -> list[str]:
    return ["explain", "answer", "--model", "openai/m", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", "demo",
            "--out", str(out), "--cache-mode", "off", "--limit", "2", *extra]  # fmt: skip


def test_answer_exit_codes_list_every_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """All items failed: exit 2; some failed: exit 1; each failure named on stderr and in the summary."""
    import argparse

    from causalcheck.explain.answer import add_answer_arguments, run_answer

    parser = argparse.ArgumentParser()
    add_answer_arguments(parser)

    def run(out: Path, replies: Any) -> int:
        args = parser.parse_args(_answer_args(out, "--max-retries", "0")[2:])
        return run_answer(args, llm_override=ScriptedLLM(replies))

    assert run(tmp_path / "a.jsonl", lambda r: LLMError("HTTP 400: bad request")) == 2
    err = capsys.readouterr().err
    assert err.count("failed: ") == 2 and "no item could be answered" in err
    assert run(tmp_path / "b.jsonl", lambda r: LLMError("HTTP 400") if "Moon" in r.messages[-1].content else "An answer.") == 1
    out = capsys.readouterr()
    assert json.loads(out.out)["failures"][0]["key"] == "demo_stem_01"


def test_answer_file_records_each_sessions_provenance(tmp_path: Path) -> None:
    """Each explain answer session starts with a provenance line (version, command, options, time, benchmark
    SHA-256); explain score skips it and --resume keeps it."""
    import argparse

    from causalcheck import __version__
    from causalcheck.explain.answer import add_answer_arguments, run_answer
    from causalcheck.explain.data import load_answer_sets

    parser = argparse.ArgumentParser()
    add_answer_arguments(parser)
    out = tmp_path / "a.jsonl"
    assert run_answer(parser.parse_args(_answer_args(out)[2:]), llm_override=ScriptedLLM(lambda r: "An answer.")) == 0
    assert run_answer(parser.parse_args(_answer_args(out, "--resume")[2:]), llm_override=ScriptedLLM(lambda r: "An answer.")) == 0
    headers = [json.loads(x)["causalcheck_run"] for x in out.read_text().splitlines() if "causalcheck_run" in x]
    assert len(headers) == 2 and headers[0]["version"] == __version__ and headers[0]["command"] == "explain answer"
    assert headers[0]["inputs"][0]["path"].endswith("whatif_demo.json") and len(headers[0]["inputs"][0]["sha256"]) == 64
    [answers] = load_answer_sets(out)
    assert len(answers.answers) == 2


def test_bad_options_do_not_rewrite_the_answer_file(tmp_path: Path) -> None:
    """--resume with an invalid --temperature exits 2 before the file is compacted (it was rewritten first)."""
    out = tmp_path / "a.jsonl"
    out.write_text('{"id": 1, "model_answer": null, "status": "failed"}\n')
    before = out.read_bytes()
    assert main(_answer_args(out, "--resume", "--temperature", "5")) == 2
    assert out.read_bytes() == before


def test_answer_compaction_is_atomic(tmp_path: Path, disk_full: Callable[..., None]) -> None:
    """ENOSPC while the compacted file is flushed: the answer file is left as it was."""

    out = tmp_path / "a.jsonl"
    out.write_text('{"id": 1, "canonical_id": "q001", "model_answer": "x", "status": "ok"}\n{"id": 2, "model_answer": null, "status": "failed"}\n')
    before = out.read_bytes()
    disk_full()
    with pytest.raises(OSError):
        run_sync(generate_answers(_items(2), ScriptedLLM(lambda r: "An answer."), out, resume=True))
    assert out.read_bytes() == before


_HOLD = """
import sys, time
from pathlib import Path
from causalcheck.explain.answer import AnswerFileLock
with AnswerFileLock(Path(sys.argv[1]), "causalcheck explain answer (test holder)"):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_second_writer_of_one_answer_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """While another process writes the answer file, explain answer --resume exits 2 naming it; another
    file in the same folder can be written meanwhile."""
    out = tmp_path / "a.jsonl"
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert main(_answer_args(out, "--resume")) == 2
        err = capsys.readouterr().err
        assert f"pid {holder.pid}" in err and str(out) in err
        assert not out.exists()
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


def test_read_answer_journal_refuses_unsafe_lines(tmp_path: Path) -> None:
    """An answer file line nested 100 000 deep is bad input (RecursionError before)."""
    out = tmp_path / "a.jsonl"
    out.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(InputFormatError, match="MAX_DEPTH"):
        read_answer_journal(out)


def test_completion_type_is_unchanged() -> None:
    """Completion keeps its fields (finish_reason 'length' marks a cut reply)."""
    assert Completion("x", finish_reason="length").finish_reason == "length"
