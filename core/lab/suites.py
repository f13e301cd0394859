"""Suites: files of hidden-SCM graphs in the official CausaLab JSONL format.

A suite is a JSONL file with one graph record per line (causalab-spec §5.2): ``graph_id``,
``description``, ``nodes`` (per node ``is_controllable``, ``observable``, ``property_name``,
``display_name``, ``base_value`` and an optional ``computation``), ``edges``, ``params``,
``budget``, and the optional variant blocks ``hidden_variable`` (§1.6),
``bootstrap_past_data`` (golden traces, §1.8), ``frequency_can_be_parent`` (§1.7) and
``equation_family`` / ``quadratic_mode`` / ``quadratic_metadata`` (§1.5).

:func:`load_suite` reads a file (or a bundled / official suite by name), validates every
record and compiles its :class:`~causalcheck.lab.scm.SCM`; any problem is an
:class:`~causalcheck.base.errors.InputFormatError` that names ``file:line``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from causalcheck.base import safejson
from causalcheck.base.bundled import official_suite_files
from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import read_input_text
from causalcheck.graph import FREQ
from causalcheck.lab.scm import SCM, finite_number

__all__ = [
    "MAX_BUDGET",
    "MAX_SUITE_GRAPHS",
    "HiddenSpec",
    "Suite",
    "SuiteGraph",
    "bundled_suites",
    "find_suite",
    "load_suite",
    "official_data_dir",
    "parse_suite_record",
]


#: Largest ``budget`` (interventions) a suite record may set: an episode runs at most
#: 4·budget + 20 steps, and the released suites use at most 24.
MAX_BUDGET = 10_000
#: Most records one suite file may hold (the released suites have 50 each).
MAX_SUITE_GRAPHS = 100_000


@dataclass(frozen=True)
class HiddenSpec:
    """The hidden disturbance ``h`` of a suite record (causalab-spec §1.6)."""

    name: str = "h"
    initial_value: float = 0.0
    value_space: tuple[float, ...] = (-1.0, 0.0, 1.0)
    edge_weight: float = 0.5
    affected_nodes: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class SuiteGraph:
    """One validated suite record and its compiled SCM (``config`` is the record unchanged)."""

    graph_id: str
    config: Mapping[str, Any]
    scm: SCM
    budget: int
    hidden: HiddenSpec | None = None
    bootstrap: tuple[Mapping[str, Any], ...] = ()
    frequency_can_be_parent: bool = False
    quadratic_metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def family(self) -> str:
        """``"linear"`` or ``"quadratic"`` (from ``equation_family`` or the compiled equations)."""
        fam = self.config.get("equation_family")
        return str(fam) if isinstance(fam, str) else self.scm.family

    @property
    def is_golden(self) -> bool:
        return bool(self.bootstrap)


@dataclass(frozen=True)
class Suite:
    """A named, ordered collection of graphs."""

    name: str
    graphs: tuple[SuiteGraph, ...]
    path: str = ""
    #: SHA-256 of the suite file's text (what a run records, so ``--resume`` sees an edited file)
    sha256: str = ""

    def __len__(self) -> int:
        return len(self.graphs)

    def __iter__(self) -> Any:
        return iter(self.graphs)

    def get(self, graph_id: str) -> SuiteGraph:
        """The graph with *graph_id* (the first one when ids repeat)."""
        for g in self.graphs:
            if g.graph_id == graph_id:
                return g
        raise InputFormatError(f"graph_id={graph_id!r} is not in suite {self.name!r}")


def _parse_hidden(obj: Any, names: Iterable[str], where: str) -> HiddenSpec | None:
    if obj is None:
        return None
    if not isinstance(obj, Mapping):
        raise InputFormatError(f"{where}: hidden_variable={obj!r} must be an object")
    if not obj.get("enabled", True):
        return None
    space = obj.get("value_space", [-1.0, 0.0, 1.0])
    if not isinstance(space, list) or not space:
        raise InputFormatError(f"{where}: hidden_variable.value_space={space!r} must be a non-empty list of numbers")
    affected = obj.get("affected_nodes", [])
    if not isinstance(affected, list) or not all(isinstance(a, str) for a in affected):
        raise InputFormatError(f"{where}: hidden_variable.affected_nodes={affected!r} must be a list of node names")
    known = set(names)
    for a in affected:
        if a not in known:
            raise InputFormatError(f"{where}: hidden_variable.affected_nodes names unknown node={a!r}")
    return HiddenSpec(
        name=str(obj.get("name", "h")),
        initial_value=finite_number(obj.get("initial_value", 0.0), f"{where}: hidden_variable.initial_value"),
        value_space=tuple(finite_number(v, f"{where}: hidden_variable.value_space[]") for v in space),
        edge_weight=finite_number(obj.get("edge_weight", 0.5), f"{where}: hidden_variable.edge_weight"),
        affected_nodes=tuple(affected),
    )


def _parse_bootstrap(obj: Any, names: set[str], where: str) -> tuple[Mapping[str, Any], ...]:
    if obj is None:
        return ()
    if not isinstance(obj, list):
        raise InputFormatError(f"{where}: bootstrap_past_data={obj!r} must be a list")
    out = []
    for k, entry in enumerate(obj):
        w = f"{where}: bootstrap_past_data[{k}]"
        if not isinstance(entry, Mapping) or not isinstance(entry.get("props"), Mapping):
            raise InputFormatError(f"{w}={entry!r} must be an object with 'props'")
        for prop, value in entry["props"].items():
            if prop not in names:
                raise InputFormatError(f"{w}: unknown property={prop!r}")
            finite_number(value, f"{w}.props[{prop!r}]")
        missing = sorted(names - {FREQ} - set(entry["props"]))
        if missing:  # the planner compares every property across a bootstrap sequence
            raise InputFormatError(f"{w}: props={sorted(entry['props'])!r} must give every property; missing {missing!r}")
        finite_number(entry.get("freq"), f"{w}.freq")
        iv = entry.get("intervention")
        if iv is not None:
            target = iv.get("target_prop") if isinstance(iv, Mapping) else None
            if not isinstance(target, str) or target not in names:
                raise InputFormatError(f"{w}.intervention={iv!r} must name a known target_prop")
            finite_number(iv.get("target_value"), f"{w}.intervention.target_value")
        out.append(dict(entry))
    return tuple(out)


def _check_presets(qmeta: Mapping[str, Any], names: set[str], where: str) -> None:
    """The crystal presets the episode uses (``property_manipulator``, ``reactor``, each of
    ``observation_presets``): every value given for a node must be a finite number."""
    presets: list[tuple[str, Any]] = [(k, qmeta.get(k)) for k in ("property_manipulator", "reactor")]
    observed = qmeta.get("observation_presets")
    if isinstance(observed, list):
        presets += [(f"observation_presets[{k}]", p) for k, p in enumerate(observed)]
    for key, preset in presets:
        if isinstance(preset, Mapping):
            for name, value in preset.items():
                if name in names:
                    finite_number(value, f"{where}: quadratic_metadata.{key}[{name!r}]")


def parse_suite_record(obj: Any, *, where: str = "<record>") -> SuiteGraph:
    """Validate one suite record (a decoded JSON object) and compile it."""
    if not isinstance(obj, Mapping):
        raise InputFormatError(f"{where}: record={str(obj)[:60]!r} must be a JSON object")
    gid = obj.get("graph_id")
    if not isinstance(gid, str) or not gid:
        raise InputFormatError(f"{where}: graph_id={gid!r} must be a non-empty string")
    where = f"{where} ({gid})"
    scm = SCM.from_config(obj, source=where)
    budget = obj.get("budget", 4 * (len(scm.nodes) - 1))
    if isinstance(budget, bool) or not isinstance(budget, int) or not 0 <= budget <= MAX_BUDGET:
        raise InputFormatError(f"{where}: budget={budget!r} must be an integer in 0..MAX_BUDGET={MAX_BUDGET}")
    fcp = bool(obj.get("frequency_can_be_parent", False))
    if not fcp and scm.graph.children(FREQ):
        raise InputFormatError(
            f"{where}: {FREQ} has children {list(scm.graph.children(FREQ))!r} but frequency_can_be_parent is not set"
        )
    qmeta = obj.get("quadratic_metadata", {})
    if not isinstance(qmeta, Mapping):
        raise InputFormatError(f"{where}: quadratic_metadata={qmeta!r} must be an object")
    _check_presets(qmeta, set(scm.nodes), where)
    return SuiteGraph(
        graph_id=gid,
        config=obj,
        scm=scm,
        budget=budget,
        hidden=_parse_hidden(obj.get("hidden_variable"), scm.nodes, where),
        bootstrap=_parse_bootstrap(obj.get("bootstrap_past_data"), set(scm.nodes), where),
        frequency_can_be_parent=fcp,
        quadratic_metadata=qmeta,
    )


def parse_suite_text(text: str, *, name: str, source: str) -> Suite:
    """Parse JSONL *text*; errors name ``source:line``."""
    graphs: list[SuiteGraph] = []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if len(graphs) >= MAX_SUITE_GRAPHS:
            raise InputFormatError(f"{source}: more than MAX_SUITE_GRAPHS={MAX_SUITE_GRAPHS} records")
        try:
            obj = safejson.loads(line, source=f"{source}:{lineno}")
        except safejson.JSONSyntaxError as exc:
            raise InputFormatError(
                f"{source}:{lineno}:{exc.column}: suite line is not valid JSON ({exc.msg}): {line[:60]!r}"
            ) from None
        graphs.append(parse_suite_record(obj, where=f"{source}:{lineno}"))
    if not graphs:
        raise InputFormatError(f"{source}: suite file has no records")
    return Suite(name, tuple(graphs), source, hashlib.sha256(text.encode("utf-8")).hexdigest())


def official_data_dir() -> Path | None:
    """The folder of the official CausaLab suite files, shipped inside the package.

    ``None`` only when the installation is damaged (the files are package data,
    :mod:`causalcheck.base.bundled`).
    """
    files = official_suite_files()
    return files[0].parent if files else None


def describe_suite_text(text: str) -> str:
    """A one-line description of a suite file's text: how many graphs of how many nodes.

    >>> describe_suite_text('{"nodes": {"a": {}, "b": {}}}\\n{"nodes": {"a": {}, "b": {}, "c": {}}}\\n')
    '2 graphs of 2-3 nodes'
    """
    import json

    sizes: list[int] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            nodes = json.loads(line).get("nodes", {})
        except (json.JSONDecodeError, AttributeError):
            return "not a valid suite file"
        sizes.append(len(nodes) if isinstance(nodes, dict) else 0)
    if not sizes:
        return "no graphs"
    lo, hi = min(sizes), max(sizes)
    span = f"{lo}" if lo == hi else f"{lo}-{hi}"
    return f"{len(sizes)} graph{'s' if len(sizes) != 1 else ''} of {span} nodes"


def bundled_suites() -> dict[str, str]:
    """Names of causalcheck's own suites shipped with the package → a short description."""
    out: dict[str, str] = {}
    folder = resources.files("causalcheck") / "data" / "suites"
    if not folder.is_dir():
        return out
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".jsonl"):
            out[entry.name[: -len(".jsonl")]] = describe_suite_text(entry.read_text(encoding="utf-8"))
    return out


