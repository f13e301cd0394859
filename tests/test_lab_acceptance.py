"""Acceptance: the planner's task accuracy and all-edge F1 on the official linear suites."""

from __future__ import annotations

from pathlib import Path

import pytest
from causalcheck.lab.agents import make_agent
from causalcheck.lab.runner import run_episode
from causalcheck.lab.suites import load_suite


@pytest.mark.slow
@pytest.mark.parametrize("k", [3, 4, 5, 6, 7])
def test_planner_reaches_095_on_official_linear_suites(causalab_data: Path, k: int) -> None:
    """With default budgets (seed 1) the planner reaches ≥ 0.95 task accuracy and all-edge F1."""
    suite = load_suite(causalab_data / f"{k}nodes.jsonl")
    results = [run_episode(g, make_agent("planner", seed=1), 1)[2] for g in suite]
    accuracy = sum(r["success"] for r in results) / len(results)
    edge_f1 = sum(r["edge_f1"] for r in results) / len(results)
    assert accuracy >= 0.95 and edge_f1 >= 0.95, (accuracy, edge_f1)
    assert all(r["interventions_used"] <= g.budget for r, g in zip(results, suite, strict=True))
