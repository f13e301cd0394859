"""Reading inspect_ai evaluation logs: the one home of everything causalcheck reads from them.

An inspect log is a ``.eval`` file (a zip) or a ``.json`` file written by ``inspect eval``
running the tasks of :mod:`causalcheck.inspect` (the only package that imports inspect_ai at
module level; it *writes* logs).  This module, in the reading layer, is where logs are *read*,
in three parts:

* **the log itself** — :func:`is_inspect_log` only looks at a file's first bytes and imports
  nothing, so callers can ask it of any input; :func:`log_samples` reads a log with
  ``inspect_ai.log.read_eval_log`` (imported on first use, with an install hint when
  inspect_ai is absent), skipping events, messages and attachments, once per file and process
  while the file is unchanged, and keeps of each sample a :class:`LogSample`;
* **lab episodes** — ``inspect eval causalcheck/lab`` plays each episode with the same loop as
  ``lab run`` and keeps the episode's trajectory — the header, the step lines and the summary
  of a ``causalcheck-trajectory/1`` file (:mod:`causalcheck.lab.trajectory`) — in the sample's
  metadata under :data:`TRAJECTORY_KEY`.  :func:`sample_episode` turns such a sample into an
  :class:`~causalcheck.episodes.model.EpisodeRecord` through the same
  :func:`~causalcheck.episodes.trajectory.trajectory_episode` as a file, so
  ``causalcheck lab score LOG`` re-scores an inspect run offline with any options and gives
  the numbers a trajectory folder of the same episodes gives.  An episode of a log is
  addressed as ``<log>#<sample id>@<epoch>`` (what :func:`inspect_episode_refs` yields for
  discovery and what ``lab score`` prints as the source);
* **explain answers** — ``explain score --answers LOG`` reads a log of the
  ``causalcheck/whatif`` task (or of any task whose samples carry WhatIfBench item keys as ids)
  through :func:`inspect_answer_records` into the same
  :class:`~causalcheck.explain.data.AnswerSet` every other answers file becomes
  (:func:`causalcheck.explain.data.load_answer_sets`), so an inspect run is re-scored offline
  with any judge, parser or option and gives exactly the numbers the same answers give in any
  other file.  Each sample is one answer record ``{"id", "answer", "error", "model"}`` — the
  fields of an answers JSONL line: ``id`` is the key of the WhatIfBench item kept in the
  sample's metadata (:data:`ITEM_KEY`), else the sample id; ``answer`` is the sample's final
  output text (``output.completion``, ``""`` when the model said nothing: the item then fails
  as a missing answer, exactly as an empty answer in a JSONL file); a sample that failed in
  inspect has no answer and its error (the item fails with that reason).  ``model`` is the
  log's model (``mockllm/model``, ``openai/gpt-4o``); a log with several epochs gives one
  answer model per epoch, ``<model>@epoch<N>``.

The two metadata keys are defined here once; the tasks that write them import them from here.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "run.json").write_text('{"suite": "mini"}')
>>> _ = (folder / "log.json").write_text('{"version": 2, "status": "success", "eval": {}}')
>>> is_inspect_log(folder / "run.json"), is_inspect_log(folder / "log.json")
(False, True)
>>> sample_trajectory({"causalcheck_trajectory": {"header": {"graph_id": "g"}, "steps": [], "summary": {}}}).header
{'graph_id': 'g'}
>>> sample_trajectory({"other": 1}) is None
True
>>> item_key({"id": 7, "canonical_id": "moon-01", "question": "?"}, "7")
'moon-01'
>>> item_key(None, "12")
'12'
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.base.errors import InputFormatError, missing_extra
from causalcheck.base.files import sha256_bytes
from causalcheck.base.limits import MAX_EVAL_MEMBER_BYTES, MAX_EVAL_TOTAL_BYTES, LimitExceededError
from causalcheck.episodes.model import EpisodeRecord, InputFile
from causalcheck.episodes.trajectory import Trajectory, trajectory_episode

if TYPE_CHECKING:  # pragma: no cover
    from inspect_ai.log import EvalLog

__all__ = [
    "ITEM_KEY",
    "TRAJECTORY_KEY",
    "LogSample",
    "check_log_sizes",
    "inspect_answer_records",
    "inspect_episode_refs",
    "is_inspect_log",
    "item_key",
    "load_inspect_episode",
    "log_samples",
    "read_inspect_log",
    "sample_episode",
    "sample_trajectory",
]


_JSON_LOG = re.compile(rb'\A\s*\{\s*"version"\s*:\s*\d+\s*,')


def is_inspect_log(path: str | Path) -> bool:
    """True when *path* is an inspect log: a ``.eval`` zip, or a ``.json`` that opens like one (cheap)."""
    p = Path(path)
    if p.suffix not in (".eval", ".json") or not p.is_file():
        return False
    try:
        with p.open("rb") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    if p.suffix == ".eval":
        return head.startswith(b"PK")
    return _JSON_LOG.match(head) is not None and b'"eval"' in head


def _load_zstd() -> None:
    """Teach :mod:`zipfile` the zstd method inspect_ai writes its ``.eval`` logs with, as inspect_ai's own
    reader does: built in from Python 3.14, else the ``zipfile-zstd`` package inspect_ai depends on (its
    import registers the method; without it a zstd member fails as a damaged log)."""
    if hasattr(zipfile, "ZIP_ZSTANDARD"):
        return
    with contextlib.suppress(ImportError):  # inspect_ai (which installs it) is absent too: nothing to read
        import zipfile_zstd  # noqa: F401


#: Bytes decompressed at a time while :func:`check_log_sizes` measures a member.
_CHUNK = 1 << 20


def check_log_sizes(path: str | Path) -> None:
    """Refuse a log whose content is over the decompression limits, before inspect_ai parses it.

    A ``.eval`` zip is measured by decompressing each member in chunks and stopping at the
    limit (the sizes a zip's directory states can lie): a member over
    :data:`~causalcheck.base.limits.MAX_EVAL_MEMBER_BYTES` or a log over
    :data:`~causalcheck.base.limits.MAX_EVAL_TOTAL_BYTES` raises
    :class:`~causalcheck.base.limits.LimitExceededError` naming the file and the member; a
    ``.json`` log is measured by its size on disk against the total limit.
    """
    p = Path(path)
    try:
        if not zipfile.is_zipfile(p):
            MAX_EVAL_TOTAL_BYTES.check(p.stat().st_size, f"inspect log {str(p)!r}")
            return
        _load_zstd()
        total = 0
        with zipfile.ZipFile(p) as archive:
            for info in archive.infolist():
                size = 0
                with archive.open(info) as member:
                    while chunk := member.read(_CHUNK):
                        size += len(chunk)
                        total += len(chunk)
                        MAX_EVAL_MEMBER_BYTES.check(size, f"inspect log {str(p)!r}, member {info.filename!r} (decompressed)")
                        MAX_EVAL_TOTAL_BYTES.check(total, f"inspect log {str(p)!r} (decompressed, at member {info.filename!r})")
    except LimitExceededError:
        raise
    except Exception as exc:  # every decoder's own error (zlib.error, zstandard.ZstdError, lzma.LZMAError, BadZipFile ...): damaged input
        raise InputFormatError(f"path={str(p)!r} cannot be read as an inspect log: {type(exc).__name__}: {exc}") from exc


def read_inspect_log(path: str | Path, *, samples: bool = True) -> EvalLog:
    """The log at *path* (without events, messages and attachments); raises :class:`InputFormatError`
    (:class:`~causalcheck.base.limits.LimitExceededError` over the decompression limits, :func:`check_log_sizes`)."""
    check_log_sizes(path)
    try:
        from inspect_ai.log import read_eval_log
    except ImportError:
        raise missing_extra(f"path={str(path)!r} (an inspect_ai log)", "inspect_ai") from None
    try:
        return read_eval_log(
            str(path), header_only=not samples, exclude_fields={"events", "messages", "attachments", "store"}
        )
    except Exception as exc:  # inspect raises plain ValueError / KeyError / zip errors for damaged files
        raise InputFormatError(f"path={str(path)!r} cannot be read as an inspect log: {type(exc).__name__}: {exc}") from exc


@dataclass(frozen=True)
class LogSample:
    """What is kept of one sample of a log: its id, epoch, metadata, output text and error."""

    id: str
    epoch: int
    metadata: Mapping[str, Any]
    completion: str | None
    error: str | None


@functools.lru_cache(maxsize=4)
def _samples(path: str, mtime_ns: int, size: int) -> tuple[str, tuple[LogSample, ...]]:
    log = read_inspect_log(path)
    out = []
    for s in log.samples or []:
        text = s.output.completion if s.output is not None and s.output.choices else None
        out.append(LogSample(str(s.id), int(s.epoch), dict(s.metadata or {}), text, s.error.message if s.error else None))
    return str(log.eval.model), tuple(out)


def log_samples(path: str | Path) -> tuple[str, tuple[LogSample, ...]]:
    """``(model, samples)`` of the log at *path*, read once per process while the file is unchanged."""
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise InputFormatError(f"path={str(p)!r} cannot be read: {exc.strerror or exc}") from exc
    return _samples(str(p), st.st_mtime_ns, st.st_size)


# ---------------------------------------------------------------------- lab episodes
#: The sample-metadata key under which ``causalcheck/lab`` keeps an episode's trajectory.
TRAJECTORY_KEY = "causalcheck_trajectory"

_REF = re.compile(r"\A(?P<log>.*?\.(?:eval|json))#(?P<id>.*)@(?P<epoch>\d+)\Z", re.DOTALL)


def sample_trajectory(metadata: Mapping[str, Any]) -> Trajectory | None:
    """The trajectory a lab sample's metadata holds, or ``None`` when it holds none."""
    raw = metadata.get(TRAJECTORY_KEY)
    if not isinstance(raw, Mapping):
        return None
    header, steps, summary = raw.get("header"), raw.get("steps"), raw.get("summary")
    if not isinstance(header, Mapping) or not isinstance(steps, list) or not isinstance(summary, Mapping):
        return None
    return Trajectory(dict(header), tuple(s for s in steps if isinstance(s, Mapping)), dict(summary))


def sample_episode(metadata: Mapping[str, Any], source: str) -> EpisodeRecord:
    """The episode of a lab sample (raises :class:`InputFormatError` when it holds no trajectory)."""
    traj = sample_trajectory(metadata)
    if traj is None:
        raise InputFormatError(f"{source}: the sample holds no causalcheck trajectory (metadata {TRAJECTORY_KEY!r}); was it run by causalcheck/lab?")
    ep = trajectory_episode(traj, source=source)
    # the sample's own content identifies it (its log file holds every sample): a copy of the
    # same sample is a duplicate, two samples of one log are not
    text = json.dumps(metadata[TRAJECTORY_KEY], sort_keys=True, ensure_ascii=False, default=str).encode("utf-8")
    return dataclasses.replace(ep, inputs=(InputFile(source, sha256_bytes(text), len(text)),))


def inspect_episode_refs(path: str | Path) -> list[Path]:
    """One ``<log>#<sample id>@<epoch>`` reference per lab sample of the log (a log without any: one reference that fails to load)."""
    try:
        _, samples = log_samples(path)
    except InputFormatError:  # a damaged log: loading the reference reports why, as a failure of its own
        return [Path(f"{path}#@0")]
    refs = [Path(f"{path}#{s.id}@{s.epoch}") for s in samples if sample_trajectory(s.metadata) is not None]
    return refs or [Path(f"{path}#@0")]


def load_inspect_episode(ref: str | Path) -> EpisodeRecord:
    """The episode a reference from :func:`inspect_episode_refs` names."""
    m = _REF.match(str(ref))
    if m is None:
        raise InputFormatError(f"ref={str(ref)!r} must look like <log>.eval#<sample id>@<epoch>")
    log, sample_id, epoch = m.group("log"), m.group("id"), int(m.group("epoch"))
    log_model, samples = log_samples(log)
    for s in samples:
        if s.id == sample_id and s.epoch == epoch:
            if s.error and sample_trajectory(s.metadata) is None:
                raise InputFormatError(f"{ref}: the sample failed in inspect: {s.error}")
            ep = sample_episode(s.metadata, str(ref))
            # a trajectory that names no model was played by the log's model
            return ep if ep.model or not log_model else dataclasses.replace(ep, model=log_model)
    if not sample_id:
        raise InputFormatError(f"path={log!r} holds no causalcheck lab sample (metadata {TRAJECTORY_KEY!r})")
    raise InputFormatError(f"{ref}: the log has no sample {sample_id!r} in epoch {epoch}")


# ---------------------------------------------------------------------- explain answers
#: The sample-metadata key under which ``causalcheck/whatif`` keeps the WhatIfBench item (its JSON object).
ITEM_KEY = "whatif_item"


def item_key(raw: Any, sample_id: str) -> str:
    """The official key of the item *raw* (``canonical_id``, else ``id``), else *sample_id*."""
    if isinstance(raw, Mapping):
        key = raw.get("canonical_id") or raw.get("id")
        if isinstance(key, (str, int)) and not isinstance(key, bool) and str(key):
            return str(key)
    return sample_id


def inspect_answer_records(path: str | Path) -> list[dict[str, Any]]:
    """One answer record per sample of the log at *path* (module docstring)."""
    model, samples = log_samples(path)
    if not samples:
        raise InputFormatError(f"path={str(path)!r} is an inspect log without samples")
    several = len({s.epoch for s in samples}) > 1
    out: list[dict[str, Any]] = []
    for s in samples:
        text = None if s.error else (s.completion or "")
        out.append(
            {
                "id": item_key(s.metadata.get(ITEM_KEY), s.id),
                "answer": text,
                "error": s.error,
                "model": f"{model}@epoch{s.epoch}" if several else model,
            }
        )
    return out
