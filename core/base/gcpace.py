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
import threading
from collections.abc import Iterator

__all__ = ["YOUNG_THRESHOLD", "fewer_collections"]

#: new container objects between two young-generation passes inside :func:`fewer_collections` (CPython's default: 700)
YOUNG_THRESHOLD = 50_000

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, ...] = ()


@contextlib.contextmanager
def fewer_collections(young: int = YOUNG_THRESHOLD) -> Iterator[None]:
    """Within the block, a young-generation pass every *young* new objects (never more often than before;
    a threshold of 0, automatic collection switched off, stays off).

    Blocks may nest and overlap across threads: the first one in raises the threshold, the last one out
    puts back what it found.
    """
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            if _saved[0]:
                gc.set_threshold(max(young, _saved[0]), *_saved[1:])
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                gc.set_threshold(*_saved)
