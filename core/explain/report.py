"""Result files and reports.

For every answer model a run writes three files into the output folder:

* ``<answer>_metrics_<judge>.json`` — the **official layout** (spec §7): ``meta``,
  ``state``, ``summary``, ``items`` (the benchmark item followed by ``model_answer``,
  ``pm_score``, ``rm_score``, ``om_score``, ``total_score``, ``parsed_rst_raw``,
  ``parsed_rst``, ``parsed_rst_source``, ``parsed_rst_error``, ``parsed_dag``,
  ``parsed_dag_source``, ``parsed_dag_error``, ``metrics``) and ``failures``; written as
  ``json.dumps(..., ensure_ascii=False, indent=2) + "\\n"`` like the original, so tools that
  read official files read ours.  Each item also carries a ``causalcheck`` object (graph
  statistics, checks, failure modes, degraded flag and reasons, warnings, EDU offsets), and
  ``metrics.degraded`` / ``metrics.degraded_reasons`` (a judgment or parse fell back).
  Edges that were not judged have ``"score": null``.
* ``<answer>_metrics_<judge>.jsonl`` — one line per finished item, appended as items
  finish (``key``, scores, flags and the official item object), so an interrupted run
  resumes: items already in it are not scored again.
* ``<answer>_metrics_<judge>.md`` — the per-domain table (STEM, HSS, Hybrid, Overall; PM,
  RM, Final ×100 like the paper's Table 2), failure-mode counts and a per-item table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from causalcheck.errors import InputFormatError
from causalcheck.explain.data import Benchmark
from causalcheck.explain.scoring import FAILURE_MODES, ItemResult, Summary, summarize

__all__ = [
    "ResultRow",
    "build_payload",
    "item_to_official",
    "markdown_report",
    "read_rows",
    "result_stem",
    "row_of",
    "sanitize_name",
    "write_json",
]


def sanitize_name(value: str) -> str:
    """File-name form of a model name, as the original: non ``[A-Za-z0-9._-]`` runs → ``_``.

    >>> sanitize_name("openai/gpt-5.5 (May)")
    'openai_gpt-5.5_May'
    """
    out = re.sub(r"[^A-Za-z0-9._-]+", "_", value.strip())
    out = re.sub(r"_+", "_", out)
    return out.strip("._") or "model"


def result_stem(answer_model: str, judge_model: str) -> str:
    """``<answer>_metrics_<judge>`` with both names sanitised."""
    return f"{sanitize_name(answer_model)}_metrics_{sanitize_name(judge_model)}"


def write_json(path: Path, data: Any) -> None:
    """Write *data* the way the original does (UTF-8, indent 2, trailing newline)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def _rm_official(result: ItemResult) -> dict[str, Any]:
    names = [c.name for c in (result.item.rubric.criteria if result.item.rubric else ())]
    evals = []
    for i, cj in enumerate(result.criterion_judgments, start=1):
        raw = dict(cj.raw)
        if cj.error is not None:
            raw.setdefault("error", cj.error)
        evals.append(
            {
                "index": i,
                "name": names[i - 1] if i - 1 < len(names) else f"criterion_{i}",
                "score": cj.score,
                "reason": cj.reason,
                "raw": raw,
            }
        )
    return {
        "score": result.rm,
        "raw_score_10": result.rm_raw10,
        "criterion_scores": [c.score for c in result.criterion_judgments],
        "criterion_evaluations": evals,
        "raw": {"mode": "query_dependent_criteria", "criteria_count": len(result.criterion_judgments)},
    }


def _edge_official(j: Any) -> dict[str, Any]:
    if j is None:
        return {"score": None, "rationale": "not judged (non-causal edge)", "raw": {"score": None, "raw": ""}}
    out: dict[str, Any] = j.to_official()
    return out


def item_to_official(result: ItemResult) -> dict[str, Any]:
    """The official evaluated-item object (or the failed-item object) for *result*."""
    base = dict(result.item.raw)
    if not result.ok:
        base["evaluation_status"] = "failed"
        base["evaluation_error"] = result.error
        if result.warnings:
            base["causalcheck"] = {"warnings": list(result.warnings)}
        return base
    assert result.record is not None and result.graph is not None and result.stats is not None
    dag = result.graph.to_json()
    rec = result.record
    base.update(
        {
            "model_answer": result.answer,
            "pm_score": result.pm,
            "rm_score": result.rm,
            "om_score": None,
            "total_score": result.final,
            "parsed_rst_raw": rec.raw_output,
            "parsed_rst": rec.to_json(),
            "parsed_rst_source": rec.source,
            "parsed_rst_error": rec.error,
            "parsed_dag": dag,
            "parsed_dag_source": rec.source,
            "parsed_dag_error": rec.error,
            "metrics": {
                "pm": {"score": result.pm, "edges": [_edge_official(j) for j in result.edge_judgments], "graph": dag},
                "rm": _rm_official(result),
                "om": None,
                "degraded": result.degraded,
                "degraded_reasons": list(result.degraded_reasons),
            },
            "causalcheck": {
                "pm_mode": result.pm_mode,
                "stats": result.stats.to_json(),
                "diagnostics": [d.to_json() for d in result.diagnostics],
                "failure_modes": list(result.failure_modes),
                "degraded": result.degraded,
                "degraded_reasons": list(result.degraded_reasons),
                "warnings": list(result.warnings),
                "premise_overlap": result.premise_overlap,
                "edu_offsets": [[e.id, e.start, e.end] for e in rec.edus],
            },
        }
    )
    return base


