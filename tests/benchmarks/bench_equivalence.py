"""Benchmark: CPDAG + interventional essential graph + exact I-MEC count on sparse DAGs.

Graphs: random sparse DAGs (each node gets 0–2 parents among earlier nodes, seeded numpy
Generator), 10 % of the nodes as single-node intervention targets.  Timed: ``cpdag(g)`` +
``interventional_essential_graph(g, targets)`` + ``essential_graph_size(...)`` together
(goal: ≤ 20 ms at 1 000 nodes).

References:
* causal-learn's ``causallearn.utils.DAG2CPDAG.dag2cpdag`` (CPDAG only; run up to 1 000 nodes,
  skipped above — it is quadratic in memory and far slower);
* brute-force enumeration (``enumerate_equivalent_dags``) against exact counting on every
  graph of the official suites (when ``../shared/anchors`` is present) or on random 7-node DAGs.

Usage: python tests/benchmarks/bench_equivalence.py [--quick] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np
from causalcheck.graph import CausalGraph
from causalcheck.solvers import equivalence as eqv


def sparse_dag(n: int, rng: np.random.Generator) -> CausalGraph:
    pairs = []
    for j in range(1, n):
        for _ in range(int(rng.integers(0, 3))):
            pairs.append((f"x{int(rng.integers(0, j))}", f"x{j}"))
    return CausalGraph.from_pairs(pairs, [f"x{i}" for i in range(n)])


def best_of(fn: Any, repeats: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def ours(g: CausalGraph, targets: list[list[str]]) -> tuple[int, int]:
    c = eqv.cpdag(g)
    e = eqv.interventional_essential_graph(g, targets)
    return eqv.essential_graph_size(c), eqv.essential_graph_size(e)


def causal_learn_cpdag(g: CausalGraph) -> Any:
    from causallearn.utils.DAG2CPDAG import dag2cpdag

    return dag2cpdag(g.to_causallearn())


def suite_graphs() -> list[CausalGraph]:
    from causalcheck.base.bundled import bundled_path

    data = bundled_path("causalab-suites")
    out = []
    for path in sorted(data.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            out.append(CausalGraph.from_pairs([(e["from"], e["to"]) for e in rec["edges"]], list(rec["nodes"])))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip 10 000 nodes and causal-learn at 1 000")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    sizes = (100, 1000) if args.quick else (100, 1000, 10000)
    print("nodes  edges  ours: CPDAG+I-essential+count   MEC digits  I-MEC digits   causal-learn dag2cpdag   ratio")
    for n in sizes:
        g = sparse_dag(n, rng)
        targets = [[f"x{int(i)}"] for i in rng.choice(n, size=n // 10, replace=False)]
        repeats = 20 if n <= 1000 else 3
        t, (m, im) = best_of(lambda g=g, targets=targets: ours(g, targets), repeats)
        cl = "skipped"
        ratio = ""
        if n <= 100 or (n <= 1000 and not args.quick):
            tc, _ = best_of(lambda g=g: causal_learn_cpdag(g), 1)
            tco, _ = best_of(lambda g=g: eqv.cpdag(g), repeats)
            cl = f"{tc * 1000:9.1f} ms"
            ratio = f"{tc / tco:.0f}x (vs our CPDAG alone, {tco * 1000:.1f} ms)"
        goal = "  (goal ≤ 20 ms)" if n == 1000 else ""
        print(f"{n:5d}  {len(g.edges):5d}  {t * 1000:10.1f} ms{goal:15s}  {len(str(m)):6d}  {len(str(im)):9d}     {cl:>12s}   {ratio}")

    graphs = suite_graphs()
    label = "official suite graphs"
    if not graphs:
        graphs = [sparse_dag(7, rng) for _ in range(300)]
        label = "random 7-node DAGs (anchors absent)"
    tb, brute = best_of(lambda: [sum(1 for _ in eqv.enumerate_equivalent_dags(g)) for g in graphs], 1)
    te, exact = best_of(lambda: [eqv.mec_size(g) for g in graphs], 3)
    assert brute == exact
    print(f"MEC sizes of {len(graphs)} {label}: brute force {tb:.2f} s, exact count {te:.3f} s -> ratio {tb / te:.0f}x (all equal)")
    big = sparse_dag(200, rng)
    t1, n1 = best_of(lambda: eqv.imec_size(big, []), 3)
    print(f"200-node sparse DAG: MEC size has {len(str(n1))} digits, counted in {t1 * 1000:.1f} ms (brute force infeasible)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
