"""Answer generation: ask a model every question of a WhatIfBench file.

``causalcheck explain answer --model MODEL --benchmark PATH --out FILE`` sends each item's
``question`` (with its domain and answer type, as the published runner does; never the
``original_question``) at temperature 0.6 with at most 4096 new tokens, and appends one
JSON line per finished item to FILE::

    {"id": 6, "canonical_id": "…", "question": "…", "domain": "HASS", "model_name": "openai/gpt-4o",
     "model_answer": "…" | null, "model_answer_error": null | "…", "status": "ok" | "failed",
     "finish_reason": "stop", "usage": {"input_tokens": 61, "output_tokens": 812}}

The file is read by ``explain score --answers FILE`` like the official runner JSON.

Each session first appends one provenance line ``{"causalcheck_run": {...}}`` (version,
command, options, time, the benchmark's SHA-256), which readers of answer files skip.

Resuming (``--resume``): the options are checked, then the file is compacted — the provenance
lines and the last ``ok`` line of every item are kept, failed lines and a line torn by a killed
process are dropped (atomic rewrite) — then only the items without an ``ok`` line are asked, so
a run killed at any moment and resumed loses nothing and duplicates nothing.  One process
writes a given answer file at a time (:class:`AnswerFileLock`).  A reply cut at
``max_tokens`` is asked again and never stored.  Calls go through the call cache, so a warm re-run
makes zero calls, and an answer that was received just before a kill is not paid twice.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.errors import BudgetExceededError, InputFormatError

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.explain.data import WhatIfItem
    from causalcheck.files import Provenance
    from causalcheck.protocols import LLM, Completion

__all__ = [
    "AnswerFileLock",
    "AnswerRunSummary",
    "add_answer_arguments",
    "answer_messages",
    "generate_answers",
    "read_answer_journal",
    "register",
    "run_answer",
]

DEFAULT_TEMPERATURE = 0.6
DEFAULT_MAX_TOKENS = 4096

_SYSTEM = (
    "You answer counterfactual what-if questions. Give a direct, coherent answer in prose; "
    "use bullet lists only where they clearly help."
)


def answer_messages(item: WhatIfItem) -> list[dict[str, str]]:
    """The messages sent for *item* (domain, answer type and the short question)."""
    user = (
        f"Question domain: {item.domain}\n"
        f"Question type: {item.answer_type}\n\n"
        f"{item.question}\n\n"
        "Answer the question carefully and directly."
    )
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


@dataclass(frozen=True)
class AnswerRunSummary:
    """What one run did: items answered now, failed now, already done before, and whether it stopped on a limit."""

    answered: int
    failed: int
    skipped: int
    total: int
    stopped: str | None
    accounting: Mapping[str, Any]
    #: ``(item key, reason)`` of every item that failed in this run.
    failures: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "answered": self.answered,
            "failed": self.failed,
            "failures": [{"key": k, "error": e} for k, e in self.failures],
            "skipped": self.skipped,
            "total": self.total,
            "stopped": self.stopped,
            "accounting": dict(self.accounting),
        }


def read_answer_journal(path: Path) -> tuple[dict[str, dict[str, Any]], int]:
    """``({key: last ok record}, lines dropped)`` from an answer file; torn and failed lines are dropped.

    The provenance lines of earlier sessions (:func:`~causalcheck.explain.data.is_run_header`) are
    neither records nor dropped.  The file is read with :func:`causalcheck.files.read_input_text`
    and :mod:`causalcheck.safejson`.
    """
    from causalcheck import safejson
    from causalcheck.explain.data import is_run_header
    from causalcheck.files import read_input_text

    done: dict[str, dict[str, Any]] = {}
    dropped = 0
    if not path.exists():
        return done, 0
    text = read_input_text(path, what="answer file --out")
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rec = safejson.loads(line, source=f"{path}:{n}")
        except safejson.JSONSyntaxError:
            dropped += 1  # a line torn by a killed process
            continue
        if isinstance(rec, dict) and is_run_header(rec):
            continue
        if not isinstance(rec, dict) or "model_answer" not in rec:
            raise InputFormatError(f"out={str(path)!r} line {n}={line[:60]!r} is not an answer record")
        key = str(rec.get("canonical_id") or rec.get("id"))
        if rec.get("status") == "ok" and isinstance(rec.get("model_answer"), str) and rec["model_answer"].strip():
            done[key] = rec
        else:
            dropped += 1
    return done, dropped


class AnswerFileLock:
    """One writer per answer file: a :class:`causalcheck.files.RunLock` on ``.<name>.lock`` next to it
    (answer files of different models in one folder can be written at the same time)."""

    def __init__(self, path: Path, command: str) -> None:
        from causalcheck.files import RunLock

        file_name = path.name

        class _Lock(RunLock):
            @property
            def path(self) -> Path:
                return self.folder / f".{file_name}.lock"

        self.file = path
        self._lock = _Lock(path.parent, command=command)

    def __enter__(self) -> AnswerFileLock:
        from causalcheck.files import RunLockedError

        try:
            self._lock.acquire()
        except RunLockedError as exc:
            holder = str(exc).split(" (", 1)[1].split(");", 1)[0] if " (" in str(exc) else "another process"
            raise RunLockedError(
                f"out={str(self.file)!r} is being written by another causalcheck process ({holder}); "
                "wait for it to finish or write to another file"
            ) from None
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def _record(item: WhatIfItem, model: str, completion: Completion | None, error: str | None) -> dict[str, Any]:
    return {
        "id": item.id,
        "canonical_id": item.canonical_id,
        "question": item.question,
        "domain": item.domain,
        "model_name": model,
        "model_answer": completion.text if completion is not None else None,
        "model_answer_error": error,
        "status": "ok" if completion is not None else "failed",
        "finish_reason": completion.finish_reason if completion is not None else None,
        "usage": completion.usage.to_dict() if completion is not None else None,
    }


def _accept(c: Completion) -> None:
    """An answer must be complete and non-empty: a reply cut at ``max_tokens`` is asked again, never stored."""
    from causalcheck.explain.llm import reject_truncated

    reject_truncated(c)
    if not c.text.strip():
        raise ValueError(f"empty answer (finish_reason={c.finish_reason!r})")


async def generate_answers(
    items: Sequence[WhatIfItem],
    llm: LLM,
    out: str | Path,
    *,
    model_name: str | None = None,
    temperature: float = DEFAULT_TEMPERATURE,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    resume: bool = False,
    provenance: Provenance | None = None,
) -> AnswerRunSummary:
    """Answer every item not yet answered in *out* (see the module docstring).

    The caller holds the file's lock (:class:`AnswerFileLock`; :func:`run_answer` does).
    *provenance*, when given, is appended first as this session's run header line.
    """
    import asyncio

    from causalcheck.explain.data import RUN_HEADER_KEY
    from causalcheck.files import append_line
    from causalcheck.protocols import LLMError, Request, complete_parsed, meter_summary
    from causalcheck.redaction import redact

    path = Path(out)
    if path.exists() and not resume:
        raise InputFormatError(f"out={str(path)!r} exists; pass --resume to continue it or choose another file")
    if path.is_dir():
        raise InputFormatError(f"out={str(path)!r} is a folder; --out names the answer file")
    if not 0.0 <= temperature <= 2.0:
        raise InputFormatError(f"temperature={temperature!r} must be in [0, 2]")
    if max_tokens < 1:
        raise InputFormatError(f"max_tokens={max_tokens!r} must be a positive integer")
    done, _ = read_answer_journal(path) if resume else ({}, 0)
    headers = _headers(path) if resume else []
    if resume and path.exists():  # the ok answers (and the provenance of the sessions that wrote them) only
        _compact(path, headers, done)
    name = model_name or f"{llm.provider}/{llm.model}"
    todo = [it for it in items if it.key not in done]
    counts = {"ok": 0, "failed": 0}
    failed: list[tuple[str, str]] = []
    try:
        if provenance is not None:
            append_line(path, json.dumps({RUN_HEADER_KEY: provenance.to_json()}, ensure_ascii=False))
        elif not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
    except OSError as exc:
        raise InputFormatError(f"out={str(path)!r} cannot be written: {exc.strerror or exc}") from exc

    def write(rec: dict[str, Any]) -> None:
        append_line(path, json.dumps(rec, ensure_ascii=False))

    async def one(item: WhatIfItem) -> None:
        req = Request.chat(answer_messages(item), temperature=temperature, max_tokens=max_tokens)
        try:
            comp, _ = await complete_parsed(llm, req, _accept)
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            counts["failed"] += 1
            reason = redact(str(exc))[:500]
            failed.append((item.key, reason))
            write(_record(item, name, None, reason))
            return
        counts["ok"] += 1
        write(_record(item, name, comp, None))

    stopped: str | None = None
    tasks = [asyncio.ensure_future(one(it)) for it in todo]
    try:
        for fut in asyncio.as_completed(tasks):
            try:
                await fut
            except BudgetExceededError as exc:
                stopped = str(exc)
                break
    finally:  # a stop, Ctrl-C or an error: no call is left running behind the caller's back
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    order = {it.key: i for i, it in enumerate(items)}
    failed.sort(key=lambda f: order.get(f[0], len(order)))
    return AnswerRunSummary(
        counts["ok"], counts["failed"], len(items) - len(todo), len(items), stopped, meter_summary(llm), tuple(failed)
    )


def _headers(path: Path) -> list[str]:
    """The provenance lines of earlier sessions in an answer file, as written."""
    from causalcheck import safejson
    from causalcheck.explain.data import RUN_HEADER_KEY, is_run_header
    from causalcheck.files import read_input_text

    if not path.exists():
        return []
    out = []
    for line in read_input_text(path, what="answer file --out").splitlines():
        if RUN_HEADER_KEY not in line:
            continue
        try:
            obj = safejson.loads(line)
        except InputFormatError:
            continue
        if isinstance(obj, dict) and is_run_header(obj):
            out.append(line)
    return out


def _compact(path: Path, headers: Sequence[str], done: Mapping[str, Mapping[str, Any]]) -> None:
    """Rewrite *path* with the run headers and the ok records only, atomically
    (:func:`causalcheck.files.atomic_write_text`: a failure leaves the file as it was)."""
    from causalcheck.files import atomic_write_text

    body = "".join(h + "\n" for h in headers) + "".join(json.dumps(rec, ensure_ascii=False) + "\n" for rec in done.values())
    atomic_write_text(path, body)


def add_answer_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``explain answer``."""
    from causalcheck.adapters import add_llm_arguments

    parser.add_argument("--model", required=True, help="model string, e.g. openai/gpt-4o or anthropic/claude-…")
    parser.add_argument("--benchmark", required=True, help="WhatIfBench JSON file (or 'demo')")
    parser.add_argument("--out", required=True, help="answer file (JSON lines, appended as items finish)")
    parser.add_argument("--resume", action="store_true", help="continue FILE: keep its answers, redo failed and missing items")
    parser.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE, help="default 0.6")
    parser.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS, help="default 4096")
    parser.add_argument("--limit", type=int, default=None, help="answer only the first N items")
    add_llm_arguments(parser)


