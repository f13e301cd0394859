"""Validity of the offline PRISM judges: do the scores order answers the way an expert grader would?

Run ``python tests/benchmarks/bench_explain_validity.py`` (add ``--set heldout`` or a folder).
Nothing is asserted here (``tests/test_explain_validity.py`` holds the assertions); the script
prints figures for the current code.

A validity set is a folder with ``items.json`` (a WhatIfBench-format benchmark) and
``answers.jsonl`` (``{"id", "kind", "answer", "note"}``), written by hand for causalcheck
(``tests/fixtures/explain_validity/``: ``dev`` was used while the rules were written, ``heldout``
only to measure them).  The kinds of answer, per item:

* ``A`` expert — a multi-step mechanism from the premise that covers the rubric;
* ``B`` correct but shallow — two causal steps;
* ``C`` reversed — A's own words with 2–5 central causal links swapped;
* ``D`` premise drift — a nearby but different scenario;
* ``E`` a fluent list of consequences, no mechanism;
* ``F`` self-contradictory — a quantity said to rise and later to fall, both used as causes;
* ``P1``, ``P2`` paraphrases of A in another style (timeline, FAQ, terse briefing …);
* ``G`` connective-stuffed nonsense on the item's words; ``H`` a plain correct answer without
  connective words.

Printed: per kind the mean PM / RM / Final; for each comparison the acceptance asks about, on how
many items the first answer is ahead (by ≥ 0.10 Final where that margin is asked); Kendall's tau
between the scores of A–F and the expected order A > B > {C, D, F} > E per item (mean over
items); the paraphrase deltas |Final(P) − Final(A)|; and, on the bundled demo items
(``demo_extra.jsonl``), connective-stuffed nonsense against plain correct answers.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path

from causalcheck.explain.data import WhatIfItem, load_benchmark
from causalcheck.explain.offline import OfflineCriterionJudge, OfflineEdgeJudge
from causalcheck.explain.relations import OfflineParser
from causalcheck.explain.result_schema import ResultItem
from causalcheck.explain.scoring import score_item

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "explain_validity"
#: Expected rank of each kind (lower is better); C, D and F tie.
EXPECTED = {"A": 1, "B": 2, "C": 3, "D": 3, "F": 3, "E": 4}
#: (better, worse, margin): the comparisons of the acceptance list.
COMPARISONS = (
    ("A", "C", 0.10), ("A", "D", 0.10), ("A", "E", 0.10), ("A", "F", 0.10),
    ("B", "C", 0.0), ("B", "F", 0.0), ("A", "B", 0.0), ("H", "G", 0.0), ("A", "G", 0.10),
)  # fmt: skip

_PARSER, _EDGE, _CRIT = OfflineParser(), OfflineEdgeJudge(), OfflineCriterionJudge()


def load_set(folder: Path) -> tuple[dict[str, WhatIfItem], list[dict[str, str]]]:
    """The items by key and the answer rows of a validity-set *folder*."""
    items = load_benchmark(folder / "items.json").by_key()
    rows = [json.loads(line) for line in (folder / "answers.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return items, rows


def score(item: WhatIfItem, answer: str) -> ResultItem:
    """The offline result of *answer* to *item* (default parser and judges)."""
    return score_item(item, answer, _PARSER, _EDGE, _CRIT)


def kendall_tau(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Kendall's tau-b of two equally long sequences (0.0 when either is constant)."""
    conc = disc = tx = ty = 0
    n = len(xs)
    for i in range(n):
        for j in range(i + 1, n):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif (dx > 0) == (dy > 0):
                conc += 1
            else:
                disc += 1
    denom = ((conc + disc + tx) * (conc + disc + ty)) ** 0.5
    return (conc - disc) / denom if denom else 0.0


