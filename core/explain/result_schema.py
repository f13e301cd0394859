"""The scored explain item and its encodings: one type and one schema for the writer and every reader.

A scored (or failed) item is one value, :class:`ResultItem`: what
:func:`causalcheck.explain.scoring.score_item` returns, what an item of
``<answer>_metrics_<judge>.json`` holds (``items`` and ``failures``, the official layout of
spec §7 plus causalcheck's additions — :mod:`causalcheck.explain.results`) and what a line of
the ``.jsonl`` resume journal holds.  The fields are the result-file item's; the scorer also
keeps what it judged in memory (the benchmark item, the parser record, the graph, the edge and
criterion judgments, the graph findings — attributes that are not encoded and are empty in a
decoded item).

* :func:`scored_item` and :func:`failed_item` build it from judged parts (fresh scoring and
  :mod:`causalcheck.explain.replay` alike): Final, graph statistics, graph checks and failure
  modes are derived there, the same way for both.
* :func:`decode_item` reads it from a JSON value already decoded by
  :mod:`causalcheck.base.safejson` (which holds the safe-input limits: size, depth, number
  length); a field of the wrong type raises :class:`~causalcheck.base.errors.InputFormatError`
  naming the field (the :mod:`causalcheck.explain._fields` helpers); a missing field of the
  official layout reads as its empty value (a missing score as ``None``, not scored).
* :func:`encode_item` writes it, so ``encode(decode(x)) == x`` for every item causalcheck
  writes and for the items of the original WhatIfBench tool (its benchmark fields first, then
  the result fields in the official order — key order and number types are kept).
* :func:`decode_file` reads a whole result file: ``meta`` and the decoded items, and the
  items it could not read, each with the reason (a reader says what it skipped).
* :func:`encode_row` / :func:`decode_row` are a resume line: the item's scores and flags
  (``key``, ``status``, ``bucket``, ``pm``, ``rm``, ``final``, ``failure_modes``,
  ``degraded``, ``error``, all read from the item), the SHA-256 of the answer it was scored
  from, and the item itself under ``official``.  :func:`decode_row` is the one place that
  reads lines of earlier versions (a line without ``answer_sha256`` reads as ``""``), and it
  refuses a line whose scores or flags disagree with its item.

The graph statistics and failure modes of an item are read from its ``causalcheck`` object.
An item without one (a file of the original tool) gets them from the functions the writer
uses (:func:`causalcheck.explain.explanation_graph.graph_stats` and
:func:`causalcheck.explain.scoring.failure_modes`), called in one place: :func:`decode_item`
(:attr:`ResultItem.derived` says so).

Why dataclasses and not msgspec (measured by ``tests/benchmarks/bench_result_schema.py`` on
a result file of 1,800 items, 35.3 MB, built from the bundled demo's scored items; two runs
on a shared 2-core machine): safejson + this module took 0.63–0.73 s, of which
``safejson.loads`` 0.47–0.66 s and :func:`decode_file` 0.10–0.12 s.  msgspec decoding the
bytes straight into mirroring Structs took 0.43–0.55× that, but without safejson's limits:
it accepts integers of 400 digits and nesting deeper than :data:`causalcheck.base.safejson.MAX_DEPTH`,
and it drops unknown keys (not lossless).  With the limits held — msgspec's decoder, then
:func:`causalcheck.base.safejson.check_value`, then ``msgspec.convert`` — it took 1.02–1.16×:
no gain, because the typed step is the small part and the limits the large one.  So the
format stays plain frozen dataclasses over safejson, and no dependency is added.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.explain._fields import as_integer, as_list, as_mapping, as_number, as_text
from causalcheck.explain._rules import PMMode, compute_final, failure_modes, premise_overlap
from causalcheck.explain.data import WhatIfItem, bucket_of, parse_item
from causalcheck.explain.explanation_graph import (
    ExplanationGraph,
    GraphStats,
    check_graph,
    graph_stats,
)
from causalcheck.explain.judges import CriterionJudgment, EdgeJudgment
from causalcheck.explain.rst import RSTRecord
from causalcheck.findings import Finding, finding_records

__all__ = [
    "RESULT_FIELDS",
    "Additions",
    "ItemMetrics",
    "ResultFile",
    "ResultItem",
    "decode_file",
    "decode_item",
    "decode_row",
    "encode_item",
    "encode_row",
    "failed_item",
    "scored_item",
]

#: The result fields of a scored item, in the official order (after the benchmark fields).
RESULT_FIELDS = (
    "model_answer", "pm_score", "rm_score", "om_score", "total_score", "parsed_rst_raw", "parsed_rst",
    "parsed_rst_source", "parsed_rst_error", "parsed_dag", "parsed_dag_source", "parsed_dag_error", "metrics",
)  # fmt: skip
#: The result fields of a failed item.
FAILED_FIELDS = ("evaluation_status", "evaluation_error")
_STATS = ("nodes", "edges", "causal_edges", "longest_path", "components", "largest_component")


def _number(value: Any, where: str) -> float | None:
    """A finite JSON number as it is in the file (an ``int`` stays one, so it is written back the same), or ``None``."""
    if value is None:
        return None
    as_number(value, where)
    out: float = value
    return out


def _texts(value: Any, where: str) -> tuple[str, ...]:
    return tuple(as_text(v, f"{where}[{i}]") for i, v in enumerate(as_list(value, where)))


def _optional_text(value: Any, where: str) -> str | None:
    return None if value is None else as_text(value, where)


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise InputFormatError(f"{where}={value!r:.60} must be true or false")
    return value


@dataclass(frozen=True)
class Additions:
    """The item's ``causalcheck`` object; a field is ``None`` when the object does not hold it.

    A scored item written by causalcheck holds all of them; a failed item only ``warnings``.
    """

    pm_mode: str | None = None
    stats: GraphStats | None = None
    #: The explanation graph's findings, each in the one finding format (:meth:`causalcheck.findings.Finding.to_dict`).
    findings: tuple[Mapping[str, Any], ...] | None = None
    failure_modes: tuple[str, ...] | None = None
    degraded: bool | None = None
    degraded_reasons: tuple[str, ...] | None = None
    warnings: tuple[str, ...] | None = None
    premise_overlap: float | None = None
    #: ``[EDU id, start, end]`` character offsets into the answer (``None`` where not known).
    edu_offsets: tuple[tuple[str, int | None, int | None], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, value in (("pm_mode", self.pm_mode), ("stats", None if self.stats is None else self.stats.to_json()),
                            ("findings", None if self.findings is None else [dict(d) for d in self.findings]),
                            ("failure_modes", self.failure_modes), ("degraded", self.degraded),
                            ("degraded_reasons", self.degraded_reasons), ("warnings", self.warnings),
                            ("premise_overlap", self.premise_overlap),
                            ("edu_offsets", None if self.edu_offsets is None else [list(e) for e in self.edu_offsets])):  # fmt: skip
            if value is not None:
                out[name] = list(value) if isinstance(value, tuple) else value
        return out


def _stats(obj: Any, where: str) -> GraphStats:
    st = as_mapping(obj, where)
    values = {k: as_integer(st.get(k), f"{where}.{k}", 0) for k in _STATS}
    return GraphStats(**values)


def _edu_offset(value: Any, where: str) -> tuple[str, int | None, int | None]:
    entry = as_list(value, where)
    if len(entry) != 3:
        raise InputFormatError(f"{where}={value!r:.60} must be [EDU id, start, end]")
    start, end = (None if v is None else as_integer(v, f"{where}[{i}]") for i, v in ((1, entry[1]), (2, entry[2])))
    return (as_text(entry[0], f"{where}[0]"), start, end)


def _additions(obj: Any, where: str = "causalcheck") -> Additions:
    cc = as_mapping(obj, where)

    def texts(name: str) -> tuple[str, ...] | None:
        return None if cc.get(name) is None else _texts(cc[name], f"{where}.{name}")

    findings = None
    if cc.get("findings") is not None:
        findings = tuple(as_mapping(d, f"{where}.findings[{i}]") for i, d in enumerate(as_list(cc["findings"], f"{where}.findings")))
    elif cc.get("diagnostics") is not None:  # the name in files of earlier versions, read into the one finding format
        for i, d in enumerate(as_list(cc["diagnostics"], f"{where}.diagnostics")):
            as_mapping(d, f"{where}.diagnostics[{i}]")
        findings = tuple(finding_records({"diagnostics": cc["diagnostics"]}))
    offsets = None
    if cc.get("edu_offsets") is not None:
        offsets = tuple(_edu_offset(e, f"{where}.edu_offsets[{i}]") for i, e in enumerate(as_list(cc["edu_offsets"], f"{where}.edu_offsets")))
    return Additions(
        pm_mode=_optional_text(cc.get("pm_mode"), f"{where}.pm_mode"),
        stats=None if cc.get("stats") is None else _stats(cc["stats"], f"{where}.stats"),
        findings=findings,
        failure_modes=texts("failure_modes"),
        degraded=None if cc.get("degraded") is None else _flag(cc["degraded"], f"{where}.degraded"),
        degraded_reasons=texts("degraded_reasons"),
        warnings=texts("warnings"),
        premise_overlap=_number(cc.get("premise_overlap"), f"{where}.premise_overlap"),
        edu_offsets=offsets,
    )


@dataclass(frozen=True)
class ItemMetrics:
    """An item's ``metrics``: the PM and RM records as the judges wrote them (``None``: not in the
    file), and causalcheck's ``degraded`` / ``degraded_reasons`` (``None``: not in the file, as in
    the original tool's)."""

    pm: Mapping[str, Any] | None = None
    rm: Mapping[str, Any] | None = None
    om: Any = None
    degraded: bool | None = None
    degraded_reasons: tuple[str, ...] | None = None

    @property
    def edges(self) -> list[Any]:
        """``pm.edges``: one judgment record per graph edge, in graph order."""
        return as_list((self.pm or {}).get("edges"), "metrics.pm.edges")

    @property
    def criterion_evaluations(self) -> list[Any]:
        """``rm.criterion_evaluations``: one record per rubric criterion."""
        return as_list((self.rm or {}).get("criterion_evaluations"), "metrics.rm.criterion_evaluations")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.pm is not None:
            out["pm"] = dict(self.pm)
        if self.rm is not None:
            out["rm"] = dict(self.rm)
        out["om"] = self.om
        if self.degraded is not None:
            out["degraded"] = self.degraded
        if self.degraded_reasons is not None:
            out["degraded_reasons"] = list(self.degraded_reasons)
        return out


