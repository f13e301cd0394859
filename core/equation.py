"""Structural equations: ``resonanceFreq = base + c_density*density + c_moisture*moisture^2``.

A structural equation writes one node (the *target*, here the CausaLab frequency) as a
function of its causes.  The right-hand side mixes two kinds of names:

* **variables** — nodes of the causal graph (``density``), whose values come from data;
* **coefficients** — unknown constants of the mechanism (``base``, ``c_density``), whose
  values the hypothesis states in its ``coefficients`` map, or leaves ``null``.

Which is which is decided when parsing: a name listed among the hypothesis' coefficients
is a coefficient, a name listed among the graph's nodes is a variable, and otherwise the
naming convention decides (``base``, ``base_*``, ``intercept``, ``c_*``, ``coeff*_*``,
``beta_*``, ``w_*``, ``c1`` … are coefficients).  Variable names are normalised with
:func:`~causalcheck.graph.normalize_node`, so ``freq`` and ``Resonance_Freq`` both mean
``resonanceFreq``; coefficient names are kept as written.

The expression grammar is ``grammar/equation.lark`` (LALR): ``+ - * /``, powers written
``^`` or ``**`` (right-associative, binding tighter than unary minus, as in Python:
``-x^2 == -(x^2)``), parentheses and JSON numbers.  :meth:`Equation.evaluate` computes
the value without sympy; :meth:`Equation.to_sympy` gives the sympy expression for algebra;
:meth:`Equation.linear_form` writes the right-hand side, for fixed variable values, as an
affine function of the coefficients (what a data-consistency solver needs);
:meth:`Equation.polynomial` expands it into monomials (what the lab's SCM compiles).

**One arithmetic, compiled once.**  Every number is a float and every operation is the
Python float operation of the same name, applied in the order of the tree: ``a + b*c + d``
is ``(a + (b*c)) + d``.  So a value is exactly what Python computes for the same
expression with float constants — including its failures: ``x/0`` raises
``ZeroDivisionError``, ``10.0**400`` raises ``OverflowError``, ``(-8.0)**0.5`` is complex,
``1e308*10`` is ``inf``.  :func:`compile_expr` turns a tree into a Python function of
positional floats by printing it as Python source with float literals and the minimal
parentheses (Python's precedence and associativity for these operators are the grammar's,
so the source means the same tree) and compiling that once; :func:`evaluate_tree` is the
reference tree walk it must agree with bit for bit (``properties/test_equation_compile.py``).
:func:`python_source` is the printer, also used by the SCM to inline its equations into
straight-line code.  The source never contains input text: names become argument names or
the caller's bindings, numbers become ``repr`` of floats.

>>> eq = parse_equation("freq = base + c_density*density")
>>> eq.target, eq.variables, eq.coefficient_names
('resonanceFreq', ('density',), ('base', 'c_density'))
>>> eq.evaluate({"density": 14}, {"base": 25, "c_density": 2})
53.0
>>> python_source(parse_equation("a - (b - c) * -d ^ 2").rhs)
'a - (b - c) * -d ** 2.0'

One module because the tree, its float evaluation, its compiled Python form and its algebra
(linear form, polynomial, sympy) are one arithmetic that must agree bit for bit
(``properties/test_equation_compile.py``), all serving the one :class:`Equation` type.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.graph import normalize_node

if TYPE_CHECKING:  # pragma: no cover
    import sympy

__all__ = [
    "BinOp",
    "CompiledExpr",
    "Equation",
    "Expr",
    "Monomial",
    "Num",
    "Sym",
    "Term",
    "Unary",
    "compile_expr",
    "evaluate_tree",
    "is_coefficient_name",
    "parse_equation",
    "python_source",
]

_COEFF_RE = re.compile(
    r"^(?:base|intercept|bias|offset|const)(?:_\w+)?$"
    r"|^(?:c|coef|coeff|coeff\d|beta|w)_\w+$"
    r"|^(?:c|coeff|beta|w)\d+$"
)


def is_coefficient_name(name: str) -> bool:
    """True when *name* follows a coefficient naming convention (``base``, ``c_X``, ``coeff_X_Y``, ``c1`` …)."""
    return bool(_COEFF_RE.match(name))


# ---------------------------------------------------------------------- expression tree
@dataclass(frozen=True)
class Num:
    """A number literal (always non-negative when parsed; a sign is a :class:`Unary`)."""

    value: float


@dataclass(frozen=True)
class Sym:
    """A name: a graph variable (``is_coefficient=False``) or a coefficient."""

    name: str
    is_coefficient: bool = False


@dataclass(frozen=True)
class Unary:
    """``-x`` or ``+x``."""

    op: Literal["-", "+"]
    operand: Expr


@dataclass(frozen=True)
class BinOp:
    """``left op right`` for ``op`` in ``+ - * / ^``."""

    op: Literal["+", "-", "*", "/", "^"]
    left: Expr
    right: Expr


Expr = Num | Sym | Unary | BinOp

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "u": 3, "^": 4}


def format_number(value: float) -> str:
    """Shortest text that reads back as *value* (integral floats print without ``.0``)."""
    if math.isfinite(value) and value == int(value) and abs(value) < 1e16:
        return str(int(value))
    return repr(float(value))


def _prec(e: Expr) -> int:
    if isinstance(e, BinOp):
        return _PREC[e.op]
    if isinstance(e, Unary):
        return _PREC["u"]
    if isinstance(e, Num) and e.value < 0:
        return _PREC["u"]
    return 5


def _fmt(e: Expr) -> str:
    if isinstance(e, Num):
        return format_number(e.value)
    if isinstance(e, Sym):
        return e.name
    if isinstance(e, Unary):
        inner = _fmt(e.operand)
        if isinstance(e.operand, Unary) or _prec(e.operand) < _PREC["u"]:
            inner = f"({inner})"
        return f"{e.op}{inner}"
    p = _PREC[e.op]
    left, right = _fmt(e.left), _fmt(e.right)
    if e.op == "^":
        if _prec(e.left) <= p:
            left = f"({left})"
        if _prec(e.right) < _PREC["u"]:
            right = f"({right})"
        return f"{left}^{right}"
    if _prec(e.left) < p:
        left = f"({left})"
    if _prec(e.right) <= p:
        right = f"({right})"
    sep = "*" if e.op == "*" else f" {e.op} " if e.op in "+-" else "/"
    return f"{left}{sep}{right}"


def _walk(e: Expr) -> Iterable[Expr]:
    stack = [e]
    while stack:
        cur = stack.pop()
        yield cur
        if isinstance(cur, Unary):
            stack.append(cur.operand)
        elif isinstance(cur, BinOp):
            stack.extend((cur.right, cur.left))


def _names(e: Expr | None, coefficient: bool) -> tuple[str, ...]:
    if e is None:
        return ()
    seen: dict[str, None] = {}
    for node in _walk(e):
        if isinstance(node, Sym) and node.is_coefficient == coefficient:
            seen.setdefault(node.name, None)
    return tuple(seen)


# ---------------------------------------------------------------------- compiled evaluation
_APPLY: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
    "^": lambda a, b: a**b,
}


def _symbols(e: Expr) -> tuple[Sym, ...]:
    seen: dict[Sym, None] = {}
    for node in _walk(e):
        if isinstance(node, Sym):
            seen.setdefault(node, None)
    return tuple(seen)


def evaluate_tree(expr: Expr, env: Mapping[Sym, float | complex]) -> float | complex:
    """The reference value of *expr*: a plain walk, left operand first, Python float operations.

    No checks: ``/`` by zero raises ``ZeroDivisionError``, an overflowing ``**`` raises
    ``OverflowError``, a negative base with a fractional exponent gives a complex number
    that later operations carry along — exactly what Python does with the same expression.
    Iterative, so any tree the parser builds can be walked.

    >>> evaluate_tree(parse_equation("2^3^2 - x").rhs, {Sym("x"): 0.5})
    511.5
    """
    out: list[Any] = []
    stack: list[tuple[Expr, bool]] = [(expr, False)]
    while stack:
        e, ready = stack.pop()
        if isinstance(e, Num):
            out.append(e.value)
        elif isinstance(e, Sym):
            out.append(env[e])
        elif isinstance(e, Unary):
            if ready:
                x = out.pop()
                out.append(-x if e.op == "-" else +x)
            else:
                stack += [(e, True), (e.operand, False)]
        elif ready:
            b = out.pop()
            out.append(_APPLY[e.op](out.pop(), b))
        else:
            stack += [(e, True), (e.right, False), (e.left, False)]
    result: float | complex = out[0]
    return result


def _py_prec(e: Expr) -> int:
    """Python precedence of *e*'s printed form: 1 sum, 2 product, 3 unary, 4 power, 5 atom."""
    if isinstance(e, BinOp):
        return {"+": 1, "-": 1, "*": 2, "/": 2, "^": 4}[e.op]
    if isinstance(e, Unary):
        return 3
    if isinstance(e, Num) and math.isfinite(e.value) and math.copysign(1.0, e.value) < 0:
        return 3
    return 5


