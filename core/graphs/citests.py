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

``"auto"`` (:func:`choose_test`) looks at the data and says why: ``chisq`` when every column is
categorical (text, ``category``, bool) or an integer with at most
:data:`~causalcheck.graphs.data.MAX_DISCRETE_LEVELS` levels and the rows fill the contingency
table of the two widest columns (``n ≥ 10·(k₁−1)(k₂−1)``); ``fisherz`` when the columns are
numbers (integers with more levels, or too few rows for their tables, are read as numbers); a
categorical column of more than two levels next to real-valued ones is *mixed* data, refused
with the choices (``kci``, discretise, or ``fisherz`` on the codes).

Power.  A statement the data cannot decide is *undecidable* (:meth:`CITester.undecidable`
gives the reason) and :meth:`CITester.pvalue` returns 1 for it — pcalg's convention for its
G² tests (no evidence against the independence), so no verdict rests on a test without
power: Fisher-z with fewer than :data:`MIN_FISHERZ_DOF` residual degrees of freedom
(``n − |S| − 3``) or a singular correlation matrix (collinear columns, named); χ²/G² with
fewer than :data:`ROWS_PER_DOF` rows per degree of freedom (pcalg's ``n ≥ 10·df``), none
(x or y constant within every stratum), or a sparse table (Cochran's rule over the cells
with a positive expected count: a cell expected below 1, or more than a fifth below 5 — the
χ² approximation then rejects far above its level); KCI with fewer than :data:`MIN_KCI_ROWS` rows.
A test whose statistic is not a number is undecidable too, its columns named (never a silent
p = 1).  Fisher-z reads a column of extreme magnitude (beyond ``2**±SCALE_EXPONENT``, where
one cell of ``1e300`` made every square overflow) divided by a power of two — exact, and a
correlation does not depend on scale (:func:`scaled_columns`; the validator names the columns
in a ``data-encoded`` note).
:meth:`CITester.raw_pvalue` is the test's own p-value.
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
from causalcheck.graphs.data import MAX_DISCRETE_LEVELS, DataTable

__all__ = [
    "CI_TESTS", "MIN_FISHERZ_DOF", "MIN_KCI_ROWS", "ROWS_PER_DOF", "SCALE_EXPONENT", "CITestName", "CITester", "Correction",
    "TestCertificate", "TestChoice", "adjust", "choose_test", "collinear_columns", "column_exponents", "resolve_test", "scaled_columns",
]

CITestName = Literal["fisherz", "chisq", "gsq", "kci"]
#: The tests :class:`CITester` runs (``"auto"`` resolves to one of them).
CI_TESTS: tuple[str, ...] = ("fisherz", "chisq", "gsq", "kci")
Correction = Literal["holm", "bh", "none"]
#: Fisher-z decides a statement only with at least this many residual degrees of freedom, n − |S| − 3.
MIN_FISHERZ_DOF = 10
#: χ² and G² decide a statement only with at least this many rows per degree of freedom (pcalg: n ≥ 10·df).
ROWS_PER_DOF = 10
#: KCI decides a statement only with at least this many rows.
MIN_KCI_ROWS = 20


@dataclass(frozen=True)
class TestChoice:
    """The test run, what was asked (``"auto"`` or a name) and why this test."""

    test: CITestName
    asked: str
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"test": self.test, "asked": self.asked, "reason": self.reason}


def _span(names: Sequence[str], levels: Sequence[int]) -> str:
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    low, high = min(levels), max(levels)
    return f"{shown} ({low} levels)" if low == high else f"{shown} ({low}–{high} levels)"


