"""A sweep grid: suites x agents x seeds x budgets, read from one TOML file and checked strictly.

The file (``causalcheck data sweep-example`` prints the path of a commented example; docs/sweep.md has the
schema) has four axes, each a non-empty list::

    suites = ["3nodes", "4nodes"]   # suite names or JSONL paths (relative to the working folder)
    seeds = [1, 2]                  # episode seeds (non-negative integers)
    limit = 2                       # optional: only the first N graphs of every suite

    [[agents]]                      # at least one
    name = "planner"                # a built-in or plug-in agent
    model = "..."                   # optional: the agent option "model"
    options = { key = "value" }     # optional: more agent options
    label = "..."                   # optional: the agent's part of the cell folder names

    [[budgets]]                     # optional; default: one budget of the episode's defaults
    label = "3o6i"                  # required, unique
    prior_records = 3               # any causalcheck.lab.episode.EpisodeConfig field
    interventions = 6

Every cell is one ``lab run`` (one suite, one agent, one seed, one budget).  Anything else is
refused with :class:`~causalcheck.base.errors.InputFormatError` (exit 2) naming the file, the
key and the value: an unknown key, a value of the wrong type, an empty axis, a repeated value or
label, an unknown agent or suite, a budget the episode refuses, or more cells than
:data:`~causalcheck.base.limits.MAX_SWEEP_CELLS`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.limits import MAX_SWEEP_CELLS, check_seed
from causalcheck.base.redaction import redact_json

__all__ = ["MAX_GRID_BYTES", "Budget", "Cell", "Grid", "GridAgent", "load_grid", "parse_grid"]

#: Largest grid file read (bytes).
MAX_GRID_BYTES = 1_000_000
#: Longest part of a cell folder name taken from one value.
_PART_CHARS = 40

_TOP_KEYS = ("suites", "seeds", "limit", "agents", "budgets")
_AGENT_KEYS = ("name", "model", "options", "label")


@dataclass(frozen=True)
class GridAgent:
    """One value of the agent axis."""

    name: str
    options: Mapping[str, Any]
    label: str


@dataclass(frozen=True)
class Budget:
    """One value of the budget axis: a label and the episode options it sets (the rest default)."""

    label: str
    settings: Mapping[str, Any]


@dataclass(frozen=True)
class Cell:
    """One ``lab run`` of the sweep."""

    index: int
    suite: str
    agent: GridAgent
    seed: int
    budget: Budget
    folder: str

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "folder": self.folder,
            "suite": self.suite,
            "agent": self.agent.name,
            "agent_label": self.agent.label,
            "agent_options": redact_json(dict(self.agent.options)),  # no URL credentials in sweep.json
            "seed": self.seed,
            "budget": self.budget.label,
            "budget_settings": dict(self.budget.settings),
        }


@dataclass(frozen=True)
class Grid:
    """A checked grid and its cells (suite-major, then agent, seed, budget: the file's order)."""

    source: str
    suites: tuple[str, ...]
    seeds: tuple[int, ...]
    agents: tuple[GridAgent, ...]
    budgets: tuple[Budget, ...]
    limit: int | None
    cells: tuple[Cell, ...]

    def to_json(self) -> dict[str, Any]:
        """The grid as read (what ``--resume`` compares)."""
        return {
            "suites": list(self.suites),
            "seeds": list(self.seeds),
            "limit": self.limit,
            "agents": [{"name": a.name, "options": redact_json(dict(a.options)), "label": a.label} for a in self.agents],
            "budgets": [{"label": b.label, **dict(b.settings)} for b in self.budgets],
        }

    def sha256(self) -> str:
        return hashlib.sha256(json.dumps(self.to_json(), sort_keys=True).encode()).hexdigest()


def _where(source: str, key: str) -> str:
    return f"sweep grid {source!r}: {key}"


def _type_name(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), type(value).__name__)


