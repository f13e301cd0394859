"""Trajectory files: one JSONL file per lab episode.

A trajectory is the complete, replayable account of one episode (one graph, one seed, one
agent).  This module defines the format and writes it (:func:`write_trajectory`, used by
:mod:`causalcheck.lab.runner`); reading is the episode layer's job:
:func:`causalcheck.episodes.read_trajectory` returns the lines as a :class:`Trajectory`
(re-exported here) and :func:`causalcheck.episodes.read_episode` the typed episode that
``check``, ``lab score`` and the audit consume.  Every line is one JSON object with a ``type``:

``header`` (first line, exactly one)::

    {"type": "header", "format": "causalcheck-trajectory/1",
     "suite": "4nodes", "graph_id": "4nodes_0", "seed": 1, "agent": "planner",
     "config": {...the full official suite record, unchanged...},
     "budgets": {"prior_records": 2, "interventions": 12, "submissions": 3,
                 "tolerance_hz": 5.0},
     "reactor": {"props": {"density": 97, ...}, "target_freq": 156.0},
     "manipulator_initial": {"density": 39, ..., "resonanceFreq": 150.0},
     "prior_records": [{"id": "0/2", "props": {...}, "freq": 42.0}, ...],
     "options": {...the EpisodeConfig as JSON...},
     "agent_options": {"model": "openai/gpt-4o"}}      (only when the agent has a model)

``step`` (one per agent step; the file's ``step`` field counts from 0 — that is the format —
while every output of ``check`` and ``lab score`` numbers steps from 1, see
:data:`causalcheck.episodes.CHECK_NUMBERING`; a gap in the field means step lines were removed
and the readers warn)::

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

Files are written atomically through :func:`causalcheck.base.files.atomic_write_text` (temporary
file, fsync, rename, folder fsync; ``0666 & ~umask`` permissions), so a file that exists is
complete.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from causalcheck.base.files import atomic_write_text
from causalcheck.episodes.trajectory import Trajectory, read_trajectory

__all__ = ["TRAJECTORY_FORMAT", "Trajectory", "read_trajectory", "trajectory_text", "write_trajectory"]

#: Value of the header's ``format`` key.
TRAJECTORY_FORMAT = "causalcheck-trajectory/1"


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def write_trajectory(
    path: str | Path,
    header: Mapping[str, Any],
    steps: Iterable[Mapping[str, Any]],
    summary: Mapping[str, Any],
) -> Path:
    """Write one episode's trajectory to *path* atomically and return the path."""
    return atomic_write_text(Path(path), trajectory_text(header, steps, summary))


def trajectory_text(
    header: Mapping[str, Any],
    steps: Iterable[Mapping[str, Any]],
    summary: Mapping[str, Any],
) -> str:
    """The text :func:`write_trajectory` writes (a worker that cannot see the output folder returns it)."""
    traj = Trajectory(
        {k: v for k, v in header.items() if k != "type"},
        tuple({k: v for k, v in s.items() if k != "type"} for s in steps),
        {k: v for k, v in summary.items() if k != "type"},
    )
    return "".join(_dumps(line) + "\n" for line in traj.lines())
