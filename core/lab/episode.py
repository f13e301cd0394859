"""Lab episodes: ``reset(seed)`` / ``step(action)`` over one hidden SCM (causalab-spec §2).

The cast (§2.1): a *manipulator* crystal whose controllable properties the agent may set,
one at a time, seeing every property and the frequency afterwards; and a *reactor*
crystal (same SCM, other bases) whose frequency is hidden and must be predicted.  The
agent starts with ``N`` prior measurement records (§2.2; default 2, drawn with the
anchor's fixed ``Random(42)`` so records are identical across seeds) and, for golden
suites, the pre-collected trace (§1.8).

Budgets (all in :class:`EpisodeConfig`): ``interventions`` (default: the graph's
``budget`` = 4(k−1); 0 for golden suites as in the anchor scripts), ``submissions`` = 3,
``tolerance`` = ±5 Hz (strict: ``|f − F*| < 5``).  Submissions are clamped at 0; the
anchor's 10 000 Hz ceiling (which makes some large-graph targets unreachable, §8.8) is off
by default and available as ``freq_ceiling=10000``.  The original reactor counts a submission
before checking the limit, so only its first ``submissions − 1`` can activate it;
``anchor_submissions=True`` reproduces that (default: every submission can).  Opening the reactor (or submitting a
frequency) locks the manipulator for the rest of the episode (§2.5).  Actions the
environment cannot do (unknown property, non-numeric value, spent budget, locked machine)
are *refused*: the episode continues, the step is counted and the observation says why.
Stepping a finished episode raises :class:`~causalcheck.base.errors.BudgetExceededError`.

Randomness is explicit (our fix of §8.4): the manipulator and reactor bases are drawn from
``numpy.random.default_rng([seed, role, crc32(node)])`` with integers in [0, 100], the
hidden disturbance from ``default_rng([seed, 2, crc32(graph_id)])``; the same seed gives the
same episode on any machine and in any process.

Observations come as structured data (:class:`Observation`) and as the text an LLM would
see (``Observation.text`` and ``TaskInfo.text``).  The text prints numbers, records and
status blocks as the original does: a value the original holds as a Python int (integer
bases, JSON-int coefficients, no float on the way) prints as ``39``, any other as a float
(``50.0``); prior records are Python dicts in evaluation order with the frequency in its
place; the manipulator block is ``Crystal Analysis:`` … ``Uses: u/N (Remaining: r)`` and
the reactor block ``Crystal properties (directly shown):`` … ``Usage: u/N submissions.``.  The action vocabulary
(:class:`LabAction`) is small: ``intervene`` (prop, value), ``open_reactor``,
``submit_frequency`` (value), ``finish`` and ``wait``; :meth:`LabAction.from_record`
reads it from a record's action fields (``{"action": "INTERVENE", "arg1": prop,
"arg2": value}``, ``{"action": "OPEN_REACTOR"}``, ``{"action": "SET_FREQUENCY",
"arg1": f}``, ``{"action": "SUBMIT"}``).

Options (off by default, §2.9–2.10): hard ``do()`` instead of shifts, observation /
intervention budget grids (:meth:`EpisodeConfig.from_tag` reads ``"3o6i"``), oracle
chains after each intervention, the candidate-graph tool (needs the suite's graphs), and
the known-structure ablation.

One module because an episode is one state machine (reset, step, budgets, refusals, phase lock,
and the task and observation texts the agent reads), the contract with CausaLab's environment
(causalab-spec §2); every helper here serves only :class:`Episode`.
"""

from __future__ import annotations

import math
import random
import re
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from causalcheck.base.errors import BudgetExceededError, InputFormatError
from causalcheck.graph import FREQ, CausalGraph
from causalcheck.graphs.model import depth_first
from causalcheck.lab.scm import parse_computation
from causalcheck.lab.seeding import FirstIntegers
from causalcheck.lab.suites import SuiteGraph
from causalcheck.protocols import Agent

__all__ = [
    "ANCHOR_FREQ_CEILING",
    "EPISODE_FLAGS",
    "MAX_PRIOR_RECORDS",
    "MAX_RUN_BUDGET",
    "Agent",
    "AgentStep",
    "Episode",
    "EpisodeConfig",
    "LabAction",
    "Observation",
    "TaskInfo",
]

ActionKind = Literal["intervene", "open_reactor", "submit_frequency", "finish", "wait"]
_KINDS = ("intervene", "open_reactor", "submit_frequency", "finish", "wait")
FREQ_MIN = 0.0
#: The anchor's reactor ceiling (use ``EpisodeConfig(freq_ceiling=ANCHOR_FREQ_CEILING)``).
ANCHOR_FREQ_CEILING = 10000.0
#: Largest ``prior_records`` (``--prior-records``, ``--budget <N>o…``; the anchor's grid goes to 10).
MAX_PRIOR_RECORDS = 1_000
#: Largest ``interventions`` / ``submissions`` (an episode runs at most 4·budget + 20 steps; the
#: released suites use at most 24 interventions) — also the bound of ``max_steps`` / 4.
MAX_RUN_BUDGET = 10_000

#: The flags of ``lab run`` (and the ``causalcheck/lab`` inspect task) that :meth:`EpisodeConfig.from_flags` reads, with their defaults.
EPISODE_FLAGS: Mapping[str, Any] = MappingProxyType({
    "budget": None,
    "prior_records": None,
    "interventions": None,
    "submissions": 3,
    "tolerance": 5.0,
    "do": False,
    "hidden": True,
    "oracle_chains": False,
    "candidate_tool": False,
    "known_structure": False,
    "anchor_ceiling": False,
    "anchor_submissions": False,
    "max_steps": None,
})


def _crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


