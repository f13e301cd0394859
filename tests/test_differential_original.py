"""The lab against the original CausaLab environment: the differential of tests/benchmarks/diff_original.py.

Slow, and only where the original source is: set ``CAUSALAB_SOURCE`` to a checkout of
CausaLab-Benchmark (its ``discoveryworld`` package needs ``termcolor`` and ``pathfinding``).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

HERE = Path(__file__).resolve().parent


def _differential() -> ModuleType:
    spec = importlib.util.spec_from_file_location("diff_original", HERE / "benchmarks" / "diff_original.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def original_source() -> Path:
    """The original environment's source folder, from CAUSALAB_SOURCE only."""
    value = os.environ.get("CAUSALAB_SOURCE")
    if not value:
        pytest.skip("CAUSALAB_SOURCE is not set (a checkout of CausaLab-Benchmark)")
    path = Path(value)
    if not (path / "discoveryworld").is_dir():
        pytest.skip(f"CAUSALAB_SOURCE={value!r} has no discoveryworld package")
    for module in ("termcolor", "pathfinding"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"the original environment needs {module!r} (pip install {module})")
    return path


@pytest.mark.slow
def test_lab_matches_the_original_on_every_case(original_source: Path, causalab_data: Path) -> None:
    """570 random intervention sequences over the 19 suites: every value, budget and reactor check equal."""
    diff = _differential()
    suites = diff.official_suites()
    assert len(suites) == 19
    cases = diff.run(original_source)
    assert len(cases) == 19 * diff.PER_SUITE == 570
    differing = [c for c in cases if c.differences]
    assert not differing, diff.summary(cases)


@pytest.mark.slow
def test_the_differential_sees_a_wrong_value(
    original_source: Path, causalab_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shift rounded the other way (b + (v − x)) is caught: the comparison can fail."""
    diff = _differential()
    orig = diff.load_original(original_source)
    cases = diff.make_cases(["4nodes"], per_suite=30, seed=diff.SEED)
    from causalcheck.lab.scm import SCM

    def other_rounding(self: SCM, bases: list[float], values: list[float], node: int, target: float) -> None:
        bases[node] = round(bases[node] + (target - values[node]), 2) if self.has_parents(node) else round(target, 2)
        values[:] = self.evaluate_list(bases)

    monkeypatch.setattr(SCM, "shift_inplace", other_rounding)
    found = [diff.run_case(orig, c) for c in cases]
    assert any(c.differences for c in found)


@pytest.mark.slow
def test_lab_score_agrees_with_the_official_reevaluation_on_every_episode(sample_run: Path) -> None:
    """tests/benchmarks/diff_reeval.py: the sample run twice under two names and 60 generated episodes (5 copied under
    a second name) — every episode's 18 metrics equal the official run_lightweight_reeval --source-only (issue 20)."""
    value = os.environ.get("CAUSALAB_SOURCE")
    if not value or not (Path(value) / "causalab_reeval").is_dir():
        pytest.skip("CAUSALAB_SOURCE is not set to a checkout of CausaLab-Benchmark with causalab_reeval/")
    spec = importlib.util.spec_from_file_location("diff_reeval", HERE / "benchmarks" / "diff_reeval.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    assert module.main(["--causalab-source", value, "--episodes", "60"]) == 0
