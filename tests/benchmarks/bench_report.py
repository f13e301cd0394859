"""Benchmark: build the report of 950 lab episodes and 220 × 6 explain items; print time and size.

Inputs (generated, not timed):

* **lab** — a suite of 475 generated graphs (3–7 nodes, 95 each, ``lab generate``), played by
  the planner and by the random agent (950 episodes, ``lab run``), scored by ``lab score``
  into one ``scores.json``;
* **explain** — 220 synthetic benchmark items (the bundled demo questions and rubrics,
  repeated under new ids) answered by 6 synthetic answer models (each item's answer is one
  of the demo's strong / weak / paraphrase answers, chosen with a seeded generator per
  model, with its sentences partly dropped), scored offline by ``explain score`` into 6
  result files.

Timed: ``causalcheck report`` over all of them (HTML; ``--md`` also times the Markdown + PNG
report), best of ``--repeats``.  Reference measured in the same run: decoding the same
input files with ``json.loads`` — the floor of any report over them — printed as a ratio.
The goal (issue 13): under 30 s and under 20 MB.  Per-episode drawings are bounded (4 per
agent) and explain items in detail too (6 keys × 6 models); everything else is a table row.

Usage: python tests/benchmarks/bench_report.py [--quick] [--md] [--repeats N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from causalcheck.cli import main


def _run(argv: list[str]) -> None:
    code = main(argv)
    if code not in (0, 1):
        raise SystemExit(f"causalcheck {' '.join(argv)} exited {code}")


def lab_inputs(root: Path, per_size: int) -> Path:
    suite = root / "suite.jsonl"
    _run(["lab", "generate", "--nodes", "3,4,5,6,7", "--count", str(per_size), "--seed", "0", "--out", str(suite)])
    for agent in ("planner", "random"):
        _run(["lab", "run", "--suite", str(suite), "--agent", agent, "--out", str(root / agent), "--workers", "2", "--quiet"])
    _run(["lab", "score", str(root / "planner"), str(root / "random"), "--out", str(root / "scores"), "--bootstrap", "200"])
    return root / "scores" / "scores.json"


def explain_inputs(root: Path, n_items: int, n_models: int, seed: int) -> list[Path]:
    from causalcheck.explain.data import load_benchmark

    demo = load_benchmark("demo")
    answers: dict[tuple[str, str], str] = {}
    for line in (Path(demo.source).parent / "whatif_demo_answers.jsonl").read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        answers[(obj["id"], obj["model"])] = obj["answer"]
    qualities = sorted({m for _, m in answers})
    items = []
    for i in range(n_items):
        base = dict(demo.items[i % len(demo.items)].raw)
        base["id"] = i + 1
        base["canonical_id"] = f"bench_{i:03d}_{base.get('canonical_id')}"
        items.append(base)
    bench = root / "bench.json"
    bench.write_text(json.dumps({"meta": {"name": "bench_report"}, "items": items}), encoding="utf-8")
    lines = []
    for k in range(n_models):
        rng = np.random.default_rng([seed, k])
        weights = rng.dirichlet(np.ones(len(qualities)))
        for i, it in enumerate(items):
            demo_id = demo.items[i % len(demo.items)].key
            text = answers[(demo_id, qualities[int(rng.choice(len(qualities), p=weights))])]
            sentences = text.split(". ")
            keep = [s for s in sentences if rng.random() > 0.2] or sentences[:1]
            lines.append(json.dumps({"id": it["canonical_id"], "model": f"model-{chr(65 + k)}", "answer": ". ".join(keep)}))
    ans = root / "answers.jsonl"
    ans.write_text("\n".join(lines) + "\n", encoding="utf-8")
    _run(["explain", "score", "--benchmark", str(bench), "--answers", str(ans), "--out", str(root / "explain")])
    return sorted((root / "explain").glob("*_metrics_offline.json"))


def main_bench() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="a tenth of the inputs")
    ap.add_argument("--md", action="store_true", help="also time the Markdown + PNG report")
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", metavar="DIR", help="build in DIR and keep the inputs and the report")
    args = ap.parse_args()
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench_report_"))
    root.mkdir(parents=True, exist_ok=True)
    per_size, n_items = (10, 22) if args.quick else (95, 220)
    try:
        t0 = time.perf_counter()
        scores = lab_inputs(root / "lab", per_size)
        results = explain_inputs(root, n_items, 6, args.seed)
        gen = time.perf_counter() - t0
        inputs = [scores, *results]
        n_eps = len(json.loads(scores.read_text(encoding="utf-8"))["episodes"])
        n_it = sum(len(json.loads(p.read_text(encoding="utf-8"))["items"]) for p in results)
        in_mb = sum(p.stat().st_size for p in inputs) / 1e6
        print(f"inputs: {n_eps} episodes, {n_it} explain items in {len(results)} result files, {in_mb:.1f} MB "
              f"(generated in {gen:.0f} s)", flush=True)

        def best(fn: object, repeats: int) -> float:
            times = []
            for _ in range(repeats):
                t = time.perf_counter()
                fn()  # type: ignore[operator]
                times.append(time.perf_counter() - t)
            return min(times)

        floor = best(lambda: [json.loads(p.read_text(encoding="utf-8")) for p in inputs], args.repeats)
        out = root / "report.html"
        t_html = best(lambda: _run(["report", *map(str, inputs), "--out", str(out)]), args.repeats)
        size = out.stat().st_size / 1e6
        print(f"reference: json.loads of the inputs  {floor:6.2f} s")
        print(f"report html (1000 bootstrap)         {t_html:6.2f} s  {size:6.2f} MB  ({t_html / floor:.1f}x the reference)"
              f"  goal < 30 s, < 20 MB: {'ok' if t_html < 30 and size < 20 else 'MISSED'}")
        if args.md:
            md = root / "md"
            t_md = best(lambda: _run(["report", *map(str, inputs), "--format", "md", "--out", str(md)]), 1)
            md_size = sum(p.stat().st_size for p in md.iterdir()) / 1e6
            n_png = len(list(md.glob("*.png")))
            print(f"report md + {n_png} PNG                 {t_md:6.2f} s  {md_size:6.2f} MB  ({t_md / floor:.1f}x the reference)")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main_bench())
