"""The lab's seeded draws: one NumPy generator per role of a seed (our fix of causalab-spec §8.4).

The original draws crystal bases from Python's salted ``hash()``, so its episodes differ run to
run (§2.3).  Here every draw has explicit entropy, ``numpy.random.default_rng([seed, role,
crc32(name)])``, so one seed gives the same episode on any machine and in any process:

* role 0, 1 — the manipulator's and the reactor's crystal base of node *name*
  (:func:`crystal_base`: ``integers(0, 101)``, the original's ``randint(0, 100)``);
* role 2 — the hidden disturbance of graph *name* (:func:`disturbance_rng`);
* role 3 — the prior records of graph *name* when they are drawn per seed (:func:`prior_rng`).

>>> crystal_base(1, 0, "density") == crystal_base(1, 0, "density")
True
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["CRYSTAL_BASE_HIGH", "crystal_base", "disturbance_rng", "name_entropy", "prior_rng"]

#: A drawn crystal base is an integer in ``[0, CRYSTAL_BASE_HIGH)`` (the original's ``randint(0, 100)``).
CRYSTAL_BASE_HIGH = 101


def name_entropy(name: str) -> int:
    """The entropy word of a node or graph name: ``crc32`` of its UTF-8 bytes."""
    return zlib.crc32(name.encode("utf-8"))


def _rng(seed: int, role: int, name: str) -> np.random.Generator:
    import numpy as np

    return np.random.default_rng([seed, role, name_entropy(name)])


def crystal_base(seed: int, role: int, node: str) -> int:
    """The crystal base of *node* for the manipulator (*role* 0) or the reactor (*role* 1) of the episode of *seed*."""
    return int(_rng(seed, role, node).integers(0, CRYSTAL_BASE_HIGH))


def disturbance_rng(seed: int, graph_id: str) -> np.random.Generator:
    """The generator of the hidden disturbance's draws in the episode of *seed* over graph *graph_id*."""
    return _rng(seed, 2, graph_id)


def prior_rng(seed: int, graph_id: str) -> np.random.Generator:
    """The generator of the prior records' bases in the episode of *seed* when they are drawn per seed."""
    return _rng(seed, 3, graph_id)
