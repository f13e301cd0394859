"""Read lab episodes for scoring: official CausaLab run folders and our own trajectories.

Both sources become one value, :class:`EpisodeData`: the true graph config, every agent
record in step order, what the environment *showed* the agent and when (prior records, each
manipulator state, the reactor crystal's properties), the interventions actually executed,
submissions, and the outcome.  The scorer (:mod:`causalcheck.lab.score`) and the evidence
audit (:mod:`causalcheck.lab.audit`) work on that value only.

Official run folders (causalab-spec §5.3) hold, per seed directory:

* ``graph_config.json`` — the true graph (required);
* ``raw_io.jsonl`` — ``{step, raw_input, raw_output}`` objects, **concatenated pretty-printed
  JSON** (not one object per line), read with a streaming decoder;
* ``*_tracking.jsonl`` / ``*_tracking_simple.jsonl`` — ``{dialog_box, lastActionMessage,
  action}`` objects, same layout; entry *i* pairs the record of step *i* with what the
  environment answered to it;
* ``*_complete.txt`` — ``1`` / ``0`` (task accuracy); ``*_data.json`` — run metadata.

What was shown is read from the dialog text: the manipulator's ``Crystal Analysis`` block
(``Moisture: 50.0``, ``Resonance Frequency (Hz): 114.0``, ``Uses: 1/12 (Remaining: 11)``),
the reactor's ``Crystal properties (directly shown)`` block and ``Frequency set to X Hz``,
and the prior records ``- Observation 1: {...}`` of the task text.  Without tracking files
the observation JSON embedded in the next step's ``raw_input`` is used instead.

The official folders do not contain the reactor's true frequency F*; it is recomputed from
the graph config and the reactor properties shown (the frequency's structural equation).
"""

from __future__ import annotations

import ast
import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from causalcheck.errors import InputFormatError
from causalcheck.graph import FREQ, normalize_node

_norm = functools.lru_cache(maxsize=8192)(normalize_node)

__all__ = [
    "EpisodeData",
    "ShownState",
    "StepData",
    "discover_episodes",
    "load_episode",
    "load_run_folder",
    "load_trajectory_episode",
    "read_json_stream",
    "true_target_frequency",
]


@dataclass(frozen=True)
class ShownState:
    """Values the environment displayed together (one crystal state or one prior record).

    ``visible_from`` is the first step index whose record could use it (``0`` = before the
    first step; a state shown in answer to step ``s`` has ``visible_from = s + 1``).
    """

    props: Mapping[str, float]
    freq: float | None
    label: str
    visible_from: int


@dataclass(frozen=True)
class StepData:
    """One agent step: its record (a CausaLab record dict) and what the environment did."""

    index: int
    record: Mapping[str, Any] | None
    record_error: str | None = None
    intervention: tuple[str, float] | None = None
    submission: float | None = None
    is_submit: bool = False


@dataclass(frozen=True)
class EpisodeData:
    """Everything the scorer and the audit need about one episode."""

    source: str
    kind: str  # "official" | "trajectory"
    suite: str
    graph_id: str
    experiment_id: str
    seed: str
    config: Mapping[str, Any]
    steps: tuple[StepData, ...]
    shown: tuple[ShownState, ...] = ()
    reactor_props: Mapping[str, float] | None = None
    target_freq: float | None = None
    success: bool | None = None
    intervention_budget: int | None = None
    submission_budget: int | None = None
    submissions_used: int | None = None
    warnings: tuple[str, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------- JSON streams


def read_json_stream(path: Path) -> list[Any]:
    """All JSON values of a file of concatenated (pretty-printed or one-per-line) JSON.

    Raises :class:`InputFormatError` naming the position when the file is truncated or not
    JSON (the values before the problem are not returned: a damaged file is not scored).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise InputFormatError(f"cannot read path={str(path)!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise InputFormatError(f"path={str(path)!r} is not UTF-8 text: {exc.reason}") from None
    decoder = json.JSONDecoder()
    out: list[Any] = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            return out
        try:
            value, i = decoder.raw_decode(text, i)
        except json.JSONDecodeError as exc:
            line = text.count("\n", 0, exc.pos) + 1
            raise InputFormatError(
                f"{path.name}: JSON value #{len(out) + 1} is truncated or invalid at line {line} "
                f"({exc.msg}); {len(out)} complete value(s) before it"
            ) from None
        out.append(value)


def _record_from_output(text: str) -> dict[str, Any] | None:
    """The agent record in a model output, tried in the controller's order (think blocks
    stripped, a fenced block, the whole text, then balanced objects: see ``causalcheck._extract``)."""
    from causalcheck._extract import candidates

    for cand in candidates(text):
        try:
            value = json.loads(cand.body)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    return _first_json_object(text)


def _first_json_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in *text* (code fences and prose around it are skipped)."""
    fence = re.search(r"```(?:json)?\s*(\{.*?\})\s*```", text, re.S)
    if fence:
        try:
            value = json.loads(fence.group(1))
            if isinstance(value, dict):
                return value
        except json.JSONDecodeError:
            pass
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)
    return None


