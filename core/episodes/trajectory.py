"""Reading our lab trajectories (``causalcheck-trajectory/1``, defined in :mod:`causalcheck.lab.trajectory`).

:func:`read_trajectory` returns the file's lines as a :class:`Trajectory` (header, step
lines, summary) and enforces
the layout: one header, step lines, one summary; :func:`trajectory_episode` turns that into
an :class:`~causalcheck.episodes.model.EpisodeRecord`: the agent's records parsed once, the states
the environment showed (prior records, the manipulator before and after each step) and
when, the interventions it executed, submissions, the outcome and the budgets.

Agents copy their evidence forward, so a long trajectory repeats its ``past_data`` in every
line.  A private fast path decodes a step line's ``past_data`` incrementally (only the
entries appended since the previous line) and hands the same entry objects to the record
parser, whose memo then converts each entry once; it gives up on anything unusual and the
plain reader — the one JSON stream decoder, :func:`causalcheck.base.jsontext.iter_json_spans` —
reads the file.  Tests prove both paths equal.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from causalcheck.base import safejson
from causalcheck.base.errors import InputFormatError, Notice
from causalcheck.base.jsontext import iter_json_spans
from causalcheck.episodes.config import (
    check_config,
    golden_entries,
    suite_of,
    true_target_frequency,
)
from causalcheck.episodes.files import read_input
from causalcheck.episodes.model import EpisodeRecord, InputFile, ShownState, Step, step_gap_notices
from causalcheck.episodes.reading import RecordReader
from causalcheck.graph import FREQ, normalize_node

__all__ = ["Trajectory", "read_trajectory", "trajectory_episode", "trajectory_from_text"]

_norm = functools.lru_cache(maxsize=8192)(normalize_node)


@dataclass(frozen=True)
class Trajectory:
    """The decoded lines of a trajectory file: the header, the step lines and the summary (JSON objects
    without their ``type``).  The typed view is :func:`trajectory_episode`'s."""

    header: Mapping[str, Any]
    steps: tuple[Mapping[str, Any], ...] = ()
    summary: Mapping[str, Any] = field(default_factory=dict)
    #: The file read (path, SHA-256, size) when the trajectory came from :func:`read_trajectory`.
    inputs: tuple[InputFile, ...] = field(default=(), compare=False, repr=False)

    def lines(self) -> list[dict[str, Any]]:
        """Every line of the file as a JSON object, in file order."""
        return [
            {"type": "header", **dict(self.header)},
            *({"type": "step", **dict(s)} for s in self.steps),
            {"type": "summary", **dict(self.summary)},
        ]


# --------------------------------------------------------------------------- the file
def read_trajectory(path: str | Path) -> Trajectory:
    """Read a trajectory file written by :func:`causalcheck.lab.trajectory.write_trajectory`.

    Raises :class:`~causalcheck.base.errors.InputFormatError` for a missing or unreadable file,
    a line that is not a typed object, a missing header or summary (an unfinished episode),
    and :class:`~causalcheck.base.errors.DSLSyntaxError` (file, line, column, caret) for text that
    is not JSON.
    """
    p = Path(path)
    text, info = read_input(p)
    return dataclasses.replace(trajectory_from_text(text, source=str(p)), inputs=(info,))


def trajectory_from_text(text: str, *, source: str = "<string>", fast: bool = True) -> Trajectory:
    """:func:`read_trajectory` of the text of a file.

    *fast* (the default) tries the incremental decoder first (module docstring); ``False``
    reads with the plain decoder only.  Both give equal results, or the plain decoder's error.
    """
    found = _read_fast(text) if fast else None
    return found if found is not None else _read_plain(text, source)


def _read_plain(text: str, source: str) -> Trajectory:
    """The reference reader: every JSON value of the text, each a typed line."""
    lines = _Lines()
    line, counted = 1, 0
    for start, obj in iter_json_spans(text, source=source):
        line += text.count("\n", counted, start)  # counted incrementally: linear in the file
        counted = start
        where = f"{source}:{line}"
        if not isinstance(obj, dict):
            raise InputFormatError(f"{where}: value={json.dumps(obj)[:80]!r} must be a JSON object")
        problem = lines.add(obj)
        if problem is not None:
            raise InputFormatError(f"{where}: {problem}")
    if lines.header is None:
        raise InputFormatError(f"{source}: no header line (is this a causalcheck trajectory?)")
    if lines.summary is None:
        raise InputFormatError(f"{source}: no summary line (the episode did not finish)")
    return Trajectory(lines.header, tuple(lines.steps), lines.summary)


