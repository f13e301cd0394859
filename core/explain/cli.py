"""``causalcheck explain …``: score what-if answers offline, replay official result files.

Commands::

    causalcheck explain score --benchmark PATH|demo --answers PATH|demo --out DIR
                              [--model NAME] [--pm-mode causal|all] [--judge-edges all|causal]
                              [--segmenter rules|parser:PIPELINE] [--limit N]
                              [--max-answer-chars N] [--keep-injections] [--timestamp TS] [--fresh]
    causalcheck explain replay RESULT_FILE [--out DIR] [--pm-mode auto|causal|all] [--no-parse-check]
    causalcheck explain answer …   (from causalcheck.explain.answer, when installed)

The parser and judges are built in one place, :func:`make_judges`; the LLM back-end
(:mod:`causalcheck.explain.llm`) adds its options (``--judge`` / ``--parser`` …) through
:data:`ARGUMENT_HOOKS`-style hooks and its parser/judges through a factory, without
touching the command handlers.  A resumed run re-scores failed and degraded items.
Exit codes: 0 done, 1 replay mismatch, 2 bad input (see :mod:`causalcheck.cli`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from types import ModuleType

    from causalcheck.explain.scoring import JudgeEdges, PMMode

__all__ = ["Judges", "make_judges", "register", "score_answers"]

#: Extra argument hooks: ``fn(score_parser)`` adds options; used by optional judge back-ends.
ARGUMENT_HOOKS: list[Callable[[argparse.ArgumentParser], None]] = []
#: Judge factories tried before the offline default: ``fn(args) -> Judges | None``.
JUDGE_FACTORIES: list[Callable[[argparse.Namespace], Judges | None]] = []


@dataclass(frozen=True)
class Judges:
    """The parser, the two judges and the names written into result files."""

    parser: Any
    edge_judge: Any
    criterion_judge: Any
    judge_name: str
    parser_name: str
    #: Called once after scoring (the LLM back-end logs its call/cost accounting here).
    on_done: Callable[[], None] | None = None


def _optional_llm() -> Any:
    """The LLM back-end module (:mod:`causalcheck.explain.llm`), or ``None`` when it cannot be imported."""
    try:
        from causalcheck.explain import llm
    except ImportError:  # pragma: no cover - optional back-end
        return None
    return llm


def _hooks() -> list[Callable[[argparse.ArgumentParser], None]]:
    hooks = list(ARGUMENT_HOOKS)
    llm = _optional_llm()
    add = getattr(llm, "add_cli_options", None)
    if add is not None and add not in hooks:
        hooks.append(add)
    return hooks


def _factories() -> list[Callable[[argparse.Namespace], Judges | None]]:
    factories = list(JUDGE_FACTORIES)
    llm = _optional_llm()
    build = getattr(llm, "judges_from_args", None)
    if build is not None and build not in factories:
        factories.append(build)
    return factories


def make_judges(args: argparse.Namespace) -> Judges:
    """Build parser and judges from the command line (offline unless a registered factory claims *args*).

    Factories are tried in order: :data:`JUDGE_FACTORIES`, then the LLM back-end's
    ``judges_from_args`` (``--judge`` / ``--parser``) when it is installed.
    """
    for factory in _factories():
        built = factory(args)
        if built is not None:
            return built
    from causalcheck.explain.judges import OfflineCriterionJudge, OfflineEdgeJudge
    from causalcheck.explain.relations import OfflineParser
    from causalcheck.explain.segment import get_segmenter

    segmenter = get_segmenter(getattr(args, "segmenter", "rules") or "rules")
    load = getattr(segmenter, "load", None)
    if load is not None:
        load()  # a missing pipeline is a usage error (exit 2), not a per-item parser failure
    return Judges(
        parser=OfflineParser(segmenter),
        edge_judge=OfflineEdgeJudge(),
        criterion_judge=OfflineCriterionJudge(),
        judge_name="offline",
        parser_name=f"offline-{segmenter.name}",
    )


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"value={text!r} must be a positive integer") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"value={text!r} must be a positive integer")
    return v


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``explain`` command group to the top-level *subparsers*."""
    ex: argparse.ArgumentParser = subparsers.add_parser(
        "explain",
        help="score what-if answers (WhatIfBench / PRISM): PM, RM, Final",
        description="WhatIfBench / PRISM evaluation: answers -> EDUs -> causal graph -> PM, RM, Final.",
    )
    sub = ex.add_subparsers(dest="explain_command", metavar="EXPLAIN_COMMAND")
    sub.required = True

    sc = sub.add_parser("score", help="score answers against a benchmark (offline judges by default)")
    sc.add_argument("--benchmark", required=True, metavar="PATH|demo", help="WhatIfBench JSON file, or 'demo'")
    sc.add_argument("--answers", required=True, metavar="PATH|demo", help="runner JSON or JSONL {id, answer[, model]}, or 'demo'")
    sc.add_argument("--out", required=True, metavar="DIR", help="output folder (result JSON, JSONL, Markdown per answer model)")
    sc.add_argument("--model", metavar="NAME", help="score only this answer model of a multi-model answers file")
    sc.add_argument("--pm-mode", choices=("causal", "all"), default="causal", help="PM over causal edges (default, May-2026) or all edges (April-2026)")
    sc.add_argument("--judge-edges", choices=("all", "causal"), default="all", help="judge every edge (default, as the original) or only causal ones")
    sc.add_argument("--segmenter", default="rules", metavar="NAME", help="offline EDU segmenter: rules (default) or parser:<spaCy pipeline>")
    sc.add_argument("--limit", type=_positive, metavar="N", help="only the first N benchmark items")
    sc.add_argument("--max-answer-chars", type=_positive, default=200_000, metavar="N", help="reject longer answers (default 200000)")
    sc.add_argument("--keep-injections", action="store_true", help="do not remove sentences addressed to a judge")
    sc.add_argument("--timestamp", metavar="YYYYMMDD-HHMMSS", help="timestamp written into meta (default: now, UTC)")
    sc.add_argument("--fresh", action="store_true", help="ignore earlier results in DIR instead of resuming")
    for hook in _hooks():
        hook(sc)
    sc.set_defaults(handler=_cmd_score)

    rp = sub.add_parser("replay", help="re-score an official result file from its recorded judgments")
    rp.add_argument("result", metavar="RESULT_FILE", help="<answer>_metrics_<judge>.json")
    rp.add_argument("--out", metavar="DIR", help="write the re-scored result file and report here")
    rp.add_argument("--pm-mode", choices=("auto", "causal", "all"), default="auto", help="auto: causal for May-2026 files, all-edge for April-2026")
    rp.add_argument("--no-parse-check", action="store_true", help="skip re-deriving the recorded graphs")
    rp.set_defaults(handler=_cmd_replay)

    answer_cmd: ModuleType | None
    try:  # `explain answer` (model-generated answers) lives with the LLM back-end
        from causalcheck.explain import answer as answer_cmd
    except ImportError:  # pragma: no cover - optional back-end
        answer_cmd = None
    if answer_cmd is not None and hasattr(answer_cmd, "register"):
        answer_cmd.register(sub)
    return ex


