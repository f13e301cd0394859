"""``causalcheck lab …``: run agents on suites, generate suites, list suites, score runs.

Commands::

    causalcheck lab run --suite PATH|NAME --agent NAME --seeds N --out DIR [--workers K] [--resume]
                        [--executor local|ray [--ray-address ADDR]]
    causalcheck lab generate --nodes 4 --count 10 --seed 0 --out suite.jsonl
    causalcheck lab suites
    causalcheck lab score ...            (see causalcheck.lab.score_cli)

Handlers import their modules lazily so ``causalcheck --help`` stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from causalcheck.base.cmdline import (
    add_command_group,
    add_executor_arguments,
    bounded_int,
    executor_from_args,
    nonnegative_int,
    positive_int,
)
from causalcheck.base.errors import InputFormatError
from causalcheck.base.limits import check_seed
from causalcheck.lab import score_cli

__all__ = ["MAX_PRIOR_RECORDS", "MAX_RUN_BUDGET", "MAX_SEEDS", "register"]

#: Largest ``--prior-records`` / ``--budget <N>o…`` and ``--interventions`` / ``--submissions`` /
#: ``--budget …o<N>i``: the episode's own bounds, ``causalcheck.lab.episode.MAX_PRIOR_RECORDS`` /
#: ``MAX_RUN_BUDGET``, repeated here so the parser is built without importing the lab (a test
#: checks they agree).
MAX_PRIOR_RECORDS = 1_000
MAX_RUN_BUDGET = 10_000
#: Largest ``--seeds``.
MAX_SEEDS = 100_000


def _hertz(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"value={text!r} must be a number of Hz") from None
    if not 0 < v < float("inf"):
        raise argparse.ArgumentTypeError(f"value={text!r} must be a finite number > 0")
    return v


def _opt(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"agent option={text!r} must look like KEY=VALUE")
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``lab`` command group to the top-level *subparsers*."""
    lab, lab_sub = add_command_group(subparsers, "lab", help="hidden-SCM lab: run agents, generate suites, score runs",
                                     description="CausaLab-compatible hidden-SCM lab.", metavar="LAB_COMMAND")

    run = lab_sub.add_parser("run", help="run an agent on a suite (one trajectory per episode + summary)")
    run.add_argument("--suite", required=True, metavar="PATH|NAME", help="suite file, bundled name (e.g. mini) or official name (e.g. 4nodes)")
    run.add_argument("--agent", required=True, metavar="NAME", help="random | observational | planner | llm (needs --model) | a plug-in: entry-point name or package.module:factory")
    run.add_argument("--seeds", type=bounded_int(MAX_SEEDS, "MAX_SEEDS", 1), default=1, metavar="N", help="seeds per graph (default 1)")
    run.add_argument("--seed-start", type=nonnegative_int, default=1, metavar="S", help="first seed (default 1, the anchor's ENV_SEED)")
    run.add_argument("--out", required=True, metavar="DIR", help="output folder")
    run.add_argument("--workers", type=positive_int, default=1, metavar="K", help="parallel episodes (processes)")
    add_executor_arguments(run, what="episodes")
    run.add_argument("--resume", action="store_true", help="continue an interrupted run in DIR")
    run.add_argument("--limit", type=positive_int, metavar="N", help="only the first N graphs")
    run.add_argument("--graphs", metavar="IDS", help="comma-separated graph ids to run")
    run.add_argument("--budget", metavar="TAG", help="budget grid setting <records>o<interventions>i, e.g. 3o6i")
    run.add_argument("--prior-records", type=bounded_int(MAX_PRIOR_RECORDS, "MAX_PRIOR_RECORDS"), metavar="N", help="prior measurement records (default 2)")
    run.add_argument("--interventions", type=bounded_int(MAX_RUN_BUDGET, "MAX_RUN_BUDGET"), metavar="N", help="intervention budget (default: the graph's budget; 0 for golden)")
    run.add_argument("--submissions", type=bounded_int(MAX_RUN_BUDGET, "MAX_RUN_BUDGET", 1), default=3, metavar="N", help="reactor submissions (default 3)")
    run.add_argument("--tolerance", type=_hertz, default=5.0, metavar="HZ", help="reactor tolerance in Hz (default 5)")
    run.add_argument("--do", action="store_true", help="hard do() interventions instead of shifts")
    run.add_argument("--no-hidden", action="store_true", help="switch the hidden disturbance off")
    run.add_argument("--oracle-chains", action="store_true", help="show oracle causal chains after each intervention")
    run.add_argument("--candidate-tool", action="store_true", help="show the candidate graphs consistent with the interventions")
    run.add_argument("--known-structure", action="store_true", help="known-structure ablation: tell the agent the true graph")
    run.add_argument("--anchor-ceiling", action="store_true", help="clamp submissions at 10000 Hz like the anchor")
    run.add_argument(
        "--anchor-submissions",
        action="store_true",
        help="like the original reactor: only the first submissions-1 submissions can activate it",
    )
    run.add_argument("--max-steps", type=positive_int, metavar="N", help="cap on agent steps per episode (default 4*interventions + 20)")
    run.add_argument("--model", metavar="MODEL", help="model name for LLM agents (passed as agent option 'model')")
    run.add_argument("--agent-opt", type=_opt, action="append", default=[], metavar="KEY=VALUE", help="extra agent option (JSON value), repeatable")
    run.add_argument("--quiet", action="store_true", help="no progress (a bar on a terminal, a line every few seconds on stderr otherwise) and no table")
    run.set_defaults(handler=_run)

    gen = lab_sub.add_parser("generate", help="generate a suite with the released shape statistics")
    gen.add_argument("--nodes", required=True, metavar="K[,K...]", help="node counts (frequency included), 3..50")
    gen.add_argument("--count", type=positive_int, default=50, metavar="N", help="graphs per node count (default 50)")
    gen.add_argument("--seed", type=nonnegative_int, default=0, metavar="S", help="generator seed (default 0)")
    gen.add_argument("--family", choices=("linear", "quadratic"), default="linear")
    gen.add_argument("--hidden", type=nonnegative_int, default=0, metavar="N", help="hidden disturbance on N nodes")
    gen.add_argument("--hidden-values", default="-5,0,5", metavar="V,V,V", help="value space of the disturbance")
    gen.add_argument("--freq-parent", action="store_true", help="let the frequency have children")
    gen.add_argument("--prefix", metavar="NAME", help="graph_id prefix")
    gen.add_argument("--out", required=True, metavar="PATH", help="output JSONL file")
    gen.set_defaults(handler=_generate)

    lst = lab_sub.add_parser("suites", help="list bundled and official suites")
    lst.set_defaults(handler=_suites)

    score_cli.register(lab_sub)
    return lab


