"""Sweep wall time: the same grid run locally (1 and 2 worker processes) and on a local Ray cluster.

Reference = ``causalcheck sweep`` with the local executor and one process; the figures beside it
are two local worker processes and ``--executor ray`` on a local cluster of 2 CPUs, all in this
one run on the same machine.  For Ray the cluster's start-up is timed apart from the sweep (a
cluster is started once and serves many sweeps; on a real cluster it is already running).  The
outputs of every variant are compared: apart from the provenance they must be the same files.

Run: ``python tests/benchmarks/bench_sweep.py [--graphs N] [--seeds N]``.  Prints times and
ratios; asserts nothing.  On a 2-core machine Ray does not win: each episode is a few
milliseconds of work and a task costs more than that to schedule, and the cluster takes seconds to
start — Ray is there for grids spread over many machines.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/_sweep_compare.py

from _sweep_compare import folder_differences
from causalcheck.cli import main


@contextlib.contextmanager
def _inside(folder: Path) -> Iterator[None]:
    folder.mkdir(parents=True, exist_ok=True)
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def _grid(graphs: int, seeds: int) -> str:
    return (
        'suites = ["3nodes", "4nodes"]\n'
        f"seeds = {list(range(1, seeds + 1))}\n"
        f"limit = {graphs}\n"
        '[[agents]]\nname = "planner"\n'
        '[[agents]]\nname = "random"\n'
    )


def _sweep(folder: Path, grid: Path, *extra: str) -> float:
    with _inside(folder):
        start = time.perf_counter()
        code = main(["sweep", str(grid), "--out", "out", "--quiet", *extra])
        took = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"sweep {' '.join(extra)} exited {code}")
    return took


def main_bench() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--graphs", type=int, default=10, help="graphs per suite (default 10)")
    ap.add_argument("--seeds", type=int, default=2, help="seeds (default 2)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        grid = root / "grid.toml"
        grid.write_text(_grid(args.graphs, args.seeds), encoding="utf-8")
        episodes = 2 * 2 * args.seeds * args.graphs
        print(f"grid: 2 suites x 2 agents x {args.seeds} seeds, {args.graphs} graphs per suite = {episodes} episodes "
              f"in {4 * args.seeds} cells; {os.cpu_count()} cores")
        local1 = _sweep(root / "local1", grid, "--workers", "1")
        local2 = _sweep(root / "local2", grid, "--workers", "2")
        try:
            import ray
        except ImportError:
            print(f"local, 1 worker : {local1:7.2f} s  (reference)")
            print(f"local, 2 workers: {local2:7.2f} s  ({local2 / local1:.2f}x the reference's time)")
            print("ray: not installed (pip install 'causalcheck[ray]')")
            return
        start = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        boot = time.perf_counter() - start
        try:
            on_ray = _sweep(root / "ray", grid, "--workers", "2", "--executor", "ray")
        finally:
            ray.shutdown()
        print(f"local, 1 worker : {local1:7.2f} s  (reference)")
        print(f"local, 2 workers: {local2:7.2f} s  ({local2 / local1:.2f}x the reference's time)")
        print(f"ray, 2 CPUs     : {on_ray:7.2f} s  ({on_ray / local1:.2f}x; plus {boot:.1f} s to start the cluster, "
              f"{(on_ray + boot) / local1:.2f}x with it)")
        for name in ("local2", "ray"):
            diffs = folder_differences(root / "local1" / "out", root / name / "out")
            fields = {f for d in diffs.values() for f in d}
            print(f"outputs of {name} vs the reference: {len(diffs)} file(s) differ, only in {sorted(fields)}")


if __name__ == "__main__":
    main_bench()
