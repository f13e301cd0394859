"""Property tests of the one arithmetic: compiled evaluation == reference tree walk == Python, bit for bit."""

from __future__ import annotations

import ast
import math
import struct
from collections.abc import Callable
from typing import Any

from causalcheck import equation as ce
from causalcheck.base.errors import InputFormatError
from causalcheck.metrics import FormulaResult, formula_error
from hypothesis import given, settings
from hypothesis import strategies as st

# Numbers a parsed tree holds (non-negative, finite) plus the ones a program may build
# (negative, -0.0, inf, nan), and values that provoke every float outcome.
_SPECIAL = [0.0, -0.0, 1.0, 2.0, 0.5, 3.0, 10.0, 400.0, 81.645, 1e308, 5e-324, 1e-5, 2.5e-300]
_NUMS = st.one_of(st.sampled_from(_SPECIAL), st.floats(min_value=0, max_value=1e6))
_ANY_NUMS = st.one_of(_NUMS, st.sampled_from([-2.5, -0.0, math.inf, -math.inf, math.nan]), st.floats())
_SYMS = st.sampled_from([ce.Sym("a"), ce.Sym("b"), ce.Sym("c", True), ce.Sym("a", True)])
_VALUES = st.one_of(st.sampled_from([*_SPECIAL, -1.0, -8.0, -0.5, math.inf, -math.inf, math.nan]), st.floats())


def _trees(nums: st.SearchStrategy[float]) -> st.SearchStrategy[ce.Expr]:
    def extend(children: st.SearchStrategy[ce.Expr]) -> st.SearchStrategy[ce.Expr]:
        return st.one_of(
            st.builds(ce.Unary, st.sampled_from(["-", "+"]), children),
            st.builds(ce.BinOp, st.sampled_from(["+", "-", "*", "/", "^"]), children, children),
        )

    leaves: st.SearchStrategy[ce.Expr] = st.one_of(nums.map(ce.Num), _SYMS)
    return st.recursive(leaves, extend, max_leaves=14)


def _bits(x: Any) -> tuple[str, bytes]:
    if isinstance(x, complex):
        return ("complex", struct.pack("<dd", x.real, x.imag))
    if isinstance(x, float):
        return ("float", struct.pack("<d", x))
    return (type(x).__name__, repr(x).encode())


def _outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """The value's type and bits, or the exception's type and message."""
    try:
        return ("value", _bits(fn()))
    except (ZeroDivisionError, OverflowError) as exc:
        return (type(exc).__name__, str(exc))


@settings(max_examples=400, deadline=None)
@given(_trees(_ANY_NUMS), st.lists(_VALUES, min_size=4, max_size=4))
def test_compiled_equals_the_reference_tree_walk(expr: ce.Expr, values: list[float]) -> None:
    """compile_expr gives evaluate_tree's bits, complex results and exceptions (inf, nan, -0.0, overflow, /0)."""
    f = ce.compile_expr(expr)
    env = dict(zip(f.symbols, values, strict=False))
    args = [env[s] for s in f.symbols]
    assert _outcome(lambda: f(*args)) == _outcome(lambda: ce.evaluate_tree(expr, env))


def _from_python(node: ast.AST) -> ce.Expr:
    """A Python expression AST back as our tree (the inverse of ce.python_source for parsed trees)."""
    if isinstance(node, ast.Expression):
        return _from_python(node.body)
    if isinstance(node, ast.Constant):
        return ce.Num(float(node.value))
    if isinstance(node, ast.Name):
        return ce.Sym(node.id)
    if isinstance(node, ast.UnaryOp):
        return ce.Unary("-" if isinstance(node.op, ast.USub) else "+", _from_python(node.operand))
    assert isinstance(node, ast.BinOp)
    op = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "^"}[type(node.op)]
    return ce.BinOp(op, _from_python(node.left), _from_python(node.right))  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(_trees(_NUMS.filter(lambda v: math.copysign(1.0, v) > 0)))
def test_python_source_means_the_same_tree(expr: ce.Expr) -> None:
    """Python parses ce.python_source(e) back to e: precedence, associativity and unary minus agree."""
    plain = _strip_coefficient_flags(expr)
    assert _from_python(ast.parse(ce.python_source(plain), mode="eval")) == plain


def _strip_coefficient_flags(e: ce.Expr) -> ce.Expr:
    if isinstance(e, ce.Sym):
        return ce.Sym(e.name)
    if isinstance(e, ce.Unary):
        return ce.Unary(e.op, _strip_coefficient_flags(e.operand))
    if isinstance(e, ce.BinOp):
        return ce.BinOp(e.op, _strip_coefficient_flags(e.left), _strip_coefficient_flags(e.right))
    return e


