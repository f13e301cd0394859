"""Score answer files: benchmark + answers in → every item scored → resumable result files → summary.

The explain counterpart of :mod:`causalcheck.lab.runner`.  :func:`score_answers` loads a
WhatIfBench file and an answers file, and for every answer model in it scores each item with
:func:`~causalcheck.explain.scoring.score_item` and writes, in the output folder
(``<stem>`` = ``<answer>_metrics_<judge>``, :func:`~causalcheck.explain.results.result_stem`)::

    <stem>.jsonl   one line per scored item, appended (and flushed) as the run goes
    <stem>.run     what the results were scored with: the options and a SHA-256 per answer
    <stem>.json    the official result layout, rebuilt from the lines
    <stem>.md      the per-domain table and failure modes

**Resume.**  A rerun into the same folder keeps every item that was scored cleanly and scores
again the items that failed, that were *degraded* (a parser or judge fell back), or whose
answer text changed since (the SHA-256 in its row — rows of older versions: in ``<stem>.run`` —
differs).  Later lines of the JSONL win; a line torn by a killed run is cut off first.  Resume
state is written with or after the work it describes, never before: a row and the hash of its
answer are one appended line, and ``<stem>.run``'s answer map is rewritten after the work (its
options are written first, as the precondition of every line appended).

**Trust.**  The folder is locked while it is written (:class:`causalcheck.base.files.RunLock`);
``.json`` / ``.md`` / ``.run`` are written atomically and rows appended with fsync
(:mod:`causalcheck.base.files`); every result file records its provenance (``meta.causalcheck``:
version, command, options, time, inputs with SHA-256) and what was not scored.  Scoring every
model of an answers file removes result files of an older scoring of that file (same judge) for
models it no longer holds, and lists them (:class:`ScoredSet.removed`).  Results scored with other
options — judge, parser, PM mode, edge-judging mode, answer limit, injection setting
(:class:`ScoreOptions`) — are never mixed into one file: :func:`score_answers` refuses them
(``resume=False`` discards them instead).

**Judges.**  :class:`Judges` bundles the parser, the two judges (the
:class:`~causalcheck.explain.judges.AnswerParser`, :class:`~causalcheck.explain.judges.EdgeJudge` and
:class:`~causalcheck.explain.judges.CriterionJudge` protocols) and the names written into result
files.  :func:`make_judges` builds them from command-line options: each judge back-end
(:func:`judge_backends`) is asked in turn — yours first, then the built-in ones, imported only
when asked: the plug-ins of ``--edge-judge`` / ``--criterion-judge`` / ``--answer-parser``
(:mod:`causalcheck.explain.plugin_judges`) and the LLM judges of ``--judge`` / ``--parser``
(:mod:`causalcheck.explain.llm_cli`) —, and the offline parser and judges
(:func:`offline_judges`) answer when none claims the options.  :func:`argument_hooks` lists
what adds options to ``explain score`` the same way.  The back-ends come from the one plug-in
registry, :mod:`causalcheck.plugins` (kind ``judge_backend``: the
:class:`~causalcheck.protocols.JudgeBackend` protocol); the options object is only read.

One module because ``explain score`` is one resumable run — the judges, the options, the
fingerprint that makes resuming safe, and the loop — whose pieces only mean something together.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.base.errors import InputFormatError, WorkerDied
from causalcheck.base.files import (
    Provenance,
    RunLock,
    append_line,
    atomic_write_bytes,
    atomic_write_text,
)
from causalcheck.base.files import timestamp as now
from causalcheck.base.pool import Executor
from causalcheck.base.redaction import redact_json

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from causalcheck.base.progress import ItemProgress
    from causalcheck.explain.data import AnswerSet, Benchmark, WhatIfItem
    from causalcheck.explain.judges import AnswerParser, CriterionJudge, EdgeJudge
    from causalcheck.explain.result_schema import ResultItem
    from causalcheck.explain.scoring import JudgeEdges, PMMode, Summary
    from causalcheck.protocols import LLM, JudgeBackend

__all__ = [
    "RESULT_SUFFIXES",
    "Judges",
    "ScoreOptions",
    "ScoredSet",
    "answer_hashes",
    "argument_hooks",
    "judge_backends",
    "make_judges",
    "offline_judges",
    "score_answers",
    "select_items",
]


@dataclass(frozen=True)
class Judges:
    """The parser, the two judges and the names written into result files."""

    parser: AnswerParser
    edge_judge: EdgeJudge
    criterion_judge: CriterionJudge
    judge_name: str
    parser_name: str
    #: Called once after scoring (the LLM back-end logs its call/cost accounting here).
    on_done: Callable[[], None] | None = None
    #: The edges judged when ``--judge-edges`` is not given: ``"all"`` (as the original), or
    #: ``"causal"`` (the LLM back-end with a model edge judge: same PM, fewer calls).
    judge_edges: JudgeEdges = "all"
    #: The models behind the components (none offline): the progress display shows their
    #: call / cost accounting (:mod:`causalcheck.explain.progress`).
    models: tuple[LLM, ...] = ()
    #: The components keep no state a worker process would lose (no call accounting, no
    #: session): ``explain score --workers K`` may score items in K processes.
    forkable: bool = False
    #: What the results must say about how they were judged (the offline judges' limits), or ``None``.
    notice: str | None = None


# ---------------------------------------------------------------------- the judge back-ends
def judge_backends() -> list[JudgeBackend]:
    """The judge back-ends of the plug-in registry (kind ``judge_backend``), in the order they are
    asked: yours, then the built-ins (the plug-in options before the LLM judges)."""
    # late: the registry reads entry points on first use
    from causalcheck import plugins

    return [plugins.create("judge_backend", name) for name in plugins.in_order("judge_backend", builtins_first=False)]


def argument_hooks() -> list[Callable[[argparse.ArgumentParser], None]]:
    """Each judge back-end's ``add_cli_options`` (:func:`judge_backends` order)."""
    return [backend.add_cli_options for backend in judge_backends()]


