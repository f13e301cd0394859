"""The single-turn dataset builder: rows a trainer can score as they are, split by graph."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed: pip install 'causalcheck[rl]'")

from _rl import planner_replies
from causalcheck.base.errors import InputFormatError
from causalcheck.lab.suites import load_suite
from causalcheck.rl.datasets import hypothesis_dataset, split_graphs
from causalcheck.rl.trl import hypothesis_reward


def _true_record(config: dict[str, Any]) -> str:
    """A step record stating the suite graph's own edges (no equation)."""
    return json.dumps({"hypothesis": {"edges": config["edges"]}, "action": "SUBMIT", "arg1": "done"})


def test_rows_hold_the_reward_columns_and_the_split_is_by_graph() -> None:
    """Every row scores through hypothesis_reward as it is; no graph is in both splits; same call, same rows."""
    ds = hypothesis_dataset("4nodes", seeds=[0, 1], test_fraction=0.25, split_seed=3)
    assert ds == hypothesis_dataset("4nodes", seeds=[0, 1], test_fraction=0.25, split_seed=3)
    train_graphs = {r["graph_id"] for r in ds["train"]}
    test_graphs = {r["graph_id"] for r in ds["test"]}
    assert train_graphs and test_graphs and not train_graphs & test_graphs
    assert len(train_graphs | test_graphs) == len(load_suite("4nodes").graphs)
    rows = ds["train"] + ds["test"]
    assert all(r["prompt"][0]["role"] == "system" and r["prompt"][1]["role"] == "user" for r in rows)
    columns = {k: [r[k] for r in rows] for k in ("data", "true_edges", "config")}
    right = hypothesis_reward(prompts=[r["prompt"] for r in rows], completions=[_true_record(r["config"]) for r in rows], **columns)
    empty = hypothesis_reward(prompts=[r["prompt"] for r in rows], completions=['{"action": "WAIT"}'] * len(rows), **columns)
    assert all(a > b for a, b in zip(right, empty, strict=True))
    # the JSON text of each column (as a dataset file holds it) scores the same
    as_text = {k: [json.dumps(v) for v in vs] for k, vs in columns.items()}
    assert hypothesis_reward(prompts=[r["prompt"] for r in rows], completions=[_true_record(r["config"]) for r in rows], **as_text) == right


def test_a_scripted_policy_plays_steps_before_the_row_and_its_data_grows() -> None:
    """With the planner's replies as policy the row is taken later and shows the interventions' data."""
    suite = load_suite("mini")
    graph = suite.graphs[0]
    replies = iter(planner_replies(graph, 0))
    ds = hypothesis_dataset(suite, seeds=[0], test_fraction=0, policy=lambda _prompt: next(replies, '{"action": "WAIT"}'), steps=3, chat=False)
    first = hypothesis_dataset(suite, seeds=[0], test_fraction=0, chat=False)
    row, start = ds["train"][0], first["train"][0]
    assert row["graph_id"] == start["graph_id"] == graph.graph_id and isinstance(row["prompt"], str)
    assert 0 < row["step"] <= 3 and len(row["data"]) > len(start["data"])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"test_fraction": 1.0}, "test_fraction"),
        ({"seeds": []}, "seeds is empty"),
        ({"seeds": [-1]}, "seeds=-1"),
        ({"steps": 2}, "needs a policy"),
        ({"budget": "nonsense"}, "budget"),
    ],
)
def test_bad_arguments_are_refused_naming_them(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(InputFormatError, match=match):
        hypothesis_dataset("mini", **kwargs)


def test_one_graph_cannot_be_split_and_says_how_to_keep_it() -> None:
    with pytest.raises(InputFormatError, match="test_fraction=0"):
        split_graphs(["only"], test_fraction=0.5)
    assert split_graphs(["only"], test_fraction=0) == (["only"], [])
