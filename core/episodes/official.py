"""Reading official CausaLab run folders (causalab-spec §5.3) into an :class:`~causalcheck.episodes.model.EpisodeRecord`.

A seed folder holds:

* ``graph_config.json`` — the true graph (required);
* ``raw_io.jsonl`` — ``{step, raw_input, raw_output}`` objects, **concatenated pretty-printed
  JSON** (not one object per line); ``raw_output`` is the model's text;
* ``*_tracking.jsonl`` / ``*_tracking_simple.jsonl`` — ``{dialog_box, lastActionMessage,
  action}`` objects, same layout; entry *i* pairs the record of step *i* (``action``, as the
  official controller decoded it) with what the environment answered to it;
* ``*_complete.txt`` — ``1`` / ``0`` (task accuracy); ``*_data.json`` — run metadata.

A step's record is the tracking ``action`` (the published scorer's order), else the
``raw_output`` text read by the tolerant record parser.  What was shown is read from the
dialog text: the manipulator's ``Crystal Analysis`` block (``Moisture: 50.0``, ``Resonance
Frequency (Hz): 114.0``, ``Uses: 1/12 (Remaining: 11)``), the reactor's ``Crystal properties
(directly shown)`` block and ``Frequency set to X Hz``, and the prior records
``- Observation 1: {...}`` of the task text.  Without tracking files the observation JSON
embedded in the next step's ``raw_input`` is used instead.

The official folders do not contain the reactor's true frequency F*; it is recomputed from
the graph config and the reactor properties shown (the frequency's structural equation).

One module because an official seed folder is one format read in one pass: the graph config, the
concatenated-JSON logs, the dialog-text blocks and the recomputed F* feed one :class:`EpisodeRecord`,
and each helper here reads one part of that one folder layout.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import math
import os
import re
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError, Notice
from causalcheck.base.jsontext import first_object
from causalcheck.episodes.config import (
    check_config,
    golden_entries,
    suite_of,
    true_target_frequency,
)
from causalcheck.episodes.fastread import fast_read_input, fast_read_json_values_input, json_values
from causalcheck.episodes.files import read_input, read_json_values_input
from causalcheck.episodes.model import (
    EpisodeRecord,
    InputFile,
    ShownState,
    Step,
    Unparsed,
    step_gap_notices,
)
from causalcheck.episodes.reading import RecordReader
from causalcheck.graph import FREQ, normalize_node
from causalcheck.records import StepRecord

__all__ = ["is_run_folder", "load_run_folder"]


# --------------------------------------------------------------------------- dialog text

_NUM = r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"
_USES = re.compile(r"Uses:\s*(\d{1,9})\s*/\s*(\d{1,9})\b")
_ENTER = re.compile(r"Enter new value for ([^:\n]+):")
_SAID_VALUE = re.compile(rf"You said:\s*\{{'value':\s*({_NUM})\}}")
_FREQ_SET = re.compile(rf"Frequency set to ({_NUM}) Hz")
_SUBMISSIONS = re.compile(r"Usage:\s*(\d{1,9})\s*/\s*(\d{1,9})\s*submissions")
# [ \t] rather than \s: \s* at a line start would run across blank lines (quadratic on hostile text)
_OBS_LINE = re.compile(r"^[ \t]*-[ \t]*Observation[ \t]+(\d+):[ \t]*(\{.*\})[ \t\r]*$", re.M)
_ANALYSIS_LINE = re.compile(rf"(.+):\s*({_NUM})")  # the last colon: the value has none
_REACTOR_LINE = re.compile(rf"[ \t]*-[ \t]*([^:\s][^:]*):[ \t]*({_NUM})[ \t\r]*$")
#: Longest prior-record line (``- Observation k: {...}``) read, in characters; longer lines
#: are reported and skipped (a real one has about 100).
MAX_OBSERVATION_LINE = 10_000


def _float(text: str) -> float | None:
    """``float(text)`` when finite (a 400-digit number is not a crystal value)."""
    value = float(text)
    return value if math.isfinite(value) else None


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
        m = _ANALYSIS_LINE.fullmatch(stripped)
        if m is None:
            continue
        name = display.get(m.group(1).strip(), normalize_node(m.group(1)))
        value = _float(m.group(2))
        if value is not None:
            values[name] = value
    return values or None


def _reactor_props(text: str) -> dict[str, float] | None:
    pos = text.rfind("Crystal properties (directly shown):")
    if pos == -1:
        return None
    values: dict[str, float] = {}
    for line in text[pos:].splitlines()[1:]:
        m = _REACTOR_LINE.match(line)
        if m is None:
            if values:
                break
            continue
        value = _float(m.group(2))
        if value is not None:
            values[m.group(1).strip()] = value
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


# --------------------------------------------------------------------------- official folders


def is_run_folder(path: Path, names: Iterable[str] | None = None, *, files: Collection[str] | None = None) -> bool:
    """True when *path* looks like an official seed folder (any of its characteristic files).

    *names* is the folder's listing when the caller has it (saves listing it again); *files*,
    the names in it that are files (symbolic links followed), saves asking the file system.
    """
    listing = _listing(path) if names is None else [n for n in names if not n.startswith(".")]
    for name in listing:
        if name in ("raw_io.jsonl", "graph_config.json"):
            if (name in files) if files is not None else (path / name).is_file():
                return True
        elif fnmatch.fnmatchcase(name, "*_tracking*.jsonl") or fnmatch.fnmatchcase(name, "*_complete.txt"):
            return True
    return False


def _listing(folder: Path) -> list[str]:
    """The sorted names in *folder* that a ``glob("*")`` would give (no hidden names; ``[]`` when unreadable)."""
    try:
        return sorted(n for n in os.listdir(folder) if not n.startswith("."))
    except OSError:
        return []


def _observation_from_raw_input(raw_input: str) -> str:
    """Dialog text and last action message from the observation JSON inside a prompt."""
    pos = raw_input.rfind("Current Environment Observation")
    if pos == -1:
        return ""
    obj = first_object(raw_input[pos:])
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


class _Folder:
    """One seed folder being read: its listing, and the files read and warnings so far (in reading order).

    *fast* reads through :mod:`causalcheck.episodes.fastread` (one ``scandir`` listing, path
    strings, the C JSON decoder first); the plain readers of :mod:`causalcheck.episodes.files`
    give the same values and are the oracle of the tests.
    """

    def __init__(self, folder: Path, fast: bool = True) -> None:
        self.path = folder
        self.fast = fast
        self.base = str(folder)
        if fast:
            self.names, self.files = _scan(self.base)
        else:
            self.names = _listing(folder)
            self.files = {n for n in self.names if (folder / n).is_file()}
        self.inputs: list[InputFile] = []
        self.warnings: list[Notice] = []

    def file(self, name: str) -> str:
        """The path of the folder's file *name*, as a string (the plain readers' ``str(folder / name)``)."""
        return os.path.join(self.base, name) if self.fast else str(self.path / name)

    def values_of(self, name: str) -> list[Any]:
        """The JSON values of the folder's file *name*, which is recorded as read."""
        path = self.file(name)
        values, info = fast_read_json_values_input(path) if self.fast else read_json_values_input(path)
        self.inputs.append(info)
        return values

    def text_of(self, name: str) -> str:
        """The text of the folder's file *name*, which is recorded as read."""
        path = self.file(name)
        text, info = fast_read_input(path) if self.fast else read_input(path)
        self.inputs.append(info)
        return text

    def matching(self, pattern: str) -> list[str]:
        """The names a ``sorted(folder.glob(pattern))`` would give."""
        return [n for n in self.names if fnmatch.fnmatchcase(n, pattern)]


