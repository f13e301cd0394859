"""Results you can trust (explain side): resume state after the work, no silent partial input, bad
input exits 2, atomic result files, one writer per output folder, provenance in every result file."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from causalcheck.cli import main
from causalcheck.explain.data import load_answer_sets, load_benchmark

REPO = Path(__file__).resolve().parents[1]
STEM = "a_metrics_offline"


def _good_answer(index: int = 0) -> tuple[str, str]:
    item = load_benchmark("demo").items[index]
    [strong] = [s for s in load_answer_sets("demo") if s.model == "demo-strong"]
    answer = strong.get(item)
    assert answer is not None and answer.text
    return item.key, answer.text


def _score(answers: Path, out: Path, *extra: str) -> int:
    return main(["explain", "score", "--benchmark", "demo", "--answers", str(answers), "--out", str(out), *extra])


def _write_answers(path: Path, records: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


# ----------------------------------------------------------------- class 1: resume state after the work
def test_interrupt_between_work_and_resume_state_rescores_the_changed_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while a changed answer is re-scored, then resume: the score is the fresh score of the new
    answer (the fingerprint used to be rewritten with the new hash first, so the old 0.8 was kept, exit 0)."""
    import causalcheck.explain.scoring as scoring

    key, good = _good_answer()
    answers, out = tmp_path / "a.jsonl", tmp_path / "out"
    _write_answers(answers, [{"id": key, "answer": good}])
    assert _score(answers, out, "--limit", "1") == 0
    old = json.loads((out / f"{STEM}.json").read_text())["items"][0]["total_score"]
    bad = "Nothing much would change. People would carry on."
    _write_answers(answers, [{"id": key, "answer": bad}])

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(scoring, "score_item", interrupted)
        assert _score(answers, out, "--limit", "1") == 130
    assert _score(answers, out, "--limit", "1") in (0, 2)
    resumed = json.loads((out / f"{STEM}.json").read_text())
    assert _score(answers, tmp_path / "fresh", "--limit", "1") in (0, 2)
    fresh = json.loads((tmp_path / "fresh" / f"{STEM}.json").read_text())
    assert resumed["items"] == fresh["items"] and resumed["failures"] == fresh["failures"]
    got = (resumed["items"] or resumed["failures"])[0].get("total_score")
    assert got != old


def test_each_row_records_the_answer_it_was_scored_from(tmp_path: Path) -> None:
    """Every JSONL row carries the SHA-256 of its answer: an answer changed and changed back is scored again
    instead of reusing the score of the other text (the folder-wide hash map could not tell)."""
    key, good = _good_answer()
    answers, out = tmp_path / "a.jsonl", tmp_path / "out"
    _write_answers(answers, [{"id": key, "answer": good}])
    assert _score(answers, out, "--limit", "1") == 0
    [row] = [json.loads(line) for line in (out / f"{STEM}.jsonl").read_text().splitlines()]
    assert row["answer_sha256"] == hashlib.sha256(good.encode()).hexdigest()


# ----------------------------------------------------------------- class 2: no silent partial input
def test_nothing_scored_exits_2_and_unmatched_answer_ids_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Answers that match no item: exit 2 ("nothing could be scored"); one good and one unknown id: exit 1,
    the unknown id named on stderr and in the result file (both used to exit 0 silently)."""
    key, good = _good_answer()
    answers = tmp_path / "a.jsonl"
    _write_answers(answers, [{"id": "no-such-item", "answer": good}])
    assert _score(answers, tmp_path / "o1", "--limit", "2") == 2
    err = capsys.readouterr().err
    assert "'no-such-item' matches no benchmark item" in err and "nothing could be scored" in err
    _write_answers(answers, [{"id": key, "answer": good}, {"id": "no-such-item", "answer": good}])
    assert _score(answers, tmp_path / "o2", "--limit", "1") == 1
    err = capsys.readouterr().err
    assert "'no-such-item' matches no benchmark item" in err
    result = json.loads((tmp_path / "o2" / f"{STEM}.json").read_text())
    assert result["meta"]["causalcheck"]["unmatched_answers"] == ["no-such-item"]
    assert "no-such-item" in (tmp_path / "o2" / f"{STEM}.md").read_text()


def test_an_unanswered_item_exits_1_and_is_listed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A benchmark item without an answer is not answered (not failed): exit 1, listed on stderr (with the
    answers file), in meta.causalcheck.not_answered and as pending; --items without it: exit 0."""
    key, good = _good_answer()
    answers = tmp_path / "a.jsonl"
    _write_answers(answers, [{"id": key, "answer": good}])
    assert _score(answers, tmp_path / "o", "--limit", "2") == 1
    missing = load_benchmark("demo").items[1].key
    err = capsys.readouterr().err
    assert f"1 benchmark item(s) have no answer in {answers}" in err and f"not answered: {missing}" in err
    assert "failed" not in err
    result = json.loads((tmp_path / "o" / f"{STEM}.json").read_text())
    assert result["failures"] == [] and result["meta"]["causalcheck"]["not_answered"] == [missing]
    assert result["state"]["pending"] == len(load_benchmark("demo").items) - 1
    assert _score(answers, tmp_path / "o2", "--items", key) == 0