def python_source(
    expr: Expr,
    bind: Callable[[Sym], str] | None = None,
    constants: list[float] | None = None,
) -> str:
    """*expr* as Python source that means the same tree: float literals, minimal parentheses.

    *bind* gives the source for a name (default: the name itself); the caller must bind
    names to Python primaries (``_0``, ``v[3]``).  A non-finite number is appended to
    *constants* and printed as ``_k<i>`` (the caller binds it); without *constants* it is
    refused.  Python's precedence and associativity of ``+ - * / ** unary`` are the
    grammar's, so ``ast.parse`` of the result gives back the tree.

    >>> python_source(parse_equation("-(x^2)^y + 3/(a*b)").rhs)
    '-(x ** 2.0) ** y + 3.0 / (a * b)'
    """
    name = bind if bind is not None else (lambda s: s.name)

    def src(e: Expr) -> str:
        if isinstance(e, Num):
            if math.isfinite(e.value):
                return repr(float(e.value))
            if constants is None:
                raise InputFormatError(f"number={e.value!r} has no Python literal; pass constants=[] to bind it")
            constants.append(e.value)
            return f"_k{len(constants) - 1}"
        if isinstance(e, Sym):
            return name(e)
        if isinstance(e, Unary):
            inner = src(e.operand)
            return e.op + (f"({inner})" if _py_prec(e.operand) < 3 else inner)
        left, right = src(e.left), src(e.right)
        if e.op == "^":
            if _py_prec(e.left) < 5:
                left = f"({left})"
            if _py_prec(e.right) < 3:
                right = f"({right})"
            return f"{left} ** {right}"
        p = _py_prec(e)
        if _py_prec(e.left) < p:
            left = f"({left})"
        if _py_prec(e.right) <= p:
            right = f"({right})"
        return f"{left} {e.op} {right}"

    return src(expr)


