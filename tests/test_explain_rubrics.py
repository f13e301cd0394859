"""explain rubrics: question-level rubrics in the official 5-criterion schema, generated through the LLM adapter."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

import pytest
from causalcheck.adapters import Completion, Request, ScriptedLLM, run_sync, truncated
from causalcheck.base.files import RunLockedError
from causalcheck.cli import main
from causalcheck.explain.answer import AnswerFileLock
from causalcheck.explain.data import BAND_KEYS, criteria_of, load_benchmark
from causalcheck.explain.rubrics import (
    MAX_CRITERIA,
    add_rubric_arguments,
    first_json_value,
    generate_rubrics,
    parse_rubric_reply,
    rubric_messages,
    run_rubrics,
)


def _criterion(i: int, **over: Any) -> dict[str, Any]:
    c: dict[str, Any] = {"name": f"Criterion {i}", "criteria_description": f"What criterion {i} checks."}
    c.update({k: f"band {k} of {i}" for k in BAND_KEYS})
    c.update(over)
    return c


GOOD = json.dumps([_criterion(i) for i in range(1, 6)])


def _questions(tmp_path: Path, n: int = 3) -> Path:
    """A benchmark of the first n demo questions with their rubrics removed."""
    bench = load_benchmark("demo")
    items = []
    for it in bench.items[:n]:
        raw = dict(it.raw)
        raw.pop("rubrics", None)
        items.append(raw)
    path = tmp_path / "questions.json"
    path.write_text(json.dumps({"meta": {"task": "questions"}, "items": items}))
    return path


def _args(bench: Path | str, out: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_rubric_arguments(parser)
    argv = ["--model", "openai/gen", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", str(bench), "--out", str(out),
            "--cache-mode", "off", "--retry-base-delay", "0", *extra]  # fmt: skip
    return parser.parse_args(argv)


def _journal(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in out.with_suffix(".jsonl").read_text().splitlines()]


def _question_of(req: Request) -> str:
    return str(json.loads(req.messages[-1].content)["item"]["question"])


# ---------------------------------------------------------------------- reading replies
def test_good_reply_gives_a_benchmark_the_loader_and_scorer_accept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Five good criteria per item: the output loads as a benchmark with 5-criterion rubrics and can be scored."""
    from causalcheck.explain.run import offline_judges, score_answers

    questions = _questions(tmp_path)
    out = tmp_path / "bench.json"
    llm = ScriptedLLM(lambda r: GOOD)
    assert run_rubrics(_args(questions, out), llm_override=llm) == 0
    assert len(llm.calls) == 3 and all(r.temperature == 0.6 for r in llm.calls)
    summary = json.loads(capsys.readouterr().out)
    assert (summary["generated"], summary["failed"], summary["total"]) == (3, 0, 3)
    bench = load_benchmark(out)
    assert [it.key for it in bench.items] == [it.key for it in load_benchmark(questions).items]
    for it in bench.items:
        assert [c.name for c in criteria_of(it)] == [f"Criterion {i}" for i in range(1, 6)]
        raw = it.raw["rubrics"]
        assert raw["rubric_title"] == f"{it.domain}_open_query_dependent_counterfactual_rubric"
        assert raw["question_focus"] == it.question and raw["aggregation"] == "mean_over_criteria_then_divide_by_10"
        assert list(raw["criteria"][0]) == ["name", "criteria_description", *BAND_KEYS]
    meta = bench.meta
    assert meta["task"] == "rubrics_generator" and meta["model"] == "openai/gen" and meta["count"] == 3
    assert meta["causalcheck"]["status"] == "complete" and meta["causalcheck"]["command"] == "explain rubrics"
    assert meta["causalcheck"]["inputs"][0]["path"] == str(questions)
    [res] = score_answers(str(out), "demo", tmp_path / "scored", offline_judges(), model="demo-strong")
    assert res.summary.n_items == 3 and not res.failed


def test_aliases_and_object_form() -> None:
    """An object with `criteria` and the aliases criterion_name / description is read into the official keys."""
    c = _criterion(1)
    aliased = {"criterion_name": c.pop("name"), "description": c.pop("criteria_description"), **c}
    reply = parse_rubric_reply("```json\n" + json.dumps({"criteria": [aliased]}) + "\n```")
    assert reply.criteria == (_criterion(1),) and reply.invalid == 0


