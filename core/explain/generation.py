"""Model generation over a benchmark: what ``explain answer`` and ``explain rubrics`` share.

Both commands ask a model one question per WhatIfBench item — an answer
(:mod:`causalcheck.explain.answer`), a rubric (:mod:`causalcheck.explain.rubrics`) — and keep
every finished item on disk at once, so a run killed at any moment and resumed loses nothing
and duplicates nothing.  The pieces, each written once:

* :class:`Journal` — the append-only JSON-lines output: one provenance line per session, one
  record per finished item (keyed by :func:`record_key`; a later ``ok`` record wins); a resume
  checks a fingerprint of the kept records and compacts the file atomically;
* :class:`AnswerFileLock` — one writer per output file;
* :func:`check_sampling` and :func:`generate_items` — the concurrent per-item loop: a model
  failure or a rejected reply is recorded as a failed item (its reason redacted), a stop on a
  limit (``--max-cost``) ends the run with no call left running behind the caller's back;
* the command-line edge: :func:`add_generation_arguments` (``--temperature``, ``--max-tokens``,
  ``--limit``, progress and model-call options), :func:`start_generation`,
  :func:`load_items`, :func:`run_with_progress` and :func:`finish_generation` (the
  :class:`GenerationSummary` line, the failures on stderr and the exit code: 0 all done, 1 some
  failed, 2 none could be done, 3 stopped on a limit).

One module because both generation commands are one resumable loop with one on-disk journal,
one lock and one command-line edge; splitting it would give each piece a module that only the
other pieces use.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from causalcheck.base.errors import BudgetExceededError, InputFormatError
from causalcheck.base.files import (
    Provenance,
    SiblingLock,
    append_line,
    atomic_write_text,
    read_input_text,
)
from causalcheck.base.progress import add_progress_arguments
from causalcheck.explain.progress import progress_from_args

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from causalcheck.base.progress import ItemProgress
    from causalcheck.explain.data import Benchmark, WhatIfItem
    from causalcheck.protocols import LLM

__all__ = [
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_TEMPERATURE",
    "MAX_REASON_CHARS",
    "AnswerFileLock",
    "GenerationSummary",
    "ItemTally",
    "Journal",
    "add_generation_arguments",
    "check_sampling",
    "finish_generation",
    "generate_items",
    "load_items",
    "record_key",
    "register_generation_command",
    "run_with_progress",
    "start_generation",
]

T = TypeVar("T")

#: The sampling defaults of both commands (the published runner's and generator's: prism-spec §1, §2).
DEFAULT_TEMPERATURE = 0.6
DEFAULT_MAX_TOKENS = 4096
#: A failure reason is cut to this many characters in records and messages.
MAX_REASON_CHARS = 500


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
        nor dropped.  The file is read with :func:`causalcheck.base.files.read_input_text` and
        :mod:`causalcheck.base.safejson`.
        """
        # late: keeps causalcheck --help light
        from causalcheck.base import safejson

        # late: keeps causalcheck --help light
        from causalcheck.explain.data import is_run_header

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
        # late: keeps causalcheck --help light
        from causalcheck.base import safejson

        # late: keeps causalcheck --help light
        from causalcheck.explain.data import RUN_HEADER_KEY, is_run_header

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
        # late: keeps causalcheck --help light
        from causalcheck.explain.data import RUN_HEADER_KEY

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
        """Append one record (fsynced, :func:`causalcheck.base.files.append_line`)."""
        append_line(self.path, json.dumps(dict(rec), ensure_ascii=False))

    def _compact(self, headers: Sequence[str], done: Mapping[str, Mapping[str, Any]]) -> None:
        """Rewrite the file with *headers* and the *done* records only, atomically
        (:func:`causalcheck.base.files.atomic_write_text`: a failure leaves the file as it was)."""
        body = "".join(h + "\n" for h in headers) + "".join(json.dumps(dict(rec), ensure_ascii=False) + "\n" for rec in done.values())
        atomic_write_text(self.path, body)


