"""The runner and the lab CLI: files, resume without loss or duplicates, worker independence."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest
from causalcheck.base.errors import DSLSyntaxError, InputFormatError, WorkerDied
from causalcheck.lab import cli as lab_cli
from causalcheck.lab.runner import run_suite
from causalcheck.lab.trajectory import read_trajectory, write_trajectory


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "episodes").glob("*.jsonl"))}


def test_run_writes_trajectories_and_summary(tmp_path: Path) -> None:
    """One file per (graph, seed) with header/steps/summary, plus summary.json and .md."""
    out = tmp_path / "run"
    summary = run_suite("mini", "planner", out, seeds=[1, 2], limit=3, progress=False)
    files = _files(out)
    assert len(files) == 6
    traj = read_trajectory(out / "episodes" / sorted(files)[0])
    assert traj.header["agent"] == "planner" and traj.header["config"]["graph_id"] == traj.header["graph_id"]
    assert {"props", "target_freq"} <= set(traj.header["reactor"])
    assert traj.steps[0]["step"] == 0 and {"observation", "record", "action", "response"} <= set(traj.steps[0])
    assert traj.summary["reactor_abs_error_true"] is not None
    row = summary["rows"][0]
    assert row["episodes"] == 6 and row["task_accuracy"] == 1.0
    written = json.loads((out / "summary.json").read_text())
    assert written["rows"] == summary["rows"]
    prov = written["provenance"]
    assert prov["tool"] == "causalcheck" and prov["command"] == "causalcheck lab run" and prov["started"]
    assert sorted(Path(i["path"]).name for i in prov["inputs"]) == sorted(files)
    assert all(len(i["sha256"]) == 64 for i in prov["inputs"])
    assert "provenance" in json.loads((out / "run.json").read_text())
    assert "| mini | planner | 6 |" in (out / "summary.md").read_text()


def test_resume_completes_without_duplicates(tmp_path: Path) -> None:
    """Deleting episodes and leaving a temp file behind, --resume restores the same set of files."""
    out = tmp_path / "run"
    run_suite("mini", "random", out, seeds=[1, 2], progress=False)
    before = _files(out)
    names = sorted(before)
    for name in names[::3]:
        (out / "episodes" / name).unlink()
    (out / "episodes" / f".{names[1]}.abc.tmp").write_text("partial")
    (out / "episodes" / names[2]).write_text('{"type": "header"}\n')  # an incomplete file
    with pytest.raises(InputFormatError, match="--resume"):
        run_suite("mini", "random", out, seeds=[1, 2], progress=False)
    summary = run_suite("mini", "random", out, seeds=[1, 2], resume=True, progress=False)
    assert _files(out) == before
    assert summary["rows"][0]["episodes"] == len(before)


def test_resume_refuses_a_different_run(tmp_path: Path) -> None:
    """Resuming with other arguments would mix runs: it is an error."""
    out = tmp_path / "run"
    run_suite("mini", "planner", out, seeds=[1], limit=2, progress=False)
    with pytest.raises(InputFormatError, match="different run"):
        run_suite("mini", "random", out, seeds=[1], limit=2, resume=True, progress=False)


def test_results_do_not_depend_on_worker_count(tmp_path: Path) -> None:
    """workers=1 and workers=2 write byte-identical trajectories."""
    run_suite("mini", "planner", tmp_path / "one", seeds=[1, 2], limit=4, progress=False)
    run_suite("mini", "planner", tmp_path / "two", seeds=[1, 2], limit=4, workers=2, progress=False)
    assert _files(tmp_path / "one") == _files(tmp_path / "two")


def test_trajectory_reader_rejects_incomplete_files(tmp_path: Path) -> None:
    """No header, no summary or an unknown line type are InputFormatErrors; non-JSON is a DSLSyntaxError with its position."""
    p = write_trajectory(tmp_path / "t.jsonl", {"graph_id": "g"}, [{"step": 0}], {"success": False})
    assert read_trajectory(p).summary == {"success": False}
    for text, needle in [
        ('{"type": "step"}\n', "no header"),
        ('{"type": "header"}\n', "no summary"),
        ("nonsense\n", "t.jsonl:1:1: not valid JSON"),
        ('{"type": "header"}\n{"type": "dance"}\n', "'dance'"),
    ]:
        p.write_text(text)
        with pytest.raises(DSLSyntaxError if "JSON" in needle else InputFormatError, match=needle):
            read_trajectory(p)


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="causalcheck")
    lab_cli.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return int(args.handler(args))


def test_cli_run_generate_and_suites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`lab generate` writes a loadable suite that `lab run` plays; `lab suites` lists the bundled one."""
    suite = tmp_path / "g.jsonl"
    assert _cli(["lab", "generate", "--nodes", "3,4", "--count", "2", "--seed", "3", "--out", str(suite)]) == 0
    assert len(suite.read_text().splitlines()) == 4
    out = tmp_path / "run"
    code = _cli(["lab", "run", "--suite", str(suite), "--agent", "planner", "--seeds", "2", "--out", str(out),
                 "--budget", "3o6i", "--oracle-chains"])
    assert code == 0 and len(_files(out)) == 8
    head = read_trajectory(next((out / "episodes").glob("*.jsonl"))).header
    assert head["budgets"]["prior_records"] == 3 and head["budgets"]["interventions"] == 6
    assert head["options"]["oracle_chains"] is True
    assert _cli(["lab", "suites"]) == 0
    assert "mini\tbundled" in capsys.readouterr().out