def offline_judges(segmenter: str = "rules") -> Judges:
    """The offline parser (with the named segmenter, loaded now) and the offline judges.

    A segmenter pipeline that is not installed is a usage error here (exit 2), not a
    per-item parser failure later.
    """
    # late: keeps causalcheck --help light
    from causalcheck.explain.offline import OFFLINE_NOTICE, OfflineCriterionJudge, OfflineEdgeJudge

    # late: keeps causalcheck --help light
    from causalcheck.explain.relations import OfflineParser

    # late: keeps causalcheck --help light
    from causalcheck.explain.segment import get_segmenter

    seg = get_segmenter(segmenter)
    load = getattr(seg, "load", None)
    if load is not None:
        load()
    return Judges(
        parser=OfflineParser(seg),
        edge_judge=OfflineEdgeJudge(),
        criterion_judge=OfflineCriterionJudge(),
        judge_name="offline",
        parser_name=f"offline-{seg.name}",
        forkable=True,
        notice=OFFLINE_NOTICE,
    )


def make_judges(args: argparse.Namespace, *, skip: type | None = None) -> Judges:
    """Build parser and judges from command-line options (offline unless a back-end claims *args*).

    The back-ends are asked in order (:func:`judge_backends`, those of class *skip* left out); the
    first whose ``judges_from_args`` returns :class:`Judges` wins, else :func:`offline_judges` with
    ``args.segmenter``.
    """
    for backend in judge_backends():
        if skip is not None and isinstance(backend, skip):
            continue
        built = backend.judges_from_args(args)
        if built is not None:
            return built
    return offline_judges(getattr(args, "segmenter", "rules") or "rules")


