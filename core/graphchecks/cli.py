"""``causalcheck compare TRUTH ESTIMATE``: score an estimated graph against a true one.

Both files are read with :func:`causalcheck.graphs.read_graph` (format from
``--truth-format`` / ``--estimate-format``, else from the suffix or the content).  Prints a
table of the metrics of :func:`causalcheck.graphs.compare` (or ``--json``).  Exit codes:
0 = compared, 2 = an input could not be read (the message names the file, line and column).

The lead wires :func:`register` into :mod:`causalcheck.cli`.

``causalcheck check GRAPH --data CSV --truth GRAPH --interventions A,B --background FILE``
(the graph validator, :func:`causalcheck.graphs.validate_graph`) is provided here for the
lead to wire into ``causalcheck check``: :func:`register_check_options` adds the options to
an existing parser (``--json`` only if the parser lacks it), :func:`run_validate` is the
handler (it reads the graph from ``args.graph``, else ``args.path``).  Its exit codes follow
``causalcheck check``: 0 = no error (the report is ``ok``), 1 = an error, 2 = an input could not be
read (a :class:`~causalcheck.base.errors.CausalCheckError` propagates to the caller).
:func:`main_validate` runs the whole command in-process on a stand-alone parser.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from causalcheck.base import jsontext
from causalcheck.base.cmdline import command_line_text, plain_help, register_flag, run_in_process
from causalcheck.base.errors import InputFormatError

__all__ = ["format_table", "main_validate", "register", "register_check_options", "run", "run_validate"]

_FORMATS = ("text", "dagitty", "dot", "gml", "causallearn", "edgelist", "adjacency", "json")


SYMMETRIC_HELP = (
    "a pair written both ways (a -> b and b -> a) in DOT or GML: 'error' (default) refuses the 2-cycle; "
    "'undirected' reads it as a -- b (networkx's write_dot of a CPDAG)"
)


def register(subparsers: Any) -> None:
    """Add the ``compare`` command to the ``causalcheck`` command line."""
    p = subparsers.add_parser(
        "compare",
        help="score an estimated causal graph against the true one (SHD, F1, SID, AID)",
        description=plain_help(__doc__.split("\n\n")[0]) if __doc__ else None,
    )
    p.add_argument("truth", metavar="TRUTH", help="the true graph (any format read_graph reads)")
    p.add_argument("estimate", metavar="ESTIMATE", help="the estimated graph")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON instead of a table")
    p.add_argument("--truth-format", choices=_FORMATS, metavar="F", help=f"format of TRUTH ({', '.join(_FORMATS)})")
    p.add_argument("--estimate-format", choices=_FORMATS, metavar="F", help="format of ESTIMATE")
    p.add_argument(
        "--threshold",
        type=float,
        metavar="T",
        help="a weighted input (adjacency CSV, edge list with a weight column) keeps the edges with |weight| > T (default 0)",
    )
    p.add_argument("--symmetric", choices=("undirected", "error"), help=SYMMETRIC_HELP)
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
    for name in ("skeleton", "arrowhead", "arrowhead_common", "directed", "orientation"):
        c = getattr(result, name)
        label = {"arrowhead_common": "arrow (CE)"}.get(name, name)
        if c is None:
            lines.append(f"{label:<12}{'-':>5}{'-':>5}{'-':>5}{'-':>8}{'-':>8}{'-':>8}")
            continue
        lines.append(f"{label:<12}{c.tp:>5}{c.fp:>5}{c.fn:>5}{_rate(c.precision):>8}{_rate(c.recall):>8}{_rate(c.f1):>8}")
    lines += [f"note: {n}" for n in result.notes]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Handler of ``causalcheck compare`` (raises CausalCheckError for bad input: exit 2)."""
    from pathlib import Path

    # late: keeps causalcheck --help light
    from causalcheck.graphchecks.scores import compare

    result = compare(
        Path(args.truth),
        Path(args.estimate),
        basis=args.basis,
        truth_format=args.truth_format,
        estimate_format=args.estimate_format,
        threshold=args.threshold,
        symmetric=args.symmetric,
    )
    if args.json:
        print(jsontext.dumps(result.to_dict(), indent=2))
    else:
        print(format_table(result))
    sys.stdout.flush()
    return 0


# --------------------------------------------------------------------------- validator options