def _metrics(obj: Any) -> ItemMetrics:
    m = as_mapping(obj, "metrics")
    return ItemMetrics(
        pm=None if m.get("pm") is None else as_mapping(m["pm"], "metrics.pm"),
        rm=None if m.get("rm") is None else as_mapping(m["rm"], "metrics.rm"),
        om=m.get("om"),
        degraded=None if m.get("degraded") is None else _flag(m["degraded"], "metrics.degraded"),
        degraded_reasons=None if m.get("degraded_reasons") is None else _texts(m["degraded_reasons"], "metrics.degraded_reasons"),
    )


@dataclass(frozen=True)
class ResultItem:
    """One scored item: the benchmark item's fields, the scores and records, the additions.

    ``ok`` says whether it is a scored item (in ``items``) or a failed one (in ``failures``:
    only ``evaluation_status``, ``evaluation_error`` and ``causalcheck`` follow the benchmark
    fields).  :attr:`stats` and :attr:`failure_modes` are the recorded values, or the derived
    ones for an item without a ``causalcheck`` object (:attr:`derived`); they are not encoded.

    The attributes after them are not encoded either: what the scorer judged, kept in memory
    (:attr:`item`, :attr:`record`, :attr:`graph`, :attr:`edge_judgments`,
    :attr:`criterion_judgments`, :attr:`findings`; ``None`` or empty in a decoded item), and
    :attr:`answer_sha256`, the SHA-256 of the answer scored, which a resume line records
    (``""`` when not known).
    """

    benchmark: Mapping[str, Any]
    ok: bool = True
    model_answer: str = ""
    pm_score: float | None = None  # None: null or missing (not scored)
    rm_score: float | None = None
    om_score: float | None = None
    total_score: float | None = None
    parsed_rst_raw: str = ""
    parsed_rst: Mapping[str, Any] = field(default_factory=dict)
    parsed_rst_source: str = ""
    parsed_rst_error: str | None = None
    parsed_dag: Mapping[str, Any] = field(default_factory=dict)
    parsed_dag_source: str = ""
    parsed_dag_error: str | None = None
    metrics: ItemMetrics = field(default_factory=ItemMetrics)
    evaluation_status: str = "failed"
    evaluation_error: str | None = None
    causalcheck: Additions | None = None
    stats: GraphStats | None = field(default=None, compare=False)
    failure_modes: tuple[str, ...] = field(default=(), compare=False)
    derived: bool = field(default=False, compare=False)
    item: WhatIfItem | None = field(default=None, compare=False, repr=False)
    record: RSTRecord | None = field(default=None, compare=False, repr=False)
    graph: ExplanationGraph | None = field(default=None, compare=False, repr=False)
    edge_judgments: tuple[EdgeJudgment | None, ...] = field(default=(), compare=False, repr=False)
    criterion_judgments: tuple[CriterionJudgment, ...] = field(default=(), compare=False, repr=False)
    #: The graph's findings as values (their dicts are :attr:`Additions.findings`).
    findings: tuple[Finding, ...] = field(default=(), compare=False, repr=False)
    answer_sha256: str = field(default="", compare=False)

    @property
    def key(self) -> str:
        """The official join key: ``canonical_id`` if set, else ``id``."""
        cid = self.benchmark.get("canonical_id")
        return str(cid) if cid else str(self.benchmark.get("id", "?"))

    @property
    def bucket(self) -> str | None:
        """``STEM`` / ``HSS`` / ``Hybrid`` of the benchmark item (``None`` for an unknown domain)."""
        b = bucket_of(str(self.benchmark.get("domain") or ""), self.benchmark.get("is_hybrid") is True)
        return None if b is None else str(b)

    @property
    def status(self) -> str:
        """``"ok"`` for a scored item, else ``"failed"``."""
        return "ok" if self.ok else "failed"

    @property
    def error(self) -> str | None:
        """Why a failed item was not scored (``None`` for a scored one)."""
        return None if self.ok else self.evaluation_error

    @property
    def pm(self) -> float:
        """PM (``0.0`` when not scored)."""
        return float(self.pm_score or 0.0) if self.ok else 0.0

    @property
    def rm(self) -> float:
        """RM (``0.0`` when not scored)."""
        return float(self.rm_score or 0.0) if self.ok else 0.0

    @property
    def final(self) -> float:
        """Final, the recorded ``total_score`` (``0.0`` when not scored)."""
        return float(self.total_score or 0.0) if self.ok else 0.0

    @property
    def degraded(self) -> bool:
        """A judgment or parse fell back (the additions' flag, else the metrics' one)."""
        if self.causalcheck is not None and self.causalcheck.degraded is not None:
            return self.causalcheck.degraded
        return self.metrics.degraded is True

    @property
    def degraded_reasons(self) -> tuple[str, ...]:
        """Why it is degraded (the additions' reasons, else the metrics' ones)."""
        if self.causalcheck is not None and self.causalcheck.degraded_reasons is not None:
            return self.causalcheck.degraded_reasons
        return self.metrics.degraded_reasons or ()

    @property
    def warnings(self) -> tuple[str, ...]:
        return () if self.causalcheck is None else self.causalcheck.warnings or ()


