"""Replay: re-score an official result file from what it recorded, without any model call.

Every judged item of a PRISM result file keeps the parser output (``parsed_rst_raw``,
``parsed_rst``), the graph (``parsed_dag`` = ``metrics.pm.graph``), one edge verdict per
graph edge (``metrics.pm.edges``, index-aligned) and one verdict per rubric criterion
(``metrics.rm.criterion_evaluations``).  :func:`replay_file` recomputes from those:

* PM from the recorded graph and edge scores (``pm_mode="auto"``: the causal-edge PM for
  May-2026 files, which have a ``state`` object, the all-edge mean for April-2026 files);
* RM from the integer criterion scores, Final as their mean;
* the summary means over the items, in file order;

and compares each with the recorded number **exactly** (``==`` on floats).  With
``check_parse`` it also re-derives the graph: ``parse_rst_output(parsed_rst_raw,
compat="anchor")`` + :func:`~.rst.project_to_graph` for items the parser handled, and
:func:`~.rst.heuristic_fallback` (answer, recorded error) for heuristic items; both must
reproduce the recorded ``parsed_rst`` and ``parsed_dag``.  Files written by causalcheck's
offline parser (``parsed_rst_source == "offline"``) are checked by reading their
``parsed_rst_raw`` back (``compat="full"``): same EDUs, relations and graph edges.

Recorded judge failures (an edge record with ``error``; a criterion whose ``raw`` has
``error``) make the replayed item *degraded*.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from causalcheck.base import safejson
from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.explain._fields import as_integer, as_list, as_number, as_text
from causalcheck.explain.data import parse_item
from causalcheck.explain.explanation_graph import ExplanationGraph
from causalcheck.explain.judges import CriterionJudgment, EdgeJudgment
from causalcheck.explain.result_schema import ResultItem, decode_item, scored_item
from causalcheck.explain.rst import (
    RSTRecord,
    heuristic_fallback,
    parse_rst_output,
    project_to_graph,
)
from causalcheck.explain.scoring import PMMode, compute_pm, compute_rm, summary_mean

__all__ = ["ReplayItem", "ReplayReport", "replay_file", "replay_payload"]


@dataclass(frozen=True)
class ReplayItem:
    """Recorded vs replayed scores of one item; ``parse_match`` is ``None`` when not checked."""

    key: str
    recorded: tuple[float, float, float]
    replayed: tuple[float, float, float]
    parse_match: bool | None
    source: str
    result: ResultItem

    @property
    def match(self) -> bool:
        """Scores equal exactly (and the re-parse matched, when checked)."""
        return self.recorded == self.replayed and self.parse_match is not False


@dataclass(frozen=True)
class ReplayReport:
    """The outcome of :func:`replay_file`."""

    items: tuple[ReplayItem, ...]
    summary_recorded: Mapping[str, Any]
    summary_replayed: Mapping[str, Any]
    pm_mode: PMMode
    meta: Mapping[str, Any]
    #: The failed items the file recorded (its ``failures``), as read.
    failures: tuple[Mapping[str, Any], ...] = ()
    #: Items that could not be replayed: ``{"key", "index", "error"}`` each.
    unreplayed: tuple[Mapping[str, str], ...] = ()

    @property
    def summary_match(self) -> bool:
        keys = ("pm_mean", "rm_mean", "total_mean", "n_items")
        return all(self.summary_recorded.get(k) == self.summary_replayed.get(k) for k in keys)

    @property
    def ok(self) -> bool:
        """Every item was replayed and matches, and so does the summary."""
        return self.summary_match and all(i.match for i in self.items) and not self.unreplayed


def _criterion_judgments(rm: Mapping[str, Any]) -> list[CriterionJudgment]:
    out = []
    for i, ev in enumerate(as_list(rm.get("criterion_evaluations") or None, "metrics.rm.criterion_evaluations")):
        if not isinstance(ev, Mapping):
            continue
        where = f"metrics.rm.criterion_evaluations[{i}]"
        raw = ev.get("raw") if isinstance(ev.get("raw"), Mapping) else {}
        err = raw.get("error") if isinstance(raw, Mapping) else None
        out.append(
            CriterionJudgment(
                score=as_integer(ev.get("score", 1), f"{where}.score"),
                reason=as_text(ev.get("reason"), f"{where}.reason"),
                raw=dict(raw) if isinstance(raw, Mapping) else {},
                error=None if err is None else str(err),
                degraded=err is not None,
            )
        )
    scores = as_list(rm.get("criterion_scores") or None, "metrics.rm.criterion_scores")
    if not out and scores:
        out = [CriterionJudgment(score=as_integer(s, f"metrics.rm.criterion_scores[{i}]")) for i, s in enumerate(scores)]
    return out


def _reparse(r: ResultItem, record: RSTRecord, graph: ExplanationGraph) -> bool | None:
    source = r.parsed_rst_source or record.source
    recorded_rst, recorded_dag = r.parsed_rst, r.parsed_dag
    if not recorded_rst or not recorded_dag:
        return None
    raw_output = r.parsed_rst_raw
    if source == "heuristic":
        again = heuristic_fallback(r.model_answer, r.parsed_rst_error, raw_output=raw_output)
    elif source == "offline":  # causalcheck's own parser: its raw output is the record in text form
        try:
            again = parse_rst_output(raw_output, compat="full")
        except DSLSyntaxError:
            return False
        same_edus = [(e.id, " ".join(e.text.split())) for e in again.edus] == [
            (e.id, " ".join(e.text.split())) for e in record.edus
        ]
        same_dag = [e.to_json() for e in project_to_graph(again).edges] == as_list(recorded_dag.get("edges") or None, "parsed_dag.edges")
        return bool(same_edus and again.relations == record.relations and same_dag)
    else:
        try:
            again = parse_rst_output(raw_output, compat="anchor")
        except DSLSyntaxError:
            return False
    same_rst = again.to_json() == dict(recorded_rst)
    same_dag = project_to_graph(again).to_json() == dict(recorded_dag)
    return bool(same_rst and same_dag)


def _replay_item(obj: Mapping[str, Any], index: int, pm_mode: PMMode, check_parse: bool) -> ReplayItem:
    item = parse_item(obj, index)
    r = decode_item(obj)  # the one reader of result items: every recorded field has its type checked there
    pm_rec = r.metrics.pm
    if pm_rec is None:
        raise InputFormatError(f"item {item.key!r}: metrics.pm is missing; not a judged result item")
    graph = ExplanationGraph.from_json(pm_rec.get("graph") or r.parsed_dag or None)
    raw_edges = as_list(pm_rec.get("edges") or None, "metrics.pm.edges")
    judgments: list[EdgeJudgment | None] = [
        None if (isinstance(e, Mapping) and e.get("score") is None) else EdgeJudgment.from_official(e, f"metrics.pm.edges[{k}]") for k, e in enumerate(raw_edges)
    ]
    # the original zips graph edges with scores: extra records are ignored, missing ones are not judged
    judgments = (judgments + [None] * len(graph.edges))[: len(graph.edges)]
    pm = compute_pm(graph, judgments, pm_mode)
    rm_rec: Mapping[str, Any] = r.metrics.rm or {}
    cjs = _criterion_judgments(rm_rec)
    if cjs:
        rm, raw10 = compute_rm([c.score for c in cjs])
    else:  # holistic rubric record: the score is the judge's 0..1 number
        rm = min(max(as_number(rm_rec.get("score"), "metrics.rm.score", 0.0), 0.0), 1.0)
        raw10 = rm * 10
    record = RSTRecord.from_json(r.parsed_rst)
    parse_match = _reparse(r, record, graph) if check_parse else None
    answer = r.model_answer
    degraded = [f"edge #{i} judgment failed: {j.error}" for i, j in enumerate(judgments) if j is not None and j.degraded]
    degraded += [f"criterion {i} judgment failed: {c.error}" for i, c in enumerate(cjs, start=1) if c.degraded]
    if record.source == "heuristic":
        degraded.insert(0, f"parser fell back to the heuristic graph: {record.error}")
    result = scored_item(
        item,
        answer,
        text=answer,
        pm=pm,
        rm=rm,
        rm_raw10=raw10,
        record=record,
        graph=graph,
        edge_judgments=judgments,
        criterion_judgments=cjs,
        criterion_names=[c.name for c in (item.rubric.criteria if item.rubric else ())],
        degraded=degraded,
        pm_mode=pm_mode,
    )
    recorded = (
        as_number(r.pm_score, "pm_score"),
        as_number(r.rm_score, "rm_score"),
        as_number(r.total_score, "total_score"),
    )
    return ReplayItem(item.key, recorded, (pm, rm, result.final), parse_match, record.source, result)


def _item_key(obj: Any, index: int) -> str:
    """The item's official key for messages, or ``#index`` when it has none."""
    if isinstance(obj, Mapping):
        for name in ("canonical_id", "id"):
            value = obj.get(name)
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
                return str(value)
    return f"#{index}"


