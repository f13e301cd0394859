"""Benchmark of the Gymnasium lab environment and its reward terms (issue 25).

Run ``python tests/benchmarks/bench_rl.py`` (``--quick`` for fewer episodes and rounds).  One
process, so every figure is per core.  Prints:

1. environment steps per second with text observations (the full prompt is built every step)
   and scripted actions — the replies of the offline planner's records on the 7-node suite,
   full records (~3 kB of JSON each) and action-only replies — against the floor of the plain
   ``Episode.step`` loop on pre-built actions; with the ``paper`` weights (sparse) and the
   ``dense`` weights (every term, the z3 consistency check each step); resets excluded and
   included (goal: ≥ 5 000 steps/s/core with resets included); and the default reset path — one environment built
   without a graph, each ``reset(seed=…)`` drawing the graph itself (the other loops name it).  Every environment is built and played once before
   the timing (its first reset compiles the graph's equations and draws the prior records: that
   construction is printed apart); then several rounds, each on fresh episode seeds (round 0 the
   planner's own), every loop in turn within a round, so the ratios compare loops measured in the
   same minute on this shared machine (its speed varies by 2× between hours).  The median round,
   the 10th percentile (the slow tail) and the best are printed, with the machine (CPU model,
   Python) and, over the timed rounds, the process's CPU time against the wall clock and the
   hypervisor's steal share (``/proc/stat``): a round is only ~0.07 s, so a pause of the machine
   shows in a few rounds, not in the median.  Beside the wall-clock rates, each loop's rate with
   resets included per second of this process's CPU time (``time.process_time``): what one core
   gives when the process has it to itself, the figure a busy shared machine does not change;
2. reward terms' latency per step (p50 / p95, dense weights, 7-node graphs) of
   :class:`causalcheck.rl.rewards.RewardTracker` against the naive full recomputation
   (parse, the complete two-question data-consistency check over every point, I-MEC sizes,
   metrics: nothing memoised) of the same
   steps (goal: ≤ 1 ms at p95).

``--loop R`` plays only R rounds of the first 120 episodes (paper weights, action-only replies)
and prints nothing: for instruction counts that do not depend on the machine's speed,
``valgrind --tool=callgrind --callgrind-out-file=/dev/null python tests/benchmarks/bench_rl.py
--loop 3`` minus the same with ``--loop 1``, halved, is one round without the start-up (it runs
against older modules too, for an A/B).

Nothing is asserted; the figures go on docs/performance.md.
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


#: a round's episode seeds: the planner's own in round 0, then fresh ones (the same scripted replies)
_ROUND_SEED = 1_000_003


def _env_rate(envs: dict[int, CausaLabEnv], episodes: list[tuple[int, int, list[str]]], rnd: int) -> tuple[int, float, float]:
    """(steps, seconds in steps, seconds in resets) of one round of *episodes* through *envs*."""
    return _played(((envs[index], lambda env, s=seed: env.reset(seed=s + _ROUND_SEED * rnd), acts) for index, seed, acts in episodes))


def _default_reset_rate(env: CausaLabEnv, episodes: list[tuple[int, tuple[int, ...], list[str]]], rnd: int) -> tuple[int, float, float]:
    """As :func:`_env_rate`, through one environment built without a graph: each ``reset(seed=…)``
    draws the graph itself (the default path), on the round's seed for which it draws the episode's graph."""
    return _played(((env, lambda e, s=seeds[rnd]: e.reset(seed=s), acts) for _, seeds, acts in episodes))


def _played(runs: Any) -> tuple[int, float, float]:
    """(steps, seconds in steps, seconds in resets) of ``(env, reset, replies)`` episodes played in turn."""
    steps, busy, resets = 0, 0.0, 0.0
    for env, reset, acts in runs:
        t0 = time.perf_counter()
        reset(env)
        t1 = time.perf_counter()
        for a in acts:
            _, _, terminated, truncated, _ = env.step(a)
            steps += 1
            if terminated or truncated:
                break
        t2 = time.perf_counter()
        busy += t2 - t1
        resets += t1 - t0
    return steps, busy, resets


def _drawing_seeds(suite: Any, episodes: list[tuple[int, int, list[str]]], rounds: int) -> list[tuple[int, tuple[int, ...], list[str]]]:
    """Per episode and round, the first seed from the round's own on for which a graph-less
    environment's reset draws the episode's graph (so its scripted replies fit)."""
    probe = CausaLabEnv(suite)
    drawn: dict[int, int] = {}

    def graph_of(seed: int) -> int:
        if seed not in drawn:
            drawn[seed] = [g.graph_id for g in suite.graphs].index(probe.reset(seed=seed)[1]["graph_id"])
        return drawn[seed]

    out = []
    for index, seed, acts in episodes:
        seeds = []
        for rnd in range(rounds):
            s = seed + _ROUND_SEED * rnd
            while graph_of(s) != index:
                s += _ROUND_SEED * rounds  # past every round's own seeds: no two rounds share one
            seeds.append(s)
        out.append((index, tuple(seeds), acts))
    return out


def _floor_rate(eps: dict[int, Episode], episodes: list[tuple[int, int, list[LabAction]]], rnd: int) -> tuple[int, float, float]:
    steps, busy, resets = 0, 0.0, 0.0
    for index, seed, acts in episodes:
        ep = eps[index]
        t0 = time.perf_counter()
        ep.reset(seed + _ROUND_SEED * rnd)
        t1 = time.perf_counter()
        for a in acts:
            steps += 1
            if ep.step(a).done:
                break
        t2 = time.perf_counter()
        busy += t2 - t1
        resets += t1 - t0
    return steps, busy, resets


def _machine() -> str:
    """The CPU model and Python running the benchmark (figures from two machines are not comparable)."""
    import platform

    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}; Python {platform.python_version()} ({platform.python_implementation()})"


def _cpu_ticks() -> tuple[int, int] | None:
    """(all, steal) jiffies of the machine from ``/proc/stat``; ``None`` where it cannot be read."""
    try:
        fields = Path("/proc/stat").read_text(encoding="utf-8").split("\n", 1)[0].split()[1:]
        values = [int(v) for v in fields]
    except (OSError, ValueError):
        return None
    return sum(values), values[7] if len(values) > 7 else 0


def _throughput(suite: Any, episodes: list[tuple[int, int, list[str]]], rounds: int) -> None:
    indices = sorted({i for i, _, _ in episodes})
    floor_eps = {i: Episode(suite.graphs[i]) for i in indices}
    # label -> (the loop's function, its episode objects or environments, its episodes)
    loops: dict[str, tuple[Any, Any, Any]] = {
        "Episode.step floor (pre-built actions)": (
            _floor_rate, floor_eps, [(i, s, [LabAction.from_record(json.loads(r)) for r in rs]) for i, s, rs in episodes]
        )
    }
    for preset in ("paper", "dense"):
        for short in (True, False):
            label = f"env, {preset} weights, {'action-only' if short else 'full-record'} replies"
            acts = [(i, s, [_action_only(r) for r in rs] if short else rs) for i, s, rs in episodes]
            loops[label] = (_env_rate, {i: CausaLabEnv(suite, graph=i, rewards=preset) for i in indices}, acts)
    short_acts = [(i, s, [_action_only(r) for r in rs]) for i, s, rs in episodes]
    loops["env, paper, action-only, default reset"] = (
        _default_reset_rate, CausaLabEnv(suite, rewards="paper"), _drawing_seeds(suite, short_acts, rounds)
    )
    # construction: each object's first episode (its reset compiles the equations and draws the prior
    # records), untimed but for that reset, whose time per object is printed apart
    built = []
    for run, objs, acts in loops.values():
        first = list({i: (i, s, a) for i, s, a in reversed(acts)}.values())  # each object's first episode
        _, _, resets = run(objs, first, 0)
        built.append(resets / len(first))
    print(f"   first reset of an environment (construction): {1e3 * statistics.median(built):.2f} ms (median of the loops); not in the figures below")
    results: dict[str, list[tuple[float, float, float, float, float]]] = {k: [] for k in loops}
    ticks0, cpu0, wall0 = _cpu_ticks(), time.process_time(), time.perf_counter()
    for rnd in range(rounds):
        for label, (run, objs, acts) in loops.items():
            c0 = time.process_time()
            steps, busy, resets = run(objs, acts, rnd)
            cpu_round = time.process_time() - c0
            results[label].append((steps / busy, steps / (busy + resets), 1e6 * busy / steps, 1e6 * resets / len(acts), steps / cpu_round))
    ticks1, cpu, wall = _cpu_ticks(), time.process_time() - cpu0, time.perf_counter() - wall0
    steal = ""
    if ticks0 is not None and ticks1 is not None and ticks1[0] > ticks0[0]:
        steal = f", the machine's steal share {100 * (ticks1[1] - ticks0[1]) / (ticks1[0] - ticks0[0]):.1f} %"
    print(f"   timed rounds: {wall:.1f} s wall, {cpu:.1f} s CPU of this process ({100 * cpu / wall:.0f} %){steal}")
    floor_label = next(iter(loops))
    floor_med = statistics.median(r[0] for r in results[floor_label])
    print(f"   {'':44s} {'steps/s, resets excluded':>32s} | {'resets included':>23s} | {'per step':>9s} {'per reset':>10s} | {'incl., per CPU s':>15s}")
    print(f"   {'':44s} {'median':>8s} {'p10':>7s} {'best':>7s} {'x floor':>7s} | {'median':>7s} {'p10':>7s} {'best':>7s} | {'µs':>9s} {'µs':>10s} |"
          f" {'median':>7s} {'p10':>7s}")
    for label, rs in results.items():
        excl = statistics.median(r[0] for r in rs)
        incl = statistics.median(r[1] for r in rs)
        print(f"   {label:44s} {excl:8.0f} {_pct([r[0] for r in rs], 10):7.0f} {max(r[0] for r in rs):7.0f} {excl / floor_med:6.2f}x |"
              f" {incl:7.0f} {_pct([r[1] for r in rs], 10):7.0f} {max(r[1] for r in rs):7.0f} |"
              f" {statistics.median(r[2] for r in rs):9.1f} {statistics.median(r[3] for r in rs):10.1f} |"
              f" {statistics.median(r[4] for r in rs):7.0f} {_pct([r[4] for r in rs], 10):7.0f}")
    print(f"   ({rounds} rounds of {len(episodes)} episodes each; per round, excluded | included:")
    for label, rs in results.items():
        print(f"    {label:44s} " + "  ".join(f"{a:6.0f}|{b:<6.0f}" for a, b, *_ in rs))
    print("   )")


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
    p.add_argument("--quick", action="store_true", help="fewer episodes and rounds (40 episodes, 2 rounds)")
    p.add_argument("--suite", default="7nodes")
    p.add_argument("--episodes", type=int, default=None, help="planner episodes per round (default 200)")
    p.add_argument("--rounds", type=int, default=None, help="timed rounds, each on fresh seeds (default 15)")
    p.add_argument("--loop", type=int, default=None, metavar="R", help="only play R rounds of 120 episodes, print nothing (for callgrind)")
    args = p.parse_args(argv)
    suite = load_suite(args.suite)
    if args.loop is not None:
        if not 1 <= args.loop <= 1000:
            p.error(f"--loop={args.loop} must be in 1..1000")
        eps = [(i, s, [_action_only(r) for r in rs]) for i, s, rs in _episodes(suite, 120)]
        envs = {i: CausaLabEnv(suite, graph=i, rewards="paper") for i in sorted({i for i, _, _ in eps})}
        for rnd in range(args.loop):
            _env_rate(envs, eps, rnd)
        return 0
    count = args.episodes or (40 if args.quick else 200)
    rounds = args.rounds or (2 if args.quick else 15)
    if not 1 <= count <= 100_000 or not 1 <= rounds <= 1000:
        p.error(f"--episodes={count} must be in 1..100000 and --rounds={rounds} in 1..1000")
    episodes = _episodes(suite, count)
    n_steps = sum(len(r) for _, _, r in episodes)
    print(f"machine: {_machine()}")
    print(f"suite {args.suite}: {len(episodes)} planner episodes, {n_steps} steps; reply sizes "
          f"{statistics.median(len(x) for _, _, r in episodes for x in r):.0f} chars (median, full records)")
    print("\n1. steps/s per core; floor = Episode.step on pre-built actions")
    _throughput(suite, episodes, rounds)
    lat_eps = episodes[:40]
    ours, naive = _latencies(_calls(suite, lat_eps))
    print(f"\n2. reward terms per step, dense weights, {len(ours)} steps (ms)")
    print(f"   {'RewardTracker (incremental)':38s} p50 {1e3 * _pct(ours, 50):7.3f}  p95 {1e3 * _pct(ours, 95):7.3f}  max {1e3 * max(ours):7.3f}")
    print(f"   {'naive full recomputation':38s} p50 {1e3 * _pct(naive, 50):7.3f}  p95 {1e3 * _pct(naive, 95):7.3f}  max {1e3 * max(naive):7.3f}")
    print(f"   speed-up at p95: {_pct(naive, 95) / _pct(ours, 95):.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
