"""Properties of the agreement statistics (causalcheck.report.agreement)."""

from __future__ import annotations

import math

import pytest
from causalcheck.report.agreement import (
    bootstrap,
    cohen_kappa,
    confusion,
    mae,
    pearson,
    ranks,
    spearman,
)
from hypothesis import assume, given
from hypothesis import strategies as st

scores = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
pairs = st.lists(st.tuples(scores, scores), min_size=2, max_size=40)
verdicts = st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60)


def _split(ps: list[tuple[float, float]]) -> tuple[list[float], list[float]]:
    return [p[0] for p in ps], [p[1] for p in ps]


@given(pairs)
def test_bounds(ps: list[tuple[float, float]]) -> None:
    """r and rho lie in [-1, 1]; MAE lies in [0, 1] for scores in [0, 1]."""
    x, y = _split(ps)
    for v in (pearson(x, y), spearman(x, y)):
        assert v is None or -1.0 <= v <= 1.0
    m = mae(x, y)
    assert m is not None and 0.0 <= m <= 1.0


@given(st.lists(scores, min_size=2, max_size=40))
def test_a_list_against_itself(x: list[float]) -> None:
    """r = rho = 1 (when the values vary) and MAE = 0."""
    assert mae(x, x) == 0.0
    if len(set(x)) > 1:
        assert pearson(x, x) == pytest.approx(1.0)
        assert spearman(x, x) == pytest.approx(1.0)
    else:
        assert pearson(x, x) is None and spearman(x, x) is None


@given(pairs)
def test_symmetry(ps: list[tuple[float, float]]) -> None:
    """Swapping the two sides changes none of the statistics."""
    x, y = _split(ps)
    assert pearson(x, y) == pearson(y, x) or pearson(x, y) == pytest.approx(pearson(y, x))
    assert spearman(x, y) == spearman(y, x) or spearman(x, y) == pytest.approx(spearman(y, x))
    assert mae(x, y) == pytest.approx(mae(y, x))


@given(pairs, st.sampled_from(["cube", "exp", "affine", "log1p"]))
def test_spearman_is_invariant_under_monotone_transforms(ps: list[tuple[float, float]], name: str) -> None:
    """A strictly increasing transform of one side leaves rho unchanged (ties stay ties)."""
    f = {"cube": lambda v: v**3, "exp": math.exp, "affine": lambda v: 3 * v - 7, "log1p": math.log1p}[name]
    x, y = _split(ps)
    fx = [f(v) for v in x]
    assume(ranks(fx) == ranks(x))  # a transform that rounds two close values together changes the ranks
    before, after = spearman(x, y), spearman(fx, y)
    assert (before is None and after is None) or after == pytest.approx(before, abs=1e-9)


@given(pairs)
def test_pearson_of_an_exact_line_is_one(ps: list[tuple[float, float]]) -> None:
    """y = 2x + 1 gives r = 1, and y = -x gives r = -1 (when x varies)."""
    x, _ = _split(ps)
    assume(max(x) - min(x) > 1e-6)
    assert pearson(x, [2 * v + 1 for v in x]) == pytest.approx(1.0)
    assert pearson(x, [-v for v in x]) == pytest.approx(-1.0)


def test_kappa_on_known_tables() -> None:
    """Textbook tables: perfect agreement 1, exact chance 0, perfect disagreement -1, a worked example."""
    assert cohen_kappa([True, False] * 5, [True, False] * 5) == 1.0
    assert cohen_kappa([True, False] * 5, [False, True] * 5) == -1.0
    # both raters 50% yes, independent: p_o = 0.5 = p_e
    assert cohen_kappa([True, True, False, False], [True, False, True, False]) == 0.0
    # 20 yes/yes, 5 a-only, 10 b-only, 15 no/no (n=50): p_o = 0.7, p_e = 0.5*0.6 + 0.5*0.4 = 0.5 -> 0.4
    a = [True] * 25 + [False] * 25
    b = [True] * 20 + [False] * 5 + [True] * 10 + [False] * 15
    assert cohen_kappa(a, b) == pytest.approx(0.4)
    t = confusion(a, b)
    assert (t.both_yes, t.a_only, t.b_only, t.both_no) == (20, 5, 10, 15)
    assert t.precision == pytest.approx(20 / 30) and t.recall == pytest.approx(20 / 25)
    assert cohen_kappa([True, True], [True, True]) is None  # chance agreement is already 1


@given(verdicts)
def test_kappa_bounds_and_symmetry(vs: list[tuple[bool, bool]]) -> None:
    """kappa lies in [-1, 1] (or is undefined) and does not depend on which rater is first."""
    a, b = [v[0] for v in vs], [v[1] for v in vs]
    k = cohen_kappa(a, b)
    assert k == cohen_kappa(b, a) or k == pytest.approx(cohen_kappa(b, a))
    assert k is None or -1.0 <= k <= 1.0
    if a == b and len(set(a)) > 1:
        assert k == pytest.approx(1.0)


@given(pairs, st.integers(min_value=0, max_value=2**31))
def test_bootstrap_is_seeded_and_brackets_the_statistic_range(ps: list[tuple[float, float]], seed: int) -> None:
    """Same seed, same interval; the interval of MAE lies within [0, 1]; none below MIN_BOOTSTRAP_N pairs."""
    from causalcheck.metrics import MIN_BOOTSTRAP_N

    x, y = _split(ps)
    one = bootstrap(mae, x, y, resamples=50, seed=seed)
    two = bootstrap(mae, x, y, resamples=50, seed=seed)
    assert one == two
    if len(ps) < MIN_BOOTSTRAP_N:
        assert one.low is None and one.high is None
        return
    assert one.low is not None and one.high is not None and 0.0 <= one.low <= one.high <= 1.0


def test_constant_side_is_undefined_even_when_the_mean_rounds() -> None:
    """[0.1, 0.1, 0.1] has no variance although its float mean is not exactly 0.1: r and rho are None."""
    assert pearson([0.1, 0.1, 0.1], [0.2, 0.5, 0.9]) is None
    assert spearman([0.2, 0.5, 0.9], [0.1, 0.1, 0.1]) is None