def score_answers(
    benchmark_path: str,
    answers_path: str,
    out_dir: str | Path,
    judges: Judges,
    *,
    model: str | None = None,
    pm_mode: PMMode = "causal",
    judge_edges: JudgeEdges = "all",
    limit: int | None = None,
    max_chars: int = 200_000,
    strip_injections: bool = True,
    timestamp: str | None = None,
    resume: bool = True,
    log: Callable[[str], None] = lambda s: None,
) -> list[tuple[str, Any]]:
    """Score every answer set; write result files; return ``[(answer_model, Summary)]``."""
    import json

    from causalcheck.explain.data import load_answer_sets, load_benchmark
    from causalcheck.explain.report import (
        build_payload,
        markdown_report,
        read_rows,
        result_stem,
        row_of,
        write_json,
    )
    from causalcheck.explain.scoring import score_item, summarize

    bench = load_benchmark(benchmark_path)
    items = bench.items[:limit] if limit else bench.items
    sets = load_answer_sets(answers_path)
    if model is not None:
        sets = tuple(s for s in sets if s.model == model)
        if not sets:
            from causalcheck.errors import InputFormatError

            raise InputFormatError(f"model={model!r} must be one of {[s.model for s in load_answer_sets(answers_path)]!r}")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    stamp = timestamp or time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    summaries = []
    for aset in sets:
        stem = result_stem(aset.model, judges.judge_name)
        jsonl = out / f"{stem}.jsonl"
        run_file = out / f"{stem}.run"  # JSON fingerprint; not *.json so result-file globs skip it
        if not resume:
            for stale in (jsonl, run_file):
                if stale.exists():
                    stale.unlink()
        options = {
            "judge": judges.judge_name,
            "parser": judges.parser_name,
            "pm_mode": pm_mode,
            "judge_edges": judge_edges,
            "max_chars": max_chars,
            "strip_injections": strip_injections,
        }
        answer_hashes = _answer_hashes(items, aset)
        previous_hashes = _check_resumable(run_file, jsonl, options)
        run_file.write_text(
            json.dumps({"options": options, "answers": {**previous_hashes, **answer_hashes}}, indent=2, sort_keys=True) + "\n",
            encoding="utf-8",
        )
        wanted = {it.key for it in items}
        latest = {r.key: r for r in read_rows(jsonl) if r.key in wanted}  # later lines win
        # failed and degraded items are scored again; the others are kept
        done = {k for k, r in latest.items() if r.ok and not r.degraded}
        # an item whose answer changed since it was scored is scored again (later lines win)
        done = {k for k in done if previous_hashes.get(k, answer_hashes[k]) == answer_hashes[k]}
        rows = [r for r in latest.values() if r.key in done]
        if jsonl.exists():  # drop a line torn by a killed run, so the next line does not join it
            data = jsonl.read_bytes()
            if data and not data.endswith(b"\n"):
                jsonl.write_bytes(data[: data.rfind(b"\n") + 1])
        with jsonl.open("a", encoding="utf-8") as fh:
            for item in items:
                if item.key in done:
                    continue
                ans = aset.get(item)
                result = score_item(
                    item,
                    ans.text if ans else None,
                    judges.parser,
                    judges.edge_judge,
                    judges.criterion_judge,
                    pm_mode=pm_mode,
                    judge_edges=judge_edges,
                    max_chars=max_chars,
                    strip_injections=strip_injections,
                    answer_error=(ans.error if ans else "no answer for this item"),
                )
                row = row_of(result)
                fh.write(json.dumps(row.to_json(), ensure_ascii=False) + "\n")
                fh.flush()
                rows.append(row)
        payload = build_payload(
            rows,
            bench,
            answer_model=aset.model,
            judge_model=judges.judge_name,
            parser_model=judges.parser_name,
            source_answers=aset.source,
            timestamp=stamp,
            pm_mode=pm_mode,
        )
        write_json(out / f"{stem}.json", payload)
        summary = summarize(rows)
        order = {it.key: i for i, it in enumerate(bench.items)}
        rows.sort(key=lambda r: order.get(r.key, len(order)))
        md = markdown_report(summary, rows, title=f"{aset.model} — judged by {judges.judge_name}", pm_mode=pm_mode)
        (out / f"{stem}.md").write_text(md, encoding="utf-8")
        log(f"wrote {out / stem}.json / .jsonl / .md")
        summaries.append((aset.model, summary))
    return summaries


