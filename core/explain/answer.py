"""Answer generation: ask a model every question of a WhatIfBench file.

``causalcheck explain answer --model MODEL --benchmark PATH --out FILE`` sends each item's
``question`` (with its domain and answer type, as the published runner does; never the
``original_question``) at temperature 0.6 with at most 4096 new tokens, and appends one
JSON line per finished item to FILE::

    {"id": 6, "canonical_id": "…", "question": "…", "domain": "HASS", "model_name": "openai/gpt-4o",
     "strategy": "standard", "model_answer": "…" | null, "model_answer_error": null | "…",
     "status": "ok" | "failed", "finish_reason": "stop", "usage": {"input_tokens": 61, "output_tokens": 812}}

The file is read by ``explain score --answers FILE`` like the official runner JSON.

**Strategies** (``--strategy``, :data:`STRATEGIES`; WhatIfBench Appendix F): ``standard`` is the
published runner's prompt (prism-spec §2); ``causalcot`` asks for a CausalCoT-style causal chain
of thought (after CLadder, Jin et al. 2023: the intervention, the causal graph, the mechanisms,
then the answer); ``coin`` for CoIn-style counterfactual inference (after CounterBench, Chen et
al. 2025: extract the facts, the change and the causal relations, then derive consequences one at
a time, checking each and backtracking on a contradiction); ``short`` / ``long`` for an answer
of at most 150 / at least 800 words.  Every wording except ``standard``'s is our own
(:func:`answer_messages`).  An answer made with another strategy than ``standard`` is recorded
under the model name ``<model>+<strategy>``, so its scores are kept apart from the standard ones.

Each session first appends one provenance line ``{"causalcheck_run": {...}}`` (version,
command, options — the strategy among them —, time, the benchmark's SHA-256), which readers of
answer files skip.

Resuming (``--resume``): the options are checked, then the file is compacted — the provenance
lines and the last ``ok`` line of every item are kept, failed lines and a line torn by a killed
process are dropped (atomic rewrite) — then only the items without an ``ok`` line are asked, so
a run killed at any moment and resumed loses nothing and duplicates nothing.  A resume with
another strategy than the kept answers' is refused before anything is rewritten.  One process
writes a given answer file at a time (:class:`AnswerFileLock`).  A reply cut at
``max_tokens`` is asked again and never stored.  Calls go through the call cache, so a warm re-run
makes zero calls, and an answer that was received just before a kill is not paid twice.

This journal machinery — :class:`Journal` (provenance lines, compaction, resume fingerprint) and
:class:`AnswerFileLock` — is also what ``explain rubrics`` (:mod:`causalcheck.explain.rubrics`)
writes its rubric journal with.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.errors import BudgetExceededError, InputFormatError

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.explain.data import WhatIfItem
    from causalcheck.explain.progress import ItemProgress
    from causalcheck.files import Provenance
    from causalcheck.protocols import LLM, Completion

__all__ = [
    "STRATEGIES",
    "AnswerFileLock",
    "AnswerRunSummary",
    "Journal",
    "add_answer_arguments",
    "answer_messages",
    "answer_model_name",
    "generate_answers",
    "read_answer_journal",
    "register",
    "run_answer",
]

DEFAULT_TEMPERATURE = 0.6
DEFAULT_MAX_TOKENS = 4096

#: The answer-generation strategies of ``--strategy`` (module docstring).
STRATEGIES: tuple[str, ...] = ("standard", "causalcot", "coin", "short", "long")

# ---------------------------------------------------------------------- prompts
# standard: the published runner's prompt (prism-spec §2), in our words; unchanged since the first
# version, so earlier answers and their cache entries stay valid.
_SYSTEM = (
    "You answer counterfactual what-if questions. Give a direct, coherent answer in prose; "
    "use bullet lists only where they clearly help."
)
_STANDARD_ASK = "Answer the question carefully and directly."

# The other strategies: our own wording (the WhatIfBench paper names them, Appendix F, but its
# prompt texts are not available to us).  Each is (system message, the request after the question).
_STRATEGY_PROMPTS: Mapping[str, tuple[str, str]] = {
    # after CausalCoT (CLadder, Jin et al. 2023), adapted from formal queries to open questions
    "causalcot": (
        "You answer counterfactual what-if questions by reasoning about causes step by step "
        "before you conclude.",
        "Work through these steps in order and label each one.\n"
        "Step 1 - Intervention: state exactly what the question changes, from when on, and what it "
        "leaves as it was.\n"
        "Step 2 - Causal graph: name the main factors involved and the direct cause -> effect links "
        "between them that matter here.\n"
        "Step 3 - Mechanisms: follow the change along those links one step at a time: what it alters "
        "first, what that alters next, including feedback loops and effects that pull in opposite "
        "directions.\n"
        "Step 4 - Answer: state what would most likely happen as a result, and how certain that is.",
    ),
    # our interpretation of CoIn (CounterBench, Chen et al. 2025): extraction, then iterative
    # reasoning with backtracking
    "coin": (
        "You answer counterfactual what-if questions by building the counterfactual world one "
        "checked step at a time.",
        "Proceed in two phases.\n"
        "Phase 1 - Extract: list the facts of the actual world that matter for the question, the "
        "counterfactual change it asks about, and the causal relations that connect the change to "
        "what follows from it.\n"
        "Phase 2 - Reason iteratively: derive the consequences of the change one at a time, each "
        "from the change or from consequences already derived. After each one, check it against the "
        "premise, the facts of Phase 1 and the earlier steps. If it contradicts any of them, go back "
        "to the step where the reasoning went wrong, say so, and continue from a corrected step.\n"
        "Finish with a section 'Answer:' that states the counterfactual outcome in a few sentences, "
        "with its main uncertainties.",
    ),
    "short": (
        _SYSTEM,
        "Answer the question carefully and directly in at most 150 words: the central causal chain "
        "and its outcome, nothing else.",
    ),
    "long": (
        _SYSTEM,
        "Answer the question carefully and in depth, in at least 800 words: trace the immediate, "
        "medium-term and long-term consequences, the mechanisms behind each, the main alternatives "
        "and how uncertain they are.",
    ),
}


def _check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise InputFormatError(f"strategy={strategy!r} must be one of {list(STRATEGIES)!r}")


def answer_messages(item: WhatIfItem, strategy: str = "standard") -> list[dict[str, str]]:
    """The messages sent for *item* (domain, answer type and the short question) with *strategy*.

    >>> from causalcheck.explain.data import load_benchmark
    >>> item = load_benchmark("demo").items[0]
    >>> answer_messages(item)[1]["content"].splitlines()[:2]
    ['Question domain: STEM', 'Question type: open']
    >>> answer_messages(item, "causalcot")[1]["content"].count("Step ")
    4
    """
    _check_strategy(strategy)
    system, ask = (_SYSTEM, _STANDARD_ASK) if strategy == "standard" else _STRATEGY_PROMPTS[strategy]
    user = f"Question domain: {item.domain}\nQuestion type: {item.answer_type}\n\n{item.question}\n\n{ask}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def answer_model_name(model: str, strategy: str = "standard") -> str:
    """The answer model recorded in the file: *model*, or ``<model>+<strategy>`` for another strategy.

    >>> answer_model_name("openai/gpt-4o"), answer_model_name("openai/gpt-4o", "coin")
    ('openai/gpt-4o', 'openai/gpt-4o+coin')
    """
    _check_strategy(strategy)
    return model if strategy == "standard" else f"{model}+{strategy}"


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


# ---------------------------------------------------------------------- the journal
def record_key(rec: Mapping[str, Any]) -> str:
    """The item key of a journal record: ``canonical_id``, else ``str(id)``."""
    return str(rec.get("canonical_id") or rec.get("id"))


class Journal:
    """An append-only JSON-lines output file: one provenance line per session, one record per finished item.

    *payload* is the key every record has (``"model_answer"``, ``"rubrics"``); *ok* says whether a
    record is a usable finished one (the others are redone by a resumed run); *what* names the
    file in messages.  Records are keyed by :func:`record_key`; a later ``ok`` record wins.
    """

    def __init__(self, path: str | Path, *, payload: str, ok: Callable[[Mapping[str, Any]], bool], what: str) -> None:
        self.path = Path(path)
        self.payload = payload
        self.ok = ok
        self.what = what

    def read(self) -> tuple[dict[str, dict[str, Any]], int]:
        """``({key: last ok record}, lines dropped)``; torn lines and records that are not *ok* are dropped.

        The provenance lines (:func:`~causalcheck.explain.data.is_run_header`) are neither records
        nor dropped.  The file is read with :func:`causalcheck.files.read_input_text` and
        :mod:`causalcheck.safejson`.
        """
        from causalcheck import safejson
        from causalcheck.explain.data import is_run_header
        from causalcheck.files import read_input_text

        done: dict[str, dict[str, Any]] = {}
        dropped = 0
        if not self.path.exists():
            return done, 0
        text = read_input_text(self.path, what=self.what)
        for n, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                rec = safejson.loads(line, source=f"{self.path}:{n}")
            except safejson.JSONSyntaxError:
                dropped += 1  # a line torn by a killed process
                continue
            if isinstance(rec, dict) and is_run_header(rec):
                continue
            if not isinstance(rec, dict) or self.payload not in rec:
                raise InputFormatError(f"out={str(self.path)!r} line {n}={line[:60]!r} is not a record with {self.payload!r}")
            if self.ok(rec):
                done[record_key(rec)] = rec
            else:
                dropped += 1
        return done, dropped

    def headers(self) -> list[str]:
        """The provenance lines of earlier sessions, as written."""
        from causalcheck import safejson
        from causalcheck.explain.data import RUN_HEADER_KEY, is_run_header
        from causalcheck.files import read_input_text

        if not self.path.exists():
            return []
        out = []
        for line in read_input_text(self.path, what=self.what).splitlines():
            if RUN_HEADER_KEY not in line:
                continue
            try:
                obj = safejson.loads(line)
            except InputFormatError:
                continue
            if isinstance(obj, dict) and is_run_header(obj):
                out.append(line)
        return out

    def start(
        self,
        *,
        resume: bool,
        provenance: Provenance | None = None,
        fingerprint: Mapping[str, tuple[Any, Any]] | None = None,
    ) -> dict[str, dict[str, Any]]:
        """Open the journal for a session; return the finished records to keep (by item key).

        An existing file needs *resume*.  On resume, every kept record must match *fingerprint*
        (``{field: (this run's value, value of a record without the field)}``) — else
        :class:`InputFormatError` before anything is rewritten — and the file is compacted
        atomically to its provenance lines and kept records.  Then *provenance* is appended as
        this session's header line.
        """
        from causalcheck.explain.data import RUN_HEADER_KEY
        from causalcheck.files import append_line

        path = self.path
        if path.exists() and not resume:
            raise InputFormatError(f"out={str(path)!r} exists; pass --resume to continue it or choose another file")
        if path.is_dir():
            raise InputFormatError(f"out={str(path)!r} is a folder; --out names a file")
        done: dict[str, dict[str, Any]] = {}
        if resume and path.exists():
            done, _ = self.read()
            for name, (wanted, default) in (fingerprint or {}).items():
                other = sorted({repr(rec.get(name, default)) for rec in done.values() if rec.get(name, default) != wanted})
                if other:
                    raise InputFormatError(
                        f"out={str(path)!r} holds records made with {name}={', '.join(other)} (this run: {name}={wanted!r}); "
                        f"resume with the same {name} or write another file"
                    )
            self._compact(self.headers(), done)
        try:
            if provenance is not None:
                append_line(path, json.dumps({RUN_HEADER_KEY: provenance.to_json()}, ensure_ascii=False))
            elif not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.touch()
        except OSError as exc:
            raise InputFormatError(f"out={str(path)!r} cannot be written: {exc.strerror or exc}") from exc
        return done

    def append(self, rec: Mapping[str, Any]) -> None:
        """Append one record (fsynced, :func:`causalcheck.files.append_line`)."""
        from causalcheck.files import append_line

        append_line(self.path, json.dumps(dict(rec), ensure_ascii=False))

    def _compact(self, headers: Sequence[str], done: Mapping[str, Mapping[str, Any]]) -> None:
        """Rewrite the file with *headers* and the *done* records only, atomically
        (:func:`causalcheck.files.atomic_write_text`: a failure leaves the file as it was)."""
        from causalcheck.files import atomic_write_text

        body = "".join(h + "\n" for h in headers) + "".join(json.dumps(dict(rec), ensure_ascii=False) + "\n" for rec in done.values())
        atomic_write_text(self.path, body)


def _answer_ok(rec: Mapping[str, Any]) -> bool:
    answer = rec.get("model_answer")
    return rec.get("status") == "ok" and isinstance(answer, str) and bool(answer.strip())


def answer_journal(path: str | Path) -> Journal:
    """The :class:`Journal` of an answer file."""
    return Journal(path, payload="model_answer", ok=_answer_ok, what="answer file --out")


def read_answer_journal(path: Path) -> tuple[dict[str, dict[str, Any]], int]:
    """``({key: last ok record}, lines dropped)`` from an answer file; torn and failed lines are dropped
    (:meth:`Journal.read`)."""
    return answer_journal(path).read()


class AnswerFileLock:
    """One writer per output file: a :class:`causalcheck.files.RunLock` on ``.<name>.lock`` next to it
    (answer or rubric files of different models in one folder can be written at the same time)."""

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


def _record(item: WhatIfItem, model: str, strategy: str, completion: Completion | None, error: str | None) -> dict[str, Any]:
    return {
        "id": item.id,
        "canonical_id": item.canonical_id,
        "question": item.question,
        "domain": item.domain,
        "model_name": model,
        "strategy": strategy,
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
    strategy: str = "standard",
    progress: ItemProgress | None = None,
) -> AnswerRunSummary:
    """Answer every item not yet answered in *out* (see the module docstring).

    The caller holds the file's lock (:class:`AnswerFileLock`; :func:`run_answer` does).
    *provenance*, when given, is appended first as this session's run header line.  A resume
    whose kept answers were made with another *strategy* is refused.  *progress* hears of the
    total and of every finished item (:mod:`causalcheck.explain.progress`).
    """
    import asyncio

    from causalcheck.protocols import LLMError, Request, complete_parsed, meter_summary
    from causalcheck.redaction import redact

    if not 0.0 <= temperature <= 2.0:
        raise InputFormatError(f"temperature={temperature!r} must be in [0, 2]")
    if max_tokens < 1:
        raise InputFormatError(f"max_tokens={max_tokens!r} must be a positive integer")
    _check_strategy(strategy)
    journal = answer_journal(out)
    done = journal.start(resume=resume, provenance=provenance, fingerprint={"strategy": (strategy, "standard")})
    name = model_name or f"{llm.provider}/{llm.model}"
    todo = [it for it in items if it.key not in done]
    counts = {"ok": 0, "failed": 0}
    failed: list[tuple[str, str]] = []
    if progress is not None:
        progress.begin(len(items), done=len(items) - len(todo))

    async def one(item: WhatIfItem) -> None:
        req = Request.chat(answer_messages(item, strategy), temperature=temperature, max_tokens=max_tokens)
        try:
            comp, _ = await complete_parsed(llm, req, _accept)
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            counts["failed"] += 1
            reason = redact(str(exc))[:500]
            failed.append((item.key, reason))
            journal.append(_record(item, name, strategy, None, reason))
        else:
            counts["ok"] += 1
            journal.append(_record(item, name, strategy, comp, None))
        if progress is not None:
            progress.advance()

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


def add_answer_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``explain answer``."""
    from causalcheck.adapters import add_llm_arguments
    from causalcheck.explain.progress import add_progress_arguments

    parser.add_argument("--model", required=True, help="model string, e.g. openai/gpt-4o or anthropic/claude-…")
    parser.add_argument("--benchmark", required=True, help="WhatIfBench JSON file (or 'demo')")
    parser.add_argument("--out", required=True, help="answer file (JSON lines, appended as items finish)")
    parser.add_argument("--resume", action="store_true", help="continue FILE: keep its answers, redo failed and missing items")
    parser.add_argument("--strategy", choices=STRATEGIES, default="standard", help="answer prompt: standard (default, the published runner's), causalcot, coin, short, long")
    parser.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE, help="default 0.6")
    parser.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS, help="default 4096")
    parser.add_argument("--limit", type=int, default=None, help="answer only the first N items")
    add_progress_arguments(parser)
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
    from causalcheck.explain.progress import progress_from_args

    setup_llm_logging()
    if args.limit is not None and args.limit < 1:
        raise InputFormatError(f"--limit={args.limit!r} must be a positive integer")
    from causalcheck.files import Provenance

    strategy = getattr(args, "strategy", "standard")
    provenance = Provenance(
        command="explain answer",
        options={
            "model": args.model,
            "benchmark": str(args.benchmark),
            "resume": args.resume,
            "strategy": strategy,
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
        progress = progress_from_args(args, title="explain answer", models=(client,))
        try:
            summary = run_sync(
                generate_answers(
                    items,
                    client,
                    out,
                    model_name=answer_model_name(args.model, strategy),
                    temperature=args.temperature,
                    max_tokens=args.max_tokens,
                    resume=args.resume,
                    provenance=provenance,
                    strategy=strategy,
                    progress=progress,
                )
            )
        finally:
            if progress is not None:
                progress.close()
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
