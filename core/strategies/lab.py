"""The lab's values: CausaLab SCMs, data sampled from them, hypotheses, step records, runs.

* :func:`suite_records` — hidden SCMs in CausaLab's record format (linear or quadratic
  mechanisms, FreqParent, a hidden disturbance); every one is accepted by
  :func:`causalcheck.lab.suites.parse_suite_record`;
* :func:`scm_samples` — a record with rows of data sampled from its SCM (crystal bases
  drawn, every node evaluated parents-first and rounded as the simulator does);
* :func:`hypotheses` — :class:`~causalcheck.records.Hypothesis` values the text format can
  express (``parse_hypothesis(format_hypothesis(h)) == h``);
* :func:`step_records` — a step record as a model writes it: the clean JSON object and its
  text, or the text with the drift real models produce (code fences, ``<think>`` blocks,
  prose, trailing commas, key spelling, frequency aliases, numbers as strings, edges as
  strings or lists, a hypothesis serialised into a string); the drift names are listed and
  :func:`causalcheck.parsing.parse_record` reads the drifted text to the same record;
* :func:`trajectories` — a lab episode played by a scripted agent whose records are drawn,
  as a :class:`~causalcheck.episodes.Trajectory`; :func:`trajectory_files` writes it to a
  fresh folder; :func:`run_folders` writes an official CausaLab seed folder
  (``graph_config.json``, ``raw_io.jsonl``, ``*_complete.txt``).

>>> from hypothesis import find
>>> from causalcheck.lab.suites import parse_suite_record
>>> rec = find(suite_records(), lambda r: len(r["edges"]) >= 2)
>>> parse_suite_record(rec).scm.family, len(rec["nodes"])
('linear', 3)
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import atomic_write_text
from causalcheck.graph import FREQ, CausalGraph, Edge, is_freq_alias
from causalcheck.lab.episode import AgentStep, LabAction
from causalcheck.lab.generator import (
    FREQ_DISPLAY,
    graph_record,
    hidden_variable,
    mechanism_terms,
    node_spec,
    quadratic_metadata,
)
from causalcheck.lab.runner import run_episode
from causalcheck.lab.suites import parse_suite_record
from causalcheck.lab.trajectory import Trajectory, write_trajectory
from causalcheck.records import Hypothesis
from causalcheck.strategies.names import CAUSALAB_PROPERTIES, frequency_aliases
from hypothesis import strategies as st

__all__ = [
    "DRIFTS",
    "RecordSample",
    "SCMSample",
    "hypotheses",
    "run_folders",
    "scm_samples",
    "step_records",
    "suite_records",
    "trajectories",
    "trajectory_files",
]

_ABBR = {"temperatureC": "temp"}


def _abbr(name: str) -> str:
    return "freq" if name == FREQ else _ABBR.get(name, name)


@st.composite
def suite_records(
    draw: st.DrawFn,
    *,
    min_nodes: int = 3,
    max_nodes: int = 6,
    family: str | None = "linear",
    freq_parent: bool | None = False,
    hidden: bool | None = False,
    graph_id: str | None = None,
) -> dict[str, Any]:
    """One CausaLab suite record (a JSON object) with ``min_nodes..max_nodes`` nodes.

    *family* ``"linear"`` (coefficients in {1, 2, 3}), ``"quadratic"`` (CausaLab's hard
    quadratic family: ``c2·P² + c1·P`` with a vertex in [35.24, 64.89]) or None (either).
    *freq_parent* lets the frequency have children (True, False, or None for either);
    *hidden* adds a hidden disturbance on some nodes.  The frequency always has a parent.
    """
    if not 3 <= min_nodes <= max_nodes <= len(CAUSALAB_PROPERTIES) + 1:
        raise InputFormatError(f"nodes must satisfy 3 <= min_nodes={min_nodes} <= max_nodes={max_nodes} <= 9")
    fam = family if family is not None else draw(st.sampled_from(["linear", "quadratic"]))
    fp = freq_parent if freq_parent is not None else draw(st.booleans())
    hid = hidden if hidden is not None else draw(st.booleans())
    k = draw(st.integers(min_nodes, max_nodes))
    props = draw(st.lists(st.sampled_from(CAUSALAB_PROPERTIES), min_size=k - 1, max_size=k - 1, unique=True))
    pos = draw(st.integers(1, k - 1)) if fp else k - 1
    order = [*props[:pos], FREQ, *props[pos:]]  # evaluation order; edges go forward in it
    forward = [(order[i], order[j]) for i in range(k) for j in range(i + 1, k)]
    edges = draw(st.lists(st.sampled_from(forward), unique=True, max_size=min(len(forward), 2 * k)))
    if not any(b == FREQ for _, b in edges):
        edges.append((draw(st.sampled_from(order[:pos])), FREQ))
    parents: dict[str, list[str]] = {n: [] for n in order}
    for a, b in edges:
        parents[b].append(a)
    params: dict[str, float | int] = {}
    axes: dict[str, float] = {}

    term = mechanism_terms(
        fam,
        _abbr,
        params,
        axes,
        lambda: draw(st.integers(1, 3)),
        lambda: (draw(st.sampled_from([0.008, 0.012, 0.016])), draw(st.integers(3524, 6489)) / 100),
    )

    freq_terms = [term(p, FREQ) for p in parents[FREQ]]
    nodes: dict[str, Any] = {FREQ: node_spec(FREQ, FREQ_DISPLAY, " + ".join(["base_freq", *freq_terms]), controllable=False)}
    params["base_freq"] = float(draw(st.integers(15, 25)))
    for n in props:
        computation = None
        if parents[n]:
            computation = " + ".join([f"base_{n}", *(term(p, n) for p in parents[n])])
            params[f"base_{n}"] = float(draw(st.integers(15, 25)))
        else:
            params[f"base_{n}"] = 20.0
        nodes[n] = node_spec(n, n[:1].upper() + n[1:], computation)
    record = graph_record(graph_id or f"{k}nodes_gen", nodes, edges, params)
    if fp:
        record["frequency_can_be_parent"] = True
    if fam == "quadratic":
        record["equation_family"] = "quadratic"
        record["quadratic_mode"] = "hard"
        preset = st.fixed_dictionaries({n: st.integers(0, 100) for n in props})
        record["quadratic_metadata"] = quadratic_metadata(props, axes, [draw(preset), draw(preset)], draw(preset), draw(preset))
    if hid:
        affected = draw(st.lists(st.sampled_from(props), min_size=1, max_size=len(props), unique=True))
        record["hidden_variable"] = hidden_variable(affected, (-5.0, 0.0, 5.0))
    return record


@dataclass(frozen=True)
class SCMSample:
    """A suite record and rows sampled from its SCM (``rows[i][node]``; the frequency under ``resonanceFreq``)."""

    record: Mapping[str, Any]
    rows: tuple[Mapping[str, float], ...]


@st.composite
def scm_samples(
    draw: st.DrawFn, records: st.SearchStrategy[dict[str, Any]] | None = None, *, min_rows: int = 1, max_rows: int = 8
) -> SCMSample:
    """A record (default :func:`suite_records`) and rows of its SCM's values for drawn crystal bases (0..100)."""
    rec = draw(records if records is not None else suite_records())
    scm = parse_suite_record(rec).scm
    ctrl = scm.controllable_names
    rows = []
    for _ in range(draw(st.integers(min_rows, max_rows))):
        bases = {n: float(draw(st.integers(0, 100))) for n in ctrl}
        rows.append(scm.evaluate(bases))
    return SCMSample(rec, tuple(rows))


