"""The front door: :func:`check` takes anything that holds hypotheses or causal graphs and returns one report.

Whatever the input, the result is one :class:`~causalcheck.findings.Report` (``.findings``,
``.ok`` — no error-level finding —, ``.errors``, ``.codes()``, ``.to_dict()``,
``.subject``, ``.parts``).  It dispatches on the input: a
:class:`~causalcheck.records.Hypothesis` goes to the hypothesis stage, a
:class:`~causalcheck.records.StepRecord` (or an :class:`~causalcheck.episodes.Unparsed`
step) to the record check, a sequence of records or an :class:`~causalcheck.episodes.EpisodeRecord`
to the trajectory stage (a report whose ``parts`` are the steps'), a folder to
:func:`~causalcheck.checking.folder.check_folder` (a report whose ``parts`` are its files';
a folder that is one unit, such as an official seed folder, gives that unit's report), and
everything else (paths, ``example:<name>``, text, dicts) is first read by
:mod:`causalcheck.checking.inputs`.

A causal graph from any discovery tool — a :class:`~causalcheck.graphs.Graph`, a networkx
graph, a causal-learn ``GeneralGraph``, a pgmpy DAG/PDAG, a graph file (DOT, GML, dagitty,
CSV, our text format) — or any call with ``data=`` (a table), ``truth=``,
``interventions=`` or ``background=`` goes to the graph validator
(:func:`causalcheck.graphs.validate_graph`); the report's ``detail`` is the validator's
:class:`~causalcheck.graphchecks.validator.GraphValidation` (independence tests, falsification,
comparison, coverage, background knowledge).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from causalcheck.checking.folder import check_folder, check_input, require_checked
from causalcheck.checking.hypothesis import check_hypothesis, check_record
from causalcheck.checking.inputs import graph_file_format
from causalcheck.checking.trajectory import check_episode, check_trajectory
from causalcheck.episodes import EpisodeRecord, Unparsed
from causalcheck.findings import Report
from causalcheck.graph import CausalGraph
from causalcheck.graphs import Graph
from causalcheck.records import DataPoint, Hypothesis, StepRecord

__all__ = ["GRAPH_ONLY_SUFFIXES", "check", "check_hypotheses"]

#: Suffixes of files that can only hold causal graphs (``.txt`` / ``.json`` are read as records
#: or hypotheses first, and as graphs only when they are neither).
GRAPH_ONLY_SUFFIXES = frozenset({".dot", ".gv", ".gml", ".dagitty", ".graph", ".csv", ".tsv"})
_GRAPH_LIBRARIES = ("networkx", "causallearn", "pgmpy")


def _is_hypothesis_data(data: Any) -> bool:
    """True for the evidence points a hypothesis is checked against (the default ``()`` too)."""
    return isinstance(data, (list, tuple)) and all(isinstance(d, DataPoint) for d in data)


def _is_graph(obj: Any) -> bool:
    """A general graph, a graph library's object, or a path to a graph-only file."""
    if isinstance(obj, Graph):
        return not isinstance(obj, CausalGraph)  # a CausalGraph is a hypothesis' graph: the hypothesis checks
    if type(obj).__module__.split(".", 1)[0] in _GRAPH_LIBRARIES:
        return True
    if isinstance(obj, Path) or (isinstance(obj, str) and "\n" not in obj and len(obj) < 4096):
        # a graph-only suffix, or a file whose content is a graph (graph.json in the JSON graph format)
        return Path(obj).suffix.lower() in GRAPH_ONLY_SUFFIXES or graph_file_format(obj) not in (None, "text")
    return False


def check(
    obj: Any,
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
    data: Any = (),
    strict: bool = False,
    truth: Any = None,
    interventions: Any = None,
    background: Any = None,
    **validator_options: Any,
) -> Report:
    """Check anything that holds hypotheses or a causal graph; one :class:`~causalcheck.findings.Report`.

    Hypotheses and agent records: *obj* is a :class:`Hypothesis`, a :class:`StepRecord`, a
    sequence of records, an :class:`~causalcheck.episodes.EpisodeRecord`, a path (record JSON,
    JSONL, text hypothesis, lab trajectory, official ``raw_io.jsonl``, run folder or any
    folder), ``"example:<name>"``, or text; a trajectory's report has one part per step, a
    folder's one part per checked file; *data* are evidence points
    (:class:`~causalcheck.records.DataPoint`).

    Causal graphs (see the module docstring): the report's ``detail`` is the validator's
    result; *data* is then a table (DataFrame, array with ``data_names=``, mapping or CSV path),
    *truth* the true graph, *interventions* the targets, *background* the background
    knowledge, and *validator_options* go to :func:`causalcheck.graphs.validate_graph`
    (``alpha``, ``ci_test``, ``correction``, ``seed``, ``permutations``, …).
    Input that cannot be read raises :class:`~causalcheck.base.errors.InputFormatError` /
    :class:`~causalcheck.base.errors.DSLSyntaxError`.
    """
    graph_data = data is not None and not _is_hypothesis_data(data)
    if graph_data or truth is not None or interventions is not None or background is not None or validator_options or _is_graph(obj):
        # late: keeps check API light
        from causalcheck.graphchecks.validator import validate_graph

        if isinstance(obj, CausalGraph):
            obj = obj.to_general()
        return validate_graph(
            obj,
            data=data if graph_data else None,
            truth=truth,
            interventions=interventions,
            background=background,
            **validator_options,
        ).report
    return check_hypotheses(obj, reference=reference, tolerance=tolerance, nodes=nodes, data=data, strict=strict)


def check_hypotheses(
    obj: Any,
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
    data: Sequence[DataPoint] = (),
    strict: bool = False,
) -> Report:
    """The hypothesis half of :func:`check`: anything that holds hypotheses (not graphs for the validator)."""
    ref = list(reference)
    if isinstance(obj, CausalGraph):
        obj = Hypothesis(obj)
    if isinstance(obj, Hypothesis):
        return check_hypothesis(obj, data=data, reference=ref, tolerance=tolerance, nodes=nodes)
    if isinstance(obj, (StepRecord, Unparsed)):
        return check_record(obj, reference=ref, tolerance=tolerance, nodes=nodes)
    if isinstance(obj, EpisodeRecord):
        return check_episode(obj, reference=ref, tolerance=tolerance, nodes=nodes)
    if isinstance(obj, (list, tuple)) and all(isinstance(r, (StepRecord, Unparsed)) for r in obj):
        return check_trajectory(obj, reference=ref, tolerance=tolerance, nodes=nodes)
    if _is_folder(obj):
        folder = check_folder(obj, reference=ref, tolerance=tolerance, nodes=nodes, strict=strict)
        require_checked(folder)
        single = folder.checked[0].report if len(folder.units) == 1 else None
        return single if single is not None else folder.report
    return check_input(obj, reference=ref, tolerance=tolerance, nodes=nodes, data=data, strict=strict)


def _is_folder(obj: Any) -> bool:
    if isinstance(obj, str) and (obj.startswith("example:") or "\n" in obj or len(obj) >= 4096):
        return False
    try:
        return isinstance(obj, (str, Path)) and Path(obj).is_dir()
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False
