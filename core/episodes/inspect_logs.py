"""The lab episodes an inspect run of ``causalcheck/lab`` played, read from its log.

``inspect eval causalcheck/lab`` (:mod:`causalcheck.inspect`) plays each episode with the
same loop as ``lab run`` and keeps the episode's trajectory — the header, the step lines
and the summary of a ``causalcheck-trajectory/1`` file (:mod:`causalcheck.lab.trajectory`)
— in the sample's metadata under :data:`TRAJECTORY_KEY`.  This module turns the samples of
such a log (``.eval`` or ``.json``, read by :mod:`causalcheck.inspect_logs`) into
:class:`~causalcheck.episodes.model.Episode` s, through the same
:func:`~causalcheck.episodes.trajectory.trajectory_episode` as a file, so
``causalcheck lab score LOG`` re-scores an inspect run offline with any options and gives
the numbers a trajectory folder of the same episodes gives.

An episode of a log is addressed as ``<log>#<sample id>@<epoch>`` (what
:func:`inspect_episode_refs` yields for discovery and what ``lab score`` prints as the
source).

>>> sample_trajectory({"causalcheck_trajectory": {"header": {"graph_id": "g"}, "steps": [], "summary": {}}}).header
{'graph_id': 'g'}
>>> sample_trajectory({"other": 1}) is None
True
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from causalcheck.episodes.model import Episode, InputFile
from causalcheck.episodes.trajectory import Trajectory, trajectory_episode
from causalcheck.errors import InputFormatError
from causalcheck.files import sha256_bytes
from causalcheck.inspect_logs import is_inspect_log, log_samples

__all__ = [
    "TRAJECTORY_KEY",
    "inspect_episode_refs",
    "is_inspect_log",
    "load_inspect_episode",
    "sample_episode",
    "sample_trajectory",
]

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


def sample_episode(metadata: Mapping[str, Any], source: str) -> Episode:
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


def load_inspect_episode(ref: str | Path) -> Episode:
    """The episode a reference from :func:`inspect_episode_refs` names."""
    m = _REF.match(str(ref))
    if m is None:
        raise InputFormatError(f"ref={str(ref)!r} must look like <log>.eval#<sample id>@<epoch>")
    log, sample_id, epoch = m.group("log"), m.group("id"), int(m.group("epoch"))
    _, samples = log_samples(log)
    for s in samples:
        if s.id == sample_id and s.epoch == epoch:
            if s.error and sample_trajectory(s.metadata) is None:
                raise InputFormatError(f"{ref}: the sample failed in inspect: {s.error}")
            return sample_episode(s.metadata, str(ref))
    if not sample_id:
        raise InputFormatError(f"path={log!r} holds no causalcheck lab sample (metadata {TRAJECTORY_KEY!r})")
    raise InputFormatError(f"{ref}: the log has no sample {sample_id!r} in epoch {epoch}")
