"""Power study of the validator's defaults (the permutation verdict and the Holm-corrected CI tests) on simulated data.

Not a timed test: how often :func:`causalcheck.graphs.validate_graph` with its defaults
(``ci_test="auto"``, α = 0.05, Holm, DoWhy's permutation test with 20 permutations) rejects

* the **true** DAG (should be rare: near the nominal 5% for the CI tests, and the
  permutation test is built so that a graph better than random relabellings survives), and
* the true DAG with **one edge removed** (always changes the implied independencies: the
  pair becomes separable) or **one edge reversed** (only reversals that keep the graph
  acyclic and change its CPDAG — a reversal inside the Markov equivalence class implies the
  same independencies and cannot be detected from observational data; such seeds are
  skipped for that row and counted).

Data: random DAGs over 10 and 20 nodes (each forward pair an edge with probability
``2/(n-1)``), n = 500 and 5 000 samples, ``--seeds`` seeds each (seeded
``numpy.random.Generator``), in three kinds (``--kinds``): ``continuous`` — linear-Gaussian,
weights ±U(0.5, 1.5), unit noise; ``integer`` — the same data ``(x·10).round()`` as integers
(60–160+ distinct values a column: ``auto`` must read them as numbers); ``categorical`` —
a discrete Bayesian network, three text labels a node, one Dirichlet(1) distribution per
parent configuration, as a pandas DataFrame of strings.  Columns: ``test`` — the test
``auto`` chose; ``falsified`` — share with the error ``graph-falsified``; ``not falsifiable``
— share with that verdict; ``CI (Holm)`` — share with at least one ``ci-violated`` error;
``not ok`` — share with any error-level finding; ``undecidable`` — mean share of implied
independencies the data cannot decide (too few rows per degree of freedom).

Usage: python tests/benchmarks/bench_power.py [--seeds 50] [--nodes 10 20] [--samples 500 5000] [--kinds continuous integer categorical]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
from causalcheck.graphchecks.kinds import check_dag, cpdag_of
from causalcheck.graphs import Graph, GraphEdge, validate_graph

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _graphs import random_dag, simulate_categorical
from _graphs import simulate_varied as simulate

KINDS = ("continuous", "integer", "categorical")


def data_of(kind: str, truth: Graph, n: int, rng: np.random.Generator) -> pd.DataFrame:
    """The benchmark's data of one kind (module docstring)."""
    if kind == "categorical":
        return pd.DataFrame(simulate_categorical(truth, n, rng))
    frame = pd.DataFrame(simulate(truth, n, rng))
    return (frame * 10).round().astype(int) if kind == "integer" else frame


def judge(g: Graph, data: pd.DataFrame, seed: int) -> tuple[str, bool, bool, bool, bool, float]:
    """(test, falsified, not falsifiable, some CI rejected after Holm, not ok, share undecidable) for g, by the defaults."""
    r = validate_graph(g, data=data, seed=seed)
    codes = Counter(f.code for f in r.findings if f.severity == "error")
    results = r.independence.results if r.independence is not None else ()
    undecided = sum(x.undecidable is not None for x in results) / len(results) if results else 0.0
    verdict = r.falsification.verdict if r.falsification is not None else ""
    return str(r.settings["ci_test"]), codes["graph-falsified"] > 0, verdict == "not falsifiable", codes["ci-violated"] > 0, not r.ok, undecided


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
    ap.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    args = ap.parse_args()
    t0 = time.perf_counter()
    tables: dict[str, list[str]] = {"true": [], "removed": [], "reversed": []}
    for kind in args.kinds:
        for nodes in args.nodes:
            for n in args.samples:
                counts = {k: [0, 0, 0, 0, 0.0, 0] for k in tables}  # falsified, not falsifiable, holm, not ok, undecidable, runs
                tests: Counter[str] = Counter()
                for seed in range(args.seeds):
                    rng = np.random.default_rng([nodes, n, seed])
                    truth = random_dag(nodes, 2 / (nodes - 1), rng)
                    data = data_of(kind, truth, n, rng)
                    graphs: dict[str, Graph | None] = {"true": truth, **variants(truth, rng)}
                    for label, g in graphs.items():
                        if g is None:
                            continue
                        test, *figures = judge(g, data, seed)
                        tests[test] += 1
                        c = counts[label]
                        for k, x in enumerate(figures):
                            c[k] += x
                        c[5] += 1
                chosen = "/".join(sorted(tests))
                for label, (*sums, runs) in counts.items():
                    cells = [f"{x / runs:.2f}" if runs else "-" for x in sums]
                    tables[label].append(f"| {kind} | {chosen} | {nodes} | {n} | {runs} | {' | '.join(cells)} |")
    head = (
        "| data | test | nodes | n | graphs | falsified | not falsifiable | CI (Holm) | not ok | undecidable |\n"
        "|---|---|---|---|---|---|---|---|---|---|"
    )
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
