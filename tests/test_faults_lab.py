"""Concurrency and faults for lab run / lab score / demo: kill -9 and resume, disk full, two writers, signals, orphans."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from causalcheck.cli import main

REPO = Path(__file__).resolve().parents[1]


def _cmd(*argv: str) -> list[str]:
    return [sys.executable, "-m", "causalcheck", *argv]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (env.get("PYTHONPATH"), str(REPO)) if p)
    return env


def _episodes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((folder / "episodes").glob("*.jsonl"))}


def _children(pid: int) -> list[int]:
    """Live child pids of *pid* (Linux /proc)."""
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out += [int(x) for x in (task / "children").read_text().split()]
    return out


def _alive(pid: int) -> bool:
    """True while *pid* runs (a zombie waiting to be reaped counts as gone)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = [p for p in pids if _alive(p)]
        if not left:
            return []
        time.sleep(0.05)
    return [p for p in pids if _alive(p)]


def _wait_for(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


linux_only = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc to list child processes")


# --------------------------------------------------------------------------- class 5: permissions
def test_lab_outputs_follow_the_umask(tmp_path: Path) -> None:
    """Under umask 022 every file of lab run and lab score is 0644 (the old writer made 0600 files)."""
    old = os.umask(0o022)
    try:
        assert main(["lab", "run", "--suite", "mini", "--agent", "planner", "--limit", "2", "--out", str(tmp_path / "run"), "--quiet"]) == 0
        assert main(["lab", "score", str(tmp_path / "run"), "--out", str(tmp_path / "scores"), "--bootstrap", "0"]) == 0
    finally:
        os.umask(old)
    files = [p for p in tmp_path.rglob("*") if p.is_file() and p.name != ".causalcheck.lock"]
    assert len(files) >= 9
    assert {oct(p.stat().st_mode & 0o777) for p in files} == {oct(0o644)}, [(p.name, oct(p.stat().st_mode)) for p in files]


# --------------------------------------------------------------------------- class 6: one writer per folder
@pytest.mark.parametrize(
    "argv",
    [
        ["lab", "run", "--suite", "mini", "--agent", "random", "--limit", "1", "--quiet", "--out"],
        ["lab", "score", "{run}", "--bootstrap", "0", "--out"],
        ["demo", "--quiet", "--out"],
    ],
    ids=["lab-run", "lab-score", "demo"],
)
def test_a_second_writer_is_refused_naming_the_holder(tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """While another process holds an output folder, lab run / lab score / demo exit 2 and name it."""
    run = tmp_path / "run"
    assert main(["lab", "run", "--suite", "mini", "--agent", "planner", "--limit", "1", "--out", str(run), "--quiet"]) == 0
    target = tmp_path / "busy"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from causalcheck.base.files import RunLock\n"
         "with RunLock(sys.argv[1], command='holder-test'):\n    print('held', flush=True); time.sleep(60)", str(target)],
        stdout=subprocess.PIPE, text=True, env=_env(),
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        capsys.readouterr()
        args = [a.replace("{run}", str(run)) for a in argv] + [str(target)]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "being written by another causalcheck process" in err and f"pid {holder.pid}" in err and "holder-test" in err
    finally:
        holder.kill()
        holder.communicate()


def test_two_concurrent_runs_into_one_folder_one_is_refused(tmp_path: Path) -> None:
    """Two lab runs with different agents started together into one folder: one finishes, the other exits 2; no mix."""
    out = tmp_path / "shared"
    procs = [
        subprocess.Popen(_cmd("lab", "run", "--suite", "mini", "--agent", agent, "--seeds", "3", "--out", str(out), "--quiet"),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
        for agent in ("planner", "random")
    ]
    results = [(p.wait(120), p.communicate()[1]) for p in procs]
    assert sorted(code for code, _ in results) == [0, 2], results
    refused = next(err for code, err in results if code == 2)
    assert "being written by another" in refused or "already holds" in refused  # locked, or finished first
    agents = {json.loads(p.read_text().splitlines()[0])["agent"] for p in (out / "episodes").glob("*.jsonl")}
    assert len(agents) == 1


# --------------------------------------------------------------------------- class 5: disk full
def test_disk_full_keeps_previous_scores_and_exits_two(tmp_path: Path, disk_full: Callable[..., None], capsys: pytest.CaptureFixture[str]) -> None:
    """ENOSPC while re-scoring: the previous complete results stay, the error names the file, exit 2."""
    run = tmp_path / "run"
    assert main(["lab", "run", "--suite", "mini", "--agent", "planner", "--limit", "2", "--out", str(run), "--quiet"]) == 0
    out = tmp_path / "scores"
    assert main(["lab", "score", str(run), "--out", str(out), "--bootstrap", "0"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    disk_full(everything=True)
    capsys.readouterr()
    assert main(["lab", "score", str(run), "--out", str(out), "--bootstrap", "0"]) == 2
    err = capsys.readouterr().err
    assert "No space left on device" in err and "Traceback" not in err
    after = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    assert after == before  # every old file complete, no temporary file left


def test_disk_full_during_a_run_keeps_finished_episodes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """ENOSPC after some episodes: they stay complete, exit 2, and --resume finishes the run identically."""
    import causalcheck.base.files as files

    ref = tmp_path / "ref"
    assert main(["lab", "run", "--suite", "mini", "--agent", "planner", "--limit", "4", "--out", str(ref), "--quiet"]) == 0
    out = tmp_path / "run"
    real = files.atomic_write_bytes
    calls = {"n": 0}

    def flaky(path, data):  # type: ignore[no-untyped-def]
        if Path(path).suffix == ".jsonl":
            calls["n"] += 1
            if calls["n"] == 3:
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, data)

    monkeypatch.setattr(files, "atomic_write_bytes", flaky)
    assert main(["lab", "run", "--suite", "mini", "--agent", "planner", "--limit", "4", "--out", str(out), "--quiet"]) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert len(_episodes(out)) == 2 and not list((out / "episodes").glob(".*"))
    monkeypatch.setattr(files, "atomic_write_bytes", real)
    assert main(["lab", "run", "--suite", "mini", "--agent", "planner", "--limit", "4", "--out", str(out), "--quiet", "--resume"]) == 0
    assert _episodes(out) == _episodes(ref)


def test_disk_full_on_a_real_small_file_system(tmp_path: Path) -> None:
    """A 200 KB tmpfs fills up during lab run: exit 2 with the reason; finished episodes are complete files."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(mnt)], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"cannot mount a tmpfs here ({exc})")
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root and mount rights): {done.stderr.decode(errors='replace').strip()}")
    try:
        p = subprocess.run(_cmd("lab", "run", "--suite", "mini", "--agent", "planner", "--seeds", "5", "--out", str(mnt / "run"), "--quiet"),
                           capture_output=True, text=True, env=_env(), timeout=120)
        assert p.returncode == 2, p.stderr
        assert "No space left on device" in p.stderr and "Traceback" not in p.stderr
        from causalcheck.episodes import read_trajectory

        for f in (mnt / "run" / "episodes").glob("*.jsonl"):
            read_trajectory(f)  # complete, or it would not be there
        assert not list((mnt / "run" / "episodes").glob(".*.tmp"))
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True, timeout=10)


# --------------------------------------------------------------------------- class 7: kill -9, resume, signals, orphans
@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_kill_9_at_random_points_then_resume_gives_identical_bytes(tmp_path: Path, workers: int) -> None:
    """kill -9 of lab run at random moments, then --resume: every episode exactly once, bytes as an uninterrupted run."""
    argv = ["lab", "run", "--suite", "mini", "--agent", "random", "--seeds", "6", "--quiet"]
    ref = tmp_path / "ref"
    assert subprocess.run(_cmd(*argv, "--out", str(ref)), env=_env(), timeout=300).returncode == 0
    expected = _episodes(ref)
    rng = random.Random(workers)
    for trial in range(3):
        out = tmp_path / f"killed{trial}"
        for _kill in range(2):
            p = subprocess.Popen(_cmd(*argv, "--out", str(out), "--resume", "--workers", str(workers)), env=_env())
            time.sleep(rng.uniform(0.8, 2.5))
            kids = _children(p.pid)
            p.send_signal(signal.SIGKILL)
            p.wait()
            assert _wait_gone(kids, 10) == []  # no worker survives its parent
        assert subprocess.run(_cmd(*argv, "--out", str(out), "--resume", "--workers", str(workers)), env=_env(), timeout=300).returncode == 0
        assert _episodes(out) == expected
        rows = json.loads((out / "summary.json").read_text())["rows"]
        assert rows == json.loads((ref / "summary.json").read_text())["rows"]


@linux_only
def test_kill_9_of_the_parent_takes_the_workers_with_it(tmp_path: Path) -> None:
    """kill -9 of lab run --workers 2: both workers exit within a few seconds (no orphans holding the caller's pipes)."""
    p = subprocess.Popen(_cmd("lab", "run", "--suite", "mini", "--agent", "random", "--seeds", "40", "--workers", "2",
                              "--out", str(tmp_path / "run"), "--quiet"),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    assert _wait_for(lambda: len(_children(p.pid)) == 2, 30)
    kids = _children(p.pid)
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert _wait_gone(kids, 5) == []
    out, _ = p.communicate(timeout=10)  # EOF: nobody holds the caller's pipes any more
    assert out == b""


@linux_only
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
def test_interrupt_with_workers_stops_promptly_without_orphans(tmp_path: Path, sig: int, code: int) -> None:
    """SIGINT/SIGTERM during lab run --workers 2: exit 130/143 within seconds, workers gone, no torn files; resume completes."""
    out = tmp_path / "run"
    argv = ("lab", "run", "--suite", "mini", "--agent", "random", "--seeds", "40", "--workers", "2", "--out", str(out), "--quiet")
    # the run starts with the default SIGINT action, as from a terminal: a test run in the background
    # (``.ci/run &``, nohup) inherits SIGINT ignored, and Python then keeps ignoring it (the Unix convention)
    p = subprocess.Popen(_cmd(*argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(),
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert _wait_for(lambda: len(_episodes(out)) >= 3 if (out / "episodes").is_dir() else False, 60)
    kids = _children(p.pid)
    assert len(kids) == 2
    p.send_signal(sig)
    _, err = p.communicate(timeout=10)
    assert p.returncode == code, err
    assert _wait_gone(kids, 5) == []
    assert "rerun with --resume" in err
    done = _episodes(out)
    assert 3 <= len(done) < 480
    assert not list((out / "episodes").glob(".*"))  # no temporary files of abandoned writes
    from causalcheck.episodes import read_trajectory

    for name in done:
        read_trajectory(out / "episodes" / name)
    assert not (out / "summary.json").exists()  # the summary is written after the work only
    assert subprocess.run(_cmd(*argv, "--resume"), env=_env(), timeout=300).returncode == 0
    assert len(_episodes(out)) == 480
