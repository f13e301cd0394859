"""Agreement statistics between two scorers: Pearson, Spearman, MAE, Cohen's κ, bootstrap CIs.

Used to compare two judges on the same answers (an offline judge against an LLM judge, or
either against human scores — PRISM's Tables 4–5):

* :func:`pearson` — the linear correlation ``r = cov(x, y) / (σx σy)``;
* :func:`spearman` — Pearson's ``r`` of the ranks (ties get their average rank), so it is
  unchanged by any strictly increasing transform of either variable;
* :func:`mae` — the mean absolute difference ``mean |x − y|`` (same scale as the scores);
* :func:`cohen_kappa` — agreement of two yes/no verdict lists beyond chance,
  ``κ = (p_o − p_e) / (1 − p_e)`` with ``p_e`` from the two raters' marginal rates;
* :func:`confusion` — the 2×2 table of two verdict lists, with precision and recall of the
  second against the first;
* :func:`bootstrap` — a percentile bootstrap interval of any of these, resampling *pairs*
  with a seeded ``numpy.random.Generator``.

Values must be finite numbers of magnitude at most
:data:`~causalcheck.base.limits.MAX_MAGNITUDE` (an :class:`~causalcheck.base.errors.InputFormatError`
otherwise), so no statistic can overflow.  Undefined values are ``None``, never ``nan``: a correlation needs two or more pairs and
variance on both sides; κ is ``None`` when chance agreement is already 1 (both raters gave
one constant verdict).

>>> pearson([1, 2, 3], [2, 4, 6])
1.0
>>> spearman([1, 2, 3], [1, 4, 9])
1.0
>>> mae([0.5, 1.0], [0.25, 1.0])
0.125
>>> cohen_kappa([True, True, False, False], [True, False, False, False])
0.5
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from causalcheck.base.errors import InputFormatError
from causalcheck.base.limits import bounded_number
from causalcheck.metrics import (
    MIN_BOOTSTRAP_N,
    check_bootstrap,
    percentile_bounds,
    resample_indices,
)

__all__ = [
    "Interval",
    "VerdictConfusion",
    "bootstrap",
    "cohen_kappa",
    "confusion",
    "mae",
    "pearson",
    "ranks",
    "spearman",
]


def _pairs(x: Sequence[float], y: Sequence[float]) -> tuple[list[float], list[float]]:
    if len(x) != len(y):
        raise InputFormatError(f"len(x)={len(x)!r} must equal len(y)={len(y)!r} (paired values)")
    # bounded (|v| <= MAX_MAGNITUDE): no sum, square or difference below can overflow
    xs = [bounded_number(v, "value") for v in x]
    ys = [bounded_number(v, "value") for v in y]
    return xs, ys


def pearson(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Pearson's r of paired values; ``None`` with fewer than 2 pairs or a constant side.

    The result is clamped to [−1, 1] (rounding can step past the bounds).
    """
    xs, ys = _pairs(x, y)
    n = len(xs)
    if n < 2:
        return None
    if min(xs) == max(xs) or min(ys) == max(ys):  # constant (the mean may round off the value)
        return None
    mx, my = math.fsum(xs) / n, math.fsum(ys) / n
    dx = [v - mx for v in xs]
    dy = [v - my for v in ys]
    # r does not change with the scale of either side: scale deviations to at most 1 so that
    # squares of tiny (or huge) deviations neither underflow nor overflow
    kx, ky = max(abs(d) for d in dx), max(abs(d) for d in dy)
    if kx == 0 or ky == 0:
        return None
    dx = [d / kx for d in dx]
    dy = [d / ky for d in dy]
    sxx = math.fsum(d * d for d in dx)
    syy = math.fsum(d * d for d in dy)
    r = math.fsum(a * b for a, b in zip(dx, dy, strict=True)) / math.sqrt(sxx * syy)  # sxx, syy >= 1 now
    return max(-1.0, min(1.0, r))


def ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties sharing their average rank.

    >>> ranks([10, 20, 20, 5])
    [2.0, 3.5, 3.5, 1.0]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        avg = (i + j) / 2 + 1
        for k in range(i, j + 1):
            out[order[k]] = avg
        i = j + 1
    return out


