"""Long native computations that still answer Ctrl-C.

A native extension call that runs for seconds (gadjid's distances hold the GIL for their
whole run) ignores ``SIGINT`` until it returns: Python runs its signal handlers between
bytecodes of the main thread.  :func:`interruptible` runs such a call in a worker process
while the main thread waits in short, interruptible polls of the worker's pipes; on
``KeyboardInterrupt`` (Ctrl-C, or SIGTERM within :func:`terminate_as_interrupt`) the worker
is killed and the interrupt propagates, so the command ends at once with the interrupt exit
code (130) and writes no result file (every result file is written after its computation
returns).  A worker that dies without an answer raises :class:`WorkerDied`, naming the
function and the exit code (or the signal that ended it).

The worker is a new interpreter, ``sys.executable -c …``, that takes the caller's
``sys.path`` and then the call, pickled, on its standard input, and returns the answer,
pickled, on its standard output; what the callee prints goes to standard error.  It never
imports the caller's ``__main__``.  multiprocessing's ``spawn`` and ``forkserver`` start
methods (the defaults on macOS and Windows and, from Python 3.14, on Linux) run the caller's
main script again in the worker: a script that calls a library function at module level without an
``if __name__ == "__main__":`` guard then starts a second worker while the first starts and
dies (multiprocessing's "bootstrapping phase" error), and a script read from standard input
(``python - < script.py``) cannot be run again at all.  This worker runs the same from a
script, ``python -c``, standard input, a notebook or a REPL.  *fn* and its arguments travel
by pickle: *fn* must be a module-level function of an importable module, not of
``__main__``.  The worker ignores ``SIGINT`` (a terminal sends Ctrl-C to it too): the caller
decides.

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

from causalcheck.base.errors import WorkerDied

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


#: The worker's program: SIGINT ignored, the caller's ``sys.path`` (the first pickle on standard
#: input), then :func:`_serve`.
_WORKER = (
    "import pickle, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "sys.path[:] = pickle.load(sys.stdin.buffer); "
    "from causalcheck.base.interrupt import _serve; _serve()"
)


def _answer(call: bytes) -> bytes:
    """The pickled ``("ok", value)`` or ``("error", exception)`` of the pickled call ``(fn, args, kwargs)``."""
    import pickle

    try:
        fn, args, kwargs = pickle.loads(call)
        return pickle.dumps(("ok", fn(*args, **kwargs)))
    except BaseException as exc:  # handed to the caller (a pyo3 panic derives from BaseException)
        try:
            return pickle.dumps(("error", exc))
        except Exception:  # an exception that does not pickle: its text
            text = "".join(traceback.format_exception(exc))
            return pickle.dumps(("error", WorkerDied(f"{type(exc).__name__}: {exc}\n{text}")))


def _serve() -> None:
    """The worker's side of :func:`interruptible`: the call from standard input, its answer to standard output."""
    import os
    import sys

    answer = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # prints of the callee (Python's or native code's) go to standard error, never into the answer
    with answer:
        answer.write(_answer(sys.stdin.buffer.read()))


def interruptible(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` computed in a worker process, so that Ctrl-C ends the wait at once.

    Called directly outside the main thread (signals reach the main thread only), in a
    daemonic multiprocessing process (its parent ends it with SIGTERM, which would leave the
    worker running) and where there is no interpreter to start (a frozen application).
    A *fn* defined in ``__main__`` raises :class:`TypeError`: the worker cannot import it.
    """
    import pickle
    import subprocess
    import sys

    if getattr(fn, "__module__", None) == "__main__":
        raise TypeError(f"fn={fn!r} is defined in __main__, which the worker process does not import: define it in a module")
    multiprocessing = sys.modules.get("multiprocessing")  # imported in every process multiprocessing started
    daemonic = multiprocessing is not None and multiprocessing.current_process().daemon
    if threading.current_thread() is not threading.main_thread() or daemonic or not sys.executable or getattr(sys, "frozen", False):
        return fn(*args, **kwargs)
    call = pickle.dumps(list(sys.path)) + pickle.dumps((fn, args, kwargs))
    worker = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    out = b""
    try:
        pending: bytes | None = call
        while True:
            try:
                out, _ = worker.communicate(pending, timeout=POLL_SECONDS)
                break
            except subprocess.TimeoutExpired:  # still computing; a Ctrl-C raises KeyboardInterrupt out of communicate()
                pending = None  # communicate() keeps writing the rest of the call
    finally:
        if worker.poll() is None:
            worker.kill()
        worker.wait()
        for pipe in (worker.stdin, worker.stdout):
            if pipe is not None:
                pipe.close()
    try:
        status, value = pickle.loads(out)
    except Exception:  # no answer, or one cut short
        died = WorkerDied(exitcode=worker.returncode)
        raise WorkerDied(f"the worker computing {getattr(fn, '__name__', fn)!r} ended with {died.how} and no answer", exitcode=worker.returncode) from None
    if status == "error":
        raise value
    return value  # type: ignore[no-any-return]
