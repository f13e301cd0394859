"""Structural equations against noisy data: one least-squares fit per node on its parents.

For every node ``v`` of a DAG with parents ``Pa(v)`` the linear structural equation
``v = b0 + Σ b_p · p + ε`` is fitted by ordinary least squares, and the noise ``ε`` is
described by its residual scale ``σ̂ = √(RSS / (n − k − 1))``, the share of variance
explained ``R²`` and the Jarque–Bera test of Gaussian residuals (LiNGAM needs them
non-Gaussian; Fisher-z assumes them Gaussian).  When the hypothesis states a coefficient —
``coefficients={("X", "Y"): 0.8}`` for ``Y = ... + 0.8·X`` — it is compared with the
estimate by a two-sided t-test, ``t = (b̂ − b) / se(b̂)`` with ``n − k − 1`` degrees of
freedom; the validator reports a rejection (after multiple-testing control over all stated
coefficients) as ``coefficient-mismatch``.

This is the noisy-data counterpart of :mod:`causalcheck.solvers.data_consistency`, which
asks, exactly and without noise, whether CausaLab's simulator data are reproduced by an
equation within the rounding tolerance; that check stays as it is for the lab.

>>> import numpy as np
>>> from causalcheck.graphs.data import load_data
>>> from causalcheck.graphs.formats import parse_text
>>> rng = np.random.default_rng(0)
>>> x = rng.normal(size=500); y = 2.0 * x + rng.normal(size=500)
>>> fits = fit_equations(parse_text("x -> y"), load_data({"x": x, "y": y}, ["x", "y"]), {("x", "y"): 2.0})
>>> f = fits[1]; f.node, round(f.coefficients[0].estimate, 1), f.coefficients[0].p_value > 0.05
('y', 2.0, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.citests import column_exponents, scaled_columns
from causalcheck.graphs.data import DataTable
from causalcheck.graphs.model import Graph

__all__ = ["CoefficientFit", "EquationFit", "fit_equations"]


@dataclass(frozen=True)
class CoefficientFit:
    """The estimate of one parent's coefficient, and the t-test of its stated value (if any)."""

    parent: str
    estimate: float
    std_error: float
    stated: float | None = None
    t: float | None = None
    p_value: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "parent": self.parent,
            "estimate": self.estimate,
            "std_error": self.std_error,
            "stated": self.stated,
            "t": self.t,
            "p_value": self.p_value,
        }


@dataclass(frozen=True)
class EquationFit:
    """The least-squares fit of one node on its parents, with its noise model."""

    node: str
    parents: tuple[str, ...]
    intercept: float
    coefficients: tuple[CoefficientFit, ...]
    residual_scale: float
    r_squared: float
    n: int
    dof: int
    jarque_bera: float
    normality_p: float

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "node": self.node,
            "parents": list(self.parents),
            "intercept": self.intercept,
            "coefficients": [c.to_dict() for c in self.coefficients],
            "residual_scale": self.residual_scale,
            "r_squared": self.r_squared,
            "n": self.n,
            "dof": self.dof,
            "jarque_bera": self.jarque_bera,
            "normality_p": self.normality_p,
        }


def jarque_bera(residuals: Any) -> tuple[float, float]:
    """Jarque–Bera's normality statistic ``n/6·(S² + K²/4)`` (skewness S, excess kurtosis K) and its χ²₂ p-value.

    Computed as ``scipy.stats.jarque_bera`` does (the same moments, bit for bit; NaN for a
    constant sample), without importing scipy: the p-value is ``exp(−statistic/2)``, within
    1e-14 (relative) of scipy's ``chdtrc(2, ·)``.

    >>> import numpy as np
    >>> [round(v, 6) for v in jarque_bera(np.array([1.0, 2.0, 3.0, 4.0, 10.0]))]
    [1.089363, 0.580026]
    """
    import numpy as np

    x = np.asarray(residuals, dtype=float).ravel()
    centred = x - np.mean(x, keepdims=True)
    mean = np.mean(centred, keepdims=True)
    a = centred - mean
    a2 = a**2
    m2, m3, m4 = np.mean(a2), np.mean(a2 * a), np.mean(a2**2)
    constant = m2 <= (np.finfo(float).eps * mean[0]) ** 2
    skew = math.nan if constant else m3 / m2**1.5
    kurtosis = (math.nan if constant else m4 / m2**2.0) - 3
    statistic = float(x.size) / 6 * (skew**2 + kurtosis**2 / 4)
    # χ²₂'s survival function is exp(−x/2) (scipy's chdtrc(2, x), without importing scipy.special)
    return float(statistic), _chi2_2_survival(float(statistic))


