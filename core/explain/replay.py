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

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from causalcheck.errors import DSLSyntaxError, InputFormatError
from causalcheck.explain.data import parse_item
from causalcheck.explain.explanation_graph import ExplanationGraph
from causalcheck.explain.judges import CriterionJudgment, EdgeJudgment
from causalcheck.explain.rst import (
    RSTRecord,
    heuristic_fallback,
    parse_rst_output,
    project_to_graph,
)
from causalcheck.explain.scoring import (
    ItemResult,
    PMMode,
    assemble_result,
    compute_pm,
    compute_rm,
)

__all__ = ["ReplayItem", "ReplayReport", "replay_file", "replay_payload"]


@dataclass(frozen=True)
class ReplayItem:
    """Recorded vs replayed scores of one item; ``parse_match`` is ``None`` when not checked."""

    key: str
    recorded: tuple[float, float, float]
    replayed: tuple[float, float, float]
    parse_match: bool | None
    source: str
    result: ItemResult

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
    failures: tuple[Mapping[str, Any], ...] = ()

    @property
    def summary_match(self) -> bool:
        keys = ("pm_mean", "rm_mean", "total_mean", "n_items")
        return all(self.summary_recorded.get(k) == self.summary_replayed.get(k) for k in keys)

    @property
    def ok(self) -> bool:
        return self.summary_match and all(i.match for i in self.items)


def _float(value: Any, where: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError) as exc:
        raise InputFormatError(f"{where}={value!r} must be a number") from exc


