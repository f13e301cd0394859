"""``causalcheck sweep``: the grid file is checked strictly, cells run into their folders, resume, failures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from _sweep_compare import folder_differences
from causalcheck.base.errors import InputFormatError, WorkerDied
from causalcheck.base.executors import make_executor
from causalcheck.base.pool import LocalExecutor
from causalcheck.cli import main
from causalcheck.sweep import load_grid
from causalcheck.sweep import run as sweep_run

GRID = """\
suites = ["3nodes"]
seeds = [1, 2]
limit = 1

[[agents]]
name = "planner"
options = { verify = true }

[[agents]]
name = "random"
"""


def _grid(tmp_path: Path, text: str = GRID, name: str = "grid.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _sweep(tmp_path: Path, *extra: str, grid: Path | None = None, out: str = "out") -> int:
    return main(["sweep", str(grid or _grid(tmp_path)), "--out", str(tmp_path / out), "--quiet", *extra])


def test_the_shipped_example_grid_is_valid() -> None:
    """The example grid in the package (used by docs/sweep.md) reads: 2 suites x 2 agents x 2 seeds."""
    from causalcheck.base.bundled import bundled_path

    grid = load_grid(bundled_path("examples") / "sweep.toml")
    assert len(grid.cells) == 8
    assert grid.cells[0].folder == "000-3nodes-planner-s1-default"
    assert len({c.folder for c in grid.cells}) == 8


def test_a_sweep_writes_one_lab_run_folder_per_cell(tmp_path: Path) -> None:
    """Each cell is a complete lab run folder; sweep.json lists every cell as done."""
    assert _sweep(tmp_path) == 0
    manifest = json.loads((tmp_path / "out" / "sweep.json").read_text())
    assert [c["status"] for c in manifest["cells"]] == ["done"] * 4
    assert [c["folder"] for c in manifest["cells"]] == [
        "000-3nodes-planner-s1-default", "001-3nodes-planner-s2-default",
        "002-3nodes-random-s1-default", "003-3nodes-random-s2-default",
    ]
    cell = tmp_path / "out" / "001-3nodes-planner-s2-default"
    run = json.loads((cell / "run.json").read_text())
    assert (run["agent"], run["seeds"], run["agent_options"]) == ("planner", [2], {"verify": True})
    assert run["provenance"]["options"]["executor"] == {"name": "local", "workers": 1}
    assert (cell / "summary.json").is_file() and len(list((cell / "episodes").glob("*.jsonl"))) == 1
    assert manifest["provenance"]["options"]["executor"] == {"name": "local", "workers": 1}


def test_a_second_sweep_into_the_same_folder_needs_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --resume a folder holding a sweep is refused (exit 2); --resume of a finished sweep runs nothing."""
    assert _sweep(tmp_path) == 0
    before = {p: p.stat().st_mtime_ns for p in (tmp_path / "out").rglob("*.json*") if "sweep.json" not in p.name}
    assert _sweep(tmp_path) == 2
    assert "pass --resume" in capsys.readouterr().err
    assert _sweep(tmp_path, "--resume") == 0
    assert {p: p.stat().st_mtime_ns for p in before} == before


def test_resume_after_an_interrupted_sweep_equals_an_uninterrupted_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C in the third cell: exit 130, two cells done; --resume runs the rest, and the files equal a straight run's."""
    assert main(["sweep", str(_grid(tmp_path)), "--out", str(tmp_path / "a" / "out"), "--quiet"]) == 0
    real = sweep_run._run_cell
    calls = []

    def interrupted(*args: object, **kwargs: object) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sweep_run, "_run_cell", interrupted)
    out = tmp_path / "b" / "out"
    assert main(["sweep", str(tmp_path / "grid.toml"), "--out", str(out), "--quiet"]) == 130
    statuses = [c["status"] for c in json.loads((out / "sweep.json").read_text())["cells"]]
    assert statuses == ["done", "done", "pending", "pending"]
    monkeypatch.setattr(sweep_run, "_run_cell", real)
    assert main(["sweep", str(tmp_path / "grid.toml"), "--out", str(out), "--quiet", "--resume"]) == 0
    diffs = folder_differences(tmp_path / "a" / "out", out)
    fields = set().union(*diffs.values()) if diffs else set()
    # the second run names another out folder and was resumed; nothing else differs
    assert fields <= {"provenance.started", "provenance.options.out", "provenance.options.resume",
                      "provenance.inputs.path"}, diffs
    assert all(d != {"<missing>"} for d in diffs.values()), diffs


