"""``causalcheck report PATH... --out report.html``: one page of results to look at and compare.

PATH is any mix of lab scores (``scores.json`` or a folder holding one), explain result
files (``<answer>_metrics_<judge>.json``) and check reports (``causalcheck check --json``
output, of hypotheses, a folder or a graph), found by content; a folder is searched
recursively.  ``--check SOURCE`` also runs the checker on SOURCE (anything ``causalcheck
check`` reads; a graph file is validated as a graph).  ``--format html`` (default) writes one
self-contained HTML file to browse (a sidebar of sections, collapsible sections, sortable
tables; inline SVG figures and one small inline script, no network); ``--format md`` writes
``report.md`` and PNG figures into the folder ``--out``, replaced as one unit (the previous
report stays whole until the new one is complete; a folder holding other files is refused).
``--out`` is locked while it is written.  Exit codes: 0 written; 1 written, but files found
in a PATH folder could not be read (each is named on stderr and in the report, which says it
is partial); 2 an input given by name could not be read or is none of the above, nothing
readable was found, ``--out`` holds files a report does not write, or ``--out`` is being
written by another process (the message names it).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from causalcheck.base.cmdline import EXIT_OK, EXIT_PROBLEMS, add_documented_command, nonnegative_int
from causalcheck.report.text import counted

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    """Add the ``report`` command to the ``causalcheck`` command line."""
    p = add_documented_command(
        subparsers,
        "report",
        help="an HTML (or Markdown) report with plots and graph drawings of lab, explain and check results",
        doc=__doc__,
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="scores.json, explain result files, check --json reports, or folders")
    p.add_argument("--out", metavar="FILE|DIR", help="output: report.html (html) or a folder (md); default report.html / report")
    p.add_argument("--format", choices=("html", "md"), default="html", help="html (default): one self-contained file; md: Markdown + PNG")
    p.add_argument("--check", action="append", default=[], metavar="SOURCE", help="also run the checker on SOURCE (repeatable)")
    p.add_argument("--bootstrap", type=nonnegative_int, default=1000, metavar="N", help="bootstrap resamples for intervals (default 1000; 0: none)")
    p.add_argument("--seed", type=nonnegative_int, default=0, metavar="S", help="bootstrap seed (default 0)")
    p.add_argument("--episodes", type=nonnegative_int, default=4, metavar="N", help="lab episodes drawn per agent (default 4)")
    p.add_argument("--items", type=nonnegative_int, default=6, metavar="N", help="explain items shown in detail (default 6)")
    p.add_argument("--title", default="causalcheck report", help="the report's title")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Build the report; returns the exit code (errors propagate to :func:`causalcheck.cli.main`)."""
    # late: keeps causalcheck --help light
    from causalcheck.report.build import ReportOptions, build_report

    out = args.out or ("report.html" if args.format == "html" else "report")
    options = ReportOptions(checks=args.check, resamples=args.bootstrap, seed=args.seed,
                            episodes_per_agent=args.episodes, items=args.items, title=args.title)
    result = build_report(args.paths, out, fmt=args.format, options=options)
    kinds = ", ".join(f"{n} {k}" for k, n in result.inputs.items() if n)
    extra = f" + {counted(len(result.files) - 1, 'figure')}" if len(result.files) > 1 else ""
    for path, reason in result.unreadable:
        print(f"causalcheck: not read: {path}: {reason}", file=sys.stderr)
    partial = f"; partial: {counted(len(result.unreadable), 'input file')} could not be read" if result.partial else ""
    print(f"wrote {result.path}{extra} ({result.bytes / 1e6:.2f} MB; inputs: {kinds or 'none'}{partial})", file=sys.stderr)
    return EXIT_PROBLEMS if result.partial else EXIT_OK
