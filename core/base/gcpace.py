"""Fewer garbage-collector passes while a batch builds many small objects that live to its end.

CPython starts a young-generation pass every 700 new container objects and, after about a hundred of
those (once the survivors have grown by a quarter), a pass over every object the process holds.  Scoring thousands of episodes builds millions of small
dicts, lists and tuples that stay alive until the report is written, so most of those passes find
nothing to free and re-walk an ever larger heap: at 3 000 run folders about a tenth of ``lab score``'s
CPU time (``tests/benchmarks/bench_score.py``), and a third of the validator's permutation test at
100 nodes (``tests/benchmarks/bench_validate_scale.py``).  :func:`fewer_collections` raises the first threshold
for the length of a block and puts the old thresholds back after it; what is computed does not
change, and reference cycles are still collected, less often.

>>> import gc
>>> before = gc.get_threshold()
>>> with fewer_collections():
...     gc.get_threshold()[0]
50000
>>> gc.get_threshold() == before
True
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["YOUNG_THRESHOLD", "fewer_collections"]

#: new container objects between two young-generation passes inside :func:`fewer_collections` (CPython's default: 700)
YOUNG_THRESHOLD = 50_000


@contextlib.contextmanager
def fewer_collections(young: int = YOUNG_THRESHOLD) -> Iterator[None]:
    """Within the block, a young-generation pass every *young* new objects (never more often than now;
    a threshold of 0, automatic collection switched off, stays off)."""
    before = gc.get_threshold()
    if before[0]:
        gc.set_threshold(max(young, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