def choose_test(name: str, table: DataTable) -> TestChoice:
    """*name* checked; ``"auto"`` chosen from the columns' kinds, levels and the rows (module docstring)."""
    if name != "auto":
        if name not in CI_TESTS:
            raise InputFormatError(f"ci_test={name!r} must be 'auto' or one of {list(CI_TESTS)!r}")
        return TestChoice(name, name, "asked for")  # type: ignore[arg-type]
    names, n = table.names, table.rows
    kinds = table.kinds or (("integer" if table.discrete else "continuous"),) * len(names)
    levels = table.levels or (0,) * len(names)
    cat = [k for k, kind in enumerate(kinds) if kind == "categorical"]
    few = [k for k, kind in enumerate(kinds) if kind == "integer" and levels[k] <= MAX_DISCRETE_LEVELS]
    rest = [k for k in range(len(names)) if k not in cat and k not in few]
    if not rest and names:
        widest = sorted((levels[k] for k in range(len(names))), reverse=True)[:2]
        cells = (widest[0] - 1) * ((widest[1] if len(widest) > 1 else 2) - 1)
        if cat or n >= ROWS_PER_DOF * cells:
            parts = [f"categorical {_span([names[k] for k in cat], [levels[k] for k in cat])}"] if cat else []
            parts += [f"integer {_span([names[k] for k in few], [levels[k] for k in few])}"] if few else []
            return TestChoice("chisq", "auto", f"discrete data: {'; '.join(parts)}")
        return TestChoice(
            "fisherz", "auto",
            f"integer data with too few rows for contingency tables ({n} < {ROWS_PER_DOF}·{cells}); the integers are read as numbers",
        )
    wide = [k for k in cat if levels[k] > 2]
    if wide:
        where = f"{table.source}: " if table.source != "data" else ""
        damaged = [f"{c}: {why}" for c, why in table.suspects if c in {names[k] for k in wide}]
        raise InputFormatError(
            f"{where}mixed data: categorical column(s) {_span([names[k] for k in wide], [levels[k] for k in wide])} next to numeric "
            f"column(s) {', '.join(names[k] for k in rest)}; pass ci_test='kci' (any data, slow), discretise the numeric "
            "columns (ci_test='chisq'), or ci_test='fisherz' to read the level codes as numbers"
            + (f" (is a number damaged? {'; '.join(damaged)})" if damaged else "")
        )
    ints = [k for k in rest if kinds[k] == "integer"]
    notes = [f"integer {_span([names[k] for k in ints], [levels[k] for k in ints])} read as numbers"] if ints else []
    notes += [f"binary {', '.join(names[k] for k in cat)} read as 0/1"] if cat else []
    notes += [f"integer {', '.join(names[k] for k in few)} read as numbers"] if few else []
    kind = "numeric data" if len(rest) > len(ints) else "integer data with many levels"
    return TestChoice("fisherz", "auto", kind + (f": {'; '.join(notes)}" if notes else ""))


def resolve_test(name: str, table: DataTable) -> CITestName:
    """The test :func:`choose_test` picks (``"auto"`` resolved, a name checked)."""
    return choose_test(name, table).test


#: Fisher-z rescales a column whose largest magnitude is beyond ``2**±SCALE_EXPONENT`` (its
#: squares would overflow or underflow a float) by a power of two, which is exact.
SCALE_EXPONENT = 300


def scaled_columns(values: Any) -> tuple[Any, list[int]]:
    """*values* with each column of extreme magnitude multiplied by a power of two, and those columns.

    A correlation does not depend on a column's scale, but its computation squares the values:
    one finite cell of ``1e300`` overflows and the statistic becomes NaN.  A column whose
    largest magnitude is beyond ``2**±SCALE_EXPONENT`` is brought near 1 by a power of two —
    exact in floating point — and every other column is left bit for bit as it was.

    >>> v, cols = scaled_columns(__import__("numpy").array([[1e300, 1.0], [2e300, 2.0]]))
    >>> cols, float(v[1, 0] / v[0, 0]), v[:, 1].tolist()
    ([0], 2.0, [1.0, 2.0])
    """
    import numpy as np

    exponents = column_exponents(values)
    extreme = [c for c, e in enumerate(exponents) if e]
    if not extreme:
        return values, []
    out = values.copy()
    for c in extreme:
        out[:, c] = np.ldexp(out[:, c], -exponents[c])
    return out, extreme


def column_exponents(values: Any) -> list[int]:
    """Per column, ``e`` such that the column divided by ``2**e`` has its largest magnitude in [0.5, 1),
    for the columns beyond ``2**±SCALE_EXPONENT``; ``0`` (left as it is) for every other column."""
    import numpy as np

    top = np.max(np.abs(values), axis=0).tolist() if values.size else [0.0] * values.shape[1]
    return [
        math.frexp(m)[1] if m > 0 and not 2.0**-SCALE_EXPONENT <= m <= 2.0**SCALE_EXPONENT else 0 for m in top
    ]