# --------------------------------------------------------------------------- hypotheses
_IDENT = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True).filter(lambda s: s != "nodes" and not is_freq_alias(s))
_ODD = (
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_characters='"\\'), min_size=1, max_size=8)
    .map(str.strip)
    .filter(lambda s: bool(s) and not is_freq_alias(s))
)
_NUMBER = st.one_of(st.integers(-1000, 1000).map(float), st.floats(allow_nan=False, allow_infinity=False, width=64))


@st.composite
def hypotheses(draw: st.DrawFn, *, nodes: st.SearchStrategy[str] | None = None, max_nodes: int = 6) -> Hypothesis:
    """Hypotheses the text format can express: nodes, edges (labelled or not), an equation over
    the frequency's parents with ``base`` and ``c_<parent>`` coefficients (numbers or ``None``).

    Node names default to identifiers, odd printable names and ``resonanceFreq``.
    """
    node = nodes if nodes is not None else st.one_of(_IDENT, _ODD, st.just(FREQ))
    names = draw(st.lists(node, min_size=0, max_size=max_nodes, unique=True))
    edges: list[Edge] = []
    if len(names) >= 2:
        pairs = draw(st.lists(st.tuples(st.sampled_from(names), st.sampled_from(names)), max_size=8))
        labels = st.one_of(st.none(), st.sampled_from(["CAUSE", "causes", "NOT-CAUSE"]))
        edges = [Edge(a, b, draw(labels)) for a, b in pairs]
    graph = CausalGraph(tuple(names) if draw(st.booleans()) else (), tuple(edges))
    coeffs: dict[str, float | None] = {}
    equation = ""
    parents = [p for p in graph.parents(FREQ) if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", p)]
    if draw(st.booleans()):
        terms = ["base"]
        coeffs["base"] = draw(st.one_of(st.none(), _NUMBER))
        for p in parents:
            terms.append(f"c_{p}*{p}" + draw(st.sampled_from(["", "^2", "**3"])))
            coeffs[f"c_{p}"] = draw(st.one_of(st.none(), _NUMBER))
        equation = f"{FREQ} = " + " + ".join(terms)
    return Hypothesis(graph, equation, coeffs)


# --------------------------------------------------------------------------- step records
#: The drift :func:`step_records` can apply, each a repair :func:`causalcheck.parsing.parse_record` makes.
DRIFTS: tuple[str, ...] = (
    "fence", "think", "prose", "trailing-comma", "key-spelling", "frequency-alias", "numeric-string",
    "edge-strings", "edge-lists", "hypothesis-string", "indent",
)  # fmt: skip

_TEXT = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ0123456789.,;:'-=+*/()", max_size=40)
_VALUE = st.one_of(st.integers(0, 200), st.integers(-2000, 20000).map(lambda v: v / 100))


@dataclass(frozen=True)
class RecordSample:
    """A step record: the clean JSON object, the text a model wrote, and the drift applied to it
    (only the drift that applies: no alias without an edge into the frequency, ...)."""

    obj: Mapping[str, Any]
    text: str
    drift: tuple[str, ...] = ()


def _hypothesis_obj(draw: st.DrawFn, props: Sequence[str]) -> dict[str, Any]:
    nodes = [*props, FREQ]
    pairs = draw(st.lists(st.tuples(st.sampled_from(nodes), st.sampled_from(nodes)).filter(lambda p: p[0] != p[1]), unique=True, max_size=6))
    parents = sorted({a for a, b in pairs if b == FREQ})
    coeffs: dict[str, Any] = {}
    equation = ""
    if draw(st.booleans()):
        equation = " + ".join([f"{FREQ} = base", *(f"c_{p}*{p}" for p in parents)])
        coeffs["base"] = draw(st.one_of(st.none(), _VALUE))
        coeffs.update({f"c_{p}": draw(st.one_of(st.none(), st.integers(1, 3))) for p in parents})
    return {"edges": [{"from": a, "to": b} for a, b in pairs], "freq_equation": equation, "coefficients": coeffs}


def _action_fields(draw: st.DrawFn, props: Sequence[str]) -> dict[str, Any]:
    return draw(
        st.one_of(
            st.builds(lambda p, v: {"action": "INTERVENE", "arg1": p, "arg2": v}, st.sampled_from(list(props)), _VALUE),
            st.just({"action": "OPEN_REACTOR"}),
            st.builds(lambda v: {"action": "SET_FREQUENCY", "arg1": v}, _VALUE),
            st.builds(lambda i: {"chosen_dialog_option_int": i}, st.integers(1, 4)),
            st.builds(lambda v: {"value": v}, _VALUE),
        )
    )


@st.composite
def _record_obj(draw: st.DrawFn, props: Sequence[str] | None, action: bool) -> dict[str, Any]:
    names = list(props) if props else draw(st.lists(st.sampled_from(CAUSALAB_PROPERTIES), min_size=1, max_size=4, unique=True))
    n = draw(st.integers(0, 3))
    past = [
        {"id": f"{i}/{n}", "props": {p: draw(_VALUE) for p in names}, "freq": float(draw(st.integers(0, 500)))}
        for i in range(n)
    ]
    experiment: dict[str, Any] = {}
    if draw(st.booleans()):
        experiment = {"target_prop": draw(st.sampled_from(names)), "target_value": draw(_VALUE)}
    obj: dict[str, Any] = {
        "memory": draw(_TEXT),
        "thought": draw(_TEXT),
        "past_data": past,
        "hypothesis": _hypothesis_obj(draw, names),
        "experiment": experiment,
    }
    if action:
        obj.update(_action_fields(draw, names))
    return obj


def _drifted(draw: st.DrawFn, obj: dict[str, Any], drift: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The text of *obj* with the *drift* that applies to it, and the drift applied."""
    o = json.loads(json.dumps(obj))
    hyp = o["hypothesis"]
    skipped: set[str] = set()
    if "frequency-alias" in drift:
        into = [e for e in hyp["edges"] if e["to"] == FREQ]
        for e in into:
            e["to"] = draw(frequency_aliases().filter(lambda a: a != FREQ))
        if not into:
            skipped.add("frequency-alias")
    if "numeric-string" in drift:
        if o["past_data"]:
            entry = o["past_data"][0]
            entry["freq"] = draw(st.sampled_from(["{} Hz", "{}", " {} "])).format(entry["freq"])
        else:
            skipped.add("numeric-string")
    if not hyp["edges"]:
        skipped |= {"edge-strings", "edge-lists"}
    if "edge-strings" in drift:
        hyp["edges"] = [f"{e['from']} -> {e['to']}" for e in hyp["edges"]]
    elif "edge-lists" in drift:
        hyp["edges"] = [[e["from"], e["to"]] for e in hyp["edges"]]
    if "hypothesis-string" in drift:
        o["hypothesis"] = json.dumps(hyp)
    if "key-spelling" in drift:
        o = {("Past Data" if k == "past_data" else k): v for k, v in o.items()}
    text = json.dumps(o, indent=2 if "indent" in drift else None)
    if "trailing-comma" in drift:
        text = text[: text.rindex("}")].rstrip() + ",\n}" if len(o) else text
    if "fence" in drift:
        text = f"```json\n{text}\n```"
    if "prose" in drift:
        text = f"Here is my record for this step:\n{text}\nI will continue."
    if "think" in drift:
        text = f"<think>{draw(_TEXT)}</think>\n{text}"
    return text, tuple(d for d in drift if d not in skipped)


@st.composite
def step_records(
    draw: st.DrawFn,
    *,
    drift: bool | Sequence[str] = False,
    props: Sequence[str] | None = None,
    action: bool = True,
) -> RecordSample:
    """A step record over CausaLab properties (*props*, or 1–4 drawn ones).

    ``drift=False``: the clean JSON text.  ``drift=True``: a drawn non-empty subset of
    :data:`DRIFTS`; a list: exactly those.  ``parse_record(sample.text)`` equals
    ``parse_record(json.dumps(sample.obj))`` (the drift is listed in its ``warnings``).
    """
    obj = draw(_record_obj(props, action))
    if drift is False:
        return RecordSample(obj, json.dumps(obj), ())
    chosen = tuple(drift) if not isinstance(drift, bool) else tuple(draw(st.lists(st.sampled_from(DRIFTS), min_size=1, max_size=4, unique=True)))
    unknown = [d for d in chosen if d not in DRIFTS]
    if unknown:
        raise InputFormatError(f"drift={unknown!r} must be among {list(DRIFTS)!r}")
    text, applied = _drifted(draw, obj, chosen)
    return RecordSample(obj, text, applied)


# --------------------------------------------------------------------------- trajectories
class _ScriptedAgent:
    """Plays a fixed list of records; each record's action fields are the action executed."""

    def __init__(self, records: Sequence[Mapping[str, Any]]) -> None:
        self.records = list(records)
        self.i = 0

    def reset(self, task: Any) -> None:
        self.i = 0

    def act(self, obs: Any) -> Any:
        if self.i < len(self.records):
            rec = self.records[self.i]
            self.i += 1
            return AgentStep(rec, LabAction.from_record(rec))
        rec = {"memory": "", "thought": "done", "action": "SUBMIT", "arg1": "Task completed!"}
        return AgentStep(rec, LabAction("finish"))


@st.composite
def trajectories(
    draw: st.DrawFn, records: st.SearchStrategy[dict[str, Any]] | None = None, *, max_steps: int = 5
) -> Any:
    """A lab episode on a drawn SCM (default :func:`suite_records`) played by a scripted agent.

    Returns a :class:`causalcheck.episodes.Trajectory` (header, step lines, summary) exactly
    as the lab runner builds it; the agent's records are :func:`step_records` over the
    graph's properties whose actions are interventions, then a finish.
    """
    rec = draw(records if records is not None else suite_records())
    graph = parse_suite_record(rec)
    props = list(graph.scm.controllable_names)
    steps = []
    for _ in range(draw(st.integers(0, max_steps))):
        obj = dict(draw(step_records(props=props, action=False)).obj)
        obj.update({"action": "INTERVENE", "arg1": draw(st.sampled_from(props)), "arg2": draw(_VALUE)})
        steps.append(obj)
    header, lines, summary = run_episode(graph, _ScriptedAgent(steps), draw(st.integers(0, 1000)), suite_name="generated", agent_name="scripted")
    return Trajectory(header, tuple(lines), summary)


def _fresh_dir(root: str | Path | None, prefix: str) -> Path:
    base = Path(root) if root is not None else Path(tempfile.gettempdir())
    base.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))


