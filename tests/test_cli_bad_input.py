"""Bad input exits 2 with the file and the reason, never 70 (class 4): every command of the lab and check side."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from causalcheck.cli import main

DEEP = "[" * 100_000 + "]" * 100_000


def _suite_line(**changes: object) -> str:
    from causalcheck.lab.suites import find_suite

    record = json.loads(find_suite("mini")[1].splitlines()[0])
    record.update(changes)
    return json.dumps(record)


def _code(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    return code, capsys.readouterr().err


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished two-episode lab run of the planner."""
    out = tmp_path_factory.mktemp("run") / "run"
    assert main(["lab", "run", "--suite", "mini", "--agent", "planner", "--limit", "2", "--out", str(out), "--quiet"]) == 0
    return out


@pytest.mark.parametrize(
    "name,text,needle",
    [
        ("surrogate.json", '{"memory": "\\ud83c", "action": "WAIT"}', "lone surrogate"),
        ("bigint.json", '{"past_data": [{"id": "a", "props": {"x": ' + "9" * 400 + '}, "freq": 1}], "action": "WAIT"}', "MAX_INT_DIGITS"),
        ("deep.json", DEEP, "MAX_DEPTH"),
        ("nan.json", '{"past_data": [{"id": "a", "props": {"x": NaN}, "freq": 1}], "action": "WAIT"}', "NaN is not JSON"),
        ("inf.json", '{"past_data": [{"id": "a", "props": {"x": 1e400}, "freq": 1}], "action": "WAIT"}', "not finite"),
    ],
)
def test_check_refuses_unsafe_json_naming_the_file(tmp_path: Path, name: str, text: str, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Lone surrogates, 400-digit integers, 100 000-deep nesting, NaN and 1e400 in a record file: exit 2 naming file and limit."""
    path = tmp_path / name
    path.write_text(text)
    code, err = _code(["check", str(path)], capsys)
    assert code == 2 and needle in err and name in err and "internal error" not in err, err


@pytest.mark.parametrize(
    "line,needle",
    [
        (_suite_line(budget=8.0), "budget=8.0 must be an integer"),
        (_suite_line(budget=10**50), "MAX_BUDGET"),
        ('{"graph_id": "x", "budget": ' + "9" * 400 + "}", "MAX_INT_DIGITS"),
        (DEEP, "MAX_DEPTH"),
        (_suite_line(params=[1, 2]), "params"),
        (_suite_line(nodes="resonanceFreq"), "nodes"),
        ("{\"graph_id\": \"\\udc00\"}", "lone surrogate"),
    ],
    ids=["float-budget", "huge-budget", "400-digits", "deep", "params-list", "nodes-string", "surrogate"],
)
def test_bad_suite_files_exit_two(tmp_path: Path, line: str, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """lab run --suite FILE with a wrong-typed, huge or deep record: exit 2, file:line and the reason."""
    suite = tmp_path / "s.jsonl"
    suite.write_text(line + "\n")
    code, err = _code(["lab", "run", "--suite", str(suite), "--agent", "planner", "--out", str(tmp_path / "o"), "--quiet"], capsys)
    assert code == 2 and needle in err and "s.jsonl" in err, err


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--tolerance", "inf"], "finite"),
        (["--tolerance", "nan"], "finite"),
        (["--interventions", "1000000000"], "MAX_RUN_BUDGET"),
        (["--prior-records", "100000000"], "MAX_PRIOR_RECORDS"),
        (["--budget", "99999999999o2i"], "MAX_PRIOR_RECORDS"),
        (["--seeds", "10000000"], "MAX_SEEDS"),
    ],
)
def test_lab_run_options_are_bounded(tmp_path: Path, argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Options that would run forever (or crash writing NaN/inf) are refused with the limit named."""
    try:
        code = main(["lab", "run", "--suite", "mini", "--agent", "random", "--limit", "1", "--out", str(tmp_path / "o"), "--quiet", *argv])
    except SystemExit as exc:  # argparse
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and needle in err, err


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--nodes", "4", "--count", "100000000"], "MAX_COUNT"),
        (["--nodes", "4", "--hidden-values", "nan"], "finite"),
        (["--nodes", "4", "--hidden-values", "inf,1"], "finite"),
        (["--nodes", "4.5"], "--nodes"),
    ],
)
def test_lab_generate_options_are_checked(tmp_path: Path, argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """lab generate refuses counts past its limit and non-finite hidden values (no NaN in a suite file)."""
    code, err = _code(["lab", "generate", *argv, "--out", str(tmp_path / "g.jsonl")], capsys)
    assert code == 2 and needle in err and not (tmp_path / "g.jsonl").exists(), err


@pytest.mark.parametrize(
    "manifest,needle",
    [
        (b"[" * 100_000, "MAX_DEPTH"),
        (b'{"suite": "mini", "seeds": [' + b"9" * 400 + b"]}", "MAX_INT_DIGITS"),
        (b"[1, 2]", "must be a JSON object"),
        (b'{"suite": "mini", "seeds": [1.5]}', "different run"),
        (b'{"suite": "\xff"}', "not UTF-8"),
    ],
    ids=["deep", "400-digits", "array", "float-seed", "not-utf8"],
)
def test_a_damaged_run_json_on_resume_exits_two(run_folder: Path, tmp_path: Path, manifest: bytes, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """--resume with a damaged or wrong-typed run.json: exit 2 naming run.json, the episodes untouched."""
    import shutil

    out = tmp_path / "copy"
    shutil.copytree(run_folder, out)
    before = {p.name: p.read_bytes() for p in (out / "episodes").iterdir()}
    (out / "run.json").write_bytes(manifest)
    code, err = _code(["lab", "run", "--suite", "mini", "--agent", "planner", "--limit", "2", "--out", str(out), "--resume", "--quiet"], capsys)
    assert code == 2 and needle in err and "internal error" not in err, err
    assert {p.name: p.read_bytes() for p in (out / "episodes").iterdir()} == before


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not Path("/dev/zero").exists(), reason="needs mkfifo and /dev/zero")
@pytest.mark.timeout(30)
def test_fifos_and_devices_are_refused_not_waited_on(tmp_path: Path, run_folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO or /dev/zero as check input, --reference, lab score path or suite: exit 2 at once (it blocked forever)."""
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    record = tmp_path / "r.json"
    record.write_text('{"action": "WAIT"}')
    for argv in (
        ["check", str(fifo)],
        ["check", "/dev/zero"],
        ["check", str(record), "--reference", str(fifo)],
        ["lab", "score", str(fifo)],
        ["lab", "run", "--suite", str(fifo), "--agent", "planner", "--out", str(tmp_path / "o"), "--quiet"],
    ):
        code, err = _code(argv, capsys)
        assert code == 2 and "not a regular file" in err, (argv, err)


def test_wrong_typed_trajectory_fields_are_reported_not_crashes(run_folder: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Header/step/summary fields of the wrong type (a float step, a list budget, a number for prior_records) never exit 70."""
    src = sorted((run_folder / "episodes").glob("*.jsonl"))[0]
    lines = [json.loads(x) for x in src.read_text().splitlines()]
    variants = {
        "step-float": lambda ls: ls[1].update(step=1.5),
        "budgets-list": lambda ls: ls[0].update(budgets=[1]),
        "priors-number": lambda ls: ls[0].update(prior_records=7),
        "reactor-string": lambda ls: ls[0].update(reactor="x"),
        "config-list": lambda ls: ls[0].update(config=[1]),
        "summary-steps-string": lambda ls: ls[-1].update(steps="5"),
        "seed-float": lambda ls: ls[0].update(seed=1.5),
    }
    for name, change in variants.items():
        copy = [dict(x) for x in lines]
        change(copy)
        folder = tmp_path / name
        folder.mkdir()
        (folder / "e.jsonl").write_text("\n".join(json.dumps(x) for x in copy) + "\n")
        for argv in (["lab", "score", str(folder), "--bootstrap", "0"], ["check", str(folder / "e.jsonl")]):
            code, err = _code(argv, capsys)
            assert code in (0, 1, 2) and "internal error" not in err, (name, argv, err)