def test_resume_of_a_cell_runs_only_its_missing_episodes(tmp_path: Path) -> None:
    """A cell whose episode file was lost is marked pending again and only that episode is rerun."""
    assert _sweep(tmp_path) == 0
    out = tmp_path / "out"
    manifest = json.loads((out / "sweep.json").read_text())
    manifest["cells"][1]["status"] = "pending"
    (out / "sweep.json").write_text(json.dumps(manifest))
    cell = out / manifest["cells"][1]["folder"]
    (episode,) = (cell / "episodes").glob("*.jsonl")
    text = episode.read_bytes()
    episode.unlink()
    other = out / manifest["cells"][0]["folder"] / "summary.json"
    stamp = other.stat().st_mtime_ns
    assert _sweep(tmp_path, "--resume") == 0
    assert episode.read_bytes() == text
    assert other.stat().st_mtime_ns == stamp


def test_a_failed_cell_is_named_and_the_sweep_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A cell that fails on bad input is marked failed with its reason; the others finish; exit 1."""
    real = sweep_run._run_cell

    def failing(cell: sweep_run.Cell, *args: object, **kwargs: object) -> int:
        if cell.index == 1:
            raise InputFormatError("agent 'x': refused")
        return real(cell, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sweep_run, "_run_cell", failing)
    assert _sweep(tmp_path) == 1
    err = capsys.readouterr().err
    assert "cell 001-3nodes-planner-s2-default failed: agent 'x': refused" in err and "1 of 4 cell(s) failed" in err
    cells = json.loads((tmp_path / "out" / "sweep.json").read_text())["cells"]
    assert [c["status"] for c in cells] == ["done", "failed", "done", "done"]
    assert cells[1]["error"] == "agent 'x': refused"
    monkeypatch.setattr(sweep_run, "_run_cell", real)
    assert _sweep(tmp_path, "--resume") == 0  # the cause fixed, --resume finishes the failed cell


def test_score_writes_a_score_folder_per_cell(tmp_path: Path) -> None:
    """--score runs lab score on every cell into <cell>/score."""
    grid = _grid(tmp_path, GRID.replace("seeds = [1, 2]", "seeds = [1]"))
    assert _sweep(tmp_path, "--score", grid=grid) == 0
    scores = json.loads((tmp_path / "out" / "000-3nodes-planner-s1-default" / "score" / "scores.json").read_text())
    assert len(scores["episodes"]) == 1
    assert all(c["scored"] for c in json.loads((tmp_path / "out" / "sweep.json").read_text())["cells"])


BAD = [
    ("suites = [\n", "is not valid TOML"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\ncolour = 1\n', "agents[0]: unknown key(s) ['colour']"),
    ('suites = ["3nodes"]\nseeds = [1]\nsuite = "x"\n[[agents]]\nname = "planner"\n', "unknown key(s) ['suite']"),
    ('suites = []\nseeds = [1]\n[[agents]]\nname = "planner"\n', "suites=[] is empty"),
    ('suites = ["3nodes"]\nseeds = [1]\n', "agents is missing"),
    ('suites = "3nodes"\nseeds = [1]\n[[agents]]\nname = "planner"\n', "suites='3nodes' must be a non-empty array (it is a string)"),
    ('suites = ["3nodes"]\nseeds = [1, "2"]\n[[agents]]\nname = "planner"\n', "seeds[1]='2' must be a non-negative integer"),
    ('suites = ["3nodes"]\nseeds = [1, 1]\n[[agents]]\nname = "planner"\n', "seeds: 1 is given twice"),
    ('suites = ["nope"]\nseeds = [1]\n[[agents]]\nname = "planner"\n', "suites[0]='nope'"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "wizard"\n', "agents[0].name='wizard' is unknown"),
    ('suites = ["3nodes"]\nseeds = [1]\nlimit = 0\n[[agents]]\nname = "planner"\n', "limit=0 must be a positive integer"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "b"\nhidden = 1\n',
     "budgets[0].hidden=1 must be true or false"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "b"\nsubmissions = -1\n',
     "budgets[0].submissions=-1 must be a non-negative integer"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "b"\nsubmissions = 20000\n',
     "budgets[0]: submissions=20000 is more than MAX_RUN_BUDGET=10000"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "b"\nprior_seed = "x"\n',
     "budgets[0].prior_seed='x' must be a non-negative integer (it is a string)"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "b"\ntolerance = [1]\n',
     "budgets[0].tolerance=[1] must be a number (it is an array)"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "b"\nintervention_mode = "push"\n',
     "budgets[0]: intervention_mode='push' must be 'shift' or 'do'"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\noptions = 3\n', "agents[0].options=3 must be a table"),
    ('suites = ["3nodes"]\nseeds = [1]\nagents = ["planner"]\n', "agents[0]='planner' must be a table"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "b"\nbudgt = 3\n',
     "budgets[0]: unknown key(s) ['budgt']"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "b"\n[[budgets]]\nlabel = "b"\ninterventions = 2\n',
     "budgets[].label (as a folder name): 'b' is given twice"),
    ('suites = ["3nodes"]\nseeds = [1]\n[[agents]]\nname = "planner"\nmodel = 3\n', "agents[0].model=3 must be a non-empty string"),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_a_bad_grid_exits_2_naming_file_key_and_value(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str) -> None:
    """Every damaged or invalid grid is refused with exit 2 and a message naming the file, the key and the value."""
    grid = _grid(tmp_path, text)
    assert _sweep(tmp_path, grid=grid) == 2
    err = capsys.readouterr().err
    assert message in err and str(grid) in err, err
    assert not (tmp_path / "out").exists()  # nothing is started on a bad grid


def test_a_grid_over_the_cell_limit_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """More cells than MAX_SWEEP_CELLS: exit 2 naming the limit and how to raise it."""
    monkeypatch.setenv("CAUSALCHECK_MAX_SWEEP_CELLS", "3")
    assert _sweep(tmp_path) == 2
    err = capsys.readouterr().err
    assert "4 cells, over the limit MAX_SWEEP_CELLS=3" in err and "CAUSALCHECK_MAX_SWEEP_CELLS=N" in err


def test_a_grid_that_is_not_utf8_or_missing_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Binary bytes and a missing file are input errors naming the file."""
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe\x00")
    assert _sweep(tmp_path, grid=bad) == 2
    assert "is not UTF-8 text" in capsys.readouterr().err
    assert _sweep(tmp_path, grid=tmp_path / "none.toml") == 2
    assert "none.toml' does not exist" in capsys.readouterr().err


