"""Answer generation: ask a model every question of a WhatIfBench file.

``causalcheck explain answer --model MODEL --benchmark PATH --out FILE`` sends each item's
``question`` (with its domain and answer type, as the published runner does; never the
``original_question``) at temperature 0.6 with at most 4096 new tokens, and appends one
JSON line per finished item to FILE::

    {"id": 6, "canonical_id": "…", "question": "…", "domain": "HASS", "model_name": "openai/gpt-4o",
     "model_answer": "…" | null, "model_answer_error": null | "…", "status": "ok" | "failed",
     "finish_reason": "stop", "usage": {"input_tokens": 61, "output_tokens": 812}}

The file is read by ``explain score --answers FILE`` like the official runner JSON.

Resuming (``--resume``): the file is first compacted — the last ``ok`` line of every item is
kept, failed lines and a line torn by a killed process are dropped (atomic rewrite) — then
only the items without an ``ok`` line are asked, so a run killed at any moment and resumed
loses nothing and duplicates nothing.  Calls go through the call cache, so a warm re-run
makes zero calls, and an answer that was received just before a kill is not paid twice.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.errors import BudgetExceededError, InputFormatError

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.explain.data import WhatIfItem
    from causalcheck.protocols import LLM, Completion

__all__ = [
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

    def to_json(self) -> dict[str, Any]:
        return {
            "answered": self.answered,
            "failed": self.failed,
            "skipped": self.skipped,
            "total": self.total,
            "stopped": self.stopped,
            "accounting": dict(self.accounting),
        }


def read_answer_journal(path: Path) -> tuple[dict[str, dict[str, Any]], int]:
    """``({key: last ok record}, lines dropped)`` from an answer file; torn and failed lines are dropped."""
    done: dict[str, dict[str, Any]] = {}
    dropped = 0
    if not path.exists():
        return done, 0
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputFormatError(f"out={str(path)!r} cannot be read as an answer file: {exc}") from exc
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            dropped += 1
            continue
        if not isinstance(rec, dict) or "model_answer" not in rec:
            raise InputFormatError(f"out={str(path)!r} line={line[:60]!r} is not an answer record")
        key = str(rec.get("canonical_id") or rec.get("id"))
        if rec.get("status") == "ok" and isinstance(rec.get("model_answer"), str) and rec["model_answer"].strip():
            done[key] = rec
        else:
            dropped += 1
    return done, dropped


def _compact(path: Path, done: Mapping[str, Mapping[str, Any]]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as fh:
        for rec in done.values():
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


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
) -> AnswerRunSummary:
    """Answer every item not yet answered in *out* (see the module docstring)."""
    import asyncio

    from causalcheck.protocols import LLMError, Request, complete_parsed, meter_summary
    from causalcheck.redaction import redact

    path = Path(out)
    if path.exists() and not resume:
        raise InputFormatError(f"out={str(path)!r} exists; pass --resume to continue it or choose another file")
    done, _ = read_answer_journal(path) if resume else ({}, 0)
    if resume and path.exists():
        _compact(path, done)
    if not 0.0 <= temperature <= 2.0:
        raise InputFormatError(f"temperature={temperature!r} must be in [0, 2]")
    if max_tokens < 1:
        raise InputFormatError(f"max_tokens={max_tokens!r} must be a positive integer")
    name = model_name or f"{llm.provider}/{llm.model}"
    todo = [it for it in items if it.key not in done]
    counts = {"ok": 0, "failed": 0}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fh = path.open("a", encoding="utf-8")
    except OSError as exc:
        raise InputFormatError(f"out={str(path)!r} cannot be written: {exc}") from exc

    def write(rec: dict[str, Any]) -> None:
        fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
        fh.flush()
        os.fsync(fh.fileno())

    async def one(item: WhatIfItem) -> None:
        req = Request.chat(answer_messages(item), temperature=temperature, max_tokens=max_tokens)
        try:
            comp, _ = await complete_parsed(llm, req, _accept)
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            counts["failed"] += 1
            write(_record(item, name, None, redact(str(exc))[:500]))
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
                for t in tasks:
                    t.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                break
    finally:
        fh.close()
    return AnswerRunSummary(counts["ok"], counts["failed"], len(items) - len(todo), len(items), stopped, meter_summary(llm))


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
    bench = load_benchmark(args.benchmark)
    items = list(bench.items[: args.limit] if args.limit else bench.items)
    run = llm_run_from_args(args)
    client = run.client(llm_override or args.model)
    summary = run_sync(
        generate_answers(
            items,
            client,
            args.out,
            model_name=args.model,
            temperature=args.temperature,
            max_tokens=args.max_tokens,
            resume=args.resume,
        )
    )
    print(json.dumps(summary.to_json(), sort_keys=True))
    if summary.stopped:
        print(f"causalcheck: stopped: {summary.stopped}; resume with --resume", file=sys.stderr)
        return 3
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