# ---------------------------------------------------------------------- scoring a run
@dataclass(frozen=True)
class ScoreOptions:
    """Everything besides the answers that determines a result: results scored with other
    options are not resumed (their fingerprint, :meth:`to_json`, is kept in ``<stem>.run``)."""

    judge: str
    parser: str
    pm_mode: str
    judge_edges: str
    max_chars: int
    strip_injections: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "judge": self.judge,
            "parser": self.parser,
            "pm_mode": self.pm_mode,
            "judge_edges": self.judge_edges,
            "max_chars": self.max_chars,
            "strip_injections": self.strip_injections,
        }


def answer_hashes(items: Sequence[WhatIfItem], answers: AnswerSet) -> dict[str, str]:
    """SHA-256 of each item's answer text (of ``""`` when it has none), keyed by item key."""
    import hashlib

    out: dict[str, str] = {}
    for it in items:
        ans = answers.get(it)
        text = ans.text if ans is not None and ans.text is not None else ""
        out[it.key] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return out


def _check_resumable(run_file: Path, jsonl: Path, options: Mapping[str, Any]) -> dict[str, str]:
    """Refuse to resume results scored with other options; return the answer hashes they were scored on.

    Changed answers are not an error: those items are scored again.
    """
    # late: keeps causalcheck --help light
    from causalcheck.base import safejson

    if not jsonl.exists() or not run_file.exists():
        return {}
    try:
        previous = safejson.load_file(run_file, what="run fingerprint")
    except InputFormatError:
        return {}
    if not isinstance(previous, dict):
        return {}
    raw_options = previous.get("options")
    old_options: dict[str, Any] = raw_options if isinstance(raw_options, dict) else {}
    # the file holds the options redacted (no URL credentials): compare like with like
    shown = redact_json(dict(options))
    changed = sorted(k for k in shown if old_options.get(k) != shown[k])
    if changed:
        raise InputFormatError(
            f"{jsonl} holds results scored with a different {', '.join(changed)} "
            f"(was {', '.join(f'{k}={old_options.get(k)!r}' for k in changed)}); "
            "use another --out, or --fresh to discard them"
        )
    answers = previous.get("answers")
    return {str(k): str(v) for k, v in answers.items()} if isinstance(answers, dict) else {}


def _write_fingerprint(run_file: Path, options: Mapping[str, Any], hashes: Mapping[str, str]) -> None:
    record = {"options": redact_json(dict(options)), "answers": dict(hashes)}
    atomic_write_text(run_file, json.dumps(record, indent=2, sort_keys=True) + "\n")


@dataclass(frozen=True)
class ScoredSet:
    """What :func:`score_answers` did for one answer model.

    ``failed``: ``(item key, reason)`` of every item that could not be scored;
    ``unmatched``: answer ids of the answers file that match no benchmark item (they were
    not scored); ``degraded``: ``(item key, first reason)`` of items scored with a fallback;
    ``removed``: result files of an older scoring of the same answers that were deleted;
    ``not_answered``: keys of the benchmark items scored here that the answers file holds no
    answer for (not scored, not failed: counted apart, and the command exits 1 — select the
    answered items with ``items=`` / ``--items`` to score a subset).
    """

    model: str
    stem: str
    summary: Summary
    failed: tuple[tuple[str, str], ...] = ()
    unmatched: tuple[str, ...] = ()
    degraded: tuple[tuple[str, str], ...] = ()
    removed: tuple[str, ...] = ()
    model_from: str = ""
    """Where the answer model's name came from (:attr:`causalcheck.explain.data.AnswerSet.model_from`)."""
    not_answered: tuple[str, ...] = ()

    @property
    def problems(self) -> bool:
        """True when some item failed, was not answered, or some answer was skipped (the command exits 1)."""
        return bool(self.failed or self.unmatched or self.not_answered)


#: The files of one result stem in an output folder (all written by :func:`score_answers`).
RESULT_SUFFIXES: tuple[str, ...] = (".json", ".jsonl", ".md", ".run")


