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

Randomness is explicit (our fix of §8.4): every crystal base, the hidden disturbance and
per-seed prior records come from their own seeded NumPy generator
(:mod:`causalcheck.lab.seeding`); the same seed gives the same episode on any machine and in
any process.

Observations come as structured data (:class:`Observation`) and as the text an LLM would
see (``Observation.text`` and ``TaskInfo.text``), printed as the original prints them
(:mod:`causalcheck.lab.render`); which values the original holds as Python ints, and so
prints as ``39`` rather than ``39.0``, is tracked here.  The action vocabulary
(:class:`LabAction`) is small: ``intervene`` (prop, value), ``open_reactor``,
``submit_frequency`` (value), ``finish`` and ``wait``; :meth:`LabAction.from_record`
reads it from a record's action fields (``{"action": "INTERVENE", "arg1": prop,
"arg2": value}``, ``{"action": "OPEN_REACTOR"}``, ``{"action": "SET_FREQUENCY",
"arg1": f}``, ``{"action": "SUBMIT"}``).

Options (off by default, §2.9–2.10): hard ``do()`` instead of shifts, observation /
intervention budget grids (:meth:`EpisodeConfig.from_tag` reads ``"3o6i"``), oracle
chains after each intervention, the candidate-graph tool (needs the suite's graphs), and
the known-structure ablation.

This is the reference simulator: every reset and step computes the episode afresh from its
state (the crystal bases, pinned values and the disturbance), with no cache between steps or
episodes.  One module because an episode is one state machine (reset, step, budgets,
refusals, phase lock), the contract with CausaLab's environment (causalab-spec §2).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from causalcheck.base.errors import BudgetExceededError, InputFormatError
from causalcheck.graph import FREQ, CausalGraph
from causalcheck.lab.render import children_first_order, observation_text, task_text, typed_number
from causalcheck.lab.scm import parse_computation
from causalcheck.lab.seeding import crystal_base, disturbance_rng, prior_rng
from causalcheck.lab.suites import HiddenSpec, SuiteGraph
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
            return cls("wait", text=f"no action field in record (action={name!r})")
        key = name.strip().upper()
        if key in ("INTERVENE", "SET_PROPERTY", "ADJUST"):
            return cls("intervene", None if record.get("arg1") is None else str(record.get("arg1")), record.get("arg2"))
        if key in ("OPEN_REACTOR", "TALK_REACTOR"):
            return cls("open_reactor")
        if key in ("SET_FREQUENCY", "SUBMIT_FREQUENCY"):
            return cls("submit_frequency", None, record.get("arg1"))
        if key in ("SUBMIT", "FINISH"):
            return cls("finish", text=None if record.get("arg1") is None else str(record.get("arg1")))
        if key in ("WAIT", "NOOP", "NONE"):  # the record format's own no-op (the controller's fallback)
            return cls("wait")
        return cls("wait", text=f"unknown action={name!r}")


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
        self.scm = scm = graph.scm
        self._display = dict(zip(scm.nodes, scm.display_names, strict=False))
        self._candidates = tuple(candidates)
        self.intervention_budget = self.config.intervention_budget(graph)
        self.max_steps = self.config.step_limit(graph)
        self._reset_done = False
        self._eq_int = _int_equations(graph)
        self._parents = tuple(tuple(scm.index[p] for p in scm.graph.parents(n)) for n in scm.nodes)
        #: the order the original lists the crystal in while the hidden disturbance acts
        self._hidden_order = children_first_order(scm.nodes, scm.graph.edges)
        self._hidden: HiddenSpec | None = None
        self._affected: frozenset[int] = frozenset()
        meta = graph.quadratic_metadata if isinstance(graph.quadratic_metadata, Mapping) else {}
        self._presets = (meta.get("property_manipulator"), meta.get("reactor"))
        #: which reactor values the original holds as ints (its bases are never changed)
        self._reactor_types = dict(zip(scm.nodes, self._int_flags(self._base_types(self._presets[1])), strict=True))

    # ------------------------------------------------------------------ set-up
    def _crystal_bases(self, seed: int, role: int) -> list[float]:
        """The crystal bases of the manipulator (*role* 0) or the reactor (*role* 1): the suite's
        presets where it has them, else drawn (:func:`~causalcheck.lab.seeding.crystal_base`)."""
        scm = self.scm
        preset = self._presets[role]
        bases = [0.0] * len(scm.nodes)
        for i in scm.controllable:
            name = scm.nodes[i]
            if isinstance(preset, Mapping) and name in preset:
                bases[i] = float(preset[name])
            else:
                bases[i] = float(crystal_base(seed, role, name))
        return bases

    def _base_types(self, preset: Any) -> list[bool]:
        """Which crystal bases the original holds as ints: drawn ones (``randint``) and JSON-int presets."""
        scm = self.scm
        out = [False] * len(scm.nodes)
        for i in scm.controllable:
            name = scm.nodes[i]
            out[i] = _is_int(preset[name]) if isinstance(preset, Mapping) and name in preset else True
        return out

    def _int_flags(self, base_int: Sequence[bool], fixed: Mapping[int, float] = {}, h_active: bool = False) -> list[bool]:
        """Which node values the original holds as ints (see :func:`_int_equations`).

        A node stays an int when its equation can (params and text), its base (if it reads one)
        is an int, it is not pinned, and every parent is an int.  *h_active*: the hidden
        disturbance acts now; the original adds ``float(w)·float(h)`` to the affected nodes, so
        they (and what they feed) turn float — unless the product is 0, when it leaves the
        crystal exactly as computed.
        """
        scm = self.scm
        flags = [False] * len(scm.nodes)
        for i in scm.order:
            if not self._eq_int[i] or (scm.equations[i].base_coef != 0.0 and not base_int[i]):
                continue
            if i in fixed or (h_active and i in self._affected):
                continue
            flags[i] = all(flags[p] for p in self._parents[i])
        return flags

    def _hidden_acts(self) -> bool:
        """Whether the hidden draw now changes the manipulator (the original skips ``w·h == 0``)."""
        return self._hidden is not None and bool(self._affected) and self._hidden.edge_weight * self._h != 0.0

    def _prior_records(self, seed: int) -> tuple[list[dict[str, Any]], list[dict[str, int | float]]]:
        """The prior records of the episode of *seed* and their values as the original prints them.

        With a ``prior_seed`` (the anchor's 42) the bases come from ``random.Random(prior_seed)``,
        so every episode has the same records; without one from the seed's own generator."""
        scm = self.scm
        n = self.config.prior_records
        presets = self.graph.quadratic_metadata.get("observation_presets") if self.graph.quadratic_metadata else None
        preset_of = [presets[k] if isinstance(presets, list) and k < len(presets) else None for k in range(n)]
        py_rng = random.Random(self.config.prior_seed) if self.config.prior_seed is not None else None
        np_rng = prior_rng(seed, self.graph.graph_id) if py_rng is None else None
        records: list[dict[str, Any]] = []
        shown: list[dict[str, int | float]] = []
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
                    assert np_rng is not None
                    bases[i] = float(np_rng.integers(0, 101))
            vals = scm.evaluate_list(bases)
            records.append({"id": f"{k}/{n}", "props": {scm.nodes[i]: vals[i] for i in scm.order if i != scm.freq}, "freq": vals[scm.freq]})
            flags = self._int_flags(self._base_types(preset))
            shown.append({scm.nodes[i]: typed_number(vals[i], flags[i]) for i in scm.order})
        return records, shown

    def _named(self, values: Sequence[float]) -> dict[str, float]:
        """Node values as a name → value dict in evaluation order (the frequency included)."""
        scm = self.scm
        return {scm.nodes[i]: values[i] for i in scm.order}

    def _manipulator_values(self) -> list[float]:
        """The manipulator crystal as shown: the clean values plus the hidden disturbance where it acts."""
        hid = self._hidden
        if hid is None:
            return self._clean
        return self.scm.evaluate_list(
            self._bases, h=self._h, affected=self._affected, weight=hid.edge_weight, fixed=self._fixed or None
        )

    def reset(self, seed: int) -> tuple[TaskInfo, Observation]:
        """Start the episode for *seed*; returns the task description and the first observation."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputFormatError(f"seed={seed!r} must be an integer")
        scm = self.scm
        self.seed = seed
        hid = self.graph.hidden if self.config.hidden else None
        self._hidden = hid
        self._affected = frozenset(scm.index[n] for n in hid.affected_nodes) if hid else frozenset()
        self._hrng = disturbance_rng(seed, self.graph.graph_id) if hid is not None else None
        # the manipulator: its crystal bases, the values pinned by do() interventions, the disturbance h
        self._bases = self._crystal_bases(seed, 0)
        self._fixed: dict[int, float] = {}
        self._h = hid.initial_value if hid else 0.0
        self._base_int = self._base_types(self._presets[0])
        self._clean = scm.evaluate_list(self._bases)
        self._shown = self._manipulator_values()
        rvals = scm.evaluate_list(self._crystal_bases(seed, 1))
        self.reactor_values = rvals
        self.target_freq = rvals[scm.freq]
        self.reactor_props = {scm.nodes[i]: rvals[i] for i in scm.order if i != scm.freq}
        self.manipulator_initial = self._named(self._shown)
        self.prior, prior_shown = self._prior_records(seed)
        self.interventions_used = 0
        self.submissions_used = 0
        self.steps = 0
        self.locked = False
        self.done = False
        self.success = False
        self.done_reason = ""
        self.submitted: list[float] = []
        self.transitions: list[dict[str, Any]] = []
        self.task = self._task_info(prior_shown)
        self._reset_done = True
        return self.task, self._observe({}, ())

    # ------------------------------------------------------------------ views
    @property
    def hidden_value(self) -> float:
        """The hidden disturbance ``h`` now acting on the manipulator (0.0 without one).

        It starts at the suite's ``initial_value`` and is drawn again after every accepted
        intervention; the agent never sees it (a differential against another environment
        feeds it the same draws).
        """
        return self._h

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

    def _task_info(self, prior_shown: Sequence[Mapping[str, int | float]]) -> TaskInfo:
        scm = self.scm
        fields: dict[str, Any] = {
            "graph_id": self.graph.graph_id,
            "properties": tuple(scm.nodes[i] for i in scm.order if i != scm.freq),
            "controllable": scm.controllable_names,
            "display_names": dict(self._display),
            "prior_records": tuple(self.prior),
            "bootstrap": tuple(self.graph.bootstrap),
            "budgets": self.budgets(),
            "frequency_can_be_parent": self.graph.frequency_can_be_parent,
            "equation_family": self.graph.family,
            "hidden_disturbance": self._hidden is not None,
            "structure": self._structure() if self.config.known_structure else None,
            "target": FREQ,
        }
        return TaskInfo(**fields, text=task_text(fields, prior_shown))

    def _observe(self, response: Mapping[str, Any], chains: Sequence[Sequence[str]]) -> Observation:
        scm = self.scm
        fields: dict[str, Any] = {
            "step": self.steps,
            "phase": "done" if self.done else ("reactor" if self.locked else "manipulator"),
            "state": self._named(self._shown),
            "interventions_used": self.interventions_used,
            "interventions_left": self.intervention_budget - self.interventions_used,
            "submissions_used": self.submissions_used,
            "submissions_left": self.config.submissions - self.submissions_used,
            "reactor_props": dict(self.reactor_props) if self.locked else None,
            "response": dict(response),
            "done": self.done,
            "success": self.success,
            "reward": 1.0 if self.success else 0.0,
            "oracle_chains": tuple(tuple(c) for c in chains),
            "candidates": self._candidate_graphs() if self.config.candidate_tool else None,
        }
        h_active = self._hidden_acts()
        types = dict(zip(scm.nodes, self._int_flags(self._base_int, self._fixed, h_active), strict=True))
        order = self._hidden_order if h_active else None
        text = observation_text(fields, types, self._reactor_types, order, self._display)
        return Observation(**fields, text=text)

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
        if prop not in scm.index:
            return self._refuse(f"unknown property={prop!r}; controllable properties are {list(scm.controllable_names)!r}")
        j = scm.index[prop]
        if j not in scm.controllable:
            return self._refuse(f"property={prop!r} is not controllable")
        value = _to_number(action.value)
        if value is None:
            return self._refuse(f"value={action.value!r} for {prop!r} must be a finite number")
        before_clean, before_shown = self._clean, self._shown
        if self.config.intervention_mode == "shift":  # §2.4: shift the base, the causes stay active
            self._bases[j] = scm.shift_base(self._bases, self._clean, j, value)
        else:
            self._fixed[j] = round(value, 2)
        self._base_int[j] = False  # the original stores the set value as a float
        self._clean = scm.evaluate_list(self._bases, fixed=self._fixed or None)
        hid = self._hidden
        if hid is not None:  # a fresh disturbance after every accepted intervention
            assert self._hrng is not None  # built at reset when the episode has a disturbance
            self._h = float(hid.value_space[int(self._hrng.integers(0, len(hid.value_space)))])
        self._shown = self._manipulator_values()
        self.interventions_used += 1
        if self.config.oracle_chains:
            chains.extend(self._chains(j, before_clean, self._clean))
        before, state = self._named(before_shown), self._named(self._shown)
        self.transitions.append({"prop": prop, "value": value, "before": before, "after": state})
        return {
            "accepted": True,
            "message": f"Set {scm.display_names[j]} to {_fmt(value)}.",
            "requested_value": value,
            "observed_value": self._shown[j],
            "state": state,
            "changed": [n for n, v in state.items() if v != before[n]],
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
