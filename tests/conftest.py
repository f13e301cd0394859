"""Shared fixtures for tests/: defined once in tests/_fixtures.py (properties/ uses them too)."""

from _fixtures import *  # noqa: F403  (pytest collects fixtures from the conftest namespace)
from _fixtures import (  # noqa: F401
    ANCHORS,
    CAUSALAB_DATA,
    REPO,
    SAMPLE_RUN,
    SHARED,
    WHATIF_BENCHMARK,
    WHATIF_RESULT,
)
