"""Equation evaluation: the compiled evaluator against the alternatives it was chosen over.

One parsed equation is evaluated on many rows of values, four ways:

* ``compiled`` — :func:`causalcheck.equation.compile_expr`: the tree printed as Python
  source with float literals and compiled once into a function of positional floats (ours);
* ``closures`` — the tree turned into nested closures, one Python call per node (the other
  design considered);
* ``tree walk`` — :func:`causalcheck.equation.evaluate_tree`, the reference walk;
* ``eval text`` — Python's ``eval`` of the equation text on every call (the published
  scorer's way, with a dict of names).

Also ``Equation.evaluate`` (the checker's entry: name lookup, then the compiled function).
Run: ``python tests/benchmarks/bench_equation.py [--quick]``.  Prints rates and ratios
against ``compiled`` measured in the same run; asserts nothing.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from causalcheck import equation as ce

EQUATIONS = {
    "linear, 3 parents": "resonanceFreq = base + c_density*density + c_moisture*moisture + c_ph*ph",
    "quadratic, 2 parents": "base + c2_d*(density ^ 2) + c1_d*density + c2_m*(moisture ^ 2) + c1_m*moisture",
    "nested": "(base - c_a*(density - moisture/2)) / (1 + c_b*ph^2) - -c_c*density",
}


def closures(expr: ce.Expr, slot: dict[ce.Sym, int]) -> Callable[[list[float]], Any]:
    """The alternative design: one closure per tree node."""
    if isinstance(expr, ce.Num):
        value = expr.value
        return lambda a: value
    if isinstance(expr, ce.Sym):
        i = slot[expr]
        return lambda a: a[i]
    if isinstance(expr, ce.Unary):
        inner = closures(expr.operand, slot)
        return (lambda a: -inner(a)) if expr.op == "-" else inner
    assert isinstance(expr, ce.BinOp)
    left, right = closures(expr.left, slot), closures(expr.right, slot)
    ops: dict[str, Callable[[list[float]], Any]] = {
        "+": lambda a: left(a) + right(a),
        "-": lambda a: left(a) - right(a),
        "*": lambda a: left(a) * right(a),
        "/": lambda a: left(a) / right(a),
        "^": lambda a: left(a) ** right(a),
    }
    return ops[expr.op]


def rate(fn: Callable[[], None], n: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def bench_one(label: str, text: str, rows_n: int, repeats: int) -> None:
    eq = ce.parse_equation(text)
    assert eq.rhs is not None
    f = ce.compile_expr(eq.rhs)
    rows = [[1.0 + (i * 7 + k * 3) % 50 for k in range(len(f.symbols))] for i in range(rows_n)]
    envs = [dict(zip(f.symbols, r, strict=True)) for r in rows]
    slot = {s: i for i, s in enumerate(f.symbols)}
    tree = closures(eq.rhs, slot)
    py_text = (text.split("=", 1)[1] if "=" in text else text).replace("^", "**")
    names = [dict(zip((s.name for s in f.symbols), r, strict=True)) for r in rows]
    values = [{s.name: v for s, v in e.items() if not s.is_coefficient} for e in envs]
    coeffs = [{s.name: v for s, v in e.items() if s.is_coefficient} for e in envs]
    fn = f.function
    assert all(fn(*r) == tree(r) == ce.evaluate_tree(eq.rhs, e) for r, e in zip(rows[:50], envs, strict=False))

    def run_compiled() -> None:
        for r in rows:
            fn(*r)

    def run_closures() -> None:
        for r in rows:
            tree(r)

    def run_walk() -> None:
        rhs = eq.rhs
        assert rhs is not None
        for e in envs:
            ce.evaluate_tree(rhs, e)

    def run_eval() -> None:
        for env in names:
            eval(py_text, {"__builtins__": {}}, env)

    def run_evaluate() -> None:
        for v, c in zip(values, coeffs, strict=True):
            eq.evaluate(v, c)

    rates = [rate(run, rows_n, repeats) for run in (run_compiled, run_closures, run_walk, run_eval, run_evaluate)]
    print(f"{label:22s} " + " ".join(f"{r:11,.0f}" for r in rates))
    print(f"{'  ratio compiled/x':22s} {'1.0x':>11s} " + " ".join(f"{rates[0] / r:10.1f}x" for r in rates[1:]))



def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rows and repeats")
    args = ap.parse_args()
    rows_n, repeats = (2000, 3) if args.quick else (20000, 5)
    print(f"evaluations per second ({rows_n} rows, best of {repeats})")
    print(f"{'equation':22s} {'compiled':>11s} {'closures':>11s} {'tree walk':>11s} {'eval text':>11s} {'evaluate()':>11s}")
    for label, text in EQUATIONS.items():
        bench_one(label, text, rows_n, repeats)

if __name__ == "__main__":
    main()
