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

_MARK = {"error": "error  ", "warning": "warning", "info": "info   "}
_STYLE = {"error": "bold red", "warning": "yellow", "info": "dim"}


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
    from causalcheck.parsing import parse_hypothesis
    from causalcheck.trajectory import read_text

    h = parse_hypothesis(read_text(path), source=path)
    if not h.graph.edges:
        from causalcheck.errors import InputFormatError

        raise InputFormatError(f"--reference {path!r} holds no edges; expected lines like 'A -> B' or JSON edges")
    return sorted(h.graph.pairs)


def _emit(lines: list[tuple[str, str | None]]) -> None:
    if sys.stdout.isatty():
        from rich.console import Console

        console = Console(highlight=False)
        for text, style in lines:
            console.print(text, style=style, markup=False)
    else:
        sys.stdout.write("".join(text + "\n" for text, _ in lines))


def _render(reports: list[Any], source: str, trajectory: bool, verbose: bool) -> list[tuple[str, str | None]]:
    from causalcheck.checking import first_data_conflict

    out: list[tuple[str, str | None]] = []
    if trajectory:
        out.append((f"{source}: {len(reports)} steps", "bold"))
    previous: tuple[str | None, Any] | None = None
    last_shown: tuple[str, list[str]] | None = None
    for r in reports:
        head = r.subject
        if r.meta.get("action"):
            head += f"  [{r.meta['action']}]"
        out.append((head, "bold"))
        hyp = r.meta.get("hypothesis")
        if hyp is None and "unparseable-record" not in r.codes():
            out.append(("  hypothesis: (none)", None))
        elif hyp == "":
            out.append(("  hypothesis: (empty)", None))
        elif hyp is not None:
            if trajectory and previous is not None and previous[1] == hyp:
                out.append((f"  hypothesis: unchanged since {previous[0]}", None))
            else:
                out.append(("  hypothesis:", None))
                out.extend((f"    {line}", None) for line in str(hyp).splitlines())
                previous = (r.subject, hyp)
        shown = [d for d in r.diagnostics if verbose or not trajectory or d.severity != "info"]
        messages = [d.message for d in shown]
        if trajectory and shown and last_shown is not None and last_shown[1] == messages:
            out.append((f"  {len(shown)} finding(s), the same as at {last_shown[0]}", _STYLE[shown[0].severity]))
            continue
        last_shown = (r.subject, messages)
        for d in shown:
            out.append((f"  {_MARK[d.severity]} {d.code}: {d.message}", _STYLE[d.severity]))
            if d.code == "record-drift" and (verbose or not trajectory):
                out.extend((f"      - {w}", "dim") for w in d.elements)
        if not any(d.severity != "info" for d in shown):
            out.append(("  ok", "green"))
    problems = sum(not r.ok for r in reports)
    if trajectory:
        k = first_data_conflict(reports)
        tail = f"; the recorded data stop agreeing with the hypothesis at {reports[k].subject}" if k is not None else ""
        out.append((f"summary: {len(reports)} steps, {problems} with problems{tail}", "bold"))
    elif problems == 0:
        out.append(("no problems found", "green"))
    return out


def handle(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code (errors propagate to :func:`causalcheck.cli.main`)."""
    from causalcheck.checking import check, example_names
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
    problems = sum(not r.ok for r in reports)
    if args.json:
        from causalcheck.checking import first_data_conflict

        k = first_data_conflict(reports)
        payload = {
            "source": args.path,
            "kind": "trajectory" if trajectory else "single",
            "ok": problems == 0,
            "summary": {
                "reports": len(reports),
                "with_problems": problems,
                "first_data_conflict_step": reports[k].meta.get("step") if k is not None else None,
            },
            "reports": [r.to_json() for r in reports],
        }
        sys.stdout.write(json.dumps(payload, indent=2, sort_keys=False, default=str) + "\n")
    else:
        _emit(_render(reports, args.path, trajectory, args.verbose))
    return 1 if problems else 0


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
