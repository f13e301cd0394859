"""Time each causalcheck.testing suite at the ci profile against the same properties as plain ``@given`` tests.

For every suite (causalcheck's SHD, edge / parent / root F1, coefficient F1, PM, RM, Final,
causal-learn's SHD on PDAGs, causalcheck's edge-list reader, and two planted bugs) the table
shows the properties, the examples (properties × examples each), the kit's wall time, the
time of the **same properties written as plain @given tests** — each property's strategy and
check under ``@settings(max_examples=N, derandomize=True, database=None, deadline=None)`` and
``@given(strategy)``, run one after the other, as a user pasting the properties would — and
the ratio kit / plain: what the kit adds (its runner, the hermetic hypothesis context, the
one-failure shrinking of a bug).  A last row compares the SHD suite with a *hand-written*
plain suite of the same ten properties on the simplest strategies a researcher would write
(a pool of names, forward edges, random edits): the cost of the kit's awkward-name and
edit-tracking strategies.  Both sides of a row are measured in the same run, each the best of
``--repeat`` runs (default 2).  Nothing is asserted.

    python tests/benchmarks/bench_testing.py [--quick] [--repeat N]
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any


def _timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            out = fn()
        except AssertionError as exc:  # a planted bug: the suite is expected to fail
            out = exc
        best = min(best, time.perf_counter() - start)
    return best, out


def _captured(run: Callable[[], Any]) -> tuple[list[Any], int]:
    """The properties (not skipped) and example budget a suite would run, captured instead of run."""
    from causalcheck.testing import runner
    from causalcheck.testing.profiles import settings_for

    seen: list[tuple[list[Any], int]] = []
    real = runner.run_suite

    def capture(suite: str, properties: Any, *, profile: Any = None, max_examples: Any = None, skip: Any = (), **_: Any) -> Any:
        seen.append(([p for p in properties if p.name not in skip], settings_for(profile, max_examples).max_examples))
        return None

    runner.run_suite = capture  # type: ignore[assignment]
    try:
        run()
    finally:
        runner.run_suite = real  # type: ignore[assignment]
    return seen[0]


def _body(check: Callable[[Any], None]) -> Callable[[Any], None]:
    def body(x: Any) -> None:
        check(x)

    return body


def _plain(props: list[Any], n: int) -> Callable[[], None]:
    """The properties as plain @given tests, run in turn (a failing one raises, as pytest would report it)."""
    from hypothesis import HealthCheck, given, settings

    def run() -> None:
        failure: AssertionError | None = None
        for prop in props:
            test = settings(max_examples=n, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))(
                given(prop.strategy)(_body(prop.check))
            )
            try:
                test()
            except AssertionError as exc:  # pytest would go on with the next test
                failure = failure or exc
        if failure is not None:
            raise failure

    return run


def _hand_written_shd(n: int) -> Callable[[], None]:
    """The SHD suite's ten properties hand-written on simple strategies (names from a pool, forward edges, edits)."""
    from causalcheck import metrics as M
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    pool = ["a", "A", "b", "B", " a", "x1", "X1", "ä", "名前", "c", "d", "e"]
    conf = settings(max_examples=n, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck))

    def shd(t: Any, e: Any) -> float:
        return float(M.shd(e, t, names="exact").total)

    @st.composite
    def dags(draw: Any) -> tuple[list[str], list[tuple[str, str]]]:
        names = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=6, unique=True))
        forward = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
        return names, [p for p, keep in zip(forward, draw(st.lists(st.booleans(), min_size=len(forward), max_size=len(forward))), strict=True) if keep]

    @st.composite
    def one_edit(draw: Any) -> tuple[list[str], list[tuple[str, str]], list[tuple[str, str]], str]:
        names, t = draw(dags())
        free = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if (a, b) not in t]
        ops = [o for o, ok in (("add", free), ("remove", t), ("reverse", t)) if ok]
        op = draw(st.sampled_from(ops))
        if op == "add":
            return names, t, [*t, draw(st.sampled_from(free))], op
        k = draw(st.integers(0, len(t) - 1))
        return names, t, t[:k] + ([] if op == "remove" else [(t[k][1], t[k][0])]) + t[k + 1 :], op

    @st.composite
    def pairs(draw: Any) -> tuple[list[tuple[str, str]], list[tuple[str, str]], int]:
        _, t = draw(dags())
        e, k = list(t), 0
        for p in draw(st.lists(st.sampled_from(t), unique=True, max_size=3)) if t else []:
            e.remove(p)
            k += 1
        return t, e, k

    def ok(cond: bool, prop: str) -> None:
        if not cond:
            raise AssertionError(prop)

    def renamed(g: list[tuple[str, str]], m: dict[str, str]) -> list[tuple[str, str]]:
        return [(m.get(a, a), m.get(b, b)) for a, b in g]

    def respelled(c: Any) -> None:
        _, t, e, _ = c
        node = e[0][0] if e else t[0][0]
        ok(shd(t, renamed(e, {node: " " + node})) == shd(t, renamed(e, {node: "\u27e8fresh\u27e9"})), "names")

    tests = [
        given(pairs())(lambda p: ok(shd(p[0], p[1]) >= 0, "bounds")),
        given(dags())(lambda g: ok(shd(g[1], g[1]) == 0, "identity")),
        given(pairs())(lambda p: ok(shd([], []) == 0 and shd(p[0], []) == len(p[0]), "empty")),
        given(pairs())(lambda p: ok(shd(p[0], p[1]) == shd(p[1], p[0]), "symmetry")),
        given(pairs(), st.permutations(pool))(
            lambda p, new: ok(shd(p[0], p[1]) == shd(renamed(p[0], dict(zip(pool, new, strict=True))), renamed(p[1], dict(zip(pool, new, strict=True)))), "renaming")
        ),
        given(pairs(), st.randoms(use_true_random=False))(lambda p, r: ok(shd(p[0], p[1]) == shd(r.sample(p[0], len(p[0])), r.sample(p[1], len(p[1]))), "reordering")),
        given(one_edit())(respelled),
        given(one_edit())(lambda c: ok(shd(c[1], c[2]) == 1, "single-edit")),
        given(pairs())(lambda p: ok(shd(p[0], p[1]) == p[2], "edits-add-up")),
        given(pairs())(lambda p: ok(shd(p[0], p[1]) == float(M.shd(p[1], p[0], names="exact").total), "reference")),
    ]

    runs = [conf(test) for test in tests]

    def run() -> None:
        for test in runs:
            test()

    return run


