"""The values of one data-fit question: its answer (:class:`DataFit`), its rows and their exact arithmetic.

:mod:`causalcheck.solvers.data_consistency` (the plain path, z3 as the last word) and its fast twin
:mod:`causalcheck.solvers.fastfit` both speak in these values, so neither imports the other's internals.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from causalcheck.base.errors import InputFormatError

__all__ = ["EXACT_INT", "DataFit", "Row", "exact_decimal", "row_residuals", "tolerance_bound"]


@dataclass(frozen=True)
class DataFit:
    """The answer to one consistency question.

    Attributes:
        consistent: some values of the free coefficients reproduce every point within tolerance.
        conflicting: ids of a minimal set of points that cannot all be reproduced (``()`` if consistent).
        min_tolerance: the smallest tolerance that would make all points consistent (when
            consistent with free coefficients: the largest residual of the fit found, which is
            within the tolerance but not necessarily the minimax value).
        core_min_tolerance: the same for the conflicting points alone.  Both are finite numbers
            (exact optima converted to floats), so a result that holds them is strict JSON.
        coefficients: a minimax fit of the free coefficients (empty when none are free).
        residuals: ``prediction - recorded`` per point id under that fit.
    """

    consistent: bool
    conflicting: tuple[str, ...] = ()
    min_tolerance: float = 0.0
    core_min_tolerance: float = 0.0
    coefficients: Mapping[str, float] = field(default_factory=dict)
    residuals: Mapping[str, float] = field(default_factory=dict)


def exact_decimal(x: float) -> Fraction:
    """The decimal a float prints as, exactly (``0.1`` is 1/10, not the nearest binary fraction)."""
    x = float(x)
    if not math.isfinite(x):  # an overflowing evaluation: the point cannot be checked (a finding, not an exception)
        raise InputFormatError(f"value={x!r} is not a finite number")
    if x.is_integer() and -EXACT_INT < x < EXACT_INT:  # prints as the integer itself: skip the string parse
        return Fraction(int(x))
    return Fraction(repr(x))


#: Below this an integral float's repr is its integer value digit for digit.
EXACT_INT = 1e15


Row = tuple[str, Fraction, dict[str, Fraction], Fraction]
"""One point as ``(id, const, weights, recorded)``: ``const + Σ weights[k]·θ_k`` should equal ``recorded``."""


def row_residuals(rows: Sequence[Row], fit: Mapping[str, float]) -> dict[str, float]:
    """``prediction - recorded`` per row id under the coefficients *fit* (float arithmetic)."""
    return {pid: float(c - y) + sum(float(x) * fit.get(k, 0.0) for k, x in w.items()) for pid, c, w, y in rows}


def tolerance_bound(tolerance: float) -> Fraction:
    """The exact bound a residual must stay within: *tolerance* as it prints, plus 10⁻⁹ (float noise)."""
    return exact_decimal(tolerance) + Fraction(1, 10**9)
