"""Answer-generation strategies of explain answer: standard, causalcot, coin, short, long (WhatIfBench Appendix F)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from causalcheck.adapters import Request, ScriptedLLM, run_sync
from causalcheck.base.errors import InputFormatError
from causalcheck.cli import main
from causalcheck.explain.answer import (
    STRATEGIES,
    add_answer_arguments,
    answer_messages,
    generate_answers,
    run_answer,
)
from causalcheck.explain.data import load_answer_sets, load_benchmark


def _args(out: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_answer_arguments(parser)
    argv = ["--model", "openai/m", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", "demo", "--out", str(out),
            "--cache-mode", "off", "--limit", "2", *extra]  # fmt: skip
    return parser.parse_args(argv)


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_standard_prompt_is_the_published_runners() -> None:
    """standard sends the runner's messages unchanged: domain, type, the short question, the direct request."""
    item = load_benchmark("demo").items[0]
    system, user = answer_messages(item)
    assert system["content"].startswith("You answer counterfactual what-if questions. Give a direct, coherent answer in prose")
    assert user["content"] == f"Question domain: {item.domain}\nQuestion type: {item.answer_type}\n\n{item.question}\n\nAnswer the question carefully and directly."
    assert answer_messages(item, "standard") == answer_messages(item)


@pytest.mark.parametrize(
    ("strategy", "markers"),
    [
        ("causalcot", ("Step 1 - Intervention", "Step 2 - Causal graph", "Step 3 - Mechanisms", "Step 4 - Answer")),
        ("coin", ("Phase 1 - Extract", "Phase 2 - Reason iteratively", "go back", "'Answer:'")),
        ("short", ("at most 150 words",)),
        ("long", ("at least 800 words",)),
    ],
)
def test_each_strategy_asks_its_own_way(strategy: str, markers: tuple[str, ...]) -> None:
    """Every strategy keeps the domain, type and question and adds its own request (in order, for the stepwise ones)."""
    item = load_benchmark("demo").items[4]
    _, user = answer_messages(item, strategy)
    text = user["content"]
    assert text.startswith(f"Question domain: {item.domain}\nQuestion type: {item.answer_type}\n\n{item.question}\n\n")
    positions = [text.index(m) for m in markers]
    assert positions == sorted(positions)
    assert answer_messages(item, strategy) != answer_messages(item)


def test_unknown_strategy_is_refused() -> None:
    """A strategy that does not exist is an input error naming it, and a CLI usage error."""
    with pytest.raises(InputFormatError, match="strategy='tot'"):
        answer_messages(load_benchmark("demo").items[0], "tot")
    with pytest.raises(SystemExit) as exc:
        main(["explain", "answer", "--model", "m", "--benchmark", "demo", "--out", "x.jsonl", "--strategy", "tot"])
    assert exc.value.code == 2


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_strategy_recorded_in_every_line_and_the_header(tmp_path: Path, strategy: str) -> None:
    """Each answer line and the session's provenance record the strategy; the prompt sent is the strategy's."""
    out = tmp_path / "a.jsonl"
    llm = ScriptedLLM(lambda r: "An answer.")
    assert run_answer(_args(out, "--strategy", strategy), llm_override=llm) == 0
    header, *records = _lines(out)
    assert header["causalcheck_run"]["options"]["strategy"] == strategy  # type: ignore[index]
    assert [r["strategy"] for r in records] == [strategy, strategy]
    expected = "openai/m" if strategy == "standard" else f"openai/m+{strategy}"
    assert {r["model_name"] for r in records} == {expected}
    items = load_benchmark("demo").items[:2]
    sent = sorted(tuple(m.content for m in req.messages) for req in llm.calls)
    assert sent == sorted(tuple(m["content"] for m in answer_messages(it, strategy)) for it in items)
    [answers] = load_answer_sets(out)
    assert answers.model == expected and len(answers.answers) == 2


def test_resume_with_another_strategy_is_refused_untouched(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--resume with another strategy exits 2 before the file is rewritten; with the same one it continues."""
    out = tmp_path / "a.jsonl"
    assert run_answer(_args(out, "--strategy", "coin"), llm_override=ScriptedLLM(lambda r: "An answer.")) == 0
    before = out.read_bytes()
    args = ["explain", "answer", "--model", "openai/m", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", "demo",
            "--out", str(out), "--cache-mode", "off", "--limit", "3", "--resume"]  # fmt: skip
    assert main([*args, "--strategy", "causalcot"]) == 2
    err = capsys.readouterr().err
    assert "strategy='coin'" in err and "strategy='causalcot'" in err
    assert main(args) == 2  # the default (standard) differs too
    assert out.read_bytes() == before
    llm = ScriptedLLM(lambda r: "An answer.")
    assert run_answer(_args(out, "--strategy", "coin", "--limit", "3", "--resume"), llm_override=llm) == 0
    assert len(llm.calls) == 1 and [r.get("strategy") for r in _lines(out)[1:] if "strategy" in r] == ["coin"] * 3


def test_older_files_without_a_strategy_are_standard(tmp_path: Path) -> None:
    """An answer line written before strategies existed counts as standard: resumable with standard, refused with coin."""
    items = load_benchmark("demo").items[:2]
    out = tmp_path / "old.jsonl"
    old = {"id": items[0].id, "canonical_id": items[0].canonical_id, "model_name": "m", "model_answer": "Old answer.", "status": "ok"}
    out.write_text(json.dumps(old) + "\n")
    with pytest.raises(InputFormatError, match="strategy='standard'"):
        run_sync(generate_answers(items, ScriptedLLM(lambda r: "x"), out, resume=True, strategy="coin"))
    llm = ScriptedLLM(lambda r: "New answer.")
    summary = run_sync(generate_answers(items, llm, out, resume=True))
    assert (summary.answered, summary.skipped) == (1, 1) and len(llm.calls) == 1


def test_a_failed_line_of_another_strategy_does_not_block_resume(tmp_path: Path) -> None:
    """Only kept (ok) answers carry the fingerprint: failed lines are dropped, whatever strategy made them."""
    items = load_benchmark("demo").items[:1]
    out = tmp_path / "a.jsonl"
    failed = {"id": items[0].id, "canonical_id": items[0].canonical_id, "model_answer": None, "status": "failed", "strategy": "long"}
    out.write_text(json.dumps(failed) + "\n")
    summary = run_sync(generate_answers(items, ScriptedLLM(lambda r: "An answer."), out, resume=True, strategy="short"))
    assert summary.answered == 1
    assert [r["strategy"] for r in _lines(out)] == ["short"]


def test_strategy_answers_score_apart(tmp_path: Path) -> None:
    """Answers of two strategies scored into one folder get separate result files (the model name carries the strategy)."""
    from causalcheck.explain.run import offline_judges, score_answers

    std, cot = tmp_path / "std.jsonl", tmp_path / "cot.jsonl"

    def reply(req: Request) -> str:
        return "Because the change happens, the outcome shifts, so the result follows."

    assert run_answer(_args(std), llm_override=ScriptedLLM(reply)) == 0
    assert run_answer(_args(cot, "--strategy", "causalcot"), llm_override=ScriptedLLM(reply)) == 0
    judges = offline_judges()
    score_answers("demo", str(std), tmp_path / "o", judges, limit=2)
    score_answers("demo", str(cot), tmp_path / "o", judges, limit=2)
    assert sorted(p.name for p in (tmp_path / "o").glob("*.json")) == ["openai_m_causalcot_metrics_offline.json", "openai_m_metrics_offline.json"]