# --------------------------------------------------------------------------- dialog text

_NUM = r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_USES = re.compile(r"Uses:\s*(\d+)\s*/\s*(\d+)")
_ENTER = re.compile(r"Enter new value for ([^:\n]+):")
_SAID_VALUE = re.compile(rf"You said:\s*\{{'value':\s*({_NUM})\}}")
_FREQ_SET = re.compile(rf"Frequency set to ({_NUM}) Hz")
_SUBMISSIONS = re.compile(r"Usage:\s*(\d+)\s*/\s*(\d+)\s*submissions")
_OBS_LINE = re.compile(r"^\s*-\s*Observation\s+(\d+):\s*(\{.*\})\s*$", re.M)


def _crystal_analysis(text: str, display: Mapping[str, str]) -> dict[str, float] | None:
    """Values of the last ``Crystal Analysis`` block in *text*, keyed by node name."""
    pos = text.rfind("Crystal Analysis:")
    if pos == -1:
        return None
    values: dict[str, float] = {}
    for line in text[pos:].splitlines()[1:]:
        stripped = line.strip()
        if not stripped or stripped.startswith(("─", "Uses:")):
            break
        m = re.match(rf"(.+?):\s*({_NUM})\s*$", stripped)
        if m is None:
            continue
        name = display.get(m.group(1).strip(), normalize_node(m.group(1)))
        values[name] = float(m.group(2))
    return values or None


def _reactor_props(text: str) -> dict[str, float] | None:
    pos = text.rfind("Crystal properties (directly shown):")
    if pos == -1:
        return None
    values: dict[str, float] = {}
    for line in text[pos:].splitlines()[1:]:
        m = re.match(rf"\s*-\s*([^:]+):\s*({_NUM})\s*$", line)
        if m is None:
            if values:
                break
            continue
        values[m.group(1).strip()] = float(m.group(2))
    return values or None


def _display_map(config: Mapping[str, Any]) -> dict[str, str]:
    nodes = config.get("nodes")
    out: dict[str, str] = {}
    if isinstance(nodes, Mapping):
        for key, spec in nodes.items():
            out[str(key)] = normalize_node(str(key))
            if isinstance(spec, Mapping) and isinstance(spec.get("display_name"), str):
                out[spec["display_name"]] = normalize_node(str(key))
    return out


def true_target_frequency(config: Mapping[str, Any], props: Mapping[str, float]) -> float | None:
    """F* recomputed from the frequency's ``computation`` with the shown parent values.

    ``None`` when the config has no frequency computation or a needed value is missing.
    Rounded to 2 decimals like the simulator.
    """
    from causalcheck.metrics import formula_error

    nodes = config.get("nodes")
    if not isinstance(nodes, Mapping):
        return None
    comp = None
    for key, spec in nodes.items():
        if normalize_node(str(key)) == FREQ and isinstance(spec, Mapping):
            comp = spec.get("computation")
    params = config.get("params")
    if not isinstance(comp, str) or not isinstance(params, Mapping):
        return None
    result = formula_error(comp, props, 0.0, params)
    return None if result.predicted is None else round(result.predicted, 2)


