"""Does the hypothesized equation reproduce the recorded data?

Every evidence entry (a :class:`~causalcheck.records.DataPoint`: property values and the
frequency seen with them) is a constraint on the equation.  With tolerance ``τ`` (absolute,
in the target's units — Hz for CausaLab — default 0.01 because the simulator rounds every
value to 2 decimals) point ``i`` is reproduced when ``|f(x_i; θ) − y_i| ≤ τ``.

Two questions are asked, both exactly (rational arithmetic in z3, no floating-point fit):

1. **The stated coefficients** (``data-mismatch``).  Coefficients with a number are fixed;
   those ``null`` or missing are free.  If nothing is free, each point simply is or is not
   reproduced, and the ones that are not are named with their residuals.  If some
   coefficients are free, the question is whether *any* values for them reproduce all the
   points; when none do, z3's unsat core over one tracked assertion per point names a
   *minimal* set of conflicting points (minimised by deletion, so dropping any one of them
   makes the rest fit).
2. **The form of the equation** (``equation-refuted``), asked only when (1) fails: can any
   values of *all* coefficients reproduce the points?  If not, the data refute the
   structure itself (wrong parents or wrong functional form), not just the numbers; the
   conflicting points are again a minimal unsat core.

Points that lie *exactly* on the equation for some coefficients are consistent at any
tolerance; that is decided first, without the solver, by Gauss–Jordan elimination in exact
rational arithmetic (:func:`interpolation`), and its basic solution (coefficients without a
pivot set to 0) is the example fit reported.  Only the other cases — points near but not on
the equation, and conflicts, whose minimal cores and minimax fits z3 supplies — reach z3.
The commonest conflict (one point more than there are free coefficients, every point binding
the minimax fit) has a closed form with a unique answer, which :mod:`causalcheck.solvers.fastfit`
computes exactly without z3; that module also runs the elimination in integers.  Both give the
plain answers digit for digit (the tests hold :func:`solver_fit` and :func:`interpolation` as
the oracles).

Each failure also reports the **smallest tolerance** that would make the points
consistent: ``max_i |r_i|`` for fixed coefficients, otherwise the Chebyshev (minimax) fit
``min_θ max_i |f(x_i; θ) − y_i|``, solved exactly with z3's optimiser.  Both questions need
the equation to be affine in the free coefficients (``base + c_A*A + c_B*B^2`` is; ``c^2*A``
is not) — otherwise only fixed-coefficient residuals are checked.

Points without a frequency, or missing a value the equation needs, are skipped
(``data-skipped``, info).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from causalcheck.base.errors import CausalCheckError, DSLSyntaxError, InputFormatError
from causalcheck.equation import Equation, format_number
from causalcheck.findings import DataConflict, Finding, FormRefuted, Severity
from causalcheck.graph import FREQ
from causalcheck.records import DataPoint, Hypothesis
from causalcheck.solvers import fastfit
from causalcheck.solvers.datafit import DataFit, Row, exact_decimal, row_residuals, tolerance_bound
from causalcheck.solvers.equations import hypothesis_equation

__all__ = [
    "data_consistency",
    "fit_points",
    "interpolation",
    "point_residuals",
    "solver_fit",
]

_EPS = 1e-9


def _usable(eq: Equation, points: Sequence[DataPoint]) -> tuple[list[DataPoint], list[tuple[str, str]]]:
    ok: list[DataPoint] = []
    skipped: list[tuple[str, str]] = []
    variables = eq.variables  # a tree walk per access
    for p in points:
        if p.freq is None:
            skipped.append((p.id, "no frequency"))
            continue
        missing = [v for v in variables if p.value(v) is None]
        if missing:
            skipped.append((p.id, "no value for " + ", ".join(missing)))
            continue
        ok.append(p)
    return ok, skipped


def _values(p: DataPoint) -> dict[str, float | None]:
    return {**p.props, FREQ: p.freq}


def point_residuals(h: Hypothesis, points: Sequence[DataPoint], eq: Equation) -> dict[str, float]:
    """``prediction - recorded`` per point id, for an equation whose coefficients are all numbers.

    Points that cannot be evaluated are left out.
    """
    out: dict[str, float] = {}
    for p in points:
        if p.freq is None:
            continue
        try:
            out[p.id] = eq.evaluate(_values(p), h.coefficients) - p.freq
        except CausalCheckError:
            continue
    return out


def fit_points(
    eq: Equation,
    points: Sequence[DataPoint],
    fixed: Mapping[str, float | None],
    tolerance: float,
) -> DataFit | None:
    """Can the coefficients not in *fixed* be chosen so *eq* reproduces *points*? (see module doc).

    Returns ``None`` when the equation is not affine in the free coefficients.
    """
    rows: list[Row] = []
    for p in points:
        lf = eq.linear_form(_values(p), fixed)
        if lf is None:
            return None
        const, weights = lf
        assert p.freq is not None
        rows.append((p.id, exact_decimal(const), {k: exact_decimal(w) for k, w in weights.items() if w != 0}, exact_decimal(p.freq)))
    free = sorted({k for _, _, w, _ in rows for k in w})
    if not free:
        residuals = {pid: float(c - y) for pid, c, _, y in rows}
        bad = tuple(pid for pid, r in residuals.items() if abs(r) > tolerance + _EPS * max(1.0, abs(r)))
        worst = max((abs(r) for r in residuals.values()), default=0.0)
        core_worst = max((abs(residuals[b]) for b in bad), default=0.0)
        return DataFit(not bad, bad, worst, core_worst, {}, residuals)

    # the fast twins (integer elimination, the closed form for k + 1 points) give the plain answers
    exact = fastfit.interpolation(rows, free)
    if exact is not None:  # consistent: the points lie exactly on the equation (no solver needed)
        fit = {k: float(v) for k, v in exact.items()}
        res = row_residuals(rows, fit)
        return DataFit(True, (), max((abs(r) for r in res.values()), default=0.0), 0.0, fit, res)
    return fastfit.reference_fit(rows, free, tolerance) or solver_fit(rows, free, tolerance)


def solver_fit(rows: Sequence[Row], free: Sequence[str], tolerance: float) -> DataFit:
    """Question (1)/(2) of the module doc for rows that no coefficients reproduce exactly, asked of z3.

    The plain twin of :func:`causalcheck.solvers.fastfit.reference_fit`: consistency within
    :func:`tolerance_bound`, a model as the example fit when consistent; otherwise the minimax
    fit, a minimal unsat core (deletion-minimised) and the minimax value of that core.
    """
    import z3

    ctx = z3.Context()
    var = {k: z3.Real(f"k{i}", ctx) for i, k in enumerate(free)}

    def expr(const: Fraction, w: dict[str, Fraction], y: Fraction) -> Any:
        e = z3.RealVal(str(const - y), ctx)
        for k, x in w.items():
            e = e + z3.RealVal(str(x), ctx) * var[k]
        return e

    resid = {pid: expr(c, w, y) for pid, c, w, y in rows}
    tol = z3.RealVal(str(tolerance_bound(tolerance)), ctx)

    def chebyshev(ids: Sequence[str]) -> tuple[float, dict[str, float]]:
        opt = z3.Optimize(ctx=ctx)
        t = z3.Real("t", ctx)
        for pid in ids:
            opt.add(resid[pid] <= t, resid[pid] >= -t)
        h = opt.minimize(t)
        if opt.check() != z3.sat:  # pragma: no cover - always feasible
            return float("inf"), {}
        model = opt.model()
        coeffs = {k: _value(model.eval(v, model_completion=True)) for k, v in var.items()}
        value = _to_float(opt.lower(h))
        if value is None:  # pragma: no cover - the optimum of a bounded LP is a rational numeral
            value = max((abs(r) for pid, r in row_residuals(rows, coeffs).items() if pid in ids), default=0.0)
        return value, coeffs

    ids = [pid for pid, *_ in rows]
    solver = z3.SimpleSolver(ctx=ctx)
    literal: dict[str, Any] = {}
    for i, pid in enumerate(ids):
        b = literal[pid] = z3.Bool(f"point_{i}", ctx)
        solver.add(z3.Implies(b, z3.And(resid[pid] <= tol, resid[pid] >= -tol)))
    by_name = {str(b): pid for pid, b in literal.items()}

    if solver.check(*literal.values()) == z3.sat:  # consistent: any model is a fit, no optimisation needed
        model = solver.model()
        fit = {k: _value(model.eval(v, model_completion=True)) for k, v in var.items()}
        res = row_residuals(rows, fit)
        return DataFit(True, (), max((abs(r) for r in res.values()), default=0.0), 0.0, fit, res)
    min_tol, fit = chebyshev(ids)
    residuals = row_residuals(rows, fit)
    core = sorted((by_name[str(b)] for b in solver.unsat_core()), key=ids.index)
    i = 0
    while i < len(core):  # deletion-based minimisation with assumption literals
        trial = core[:i] + core[i + 1 :]
        if trial and solver.check(*[literal[p] for p in trial]) == z3.unsat:
            shrunk = {by_name[str(b)] for b in solver.unsat_core()}
            core = [p for p in trial if p in shrunk]
        else:
            i += 1
    # the minimax value is the optimum of a linear programme, unique: over all points it is known
    core_tol = min_tol if len(core) == len(ids) else chebyshev(core)[0]
    return DataFit(False, tuple(core), min_tol, core_tol, fit, residuals)


def interpolation(
    rows: Sequence[tuple[str, Fraction, Mapping[str, Fraction], Fraction]], free: Sequence[str]
) -> dict[str, Fraction] | None:
    """Coefficients that reproduce every row *exactly*, or ``None`` when there are none.

    Each row ``(id, const, weights, recorded)`` asks ``const + Σ weights[k]·θ_k = recorded``;
    the linear system is solved by Gauss–Jordan elimination in exact rational arithmetic.
    When it has many solutions, the one given is the *basic* solution: the coefficients
    without a pivot (in *free* order) are 0.  A solution proves the points consistent at any
    tolerance, so the solver is not needed; ``None`` decides nothing (the points may still
    fit within the tolerance).

    >>> F = Fraction
    >>> interpolation([("a", F(0), {"base": F(1), "c": F(2)}, F(7))], ["base", "c"])
    {'base': Fraction(7, 1), 'c': Fraction(0, 1)}
    >>> interpolation([("a", F(0), {"c": F(2)}, F(4)), ("b", F(0), {"c": F(2)}, F(5))], ["c"]) is None
    True
    """
    m = len(free)
    matrix = [[w.get(k, Fraction(0)) for k in free] + [y - c] for _, c, w, y in rows]
    pivots: list[int] = []
    r = 0
    for col in range(m):
        pick = next((i for i in range(r, len(matrix)) if matrix[i][col] != 0), None)
        if pick is None:
            continue
        matrix[r], matrix[pick] = matrix[pick], matrix[r]
        lead = matrix[r][col]
        row = matrix[r] = [x / lead for x in matrix[r]]
        for i in range(len(matrix)):
            if i != r and matrix[i][col] != 0:
                factor = matrix[i][col]
                matrix[i] = [a - factor * b for a, b in zip(matrix[i], row, strict=True)]
        pivots.append(col)
        r += 1
    if any(matrix[i][m] != 0 for i in range(r, len(matrix))):  # a row 0 = b with b ≠ 0
        return None
    out = dict.fromkeys(free, Fraction(0))
    for i, col in enumerate(pivots):
        out[free[col]] = matrix[i][m]
    return out


def _to_float(v: Any) -> float | None:
    """A z3 numeral as a float; ``None`` for a value that is not a finite number.

    The optimiser gives an integer numeral (``IntNumRef``) when the optimum is a whole
    number, a rational one otherwise; both are finite.
    """
    import z3

    if z3.is_int_value(v):
        return float(v.as_long())
    if z3.is_rational_value(v):
        return float(Fraction(v.numerator_as_long(), v.denominator_as_long()))
    if z3.is_algebraic_value(v):  # pragma: no cover - linear problems have rational optima
        return float(v.approx(20).as_fraction())
    return None  # pragma: no cover - infinities/epsilons of the optimiser (bounded LPs have none)


def _value(v: Any) -> float:
    """A coefficient of a model (model completion makes every one a finite numeral)."""
    x = _to_float(v)
    if x is None:  # pragma: no cover - LRA models assign rational numbers
        raise ArithmeticError(f"z3 value={v!r} is not a finite number")
    return x


def _fmt(x: float) -> str:
    text: str = format_number(round(x, 6))
    return text


def _about_points(code: str, lead: str, severity: Severity, points: Sequence[tuple[str, str]], shown: str) -> Finding:
    """A finding about recorded points: *lead*, the first five ``(id, why)`` as *shown*, every id as an element."""
    return Finding(
        code,
        severity,
        lead + "; ".join(shown.format(pid, why) for pid, why in points[:5]),
        elements=tuple(pid for pid, _ in points),
    )


def data_consistency(
    h: Hypothesis, points: Sequence[DataPoint], tolerance: float = 0.01, *, form_question: bool = True
) -> tuple[Finding, ...]:
    """``data-mismatch`` / ``equation-refuted`` / ``data-skipped`` findings; never raises on a bad hypothesis.

    ``form_question=False`` skips question 2 (no ``equation-refuted`` finding, no refit in the
    ``data-mismatch`` message): for a caller that needs only whether the stated hypothesis is
    refuted and by which points (the RL reward's consistency term), at a fraction of the cost.
    """
    if not isinstance(tolerance, (int, float)) or isinstance(tolerance, bool) or not tolerance >= 0:
        raise InputFormatError(f"tolerance={tolerance!r} must be a number >= 0")
    if not h.equation.strip() or not points:
        return ()

    try:
        eq = hypothesis_equation(h)
    except DSLSyntaxError:
        return ()  # reported by equation_consistency
    usable, skipped = _usable(eq, points)
    out: list[Finding] = []
    if skipped:
        out.append(_about_points("data-skipped", f"{len(skipped)} data point(s) not checked: ", "info", skipped, "{} ({})"))
    if not usable:
        return tuple(out)
    fixed = {k: v for k, v in h.coefficients.items() if v is not None}
    try:
        stated = fit_points(eq, usable, fixed, tolerance)
    except CausalCheckError:
        # some points cannot be evaluated (division by zero, overflow): name them and check the rest
        failing: list[tuple[str, str]] = []
        for point in usable:
            try:
                fit_points(eq, [point], fixed, tolerance)
            except CausalCheckError as exc:
                failing.append((point.id, str(exc)))
        bad_ids = {pid for pid, _ in failing}
        out.append(
            _about_points(
                "data-not-checked",
                f"the equation cannot be evaluated on {len(failing) or len(usable)} recorded point(s): ",
                "warning",
                failing,
                "{}: {}",
            )
        )
        usable = [pt for pt in usable if pt.id not in bad_ids]
        if not failing or not usable:
            return tuple(out)
        try:
            stated = fit_points(eq, usable, fixed, tolerance)
        except CausalCheckError:
            return tuple(out)
    if stated is None:
        if eq.variables and not set(eq.coefficient_names) - set(fixed):
            res = point_residuals(h, usable, eq)
            bad = tuple(pid for pid, r in res.items() if abs(r) > tolerance + _EPS)
            stated = DataFit(not bad, bad, max(map(abs, res.values()), default=0.0), 0.0, {}, res)
        else:
            out.append(
                Finding(
                    "data-not-checked",
                    "info",
                    "the equation is not linear in its undetermined coefficients; data consistency was not checked",
                )
            )
            return tuple(out)
    if stated.consistent:
        return tuple(out)
    free = [c for c in eq.coefficient_names if c not in fixed]
    ids = stated.conflicting
    if not free:
        recorded = {p.id: float(p.freq or 0.0) for p in usable}
        details = "; ".join(
            f"{pid}: predicted {_fmt(recorded[pid] + stated.residuals[pid])}, "
            f"recorded {_fmt(recorded[pid])} (off by {_fmt(abs(stated.residuals[pid]))})"
            for pid in ids[:5]
        )
        more = f" and {len(ids) - 5} more" if len(ids) > 5 else ""
        msg = (
            f"with the stated coefficients the equation misses {len(ids)} of {len(usable)} recorded point(s) "
            f"by more than {_fmt(tolerance)}: {details}{more}; the smallest tolerance that accepts all points is "
            f"{_fmt(stated.min_tolerance)}"
        )
    else:
        msg = (
            f"no values of the undetermined coefficient(s) {', '.join(free)} make the equation reproduce the points "
            f"{', '.join(ids)} (a minimal conflicting set) within {_fmt(tolerance)}; the smallest tolerance that "
            f"would make all points consistent is {_fmt(stated.min_tolerance)}"
        )
    form = fit_points(eq, usable, {}, tolerance) if eq.coefficient_names and form_question else None
    if form is not None and form.consistent and (fixed or free):
        refit = ", ".join(f"{k}={_fmt(v)}" for k, v in form.coefficients.items())
        msg += f" (other coefficients fit all points, e.g. {refit})"
    out.append(
        Finding(
            "data-mismatch",
            "error",
            msg,
            elements=ids,
            certificate=DataConflict(tuple(ids), stated.min_tolerance, stated.core_min_tolerance, dict(stated.residuals), tolerance),
        )
    )
    if form is not None and not form.consistent:
        out.append(
            Finding(
                "equation-refuted",
                "error",
                f"no coefficients at all make {eq.canonical()!r} reproduce the points {', '.join(form.conflicting)} "
                f"(a minimal conflicting set) within {_fmt(tolerance)}: the data contradict the form of the equation "
                f"(its parents or shape), not only its numbers; the best possible fit still misses by "
                f"{_fmt(form.min_tolerance)}",
                elements=form.conflicting,
                certificate=FormRefuted(tuple(form.conflicting), form.min_tolerance, form.core_min_tolerance, dict(form.coefficients)),
            )
        )
    return tuple(out)
