"""One bootstrap: the score tables' intervals and the agreement statistics' intervals come from the
same resample indices and the same percentile bounds (causalcheck.metrics)."""

from __future__ import annotations

from causalcheck.lab.score import _Bootstrap
from causalcheck.metrics import bootstrap_ci
from causalcheck.report.agreement import bootstrap
from hypothesis import given, settings
from hypothesis import strategies as st

VALUES = st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=0, max_size=40)


@settings(max_examples=60, deadline=None)
@given(values=VALUES, seed=st.integers(0, 2**32), resamples=st.sampled_from([0, 1, 7, 200]))
def test_every_bootstrap_gives_the_same_interval_of_a_mean(values: list[float], seed: int, resamples: int) -> None:
    """The mean of x through the pairs bootstrap, the score tables' bootstrap and bootstrap_ci: one interval, to the bit."""
    ci = bootstrap_ci(values, resamples=resamples, seed=seed)
    assert _Bootstrap(resamples, seed).ci(values) == ci.to_json()
    pairs = bootstrap(lambda xs, _ys: sum(xs) / len(xs) if xs else None, values, values, resamples=resamples, seed=seed)
    if ci.low is None:
        assert pairs.low is None and pairs.high is None
    else:
        # the pairs bootstrap sums in Python, bootstrap_ci with numpy: the same resamples, within rounding
        assert pairs.low is not None and pairs.high is not None
        assert abs(pairs.low - ci.low) <= 1e-9 * max(1.0, abs(ci.low)) and abs(pairs.high - ci.high) <= 1e-9 * max(1.0, abs(ci.high))
