"""Conditional-independence tests on a :class:`~causalcheck.graphs.data.DataTable`, with a cache.

The p-values come from causal-learn's ``causallearn.utils.cit.CIT``:

============  ================================================  =====================
``ci_test``   test                                              data
============  ================================================  =====================
``fisherz``   Fisher's z of the partial correlation             continuous (Gaussian)
``chisq``     Pearson's χ² on the stratified contingency table   discrete
``gsq``       the likelihood-ratio G² on the same table          discrete
``kci``       the kernel CI test (Zhang et al. 2011)            any (slow: O(n³))
============  ================================================  =====================

``"auto"`` picks ``chisq`` for a discrete table and ``fisherz`` otherwise.
:class:`CITester` keys its cache on *(unordered pair, conditioning set)*, so a statement
asked again — from another node's side, or by another permuted graph — is never re-tested;
``tests_run`` counts the tests actually computed.  :meth:`CITester.certificate` adds the
statistic behind a p-value: the partial correlation and ``z = √(n − |S| − 3)·|atanh r|`` for
Fisher-z, the statistic and degrees of freedom for χ²/G² (causal-learn's rule: rows and
columns of zeros in a stratum lose their degree of freedom), the test statistic for KCI.

Multiple testing (:func:`adjust`): Holm's step-down (family-wise error rate; the default in
the validator, since every rejection is reported as an error) or Benjamini–Hochberg's
step-up (false-discovery rate), each returning adjusted p-values.

>>> adjust([0.01, 0.04, 0.03], "holm"), adjust([0.01, 0.04, 0.03], "bh")
([0.03, 0.06, 0.06], [0.03, 0.04, 0.04])
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from causalcheck.base.errors import InputFormatError
from causalcheck.graphs.data import DataTable

__all__ = ["CI_TESTS", "CITestName", "CITester", "Correction", "TestCertificate", "adjust", "resolve_test"]

CITestName = Literal["fisherz", "chisq", "gsq", "kci"]
#: The tests :class:`CITester` runs (``"auto"`` resolves to one of them).
CI_TESTS: tuple[str, ...] = ("fisherz", "chisq", "gsq", "kci")
Correction = Literal["holm", "bh", "none"]


def resolve_test(name: str, table: DataTable) -> CITestName:
    """*name* checked; ``"auto"`` becomes ``"chisq"`` for discrete data and ``"fisherz"`` otherwise."""
    if name == "auto":
        return "chisq" if table.discrete else "fisherz"
    if name not in CI_TESTS:
        raise InputFormatError(f"ci_test={name!r} must be 'auto' or one of {list(CI_TESTS)!r}")
    return name  # type: ignore[return-value]


def adjust(pvalues: Sequence[float], method: str = "holm") -> list[float]:
    """Adjusted p-values: ``"holm"`` (step-down), ``"bh"`` (Benjamini–Hochberg step-up) or ``"none"``."""
    m = len(pvalues)
    if method == "none":
        return [float(p) for p in pvalues]
    if method not in ("holm", "bh"):
        raise InputFormatError(f"correction={method!r} must be 'holm', 'bh' or 'none'")
    order = sorted(range(m), key=lambda i: (pvalues[i], i))
    out = [0.0] * m
    if method == "holm":
        running = 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (m - rank) * pvalues[i]))
            out[i] = running
        return out
    running = 1.0
    for rank in range(m - 1, -1, -1):
        i = order[rank]
        running = min(running, m * pvalues[i] / (rank + 1))
        out[i] = min(1.0, running)
    return out


@dataclass(frozen=True)
class TestCertificate:
    """What a test computed for one statement: the statistic, its name and degrees of freedom, p."""

    test: str
    statistic: float
    statistic_name: str
    p_value: float
    dof: int | None = None
    partial_correlation: float | None = None
    n: int = 0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "test": self.test,
            "statistic": self.statistic,
            "statistic_name": self.statistic_name,
            "p_value": self.p_value,
            "dof": self.dof,
            "partial_correlation": self.partial_correlation,
            "n": self.n,
        }


Key = tuple[int, int, frozenset[int]]


class CITester:
    """Cached CI tests over the columns of *table* (indices ``0..p-1``), run by causal-learn."""

    def __init__(self, table: DataTable, test: str = "auto", **kwargs: Any) -> None:
        from causallearn.utils.cit import CIT

        self.table = table
        self.test: CITestName = resolve_test(test, table)
        self._cit = CIT(table.values, method=self.test, **kwargs)
        self._cache: dict[Key, float] = {}
        self.tests_run = 0

    @staticmethod
    def key(x: int, y: int, given: Sequence[int] | frozenset[int]) -> Key:
        """The cache key of ``x ⫫ y | given`` (symmetric in x and y, order-free in given)."""
        return (x, y, frozenset(given)) if x < y else (y, x, frozenset(given))

    def cached(self, x: int, y: int, given: Sequence[int] | frozenset[int]) -> float | None:
        """The p-value if this statement was tested already, else None."""
        return self._cache.get(self.key(x, y, given))

    def pvalue(self, x: int, y: int, given: Sequence[int] | frozenset[int] = ()) -> float:
        """The p-value of ``x ⫫ y | given`` (cached)."""
        k = self.key(x, y, given)
        p = self._cache.get(k)
        if p is None:
            try:
                p = float(self._cit(k[0], k[1], sorted(k[2])))
            except ValueError as exc:  # causal-learn: singular correlation matrix
                names = self.table.names
                raise InputFormatError(
                    f"the {self.test} test of {names[k[0]]} ⫫ {names[k[1]]} | {[names[g] for g in sorted(k[2])]!r} failed: {exc} "
                    "(collinear columns?)"
                ) from None
            if math.isnan(p):
                p = 1.0
            self._cache[k] = p
            self.tests_run += 1
        return p

    def certificate(self, x: int, y: int, given: Sequence[int] = ()) -> TestCertificate:
        """The statistic behind the p-value of ``x ⫫ y | given``."""
        import numpy as np

        p = self.pvalue(x, y, given)
        s = sorted(set(given))
        n = self.table.rows
        if self.test == "fisherz":
            idx = [x, y, *s]
            corr = np.corrcoef(self.table.values[:, idx].T)
            inv = np.linalg.inv(corr)
            r = float(-inv[0, 1] / math.sqrt(abs(inv[0, 0] * inv[1, 1])))
            r = max(min(r, 1 - 1e-15), -1 + 1e-15)
            z = math.sqrt(max(n - len(s) - 3, 0)) * abs(math.atanh(r))
            return TestCertificate("fisherz", z, "z", p, None, r, n)
        if self.test in ("chisq", "gsq"):
            stat, dof = _contingency_statistic(self.table.values, x, y, s, g_squared=self.test == "gsq")
            return TestCertificate(self.test, stat, "G2" if self.test == "gsq" else "chi2", p, dof, None, n)
        data = self.table.values
        if s:
            _, stat = self._cit.kci_ci.compute_pvalue(data[:, [x]], data[:, [y]], data[:, s])
        else:
            _, stat = self._cit.kci_ui.compute_pvalue(data[:, [x]], data[:, [y]])
        return TestCertificate("kci", float(stat), "kci", p, None, None, n)


def _contingency_statistic(values: Any, x: int, y: int, given: Sequence[int], *, g_squared: bool) -> tuple[float, int]:
    """χ² (or G²) and its degrees of freedom over the strata of *given* (causal-learn's conventions)."""
    import numpy as np

    def codes(col: Any) -> Any:
        return np.unique(col, return_inverse=True)[1].ravel()

    cx, cy = codes(values[:, x]), codes(values[:, y])
    kx, ky = int(cx.max()) + 1, int(cy.max()) + 1
    if given:
        strata = np.unique(np.column_stack([codes(values[:, g]) for g in given]), axis=0, return_inverse=True)[1].ravel()
    else:
        strata = np.zeros(len(cx), dtype=int)
    ks = int(strata.max()) + 1
    table = np.zeros((ks, kx, ky))
    np.add.at(table, (strata, cx, cy), 1)
    total = table.sum(axis=(1, 2))
    expected = table.sum(axis=2)[:, :, None] * table.sum(axis=1)[:, None, :] / np.where(total == 0, 1, total)[:, None, None]
    zero = expected == 0
    safe = np.where(zero, 1, expected)
    if g_squared:
        ratio = np.where(table == 0, 1, table / safe)
        stat = float(2 * np.sum(table * np.log(ratio)))
    else:
        stat = float(np.sum((table - expected) ** 2 / safe))
    zero_rows = zero.all(axis=2).sum(axis=1)
    zero_cols = zero.all(axis=1).sum(axis=1)
    dof = int(np.sum((kx - 1 - zero_rows) * (ky - 1 - zero_cols)))
    return stat, dof
