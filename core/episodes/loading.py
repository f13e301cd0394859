"""Finding and loading episodes: one entry point per question.

* :func:`read_episode` / :func:`episode_from_text` — whatever a path or text holds, as an
  :class:`~causalcheck.episodes.model.Episode` (a finished lab trajectory as one, any other
  layout as records; a folder by its record file, :func:`~causalcheck.episodes.files.find_record_file`);
  this is what ``causalcheck check`` reads.
* :func:`load_records` / :func:`records_from_text` — just the step records, numbered the
  way ``check`` numbers them (:data:`~causalcheck.episodes.model.CHECK_NUMBERING`).
* :func:`discover_episodes` and :func:`load_episode` — every scorable episode under some
  paths (official seed folders at any depth, our trajectory files), as ``lab score`` reads them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal

from causalcheck.episodes.files import find_record_file, read_text
from causalcheck.episodes.inspect_logs import (
    inspect_episode_refs,
    is_inspect_log,
    load_inspect_episode,
)
from causalcheck.episodes.model import CHECK_NUMBERING, Episode, Numbering, Step, Unparsed
from causalcheck.episodes.official import is_run_folder, load_run_folder
from causalcheck.episodes.recordfiles import records_episode
from causalcheck.episodes.trajectory import (
    read_trajectory,
    trajectory_episode,
    trajectory_from_text,
)
from causalcheck.errors import CausalCheckError, InputFormatError
from causalcheck.records import StepRecord

__all__ = [
    "DiscoveredKind",
    "discover_episodes",
    "episode_from_text",
    "load_episode",
    "load_records",
    "numbered_record",
    "read_episode",
    "records_from_text",
]

#: What :func:`discover_episodes` found: an official seed folder, one of our trajectory
#: files, a lab sample of an inspect log (:mod:`~causalcheck.episodes.inspect_logs`), or a
#: path that does not exist.
DiscoveredKind = Literal["official", "trajectory", "inspect", "missing"]


def _looks_like_trajectory(text: str) -> bool:
    """True when the first line of *text* is a lab trajectory header (cheap, before decoding)."""
    first = text.lstrip()[:4096].split("\n", 1)[0]
    return first.startswith("{") and '"header"' in first and '"type"' in first


def _check_strict(ep: Episode) -> Episode:
    for step in ep.steps:
        if isinstance(step.record, Unparsed):
            if step.record.error is not None:
                raise step.record.error
            raise InputFormatError(step.record.reason)  # pragma: no cover - readers keep the error
    return ep


def episode_from_text(text: str, *, source: str = "<string>", strict: bool = False) -> Episode:
    """The episode in *text*: a finished lab trajectory, else records in any layout.

    With *strict* a step whose output cannot be parsed raises its parse error instead of
    becoming an :class:`~causalcheck.episodes.model.Unparsed` step.
    """
    ep: Episode | None = None
    if _looks_like_trajectory(text):
        try:
            ep = trajectory_episode(trajectory_from_text(text, source=source), source=source)
        except CausalCheckError:
            ep = None  # not a finished trajectory (no summary, ...): its step lines are read as records
    if ep is None:
        ep = records_episode(text, source=source)
    return _check_strict(ep) if strict else ep


def read_episode(path: str | Path, *, strict: bool = False) -> Episode:
    """:func:`episode_from_text` of a file; a folder is read through its record file (``raw_io.jsonl`` first)."""
    p = Path(path)
    if p.is_dir():
        p = find_record_file(p)
    return episode_from_text(read_text(p), source=str(p), strict=strict)


def numbered_record(step: Step, numbering: Numbering = CHECK_NUMBERING) -> StepRecord | Unparsed:
    """The step's record with ``.step`` set to its number in *numbering* (a step without output is :class:`Unparsed`)."""
    n = step.number(numbering)
    rec = step.record
    if rec is None:
        return Unparsed(f"the source has no output for step {n}", step=n)
    return dataclasses.replace(rec, step=n)


def records_from_text(text: str, *, source: str = "<string>", strict: bool = False) -> list[StepRecord | Unparsed]:
    """The step records of *text* (see :func:`load_records`)."""
    return [numbered_record(s) for s in episode_from_text(text, source=source, strict=strict).steps]


def load_records(path: str | Path, *, strict: bool = False) -> list[StepRecord | Unparsed]:
    """Every step record of a record file, JSONL, lab trajectory, ``raw_io.jsonl`` or run folder.

    ``.step`` is the file's own step label where it has one, else the 1-based position
    (:data:`~causalcheck.episodes.model.CHECK_NUMBERING`).  A step whose output is not a
    record is an :class:`~causalcheck.episodes.model.Unparsed` marker.  Raises
    :class:`~causalcheck.errors.InputFormatError` for missing, binary or empty inputs and
    folders without records, :class:`~causalcheck.errors.DSLSyntaxError` for text that is not
    JSON; with ``strict=True`` also for any step that fails to parse.
    """
    return [numbered_record(s) for s in read_episode(path, strict=strict).steps]


# --------------------------------------------------------------------------- scoring inputs
def _is_trajectory_file(path: Path) -> bool:
    if path.name == "raw_io.jsonl" or "_tracking" in path.name:
        return False
    try:
        with path.open(encoding="utf-8") as fh:
            first = fh.readline(1 << 20)
    except (OSError, UnicodeDecodeError):
        return False
    return '"header"' in first and '"type"' in first


def discover_episodes(paths: Sequence[str | Path]) -> Iterator[tuple[DiscoveredKind, Path]]:
    """Yield ``(kind, path)`` for every episode under *paths*, in sorted order.

    ``kind`` is ``"official"`` (a seed folder, found at any depth), ``"trajectory"`` (a
    ``*.jsonl`` file whose first line is a trajectory header, or any file named directly),
    ``"inspect"`` (a lab sample of an inspect log, ``<log>#<sample id>@<epoch>``) or
    ``"missing"`` (a path that does not exist: reported, not fatal).
    """
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            yield "missing", p
            continue
        if p.is_file() and is_inspect_log(p):
            yield from (("inspect", ref) for ref in inspect_episode_refs(p))
            continue
        if p.is_file():
            yield ("official", p.parent) if p.name == "raw_io.jsonl" else ("trajectory", p)
            continue
        if is_run_folder(p):
            yield "official", p
            continue
        found: list[tuple[DiscoveredKind, Path]] = []
        for sub in sorted(p.rglob("*")):
            if sub.is_dir() and is_run_folder(sub):
                found.append(("official", sub))
            elif sub.is_file() and sub.suffix == ".jsonl" and _is_trajectory_file(sub):
                found.append(("trajectory", sub))
            elif is_inspect_log(sub):
                found.extend(("inspect", ref) for ref in inspect_episode_refs(sub))
        yield from found


def load_episode(kind: DiscoveredKind, path: Path) -> Episode:
    """Load one discovered episode (raises :class:`~causalcheck.errors.InputFormatError` with the reason)."""
    if kind == "missing":
        raise InputFormatError(f"path={str(path)!r} does not exist")
    if kind == "official":
        return load_run_folder(path)
    if kind == "inspect":
        return load_inspect_episode(path)
    return trajectory_episode(read_trajectory(path), source=str(path))