# ----------------------------------------------------------------- class 4: bad input exits 2
BAD_JSON = [
    ('{"meta": {}, "items": [{"id": 1, "question": "\\ud83c what if?", "domain": "STEM"}]}', "lone surrogate"),
    ('{"meta": {}, "items": [{"id": ' + "9" * 400 + ', "question": "q", "domain": "STEM"}]}', "MAX_INT_DIGITS"),
    ('{"meta": {}, "items": [{"id": 1.5, "question": "q", "domain": "STEM"}]}', "must be an integer or a string"),
    ('{"meta": ' + "[" * 100_000 + "]" * 100_000 + "}", "MAX_DEPTH"),
    ('{"meta": {"n": NaN}, "items": []}', "NaN is not JSON"),
]


@pytest.mark.parametrize(("text", "reason"), BAD_JSON)
@pytest.mark.parametrize("which", ["--benchmark", "--answers"])
def test_unsafe_json_in_a_user_file_exits_2_naming_file_and_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, reason: str, which: str
) -> None:
    """Lone surrogates, 400-digit integers, floats for ids, 100 000-deep nesting and NaN exit 2 with the
    file and the reason (they were internal errors, exit 70, or crashed later while writing)."""
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    args = {"--benchmark": "demo", "--answers": "demo"}
    args[which] = str(bad)
    code = main(["explain", "score", "--benchmark", args["--benchmark"], "--answers", args["--answers"], "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    if which == "--answers" and "must be an integer or a string" in reason:
        reason = "must be an integer or a string"
    assert code == 2, err
    assert "internal error" not in err and str(bad) in err
    if which == "--benchmark" or "id" not in reason:
        assert reason in err


@pytest.mark.parametrize("special", ["fifo", "/dev/zero"])
@pytest.mark.parametrize("which", ["--benchmark", "--answers", "replay"])
def test_fifos_and_devices_are_refused_instead_of_blocking(tmp_path: Path, special: str, which: str) -> None:
    """A FIFO or /dev/zero given as an input exits 2 at once (it blocked forever / read without end)."""
    path = Path(special)
    if special == "fifo":
        path = tmp_path / "pipe.json"
        os.mkfifo(path)
    if which == "replay":
        args = ["explain", "replay", str(path)]
    else:
        given = {"--benchmark": "demo", "--answers": "demo", which: str(path)}
        args = ["explain", "score", "--benchmark", given["--benchmark"], "--answers", given["--answers"], "--out", str(tmp_path / "o")]
    proc = subprocess.run([sys.executable, "-m", "causalcheck", *args], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "not a regular file" in proc.stderr


# ----------------------------------------------------------------- class 5: atomic result files
_FILL_DISK = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
from causalcheck.cli import main
sys.exit(main(sys.argv[2:]))
"""


def test_a_full_disk_during_the_result_write_keeps_the_previous_result(tmp_path: Path) -> None:
    """A result rewrite that fails half-way (the file system refuses more bytes: RLIMIT_FSIZE, EFBIG) exits 2
    and leaves the previous complete files in place (the .json was truncated in place and lost)."""
    out = tmp_path / "out"
    args = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-weak", "--out", str(out)]
    assert main(args) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if not p.name.startswith(".")}
    limit = len(before["demo-weak_metrics_offline.run"]) + 16  # the fingerprint fits; the result does not
    assert limit < len(before["demo-weak_metrics_offline.json"]) // 2
    proc = subprocess.run([sys.executable, "-c", _FILL_DISK, str(limit), *args], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "cannot write" in proc.stderr and "_metrics_offline." in proc.stderr  # the file being written is named
    after = {p.name: p.read_bytes() for p in out.iterdir() if not p.name.startswith(".")}
    assert after == before


def test_enospc_on_fsync_keeps_the_previous_result(tmp_path: Path, disk_full: Callable[..., None]) -> None:
    """ENOSPC while the new result is flushed to disk: exit 2, the previous result is untouched."""

    key, good = _good_answer()
    answers, out = tmp_path / "a.jsonl", tmp_path / "out"
    _write_answers(answers, [{"id": key, "answer": good}])
    assert _score(answers, out, "--limit", "1") == 0
    before = (out / f"{STEM}.json").read_bytes()
    disk_full()
    assert _score(answers, out, "--limit", "1") == 2
    assert (out / f"{STEM}.json").read_bytes() == before


def test_explain_files_get_the_usual_permissions(tmp_path: Path) -> None:
    """Every file explain score writes is 0666 & ~umask, like the lab's."""
    old = os.umask(0o027)
    try:
        out = tmp_path / "out"
        assert main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-weak", "--out", str(out)]) == 0
    finally:
        os.umask(old)
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in out.iterdir() if not p.name.startswith(".")}
    assert len(modes) == 4 and set(modes.values()) == {0o640}, modes


# ----------------------------------------------------------------- class 6: one writer per output folder
_HOLD = """
import sys, time
from causalcheck.base.files import RunLock
with RunLock(sys.argv[1], command="causalcheck explain score (test holder)"):
    print("held", flush=True)
    time.sleep(60)
"""


def test_a_second_writer_into_the_same_out_is_refused_naming_the_holder(tmp_path: Path, capsys: pytest.CaptureFixture[str], own_result: Path) -> None:
    """While another process writes --out, explain score and explain replay --out exit 2 naming it (they mixed results)."""
    out = tmp_path / "out"
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(out)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        capsys.readouterr()
        assert main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert f"pid {holder.pid}" in err and "test holder" in err
        assert main(["explain", "replay", str(own_result), "--out", str(out)]) == 2
        assert f"pid {holder.pid}" in capsys.readouterr().err
        assert not list(out.glob("*_metrics_*"))
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


# ----------------------------------------------------------------- class 9: provenance
def test_result_files_record_version_command_options_time_and_input_hashes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """meta.causalcheck holds version, command, options, the SOURCE_DATE_EPOCH time and the SHA-256 of the
    benchmark and answers read; the Markdown shows the same; the official keys are unchanged."""
    from causalcheck import __version__

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764579600")
    key, good = _good_answer()
    answers, out = tmp_path / "a.jsonl", tmp_path / "out"
    _write_answers(answers, [{"id": key, "answer": good}])
    assert _score(answers, out, "--limit", "1") == 0
    result = json.loads((out / f"{STEM}.json").read_text())
    assert set(result) == {"meta", "state", "summary", "items", "failures"}
    record = result["meta"]["causalcheck"]
    assert record["tool"] == "causalcheck" and record["version"] == __version__
    assert record["command"] == "explain score" and record["started"] == "2025-12-01T09:00:00Z"
    assert result["meta"]["timestamp"] == "20251201-090000"
    assert record["options"]["answers"] == str(answers) and record["options"]["limit"] == 1
    hashes = {Path(i["path"]).name: i["sha256"] for i in record["inputs"]}
    assert hashes["a.jsonl"] == hashlib.sha256(answers.read_bytes()).hexdigest()
    assert hashes["whatif_demo.json"] == hashlib.sha256(Path(load_benchmark("demo").source).read_bytes()).hexdigest()
    md = (out / f"{STEM}.md").read_text()
    assert "## Provenance" in md and hashes["a.jsonl"] in md


def test_replay_output_records_its_provenance(own_result: Path, tmp_path: Path) -> None:
    """explain replay --out records the replayed file's hash and the replay command."""
    assert main(["explain", "replay", str(own_result), "--out", str(tmp_path)]) == 0
    written = json.loads((tmp_path / f"{own_result.stem}_replay.json").read_text())
    record = written["meta"]["causalcheck"]
    assert record["command"] == "explain replay" and record["unreplayed"] == []
    assert record["inputs"][0]["sha256"] == hashlib.sha256(own_result.read_bytes()).hexdigest()


def test_rescoring_with_fewer_outputs_removes_the_stale_ones_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An answers file that lost a model, scored again into the same --out: the old model's files (which looked
    current) are removed, listed on stderr and in the new result files; files of other scorings stay."""
    key, good = _good_answer()
    answers, out = tmp_path / "a.jsonl", tmp_path / "out"
    _write_answers(answers, [{"id": key, "answer": good, "model": "m1"}, {"id": key, "answer": good, "model": "m2"}])
    assert _score(answers, out, "--limit", "1") == 0
    other = tmp_path / "b.jsonl"
    _write_answers(other, [{"id": key, "answer": good, "model": "keep"}])
    assert _score(other, out, "--limit", "1") == 0
    _write_answers(answers, [{"id": key, "answer": good, "model": "m1"}])
    capsys.readouterr()
    assert _score(answers, out, "--limit", "1") == 0
    names = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert not [n for n in names if n.startswith("m2_")]
    assert [n for n in names if n.startswith("keep_")]
    assert "m2_metrics_offline.json" in capsys.readouterr().err
    record = json.loads((out / "m1_metrics_offline.json").read_text())["meta"]["causalcheck"]
    assert "m2_metrics_offline.json" in record["removed_stale"]