class AnswerFileLock(SiblingLock):
    """One writer per output file: a :class:`causalcheck.base.files.SiblingLock` on ``.<name>.lock`` next to it
    (answer or rubric files of different models in one folder can be written at the same time)."""

    def __init__(self, path: Path, command: str) -> None:
        self.file = path
        super().__init__(path, command, named=f"out={str(path)!r}", advice="wait for it to finish or write to another file")


# ---------------------------------------------------------------------- the per-item loop
def check_sampling(temperature: float, max_tokens: int) -> None:
    """Refuse a *temperature* outside ``[0, 2]`` or a *max_tokens* below 1 (:class:`InputFormatError`).

    >>> check_sampling(2.5, 10)
    Traceback (most recent call last):
      ...
    causalcheck.base.errors.InputFormatError: temperature=2.5 must be in [0, 2]
    """
    if not 0.0 <= temperature <= 2.0:
        raise InputFormatError(f"temperature={temperature!r} must be in [0, 2]")
    if max_tokens < 1:
        raise InputFormatError(f"max_tokens={max_tokens!r} must be a positive integer")


@dataclass(frozen=True)
class ItemTally:
    """What :func:`generate_items` did: items finished ``ok`` now, the ``(item key, reason)`` of every
    item that failed now (in item order), and the reason of a stop on a limit (``None``: not stopped)."""

    ok: int
    failures: tuple[tuple[str, str], ...]
    stopped: str | None

    @property
    def failed(self) -> int:
        """How many items failed in this run."""
        return len(self.failures)


@dataclass(frozen=True, kw_only=True)
class GenerationSummary:
    """What one run did: items failed now, already done before (``skipped``), the total, a stop on
    a limit (``None``: not stopped), the model-call accounting and ``(item key, reason)`` of every
    item that failed.  Each command adds its own counts of finished items (:meth:`counts`)."""

    failed: int
    skipped: int
    total: int
    stopped: str | None
    accounting: Mapping[str, Any]
    failures: tuple[tuple[str, str], ...] = ()

    def counts(self) -> dict[str, int]:
        """The command's own counts of items finished now or kept (none here)."""
        return {}

    @property
    def any_done(self) -> bool:
        """Whether any item is finished: now, before, or kept."""
        return bool(self.skipped or any(self.counts().values()))

    def to_json(self) -> dict[str, Any]:
        return {
            **self.counts(),
            "failed": self.failed,
            "failures": [{"key": k, "error": e} for k, e in self.failures],
            "skipped": self.skipped,
            "total": self.total,
            "stopped": self.stopped,
            "accounting": dict(self.accounting),
        }


async def generate_items(
    items: Sequence[WhatIfItem],
    todo: Sequence[WhatIfItem],
    ask: Callable[[WhatIfItem], Awaitable[dict[str, Any]]],
    failed_record: Callable[[WhatIfItem, str], dict[str, Any]],
    journal: Journal,
    progress: ItemProgress | None = None,
) -> ItemTally:
    """Ask for every item of *todo* concurrently and append each finished record to *journal*.

    *ask* makes the model call(s) of one item and returns its ``ok`` record; a model failure
    (:class:`~causalcheck.protocols.LLMError`) or a rejected reply (:class:`ValueError`) is
    recorded as ``failed_record(item, reason)`` (the reason redacted, at most
    :data:`MAX_REASON_CHARS` characters).  A :class:`~causalcheck.base.errors.BudgetExceededError`
    stops the run: the calls in flight are cancelled and awaited, and the stop is returned.
    *progress* hears of the total (all *items*, those not in *todo* as done) and of every
    finished item.
    """
    import asyncio

    # late: keeps causalcheck --help light
    from causalcheck.base.redaction import redact

    # late: keeps causalcheck --help light
    from causalcheck.protocols import LLMError

    ok = 0
    failed: list[tuple[str, str]] = []
    if progress is not None:
        progress.begin(len(items), done=len(items) - len(todo))

    async def one(item: WhatIfItem) -> None:
        nonlocal ok
        try:
            record = await ask(item)
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            reason = redact(str(exc))[:MAX_REASON_CHARS]
            failed.append((item.key, reason))
            journal.append(failed_record(item, reason))
        else:
            ok += 1
            journal.append(record)
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
    return ItemTally(ok, tuple(failed), stopped)


