"""``causalcheck check PATH``: verify hypotheses, records and trajectories from the command line.

PATH is a record JSON (with or without prose/code fences around it), a plain-text
hypothesis, a JSONL of records, a causalcheck lab trajectory, an official CausaLab
``raw_io.jsonl`` or run folder, any folder (every checkable file and run folder in it is
checked; what is not checked is listed with the reason), or ``example:<name>`` for a
bundled example (``--list-examples``).  Exit codes: 0 = no errors (warnings may be
shown), 1 = errors found (an ``error`` finding; in a folder also: a file could not be
read), 2 = the input could not be read or parsed (the message names file:line:column, the expected
tokens and shows a caret; a folder with nothing checkable).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from causalcheck.base import jsontext
from causalcheck.base.cmdline import add_documented_command, run_in_process
from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.escape import raw_stream, terminal_text
from causalcheck.base.files import sha256_file
from causalcheck.graphchecks.cli import register_check_options, run_validate

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
    p.add_argument("-v", "--verbose", action="store_true", help="also show info findings (repaired format drift)")
    p.add_argument("--list-examples", action="store_true", help="list the bundled examples and exit")

    register_check_options(p)  # GRAPH --data/--truth/--interventions/--background: causalcheck.graphs.validate_graph


def register(subparsers: Any) -> None:
    """Add the ``check`` command to the ``causalcheck`` command line."""
    p = add_documented_command(subparsers, "check", help="verify hypotheses, step records and agent trajectories (offline)", doc=__doc__)
    _add_arguments(p)
    p.set_defaults(handler=handle)


def _reference(path: str | None) -> list[tuple[str, str]]:
    if not path:
        return []
    # late: keeps causalcheck --help light
    from causalcheck.episodes import read_text

    # late: keeps causalcheck --help light
    from causalcheck.parsing import parse_hypothesis

    h = parse_hypothesis(read_text(path), source=f"--reference {path}")
    if not h.graph.edges:
        raise InputFormatError(f"--reference {path!r} holds no edges; expected lines like 'A -> B' or JSON edges")
    return sorted(h.graph.pairs)


def _emit(lines: Sequence[tuple[str, str | None]]) -> None:
    if sys.stdout.isatty():
        from rich.console import Console

        console = Console(highlight=False, file=raw_stream(sys.stdout))  # rich writes its own escapes, ...
        for text, style in lines:
            console.print(terminal_text(text), style=style, markup=False)  # ... ours: a name is shown as text
    else:
        sys.stdout.write("".join(text + "\n" for text, _ in lines))


def _folder_lines(result: Any, verbose: bool) -> list[tuple[str, str | None]]:
    # late: keeps causalcheck --help light
    from causalcheck.checking.report import render_text

    lines: list[tuple[str, str | None]] = [(f"{result.folder}: {len(result.units)} input(s)", "bold")]
    for unit in result.checked:
        lines.append(("", None))
        lines.append((f"== {unit.path}", "bold"))
        assert unit.report is not None
        lines.extend(render_text(unit.report, unit.path, verbose))
    for unit in result.failed:
        lines.append((f"failed  {unit.path}: {unit.reason}", "bold red"))
    for unit in result.skipped:
        lines.append((f"skipped {unit.path}: {unit.reason}", "dim"))
    problems = sum(1 for u in result.checked if u.problems)
    lines.append(
        (
            f"folder summary: {len(result.checked)} checked ({problems} with problems), "
            f"{len(result.failed)} could not be read, {len(result.skipped)} skipped",
            "bold",
        )
    )
    return lines


def handle(args: argparse.Namespace) -> int:
    """Run the command; returns the exit code (errors propagate to :func:`causalcheck.cli.main`)."""
    from pathlib import Path

    if args.list_examples:
        # late: keeps causalcheck --help light
        from causalcheck.checking.examples import example_names

        for name in example_names():
            print(f"example:{name}")
        return 0
    if not args.path:
        raise InputFormatError("PATH is required (a file, a run folder or example:<name>; see --list-examples)")
    if not args.tolerance >= 0 or args.tolerance == float("inf"):
        raise InputFormatError(f"--tolerance={args.tolerance!r} must be a finite number >= 0")
    if _validate_as_graph(args):  # dispatched before the folder checker (record parser, episode readers, lark) loads
        return run_validate(args)

    # late: keeps causalcheck --help light and a graph's validation free of the record readers
    from causalcheck.checking.folder import check_folder, check_input, require_checked

    # late: keeps causalcheck --help light
    from causalcheck.checking.report import render_text, report_payload
    nodes = [n.strip() for n in args.nodes.split(",") if n.strip()] if args.nodes else None
    reference = _reference(args.reference)
    options = {"reference": reference, "tolerance": args.tolerance, "nodes": nodes, "strict": args.strict}
    target = args.path
    single = None
    if not args.path.startswith("example:") and Path(args.path).is_dir():
        folder = check_folder(args.path, **options)
        require_checked(folder)
        single = folder.checked[0] if len(folder.units) == 1 else None
        if single is None:
            manifest = [u.manifest() for u in folder.units]
            report = folder.report
            if args.json:
                payload = {
                    "source": args.path,
                    "kind": "folder",
                    "ok": report.ok,
                    "summary": {
                        "checked": len(folder.checked),
                        "with_problems": sum(1 for u in folder.checked if u.problems),
                        "failed": len(folder.failed),
                        "skipped": len(folder.skipped),
                    },
                    "inputs": manifest,
                    "results": [report_payload(u.report, u.path) for u in folder.checked if u.report is not None],
                }
                sys.stdout.write(jsontext.dumps(payload, indent=2, sort_keys=False, default=str) + "\n")
            else:
                _emit(_folder_lines(folder, args.verbose))
            return 0 if report.ok else 1
        target = single.path
    result = single.report if single is not None and single.report is not None else check_input(target, **options)
    if args.json:
        payload = report_payload(result, args.path)
        facts = _input_facts(target)
        if facts is not None:
            payload["inputs"] = [facts]
        sys.stdout.write(jsontext.dumps(payload, indent=2, sort_keys=False, default=str) + "\n")
    else:
        _emit(render_text(result, args.path, args.verbose))
    return 0 if result.ok else 1


def _validate_as_graph(args: argparse.Namespace) -> bool:
    """True when ``check PATH`` is a graph validation: a validator option, a graph-only suffix,
    or a text/JSON file that is neither records nor a hypothesis but reads as a graph."""
    from pathlib import Path

    if any(getattr(args, k, None) is not None for k in ("data", "truth", "interventions", "background", "graph_format", "symmetric", "adjustment", "separator", "blanket")):
        return True  # a validator option: a graph, decided before anything of the record readers loads
    path = str(args.path)
    if path.startswith("example:"):
        return False

    # late: keeps causalcheck --help light (the API loads the folder checker)
    from causalcheck.checking.api import GRAPH_ONLY_SUFFIXES

    p = Path(path)
    if p.suffix.lower() in GRAPH_ONLY_SUFFIXES:
        return True
    # late: keeps causalcheck --help light
    from causalcheck.checking.inputs import graph_file_format

    if graph_file_format(path) not in (None, "text"):  # the content is a graph (graph.json in the JSON graph format)
        return True
    if not p.is_file() or p.suffix.lower() not in (".txt", ""):
        return False
    # late: keeps causalcheck --help light
    from causalcheck.checking.inputs import load_checkable

    # late: keeps causalcheck --help light
    from causalcheck.graphs import read_graph

    try:
        load_checkable(path)
    except CausalCheckError:
        try:
            graph = read_graph(p, format="text")
        except CausalCheckError:
            return False  # neither: the hypothesis reader's error is the one shown
        return bool(graph.nodes)  # an empty text is no graph: the hypothesis reader's error is shown
    return False


def _input_facts(target: str) -> dict[str, Any] | None:
    """The manifest entry of the file checked (``None`` for text given inline)."""
    from pathlib import Path

    # late: keeps causalcheck --help light
    from causalcheck.checking.examples import example_path

    # late: keeps causalcheck --help light
    from causalcheck.episodes import find_record_file

    p = example_path(target.split(":", 1)[1]) if target.startswith("example:") else Path(target)
    if p.is_dir():
        p = find_record_file(p)
    if not p.is_file():
        return None
    return {"path": str(p), "status": "checked", "sha256": sha256_file(p), "bytes": p.stat().st_size}


def run(argv: Sequence[str]) -> int:
    """``causalcheck check ARGV…`` in-process with the command line's exit codes (for tests and scripts)."""
    parser = argparse.ArgumentParser(prog="causalcheck check")
    _add_arguments(parser)
    return run_in_process(parser, argv, handle)