def collinear_columns(values: Any, columns: Sequence[int], tol: float = 1e-10) -> list[int]:
    """The columns (of *columns*) in an exact linear dependence: those weighted in the null space of their correlation."""
    import numpy as np

    sub = values[:, list(columns)]
    sd = sub.std(axis=0)
    constant = [c for c, s in zip(columns, sd, strict=True) if s == 0]
    if constant:
        return constant
    corr = np.corrcoef(sub.T) if len(columns) > 1 else np.ones((1, 1))
    w, v = np.linalg.eigh(corr)
    null = v[:, w < tol * max(1.0, float(w.max()))]
    return [c for c, row in zip(columns, null, strict=True) if row.size and float(np.abs(row).max()) > 1e-6]


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
    """Cached CI tests over the columns of *table* (indices ``0..p-1``), run by causal-learn.

    ``choice`` is the :class:`TestChoice` (``"auto"`` resolved by :func:`choose_test`).
    """

    def __init__(self, table: DataTable, test: str = "auto", **kwargs: Any) -> None:
        from causallearn.utils.cit import CIT

        self.table = table
        self.choice = choose_test(test, table)
        self.test: CITestName = self.choice.test
        #: the values the test reads: Fisher-z's columns of extreme magnitude rescaled exactly (:func:`scaled_columns`)
        self.values = table.values
        #: the names of the columns Fisher-z rescaled
        self.rescaled: tuple[str, ...] = ()
        if self.test == "fisherz":
            self.values, rescaled = scaled_columns(table.values)
            self.rescaled = tuple(table.names[c] for c in rescaled)
        self._cit = CIT(self.values, method=self.test, **kwargs)
        self._cache: dict[Key, float] = {}
        self._undecidable: dict[Key, str | None] = {}
        self.tests_run = 0
        #: columns in an exact linear dependence (Fisher-z only; each statement is then checked)
        self.collinear: tuple[str, ...] = ()
        if self.test == "fisherz":
            self.collinear = tuple(table.names[c] for c in collinear_columns(self.values, range(len(table.names))))

    @staticmethod
    def key(x: int, y: int, given: Sequence[int] | frozenset[int]) -> Key:
        """The cache key of ``x ⫫ y | given`` (symmetric in x and y, order-free in given)."""
        return (x, y, frozenset(given)) if x < y else (y, x, frozenset(given))

    def cached(self, x: int, y: int, given: Sequence[int] | frozenset[int]) -> float | None:
        """The p-value if this statement was tested already, else None."""
        k = self.key(x, y, given)
        return None if k not in self._cache else self.pvalue(x, y, given)

    def raw_pvalue(self, x: int, y: int, given: Sequence[int] | frozenset[int] = ()) -> float:
        """The test's own p-value of ``x ⫫ y | given`` (cached; 1 when it cannot be computed: collinear columns)."""
        k = self.key(x, y, given)
        p = self._cache.get(k)
        if p is None:
            try:
                p = float(self._cit(k[0], k[1], sorted(k[2])))
            except (ValueError, ArithmeticError) as exc:  # causal-learn: singular correlation matrix
                names = self.table.names
                cols = collinear_columns(self.values, [k[0], k[1], *sorted(k[2])])
                self._undecidable[k] = f"collinear columns {[names[c] for c in cols]!r} ({exc})"
                p = 1.0
            if not math.isfinite(p):  # never a silent p = 1: the statement is undecidable, and says why
                named = [self.table.names[c] for c in (k[0], k[1], *sorted(k[2]))]
                self._undecidable[k] = f"the {self.test} statistic of columns {named!r} is not a number (p={p!r})"
                p = 1.0
            self._cache[k] = p
            self.tests_run += 1
        return p

    def undecidable(self, x: int, y: int, given: Sequence[int] | frozenset[int] = ()) -> str | None:
        """Why the data cannot decide ``x ⫫ y | given`` (module docstring), or None when they can."""
        k = self.key(x, y, given)
        if k not in self._undecidable:
            self._undecidable[k] = self._power(k)
        if k not in self._cache:
            self.raw_pvalue(x, y, given)  # may find collinear columns or a statistic that is not a number
        return self._undecidable[k]

    def _power(self, k: Key) -> str | None:
        n, s = self.table.rows, len(k[2])
        if self.test == "fisherz":
            free = n - s - 3
            if free < MIN_FISHERZ_DOF:
                return f"{n} rows leave n − |S| − 3 = {free} < {MIN_FISHERZ_DOF} degrees of freedom"
            cols = collinear_columns(self.values, [k[0], k[1], *sorted(k[2])]) if self.collinear else []
            return f"collinear columns {[self.table.names[c] for c in cols]!r}" if cols else None
        if self.test == "kci":
            return f"{n} rows < {MIN_KCI_ROWS}" if n < MIN_KCI_ROWS else None
        _, dof = _contingency_statistic(self.table.values, k[0], k[1], sorted(k[2]), g_squared=False)
        if dof == 0:
            return "no degrees of freedom: a column is constant within every stratum"
        if n < ROWS_PER_DOF * dof:
            return f"{n} rows for {dof} degrees of freedom (< {ROWS_PER_DOF} per degree of freedom)"
        return _sparse_cells(self.table.values, k[0], k[1], sorted(k[2]))

    def undecidable_tested(self) -> int:
        """How many of the statements tested so far the data cannot decide."""
        return sum(1 for k in self._cache if self.undecidable(k[0], k[1], k[2]))

    def pvalue(self, x: int, y: int, given: Sequence[int] | frozenset[int] = ()) -> float:
        """The p-value of ``x ⫫ y | given`` (cached); 1 for a statement the data cannot decide (:meth:`undecidable`)."""
        p = self.raw_pvalue(x, y, given)
        return 1.0 if self.undecidable(x, y, given) else p

    def certificate(self, x: int, y: int, given: Sequence[int] = ()) -> TestCertificate:
        """The statistic behind the p-value of ``x ⫫ y | given``."""
        import numpy as np

        p = self.raw_pvalue(x, y, given)
        s = sorted(set(given))
        n = self.table.rows
        if self.test == "fisherz" and (self.undecidable(x, y, given) or "").startswith("collinear"):
            return TestCertificate("fisherz", 0.0, "z", p, None, None, n)
        if self.test == "fisherz":
            idx = [x, y, *s]
            corr = np.corrcoef(self.values[:, idx].T)
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


