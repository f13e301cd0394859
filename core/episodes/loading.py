"""Finding and loading episodes: one entry point per question.

* :func:`read_episode` / :func:`episode_from_text` — whatever a path or text holds, as an
  :class:`~causalcheck.episodes.model.EpisodeRecord` (a finished lab trajectory as one, any other
  layout as records; a folder by its record file, :func:`~causalcheck.episodes.files.find_record_file`);
  this is what ``causalcheck check`` reads.
* :func:`load_records` / :func:`records_from_text` — just the step records, numbered the
  way ``check`` numbers them (:data:`~causalcheck.episodes.model.CHECK_NUMBERING`).
* :func:`discover_episodes` and :func:`load_episode` — every scorable episode under some
  paths (official seed folders at any depth, our trajectory files), as ``lab score`` reads them.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.episodes.files import find_record_file, read_text
from causalcheck.episodes.inspect_logs import (
    inspect_episode_refs,
    is_inspect_log,
    load_inspect_episode,
)
from causalcheck.episodes.model import CHECK_NUMBERING, EpisodeRecord, Numbering, Step, Unparsed
from causalcheck.episodes.official import is_run_folder, load_run_folder
from causalcheck.episodes.recordfiles import records_episode
from causalcheck.episodes.trajectory import (
    read_trajectory,
    trajectory_episode,
    trajectory_from_text,
)
from causalcheck.records import StepRecord

__all__ = [
    "OWN_OUTPUTS",
    "Discovered",
    "DiscoveredKind",
    "discover_episodes",
    "discover_inputs",
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


def _check_strict(ep: EpisodeRecord) -> EpisodeRecord:
    for step in ep.steps:
        if isinstance(step.record, Unparsed):
            if step.record.error is not None:
                raise step.record.error
            raise InputFormatError(step.record.reason)  # pragma: no cover - readers keep the error
    return ep


def episode_from_text(text: str, *, source: str = "<string>", strict: bool = False) -> EpisodeRecord:
    """The episode in *text*: a finished lab trajectory, else records in any layout.

    With *strict* a step whose output cannot be parsed raises its parse error instead of
    becoming an :class:`~causalcheck.episodes.model.Unparsed` step.
    """
    ep: EpisodeRecord | None = None
    if _looks_like_trajectory(text):
        try:
            ep = trajectory_episode(trajectory_from_text(text, source=source), source=source)
        except CausalCheckError:
            ep = None  # not a finished trajectory (no summary, ...): its step lines are read as records
    if ep is None:
        ep = records_episode(text, source=source)
    return _check_strict(ep) if strict else ep


def read_episode(path: str | Path, *, strict: bool = False) -> EpisodeRecord:
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
    :class:`~causalcheck.base.errors.InputFormatError` for missing, binary or empty inputs and
    folders without records, :class:`~causalcheck.base.errors.DSLSyntaxError` for text that is not
    JSON; with ``strict=True`` also for any step that fails to parse.
    """
    return [numbered_record(s) for s in read_episode(path, strict=strict).steps]


# --------------------------------------------------------------------------- scoring inputs
#: Files causalcheck itself writes into run and result folders: never episodes, never listed.
OWN_OUTPUTS = frozenset(
    {"run.json", "summary.json", "summary.md", "scores.json", "episodes.csv", "steps.csv", "inputs.csv", ".causalcheck.lock"}
)
#: Bytes of a ``*.jsonl`` file's first line read to tell a trajectory from other JSON lines.
FIRST_LINE_BYTES = 1 << 20


@dataclass(frozen=True)
class Discovered:
    """One input found under the paths given: an episode to load, or a file that is not one.

    ``kind``: ``"official"`` (a seed folder), ``"trajectory"`` (one of our trajectory files),
    ``"inspect"`` (a lab sample of an inspect_ai log, ``<log>#<sample id>@<epoch>``), ``"missing"`` (a path that does not exist), ``"failed"`` (a file that should be an
    episode but cannot be: empty, unreadable, not UTF-8, a trajectory without its header —
    ``reason`` says which), ``"skipped"`` (a JSON file that is not an episode, with the reason).
    """

    kind: Literal["official", "trajectory", "inspect", "missing", "failed", "skipped"]
    path: Path
    reason: str = ""


