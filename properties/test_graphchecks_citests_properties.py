"""Our Fisher-z, χ² and G² statistics against causal-learn's CIT on random data: the same p-values, edge cases included."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from causalcheck.graphchecks.citests import category_codes, contingency_test, fisherz_pvalue
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("causallearn")


@st.composite
def datasets(draw: st.DrawFn, discrete: bool) -> tuple[np.ndarray, int, int, list[int]]:
    """A seeded table of 4–6 columns (tiny n, constant and collinear columns possible) and a statement x ⫫ y | S, |S| ≤ 3."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = draw(st.sampled_from([1, 3, 5, 8, 20, 60, 300]))
    p = draw(st.integers(4, 6))
    if discrete:
        data = rng.integers(0, rng.integers(1, 5, size=p), size=(n, p)).astype(float)
    else:
        data = rng.normal(size=(n, p)) @ rng.normal(size=(p, p))
    edge = draw(st.sampled_from(["none", "constant", "collinear", "copy"]))
    if edge == "constant":
        data[:, draw(st.integers(0, p - 1))] = 3.0
    elif edge == "collinear":
        data[:, 0] = 2 * data[:, 1] - data[:, 2]
    elif edge == "copy":
        data[:, 0] = data[:, 1]
    cols = draw(st.permutations(range(p)))
    size = draw(st.integers(0, min(3, p - 2)))
    return data, cols[0], cols[1], sorted(cols[2 : 2 + size])


def _outcome(fn):  # type: ignore[no-untyped-def]
    """The p-value, or the exception's type (ValueError / ArithmeticError both mean: cannot be computed)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return float(fn())
        except (ValueError, ArithmeticError):
            return "error"


def _same(a: object, b: object) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-12
    return a == b


@settings(deadline=None)
@given(datasets(discrete=False))
def test_fisherz_equals_causal_learns(case: tuple[np.ndarray, int, int, list[int]]) -> None:
    """fisherz_pvalue gives causal-learn's Fisher-z p-value (or fails where it fails) on random continuous data."""
    from causallearn.utils.cit import CIT

    data, x, y, s = case
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        corr = np.corrcoef(data.T)
    theirs = _outcome(lambda: CIT(data, "fisherz")(x, y, s))
    ours = _outcome(lambda: fisherz_pvalue(corr, len(data), min(x, y), max(x, y), s))
    assert _same(ours, theirs), (ours, theirs)


@settings(deadline=None)
@given(datasets(discrete=True), st.booleans())
def test_chisq_and_gsq_equal_causal_learns(case: tuple[np.ndarray, int, int, list[int]], g_squared: bool) -> None:
    """contingency_test gives causal-learn's χ² / G² p-value on random discrete data (constant columns, tiny n included)."""
    from causallearn.utils.cit import CIT

    data, x, y, s = case
    theirs = _outcome(lambda: CIT(data, "gsq" if g_squared else "chisq")(x, y, s))
    ours = _outcome(lambda: contingency_test(category_codes(data), min(x, y), max(x, y), s, g_squared=g_squared).p_value)
    assert _same(ours, theirs), (ours, theirs)
