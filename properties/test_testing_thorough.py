"""The testing kit's ``thorough`` profile on causalcheck's own SHD and edge F1 — part of the full-strength run.

These two suites are the deepest dogfooding run of :mod:`causalcheck.testing`: 2000 examples a
property, new examples each run (the profile is not derandomized).  They run with the fuzz
harness (``-m fuzz``) and follow its example count: the full-strength run
(``pytest -m fuzz -n auto properties/``, ``CAUSALCHECK_FUZZ_SLOW_EXAMPLES`` unset) gives each
property the thorough profile's 2000; CI's rotating sample (150) gives it that many.  The ``ci``
profile of the same suites runs in every ``pytest -q`` (``properties/test_metrics_properties.py``).
"""

from __future__ import annotations

import pytest
from _fuzz import SLOW_EXAMPLES
from causalcheck.metrics import edge_prf, shd
from causalcheck.testing import check_graph_metric
from causalcheck.testing.profiles import PROFILES

#: examples a property: the thorough profile's, or the run's fuzz sample when that is smaller
EXAMPLES = min(SLOW_EXAMPLES, PROFILES["thorough"].max_examples)


@pytest.mark.fuzz
@pytest.mark.parametrize("metric", ["shd", "edge-f1"])  # two tests, so the run spreads them over its workers
def test_causalcheck_metrics_pass_at_the_thorough_profile(metric: str) -> None:
    """At the thorough profile (2000 examples a property at full strength) SHD and edge F1 still pass."""
    if metric == "shd":
        check_graph_metric(lambda t, e: shd(e, t, names="exact"), "distance", reference="shd", profile="thorough", max_examples=EXAMPLES)
    else:
        check_graph_metric(
            lambda t, e: edge_prf(e, t), "similarity", names="causalab", reference="edge-f1", profile="thorough", max_examples=EXAMPLES
        )
