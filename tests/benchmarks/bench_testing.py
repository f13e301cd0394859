"""Time the causalcheck.testing suites at the ci profile, against a plain @given loop over the same examples.

For each suite on a correct rule (causalcheck's SHD, edge / parent / root / coefficient F1,
PM, RM, Final, causal-learn's SHD) and on two planted bugs (a reversal counted twice;
PM over every edge), prints the wall time, the number of properties and the ratio to a
bare ``@given`` test calling the rule on as many generated pairs (the kit's overhead: its
strategies, its properties and, for a bug, the shrinking).  Nothing is asserted.

    python tests/benchmarks/bench_testing.py [--quick]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    try:
        out = fn()
    except AssertionError as exc:  # a planted bug: the suite is expected to fail
        out = exc
    return time.perf_counter() - start, out


def main() -> None:
    from causalcheck import metrics as M
    from causalcheck import strategies as cs
    from causalcheck.explain.judges import EdgeJudgment
    from causalcheck.explain.scoring import compute_final, compute_pm, compute_rm
    from causalcheck.testing import (
        check_coefficient_metric,
        check_explanation_scorer,
        check_graph_metric,
    )
    from hypothesis import given, settings

    quick = "--quick" in sys.argv
    n = 20 if quick else None

    def pm(g: Any, s: list[float]) -> float:
        return compute_pm(g, [EdgeJudgment(x) for x in s])

    def cl_shd(t: Any, e: Any) -> int:
        from causallearn.graph.SHD import SHD

        return SHD(t, e).get_shd()

    def to_cl(g: Any) -> Any:
        from causalcheck.graphs.convert import to_causallearn

        return to_causallearn(g.with_nodes(sorted(g.nodes)))

    runs: list[tuple[str, Callable[[], Any]]] = [
        ("SHD (reversal once)", lambda: check_graph_metric(lambda t, e: M.shd(e, t, names="exact"), "distance", reference="shd", max_examples=n)),
        ("SHD (reversal twice)", lambda: check_graph_metric(lambda t, e: M.shd(e, t, names="exact", double_count_reversal=True), "distance", reversal_cost=2, reference="shd-double", max_examples=n)),
        ("edge F1 (exact)", lambda: check_graph_metric(lambda t, e: M.edge_prf(e, t, names="exact"), "similarity", reference="edge-f1", max_examples=n)),
        ("edge F1 (causalab)", lambda: check_graph_metric(lambda t, e: M.edge_prf(e, t), "similarity", names="causalab", reference="edge-f1", max_examples=n)),
        ("parent F1", lambda: check_graph_metric(lambda t, e: M.parent_prf(e, t), "similarity", names="causalab", reference="parent-f1", max_examples=n)),
        ("root F1", lambda: check_graph_metric(lambda t, e: M.root_prf(e, t), "similarity", names="causalab", reference="root-f1", max_examples=n)),
        ("coefficient F1", lambda: check_coefficient_metric(M.coefficient_prf, max_examples=n)),
        ("PM", lambda: check_explanation_scorer(pm, "pm", max_examples=n)),
        ("RM", lambda: check_explanation_scorer(compute_rm, "rm", max_examples=n)),
        ("Final", lambda: check_explanation_scorer(compute_final, "final", max_examples=n)),
        ("causal-learn SHD (PDAGs)", lambda: check_graph_metric(cl_shd, "distance", graphs="pdag", convert=to_cl, reference="causal-learn-shd", max_examples=n)),
        ("bug: reversal counted twice", lambda: check_graph_metric(lambda t, e: len(set(t) ^ set(e)), "distance", reference="shd", max_examples=n)),
        ("bug: PM over all edges", lambda: check_explanation_scorer(lambda g, s: compute_pm(g, [EdgeJudgment(x) for x in s], "all"), "pm", max_examples=n)),
    ]

    @settings(max_examples=50, derandomize=True, database=None, deadline=None)
    @given(cs.graph_pairs())
    def bare(p: Any) -> None:
        M.shd([(e.u, e.v) for e in p.estimate.edges], [(e.u, e.v) for e in p.truth.edges], names="exact")

    base, _ = _timed(bare)
    print(f"reference: a bare @given test of SHD on 50 graph pairs: {base:.2f} s")
    total = 0.0
    for name, run in runs:
        seconds, out = _timed(run)
        total += seconds
        what = f"{len(out.properties)} properties" if hasattr(out, "properties") else f"caught: {str(out).splitlines()[0]}"
        print(f"{name:30s} {seconds:6.2f} s  ({seconds / base:5.1f}x the bare test)  {what}")
    print(f"{'all suites':30s} {total:6.2f} s")


if __name__ == "__main__":
    main()