@dataclass(frozen=True)
class ResultRow:
    """One JSONL line: the scores and flags of an item plus its official object (``official``)."""

    key: str
    status: str
    bucket: str | None
    pm: float
    rm: float
    final: float
    failure_modes: tuple[str, ...]
    degraded: bool
    error: str | None
    official: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "status": self.status,
            "bucket": self.bucket,
            "pm": self.pm,
            "rm": self.rm,
            "final": self.final,
            "failure_modes": list(self.failure_modes),
            "degraded": self.degraded,
            "error": self.error,
            "official": dict(self.official),
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ResultRow:
        try:
            return cls(
                key=str(obj["key"]),
                status=str(obj["status"]),
                bucket=None if obj.get("bucket") is None else str(obj["bucket"]),
                pm=float(obj["pm"]),
                rm=float(obj["rm"]),
                final=float(obj["final"]),
                failure_modes=tuple(str(m) for m in obj.get("failure_modes", [])),
                degraded=bool(obj.get("degraded", False)),
                error=None if obj.get("error") is None else str(obj["error"]),
                official=dict(obj.get("official") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InputFormatError(f"result row={dict(obj)!r:.100} is missing or has a bad field: {exc}") from exc


def row_of(result: ItemResult) -> ResultRow:
    """The JSONL row of *result*."""
    return ResultRow(
        key=result.key,
        status=result.status,
        bucket=result.bucket,
        pm=result.pm,
        rm=result.rm,
        final=result.final,
        failure_modes=result.failure_modes,
        degraded=result.degraded,
        error=result.error,
        official=item_to_official(result),
    )


def read_rows(path: Path) -> list[ResultRow]:
    """Rows of a JSONL result file (a torn last line from an interrupted write is ignored)."""
    if not path.exists():
        return []
    rows = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            if n == len(lines):
                break
            raise InputFormatError(f"{path}:{n}: line={line[:60]!r} is not JSON: {exc.msg}") from exc
        rows.append(ResultRow.from_json(obj))
    return rows


def build_payload(
    rows: Sequence[ResultRow],
    benchmark: Benchmark,
    *,
    answer_model: str,
    judge_model: str,
    parser_model: str,
    source_answers: str,
    timestamp: str,
    pm_mode: str | None = None,
) -> dict[str, Any]:
    """The official result-file object from rows (rows keep benchmark order).

    *pm_mode*, when given, is recorded as ``meta.pm_mode`` (an addition to the official
    layout, which other readers ignore) so that ``explain replay`` recomputes PM the same way.
    """
    order = {it.key: i for i, it in enumerate(benchmark.items)}
    rows = sorted(rows, key=lambda r: order.get(r.key, len(order)))
    summary = summarize(rows)
    ok = [r for r in rows if r.ok]
    failed = [r for r in rows if not r.ok]
    total = len(benchmark.items)
    return {
        "meta": {
            "task": "evaluator",
            "answer_model": answer_model,
            "judge_model": judge_model,
            "parser_model": parser_model,
            "timestamp": timestamp,
            "source_benchmark": benchmark.source,
            "source_answers": source_answers,
            "count": len(ok),
            "failure_count": len(failed),
            "concurrency": 1,
            "status": "complete" if len(rows) >= total else "partial",
            **({"pm_mode": pm_mode} if pm_mode is not None else {}),
        },
        "state": {
            "total": total,
            "processed": len(rows),
            "succeeded": len(ok),
            "failed": len(failed),
            "pending": max(total - len(rows), 0),
            "mean_score": summary.total_mean,
        },
        "summary": summary.to_official(),
        "items": [dict(r.official) for r in ok],
        "failures": [dict(r.official) for r in failed],
    }


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.2f}"


def markdown_report(summary: Summary, rows: Sequence[ResultRow], *, title: str, pm_mode: str = "causal") -> str:
    """Domain table, failure-mode counts and per-item table in Markdown."""
    out = [f"# {title}", "", "| Domain | n | PM | RM | Final |", "|---|---:|---:|---:|---:|"]
    for row in summary.rows:
        name = f"**{row.bucket}**" if row.bucket == "Overall" else row.bucket
        out.append(f"| {name} | {row.n} | {_pct(row.pm)} | {_pct(row.rm)} | {_pct(row.final)} |")
    basis = "all edges" if pm_mode == "all" else "causal edges (CAUSE, CONDITION, RESULT, CONSEQUENCE)"
    out += ["", f"Scores ×100. PM over {basis}.", ""]
    below = sum(1 for r in rows if r.ok and r.final < 0.6)
    out += [f"## Failure modes (Final < 60: {below} of {summary.n_items} answers)", "", "| Mode | answers |", "|---|---:|"]
    out += [f"| {m} | {summary.failure_counts.get(m, 0)} |" for m in FAILURE_MODES]
    out += ["", "## Items", "", "| Item | Domain | PM | RM | Final | Flags |", "|---|---|---:|---:|---:|---|"]
    for r in rows:
        if r.ok:
            flags = ", ".join([*r.failure_modes, *(["degraded"] if r.degraded else [])])
            out.append(f"| {r.key} | {r.bucket or '?'} | {_pct(r.pm)} | {_pct(r.rm)} | {_pct(r.final)} | {flags} |")
        else:
            out.append(f"| {r.key} | {r.bucket or '?'} | – | – | – | failed: {r.error} |")
    if summary.n_failed:
        out += ["", f"{summary.n_failed} item(s) failed and are not in the means."]
    return "\n".join(out) + "\n"
