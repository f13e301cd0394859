"""``causalcheck lab score PATH...``: re-score trajectories and official CausaLab run folders.

Registered by the lab command group (:mod:`causalcheck.lab.cli`) through :func:`register`.

Exit codes: 0 — every episode found was scored; 1 — some episodes could not be scored
(each is listed with its reason in the outputs and on stderr; the rest are scored and
written); 2 — nothing could be scored (no episode found, or every one failed) or an option
is invalid.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["register", "run"]

_FORMATS = ("json", "csv", "md")


def _formats(text: str) -> tuple[str, ...]:
    items = tuple(dict.fromkeys(t.strip().lower() for t in text.split(",") if t.strip()))
    bad = [t for t in items if t not in _FORMATS]
    if bad or not items:
        raise argparse.ArgumentTypeError(f"--format={text!r} must be a comma list of {', '.join(_FORMATS)}")
    return items


def _nonneg(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"value={text!r} must be a non-negative integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"value={text!r} must be a non-negative integer")
    return value


def register(lab_subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``score`` sub-command to the ``lab`` group's sub-parsers."""
    p: argparse.ArgumentParser = lab_subparsers.add_parser(
        "score",
        help="re-score trajectories or official CausaLab run folders (per step, final, roll-ups)",
        description=(
            "Score lab episodes: our trajectory JSONL files, folders of them, or official CausaLab "
            "run folders (seed folders are found at any depth). Per-step metrics with I-MEC sizes, "
            "final metrics, an evidence audit, and per-graph / per-suite roll-ups with bootstrap "
            "intervals. Exit 0 = all scored, 1 = some episodes failed (listed), 2 = none scored."
        ),
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="trajectory file, folder, or run folder")
    p.add_argument("--out", metavar="DIR", help="write scores.json / episodes.csv / steps.csv / summary.md here")
    p.add_argument("--format", type=_formats, default=_FORMATS, metavar="LIST",
                   help="comma list of json,csv,md (default: all)")
    p.add_argument("--bootstrap", type=_nonneg, default=1000, metavar="N",
                   help="bootstrap resamples for roll-up intervals (0 = means only; default 1000)")
    p.add_argument("--seed", type=_nonneg, default=0, metavar="S", help="bootstrap seed (default 0)")
    p.add_argument("--coefficient-tolerance", type=float, default=1e-6, metavar="TOL",
                   help="absolute tolerance for coefficient F1 (default 1e-6, as the published scorer)")
    p.add_argument("--no-audit", action="store_true", help="skip the evidence audit")
    p.add_argument("--fast-audit", action="store_true",
                   help="audit with the arithmetic equation check only (skip the core's exact data-consistency solver)")
    p.set_defaults(handler=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Handler of ``causalcheck lab score``."""
    from causalcheck.lab.score import score_paths, summary_markdown, write_outputs

    tol = args.coefficient_tolerance
    if not tol >= 0:
        print(f"causalcheck: error: --coefficient-tolerance={tol!r} must be >= 0", file=sys.stderr)
        return 2
    report = score_paths(
        args.paths,
        resamples=args.bootstrap,
        seed=args.seed,
        coefficient_tolerance=tol,
        audit=not args.no_audit,
        solver_checks=not args.fast_audit,
    )
    for f in report.failures:
        print(f"causalcheck: not scored: {f.source}: {f.reason.splitlines()[0]}", file=sys.stderr)
    if args.out:
        for path in write_outputs(report, args.out, args.format):
            print(path)
    else:
        sys.stdout.write(summary_markdown(report))
    if not report.episodes:
        if not report.failures:
            print("causalcheck: error: no episode found under the given paths", file=sys.stderr)
        return 2
    return 1 if report.failures else 0