def replay_payload(
    payload: Any, *, pm_mode: PMMode | Literal["auto"] = "auto", check_parse: bool = True, source: str | None = None
) -> ReplayReport:
    """Replay an already-loaded result object (see :func:`replay_file`); *source* (the file it was
    read from) is named when the object is not a result.

    An item that cannot be replayed (a damaged record: a missing or wrong-typed field) does
    not stop the others: it is listed in :attr:`ReplayReport.unreplayed` with the reason, and
    the summary means are over the items that were replayed.
    """
    if not isinstance(payload, Mapping) or not isinstance(payload.get("items"), list):
        got = type(payload).__name__ if not isinstance(payload, Mapping) else f"'items' of type {type(payload.get('items')).__name__}"
        where = f"{source}: " if source else ""
        raise InputFormatError(f"{where}a result file must be an object with an 'items' list; got {got}")
    if pm_mode not in ("auto", "causal", "all"):
        raise InputFormatError(f"pm_mode={pm_mode!r} must be 'auto', 'causal' or 'all'")
    meta_obj = payload.get("meta")
    meta: Mapping[str, Any] = meta_obj if isinstance(meta_obj, Mapping) else {}
    recorded = meta.get("pm_mode")
    if pm_mode != "auto":
        mode: PMMode = pm_mode
    elif recorded in ("causal", "all"):
        mode = recorded  # written by causalcheck
    else:  # official files: the May-2026 layout (with "state") used the causal PM
        mode = "causal" if "state" in payload else "all"
    replayed_items: list[ReplayItem] = []
    unreplayed: list[dict[str, str]] = []
    for i, obj in enumerate(payload["items"]):
        try:
            replayed_items.append(_replay_item(obj, i, mode, check_parse))
        except InputFormatError as exc:
            key = _item_key(obj, i)
            unreplayed.append({"key": key, "index": str(i), "error": str(exc)})
    items = tuple(replayed_items)
    n = len(items)

    def mean(values: list[float]) -> float:
        return summary_mean(values) or 0.0

    replayed = {
        "pm_mean": mean([i.replayed[0] for i in items]),
        "rm_mean": mean([i.replayed[1] for i in items]),
        "total_mean": mean([i.replayed[2] for i in items]),
        "n_items": n,
    }
    summary_obj = payload.get("summary")
    summary: Mapping[str, Any] = summary_obj if isinstance(summary_obj, Mapping) else {}
    failures_obj = payload.get("failures")
    failures = tuple(f for f in failures_obj if isinstance(f, Mapping)) if isinstance(failures_obj, list) else ()
    return ReplayReport(items, dict(summary), replayed, mode, dict(meta), failures, tuple(unreplayed))


def replay_file(path: str | Path, *, pm_mode: PMMode | Literal["auto"] = "auto", check_parse: bool = True) -> ReplayReport:
    """Re-score the official result file at *path* from its recorded judgments (module docstring).

    The file is read with :func:`causalcheck.base.safejson.load_file` (regular files only, a size
    limit, safe JSON).
    """
    payload = safejson.load_file(path, what="result file")
    return replay_payload(payload, pm_mode=pm_mode, check_parse=check_parse, source=str(path))