def test_resume_with_another_grid_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--resume compares the grid; another one is exit 2 naming the keys that differ."""
    assert _sweep(tmp_path) == 0
    other = _grid(tmp_path, GRID.replace("seeds = [1, 2]", "seeds = [1, 3]"), name="other.toml")
    assert _sweep(tmp_path, "--resume", grid=other) == 2
    assert "another grid (seeds differ)" in capsys.readouterr().err


def test_cell_folder_names_are_safe_and_deterministic(tmp_path: Path) -> None:
    """Labels with slashes, dots and spaces become safe folder names; the same grid names the same folders."""
    text = GRID.replace('name = "planner"', 'name = "planner"\nlabel = "../a b/c"')
    grid = load_grid(_grid(tmp_path, text))
    assert grid.cells[0].folder == "000-3nodes-_a_b_c-s1-default"
    assert [c.folder for c in load_grid(tmp_path / "grid.toml").cells] == [c.folder for c in grid.cells]
    assert all("/" not in c.folder and not c.folder.startswith(".") for c in grid.cells)


def test_executor_choice_is_checked() -> None:
    """An unknown executor and a Ray address with the local executor are input errors; the local one describes itself."""
    with pytest.raises(InputFormatError, match="executor='dask' must be one of"):
        make_executor("dask")
    with pytest.raises(InputFormatError, match="needs --executor ray"):
        make_executor("local", address="127.0.0.1:6379")
    assert make_executor("local", 3) == LocalExecutor(3)
    assert LocalExecutor(3).describe() == {"name": "local", "workers": 3}
    assert "Ray: WorkerCrashedError" in str(WorkerDied(detail="Ray: WorkerCrashedError: gone"))


def test_help_does_not_import_ray() -> None:
    """``causalcheck --help`` and ``sweep --help`` load neither Ray nor the Ray executor."""
    code = (
        "import sys\nfrom causalcheck.cli import main\n"
        "for argv in (['--help'], ['sweep', '--help'], ['lab', 'run', '--help']):\n"
        "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
        "assert 'ray' not in sys.modules and 'causalcheck.base.ray_executor' not in sys.modules, 'ray imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--executor" in done.stdout


def test_executor_ray_without_ray_says_what_to_install(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``--executor ray`` where Ray cannot be imported: exit 2 with the install hint, no folder written."""
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    assert _sweep(tmp_path, "--executor", "ray") == 2
    assert "pip install 'causalcheck[ray]'" in capsys.readouterr().err
    assert main(["lab", "run", "--suite", "3nodes", "--agent", "random", "--limit", "1", "--out", str(tmp_path / "run"),
                 "--quiet", "--executor", "ray"]) == 2
    assert "needs Ray, which is not installed" in capsys.readouterr().err