def _suites(n: int | None) -> list[tuple[str, Callable[[], Any]]]:
    from causalcheck import metrics as M
    from causalcheck.explain.judges import EdgeJudgment
    from causalcheck.explain.scoring import compute_final, compute_pm, compute_rm
    from causalcheck.graphs.io import read_graph
    from causalcheck.testing import (
        check_coefficient_metric,
        check_edge_parser,
        check_explanation_scorer,
        check_graph_metric,
    )

    def pm(g: Any, s: list[float]) -> float:
        return compute_pm(g, [EdgeJudgment(x) for x in s])

    def cl_shd(t: Any, e: Any) -> int:
        from causallearn.graph.SHD import SHD

        return SHD(t, e).get_shd()

    def to_cl(g: Any) -> Any:
        from causalcheck.graphs.convert import to_causallearn

        return to_causallearn(g.with_nodes(sorted(g.nodes)))

    return [
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
        ("edge-list reader", lambda: check_edge_parser(lambda s: read_graph(s, format="edgelist"), "edgelist", max_examples=n)),
        ("bug: reversal counted twice", lambda: check_graph_metric(lambda t, e: len(set(t) ^ set(e)), "distance", reference="shd", max_examples=n)),
        ("bug: PM over all edges", lambda: check_explanation_scorer(lambda g, s: compute_pm(g, [EdgeJudgment(x) for x in s], "all"), "pm", max_examples=n)),
    ]


def main() -> None:
    from causalcheck import metrics as M
    from causalcheck.testing import check_graph_metric
    from hypothesis import configuration

    quick = "--quick" in sys.argv
    repeat = int(sys.argv[sys.argv.index("--repeat") + 1]) if "--repeat" in sys.argv else (1 if quick else 2)
    n = 20 if quick else None
    home = tempfile.TemporaryDirectory(prefix="bench-hypothesis-")
    configuration.set_hypothesis_home_dir(home.name)  # the plain side writes no .hypothesis/ here either
    check_graph_metric(lambda t, e: M.shd(e, t, names="exact"), "distance", max_examples=2)  # warm-up: imports, hypothesis' first-use caches

    print(f"{'suite':30s} {'props':>5s} {'examples':>8s} {'kit s':>7s} {'plain s':>7s} {'kit/plain':>9s}  outcome")
    kit_total = plain_total = 0.0
    for name, run in _suites(n):
        props, per = _captured(run)
        _timed(_plain(props, 2), 1)  # warm-up: the rule's own imports (causal-learn, ...) are paid by neither side
        kit, out = _timed(run, repeat)
        plain, _ = _timed(_plain(props, per), repeat)
        kit_total, plain_total = kit_total + kit, plain_total + plain
        what = "passed" if hasattr(out, "properties") else f"caught by {getattr(out, 'property', '?')!r}"
        print(f"{name:30s} {len(props):5d} {len(props) * per:8d} {kit:7.2f} {plain:7.2f} {kit / plain:8.2f}x  {what}")
    print(f"{'all suites':30s} {'':5s} {'':8s} {kit_total:7.2f} {plain_total:7.2f} {kit_total / plain_total:8.2f}x")
    per = n or 50
    shd_run = _suites(n)[0][1]
    kit, _ = _timed(shd_run, repeat)
    hand, _ = _timed(_hand_written_shd(per), repeat)
    print(f"{'SHD vs hand-written @given':30s} {10:5d} {10 * per:8d} {kit:7.2f} {hand:7.2f} {kit / hand:8.2f}x  (simplest strategies)")
    home.cleanup()


if __name__ == "__main__":
    main()