def _scan(folder: str) -> tuple[list[str], set[str]]:
    """:func:`_listing` of *folder* and the names in it that are files (symbolic links followed), from one ``scandir``."""
    names: list[str] = []
    files: set[str] = set()
    try:
        with os.scandir(folder) as it:
            for entry in it:
                if entry.name.startswith("."):
                    continue
                names.append(entry.name)
                try:
                    if entry.is_file():
                        files.add(entry.name)
                except OSError:
                    pass
    except OSError:
        return [], set()
    names.sort()
    return names, files


def load_run_folder(path: str | Path, *, fast: bool = True) -> EpisodeRecord:
    """Read one official CausaLab seed folder (see the module docstring).

    Raises :class:`~causalcheck.base.errors.InputFormatError` for a folder without a usable
    ``graph_config.json`` or without any step file, :class:`~causalcheck.base.errors.DSLSyntaxError`
    for a file that is not (or not complete) JSON; content problems of single steps are
    :class:`~causalcheck.episodes.model.Unparsed` markers or warnings.  *fast* (the default)
    reads the files through :mod:`causalcheck.episodes.fastread` and checks each distinct graph
    config once (by the hash of its bytes); ``False`` reads through the plain readers, with the
    same result.
    """
    folder = Path(path)
    if not (os.path.isdir(path) if fast else folder.is_dir()):
        raise InputFormatError(f"run folder path={str(folder)!r} does not exist or is not a directory")
    run = _Folder(folder, fast)
    if "graph_config.json" not in run.files:
        raise InputFormatError(f"run folder {str(folder)!r} has no graph_config.json (the true graph is needed)")
    config, display, golden = _config(run)
    raw_io, tracking = _step_files(run)
    n_steps = max(len(raw_io), len(tracking))
    records, labels = _records(folder, raw_io, tracking, n_steps)
    answers = _answers(raw_io, tracking, n_steps)
    shown = _prior_records(_task_text(run, raw_io), run.warnings)
    budget = config.get("budget") if isinstance(config.get("budget"), int) else None
    replay = _replay(answers, display, budget)
    steps = [Step(i, labels[i], records[i], replay.interventions[i], replay.submissions[i]) for i in range(n_steps)]
    reactor = replay.reactor if replay.reactor is not None else _reactor_from_prompts(raw_io)
    success = _success(run)
    graph_id = str(config.get("graph_id") or folder.parent.name)
    target = true_target_frequency(config, reactor) if reactor else None
    agent, model = _identity(run)
    return EpisodeRecord(
        source=str(folder),
        kind="official",
        steps=tuple(steps),
        config=config,
        suite=suite_of(graph_id),
        graph_id=graph_id,
        experiment_id=folder.parent.name,
        seed=folder.name,
        golden=golden,
        shown=(*shown, *replay.shown),
        reactor_props=reactor,
        target_freq=target,
        success=success,
        intervention_budget=replay.budget,
        submission_budget=3,
        submissions_used=replay.submissions_used,
        warnings=tuple(run.warnings),
        agent=agent,
        model=model,
        inputs=tuple(run.inputs),
    )