@dataclass
class _Lines:
    """The typed lines of a trajectory file, filed one JSON object at a time (by both readers)."""

    header: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] | None = None

    def add(self, obj: dict[str, Any]) -> str | None:
        """File *obj* by its ``type`` key (removed from it); what is wrong with the line, or ``None``."""
        kind = obj.pop("type", None)
        if kind == "header":
            if self.header is not None:
                return "second header line"
            self.header = obj
        elif kind == "step":
            self.steps.append(obj)
        elif kind == "summary":
            self.summary = obj
        else:
            return f"type={kind!r} must be one of 'header', 'step', 'summary'"
        return None


_PAST_DATA_KEY = '"past_data":'
_JSON_WS = re.compile(r"[ \t\n\r]*")
# a lone surrogate can only come from a \\u escape of a surrogate: such a file goes to the plain reader


def _decode_step_line(
    raw: str, decoder: json.JSONDecoder, prev: tuple[str, list[Any]] | None
) -> tuple[Any, tuple[str, list[Any]] | None]:
    """``json.loads(raw)`` for a step line, decoding the record's ``past_data`` incrementally.

    A step's ``past_data`` array usually starts with the exact text of the previous step's
    array: only the new elements are decoded and the previous elements (equal values,
    decoded from identical text) are reused, so consecutive records share those element
    objects (records are read-only).  The array's span is replaced by ``NaN`` for decoding
    the rest of the line; that the NaN lands at ``record.past_data`` proves the span was that
    value.  Anything unusual raises ``ValueError`` and the caller decodes the line plainly.
    Returns the object and ``(array text, elements)`` for the next line.
    """
    k = raw.find(_PAST_DATA_KEY)
    if k == -1 or "NaN" in raw:
        raise ValueError("no past_data key, or NaN in the line")
    s = _JSON_WS.match(raw, k + len(_PAST_DATA_KEY)).end()  # type: ignore[union-attr]
    if raw[s : s + 1] != "[":
        raise ValueError("past_data is not an array")
    items: list[Any]
    if prev is not None and prev[1] and raw.startswith(prev[0], s):
        items = list(prev[1])
        j = s + len(prev[0])
        ws = _JSON_WS.match
        while True:
            j = ws(raw, j).end()  # type: ignore[union-attr]
            c = raw[j : j + 1]
            if c == "]":
                end = j + 1
                break
            if c != ",":
                raise ValueError("unexpected text in past_data")
            value, j = decoder.raw_decode(raw, ws(raw, j + 1).end())  # type: ignore[union-attr]
            items.append(value)
    else:
        value, end = decoder.raw_decode(raw, s)
        if not isinstance(value, list):
            raise ValueError("past_data is not an array")
        items = value
    obj = json.loads(raw[:s] + "NaN" + raw[end:])
    rec = obj.get("record") if isinstance(obj, dict) else None
    if not isinstance(rec, dict):
        raise ValueError("no record object")
    placed = rec.get("past_data")
    if not isinstance(placed, float) or placed == placed:
        raise ValueError("past_data span is not the record's")
    rec["past_data"] = items
    return obj, (raw[s : end - 1], items)