def _check_config(config: Any, source: str) -> Mapping[str, Any]:
    if not isinstance(config, Mapping):
        raise InputFormatError(f"{source}: graph config={str(config)[:60]!r} must be a JSON object")
    edges = config.get("edges")
    if not isinstance(edges, list) or not all(
        isinstance(e, Mapping) and isinstance(e.get("from"), str) and isinstance(e.get("to"), str) for e in edges
    ):
        raise InputFormatError(f"{source}: graph config edges={str(edges)[:80]!r} must be a list of {{'from', 'to'}} objects")
    return config


def _suite_of(graph_id: str) -> str:
    return re.sub(r"_\d+$", "", graph_id) or graph_id


# --------------------------------------------------------------------------- official folders


def _is_run_folder(path: Path) -> bool:
    return (
        (path / "raw_io.jsonl").is_file()
        or (path / "graph_config.json").is_file()
        or any(path.glob("*_tracking*.jsonl"))
        or any(path.glob("*_complete.txt"))
    )


def _observation_from_raw_input(raw_input: str) -> str:
    """Dialog text and last action message from the observation JSON inside a prompt."""
    pos = raw_input.rfind("Current Environment Observation")
    if pos == -1:
        return ""
    obj = _first_json_object(raw_input[pos:])
    if obj is None:
        return ""
    ui = obj.get("ui") if isinstance(obj.get("ui"), Mapping) else obj
    parts: list[str] = []
    if isinstance(ui, Mapping):
        msg = ui.get("lastActionMessage")
        if isinstance(msg, str):
            parts.append(msg)
        box = ui.get("dialog_box")
        if isinstance(box, Mapping) and isinstance(box.get("dialogIn"), str):
            parts.append(box["dialogIn"])
    return "\n".join(parts)