#: Graph configs already checked, by the SHA-256 of their file's bytes: ``(config, display map,
#: golden entries)`` — the runs of one suite share a handful of configs.
_CONFIGS: dict[str, tuple[Mapping[str, Any], dict[str, str], tuple[Any, ...]]] = {}
_CONFIGS_MAX = 1024


def _config(run: _Folder) -> tuple[Mapping[str, Any], dict[str, str], tuple[Any, ...]]:
    """The folder's checked graph config, its display-name map and golden entries (the file is recorded as read).

    The fast reader decodes and checks a config whose bytes it has not seen before only: the
    same bytes decode to the same value, so the episodes of one config share it.
    """
    name = "graph_config.json"
    where = run.file(name)
    if run.fast:
        text, info = fast_read_input(where)
        known = _CONFIGS.get(info.sha256)
        if known is not None:
            run.inputs.append(info)
            return known
        values = json_values(text, source=where)
        run.inputs.append(info)
    else:
        values = run.values_of(name)
    if len(values) != 1:
        raise InputFormatError(f"{where}: expected one JSON object, found {len(values)}")
    config = check_config(values[0], where)
    got = (config, _display_map(config), golden_entries(config))
    if run.fast:
        if len(_CONFIGS) >= _CONFIGS_MAX:
            _CONFIGS.clear()
        _CONFIGS[info.sha256] = got
    return got