@dataclass(frozen=True, eq=False)
class CompiledExpr:
    """An expression compiled once into a Python function of positional floats.

    ``function(*args)`` takes one value per entry of ``symbols`` (the distinct names in
    first-seen order) and returns exactly :func:`evaluate_tree`'s value — float, or complex
    after a fractional power of a negative number — or raises what it raises.  ``source``
    is the compiled Python text (``""`` when the tree was too deep for Python's compiler
    and ``function`` walks it instead).  Pickles by recompiling.
    """

    expr: Expr
    symbols: tuple[Sym, ...]
    source: str
    function: Callable[..., Any]

    def __call__(self, *args: float) -> float | complex:
        result: float | complex = self.function(*args)
        return result

    def __reduce__(self) -> tuple[Callable[[Expr], CompiledExpr], tuple[Expr]]:
        return (compile_expr, (self.expr,))


def compile_expr(expr: Expr) -> CompiledExpr:
    """Compile *expr* (see :class:`CompiledExpr`).

    >>> f = compile_expr(parse_equation("base + c_A*A").rhs)
    >>> [s.name for s in f.symbols], f.source, f(1, 2, 3.5)
    (['base', 'c_A', 'A'], 'lambda _0, _1, _2: _0 + _1 * _2', 8.0)
    """
    symbols = _symbols(expr)
    args = {s: f"_{i}" for i, s in enumerate(symbols)}
    constants: list[float] = []
    try:
        source = f"lambda {', '.join(args.values())}: {python_source(expr, args.__getitem__, constants)}"
        # The source holds only argument names, float literals and operators (never input
        # text), and runs without builtins.
        namespace: dict[str, Any] = {"__builtins__": {}, **{f"_k{i}": c for i, c in enumerate(constants)}}
        function = eval(compile(source, "<equation>", "eval"), namespace)
    except (RecursionError, MemoryError, SyntaxError):  # nesting beyond Python's compiler limits

        def function(*values: float) -> float | complex:
            return evaluate_tree(expr, dict(zip(symbols, values, strict=True)))

        source = ""
    return CompiledExpr(expr, symbols, source, function)


