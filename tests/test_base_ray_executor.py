"""``--executor ray`` on a local Ray cluster: the same files as the local run, failures and stops as the pool's.

One local cluster (``ray.init(num_cpus=2)``) serves the whole module; it takes about 10 s to
start, so every test here is ``slow`` (CI runs them with ``-m slow``; CI installs the [ray] extra).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from _sweep_compare import folder_differences
from causalcheck.base.bundled import bundled_path
from causalcheck.base.errors import InputFormatError, WorkerDied
from causalcheck.base.pool import ordered_map
from causalcheck.cli import main

ray = pytest.importorskip("ray", reason="the [ray] extra is not installed: pip install 'causalcheck[ray]'")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    """A local Ray cluster of 2 CPUs for the module (the executor uses this process's Ray as it is)."""
    import sys

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import a test module
    try:
        yield
    finally:
        ray.shutdown()


def _executor() -> object:
    from causalcheck.base.ray_executor import RayExecutor

    return RayExecutor()


def _in(folder: Path, argv: list[str], monkeypatch: pytest.MonkeyPatch) -> int:
    """``causalcheck ARGV`` run in *folder* (two runs with the same relative --out write the same paths)."""
    folder.mkdir(parents=True, exist_ok=True)
    with monkeypatch.context() as m:
        m.chdir(folder)
        return main(argv)


def _only_executor_differs(diffs: dict[str, set[str]], *, text_files: tuple[str, ...] = ()) -> None:
    """Every difference is the executor named in the provenance (or its start time); the executor does differ."""
    fields = set()
    for name, diff in diffs.items():
        if diff == {"<bytes>"} and name.endswith(text_files or ("\0",)):
            continue
        fields |= {"options.executor" if ".options.executor" in f else f for f in diff if not f.endswith(".started")}
    assert fields == {"options.executor"}, diffs


def test_a_ray_sweep_equals_the_local_sweep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """2 suites x 2 agents x 2 seeds (the shipped example): every file equal but the executor in the provenance."""
    grid = str(bundled_path("examples") / "sweep.toml")
    assert _in(tmp_path / "local", ["sweep", grid, "--out", "out", "--workers", "2", "--quiet"], monkeypatch) == 0
    assert _in(tmp_path / "ray", ["sweep", grid, "--out", "out", "--workers", "2", "--quiet", "--executor", "ray"], monkeypatch) == 0
    diffs = folder_differences(tmp_path / "local" / "out", tmp_path / "ray" / "out")
    assert len(list((tmp_path / "ray" / "out").glob("*/episodes/*.jsonl"))) == 16
    _only_executor_differs(diffs)
    import json

    named = json.loads((tmp_path / "ray" / "out" / "sweep.json").read_text())["provenance"]["options"]["executor"]
    assert named["name"] == "ray" and named["cpus"] == 2


def test_lab_run_and_lab_score_on_ray_equal_local(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``lab run --executor ray`` writes the local run's files; ``lab score --executor ray`` scores them the same."""
    run = ["lab", "run", "--suite", "4nodes", "--agent", "planner", "--seeds", "2", "--limit", "2", "--out", "run", "--quiet", "--workers", "2"]
    assert _in(tmp_path / "local", run, monkeypatch) == 0
    assert _in(tmp_path / "ray", [*run, "--executor", "ray"], monkeypatch) == 0
    _only_executor_differs(folder_differences(tmp_path / "local" / "run", tmp_path / "ray" / "run"))
    score = ["lab", "score", "run", "--out", "score", "--bootstrap", "50"]
    assert _in(tmp_path / "local", score, monkeypatch) == 0
    assert _in(tmp_path / "ray", [*score, "--executor", "ray", "--workers", "2"], monkeypatch) == 0
    _only_executor_differs(folder_differences(tmp_path / "local" / "score", tmp_path / "ray" / "score"))


def test_resume_on_ray_runs_only_the_missing_episodes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A local run with a lost episode, resumed on Ray: that episode is rewritten byte for byte, the others untouched."""
    run = ["lab", "run", "--suite", "3nodes", "--agent", "random", "--seeds", "2", "--limit", "2", "--out", "run", "--quiet"]
    assert _in(tmp_path, run, monkeypatch) == 0
    episodes = sorted((tmp_path / "run" / "episodes").glob("*.jsonl"))
    lost, kept = episodes[1], episodes[0]
    text, stamp = lost.read_bytes(), kept.stat().st_mtime_ns
    lost.unlink()
    assert _in(tmp_path, [*run, "--resume", "--executor", "ray"], monkeypatch) == 0
    assert lost.read_bytes() == text and kept.stat().st_mtime_ns == stamp


def test_explain_score_on_ray_equals_local(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``explain score --executor ray``: the same rows and results; the JSON differs only in the executor named."""
    cmd = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", "ex", "--timestamp", "20260101-000000"]
    assert _in(tmp_path / "local", cmd, monkeypatch) == 0
    assert _in(tmp_path / "ray", [*cmd, "--executor", "ray"], monkeypatch) == 0
    diffs = folder_differences(tmp_path / "local" / "ex", tmp_path / "ray" / "ex")
    assert not any(name.endswith(".jsonl") for name in diffs), diffs  # the scored rows are equal
    _only_executor_differs(diffs, text_files=(".md",))  # the Markdown lists the options, the executor among them


def _fail(job: int) -> int:
    if job == 2:
        raise InputFormatError(f"job={job!r} is bad input")
    return job * 10


def _die(job: int) -> int:
    if job == 1:
        time.sleep(1)  # the other jobs answer first: none shares the dying worker (Ray reuses workers)
        os._exit(3)
    return job


def _sleep(job: int) -> int:
    time.sleep(60)
    return job


def test_a_task_error_is_the_original_exception() -> None:
    """An exception raised in a task is re-raised as itself (bad input stays bad input, exit 2)."""
    assert ordered_map(_fail, [0, 1], 1, executor=_executor()) == [0, 10]  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="job=2 is bad input"):
        ordered_map(_fail, [0, 1, 2, 3], 1, executor=_executor())  # type: ignore[arg-type]


def test_a_task_whose_worker_dies_answers_died() -> None:
    """A worker that exits without answering: that job's answer is WorkerDied (named by Ray), the others answer."""
    answers = ordered_map(_die, [0, 1, 2], 1, executor=_executor())  # type: ignore[arg-type]
    assert answers[0] == 0 and answers[2] == 2
    assert isinstance(answers[1], WorkerDied) and "Ray:" in answers[1].detail


def test_stopping_cancels_the_tasks_left() -> None:
    """Ctrl-C while waiting cancels the tasks not answered: the CPUs they held are free at once."""
    from causalcheck.base.ray_executor import RayExecutor

    stream = RayExecutor().completed(_sleep, [1, 2, 3])
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt), contextlib.closing(stream):
        _interrupt_after(stream, 2.0)
    # both CPUs were held by sleeping tasks: a new task runs now only because they were cancelled
    assert ray.get(ray.remote(_fail).remote(0), timeout=30) == 0
    assert time.monotonic() - start < 30


def _interrupt_after(stream: Iterator[object], seconds: float) -> None:
    """Iterate *stream* until a SIGINT sent after *seconds* raises KeyboardInterrupt."""
    import signal
    import threading

    threading.Timer(seconds, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    for _ in stream:
        pass