def test_a_ray_address_without_the_ray_executor_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--ray-address`` with the local executor: exit 2 naming the option."""
    assert _sweep(tmp_path, "--ray-address", "head-node:6379") == 2
    assert "--ray-address='head-node:6379' needs --executor ray" in capsys.readouterr().err


def test_a_damaged_sweep_manifest_is_refused_on_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--resume over a damaged sweep.json: exit 2 naming the file, no cell run."""
    assert _sweep(tmp_path) == 0
    (tmp_path / "out" / "sweep.json").write_text('{"grid": ', encoding="utf-8")
    assert _sweep(tmp_path, "--resume") == 2
    err = capsys.readouterr().err
    assert "sweep.json" in err and "damaged" in err
    (tmp_path / "out" / "sweep.json").write_text("[1, 2]", encoding="utf-8")
    assert _sweep(tmp_path, "--resume") == 2
    assert "must be a JSON object with 'grid' and 'cells'" in capsys.readouterr().err


def test_a_locked_sweep_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A second writer of the same sweep folder is refused (exit 2) while the first holds its lock."""
    from causalcheck.base.files import RunLock

    with RunLock(tmp_path / "out", command="causalcheck sweep"):
        assert _sweep(tmp_path) == 2
    assert "causalcheck sweep" in capsys.readouterr().err
    assert not (tmp_path / "out" / "sweep.json").exists()


def test_resume_after_the_suite_file_was_edited_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A sweep over a suite file, the file edited, then --resume: exit 2 naming the suite, nothing run
    (one sweep never holds two versions of a suite); sweep.json records each suite's sha256."""
    from causalcheck.base.bundled import bundled_path

    suite = tmp_path / "mine.jsonl"
    suite.write_text(bundled_path("mini-suite").read_text(encoding="utf-8"), encoding="utf-8")
    grid = _grid(tmp_path, f'suites = ["{suite}"]\nseeds = [1]\nlimit = 2\n\n[[agents]]\nname = "planner"\n')
    assert _sweep(tmp_path, grid=grid) == 0
    manifest = json.loads((tmp_path / "out" / "sweep.json").read_text())
    assert list(manifest["inputs"]) == [str(suite)]
    suite.write_text(suite.read_text(encoding="utf-8").replace('"max": 45.0', '"max": 46.0', 1), encoding="utf-8")
    before = sorted(p.stat().st_mtime_ns for p in (tmp_path / "out").rglob("*.jsonl"))
    capsys.readouterr()
    assert _sweep(tmp_path, "--resume", grid=grid) == 2
    err = capsys.readouterr().err
    assert f"suite {str(suite)!r} changed since the sweep started" in err
    assert sorted(p.stat().st_mtime_ns for p in (tmp_path / "out").rglob("*.jsonl")) == before


