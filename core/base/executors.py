"""Pick an :class:`~causalcheck.base.pool.Executor` by name: ``--executor local`` or ``--executor ray``.

Kept apart from :mod:`causalcheck.base.pool` so that the pool never imports the Ray executor (which
builds on the pool's :class:`~causalcheck.base.errors.WorkerDied`); only ``"ray"`` imports
:mod:`causalcheck.base.ray_executor`, and that imports Ray only when it is first used.

>>> make_executor("local", 2).describe()
{'name': 'local', 'workers': 2}
"""

from __future__ import annotations

from causalcheck.base.errors import InputFormatError
from causalcheck.base.pool import EXECUTORS, Executor, LocalExecutor

__all__ = ["make_executor"]


def make_executor(name: str, workers: int = 1, *, address: str | None = None) -> Executor:
    """The executor called *name* (:data:`EXECUTORS`); ``"ray"`` imports Ray (the ``[ray]`` extra).

    *workers* is the local executor's process count and the CPUs of a local Ray cluster that the
    Ray executor starts; *address* (else ``$RAY_ADDRESS``) is a Ray cluster to join instead.
    """
    if name == "local":
        if address:
            raise InputFormatError(f"--ray-address={address!r} needs --executor ray")
        return LocalExecutor(workers)
    if name == "ray":
        # late: the optional Ray executor
        from causalcheck.base.ray_executor import RayExecutor

        return RayExecutor(address=address, num_cpus=workers)
    raise InputFormatError(f"executor={name!r} must be one of {list(EXECUTORS)!r}")
