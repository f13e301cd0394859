"""Regression snapshots of a scoring rule: record its outputs on a seeded corpus, diff later runs.

A change to a scoring rule should show up as a reviewed diff, not a surprise.  A *corpus*
is a deterministic list of inputs of one kind (:data:`KINDS`), drawn from
``numpy.random.default_rng([seed, crc32(kind)])`` — the same ``(kind, size, seed)`` gives
the same corpus on any machine.  :func:`snapshot` runs a rule on every case and

* when the snapshot file does not exist, writes it (``missing="record"``, the default) or
  fails (``missing="fail"``, for CI);
* when it exists, re-runs the rule on the inputs **stored in the file** (so the comparison
  never depends on the generator reproducing them) and compares every output; any
  difference raises :class:`SnapshotMismatch` (an ``AssertionError``) listing each changed
  case with its input, the recorded and the new output;
* in update mode (``update=True``, ``pytest --causalcheck-update-snapshots`` or
  ``CAUSALCHECK_UPDATE_SNAPSHOTS=1``) rewrites the file instead, atomically
  (:func:`causalcheck.base.files.atomic_write_json`), and reports what changed: the count
  and, per changed case, its id and a short diff (``graph-pairs-003: 2 → 1``,
  ``graph-pairs-007: f1 0.5 → 1``) — printed, and listed by the pytest plugin at the end of
  the run.  Unchanged cases keep their recorded output as written, so the file's diff in
  review shows only real changes.

The file (``causalcheck-snapshot/1``, JSON, stable key order, one case per entry) is meant
to be committed; its diff in review is the change of behaviour::

    {"format": "causalcheck-snapshot/1", "rule": "my_shd",
     "corpus": {"kind": "graph-pairs", "size": 40, "seed": 0},
     "cases": [{"id": "graph-pairs-000", "input": {"truth": [["a", "b"]], "estimate": [["b", "a"]]},
                "output": 1}, ...]}

A snapshot file holds at least one case and every case id once (ids key the comparison):
a file with ``cases: []`` or a repeated id is refused with an
:class:`~causalcheck.base.errors.InputFormatError` (:func:`read_snapshot`), never compared as
"all 0 outputs unchanged".

Outputs are stored as JSON values: numbers, strings, lists, objects; dataclasses and
objects with ``to_json()`` / ``to_dict()`` are converted; a non-finite float is stored as its
``repr``; an exception raised by the rule is stored as ``{"error": "Type: message"}`` (a
crash that appears or disappears is a change too).  Numbers compare as numbers (``1`` equals
``1.0``; ``True`` is not ``1``), within *tolerance* (absolute and relative).  A snapshot whose
outputs are *all* errors records a broken harness (a wrong signature, a missing program), not a
behaviour: it is refused with an :class:`~causalcheck.base.errors.InputFormatError` showing the
first error; one with some errors is recorded and says how many.

Corpus kinds and the arguments the rule receives (:meth:`Corpus.arguments`):

=====================  ==================================================================
kind                   arguments
=====================  ==================================================================
``graph-pairs``        ``(truth, estimate)``: lists of ``(cause, effect)`` pairs, DAGs with
                       awkward names (case variants, blanks, unicode), 0–3 edits
``causalab-pairs``     the same over CausaLab properties, the frequency under its aliases
``pdag-pairs``         ``(truth, estimate)`` as :class:`causalcheck.graphs.Graph` (``->`` and ``--``)
``coefficients``       ``(coefficients, config)``: a hypothesis' coefficients and a suite record
``explanations``       ``(graph, scores)``: an explanation graph and one edge score per edge
``criterion-scores``   ``(scores,)``: rubric criterion scores 1..10
``answers``            ``(question, answer)``: what-if answers built from cue templates
``trajectories``       ``(path,)``: a lab trajectory file (written to a temporary folder)
=====================  ==================================================================

>>> c = corpus("graph-pairs", size=3, seed=1)
>>> c == corpus("graph-pairs", size=3, seed=1), len(c.cases), c.cases[0].id
(True, 3, 'graph-pairs-000')

One module because the seeded corpora, the recording and the diff are one feature
(:func:`snapshot` and ``causalcheck snapshot``); the corpus generators exist only to feed it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import tempfile
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.files import atomic_write_json, read_input_text
from causalcheck.base.shown import SHOWN_CHARS, shown

__all__ = [
    "FORMAT",
    "KINDS",
    "Case",
    "Change",
    "Corpus",
    "SnapshotMismatch",
    "SnapshotReport",
    "corpus",
    "count_errors",
    "is_error_output",
    "jsonable",
    "output_diff",
    "same_output",
    "snapshot",
]

#: Value of a snapshot file's ``format`` key.
FORMAT = "causalcheck-snapshot/1"

#: The corpus kinds (see the module docstring).
KINDS: tuple[str, ...] = (
    "graph-pairs", "causalab-pairs", "pdag-pairs", "coefficients", "explanations", "criterion-scores",
    "answers", "trajectories",
)  # fmt: skip


@dataclass(frozen=True)
class Case:
    """One corpus input: a stable ``id`` and the input as a JSON value."""

    id: str
    input: Any


@dataclass(frozen=True)
class Corpus:
    """A deterministic list of inputs of one kind."""

    kind: str
    size: int
    seed: int
    cases: tuple[Case, ...]

    @property
    def spec(self) -> dict[str, Any]:
        """``{"kind", "size", "seed"}``: what regenerates this corpus."""
        return {"kind": self.kind, "size": self.size, "seed": self.seed}

    @contextlib.contextmanager
    def arguments(self, case: Case) -> Iterator[tuple[Any, ...]]:
        """The arguments a rule receives for *case* (files, for trajectories, live while the block runs)."""
        with _arguments(self.kind, case.input) as args:
            yield args


# --------------------------------------------------------------------------- generation
_AWKWARD = ("a", "A", "b", "B", " a", "x1", "X1", "Crystal Color", "ä", "Ä", "名前", "freq", "Frequency", "resonanceFreq", "c", "d", "e")
_PROPS = ("temperatureC", "moisture", "density", "quantumSize", "radiation", "pressure", "ph")
_FREQS = ("resonanceFreq", "freq", "Frequency", "Resonance_Freq", " freq ", "resonance frequency")


def _rng(kind: str, seed: int) -> Any:
    import numpy as np

    return np.random.default_rng([seed, zlib.crc32(kind.encode())])


def _dag(rng: Any, names: Sequence[str], p: float = 0.4) -> list[tuple[str, str]]:
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :] if rng.random() < p]


def _edit(rng: Any, names: Sequence[str], truth: list[tuple[str, str]]) -> list[tuple[str, str]]:
    est = list(truth)
    for _ in range(int(rng.integers(0, 4))):
        op = int(rng.integers(0, 3))
        if op == 0 and est:
            est.pop(int(rng.integers(0, len(est))))
        elif op == 1 and est:
            k = int(rng.integers(0, len(est)))
            a, b = est[k]
            est[k] = (b, a)
        else:
            a, b = (names[int(i)] for i in rng.choice(len(names), size=2, replace=False))
            if (a, b) not in est and (b, a) not in est:
                est.append((a, b))
    return est


def _names(rng: Any, pool: Sequence[str], lo: int, hi: int) -> list[str]:
    k = int(rng.integers(lo, hi + 1))
    return [pool[int(i)] for i in rng.choice(len(pool), size=min(k, len(pool)), replace=False)]


def _graph_pair(rng: Any, causalab: bool) -> dict[str, Any]:
    if causalab:
        names = [*_names(rng, _PROPS, 1, 5), _FREQS[int(rng.integers(0, len(_FREQS)))]]
        names = [names[int(i)] for i in rng.permutation(len(names))]
    else:
        names = _names(rng, _AWKWARD, 2, 6)
    truth = _dag(rng, names)
    return {"nodes": names, "truth": [list(e) for e in truth], "estimate": [list(e) for e in _edit(rng, names, truth)]}


def _pdag_pair(rng: Any) -> dict[str, Any]:
    # late: keeps causalcheck --help light
    from causalcheck.graphs.model import Graph, GraphEdge

    names = _names(rng, _AWKWARD, 2, 6)

    def graph(pairs: list[tuple[str, str]]) -> dict[str, Any]:
        edges = [GraphEdge.undirected(a, b) if rng.random() < 0.3 else GraphEdge.directed(a, b) for a, b in pairs]
        return Graph(tuple(names), tuple(edges)).to_dict()

    truth = _dag(rng, names)
    return {"truth": graph(truth), "estimate": graph(_edit(rng, names, truth))}


def _coefficients(rng: Any, i: int) -> dict[str, Any]:
    # late: keeps causalcheck --help light
    from causalcheck.lab.generator import generate_graph

    # late: keeps causalcheck --help light
    from causalcheck.metrics import true_coefficients

    config = generate_graph(rng, int(rng.integers(3, 6)), f"snap_{i}")
    truth = true_coefficients(config)
    coeffs: dict[str, Any] = {"base": float(rng.integers(0, 30))}
    for p, v in truth.items():
        r = rng.random()
        if r < 0.5:
            coeffs[f"c_{p}"] = v
        elif r < 0.7:
            coeffs[f"C_{p}"] = v + float(rng.integers(-1, 2))
        elif r < 0.85:
            coeffs[f"c_{p}"] = None
    if rng.random() < 0.3:
        coeffs["c_other"] = 1.0
    return {"coefficients": coeffs, "config": config}


_LABELS = ("CAUSE", "RESULT", "CONDITION", "CONSEQUENCE", "ELABORATION", "CONTRAST", "BACKGROUND", "EXAMPLE")


def _explanation(rng: Any) -> dict[str, Any]:
    n = int(rng.integers(1, 7))
    nodes = [{"id": f"EDU{i}", "text": f"unit {i}"} for i in range(1, n + 1)]
    edges = []
    for _ in range(int(rng.integers(0, 9)) if n > 1 else 0):
        a, b = (int(x) + 1 for x in rng.choice(n, size=2, replace=False))
        edges.append({"source": f"EDU{a}", "target": f"EDU{b}", "relation_type": _LABELS[int(rng.integers(0, len(_LABELS)))], "reason": ""})
    scores = [float(rng.choice([0.0, 1.0])) if rng.random() < 0.8 else round(float(rng.random()), 3) for _ in edges]
    return {"graph": {"nodes": nodes, "edges": edges}, "scores": scores}


def _answer(rng: Any) -> dict[str, Any]:
    # late: keeps causalcheck --help light
    from causalcheck.base.pools import CLAUSE_MANNERS as manners

    # late: keeps causalcheck --help light
    from causalcheck.base.pools import CLAUSE_SUBJECTS as subjects

    # late: keeps causalcheck --help light
    from causalcheck.base.pools import CLAUSE_VERBS as verbs

    # late: keeps causalcheck --help light
    from causalcheck.base.pools import CUE_TEMPLATES as templates

    k = int(rng.integers(2, 5))
    clauses = [
        f"{subjects[int(s)]} {verbs[int(rng.integers(0, len(verbs)))]} {manners[int(rng.integers(0, len(manners)))]}"
        for s in rng.choice(len(subjects), size=k, replace=False)
    ]
    sentences = []
    for i in range(k - 1):
        labels = [lb for lb in templates if lb != "CONDITION" or i == 0]
        label = labels[int(rng.integers(0, len(labels)))]
        a, b = clauses[i], clauses[i + 1]
        if rng.random() < 0.25:  # a sentence without a causal cue
            sentences.append(f"{a[:1].upper() + a[1:]}. {b[:1].upper() + b[1:]}.")
        else:
            sentences.append(templates[label].format(a=a, b=b, A=a[:1].upper() + a[1:], B=b[:1].upper() + b[1:]))
    return {"question": f"What would happen if {clauses[0].replace('would ', '', 1)}?", "answer": " ".join(sentences)}


def _trajectory(rng: Any, i: int) -> dict[str, Any]:
    # late: pulls numpy
    from causalcheck.lab.agents import make_agent

    # late: keeps causalcheck --help light
    from causalcheck.lab.generator import generate_graph

    # late: keeps causalcheck --help light
    from causalcheck.lab.runner import run_episode

    # late: keeps causalcheck --help light
    from causalcheck.lab.suites import parse_suite_record

    graph = parse_suite_record(generate_graph(rng, int(rng.integers(3, 5)), f"snap_{i}"))
    seed = int(rng.integers(0, 1000))
    agent = ("random", "planner")[int(rng.integers(0, 2))]
    header, steps, summary = run_episode(graph, make_agent(agent, seed=seed), seed, suite_name="snapshot", agent_name=agent)
    # late: keeps causalcheck --help light
    from causalcheck.episodes import Trajectory

    return {"lines": json.loads(json.dumps(Trajectory(header, tuple(steps), summary).lines()))}


def corpus(kind: str, *, size: int = 40, seed: int = 0) -> Corpus:
    """The corpus of *kind* with *size* cases drawn from *seed* (see the module docstring)."""
    if kind not in KINDS:
        raise InputFormatError(f"kind={shown(kind)} must be one of {list(KINDS)!r}")
    if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 100_000:
        raise InputFormatError(f"size={shown(size)} must be an integer in 1..100000")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputFormatError(f"seed={shown(seed)} must be a non-negative integer")
    rng = _rng(kind, seed)
    make: dict[str, Callable[[int], Any]] = {
        "graph-pairs": lambda i: _graph_pair(rng, False),
        "causalab-pairs": lambda i: _graph_pair(rng, True),
        "pdag-pairs": lambda i: _pdag_pair(rng),
        "coefficients": lambda i: _coefficients(rng, i),
        "explanations": lambda i: _explanation(rng),
        "criterion-scores": lambda i: {"scores": [int(x) for x in rng.integers(1, 11, size=int(rng.integers(1, 6)))]},
        "answers": lambda i: _answer(rng),
        "trajectories": lambda i: _trajectory(rng, i),
    }
    width = max(3, len(str(size - 1)))
    cases = tuple(Case(f"{kind}-{i:0{width}d}", make[kind](i)) for i in range(size))
    return Corpus(kind, size, seed, cases)


@contextlib.contextmanager
def _arguments(kind: str, data: Any) -> Iterator[tuple[Any, ...]]:
    if kind in ("graph-pairs", "causalab-pairs"):
        yield ([tuple(e) for e in data["truth"]], [tuple(e) for e in data["estimate"]])
    elif kind == "pdag-pairs":
        # late: keeps causalcheck --help light
        from causalcheck.graphs.model import Graph

        yield (Graph.from_dict(data["truth"]), Graph.from_dict(data["estimate"]))
    elif kind == "coefficients":
        yield (dict(data["coefficients"]), data["config"])
    elif kind == "explanations":
        # late: keeps causalcheck --help light
        from causalcheck.explain.explanation_graph import (
            ExplanationEdge,
            ExplanationGraph,
            ExplanationNode,
        )

        g = ExplanationGraph(
            tuple(ExplanationNode(n["id"], n["text"]) for n in data["graph"]["nodes"]),
            tuple(ExplanationEdge(e["source"], e["target"], e["relation_type"], e.get("reason", "")) for e in data["graph"]["edges"]),
        )
        yield (g, list(data["scores"]))
    elif kind == "criterion-scores":
        yield (list(data["scores"]),)
    elif kind == "answers":
        yield (data["question"], data["answer"])
    elif kind == "trajectories":
        with tempfile.TemporaryDirectory(prefix="causalcheck-snapshot-") as tmp:
            path = Path(tmp) / "trajectory.jsonl"
            path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in data["lines"]), encoding="utf-8")
            yield (path,)
    else:
        raise InputFormatError(f"kind={shown(kind)} must be one of {list(KINDS)!r}")


# --------------------------------------------------------------------------- outputs
def jsonable(value: Any) -> Any:
    """*value* as a JSON value (see the module docstring for the conversions)."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if hasattr(value, "to_json") and callable(value.to_json):
        return jsonable(value.to_json())
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return jsonable(value.to_dict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return jsonable({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((jsonable(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return jsonable(value.item())
    return repr(value)


def same_output(a: Any, b: Any, tolerance: float = 0.0) -> bool:
    """Whether two recorded outputs are the same: numbers as numbers (``1 == 1.0``, a bool only equals a bool)
    within *tolerance*, lists and objects element by element, anything else by ``==``."""
    return _same(a, b, tolerance)


def _same(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or math.isclose(a, b, rel_tol=tol, abs_tol=tol)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y, tol) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k], tol) for k in a)
    return bool(a == b)


def _brief(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def output_diff(old: Any, new: Any, tolerance: float = 0.0, limit: int = 4) -> str:
    """A short diff of two outputs: ``2 → 1``, or the keys / positions that differ (``f1 0.5 → 1; recall 1 → 0.5``).

    >>> output_diff({"f1": 0.5, "n": 3}, {"f1": 1, "n": 3.0})
    'f1 0.5 → 1'
    >>> output_diff(None, 2)
    '(new case) → 2'
    """
    if old is None and new is not None:
        return f"(new case) → {_brief(new)}"
    parts: list[str] = []

    def walk(a: Any, b: Any, where: str) -> None:
        if _same(a, b, tolerance):
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(a.keys() | b.keys()):
                sub = f"{where}.{k}" if where else str(k)
                if k not in b:
                    parts.append(f"{sub} removed (was {_brief(a[k])})")
                elif k not in a:
                    parts.append(f"{sub} added: {_brief(b[k])}")
                else:
                    walk(a[k], b[k], sub)
        elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
            for i, (x, y) in enumerate(zip(a, b, strict=True)):
                walk(x, y, f"{where}[{i}]")
        else:
            parts.append(f"{where + ' ' if where else ''}{_brief(a)} → {_brief(b)}")

    walk(old, new, "")
    more = f"; … ({len(parts) - limit} more)" if len(parts) > limit else ""
    return "; ".join(parts[:limit]) + more


def is_error_output(output: Any) -> bool:
    """True for a recorded failure: ``{"error": ...}`` (a rule that raised) or ``{"exit": ..., "stderr": ...}`` (a command)."""
    return isinstance(output, dict) and (output.keys() == {"error"} or output.keys() == {"exit", "stderr"})


def count_errors(path: Path, rule: str, rows: Sequence[Mapping[str, Any]]) -> int:
    """How many of the *rows* about to be recorded are errors; all of them is refused (InputFormatError, the first shown)."""
    errors = [r for r in rows if is_error_output(r["output"])]
    if rows and len(errors) == len(rows):
        first = errors[0]
        raise InputFormatError(
            f"{path}: all {len(rows)} outputs of {shown(rule)} are errors, so nothing was recorded "
            f"(a broken signature or command records no behaviour); the first, case {shown(first['id'])}: "
            f"{shown(first['output'], limit=200)}"
        )
    return len(errors)


@dataclass(frozen=True)
class Change:
    """One case whose output differs: its id, input, the recorded and the new output."""

    id: str
    input: Any
    old: Any
    new: Any

    def describe(self, limit: int = 600) -> str:
        text = json.dumps(self.input, ensure_ascii=False, sort_keys=True)
        if len(text) > limit:
            text = text[:limit] + f"... (truncated; the full input is case {shown(self.id)} of the snapshot file)"
        name = self.id if len(self.id) <= SHOWN_CHARS else shown(self.id)  # a 5 000-character id is cut, not copied
        return (
            f"  {name}\n    input:    {text}\n    recorded: {json.dumps(self.old, ensure_ascii=False, sort_keys=True)}\n"
            f"    now:      {json.dumps(self.new, ensure_ascii=False, sort_keys=True)}"
        )

    def short(self, tolerance: float = 0.0) -> str:
        """``  <id>: <short diff>`` — one line per changed case (what update mode prints)."""
        name = self.id if len(self.id) <= SHOWN_CHARS else shown(self.id)
        return f"  {name}: {output_diff(self.old, self.new, tolerance)}"


@dataclass(frozen=True)
class SnapshotReport:
    """What :func:`snapshot` did: ``status`` is ``"created"``, ``"unchanged"`` or ``"updated"``."""

    path: Path
    status: Literal["created", "unchanged", "updated"]
    cases: int
    changes: tuple[Change, ...] = ()
    #: how many recorded outputs are errors (a rule that raised)
    errors: int = 0
    rule: str = ""

    def summary(self, tolerance: float = 0.0) -> str:
        """What happened, in words: the count, and for an update each changed case with a short diff."""
        errs = f" ({self.errors} of them errors)" if self.errors else ""
        if self.status == "created":
            return f"snapshot {str(self.path)!r}: recorded {self.cases} outputs of {self.rule}{errs}"
        if self.status == "unchanged":
            return f"snapshot {str(self.path)!r}: all {self.cases} outputs of {self.rule} unchanged"
        head = f"snapshot {str(self.path)!r}: updated, {len(self.changes)} of {self.cases} outputs of {self.rule} changed{errs}"
        return "\n".join([head + (":" if self.changes else ""), *(c.short(tolerance) for c in self.changes)])


class SnapshotMismatch(AssertionError):
    """Outputs differ from the recorded snapshot (the message lists every changed case)."""

    def __init__(self, path: Path, rule: str, changes: Sequence[Change], total: int) -> None:
        self.path = path
        self.changes = tuple(changes)
        body = "\n".join(c.describe() for c in changes)
        super().__init__(
            f"snapshot {str(path)!r}: {len(changes)} of {total} outputs of {rule} changed\n{body}\n"
            "(review the change; if it is intended, rewrite the snapshot with update=True, "
            "pytest --causalcheck-update-snapshots or CAUSALCHECK_UPDATE_SNAPSHOTS=1)"
        )


def _update_requested() -> bool:
    if os.environ.get("CAUSALCHECK_UPDATE_SNAPSHOTS", "").strip() not in ("", "0"):
        return True
    # late: keeps causalcheck --help light
    from causalcheck.testing.profiles import update_snapshots_requested

    return update_snapshots_requested()


def _output(fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    try:
        return jsonable(fn(*args))
    except Exception as exc:  # a crash is an output too: recorded, and compared
        return {"error": f"{type(exc).__name__}: {exc}"}


def read_snapshot(path: str | Path) -> dict[str, Any]:
    """A snapshot file's content, checked: format, corpus spec and at least one case, each with ``id`` /
    ``input`` / ``output``, the ids distinct non-empty strings (they key the comparison).  Anything
    else is an :class:`~causalcheck.base.errors.InputFormatError` naming the file (and both
    positions of a repeated id); values are quoted with :func:`causalcheck.base.shown.shown`."""
    # late: keeps causalcheck --help light
    from causalcheck.base import safejson

    p = Path(path)
    try:
        data = safejson.loads(read_input_text(p), source=str(p))  # deep nesting, NaN, lone surrogates: refused
    except safejson.JSONSyntaxError as exc:
        raise InputFormatError(f"{p}: snapshot is not JSON ({exc.msg} at line {exc.line})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputFormatError(f"{p}: format={shown(data.get('format') if isinstance(data, dict) else None)} must be {FORMAT!r}")
    spec, cases = data.get("corpus"), data.get("cases")
    if not isinstance(spec, dict) or spec.get("kind") not in KINDS:
        raise InputFormatError(f"{p}: corpus={shown(spec)} must name a kind among {list(KINDS)!r}")
    if not isinstance(cases, list) or not all(isinstance(c, dict) and {"id", "input", "output"} <= c.keys() for c in cases):
        raise InputFormatError(f"{p}: cases must be a list of {{id, input, output}} objects")
    if not cases:
        raise InputFormatError(f"{p}: cases=[]: the snapshot holds no case, so nothing would be compared; "
                               "delete the file and record it again")
    first: dict[str, int] = {}
    for k, case in enumerate(cases):
        if not isinstance(case["id"], str) or not case["id"]:  # ids key the comparison: a list id is unhashable
            raise InputFormatError(f"{p}: cases[{k}]: id={shown(case['id'])} must be a non-empty name (a string)")
        if case["id"] in first:  # ids key the comparison: a second case of one id would hide the first
            raise InputFormatError(f"{p}: cases[{first[case['id']]}] and cases[{k}] have the same id={shown(case['id'])}; "
                                   "each case needs its own id")
        first[case["id"]] = k
    return data


def write_snapshot(path: str | Path, rule: str, spec: Mapping[str, Any], cases: Sequence[Mapping[str, Any]], **extra: Any) -> Path:
    """Write a snapshot file atomically (stable key order, one case per entry)."""
    doc = {"format": FORMAT, "rule": rule, "corpus": dict(spec), **extra, "cases": [dict(c) for c in cases]}
    return atomic_write_json(path, doc, indent=1)


def snapshot(
    fn: Callable[..., Any],
    corpus: Corpus,
    path: str | Path,
    *,
    update: bool | None = None,
    missing: Literal["record", "fail"] = "record",
    tolerance: float = 0.0,
    rule: str | None = None,
) -> SnapshotReport:
    """Record *fn*'s outputs on *corpus* at *path*, or compare with the recorded ones (module docstring).

    *update* None means: update when ``--causalcheck-update-snapshots`` or
    ``CAUSALCHECK_UPDATE_SNAPSHOTS=1`` asks for it.  Raises :class:`SnapshotMismatch` for
    changed outputs (unless updating), and :class:`~causalcheck.base.errors.InputFormatError`
    when the file was recorded on another corpus (kind, size or seed) and not updating.
    """
    # late: keeps causalcheck --help light
    from causalcheck.testing.runner import describe

    p = Path(path)
    name = rule or describe(fn)
    upd = _update_requested() if update is None else update
    if not p.exists():
        if missing == "fail" and not upd:
            raise AssertionError(f"no snapshot at {str(p)!r} for {name}; record it with update=True (or missing='record')")
        rows = []
        for case in corpus.cases:
            with corpus.arguments(case) as args:
                rows.append({"id": case.id, "input": case.input, "output": _output(fn, args)})
        errors = count_errors(p, name, rows)
        write_snapshot(p, name, corpus.spec, rows)
        return SnapshotReport(p, "created", len(rows), errors=errors, rule=name)
    data = read_snapshot(p)
    if data["corpus"] != corpus.spec and not upd:
        raise InputFormatError(
            f"{p}: recorded on corpus {shown(data['corpus'], limit=200)}, but this call uses {corpus.spec!r}; "
            "pass the recorded corpus, or update=True to re-record"
        )
    stored = corpus if data["corpus"] != corpus.spec else Corpus(
        corpus.kind, corpus.size, corpus.seed, tuple(Case(c["id"], c["input"]) for c in data["cases"])
    )
    old = {c["id"]: c["output"] for c in data["cases"]}
    rows, changes = [], []
    for case in stored.cases:
        cm, args = _recorded_arguments(stored, case, p)
        try:
            out = _output(fn, args)
        finally:
            cm.__exit__(None, None, None)
        if case.id not in old or not _same(old[case.id], out, tolerance):
            changes.append(Change(case.id, case.input, old.get(case.id), out))
        elif stored is not corpus:  # unchanged: keep the output as recorded (1 stays 1, not 1.0): the diff shows real changes
            out = old[case.id]
        rows.append({"id": case.id, "input": case.input, "output": out})
    if not changes and data["corpus"] == corpus.spec:
        return SnapshotReport(p, "unchanged", len(rows), rule=name)
    if not upd:
        raise SnapshotMismatch(p, name, changes, len(rows))
    errors = count_errors(p, name, rows)
    write_snapshot(p, name, corpus.spec, rows)
    report = SnapshotReport(p, "updated", len(rows), tuple(changes), errors=errors, rule=name)
    _announce(report.summary(tolerance))
    return report


def _recorded_arguments(stored: Corpus, case: Case, path: Path) -> tuple[Any, Any]:
    """The entered ``stored.arguments(case)`` context and its arguments; a recorded input that does not
    fit its kind (a damaged or hand-edited file) is an :class:`~causalcheck.base.errors.InputFormatError`
    naming the file and the case, not a ``KeyError`` from deep inside."""
    cm = stored.arguments(case)
    try:
        return cm, cm.__enter__()
    except (CausalCheckError, TypeError, KeyError, ValueError, AttributeError, IndexError) as exc:
        raise InputFormatError(
            f"{path}: case id={shown(case.id)}: its input does not fit a {stored.kind!r} case "
            f"({type(exc).__name__}: {shown(str(exc))}); restore the file or delete it and record it again"
        ) from None


def _announce(text: str) -> None:
    """Print an update's summary, and keep it for the pytest plugin's end-of-run list."""
    print(text)
    # late: keeps causalcheck --help light
    from causalcheck.testing.profiles import note_snapshot_update

    note_snapshot_update(text)