def load_run_folder(path: str | Path) -> EpisodeData:
    """Read one official CausaLab seed folder (see the module docstring)."""
    folder = Path(path)
    if not folder.is_dir():
        raise InputFormatError(f"run folder path={str(folder)!r} does not exist or is not a directory")
    cfg_path = folder / "graph_config.json"
    if not cfg_path.is_file():
        raise InputFormatError(f"run folder {str(folder)!r} has no graph_config.json (the true graph is needed)")
    cfg_values = read_json_stream(cfg_path)
    if len(cfg_values) != 1:
        raise InputFormatError(f"{cfg_path.name}: expected one JSON object, found {len(cfg_values)}")
    config = _check_config(cfg_values[0], str(cfg_path))
    warnings: list[str] = []

    tracking: list[Any] = []
    for pattern in ("*_tracking.jsonl", "*_tracking_simple.jsonl"):
        files = sorted(folder.glob(pattern))
        if files:
            tracking = read_json_stream(files[0])
            break
    raw_io: list[Any] = []
    if (folder / "raw_io.jsonl").is_file():
        raw_io = [o for o in read_json_stream(folder / "raw_io.jsonl") if isinstance(o, Mapping)]
    if not raw_io and not tracking:
        raise InputFormatError(f"run folder {str(folder)!r} has neither raw_io.jsonl nor a tracking file")

    # agent records, one per step: tracking actions first (the scorer's order), else raw_io
    n_steps = max(len(raw_io), len(tracking))
    records: list[Mapping[str, Any] | None] = [None] * n_steps
    errors: list[str | None] = [None] * n_steps
    for i in range(n_steps):
        rec: Any = None
        if i < len(tracking) and isinstance(tracking[i], Mapping):
            rec = tracking[i].get("action")
        if not isinstance(rec, Mapping) and i < len(raw_io):
            out = raw_io[i].get("raw_output")
            if isinstance(out, str):
                rec = _record_from_output(out)
                if rec is None:
                    errors[i] = f"step {i + 1}: raw_output has no JSON object: {out[:60]!r}"
            elif isinstance(out, Mapping):
                rec = out
        records[i] = rec if isinstance(rec, Mapping) else None

    # text the environment showed in answer to each step
    answers: list[str] = []
    for i in range(n_steps):
        if i < len(tracking) and isinstance(tracking[i], Mapping):
            t = tracking[i]
            box = t.get("dialog_box")
            text = str(t.get("lastActionMessage") or "")
            if isinstance(box, Mapping) and isinstance(box.get("dialogIn"), str):
                text += "\n" + box["dialogIn"]
            answers.append(text)
        elif i + 1 < len(raw_io) and isinstance(raw_io[i + 1].get("raw_input"), str):
            answers.append(_observation_from_raw_input(raw_io[i + 1]["raw_input"]))
        else:
            answers.append("")

    display = _display_map(config)
    shown: list[ShownState] = []
    first_prompt = raw_io[0].get("raw_input") if raw_io else None
    task_text = first_prompt if isinstance(first_prompt, str) else ""
    if not task_text:
        data_files = sorted(folder.glob("*_data.json"))
        if data_files:
            try:
                data = read_json_stream(data_files[0])
                if data and isinstance(data[0], Mapping):
                    task_text = str(data[0].get("task_description") or "")
            except InputFormatError as exc:
                warnings.append(str(exc))
    for m in _OBS_LINE.finditer(task_text):
        try:
            obs = ast.literal_eval(m.group(2))
        except (ValueError, SyntaxError):
            warnings.append(f"prior record line {m.group(0)[:60]!r} is not a dict")
            continue
        if not isinstance(obs, dict):
            continue
        values = {normalize_node(str(k)): float(v) for k, v in obs.items() if isinstance(v, (int, float))}
        freq = values.pop(FREQ, None)
        shown.append(ShownState(values, freq, f"prior record {m.group(1)}", 0))

    steps: list[StepData] = []
    pending_prop: str | None = None
    last_uses = 0
    submissions_used: int | None = None
    reactor: dict[str, float] | None = None
    budget = config.get("budget") if isinstance(config.get("budget"), int) else None
    for i in range(n_steps):
        text = answers[i]
        intervention: tuple[str, float] | None = None
        submission: float | None = None
        said = _SAID_VALUE.search(text)
        state = _crystal_analysis(text, display) if "property manipulator said" in text or "Crystal Analysis" in text else None
        uses_m = _USES.search(text)
        if uses_m:
            uses = int(uses_m.group(1))
            budget = int(uses_m.group(2))
            if uses > last_uses and said and pending_prop is not None:
                intervention = (pending_prop, float(said.group(1)))
            last_uses = max(last_uses, uses)
        if state is not None:
            freq = state.pop(FREQ, None)
            label = f"manipulator after step {i + 1}"
            shown.append(ShownState(state, freq, label, i + 1))
        enter = _ENTER.search(text)
        if enter:
            pending_prop = display.get(enter.group(1).strip(), normalize_node(enter.group(1)))
        elif intervention is not None:
            pending_prop = None
        props = _reactor_props(text)
        if props is not None:
            reactor = props
        fs = _FREQ_SET.search(text)
        sub_m = _SUBMISSIONS.search(text)
        if fs and sub_m:
            used = int(sub_m.group(1))
            if submissions_used is None or used > submissions_used:
                submission = float(fs.group(1))
            submissions_used = used
        rec = records[i]
        is_submit = bool(rec is not None and str(rec.get("action", "")).upper() == "SUBMIT")
        steps.append(StepData(i, rec, errors[i], intervention, submission, is_submit))

    # reactor properties may only be in prompts (fallback without tracking)
    if reactor is None:
        for o in raw_io:
            ri = o.get("raw_input")
            if isinstance(ri, str) and "Crystal properties (directly shown)" in ri:
                props = _reactor_props(_observation_from_raw_input(ri))
                if props:
                    reactor = props

    success: bool | None = None
    complete = sorted(folder.glob("*_complete.txt"))
    if complete:
        flag = complete[0].read_text(encoding="utf-8", errors="replace").strip()
        if flag in ("0", "1"):
            success = flag == "1"
        else:
            warnings.append(f"{complete[0].name}: content {flag[:20]!r} is not 0 or 1")
    else:
        warnings.append("no *_complete.txt: task accuracy unknown")

    graph_id = str(config.get("graph_id") or folder.parent.name)
    target = true_target_frequency(config, reactor) if reactor else None
    return EpisodeData(
        source=str(folder),
        kind="official",
        suite=_suite_of(graph_id),
        graph_id=graph_id,
        experiment_id=folder.parent.name,
        seed=folder.name,
        config=config,
        steps=tuple(steps),
        shown=tuple(shown),
        reactor_props=reactor,
        target_freq=target,
        success=success,
        intervention_budget=budget,
        submission_budget=3,
        submissions_used=submissions_used,
        warnings=tuple(warnings),
    )


