"""Run a sweep grid: one ``lab run`` folder per cell, a manifest ``sweep.json``, resumable.

Layout of a sweep folder::

    sweep.json               the grid and the SHA-256 of each suite's text (what --resume compares:
                             an edited suite is refused), every cell with its folder and status
                             (pending, done, failed + error), and the provenance
    <nnn>-<suite>-<agent>-s<seed>-<budget>/   a cell: the usual lab run folder (run.json,
                             episodes/, summary.json, summary.md); with --score also score/
                             (lab score's scores.json, CSVs, summary.md)
    sweep.journal.jsonl      while a sweep runs: one line per finished cell (its status), appended
                             and fsynced; folded into sweep.json at a checkpoint (every
                             CHECKPOINT_SECONDS and at the end), then removed
    .causalcheck.lock        held for the whole sweep (each cell folder is locked by its run too)

Cells run one after another, in grid order; each cell's episodes fan out over the executor (local
worker processes, or Ray tasks on a cluster: :mod:`causalcheck.base.ray_executor`), whose answers
are folded exactly as ``lab run`` folds them, so a sweep writes the same files whichever
executor ran it (only the provenance, which names the executor and the time, differs).
A finished cell appends its status to ``sweep.journal.jsonl`` (constant cost per cell); ``sweep.json``
is rewritten atomically at the start, at most every :data:`CHECKPOINT_SECONDS` and when the sweep
ends or stops, and a resume reads both (a kill -9 loses no finished cell).  A cell that fails on bad input (a
plug-in agent that refuses, a worker that died) is marked ``failed`` with the reason and the
sweep goes on; the command then exits 1.  ``resume=True`` runs only the cells not ``done``
(a cell interrupted half-way keeps its finished episodes: its ``lab run --resume`` runs the rest).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from causalcheck.base import safejson
from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.files import Provenance, RunLock, append_line, atomic_write_text
from causalcheck.base.pool import Executor, LocalExecutor
from causalcheck.sweep.grid import Cell, Grid

__all__ = ["CHECKPOINT_SECONDS", "JOURNAL", "SWEEP_FORMAT", "SweepResult", "progress_log", "run_sweep"]

SWEEP_FORMAT = "causalcheck-sweep/1"
#: The journal of finished cells, beside sweep.json while a sweep runs.
JOURNAL = "sweep.journal.jsonl"
#: Longest time between two rewrites of sweep.json while cells finish (the journal holds the rest).
CHECKPOINT_SECONDS = 30.0
#: What a journal line records of a cell.
_JOURNAL_KEYS = ("status", "episodes", "scored", "error")


@dataclass(frozen=True)
class SweepResult:
    """What a sweep left: every cell's manifest entry (status ``done`` or ``failed``)."""

    cells: tuple[dict[str, Any], ...]

    @property
    def failed(self) -> tuple[dict[str, Any], ...]:
        return tuple(c for c in self.cells if c.get("status") != "done")


def suite_hashes(grid: Grid) -> dict[str, str]:
    """The SHA-256 of each suite's text, by the name or path the grid gives (what ``--resume`` compares)."""
    # late: the suites module pulls the lab's SCM code
    from causalcheck.lab.suites import find_suite

    return {suite: hashlib.sha256(find_suite(suite)[1].encode("utf-8")).hexdigest() for suite in grid.suites}