def _read_fast(text: str) -> Trajectory | None:
    """:func:`_read_plain` for a well-formed file (one JSON object per line), faster.

    Returns ``None`` for anything it does not handle (a line that is not one JSON object, a
    missing or repeated header, ...): the caller then uses the plain reader, which reads it
    or raises its usual error.
    """
    decoder = json.JSONDecoder()
    lines = _Lines()
    prev: tuple[str, list[Any]] | None = None
    checked: set[int] = set()
    if "\\u" in text and safejson.has_surrogate_escape(text):
        return None  # the plain reader refuses it with the safe decoder's message
    for raw in text.split("\n"):
        if not raw.strip():
            continue
        try:
            obj, prev = _decode_step_line(raw, decoder, prev)
        except (ValueError, IndexError, RecursionError):
            try:
                obj = json.loads(raw)
            except (ValueError, RecursionError):
                return None
            prev = None
        # numbers and depth, as the safe decoder checks them (entries shared with the previous
        # line were checked there); anything refused goes to the plain reader for the message
        if not safejson.plain_value_ok(obj, skip=checked):
            return None
        if prev is not None:
            checked.update(id(item) for item in prev[1] if type(item) is dict or type(item) is list)
        if not isinstance(obj, dict) or lines.add(obj) is not None:
            return None
    if lines.header is None or lines.summary is None:
        return None
    return Trajectory(lines.header, tuple(lines.steps), lines.summary)


# --------------------------------------------------------------------------- the episode
def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        v = float(value)
    except OverflowError:  # an integer beyond float range (only from API callers: files are safe-decoded)
        return None
    return v if math.isfinite(v) else None


def _step_warnings(traj: Trajectory, labels: list[int | None], source: str) -> list[Notice]:
    """Problems that show step lines are missing: a gap in the 0-based step fields, or a count
    that disagrees with the summary's ``steps``."""
    out = step_gap_notices(
        labels,
        0,
        entry=lambda n: f"{source}: step line {n}",
        missing=lambda label: "no integer 'step' field",
        why="(the trajectory's step fields count from 0 without gaps: step lines were removed or reordered)",
    )
    recorded = traj.summary.get("steps")
    if type(recorded) is int and recorded != len(labels):
        out.append(Notice(
            f"{source}: the summary records steps={recorded} but the file holds {len(labels)} step line(s) "
            "(step lines were removed or added)",
            "steps-missing",
        ))
    return out[:20]


def _is_map(value: Any) -> TypeGuard[Mapping[str, Any]]:
    return type(value) is dict or isinstance(value, Mapping)


def _state_of(obj: Any) -> tuple[dict[str, float], float | None] | None:
    if not _is_map(obj):
        return None
    if "props" in obj and isinstance(obj.get("props"), Mapping):
        props = {_norm(str(k)): v for k, v in obj["props"].items() if _num(v) is not None}
        return {k: float(v) for k, v in props.items()}, _num(obj.get("freq"))
    values: dict[str, float] = {}
    for k, v in obj.items():
        t = type(v)
        if t is float or t is int or _num(v) is not None:
            values[_norm(k if type(k) is str else str(k))] = float(v)
    if not values:
        return None
    freq = values.pop(FREQ, None)
    return values, freq


def _header_states(header: Mapping[str, Any]) -> list[ShownState]:
    """The states shown before the first step: the header's prior records and the manipulator's initial state."""
    shown: list[ShownState] = []
    priors = header.get("prior_records")
    for k, rec in enumerate(priors if isinstance(priors, list) else []):
        st = _state_of(rec)
        if st:
            shown.append(ShownState(st[0], st[1], f"prior record {k + 1}", 0))
    init = _state_of(header.get("manipulator_initial"))
    if init:
        shown.append(ShownState(init[0], init[1], "manipulator initial state", 0))
    return shown


def _step_of(i: int, line: Mapping[str, Any], reader: RecordReader, source: str, shown: list[ShownState]) -> Step:
    """Step *i* of a trajectory: its record, the intervention or submission the environment accepted; adds what it showed to *shown*."""
    label_raw = line.get("step")
    label = label_raw if type(label_raw) is int else None
    where = f"{source} (step {label if label is not None else i + 1})"
    record = reader.read(line.get("record"), where)
    action = line.get("action")
    if not _is_map(action):
        action = {}
    response = line.get("response")
    if not _is_map(response):
        response = {}
    accepted = bool(response.get("accepted", True))
    intervention = None
    submission = None
    kind = str(action.get("kind", ""))
    if kind == "intervene" and accepted:
        prop, value = action.get("prop"), _num(action.get("value"))
        if isinstance(prop, str) and value is not None:
            intervention = (_norm(prop), value)
    if kind in ("submit_frequency", "submit") and accepted:
        submission = _num(response.get("submitted"))
        if submission is None:
            submission = _num(action.get("value"))
    obs = line.get("observation")
    seen = _state_of(obs.get("state")) if _is_map(obs) else None
    if seen:
        shown.append(ShownState(seen[0], seen[1], f"manipulator before step {i + 1}", i))
    st = _state_of(response.get("state"))
    if st and accepted:
        shown.append(ShownState(st[0], st[1], f"manipulator after step {i + 1}", i + 1))
    return Step(i, label, record, intervention, submission)