def encode_item(item: ResultItem) -> dict[str, Any]:
    """The JSON object of *item* (the official layout, then ``causalcheck`` when there is one)."""
    out = dict(item.benchmark)
    if item.ok:
        out.update({
            "model_answer": item.model_answer, "pm_score": item.pm_score, "rm_score": item.rm_score,
            "om_score": item.om_score, "total_score": item.total_score, "parsed_rst_raw": item.parsed_rst_raw,
            "parsed_rst": dict(item.parsed_rst), "parsed_rst_source": item.parsed_rst_source,
            "parsed_rst_error": item.parsed_rst_error, "parsed_dag": dict(item.parsed_dag),
            "parsed_dag_source": item.parsed_dag_source, "parsed_dag_error": item.parsed_dag_error,
            "metrics": item.metrics.to_json(),
        })  # fmt: skip
    else:
        out["evaluation_status"] = item.evaluation_status
        out["evaluation_error"] = item.evaluation_error
    if item.causalcheck is not None:
        out["causalcheck"] = item.causalcheck.to_json()
    return out


def _rm_official(item: WhatIfItem, rm: float, rm_raw10: float, judgments: Sequence[CriterionJudgment]) -> dict[str, Any]:
    """``metrics.rm``: the RM record of the criterion judgments, in the official layout."""
    names = [c.name for c in (item.rubric.criteria if item.rubric else ())]
    evals = []
    for i, cj in enumerate(judgments, start=1):
        raw = dict(cj.raw)
        if cj.error is not None:
            raw.setdefault("error", cj.error)
        name = names[i - 1] if i - 1 < len(names) else f"criterion_{i}"
        evals.append({"index": i, "name": name, "score": cj.score, "reason": cj.reason, "raw": raw})
    return {
        "score": rm,
        "raw_score_10": rm_raw10,
        "criterion_scores": [c.score for c in judgments],
        "criterion_evaluations": evals,
        "raw": {"mode": "query_dependent_criteria", "criteria_count": len(judgments)},
    }


