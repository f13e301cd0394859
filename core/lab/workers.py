"""Worker processes for ``lab run --workers K``: one episode at a time, a prompt stop, no orphans.

The lifecycle, and why:

* **One job per worker at a time.**  The parent hands a worker its next episode only when
  the previous one is done, so nothing is queued inside a worker: on Ctrl-C (SIGINT) or
  SIGTERM the parent stops at once instead of running queued episodes (with an LLM agent
  that time is paid for).
* **In-flight episodes are abandoned cleanly.**  On a stop the parent terminates its
  workers (SIGTERM, then SIGKILL after :data:`KILL_GRACE` seconds).  An episode file is
  written only when the episode has finished, atomically (temporary file, fsync, rename),
  so a killed episode leaves no trajectory — at most a hidden temporary file, which the
  runner removes — and ``--resume`` runs it again.  Workers ignore SIGINT: the terminal
  sends it to the whole process group, and only the parent decides.
* **No orphans.**  If the parent dies without cleaning up (``kill -9``), each worker dies
  with it: on Linux the worker asks the kernel for ``SIGKILL`` when its parent exits
  (``prctl(PR_SET_PDEATHSIG)`` through :mod:`ctypes`); everywhere a watchdog thread also
  checks every :data:`WATCHDOG_INTERVAL` seconds that the parent is still its parent and
  exits otherwise.  A worker never outlives the caller's pipes by more than that.
* **Errors travel.**  An exception in an episode is sent back and re-raised by the parent
  (a budget stop stays a budget stop); a worker that dies without answering is an error
  naming its episode.

:func:`run_jobs` is the whole interface.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from causalcheck.base.errors import CausalCheckError

__all__ = ["KILL_GRACE", "WATCHDOG_INTERVAL", "WorkerDiedError", "run_jobs", "set_parent_death_signal"]

#: Seconds between a worker's checks that its parent is alive (the fallback to PR_SET_PDEATHSIG).
WATCHDOG_INTERVAL = 0.5
#: Seconds a terminated worker gets before it is killed.
KILL_GRACE = 2.0

_PR_SET_PDEATHSIG = 1


class WorkerDiedError(CausalCheckError):
    """A worker process ended without reporting its episode (killed, out of memory, ...)."""


def set_parent_death_signal(sig: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send *sig* to this process when its parent exits (Linux only).

    Returns whether it was set.  Uses ``prctl(PR_SET_PDEATHSIG)`` through :mod:`ctypes`.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(sig), 0, 0, 0)) == 0
    except (OSError, AttributeError):  # pragma: no cover - no libc prctl
        return False


def _watchdog(parent: int) -> None:
    import time

    while True:
        time.sleep(WATCHDOG_INTERVAL)
        if os.getppid() != parent:
            os._exit(1)


def _portable(exc: BaseException) -> BaseException:
    """*exc* if it survives pickling, else a :class:`CausalCheckError` / ``RuntimeError`` with its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        cls = CausalCheckError if isinstance(exc, CausalCheckError) else RuntimeError
        return cls(f"{type(exc).__name__}: {exc}")


def _worker_main(conn: Any, fn: Callable[[Any], Any], parent: int) -> None:
    """A worker's loop: receive a job, run it, send ``("ok", result)`` or ``("error", exc)``; ``None`` ends it."""
    set_parent_death_signal()
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler (inherited by fork)
    threading.Thread(target=_watchdog, args=(parent,), daemon=True).start()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            result = fn(job)
        except BaseException as exc:
            conn.send(("error", _portable(exc)))
        else:
            conn.send(("ok", result))


def run_jobs(
    fn: Callable[[Any], Any],
    jobs: Sequence[Any],
    workers: int,
    on_done: Callable[[Any], None],
) -> None:
    """Run ``fn(job)`` for every job in *workers* processes; ``on_done(result)`` in the parent as each ends.

    *fn* must be a module-level function (it is sent to spawned workers).  The first error
    stops every worker and is raised; so does ``KeyboardInterrupt`` (module docstring).
    """
    import multiprocessing as mp
    from multiprocessing.connection import wait

    method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
    ctx = mp.get_context(method)
    parent = os.getpid()
    procs: list[Any] = []
    conns: list[Any] = []
    busy: dict[int, Any] = {}  # worker index -> job
    pending = list(jobs)
    pending.reverse()
    try:
        for _ in range(min(workers, len(jobs))):
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=_worker_main, args=(theirs, fn, parent), daemon=True)  # type: ignore[attr-defined]
            proc.start()
            theirs.close()
            procs.append(proc)
            conns.append(ours)
        for i, conn in enumerate(conns):
            if pending:
                busy[i] = pending.pop()
                conn.send(busy[i])
        while busy:
            ready = wait([conns[i] for i in busy] + [procs[i].sentinel for i in busy])
            for i in list(busy):
                conn, proc = conns[i], procs[i]
                if conn in ready or conn.poll():
                    try:
                        kind, value = conn.recv()
                    except (EOFError, OSError):
                        raise WorkerDiedError(
                            f"worker pid {proc.pid} ended while running {busy[i]!r:.120} (exit code {proc.exitcode})"
                        ) from None
                    if kind == "error":
                        raise value
                    del busy[i]
                    on_done(value)
                    if pending:
                        busy[i] = pending.pop()
                        conn.send(busy[i])
                elif proc.sentinel in ready:
                    proc.join(0.1)
                    raise WorkerDiedError(
                        f"worker pid {proc.pid} ended while running {busy[i]!r:.120} (exit code {proc.exitcode})"
                    )
        for conn in conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        for proc in procs:
            proc.join(KILL_GRACE)
    finally:
        _stop(procs)
        for conn in conns:
            conn.close()


def _stop(procs: list[Any]) -> None:
    """Terminate every live worker, then kill the ones that do not end within :data:`KILL_GRACE`."""
    import time

    live = [p for p in procs if p.is_alive()]
    for p in live:
        with contextlib.suppress(OSError):
            p.terminate()
    deadline = time.monotonic() + KILL_GRACE
    for p in live:
        p.join(max(0.0, deadline - time.monotonic()))
    for p in live:
        if p.is_alive():
            with contextlib.suppress(OSError):
                p.kill()
            p.join(1.0)
