"""causalcheck.base.pool: answers in job order, errors re-raised, a dead worker named, Ctrl-C stops the workers."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from causalcheck.base.errors import WorkerDied
from causalcheck.base.pool import ordered_map

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and uses fork")


def _slow_square(x: int) -> int:
    time.sleep(0.01 * (x % 3))  # answers come back out of order
    return x * x


def _fail_on_three(x: int) -> int:
    if x == 3:
        raise ValueError(f"x={x!r} must not be 3")
    return x


def _die_on_two(x: int) -> int:
    if x == 2:
        os._exit(7)
    return -x


def test_answers_come_back_in_job_order_for_any_number_of_workers() -> None:
    """ordered_map gives [fn(job) ...] in job order with 1, 2 and 5 workers, and reports every answer to on_answer."""
    heard: list[int] = []
    jobs = list(range(12))
    for k in (1, 2, 5):
        heard.clear()
        assert ordered_map(_slow_square, jobs, k, on_answer=heard.append) == [x * x for x in jobs]
        assert heard == list(range(1, 13))


def test_an_exception_in_a_worker_is_raised_in_the_caller() -> None:
    """An exception raised by fn in a worker process is re-raised by ordered_map with its message."""
    with pytest.raises(ValueError, match="x=3 must not be 3"):
        ordered_map(_fail_on_three, list(range(6)), 2)


def test_a_worker_that_dies_gives_died_for_its_job_and_the_others_go_on() -> None:
    """A worker that exits without answering yields WorkerDied(exit code) for its job; a new worker does the rest."""
    out = ordered_map(_die_on_two, list(range(6)), 2)
    assert out[:2] == [0, -1] and out[3:] == [-3, -4, -5]
    assert out[2] == WorkerDied(exitcode=7) and "exit code 7" in str(out[2])


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out += [int(x) for x in (task / "children").read_text().split()]
    return out


@linux_only
def test_ctrl_c_stops_the_workers_at_once() -> None:
    """SIGINT to a process waiting in ordered_map: KeyboardInterrupt within seconds and no worker left alive."""
    script = textwrap.dedent("""
        import sys, time
        from causalcheck.base.pool import ordered_map
        def slow(x):
            time.sleep(30)
            return x
        try:
            ordered_map(slow, list(range(8)), 2, on_answer=None)
        except KeyboardInterrupt:
            sys.exit(130)
        sys.exit(0)
    """)
    p = subprocess.Popen([sys.executable, "-c", script], preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 30
    while len(_children(p.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    kids = _children(p.pid)
    assert len(kids) == 2
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    assert p.wait(timeout=15) == 130
    assert time.monotonic() - t0 < 10
    time.sleep(0.2)
    assert [k for k in kids if Path(f"/proc/{k}").exists() and "Z" not in Path(f"/proc/{k}/stat").read_text().split()[2]] == []
