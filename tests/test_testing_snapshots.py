"""Regression snapshots: seeded corpora, recording, change reports with inputs, updates, and the CLI."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.cli import main
from causalcheck.metrics import edge_prf, shd
from causalcheck.testing import KINDS, SnapshotMismatch, corpus, snapshot
from causalcheck.testing.snapshots import Change, jsonable, read_snapshot


def _shd(t: list[tuple[str, str]], e: list[tuple[str, str]]) -> int:
    return shd(e, t, names="exact").total


def _shd_double(t: list[tuple[str, str]], e: list[tuple[str, str]]) -> int:
    return shd(e, t, names="exact", double_count_reversal=True).total


def test_same_seed_gives_the_same_corpus_in_another_process() -> None:
    """A corpus is a function of (kind, size, seed): a fresh interpreter with another hash seed draws it identically."""
    code = "import json; from causalcheck.testing import corpus; print(json.dumps([c.input for c in corpus('graph-pairs', size=12, seed=3).cases]))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert json.loads(out.stdout) == [c.input for c in corpus("graph-pairs", size=12, seed=3).cases]
    assert corpus("graph-pairs", size=12, seed=4) != corpus("graph-pairs", size=12, seed=3)


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_gives_arguments_a_rule_can_take(kind: str) -> None:
    """Each corpus kind decodes into the documented arguments, and its inputs are plain JSON."""
    c = corpus(kind, size=2 if kind == "trajectories" else 5, seed=0)
    for case in c.cases:
        assert json.loads(json.dumps(case.input)) == case.input
        with c.arguments(case) as args:
            assert len(args) in (1, 2)
            if kind == "trajectories":
                from causalcheck.episodes import read_episode

                assert read_episode(args[0]).kind == "trajectory"


def test_a_first_run_records_and_a_second_run_is_unchanged(tmp_path: Path) -> None:
    """The first call writes the snapshot with inputs and outputs; the same rule then reports no change."""
    c = corpus("graph-pairs", size=20, seed=0)
    first = snapshot(_shd, c, tmp_path / "shd.json")
    assert first.status == "created" and first.cases == 20
    data = read_snapshot(tmp_path / "shd.json")
    assert data["corpus"] == {"kind": "graph-pairs", "size": 20, "seed": 0}
    assert [row["input"] for row in data["cases"]] == [case.input for case in c.cases]
    assert snapshot(_shd, c, tmp_path / "shd.json").status == "unchanged"


def test_a_changed_rule_reports_every_changed_output_with_its_input(tmp_path: Path) -> None:
    """Switching SHD to the double-counted reversal lists exactly the cases with a reversal, inputs and both outputs shown."""
    c = corpus("graph-pairs", size=30, seed=0)
    snapshot(_shd, c, tmp_path / "shd.json")
    with pytest.raises(SnapshotMismatch) as info:
        snapshot(_shd_double, c, tmp_path / "shd.json")
    expected = [case.id for case in c.cases if shd([tuple(p) for p in case.input["estimate"]], [tuple(p) for p in case.input["truth"]], names="exact").reversed]
    assert [ch.id for ch in info.value.changes] == expected and expected
    first = info.value.changes[0]
    assert f"{len(expected)} of 30 outputs of _shd_double changed" in str(info.value)
    assert json.dumps(first.input, ensure_ascii=False, sort_keys=True) in str(info.value)
    assert f"recorded: {first.old}" in str(info.value) and f"now:      {first.new}" in str(info.value)


def test_update_mode_rewrites_the_snapshot(tmp_path: Path) -> None:
    """update=True records the new outputs and reports what changed; the next run is unchanged."""
    c = corpus("graph-pairs", size=30, seed=0)
    path = tmp_path / "shd.json"
    snapshot(_shd, c, path)
    report = snapshot(_shd_double, c, path, update=True)
    assert report.status == "updated" and report.changes
    assert snapshot(_shd_double, c, path).status == "unchanged"


def test_the_environment_variable_asks_for_an_update(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CAUSALCHECK_UPDATE_SNAPSHOTS=1 rewrites instead of failing."""
    c = corpus("graph-pairs", size=10, seed=0)
    path = tmp_path / "s.json"
    snapshot(_shd, c, path)
    monkeypatch.setenv("CAUSALCHECK_UPDATE_SNAPSHOTS", "1")
    assert snapshot(lambda t, e: 0, c, path).status in ("updated", "unchanged")
    assert {row["output"] for row in read_snapshot(path)["cases"]} == {0}


