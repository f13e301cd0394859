"""``causalcheck explain …``: score what-if answers offline, replay official result files.

Commands::

    causalcheck explain score --benchmark PATH|demo --answers PATH|demo --out DIR
                              [--model NAME] [--pm-mode causal|all] [--judge-edges all|causal]
                              [--segmenter rules|parser:PIPELINE] [--items ID[,ID...]] [--limit N]
                              [--max-answer-chars N] [--keep-injections] [--timestamp TS] [--fresh]
                              [--progress [--progress-every N] | --quiet]
    causalcheck explain items [PATH|demo]   (the benchmark's item keys, domains and questions)
    causalcheck explain replay RESULT_FILE [--out DIR] [--pm-mode auto|causal|all] [--no-parse-check]
    causalcheck explain answer …   (from causalcheck.explain.answer, when installed)
    causalcheck explain rubrics …  (rubric generation, causalcheck.explain.rubrics)
    causalcheck explain agree …    (agreement of two scorers; from the report package)

This module only reads the command line and prints: the run itself — loading, scoring,
resumable result files — is :func:`causalcheck.explain.run.score_answers`, and the parser
and judges come from the back-end registry there (:func:`causalcheck.explain.run.make_judges`;
a back-end adds its options, e.g. the LLM judges' ``--judge`` / ``--parser``, through
:func:`causalcheck.explain.run.argument_hooks`).  A resumed run re-scores failed and
degraded items.  Exit codes (:func:`exit_code`): 0 every item scored (replay: reproduced);
1 some item failed, was not answered (a selected benchmark item with no answer in the answers
file; ``--items`` selects a subset, and items not selected are no inputs) or was skipped (an
answer id matching no item; an item that cannot be replayed; a replay mismatch), each named on
stderr and in the result file; 2 nothing could be
scored, or bad input; 3 stopped on a limit (see :mod:`causalcheck.cli`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.base.cmdline import (
    add_command_group,
    add_executor_arguments,
    executor_from_args,
    positive_int,
)
from causalcheck.base.files import Provenance, RunLock, atomic_write_text
from causalcheck.base.progress import add_progress_arguments
from causalcheck.explain import rubrics as rubrics_cmd
from causalcheck.explain.progress import progress_from_args
from causalcheck.explain.run import ScoredSet, argument_hooks, make_judges, score_answers

if TYPE_CHECKING:  # pragma: no cover
    from types import ModuleType

__all__ = ["exit_code", "register"]


def register(subparsers: Any, also: Sequence[Callable[[Any], None]] = ()) -> argparse.ArgumentParser:
    """Add the ``explain`` command group to the top-level *subparsers*.

    *also*: registrations of ``explain`` subcommands that live outside this pipeline, called
    last with the group's subparsers (:mod:`causalcheck.cli` passes ``explain agree`` from the
    report package, which no pipeline imports).
    """
    ex, sub = add_command_group(
        subparsers,
        "explain",
        help="score what-if answers (WhatIfBench / PRISM): PM, RM, Final",
        description="WhatIfBench / PRISM evaluation: answers -> EDUs -> causal graph -> PM, RM, Final.",
        metavar="EXPLAIN_COMMAND",
    )

    sc = sub.add_parser("score", help="score answers against a benchmark (offline judges by default)")
    sc.add_argument("--benchmark", required=True, metavar="PATH|demo", help="WhatIfBench JSON file, or 'demo'")
    sc.add_argument("--answers", required=True, metavar="PATH|demo", help="runner JSON or JSONL {id, answer[, model]}, or 'demo'")
    sc.add_argument("--out", required=True, metavar="DIR", help="output folder (result JSON, JSONL, Markdown per answer model)")
    sc.add_argument("--model", metavar="NAME", help="score only this answer model of a multi-model answers file")
    sc.add_argument("--pm-mode", choices=("causal", "all"), default="causal", help="PM over causal edges (default, May-2026) or all edges (April-2026)")
    sc.add_argument("--judge-edges", choices=("all", "causal"), default=None, help="judge every edge, as the original, or only the causal ones PM uses "
                    "(default: all with the offline judges, causal with --judge: same PM, fewer model calls)")
    sc.add_argument("--segmenter", default="rules", metavar="NAME", help="offline EDU segmenter: rules (default) or parser:<spaCy pipeline>")
    sc.add_argument("--items", action="append", default=[], metavar="ID[,ID...]",
                    help="score only these benchmark items (keys or ids, comma-separated or repeated; "
                         "'causalcheck explain items BENCHMARK' lists them); the others are not inputs")
    sc.add_argument("--limit", type=positive_int, metavar="N", help="only the first N benchmark items (of --items, when given)")
    sc.add_argument("--max-answer-chars", type=positive_int, default=200_000, metavar="N", help="reject longer answers (default 200000)")
    sc.add_argument("--keep-injections", action="store_true", help="do not remove sentences addressed to a judge")
    sc.add_argument("--timestamp", metavar="YYYYMMDD-HHMMSS", help="timestamp written into meta (default: now, UTC)")
    sc.add_argument("--fresh", action="store_true", help="ignore earlier results in DIR instead of resuming")
    sc.add_argument("--workers", type=positive_int, default=1, metavar="K", help="score items in K processes (offline judges; same files for every K)")
    add_executor_arguments(sc, what="items are scored")
    add_progress_arguments(sc)
    for hook in argument_hooks():
        hook(sc)
    sc.set_defaults(handler=_cmd_score)

    it = sub.add_parser("items", help="list a benchmark's items: key, domain, question (for --items)")
    it.add_argument("benchmark", nargs="?", default="demo", metavar="PATH|demo", help="WhatIfBench JSON file, or 'demo' (default)")
    it.set_defaults(handler=_cmd_items)

    rp = sub.add_parser("replay", help="re-score an official result file from its recorded judgments")
    rp.add_argument("result", metavar="RESULT_FILE", help="<answer>_metrics_<judge>.json")
    rp.add_argument("--out", metavar="DIR", help="write the re-scored result file and report here")
    rp.add_argument("--pm-mode", choices=("auto", "causal", "all"), default="auto", help="auto: causal for May-2026 files, all-edge for April-2026")
    rp.add_argument("--no-parse-check", action="store_true", help="skip re-deriving the recorded graphs")
    rp.set_defaults(handler=_cmd_replay)

    answer_cmd: ModuleType | None
    try:  # `explain answer` (model-generated answers) lives with the LLM back-end
        # late: optional (except ImportError)
        from causalcheck.explain import answer as answer_cmd
    except ImportError:  # pragma: no cover - optional back-end
        answer_cmd = None
    if answer_cmd is not None and hasattr(answer_cmd, "register"):
        answer_cmd.register(sub)

    rubrics_cmd.register(sub)
    for add in also:
        add(sub)
    return ex


def _pct(x: float | None) -> str:
    return "      –" if x is None else f"{100 * x:7.2f}"


def _table(results: Sequence[ScoredSet]) -> str:
    lines = [f"{'answers':<18} {'domain':<8} {'n':>3} {'PM':>7} {'RM':>7} {'Final':>7}"]
    for res in results:
        name, s = res.model, res.summary
        for row in s.rows:
            lines.append(f"{name:<18} {row.bucket:<8} {row.n:>3} {_pct(row.pm)} {_pct(row.rm)} {_pct(row.final)}")
        if s.n_failed:
            lines.append(f"{name:<18} {s.n_failed} item(s) failed (see failures in the result file)")
        if res.not_answered:
            lines.append(f"{name:<18} {len(res.not_answered)} item(s) not answered (no answer in the file; not scored)")
        if s.n_degraded:
            lines.append(f"{name:<18} {s.n_degraded} item(s) degraded: a parser or judge fallback was used")
        if res.unmatched:
            lines.append(f"{name:<18} {len(res.unmatched)} answer(s) match no benchmark item and were not scored")
    return "\n".join(lines)


def _say(text: str) -> None:
    print(f"causalcheck: {text}", file=sys.stderr)


def _cmd_items(args: argparse.Namespace) -> int:
    """``explain items``: one tab-separated line per item — key, domain, the question's first line (cut at 80 characters)."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.data import load_benchmark

    for item in load_benchmark(args.benchmark).items:
        question = (item.question.strip().splitlines() or [""])[0]
        print(f"{item.key}\t{item.domain or '-'}\t{question[:77] + '...' if len(question) > 80 else question}")
    return 0