def _old_manifest(out: Path, grid: Grid, resume: bool, inputs: Mapping[str, str]) -> dict[int, dict[str, Any]]:
    """The cells of an earlier sweep in *out* (by index) when resuming it; refuse a folder of another
    sweep, or of this grid whose suites have changed since it started."""
    path = out / "sweep.json"
    if not path.exists():
        return {}
    if not resume:
        raise InputFormatError(f"out={str(out)!r} already holds a sweep (sweep.json); pass --resume or a new folder")
    try:
        old = safejson.load_file(path, what="sweep manifest")
    except InputFormatError as exc:
        raise InputFormatError(f"{exc}; the folder's sweep.json is damaged: use a fresh --out folder") from None
    if not isinstance(old, dict) or not isinstance(old.get("cells"), list) or not isinstance(old.get("grid"), dict):
        raise InputFormatError(f"sweep manifest {str(path)!r} must be a JSON object with 'grid' and 'cells'; use a fresh --out folder")
    if old["grid"] != grid.to_json():
        differs = sorted(k for k in {*old["grid"], *grid.to_json()} if old["grid"].get(k) != grid.to_json().get(k))
        raise InputFormatError(
            f"out={str(out)!r} holds a sweep of another grid ({', '.join(differs) or 'grid'} differ); resume needs the same grid"
        )
    recorded = old.get("inputs")  # absent in sweeps written before they recorded it
    if isinstance(recorded, dict):
        changed = sorted(s for s, sha in inputs.items() if recorded.get(s, sha) != sha)
        if changed:
            raise InputFormatError(
                f"out={str(out)!r}: suite {', '.join(repr(s) for s in changed)} changed since the sweep started "
                "(its text's sha256 differs from sweep.json's 'inputs'); resume needs the same suites: restore the "
                "file or write to a fresh --out"
            )
    cells = {c["index"]: c for c in old["cells"] if isinstance(c, dict) and isinstance(c.get("index"), int)}
    for index, fields in _journal(out).items():  # finished after the last checkpoint
        if index in cells:
            cells[index] = {**{k: v for k, v in cells[index].items() if k not in _JOURNAL_KEYS}, **fields}
    return cells


