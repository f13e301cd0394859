"""Single-turn datasets from lab suites: one prompt per graph and seed, with the reward columns.

:func:`hypothesis_dataset` plays each episode of a suite to the step the row is taken at and
writes what a single-turn trainer needs (TRL's ``GRPOTrainer``, or any loop that calls
:func:`causalcheck.rl.trl.hypothesis_reward`):

* ``prompt`` — the chat messages the LLM agent would be sent (system and user), or the user
  text alone with ``chat=False``;
* ``data`` — the data the environment has shown by then (:meth:`CausaLabEnv.shown_data`);
* ``true_edges`` — the graph's edges in the suite's own ``{"from", "to"}`` form;
* ``config`` — the suite graph's record (it gives the reward's ``coefficient_f1``);
* ``graph_id``, ``seed``, ``step`` — where the row comes from.

Rows are split by *graph*, so no graph of the test split is seen in training: the suite's
graphs are shuffled with ``numpy.random.default_rng(split_seed)`` and the first
``round(test_fraction · graphs)`` (at least one, at most all but one) go to ``test``.  The same
arguments give the same rows, byte for byte.

By default a row is the episode's first prompt (its prior records are the data; ``budget="3o6i"``
shows three).  With a ``policy`` (``policy(prompt) -> reply``) the first ``steps`` replies are
played and the row is the prompt after them — or the last prompt before the episode ended, when
the policy ends it sooner.  Needs the ``rl`` extra (Gymnasium).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
from causalcheck.base.errors import InputFormatError
from causalcheck.base.limits import check_seed
from causalcheck.lab.suites import Suite
from causalcheck.rl.env import CausaLabEnv

__all__ = ["hypothesis_dataset", "split_graphs"]

#: Most rows one call builds (graphs × seeds): a dataset larger than this is built in parts.
MAX_ROWS = 1_000_000


def split_graphs(graph_ids: Iterable[str], *, test_fraction: float = 0.25, split_seed: int = 0) -> tuple[list[str], list[str]]:
    """(train, test) graph ids: shuffled by ``default_rng(split_seed)``, the first
    ``round(test_fraction · n)`` (at least one, at most n − 1) to test; ``test_fraction=0`` keeps all for training.

    >>> split_graphs(["a", "b", "c", "d"], test_fraction=0.25, split_seed=0)
    (['a', 'b', 'd'], ['c'])
    """
    ids = list(graph_ids)
    if isinstance(test_fraction, bool) or not isinstance(test_fraction, (int, float)) or not 0 <= test_fraction < 1 or math.isnan(test_fraction):
        raise InputFormatError(f"test_fraction={test_fraction!r} must be a number in [0, 1)")
    check_seed(split_seed, "split_seed")
    if test_fraction == 0:
        return ids, []
    if len(ids) < 2:
        raise InputFormatError(f"a split needs two graphs or more; this suite has {len(ids)}: pass test_fraction=0 to keep every row for training")
    order = np.random.default_rng(split_seed).permutation(len(ids))
    n_test = min(len(ids) - 1, max(1, round(test_fraction * len(ids))))
    test = {int(k) for k in order[:n_test]}
    return [g for k, g in enumerate(ids) if k not in test], [g for k, g in enumerate(ids) if k in test]


def hypothesis_dataset(
    suite: str | Suite = "mini",
    *,
    seeds: Iterable[int] = range(4),
    test_fraction: float = 0.25,
    split_seed: int = 0,
    policy: Callable[[str], str] | None = None,
    steps: int = 0,
    chat: bool = True,
    **flags: Any,
) -> dict[str, list[dict[str, Any]]]:
    """``{"train": rows, "test": rows}`` of *suite* (module docstring); *flags* are ``lab run``'s episode options."""
    seed_list = [check_seed(s, "seeds") for s in seeds]
    if not seed_list:
        raise InputFormatError("seeds is empty: give at least one episode seed")
    if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
        raise InputFormatError(f"steps={steps!r} must be a non-negative integer")
    if steps and policy is None:
        raise InputFormatError(f"steps={steps} needs a policy (policy(prompt) -> reply) to play them")
    env = CausaLabEnv(suite, **flags)
    graphs = env.suite.graphs
    if len(graphs) * len(seed_list) > MAX_ROWS:
        raise InputFormatError(f"{len(graphs)} graphs × {len(seed_list)} seeds is more than MAX_ROWS={MAX_ROWS} rows: build the dataset in parts")
    _, test = split_graphs([g.graph_id for g in graphs], test_fraction=test_fraction, split_seed=split_seed)
    held_out = set(test)
    out: dict[str, list[dict[str, Any]]] = {"train": [], "test": []}
    for index, graph in enumerate(graphs):
        for seed in seed_list:
            row = _row(env, index, seed, policy, steps, chat)
            out["test" if graph.graph_id in held_out else "train"].append(row)
    return out


def _row(env: CausaLabEnv, index: int, seed: int, policy: Callable[[str], str] | None, steps: int, chat: bool) -> dict[str, Any]:
    prompt, info = env.reset(seed=seed, options={"graph": index})
    messages, data, at = info["messages"], env.shown_data(), 0
    for k in range(min(steps, info["max_steps"])):
        assert policy is not None  # checked by the caller
        reply = policy(prompt)
        if not isinstance(reply, str):
            raise InputFormatError(f"the policy returned {type(reply).__name__}, not text, at graph {info['graph_id']!r} seed {seed} step {k + 1}")
        prompt, _, terminated, truncated, step_info = env.step(reply)
        if terminated or truncated:
            break
        messages, data, at = step_info["messages"], env.shown_data(), k + 1
    graph = env.episode.graph
    return {
        "prompt": [dict(m) for m in messages] if chat else messages[-1]["content"],
        "data": data,
        "true_edges": [dict(e) for e in graph.config.get("edges", [])],
        "config": dict(graph.config),
        "graph_id": graph.graph_id,
        "seed": seed,
        "step": at,
    }