def test_lab_run_resume_after_the_suite_file_was_edited_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`lab run --resume` of a folder whose suite file changed since: exit 2 naming the suite."""
    from causalcheck.base.bundled import bundled_path

    suite = tmp_path / "mine.jsonl"
    suite.write_text(bundled_path("mini-suite").read_text(encoding="utf-8"), encoding="utf-8")
    args = ["lab", "run", "--suite", str(suite), "--limit", "1", "--agent", "planner", "--out", str(tmp_path / "run"), "--quiet"]
    assert main(args) == 0
    assert main([*args, "--resume"]) == 0  # unchanged: resumes (nothing left to run)
    suite.write_text(suite.read_text(encoding="utf-8").replace('"max": 45.0', '"max": 46.0', 1), encoding="utf-8")
    capsys.readouterr()
    assert main([*args, "--resume"]) == 2
    assert "suite 'mine' changed since the run started" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("table", "needle"),
    [
        ('[[agents]]\nname = "observational"\noptions = { alpha = nan }', "agents[0].options.alpha=nan must be a finite number"),
        ('[[agents]]\nname = "observational"\noptions = { alpha = 1979-05-27T07:32:00Z }', "agents[0].options.alpha=datetime"),
        ('[[agents]]\nname = "observational"\noptions = { alpha = 3 }', "alpha=3 must be a number between 0 and 1"),
        ('[[agents]]\nname = "planner"\noptions = { rounds = "x" }', "option rounds='x' must be an integer or null"),
        ('[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "x"\ntolerance = inf', "budgets[0].tolerance=inf must be a finite number"),
        ('[[agents]]\nname = "planner"\n[[budgets]]\nlabel = "x"\ntolerance = 1e400', "budgets[0].tolerance=inf must be a finite number"),
    ],
)
def test_grid_values_are_checked_before_any_cell(tmp_path: Path, capsys: pytest.CaptureFixture[str], table: str, needle: str) -> None:
    """Agent options and budgets of every type and range are checked when the grid is read: exit 2
    naming the key and the value; no folder, no manifest holding NaN."""
    grid = _grid(tmp_path, f'suites = ["mini"]\nseeds = [1]\nlimit = 1\n\n{table}\n')
    assert _sweep(tmp_path, grid=grid) == 2
    assert needle in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_cells_finished_after_the_last_checkpoint_are_read_from_the_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between checkpoints each finished cell appends one journal line; after a kill that left sweep.json
    behind (simulated: the start checkpoint, the journal, no final rewrite), --resume runs no finished cell
    again and ends with sweep.json complete and no journal."""
    monkeypatch.setattr(sweep_run, "CHECKPOINT_SECONDS", 1e9)
    real_write = sweep_run._write_manifest
    writes: list[int] = []

    def counted(*args: object, **kwargs: object) -> None:
        writes.append(1)
        if len(writes) == 1:  # only the start checkpoint reaches the disk, as if killed before the end
            real_write(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sweep_run, "_write_manifest", counted)
    assert _sweep(tmp_path) == 0
    out = tmp_path / "out"
    assert len(writes) == 2  # the start and the end: no rewrite per cell
    assert [c["status"] for c in json.loads((out / "sweep.json").read_text())["cells"]] == ["pending"] * 4
    journal = (out / sweep_run.JOURNAL).read_text().splitlines()
    assert [json.loads(line)["status"] for line in journal] == ["done"] * 4
    (out / sweep_run.JOURNAL).write_text("\n".join(journal[:3]) + '\n{"index": 3, "sta', encoding="utf-8")  # a torn last line
    monkeypatch.setattr(sweep_run, "_write_manifest", real_write)
    ran: list[str] = []
    real_cell = sweep_run._run_cell
    monkeypatch.setattr(sweep_run, "_run_cell", lambda cell, *a, **k: ran.append(cell.folder) or real_cell(cell, *a, **k))
    assert _sweep(tmp_path, "--resume") == 0
    assert ran == [json.loads((out / "sweep.json").read_text())["cells"][3]["folder"]]
    assert [c["status"] for c in json.loads((out / "sweep.json").read_text())["cells"]] == ["done"] * 4
    assert not (out / sweep_run.JOURNAL).exists()


def test_sigterm_stops_a_sweep_like_ctrl_c(tmp_path: Path) -> None:
    """SIGTERM during a sweep: exit 143 with the note (not a silent -15), sweep.json saying where each cell stands."""
    import signal
    import time

    grid = _grid(tmp_path, GRID.replace("seeds = [1, 2]", "seeds = [1, 2, 3, 4, 5, 6]").replace("limit = 1", "limit = 3"))
    proc = subprocess.Popen([sys.executable, "-m", "causalcheck", "sweep", str(grid), "--out", str(tmp_path / "out"), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while not (tmp_path / "out" / "sweep.json").exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    if proc.returncode == 0:
        pytest.skip("the sweep finished before the signal")
    assert proc.returncode == 143 and "causalcheck: terminated" in err, err
    statuses = {c["status"] for c in json.loads((tmp_path / "out" / "sweep.json").read_text())["cells"]}
    assert statuses <= {"done", "pending"} and "pending" in statuses
