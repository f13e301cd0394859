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

Continuity.  χ² and G² are computed, by default (``continuity="none"``), without a continuity
correction, as causal-learn, pcalg and DAGitty compute them.  ``continuity="yates"`` applies
Yates' correction to every stratum whose table has one degree of freedom (two levels of x and
two of y occur in it): each count moves by up to ½ towards its expected count before the
statistic is summed — what scipy's ``chi2_contingency`` does by default, and so what pgmpy's
``chi_square`` and ``g_sq`` tests report (tested equal, with pgmpy's own expected values).  The
correction lowers the statistic of those strata only; tables with more levels are unchanged.
:class:`CITester` keys its cache on *(unordered pair, conditioning set)*, so a statement
asked again — from another node's side, or by another permuted graph — is never re-tested;
``tests_run`` counts the tests actually computed.  :meth:`CITester.certificate` adds the
statistic behind a p-value: the partial correlation and ``z = √(n − |S| − 3)·|atanh r|`` for
Fisher-z (read off the inverted submatrix of the one correlation matrix the p-value comes from,
never recomputed from the rows), the statistic and degrees of freedom for χ²/G² (causal-learn's rule: rows and
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

from causalcheck.base.errors import InputFormatError, keyword_hint
from causalcheck.graphs.data import MAX_DISCRETE_LEVELS, DataTable

__all__ = [
    "CI_TESTS", "CONTINUITY", "MIN_FISHERZ_DOF", "MIN_KCI_ROWS", "ROWS_PER_DOF", "SCALE_EXPONENT", "CITestName", "CITester", "Continuity", "Correction",
    "TestCertificate", "TestChoice", "adjust", "choose_test", "collinear_columns", "column_exponents", "resolve_test", "scaled_columns",
]

CITestName = Literal["fisherz", "chisq", "gsq", "kci"]
#: The tests :class:`CITester` runs (``"auto"`` resolves to one of them).
CI_TESTS: tuple[str, ...] = ("fisherz", "chisq", "gsq", "kci")
Correction = Literal["holm", "bh", "none"]
Continuity = Literal["none", "yates"]
#: The continuity corrections of χ² and G²: ``"none"`` (causal-learn's, pcalg's, DAGitty's) or ``"yates"`` (scipy's, pgmpy's).
CONTINUITY: tuple[str, ...] = ("none", "yates")
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
    # counted for integer and categorical columns; a continuous column's count is never read here
    levels = [m or 0 for m in table.counted_levels] or [0] * len(names)
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
            f"column(s) {', '.join(names[k] for k in rest)}; {keyword_hint('ci_test', 'kci')} (any data, slow), discretise the numeric "
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


def scaled_columns(values: Any, exponents: Sequence[int] | None = None) -> tuple[Any, list[int]]:
    """*values* with each column of extreme magnitude multiplied by a power of two, and those columns.

    A correlation does not depend on a column's scale, but its computation squares the values:
    one finite cell of ``1e300`` overflows and the statistic becomes NaN.  A column whose
    largest magnitude is beyond ``2**±SCALE_EXPONENT`` is brought near 1 by a power of two —
    exact in floating point — and every other column is left bit for bit as it was.

    >>> v, cols = scaled_columns(__import__("numpy").array([[1e300, 1.0], [2e300, 2.0]]))
    >>> cols, float(v[1, 0] / v[0, 0]), v[:, 1].tolist()
    ([0], 2.0, [1.0, 2.0])

    *exponents*, when given, is ``column_exponents(values)`` (not recomputed).
    """
    import numpy as np

    if exponents is None:
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

    # the largest magnitude as max(max, −min): no table of absolute values is made
    top = np.maximum(values.max(axis=0), -values.min(axis=0)).tolist() if values.size else [0.0] * values.shape[1]
    return [
        math.frexp(m)[1] if m > 0 and not 2.0**-SCALE_EXPONENT <= m <= 2.0**SCALE_EXPONENT else 0 for m in top
    ]


def collinear_columns(values: Any, columns: Sequence[int], tol: float = 1e-10, corr: Any = None) -> list[int]:
    """The columns (of *columns*) in an exact linear dependence: those weighted in the null space of their correlation.

    *corr*, when given, is ``numpy.corrcoef(values.T)`` and *columns* every column in order (not recomputed).
    """
    import numpy as np

    every = corr is not None and values.shape[1] > 1 and list(columns) == list(range(values.shape[1]))
    sub = values if every else values[:, list(columns)]
    sd = sub.std(axis=0)
    constant = [c for c, s in zip(columns, sd, strict=True) if s == 0]
    if constant:
        return constant
    if not every:
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
    *continuity* is the continuity correction of χ² and G² (module docstring): ``"none"`` (the
    default) or ``"yates"``, which only the ``chisq`` and ``gsq`` tests take.
    """

    def __init__(self, table: DataTable, test: str = "auto", *, continuity: str = "none", **kwargs: Any) -> None:
        import numpy as np

        if continuity not in CONTINUITY:
            raise InputFormatError(f"continuity={continuity!r} must be one of {list(CONTINUITY)!r}")
        self.table = table
        self.choice = choose_test(test, table)
        self.test: CITestName = self.choice.test
        if continuity != "none" and self.test not in ("chisq", "gsq"):
            raise InputFormatError(
                f"continuity={continuity!r} corrects the chisq and gsq tests; ci_test={test!r} runs {self.test} "
                f"({self.choice.reason}): {keyword_hint('ci_test', 'chisq')} (or 'gsq'), or {keyword_hint('continuity', 'none')}"
            )
        self.continuity: Continuity = "yates" if continuity == "yates" else "none"
        #: the values the test reads: Fisher-z's columns of extreme magnitude rescaled exactly (:func:`scaled_columns`)
        self.values = table.values
        #: the names of the columns Fisher-z rescaled
        self.rescaled: tuple[str, ...] = ()
        self._cit: Any = None  # causal-learn's CIT, for KCI only (importing it costs seconds)
        self._corr: Any = None
        self._codes: Any = None
        self._contingency: dict[Key, Contingency] = {}
        if self.test == "fisherz":
            self.values, rescaled = scaled_columns(table.values)
            self.rescaled = tuple(table.names[c] for c in rescaled)
            self._corr = np.corrcoef(self.values.T)  # causal-learn's FisherZ: one correlation matrix, submatrices inverted
        elif self.test in ("chisq", "gsq"):
            self._codes = category_codes(self.values)
        else:
            # KCI is causal-learn's; importing it pulls matplotlib, scikit-learn and scipy.stats (seconds)
            from causallearn.utils.cit import CIT

            self._cit = CIT(self.values, method=self.test, **kwargs)
        self._cache: dict[Key, float] = {}
        #: inverted correlation submatrices computed ahead by :meth:`prefetch`, not yet asked for (not in ``tests_run``)
        self._ahead: dict[Key, Any] = {}
        #: the inverses of :attr:`_ahead` once asked for, which the certificates read
        self._inverses: dict[Key, Any] = {}
        self._undecidable: dict[Key, str | None] = {}
        self.tests_run = 0
        #: columns in an exact linear dependence (Fisher-z only; each statement is then checked)
        self.collinear: tuple[str, ...] = ()
        if self.test == "fisherz":
            self.collinear = tuple(table.names[c] for c in collinear_columns(self.values, range(len(table.names)), corr=self._corr))

    def _compute(self, k: Key) -> float:
        """The test's p-value of the statement *k* (raises ValueError / ArithmeticError when it cannot be computed)."""
        given = sorted(k[2])
        ahead = self._ahead.pop(k, None)
        if ahead is not None:
            self._inverses[k] = ahead
            return _fisherz_from_inverse(ahead, self.table.rows, len(given))
        if self.test == "fisherz":
            return fisherz_pvalue(self._corr, self.table.rows, k[0], k[1], given)
        if self.test in ("chisq", "gsq"):
            return self._table_test(k).p_value
        return float(self._cit(k[0], k[1], given))

    def prefetch(self, statements: Sequence[tuple[int, int, Sequence[int]]]) -> None:
        """Compute the Fisher-z p-values of the *statements* ``(x, y, given)`` ahead, in batches.

        Nothing observable changes: a prefetched p-value is the one :meth:`raw_pvalue` would compute
        (the same submatrix inverted by the same LAPACK routine, stacked by size), and it enters the
        cache and ``tests_run`` only when it is asked for.  Other tests, and statements already
        cached, are left alone; a batch holding a singular submatrix is left to the one-by-one path.
        """
        if self.test != "fisherz":
            return
        by_size: dict[int, list[tuple[Key, list[int]]]] = {}
        seen = {(x, y, tuple(sorted(z))) if x < y else (y, x, tuple(sorted(z))) for x, y, z in statements}
        for x, y, z in sorted(seen):
            k = (x, y, frozenset(z))
            if k not in self._cache and k not in self._ahead:
                by_size.setdefault(len(z) + 2, []).append((k, [x, y, *z]))
        self._ahead.update(fisherz_inverses(self._corr, by_size))

    def _table_test(self, k: Key) -> Contingency:
        found = self._contingency.get(k)
        if found is None:
            found = self._contingency[k] = contingency_test(
                self._codes, k[0], k[1], sorted(k[2]), g_squared=self.test == "gsq", yates=self.continuity == "yates"
            )
        return found

    @staticmethod
    def key(x: int, y: int, given: Sequence[int] | frozenset[int]) -> Key:
        """The cache key of ``x ⫫ y | given`` (symmetric in x and y, order-free in given)."""
        return (x, y, frozenset(given)) if x < y else (y, x, frozenset(given))

    def cached(self, x: int, y: int, given: Sequence[int] | frozenset[int]) -> float | None:
        """The p-value if this statement was tested already, else None."""
        k = self.key(x, y, given)
        return None if k not in self._cache else self.pvalue(x, y, given)

    def has(self, x: int, y: int, given: Sequence[int] | frozenset[int]) -> bool:
        """True when ``x ⫫ y | given`` was tested already (:meth:`cached` is not None)."""
        return self.key(x, y, given) in self._cache

    def known(self, keys: Sequence[Key]) -> list[bool]:
        """For each statement's :meth:`key`, whether it was tested already (:meth:`has`)."""
        cache = self._cache
        return [k in cache for k in keys]

    def raw_pvalue(self, x: int, y: int, given: Sequence[int] | frozenset[int] = ()) -> float:
        """The test's own p-value of ``x ⫫ y | given`` (cached; 1 when it cannot be computed: collinear columns)."""
        return self._raw(self.key(x, y, given))

    def _raw(self, k: Key) -> float:
        p = self._cache.get(k)
        if p is None:
            try:
                p = self._compute(k)
            except (ValueError, ArithmeticError) as exc:  # a singular correlation matrix, or too few rows
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
        return self._why(self.key(x, y, given))

    def _why(self, k: Key) -> str | None:
        if k not in self._undecidable:
            self._undecidable[k] = self._power(k)
        if k not in self._cache:
            self._raw(k)  # may find collinear columns or a statistic that is not a number
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
        found = self._table_test(k)
        if found.dof == 0:
            return "no degrees of freedom: a column is constant within every stratum"
        if n < ROWS_PER_DOF * found.dof:
            return f"{n} rows for {found.dof} degrees of freedom (< {ROWS_PER_DOF} per degree of freedom)"
        return found.sparse

    def undecidable_tested(self) -> int:
        """How many of the statements tested so far the data cannot decide."""
        return sum(1 for k in self._cache if self._why(k))

    def pvalue(self, x: int, y: int, given: Sequence[int] | frozenset[int] = ()) -> float:
        """The p-value of ``x ⫫ y | given`` (cached); 1 for a statement the data cannot decide (:meth:`undecidable`)."""
        return self.pvalue_of(self.key(x, y, given))

    def pvalue_of(self, k: Key) -> float:
        """:meth:`pvalue` of the statement whose :meth:`key` is *k*."""
        p = self._raw(k)
        return 1.0 if self._why(k) else p

    def certificate(self, x: int, y: int, given: Sequence[int] = ()) -> TestCertificate:
        """The statistic behind the p-value of ``x ⫫ y | given``."""
        import numpy as np

        p = self.raw_pvalue(x, y, given)
        s = sorted(set(given))
        n = self.table.rows
        if self.test == "fisherz" and (self.undecidable(x, y, given) or "").startswith("collinear"):
            return TestCertificate("fisherz", 0.0, "z", p, None, None, n)
        if self.test == "fisherz":
            # the submatrix of the one correlation matrix, in the cache key's order: the inverse the p-value came from
            a, b = min(x, y), max(x, y)
            inv = self._inverses.get(self.key(a, b, s))
            if inv is None:  # not prefetched: the same routine on the one matrix (bit for bit the batch's)
                inv = np.linalg.inv(self._corr[np.ix_([a, b, *s], [a, b, *s])])
            r = float(-inv[0, 1] / math.sqrt(abs(inv[0, 0] * inv[1, 1])))
            r = max(min(r, 1 - 1e-15), -1 + 1e-15)
            z = math.sqrt(max(n - len(s) - 3, 0)) * abs(math.atanh(r))
            return TestCertificate("fisherz", z, "z", p, None, r, n)
        if self.test in ("chisq", "gsq"):
            found = self._table_test(self.key(x, y, s))
            return TestCertificate(self.test, found.statistic, "G2" if self.test == "gsq" else "chi2", p, found.dof, None, n)
        data = self.table.values
        if s:
            _, stat = self._cit.kci_ci.compute_pvalue(data[:, [x]], data[:, [y]], data[:, s])
        else:
            _, stat = self._cit.kci_ui.compute_pvalue(data[:, [x]], data[:, [y]])
        return TestCertificate("kci", float(stat), "kci", p, None, None, n)


#: A contingency table of more cells than this (strata × levels of x × levels of y) is not laid out densely:
#: its statistic is summed over the non-empty cells only (:func:`contingency_test`).
DENSE_CELLS = 2_000_000


@dataclass(frozen=True)
class Contingency:
    """χ² or G² of one stratified table: the statistic, its degrees of freedom, p, and Cochran's verdict."""

    statistic: float
    dof: int
    p_value: float
    #: why the χ² approximation fails on this table (Cochran's rule), or None
    sparse: str | None


_SQRT1_2 = math.sqrt(0.5)


def normal_two_sided(z: float) -> float:
    """``2·(1 − Φ(|z|))``, the two-sided normal p-value as causal-learn computes it (``scipy.special.ndtr``).

    >>> round(normal_two_sided(1.959963984540054), 12)
    0.05
    """
    # ndtr as cephes computes it (scipy.special's source), with the C library's erf/erfc: importing
    # scipy.special costs tenths of a second and pulls numpy.testing/f2py through scipy's array-API layer
    x = abs(z) * _SQRT1_2
    cdf = 0.5 + 0.5 * math.erf(x) if x < _SQRT1_2 else 1 - 0.5 * math.erfc(x)
    return 2 * (1 - cdf)


def _tail_at_the_edges(statistic: float) -> float | None:
    """A χ² tail that needs no distribution: nan for nan, 1 at or below 0, 0 at infinity; else ``None``."""
    if statistic != statistic:
        return math.nan
    if statistic <= 0:
        return 1.0
    return 0.0 if statistic == math.inf else None


def chi2_survival(statistic: float, dof: int) -> float:
    """``P(χ²_dof > statistic)`` (``scipy.stats.chi2.sf``'s values: 1 at or below 0, 0 at infinity).

    >>> round(chi2_survival(3.841458820694124, 1), 12), chi2_survival(0.0, 3), chi2_survival(math.inf, 2)
    (0.05, 1.0, 0.0)
    """
    edge = _tail_at_the_edges(statistic)
    if edge is not None:
        return edge
    from scipy.special import chdtrc  # chi2.sf's function, without importing scipy.stats

    return float(chdtrc(dof, statistic))


def chi2_survival_even(statistic: float, k: int) -> float:
    """``P(χ²_2k > statistic) = e^(−s/2) Σ_{i<k} (s/2)^i / i!`` (the Poisson tail), summed in log space: Fisher's C
    (2k degrees of freedom) without importing scipy; within 5e-12 of :func:`chi2_survival` (whose bits the CI tests keep).

    >>> abs(chi2_survival_even(9.487729036781154, 2) - 0.05) < 1e-12, chi2_survival_even(0.0, 3), chi2_survival_even(math.inf, 1)
    (True, 1.0, 0.0)
    """
    edge = _tail_at_the_edges(statistic)
    if edge is not None:
        return edge
    half = statistic / 2
    log_half = math.log(half)
    logs = [i * log_half - math.lgamma(i + 1) for i in range(k)]
    top = max(logs)
    total = math.fsum(math.exp(v - top) for v in logs)
    return min(1.0, math.exp(top + math.log(total) - half))


def fisherz_pvalue(corr: Any, rows: int, x: int, y: int, given: Sequence[int]) -> float:
    """Fisher's z test of ``x ⫫ y | given`` from the correlation matrix *corr* of *rows* rows.

    The partial correlation is read off the inverse of the correlation submatrix of
    ``[x, y, *given]``; ``z = √(rows − |given| − 3)·|atanh r|``; p two-sided.  Raises ValueError for a
    singular submatrix or too few rows (``rows − |given| − 3 < 0``).
    """
    import numpy as np

    var = [x, y, *given]
    try:
        inv = np.linalg.inv(corr[np.ix_(var, var)])
    except np.linalg.LinAlgError:
        raise ValueError("Data correlation matrix is singular. Cannot run fisherz test. Please check your data.") from None
    return _fisherz_from_inverse(inv, rows, len(given))


def fisherz_inverses(corr: Any, by_size: dict[int, list[tuple[Key, list[int]]]]) -> dict[Key, Any]:
    """The inverted correlation submatrices of ``[x, y, *given]`` for many statements, one stacked inverse per size.

    *by_size* maps ``len([x, y, *given])`` to ``(key, [x, y, *given])`` pairs.  The same figures bit for
    bit as :func:`fisherz_pvalue`'s inverse (numpy inverts each matrix of a stack with the routine a
    single matrix gets); a size whose stack holds a singular submatrix is skipped (its statements absent).
    """
    import numpy as np

    out: dict[Key, Any] = {}
    for group in by_size.values():
        idx = np.array([var for _, var in group], dtype=np.intp)
        try:
            inv = np.linalg.inv(corr[idx[:, :, None], idx[:, None, :]])
        except np.linalg.LinAlgError:
            continue
        out.update(zip((k for k, _ in group), inv, strict=True))
    return out


def _fisherz_from_inverse(inv: Any, rows: int, conditioned: int) -> float:
    import numpy as np

    r = -inv[0, 1] / math.sqrt(abs(inv[0, 0] * inv[1, 1]))
    if abs(r) >= 1:  # a deterministic relation or very few rows
        r = (1.0 - np.finfo(float).eps) * np.sign(r)
    z = 0.5 * math.log((1 + r) / (1 - r))
    return normal_two_sided(math.sqrt(rows - conditioned - 3) * abs(z))


def category_codes(values: Any) -> Any:
    """Each column of *values* as the codes ``0..k-1`` of its sorted distinct values (int64, columns contiguous)."""
    import numpy as np

    codes = np.empty(values.shape[::-1], dtype=np.int64)
    for c in range(values.shape[1]):
        codes[c] = np.unique(values[:, c], return_inverse=True)[1].ravel()
    return codes


def _strata(codes: Any, given: Sequence[int]) -> tuple[Any, int]:
    """Each row's stratum of *given*: the non-empty combinations numbered in lexicographic order, and their count."""
    import numpy as np

    rows = codes.shape[1]
    if not given:
        return np.zeros(rows, dtype=np.int64), 1
    cards = [int(codes[g].max()) + 1 for g in given]
    if math.prod(cards) >= 2**62:
        inverse = np.unique(codes[list(given)].T, axis=0, return_inverse=True)[1].ravel()
        return inverse, int(inverse.max()) + 1
    index = np.zeros(rows, dtype=np.int64)
    for g, k in zip(given, cards, strict=True):
        index = index * k + codes[g]
    if math.prod(cards) <= 4 * rows + 1024:
        present = np.bincount(index, minlength=math.prod(cards)) > 0
        number = np.cumsum(present) - 1
        return number[index], int(present.sum())
    inverse = np.unique(index, return_inverse=True)[1].ravel()
    return inverse, int(inverse.max()) + 1


def contingency_test(codes: Any, x: int, y: int, given: Sequence[int], *, g_squared: bool, yates: bool = False) -> Contingency:
    """χ² (or G²) of ``x ⫫ y | given`` over the strata of *given* on :func:`category_codes` *codes*.

    causal-learn's conventions (``Chisq_or_Gsq``): empty strata dropped, expected counts
    ``n_xs·n_ys / n_s``, a cell of zero expected count adds nothing, and the rows and columns of
    zeros in a stratum lose their degree of freedom; p = 1 without a degree of freedom.
    With *yates*, every stratum with one degree of freedom has Yates' correction (scipy's
    ``chi2_contingency``: each count moved by ``min(½, |expected − count|)`` towards its expected count).
    Cochran's rule is judged over the cells with a positive expected count.
    """
    import numpy as np

    strata, k = _strata(codes, given)
    kx, ky = int(codes[x].max()) + 1, int(codes[y].max()) + 1
    if k * kx * ky > DENSE_CELLS:
        return _sparse_contingency(strata, k, codes[x], codes[y], g_squared=g_squared, yates=yates)
    table = np.bincount((strata * kx + codes[x]) * ky + codes[y], minlength=k * kx * ky).reshape(k, kx, ky)
    stat, dofs, expected = _table_statistic(table, g_squared=g_squared, yates=yates)
    dof = int(np.sum(dofs))
    live = expected[expected != 0]
    return Contingency(stat, dof, 1.0 if dof == 0 else chi2_survival(stat, dof), _cochran(int((live < 1).sum()), float((live < 5).mean()) if live.size else 0.0))


def _table_statistic(table: Any, *, g_squared: bool, yates: bool) -> tuple[float, Any, Any]:
    """χ² or G² of a laid-out ``strata × x × y`` *table*, each stratum's degrees of freedom, and the expected counts."""
    import numpy as np

    kx, ky = table.shape[1:]
    row, col = table.sum(axis=2), table.sum(axis=1)
    expected = row[:, :, None] * col[:, None, :] / table.sum(axis=(1, 2))[:, None, None]
    zero = expected == 0
    safe = np.where(zero, 1, expected)
    dofs = (kx - 1 - zero.all(axis=2).sum(axis=1)) * (ky - 1 - zero.all(axis=1).sum(axis=1))
    observed = table
    if yates and (dofs == 1).any():
        diff = expected - table
        observed = np.where((dofs == 1)[:, None, None], table + np.minimum(0.5, np.abs(diff)) * np.sign(diff), table)
    if g_squared:
        ratio = observed / safe
        ratio[ratio == 0] = 1
        stat = float(2 * np.sum(observed * np.log(ratio)))
    else:
        stat = float(np.sum(((observed - expected) ** 2) / safe))
    return stat, dofs, expected


def _cochran(below1: int, below5: float) -> str | None:
    if below1 or below5 > 0.2:
        return f"sparse table: {below1} cell(s) expected below 1, {below5:.0%} below 5 (Cochran: none below 1, at most 20% below 5)"
    return None


def _sparse_contingency(strata: Any, k: int, cx: Any, cy: Any, *, g_squared: bool, yates: bool = False) -> Contingency:
    """:func:`contingency_test` summed over the non-empty cells only, for a table too large to lay out.

    The same figures up to rounding: χ² = Σ over non-empty cells of (c − e)²/e plus the expected
    count of the empty ones (n_s minus that of the non-empty ones, per stratum); G² reads the
    non-empty cells only; Cochran's counts come from sorted margins.  With *yates*, the strata
    with one degree of freedom (2 × 2 once their empty rows and columns are left out) are laid
    out on their own and corrected (:func:`_two_by_two`); the sum over the others is as above.
    """
    import numpy as np

    def groups(*keys: Any) -> tuple[Any, Any]:
        flat = np.zeros(len(strata), dtype=np.int64)
        for key in keys:
            flat = flat * (int(key.max()) + 1) + key
        _, inverse, counts = np.unique(flat, return_inverse=True, return_counts=True)
        return inverse.ravel(), counts

    cell, counts = groups(strata, cx, cy)
    sx, nx_ = groups(strata, cx)
    sy, ny_ = groups(strata, cy)
    first = np.unique(cell, return_index=True)[1]
    s_of_cell, ns = strata[first], np.bincount(strata, minlength=k)
    e = nx_[sx[first]] * ny_[sy[first]] / ns[s_of_cell]
    c = counts.astype(float)
    s_x = strata[np.unique(sx, return_index=True)[1]]
    s_y = strata[np.unique(sy, return_index=True)[1]]
    rx, ry = np.bincount(s_x, minlength=k), np.bincount(s_y, minlength=k)
    dof = int(np.sum((rx - 1) * (ry - 1)))
    two = (rx == 2) & (ry == 2) if yates else np.zeros(k, dtype=bool)
    if two.any():
        rest = ~two[s_of_cell]
        c, e = c[rest], e[rest]
        ns_rest = int(ns[~two].sum())
        corrected = _two_by_two(strata, two, cx, cy, g_squared=g_squared)
    else:
        ns_rest, corrected = int(ns.sum()), 0.0
    if g_squared:
        stat = float(2 * np.sum(c * np.log(c / e))) + corrected
    else:
        stat = float(np.sum((c - e) ** 2 / e) + (ns_rest - e.sum())) + corrected
    # Cochran: per stratum, the pairs of margins (a, b) with a·b < t·n_s, for t = 1 and 5
    order = np.lexsort((ny_, s_y))
    ys, yb = s_y[order], ny_[order]
    start = np.searchsorted(ys, np.arange(k))
    end = np.searchsorted(ys, np.arange(k), side="right")
    below = []
    for t in (1, 5):
        limit = t * ns[s_x] / nx_  # b < limit
        pos = np.array([np.searchsorted(yb[start[s]:end[s]], lim, side="left") for s, lim in zip(s_x.tolist(), limit.tolist(), strict=True)])
        below.append(int(pos.sum()))
    cells = int(np.sum(rx * ry))
    return Contingency(stat, dof, 1.0 if dof == 0 else chi2_survival(stat, dof), _cochran(below[0], below[1] / cells if cells else 0.0))


def _two_by_two(strata: Any, two: Any, cx: Any, cy: Any, *, g_squared: bool) -> float:
    """χ² or G² with Yates' correction of the strata flagged in *two*, each with two levels of x and of y.

    Their rows are laid out as an ``m × 2 × 2`` table (a level's place: whether it is the
    stratum's larger one) and summed by :func:`_table_statistic`.
    """
    import numpy as np

    rows = two[strata]
    s, x, y = strata[rows], cx[rows], cy[rows]
    place = np.cumsum(two) - 1
    m = int(two.sum())
    low_x = np.full(len(two), np.iinfo(np.int64).max)
    low_y = low_x.copy()
    np.minimum.at(low_x, s, x)
    np.minimum.at(low_y, s, y)
    flat = (place[s] * 2 + (x != low_x[s])) * 2 + (y != low_y[s])
    table = np.bincount(flat, minlength=4 * m).reshape(m, 2, 2)
    return _table_statistic(table, g_squared=g_squared, yates=True)[0]