def table(scores: Mapping[str, Mapping[str, ResultItem]]) -> dict[str, object]:
    """Every figure of the module docstring for one set: ``scores[item key][kind]``."""
    by_kind: dict[str, list[ResultItem]] = defaultdict(list)
    for per in scores.values():
        for kind, r in per.items():
            by_kind[kind].append(r)
    means = {
        k: (statistics.mean(r.pm for r in v), statistics.mean(r.rm for r in v), statistics.mean(r.final for r in v), len(v))
        for k, v in sorted(by_kind.items())
    }
    comps = {}
    for better, worse, margin in COMPARISONS:
        pairs = [(per[better].final, per[worse].final) for per in scores.values() if better in per and worse in per]
        if pairs:
            comps[(better, worse, margin)] = (sum(1 for a, b in pairs if a - b >= margin and a > b), len(pairs))
    taus = []
    for per in scores.values():
        kinds = [k for k in EXPECTED if k in per]
        if len(kinds) >= 3:
            taus.append(kendall_tau([-EXPECTED[k] for k in kinds], [per[k].final for k in kinds]))
    deltas = [abs(per[p].final - per["A"].final) for per in scores.values() for p in per if p.startswith("P") and "A" in per]
    return {"means": means, "comparisons": comps, "tau": statistics.mean(taus) if taus else None, "deltas": deltas}


def print_table(name: str, figures: Mapping[str, object]) -> None:
    """Print the figures of :func:`table`."""
    print(f"\n== {name}")
    print(f"{'kind':6} {'n':>3} {'PM':>6} {'RM':>6} {'Final':>6}")
    means = figures["means"]
    assert isinstance(means, dict)
    for k, (pm, rm, final, n) in means.items():
        print(f"{k:6} {n:>3} {pm:6.3f} {rm:6.3f} {final:6.3f}")
    comps = figures["comparisons"]
    assert isinstance(comps, dict)
    for (better, worse, margin), (won, n) in comps.items():
        what = f"by >= {margin:.2f}" if margin else "ahead"
        print(f"  {better} ahead of {worse} {what}: {won}/{n}")
    tau = figures["tau"]
    print(f"  Kendall tau against A > B > {{C, D, F}} > E: {tau:.3f}" if isinstance(tau, float) else "  Kendall tau: n/a")
    deltas = figures["deltas"]
    assert isinstance(deltas, list)
    if deltas:
        print(f"  paraphrase |dFinal|: mean {statistics.mean(deltas):.3f}, max {max(deltas):.3f} (n = {len(deltas)})")


def run_set(folder: Path) -> dict[str, dict[str, ResultItem]]:
    """Score every answer of the set in *folder*: ``{item key: {kind: result}}``."""
    items, rows = load_set(folder)
    out: dict[str, dict[str, ResultItem]] = defaultdict(dict)
    for row in rows:
        out[row["id"]][row["kind"]] = score(items[row["id"]], row["answer"])
    return out


def run_demo(path: Path) -> list[tuple[str, float, float, float, float]]:
    """Per demo item: the Final of its nonsense answer, of its two plain answers, and of its stuffed answer."""
    items = load_benchmark("demo").by_key()
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    per: dict[str, dict[str, float]] = defaultdict(dict)
    for row in rows:
        per[row["id"]][row["kind"]] = score(items[row["id"]], row["answer"]).final
    return [(k, v["nonsense"], v["plain"], v["plain2"], v["stuffed"]) for k, v in sorted(per.items())]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", help="'dev', 'heldout' or a folder (repeatable; default: dev and heldout)")
    ap.add_argument("--items", action="store_true", help="also print every answer's PM / RM / Final")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    for name in args.set or ["dev", "heldout"]:
        folder = HERE / name if (HERE / name).is_dir() else Path(name)
        if not (folder / "items.json").is_file():
            print(f"{folder}: no items.json, skipped", file=sys.stderr)
            continue
        scores = run_set(folder)
        if args.items:
            for key, per in scores.items():
                print(key, "  ".join(f"{k}:{r.pm:.2f}/{r.rm:.2f}/{r.final:.2f}" for k, r in sorted(per.items())))
        print_table(name, table(scores))
    demo = HERE / "demo_extra.jsonl"
    if demo.is_file():
        rows = run_demo(demo)
        below = sum(1 for _, nonsense, plain, _, _ in rows if nonsense < plain)
        below2 = sum(1 for _, nonsense, _, plain2, _ in rows if nonsense < plain2)
        print(f"\n== demo items: nonsense below the plain answer on {below}/{len(rows)}, below the terse plain answer on {below2}/{len(rows)}")
        for key, nonsense, plain, plain2, stuffed in rows:
            print(f"  {key:14} nonsense {nonsense:.3f}  plain {plain:.3f}  terse plain {plain2:.3f}  stuffed strong {stuffed:.3f}")
    print(f"\n{time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