def _stale_stems(out: Path, current: set[str], source_answers: str, judge_model: str) -> list[str]:
    """Result stems in *out* from an older scoring of the same answers file with the same judge
    that the current scoring no longer produces (e.g. an answer model that left the file)."""
    # late: keeps causalcheck --help light
    from causalcheck.base import safejson

    stale = []
    for path in sorted(out.glob("*_metrics_*.json")):
        stem = path.name[: -len(".json")]
        if stem in current or not path.is_file():
            continue
        try:
            meta = safejson.load_file(path, what="result file").get("meta")
        except (InputFormatError, AttributeError):
            continue
        if (
            isinstance(meta, dict)
            and meta.get("task") == "evaluator"
            and meta.get("source_answers") == source_answers
            and meta.get("judge_model") == judge_model
        ):
            stale.append(stem)
    return stale


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
    items: Sequence[str] | None = None,
    max_chars: int = 200_000,
    strip_injections: bool = True,
    timestamp: str | None = None,
    resume: bool = True,
    log: Callable[[str], None] = lambda s: None,
    command: str = "explain score",
    progress: ItemProgress | None = None,
    workers: int = 1,
    executor: Executor | None = None,
) -> list[ScoredSet]:
    """Score every answer set; write the result files (module docstring); return one :class:`ScoredSet` per answer model.

    The output folder is locked (:class:`causalcheck.base.files.RunLock`) while it is written.
    *progress* hears of the total (items × answer models) and of every item scored or found
    done (:mod:`causalcheck.explain.progress`).  *items* selects benchmark items by key or id
    (:func:`select_items`; the others are not inputs of this scoring), then *limit* keeps the
    first of them.  A selected item the answers file holds no answer for is *not answered*
    (:attr:`ScoredSet.not_answered`), not failed.  *workers* > 1 scores the items in that many
    processes (:func:`causalcheck.base.pool.ordered_map`; only with forkable judges, e.g. the
    offline ones); the rows are written in item order, so the files are the same for every value.
    *executor* (a Ray one, :mod:`causalcheck.base.ray_executor`) scores the items as its tasks
    instead, with the same rows (forkable judges only); the provenance names it.
    """
    executor = _check_workers(workers, executor, judges)
    # late: keeps causalcheck --help light
    from causalcheck.explain.data import load_answer_sets, load_benchmark

    started = _started(timestamp)
    stamp = timestamp or started.replace("-", "").replace(":", "").replace("T", "-").rstrip("Z")[:15]
    options = ScoreOptions(judges.judge_name, judges.parser_name, pm_mode, judge_edges, max_chars, strip_injections).to_json()
    provenance = Provenance(
        command=command,
        options={
            "benchmark": str(benchmark_path),
            "answers": str(answers_path),
            "model": model,
            "limit": limit,
            **({"items": list(items)} if items else {}),
            "resume": resume,
            **options,
            **({"executor": executor.describe()} if executor is not None else {}),
        },
        started=started,
    )
    bench = load_benchmark(benchmark_path, record=provenance)
    chosen_items = select_items(bench, items) if items else bench.items
    chosen_items = chosen_items[:limit] if limit else chosen_items
    sets = load_answer_sets(answers_path, record=provenance)
    if model is not None:
        chosen = tuple(s for s in sets if s.model == model)
        if not chosen:
            raise InputFormatError(f"model={model!r} must be one of {[s.model for s in sets]!r}")
        sets = chosen
    out = Path(out_dir)
    run = _ScoringRun(
        out, judges, bench, tuple(chosen_items), options, provenance, stamp, pm_mode, judge_edges, max_chars, strip_injections, resume, log, progress,
        workers, executor,
    )
    with RunLock(out, command=f"causalcheck {command}"):
        if progress is not None:
            progress.begin(len(chosen_items) * len(sets))
        # every model of the answers file is scored: older outputs of it that are not are stale
        removed = _remove_stale_results(out, sets, judges.judge_name, log) if model is None else []
        return [_score_set(run, aset, removed) for aset in sets]