@dataclass(frozen=True)
class EpisodeConfig:
    """Budgets and options of an episode; every field has the anchor's default.

    ``interventions=None`` means the graph's ``budget`` (0 for golden suites).
    ``prior_seed`` seeds the prior records (``None`` → derived from the episode seed).
    """

    prior_records: int = 2
    interventions: int | None = None
    submissions: int = 3
    tolerance: float = 5.0
    intervention_mode: Literal["shift", "do"] = "shift"
    hidden: bool = True
    prior_seed: int | None = 42
    oracle_chains: bool = False
    candidate_tool: bool = False
    candidate_limit: int = 20
    known_structure: bool = False
    max_steps: int | None = None
    freq_ceiling: float | None = None
    anchor_submissions: bool = False

    def __post_init__(self) -> None:
        for name in ("prior_records", "submissions"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise InputFormatError(f"{name}={v!r} must be a non-negative integer")
        if self.interventions is not None and (
            isinstance(self.interventions, bool) or not isinstance(self.interventions, int) or self.interventions < 0
        ):
            raise InputFormatError(f"interventions={self.interventions!r} must be a non-negative integer or None")
        if isinstance(self.tolerance, bool) or not isinstance(self.tolerance, (int, float)) or not 0 < self.tolerance < math.inf:
            raise InputFormatError(f"tolerance={self.tolerance!r} must be a positive finite number")
        if self.intervention_mode not in ("shift", "do"):
            raise InputFormatError(f"intervention_mode={self.intervention_mode!r} must be 'shift' or 'do'")
        if self.freq_ceiling is not None and (
            isinstance(self.freq_ceiling, bool) or not isinstance(self.freq_ceiling, (int, float)) or not 0 < self.freq_ceiling < math.inf
        ):
            raise InputFormatError(f"freq_ceiling={self.freq_ceiling!r} must be a positive finite number or None")
        if self.max_steps is not None and (isinstance(self.max_steps, bool) or not isinstance(self.max_steps, int) or self.max_steps < 1):
            raise InputFormatError(f"max_steps={self.max_steps!r} must be a positive integer or None")
        if not isinstance(self.anchor_submissions, bool):
            raise InputFormatError(f"anchor_submissions={self.anchor_submissions!r} must be true or false")
        self._check_bounds()

    def _check_bounds(self) -> None:
        """No episode loop is bounded by an unchecked number: budgets and the step cap have maxima."""
        for name, top, limit in (
            ("prior_records", MAX_PRIOR_RECORDS, "MAX_PRIOR_RECORDS"),
            ("interventions", MAX_RUN_BUDGET, "MAX_RUN_BUDGET"),
            ("submissions", MAX_RUN_BUDGET, "MAX_RUN_BUDGET"),
            ("max_steps", 4 * MAX_RUN_BUDGET + 20, "4*MAX_RUN_BUDGET+20"),
        ):
            v = getattr(self, name)
            if v is not None and v > top:
                raise InputFormatError(f"{name}={v!r} is more than {limit}={top}")

    @classmethod
    def from_flags(cls, flags: Mapping[str, Any]) -> EpisodeConfig:
        """The config of ``lab run``'s flags of the same names (:data:`EPISODE_FLAGS`; other keys are ignored).

        ``budget`` is the anchor's tag (``"3o6i"``: records and interventions; it wins over
        ``prior_records`` / ``interventions``), ``do`` the do-intervention mode, ``anchor_ceiling``
        the anchor's reactor ceiling; a missing or ``None`` flag takes the default.

        >>> EpisodeConfig.from_flags({"budget": "3o6i", "do": True}).interventions
        6
        """
        f = {name: flags[name] if flags.get(name) is not None else default for name, default in EPISODE_FLAGS.items()}
        kwargs: dict[str, Any] = {
            "submissions": f["submissions"],
            "tolerance": f["tolerance"],
            "intervention_mode": "do" if f["do"] else "shift",
            "hidden": f["hidden"],
            "oracle_chains": f["oracle_chains"],
            "candidate_tool": f["candidate_tool"],
            "known_structure": f["known_structure"],
            "freq_ceiling": ANCHOR_FREQ_CEILING if f["anchor_ceiling"] else None,
            "anchor_submissions": f["anchor_submissions"],
            "max_steps": f["max_steps"],
        }
        if f["budget"]:
            return cls.from_tag(f["budget"], **kwargs)
        for name in ("prior_records", "interventions"):
            if f[name] is not None:
                kwargs[name] = f[name]
        return cls(**kwargs)

    @classmethod
    def from_tag(cls, tag: str, **kwargs: Any) -> EpisodeConfig:
        """A budget-grid setting from the anchor's ``<obs>o<int>i`` tag, e.g. ``"3o6i"``."""
        m = re.fullmatch(r"\s*(\d+)o(\d+)i\s*", tag)
        if not m:
            raise InputFormatError(f"budget tag={tag!r} must look like '3o6i' (<records>o<interventions>i)")
        return cls(prior_records=int(m.group(1)), interventions=int(m.group(2)), **kwargs)

    def intervention_budget(self, graph: SuiteGraph) -> int:
        """The interventions an episode of *graph* allows: ``interventions``, else the graph's budget (0 when golden)."""
        if self.interventions is not None:
            return self.interventions
        return 0 if graph.is_golden else graph.budget

    def step_limit(self, graph: SuiteGraph) -> int:
        """The steps after which an episode of *graph* stops: ``max_steps``, else 4 · budget + 20."""
        return self.max_steps or 4 * self.intervention_budget(graph) + 20

    def to_json(self) -> dict[str, Any]:
        """The fields as JSON; options added later are written only when set (older run folders still resume)."""
        d = asdict(self)
        for name, default in _LATER_OPTIONS.items():
            if d.get(name) == default:
                del d[name]
        return d


#: Options added after run folders existed, with their defaults (left out of ``to_json`` when default).
_LATER_OPTIONS: dict[str, Any] = {"anchor_submissions": False}


@dataclass(frozen=True)
class LabAction:
    """One thing the agent does this step (see the module docstring for the vocabulary)."""

    kind: str
    prop: str | None = None
    value: Any = None
    text: str | None = None

    @classmethod
    def intervene(cls, prop: str, value: float) -> LabAction:
        return cls("intervene", prop, value)

    @classmethod
    def submit(cls, value: float) -> LabAction:
        return cls("submit_frequency", None, value)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.prop is not None:
            out["prop"] = self.prop
        if self.value is not None:
            out["value"] = self.value
        if self.text is not None:
            out["text"] = self.text
        return out

    def to_record_fields(self) -> dict[str, Any]:
        """The CausaLab-style action fields this action is written as in a record."""
        if self.kind == "intervene":
            return {"action": "INTERVENE", "arg1": self.prop, "arg2": self.value}
        if self.kind == "open_reactor":
            return {"action": "OPEN_REACTOR"}
        if self.kind == "submit_frequency":
            return {"action": "SET_FREQUENCY", "arg1": self.value}
        if self.kind == "finish":
            return {"action": "SUBMIT", "arg1": self.text or "Task completed!"}
        return {"action": "WAIT"}

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> LabAction:
        """Read the action fields of a record (unknown forms become ``wait`` with the reason)."""
        name = record.get("action")
        if not isinstance(name, str):
            return cls._new("wait", text=f"no action field in record (action={name!r})")
        key = name.strip().upper()
        if key in ("INTERVENE", "SET_PROPERTY", "ADJUST"):
            return cls._new("intervene", None if record.get("arg1") is None else str(record.get("arg1")), record.get("arg2"))
        if key in ("OPEN_REACTOR", "TALK_REACTOR"):
            return cls._new("open_reactor")
        if key in ("SET_FREQUENCY", "SUBMIT_FREQUENCY"):
            return cls._new("submit_frequency", None, record.get("arg1"))
        if key in ("SUBMIT", "FINISH"):
            return cls._new("finish", text=None if record.get("arg1") is None else str(record.get("arg1")))
        if key in ("WAIT", "NOOP", "NONE"):  # the record format's own no-op (the controller's fallback)
            return cls._new("wait")
        return cls._new("wait", text=f"unknown action={name!r}")

    @classmethod
    def _new(cls, kind: str, prop: str | None = None, value: Any = None, text: str | None = None) -> LabAction:
        """``cls(kind, prop, value, text)`` with the fields filled directly (a frozen dataclass's
        ``__init__`` sets each through ``object.__setattr__``; this is read once per step)."""
        action = object.__new__(cls)
        action.__dict__.update(kind=kind, prop=prop, value=value, text=text)
        return action


@dataclass(frozen=True)
class TaskInfo:
    """What the agent knows when the episode starts (structured; ``text`` is the LLM form)."""

    graph_id: str
    properties: tuple[str, ...]
    controllable: tuple[str, ...]
    display_names: Mapping[str, str]
    prior_records: tuple[Mapping[str, Any], ...]
    bootstrap: tuple[Mapping[str, Any], ...]
    budgets: Mapping[str, Any]
    frequency_can_be_parent: bool
    equation_family: str
    hidden_disturbance: bool
    structure: Mapping[str, Any] | None
    text: str
    target: str = FREQ

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["properties"] = list(self.properties)
        d["controllable"] = list(self.controllable)
        d["prior_records"] = list(self.prior_records)
        d["bootstrap"] = list(self.bootstrap)
        return d


@dataclass(frozen=True)
class Observation:
    """What the agent sees before its next step.

    ``state`` is the manipulator crystal as displayed (evaluation order, frequency
    included); ``response`` is the environment's answer to the previous action (``{}`` at
    reset); ``reactor_props`` is ``None`` until the reactor is opened.
    """

    step: int
    phase: str
    state: Mapping[str, float]
    interventions_used: int
    interventions_left: int
    submissions_used: int
    submissions_left: int
    reactor_props: Mapping[str, float] | None
    response: Mapping[str, Any]
    done: bool
    success: bool
    reward: float
    text: str
    oracle_chains: tuple[tuple[str, ...], ...] = ()
    candidates: tuple[tuple[tuple[str, str], ...], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["state"] = dict(self.state)
        d["reactor_props"] = None if self.reactor_props is None else dict(self.reactor_props)
        d["oracle_chains"] = [list(c) for c in self.oracle_chains]
        d["candidates"] = None if self.candidates is None else [[list(e) for e in g] for g in self.candidates]
        return d


# ---------------------------------------------------------------------- the agent protocol
@dataclass(frozen=True)
class AgentStep:
    """What an agent returns each step: its CausaLab-format ``record``, the ``action`` the
    environment executes, and optional ``info`` (e.g. ``imec_size``, ``llm_calls``)."""

    record: Mapping[str, Any]
    action: LabAction
    info: Mapping[str, Any] = field(default_factory=dict)

    def problems(self) -> list[str]:
        """What keeps this step from being played and written (a plug-in agent's step is checked before use)."""
        import json

        out = [f"action={self.action!r:.80} must be a LabAction"] if not isinstance(self.action, LabAction) else []
        for name in ("record", "info"):
            value = getattr(self, name)
            if not isinstance(value, Mapping):
                out.append(f"{name}={value!r:.80} must be a mapping")
                continue
            try:
                json.dumps(dict(value), allow_nan=False)
            except (TypeError, ValueError) as exc:
                out.append(f"{name} cannot be written as JSON: {exc}")
        return out


def _fmt(v: float) -> str:
    return repr(float(v))


def _to_number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        f = float(value)
    elif isinstance(value, str):
        try:
            f = float(value.strip())
        except ValueError:
            return None
    else:
        return None
    return f if math.isfinite(f) else None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _typed(value: float, is_int: bool) -> int | float:
    """*value* with the Python type the original holds it in (ints stay ints)."""
    return int(value) if is_int and float(value).is_integer() else float(value)


def _show(value: float, is_int: bool) -> str:
    """How the original prints a property value: ``39`` for an int, ``50.0`` / ``114.25`` for a float."""
    return repr(_typed(value, is_int))


#: The reactor dialog lists these keys in this order (those present; causalab-spec §2.6).
REACTOR_KEY_ORDER = ("temperatureC", "moisture", "density", "quantumSize", "radiation", "pressure", "ph", "conductivity")

_FLOAT_LITERAL = re.compile(r"\d\.|\.\d|\d[eE]")
_NEGATIVE_POWER = re.compile(r"(\^|\*\*)\s*\(?\s*-")


def _int_equations(graph: SuiteGraph) -> tuple[bool, ...]:
    """Per node: does the original's evaluation keep a Python int when every input is an int?

    The original evaluates ``computation`` with the params as JSON gives them (``1`` is an
    int, ``25.0`` a float) and ints for crystal bases drawn with ``randint``; ``round(int, 2)``
    stays an int.  So a value is an int iff every param it reads is a JSON int, the text has
    no float literal, no ``/`` and no negative power, and every base and parent it reads is
    an int.  This is the static part (params and text).
    """
    scm = graph.scm
    params = graph.config.get("params") or {}
    nodes = graph.config.get("nodes") or {}
    out: list[bool] = []
    for i, name in enumerate(scm.nodes):
        spec = nodes.get(name) if isinstance(nodes, Mapping) else None
        comp = spec.get("computation") if isinstance(spec, Mapping) else None
        if not isinstance(comp, str):
            out.append(True)
            continue
        if "/" in comp or _FLOAT_LITERAL.search(comp) or _NEGATIVE_POWER.search(comp):
            out.append(False)
            continue
        eq = parse_computation(comp)
        ctrl = i in scm.controllable
        ok = True
        for ident in (*eq.variables, *eq.coefficient_names):
            if ident in scm.index or (ctrl and ident in (f"base_{name}", "base")):
                continue
            ok = ok and _is_int(params.get(ident))
        out.append(ok)
    return tuple(out)


@dataclass
class _State:
    bases: list[float]
    clean: list[float]
    shown: list[float]
    fixed: dict[int, float] = field(default_factory=dict)
    h: float = 0.0
    base_int: list[bool] = field(default_factory=list)
    h_active: bool = False
    types: dict[str, bool] | None = None
    # the shown state as a name -> value dict and the observation's crystal lines, built once per
    # change of ``shown`` (an accepted intervention clears both) instead of once per step
    state: dict[str, float] | None = None
    crystal: str | None = None


class Episode:
    """One episode over one suite graph.  Create, then :meth:`reset`, then :meth:`step`.

    ``candidates`` (graphs of the whole suite) is only used by the candidate-graph tool.
    """

    def __init__(
        self,
        graph: SuiteGraph,
        config: EpisodeConfig | None = None,
        *,
        candidates: Sequence[CausalGraph] = (),
    ) -> None:
        self.graph = graph
        self.config = config or EpisodeConfig()
        self.scm = graph.scm
        self._display = dict(zip(self.scm.nodes, self.scm.display_names, strict=False))
        self._candidates = tuple(candidates)
        self.intervention_budget = self.config.intervention_budget(graph)
        self.max_steps = self.config.step_limit(graph)
        self._reset_done = False
        self._eq_int = _int_equations(graph)
        idx = self._index = self.scm.index
        #: (name, index) of every node in evaluation order: the order of a state's dict
        self._order_pairs = tuple((self.scm.nodes[i], i) for i in self.scm.order)
        self._parents = tuple(tuple(idx[p] for p in self.scm.graph.parents(n)) for n in self.scm.nodes)
        self._needs_base = tuple(eq.base_coef != 0.0 for eq in self.scm.equations)
        self._int_order = tuple(i for i in self.scm.order if self._eq_int[i])
        #: each node and its descendants, by name (what an intervention can turn into floats)
        self._downstream = tuple((n, *sorted(self.scm.graph.descendants(n))) for n in self.scm.nodes)
        #: the order the original lists the crystal in while the hidden disturbance acts
        self._hidden_order = _children_first_order(self.scm.nodes, self.scm.graph.edges)
        self._affected: frozenset[int] = frozenset()
        #: crc32 of each node's name (its crystal-base generators' entropy)
        self._crcs = tuple(_crc(n) for n in self.scm.nodes)
        self._bases = self._base_plan()
        self._task_properties = tuple(self.scm.nodes[i] for i in self.scm.order if i != self.scm.freq)
        self._controllable_names = self.scm.controllable_names
        meta = graph.quadratic_metadata if isinstance(graph.quadratic_metadata, Mapping) else {}
        #: which manipulator bases the original holds as ints at a reset (a step changes its copy)
        self._manipulator_base_int = tuple(self._base_types(meta.get("property_manipulator")))
        #: which reactor values the original holds as ints (its bases are never changed)
        self._reactor_types = dict(zip(self.scm.nodes, self._int_flags(self._base_types(meta.get("reactor"))), strict=True))
        #: the prior records and their shown values, and the task text, when every episode has the same (a prior_seed)
        self._fixed_prior: tuple[list[dict[str, Any]], list[dict[str, int | float]]] | None = None
        self._fixed_task_text: str | None = None
        self._prior_shown: list[dict[str, int | float]] = []

    # ------------------------------------------------------------------ set-up
    def _base_plan(self) -> tuple[tuple[list[float], list[int]], tuple[list[float], list[int]], FirstIntegers]:
        """Per role (0 the manipulator, 1 the reactor): the bases with the suite's presets in place
        and the nodes drawn; and the draws of both roles' nodes, ``(role, crc32(node))`` each."""
        scm = self.scm
        meta = self.graph.quadratic_metadata
        roles = []
        tails = []
        for role, preset_key in enumerate(("property_manipulator", "reactor")):
            preset = meta.get(preset_key) if isinstance(meta, Mapping) else None
            bases = [0.0] * len(scm.nodes)
            drawn = []
            for i in scm.controllable:
                name = scm.nodes[i]
                if isinstance(preset, Mapping) and name in preset:
                    bases[i] = float(preset[name])
                else:
                    drawn.append(i)
                    tails.append((role, self._crcs[i]))
            roles.append((bases, drawn))
        return roles[0], roles[1], FirstIntegers(tails, 101)

    def _crystal_bases(self, seed: int) -> tuple[list[float], list[float]]:
        """The manipulator's and the reactor's crystal bases of the episode of *seed*: each drawn
        one is ``default_rng([seed, role, crc32(node)]).integers(0, 101)``, computed without
        building the generators (:mod:`causalcheck.lab.seeding`), all of a reset's at once."""
        (base0, drawn0), (base1, drawn1), draws = self._bases
        values = iter(draws(seed))  # the manipulator's drawn nodes, then the reactor's
        mb, rb = base0.copy(), base1.copy()
        for bases, drawn in ((mb, drawn0), (rb, drawn1)):
            for i in drawn:
                bases[i] = float(next(values))
        return mb, rb

    def _base_types(self, preset: Any) -> list[bool]:
        """Which crystal bases the original holds as ints: drawn ones (``randint``) and JSON-int presets."""
        scm = self.scm
        out = [False] * len(scm.nodes)
        for i in scm.controllable:
            name = scm.nodes[i]
            out[i] = _is_int(preset[name]) if isinstance(preset, Mapping) and name in preset else True
        return out

    def _int_flags(
        self, base_int: Sequence[bool], fixed: Mapping[int, float] = {}, h_active: bool = False
    ) -> list[bool]:
        """Which node values the original holds as ints (see :func:`_int_equations`).

        *h_active*: the hidden disturbance acts now; the original adds ``float(w)·float(h)``
        to the affected nodes, so they (and what they feed) turn float — unless the product is
        0, when it leaves the crystal exactly as computed.
        """
        flags = [False] * len(self._eq_int)
        affected = self._affected if h_active else ()
        for i in self._int_order:  # evaluation order, nodes whose equation can stay int
            if (self._needs_base[i] and not base_int[i]) or i in fixed or i in affected:
                continue
            for p in self._parents[i]:
                if not flags[p]:
                    break
            else:
                flags[i] = True
        return flags

    def _hidden_acts(self, h: float) -> bool:
        """Whether the hidden draw *h* changes the manipulator (the original skips ``w·h == 0``)."""
        return self._hidden is not None and bool(self._affected) and self._hidden.edge_weight * h != 0.0

    def _prior_records(self, seed: int) -> list[dict[str, Any]]:
        """The prior records of the episode of *seed* (fresh dicts), and :attr:`_prior_shown`.

        With a ``prior_seed`` (the anchor's 42) they are the same every episode: drawn at the
        first reset and copied after it.
        """
        fixed = self.config.prior_seed is not None
        if fixed and self._fixed_prior is not None:
            records, shown = self._fixed_prior
            self._prior_shown = [dict(d) for d in shown]
            return [{"id": r["id"], "props": dict(r["props"]), "freq": r["freq"]} for r in records]
        records = self._draw_prior_records(seed)
        if fixed:
            self._fixed_prior = (
                [{"id": r["id"], "props": dict(r["props"]), "freq": r["freq"]} for r in records],
                [dict(d) for d in self._prior_shown],
            )
        return records

    def _draw_prior_records(self, seed: int) -> list[dict[str, Any]]:
        import numpy as np

        scm = self.scm
        n = self.config.prior_records
        presets = self.graph.quadratic_metadata.get("observation_presets") if self.graph.quadratic_metadata else None
        py_rng = random.Random(self.config.prior_seed) if self.config.prior_seed is not None else None
        preset_of = [presets[k] if isinstance(presets, list) and k < len(presets) else None for k in range(n)]
        draws: Iterator[int] = iter(())
        if py_rng is None:
            # one array draw: the same numbers as one integers(0, 101) call per base, in order
            count = sum(1 for p in preset_of for i in scm.controllable if not (isinstance(p, Mapping) and scm.nodes[i] in p))
            if count:
                np_rng = np.random.default_rng([seed, 3, _crc(self.graph.graph_id)])
                draws = iter(np_rng.integers(0, 101, size=count).tolist())
        records = []
        for k in range(n):
            bases = [0.0] * len(scm.nodes)
            preset = preset_of[k]
            for i in scm.controllable:
                name = scm.nodes[i]
                if isinstance(preset, Mapping) and name in preset:
                    bases[i] = float(preset[name])
                elif py_rng is not None:
                    bases[i] = float(py_rng.randint(0, 100))
                else:
                    bases[i] = float(next(draws))
            vals = scm.evaluate_list(bases)
            records.append(self._entry(f"{k}/{n}", vals))
            flags = self._int_flags(self._base_types(preset))
            self._prior_shown.append({scm.nodes[i]: _typed(vals[i], flags[i]) for i in scm.order})
        return records

    def _entry(self, ident: str, vals: Sequence[float]) -> dict[str, Any]:
        scm = self.scm
        props = {scm.nodes[i]: vals[i] for i in scm.order if i != scm.freq}
        return {"id": ident, "props": props, "freq": vals[scm.freq]}

    def reset(self, seed: int) -> tuple[TaskInfo, Observation]:
        """Start the episode for *seed*; returns the task description and the first observation."""
        import numpy as np

        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputFormatError(f"seed={seed!r} must be an integer")
        scm = self.scm
        self.seed = seed
        hid = self.graph.hidden if self.config.hidden else None
        self._hidden = hid
        self._affected = frozenset(scm.index[n] for n in hid.affected_nodes) if hid else frozenset()
        # the disturbance's generator, only when one acts (building one is most of a reset's cost)
        self._hrng = np.random.default_rng([seed, 2, _crc(self.graph.graph_id)]) if hid is not None else None
        mb, rb = self._crystal_bases(seed)
        clean = scm.evaluate_list(mb)
        h0 = hid.initial_value if hid else 0.0
        # without a disturbance the shown crystal is the clean one (a step replaces, never mutates, clean)
        shown = scm.evaluate_list(mb, h=h0, affected=self._affected, weight=hid.edge_weight) if hid else clean
        self._st = _State(mb, clean, shown, {}, h0, list(self._manipulator_base_int), self._hidden_acts(h0))
        rvals = scm.evaluate_list(rb)
        self.reactor_values = rvals
        self.target_freq = rvals[scm.freq]
        self.reactor_props = {scm.nodes[i]: rvals[i] for i in scm.order if i != scm.freq}
        self.manipulator_initial = {scm.nodes[i]: shown[i] for i in scm.order}
        self._prior_shown = []
        self.prior = self._prior_records(seed)
        self.interventions_used = 0
        self.submissions_used = 0
        self.steps = 0
        self.locked = False
        self.done = False
        self.success = False
        self.done_reason = ""
        self.submitted: list[float] = []
        self.transitions: list[dict[str, Any]] = []
        self._line_memo: dict[str, tuple[Any, Any, str]] = {}  # _crystal_lines' memo, per episode
        self._reactor_block: str | None = None  # _reactor_lines of this episode's reactor, once opened
        self.task = self._task_info()
        self._reset_done = True
        obs = self._observe({}, ())
        return self.task, obs

    # ------------------------------------------------------------------ views
    @property
    def hidden_value(self) -> float:
        """The hidden disturbance ``h`` now acting on the manipulator (0.0 without one).

        It starts at the suite's ``initial_value`` and is drawn again after every accepted
        intervention; the agent never sees it (a differential against another environment
        feeds it the same draws).
        """
        return self._st.h

    def budgets(self) -> dict[str, Any]:
        return {
            "prior_records": self.config.prior_records,
            "interventions": self.intervention_budget,
            "submissions": self.config.submissions,
            "tolerance_hz": float(self.config.tolerance),
            "max_steps": self.max_steps,
        }

    def _structure(self) -> dict[str, Any]:
        g = self.scm.graph
        return {
            "nodes": list(self.scm.nodes),
            "edges": [{"from": e.source, "to": e.target} for e in g.edges],
            "frequency_parents": list(g.parents(FREQ)),
            "hidden_affected": list(self._hidden.affected_nodes) if self._hidden else [],
        }

    def _task_info(self) -> TaskInfo:
        structure = self._structure() if self.config.known_structure else None
        fixed_text = self._fixed_task_text if self._fixed_prior is not None else None
        # filled field by field as Observation is (a frozen dataclass's __init__ is 4x slower); a
        # test compares the value with the dataclass's
        info = object.__new__(TaskInfo)
        info.__dict__.update(
            graph_id=self.graph.graph_id,
            properties=self._task_properties,
            controllable=self._controllable_names,
            display_names=dict(self._display),
            prior_records=tuple(self.prior),
            bootstrap=tuple(self.graph.bootstrap),
            budgets=self.budgets(),
            frequency_can_be_parent=self.graph.frequency_can_be_parent,
            equation_family=self.graph.family,
            hidden_disturbance=self._hidden is not None,
            structure=structure,
            text=fixed_text or "",
            target=FREQ,
        )
        if fixed_text is not None:  # the same prior records every episode: the same text
            return info
        info.__dict__["text"] = _task_text(info, self._prior_shown)  # not shared yet: set in place
        if self._fixed_prior is not None:
            self._fixed_task_text = info.text
        return info

    def _observe(self, response: Mapping[str, Any], chains: Sequence[Sequence[str]]) -> Observation:
        scm = self.scm
        st = self._st
        if st.state is None:
            shown = st.shown
            st.state = {n: shown[i] for n, i in self._order_pairs}
        cands = self._candidate_graphs() if self.config.candidate_tool else None
        # filled field by field: a frozen dataclass's __init__ sets each of the 15 fields through
        # object.__setattr__, 4x the time of filling the new value's dict (measured); the value is
        # the same (==, repr, asdict; a test compares the fields with the dataclass's)
        obs = object.__new__(Observation)
        obs.__dict__.update(
            step=self.steps,
            phase="done" if self.done else ("reactor" if self.locked else "manipulator"),
            state=dict(st.state),  # each observation its own dict
            interventions_used=self.interventions_used,
            interventions_left=self.intervention_budget - self.interventions_used,
            submissions_used=self.submissions_used,
            submissions_left=self.config.submissions - self.submissions_used,
            reactor_props=dict(self.reactor_props) if self.locked else None,
            response=dict(response),
            done=self.done,
            success=self.success,
            reward=1.0 if self.success else 0.0,
            text="",
            oracle_chains=tuple(map(tuple, chains)) if chains else (),
            candidates=cands,
        )
        types = st.types
        if types is None:  # recomputed only after an intervention changed a base or h
            types = st.types = dict(zip(scm.nodes, self._int_flags(st.base_int, st.fixed, st.h_active), strict=True))
            st.crystal = None
        if st.crystal is None:  # the crystal lines change only with the state shown
            order = self._hidden_order if st.h_active else None
            st.crystal = _crystal_lines(st.state, types, order, self._display, self._line_memo)
        # the value is new and not shared yet: its text is set once in place instead of copying
        # every field again with dataclasses.replace (a quarter of a step's time)
        reactor = None
        if self.locked:  # the reactor's properties are fixed for the episode: their lines are built once
            reactor = self._reactor_block
            if reactor is None:
                reactor = self._reactor_block = _reactor_lines(self.reactor_props, self._reactor_types)
        obs.__dict__["text"] = _observation_text(
            obs, self.scm, types, self._reactor_types, display=self._display, crystal=st.crystal, reactor=reactor
        )
        return obs

    # ------------------------------------------------------------------ stepping
    def step(self, action: LabAction) -> Observation:
        """Apply *action*; returns the next observation (its ``response`` answers the action)."""
        if not self._reset_done:
            raise BudgetExceededError("step() called before reset(seed)")
        if self.done:
            raise BudgetExceededError(
                f"episode is over (done_reason={self.done_reason!r}); action={action!r} was not applied"
            )
        if not isinstance(action, LabAction):
            raise InputFormatError(f"action={action!r} must be a LabAction")
        self.steps += 1
        chains: list[list[str]] = []
        if action.kind == "intervene":
            response = self._intervene(action, chains)
        elif action.kind == "open_reactor":
            first = not self.locked
            self.locked = True
            response = {
                "accepted": True,
                "message": "Reactor dialog opened; the Property Manipulator is now locked."
                if first
                else "Reactor dialog is open.",
                "reactor_props": dict(self.reactor_props),
            }
        elif action.kind == "submit_frequency":
            response = self._submit(action)
        elif action.kind == "finish":
            self.done = True
            self.done_reason = "agent-submitted"
            response = {"accepted": True, "message": "Episode ended by the agent."}
        elif action.kind == "wait":
            response = {"accepted": True, "message": action.text or "Nothing happens."}
        else:
            response = {
                "accepted": False,
                "refused": f"unknown action kind={action.kind!r}; valid kinds are {list(_KINDS)!r}",
            }
        if not self.done and self.steps >= self.max_steps:
            self.done = True
            self.done_reason = "step-limit"
        return self._observe(response, chains)

    def _refuse(self, reason: str) -> dict[str, Any]:
        return {"accepted": False, "refused": reason}

    def _intervene(self, action: LabAction, chains: list[list[str]]) -> dict[str, Any]:
        scm = self.scm
        if self.locked:
            return self._refuse("the Property Manipulator is locked after the reactor was opened")
        if self.interventions_used >= self.intervention_budget:
            return self._refuse(
                f"intervention budget spent ({self.interventions_used}/{self.intervention_budget}); the machine refuses"
            )
        prop = action.prop
        idx = self._index
        if prop not in idx:
            return self._refuse(f"unknown property={prop!r}; controllable properties are {list(scm.controllable_names)!r}")
        j = idx[prop]
        if j not in scm.controllable:
            return self._refuse(f"property={prop!r} is not controllable")
        value = _to_number(action.value)
        if value is None:
            return self._refuse(f"value={action.value!r} for {prop!r} must be a finite number")
        st = self._st
        # references, not copies: below, the lists are replaced (a copy is shifted in place), never changed
        before_clean = st.clean
        before_shown = st.shown
        if self.config.intervention_mode == "shift" and not st.fixed:
            st.clean = list(st.clean)
            scm.shift_inplace(st.bases, st.clean, j, value)
        else:
            if self.config.intervention_mode == "shift":
                st.bases[j] = scm.shift_base(st.bases, st.clean, j, value)
            else:
                st.fixed[j] = round(value, 2)
            st.clean = scm.evaluate_list(st.bases, fixed=st.fixed or None)
        hid = self._hidden
        st.base_int[j] = False  # the original stores the set value as a float
        if hid is None and st.types is not None:  # only j and what it feeds can turn float
            for n in self._downstream[j]:
                st.types[n] = False
        else:
            st.types = None
        if hid is not None:
            assert self._hrng is not None  # built at reset when the episode has a disturbance
            k = int(self._hrng.integers(0, len(hid.value_space)))
            st.h = float(hid.value_space[k])
            st.h_active = self._hidden_acts(st.h)
            st.shown = scm.evaluate_list(
                st.bases, h=st.h, affected=self._affected, weight=hid.edge_weight, fixed=st.fixed or None
            )
        else:
            st.shown = st.clean
        self.interventions_used += 1
        shown = st.shown
        pairs = self._order_pairs
        changed = [n for n, i in pairs if shown[i] != before_shown[i]]
        if self.config.oracle_chains:
            chains.extend(self._chains(j, before_clean, st.clean))
        prev = st.state  # the state shown before, as a dict (when an observation built it)
        state = {n: shown[i] for n, i in pairs}
        st.state, st.crystal = dict(state), None  # a copy: the transition's and the response's dict are the caller's
        self.transitions.append(
            {
                "prop": prop,
                "value": value,
                "before": dict(prev) if prev is not None else {n: before_shown[i] for n, i in pairs},
                "after": state,
            }
        )
        return {
            "accepted": True,
            "message": f"Set {scm.display_names[j]} to {_fmt(value)}.",
            "requested_value": value,
            "observed_value": st.shown[j],
            "state": state,
            "changed": changed,
            "uses": f"{self.interventions_used}/{self.intervention_budget}",
        }

    def _chains(self, j: int, before: Sequence[float], after: Sequence[float]) -> list[list[str]]:
        scm = self.scm
        changed = {i for i in range(len(scm.nodes)) if before[i] != after[i]}
        kids: dict[int, list[int]] = {i: [] for i in range(len(scm.nodes))}
        idx = scm.index
        for e in scm.graph.edges:
            kids[idx[e.source]].append(idx[e.target])
        out: list[list[str]] = []

        def walk(path: list[int]) -> None:
            nxt = [c for c in kids[path[-1]] if c in changed and c not in path]
            if not nxt:
                if len(path) > 1:
                    out.append([scm.nodes[i] for i in path])
                return
            for c in nxt:
                walk([*path, c])

        walk([j])
        return sorted(out)

    def _submit(self, action: LabAction) -> dict[str, Any]:
        value = _to_number(action.value)
        if value is None:
            return self._refuse(f"frequency value={action.value!r} must be a finite number")
        self.locked = True
        if self.submissions_used >= self.config.submissions:
            return self._refuse(f"no reactor submissions left ({self.submissions_used}/{self.config.submissions})")
        clamped = max(value, FREQ_MIN)
        if self.config.freq_ceiling is not None:
            clamped = min(clamped, float(self.config.freq_ceiling))
        self.submissions_used += 1
        self.submitted.append(clamped)
        # The original counts the submission before it checks the limit, so its last one cannot activate.
        can_activate = not self.config.anchor_submissions or self.submissions_used < self.config.submissions
        hit = can_activate and abs(clamped - self.target_freq) < self.config.tolerance
        if hit:
            self.success = True
            self.done = True
            self.done_reason = "reactor-activated"
        elif self.submissions_used >= self.config.submissions:
            self.done = True
            self.done_reason = "submissions-exhausted"
        return {
            "accepted": True,
            "message": f"Frequency set to {_fmt(clamped)} Hz. The reactor is "
            + ("ACTIVATED." if hit else "uncalibrated (not activated)."),
            "reactor_feedback": "activated" if hit else "uncalibrated",
            "submitted": clamped,
            "submissions": f"{self.submissions_used}/{self.config.submissions}",
        }

    # ------------------------------------------------------------------ candidate tool
    def _candidate_graphs(self) -> tuple[tuple[tuple[str, str], ...], ...]:
        names = set(self.scm.nodes)
        keep: list[tuple[tuple[str, str], ...]] = []
        seen: set[tuple[tuple[str, str], ...]] = set()
        for g in self._candidates:
            if set(g.nodes) != names:
                continue
            key = tuple(sorted(g.pairs))
            if key in seen:
                continue
            seen.add(key)
            if all(_consistent(g, t) for t in self.transitions):
                keep.append(key)
        keep.sort(key=lambda k: (len(k), k))
        return tuple(keep[: self.config.candidate_limit])

    def summary(self) -> dict[str, Any]:
        """The facts of the finished (or stopped) episode for the trajectory summary."""
        last = self.submitted[-1] if self.submitted else None
        return {
            "success": self.success,
            "done_reason": self.done_reason or "not-finished",
            "steps": self.steps,
            "interventions_used": self.interventions_used,
            "submissions_used": self.submissions_used,
            "reactor_submitted": last,
            "reactor_submissions": list(self.submitted),
            "reactor_target": self.target_freq,
            "reactor_abs_error_true": None if last is None else round(abs(last - self.target_freq), 6),
        }


def _consistent(g: CausalGraph, t: Mapping[str, Any], tol: float = 0.01) -> bool:
    """Shift semantics: exactly the candidate's descendants of the target move (±tol)."""
    before, after, prop = t["before"], t["after"], t["prop"]
    if abs(after[prop] - before[prop]) <= tol:
        return True
    moved = {n for n in after if n != prop and abs(after[n] - before[n]) > tol}
    return moved == set(g.descendants(prop))


# ---------------------------------------------------------------------- text rendering
def _task_text(info: TaskInfo, records: Sequence[Mapping[str, int | float]]) -> str:
    """The task text; *records* are the prior records as the original prints them (evaluation order, typed)."""
    b = info.budgets
    disp = info.display_names
    lines = [
        "You are in a lab with two quantum crystals that share one hidden causal mechanism.",
        f"Properties: {', '.join(f'{p} ({disp.get(p, p)})' for p in info.properties)}; "
        f"the target is {info.target} ({disp.get(info.target, info.target)}).",
        "Each property may be caused by others; the resonance frequency is not directly controllable.",
    ]
    if info.frequency_can_be_parent:
        lines.append("Note: the resonance frequency is not controllable, but it may cause other properties.")
    if info.equation_family == "quadratic":
        lines.append("Each parent acts through a quadratic term: c_P_1*P^2 + c_P_2*P.")
    else:
        lines.append("Mechanisms are linear: node = base + sum of c_parent * parent.")
    if info.hidden_disturbance:
        lines.append(
            "A hidden disturbance perturbs some properties of the manipulator crystal after each intervention; "
            "it is absent in the reactor phase."
        )
    lines += [
        "",
        "Phase 1 — Property Manipulator: set one controllable property of the manipulator crystal at a time "
        "(a shift: the property takes the value, its causes stay active) and read every property and the frequency.",
        f"Intervention budget: {b['interventions']} uses. Controllable: {', '.join(info.controllable)}.",
        "Phase 2 — Crystal Reactor: opening the reactor locks the manipulator. The reactor crystal's properties are "
        f"shown; predict its resonance frequency. Tolerance: ±{b['tolerance_hz']} Hz; "
        f"{b['submissions']} submissions.",
        "",
        f"Prior measurement records ({len(info.prior_records)}):",
    ]
    for k, shown in enumerate(records, 1):
        lines.append(f"- Observation {k}: {dict(shown)}")
    if info.bootstrap:
        lines.append("Provided golden intervention data:")
        for e in info.bootstrap:
            iv = e.get("intervention")
            if iv:
                lines.append(
                    f"- {e.get('id')}: intervene {iv['target_prop']} to {iv['target_value']}, observed props={dict(e['props'])}, freq={e['freq']}"
                )
            else:
                lines.append(f"- {e.get('id')}: observed props={dict(e['props'])}, freq={e['freq']}")
    if info.structure is not None:
        s = info.structure
        lines.append("Known causal structure: " + ", ".join(f"{e['from']} -> {e['to']}" for e in s["edges"]))
        lines.append(f"Parents of {info.target}: {', '.join(s['frequency_parents'])}")
        if s["hidden_affected"]:
            lines.append(f"Hidden disturbance affects: {', '.join(s['hidden_affected'])}")
    lines += [
        "",
        "Each step output one JSON record with keys memory, thought, past_data, hypothesis, experiment and one action:",
        '{"action": "INTERVENE", "arg1": "<property>", "arg2": <number>} | {"action": "OPEN_REACTOR"} | '
        '{"action": "SET_FREQUENCY", "arg1": <number>} | {"action": "SUBMIT", "arg1": "done"}',
        'hypothesis = {"edges": [{"from": P, "to": Q}], "freq_equation": "resonanceFreq = base + c_A*A", '
        '"coefficients": {"base": number, "c_A": number}}',
    ]
    return "\n".join(lines)


def _children_first_order(nodes: Sequence[str], edges: Sequence[Any]) -> tuple[str, ...]:
    """The original's order while the hidden disturbance acts: a reversed depth-first post-order over children.

    Its manipulator recomputes the crystal in that order (nodes in config order, children in
    edge order) and lists it so; without a disturbance it lists the evaluation order.

    >>> from causalcheck.graph import Edge
    >>> _children_first_order(["f", "a", "b"], [Edge("a", "f"), Edge("b", "a")])
    ('b', 'a', 'f')
    """
    index = {n: i for i, n in enumerate(nodes)}
    children: list[list[int]] = [[] for _ in nodes]
    for e in edges:
        children[index[e.source]].append(index[e.target])
    post, _ = depth_first(children)  # the SCM's graph is acyclic: the whole post-order
    return tuple(nodes[i] for i in reversed(post))


def _crystal_lines(
    state: Mapping[str, float],
    types: Mapping[str, bool],
    order: Sequence[str] | None,
    display: Mapping[str, str],
    memo: dict[str, tuple[Any, Any, str]] | None = None,
) -> str:
    """The manipulator block's "Crystal Analysis" heading, one line per node (display names, the
    original's number types; *order*, default the state's) and the rule beneath them.

    *memo* (node → the value object, its type flag and its line) keeps the line of a node whose
    value is the same object as last time: an intervention recomputes only the target's
    descendants and keeps the other values' objects, so most lines are not formatted again.
    """
    lines = ["Crystal Analysis:"]
    add = lines.append
    for n, v in state.items() if order is None else ((n, state[n]) for n in order):
        flag = types.get(n)
        if memo is not None:
            kept = memo.get(n)
            if kept is not None and kept[0] is v and kept[1] is flag:
                add(kept[2])
                continue
        # _show inlined: this runs for every node of every changed state
        line = f"  {display.get(n, n)}: {int(v) if flag and float(v).is_integer() else float(v)!r}"
        if memo is not None:
            memo[n] = (v, flag, line)
        add(line)
    add("  " + "\u2500" * 19)
    return "\n".join(lines)


def _reactor_lines(props: Mapping[str, Any], reactor_types: Mapping[str, bool]) -> str:
    """The reactor block's heading and one line per property (keys in :data:`REACTOR_KEY_ORDER`, then any other)."""
    keys = [k for k in REACTOR_KEY_ORDER if k in props] + [k for k in props if k not in REACTOR_KEY_ORDER]
    return "\n".join(["Crystal properties (directly shown):", *(f"- {k}: {_show(props[k], reactor_types.get(k, False))}" for k in keys)])


def _observation_text(
    obs: Observation,
    scm: Any,
    types: Mapping[str, bool],
    reactor_types: Mapping[str, bool],
    order: Sequence[str] | None = None,
    display: Mapping[str, str] | None = None,
    crystal: str | None = None,
    reactor: str | None = None,
) -> str:
    """The observation as text, with the original's blocks, line formats and number types.

    The manipulator block is the original's "Crystal Analysis" (display names in evaluation
    order, a rule, ``Uses: u/N (Remaining: r)``); the reactor block is its "Crystal properties
    (directly shown)" (keys in :data:`REACTOR_KEY_ORDER`, then any other) and
    ``Usage: u/N submissions.``.  *types* say which values the original holds as ints;
    *order* (default: the state's, the evaluation order) is the order of the crystal lines;
    *display* is the SCM's node → display-name map when the caller keeps it; *crystal* is
    :func:`_crystal_lines` of the state when the caller kept it (it changes only with the state),
    *reactor* :func:`_reactor_lines` of the reactor's properties (fixed for an episode).
    """
    disp = display if display is not None else dict(zip(scm.nodes, scm.display_names, strict=False))
    lines = [f"Step {obs.step} — phase: {obs.phase}"]
    resp = obs.response
    if resp:
        if resp.get("accepted") is False:
            lines.append(f"Refused: {resp.get('refused')}")
        elif resp.get("message"):
            lines.append(str(resp["message"]))
    lines.append(crystal if crystal is not None else _crystal_lines(obs.state, types, order, disp))
    lines.append(
        f"  Uses: {obs.interventions_used}/{obs.interventions_used + obs.interventions_left} "
        f"(Remaining: {obs.interventions_left})"
    )
    for chain in obs.oracle_chains:
        lines.append("Oracle chain: " + " -> ".join(chain))
    if obs.candidates is not None:
        lines.append(f"Candidate graphs consistent with your interventions ({len(obs.candidates)} shown):")
        for g in obs.candidates:
            lines.append("  " + ("; ".join(f"{a} -> {b}" for a, b in g) or "(no edges)"))
    if obs.reactor_props is not None:
        lines.append(reactor if reactor is not None else _reactor_lines(obs.reactor_props, reactor_types))
        lines.append(f"Usage: {obs.submissions_used}/{obs.submissions_used + obs.submissions_left} submissions.")
    if obs.done:
        lines.append("The episode is over." + (" The reactor is activated." if obs.success else ""))
    return "\n".join(lines)
