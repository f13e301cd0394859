"""Benchmark: ``check GRAPH --data d.csv`` at scale against its floor, CPU time and peak memory.

Setup per size (``--sizes``, default 20×10 000, 50×10 000, 20×100 000, 50×100 000 and 100×100 000:
nodes × rows): a random DAG (each forward pair an edge with probability ``2/(n-1)``, seeded
``numpy.random.Generator``), linear-Gaussian samples from it written as a CSV by pandas
(``DataFrame.to_csv``, 17 significant digits: about 19 bytes a cell).  Timed in one process,
interleaved (floor, ours, floor, ours, …), CPU time (``time.process_time``: the machines these
runs come from are shared), best of ``--repeat``:

* **floor** — what any implementation must do: parse the CSV in C (pandas' ``read_csv``; without
  pandas ``numpy.loadtxt``), one correlation matrix (``numpy.corrcoef``), and Fisher's z of every
  distinct local-Markov statement of the graph (``X ⫫ Y | Pa(X)``), the correlation submatrices
  inverted one stack per size;
* **ours** — ``validate_graph(graph, data=path)`` with its defaults, what ``causalcheck check GRAPH
  --data d.csv`` runs: the data read and checked, every implied independence tested (Holm,
  certificates), the global fit, the permutation test (20 permutations) and the structural equations.

BLAS runs one thread (``OPENBLAS_NUM_THREADS=1`` unless set: idle BLAS threads spin and their CPU
time would blur both sides).  Then one more run of each under ``tracemalloc`` gives the peak memory, printed beside the CSV's size
and the float64 table's (rows × columns × 8 bytes).  Goal (issue 46): ≤ 3× the floor at
100 × 100 000 with a peak ≤ 3× the data; ≤ 2× at 20 / 50 nodes × 10 000 rows.

Usage: python tests/benchmarks/bench_validate_scale.py [--sizes 20x10000 100x100000] [--repeat 3]
       [--seed 0] [--no-memory] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import math
import os
import pstats
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

# one BLAS thread unless told otherwise: idle BLAS threads spin, and their CPU time would blur both sides
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402
from causalcheck.graphchecks.separation import local_markov_triples  # noqa: E402
from causalcheck.graphs import Graph, validate_graph  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _graphs import random_dag  # noqa: E402
from _graphs import simulate_varied as simulate  # noqa: E402


def read_floor(path: str) -> np.ndarray:
    """The CSV parsed in C: pandas' reader where installed, else numpy's."""
    try:
        import pandas as pd
    except ImportError:
        return np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    return pd.read_csv(path).to_numpy(dtype=np.float64)


def floor(g: Graph, path: str) -> int:
    """Parse, one correlation matrix, Fisher's z of every distinct local-Markov statement; the count of p <= 0.05."""
    values = read_floor(path)
    corr = np.corrcoef(values.T)
    pos = g.index
    stmts = {(min(pos[x], pos[y]), max(pos[x], pos[y]), tuple(sorted(pos[p] for p in z))) for x, y, z in local_markov_triples(g)}
    by_size: dict[int, list[list[int]]] = {}
    for x, y, z in sorted(stmts):
        by_size.setdefault(len(z), []).append([x, y, *z])
    n, low = values.shape[0], 0
    for size, group in by_size.items():
        idx = np.array(group, dtype=np.intp)
        inv = np.linalg.inv(corr[idx[:, :, None], idx[:, None, :]])
        r = np.clip(-inv[:, 0, 1] / np.sqrt(np.abs(inv[:, 0, 0] * inv[:, 1, 1])), -1 + 1e-15, 1 - 1e-15)
        z = np.sqrt(n - size - 3) * np.abs(np.arctanh(r))
        low += sum(math.erfc(v / math.sqrt(2)) <= 0.05 for v in z.tolist())
    return low


def ours(g: Graph, path: str) -> str:
    """The whole validator call of ``check GRAPH --data``; its findings' codes."""
    return ",".join(f.code for f in validate_graph(g, data=path).findings)


def cpu(fn: Callable[[], Any]) -> float:
    gc.collect()
    t = time.process_time()
    fn()
    return time.process_time() - t


def peak(fn: Callable[[], Any]) -> float:
    """Peak traced memory of one call, in MB."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def write_case(nodes: int, rows: int, seed: int, folder: Path) -> tuple[Graph, str]:
    import pandas as pd

    rng = np.random.default_rng(seed)
    g = random_dag(nodes, min(0.5, 2 / (nodes - 1)), rng)
    path = folder / f"d{nodes}x{rows}.csv"
    pd.DataFrame(simulate(g, rows, rng)).to_csv(path, index=False)
    return g, str(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--sizes", nargs="+", default=["20x10000", "50x10000", "20x100000", "50x100000", "100x100000"])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-memory", action="store_true", help="skip the tracemalloc runs")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one 'ours' run per size")
    args = ap.parse_args()
    sizes = [tuple(int(v) for v in s.split("x")) for s in args.sizes]
    print(f"CPU seconds, best of {args.repeat}, interleaved; ratio = ours / floor; peaks by tracemalloc")
    print(
        f"{'nodes':>5} {'rows':>7} {'stmts':>6} {'floor s':>8} {'ours s':>8} {'ratio':>6} "
        f"{'CSV MB':>7} {'table MB':>8} {'floor MB':>8} {'ours MB':>8} {'/CSV':>5} {'/table':>6}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        warm_g, warm_path = write_case(5, 200, 99, Path(tmp))
        ours(warm_g, warm_path), floor(warm_g, warm_path)  # imports and first calls outside the timings
        for nodes, rows in sizes:
            g, path = write_case(nodes, rows, args.seed, Path(tmp))
            stmts = len({(frozenset((x, y)), frozenset(z)) for x, y, z in local_markov_triples(g)})
            times: dict[str, list[float]] = {"floor": [], "ours": []}
            for _ in range(args.repeat):
                times["floor"].append(cpu(lambda g=g, path=path: floor(g, path)))
                times["ours"].append(cpu(lambda g=g, path=path: ours(g, path)))
            f_s, o_s = min(times["floor"]), min(times["ours"])
            csv_mb, table_mb = Path(path).stat().st_size / 1e6, rows * nodes * 8 / 1e6
            if args.no_memory:
                mem = f"{'-':>8} {'-':>8} {'-':>5} {'-':>6}"
            else:
                f_mb, o_mb = peak(lambda g=g, path=path: floor(g, path)), peak(lambda g=g, path=path: ours(g, path))
                mem = f"{f_mb:>8.0f} {o_mb:>8.0f} {o_mb / csv_mb:>5.2f} {o_mb / table_mb:>6.2f}"
            print(f"{nodes:>5} {rows:>7} {stmts:>6} {f_s:>8.2f} {o_s:>8.2f} {o_s / f_s:>6.2f} {csv_mb:>7.0f} {table_mb:>8.0f} {mem}", flush=True)
            if args.profile:
                prof = cProfile.Profile()
                prof.runcall(ours, g, path)
                pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