#: A monomial of :meth:`Equation.polynomial`: sorted ``(name, power)`` pairs; ``()`` is the constant.
Monomial = tuple[tuple[str, int], ...]


def _mono_mul(a: Monomial, b: Monomial) -> Monomial:
    powers: dict[str, int] = {}
    for name, p in (*a, *b):
        powers[name] = powers.get(name, 0) + p
    return tuple(sorted(powers.items()))


def _poly_add(a: dict[Monomial, float], b: dict[Monomial, float], sign: float = 1.0) -> dict[Monomial, float]:
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, 0.0) + sign * c
    return {m: c for m, c in out.items() if c != 0.0}


def _poly_mul(a: dict[Monomial, float], b: dict[Monomial, float]) -> dict[Monomial, float]:
    out: dict[Monomial, float] = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = _mono_mul(ma, mb)
            out[m] = out.get(m, 0.0) + ca * cb
    return {m: c for m, c in out.items() if c != 0.0}


class _Names:
    """The names an expression holds: ``variables`` (graph variables) and ``coefficient_names``,
    each in first-seen order, of the expression :meth:`_expression` gives."""

    __slots__ = ()

    def _expression(self) -> Expr | None:
        raise NotImplementedError

    @property
    def variables(self) -> tuple[str, ...]:
        """Graph variables, in first-seen order."""
        return _names(self._expression(), False)

    @property
    def coefficient_names(self) -> tuple[str, ...]:
        """Coefficient names, in first-seen order."""
        return _names(self._expression(), True)


@dataclass(frozen=True)
class Term(_Names):
    """One additive term of the right-hand side, with its sign (``+1`` or ``-1``)."""

    sign: int
    expr: Expr

    def _expression(self) -> Expr:
        return self.expr

    def __str__(self) -> str:
        return ("- " if self.sign < 0 else "") + _fmt(self.expr)


class _Nonlinear(Exception):
    pass


class _BigNumber(Exception):
    def __init__(self, token: Any) -> None:
        super().__init__(str(token))
        self.token = token


# An affine form  const + sum(weight[c] * c)  over coefficient names.
_Affine = tuple[float, dict[str, float]]


