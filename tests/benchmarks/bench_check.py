"""Benchmark of ``causalcheck check``: check latency by hypothesis size, cycle cores, parse throughput.

Run ``python tests/benchmarks/bench_check.py`` (``--quick`` for fewer repeats).  Prints:

1. check latency (median, warm) of :func:`causalcheck.checking.check_hypothesis` for 7-, 50- and
   200-node hypotheses — acyclic, and with a planted cycle so a minimal core is extracted —
   each with 10 data points (goals: ≤ 5 ms at 7 nodes, ≤ 100 ms at 200 nodes);
2. minimal cycle cores: z3 core + minimisation (ours) against ``networkx.find_cycle`` (the
   fastest possible, graph-specific) and a naive deletion-based extraction that asks the
   solver once per edge (the generic MUS baseline);
3. record parse throughput (records/s): ``parse_record`` (json fast path + typed, tolerant
   conversion), the lark LALR ``record.lark`` path, and a naive ``json.loads`` + regex
   extraction that does no typing at all.

Nothing is asserted; the figures go in the issue note.  Random graphs use a seeded
``numpy.random.Generator``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from causalcheck.base.bundled import bundled_path
from causalcheck.checking import check_hypothesis
from causalcheck.graph import FREQ, CausalGraph, Edge
from causalcheck.records import DataPoint, Hypothesis
from causalcheck.solvers.acyclicity import find_cycle_core, is_acyclic

REPO = Path(__file__).resolve().parents[2]
SAMPLE = bundled_path("sample-run") / "raw_io.jsonl"


def median_ms(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm (imports, caches)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def make_hypothesis(n: int, rng: np.random.Generator, cyclic: bool) -> tuple[Hypothesis, list[DataPoint]]:
    """A random DAG over n nodes (about 2n edges, 3 parents of the frequency) and 10 exact data points."""
    names = [f"X{i}" for i in range(n - 1)]
    order = list(rng.permutation(names))
    pairs: set[tuple[str, str]] = set()
    while len(pairs) < min(2 * n, (n - 1) * (n - 2) // 2):
        i, j = sorted(rng.choice(len(order), size=2, replace=False))
        pairs.add((order[i], order[j]))
    parents = [str(p) for p in rng.choice(names, size=min(3, len(names)), replace=False)]
    edges = [Edge(a, b) for a, b in sorted(pairs)] + [Edge(p, FREQ) for p in parents]
    if cyclic:  # close a long path back on itself: X -> ... -> Y and Y -> X
        g = CausalGraph((), tuple(edges)).to_networkx()
        import networkx as nx

        longest = nx.dag_longest_path(g)
        edges.append(Edge(longest[-1], longest[0]))
    coeffs = {"base": 20.0, **{f"c_{p}": float(rng.integers(1, 4)) for p in parents}}
    eq = f"{FREQ} = base + " + " + ".join(f"c_{p}*{p}" for p in parents)
    h = Hypothesis(CausalGraph((), tuple(edges)), eq, coeffs)
    points = []
    for k in range(10):
        props = {name: float(rng.integers(0, 100)) for name in names}
        freq = 20.0 + sum(coeffs[f"c_{p}"] * props[p] for p in parents)
        points.append(DataPoint(f"{k}/10", props, freq))
    return h, points


def naive_deletion_core(graph: CausalGraph) -> tuple[Edge, ...] | None:
    """Generic MUS baseline: start from all edges, drop each edge whose removal keeps a cycle (z3 per test)."""
    import z3

    def unsat(edges: list[Edge]) -> bool:
        s = z3.Solver()
        rank = {}
        for e in edges:
            for n in e.pair:
                rank.setdefault(n, z3.Int(n))
            s.add(rank[e.source] < rank[e.target])
        return bool(s.check() == z3.unsat)

    kept = list(graph.edges)
    if not unsat(kept):
        return None
    i = 0
    while i < len(kept):
        trial = kept[:i] + kept[i + 1 :]
        if unsat(trial):
            kept = trial
        else:
            i += 1
    return tuple(kept)


def bench_latency(repeats: int) -> None:
    rng = np.random.default_rng(20261130)
    print("1. check_hypothesis latency (median ms, warm; 10 data points)")
    print(f"   {'nodes':>5} {'edges':>5} {'acyclic':>9} {'with cycle':>11} {'core size':>9}  goal")
    for n, goal in ((7, 5.0), (50, None), (200, 100.0)):
        h, pts = make_hypothesis(n, rng, cyclic=False)
        hc, pts_c = make_hypothesis(n, np.random.default_rng(n), cyclic=True)
        t_ok = median_ms(lambda h=h, pts=pts: check_hypothesis(h, data=pts), repeats)
        t_cyc = median_ms(lambda hc=hc, pts=pts_c: check_hypothesis(hc, data=pts), repeats)
        core = find_cycle_core(hc.graph)
        assert core is not None and not is_acyclic(CausalGraph((), core))
        g = f"<= {goal:g} ms: {'met' if max(t_ok, t_cyc) <= goal else 'MISSED'}" if goal else ""
        print(f"   {n:>5} {len(hc.graph.edges):>5} {t_ok:>9.2f} {t_cyc:>11.2f} {len(core):>9}  {g}")


def bench_cores(repeats: int) -> None:
    print("\n2. minimal cycle core (median ms): ours (SCC filter + z3 core, minimised by cycle")
    print("   extraction or by incremental deletion) vs networkx.find_cycle and a naive deletion core")
    print(f"   {'nodes':>5} {'ours':>8} {'ours-del':>9} {'networkx':>9} {'naive z3':>9} {'ours/nx':>8} {'naive/ours':>10}")
    for n in (7, 50, 200):
        hc, _ = make_hypothesis(n, np.random.default_rng(n), cyclic=True)
        g = hc.graph
        ours = median_ms(lambda g=g: find_cycle_core(g), repeats)
        ours_del = median_ms(lambda g=g: find_cycle_core(g, minimize="deletion"), repeats)
        nxt = median_ms(lambda g=g: find_cycle_core(g, method="networkx"), repeats)
        naive = median_ms(lambda g=g: naive_deletion_core(g), max(1, repeats // 5))
        print(
            f"   {n:>5} {ours:>8.2f} {ours_del:>9.2f} {nxt:>9.2f} {naive:>9.2f} {ours / nxt:>8.1f} {naive / ours:>10.1f}"
        )


def _texts() -> tuple[list[str], str]:
    if SAMPLE.exists():
        from causalcheck.base.jsontext import iter_json_values as iter_json_objects

        objs = list(iter_json_objects(SAMPLE.read_text(encoding="utf-8")))
        return [o["raw_output"] for o in objs], "official sample raw_io.jsonl (14 records)"
    from causalcheck.checking import example_path

    lines = example_path("trajectory").read_text(encoding="utf-8").splitlines()
    return [json.dumps(json.loads(x)["record"]) for x in lines if x.strip()], "bundled example trajectory"


def bench_parse(repeats: int) -> None:
    from causalcheck.parsing import _lark_json, parse_record, parse_record_obj

    texts, what = _texts()
    fenced = ["Here is my record.\n```json\n" + t + "\n```\n" for t in texts]
    size = sum(map(len, texts)) / len(texts)
    obj_re = re.compile(r"\{.*\}", re.S)

    def rate(fn: Callable[[str], object], corpus: list[str]) -> float:
        loops = max(1, repeats // 2)
        fn(corpus[0])
        t = time.perf_counter()
        for _ in range(loops):
            for s in corpus:
                fn(s)
        return loops * len(corpus) / (time.perf_counter() - t)

    ours = rate(parse_record, texts)
    ours_fenced = rate(parse_record, fenced)
    lark_path = rate(lambda s: parse_record_obj(_lark_json(s)), texts)
    naive = rate(lambda s: json.loads(obj_re.search(s).group(0)), fenced)  # type: ignore[union-attr]
    print(f"\n3. record parse throughput ({what}, mean {size / 1000:.1f} kB per record)")
    print(f"   parse_record, bare JSON           {ours:>9.0f} records/s")
    print(f"   parse_record, fenced + prose      {ours_fenced:>9.0f} records/s")
    print(f"   lark LALR record.lark + typing    {lark_path:>9.0f} records/s   (json path is {ours / lark_path:.1f}x faster)")
    print(f"   naive json.loads + regex (untyped){naive:>9.0f} records/s   (naive/ours on fenced: {naive / ours_fenced:.1f}x)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats (about 15 s)")
    args = ap.parse_args(argv)
    repeats = 5 if args.quick else 25
    bench_latency(repeats)
    bench_cores(repeats)
    bench_parse(repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
