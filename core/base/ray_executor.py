"""The Ray executor: the jobs of :func:`causalcheck.base.pool.completed` as Ray tasks.

Needs the optional extra ``pip install 'causalcheck[ray]'``; this is the only module of causalcheck
that imports Ray, and only when a :class:`RayExecutor` is first used (``--executor ray``), so
``causalcheck --help`` and ``import causalcheck`` never load it.

* **Cluster.**  With an address (``--ray-address`` or ``$RAY_ADDRESS``) it joins that cluster
  (``ray.init(address=...)``); otherwise it starts a local one with ``num_cpus`` CPUs (the
  command's ``--workers``, or every core).  A process that has already called ``ray.init`` (a
  test's fixture, a notebook) is used as it is.  A cluster the executor started is shut down by
  :meth:`RayExecutor.close`.
* **Jobs.**  One task per job (``ray.remote(max_retries=0)``: a task is never run twice); *fn* is
  put in the object store once.  The answers are yielded as the tasks finish, with the job's
  index, so a caller that folds them by index writes what the local executor writes.  Workers on
  other machines do not see this machine's files: :attr:`RayExecutor.shares_files` is false, and
  callers send self-contained jobs whose answers carry the results (``lab run`` writes each
  episode file itself).
* **Failures.**  An exception raised by *fn* is re-raised here (the original exception, so bad
  input is still exit 2); a task whose worker died (killed, out of memory, its node lost) answers
  :class:`~causalcheck.base.pool.Died` naming Ray's reason, as a dead local worker does.
* **Stopping.**  Closing the generator (Ctrl-C, SIGTERM, an exception in the caller's loop)
  cancels every task not yet answered (``ray.cancel(force=True)``): nothing keeps running.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar

from causalcheck.base.errors import CausalCheckError
from causalcheck.base.pool import Died

__all__ = ["INSTALL_HINT", "WAIT_SECONDS", "RayExecutor", "RayUnavailableError"]

T = TypeVar("T")
R = TypeVar("R")

#: What to install for ``--executor ray``.
INSTALL_HINT = "pip install 'causalcheck[ray]'"
#: Seconds one ``ray.wait`` blocks before the loop looks again (Ctrl-C is seen at least this often).
WAIT_SECONDS = 0.5


class RayUnavailableError(CausalCheckError):
    """``--executor ray`` without Ray installed, or a cluster that cannot be reached (exit 2)."""


def _apply(fn: Callable[[Any], Any], job: Any) -> Any:
    """A task: *fn* (from the object store) applied to one job."""
    return fn(job)


def _ray() -> Any:
    try:
        # late: the optional dependency, only here
        import ray
    except ImportError:
        raise RayUnavailableError(f"--executor ray needs Ray, which is not installed: {INSTALL_HINT}") from None
    return ray


def _first_line(exc: BaseException, what: str) -> str:
    first = (str(exc).strip().splitlines() or [""])[0]
    if "No module named" in str(exc):
        first += " (causalcheck and any plug-in it runs must be installed on every node of the cluster)"
    return f"{what}: {type(exc).__name__}: {first}"


class RayExecutor:
    """Run jobs as Ray tasks (module docstring); *address* else ``$RAY_ADDRESS`` else a local cluster of *num_cpus*."""

    name = "ray"
    shares_files = False

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.num_cpus = num_cpus
        self._started = False
        self._cluster: str | None = None

    def _connect(self) -> Any:
        ray = _ray()
        if ray.is_initialized():
            if self._cluster is None:
                self._cluster = "this process's Ray (already initialized)"
            return ray
        import logging

        common: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.WARNING}
        try:
            if self.address:
                ray.init(address=self.address, **common)
                self._cluster = self.address
            else:
                ray.init(num_cpus=self.num_cpus or os.cpu_count() or 1, **common)
                self._cluster = "local"
        except Exception as exc:  # ConnectionError, RuntimeError, ValueError: the cluster named is not there
            where = f"the Ray cluster at --ray-address/RAY_ADDRESS={self.address!r}" if self.address else "a local Ray cluster"
            raise RayUnavailableError(f"cannot start or join {where}: {type(exc).__name__}: {exc}") from None
        self._started = True
        return ray

    def describe(self) -> dict[str, Any]:
        """``{"name": "ray", "cluster": "local" | address, "cpus": N, "ray_version": ...}`` (connects first)."""
        ray = self._connect()
        cpus = ray.cluster_resources().get("CPU")
        return {"name": "ray", "cluster": self._cluster, "cpus": int(cpus) if cpus else None, "ray_version": ray.__version__}

    def close(self) -> None:
        """Shut down the local cluster this executor started (a joined or inherited one is left running)."""
        if self._started:
            _ray().shutdown()
            self._started = False

    def completed(self, fn: Callable[[T], R], jobs: Sequence[T]) -> Generator[tuple[int, R | Died], None, None]:
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
                        answer = Died(None, _first_line(exc, "Ray")[:300])
                    yield index[ref], answer
        finally:
            for ref in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
