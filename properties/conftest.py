"""Hypothesis profiles: CI is derandomized so a run is reproducible on any machine."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

# the fixtures shared with tests/ (anchors, named graphs) live in tests/_fixtures.py
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _fixtures import *  # noqa: F403

settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
