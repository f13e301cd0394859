"""Run a function over jobs in worker processes; the answers come back in job order.

:func:`ordered_map` is for CPU-bound batches whose output must not depend on the number of
workers (``lab score --workers K``): the answers are returned in the order of the jobs, so a
caller that folds them in that order writes the same bytes for every ``K``.

* ``workers <= 1`` or a single job: ``fn(job)`` in this process, in order (no process is started).
* Otherwise ``min(workers, len(jobs))`` processes (``fork`` where available: nothing is re-imported,
  the jobs and answers travel by pickle over pipes).  A worker gets its next job only when it has
  answered the previous one, so on Ctrl-C nothing is left queued: the parent terminates its
  workers (SIGTERM, SIGKILL after :data:`KILL_GRACE` seconds) and the ``KeyboardInterrupt``
  propagates — callers write result files only after :func:`ordered_map` returns, so an interrupted
  batch writes none.  Workers ignore SIGINT (the terminal sends it to the whole process group;
  the parent decides) and die with the parent (``PR_SET_PDEATHSIG`` on Linux, else a watchdog).
* An exception raised by *fn* in a worker is re-raised in the parent (the batch stops); a worker
  that dies without answering (killed, out of memory, a crash in native code) is not: its job's
  answer is a :class:`~causalcheck.base.errors.WorkerDied` naming the exit code, a new worker takes its place and the
  other jobs go on — the caller names the failed input.

**Executors.**  Where the jobs run is an :class:`Executor`: :class:`LocalExecutor` (this process or
forked workers, as above; the default) or the Ray executor of :mod:`causalcheck.base.ray_executor`
(one Ray task per job, on a local or remote Ray cluster).  Callers pick one by name with
:func:`causalcheck.base.executors.make_executor` and pass it to :func:`completed` /
:func:`ordered_map`; they never import Ray.  Every executor answers the same way (``(index, answer)`` pairs, :class:`~causalcheck.base.errors.WorkerDied` for a job whose
worker died, *fn*'s own exceptions re-raised, nothing left running when the caller stops), so a
caller that folds the answers by index writes the same bytes whichever executor ran them.  An
executor whose workers may not see this machine's files (:attr:`Executor.shares_files` false:
Ray) gets self-contained jobs whose answers carry the results, written by the caller.

>>> ordered_map(abs, [-2, 3, -1], workers=1)
[2, 3, 1]
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, runtime_checkable

from causalcheck.base.errors import CausalCheckError, WorkerDied

__all__ = ["EXECUTORS", "KILL_GRACE", "Executor", "LocalExecutor", "completed", "ordered_map"]

T = TypeVar("T")
R = TypeVar("R")

#: Seconds a terminated worker gets before it is killed.
KILL_GRACE = 2.0
_WATCHDOG_SECONDS = 0.5


#: The executors :func:`causalcheck.base.executors.make_executor` knows (``--executor``).
EXECUTORS = ("local", "ray")


@runtime_checkable
class Executor(Protocol):
    """Where the jobs of :func:`completed` run (module docstring)."""

    @property
    def name(self) -> str:
        """``"local"`` or ``"ray"``: what ``--executor`` chose."""
        ...

    @property
    def shares_files(self) -> bool:
        """True when *fn* runs where this process's files are (it may read and write them)."""
        ...

    def completed(self, fn: Callable[[T], R], jobs: Sequence[T]) -> Generator[tuple[int, R | WorkerDied], None, None]:
        """Yield ``(index, fn(jobs[index]))`` as each job is answered (:func:`completed`)."""
        ...

    def describe(self) -> dict[str, Any]:
        """What ran the jobs, for the provenance of the results (JSON; no timings)."""
        ...

    def close(self) -> None:
        """Release what the executor started (a local Ray cluster); the local executor has nothing to release."""
        ...


@dataclass(frozen=True)
class LocalExecutor:
    """This process (``workers <= 1``) or *workers* forked processes."""

    workers: int = 1
    name: str = "local"
    shares_files: bool = True

    def completed(self, fn: Callable[[T], R], jobs: Sequence[T]) -> Generator[tuple[int, R | WorkerDied], None, None]:
        return _local_completed(fn, jobs, self.workers)

    def describe(self) -> dict[str, Any]:
        return {"name": "local", "workers": self.workers}

    def close(self) -> None:
        return None