def _edge_official(j: EdgeJudgment | None) -> dict[str, Any]:
    """One record of ``metrics.pm.edges`` (an edge not judged has ``"score": null``)."""
    if j is None:
        return {"score": None, "rationale": "not judged (non-causal edge)", "raw": {"score": None, "raw": ""}}
    out: dict[str, Any] = j.to_official()
    return out


def failed_item(item: WhatIfItem, reason: str, warnings: Sequence[str] = ()) -> ResultItem:
    """The failed item of *item*: not scored because of *reason* (listed under ``failures``)."""
    cc = Additions(warnings=tuple(warnings)) if warnings else None
    return ResultItem(item.raw, ok=False, evaluation_error=reason, causalcheck=cc, item=item)


def scored_item(
    item: WhatIfItem,
    answer: str,
    *,
    text: str,
    pm: float,
    rm: float,
    rm_raw10: float,
    record: RSTRecord,
    graph: ExplanationGraph,
    edge_judgments: Sequence[EdgeJudgment | None],
    criterion_judgments: Sequence[CriterionJudgment],
    criterion_names: Sequence[str],
    degraded: Sequence[str],
    warnings: Sequence[str] = (),
    pm_mode: PMMode = "causal",
) -> ResultItem:
    """The scored item of *answer* from its judged parts: Final, graph statistics, graph checks and
    failure modes are derived here the same way for fresh scoring and for replay.

    *text* is what the parser and judges saw (the answer after removing text addressed to a
    judge); premise overlap is measured on it.
    """
    stats = graph_stats(graph)
    premise = premise_overlap(item, text)
    edges, cjs = tuple(edge_judgments), tuple(criterion_judgments)
    modes = failure_modes(pm, rm, stats, premise, [c.score for c in cjs], list(criterion_names))
    findings = check_graph(graph)
    final = compute_final(pm, rm)
    dag = graph.to_json()
    reasons = tuple(degraded)
    metrics = ItemMetrics(
        pm={"score": pm, "edges": [_edge_official(j) for j in edges], "graph": dag},
        rm=_rm_official(item, rm, rm_raw10, cjs),
        degraded=bool(reasons),
        degraded_reasons=reasons,
    )
    additions = Additions(
        pm_mode=pm_mode, stats=stats, findings=tuple(d.to_dict() for d in findings), failure_modes=modes,
        degraded=bool(reasons), degraded_reasons=reasons, warnings=tuple(warnings), premise_overlap=premise,
        edu_offsets=tuple((e.id, e.start, e.end) for e in record.edus),
    )  # fmt: skip
    return ResultItem(
        item.raw, model_answer=answer, pm_score=pm, rm_score=rm, total_score=final, parsed_rst_raw=record.raw_output,
        parsed_rst=record.to_json(), parsed_rst_source=record.source, parsed_rst_error=record.error, parsed_dag=dag,
        parsed_dag_source=record.source, parsed_dag_error=record.error, metrics=metrics, causalcheck=additions,
        stats=stats, failure_modes=modes, item=item, record=record, graph=graph, edge_judgments=edges,
        criterion_judgments=cjs, findings=findings,
    )  # fmt: skip


