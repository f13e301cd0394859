"""The Ray executor: the jobs of :func:`causalcheck.base.pool.completed` as Ray tasks.

Needs the optional extra ``pip install 'causalcheck[ray]'``; this is the only module of causalcheck
that imports Ray, and only when a :class:`RayExecutor` is first used (``--executor ray``), so
``causalcheck --help`` and ``import causalcheck`` never load it.

* **Cluster.**  With an address (``--ray-address`` or ``$RAY_ADDRESS``) it joins that cluster
  (``ray.init(address=...)``) — after checking within :data:`CONNECT_SECONDS` that something
  listens there (``host:port`` or ``ray://host:port``; Ray itself would retry for minutes):
  an address nobody answers is :class:`RayUnavailableError` naming it and the timeout;
  otherwise it starts a local one with ``num_cpus`` CPUs (the command's ``--workers``, or every
  core).  A process that has already called ``ray.init`` (a test's fixture, a notebook) is used
  as it is.  A cluster the executor started is shut down by :meth:`RayExecutor.close`.
* **Signals.**  SIGINT and SIGTERM during Ray's start stay the command's (130 / 143 with its
  note); a Ctrl-C during ``ray.init`` is noted, so one that Ray's start caught and went on from
  still stops the command once ``ray.init`` returns.  Ray's Python-level SIGTERM handler is replaced after ``ray.init`` by the one that was
  there before.  Ray's native crash handler (which also takes SIGTERM and ends the process
  with no word, and after ``ray.shutdown`` leaves SIGTERM at the system default) is not
  installed in this process: when this module imports Ray it sets Ray's own
  ``RAY_DISABLE_FAILURE_SIGNAL_HANDLER=1`` for the import only, so the cluster's processes keep
  theirs.  Ray imported before (by the caller) keeps it; the handlers are put back after
  ``ray.init`` and after ``ray.shutdown`` all the same.
* **No process left.**  Every process of a local cluster the executor started carries an
  environment mark; when the cluster is stopped (closed, or a start cut short by a signal or an
  error) the marked processes and everything they started — found before ``ray.shutdown``, while
  Ray's agents are still the children of their raylet, and again after — get SIGTERM, then
  SIGKILL until none is left (within :data:`STOP_SECONDS`; Linux ``/proc``, elsewhere
  ``ray.shutdown`` alone).  Ray's agents of a start cut short otherwise outlive their raylet by a
  minute.
* **Jobs.**  One task per job (``ray.remote(max_retries=0)``: a task is never run twice); *fn* is
  put in the object store once.  The answers are yielded as the tasks finish, with the job's
  index, so a caller that folds them by index writes what the local executor writes.  Workers on
  other machines do not see this machine's files: :attr:`RayExecutor.shares_files` is false, and
  callers send self-contained jobs whose answers carry the results (``lab run`` writes each
  episode file itself).
* **Failures.**  An exception raised by *fn* is re-raised here (the original exception, so bad
  input is still exit 2); a task whose worker died (killed, out of memory, its node lost) answers
  a :class:`~causalcheck.base.errors.WorkerDied` naming Ray's reason, as a dead local worker does.
* **Stopping.**  Closing the generator (Ctrl-C, SIGTERM, an exception in the caller's loop)
  cancels every task not yet answered (``ray.cancel(force=True)``): nothing keeps running.  A
  signal that reaches a local cluster's wait cancels nothing: the command's ``close()`` ends the
  cluster and every task with it, while a cancel racing a task's answer can end Ray's driver with
  a failed internal check (exit 1 instead of 130 / 143).
* **Leaving.**  Once this process has started Ray, the interpreter's own teardown can meet Ray's
  native threads half shut down (a start cut short by a signal can end in a segmentation fault
  after the command's note, exit -11 instead of 130).  :func:`started_in_this_process` tells the
  command line, which then ends the process with :func:`os._exit` after flushing its streams, so the
  exit code is the command's.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

from causalcheck.base.errors import CausalCheckError, WorkerDied, missing_extra
from causalcheck.base.interrupt import Terminated

__all__ = ["CONNECT_SECONDS", "STOP_SECONDS", "WAIT_SECONDS", "RayExecutor", "RayUnavailableError", "started_in_this_process"]

T = TypeVar("T")
R = TypeVar("R")

#: Seconds one ``ray.wait`` blocks before the loop looks again (Ctrl-C is seen at least this often).
WAIT_SECONDS = 0.5
#: Seconds to wait for a cluster's address to answer before ``ray.init`` is called
#: (``$CAUSALCHECK_RAY_CONNECT_SECONDS`` overrides).
CONNECT_SECONDS = 15.0
#: Seconds the processes of a stopped local cluster get after SIGTERM, and again after SIGKILL, to end.
STOP_SECONDS = 3.0


class RayUnavailableError(CausalCheckError):
    """A Ray cluster that cannot be started, joined or used (exit 2); Ray not installed is
    :class:`~causalcheck.base.errors.MissingExtraError`."""


#: Whether this process has called ``ray.init`` through an executor (see "Leaving" above).
_STARTED_HERE = False


def started_in_this_process() -> bool:
    """True once a :class:`RayExecutor` of this process has started or joined Ray (even a start cut short)."""
    return _STARTED_HERE


def _apply(fn: Callable[[Any], Any], job: Any) -> Any:
    """A task: *fn* (from the object store) applied to one job."""
    return fn(job)


def _ray() -> Any:
    # Ray's own wait for a cluster's GCS (one try a second, 20 by default; read when Ray is imported): bounded alike
    os.environ.setdefault("RAY_NUM_REDIS_GET_RETRIES", str(max(1, round(_connect_seconds()))))
    import sys

    # Ray reads this when it is imported: its native crash handler stays out of this process only (module docstring)
    quiet = "ray" not in sys.modules and "RAY_DISABLE_FAILURE_SIGNAL_HANDLER" not in os.environ
    if quiet:
        os.environ["RAY_DISABLE_FAILURE_SIGNAL_HANDLER"] = "1"
    try:
        # late: the optional dependency, only here
        import ray
    except ImportError:
        raise missing_extra("--executor ray", "ray", requirement="Ray") from None
    finally:
        if quiet:
            os.environ.pop("RAY_DISABLE_FAILURE_SIGNAL_HANDLER", None)
    return ray


def _connect_seconds() -> float:
    raw = os.environ.get("CAUSALCHECK_RAY_CONNECT_SECONDS", "").strip()
    if not raw:
        return CONNECT_SECONDS
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 < value < 3600:
        raise RayUnavailableError(f"CAUSALCHECK_RAY_CONNECT_SECONDS={raw!r} must be a number of seconds in (0, 3600)")
    return value


def _probe(address: str) -> None:
    """Something must accept a TCP connection at *address* within :func:`_connect_seconds` (``auto``
    and addresses without a port are left to Ray)."""
    import socket
    from urllib.parse import urlsplit

    if "://" in address:
        parts = urlsplit(address)
        host, port = parts.hostname, parts.port
    else:
        host, _, port_text = address.rpartition(":")
        port = int(port_text) if port_text.isdigit() else None
        host = host.strip("[]")
    if not host or port is None:
        return
    seconds = _connect_seconds()
    try:
        with socket.create_connection((host, port), timeout=seconds):
            pass
    except OSError as exc:
        if isinstance(exc, TimeoutError):
            reason = f"no answer within {seconds:g} s (CAUSALCHECK_RAY_CONNECT_SECONDS)"
        else:
            reason = (exc.strerror or type(exc).__name__).lower()
        raise RayUnavailableError(
            f"cannot join the Ray cluster at --ray-address/RAY_ADDRESS={address!r}: {reason}; "
            "is the head node running (ray start --head) and is the port its GCS port?"
        ) from None


def _first_line(exc: BaseException, what: str) -> str:
    first = (str(exc).strip().splitlines() or [""])[0]
    if "No module named" in str(exc):
        first += " (causalcheck and any plug-in it runs must be installed on every node of the cluster)"
    return f"{what}: {type(exc).__name__}: {first}"


def _signal_handlers() -> dict[int, Any]:
    """The SIGINT and SIGTERM handlers in force (main thread only: elsewhere none can be set)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return {}
    return {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}