def _pct(x: float | None) -> str:
    return "      –" if x is None else f"{100 * x:7.2f}"


def _table(summaries: list[tuple[str, Any]]) -> str:
    lines = [f"{'answers':<18} {'domain':<8} {'n':>3} {'PM':>7} {'RM':>7} {'Final':>7}"]
    for name, s in summaries:
        for row in s.rows:
            lines.append(f"{name:<18} {row.bucket:<8} {row.n:>3} {_pct(row.pm)} {_pct(row.rm)} {_pct(row.final)}")
        if s.n_failed:
            lines.append(f"{name:<18} {s.n_failed} item(s) failed (see failures in the result file)")
        if s.n_degraded:
            lines.append(f"{name:<18} {s.n_degraded} item(s) degraded: a parser or judge fallback was used")
    return "\n".join(lines)


def _cmd_score(args: argparse.Namespace) -> int:
    judges = make_judges(args)
    summaries = score_answers(
        args.benchmark,
        args.answers,
        args.out,
        judges,
        model=args.model,
        pm_mode=args.pm_mode,
        judge_edges=args.judge_edges,
        limit=args.limit,
        max_chars=args.max_answer_chars,
        strip_injections=not args.keep_injections,
        timestamp=args.timestamp,
        resume=not args.fresh,
        log=lambda s: print(s, file=sys.stderr),
    )
    print(_table(summaries))
    if judges.on_done is not None:
        judges.on_done()
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from causalcheck.explain.replay import replay_file

    report = replay_file(args.result, pm_mode=args.pm_mode, check_parse=not args.no_parse_check)
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
    if args.out:
        from causalcheck.explain.data import Benchmark
        from causalcheck.explain.report import build_payload, markdown_report, row_of, write_json
        from causalcheck.explain.scoring import summarize

        out = Path(args.out)
        rows = [row_of(it.result) for it in report.items]
        bench = Benchmark(items=tuple(it.result.item for it in report.items), meta={}, source=str(report.meta.get("source_benchmark", "")))
        meta = report.meta
        payload = build_payload(
            rows,
            bench,
            answer_model=str(meta.get("answer_model", "answers")),
            judge_model=str(meta.get("judge_model", "judge")),
            parser_model=str(meta.get("parser_model", "parser")),
            source_answers=str(meta.get("source_answers", "")),
            timestamp=str(meta.get("timestamp", "")),
        )
        payload["failures"] = [dict(f) for f in report.failures]
        payload["meta"]["task"] = "replay"
        stem = Path(args.result).stem + "_replay"
        write_json(out / f"{stem}.json", payload)
        (out / f"{stem}.md").write_text(markdown_report(summarize(rows), rows, title=f"replay of {Path(args.result).name}"), encoding="utf-8")
        print(f"wrote {out / stem}.json / .md", file=sys.stderr)
    return 0 if report.ok else 1