@dataclass(frozen=True)
class Equation(_Names):
    """A parsed structural equation ``target = rhs``.

    Attributes:
        text: the equation as written.
        target: the normalised left-hand side, or ``None`` when the text had none.
        rhs: the expression tree, or ``None`` for the empty equation ``""``.
    """

    text: str
    target: str | None
    rhs: Expr | None

    @property
    def is_empty(self) -> bool:
        return self.rhs is None

    def _expression(self) -> Expr | None:  # variables / coefficient_names: those of the right-hand side
        return self.rhs

    @property
    def terms(self) -> tuple[Term, ...]:
        """The top-level additive terms: ``base + c*A - d*B`` → ``(+base, +c*A, -d*B)``."""
        if self.rhs is None:
            return ()
        out: list[Term] = []

        def split(e: Expr, sign: int) -> None:
            if isinstance(e, BinOp) and e.op in "+-":
                split(e.left, sign)
                split(e.right, sign if e.op == "+" else -sign)
            elif isinstance(e, Unary):
                split(e.operand, sign if e.op == "+" else -sign)
            else:
                out.append(Term(sign, e))

        split(self.rhs, 1)
        return tuple(out)

    def canonical(self) -> str:
        """The equation re-printed with single spaces and minimal parentheses."""
        if self.rhs is None:
            return ""
        rhs = _fmt(self.rhs)
        return f"{self.target} = {rhs}" if self.target else rhs

    def __str__(self) -> str:
        return self.canonical()

    # ------------------------------------------------------------------ evaluation
    @functools.cached_property
    def compiled(self) -> CompiledExpr | None:
        """The right-hand side compiled once (:func:`compile_expr`); ``None`` for the empty equation."""
        return None if self.rhs is None else compile_expr(self.rhs)

    def evaluate(
        self,
        values: Mapping[str, float | None],
        coefficients: Mapping[str, float | None] = {},
    ) -> float:
        """The right-hand side for the given variable *values* and *coefficients*.

        Raises :class:`~causalcheck.base.errors.InputFormatError` when a name has no numeric value
        or the arithmetic is undefined (division by zero, overflow, a complex power) or not
        finite.  Runs the :attr:`compiled` function; when that fails or is not a finite
        float, the checked tree walk runs instead and says why (the first problem in
        left-to-right order).
        """
        compiled = self.compiled
        if compiled is not None:
            args: list[float] = []
            for s in compiled.symbols:
                v = (coefficients if s.is_coefficient else values).get(s.name)
                if v is None or isinstance(v, bool) or not isinstance(v, (int, float)):
                    break
                args.append(float(v))
            else:
                try:
                    result = compiled.function(*args)
                except (OverflowError, ZeroDivisionError):
                    pass
                else:
                    if type(result) is float and math.isfinite(result):
                        return result
        return self._evaluate_checked(values, coefficients)

    def _evaluate_checked(
        self,
        values: Mapping[str, float | None],
        coefficients: Mapping[str, float | None],
    ) -> float:
        """:meth:`evaluate` as a tree walk that checks every step and names what went wrong."""
        if self.rhs is None:
            raise InputFormatError(f"equation={self.text!r} is empty and cannot be evaluated")

        def lookup(s: Sym) -> float:
            src = coefficients if s.is_coefficient else values
            v = src.get(s.name)
            if v is None or isinstance(v, bool) or not isinstance(v, (int, float)):
                kind = "coefficient" if s.is_coefficient else "variable"
                raise InputFormatError(f"{kind} {s.name!r} has no numeric value (got {v!r})")
            return float(v)

        def ev(e: Expr) -> float:
            if isinstance(e, Num):
                return e.value
            if isinstance(e, Sym):
                return lookup(e)
            if isinstance(e, Unary):
                return -ev(e.operand) if e.op == "-" else ev(e.operand)
            a, b = ev(e.left), ev(e.right)
            if e.op == "+":
                return a + b
            if e.op == "-":
                return a - b
            if e.op == "*":
                return a * b
            if e.op == "/":
                if b == 0:
                    raise InputFormatError(f"equation={self.text!r} divides by zero")
                return a / b
            r = a**b
            if isinstance(r, complex):
                raise InputFormatError(f"equation={self.text!r} takes a fractional power of a negative number ({a!r}^{b!r})")
            return float(r)

        try:
            result = ev(self.rhs)
        except (OverflowError, ZeroDivisionError) as exc:
            raise InputFormatError(f"equation={self.text!r} cannot be evaluated: {exc}") from None
        if not math.isfinite(result):
            raise InputFormatError(f"equation={self.text!r} evaluates to {result!r}")
        return result

    def linear_form(
        self,
        values: Mapping[str, float | None],
        fixed: Mapping[str, float | None] = {},
    ) -> tuple[float, dict[str, float]] | None:
        """The right-hand side as ``const + Σ weight[c]·c`` over the coefficients not in *fixed*.

        Variables take their *values*; coefficients with a number in *fixed* are constants.
        Returns ``None`` when the expression is not affine in the free coefficients (e.g.
        ``c^2`` or ``c*d``); raises like :meth:`evaluate` for missing variable values.
        """
        if self.rhs is None:
            return None

        def const(v: float) -> _Affine:
            return (v, {})

        def ev(e: Expr) -> _Affine:
            if isinstance(e, Num):
                return const(e.value)
            if isinstance(e, Sym):
                if e.is_coefficient:
                    v = fixed.get(e.name)
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        return const(float(v))
                    return (0.0, {e.name: 1.0})
                v = values.get(e.name)
                if v is None or isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise InputFormatError(f"variable {e.name!r} has no numeric value (got {v!r})")
                return const(float(v))
            if isinstance(e, Unary):
                c, w = ev(e.operand)
                return (-c, {k: -x for k, x in w.items()}) if e.op == "-" else (c, w)
            (ca, wa), (cb, wb) = ev(e.left), ev(e.right)
            if e.op in "+-":
                s = 1.0 if e.op == "+" else -1.0
                w = dict(wa)
                for k, x in wb.items():
                    w[k] = w.get(k, 0.0) + s * x
                return (ca + s * cb, w)
            if e.op == "*":
                if wa and wb:
                    raise _Nonlinear
                if not wa:
                    return (ca * cb, {k: ca * x for k, x in wb.items()})
                return (ca * cb, {k: cb * x for k, x in wa.items()})
            if e.op == "/":
                if wb:
                    raise _Nonlinear
                if cb == 0:
                    raise InputFormatError(f"equation={self.text!r} divides by zero")
                return (ca / cb, {k: x / cb for k, x in wa.items()})
            if wa or wb:
                raise _Nonlinear
            r = ca**cb
            if isinstance(r, complex):
                raise InputFormatError(f"equation={self.text!r} takes a fractional power of a negative number")
            return const(r)

        try:
            c, w = ev(self.rhs)
        except _Nonlinear:
            return None
        except (OverflowError, ZeroDivisionError) as exc:
            raise InputFormatError(f"equation={self.text!r} cannot be evaluated: {exc}") from None
        if not all(math.isfinite(x) for x in (c, *w.values())):  # 1e308 + 1e308: inf, inf - inf: nan
            raise InputFormatError(f"equation={self.text!r} cannot be evaluated: a value overflows")
        return c, {k: x for k, x in w.items()}

    def polynomial(self, *, max_power: int = 8, what: str = "equation") -> dict[Monomial, float]:
        """The right-hand side expanded into ``{monomial: coefficient}`` over its names.

        Integer powers ``0 … max_power`` of any sub-expression and division by a non-zero
        constant are allowed; monomials whose coefficient cancels to 0 are dropped.  Names
        are taken as written (variables and coefficients alike).  Raises
        :class:`~causalcheck.base.errors.InputFormatError` naming ``what=<text>`` otherwise.

        >>> parse_equation("b + 2 * x ^ 2 - x").polynomial()
        {(('b', 1),): 1.0, (('x', 2),): 2.0, (('x', 1),): -1.0}
        """
        if self.rhs is None:
            raise InputFormatError(f"{what}={self.text!r} must be a non-empty expression")

        def walk(e: Expr) -> dict[Monomial, float]:
            if isinstance(e, Num):
                return {(): e.value} if e.value != 0 else {}
            if isinstance(e, Sym):
                return {((e.name, 1),): 1.0}
            if isinstance(e, Unary):
                inner = walk(e.operand)
                return {m: -c for m, c in inner.items()} if e.op == "-" else inner
            left, right = walk(e.left), walk(e.right)
            if e.op == "+":
                return _poly_add(left, right)
            if e.op == "-":
                return _poly_add(left, right, -1.0)
            if e.op == "*":
                return _poly_mul(left, right)
            if e.op == "/":
                if set(right) - {()} or not right:
                    raise InputFormatError(f"{what}={self.text!r} divides by a variable or zero")
                return {m: c / right[()] for m, c in left.items()}
            exp = right.get((), 0.0) if set(right) <= {()} else None
            if exp is None or exp != int(exp) or exp < 0 or exp > max_power:
                raise InputFormatError(f"{what}={self.text!r} has a power that is not a small non-negative integer")
            out: dict[Monomial, float] = {(): 1.0}
            for _ in range(int(exp)):
                out = _poly_mul(out, left)
            return out

        try:
            return walk(self.rhs)
        except RecursionError:
            raise InputFormatError(f"{what}={self.text!r} nests too deeply") from None

    def is_linear_in_coefficients(self) -> bool:
        """True when the right-hand side is affine in its coefficients for any variable values."""
        probe = {v: 1.5 for v in self.variables}
        try:
            return self.linear_form(probe) is not None
        except InputFormatError:
            return False

    def to_sympy(self) -> sympy.Expr:
        """The right-hand side as a sympy expression (numbers as exact rationals)."""
        import sympy

        if self.rhs is None:
            return sympy.Integer(0)

        def conv(e: Expr) -> Any:
            if isinstance(e, Num):
                return sympy.Rational(repr(e.value)) if not e.value.is_integer() else sympy.Integer(int(e.value))
            if isinstance(e, Sym):
                return sympy.Symbol(e.name, real=True)
            if isinstance(e, Unary):
                return -conv(e.operand) if e.op == "-" else conv(e.operand)
            a, b = conv(e.left), conv(e.right)
            return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b, "/": lambda: a / b, "^": lambda: a**b}[e.op]()

        result: sympy.Expr = conv(self.rhs)
        return result

    def reclassified(self, coefficients: Iterable[str] = (), nodes: Iterable[str] = ()) -> Equation:
        """A copy whose names are re-sorted into coefficients and variables with these hints."""
        return parse_equation(self.text, coefficients=coefficients, nodes=nodes)