def official_suites() -> dict[str, str]:
    """Names of the official CausaLab suites shipped with the package → the release manifest's purpose and size."""
    import json

    folder = official_data_dir()
    if folder is None:
        return {}
    purposes: dict[str, str] = {}
    manifest = folder.parent / "manifest.json"
    if manifest.is_file():
        for f in json.loads(manifest.read_text(encoding="utf-8")).get("files", []):
            purposes[str(f.get("filename", ""))] = str(f.get("purpose", ""))
    out: dict[str, str] = {}
    for f in sorted(folder.glob("*.jsonl")):
        size = describe_suite_text(f.read_text(encoding="utf-8"))
        purpose = purposes.get(f.name, "")
        out[f.stem] = f"{size}: {purpose}" if purpose else size
    return out


def find_suite(name_or_path: str) -> tuple[str, str]:
    """Resolve a path, a bundled suite name or an official suite name → ``(name, text)``."""
    p = Path(name_or_path)
    if p.suffix == ".jsonl" or p.exists():
        return p.stem, read_input_text(p, what="suite")
    bundled = resources.files("causalcheck") / "data" / "suites" / f"{name_or_path}.jsonl"
    if bundled.is_file():
        return name_or_path, bundled.read_text(encoding="utf-8")
    official = official_data_dir()
    if official is not None and (official / f"{name_or_path}.jsonl").is_file():
        return name_or_path, (official / f"{name_or_path}.jsonl").read_text(encoding="utf-8")
    known = sorted(bundled_suites())
    if official is not None:
        known += sorted(f.stem for f in official.glob("*.jsonl"))
    raise InputFormatError(f"suite={name_or_path!r} is neither a file nor a known suite name; known: {known!r}")


def load_suite(name_or_path: str | Path) -> Suite:
    """Load and validate a suite from a JSONL path or by name (bundled first, then official)."""
    name, text = find_suite(str(name_or_path))
    p = Path(name_or_path)
    source = str(p) if p.exists() else name
    return parse_suite_text(text, name=name, source=source)