def spearman(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Spearman's ρ: Pearson's r of the (average-tie) ranks; ``None`` when undefined."""
    xs, ys = _pairs(x, y)
    return pearson(ranks(xs), ranks(ys))


def mae(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Mean absolute difference of paired values; ``None`` without pairs."""
    xs, ys = _pairs(x, y)
    if not xs:
        return None
    return math.fsum(abs(a - b) for a, b in zip(xs, ys, strict=True)) / len(xs)


@dataclass(frozen=True)
class VerdictConfusion:
    """The 2×2 table of verdicts *b* against reference verdicts *a* (``yes`` = True)."""

    both_yes: int
    a_only: int
    b_only: int
    both_no: int

    @property
    def n(self) -> int:
        return self.both_yes + self.a_only + self.b_only + self.both_no

    @property
    def precision(self) -> float | None:
        """Share of *b*'s yes verdicts that *a* also gave (``None`` when *b* said no yes)."""
        said = self.both_yes + self.b_only
        return self.both_yes / said if said else None

    @property
    def recall(self) -> float | None:
        """Share of *a*'s yes verdicts that *b* also gave (``None`` when *a* said no yes)."""
        said = self.both_yes + self.a_only
        return self.both_yes / said if said else None

    @property
    def kappa(self) -> float | None:
        """Cohen's κ of the table (``None`` when chance agreement is 1 or the table is empty)."""
        n = self.n
        if n == 0:
            return None
        po = (self.both_yes + self.both_no) / n
        a_yes = (self.both_yes + self.a_only) / n
        b_yes = (self.both_yes + self.b_only) / n
        pe = a_yes * b_yes + (1 - a_yes) * (1 - b_yes)
        if pe >= 1:
            return None
        return max(-1.0, min(1.0, (po - pe) / (1 - pe)))


def confusion(a: Sequence[bool], b: Sequence[bool]) -> VerdictConfusion:
    """The :class:`VerdictConfusion` table of paired verdicts (*a* is the reference)."""
    if len(a) != len(b):
        raise InputFormatError(f"len(a)={len(a)!r} must equal len(b)={len(b)!r} (paired verdicts)")
    tp = sum(1 for u, v in zip(a, b, strict=True) if u and v)
    fn = sum(1 for u, v in zip(a, b, strict=True) if u and not v)
    fp = sum(1 for u, v in zip(a, b, strict=True) if v and not u)
    return VerdictConfusion(tp, fn, fp, len(a) - tp - fn - fp)


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's κ of two paired yes/no verdict lists (symmetric in *a* and *b*)."""
    return confusion(a, b).kappa


@dataclass(frozen=True)
class Interval:
    """A statistic with its percentile bootstrap interval (``low`` / ``high`` ``None`` when not computed)."""

    value: float | None
    low: float | None
    high: float | None
    n: int

    def to_json(self) -> dict[str, float | int | None]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n}


def bootstrap(
    stat: Callable[[Sequence[float], Sequence[float]], float | None],
    x: Sequence[float],
    y: Sequence[float],
    *,
    resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> Interval:
    """*stat* of the pairs with a percentile bootstrap interval over resampled pairs.

    Resamples where *stat* is undefined (e.g. a constant resample for a correlation) are
    skipped; with fewer than :data:`~causalcheck.metrics.MIN_BOOTSTRAP_N` pairs, ``resamples == 0``
    or no defined resample, only the value is given.  Same inputs and *seed* → the same interval.
    """
    check_bootstrap(resamples, level)
    xs, ys = _pairs(x, y)
    value = stat(xs, ys)
    n = len(xs)
    if value is None or resamples == 0 or n < MIN_BOOTSTRAP_N:
        return Interval(value, None, None, n)
    import numpy as np

    ax, ay = np.asarray(xs), np.asarray(ys)
    values = []
    for row in resample_indices(n, resamples, seed):
        v = stat(ax[row].tolist(), ay[row].tolist())
        if v is not None:
            values.append(v)
    if not values:
        return Interval(value, None, None, n)
    low, high = percentile_bounds(values, level)
    return Interval(value, low, high, n)