def test_cli_rejects_bad_numbers() -> None:
    """Argument types refuse non-numbers with a usage error (exit 2)."""
    with pytest.raises(SystemExit) as err:
        _cli(["lab", "run", "--suite", "mini", "--agent", "planner", "--out", "x", "--seeds", "many"])
    assert err.value.code == 2


def test_a_worker_that_dies_names_its_episode_and_keeps_the_finished_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """workers=2, one episode's process ends without answering: an error naming that episode; the
    finished episodes stay on disk whole and --resume completes the run (the workers fork, so the
    patched function is theirs too)."""
    import os

    from causalcheck.lab import runner

    real = runner._work

    def dies_on_seed_2(job: tuple) -> str:  # type: ignore[type-arg]
        if job[2] == 2:
            os._exit(3)
        return real(job)

    monkeypatch.setattr(runner, "_work", dies_on_seed_2)
    out = tmp_path / "run"
    with pytest.raises(WorkerDied, match=r"exit code 3") as info:
        run_suite("mini", "random", out, seeds=[1, 2, 3], limit=1, progress=False, workers=2)
    assert "_s2.jsonl" in str(info.value)
    assert not (out / "summary.json").exists()
    finished = _files(out)
    assert all(name.endswith(("_s1.jsonl", "_s3.jsonl")) for name in finished)
    monkeypatch.setattr(runner, "_work", real)
    run_suite("mini", "random", out, seeds=[1, 2, 3], limit=1, progress=False, workers=2, resume=True)
    assert len(_files(out)) == 3 and all(_files(out)[n] == b for n, b in finished.items())


@pytest.mark.parametrize(
    ("agent", "option", "needle"),
    [
        ("planner", 'rounds="x"', "option rounds='x' must be an integer or null"),
        ("planner", "rounds=1.5", "option rounds=1.5 must be an integer or null"),
        ("planner", "rounds=0", "rounds=0 must be a positive integer"),
        ("planner", "seed=3", "an agent's seed is the episode seed"),
        ("planner", "colour=1", "option colour=1 is not one it takes"),
        ("observational", 'alpha="x"', "option alpha='x' must be a finite number"),
        ("observational", "alpha=-1", "alpha=-1 must be a number between 0 and 1"),
        ("observational", "alpha=2", "alpha=2 must be a number between 0 and 1"),
        ("observational", "alpha=NaN", "option alpha=nan must be a finite number"),
    ],
)
def test_agent_options_are_checked_before_the_first_episode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], agent: str, option: str, needle: str
) -> None:
    """A wrong type or an out-of-range value: exit 2 naming the option and its value, no folder written."""
    from causalcheck.cli import main

    out = tmp_path / "run"
    assert main(["lab", "run", "--suite", "mini", "--limit", "1", "--agent", agent, "--agent-opt", option, "--out", str(out), "--quiet"]) == 2
    assert needle in capsys.readouterr().err
    assert not out.exists()


def test_seeds_are_bounded_to_what_the_readers_accept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A seed past MAX_SEED (2**128-1) is refused naming the flag; one just inside runs and reads back."""
    from causalcheck.base.limits import MAX_SEED
    from causalcheck.cli import main

    args = ["lab", "run", "--suite", "mini", "--limit", "1", "--agent", "random", "--quiet"]
    assert main([*args, "--seed-start", str(10**150), "--out", str(tmp_path / "big")]) == 2
    assert "--seed-start + --seeds - 1 (the last seed)=" in capsys.readouterr().err and not (tmp_path / "big").exists()
    assert main([*args, "--seed-start", str(MAX_SEED), "--out", str(tmp_path / "edge")]) == 0
    assert main(["lab", "score", str(tmp_path / "edge"), "--out", str(tmp_path / "score")]) == 0
