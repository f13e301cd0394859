"""Benchmark: implied-CI testing + the permutation verdict, against DoWhy's ``falsify_graph`` and pgmpy.

Setup per size (7 and 10 nodes; ``--nodes``): a random DAG (each forward pair an edge with
probability ``2/(n-1)``, seeded ``numpy.random.Generator``), ``n = 2 000`` linear-Gaussian
samples from it, and two graphs to judge — the true DAG and a wrong one (a random DAG of the
same density).  Timed in the same process on the same data:

* **ours** — ``validate_graph(graph, data=df, permutations=P)``: every implied independence of
  the local basis tested (Fisher-z, Holm, certificates), the structural equations fitted, plus
  the permutation test with ``P`` permutations — more work than ``falsify_graph`` does;
* **ours falsify** — the work ``falsify_graph`` does: the frame read, a Fisher-z ``CITester``,
  ``falsify(graph, tester, permutations=P)``;
* **DoWhy** — ``dowhy.gcm.falsify.falsify_graph(graph, df, n_permutations=P)`` with its
  regression-based CI test (``dowhy.gcm.independence_test.regression_based`` for both the
  unconditional and the conditional test), ``n_jobs=1``, no progress bar.  DoWhy is not a
  dependency of causalcheck: the rows run when it is importable (e.g. from a separate venv
  that has both), otherwise the reason is printed.  ``--dowhy-max-nodes`` bounds the sizes
  DoWhy is run at (its regression test costs ~10 ms per statement).
* **DoWhy, same test** — the same call with causal-learn's Fisher-z (the test ours runs) as
  both CI tests, so the ratio compares the implementations, not the tests;
* **verdict cross-check** — DoWhy's ``falsify_graph`` with causal-learn's Fisher-z as its CI
  test and the *same* permutations as ours (its permutation iterator replaced in this script
  only), so both compute the same statistic: p_lmc, p_tpa and the verdict must be equal;
* **implied-CI tests** (``--ci-nodes``, 10) — every statement of ``implied_independencies`` of a
  random DAG tested: ours (the frame read, a ``CITester``, ``raw_pvalue`` per statement) vs pgmpy's
  ``CITests.pearsonr`` on the continuous data and ``CITests.chi_square`` on the same data cut at
  its terciles (3 levels); the decisions at 0.05 that agree and the largest p-value difference
  are printed (pgmpy's χ² applies Yates' continuity correction to every 2×2 table; ours does with
  ``continuity="yates"`` only, so by default the p-values differ there);
* **pgmpy** — listing the implied local independencies: pgmpy's
  ``DAG.local_independencies(nodes)`` vs ``implied_independencies(graph)``.

Timings are the best of ``--repeat`` runs (DoWhy's regression test: one run).  Ratios > 1 mean
ours is faster.  Goal: ≥ 50× DoWhy with the same test and the same verdicts; ≥ 10× pgmpy.

Usage: python tests/benchmarks/bench_validate.py [--nodes 7 10] [--samples 2000] [--ci-nodes 10]
       [--permutations 20] [--dowhy-max-nodes 20] [--dowhy-tests regression fisherz] [--repeat 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
from causalcheck.graphchecks.citests import CITester
from causalcheck.graphchecks.falsify import falsify
from causalcheck.graphchecks.separation import implied_independencies
from causalcheck.graphs import Graph, validate_graph
from causalcheck.graphs.convert import to_networkx, to_pgmpy
from causalcheck.graphs.data import load_data

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _graphs import random_dag
from _graphs import simulate_varied as simulate


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def dowhy_available() -> str | None:
    try:
        import dowhy.gcm.falsify  # noqa: F401
    except Exception as exc:  # pragma: no cover - depends on the environment
        return f"{type(exc).__name__}: {exc}"
    return None


def dowhy_verdict(result: Any) -> str:
    if not result.can_evaluate:
        return "not evaluable"
    if result.falsified:
        return "falsified"
    return "not falsified" if result.falsifiable else "not falsifiable"


def run_dowhy(g: Graph, frame: Any, permutations: int, test: str = "regression") -> tuple[float, str]:
    """DoWhy's ``falsify_graph`` with its regression-based CI test, or (``test="fisherz"``) causal-learn's Fisher-z."""
    from dowhy.gcm.falsify import falsify_graph
    from dowhy.gcm.independence_test import regression_based

    ci = regression_based if test == "regression" else fisherz_callable()
    np.random.seed(0)
    seconds, result = timed(
        lambda: falsify_graph(
            to_networkx(g),
            frame,
            independence_test=ci,
            conditional_independence_test=ci,
            n_permutations=permutations,
            show_progress_bar=False,
            n_jobs=1,
        )
    )
    return seconds, dowhy_verdict(result)


def fisherz_callable() -> Callable[..., float]:
    from causallearn.utils.cit import CIT

    def test(x: np.ndarray, y: np.ndarray, z: np.ndarray | None = None) -> float:
        cols = [x.reshape(-1, 1), y.reshape(-1, 1)]
        if z is not None:
            cols.append(z.reshape(len(x), -1))
        data = np.hstack(cols)
        k = data.shape[1]
        return float(CIT(data, method="fisherz")(0, 1, list(range(2, k))))

    return test


def cross_check(g: Graph, frame: Any, table: Any, orders: Sequence[tuple[int, ...]]) -> tuple[tuple[float, float, str], tuple[float, float, str]]:
    """DoWhy with Fisher-z and our permutations vs ours: (p_lmc, p_tpa, verdict) for each."""
    import dowhy.gcm.falsify as F

    names = list(g.nodes)

    def our_orders(self: Any) -> Any:
        for order in orders:
            mapping = {names[i]: names[order[i]] for i in range(len(names))}
            yield nx.relabel_nodes(self.causal_graph, mapping, copy=True)

    saved = F._PermuteNodes.iter_random_permutations
    F._PermuteNodes.iter_random_permutations = our_orders
    try:
        test = fisherz_callable()
        r = F.falsify_graph(
            to_networkx(g), frame, independence_test=test, conditional_independence_test=test,
            n_permutations=len(orders), show_progress_bar=False, n_jobs=1,
        )
    finally:
        F._PermuteNodes.iter_random_permutations = saved
    theirs = (
        r.summary[F.FalsifyConst.VALIDATE_LMC][F.FalsifyConst.P_VALUE],
        r.summary[F.FalsifyConst.VALIDATE_TPA][F.FalsifyConst.P_VALUE],
        dowhy_verdict(r),
    )
    ours = falsify(g, CITester(table, "fisherz"), orders=orders)
    return theirs, (ours.p_lmc, ours.p_tpa, ours.verdict)


def ci_rows(n: int, samples: int, rng: np.random.Generator, repeat: int) -> None:
    """Implied-CI tests of one random DAG: ours (``CITester`` built from the frame, then every statement)
    vs pgmpy's ``CITests.pearsonr`` (continuous) and ``CITests.chi_square`` (discrete) on the same statements."""
    import pandas as pd

    try:
        from pgmpy.estimators import CITests
    except Exception as exc:  # pragma: no cover - depends on the environment
        print(f"pgmpy rows skipped: {type(exc).__name__}: {exc}")
        return
    g = random_dag(n, min(0.5, 2 / (n - 1)), rng)
    cont = pd.DataFrame(simulate(g, samples, rng))
    # discrete: each continuous column cut at its terciles (3 levels, codes 0..2)
    disc = pd.DataFrame({c: np.searchsorted(np.quantile(cont[c], [1 / 3, 2 / 3]), cont[c]) for c in cont.columns})
    stmts = implied_independencies(g)
    print(f"\nimplied-CI tests, {n} nodes, n = {samples}, {len(stmts)} statements (best of {repeat}; ratio > 1: ours faster)")
    print(f"{'data':>10} {'ours test':>9} {'ours ms':>9} {'pgmpy test':>10} {'pgmpy ms':>9} {'ratio':>7} {'same decision':>14} {'max |Δp|':>9}")
    for label, frame, ours_test, theirs in (("continuous", cont, "fisherz", CITests.pearsonr), ("discrete", disc, "chisq", CITests.chi_square)):

        def ours(frame: Any = frame, ours_test: str = ours_test) -> list[float]:
            table = load_data(frame, g.nodes)
            tester = CITester(table, ours_test)
            pos = {v: i for i, v in enumerate(table.names)}
            return [tester.raw_pvalue(pos[c.x], pos[c.y], [pos[v] for v in c.given]) for c in stmts]

        def pgmpy(frame: Any = frame, theirs: Any = theirs) -> list[float]:
            return [float(theirs(c.x, c.y, list(c.given), frame, boolean=False)[1]) for c in stmts]

        ours_s, ps = min((timed(ours) for _ in range(repeat)), key=lambda t: t[0])
        pg_s, qs = min((timed(pgmpy) for _ in range(repeat)), key=lambda t: t[0])
        same = sum((a <= 0.05) == (b <= 0.05) for a, b in zip(ps, qs, strict=True))
        diff = max((abs(a - b) for a, b in zip(ps, qs, strict=True)), default=0.0)
        print(
            f"{label:>10} {ours_test:>9} {ours_s * 1e3:>9.2f} {theirs.__name__:>10} {pg_s * 1e3:>9.2f} {pg_s / ours_s:>7.1f} "
            f"{same:>7}/{len(stmts):<6} {diff:>9.1e}"
        )