def _benchmark_fields(obj: Mapping[str, Any], result_fields: Sequence[str]) -> dict[str, Any]:
    """The benchmark item's fields of *obj*: all but the result fields, types of the key fields checked."""
    bench = {k: v for k, v in obj.items() if k not in result_fields and k != "causalcheck"}
    item_id, cid = bench.get("id"), bench.get("canonical_id")
    if item_id is not None and (isinstance(item_id, bool) or not isinstance(item_id, (int, str))):
        raise InputFormatError(f"id={item_id!r:.60} must be an integer or a string")
    _optional_text(cid, "canonical_id")
    as_text(bench.get("domain"), "domain")
    return bench


def _derive(obj: Mapping[str, Any], pm: float | None, rm: float | None, answer: str, dag: Mapping[str, Any],
            metrics: ItemMetrics) -> tuple[GraphStats, tuple[str, ...]]:
    """Graph statistics and failure modes of an item without a ``causalcheck`` object, by the writer's functions."""
    stats = graph_stats(ExplanationGraph.from_json(dag))
    evals = metrics.criterion_evaluations
    where = "metrics.rm.criterion_evaluations"
    records = [as_mapping(e, f"{where}[{i}]") for i, e in enumerate(evals)]
    scores = [as_integer(e.get("score"), f"{where}[{i}].score") for i, e in enumerate(records)]
    names = [as_text(e.get("name"), f"{where}[{i}].name") for i, e in enumerate(records)]
    premise = premise_overlap(parse_item(obj), answer)
    return stats, failure_modes(pm or 0.0, rm or 0.0, stats, premise, scores, names)