def test_invalid_criteria_are_dropped_and_at_most_five_kept() -> None:
    """Criteria missing a band, with a non-text or empty field, or not objects are dropped; beyond five are cut."""
    bad = [_criterion(0, **{"5-6": None}), _criterion(0, name=7), _criterion(0, criteria_description="  "), "text", {k: "x" for k in BAND_KEYS}]
    reply = parse_rubric_reply(json.dumps([*bad, *[_criterion(i) for i in range(1, 8)]]))
    assert [c["name"] for c in reply.criteria] == [f"Criterion {i}" for i in range(1, MAX_CRITERIA + 1)]
    assert (reply.invalid, reply.over_limit) == (5, 2)


@pytest.mark.parametrize(
    "text",
    [
        "I would suggest five criteria: premise, mechanism, ...",  # no JSON
        json.dumps([{"name": "only a name"}]),  # no valid criterion
        json.dumps({"rubric_title": "x", "score_guidance": {}}),  # the legacy form: not scorable
        GOOD[: len(GOOD) // 2],  # cut off: an array that never closes
        json.dumps({"criteria": "five"}),
    ],
)
def test_unusable_replies_are_rejected(text: str) -> None:
    """Non-JSON, truncated, legacy and criterion-less replies raise ValueError (so they are asked again)."""
    with pytest.raises(ValueError):
        parse_rubric_reply(text)


def test_first_json_value_prefers_a_fence_and_finds_arrays() -> None:
    """The first fenced JSON value wins over earlier prose braces; arrays are values too."""
    assert first_json_value('see {a} here:\n```json\n[1, 2]\n```') == [1, 2]
    assert first_json_value('x [3] {"b": 1}') == [3]
    with pytest.raises(ValueError, match="no complete JSON"):
        first_json_value("[1, 2")


def test_the_prompt_shows_three_gold_answers_and_asks_json_only(tmp_path: Path) -> None:
    """The user message is a JSON document with the item's question, domain, type and its first three human answers."""
    item = load_benchmark("demo").items[0]
    raw = {**item.raw, "human_answers": ["a1", "a2", "a3", "a4"]}
    from causalcheck.explain.data import parse_item

    system, user = rubric_messages(parse_item(raw))
    assert "JSON only" in system["content"]
    doc = json.loads(user["content"])
    assert doc["item"] == {"question": item.question, "domain": item.domain, "answer_type": "open", "gold_answers": ["a1", "a2", "a3"]}
    assert list(doc["required_schema_per_criterion"]) == ["name", "criteria_description", *BAND_KEYS]
    assert "exactly 5" in doc["required_output"]


# ---------------------------------------------------------------------- attempts
def test_non_json_twice_then_good_takes_three_replies(tmp_path: Path) -> None:
    """A reply that cannot be read is asked again: the third reply is used, nothing of the first two is kept."""
    questions = _questions(tmp_path, 1)
    out = tmp_path / "bench.json"
    llm = ScriptedLLM(["Sure, here are some ideas.", "```\nnot json\n```", GOOD])
    assert run_rubrics(_args(questions, out), llm_override=llm) == 0
    assert len(llm.calls) == 3
    [rec] = _journal(out)[1:]
    assert rec["status"] == "ok" and len(rec["rubrics"]["criteria"]) == 5


def test_three_bad_replies_fail_the_item(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Three unusable replies fail the item: named on stderr, listed as missing, written without rubrics; exit 1."""
    questions = _questions(tmp_path, 2)
    out = tmp_path / "bench.json"
    first = load_benchmark(questions).items[0].question
    llm = ScriptedLLM(lambda r: "no JSON here" if _question_of(r) == first else GOOD)
    assert run_rubrics(_args(questions, out), llm_override=llm) == 1
    assert sum(1 for r in llm.calls if _question_of(r) == first) == 3
    captured = capsys.readouterr()
    key = load_benchmark(questions).items[0].key
    assert f"item {key!r} failed" in captured.err
    bench = load_benchmark(out)
    assert bench.items[0].rubric is None and "rubrics" not in bench.items[0].raw
    assert len(criteria_of(bench.items[1])) == 5
    missing = bench.meta["causalcheck"]["missing"]
    assert bench.meta["causalcheck"]["status"] == "partial" and [m["key"] for m in missing] == [key]
    assert "no complete JSON" in missing[0]["error"]


def test_every_item_failing_exits_2(tmp_path: Path) -> None:
    """When no rubric could be made the command exits 2."""
    questions = _questions(tmp_path, 2)
    assert run_rubrics(_args(questions, tmp_path / "bench.json"), llm_override=ScriptedLLM(lambda r: "[]")) == 2


def test_truncated_replies_are_never_accepted(tmp_path: Path) -> None:
    """A reply cut at max_tokens is asked again even when the cut text parses; three cuts fail the item."""
    one_criterion = json.dumps([_criterion(1)])
    questions = _questions(tmp_path, 1)
    out = tmp_path / "bench.json"
    llm = ScriptedLLM([Completion(one_criterion, finish_reason="length"), truncated(GOOD, 200), Completion(GOOD)])
    assert run_rubrics(_args(questions, out), llm_override=llm) == 0
    assert len(llm.calls) == 3 and len(criteria_of(load_benchmark(out).items[0])) == 5
    cut = ScriptedLLM(lambda r: truncated(GOOD, 300))
    assert run_rubrics(_args(questions, tmp_path / "cut.json"), llm_override=cut) == 2
    assert len(cut.calls) == 3


def test_bare_model_gets_three_attempts(tmp_path: Path) -> None:
    """A model without the re-asking capability is asked up to three times by the generator itself."""
    items = load_benchmark(_questions(tmp_path, 1)).items
    llm = ScriptedLLM(["nope", "still nope", GOOD])
    summary = run_sync(generate_rubrics(items, llm, tmp_path / "b.json"))
    assert (summary.generated, len(llm.calls)) == (1, 3)
    llm = ScriptedLLM(["a", "b", "c", GOOD])
    summary = run_sync(generate_rubrics(items, llm, tmp_path / "c.json"))
    assert (summary.failed, len(llm.calls)) == (1, 3)


# ---------------------------------------------------------------------- resume, lock, provenance
def test_resume_redoes_only_failed_items_and_keeps_provenance(tmp_path: Path) -> None:
    """A resumed run asks only for the failed items, appends its own provenance line and completes the output."""
    questions = _questions(tmp_path, 3)
    out = tmp_path / "bench.json"
    second = load_benchmark(questions).items[1].question
    assert run_rubrics(_args(questions, out), llm_override=ScriptedLLM(lambda r: "x" if _question_of(r) == second else GOOD)) == 1
    llm = ScriptedLLM(lambda r: GOOD)
    assert run_rubrics(_args(questions, out, "--resume"), llm_override=llm) == 0
    assert [_question_of(r) for r in llm.calls] == [second]
    lines = _journal(out)
    assert sum(1 for x in lines if "causalcheck_run" in x) == 2
    assert sum(1 for x in lines if x.get("status") == "ok") == 3 and not any(x.get("status") == "failed" for x in lines)
    bench = load_benchmark(out)
    assert bench.meta["causalcheck"]["status"] == "complete" and all(len(criteria_of(it)) == 5 for it in bench.items)


def test_resume_drops_a_torn_line_and_redoes_a_changed_question(tmp_path: Path) -> None:
    """A journal line torn by a kill is dropped; an item whose question text changed is generated again."""
    questions = _questions(tmp_path, 2)
    out = tmp_path / "bench.json"
    assert run_rubrics(_args(questions, out), llm_override=ScriptedLLM(lambda r: GOOD)) == 0
    journal = out.with_suffix(".jsonl")
    journal.write_text(journal.read_text() + '{"id": 99, "rubr')
    data = json.loads(questions.read_text())
    data["items"][0]["question"] += " (reworded)"
    questions.write_text(json.dumps(data))
    llm = ScriptedLLM(lambda r: GOOD)
    assert run_rubrics(_args(questions, out, "--resume"), llm_override=llm) == 0
    assert [_question_of(r) for r in llm.calls] == [data["items"][0]["question"]]
    assert load_benchmark(out).items[0].raw["rubrics"]["question_focus"].endswith("(reworded)")


def test_resume_with_another_generator_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Rubrics of one file come from one generator model: a resume with another exits 2 and changes nothing."""
    questions = _questions(tmp_path, 1)
    out = tmp_path / "bench.json"
    assert run_rubrics(_args(questions, out), llm_override=ScriptedLLM(lambda r: GOOD)) == 0
    before = (out.read_bytes(), out.with_suffix(".jsonl").read_bytes())
    code = main(["explain", "rubrics", "--model", "openai/other", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", str(questions),
                 "--out", str(out), "--cache-mode", "off", "--resume"])  # fmt: skip
    assert code == 2 and "model_name='openai/gen'" in capsys.readouterr().err
    assert (out.read_bytes(), out.with_suffix(".jsonl").read_bytes()) == before


def test_existing_output_needs_resume_and_bad_outs_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An existing output without --resume, a non-.json --out and --out equal to the input all exit 2 before any call."""
    questions = _questions(tmp_path, 1)
    out = tmp_path / "bench.json"
    out.write_text("{}")
    base = ["explain", "rubrics", "--model", "openai/gen", "--base-url", "http://127.0.0.1:9/v1", "--cache-mode", "off", "--benchmark", str(questions)]
    assert main([*base, "--out", str(out)]) == 2
    assert "exists; pass --resume" in capsys.readouterr().err
    assert main([*base, "--out", str(tmp_path / "bench.jsonl")]) == 2
    assert "must name a .json file" in capsys.readouterr().err
    assert main([*base, "--out", str(questions)]) == 2
    assert "is the --benchmark file" in capsys.readouterr().err
    assert out.read_text() == "{}"


def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    """While the output's lock is held, explain rubrics refuses to write it."""
    questions = _questions(tmp_path, 1)
    out = tmp_path / "bench.json"
    llm = ScriptedLLM(lambda r: GOOD)
    with AnswerFileLock(out, "holder"), pytest.raises(RunLockedError, match="being written"):
        run_rubrics(_args(questions, out), llm_override=llm)
    assert llm.calls == [] and not out.exists()


def test_the_answer_file_lock_names_its_holder_whatever_the_folder_is_called(tmp_path: Path) -> None:
    """The refusal names the holder from RunLockedError.holder (it was cut out of the message, which broke on a folder named 'runs (old); x')."""
    out = tmp_path / "runs (old); x" / "bench.json"
    with AnswerFileLock(out, "causalcheck explain rubrics"), pytest.raises(RunLockedError) as info, AnswerFileLock(out, "second"):
        pass
    holder = info.value.holder
    assert holder.startswith(f"pid {os.getpid()}, started ") and holder.endswith("command: causalcheck explain rubrics")
    assert str(info.value) == (f"out={str(out)!r} is being written by another causalcheck process ({holder}); "
                               "wait for it to finish or write to another file")


def test_keep_existing_copies_present_rubrics_without_calls(tmp_path: Path) -> None:
    """--keep-existing keeps the items that have a rubric as they are and asks only for the others."""
    bench = load_benchmark("demo")
    data = {"meta": {}, "items": [dict(it.raw) for it in bench.items[:3]]}
    del data["items"][1]["rubrics"]
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(data))
    llm = ScriptedLLM(lambda r: GOOD)
    out = tmp_path / "bench.json"
    assert run_rubrics(_args(path, out, "--keep-existing"), llm_override=llm) == 0
    assert [_question_of(r) for r in llm.calls] == [bench.items[1].question]
    items = load_benchmark(out).items
    assert items[0].raw["rubrics"] == bench.items[0].raw["rubrics"] and items[2].raw["rubrics"] == bench.items[2].raw["rubrics"]
    assert criteria_of(items[1])[0].name == "Criterion 1"
    # without it, the present rubrics are replaced
    llm = ScriptedLLM(lambda r: GOOD)
    assert run_rubrics(_args(path, tmp_path / "all.json"), llm_override=llm) == 0
    assert len(llm.calls) == 3


def test_max_cost_stops_with_a_partial_output_and_resume_completes(tmp_path: Path) -> None:
    """--max-cost stops with exit 3 and a partial output; --resume finishes the rest."""
    questions = _questions(tmp_path, 4)
    prices = tmp_path / "p.json"
    prices.write_text(json.dumps({"fake/scripted": [1e6, 1e6]}))
    out = tmp_path / "bench.json"
    capped = _args(questions, out, "--prices", str(prices), "--max-cost", "1", "--concurrency", "1")
    assert run_rubrics(capped, llm_override=ScriptedLLM(lambda r: GOOD)) == 3
    bench = load_benchmark(out)
    assert bench.meta["causalcheck"]["status"] == "partial"
    done = sum(1 for it in bench.items if it.rubric is not None)
    assert 1 <= done < 4
    llm = ScriptedLLM(lambda r: GOOD)
    assert run_rubrics(_args(questions, out, "--resume"), llm_override=llm) == 0
    assert len(llm.calls) == 4 - done and load_benchmark(out).meta["causalcheck"]["status"] == "complete"