def register_check_options(parser: argparse.ArgumentParser) -> None:
    """Add the graph-validator options of ``causalcheck check GRAPH ...`` to *parser*."""
    g = parser.add_argument_group("graph validation (GRAPH is a causal graph file)")
    g.add_argument("--data", metavar="CSV", help="observations: a CSV with one column per node (header row of names)")
    g.add_argument("--truth", metavar="GRAPH", help="the true graph, compared with compare() (SHD, F1, SID, AID)")
    g.add_argument(
        "--interventions",
        metavar="A,B",
        help="comma-separated single-node intervention targets ('' for none): I-MEC size and the next intervention",
    )
    g.add_argument("--background", metavar="FILE", help="background knowledge: our text format or JSON (required/forbidden edges, tiers)")
    g.add_argument("--graph-format", choices=_FORMATS, metavar="F", help=f"format of GRAPH ({', '.join(_FORMATS)})")
    g.add_argument("--truth-format", choices=_FORMATS, metavar="F", help="format of the --truth file")
    g.add_argument("--symmetric", choices=("undirected", "error"), help=SYMMETRIC_HELP + " (GRAPH and --truth)")
    g.add_argument("--ci-test", default="auto", choices=("auto", "fisherz", "chisq", "gsq", "kci"), help="CI test (default auto: chosen from the data — chisq for categorical or few-level integer data, fisherz for numbers — and said in the report)")
    g.add_argument(
        "--continuity",
        default="none",
        choices=("none", "yates"),
        help="continuity correction of the chisq and gsq tests: 'none' (default; the statistic of causal-learn, pcalg and DAGitty) "
        "or 'yates' (Yates' correction of every 2x2 table and 2x2 stratum, as scipy's chi2_contingency applies it and so pgmpy's chi_square)",
    )
    g.add_argument("--alpha", type=float, default=0.05, help="significance level of every test (default 0.05)")
    g.add_argument("--correction", default="holm", choices=("holm", "bh", "none"), help="multiple-testing correction (default holm)")
    g.add_argument("--permutations", type=_permutations, default=None, metavar="N", help="permutations of the falsification test (default 1/alpha; 0 skips; 'all')")
    g.add_argument("--seed", type=int, default=0, help="seed of the permutations and of class sampling (default 0)")
    g.add_argument("--suggest", type=int, default=1, metavar="K", help="suggest K further single-node interventions (default 1; 0: none)")
    g.add_argument("--drop-nan", action="store_true", help="drop data rows with missing values (reported) instead of refusing them")
    g.add_argument("--ignore-extra-columns", action="store_true", help="ignore data columns that are not nodes of the graph")
    q = parser.add_argument_group("graph queries (answered after the validation; under \"queries\" in --json)")
    q.add_argument("--adjustment", nargs=2, metavar=("X", "Y"), help="adjustment sets for the effect of X on Y (node names or comma-separated sets): validity of the [adjusted] nodes, minimal, canonical and optimal sets")
    q.add_argument("--separator", nargs=2, metavar=("X", "Y"), help="a minimal set of nodes that d-/m-separates X and Y (node names or comma-separated sets)")
    q.add_argument("--blanket", metavar="X", help="the Markov blanket of X (a node name or a comma-separated set)")
    with contextlib.suppress(argparse.ArgumentError):  # the parser may have --json already
        parser.add_argument("--json", action="store_true", help="print machine-readable JSON instead of text")
    # the flags that set validate_graph's keywords, for messages that name a keyword (keyword_hint)
    for keyword, flag in (("ci_test", "--ci-test"), ("continuity", "--continuity"), ("alpha", "--alpha"), ("correction", "--correction"),
                          ("permutations", "--permutations"), ("seed", "--seed"), ("suggest", "--suggest"), ("symmetric", "--symmetric"),
                          ("graph_format", "--graph-format"), ("truth_format", "--truth-format")):  # fmt: skip
        register_flag(keyword, flag)
    register_flag("nan", "--drop-nan", "drop")
    register_flag("extra_columns", "--ignore-extra-columns", "ignore")


def _permutations(value: str) -> int | str:
    if value == "all":
        return value
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"permutations={value!r} must be a non-negative integer or 'all'") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"permutations={value!r} must be a non-negative integer or 'all'")
    return number