def decode_item(obj: Any, *, ok: bool = True) -> ResultItem:
    """Read one result item (*ok*: from ``items``; else from ``failures``); see the module docstring.

    A field of the wrong type raises :class:`InputFormatError` naming it.
    """
    if not isinstance(obj, Mapping):
        raise InputFormatError(f"result item={obj!r:.80} must be a JSON object")
    cc = None if obj.get("causalcheck") is None else _additions(obj["causalcheck"])
    if not ok:
        return ResultItem(_benchmark_fields(obj, FAILED_FIELDS), ok=False, causalcheck=cc,
                          evaluation_status=as_text(obj.get("evaluation_status"), "evaluation_status", "failed"),
                          evaluation_error=_optional_text(obj.get("evaluation_error"), "evaluation_error"))
    scores = _number(obj.get("pm_score"), "pm_score"), _number(obj.get("rm_score"), "rm_score")
    answer = as_text(obj.get("model_answer"), "model_answer")
    dag, metrics = as_mapping(obj.get("parsed_dag"), "parsed_dag"), _metrics(obj.get("metrics"))
    stats: GraphStats | None
    if cc is None:
        stats, modes = _derive(obj, *scores, answer, dag, metrics)
    else:
        stats, modes = cc.stats, cc.failure_modes or ()
    return ResultItem(
        _benchmark_fields(obj, RESULT_FIELDS),
        model_answer=answer,
        pm_score=scores[0],
        rm_score=scores[1],
        om_score=_number(obj.get("om_score"), "om_score"),
        total_score=_number(obj.get("total_score"), "total_score"),
        parsed_rst_raw=as_text(obj.get("parsed_rst_raw"), "parsed_rst_raw"),
        parsed_rst=as_mapping(obj.get("parsed_rst"), "parsed_rst"),
        parsed_rst_source=as_text(obj.get("parsed_rst_source"), "parsed_rst_source"),
        parsed_rst_error=_optional_text(obj.get("parsed_rst_error"), "parsed_rst_error"),
        parsed_dag=dag,
        parsed_dag_source=as_text(obj.get("parsed_dag_source"), "parsed_dag_source"),
        parsed_dag_error=_optional_text(obj.get("parsed_dag_error"), "parsed_dag_error"),
        metrics=metrics,
        causalcheck=cc,
        stats=stats,
        failure_modes=modes,
        derived=cc is None,
    )