def _restore(handlers: dict[int, Any]) -> None:
    """Put back the handlers Ray replaced (its SIGTERM handler would end the command with no word).

    Set again even where Python's record already shows them: native code may have changed the
    process's handler underneath (``signal.getsignal`` reads Python's record, not the process's)."""
    import signal

    for sig, handler in handlers.items():
        if handler is not None:
            signal.signal(sig, handler)


def _noting_sigint(handlers: dict[int, Any]) -> list[int]:
    """Wrap the SIGINT handler in force (when it is a function: not ``SIG_IGN`` or ``SIG_DFL``) so that
    each call is noted in the list returned: an interrupt raised inside Ray's start and caught
    there is still known after (:func:`_restore` puts the handler itself back)."""
    import signal

    noted: list[int] = []
    handler = handlers.get(signal.SIGINT)
    if callable(handler):

        def noting(signum: int, frame: Any) -> Any:
            noted.append(signum)
            return handler(signum, frame)

        signal.signal(signal.SIGINT, noting)
    return noted


#: The environment variable that marks the processes of a local cluster an executor started.
_MARK = "CAUSALCHECK_RAY_CLUSTER"


def _processes() -> dict[int, tuple[int, str, bytes]]:
    """``pid -> (parent pid, start time, environment)`` of every live process this user can read (Linux
    ``/proc``; a zombie has ended: it waits only for its parent to collect its exit status)."""
    from pathlib import Path

    table: dict[int, tuple[int, str, bytes]] = {}
    with contextlib.suppress(OSError):
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()  # after the name, which may hold spaces
                if fields[0] not in ("Z", "X"):
                    table[int(proc.name)] = (int(fields[1]), fields[19], (proc / "environ").read_bytes())
    return table


