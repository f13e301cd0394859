"""Trajectory files: one JSONL file per lab episode.

A trajectory is the complete, replayable account of one episode (one graph, one seed, one
agent).  It is written by :mod:`causalcheck.lab.runner` and read by the lab scorer and by
:func:`causalcheck.trajectory.load_records`.  Every line is one JSON object with a ``type``:

``header`` (first line, exactly one)::

    {"type": "header", "format": "causalcheck-trajectory/1",
     "suite": "4nodes", "graph_id": "4nodes_0", "seed": 1, "agent": "planner",
     "config": {...the full official suite record, unchanged...},
     "budgets": {"prior_records": 2, "interventions": 12, "submissions": 3,
                 "tolerance_hz": 5.0},
     "reactor": {"props": {"density": 97, ...}, "target_freq": 156.0},
     "manipulator_initial": {"density": 39, ..., "resonanceFreq": 150.0},
     "prior_records": [{"id": "0/2", "props": {...}, "freq": 42.0}, ...],
     "options": {...the EpisodeConfig as JSON...}}

``step`` (one per agent step, ``step`` counts from 0)::

    {"type": "step", "step": 0,
     "observation": {...Observation.to_json(): what the agent saw before acting...},
     "record": {"memory": "...", "thought": "...", "past_data": [...],
                "hypothesis": {"edges": [{"from": "density", "to": "resonanceFreq"}],
                               "freq_equation": "resonanceFreq = base + c_density*density",
                               "coefficients": {"base": 25.0, "c_density": 1.0}},
                "experiment": {"target_prop": "density", "target_value": 80.0},
                ...one CausaLab action form...},
     "action": {"kind": "intervene", "prop": "density", "value": 80.0},
     "response": {"accepted": true, "message": "...", "state": {...},
                  "changed": [...], "reactor_feedback": null, ...}}

``record`` is the agent's CausaLab-format record (causalab-spec §3) exactly as emitted;
``action`` is the structured :class:`~causalcheck.lab.episode.LabAction` the environment
executed; ``response`` is the environment's answer (new manipulator state, a refusal with
its reason, or reactor feedback).

``summary`` (last line, exactly one)::

    {"type": "summary", "success": true, "interventions_used": 3,
     "submissions_used": 1, "steps": 5, "final_hypothesis": {...},
     "reactor_submitted": 156.0, "reactor_target": 156.0,
     "reactor_abs_error_true": 0.0, "done_reason": "reactor-activated"}

``reactor_abs_error_true`` is measured against the simulator's true target frequency F*
(the official scorer compares against the reactor's own display, causalab-spec §4.6; we
fix that).  It is ``null`` when nothing was submitted.

Files are written atomically (temporary file + rename), so a file that exists is complete.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from causalcheck.errors import InputFormatError

__all__ = ["TRAJECTORY_FORMAT", "Trajectory", "read_trajectory", "write_trajectory"]

#: Value of the header's ``format`` key.
TRAJECTORY_FORMAT = "causalcheck-trajectory/1"


@dataclass(frozen=True)
class Trajectory:
    """A parsed trajectory file: the header, the step lines and the summary (all JSON dicts)."""

    header: Mapping[str, Any]
    steps: tuple[Mapping[str, Any], ...] = ()
    summary: Mapping[str, Any] = field(default_factory=dict)

    @property
    def records(self) -> list[Mapping[str, Any]]:
        """The agent's CausaLab-format records, one per step."""
        return [s.get("record") or {} for s in self.steps]

    def lines(self) -> list[dict[str, Any]]:
        """Every line of the file as a JSON object, in file order."""
        return [
            {"type": "header", **dict(self.header)},
            *({"type": "step", **dict(s)} for s in self.steps),
            {"type": "summary", **dict(self.summary)},
        ]


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def atomic_write_text(path: Path, text: str) -> None:
    """Write *text* to *path* through a temporary file in the same folder and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_trajectory(
    path: str | Path,
    header: Mapping[str, Any],
    steps: Iterable[Mapping[str, Any]],
    summary: Mapping[str, Any],
) -> Path:
    """Write one episode's trajectory to *path* atomically and return the path."""
    traj = Trajectory(
        {k: v for k, v in header.items() if k != "type"},
        tuple({k: v for k, v in s.items() if k != "type"} for s in steps),
        {k: v for k, v in summary.items() if k != "type"},
    )
    text = "".join(_dumps(line) + "\n" for line in traj.lines())
    out = Path(path)
    atomic_write_text(out, text)
    return out


def _parse_lines(lines: Sequence[str], source: str) -> Trajectory:
    header: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = []
    summary: dict[str, Any] | None = None
    for lineno, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputFormatError(f"{source}:{lineno}: line is not JSON ({exc.msg}): {raw[:80]!r}") from None
        if not isinstance(obj, dict):
            raise InputFormatError(f"{source}:{lineno}: line={raw[:80]!r} must be a JSON object")
        kind = obj.pop("type", None)
        if kind == "header":
            if header is not None:
                raise InputFormatError(f"{source}:{lineno}: second header line")
            header = obj
        elif kind == "step":
            steps.append(obj)
        elif kind == "summary":
            summary = obj
        else:
            raise InputFormatError(
                f"{source}:{lineno}: type={kind!r} must be one of 'header', 'step', 'summary'"
            )
    if header is None:
        raise InputFormatError(f"{source}: no header line (is this a causalcheck trajectory?)")
    if summary is None:
        raise InputFormatError(f"{source}: no summary line (the episode did not finish)")
    return Trajectory(header, tuple(steps), summary)


def read_trajectory(path: str | Path) -> Trajectory:
    """Read a trajectory file written by :func:`write_trajectory`."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputFormatError(f"cannot read trajectory path={str(p)!r}: {exc.strerror}") from None
    return _parse_lines(text.splitlines(), str(p))