def test_stored_inputs_are_used_not_regenerated(tmp_path: Path) -> None:
    """A later run scores the inputs in the file, even when they were edited by hand (the file is the truth)."""
    c = corpus("graph-pairs", size=3, seed=0)
    path = tmp_path / "s.json"
    snapshot(_shd, c, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["cases"][0]["input"] = {"truth": [["a", "b"]], "estimate": [["b", "a"]]}
    data["cases"][0]["output"] = 1
    path.write_text(json.dumps(data), encoding="utf-8")
    assert snapshot(_shd, c, path).status == "unchanged"


def test_another_corpus_is_refused_unless_updating(tmp_path: Path) -> None:
    """A snapshot recorded on seed 0 is not silently compared with seed 1."""
    path = tmp_path / "s.json"
    snapshot(_shd, corpus("graph-pairs", size=5, seed=0), path)
    with pytest.raises(InputFormatError, match="recorded on corpus"):
        snapshot(_shd, corpus("graph-pairs", size=5, seed=1), path)
    assert snapshot(_shd, corpus("graph-pairs", size=5, seed=1), path, update=True).status == "updated"


def test_missing_fail_mode_refuses_to_record(tmp_path: Path) -> None:
    """missing='fail' (for CI) raises instead of writing a first snapshot."""
    with pytest.raises(AssertionError, match="no snapshot"):
        snapshot(_shd, corpus("graph-pairs", size=3), tmp_path / "none.json", missing="fail")
    assert not (tmp_path / "none.json").exists()


def test_outputs_are_json_values_and_crashes_are_recorded(tmp_path: Path) -> None:
    """PRF objects are stored via to_json, non-finite floats as text, and an exception as an error entry."""
    assert jsonable(edge_prf([("a", "b")], [("a", "b")]))["f1"] == 1.0
    assert jsonable(float("nan")) == "nan" and jsonable({1: (2, 3)}) == {"1": [2, 3]}

    def crash(t: list[object], e: list[object]) -> int:
        if len(t) % 2 == 0:
            raise ZeroDivisionError("boom")
        return len(t)

    c = corpus("graph-pairs", size=6)
    report = snapshot(crash, c, tmp_path / "c.json")
    rows = read_snapshot(tmp_path / "c.json")["cases"]
    crashed = [r for r in rows if r["output"] == {"error": "ZeroDivisionError: boom"}]
    assert crashed and len(crashed) < len(rows) and report.errors == len(crashed)
    assert f"({len(crashed)} of them errors)" in report.summary()


def test_a_snapshot_of_nothing_but_errors_is_refused_with_the_first_error(tmp_path: Path) -> None:
    """A rule that raises on every case (a wrong signature) records nothing: InputFormatError showing the first error."""
    def wrong_signature(t: object) -> int:
        return 0

    with pytest.raises(InputFormatError, match=r"all 3 outputs of .* are errors.*case 'graph-pairs-000'.*TypeError"):
        snapshot(wrong_signature, corpus("graph-pairs", size=3), tmp_path / "w.json")
    assert not (tmp_path / "w.json").exists()


def test_numbers_compare_as_numbers_and_unchanged_outputs_keep_their_spelling(tmp_path: Path) -> None:
    """1 recorded and 1.0 now is no change; an update rewrites only the changed cases (1 stays 1 in the file)."""
    c = corpus("criterion-scores", size=6)
    path = tmp_path / "n.json"
    snapshot(lambda s: {"n": len(s), "ok": True}, c, path)
    assert snapshot(lambda s: {"n": float(len(s)), "ok": True}, c, path).status == "unchanged"
    with pytest.raises(SnapshotMismatch):  # True is not 1
        snapshot(lambda s: {"n": len(s), "ok": 1}, c, path)
    report = snapshot(lambda s: {"n": float(len(s)) + (s[0] > 5), "ok": True}, c, path, update=True)
    changed = {ch.id for ch in report.changes}
    assert changed and len(changed) < 6
    text = path.read_text(encoding="utf-8")
    kept = [row for row in json.loads(text)["cases"] if row["id"] not in changed]
    assert all(isinstance(row["output"]["n"], int) for row in kept)


def test_update_mode_prints_the_count_and_a_short_diff_per_changed_case(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """snapshot(update=True) prints 'k of n outputs changed' and one line per changed case: id and old → new of the changed key."""
    from causalcheck.testing.profiles import take_snapshot_updates

    c = corpus("criterion-scores", size=8)
    path = tmp_path / "u.json"
    snapshot(lambda s: {"max": max(s), "n": len(s)}, c, path)
    capsys.readouterr()
    take_snapshot_updates()
    report = snapshot(lambda s: {"max": max(s), "n": len(s) + (s[0] > 5)}, c, path, update=True)
    out = capsys.readouterr().out
    k = len(report.changes)
    assert f"updated, {k} of 8 outputs of" in out and 0 < k < 8
    first = report.changes[0]
    assert f"  {first.id}: n {first.old['n']} → {first.new['n']}" in out and "max" not in out.split(first.id, 1)[1].splitlines()[0]
    assert take_snapshot_updates() == [report.summary()]


def test_tolerance_ignores_float_noise(tmp_path: Path) -> None:
    """Outputs within tolerance compare equal; beyond it they change."""
    c = corpus("criterion-scores", size=5)
    path = tmp_path / "rm.json"
    snapshot(lambda s: sum(s) / len(s) / 10, c, path)
    assert snapshot(lambda s: sum(s) / len(s) / 10 + 1e-12, c, path, tolerance=1e-9).status == "unchanged"
    with pytest.raises(SnapshotMismatch):
        snapshot(lambda s: sum(s) / len(s) / 10 + 1e-3, c, path, tolerance=1e-9)


def test_snapshot_writes_are_atomic_and_leave_no_temporary_files(tmp_path: Path) -> None:
    """Only the snapshot file is in the folder after recording and updating."""
    c = corpus("answers", size=4)
    snapshot(lambda q, a: len(a), c, tmp_path / "a.json")
    snapshot(lambda q, a: len(q), c, tmp_path / "a.json", update=True)
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


# ----------------------------------------------------------------------- the CLI
def test_cli_writes_the_corpus_as_files(tmp_path: Path) -> None:
    """snapshot corpus writes one folder per case with the graph files and the input."""
    assert main(["snapshot", "corpus", "graph-pairs", "--out", str(tmp_path / "c"), "--size", "3", "--format", "dagitty"]) == 0
    manifest = json.loads((tmp_path / "c" / "corpus.json").read_text(encoding="utf-8"))
    assert manifest["cases"] == ["graph-pairs-000", "graph-pairs-001", "graph-pairs-002"]
    from causalcheck.graphs import read_graph

    case = tmp_path / "c" / "graph-pairs-001"
    data = json.loads((case / "input.json").read_text(encoding="utf-8"))
    assert sorted(read_graph(str(case / "truth.dagitty")).directed_pairs) == sorted(tuple(p) for p in data["truth"])


def test_cli_records_then_reports_a_changed_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """snapshot check records a command's outputs (exit 0), reports changed outputs with inputs (exit 1) and updates (exit 0)."""
    script = tmp_path / "score.py"
    script.write_text(
        "import sys\nfrom causalcheck.graphs import read_graph\nfrom causalcheck.metrics import shd\n"
        "t, e = (sorted(read_graph(p).directed_pairs) for p in sys.argv[1:3])\n"
        "print(shd(e, t, names='exact').total + 10 * (len(sys.argv) > 3))\n",
        encoding="utf-8",
    )
    snap = tmp_path / "snap.json"
    base = ["snapshot", "check", str(snap), "--kind", "graph-pairs", "--size", "2"]
    cmd = f"{sys.executable} {script} {{truth}} {{estimate}}"
    assert main([*base, "--command", cmd]) == 0
    assert main(["snapshot", "check", str(snap), "--command", cmd]) == 0
    capsys.readouterr()
    assert main(["snapshot", "check", str(snap), "--command", cmd + " double"]) == 1
    out = capsys.readouterr()
    assert "input:" in out.out and "recorded:" in out.out and "outputs changed" in out.err
    assert main(["snapshot", "check", str(snap), "--command", cmd + " double", "--update"]) == 0
    assert main(["snapshot", "check", str(snap), "--command", cmd + " double"]) == 0


def test_cli_records_a_failing_command_as_its_exit_status(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A command that exits non-zero on some cases is recorded with its status and last stderr line, and counted."""
    snap = tmp_path / "s.json"
    code = "import sys; s = open(sys.argv[1]).read(); sys.exit('bad input') if len(s) % 2 else print(len(s))"
    cmd = f"{sys.executable} -c {shlex.quote(code)} {{answer}}"
    assert main(["snapshot", "check", str(snap), "--kind", "answers", "--size", "6", "--command", cmd]) == 0
    rows = read_snapshot(snap)["cases"]
    failed = [r for r in rows if r["output"] == {"exit": 1, "stderr": "bad input"}]
    assert failed and len(failed) < len(rows)
    assert f"recorded 6 outputs of {cmd!r} in {snap} ({len(failed)} of them errors: exit statuses)" in capsys.readouterr().out


def test_cli_refuses_a_snapshot_of_nothing_but_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every run exiting non-zero records nothing: exit 2 with the first error (case id, status, stderr) shown."""
    snap = tmp_path / "s.json"
    cmd = f"{sys.executable} -c 'import sys; sys.exit(\"no such option\")'"
    assert main(["snapshot", "check", str(snap), "--kind", "answers", "--size", "3", "--command", cmd]) == 2
    err = capsys.readouterr().err
    assert "all 3 outputs of" in err and "answers-000" in err and "no such option" in err and "exit" in err
    assert not snap.exists()


def test_cli_compares_numbers_as_numbers_and_prints_a_short_diff_on_update(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """1 recorded, 1.0 printed: unchanged; --update prints the count and 'id: old → new' per changed case, keeps unchanged outputs."""
    script = tmp_path / "n.py"
    script.write_text(
        "import sys\nn = len(open(sys.argv[1]).read()) % 3\nprint(n if sys.argv[2] == 'int' else float(n) + float(sys.argv[2]) * (n == 2))\n",
        encoding="utf-8",
    )
    snap = tmp_path / "s.json"
    cmd = f"{sys.executable} {script} {{answer}}"
    assert main(["snapshot", "check", str(snap), "--kind", "answers", "--size", "8", "--command", cmd + " int"]) == 0
    recorded = {r["id"]: r["output"] for r in read_snapshot(snap)["cases"]}
    assert main(["snapshot", "check", str(snap), "--command", cmd + " 0"]) == 0  # prints 1.0 where 1 was recorded: equal
    capsys.readouterr()
    assert main(["snapshot", "check", str(snap), "--command", cmd + " 5", "--update"]) == 0
    out = capsys.readouterr().out
    changed = [i for i, v in recorded.items() if v == 2]
    assert changed and f"{len(changed)} of 8 outputs changed" in out
    assert f"  {changed[0]}: 2 → 7.0" in out
    after = {r["id"]: r["output"] for r in read_snapshot(snap)["cases"]}
    assert all(after[i] == recorded[i] and type(after[i]) is type(recorded[i]) for i in recorded if i not in changed)


def test_cli_bad_arguments_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A new snapshot without --kind, an unknown placeholder or a missing program is an input error (exit 2)."""
    assert main(["snapshot", "check", str(tmp_path / "n.json"), "--command", "true"]) == 2
    assert main(["snapshot", "check", str(tmp_path / "n.json"), "--kind", "answers", "--size", "1", "--command", "echo {nope}"]) == 2
    assert main(["snapshot", "check", str(tmp_path / "n.json"), "--kind", "answers", "--size", "1", "--command", "no-such-program-xyz"]) == 2
    assert "error:" in capsys.readouterr().err


def test_cli_refuses_another_kind_for_an_existing_snapshot(tmp_path: Path) -> None:
    """check with --kind different from the recorded corpus is an input error, not a silent switch."""
    snap = tmp_path / "s.json"
    assert main(["snapshot", "check", str(snap), "--kind", "answers", "--size", "1", "--command", "echo 1"]) == 0
    assert main(["snapshot", "check", str(snap), "--kind", "graph-pairs", "--command", "echo 1"]) == 2


def test_cli_keeps_an_output_that_is_not_strict_json_as_text(tmp_path: Path) -> None:
    """A command printing NaN or Infinity is recorded as that text, so the snapshot reads back and the next check is unchanged."""
    snap = tmp_path / "s.json"
    cmd = f"{sys.executable} -c 'print(\"[NaN, Infinity]\")'"
    assert main(["snapshot", "check", str(snap), "--kind", "answers", "--size", "2", "--command", cmd]) == 0
    assert [row["output"] for row in read_snapshot(snap)["cases"]] == ["[NaN, Infinity]"] * 2
    assert main(["snapshot", "check", str(snap), "--command", cmd]) == 0


def _damaged(tmp_path: Path, cases: list[dict[str, object]]) -> Path:
    """A recorded answers snapshot whose cases are replaced by *cases*."""
    snap = tmp_path / "s.json"
    assert main(["snapshot", "check", str(snap), "--kind", "answers", "--size", "3", "--command", "echo 1"]) == 0
    data = json.loads(snap.read_text(encoding="utf-8"))
    data["cases"] = cases
    snap.write_text(json.dumps(data), encoding="utf-8")
    return snap


def test_a_repeated_case_id_is_refused_naming_both_positions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two cases with one id: exit 2 (CLI) / InputFormatError (API) naming the id and both positions, not a confusing diff."""
    case = {"id": "answers-001", "input": {"question": "q", "answer": "a"}, "output": "1"}
    snap = _damaged(tmp_path, [{**case, "id": "answers-000"}, case, {**case, "id": "answers-002"}, case])
    capsys.readouterr()
    assert main(["snapshot", "check", str(snap), "--command", "echo 1"]) == 2
    err = capsys.readouterr().err
    assert "cases[1] and cases[3] have the same id='answers-001'" in err and "changed" not in err
    with pytest.raises(InputFormatError, match=r"cases\[1\] and cases\[3\]"):
        snapshot(lambda q, a: 1, corpus("answers", size=3), snap)


def test_an_empty_snapshot_is_an_error_not_all_0_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """cases: [] compares nothing: exit 2 saying so (CLI) and InputFormatError (API), never "all 0 outputs unchanged"."""
    snap = _damaged(tmp_path, [])
    capsys.readouterr()
    assert main(["snapshot", "check", str(snap), "--command", "echo 1"]) == 2
    captured = capsys.readouterr()
    assert "holds no case, so nothing would be compared" in captured.err and "unchanged" not in captured.out
    with pytest.raises(InputFormatError, match="holds no case"):
        snapshot(lambda q, a: 1, corpus("answers", size=3), snap)


def test_a_5000_character_id_is_cut_in_every_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A huge id (repeated, or too long for a folder, or in a change) is shown as its first 80 characters and its length."""
    long_id = "i" * 5000
    case = {"id": long_id, "input": {"question": "q", "answer": "a"}, "output": "1"}
    for k, cases in enumerate(([case, case], [case])):
        (tmp_path / str(k)).mkdir()
        snap = _damaged(tmp_path / str(k), cases)
        capsys.readouterr()
        assert main(["snapshot", "check", str(snap), "--command", "echo 1"]) == 2
        err = capsys.readouterr().err
        assert f"{'i' * 80!r}…(5000 chars)" in err and "i" * 81 not in err and len(err) < 600
    change = Change(long_id, {}, 1, 2).describe()
    assert "…(5000 chars)" in change and "i" * 81 not in change


def test_cli_corpus_out_is_locked_while_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """snapshot corpus --out held by another writer: exit 2 naming the holder, nothing written."""
    from causalcheck.base.files import RunLock

    out = tmp_path / "c"
    with RunLock(out, command="holder test"):
        assert main(["snapshot", "corpus", "answers", "--out", str(out), "--size", "2"]) == 2
    assert "holder test" in capsys.readouterr().err and not (out / "corpus.json").exists()
    assert main(["snapshot", "corpus", "answers", "--out", str(out), "--size", "2"]) == 0


def test_two_updates_of_one_snapshot_at_once_cannot_lose_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`snapshot check --update` holds a lock beside the file from read to write: a second update while
    the first runs is refused (exit 2, naming the holder); the first writes its outputs."""
    import time

    snap = tmp_path / "snap.json"
    fast = f"{sys.executable} -c \"print(1)\" {{truth}} {{estimate}}"
    assert main(["snapshot", "check", str(snap), "--kind", "graph-pairs", "--size", "2", "--command", fast]) == 0
    slow = f"{sys.executable} -c \"import time; time.sleep(1.5); print(2)\" {{truth}} {{estimate}}"
    first = subprocess.Popen(
        [sys.executable, "-m", "causalcheck", "snapshot", "check", str(snap), "--command", slow, "--update"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    lock = tmp_path / ".snap.json.lock"
    deadline = time.monotonic() + 60
    while not (lock.exists() and lock.read_text()) and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.05)
    capsys.readouterr()
    assert main(["snapshot", "check", str(snap), "--command", fast.replace("print(1)", "print(3)"), "--update"]) == 2
    assert "is being written by another causalcheck process (pid" in capsys.readouterr().err
    out, err = first.communicate(timeout=120)
    assert "snapshot updated" in out
    assert first.returncode == 0, err
    assert {c["output"] for c in json.loads(snap.read_text())["cases"]} == {2}


_DAMAGE = {
    "input a list": lambda case: case.__setitem__("input", []),
    "input a number": lambda case: case.__setitem__("input", 7),
    "a key removed": lambda case: case["input"].pop(next(iter(case["input"]))) if isinstance(case["input"], dict) and case["input"] else None,
    "every value a number": lambda case: case.__setitem__("input", dict.fromkeys(case["input"], 1) if isinstance(case["input"], dict) else 1),
}


@pytest.mark.parametrize("damage", sorted(_DAMAGE))
@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_recorded_input_is_an_input_error_naming_the_case(tmp_path: Path, kind: str, damage: str) -> None:
    """The Python snapshot() on a hand-edited or damaged file: an InputFormatError naming the file and the
    case (or a reported change), never a bare TypeError or KeyError."""
    path = tmp_path / "s.json"
    c = corpus(kind, size=2, seed=0)
    snapshot(lambda *args: len(args), c, path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    _DAMAGE[damage](doc["cases"][0])
    path.write_text(json.dumps(doc), encoding="utf-8")
    try:
        snapshot(lambda *args: len(args), c, path)
    except InputFormatError as exc:
        assert str(path) in str(exc) and doc["cases"][0]["id"] in str(exc)
    except SnapshotMismatch:
        pass