# ---------------------------------------------------------------------- the command-line edge
def add_generation_arguments(parser: argparse.ArgumentParser, *, limit_help: str) -> None:
    """``--temperature`` (default 0.6), ``--max-tokens`` (default 4096), ``--limit N`` (help *limit_help*),
    then the progress options and the model-call options (:func:`causalcheck.adapters.add_llm_arguments`)."""
    # late: adapters are imported only where clients are built
    from causalcheck.adapters import add_llm_arguments

    parser.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE, help="default 0.6")
    parser.add_argument("--max-tokens", type=int, default=DEFAULT_MAX_TOKENS, help="default 4096")
    parser.add_argument("--limit", type=int, default=None, help=limit_help)
    add_progress_arguments(parser)
    add_llm_arguments(parser)


def start_generation(args: argparse.Namespace) -> None:
    """A generation command's first steps: model-call logging on stderr, and ``--limit`` checked."""
    # late: adapters are imported only where clients are built
    from causalcheck.adapters import setup_llm_logging

    setup_llm_logging()
    if args.limit is not None and args.limit < 1:
        raise InputFormatError(f"--limit={args.limit!r} must be a positive integer")


def load_items(args: argparse.Namespace, command: str, **options: Any) -> tuple[Provenance, Benchmark, list[WhatIfItem]]:
    """The run's provenance (*command*; the options ``model``, ``benchmark``, ``resume``, then *options*,
    then ``temperature``, ``max_tokens``, ``limit``, ``cache_mode``), the benchmark it read and its first
    ``--limit`` items."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.data import load_benchmark

    provenance = Provenance(
        command=command,
        options={
            "model": args.model,
            "benchmark": str(args.benchmark),
            "resume": args.resume,
            **options,
            "temperature": args.temperature,
            "max_tokens": args.max_tokens,
            "limit": args.limit,
            "cache_mode": getattr(args, "cache_mode", None),
        },
    )
    bench = load_benchmark(args.benchmark, record=provenance)
    return provenance, bench, list(bench.items[: args.limit] if args.limit else bench.items)


def run_with_progress(
    args: argparse.Namespace,
    title: str,
    client: LLM,
    run: Callable[[ItemProgress | None], Coroutine[Any, Any, T]],
) -> T:
    """``run(progress)`` on the shared model loop, with the progress display the options ask for
    (:func:`causalcheck.explain.progress.progress_from_args`), closed however the run ends."""
    # late: keeps causalcheck --help light
    from causalcheck.base.aio import run_sync

    progress = progress_from_args(args, title=title, models=(client,))
    try:
        return run_sync(run(progress))
    finally:
        if progress is not None:
            progress.close()


def register_generation_command(
    explain_sub: Any,
    name: str,
    *,
    help: str,
    description: str,
    add_arguments: Callable[[argparse.ArgumentParser], None],
    handler: Callable[[argparse.Namespace], int],
) -> argparse.ArgumentParser:
    """Add the generation command *name* (``explain answer``, ``explain rubrics``) to the ``explain`` group."""
    p: argparse.ArgumentParser = explain_sub.add_parser(name, help=help, description=description)
    add_arguments(p)
    p.set_defaults(handler=handler)
    return p


def finish_generation(summary: GenerationSummary, *, nothing: str, extra: Mapping[str, Any] | None = None) -> int:
    """Print *summary* (and *extra* keys) as one JSON line and every failed item on stderr; the
    exit code: 3 when the run stopped on a limit, 2 when items failed and none is done (stderr
    says *nothing*), 1 when some failed, else 0."""
    print(json.dumps({**summary.to_json(), **(extra or {})}, sort_keys=True))
    failures = summary.failures
    for key, reason in failures:
        print(f"causalcheck: item {key!r} failed: {reason}", file=sys.stderr)
    if summary.stopped:
        print(f"causalcheck: stopped: {summary.stopped}; resume with --resume", file=sys.stderr)
        return 3
    if failures and not summary.any_done:
        print(f"causalcheck: error: {nothing} (see above)", file=sys.stderr)
        return 2
    return 1 if failures else 0