def trajectory_files(root: str | Path | None = None, **kwargs: Any) -> st.SearchStrategy[Path]:
    """:func:`trajectories` written as a trajectory file in a fresh folder under *root* (default: the temp dir)."""
    def write(t: Any) -> Path:
        folder = _fresh_dir(root, "traj-")
        return write_trajectory(folder / "episode.jsonl", t.header, t.steps, t.summary)

    return trajectories(**kwargs).map(write)


@st.composite
def run_folders(
    draw: st.DrawFn, root: str | Path | None = None, *, drift: bool = True, max_steps: int = 5
) -> Path:
    """An official CausaLab seed folder under *root*: ``graph_config.json``, ``raw_io.jsonl``
    (concatenated pretty-printed ``{step, raw_input, raw_output}`` objects whose outputs are
    :func:`step_records`, drifted when *drift*) and ``<run>_complete.txt``."""
    rec = draw(suite_records())
    props = [n for n in rec["nodes"] if n != FREQ]
    outputs = [draw(step_records(props=props, drift=drift and draw(st.booleans()))).text for _ in range(draw(st.integers(1, max_steps)))]
    folder = _fresh_dir(root, "run-") / "seed_1"
    atomic_write_text(folder / "graph_config.json", json.dumps(rec))
    raw = "".join(
        json.dumps({"step": i + 1, "raw_input": f"Step {i + 1}.", "raw_output": out}, indent=2) + "\n"
        for i, out in enumerate(outputs)
    )
    atomic_write_text(folder / "raw_io.jsonl", raw)
    atomic_write_text(folder / "Reactor Lab Causal_Causal_1_complete.txt", draw(st.sampled_from(["0", "1"])) + "\n")
    return folder