# --------------------------------------------------------------------------- our trajectories


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def _state_of(obj: Any) -> tuple[dict[str, float], float | None] | None:
    if not (type(obj) is dict or isinstance(obj, Mapping)):
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


_PAST_DATA_KEY = '"past_data":'
_JSON_WS = re.compile(r"[ \t\n\r]*")


def _decode_step_line(
    raw: str, decoder: json.JSONDecoder, prev: tuple[str, list[Any]] | None
) -> tuple[Any, tuple[str, list[Any]] | None]:
    """``json.loads(raw)`` for a step line, decoding the record's ``past_data`` incrementally.

    Agents copy their evidence forward, so a step's ``past_data`` array usually starts with
    the exact text of the previous step's array: only the new elements are decoded and the
    previous elements (equal values, decoded from identical text) are reused, so consecutive
    records share those element objects (records are read-only here).  The array's
    span is replaced by ``NaN`` for decoding the rest of the line; that the NaN lands at
    ``record.past_data`` proves the span was that value.  Anything unusual raises
    ``ValueError`` and the caller decodes the line plainly.  Returns the object and
    ``(array text, elements)`` for the next line.
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


def _read_trajectory_fast(path: Path) -> Any:
    """:func:`causalcheck.lab.trajectory.read_trajectory` for a well-formed file, faster.

    Returns ``None`` for anything it does not handle (unreadable file, a line that is not a
    JSON object, a missing or repeated header, ...): the caller then uses the reference
    reader, which raises its usual error.
    """
    from causalcheck.lab.trajectory import Trajectory

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    decoder = json.JSONDecoder()
    header: dict[str, Any] | None = None
    steps: list[dict[str, Any]] = []
    summary: dict[str, Any] | None = None
    prev: tuple[str, list[Any]] | None = None
    for raw in text.splitlines():
        if not raw.strip():
            continue
        try:
            obj, prev = _decode_step_line(raw, decoder, prev)
        except (ValueError, IndexError):
            try:
                obj = json.loads(raw)
            except json.JSONDecodeError:
                return None
            prev = None
        if not isinstance(obj, dict):
            return None
        kind = obj.pop("type", None)
        if kind == "header":
            if header is not None:
                return None
            header = obj
        elif kind == "step":
            steps.append(obj)
        elif kind == "summary":
            summary = obj
        else:
            return None
    if header is None or summary is None:
        return None
    return Trajectory(header, tuple(steps), summary)


def load_trajectory_episode(path: str | Path) -> EpisodeData:
    """Read one of our trajectory files (format: :mod:`causalcheck.lab.trajectory`)."""
    from causalcheck.lab.trajectory import read_trajectory

    p = Path(path)
    traj = _read_trajectory_fast(p) or read_trajectory(p)
    header = traj.header
    config = _check_config(header.get("config"), f"{p}: header")
    warnings: list[str] = []
    shown: list[ShownState] = []
    for k, rec in enumerate(header.get("prior_records") or []):
        st = _state_of(rec)
        if st:
            shown.append(ShownState(st[0], st[1], f"prior record {k + 1}", 0))
    init = _state_of(header.get("manipulator_initial"))
    if init:
        shown.append(ShownState(init[0], init[1], "manipulator initial state", 0))
    steps: list[StepData] = []
    for i, line in enumerate(traj.steps):
        rec = line.get("record")
        action = line.get("action")
        if not (type(action) is dict or isinstance(action, Mapping)):
            action = {}
        response = line.get("response")
        if not (type(response) is dict or isinstance(response, Mapping)):
            response = {}
        accepted = bool(response.get("accepted", True))
        intervention = None
        submission = None
        kind = str(action.get("kind", ""))
        if kind == "intervene" and accepted:
            prop, value = action.get("prop"), _num(action.get("value"))
            if isinstance(prop, str) and value is not None:
                intervention = (normalize_node(prop), value)
        if kind in ("submit_frequency", "submit") and accepted:
            submission = _num(response.get("submitted"))
            if submission is None:
                submission = _num(action.get("value"))
        obs = line.get("observation")
        seen = _state_of(obs.get("state")) if type(obs) is dict or isinstance(obs, Mapping) else None
        if seen:
            shown.append(ShownState(seen[0], seen[1], f"manipulator before step {i + 1}", i))
        st = _state_of(response.get("state"))
        if st and accepted:
            shown.append(ShownState(st[0], st[1], f"manipulator after step {i + 1}", i + 1))
        rec_ok = type(rec) is dict or isinstance(rec, Mapping)
        is_submit = kind in ("finish", "stop", "end") or bool(rec_ok and str(rec.get("action", "")).upper() == "SUBMIT")
        steps.append(
            StepData(
                i,
                rec if rec_ok else None,
                None if rec_ok else f"step {i + 1}: record={str(rec)[:60]!r} is not an object",
                intervention,
                submission,
                is_submit,
            )
        )
    raw_reactor = header.get("reactor")
    reactor: Mapping[str, Any] = raw_reactor if isinstance(raw_reactor, Mapping) else {}
    rprops = reactor.get("props") if isinstance(reactor.get("props"), Mapping) else None
    reactor_props = {str(k): float(v) for k, v in rprops.items() if _num(v) is not None} if rprops else None
    target = _num(reactor.get("target_freq"))
    if target is None and reactor_props:
        target = true_target_frequency(config, reactor_props)
    raw_budgets = header.get("budgets")
    budgets: Mapping[str, Any] = raw_budgets if isinstance(raw_budgets, Mapping) else {}
    summary = traj.summary
    success = summary.get("success")
    graph_id = str(header.get("graph_id") or config.get("graph_id") or p.stem)
    return EpisodeData(
        source=str(p),
        kind="trajectory",
        suite=str(header.get("suite") or _suite_of(graph_id)),
        graph_id=graph_id,
        experiment_id=graph_id,
        seed=str(header.get("seed", "")),
        config=config,
        steps=tuple(steps),
        shown=tuple(shown),
        reactor_props=reactor_props,
        target_freq=target,
        success=bool(success) if isinstance(success, bool) else None,
        intervention_budget=budgets.get("interventions") if isinstance(budgets.get("interventions"), int) else config.get("budget") if isinstance(config.get("budget"), int) else None,
        submission_budget=budgets.get("submissions") if isinstance(budgets.get("submissions"), int) else None,
        submissions_used=summary.get("submissions_used") if isinstance(summary.get("submissions_used"), int) else None,
        warnings=tuple(warnings),
        extras={"agent": header.get("agent"), "done_reason": summary.get("done_reason")},
    )


# --------------------------------------------------------------------------- discovery


def discover_episodes(paths: Sequence[str | Path]) -> Iterator[tuple[str, Path]]:
    """Yield ``(kind, path)`` for every episode under *paths*, in sorted order.

    ``kind`` is ``"official"`` (a seed folder, found at any depth), ``"trajectory"`` (a
    ``*.jsonl`` file whose first line is a trajectory header) or ``"missing"`` (a path that
    does not exist: reported, not fatal).
    """
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            yield "missing", p
            continue
        if p.is_file():
            yield ("official", p.parent) if p.name == "raw_io.jsonl" else ("trajectory", p)
            continue
        if _is_run_folder(p):
            yield "official", p
            continue
        found: list[tuple[str, Path]] = []
        for sub in sorted(p.rglob("*")):
            if sub.is_dir() and _is_run_folder(sub):
                found.append(("official", sub))
            elif sub.is_file() and sub.suffix == ".jsonl" and _is_trajectory_file(sub):
                found.append(("trajectory", sub))
        yield from found


def _is_trajectory_file(path: Path) -> bool:
    if path.name == "raw_io.jsonl" or "_tracking" in path.name:
        return False
    try:
        with path.open(encoding="utf-8") as fh:
            first = fh.readline(1 << 20)
    except (OSError, UnicodeDecodeError):
        return False
    return '"header"' in first and '"type"' in first


def load_episode(kind: str, path: Path) -> EpisodeData:
    """Load one discovered episode (raises :class:`InputFormatError` with the reason)."""
    if kind == "missing":
        raise InputFormatError(f"path={str(path)!r} does not exist")
    if kind == "official":
        return load_run_folder(path)
    return load_trajectory_episode(path)