def _step_files(run: _Folder) -> tuple[list[Any], list[Any]]:
    """``(raw_io objects, tracking entries)``: the first tracking file's values and ``raw_io.jsonl``'s objects."""
    tracking: list[Any] = []
    for pattern in ("*_tracking.jsonl", "*_tracking_simple.jsonl"):
        files = run.matching(pattern)
        if files:
            tracking = run.values_of(files[0])
            break
    raw_io: list[Any] = []
    if "raw_io.jsonl" in run.files:
        raw_io = [o for o in run.values_of("raw_io.jsonl") if isinstance(o, Mapping)]
    if not raw_io and not tracking:
        raise InputFormatError(f"run folder {str(run.path)!r} has neither raw_io.jsonl nor a tracking file")
    run.warnings.extend(_step_warnings(raw_io, tracking))
    return raw_io, tracking


def _records(folder: Path, raw_io: list[Any], tracking: list[Any], n_steps: int) -> tuple[list[StepRecord | Unparsed | None], list[int | None]]:
    """The agent's record of each step — the tracking action first (the scorer's order), else the raw_io output — and raw_io's step labels."""
    reader = RecordReader()
    records: list[StepRecord | Unparsed | None] = [None] * n_steps
    labels: list[int | None] = [None] * n_steps
    for i in range(n_steps):
        label = raw_io[i].get("step") if i < len(raw_io) else None
        labels[i] = label if type(label) is int else None
        where = f"{folder} (step {i + 1})"
        action = tracking[i].get("action") if i < len(tracking) and isinstance(tracking[i], Mapping) else None
        if isinstance(action, Mapping):
            records[i] = reader.read(action, where)
        elif i < len(raw_io):
            records[i] = reader.read(raw_io[i].get("raw_output"), where, what="raw_output")
    return records, labels


def _answers(raw_io: list[Any], tracking: list[Any], n_steps: int) -> list[str]:
    """The text the environment showed in answer to each step (tracking, else the next prompt's observation)."""
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
    return answers


def _task_text(run: _Folder, raw_io: list[Any]) -> str:
    """The task text: the first prompt, else ``*_data.json``'s ``task_description`` (an unreadable one is a warning)."""
    first_prompt = raw_io[0].get("raw_input") if raw_io else None
    task_text = first_prompt if isinstance(first_prompt, str) else ""
    if not task_text:
        data_files = run.matching("*_data.json")
        if data_files:
            try:
                data = run.values_of(data_files[0])
                if data and isinstance(data[0], Mapping):
                    task_text = str(data[0].get("task_description") or "")
            except CausalCheckError as exc:
                run.warnings.append(Notice(str(exc).splitlines()[0], "unreadable-file"))
    return task_text


def _prior_records(task_text: str, warnings: list[Notice]) -> list[ShownState]:
    """The prior records ``- Observation k: {...}`` of the task text (shown before the first step)."""
    shown: list[ShownState] = []
    for m in _observation_lines(task_text):
        if len(m.group(0)) > MAX_OBSERVATION_LINE:
            warnings.append(Notice(
                f"prior record line {m.group(0)[:60]!r}… is longer than MAX_OBSERVATION_LINE={MAX_OBSERVATION_LINE}; skipped",
                "prior-record-skipped",
            ))
            continue
        values = _prior_values(m.group(2))
        if values is None:
            warnings.append(Notice(f"prior record line {m.group(0)[:60]!r} is not a dict", "prior-record-skipped"))
            continue
        if isinstance(values, dict):
            props = dict(values)
            freq = props.pop(FREQ, None)
            shown.append(ShownState(props, freq, f"prior record {m.group(1)}", 0))
    return shown


def _observation_lines(text: str) -> Iterator[re.Match[str]]:
    """``_OBS_LINE.finditer(text)``: the pattern matches within one line, so only the lines that hold
    ``Observation`` are tried (a prompt has thousands of characters and a few such lines)."""
    pos = text.find("Observation")
    while pos != -1:
        start = text.rfind("\n", 0, pos) + 1
        end = text.find("\n", pos)
        if end == -1:
            end = len(text)
        m = _OBS_LINE.match(text, start, end)
        if m is not None:
            yield m
        pos = text.find("Observation", end)