def _reactor(header: Mapping[str, Any], config: Mapping[str, Any] | None) -> tuple[dict[str, float] | None, float | None]:
    """``(reactor properties, true target frequency)`` from the header; F* recomputed from the config when not recorded."""
    raw_reactor = header.get("reactor")
    reactor: Mapping[str, Any] = raw_reactor if _is_map(raw_reactor) else {}
    rprops = reactor.get("props") if isinstance(reactor.get("props"), Mapping) else None
    reactor_props = {str(k): float(v) for k, v in rprops.items() if _num(v) is not None} if rprops else None
    target = _num(reactor.get("target_freq"))
    if target is None and reactor_props and config is not None:
        target = true_target_frequency(config, reactor_props)
    return reactor_props, target


def trajectory_episode(traj: Trajectory, *, source: str = "<trajectory>", memo: bool = True) -> EpisodeRecord:
    """The episode of a read trajectory (see the module docstring).

    Never raises for content: a step whose record cannot be read becomes an
    :class:`~causalcheck.episodes.model.Unparsed` marker; an unusable header ``config`` is
    reported by :meth:`EpisodeRecord.require_config`.  *memo* converts repeated record parts once
    (:class:`~causalcheck.episodes.reading.RecordReader`); the result is the same without it.
    """
    header = traj.header
    config: Mapping[str, Any] | None
    config_error: str | None = None
    try:
        config = check_config(header.get("config"), f"{source}: header")
    except InputFormatError as exc:
        config, config_error = None, str(exc)
    shown = _header_states(header)
    reader = RecordReader(memo=memo)
    steps: list[Step] = []
    labels: list[int | None] = []
    for i, line in enumerate(traj.steps):
        step = _step_of(i, line, reader, source, shown)
        labels.append(step.label)
        steps.append(step)
    reactor_props, target = _reactor(header, config)
    raw_budgets = header.get("budgets")
    budgets: Mapping[str, Any] = raw_budgets if _is_map(raw_budgets) else {}
    summary = traj.summary
    success = summary.get("success")
    cfg = config or {}
    graph_id = str(header.get("graph_id") or cfg.get("graph_id") or Path(source).stem)

    def count(value: Any) -> int | None:
        return value if type(value) is int else None

    agent_options = header.get("agent_options")
    model = agent_options.get("model") if _is_map(agent_options) else None
    if not isinstance(model, str) or not model:  # the header's own (causalcheck/lab under inspect writes it there)
        model = header.get("model")

    return EpisodeRecord(
        source=source,
        kind="trajectory",
        steps=tuple(steps),
        config=config,
        suite=str(header.get("suite") or suite_of(graph_id)),
        graph_id=graph_id,
        experiment_id=graph_id,
        seed=str(header.get("seed", "")),
        golden=golden_entries(config),
        shown=tuple(shown),
        reactor_props=reactor_props,
        target_freq=target,
        success=success if isinstance(success, bool) else None,
        intervention_budget=count(budgets.get("interventions")) if count(budgets.get("interventions")) is not None else count(cfg.get("budget")),
        submission_budget=count(budgets.get("submissions")),
        submissions_used=count(summary.get("submissions_used")),
        interventions_used=count(summary.get("interventions_used")),
        extras={"agent": header.get("agent"), "done_reason": summary.get("done_reason")},
        config_error=config_error,
        warnings=tuple(_step_warnings(traj, labels, source)),
        agent=str(header["agent"]) if isinstance(header.get("agent"), str) else "",
        model=model if isinstance(model, str) else "",
        inputs=traj.inputs,
    )