def _check_workers(workers: int, executor: Executor | None, judges: Judges) -> Executor | None:
    """Refuse workers or an executor the judges cannot run in; the executor to use (``None``: this process or forks)."""
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputFormatError(f"workers={workers!r} must be a positive integer")
    if executor is not None and executor.name == "local":
        executor = None
    if (workers > 1 or executor is not None) and not judges.forkable:
        what = f"executor={executor.name!r}" if executor is not None else f"workers={workers!r}"
        raise InputFormatError(
            f"{what} needs judges that can run in worker processes (the offline ones); "
            f"{judges.judge_name!r} keeps state in this process: use workers=1 and the local executor"
        )
    return executor


def select_items(bench: Benchmark, wanted: Sequence[str]) -> tuple[WhatIfItem, ...]:
    """The items of *bench* named in *wanted* (keys or ids), in benchmark order; an unknown name is an input error."""
    names = [w.strip() for w in wanted if w.strip()]
    known = {k: it for it in bench.items for k in (it.key, str(it.id))}
    unknown = [w for w in names if w not in known]
    if unknown:
        shown = ", ".join(it.key for it in bench.items[:6]) + (", …" if len(bench.items) > 6 else "")
        raise InputFormatError(
            f"items={unknown!r} are not items of benchmark {bench.source!r} (its items: {shown}; "
            "`causalcheck explain items BENCHMARK` lists them)"
        )
    keys = {known[w].key for w in names}
    return tuple(it for it in bench.items if it.key in keys)


@dataclass(frozen=True)
class _ScoringRun:
    """What every answer set of one :func:`score_answers` call is scored and written with."""

    out: Path
    judges: Judges
    bench: Benchmark
    items: tuple[WhatIfItem, ...]
    options: Mapping[str, Any]  # ScoreOptions.to_json(): the fingerprint
    provenance: Provenance
    stamp: str
    pm_mode: PMMode
    judge_edges: JudgeEdges
    max_chars: int
    strip_injections: bool
    resume: bool
    log: Callable[[str], None]
    progress: ItemProgress | None
    workers: int = 1
    executor: Executor | None = None


def _remove_stale_results(out: Path, sets: Sequence[AnswerSet], judge_name: str, log: Callable[[str], None]) -> list[str]:
    """Delete the result files of an older scoring of the same answers that this scoring does not produce; their names."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.results import result_stem

    removed: list[str] = []
    current = {result_stem(s.model, judge_name) for s in sets}
    for stem in _stale_stems(out, current, sets[0].source, judge_name):
        for suffix in RESULT_SUFFIXES:
            stale = out / f"{stem}{suffix}"
            if stale.is_file():
                stale.unlink()
                removed.append(stale.name)
    for name in removed:
        log(f"removed {out / name}: a result of an older scoring of the same answers that this scoring does not produce")
    return removed


def _score_set(run: _ScoringRun, aset: AnswerSet, removed: Sequence[str]) -> ScoredSet:
    """Score one answer model: resume its rows, score the items not done, write its ``.json`` and ``.md``."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.results import result_stem

    stem = result_stem(aset.model, run.judges.judge_name)
    jsonl = run.out / f"{stem}.jsonl"
    run_file = run.out / f"{stem}.run"  # JSON fingerprint; not *.json so result-file globs skip it
    if not run.resume:
        for stale in (jsonl, run_file):
            if stale.exists():
                stale.unlink()
    hashes = answer_hashes(run.items, aset)
    previous_hashes = _check_resumable(run_file, jsonl, run.options)
    # the options are a precondition of every line appended below: recorded first; the answer
    # hashes describe finished work: each row carries its own, and the map is rewritten after the work
    _write_fingerprint(run_file, run.options, previous_hashes)
    rows, done = _resumed_rows(run, jsonl, hashes, previous_hashes)
    if run.progress is not None:
        run.progress.describe(f"scoring {aset.model}")
        run.progress.advance(len(done))
    not_answered = tuple(it.key for it in run.items if it.key not in done and aset.get(it) is None)
    rows.extend(_score_items(run, aset, jsonl, done | set(not_answered), hashes))
    if run.progress is not None:
        run.progress.advance(len(not_answered))
    _write_fingerprint(run_file, run.options, {**previous_hashes, **hashes})
    return _write_set(run, aset, stem, rows, removed, not_answered)