@settings(max_examples=300, deadline=None)
@given(_trees(_NUMS), st.lists(st.one_of(_VALUES, st.integers(-5, 5), st.none()), min_size=4, max_size=4))
def test_equation_evaluate_is_the_checked_reference(expr: ce.Expr, values: list[Any]) -> None:
    """Equation.evaluate returns the tree walk's float bit for bit when it is finite, else raises InputFormatError."""
    eq = ce.parse_equation(ce.python_source(expr).replace("**", "^"), coefficients=["c"], nodes=["a", "b"], raw_names=True)
    syms = ce.compile_expr(eq.rhs).symbols if eq.rhs is not None else ()
    assign = dict(zip(syms, values, strict=False))
    variables = {s.name: v for s, v in assign.items() if not s.is_coefficient}
    coefficients = {s.name: v for s, v in assign.items() if s.is_coefficient}
    expected: Any
    try:
        ok = all(isinstance(v, (int, float)) for v in assign.values())
        expected = ce.evaluate_tree(eq.rhs, {s: float(v) for s, v in assign.items()}) if ok and eq.rhs else None
    except (ZeroDivisionError, OverflowError):
        expected = None
    if isinstance(expected, float) and math.isfinite(expected):
        assert _bits(eq.evaluate(variables, coefficients)) == _bits(expected)
    else:
        try:
            eq.evaluate(variables, coefficients)
        except InputFormatError:
            return
        raise AssertionError(f"{eq.text!r} with {assign!r} should not evaluate (reference {expected!r})")


# --------------------------------------------------------------- the formula error vs Python's eval
# A transcription of the formula error before the grammar (Python's ast with every constant
# made a float, compiled and eval'd without builtins): the oracle for texts both accept.
class _Floats(ast.NodeTransformer):
    big = False

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        self.big = self.big or not math.isfinite(float(node.value))
        return ast.copy_location(ast.Constant(float(node.value)), node)


def _lookup(name: str, values: dict[str, float]) -> float | None:
    """Exact name first, then case-insensitive; only finite numbers count."""
    if name in values and math.isfinite(values[name]):
        return values[name]
    return next((v for k, v in values.items() if k.lower() == name.lower() and math.isfinite(v)), None)


def _python_formula(equation: str, values: dict[str, float], target: float) -> FormulaResult | None:
    """The old result, or None when the text holds a literal beyond float range (Python reads inf)."""
    text = (equation.split("=", 1)[1] if "=" in equation else equation).strip().replace("^", "**")
    floats = _Floats()
    tree = ast.fix_missing_locations(floats.visit(ast.parse(text, mode="eval")))
    if floats.big:
        return None
    names = tuple(sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}))
    env = {n: _lookup(n, values) for n in names}
    missing = [n for n in names if env[n] is None]
    if missing:
        return FormulaResult(None, target, None, None, names, f"no value for {missing!r}")
    try:
        value = eval(compile(tree, "<equation>", "eval"), {"__builtins__": {}}, env)
    except (ZeroDivisionError, OverflowError) as exc:
        return FormulaResult(None, target, None, None, names, f"cannot evaluate {equation!r}: {exc}")
    if not isinstance(value, float):
        return FormulaResult(None, target, None, None, names, f"equation {equation!r} is not real here")
    if not math.isfinite(value):
        return FormulaResult(None, target, None, None, names, f"equation {equation!r} is not finite here")
    return FormulaResult(value, target, abs(value - target), abs(value - target) <= 5.0, names, None)


_SP = st.sampled_from(["", " ", "  "])
_ATOMS = st.one_of(
    st.sampled_from(["base", "c_A", "A", "density", "Density", "x1", "zz"]),
    st.from_regex(r"(0|[1-9][0-9]{0,3})(\.[0-9]{1,3})?([eE][+-]?[0-9]{1,3})?|\.[0-9]{1,2}|[1-9]\.", fullmatch=True),
)


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binop = st.tuples(children, _SP, st.sampled_from(["+", "-", "*", "/", "^", "**"]), _SP, children).map("".join)
    unary = st.tuples(st.sampled_from(["-", "+"]), _SP, children).map("".join)
    paren = st.tuples(_SP, children, _SP).map(lambda t: "(" + "".join(t) + ")")
    return st.one_of(binop, unary, paren)


_FORMULAS = st.tuples(st.sampled_from(["", "resonanceFreq = ", "f(x) ="]), st.recursive(_ATOMS, _combine, max_leaves=10)).map(
    "".join
)


@settings(max_examples=500, deadline=None)
@given(_FORMULAS, st.lists(_VALUES, min_size=6, max_size=6), st.floats(-1e6, 1e6))
def test_formula_error_equals_pythons_eval(equation: str, values: list[float], target: float) -> None:
    """The grammar-compiled formula error gives the old Python-eval result: value bits, names and reason."""
    env = dict(zip(["base", "c_A", "A", "density", "x1", "zz"], values, strict=True))
    new = formula_error(equation, env, target)
    old = _python_formula(equation, env, target)
    if old is None:  # a literal beyond float range: Python read it as inf, the grammar refuses it
        assert new.predicted is None and "does not parse" in (new.reason or "")
        return
    assert (new.names, new.reason, new.hit) == (old.names, old.reason, old.hit)
    assert _bits(new.predicted) == _bits(old.predicted)