def _answer_hashes(items: Any, aset: Any) -> dict[str, str]:
    """sha256 of each item's answer text (of ``""`` when it has none), keyed by item key."""
    import hashlib

    out: dict[str, str] = {}
    for it in items:
        ans = aset.get(it)
        text = ans.text if ans is not None and ans.text is not None else ""
        out[it.key] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return out


def _check_resumable(run_file: Path, jsonl: Path, options: dict[str, Any]) -> dict[str, str]:
    """Refuse to resume results scored with other options; return the answer hashes they were scored on.

    Results of a different judge, parser, PM mode, edge-judging mode or answer limit must not be
    mixed into one file.  Changed answers are not an error: those items are scored again.
    """
    from causalcheck.errors import InputFormatError

    if not jsonl.exists() or not run_file.exists():
        return {}
    try:
        previous = json.loads(run_file.read_text(encoding="utf-8"))
    except ValueError:
        return {}
    if not isinstance(previous, dict):
        return {}
    raw_options = previous.get("options")
    old_options: dict[str, Any] = raw_options if isinstance(raw_options, dict) else {}
    changed = sorted(k for k in options if old_options.get(k) != options[k])
    if changed:
        raise InputFormatError(
            f"{jsonl} holds results scored with a different {', '.join(changed)} "
            f"(was {', '.join(f'{k}={old_options.get(k)!r}' for k in changed)}); "
            "use another --out, or --fresh to discard them"
        )
    answers = previous.get("answers")
    return {str(k): str(v) for k, v in answers.items()} if isinstance(answers, dict) else {}