@functools.lru_cache(maxsize=4096)
def _prior_values(literal: str) -> dict[str, float] | bool | None:
    """The numeric values of one prior record's dict literal by node name; ``False`` for a literal
    that is not a dict, ``None`` for one that is not a literal.  Memoised: the runs of one graph
    config repeat its prior records, and ``ast.literal_eval`` compiles each one (callers copy);
    the usual ``{'name': number, ...}`` is read without compiling (:func:`_simple_literal`)."""
    obs = _simple_literal(literal)
    if obs is None:
        try:
            obs = ast.literal_eval(literal)
        except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
            return None
    if not isinstance(obs, dict):
        return False
    return {
        normalize_node(str(k)): float(v)
        for k, v in obs.items()
        if isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) < 1e300 and math.isfinite(v)
    }


_LITERAL_NUMBER = r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
_LITERAL_NAME = r"'[^'\\\n\r\x00]*'"
_LITERAL_ITEM = rf"[ \t]*{_LITERAL_NAME}[ \t]*:[ \t]*{_LITERAL_NUMBER}[ \t]*"
#: ``{'name': number, ...}`` as the environment prints a prior record (names without escapes).
_SIMPLE_DICT = re.compile(rf"\{{(?:{_LITERAL_ITEM},)*(?:{_LITERAL_ITEM})?\}}")
_SIMPLE_PAIR = re.compile(rf"'([^'\\\n\r\x00]*)'[ \t]*:[ \t]*({_LITERAL_NUMBER})")


def _simple_literal(literal: str) -> dict[str, int | float] | None:
    """``ast.literal_eval(literal)`` when *literal* is a dict of single-quoted names (no escapes) and
    plain decimal numbers, the form the environment prints; ``None`` for anything else (the caller
    then evaluates it with :func:`ast.literal_eval`, which the tests hold as the oracle)."""
    if _SIMPLE_DICT.fullmatch(literal) is None:
        return None
    out: dict[str, int | float] = {}
    try:
        for m in _SIMPLE_PAIR.finditer(literal):
            text = m.group(2)
            out[m.group(1)] = float(text) if ("." in text or "e" in text or "E" in text) else int(text)
    except ValueError:  # an integer beyond Python's digit limit: ast.literal_eval gives the answer
        return None
    return out


@dataclass
class _Replay:
    """What the environment's answers show, step by step: executed interventions, accepted submissions, shown states."""

    interventions: list[tuple[str, float] | None]
    submissions: list[float | None]
    shown: list[ShownState]
    reactor: dict[str, float] | None
    submissions_used: int | None
    budget: int | None


def _replay(answers: list[str], display: Mapping[str, str], budget: int | None) -> _Replay:
    """Read the answers in order: the manipulator's uses count an intervention once it was made, the reactor's usage a submission."""
    out = _Replay([], [], [], None, None, budget)
    pending_prop: str | None = None
    last_uses = 0
    for i, text in enumerate(answers):
        intervention: tuple[str, float] | None = None
        submission: float | None = None
        said = _SAID_VALUE.search(text)
        state = _crystal_analysis(text, display) if "property manipulator said" in text or "Crystal Analysis" in text else None
        uses_m = _USES.search(text)
        if uses_m:
            uses = int(uses_m.group(1))
            out.budget = int(uses_m.group(2))
            said_value = _float(said.group(1)) if said else None
            if uses > last_uses and said_value is not None and pending_prop is not None:
                intervention = (pending_prop, said_value)
            last_uses = max(last_uses, uses)
        if state is not None:
            freq = state.pop(FREQ, None)
            label = f"manipulator after step {i + 1}"
            out.shown.append(ShownState(state, freq, label, i + 1))
        enter = _ENTER.search(text)
        if enter:
            pending_prop = display.get(enter.group(1).strip(), normalize_node(enter.group(1)))
        elif intervention is not None:
            pending_prop = None
        props = _reactor_props(text)
        if props is not None:
            out.reactor = props
        fs = _FREQ_SET.search(text)
        sub_m = _SUBMISSIONS.search(text)
        if fs and sub_m:
            used = int(sub_m.group(1))
            if out.submissions_used is None or used > out.submissions_used:
                submission = _float(fs.group(1))
            out.submissions_used = used
        out.interventions.append(intervention)
        out.submissions.append(submission)
    return out