def _classify_jsonl(path: Path) -> Discovered:
    """Trajectory, failed or skipped: judged from the first line of a ``*.jsonl`` file."""
    import json
    import stat

    try:
        st = path.stat()
        if not stat.S_ISREG(st.st_mode):
            return Discovered("failed", path, "not a regular file (a pipe, device or socket); only files are read")
        if st.st_size == 0:
            return Discovered("failed", path, "the file is empty (an episode file holds a header, steps and a summary)")
        with path.open("rb") as fh:
            first_raw = fh.readline(FIRST_LINE_BYTES)
    except OSError as exc:
        return Discovered("failed", path, f"cannot be read: {exc.strerror or exc}")
    try:
        first = first_raw.decode("utf-8-sig").strip()
    except UnicodeDecodeError as exc:
        return Discovered("failed", path, f"not UTF-8 text (byte {first_raw[exc.start]:#04x} at offset {exc.start})")
    if not first:
        return Discovered("failed", path, "the first line is empty (an episode file starts with its header line)")
    if '"header"' in first and '"type"' in first:
        return Discovered("trajectory", path)
    try:
        value = json.loads(first)
    except (ValueError, RecursionError):
        if first.startswith("{") and ('"type"' in first or len(first_raw) >= FIRST_LINE_BYTES):
            return Discovered("trajectory", path)  # a long or damaged line: the reader names the problem
        return Discovered("failed", path, f"the first line is not JSON: {first[:60]!r}")
    if isinstance(value, dict) and value.get("type") in ("step", "summary"):
        return Discovered("failed", path, "a trajectory without its header line (the first line is a step or summary)")
    shown = sorted(map(str, value))[:5] if isinstance(value, dict) else type(value).__name__
    return Discovered("skipped", path, f"not a causalcheck trajectory (first line holds {shown!r})")


def discover_inputs(paths: Sequence[str | Path]) -> Iterator[Discovered]:
    """Every input under *paths*, in sorted order: episodes, and the files that are not (with why).

    Seed folders are found at any depth (their files belong to them); ``*.jsonl`` files
    are judged from their first line (:class:`Discovered`); other ``*.json`` files are
    ``skipped``; causalcheck's own outputs (:data:`OWN_OUTPUTS`, temporary files) and files
    of other types are not listed.  A path given directly is always an episode (or missing).
    """
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            yield Discovered("missing", p, f"path={str(p)!r} does not exist")
            continue
        if not p.is_dir():
            if is_inspect_log(p):
                yield from (Discovered("inspect", ref) for ref in inspect_episode_refs(p))
            elif p.name == "raw_io.jsonl":
                yield Discovered("official", p.parent)
            else:
                yield Discovered("trajectory", p)
            continue
        if is_run_folder(p):
            yield Discovered("official", p)
            continue
        found: list[Discovered] = []
        _walk(p, _entries(str(p)), found)
        found.sort(key=lambda d: d.path.parts)  # the order of sorted(rglob): path components compared
        yield from found


def _entries(folder: str) -> list[os.DirEntry[str]]:
    """The entries of *folder* (``[]`` when it cannot be listed, as ``os.walk`` skips it)."""
    try:
        with os.scandir(folder) as it:
            return list(it)
    except OSError:
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def _walk(here: Path, entries: list[os.DirEntry[str]], found: list[Discovered]) -> None:
    """The inputs under the folder *here* whose listing is *entries*, appended to *found* (unsorted).

    One ``scandir`` per folder: a sub-folder's listing decides whether it is a seed folder (whose
    files belong to it: not walked) and is then walked; a symbolic link to a folder is a seed
    folder or nothing, as ``os.walk`` does not follow it.
    """
    for entry in entries:
        name = entry.name
        sub = here / name
        if _is_dir(entry):
            inner = _entries(entry.path)
            names = sorted(e.name for e in inner if not e.name.startswith("."))
            files = {e.name for e in inner if e.name in ("raw_io.jsonl", "graph_config.json") and _is_file(e)}
            if is_run_folder(sub, names, files=files):
                found.append(Discovered("official", sub))
            elif not entry.is_symlink():
                _walk(sub, inner, found)
            continue
        if name in OWN_OUTPUTS or name.startswith("."):
            continue
        if name.endswith(".jsonl"):
            found.append(_classify_jsonl(sub))
        elif name.endswith((".eval", ".json")) and is_inspect_log(sub):
            found.extend(Discovered("inspect", ref) for ref in inspect_episode_refs(sub))
        elif name.endswith(".json"):
            found.append(Discovered("skipped", sub, "not an episode (episodes are *.jsonl trajectories and seed folders)"))


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def discover_episodes(paths: Sequence[str | Path]) -> Iterator[tuple[DiscoveredKind, Path]]:
    """Yield ``(kind, path)`` for every episode under *paths*, in sorted order.

    ``kind`` is ``"official"`` (a seed folder, found at any depth), ``"trajectory"`` (a
    ``*.jsonl`` file whose first line is a trajectory header, or any file named directly),
    ``"inspect"`` (a lab sample of an inspect log, ``<log>#<sample id>@<epoch>``) or
    ``"missing"`` (a path that does not exist: reported, not fatal).  The files that are not
    episodes are listed by :func:`discover_inputs`.
    """
    for d in discover_inputs(paths):
        if d.kind in ("official", "trajectory", "inspect", "missing"):
            yield d.kind, d.path


def load_episode(kind: DiscoveredKind, path: Path) -> EpisodeRecord:
    """Load one discovered episode (raises :class:`~causalcheck.base.errors.InputFormatError` with the reason)."""
    if kind == "missing":
        raise InputFormatError(f"path={str(path)!r} does not exist")
    if kind == "official":
        return load_run_folder(path)
    if kind == "inspect":
        return load_inspect_episode(path)
    return trajectory_episode(read_trajectory(path), source=str(path))