def _chi2_2_survival(statistic: float) -> float:
    """``P(χ²₂ > statistic) = exp(−statistic/2)``: 1 at or below 0, NaN for NaN."""
    if statistic != statistic:
        return math.nan
    return 1.0 if statistic <= 0 else math.exp(-statistic / 2)


def fit_equations(
    dag: Graph, table: DataTable, coefficients: Mapping[tuple[str, str], float] | None = None
) -> tuple[EquationFit, ...]:
    """One :class:`EquationFit` per node of *dag* (in node order), on the columns of *table*.

    *coefficients* maps ``(parent, child)`` to a stated value; pairs that are not edges of
    *dag* are ignored here (the validator reports them).
    """
    import numpy as np

    if tuple(table.names) != tuple(dag.nodes):
        raise InputFormatError(f"the data columns {list(table.names)!r} must be the DAG's nodes {list(dag.nodes)!r}")
    stated = dict(coefficients or {})
    pos = dag.index
    # a column of extreme magnitude (one cell of 1e300) is fitted divided by a power of two and the
    # estimates multiplied back: exact, where its squares would overflow to inf and NaN
    # one column-major copy: the fits below read whole columns, which a row-major table strides through
    exps = column_exponents(table.values)
    data = np.asfortranarray(scaled_columns(table.values, exps)[0])
    n = table.rows
    out = []
    for v in dag.nodes:
        pa = tuple(sorted(dag.parents(v), key=pos.__getitem__))
        ev = exps[pos[v]]
        y = data[:, pos[v]]
        design = np.column_stack([np.ones(n), *(data[:, pos[p]] for p in pa)])
        k = len(pa)
        dof = n - k - 1
        if dof < 1:
            raise InputFormatError(f"{n} rows are too few to fit {v!r} on its {k} parents {list(pa)!r}")
        beta, *_ = np.linalg.lstsq(design, y, rcond=None)
        resid = y - design @ beta
        rss = float(resid @ resid)
        tss = float(((y - y.mean()) ** 2).sum())
        sigma2 = rss / dof
        try:
            cov = sigma2 * np.linalg.inv(design.T @ design)
        except np.linalg.LinAlgError:
            raise InputFormatError(f"the parents {list(pa)!r} of {v!r} are collinear in the data") from None
        coefs = []
        for i, p in enumerate(pa, start=1):
            unit = ev - exps[pos[p]]
            est, se = math.ldexp(float(beta[i]), unit), math.ldexp(math.sqrt(max(float(cov[i, i]), 0.0)), unit)
            value = stated.get((p, v))
            t = pv = None
            if value is not None:
                t = (est - float(value)) / se if se > 0 else (0.0 if est == value else math.inf)
                # scipy.special's stdtr is scipy.stats.t's tail, without importing scipy.stats (a
                # second); imported only here, for a stated coefficient (scipy.special: tenths of a second)
                from scipy.special import stdtr

                pv = float(2 * stdtr(dof, -abs(t)))  # scipy.stats.t.sf(|t|, dof), doubled
            coefs.append(CoefficientFit(p, est, se, None if value is None else float(value), t, pv))
        jb_statistic, jb_p = jarque_bera(resid)
        out.append(
            EquationFit(
                node=v,
                parents=pa,
                intercept=math.ldexp(float(beta[0]), ev),
                coefficients=tuple(coefs),
                residual_scale=math.ldexp(math.sqrt(sigma2), ev),
                r_squared=1 - rss / tss if tss > 0 else 0.0,
                n=n,
                dof=dof,
                jarque_bera=jb_statistic,
                normality_p=jb_p,
            )
        )
    return tuple(out)
