"""Power study of the permutation verdict (and of the Holm-corrected CI tests) on simulated data.

Not a timed test: how often the verdict of :func:`causalcheck.graphs.falsify.falsify`
(DoWhy's definition, α = 0.05, 20 permutations, Fisher-z) rejects

* the **true** DAG (should be rare: the test is built so that a graph better than random
  relabellings survives), and
* the true DAG with **one edge removed** (always changes the implied independencies: the
  pair becomes separable) or **one edge reversed** (only reversals that keep the graph
  acyclic and change its CPDAG — a reversal inside the Markov equivalence class implies the
  same independencies and cannot be detected from observational data; such seeds are
  skipped for that row and counted).

Data: random DAGs over 10 and 20 nodes (each forward pair an edge with probability
``2/(n-1)``), linear-Gaussian with weights ±U(0.5, 1.5) and unit noise, n = 500 and 5 000
samples, ``--seeds`` seeds each (seeded ``numpy.random.Generator``).  Columns:
``falsified`` — share with verdict *falsified*; ``not falsifiable`` — share where the
verdict could not reject (too many permutations as informative); ``CI (Holm)`` — share
with at least one implied independence rejected after Holm's correction at 0.05.

Usage: python tests/benchmarks/bench_power.py [--seeds 50] [--nodes 10 20] [--samples 500 5000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from causalcheck.graphs import Graph, GraphEdge
from causalcheck.graphs.citests import CITester, adjust
from causalcheck.graphs.data import load_data
from causalcheck.graphs.falsify import falsify
from causalcheck.graphs.kinds import check_dag, cpdag_of
from causalcheck.graphs.separation import implied_independencies

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _graphs import random_dag
from _graphs import simulate_varied as simulate


def judge(g: Graph, tester: CITester, seed: int) -> tuple[bool, bool, bool]:
    """(falsified, not falsifiable, some CI rejected after Holm) for the graph g."""
    r = falsify(g, tester, seed=seed)
    pos = g.index
    stmts = implied_independencies(g)
    p = [tester.pvalue(pos[s.x], pos[s.y], [pos[v] for v in s.given]) for s in stmts]
    holm = any(a <= 0.05 for a in adjust(p, "holm"))
    return r.verdict == "falsified", r.verdict == "not falsifiable", holm


def variants(truth: Graph, rng: np.random.Generator) -> dict[str, Graph | None]:
    edges = list(truth.edges)
    if not edges:
        return {"removed": None, "reversed": None}
    k = int(rng.integers(len(edges)))
    removed = truth.with_edges(edges[:k] + edges[k + 1 :])
    reversed_graph = None
    cp = cpdag_of(truth)
    for k in rng.permutation(len(edges)):
        e = edges[int(k)]
        cand = truth.with_edges([*edges[: int(k)], GraphEdge.directed(e.v, e.u), *edges[int(k) + 1 :]])
        if check_dag(cand) and cpdag_of(cand) != cp:
            reversed_graph = cand
            break
    return {"removed": removed, "reversed": reversed_graph}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--seeds", type=int, default=50)
    ap.add_argument("--nodes", type=int, nargs="+", default=[10, 20])
    ap.add_argument("--samples", type=int, nargs="+", default=[500, 5000])
    args = ap.parse_args()
    t0 = time.perf_counter()
    tables: dict[str, list[str]] = {"true": [], "removed": [], "reversed": []}
    for nodes in args.nodes:
        for n in args.samples:
            counts = {k: [0, 0, 0, 0] for k in tables}  # falsified, not falsifiable, holm, runs
            for seed in range(args.seeds):
                rng = np.random.default_rng([nodes, n, seed])
                truth = random_dag(nodes, 2 / (nodes - 1), rng)
                data = simulate(truth, n, rng)
                tester = CITester(load_data(data, truth.nodes), "fisherz")
                graphs: dict[str, Graph | None] = {"true": truth, **variants(truth, rng)}
                for label, g in graphs.items():
                    if g is None:
                        continue
                    f, nf, h = judge(g, tester, seed)
                    c = counts[label]
                    c[0] += f
                    c[1] += nf
                    c[2] += h
                    c[3] += 1
            for label, (f, nf, h, runs) in counts.items():
                cells = [f"{x / runs:.2f}" if runs else "-" for x in (f, nf, h)]
                tables[label].append(f"| {nodes} | {n} | {runs} | {' | '.join(cells)} |")
    head = "| nodes | n | graphs | falsified | not falsifiable | CI (Holm) |\n|---|---|---|---|---|---|"
    for label, title in (
        ("true", "true DAG (rejections should be rare)"),
        ("removed", "one edge removed"),
        ("reversed", "one edge reversed (CPDAG changed)"),
    ):
        print(f"\n{title}\n{head}")
        print("\n".join(tables[label]))
    print(f"\n{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