def _arm_parent_death(parent: int) -> None:
    """Ask the kernel to kill this process when its parent *parent* exits (Linux), and watch it too."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # pragma: no cover - no libc prctl
            pass

    def watch() -> None:
        import time

        while True:
            time.sleep(_WATCHDOG_SECONDS)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(1)


def _portable(exc: BaseException) -> BaseException:
    """*exc* if it survives pickling, else a :class:`CausalCheckError` / ``RuntimeError`` with its text."""
    import pickle

    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        cls = CausalCheckError if isinstance(exc, CausalCheckError) else RuntimeError
        return cls(f"{type(exc).__name__}: {exc}")


def _serve(conn: Any, fn: Callable[[Any], Any], parent: int) -> None:
    """A worker: answer ``("ok", fn(job))`` or ``("error", exc)`` per job received; ``None`` ends it."""
    _arm_parent_death(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            answer: tuple[str, Any] = ("ok", fn(job))
        except BaseException as exc:  # sent to the parent, which re-raises it
            answer = ("error", _portable(exc))
        try:
            conn.send(answer)
        except Exception as exc:  # an answer that does not pickle: a RuntimeError with its text
            conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}")))


class _Pool:
    """The worker processes of one :func:`ordered_map` call and the job each one runs."""

    def __init__(self, fn: Callable[[Any], Any]) -> None:
        import multiprocessing as mp

        self.ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
        self.fn = fn
        self.procs: list[Any] = []
        self.conns: list[Any] = []
        self.busy: dict[int, int] = {}  # worker slot -> job index
        self.parent = os.getpid()

    def start(self, slot: int | None = None) -> int:
        ours, theirs = self.ctx.Pipe()
        proc = self.ctx.Process(target=_serve, args=(theirs, self.fn, self.parent), daemon=True)  # type: ignore[attr-defined]
        proc.start()
        theirs.close()
        if slot is None:
            self.procs.append(proc)
            self.conns.append(ours)
            return len(self.procs) - 1
        self.conns[slot].close()
        self.procs[slot], self.conns[slot] = proc, ours
        return slot

    def give(self, slot: int, index: int, jobs: Sequence[Any]) -> None:
        """Send job *index* to the worker in *slot* (a worker that died since its last answer is replaced)."""
        self.busy[slot] = index
        try:
            self.conns[slot].send(jobs[index])
        except OSError:
            self.procs[slot].join(1.0)
            self.conns[self.start(slot)].send(jobs[index])

    def stop(self) -> None:
        import time

        for conn in self.conns:
            with contextlib.suppress(OSError):
                conn.send(None)
        live = [p for p in self.procs if p.is_alive()]
        for p in live:
            with contextlib.suppress(OSError):
                p.terminate()
        deadline = time.monotonic() + KILL_GRACE
        for p in live:
            p.join(max(0.0, deadline - time.monotonic()))
            if p.is_alive():
                with contextlib.suppress(OSError):
                    p.kill()
                p.join(1.0)
        for conn in self.conns:
            conn.close()


def completed(
    fn: Callable[[T], R], jobs: Sequence[T], workers: int, *, executor: Executor | None = None
) -> Generator[tuple[int, R | WorkerDied], None, None]:
    """Yield ``(index, fn(jobs[index]))`` as each job is answered, computed by *workers* processes.

    The streaming form of :func:`ordered_map` (module docstring): answers come in the order the
    workers finish them, so a caller can write each result as soon as it exists (``lab run``
    writes an episode file, then its resume state).  ``workers <= 1`` or a single job runs
    in this process, in job order.  Use it in a ``with contextlib.closing(...)`` block or run it
    to the end: closing the generator (or an exception raised in the loop) stops every worker.
    *executor* (default: :class:`LocalExecutor` of *workers*) runs the jobs elsewhere.
    """
    if executor is not None:
        return executor.completed(fn, jobs)
    return _local_completed(fn, jobs, workers)


def _local_completed(fn: Callable[[T], R], jobs: Sequence[T], workers: int) -> Generator[tuple[int, R | WorkerDied], None, None]:
    """:func:`completed` in this process or *workers* forked processes."""
    if workers <= 1 or len(jobs) <= 1:
        for index, job in enumerate(jobs):
            yield index, fn(job)
        return
    from multiprocessing.connection import wait

    pending = list(range(len(jobs) - 1, -1, -1))  # popped from the end: job order
    pool = _Pool(fn)
    try:
        for _ in range(min(workers, len(jobs))):
            pool.give(pool.start(), pending.pop(), jobs)
        while pool.busy:
            ready = set(wait([pool.conns[s] for s in pool.busy] + [pool.procs[s].sentinel for s in pool.busy]))
            for slot in list(pool.busy):
                conn, proc = pool.conns[slot], pool.procs[slot]
                if conn not in ready and proc.sentinel not in ready:
                    continue
                index = pool.busy.pop(slot)
                value: Any
                try:
                    kind, value = conn.recv() if conn.poll() else ("died", None)
                except (EOFError, OSError):
                    kind, value = "died", None
                if kind == "error":
                    assert isinstance(value, BaseException)
                    raise value
                if kind == "died":
                    proc.join(1.0)
                    value = WorkerDied(exitcode=proc.exitcode)
                    slot = pool.start(slot)
                if pending:  # the next job first: the worker computes while the caller writes
                    pool.give(slot, pending.pop(), jobs)
                yield index, value
    finally:
        pool.stop()


def ordered_map(
    fn: Callable[[T], R],
    jobs: Sequence[T],
    workers: int,
    *,
    on_answer: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> list[R | WorkerDied]:
    """``[fn(job) for job in jobs]`` computed by *workers* processes (module docstring).

    *on_answer* is called in this process with the number of jobs answered so far, after each
    answer (progress).  *fn* must not depend on state changed after the call (workers fork).
    *executor*: as for :func:`completed`.
    """
    answers: list[Any] = [None] * len(jobs)
    with contextlib.closing(completed(fn, jobs, workers, executor=executor)) as stream:
        for done, (index, value) in enumerate(stream, 1):
            answers[index] = value
            if on_answer is not None:
                on_answer(done)
    return answers
