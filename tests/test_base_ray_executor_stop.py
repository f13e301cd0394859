"""Stopping a local Ray cluster leaves no process: the marked processes, what they started (even
when a child's environment no longer shows the mark), and what was seen before its parent died; a
signal during the stop is raised after it.  Plain processes stand in for Ray's here (no Ray needed).
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from causalcheck.base import ray_executor
from causalcheck.base.ray_executor import RayExecutor

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc (Linux)")

#: A parent that starts a child with an empty environment (as Ray's agents look once their title is
#: set over it), prints the child's pid, then both wait.
_TREE = (
    "import subprocess, sys, time; "
    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'], env={}); "
    "print(child.pid, flush=True); time.sleep(120)"
)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.fixture
def tree() -> Any:
    mark = f"test-{uuid.uuid4().hex}"
    env = {**os.environ, ray_executor._MARK: mark}
    parent = subprocess.Popen([sys.executable, "-c", _TREE], env=env, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    yield mark, parent, child
    for pid in (parent.pid, child):
        if _alive(pid):
            os.kill(pid, 9)
    parent.wait()
    parent.stdout.close()


def test_the_cluster_is_the_marked_processes_and_what_they_started(tree: Any) -> None:
    mark, parent, child = tree
    assert b"CAUSALCHECK_RAY_CLUSTER" not in Path(f"/proc/{child}/environ").read_bytes()
    assert {pid for pid, _ in ray_executor._cluster(mark, set())} == {parent.pid, child}
    assert ray_executor._cluster(f"other-{mark}", set()) == set()


def test_a_child_seen_before_its_parent_died_is_still_found_after(tree: Any) -> None:
    """Ray's agents outlive their raylet: known before, found after, though unmarked and orphaned."""
    mark, parent, child = tree
    known = ray_executor._cluster(mark, set())
    parent.kill()
    parent.wait()
    assert {pid for pid, _ in ray_executor._cluster(mark, set())} == set()
    assert {pid for pid, _ in ray_executor._cluster(mark, set(known))} == {child}
    assert ray_executor._cluster(mark, {(child, "not its start time")}) == set()  # a pid reused is another process


def test_ending_the_cluster_ends_every_process_of_it(tree: Any) -> None:
    mark, parent, child = tree
    known = ray_executor._cluster(mark, set())
    parent.kill()
    parent.wait()
    ray_executor._end_cluster(mark, set(known))
    assert not _alive(child)


class _FakeRay:
    """``ray.shutdown`` interrupted by Ctrl-C the first *interrupts* times."""

    def __init__(self, interrupts: int) -> None:
        self.interrupts = interrupts
        self.calls = 0

    def shutdown(self) -> None:
        self.calls += 1
        if self.calls <= self.interrupts:
            raise KeyboardInterrupt


@pytest.mark.parametrize("interrupts", [1, 5])
def test_ctrl_c_during_the_stop_is_raised_after_every_process_has_ended(tree: Any, interrupts: int) -> None:
    mark, parent, child = tree
    executor = RayExecutor()
    executor._mark, executor._started = mark, True
    fake = _FakeRay(interrupts)
    with pytest.raises(KeyboardInterrupt):
        executor._stop(fake)
    parent.wait(timeout=10)
    assert not _alive(parent.pid) and not _alive(child)
    assert fake.calls == min(interrupts + 1, 3)  # retried, a bounded number of times
    assert not executor._started and executor._mark == ""
    executor.close()  # nothing left to stop: no second shutdown
    assert fake.calls == min(interrupts + 1, 3)


def test_a_process_that_ignores_sigterm_gets_sigkill(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ray_executor, "STOP_SECONDS", 0.5)
    mark = f"test-{uuid.uuid4().hex}"
    stubborn = subprocess.Popen(
        [sys.executable, "-c", "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print(1, flush=True); time.sleep(120)"],
        env={**os.environ, ray_executor._MARK: mark}, stdout=subprocess.PIPE,
    )  # fmt: skip
    assert stubborn.stdout is not None
    stubborn.stdout.readline()  # its handler is set
    ray_executor._end_cluster(mark, set())
    assert stubborn.wait(timeout=10) == -9
    stubborn.stdout.close()


class _SwallowingRay:
    """A start that catches the Ctrl-C it receives and goes on (as Ray's start did once in ~100 runs)."""

    def __init__(self) -> None:
        self.shutdowns = 0

    def is_initialized(self) -> bool:
        return False

    def init(self, **_: Any) -> None:
        import signal
        import time

        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the handler runs here
        except KeyboardInterrupt:
            pass

    def shutdown(self) -> None:
        self.shutdowns += 1


def test_a_ctrl_c_caught_inside_rays_start_still_stops_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    import signal

    fake = _SwallowingRay()
    monkeypatch.setattr(ray_executor, "_ray", lambda: fake)
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt):
        RayExecutor(num_cpus=1).describe()
    assert fake.shutdowns == 1
    assert signal.getsignal(signal.SIGINT) is before
