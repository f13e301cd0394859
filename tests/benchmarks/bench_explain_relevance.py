"""Offline PRISM and relevance: cross-question answers, and agreement with recorded LLM judges.

Run ``CAUSALCHECK_SHARED=/work/shared python tests/benchmarks/bench_explain_relevance.py``.
Nothing is asserted here (``tests/test_explain_judges_relevance.py`` holds the assertions);
the script prints figures for the current code.

1. **Cross-question answers** — for each item, every *other* item's good answer is scored
   against this item ("an answer to a different question"); it should score below the item's
   own good answer.  Good answers: the bundled demo's ``demo-strong`` answers, and the
   recorded answers of the WhatIfBench result file (LLM-judged, RM 0.58–0.76).  Printed: mean
   PM / RM / Final of the own and the cross answers, the largest ``cross − own`` Final gap
   and how many cross answers reach their item's own Final.
2. **Agreement** with the recorded LLM judges (the file's ``pm_score``, ``rm_score``,
   ``total_score``), through :func:`causalcheck.report.agree.agree` — Pearson's r,
   Spearman's ρ, MAE, n — separately on the development part and the held-out part of the
   items.  PM and Final are compared only on items whose recorded parse is a real parser
   output (the others fell back to the heuristic chain after a connection error: their
   recorded PM, and so their Final, is the fallback's, not a judgment of the answer).

The split is deterministic: an item is *development* when the first byte of the SHA-256 of
its key (``canonical_id``) is even, else *held out* (:func:`split_of`).  Rules were tuned
only on development items.

Measured (main → this branch, same run): demo cross answers mean Final 0.697 → 0.132 (own
0.827 → 0.819; none reaches its item's own before or after); recorded held-out items (3, 24
cross answers) 0.679 → 0.344 (own 0.787 → 0.830), cross ≥ own 8 → 0; development items
(6, 48) 0.669 → 0.289 (own 0.753 → 0.751), 12 → 0.  RM agreement on the held-out items:
r −0.16 → −0.25, ρ 0.00 → 0.00, MAE 0.080 → 0.080 (n = 3: uninformative); PM and Final have
no held-out item with a real recorded parse.  With four more recorded files (``--result``, repeatable: the
upstream ``code/result/test/*z-ai_glm-5.1_metrics_z-ai_glm-5.1.json``, 18 glm-5.1 answers to 6 items judged
by glm-5.1, none with a real parse) the RM agreement is r 0.65, ρ 0.63, MAE 0.155 on 16 held-out answers and
r 0.86, ρ 0.75, MAE 0.096 on 11 development answers.  Their cross-question figures do not test the rule:
those answers were judged failures (recorded Final 0.05–0.51, heuristic parses), so an answer to another
question can match them.  The WhatIfBench files are unlicensed reference data: read from
``$CAUSALCHECK_SHARED/anchors/whatifbench`` at run time, never copied into the package.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from causalcheck.explain.data import WhatIfItem, load_answer_sets, load_benchmark, parse_item
from causalcheck.explain.offline import OfflineCriterionJudge, OfflineEdgeJudge
from causalcheck.explain.relations import OfflineParser
from causalcheck.explain.scoring import score_item
from causalcheck.report.agree import ScoreSet, agree

SHARED = Path(os.environ.get("CAUSALCHECK_SHARED", Path(__file__).resolve().parents[3] / "shared"))
RESULT = SHARED / "anchors" / "whatifbench" / "code" / "result" / "test2" / "gpt-5.5_metrics_gpt-5.5.json"

Pair = tuple[WhatIfItem, str]
_PARSER, _EDGE, _CRIT = OfflineParser(), OfflineEdgeJudge(), OfflineCriterionJudge()


def split_of(key: str) -> str:
    """``"dev"`` or ``"held-out"``: the parity of the first byte of SHA-256(*key*)."""
    return "dev" if hashlib.sha256(key.encode("utf-8")).digest()[0] % 2 == 0 else "held-out"


def offline(item: WhatIfItem, answer: str) -> tuple[float, float, float]:
    """PM, RM, Final of *answer* to *item* with the default offline parser and judges."""
    r = score_item(item, answer, _PARSER, _EDGE, _CRIT)
    return r.pm, r.rm, r.final


def recorded(path: Path = RESULT) -> list[tuple[WhatIfItem, str, dict[str, Any]]]:
    """(item, recorded answer, recorded scores and whether its parse is real) per item of the result file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, obj in enumerate(data["items"]):
        llm = {"pm": obj["pm_score"], "rm": obj["rm_score"], "final": obj["total_score"]}
        llm["parsed"] = obj.get("parsed_rst_source") == "parser" and not obj.get("parsed_rst_error")
        llm["file"] = path.name
        out.append((parse_item(obj, i), str(obj["model_answer"]), llm))
    return out