def _sparse_cells(values: Any, x: int, y: int, given: Sequence[int]) -> str | None:
    """Cochran's rule over the cells of the stratified table with a positive expected count: why the χ² approximation
    fails (a cell expected below 1, or more than a fifth below 5), else None."""
    _, expected = _tables(values, x, y, given)
    live = expected[expected > 0]
    if not live.size:
        return None
    below1, below5 = int((live < 1).sum()), float((live < 5).mean())
    if below1 or below5 > 0.2:
        return f"sparse table: {below1} cell(s) expected below 1, {below5:.0%} below 5 (Cochran: none below 1, at most 20% below 5)"
    return None


def _tables(values: Any, x: int, y: int, given: Sequence[int]) -> tuple[Any, Any]:
    """The stratified contingency table of x and y given *given*, and its expected counts under independence."""
    import numpy as np

    def codes(col: Any) -> Any:
        return np.unique(col, return_inverse=True)[1].ravel()

    cx, cy = codes(values[:, x]), codes(values[:, y])
    kx, ky = int(cx.max()) + 1, int(cy.max()) + 1
    if given:
        strata = np.unique(np.column_stack([codes(values[:, g]) for g in given]), axis=0, return_inverse=True)[1].ravel()
    else:
        strata = np.zeros(len(cx), dtype=int)
    table = np.zeros((int(strata.max()) + 1, kx, ky))
    np.add.at(table, (strata, cx, cy), 1)
    total = table.sum(axis=(1, 2))
    expected = table.sum(axis=2)[:, :, None] * table.sum(axis=1)[:, None, :] / np.where(total == 0, 1, total)[:, None, None]
    return table, expected


def _contingency_statistic(values: Any, x: int, y: int, given: Sequence[int], *, g_squared: bool) -> tuple[float, int]:
    """χ² (or G²) and its degrees of freedom over the strata of *given* (causal-learn's conventions)."""
    import numpy as np

    table, expected = _tables(values, x, y, given)
    kx, ky = table.shape[1], table.shape[2]
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
