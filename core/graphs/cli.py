"""``causalcheck compare TRUTH ESTIMATE``: score an estimated graph against a true one.

Both files are read with :func:`causalcheck.graphs.read_graph` (format from
``--truth-format`` / ``--estimate-format``, else from the suffix or the content).  Prints a
table of the metrics of :func:`causalcheck.graphs.compare` (or ``--json``).  Exit codes:
0 = compared, 2 = an input could not be read (the message names the file, line and column).

The lead wires :func:`register` into :mod:`causalcheck.cli`.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["format_table", "register", "run"]

_FORMATS = ("text", "dagitty", "dot", "gml", "causallearn", "edgelist", "adjacency", "json")


def register(subparsers: Any) -> None:
    """Add the ``compare`` command to the ``causalcheck`` command line."""
    p = subparsers.add_parser(
        "compare",
        help="score an estimated causal graph against the true one (SHD, F1, SID, AID)",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
    )
    p.add_argument("truth", metavar="TRUTH", help="the true graph (any format read_graph reads)")
    p.add_argument("estimate", metavar="ESTIMATE", help="the estimated graph")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON instead of a table")
    p.add_argument("--truth-format", choices=_FORMATS, metavar="F", help=f"format of TRUTH ({', '.join(_FORMATS)})")
    p.add_argument("--estimate-format", choices=_FORMATS, metavar="F", help="format of ESTIMATE")
    p.add_argument(
        "--basis",
        choices=("auto", "given"),
        default="auto",
        help="'auto' (default) compares a CPDAG estimate with the CPDAG of a DAG truth; 'given' with the DAG",
    )
    p.set_defaults(handler=run)


def _rate(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def format_table(result: Any) -> str:
    """The text table printed by the command."""
    lines = [
        f"nodes {result.nodes}; truth {result.truth_kind}, estimate {result.estimate_kind}; basis {result.basis}",
        "",
        f"{'metric':<22}{'value':>8}",
        f"{'SHD':<22}{result.shd:>8}",
        f"{'SHD (reversal = 2)':<22}{result.shd_double:>8}",
        f"{'CPDAG SHD':<22}{'-' if result.cpdag_shd is None else result.cpdag_shd:>8}",
    ]
    for name in ("sid", "parent_aid", "ancestor_aid", "oset_aid"):
        d = getattr(result, name)
        shown = "-" if d is None else f"{d.count} ({d.normalized:.3f})"
        lines.append(f"{name.upper().replace('_', '-'):<22}{shown:>8}")
    lines += ["", f"{'confusion':<12}{'TP':>5}{'FP':>5}{'FN':>5}{'prec':>8}{'recall':>8}{'F1':>8}"]
    for name in ("skeleton", "arrowhead", "directed"):
        c = getattr(result, name)
        lines.append(f"{name:<12}{c.tp:>5}{c.fp:>5}{c.fn:>5}{_rate(c.precision):>8}{_rate(c.recall):>8}{_rate(c.f1):>8}")
    lines += [f"note: {n}" for n in result.notes]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Handler of ``causalcheck compare`` (raises CausalCheckError for bad input: exit 2)."""
    from pathlib import Path

    from causalcheck.graphs.scores import compare

    result = compare(
        Path(args.truth),
        Path(args.estimate),
        basis=args.basis,
        truth_format=args.truth_format,
        estimate_format=args.estimate_format,
    )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(format_table(result))
    sys.stdout.flush()
    return 0