def demo_pairs(model: str = "demo-strong") -> list[Pair]:
    """(item, the bundled *model* answer) for every demo item."""
    answers = {s.model: s for s in load_answer_sets("demo")}[model]
    return [(it, answers.answers[it.key].text or "") for it in load_benchmark("demo").items]


def cross_question(pairs: Sequence[Pair], items: Iterable[str] | None = None) -> dict[str, Any]:
    """Own versus cross-question scores; *items* limits the judged items (keys), answers come from all."""
    keep = set(items) if items is not None else None
    own: dict[str, tuple[float, float, float]] = {}
    cross: list[tuple[float, float, float]] = []
    gaps: list[float] = []
    for it, answer in pairs:
        if keep is not None and it.key not in keep:
            continue
        own[it.key] = offline(it, answer)
        for other, other_answer in pairs:
            if other.key != it.key:
                s = offline(it, other_answer)
                cross.append(s)
                gaps.append(s[2] - own[it.key][2])

    def means(rows: Iterable[tuple[float, float, float]]) -> list[float]:
        rows = list(rows)
        return [round(statistics.mean(r[k] for r in rows), 3) for k in range(3)] if rows else []

    return {
        "items": len(own),
        "cross answers": len(cross),
        "own PM/RM/Final": means(own.values()),
        "cross PM/RM/Final": means(cross),
        "max cross-own Final": round(max(gaps), 3) if gaps else None,
        "cross >= own": sum(g >= 0 for g in gaps),
    }


def agreement(rows: Sequence[tuple[WhatIfItem, str, dict[str, Any]]], *, resamples: int = 200) -> dict[str, Any]:
    """r, ρ, MAE, n of the offline scores against the recorded ones (PM and Final only on real parses)."""
    llm: dict[str, dict[str, float]] = {}
    ours: dict[str, dict[str, float]] = {}
    for it, answer, rec in rows:
        pm, rm, final = offline(it, answer)
        keep = ("pm", "rm", "final") if rec["parsed"] else ("rm",)
        key = f"{rec.get('file', '')}:{it.key}"  # one item answered in several result files is several rows
        llm[key] = {m: float(rec[m]) for m in keep}
        ours[key] = {m: v for m, v in zip(("pm", "rm", "final"), (pm, rm, final), strict=True) if m in keep}
    result = agree(ScoreSet("recorded", "LLM judge", llm), ScoreSet("offline", "offline", ours), resamples=resamples)
    out: dict[str, Any] = {}
    for m, d in result.metrics.items():
        out[m] = {k: (round(d[k]["value"], 3) if d[k]["value"] is not None else None) for k in ("pearson", "spearman", "mae")}
        out[m]["n"] = d["n"]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--result", type=Path, action="append", help="a recorded WhatIfBench result file (repeatable; default: the anchor's test2 file)")
    args = ap.parse_args(argv)
    print("demo (bundled), demo-strong answers:", json.dumps(cross_question(demo_pairs())))
    files = args.result or [RESULT]
    missing = [f for f in files if not f.exists()]
    if missing:
        print(f"recorded result file(s) not found: {[str(f) for f in missing]} (set CAUSALCHECK_SHARED); skipped")
        return 0
    rows = [row for f in files for row in recorded(f)]
    print(f"recorded rows: {len(rows)} from {len(files)} file(s), {len({r[0].key for r in rows})} distinct items")
    pairs = [(it, a) for it, a, _ in rows]
    for part in ("dev", "held-out"):
        part_rows = [r for r in rows if split_of(r[0].key) == part]
        keys = sorted({r[0].key for r in part_rows})
        print(f"recorded, {part} items {keys} ({len(part_rows)} answers):")
        print("  cross-question:", json.dumps(cross_question(pairs, keys)))
        print("  agreement with the LLM judge:", json.dumps(agreement(part_rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