def falsify_only(g: Graph, frame: Any, permutations: int, seed: int) -> tuple[float, str]:
    """The work ``falsify_graph`` does, ours: the frame read, a Fisher-z tester, the permutation test."""

    def run() -> str:
        return falsify(g, CITester(load_data(frame, g.nodes), "fisherz"), permutations=permutations, seed=seed).verdict

    return timed(run)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--nodes", type=int, nargs="+", default=[7, 10])
    ap.add_argument("--ci-nodes", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--samples", type=int, default=2000)
    ap.add_argument("--permutations", type=int, default=20)
    ap.add_argument("--dowhy-max-nodes", type=int, default=20)
    ap.add_argument("--dowhy-tests", nargs="+", choices=("regression", "fisherz"), default=["regression", "fisherz"])
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    warnings.filterwarnings("ignore", category=FutureWarning)  # pgmpy's deprecation notices, once per call
    import pandas as pd

    why = dowhy_available()
    versions = {p: importlib.metadata.version(p) for p in ("causal-learn", "pgmpy", "numpy")}
    if why is None:
        versions["dowhy"] = importlib.metadata.version("dowhy")
    print("versions:", ", ".join(f"{k} {v}" for k, v in versions.items()))
    if why is not None:
        print(f"DoWhy rows skipped: dowhy is not importable here ({why}); install it in a separate venv to measure")
    rng = np.random.default_rng(args.seed)
    warm = random_dag(5, 0.5, np.random.default_rng(99))  # imports and first-call costs outside the timings
    validate_graph(warm, data=pd.DataFrame(simulate(warm, 200, np.random.default_rng(99))), permutations=2)
    print(
        "falsification (ours: validate_graph = every implied CI test + certificates + equations + the permutation test; "
        "ours falsify = the permutation test alone, the work falsify_graph does; best of --repeat, DoWhy with Fisher-z too)"
    )
    print(
        f"{'nodes':>5} {'graph':>6} {'stmts':>6} {'ours s':>8} {'ours verdict':>16} {'falsify s':>9} {'verdict':>16} "
        f"{'DoWhy fz s':>10} {'fz verdict':>16} {'fz/ours':>8} {'fz/falsify':>10} "
        f"{'DoWhy s':>9} {'DoWhy verdict':>16} {'dw/ours':>7} {'dw/falsify':>10}"
    )
    rows = []
    for n in args.nodes:
        p = min(0.5, 2 / (n - 1))
        truth = random_dag(n, p, rng)
        data = simulate(truth, args.samples, rng)
        frame = pd.DataFrame(data)
        for label, g in (("true", truth), ("wrong", random_dag(n, p, rng))):
            ours_s, report = min(
                (timed(lambda g=g, frame=frame: validate_graph(g, data=frame, permutations=args.permutations, seed=args.seed)) for _ in range(args.repeat)),
                key=lambda t: t[0],
            )
            verdict = report.falsification.verdict
            fo_s, fo_v = min((falsify_only(g, frame, args.permutations, args.seed) for _ in range(args.repeat)), key=lambda t: t[0])
            stmts = len(report.independence.results)
            dw_s = dw_v = fz_s = fz_v = None
            if why is None and n <= args.dowhy_max_nodes:
                if "regression" in args.dowhy_tests:
                    dw_s, dw_v = run_dowhy(g, frame, args.permutations)
                if "fisherz" in args.dowhy_tests:  # best of --repeat, as ours (its regression test: one run)
                    fz_s, fz_v = min((run_dowhy(g, frame, args.permutations, test="fisherz") for _ in range(args.repeat)), key=lambda t: t[0])
            print(
                f"{n:>5} {label:>6} {stmts:>6} {ours_s:>8.4f} {verdict:>16} {fo_s:>9.4f} {fo_v:>16} "
                f"{'-' if fz_s is None else f'{fz_s:.3f}':>10} {fz_v or '-':>16} "
                f"{f'{fz_s / ours_s:.1f}' if fz_s else '-':>8} {f'{fz_s / fo_s:.1f}' if fz_s else '-':>10} "
                f"{'-' if dw_s is None else f'{dw_s:.2f}':>9} {dw_v or '-':>16} "
                f"{f'{dw_s / ours_s:.0f}' if dw_s else '-':>7} {f'{dw_s / fo_s:.0f}' if dw_s else '-':>10}"
            )
            rows.append((n, label, ours_s, dw_s, verdict, dw_v))
    if why is None:
        print("\nverdict cross-check (DoWhy with Fisher-z and our permutations): (p_lmc, p_tpa, verdict)")
        n = min(args.nodes)
        truth = random_dag(n, min(0.5, 2 / (n - 1)), rng)
        data = simulate(truth, args.samples, rng)
        frame = pd.DataFrame(data)
        for label, g in (("true", truth), ("wrong", random_dag(n, min(0.5, 2 / (n - 1)), rng))):
            orders = [tuple(int(v) for v in rng.permutation(n)) for _ in range(args.permutations)]
            theirs, ours = cross_check(g, frame, load_data(frame, g.nodes), orders)
            print(f"  {n} nodes, {label}: DoWhy {theirs}  ours {ours}  {'SAME' if theirs == ours else 'DIFFERENT'}")
    ci_rows(args.ci_nodes, args.samples, rng, args.repeat)
    print("\npgmpy: listing the implied independencies (ours: the pairwise local basis, implied_independencies)")
    print(f"{'nodes':>5} {'ours ms':>9} {'pgmpy local ms':>15} {'ratio':>7} {'pgmpy global ms':>16} {'ratio':>8}")
    for n in args.nodes:
        g = random_dag(n, min(0.5, 2 / (n - 1)), rng)
        dag = to_pgmpy(g)
        ours_s = min(timed(lambda g=g: implied_independencies(g))[0] for _ in range(3))
        pg_s = min(timed(lambda dag=dag, g=g: dag.local_independencies(list(g.nodes)))[0] for _ in range(3))
        glob = "-"
        gratio = "-"
        if n <= 10:  # get_independencies enumerates every d-separation: exponential
            gs = timed(lambda dag=dag: dag.get_independencies())[0]
            glob, gratio = f"{gs * 1e3:.1f}", f"{gs / ours_s:.0f}"
        print(f"{n:>5} {ours_s * 1e3:>9.2f} {pg_s * 1e3:>15.2f} {pg_s / ours_s:>7.1f} {glob:>16} {gratio:>8}")


if __name__ == "__main__":
    main()
