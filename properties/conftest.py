"""Hypothesis profiles for the property tests, from causalcheck's testing kit (causalcheck.testing.profiles).

``ci`` (the default) is derandomized, so a run is reproducible on any machine; ``dev`` and
``thorough`` draw new examples.  Choose with ``HYPOTHESIS_PROFILE`` or ``CAUSALCHECK_PROFILE``.
The suites of causalcheck.testing follow the pytest plugin's ``--causalcheck-profile``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from causalcheck.testing.profiles import PROFILES, settings_for
from hypothesis import settings

# the fixtures shared with tests/ (anchors, named graphs) live in tests/_fixtures.py
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _fixtures import *  # noqa: F403
from _fuzz import Outputs, make_outputs

for _name in PROFILES:
    # plain @given tests here keep 100 examples at ci (the suites' own budget is 50 per property)
    settings.register_profile(_name, settings_for(_name, max_examples=100 if _name == "ci" else None))
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or os.environ.get("CAUSALCHECK_PROFILE") or "ci")


def pytest_report_header(config: pytest.Config) -> str:
    """Name the fuzz seed and example counts in the run's header, so a failure can be replayed."""
    from _fuzz import DEFAULT_EXAMPLES, FUZZ_SEED, SLOW_EXAMPLES

    seed = repr(FUZZ_SEED) if FUZZ_SEED else "none (fixed per-target seeds)"
    return (
        f"fuzz: CAUSALCHECK_FUZZ_SEED={seed}, {DEFAULT_EXAMPLES} examples per target by default, "
        f"{SLOW_EXAMPLES} under -m fuzz; replay a failure with the same seed and count and the test id"
    )


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    """causalcheck's own outputs on bundled data (a lab run, scores, an explain result, a check report, a snapshot), for the fuzz rows."""
    return make_outputs(tmp_path_factory.mktemp("outputs"))


@pytest.fixture(scope="module")
def inspect_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with one causalcheck/whatif inspect log of three demo questions in each log format (``whatif.eval``,
    ``whatif.json``), answered by inspect's mock model; skips when inspect_ai is not installed."""
    pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install 'causalcheck[inspect]'): no inspect-log fuzz rows")
    from _fuzz import make_inspect_logs

    return make_inspect_logs(tmp_path_factory.mktemp("inspect-logs"))
