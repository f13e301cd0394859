"""``causalcheck check PATH``: verify hypotheses, records and trajectories from the command line.

PATH is a record JSON (with or without prose/code fences around it), a plain-text
hypothesis, a JSONL of records, a causalcheck lab trajectory, an official CausaLab
``raw_io.jsonl`` or run folder, or ``example:<name>`` for a bundled example
(``--list-examples``).  Exit codes: 0 = no problems, 1 = problems found (an ``error`` or
``warning`` diagnostic), 2 = the input could not be read or parsed (the message names
file:line:column, the expected tokens and shows a caret).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["register", "run"]

# The text after this docstring's first paragraph is the command's --help description.
# Reads through causalcheck.checking.api.check, prints with causalcheck.checking.report.


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "path",
        metavar="PATH",
        nargs="?",
        help="record JSON, text hypothesis, JSONL/trajectory, raw_io.jsonl, run folder, or example:<name>",
    )
    p.add_argument("--json", action="store_true", help="print machine-readable JSON instead of text")
    p.add_argument(
        "--tolerance",
        type=float,
        default=0.01,
        metavar="T",
        help="absolute tolerance (Hz) when checking equations against recorded data (default 0.01)",
    )
    p.add_argument(
        "--reference",
        metavar="EDGES_FILE",
        help="known edges (text 'A -> B' lines, a JSON hypothesis, or an official graph_config.json); "
        "edges that reverse them are reported",
    )
    p.add_argument(
        "--nodes",
        metavar="A,B,...",
        help="comma-separated node names the hypothesis may use (default: the properties in past_data)",
    )
    p.add_argument("--strict", action="store_true", help="a step whose output cannot be parsed is fatal (exit 2)")
    p.add_argument("-v", "--verbose", action="store_true", help="also show info diagnostics (repaired format drift)")
    p.add_argument("--list-examples", action="store_true", help="list the bundled examples and exit")


def register(subparsers: Any) -> None:
    """Add the ``check`` command to the ``causalcheck`` command line."""
    p = subparsers.add_parser(
        "check",
        help="verify hypotheses, step records and agent trajectories (offline)",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_arguments(p)
    p.set_defaults(handler=handle)


def _reference(path: str | None) -> list[tuple[str, str]]:
    if not path:
        return []
    from causalcheck.episodes import read_text
    from causalcheck.parsing import parse_hypothesis

    h = parse_hypothesis(read_text(path), source=path)
    if not h.graph.edges:
        from causalcheck.errors import InputFormatError

        raise InputFormatError(f"--reference {path!r} holds no edges; expected lines like 'A -> B' or JSON edges")
    return sorted(h.graph.pairs)


def _emit(lines: Sequence[tuple[str, str | None]]) -> None:
    if sys.stdout.isatty():
        from rich.console import Console

        console = Console(highlight=False)
        for text, style in lines:
            console.print(text, style=style, markup=False)
    else:
        sys.stdout.write("".join(text + "\n" for text, _ in lines))


def handle(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code (errors propagate to :func:`causalcheck.cli.main`)."""
    from causalcheck.checking.api import check
    from causalcheck.checking.examples import example_names
    from causalcheck.checking.report import render_text, report_payload
    from causalcheck.errors import InputFormatError

    if args.list_examples:
        for name in example_names():
            print(f"example:{name}")
        return 0
    if not args.path:
        raise InputFormatError("PATH is required (a file, a run folder or example:<name>; see --list-examples)")
    if not args.tolerance >= 0:
        raise InputFormatError(f"--tolerance={args.tolerance!r} must be a number >= 0")
    nodes = [n.strip() for n in args.nodes.split(",") if n.strip()] if args.nodes else None
    result = check(
        args.path, reference=_reference(args.reference), tolerance=args.tolerance, nodes=nodes, strict=args.strict
    )
    trajectory = isinstance(result, list)
    reports = result if isinstance(result, list) else [result]
    if args.json:
        payload = report_payload(reports, args.path, trajectory)
        sys.stdout.write(json.dumps(payload, indent=2, sort_keys=False, default=str) + "\n")
    else:
        _emit(render_text(reports, args.path, trajectory, args.verbose))
    return 1 if any(not r.ok for r in reports) else 0


def run(argv: Sequence[str]) -> int:
    """``causalcheck check ARGV…`` in-process with the command line's exit codes (for tests and scripts)."""
    from causalcheck.errors import CausalCheckError

    parser = argparse.ArgumentParser(prog="causalcheck check")
    _add_arguments(parser)
    args = parser.parse_args(list(argv))
    try:
        return handle(args)
    except CausalCheckError as exc:
        print(f"causalcheck: error: {exc}", file=sys.stderr)
        return 2
