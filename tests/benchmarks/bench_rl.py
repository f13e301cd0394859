"""Benchmark of the Gymnasium lab environment and its reward terms (issue 25).

Run ``python tests/benchmarks/bench_rl.py`` (``--quick`` for fewer episodes).  One process, so
every figure is per core.  Prints:

1. environment steps per second with text observations (the full prompt is built every step)
   and scripted actions — the replies of the offline planner's records on the 7-node suite,
   full records (~3 kB of JSON each) and action-only replies — against the floor of the plain
   ``Episode.step`` loop on pre-built actions; with the ``paper`` weights (sparse) and the
   ``dense`` weights (every term, the z3 consistency check each step); resets excluded and
   included (goal: ≥ 20 000 steps/s/core);
2. reward terms' latency per step (p50 / p95, dense weights, 7-node graphs) of
   :class:`causalcheck.rl.rewards.RewardTracker` against the naive full recomputation
   (parse, the complete two-question data-consistency check over every point, I-MEC sizes,
   metrics: nothing memoised) of the same
   steps (goal: ≤ 1 ms at p95).

Nothing is asserted; the figures go in docs/rl.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _rl import planner_replies
from causalcheck.graph import FREQ
from causalcheck.lab.episode import Episode, LabAction
from causalcheck.lab.suites import load_suite
from causalcheck.parsing import parse_record_obj
from causalcheck.records import DataPoint
from causalcheck.rl.env import CausaLabEnv
from causalcheck.rl.rewards import (
    PRESETS,
    RewardTracker,
    format_term,
    info_gain_term,
    mechanism_terms,
    premature_stop_term,
    success_term,
)
from causalcheck.solvers.data_consistency import data_consistency
from causalcheck.solvers.equivalence import imec_size


def _point(ident: str, state: Any) -> DataPoint:
    return DataPoint(ident, {k: v for k, v in state.items() if k != FREQ}, state.get(FREQ))


def _action_only(reply: str) -> str:
    rec = json.loads(reply)
    return json.dumps({k: rec[k] for k in ("action", "arg1", "arg2") if k in rec})


def _episodes(suite: Any, count: int) -> list[tuple[int, int, list[str]]]:
    out = []
    for k in range(count):
        index = k % len(suite.graphs)
        out.append((index, k, planner_replies(suite.graphs[index], k)))
    return out


def _env_rate(suite: Any, episodes: list[tuple[int, int, list[str]]], preset: str, short: bool) -> tuple[float, float]:
    envs = {i: CausaLabEnv(suite, graph=i, rewards=preset) for i, _, _ in episodes}
    steps, busy, total = 0, 0.0, 0.0
    for index, seed, replies in episodes:
        env = envs[index]
        acts = [_action_only(r) for r in replies] if short else replies
        t0 = time.perf_counter()
        env.reset(seed=seed)
        t1 = time.perf_counter()
        for a in acts:
            _, _, terminated, truncated, _ = env.step(a)
            steps += 1
            if terminated or truncated:
                break
        t2 = time.perf_counter()
        busy += t2 - t1
        total += t2 - t0
    return steps / busy, steps / total


def _floor_rate(suite: Any, episodes: list[tuple[int, int, list[str]]]) -> tuple[float, float]:
    eps = {i: Episode(suite.graphs[i]) for i, _, _ in episodes}
    steps, busy, total = 0, 0.0, 0.0
    for index, seed, replies in episodes:
        acts = [LabAction.from_record(json.loads(r)) for r in replies]
        ep = eps[index]
        t0 = time.perf_counter()
        ep.reset(seed)
        t1 = time.perf_counter()
        for a in acts:
            if ep.step(a).done:
                break
            steps += 1
        steps += 1
        t2 = time.perf_counter()
        busy += t2 - t1
        total += t2 - t0
    return steps / busy, steps / total


class _Recorder(RewardTracker):
    """A tracker that keeps the arguments of every call, to replay them."""

    def __init__(self) -> None:
        super().__init__(PRESETS["dense"])
        self.calls: list[tuple[str, Any, Any]] = []

    def reset(self, *args: Any) -> None:
        self.calls.append(("reset", args, None))
        super().reset(*args)

    def step(self, record: Any, **kw: Any) -> Any:
        self.calls.append(("step", record, kw))
        return super().step(record, **kw)


def _calls(suite: Any, episodes: list[tuple[int, int, list[str]]]) -> list[tuple[str, Any, Any]]:
    rec = _Recorder()
    for index, seed, replies in episodes:
        env = CausaLabEnv(suite, graph=index)
        env._rewards = rec
        env.reset(seed=seed)
        for r in replies:
            _, _, te, tr, _ = env.step(r)
            if te or tr:
                break
    return rec.calls


def _naive(state: dict[str, Any], record: Any, kw: dict[str, Any]) -> None:
    """Every term recomputed from scratch for the step (no memo, no incremental state)."""
    graph, config = state["graph"], state["config"]
    raw = record.get("hypothesis")
    if isinstance(raw, dict) and raw:
        h = parse_record_obj({"hypothesis": raw}).hypothesis
        if h is not None and not h.is_empty:
            state["final"] = h
    format_term(bool(kw["degraded"]))
    if kw["intervention"] is not None:
        target, st = kw["intervention"]
        state["points"].append(_point(f"manipulator/{len(state['points'])}", st))
        before = imec_size(graph, [[t] for t in sorted(state["targets"])])
        state["targets"].add(target)
        after = imec_size(graph, [[t] for t in sorted(state["targets"])])
        info_gain_term(before, after, imec_size(graph, []))
    if state["final"] is not None:  # the complete check, both questions (as check_record asks them)
        data_consistency(state["final"], state["points"], 0.01)
    success_term(kw["success"])
    if kw["done"]:
        h = state["final"]
        mechanism_terms(h.graph.pairs if h else (), dict(h.coefficients) if h else {}, sorted(graph.pairs), config, nodes=len(graph.nodes))
        premature_stop_term(kw["done_reason"], kw["success"], kw["submissions_left"], kw["submissions"])


def _latencies(calls: list[tuple[str, Any, Any]]) -> tuple[list[float], list[float]]:
    fast = RewardTracker(PRESETS["dense"])
    ours, naive = [], []
    state: dict[str, Any] = {}
    for kind, a, kw in calls:
        if kind == "reset":
            fast.reset(*a)
            graph, config, prior, initial = a
            state = {"graph": graph, "config": config, "targets": set(), "final": None,
                     "points": [DataPoint(str(r["id"]), dict(r["props"]), r["freq"]) for r in prior] + [_point("manipulator/0", initial)]}
            continue
        t0 = time.perf_counter()
        fast.step(a, **kw)
        t1 = time.perf_counter()
        _naive(state, a, kw)
        t2 = time.perf_counter()
        ours.append(t1 - t0)
        naive.append(t2 - t1)
    return ours, naive


def _pct(xs: list[float], q: float) -> float:
    return statistics.quantiles(xs, n=100, method="inclusive")[int(q) - 1] if len(xs) > 1 else xs[0]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--quick", action="store_true", help="fewer episodes")
    p.add_argument("--suite", default="7nodes")
    args = p.parse_args(argv)
    suite = load_suite(args.suite)
    episodes = _episodes(suite, 10 if args.quick else 40)
    n_steps = sum(len(r) for _, _, r in episodes)
    print(f"suite {args.suite}: {len(episodes)} planner episodes, {n_steps} steps; reply sizes "
          f"{statistics.median(len(x) for _, _, r in episodes for x in r):.0f} chars (median, full records)")
    floor = _floor_rate(suite, episodes)
    print("\n1. steps/s per core (resets excluded | included); floor = Episode.step on pre-built actions")
    print(f"   {'Episode.step floor':38s} {floor[0]:9.0f} | {floor[1]:8.0f}")
    for preset in ("paper", "dense"):
        for short in (True, False):
            busy, total = _env_rate(suite, episodes, preset, short)
            label = f"env, {preset} weights, {'action-only' if short else 'full-record'} replies"
            print(f"   {label:38s} {busy:9.0f} | {total:8.0f}   ({busy / floor[0]:.2f}x floor)")
    ours, naive = _latencies(_calls(suite, episodes))
    print(f"\n2. reward terms per step, dense weights, {len(ours)} steps (ms)")
    print(f"   {'RewardTracker (incremental)':38s} p50 {1e3 * _pct(ours, 50):7.3f}  p95 {1e3 * _pct(ours, 95):7.3f}  max {1e3 * max(ours):7.3f}")
    print(f"   {'naive full recomputation':38s} p50 {1e3 * _pct(naive, 50):7.3f}  p95 {1e3 * _pct(naive, 95):7.3f}  max {1e3 * max(naive):7.3f}")
    print(f"   speed-up at p95: {_pct(naive, 95) / _pct(ours, 95):.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