def _int(value: Any, where: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise InputFormatError(f"{where}={value!r} must be an integer") from exc


def _criterion_judgments(rm: Mapping[str, Any]) -> list[CriterionJudgment]:
    out = []
    for ev in rm.get("criterion_evaluations") or []:
        if not isinstance(ev, Mapping):
            continue
        raw = ev.get("raw") if isinstance(ev.get("raw"), Mapping) else {}
        err = raw.get("error") if isinstance(raw, Mapping) else None
        out.append(
            CriterionJudgment(
                score=_int(ev.get("score", 1), "criterion_evaluations[].score"),
                reason=str(ev.get("reason", "")),
                raw=dict(raw) if isinstance(raw, Mapping) else {},
                error=None if err is None else str(err),
                degraded=err is not None,
            )
        )
    if not out and rm.get("criterion_scores"):
        out = [CriterionJudgment(score=_int(s, "criterion_scores[]")) for s in rm["criterion_scores"]]
    return out


def _reparse(obj: Mapping[str, Any], record: RSTRecord, graph: ExplanationGraph) -> bool | None:
    source = str(obj.get("parsed_rst_source", record.source))
    recorded_rst = obj.get("parsed_rst")
    recorded_dag = obj.get("parsed_dag")
    if not isinstance(recorded_rst, Mapping) or not isinstance(recorded_dag, Mapping):
        return None
    if source == "heuristic":
        again = heuristic_fallback(str(obj.get("model_answer") or ""), obj.get("parsed_rst_error"), raw_output=str(obj.get("parsed_rst_raw") or ""))
    elif source == "offline":  # causalcheck's own parser: its raw output is the record in text form
        try:
            again = parse_rst_output(str(obj.get("parsed_rst_raw") or ""), compat="full")
        except DSLSyntaxError:
            return False
        same_edus = [(e.id, " ".join(e.text.split())) for e in again.edus] == [
            (e.id, " ".join(e.text.split())) for e in record.edus
        ]
        same_dag = [e.to_json() for e in project_to_graph(again).edges] == list(recorded_dag.get("edges") or [])
        return bool(same_edus and again.relations == record.relations and same_dag)
    else:
        try:
            again = parse_rst_output(str(obj.get("parsed_rst_raw") or ""), compat="anchor")
        except DSLSyntaxError:
            return False
    same_rst = again.to_json() == dict(recorded_rst)
    same_dag = project_to_graph(again).to_json() == dict(recorded_dag)
    return bool(same_rst and same_dag)


def _replay_item(obj: Mapping[str, Any], index: int, pm_mode: PMMode, check_parse: bool) -> ReplayItem:
    item = parse_item(obj, index)
    metrics = obj.get("metrics")
    if not isinstance(metrics, Mapping) or not isinstance(metrics.get("pm"), Mapping):
        raise InputFormatError(f"item {item.key!r}: metrics.pm is missing; not a judged result item")
    pm_rec = metrics["pm"]
    graph = ExplanationGraph.from_json(pm_rec.get("graph") or obj.get("parsed_dag"))
    raw_edges = pm_rec.get("edges") or []
    if not isinstance(raw_edges, list):
        raise InputFormatError(f"item {item.key!r}: metrics.pm.edges={raw_edges!r:.60} must be a list")
    judgments: list[EdgeJudgment | None] = [
        None if (isinstance(e, Mapping) and e.get("score") is None) else EdgeJudgment.from_official(e) for e in raw_edges
    ]
    # the original zips graph edges with scores: extra records are ignored, missing ones are not judged
    judgments = (judgments + [None] * len(graph.edges))[: len(graph.edges)]
    pm = compute_pm(graph, judgments, pm_mode)
    rm_obj = metrics.get("rm")
    rm_rec: Mapping[str, Any] = rm_obj if isinstance(rm_obj, Mapping) else {}
    cjs = _criterion_judgments(rm_rec)
    if cjs:
        rm, raw10 = compute_rm([c.score for c in cjs])
    else:  # holistic rubric record: the score is the judge's 0..1 number
        rm = min(max(_float(rm_rec.get("score", 0.0), "metrics.rm.score"), 0.0), 1.0)
        raw10 = rm * 10
    record = RSTRecord.from_json(obj.get("parsed_rst") or {})
    parse_match = _reparse(obj, record, graph) if check_parse else None
    answer = str(obj.get("model_answer") or "")
    degraded = [f"edge #{i} judgment failed: {j.error}" for i, j in enumerate(judgments) if j is not None and j.degraded]
    degraded += [f"criterion {i} judgment failed: {c.error}" for i, c in enumerate(cjs, start=1) if c.degraded]
    if record.source == "heuristic":
        degraded.insert(0, f"parser fell back to the heuristic graph: {record.error}")
    result = assemble_result(
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
        _float(obj.get("pm_score"), "pm_score"),
        _float(obj.get("rm_score"), "rm_score"),
        _float(obj.get("total_score"), "total_score"),
    )
    return ReplayItem(item.key, recorded, (pm, rm, result.final), parse_match, record.source, result)


def replay_payload(payload: Any, *, pm_mode: PMMode | Literal["auto"] = "auto", check_parse: bool = True) -> ReplayReport:
    """Replay an already-loaded result object (see :func:`replay_file`)."""
    if not isinstance(payload, Mapping) or not isinstance(payload.get("items"), list):
        raise InputFormatError("a result file must be an object with an 'items' list")
    if pm_mode not in ("auto", "causal", "all"):
        raise InputFormatError(f"pm_mode={pm_mode!r} must be 'auto', 'causal' or 'all'")
    recorded = payload.get("meta", {}).get("pm_mode") if isinstance(payload.get("meta"), dict) else None
    if pm_mode != "auto":
        mode: PMMode = pm_mode
    elif recorded in ("causal", "all"):
        mode = recorded  # written by causalcheck
    else:  # official files: the May-2026 layout (with "state") used the causal PM
        mode = "causal" if "state" in payload else "all"
    items = tuple(_replay_item(obj, i, mode, check_parse) for i, obj in enumerate(payload["items"]))
    n = len(items)

    def mean(values: list[float]) -> float:
        return sum(values) / n if n else 0.0

    replayed = {
        "pm_mean": mean([i.replayed[0] for i in items]),
        "rm_mean": mean([i.replayed[1] for i in items]),
        "total_mean": mean([i.replayed[2] for i in items]),
        "n_items": n,
    }
    summary_obj = payload.get("summary")
    summary: Mapping[str, Any] = summary_obj if isinstance(summary_obj, Mapping) else {}
    failures = tuple(f for f in payload.get("failures") or [] if isinstance(f, Mapping))
    return ReplayReport(items, dict(summary), replayed, mode, dict(payload.get("meta") or {}), failures)


def replay_file(path: str | Path, *, pm_mode: PMMode | Literal["auto"] = "auto", check_parse: bool = True) -> ReplayReport:
    """Re-score the official result file at *path* from its recorded judgments (module docstring)."""
    p = Path(path)
    try:
        payload = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputFormatError(f"path={str(p)!r} cannot be read: {exc.strerror or exc}") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise InputFormatError(f"path={str(p)!r} is not a JSON result file: {exc}") from exc
    return replay_payload(payload, pm_mode=pm_mode, check_parse=check_parse)