def _resumed_rows(run: _ScoringRun, jsonl: Path, hashes: Mapping[str, str], previous_hashes: Mapping[str, str]) -> tuple[list[ResultItem], set[str]]:
    """The rows of *jsonl* that need no new scoring, and their keys; a line torn by a killed run is cut off.

    Failed and degraded items are scored again, and so is an item whose answer changed since it
    was scored (the row's own hash; rows of older versions have none: the folder's map is used).
    """
    # late: keeps causalcheck --help light
    from causalcheck.explain.results import read_rows

    wanted = {it.key for it in run.items}
    latest = {r.key: r for r in read_rows(jsonl) if r.key in wanted}  # later lines win
    done = {
        k
        for k, r in latest.items()
        if r.ok and not r.degraded and (r.answer_sha256 or previous_hashes.get(k, hashes[k])) == hashes[k]
    }
    rows = [r for r in latest.values() if r.key in done]
    if jsonl.exists():  # drop a line torn by a killed run, so the next line does not join it
        data = jsonl.read_bytes()
        if data and not data.endswith(b"\n"):
            atomic_write_bytes(jsonl, data[: data.rfind(b"\n") + 1])
    return rows, done


#: Items per batch of worker jobs, per worker: a batch's rows are appended before the next starts,
#: so a killed run loses at most one batch (a resumed run scores it again).
_BATCH_PER_WORKER = 8


