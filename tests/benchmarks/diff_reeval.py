"""Differential: ``lab score`` against the official re-evaluation, episode by episode, on the same run folders.

The official scorer is CausaLab-Benchmark's ``python -m causalab_reeval.run_lightweight_reeval --source-only``
(run from ``CAUSALAB_SOURCE``, never copied): it scores each seed folder's logged final hypothesis.
Both scorers read the same root, and every episode's metrics are compared under the metric names of
causalab-spec §4 (the official name on the right):

==================================  =====================================================
``task_accuracy``                   ``task_completed_successfully`` (as 0/1)
``edge_precision/recall/f1``        ``all_edge_precision/recall/f1``
``shd``, ``shd_missing/extra/...``  ``all_edge_shd``, ``all_edge_shd_missing/extra/reversed``
``parent_precision/recall/f1``      ``freq_edge_precision/recall/f1``
``coefficient_precision/...``       ``freq_weight_precision/recall/f1``
``root_precision/recall/f1``        ``root_precision/recall/f1``
``submitted``                       ``reactor_submitted_hz``
==================================  =====================================================

The reactor *target* is not compared: the official scorer reads it from the reactor crystal's
display (the sample run's 99 Hz), ours from the SCM (156 Hz; causalab-spec §4.6 documents the fix).

Folders scored:

* ``identical``: the official sample run twice, under two seed names — the official re-evaluation counts
  both, and so does ``lab score`` (naming the second ``identical_to`` the first; issue 20, item 10);
* ``generated``: official-format episodes from ``bench_score.generate_official`` (the real lab
  environment, a scripted agent stating the truth or a seeded perturbation), a few of them copied
  under a second run name; each gets the ``*_data.json`` scorecard a real run has (the official
  scorer reads the outcome there, ours from ``*_complete.txt``; both say the same).

Usage: CAUSALAB_SOURCE=/path/to/CausaLab-Benchmark python tests/benchmarks/diff_reeval.py [--episodes N]
Exit 0 when every episode agrees on every metric (to 1e-9), 1 otherwise, 2 without the source.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("CAUSALCHECK_SHARED", HERE.parents[2] / "shared"))
SAMPLE_RUN = SHARED / "anchors/causalab/examples/sample_runs/react_simple-mem/obs_Causal_gpt-5-mini/4nodes/20260223-2134_dsl_right/4nodes_0_53calls/seed_1"

#: ours -> the official per-seed field.
METRICS = {
    "task_accuracy": "task_completed_successfully",
    **{f"edge_{k}": f"all_edge_{k}" for k in ("precision", "recall", "f1")},
    "shd": "all_edge_shd",
    **{f"shd_{k}": f"all_edge_shd_{k}" for k in ("missing", "extra", "reversed")},
    **{f"parent_{k}": f"freq_edge_{k}" for k in ("precision", "recall", "f1")},
    **{f"coefficient_{k}": f"freq_weight_{k}" for k in ("precision", "recall", "f1")},
    **{f"root_{k}": f"root_{k}" for k in ("precision", "recall", "f1")},
    "submitted": "reactor_submitted_hz",
}


def _bench_score() -> Any:
    spec = importlib.util.spec_from_file_location("bench_score", HERE / "bench_score.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _number(value: Any) -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return float(value)
    return float(value)


def official(root: Path, source: Path, out: Path) -> dict[str, dict[str, Any]]:
    """The official per-seed results, by resolved seed folder."""
    cmd = [sys.executable, "-m", "causalab_reeval.run_lightweight_reeval", "--source-only", "--output-dir", str(out), str(root)]
    done = subprocess.run(cmd, cwd=source, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the official re-evaluation exited {done.returncode}: {done.stderr[-800:]}")
    rows = json.loads((out / "per_seed_results.json").read_text(encoding="utf-8"))
    return {str(Path(r["seed_dir"]).resolve()): r for r in rows}


def ours(root: Path) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """Our final metrics by resolved seed folder, and the identical episodes ``lab score`` named."""
    from causalcheck.lab.score import score_paths

    report = score_paths([root], resamples=0)
    return {str(Path(e.source).resolve()): dict(e.final) for e in report.episodes}, list(report.identical)


def compare(root: Path, source: Path, label: str) -> int:
    """Print the agreement of both scorers on *root*; the number of disagreeing (episode, metric) pairs."""
    theirs = official(root, source, root.parent / f"official-{label}")
    mine, identical = ours(root)
    bad = 0
    if sorted(theirs) != sorted(mine):
        print(f"  [{label}] episode sets differ: only official {sorted(set(theirs) - set(mine))[:3]}, only ours {sorted(set(mine) - set(theirs))[:3]}")
        bad += 1
    checked = 0
    for seed_dir in sorted(set(theirs) & set(mine)):
        for name, field in METRICS.items():
            a, b = _number(mine[seed_dir].get(name)), _number(theirs[seed_dir].get(field))
            checked += 1
            if (a is None) != (b is None) or (a is not None and b is not None and not math.isclose(a, b, rel_tol=0, abs_tol=1e-9)):
                bad += 1
                if bad <= 10:
                    print(f"  [{label}] {Path(seed_dir).relative_to(root)}: {name}={a!r} but official {field}={b!r}")
    print(
        f"  [{label}] {len(mine)} episodes by us, {len(theirs)} by the official scorer; {checked} (episode, metric) pairs compared, "
        f"{bad} differ; lab score names {len(identical)} episode(s) identical to an earlier one"
    )
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=60, help="generated official-format episodes (default 60)")
    ap.add_argument("--steps", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--causalab-source", default=os.environ.get("CAUSALAB_SOURCE"), metavar="PATH")
    args = ap.parse_args(argv)
    if not args.causalab_source or not (Path(args.causalab_source) / "causalab_reeval").is_dir():
        print("the official scorer is needed: set CAUSALAB_SOURCE=/path/to/CausaLab-Benchmark (or --causalab-source)")
        return 2
    source = Path(args.causalab_source)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        if SAMPLE_RUN.is_dir():
            root = Path(tmp) / "identical" / "runs" / "4nodes_0_53calls"
            shutil.copytree(SAMPLE_RUN, root / "seed_1")
            shutil.copytree(SAMPLE_RUN, root / "seed_2")
            bad += compare(root.parent, source, "identical")
        else:
            print(f"  [identical] skipped: the sample run is not at {SAMPLE_RUN} (set CAUSALCHECK_SHARED)")
        root = Path(tmp) / "generated" / "runs"
        made = _bench_score().generate_official(root, args.episodes, args.steps, args.seed, prompt_chars=0)
        seeds = sorted(p for p in root.rglob("seed_*") if p.is_dir())
        for folder in seeds:  # the official scorer reads the outcome from the run's scorecard, ours from *_complete.txt: write both
            (complete,) = folder.glob("*_complete.txt")
            card = {"completed": True, "completedSuccessfully": complete.read_text().strip() == "1"}
            (folder / complete.name.replace("_complete.txt", "_data.json")).write_text(json.dumps({"metadata": {"final_scorecard": [card]}}))
        for k, folder in enumerate(seeds[:5]):  # copies under another run name: identical content, different paths
            copy = folder.parents[1] / f"{folder.parent.name}_copy{k}" / folder.name
            shutil.copytree(folder, copy)
        print(f"generated {made} official-format episodes of {args.steps} steps, 5 copied under a second name")
        bad += compare(root, source, "generated")
    print("agree on every episode" if bad == 0 else f"{bad} disagreement(s)")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