def _list(data: Mapping[str, Any], key: str, source: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise InputFormatError(f"{_where(source, key)}={value!r} must be a non-empty array (it is {_type_name(value)})"
                               if key in data else f"{_where(source, key)} is missing: the grid needs a non-empty {key!r} array")
    if not value:
        raise InputFormatError(f"{_where(source, key)}=[] is empty: every axis needs at least one value")
    return value


def _unknown(table: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    extra = sorted(k for k in table if k not in known)
    if extra:
        raise InputFormatError(f"{where}: unknown key(s) {extra!r}; known keys: {list(known)!r}")


def _no_repeats(values: list[Any], where: str) -> None:
    seen: set[str] = set()
    for v in values:
        key = json.dumps(v, sort_keys=True)
        if key in seen:
            raise InputFormatError(f"{where}: {v!r} is given twice (a cell would be run twice)")
        seen.add(key)


def _part(text: str) -> str:
    """A safe, short piece of a folder name: letters, digits, ``.``, ``_``, ``-``; never empty or dot-led."""
    safe = "".join(c if (c.isascii() and c.isalnum()) or c in "._-" else "_" for c in text).lstrip(".")
    return (safe[:_PART_CHARS] or "_").rstrip(".") or "_"


def _plain(value: Any, where: str) -> None:
    """*value* must be what a JSON manifest can hold: no TOML date or time, no ``nan`` or ``inf``."""
    if isinstance(value, dict):
        for k, v in value.items():
            _plain(v, f"{where}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _plain(v, f"{where}[{i}]")
    elif isinstance(value, float) and not math.isfinite(value):
        raise InputFormatError(f"{where}={value!r} must be a finite number")
    elif not (value is None or isinstance(value, (str, int, float, bool))):
        raise InputFormatError(f"{where}={value!r} must be a string, number, boolean, array or table (it is {_type_name(value)})")


def _agents(data: Mapping[str, Any], source: str) -> tuple[GridAgent, ...]:
    # late: pulls numpy (the registry of agents)
    from causalcheck.lab.agents import AGENTS

    # late: pulls numpy (the runner)
    from causalcheck.lab.runner import check_agent_options

    out: list[GridAgent] = []
    for i, raw in enumerate(_list(data, "agents", source)):
        where = _where(source, f"agents[{i}]")
        if not isinstance(raw, dict):
            raise InputFormatError(f"{where}={raw!r} must be a table ([[agents]] with name = ...)")
        _unknown(raw, _AGENT_KEYS, where)
        name = raw.get("name")
        if not isinstance(name, str) or not name.strip():
            raise InputFormatError(f"{where}.name={name!r} must be a non-empty string (an agent name)")
        if name not in AGENTS:
            raise InputFormatError(f"{where}.name={name!r} is unknown; registered agents: {sorted(AGENTS)!r}")
        options = raw.get("options", {})
        if not isinstance(options, dict):
            raise InputFormatError(f"{where}.options={options!r} must be a table of agent options (it is {_type_name(options)})")
        options = dict(options)
        if "model" in raw:
            model = raw["model"]
            if not isinstance(model, str) or not model.strip():
                raise InputFormatError(f"{where}.model={model!r} must be a non-empty string")
            if "model" in options and options["model"] != model:
                raise InputFormatError(f"{where}: model={model!r} and options.model={options['model']!r} disagree")
            options["model"] = model
        _plain(options, f"{where}.options")
        try:  # types and ranges, before any cell runs: not a failed cell in the middle of the sweep
            check_agent_options(name, options)
        except CausalCheckError as exc:
            raise InputFormatError(f"{where}.options: {exc}") from None
        label = raw.get("label")
        if label is None:
            label = name + (f"-{options['model']}" if isinstance(options.get("model"), str) else "")
        elif not isinstance(label, str) or not label.strip():
            raise InputFormatError(f"{where}.label={label!r} must be a non-empty string")
        out.append(GridAgent(name, options, label))
    _no_repeats([{"name": a.name, "options": dict(a.options)} for a in out], _where(source, "agents"))
    _no_repeats([_part(a.label) for a in out], _where(source, "agents[].label (as a folder name)"))
    return tuple(out)


def _check_setting(where: str, annotation: str, value: Any) -> None:
    """An episode option's value has the kind its field declares (TOML has no null: ``None`` cannot be given)."""
    if "bool" in annotation:
        ok, want = isinstance(value, bool), "true or false"
    elif "float" in annotation:
        ok, want = isinstance(value, (int, float)) and not isinstance(value, bool), "a number"
    elif "int" in annotation:
        ok, want = isinstance(value, int) and not isinstance(value, bool) and value >= 0, "a non-negative integer"
    else:  # Literal[...] / str
        ok, want = isinstance(value, str), "a string"
    if not ok:
        raise InputFormatError(f"{where}={value!r} must be {want} (it is {_type_name(value)})")


def _budgets(data: Mapping[str, Any], source: str) -> tuple[Budget, ...]:
    # late: pulls numpy (the episode)
    from causalcheck.lab.episode import EpisodeConfig

    if "budgets" not in data:
        return (Budget("default", {}),)
    fields = {f.name: f for f in dataclasses.fields(EpisodeConfig)}
    out: list[Budget] = []
    for i, raw in enumerate(_list(data, "budgets", source)):
        where = _where(source, f"budgets[{i}]")
        if not isinstance(raw, dict):
            raise InputFormatError(f"{where}={raw!r} must be a table ([[budgets]] with label = ...)")
        _unknown(raw, ("label", *fields), where)
        label = raw.get("label")
        if not isinstance(label, str) or not label.strip():
            raise InputFormatError(f"{where}.label={label!r} must be a non-empty string")
        settings = {k: v for k, v in raw.items() if k != "label"}
        _plain(settings, where)
        for key, value in settings.items():
            _check_setting(f"{where}.{key}", str(fields[key].type), value)
        try:
            EpisodeConfig(**settings)
        except InputFormatError as exc:
            raise InputFormatError(f"{where}: {exc}") from None
        except (TypeError, ValueError) as exc:  # a field given a value of the wrong kind
            raise InputFormatError(f"{where}: {settings!r} is not a valid budget: {exc}") from None
        out.append(Budget(label, settings))
    _no_repeats([_part(b.label) for b in out], _where(source, "budgets[].label (as a folder name)"))
    _no_repeats([b.settings for b in out], _where(source, "budgets"))
    return tuple(out)


def _suites(data: Mapping[str, Any], source: str) -> tuple[str, ...]:
    # late: pulls numpy (the suites)
    from causalcheck.lab.suites import load_suite

    suites = _list(data, "suites", source)
    for i, s in enumerate(suites):
        if not isinstance(s, str) or not s.strip():
            raise InputFormatError(f"{_where(source, f'suites[{i}]')}={s!r} must be a suite name or path (a non-empty string)")
        try:
            load_suite(s)
        except CausalCheckError as exc:
            raise InputFormatError(f"{_where(source, f'suites[{i}]')}={s!r}: {exc}") from None
    _no_repeats(suites, _where(source, "suites"))
    return tuple(suites)


def _seeds(data: Mapping[str, Any], source: str) -> tuple[int, ...]:
    seeds = _list(data, "seeds", source)
    for i, s in enumerate(seeds):
        check_seed(s, _where(source, f"seeds[{i}]"))
    _no_repeats(seeds, _where(source, "seeds"))
    return tuple(seeds)


def parse_grid(data: Mapping[str, Any], source: str) -> Grid:
    """Check a grid already parsed from TOML (*source* names it in messages) and list its cells."""
    _unknown(data, _TOP_KEYS, f"sweep grid {source!r}")
    for key in ("suites", "seeds", "agents"):  # the size first: a huge grid is refused before any suite is loaded
        _list(data, key, source)
    n_budgets = len(data["budgets"]) if isinstance(data.get("budgets"), list) else 1
    MAX_SWEEP_CELLS.check(len(data["suites"]) * len(data["agents"]) * len(data["seeds"]) * n_budgets,
                          f"sweep grid {source!r} (suites x agents x seeds x budgets)")
    limit = data.get("limit")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InputFormatError(f"{_where(source, 'limit')}={limit!r} must be a positive integer (graphs per suite)")
    seeds = _seeds(data, source)
    agents = _agents(data, source)
    budgets = _budgets(data, source)
    suites = _suites(data, source)
    cells: list[Cell] = []
    for suite in suites:
        for agent in agents:
            for seed in seeds:
                for budget in budgets:
                    index = len(cells)
                    folder = f"{index:03d}-{_part(Path(suite).stem if suite.endswith('.jsonl') else suite)}-{_part(agent.label)}-s{seed}-{_part(budget.label)}"
                    cells.append(Cell(index, suite, agent, seed, budget, folder))
    return Grid(source, suites, seeds, agents, budgets, limit, tuple(cells))


def load_grid(path: str | Path) -> Grid:
    """Read and check the grid file *path* (module docstring)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - the Python 3.10 floor: the same parser, as the tomli package
        import tomli as tomllib

    p = Path(path)
    if not p.is_file():
        raise InputFormatError(f"sweep grid {str(p)!r} does not exist or is not a file")
    size = p.stat().st_size
    if size > MAX_GRID_BYTES:
        raise InputFormatError(f"sweep grid {str(p)!r} is {size} bytes, more than MAX_GRID_BYTES={MAX_GRID_BYTES}")
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise InputFormatError(f"sweep grid {str(p)!r} is not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputFormatError(f"sweep grid {str(p)!r} is not valid TOML: {exc}") from None
    return parse_grid(data, str(p))