def run_validate(args: argparse.Namespace) -> int:
    """Handler of ``causalcheck check GRAPH --data ...``; returns the exit code (see the module docstring)."""
    from pathlib import Path

    # late: keeps causalcheck --help light
    from causalcheck.graphchecks.validator import format_report, validate_graph

    graph = getattr(args, "graph", None) or getattr(args, "path", None)
    if graph is None:
        raise InputFormatError("no GRAPH given: pass a graph file to validate")
    interventions = None
    if args.interventions is not None:
        interventions = [[t.strip()] for t in args.interventions.split(",") if t.strip()]
    report = validate_graph(
        Path(graph),
        data=None if args.data is None else Path(args.data),
        truth=None if args.truth is None else Path(args.truth),
        interventions=interventions,
        background=None if args.background is None else Path(args.background),
        ci_test=args.ci_test,
        continuity=args.continuity,
        alpha=args.alpha,
        correction=args.correction,
        seed=args.seed,
        permutations=args.permutations,
        nan="drop" if args.drop_nan else "error",
        extra_columns="ignore" if args.ignore_extra_columns else "error",
        suggest=args.suggest,
        graph_format=args.graph_format,
        truth_format=args.truth_format,
        symmetric=args.symmetric,
    )
    queries, query_lines = _queries(args, report.graph)
    if args.json:
        payload = report.to_dict()
        if queries:
            payload["queries"] = queries
        print(jsontext.dumps(payload, indent=2, default=str))
    else:
        print(command_line_text(format_report(report, verbose=True)))
        if query_lines:
            print(command_line_text("\n".join(query_lines)))
    sys.stdout.flush()
    return 0 if report.ok else 1


def _nodes(value: str) -> list[str]:
    return [n.strip() for n in value.split(",") if n.strip()]


def _queries(args: argparse.Namespace, graph: Any) -> tuple[dict[str, Any], list[str]]:
    """The answers of ``--adjustment``, ``--separator`` and ``--blanket`` (JSON and text lines); an error names its flag."""
    # late: keeps causalcheck --help light
    from causalcheck.graphchecks.adjustment import adjustment_sets

    # late: keeps causalcheck --help light
    from causalcheck.graphchecks.separation import find_minimal_separator, markov_blanket

    def shown(nodes: Any) -> str:
        return "{" + ", ".join(nodes) + "}"

    out: dict[str, Any] = {}
    lines: list[str] = []
    for flag, value in (("--adjustment", getattr(args, "adjustment", None)), ("--separator", getattr(args, "separator", None)),
                        ("--blanket", getattr(args, "blanket", None))):  # fmt: skip
        if value is None:
            continue
        try:
            if flag == "--adjustment":
                sets = adjustment_sets(graph, _nodes(value[0]), _nodes(value[1]))
                out["adjustment"] = sets.to_dict()
                lines.append(f"adjustment {', '.join(sets.exposure)} -> {', '.join(sets.outcome)}: "
                             + ("identifiable by adjustment" if sets.identifiable else f"not identifiable by adjustment ({sets.reason})"))  # fmt: skip
                if sets.given is not None:
                    lines.append(f"  [adjusted] {shown(sets.given.given)}: " + ("valid" if sets.given.valid else f"not valid: {sets.given.reason}"))
                if sets.identifiable:
                    lines.append(f"  minimal: {', '.join(shown(s) for s in sets.minimal)}" + (" (more not listed)" if sets.truncated else ""))
                    lines.append(f"  canonical: {shown(sets.canonical) if sets.canonical is not None else 'none'}")
                    lines.append(f"  optimal (O-set): {shown(sets.optimal) if sets.optimal is not None else sets.optimal_reason}")
            elif flag == "--separator":
                found = find_minimal_separator(graph, _nodes(value[0]), _nodes(value[1]))
                out["separator"] = found.to_dict()
                pair = f"{', '.join(found.x)} and {', '.join(found.y)}"
                lines.append(f"minimal separator of {pair}: " + (shown(found.nodes) if found.nodes is not None else "none (no set separates them)"))
            else:
                blanket = markov_blanket(graph, _nodes(value))
                out["blanket"] = blanket.to_dict()
                lines.append(f"Markov blanket of {', '.join(blanket.of)}: {shown(blanket.nodes)}")
        except InputFormatError as exc:
            shown_value = " ".join(value) if isinstance(value, list) else value
            raise InputFormatError(f"{flag} {shown_value}: {exc}") from exc
    return out, (["", "queries:", *("  " + line for line in lines)] if lines else [])


def main_validate(argv: list[str]) -> int:
    """``GRAPH [options]`` in-process on a stand-alone parser (exit 2 with the message for bad input,
    :func:`causalcheck.base.cmdline.run_in_process`)."""
    parser = argparse.ArgumentParser(prog="causalcheck check", description="validate a causal graph")
    parser.add_argument("graph", metavar="GRAPH", help="the graph to validate (any format read_graph reads)")
    register_check_options(parser)
    return run_in_process(parser, argv, run_validate)