def _journal(out: Path) -> dict[int, dict[str, Any]]:
    """The cells the journal says finished (the last line of a cell wins; a torn last line is skipped)."""
    path = out / JOURNAL
    if not path.is_file():
        return {}
    found: dict[int, dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            entry = safejson.loads(line, source=str(path))
        except InputFormatError:  # a line a kill cut short
            continue
        if isinstance(entry, dict) and isinstance(entry.get("index"), int) and entry.get("status") in ("done", "failed"):
            found[entry["index"]] = {k: entry[k] for k in _JOURNAL_KEYS if k in entry}
    return found


def _write_manifest(out: Path, grid: Grid, cells: list[dict[str, Any]], prov: Provenance, inputs: Mapping[str, str]) -> None:
    """A checkpoint: sweep.json with every cell as it stands, then the journal it folds in is removed."""
    payload = {"format": SWEEP_FORMAT, "grid": grid.to_json(), "grid_sha256": grid.sha256(), "inputs": dict(inputs),
               "cells": cells, "provenance": prov.to_json()}
    atomic_write_text(out / "sweep.json", json.dumps(payload, indent=2) + "\n")
    (out / JOURNAL).unlink(missing_ok=True)


def _run_cell(cell: Cell, grid: Grid, out: Path, resume: bool, executor: Executor, workers: int, options: Mapping[str, Any]) -> int:
    """One cell's ``lab run``; the number of episodes in its folder."""
    # late: pulls numpy
    from causalcheck.lab.episode import EpisodeConfig

    # late: pulls numpy
    from causalcheck.lab.runner import run_suite

    summary = run_suite(
        cell.suite,
        cell.agent.name,
        out / cell.folder,
        seeds=[cell.seed],
        config=EpisodeConfig(**cell.budget.settings),
        agent_options=dict(cell.agent.options),
        workers=workers,
        resume=resume,
        limit=grid.limit,
        progress=False,
        command="causalcheck sweep",
        options={**options, "cell": cell.to_json()},
        executor=executor,
    )
    return sum(int(r.get("episodes", 0)) for r in summary.get("rows", []))


def _score_cell(folder: Path, executor: Executor, workers: int, options: Mapping[str, Any]) -> None:
    """``lab score`` of one finished cell into ``<cell>/score`` (default options, as the command's)."""
    # late: pulls numpy
    from causalcheck.lab.score import score_paths, write_outputs

    prov = Provenance("causalcheck sweep --score", {"paths": [str(folder / "episodes")], "out": str(folder / "score"),
                                                    **({"executor": executor.describe()} if executor.name != "local" else {})}).to_json()
    prov.pop("inputs", None)  # the report's manifest is the list of inputs
    with RunLock(folder / "score", command="causalcheck sweep --score"):
        report = score_paths([folder / "episodes"], provenance=prov, workers=workers,
                             executor=None if executor.name == "local" else executor)
        if report.internal_errors:
            raise CausalCheckError(f"scoring {folder}: {report.internal_errors} episode(s) hit a bug in causalcheck")
        if report.failures:
            raise CausalCheckError(f"scoring {folder}: {len(report.failures)} episode(s) could not be scored "
                                   f"({report.failures[0].source}: {report.failures[0].reason.splitlines()[0]})")
        write_outputs(report, folder / "score")


def run_sweep(
    grid: Grid,
    out_dir: str | Path,
    *,
    executor: Executor | None = None,
    workers: int = 1,
    resume: bool = False,
    score: bool = False,
    options: Mapping[str, Any] | None = None,
    log: Callable[[str], None] = lambda s: None,
) -> SweepResult:
    """Run every cell of *grid* not yet done into *out_dir* (module docstring); *log* hears a line per cell."""
    runner: Executor = executor if executor is not None else LocalExecutor(workers)
    out = Path(out_dir)
    opts = dict(options) if options is not None else {"grid": grid.source, "resume": resume, "score": score}
    with RunLock(out, command="causalcheck sweep"):
        inputs = suite_hashes(grid)
        old = _old_manifest(out, grid, resume, inputs)
        prov = Provenance("causalcheck sweep", {**opts, "executor": runner.describe()})
        prov.add_input(grid.source)
        cells: list[dict[str, Any]] = []
        for cell in grid.cells:
            before = old.get(cell.index, {})
            same = before.get("folder") == cell.folder
            entry = {**cell.to_json(), "status": before.get("status", "pending") if same else "pending"}
            for key in ("episodes", "scored", "error"):
                if same and key in before and entry["status"] != "pending":
                    entry[key] = before[key]
            cells.append(entry)
        _write_manifest(out, grid, cells, prov, inputs)
        last = [time.monotonic()]

        def checkpoint() -> None:  # at most every CHECKPOINT_SECONDS: the journal holds the cells since
            if time.monotonic() - last[0] >= CHECKPOINT_SECONDS:
                _write_manifest(out, grid, cells, prov, inputs)
                last[0] = time.monotonic()

        try:
            _run_cells(grid, cells, out, score=score, resume=resume, executor=runner, workers=workers, opts=opts, log=log,
                       after=checkpoint)
        finally:  # done, failed or interrupted: sweep.json says where every cell stands
            _write_manifest(out, grid, cells, prov, inputs)
    return SweepResult(tuple(cells))


def _run_cells(
    grid: Grid, cells: list[dict[str, Any]], out: Path, *, score: bool, resume: bool, executor: Executor, workers: int,
    opts: Mapping[str, Any], log: Callable[[str], None], after: Callable[[], None],
) -> None:
    """Run the cells not done, in grid order; each finished cell's status is journalled, then *after* runs."""
    for cell, entry in zip(grid.cells, cells, strict=True):
        folder = out / cell.folder
        if entry["status"] == "done" and (folder / "summary.json").is_file() and (not score or entry.get("scored")):
            continue
        try:
            if entry["status"] != "done" or not (folder / "summary.json").is_file():
                entry["episodes"] = _run_cell(cell, grid, out, resume, executor, workers, opts)
            if score:
                _score_cell(folder, executor, workers, opts)
                entry["scored"] = True
            entry["status"] = "done"
            entry.pop("error", None)
            log(f"cell {cell.index + 1}/{len(grid.cells)} {cell.folder}: done ({entry['episodes']} episodes)")
        except CausalCheckError as exc:
            entry["status"], entry["error"] = "failed", str(exc)
            log(f"cell {cell.index + 1}/{len(grid.cells)} {cell.folder}: failed: {exc}")
        line = {"index": cell.index, **{k: entry[k] for k in _JOURNAL_KEYS if k in entry}}
        append_line(out / JOURNAL, json.dumps(line, ensure_ascii=False, allow_nan=False))
        after()


def progress_log(text: str) -> None:
    """The command's log: a line per cell on stderr."""
    print(f"causalcheck: sweep: {text}", file=sys.stderr, flush=True)