@dataclass(frozen=True)
class ResultFile:
    """A decoded result file: ``meta``, the items (scored, then failed) and what could not be read.

    ``skipped`` holds one ``(where, reason)`` per entry of ``items`` / ``failures`` that is not
    a readable item (``where`` is ``items[3]`` or ``failures[0]``).
    """

    meta: Mapping[str, Any]
    items: tuple[ResultItem, ...]
    skipped: tuple[tuple[str, str], ...] = ()


def decode_file(obj: Any) -> ResultFile:
    """Read a result file's ``meta``, ``items`` and ``failures``; an unreadable item is skipped and listed.

    The file itself must be an object (else :class:`InputFormatError`); ``meta`` and the two
    lists read as empty when they are missing or of another type.
    """
    if not isinstance(obj, Mapping):
        raise InputFormatError(f"result file={obj!r:.80} must be a JSON object")
    meta = obj.get("meta")
    items: list[ResultItem] = []
    skipped: list[tuple[str, str]] = []
    for name, ok in (("items", True), ("failures", False)):
        entries = obj.get(name)
        for i, entry in enumerate(entries if isinstance(entries, list) else []):
            try:
                items.append(decode_item(entry, ok=ok))
            except InputFormatError as exc:
                skipped.append((f"{name}[{i}]", str(exc)))
    return ResultFile(meta if isinstance(meta, Mapping) else {}, tuple(items), tuple(skipped))


# ------------------------------------------------------------------ resume lines
def encode_row(item: ResultItem) -> dict[str, Any]:
    """The resume line of *item* (module docstring): its scores and flags, ``answer_sha256``, the item as ``official``."""
    return {
        "key": item.key,
        "answer_sha256": item.answer_sha256,
        "status": item.status,
        "bucket": item.bucket,
        "pm": item.pm,
        "rm": item.rm,
        "final": item.final,
        "failure_modes": list(item.failure_modes),
        "degraded": item.degraded,
        "error": item.error,
        "official": encode_item(item),
    }


def decode_row(obj: Any) -> ResultItem:
    """Read one resume line, of this version or an earlier one; a missing or wrong-typed field
    raises :class:`InputFormatError` naming it.

    The item is the line's ``official`` object; the line's own scores and flags are checked for
    their types and must agree with it (they are written from it).
    """
    if not isinstance(obj, Mapping):
        raise InputFormatError(f"result row={obj!r:.100} must be a JSON object")
    try:
        bucket, error = obj.get("bucket"), obj.get("error")
        status = as_text(obj["status"], "row status")
        line = (
            as_text(obj["key"], "row key"),
            None if bucket is None else as_text(bucket, "row bucket"),
            as_number(obj["pm"], "row pm"),
            as_number(obj["rm"], "row rm"),
            as_number(obj["final"], "row final"),
            tuple(as_text(m, "row failure_modes[]") for m in as_list(obj.get("failure_modes"), "row failure_modes")),
            obj.get("degraded") is True,
            None if error is None else as_text(error, "row error"),
        )
        sha = as_text(obj.get("answer_sha256"), "row answer_sha256")  # "" in lines of versions before it
    except KeyError as exc:
        raise InputFormatError(f"result row={dict(obj)!r:.100} is missing the field {exc}") from None
    try:
        item = decode_item(as_mapping(obj.get("official"), "row official"), ok=status == "ok")
    except InputFormatError as exc:
        raise InputFormatError(f"row official: {exc}") from None
    item = dataclasses.replace(item, answer_sha256=sha)
    own = (item.key, item.bucket, item.pm, item.rm, item.final, item.failure_modes, item.degraded, item.error)
    if line != own:
        names = ("key", "bucket", "pm", "rm", "final", "failure_modes", "degraded", "error")
        name, got, want = next((n, a, b) for n, a, b in zip(names, line, own, strict=True) if a != b)
        raise InputFormatError(f"row {name}={got!r:.60} does not match its official item ({want!r:.60})")
    return item