def _cmd_score(args: argparse.Namespace) -> int:
    judges = make_judges(args)
    executor = executor_from_args(args)
    progress = progress_from_args(args, title="explain score", models=judges.models)
    try:
        results = score_answers(
            args.benchmark,
            args.answers,
            args.out,
            judges,
            model=args.model,
            pm_mode=args.pm_mode,
            judge_edges=args.judge_edges or judges.judge_edges,
            limit=args.limit,
            items=[k for v in args.items for k in v.split(",") if k.strip()] or None,
            max_chars=args.max_answer_chars,
            strip_injections=not args.keep_injections,
            timestamp=args.timestamp,
            resume=not args.fresh,
            log=lambda s: print(s, file=sys.stderr),
            progress=progress,
            workers=args.workers,
            executor=executor,
        )
    finally:
        if progress is not None:
            progress.close()
        executor.close()
    print(_table(results))
    if judges.notice:
        _say(f"note: {judges.notice}")
    if judges.on_done is not None:
        judges.on_done()
    for res in results:
        if res.model_from == "file name":
            _say(f"note: answers: model name {res.model!r} is the answers file's name (its records have no 'model' field "
                 "and it has no meta.model); add a 'model' field to each record to name it")
        for key, reason in res.failed:
            _say(f"{res.model}: item {key!r} failed: {reason}")
        for key in res.unmatched:
            _say(f"{res.model}: answer id {key!r} matches no benchmark item; it was not scored")
        if res.not_answered:
            shown = ", ".join(res.not_answered[:5]) + (", …" if len(res.not_answered) > 5 else "")
            _say(f"{res.model}: {len(res.not_answered)} benchmark item(s) have no answer in {args.answers} and were not "
                 f"scored (not answered: {shown}); to score a subset, select it with --items")
        for key, reason in res.degraded:
            _say(f"{res.model}: item {key!r} degraded: {reason}")
    return exit_code(sum(r.summary.n_items for r in results), any(r.problems for r in results))