def _reactor_from_prompts(raw_io: list[Any]) -> dict[str, float] | None:
    """The reactor properties from the prompts (the fallback without tracking files): the last shown."""
    reactor: dict[str, float] | None = None
    for o in raw_io:
        ri = o.get("raw_input")
        if isinstance(ri, str) and "Crystal properties (directly shown)" in ri:
            props = _reactor_props(_observation_from_raw_input(ri))
            if props:
                reactor = props
    return reactor


def _success(run: _Folder) -> bool | None:
    """The task outcome from ``*_complete.txt`` (``1`` / ``0``); ``None`` with a warning when absent or unreadable."""
    complete = run.matching("*_complete.txt")
    if not complete:
        run.warnings.append(Notice("no *_complete.txt: task accuracy unknown", "accuracy-unknown"))
        return None
    flag = run.text_of(complete[0]).strip()
    if flag in ("0", "1"):
        return flag == "1"
    run.warnings.append(Notice(f"{complete[0]}: content {flag[:20]!r} is not 0 or 1", "accuracy-unknown"))
    return None


def _step_warnings(raw_io: list[Any], tracking: list[Any]) -> list[Notice]:
    """Signs that steps were removed: raw_io step numbers that do not count 1, 2, 3, …, or a
    tracking file with another number of entries than raw_io."""
    out = step_gap_notices(
        [o.get("step") for o in raw_io],
        1,
        entry="raw_io.jsonl entry {}".format,
        missing=lambda label: f"no integer 'step' (step={label!r:.20})",
        why="(raw_io steps count from 1 without gaps: steps were removed or reordered)",
    )
    if raw_io and tracking and len(raw_io) != len(tracking):
        out.append(Notice(
            f"raw_io.jsonl has {len(raw_io)} steps but the tracking file has {len(tracking)} entries "
            "(one of them lost or gained steps)",
            "steps-missing",
        ))
    return out[:20]


def _identity(run: _Folder) -> tuple[str, str]:
    """``(agent, model)`` of an official seed folder.

    The model is ``source_config.json``'s ``models.action.generator_params.model``; the agent
    is the run tree's agent folder (``<agent>/obs_<difficulty>_<model>/<suite>/<run>/<experiment>/seed_N``,
    as the published runs are laid out), else the controller type of ``source_config.json``
    (``models.react.type``).  Either is ``""`` when unknown.
    """
    model = ""
    controller = ""
    if "source_config.json" in run.files:
        try:
            values = run.values_of("source_config.json")
        except CausalCheckError as exc:
            run.warnings.append(Notice(f"source_config.json: {str(exc).splitlines()[0]}", "unreadable-file"))
            values = []
        cfg = values[0] if len(values) == 1 and isinstance(values[0], Mapping) else {}
        models = cfg.get("models")
        if isinstance(models, Mapping):
            action = models.get("action")
            params = action.get("generator_params") if isinstance(action, Mapping) else None
            if isinstance(params, Mapping) and isinstance(params.get("model"), str):
                model = params["model"]
            react = models.get("react")
            if isinstance(react, Mapping) and isinstance(react.get("type"), str):
                controller = react["type"]
    parts = Path(os.path.abspath(run.base)).parts  # <agent>/obs_<difficulty>_<model>/<suite>/<run>/<experiment>/seed_N
    agent = ""
    if len(parts) > 5 and parts[-5].startswith("obs_"):
        agent = parts[-6]
        if not model:
            words = parts[-5].split("_", 2)
            model = words[2] if len(words) == 3 else ""
    return agent or controller, model