def _config(args: argparse.Namespace) -> Any:
    # late: keeps causalcheck --help light
    from causalcheck.lab.episode import EpisodeConfig

    try:
        return EpisodeConfig.from_flags({**vars(args), "hidden": not args.no_hidden})
    except InputFormatError as exc:
        raise InputFormatError(f"--budget={args.budget!r}: {exc}") if args.budget else exc from None


def _run(args: argparse.Namespace) -> int:
    # late: keeps causalcheck --help light
    from causalcheck.lab.runner import run_suite, summary_markdown

    options = dict(args.agent_opt)
    if args.model:
        options["model"] = args.model
    check_seed(args.seed_start + args.seeds - 1, "--seed-start + --seeds - 1 (the last seed)")
    seeds = list(range(args.seed_start, args.seed_start + args.seeds))
    # late: pulls numpy
    from causalcheck.lab.runner import check_agent_options

    # late: keeps causalcheck --help light
    from causalcheck.plugins import PluginError, PluginOptionError

    try:  # the agent built once with its options (a plug-in loaded and checked) before the run folder is made
        check_agent_options(args.agent, options)
    except InputFormatError as exc:
        if isinstance(exc, PluginError) and not isinstance(exc, PluginOptionError):
            raise  # the plug-in itself, not an option
        raise InputFormatError(f"{exc} (agent options are set with --agent-opt KEY=VALUE)") from None
    graphs = tuple(g.strip() for g in args.graphs.split(",") if g.strip()) if args.graphs else ()
    executor = executor_from_args(args)
    try:
        summary = run_suite(
            args.suite,
            args.agent,
            args.out,
            seeds=seeds,
            config=_config(args),
            agent_options=options,
            workers=args.workers,
            resume=args.resume,
            graphs=graphs,
            limit=args.limit,
            progress=False if args.quiet else None,
            command="causalcheck lab run",
            options=_options_of(args),
            executor=executor,
        )
    except KeyboardInterrupt as exc:  # the top level prints the note and exits 130 / 143
        raise type(exc)(_interrupted_note(Path(args.out))) from None
    finally:
        executor.close()
    if not args.quiet:
        sys.stdout.write(summary_markdown(summary))
    return 0


def _interrupted_note(out: Path) -> str:
    """What an interrupted ``lab run`` leaves in *out*, and whether ``--resume`` has anything to continue."""
    done = len(list((out / "episodes").glob("*.jsonl"))) if (out / "episodes").is_dir() else 0
    if done:
        return f"{done} finished episode(s) are in {out / 'episodes'}; rerun with --resume (same arguments) to run the rest"
    return f"no episode had finished, so no episode was written to {out} and there is nothing to resume; rerun the command to start"


def _options_of(args: argparse.Namespace) -> dict[str, Any]:
    """The parsed options of a command, for its provenance record."""
    out: dict[str, Any] = {}
    for key, value in vars(args).items():
        if key in ("handler",) or callable(value):
            continue
        out[key] = [list(v) if isinstance(v, tuple) else v for v in value] if isinstance(value, list) else value
    return out


def _generate(args: argparse.Namespace) -> int:
    # late: keeps causalcheck --help light
    from causalcheck.lab.generator import generate_suite, write_suite

    try:
        sizes = [int(x) for x in args.nodes.split(",") if x.strip()]
    except ValueError:
        raise InputFormatError(f"--nodes={args.nodes!r} must be comma-separated integers") from None
    try:
        values = [float(x) for x in args.hidden_values.split(",") if x.strip()]
    except ValueError:
        raise InputFormatError(f"--hidden-values={args.hidden_values!r} must be comma-separated numbers") from None
    records = generate_suite(
        sizes,
        args.count,
        args.seed,
        prefix=args.prefix,
        family=args.family,
        hidden=args.hidden,
        hidden_values=values,
        freq_parent=args.freq_parent,
    )
    path = write_suite(records, args.out)
    print(f"wrote {len(records)} graphs to {path}")
    return 0


def _suites(args: argparse.Namespace) -> int:
    # late: keeps causalcheck --help light
    from causalcheck.lab.suites import bundled_suites, official_suites

    for name, desc in bundled_suites().items():
        print(f"{name}\tbundled\t{desc}")
    official = official_suites()
    for name, desc in official.items():
        print(f"{name}\tofficial\t{desc}")
    if not official:
        print("causalcheck: error: the official CausaLab suites are missing from this installation: reinstall causalcheck",
              file=sys.stderr)
        return 2
    return 0
