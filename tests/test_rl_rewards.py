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


def test_without_a_consistency_weight_the_other_terms_and_the_shown_data_are_the_same() -> None:
    """A tracker whose consistency weight is 0 gives every other term and detail the dense tracker
    gives on the same episode, and the environment shows the same data."""
    import json

    import pytest

    pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed: pip install 'causalcheck[rl]'")
    from _rl import planner_replies
    from causalcheck.rl.env import CausaLabEnv
    from causalcheck.rl.rewards import reward_weights

    suite = load_suite("4nodes")
    for index in range(3):
        replies = planner_replies(suite.graphs[index], index)
        dense = CausaLabEnv(suite, graph=index, rewards="dense")
        bare = CausaLabEnv(suite, graph=index, rewards=reward_weights({"consistency": 0.0}))
        for env in (dense, bare):
            env.reset(seed=index)
        for reply in replies:
            *_, te, tr, info_d = dense.step(reply)
            *_, _, _, info_b = bare.step(reply)
            terms_d = {k: v for k, v in info_d["reward_terms"].items() if k != "consistency"}
            details_d = {k: v for k, v in info_d["reward_details"].items() if k != "conflicting"}
            assert info_b["reward_terms"] == terms_d and info_b["reward_details"] == details_d, json.dumps(reply)[:80]
            assert bare.shown_data() == dense.shown_data()
            if te or tr:
                break
        assert len(dense._rewards.points) > 0