def run_answer(args: argparse.Namespace, *, llm_override: LLM | None = None) -> int:
    """Handler of ``explain answer``; prints a JSON summary, returns the exit code (3 when stopped by --max-cost).

    The command-line edge: the model client (cache, retries, ``--max-cost``) is built from the
    options here (:func:`causalcheck.adapters.llm_run_from_args`); *llm_override* replaces the
    model behind it (tests pass a scripted fake).
    """
    from causalcheck.adapters import llm_run_from_args, setup_llm_logging
    from causalcheck.aio import run_sync
    from causalcheck.explain.data import load_benchmark

    setup_llm_logging()
    if args.limit is not None and args.limit < 1:
        raise InputFormatError(f"--limit={args.limit!r} must be a positive integer")
    from causalcheck.files import Provenance

    provenance = Provenance(
        command="explain answer",
        options={
            "model": args.model,
            "benchmark": str(args.benchmark),
            "resume": args.resume,
            "temperature": args.temperature,
            "max_tokens": args.max_tokens,
            "limit": args.limit,
            "cache_mode": getattr(args, "cache_mode", None),
        },
    )
    bench = load_benchmark(args.benchmark, record=provenance)
    items = list(bench.items[: args.limit] if args.limit else bench.items)
    run = llm_run_from_args(args)
    client = run.client(llm_override or args.model)
    out = Path(args.out)
    with AnswerFileLock(out, command="causalcheck explain answer"):
        summary = run_sync(
            generate_answers(
                items,
                client,
                out,
                model_name=args.model,
                temperature=args.temperature,
                max_tokens=args.max_tokens,
                resume=args.resume,
                provenance=provenance,
            )
        )
    print(json.dumps(summary.to_json(), sort_keys=True))
    for key, reason in summary.failures:
        print(f"causalcheck: item {key!r} failed: {reason}", file=sys.stderr)
    if summary.stopped:
        print(f"causalcheck: stopped: {summary.stopped}; resume with --resume", file=sys.stderr)
        return 3
    if summary.failed and not summary.answered and not summary.skipped:
        print("causalcheck: error: no item could be answered (see above)", file=sys.stderr)
        return 2
    return 1 if summary.failed else 0


def register(explain_sub: Any) -> argparse.ArgumentParser:
    """Add the ``answer`` command to the ``explain`` sub-command group."""
    p: argparse.ArgumentParser = explain_sub.add_parser(
        "answer",
        help="ask a model every benchmark question (resumable)",
        description="Generate answers with a model: temperature 0.6, 4096 tokens by default; one JSON line per item.",
    )
    add_answer_arguments(p)
    p.set_defaults(handler=run_answer)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m causalcheck.explain.answer …``: the same command without the CLI dispatcher."""
    from causalcheck.errors import CausalCheckError

    parser = argparse.ArgumentParser(prog="causalcheck explain answer")
    add_answer_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run_answer(args)
    except BudgetExceededError as exc:
        print(f"causalcheck: stopped: {exc}", file=sys.stderr)
        return 3
    except CausalCheckError as exc:
        print(f"causalcheck: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
