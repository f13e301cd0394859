"""Benchmark: the cost curves behind the compute budgets of :mod:`causalcheck.base.limits`.

* ``compare`` — the gadjid distances (SID and the three AIDs) on seeded random DAGs of
  average degree ``--degree`` (a truth and an estimate with 10 % of its edges dropped and
  ``n/5`` random ones added), for each
  size: the seconds of each metric, and the cost estimate of
  :func:`causalcheck.graphchecks.scores.distance_cost` beside them; the budget
  ``COMPARE_COST_BUDGET`` is chosen from this curve.
* ``coverage`` — ``intervention_coverage`` (I-MEC figures and one suggestion) on a complete
  undirected graph and an undirected binary tree: seconds with the default budget.

Figures are printed, never asserted (the machine is shared).

Usage: python tests/benchmarks/bench_limits.py [--sizes 250,500,1000] [--degree 10] [--no-coverage]
       [--unbounded] (runs the distances whatever the budget: the "before" curve)
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

from causalcheck.graphs.formats import parse_text
from causalcheck.graphs.model import Graph


def random_dag(n: int, edges: int, seed: int) -> list[tuple[int, int]]:
    """*edges* distinct pairs ``i -> j`` with ``i < j`` over ``n`` nodes (seeded)."""
    rng = random.Random(seed)
    out: set[tuple[int, int]] = set()
    while len(out) < edges:
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b:
            out.add((min(a, b), max(a, b)))
    return sorted(out)


def as_graph(n: int, pairs: list[tuple[int, int]]) -> Graph:
    """The DAG of *pairs* over ``v0..v{n-1}``."""
    nodes = "; ".join(f"v{i}" for i in range(n))
    return parse_text(nodes + "; " + "; ".join(f"v{a} -> v{b}" for a, b in pairs))


def bench_compare(sizes: list[int], degree: float, unbounded: bool) -> None:
    """Seconds of each gadjid metric per size, and the cost estimate."""
    import gadjid
    from causalcheck.base.limits import COMPARE_COST_BUDGET
    from causalcheck.graphchecks.scores import _gadjid_matrix, distance_cost

    print(f"compare: random DAGs of average degree {degree}; budget {COMPARE_COST_BUDGET.name}={COMPARE_COST_BUDGET.value()}")
    print(f"{'n':>6}{'edges':>8}{'estimate':>14}" + "".join(f"{m:>14}" for m in ("sid", "parent_aid", "ancestor_aid", "oset_aid")))
    for n in sizes:
        truth = random_dag(n, int(degree * n / 2), seed=n)
        rng = random.Random(-n)
        guess = [p for p in truth if rng.random() > 0.1] + random_dag(n, n // 5, seed=n + 1)
        t, e = as_graph(n, truth), as_graph(n, sorted(set(guess)))
        cost = distance_cost(t, e)
        row = f"{n:>6}{len(t.edges):>8}{cost:>14.3g}"
        if cost > COMPARE_COST_BUDGET.value() and not unbounded:
            print(row + "   over the budget: skipped")
            continue
        order = t.nodes
        mt, me = _gadjid_matrix(t, order), _gadjid_matrix(e, order)
        for name in ("sid", "parent_aid", "ancestor_aid", "oset_aid"):
            start = time.perf_counter()
            getattr(gadjid, name)(mt, me, edge_direction="from row to column")
            row += f"{time.perf_counter() - start:>13.2f}s"
        print(row, flush=True)


def bench_coverage() -> None:
    """Seconds of ``intervention_coverage`` on a complete graph and a tree (default budget)."""
    from causalcheck.base.limits import LimitExceededError
    from causalcheck.graphchecks.coverage import intervention_coverage

    cases = {
        "complete-20": "; ".join(f"v{a} -- v{b}" for a, b in itertools.combinations(range(20), 2)),
        "complete-25": "; ".join(f"v{a} -- v{b}" for a, b in itertools.combinations(range(25), 2)),
        "tree-200": "; ".join(f"v{(i - 1) // 2} -- v{i}" for i in range(1, 200)),
    }
    for name, text in cases.items():
        start = time.perf_counter()
        try:
            cov = intervention_coverage(parse_text(text), [])
        except LimitExceededError as exc:
            print(f"coverage {name}: {time.perf_counter() - start:.2f}s; refused: {exc}", flush=True)
            continue
        took = time.perf_counter() - start
        print(f"coverage {name}: {took:.2f}s; members {cov.interventional.members}; notes {list(cov.notes)}", flush=True)


def main() -> None:
    """Run the benchmarks the options ask for."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="250,500,1000")
    ap.add_argument("--degree", type=float, default=10.0)
    ap.add_argument("--no-coverage", action="store_true")
    ap.add_argument("--unbounded", action="store_true")
    args = ap.parse_args()
    bench_compare([int(s) for s in args.sizes.split(",")], args.degree, args.unbounded)
    if not args.no_coverage:
        bench_coverage()


if __name__ == "__main__":
    main()