def _score_items(run: _ScoringRun, aset: AnswerSet, jsonl: Path, done: set[str], hashes: Mapping[str, str]) -> list[ResultItem]:
    """Score the items not in *done* that have an answer record (_score_set counts the others as not answered),
    appending each row to *jsonl* as it is made (in item order)."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.result_schema import encode_row

    jobs = [(item, ans.text, ans.error) for item in run.items if item.key not in done and (ans := aset.get(item)) is not None]
    rows: list[ResultItem] = []
    size = len(jobs) if run.workers <= 1 and run.executor is None else _BATCH_PER_WORKER * max(run.workers, 2)
    for start in range(0, len(jobs), max(size, 1)):
        batch = jobs[start : start + size]
        for (item, _, _), result in zip(batch, _score_batch(run, batch), strict=True):
            row = dataclasses.replace(result, answer_sha256=hashes[item.key])
            append_line(jsonl, json.dumps(encode_row(row), ensure_ascii=False, allow_nan=False))
            rows.append(row)
            if run.progress is not None:
                run.progress.advance()
    return rows


def _score_batch(run: _ScoringRun, batch: Sequence[tuple[WhatIfItem, str | None, str | None]]) -> Iterator[Any]:
    """The :class:`~causalcheck.explain.scoring` result of each job, in order (in ``run.workers`` processes or ``run.executor``'s tasks).

    A worker or task that dies without answering (killed, out of memory, a crash in native code)
    fails only the item it was scoring, named with what ended it; the other items go on.
    """
    # late: the pool is needed only here
    from causalcheck.base.pool import ordered_map

    if run.executor is not None:  # the tasks get what scoring needs, not this process's log and progress display
        remote = dataclasses.replace(run, log=_no_log, progress=None, executor=None)
        answers = ordered_map(functools.partial(_score_job, remote), batch, 1, executor=run.executor)
        jobs: Sequence[tuple[WhatIfItem, str | None, str | None]] = batch
    elif run.workers <= 1:
        yield from map(functools.partial(_score_job, run), batch)
        return
    else:
        # the first job here: the imports and lazily built tables of scoring are made before the
        # workers fork, not once in each of them (a second or more per worker on the demo)
        yield _score_job(run, batch[0])
        jobs = batch[1:]
        answers = ordered_map(functools.partial(_score_job, run), jobs, run.workers)
    for (item, _, _), answer in zip(jobs, answers, strict=True):
        if isinstance(answer, WorkerDied):
            # late: keeps causalcheck --help light (the result schema pulls the explain stack)
            from causalcheck.explain.result_schema import failed_item

            yield failed_item(item, f"internal error: {answer}")
            continue
        yield answer


def _no_log(text: str) -> None:
    """The log of a scoring task run elsewhere (its messages are the caller's to write)."""


def _score_job(run: _ScoringRun, job: tuple[WhatIfItem, str | None, str | None]) -> Any:
    """Score one item (a worker's job): ``(item, answer text or None, why there is none)``."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.scoring import score_item

    item, text, error = job
    judges = run.judges
    return score_item(
        item,
        text,
        judges.parser,
        judges.edge_judge,
        judges.criterion_judge,
        pm_mode=run.pm_mode,
        judge_edges=run.judge_edges,
        max_chars=run.max_chars,
        strip_injections=run.strip_injections,
        answer_error=error,
    )


def _write_set(
    run: _ScoringRun, aset: AnswerSet, stem: str, rows: list[ResultItem], removed: Sequence[str], not_answered: Sequence[str] = ()
) -> ScoredSet:
    """Write ``<stem>.json`` and ``<stem>.md`` from *rows* (sorted in benchmark order) and say what was scored."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.results import build_payload, markdown_summary, write_json

    # late: keeps causalcheck --help light
    from causalcheck.explain.scoring import summarize

    bench, judges = run.bench, run.judges
    all_keys = {k for it in bench.items for k in (it.key, str(it.id))}
    unmatched = tuple(sorted(k for k in aset.answers if k not in all_keys))
    order = {it.key: i for i, it in enumerate(bench.items)}
    rows.sort(key=lambda r: order.get(r.key, len(order)))
    record = {
        **run.provenance.to_json(),
        **({"notice": judges.notice} if judges.notice else {}),
        "unmatched_answers": list(unmatched),
        **({"not_answered": list(not_answered)} if not_answered else {}),
        **({"removed_stale": list(removed)} if removed else {}),
    }
    payload = build_payload(
        rows,
        bench,
        answer_model=aset.model,
        judge_model=judges.judge_name,
        parser_model=judges.parser_name,
        source_answers=aset.source,
        timestamp=run.stamp,
        pm_mode=run.pm_mode,
        causalcheck=record,
    )
    write_json(run.out / f"{stem}.json", payload)
    summary = summarize(rows)
    md = markdown_summary(
        summary, rows, title=f"{aset.model} — judged by {judges.judge_name}", pm_mode=run.pm_mode, causalcheck=record
    )
    atomic_write_text(run.out / f"{stem}.md", md)
    run.log(f"wrote {run.out / stem}.json / .jsonl / .md")
    return ScoredSet(
        model=aset.model,
        stem=stem,
        summary=summary,
        failed=tuple((r.key, r.error or "failed") for r in rows if not r.ok),
        unmatched=unmatched,
        degraded=tuple(
            (r.key, (r.degraded_reasons or ("degraded",))[0])
            for r in rows
            if r.ok and r.degraded
        ),
        removed=tuple(removed),
        model_from=aset.model_from,
        not_answered=tuple(not_answered),
    )


def _started(timestamp: str | None) -> str:
    """The provenance time: *timestamp* (``YYYYMMDD-HHMMSS``, from ``--timestamp``) as ISO-8601 UTC,
    else now (``SOURCE_DATE_EPOCH`` when set, :func:`causalcheck.base.files.timestamp`)."""
    import re

    if timestamp is None:
        return now()
    m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})", timestamp)
    if not m:  # another form: written into meta.timestamp as given; the provenance keeps the real time
        return now()
    y, mo, d, h, mi, sec = m.groups()
    return f"{y}-{mo}-{d}T{h}:{mi}:{sec}Z"