# ---------------------------------------------------------------------- parsing
_BINARY: dict[str, Literal["+", "-", "*", "/"]] = {"add": "+", "sub": "-", "mul": "*", "div": "/"}


def _to_expr(tree: Any, classify: Any) -> Expr:
    """Our tree from lark's parse tree (lark's classes are imported once per parse, not per node)."""
    from lark import Tree

    def conv(t: Any) -> Expr:
        if not isinstance(t, Tree):  # pragma: no cover - the grammar wraps every token
            raise InputFormatError(f"unexpected token {t!r}")
        kind = t.data
        ch = t.children
        if kind == "number":
            value = float(str(ch[0]))
            if not math.isfinite(value):
                raise _BigNumber(ch[0])
            return Num(value)
        if kind == "name":
            sym: Sym = classify(str(ch[0]))
            return sym
        if kind == "neg" or kind == "pos":
            return Unary("-" if kind == "neg" else "+", conv(ch[0]))
        if kind == "pow":
            return BinOp("^", conv(ch[0]), conv(ch[2]))
        return BinOp(_BINARY[str(kind)], conv(ch[0]), conv(ch[1]))

    return conv(tree)


@functools.lru_cache(maxsize=4096)
def _parse_cached(text: str) -> Any:
    """The lark tree of *text* (memoised: a scored run parses the same few equations per episode;
    the tree is only read, never changed, by :func:`parse_equation`; errors are not cached)."""
    # late: the grammar is compiled on the first parse, not on import
    from causalcheck.grammar.parsers import parser

    return parser("equation").parse(text)


