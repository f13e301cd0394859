"""Example tests of the reward tracker's memos (the property tests are in properties/test_rl_rewards_properties.py)."""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

from causalcheck import metrics as M
from causalcheck.lab.suites import load_suite
from causalcheck.rl.rewards import PRESETS, RewardTracker, mechanism_terms


def _shifted(config: dict[str, Any]) -> dict[str, Any]:
    """*config* with every numeric parameter moved by 1 (the same structure, other true coefficients)."""
    out = copy.deepcopy(config)
    out["params"] = {k: (v + 1.0 if isinstance(v, (int, float)) and not isinstance(v, bool) else v) for k, v in out["params"].items()}
    return out


def test_two_graphs_with_one_structure_do_not_share_a_coefficient_score() -> None:
    """The mechanism memo is keyed by the true coefficients too: a tracker reused across two suite
    graphs of the same structure scores each hypothesis against its own graph's coefficients."""
    g = load_suite("4nodes").graphs[0]
    config_a = dict(g.config)
    config_b = _shifted(config_a)
    truth_a, truth_b = M.true_coefficients(config_a), M.true_coefficients(config_b)
    assert truth_a and truth_a != truth_b
    hyp: Any = SimpleNamespace(graph=SimpleNamespace(pairs=g.scm.graph.pairs), coefficients={f"c_{p}": v for p, v in truth_a.items()})
    tracker = RewardTracker(PRESETS["dense"])
    initial = {n: 1.0 for n in g.scm.nodes}
    tracker.reset(g.scm.graph, config_a, [], initial)
    terms_a, _ = tracker.mechanism(hyp)
    tracker.reset(g.scm.graph, config_b, [], initial)
    terms_b, _ = tracker.mechanism(hyp)
    assert terms_a["coefficient_f1"] == 1.0
    assert terms_b["coefficient_f1"] < 1.0
    # each equals the unmemoised computation
    for config, terms in ((config_a, terms_a), (config_b, terms_b)):
        assert terms == mechanism_terms(hyp.graph.pairs, hyp.coefficients, sorted(g.scm.graph.pairs), config, nodes=len(g.scm.graph.nodes))[0]