def exit_code(n_scored: int, problems: bool) -> int:
    """The explain commands' exit code: 2 when nothing could be scored, 1 when some item failed, was
    not answered or was skipped, else 0 (usage errors and unreadable inputs exit 2 earlier, through the error)."""
    if n_scored == 0:
        _say("error: nothing could be scored (every item failed or was skipped; see above)")
        return 2
    return 1 if problems else 0


def _cmd_replay(args: argparse.Namespace) -> int:
    # late: keeps causalcheck --help light
    from causalcheck.explain.replay import replay_file

    provenance = Provenance(
        command="explain replay",
        options={"result": str(args.result), "pm_mode": args.pm_mode, "parse_check": not args.no_parse_check},
    )
    report = replay_file(args.result, pm_mode=args.pm_mode, check_parse=not args.no_parse_check)
    provenance.add_input(args.result)
    print(f"{'item':<40} {'source':<9} {'PM':>8} {'RM':>8} {'Final':>8}  match")
    for it in report.items:
        pm, rm, fin = it.replayed
        parse = "" if it.parse_match is None else (" graph ok" if it.parse_match else " GRAPH DIFFERS")
        print(f"{it.key[:40]:<40} {it.source:<9} {pm:8.4f} {rm:8.4f} {fin:8.4f}  {'yes' if it.match else 'NO'}{parse}")
    s = report.summary_replayed
    print(
        f"summary (pm_mode={report.pm_mode}): pm_mean={s['pm_mean']!r} rm_mean={s['rm_mean']!r} "
        f"total_mean={s['total_mean']!r} n={s['n_items']} -> {'matches' if report.summary_match else 'DIFFERS from'} the recorded summary"
    )
    for bad in report.unreplayed:
        _say(f"{args.result}: item {bad['key']!r} could not be replayed: {bad['error']}")
    for failed in report.failures:
        key = failed.get("canonical_id") or failed.get("id")
        _say(f"item {key!r} failed in the recorded run: {failed.get('evaluation_error')}")
    if args.out:
        # late: keeps causalcheck --help light
        from causalcheck.explain.data import Benchmark

        # late: keeps causalcheck --help light
        from causalcheck.explain.results import build_payload, markdown_summary, write_json

        # late: keeps causalcheck --help light
        from causalcheck.explain.scoring import summarize

        out = Path(args.out)
        rows = [it.result for it in report.items]
        items = tuple(r.item for r in rows if r.item is not None)  # every replayed item keeps its benchmark item
        bench = Benchmark(items=items, meta={}, source=str(report.meta.get("source_benchmark", "")))
        meta = report.meta
        record: dict[str, Any] = {**provenance.to_json(), "unreplayed": [dict(u) for u in report.unreplayed]}
        if isinstance(meta.get("causalcheck"), dict):  # the provenance of the file that was replayed
            record["replayed_provenance"] = meta["causalcheck"]
        payload = build_payload(
            rows,
            bench,
            answer_model=str(meta.get("answer_model", "answers")),
            judge_model=str(meta.get("judge_model", "judge")),
            parser_model=str(meta.get("parser_model", "parser")),
            source_answers=str(meta.get("source_answers", "")),
            timestamp=str(meta.get("timestamp", "")),
            causalcheck=record,
        )
        payload["failures"] = [dict(f) for f in report.failures]
        payload["meta"]["task"] = "replay"
        stem = Path(args.result).stem + "_replay"
        title = f"replay of {Path(args.result).name}"
        with RunLock(out, command="causalcheck explain replay"):
            write_json(out / f"{stem}.json", payload)
            atomic_write_text(out / f"{stem}.md", markdown_summary(summarize(rows), rows, title=title, causalcheck=record))
        print(f"wrote {out / stem}.json / .md", file=sys.stderr)
    if not report.items and (report.unreplayed or not report.failures):
        _say(f"error: nothing could be replayed from result file {str(args.result)!r}")
        return 2
    return 0 if report.ok and not report.failures else 1
