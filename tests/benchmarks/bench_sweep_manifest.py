"""The sweep's bookkeeping per finished cell: rewriting sweep.json whole against one journal line.

Reference = a rewrite of the whole ``sweep.json`` (what every finished cell cost when the manifest
was rewritten after each cell); beside it, appending the cell's line to ``sweep.journal.jsonl``
(what a finished cell costs now; ``sweep.json`` is rewritten at most every ``CHECKPOINT_SECONDS``).
Both are timed in this run, on grids of 100, 1 000 and 10 000 cells (the largest grid
``MAX_SWEEP_CELLS`` allows), in a temporary folder on the same disk.

Run: ``python tests/benchmarks/bench_sweep_manifest.py [--repeats N]``.  Prints milliseconds per
cell and the ratio; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from causalcheck.base.files import Provenance, append_line
from causalcheck.sweep.grid import parse_grid
from causalcheck.sweep.run import JOURNAL, _write_manifest, suite_hashes


def _median_ms(fn: Callable[..., object], args: tuple[object, ...], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(*args)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    args = ap.parse_args()
    print(f"{'cells':>6}  {'rewrite sweep.json':>19}  {'journal line':>13}  {'ratio':>7}")
    for n in (100, 1_000, 10_000):
        grid = parse_grid({"suites": ["mini"], "seeds": list(range(n)), "limit": 1, "agents": [{"name": "random"}]}, "bench")
        cells = [{**c.to_json(), "status": "done", "episodes": 1} for c in grid.cells]
        prov, inputs = Provenance("bench"), suite_hashes(grid)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp)
            rewrite = _median_ms(_write_manifest, (out, grid, cells, prov, inputs), args.repeats)
            line = json.dumps({"index": n - 1, "status": "done", "episodes": 1})
            journal = _median_ms(append_line, (out / JOURNAL, line), args.repeats)
        print(f"{n:>6}  {rewrite:>16.2f} ms  {journal:>10.2f} ms  {rewrite / journal:>6.1f}x")


if __name__ == "__main__":
    main()
