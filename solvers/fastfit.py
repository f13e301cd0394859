"""The fast twin of :func:`causalcheck.solvers.data_consistency.solver_fit` for one common case.

The solver question for points that no coefficients reproduce exactly goes to z3: is there a
fit within the tolerance, and if not, the minimax (Chebyshev) fit, a minimal conflicting set
and the minimax value of that set.  Most agents state one point more than their equation has
free coefficients (three entries, ``base + c*x``), and then the answer has a closed form
(Cheney, *Introduction to Approximation Theory*, ch. 2, the "reference" of the exchange
algorithm).  Write the points as ``r = Aθ − b`` (``A``: the weights, one row per point; ``b``:
recorded minus constant) with ``n = k + 1`` rows and ``k`` free coefficients:

* if ``A`` has rank ``k``, its left null space is spanned by ``λ``, ``λ_i = (−1)^i det A₋ᵢ``
  (``A`` without row ``i``); since ``λᵀr = −λᵀb``, every fit misses some point by at least
  ``t* = |λᵀb| / ‖λ‖₁``, and a fit reaches ``t*`` exactly when ``r_i = −sgn(λᵀb)·sgn(λ_i)·t*``
  for every ``i`` with ``λ_i ≠ 0``;
* if moreover every ``λ_i ≠ 0``, those residuals fix ``r``, so the minimax fit ``θ`` is
  *unique* (``A`` has full column rank) — z3's optimiser can only return it — and any ``k``
  of the points are independent, so every proper subset is reproduced exactly: when
  ``t*`` exceeds the tolerance bound the only minimal conflicting set is all the points, and
  its minimax value is ``t*`` again.

That case is decided here in exact rational arithmetic, with the same numbers z3 gives
(``float`` of the same exact rationals, residuals by the same float arithmetic).  Everything
else — more points, a rank-deficient ``A``, some ``λ_i = 0`` (the minimax fit is not unique), or
points that fit within the tolerance (z3's model is the example fit) — returns ``None`` and
goes to the plain twin.  ``tests/test_solvers_fastfit.py`` and
``properties/test_solvers_fastfit_properties.py`` hold the plain twin as the oracle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import gcd, lcm

from causalcheck.solvers.datafit import DataFit, Row, row_residuals, tolerance_bound

__all__ = ["interpolation", "reference_fit", "reference_weights"]

_ZERO = Fraction(0)


def interpolation(
    rows: Sequence[tuple[str, Fraction, Mapping[str, Fraction], Fraction]], free: Sequence[str]
) -> dict[str, Fraction] | None:
    """:func:`causalcheck.solvers.data_consistency.interpolation` in integer arithmetic: the same answer.

    Each row is scaled to integers (by the least common multiple of its denominators) and
    eliminated fraction-free (``row_i ← lead·row_i − factor·row_r``, then divided by the gcd of
    its entries): every row stays a positive multiple of the plain twin's row, so the zero
    pattern, the pivots, the row swaps and hence the basic solution are the same, and only
    the solution's entries become fractions.
    """
    m = len(free)
    matrix: list[list[int]] = []
    for _, c, w, y in rows:
        values = [w.get(k, _ZERO) for k in free]
        values.append(y - c)
        scale = lcm(*(v.denominator for v in values))
        matrix.append([v.numerator * (scale // v.denominator) for v in values])
    pivots: list[int] = []
    r = 0
    for col in range(m):
        pick = next((i for i in range(r, len(matrix)) if matrix[i][col] != 0), None)
        if pick is None:
            continue
        matrix[r], matrix[pick] = matrix[pick], matrix[r]
        row = matrix[r]
        lead = row[col]
        for i in range(len(matrix)):
            factor = matrix[i][col]
            if i != r and factor != 0:
                new = [lead * a - factor * b for a, b in zip(matrix[i], row, strict=True)]
                g = gcd(*new)
                matrix[i] = [x // g for x in new] if g > 1 else new
        pivots.append(col)
        r += 1
    if any(matrix[i][m] != 0 for i in range(r, len(matrix))):  # a row 0 = b with b ≠ 0
        return None
    out = dict.fromkeys(free, _ZERO)
    for i, col in enumerate(pivots):
        out[free[col]] = Fraction(matrix[i][m], matrix[i][col])
    return out


def _det(m: list[list[Fraction]]) -> Fraction:
    """The determinant of a square matrix (Gaussian elimination in exact arithmetic)."""
    m = [list(r) for r in m]
    n = len(m)
    det = Fraction(1)
    for col in range(n):
        pick = next((i for i in range(col, n) if m[i][col] != 0), None)
        if pick is None:
            return Fraction(0)
        if pick != col:
            m[col], m[pick] = m[pick], m[col]
            det = -det
        lead = m[col][col]
        det *= lead
        for i in range(col + 1, n):
            if m[i][col] != 0:
                f = m[i][col] / lead
                m[i] = [a - f * b for a, b in zip(m[i], m[col], strict=True)]
    return det


def reference_weights(matrix: Sequence[Sequence[Fraction]]) -> list[Fraction]:
    """``λ_i = (−1)^i det A₋ᵢ`` for a ``(k+1) × k`` matrix: ``λᵀA = 0``; all zero iff rank ``A < k``.

    >>> F = Fraction
    >>> reference_weights([[F(1), F(0)], [F(1), F(1)], [F(1), F(2)]])
    [Fraction(1, 1), Fraction(-2, 1), Fraction(1, 1)]
    """
    rows = [list(r) for r in matrix]
    return [(-1) ** i * _det(rows[:i] + rows[i + 1 :]) for i in range(len(rows))]


def reference_fit(rows: Sequence[Row], free: Sequence[str], tolerance: float) -> DataFit | None:
    """:func:`~causalcheck.solvers.data_consistency.solver_fit`'s answer when the closed form decides it, else ``None``.

    Decided: ``len(rows) == len(free) + 1`` distinct point ids, every ``λ_i ≠ 0`` and the
    minimax value above :func:`~causalcheck.solvers.data_consistency.tolerance_bound` (see the
    module doc); the result is then a conflict of all the points.
    """
    k = len(free)
    if len(rows) != k + 1 or len({pid for pid, *_ in rows}) != len(rows):
        return None
    matrix = [[w.get(c, Fraction(0)) for c in free] for _, _, w, _ in rows]
    lam = reference_weights(matrix)
    if any(x == 0 for x in lam):
        return None
    gap = sum((x * (y - c) for x, (_, c, _, y) in zip(lam, rows, strict=True)), Fraction(0))  # λᵀb
    t = abs(gap) / sum(abs(x) for x in lam)
    if t <= tolerance_bound(tolerance):
        return None  # the points fit within the tolerance: z3's model is the example fit
    sign = 1 if gap > 0 else -1
    shifted = [(pid, c, w, y - sign * (t if x > 0 else -t)) for x, (pid, c, w, y) in zip(lam, rows, strict=True)]
    theta = interpolation(shifted, free)
    if theta is None:  # pragma: no cover - λᵀ(b + r) = 0 and rank k: always solvable
        return None
    fit = {c: float(theta[c]) for c in free}
    t_float = float(t)
    return DataFit(False, tuple(pid for pid, *_ in rows), t_float, t_float, fit, row_residuals(rows, fit))