def _equation_tree(text: str, source: str, offset: int, document: str | None) -> Any:
    """The ``equation.lark`` parse tree of *text*; a syntax error names the position (and a missing ``*``)."""
    # late: keeps check API light
    from causalcheck.grammar.parsers import syntax_error
    from lark.exceptions import UnexpectedInput

    try:
        tree = _parse_cached(text)
    except UnexpectedInput as exc:
        error = syntax_error(
            exc, text, grammar="equation", source=source, what="bad equation", offset=offset, document=document
        )
        token = getattr(exc, "token", None)
        if '"*"' in error.expected and getattr(token, "type", "") in ("NAME", "NUMBER", "LPAR"):
            error = DSLSyntaxError(
                error.message,
                text=document if document is not None else text,
                line=error.line,
                column=error.column,
                expected=error.expected,
                source=source,
                label=f"multiplication needs an explicit '*' before {str(token)!r}",
            )
        raise error from None
    except RecursionError:
        raise DSLSyntaxError(f"equation nests too deeply ({len(text)} characters)", text=text, source=source) from None
    return tree


def parse_equation(
    text: str,
    *,
    coefficients: Iterable[str] = (),
    nodes: Iterable[str] = (),
    source: str = "<equation>",
    offset: int = 0,
    document: str | None = None,
    raw_names: bool = False,
) -> Equation:
    """Parse a structural equation; ``""`` gives the empty equation.

    *coefficients* and *nodes* are hints for sorting names (see the module docstring).
    With *raw_names* no name is normalised (the target and variables stay as written, so
    ``freq`` stays ``freq``): the form for evaluating a formula whose names are looked up
    as written (the formula error, the SCM's ``computation`` strings).
    Raises :class:`~causalcheck.base.errors.DSLSyntaxError` with line, column, the expected tokens
    and a caret.  *offset*/*document* place *text* inside a larger document for messages.
    """
    if not isinstance(text, str):
        raise InputFormatError(f"equation={text!r} must be a string")
    if not text.strip():
        return Equation(text, None, None)
    tree = _equation_tree(text, source, offset, document)
    coeff_hint = set(coefficients)
    node_hint = set(nodes) if raw_names else {normalize_node(n) for n in nodes}

    norm_name: Callable[[str], str] = (lambda n: n) if raw_names else normalize_node

    def classify(name: str) -> Sym:
        if name in coeff_hint:
            return Sym(name, True)
        norm = norm_name(name)
        if norm in node_hint:
            return Sym(norm, False)
        if is_coefficient_name(name):
            return Sym(name, True)
        return Sym(norm, False)

    children = tree.children
    if len(children) == 2:
        target: str | None = str(children[0]) if raw_names else normalize_node(str(children[0]))
        body = children[1]
    else:
        target, body = None, children[0]
    try:
        rhs = _to_expr(body, classify)
    except _BigNumber as big:
        # late: keeps check API light
        from causalcheck.grammar.parsers import line_col

        tok = big.token
        line, column = line_col(document if document is not None else text, offset + (tok.start_pos or 0))
        raise DSLSyntaxError(
            f"bad equation: the number {str(tok)!r} is too large",
            text=document if document is not None else text,
            line=line,
            column=column,
            source=source,
        ) from None
    except RecursionError:
        raise DSLSyntaxError(f"equation nests too deeply ({len(text)} characters)", text=text, source=source) from None
    return Equation(text, target, rhs)
