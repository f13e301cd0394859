"""Long native computations that still answer Ctrl-C.

A native extension call that runs for seconds (gadjid's distances hold the GIL for their
whole run) ignores ``SIGINT`` until it returns: Python runs its signal handlers between
bytecodes of the main thread.  :func:`interruptible` runs such a call in a worker process
(``spawn``: no state of this process is shared) while the main thread waits in short,
interruptible polls of the result pipe; on ``KeyboardInterrupt`` the worker is terminated
and the interrupt propagates, so the command ends at once with the interrupt exit code
(130) and writes no result file (every result file is written after its computation
returns).  The callee and its arguments travel by pickle: *fn* must be a module-level
function.  A worker that dies without an answer raises :class:`WorkerDied`.

Starting a worker costs about a second (it imports its modules), so callers use it above a
cost estimate and call small computations directly.

>>> interruptible(sum, [1, 2, 3])
6
"""

from __future__ import annotations

import contextlib
import threading
import traceback
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

__all__ = ["POLL_SECONDS", "Terminated", "WorkerDied", "interruptible", "terminate_as_interrupt"]

T = TypeVar("T")

#: Seconds between two checks for Ctrl-C while the worker runs.
POLL_SECONDS = 0.05


class Terminated(KeyboardInterrupt):
    """SIGTERM: stop like Ctrl-C (the command line exits 143 with its note instead of 130)."""


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within the block SIGTERM raises :class:`Terminated` in the main thread (restored after), so a
    command stops on SIGTERM as on Ctrl-C: its ``finally`` blocks run (workers and clusters stopped)."""
    import signal

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise Terminated()

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class WorkerDied(RuntimeError):
    """The worker process of :func:`interruptible` ended without an answer (a bug or a crash: exit 70)."""


def _work(conn: Any, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    try:
        conn.send(("ok", fn(*args, **kwargs)))
    except KeyboardInterrupt:  # the terminal's Ctrl-C reaches the worker too: the parent decides
        pass
    except BaseException as exc:  # handed to the parent (a pyo3 panic derives from BaseException)
        try:
            conn.send(("error", exc))
        except Exception:  # an exception that does not pickle: its text
            conn.send(("error", WorkerDied(f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")))
    finally:
        conn.close()


def interruptible(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` computed in a worker process, so that Ctrl-C ends the wait at once.

    Called directly outside the main thread (signals reach the main thread only) and in a
    daemonic process (which may not start one).
    """
    # late: multiprocessing costs 10 ms, and `causalcheck --help` imports this module for SIGTERM
    import multiprocessing

    if threading.current_thread() is not threading.main_thread() or multiprocessing.current_process().daemon:
        return fn(*args, **kwargs)
    ctx = multiprocessing.get_context("spawn")
    receiver, sender = ctx.Pipe(duplex=False)
    worker = ctx.Process(target=_work, args=(sender, fn, args, kwargs), name=f"causalcheck-{getattr(fn, '__name__', 'call')}", daemon=True)
    worker.start()
    sender.close()
    answer: tuple[str, Any] | None = None
    try:
        while not receiver.poll(POLL_SECONDS):
            if not worker.is_alive() and not receiver.poll():
                break
        else:
            with contextlib.suppress(EOFError):  # the pipe closed without an answer
                answer = receiver.recv()
    finally:
        if worker.is_alive() and answer is None:
            worker.terminate()
        worker.join()
        receiver.close()
    if answer is None:
        raise WorkerDied(f"the worker computing {getattr(fn, '__name__', fn)!r} ended with exit code {worker.exitcode} and no answer")
    status, value = answer
    if status == "error":
        raise value
    return value  # type: ignore[no-any-return]