def _cluster(mark: str, known: set[tuple[int, str]]) -> set[tuple[int, str]]:
    """``(pid, start time)`` of the live processes of the cluster marked *mark*: those whose
    environment holds ``CAUSALCHECK_RAY_CLUSTER=<mark>``, every process they started, and those of
    *known* still alive (a process's start time tells it from a later one given the same pid)."""
    needle = f"{_MARK}={mark}".encode()
    table = _processes()
    table.pop(os.getpid(), None)
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found = {pid for pid, (_, _, env) in table.items() if needle in env}
    found |= {pid for pid, start in known if pid in table and table[pid][1] == start}
    todo = list(found)
    while todo:  # each pid is added once: bounded by the process table
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return {(pid, table[pid][1]) for pid in found}


def _end_cluster(mark: str, known: set[tuple[int, str]]) -> None:
    """SIGTERM, then SIGKILL, every process of the cluster marked *mark* (see :func:`_cluster`)
    until none is left, each signal given :data:`STOP_SECONDS`; what appears meanwhile gets it too."""
    import signal
    import time

    for sig in (signal.SIGTERM, signal.SIGKILL):
        deadline = time.monotonic() + STOP_SECONDS
        signalled: set[tuple[int, str]] = set()
        while True:
            left = _cluster(mark, known)
            known |= left
            if not left:
                return
            for pid, _ in left - signalled:
                with contextlib.suppress(OSError):
                    os.kill(pid, sig)
            signalled |= left
            if time.monotonic() >= deadline:
                break
            time.sleep(0.1)


