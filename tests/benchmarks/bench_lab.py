"""Lab throughput: interventions per second on one core, and planner episodes per second.

Reference ("naive") = the anchor's style of simulation: a recursive evaluation over a dict
of node values that evaluates each node's ``computation`` string with Python's ``eval``
every time (as DiscoveryWorld does), then recomputes the whole crystal after a shift.
Ours = the SCM compiled to straight-line code that updates only the intervened node's
descendants (``SCM.shift_inplace``), and the full ``Episode.step`` (which also builds the
structured observation and its text).

Run: ``python tests/benchmarks/bench_lab.py [--quick]``.  Prints rates and ratios; asserts
nothing.  Suites are read from the bundled data or the official files when present.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from causalcheck.lab.agents import make_agent
from causalcheck.lab.episode import Episode, EpisodeConfig, LabAction
from causalcheck.lab.generator import generate_suite
from causalcheck.lab.runner import run_episode
from causalcheck.lab.suites import Suite, load_suite, parse_suite_record


def _suite(name: str, k: int) -> Suite:
    try:
        return load_suite(name)
    except Exception:  # official data absent: a generated suite with the same shapes
        return Suite(name, tuple(parse_suite_record(r) for r in generate_suite(k, 10, seed=k)))


class NaiveSCM:
    """Anchor-style: recursive, dict-based, ``eval`` of the formula text on every call."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.nodes = config["nodes"]
        self.params = config["params"]
        self.parents: dict[str, list[str]] = {n: [] for n in self.nodes}
        for e in config["edges"]:
            self.parents[e["to"]].append(e["from"])

    def compute(self, bases: dict[str, float]) -> dict[str, float]:
        values: dict[str, float] = {}

        def visit(n: str) -> float:
            if n in values:
                return values[n]
            for p in self.parents[n]:
                visit(p)
            spec = self.nodes[n]
            comp = spec.get("computation")
            if comp is None:
                v = bases[n]
            else:
                env = {**self.params, **{p: values[p] for p in self.parents[n]}}
                if spec.get("is_controllable"):
                    env[f"base_{n}"] = bases[n]
                v = eval(comp.replace("^", "**"), {"__builtins__": {}}, env)
            values[n] = round(v, 2)
            return values[n]

        for n in self.nodes:
            visit(n)
        return values

    def shift(self, bases: dict[str, float], values: dict[str, float], node: str, target: float) -> dict[str, float]:
        bases[node] = round(bases[node] + (target - values[node]), 2)
        return self.compute(bases)


def bench_interventions(suite: Suite, n: int) -> tuple[float, float, float]:
    graphs = list(suite.graphs)
    # ours: compiled shift
    total = 0
    t = time.perf_counter()
    for g in graphs:
        scm = g.scm
        bases = [float((7 * i) % 100) for i in range(len(scm.nodes))]
        vals = scm.evaluate_list(bases)
        ctrl = scm.controllable
        for i in range(n):
            scm.shift_inplace(bases, vals, ctrl[i % len(ctrl)], float(i % 100))
        total += n
    fast = total / (time.perf_counter() - t)
    # naive reference
    total = 0
    m = max(n // 20, 50)
    t = time.perf_counter()
    for g in graphs:
        naive = NaiveSCM(dict(g.config))
        names = g.scm.controllable_names
        nb = {x: float((7 * i) % 100) for i, x in enumerate(names)}
        nv = naive.compute(nb)
        for i in range(m):
            nv = naive.shift(nb, nv, names[i % len(names)], float(i % 100))
        total += m
    slow = total / (time.perf_counter() - t)
    # full episode step (observation + text)
    total = 0
    steps = max(n // 50, 20)
    t = time.perf_counter()
    for g in graphs:
        ep = Episode(g, EpisodeConfig(interventions=10**9))
        ep.reset(1)
        names = g.scm.controllable_names
        for i in range(steps):
            ep.step(LabAction.intervene(names[i % len(names)], float(i % 100)))
        total += steps
    step = total / (time.perf_counter() - t)
    return fast, slow, step


def bench_planner(suite: Suite, seeds: int) -> float:
    t = time.perf_counter()
    count = 0
    for g in suite.graphs:
        for s in range(1, seeds + 1):
            run_episode(g, make_agent("planner", seed=s), s)
            count += 1
    return count / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions (~10 s)")
    args = ap.parse_args()
    n = 4000 if args.quick else 40000
    seeds = 1 if args.quick else 3
    print("interventions per second, one core (shift + recompute)")
    print(f"{'suite':<8} {'compiled':>12} {'naive eval':>12} {'ratio':>8} {'Episode.step':>13}")
    for name, k in (("4nodes", 4), ("7nodes", 7)):
        suite = _suite(name, k)
        fast, slow, step = bench_interventions(suite, n)
        print(f"{name:<8} {fast:12,.0f} {slow:12,.0f} {fast / slow:7.1f}x {step:13,.0f}")
    print()
    print("planner episodes per second (full episode: prior records, interventions, solve, reactor)")
    for name, k in (("4nodes", 4), ("7nodes", 7)):
        suite = _suite(name, k)
        print(f"{name:<8} {bench_planner(suite, seeds):8.1f} episodes/s")


if __name__ == "__main__":
    main()
