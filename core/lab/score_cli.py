"""``causalcheck lab score PATH...``: re-score trajectories and official CausaLab run folders.

Registered by the lab command group (:mod:`causalcheck.lab.cli`) through :func:`register`.

Exit codes: 0 — every episode found was scored; 1 — some inputs could not be scored
(each is listed with its reason in the outputs and on stderr; the rest are scored and
written); 2 — nothing could be scored (no episode found, or every one failed: the reasons
are printed and no report is written), an option
is invalid, or ``--out`` is being written by another process; 70 — scoring an episode hit a
bug in causalcheck (the episode is named; the others are scored and written).
Duplicates (one input reached twice: counted once), identical episodes (the same content at
two paths: both counted, as the official re-evaluation counts them, unless
``--merge-identical``) and skipped files (not episodes) are reported on stderr and in the
manifest, and do not change the exit code.  ``--workers K`` scores in K processes; the outputs
are byte-identical for every K (:func:`causalcheck.lab.score.score_paths`); ``--executor ray``
scores them as Ray tasks with the same outputs, the provenance naming the executor (docs/sweep.md).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from causalcheck.base.cmdline import (
    add_executor_arguments,
    comma_choices,
    executor_from_args,
    nonnegative_int,
    positive_int,
    require_finite_nonnegative,
)
from causalcheck.base.files import Provenance, RunLock
from causalcheck.base.progress import RunProgress

__all__ = ["register", "run"]

_FORMATS = ("json", "csv", "md")


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
    p.add_argument("--format", type=comma_choices(_FORMATS, "--format"), default=_FORMATS, metavar="LIST",
                   help="comma list of json,csv,md (default: all)")
    p.add_argument("--bootstrap", type=nonnegative_int, default=1000, metavar="N",
                   help="bootstrap resamples for roll-up intervals (0 = means only; default 1000)")
    p.add_argument("--seed", type=nonnegative_int, default=0, metavar="S", help="bootstrap seed (default 0)")
    p.add_argument("--coefficient-tolerance", type=float, default=1e-6, metavar="TOL",
                   help="absolute tolerance for coefficient F1 (default 1e-6, as the published scorer)")
    p.add_argument("--no-audit", action="store_true", help="skip the evidence audit")
    p.add_argument("--fast-audit", action="store_true",
                   help="audit with the arithmetic equation check only (skip the core's exact data-consistency solver)")
    p.add_argument("--merge-identical", action="store_true",
                   help="count episodes with identical content at different paths once (default: each is counted, "
                        "as the official re-evaluation counts them, and named on stderr)")
    p.add_argument("--workers", type=positive_int, default=1, metavar="K",
                   help="load and score episodes in K processes (the outputs are the same for every K; default 1)")
    add_executor_arguments(p, what="episodes are scored")
    p.set_defaults(handler=run)
    return p


def _provenance(args: argparse.Namespace, executor: Any = None) -> dict[str, Any]:
    # --workers is left out: it changes how fast, never what is written (the outputs are the same for every K);
    # a Ray executor is named (which cluster scored), the local one is the default and is not
    options = {
        "paths": list(args.paths),
        "out": args.out,
        "format": list(args.format),
        "bootstrap": args.bootstrap,
        "seed": args.seed,
        "coefficient_tolerance": args.coefficient_tolerance,
        "no_audit": args.no_audit,
        "fast_audit": args.fast_audit,
        **({"merge_identical": True} if args.merge_identical else {}),
        **({"executor": executor.describe()} if executor is not None and executor.name != "local" else {}),
    }
    prov = Provenance("causalcheck lab score", options).to_json()
    prov.pop("inputs", None)  # the report's manifest is the list of inputs
    return prov


class _Progress:
    """``lab score``'s report of scored episodes (``progress(done, total)``) on the one progress display
    (:class:`~causalcheck.base.progress.RunProgress`: a bar, on a terminal)."""

    def __init__(self, display: RunProgress) -> None:
        self.display = display
        self.begun = False

    def __call__(self, done: int, total: int) -> None:
        if not self.begun:
            self.display.begin(total)
            self.begun = True
        self.display.advance(done - self.display.done)


def run(args: argparse.Namespace) -> int:
    """Handler of ``causalcheck lab score``."""
    import contextlib

    # late: keeps causalcheck --help light
    from causalcheck.lab.score import (
        SCORE_WARNING_CODES,
        score_paths,
        suite_table,
        summary_markdown,
        warning_counts,
        write_outputs,
    )

    tol = require_finite_nonnegative("--coefficient-tolerance", args.coefficient_tolerance)
    lock = RunLock(args.out, command="causalcheck lab score") if args.out else contextlib.nullcontext()
    executor = executor_from_args(args)
    bar = RunProgress("bar", title="lab score", unit="episodes", every=None) if sys.stderr.isatty() else None
    with lock, contextlib.closing(executor), bar if bar is not None else contextlib.nullcontext():
        report = score_paths(
            args.paths,
            resamples=args.bootstrap,
            seed=args.seed,
            coefficient_tolerance=tol,
            audit=not args.no_audit,
            solver_checks=not args.fast_audit,
            merge_identical=args.merge_identical,
            provenance=_provenance(args, executor),
            workers=args.workers,
            executor=None if executor.name == "local" else executor,
            progress=_Progress(bar) if bar is not None else None,
        )
        for f in report.failures:
            print(f"causalcheck: not scored: {f.source}: {f.reason.splitlines()[0]}", file=sys.stderr)
        for d in report.duplicates:
            print(f"causalcheck: duplicate: {d['path']}: {d['reason']}", file=sys.stderr)
        for d in report.identical:
            print(f"causalcheck: warning: {d['path']}: {d['reason']} (--merge-identical counts it once)", file=sys.stderr)
        for d in report.skipped:
            print(f"causalcheck: skipped: {d['path']}: {d['reason']}", file=sys.stderr)
        for ep in report.episodes:
            for w in ep.warnings:
                if w.code == "steps-missing":  # lost steps are worth a line each
                    print(f"causalcheck: warning: {w}", file=sys.stderr)
        for code, n, example in warning_counts(report):  # every other kind counted (each one in the outputs)
            if code != "steps-missing":
                print(f"causalcheck: warning: {n} episode(s) with {code} ({SCORE_WARNING_CODES.get(code, '')}); e.g. {example}", file=sys.stderr)
        if not report.episodes and not report.internal_errors:
            # nothing to report: the reasons above are the whole answer (no empty tables, no files
            # that would replace an earlier scoring in --out)
            if report.failures:
                names = ", ".join(str(f.source) for f in report.failures[:3])
                more = f" and {len(report.failures) - 3} more" if len(report.failures) > 3 else ""
                print(f"causalcheck: error: nothing scored: {len(report.failures)} input(s) could not be read "
                      f"({names}{more}; reasons above); no report written", file=sys.stderr)
            else:
                print("causalcheck: error: no episode found under the given paths "
                      f"({', '.join(map(str, args.paths))}); no report written", file=sys.stderr)
            return 2
        if args.out:
            written, removed = write_outputs(report, args.out, args.format)
            for path in written:
                print(path)
            sys.stdout.write("\n" + suite_table(report))
            for path in removed:
                print(f"causalcheck: removed {path} (from an earlier scoring; not written with --format {','.join(args.format)})",
                      file=sys.stderr)
        else:
            sys.stdout.write(summary_markdown(report))
    if report.internal_errors:
        print(f"causalcheck: internal error: {report.internal_errors} episode(s) hit a bug (listed above); "
              "please report it", file=sys.stderr)
        return 70
    if not report.episodes:
        return 2
    return 1 if report.failures else 0