class RayExecutor:
    """Run jobs as Ray tasks (module docstring); *address* else ``$RAY_ADDRESS`` else a local cluster of *num_cpus*."""

    name = "ray"
    shares_files = False

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.num_cpus = num_cpus
        self._started = False
        self._cluster: str | None = None
        self._mark = ""  # the environment mark of the local cluster's processes (empty: none started)

    def _connect(self) -> Any:
        ray = _ray()
        if ray.is_initialized():
            if self._cluster is None:
                self._cluster = "this process's Ray (already initialized)"
            return ray
        import logging

        common: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING}
        if self.address:
            _probe(self.address)
        handlers = _signal_handlers()
        if not self.address:  # a local cluster: its processes carry a mark, so that none outlives the command
            self._mark = f"{os.getpid()}-{os.urandom(6).hex()}"
            os.environ[_MARK] = self._mark
        global _STARTED_HERE
        _STARTED_HERE = True
        try:
            try:
                interrupts = _noting_sigint(handlers)
                if self.address:
                    ray.init(address=self.address, **common)
                    self._cluster = self.address
                else:
                    ray.init(num_cpus=self.num_cpus or os.cpu_count() or 1, **common)
                    self._cluster = "local"
                self._started = True  # from here on close() stops it, whatever is interrupted below
                if interrupts:  # a Ctrl-C that Ray's start caught and went on
                    raise KeyboardInterrupt
            finally:
                _restore(handlers)
                os.environ.pop(_MARK, None)  # processes this one starts later are not Ray's
        except SystemExit:  # Ray's SIGTERM handler ran during its start: stop as our SIGTERM does
            self._stop(ray, handlers)
            raise Terminated("during the start of Ray; nothing was run") from None
        except KeyboardInterrupt:
            self._stop(ray, handlers)
            raise
        except Exception as exc:  # ConnectionError, RuntimeError, ValueError: the cluster named is not there
            self._stop(ray, handlers)
            where = f"the Ray cluster at --ray-address/RAY_ADDRESS={self.address!r}" if self.address else "a local Ray cluster"
            raise RayUnavailableError(f"cannot start or join {where}: {type(exc).__name__}: {exc}") from None
        return ray

    def _stop(self, ray: Any, handlers: dict[int, Any] | None = None) -> None:
        """Shut down Ray and end every process of the local cluster this executor started (module
        docstring, "No process left"); *handlers* (else those in force) are this process's signal
        handlers after.  A signal meanwhile (Ctrl-C again, SIGTERM) does not cut this short: it is
        raised once the cluster's processes have been ended."""
        handlers = _signal_handlers() if handlers is None else handlers
        mark, self._mark = self._mark, ""
        self._started = False
        known: set[tuple[int, str]] = set()
        deferred: BaseException | None = None

        def shielded(step: Callable[[], Any]) -> None:
            nonlocal deferred
            for _ in range(3):  # a signal in the middle of a step: the step once more (each is bounded in time)
                try:
                    step()
                    return
                except (KeyboardInterrupt, SystemExit) as exc:
                    deferred = deferred or exc
                except Exception:  # Ray's own trouble shutting down: its processes are ended below all the same
                    return

        if mark:  # while Ray's agents are still the children of their raylet
            shielded(lambda: known.update(_cluster(mark, set())))
        shielded(ray.shutdown)
        shielded(lambda: _restore(handlers))
        if mark:
            shielded(lambda: _end_cluster(mark, known))
        if isinstance(deferred, SystemExit):  # Ray's SIGTERM handler, in force during its start
            raise Terminated() from None
        if deferred is not None:
            raise deferred

    def describe(self) -> dict[str, Any]:
        """``{"name": "ray", "cluster": "local" | address, "cpus": N, "ray_version": ...}`` (connects first)."""
        ray = self._connect()
        cpus = ray.cluster_resources().get("CPU")
        return {"name": "ray", "cluster": self._cluster, "cpus": int(cpus) if cpus else None, "ray_version": ray.__version__}

    def close(self) -> None:
        """Shut down the local cluster this executor started (a joined or inherited one is left running)."""
        if self._started:
            self._stop(_ray())

    def completed(self, fn: Callable[[T], R], jobs: Sequence[T]) -> Generator[tuple[int, R | WorkerDied], None, None]:
        """Yield ``(index, fn(jobs[index]))`` as each task finishes (module docstring)."""
        if not jobs:
            return
        ray = self._connect()
        from ray.exceptions import RayError, RaySystemError, RayTaskError

        task = ray.remote(max_retries=0, num_cpus=1)(_apply)
        fn_ref = ray.put(fn)
        refs = [task.remote(fn_ref, job) for job in jobs]
        index = {ref: i for i, ref in enumerate(refs)}
        pending = list(refs)
        interrupted = False
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1, timeout=WAIT_SECONDS)
                for ref in ready:
                    answer: Any
                    try:
                        answer = ray.get(ref)
                    except RayTaskError as exc:  # fn raised: the original exception, as the local pool does
                        cause = getattr(exc, "cause", None)
                        if isinstance(cause, RayError):  # Ray itself failed in the worker (the task cannot be loaded)
                            raise RayUnavailableError(_first_line(cause, "Ray could not run a task")) from None
                        if isinstance(cause, BaseException):
                            raise cause from None
                        raise RuntimeError(str(exc)) from None
                    except RaySystemError as exc:
                        raise RayUnavailableError(_first_line(exc, "Ray could not run a task")) from None
                    except RayError as exc:  # the worker or its node died
                        answer = WorkerDied(detail=_first_line(exc, "Ray")[:300])
                    yield index[ref], answer
        except KeyboardInterrupt:
            interrupted = True
            raise
        finally:
            if not (interrupted and self._mark):  # module docstring, "Stopping"
                for ref in pending:
                    with contextlib.suppress(Exception):
                        ray.cancel(ref, force=True)
