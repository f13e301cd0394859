"""The result files of ``explain score``: official JSON, the resumable JSONL journal, the Markdown summary.

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
  finish (:func:`causalcheck.explain.result_schema.encode_row`: ``key``, ``answer_sha256`` of
  the answer scored, scores, flags and the official item object), so an interrupted run
  resumes: items already in it are not scored again.

``meta.causalcheck`` (an addition other readers ignore) holds the provenance of the file —
:class:`causalcheck.base.files.Provenance` — and what was not scored; the Markdown repeats it.
* ``<answer>_metrics_<judge>.md`` — the per-domain table (STEM, HSS, Hybrid, Overall; PM,
  RM, Final ×100 like the paper's Table 2), failure-mode counts and a per-item table.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from causalcheck.base import safejson
from causalcheck.base.errors import InputFormatError
from causalcheck.base.escape import markdown_cell, markdown_code, markdown_text
from causalcheck.base.files import atomic_write_text, read_input_text
from causalcheck.explain.data import Benchmark
from causalcheck.explain.result_schema import ResultItem, decode_row, encode_item
from causalcheck.explain.scoring import FAILURE_MODES, Summary, summarize

__all__ = [
    "MAX_NAME_CHARS",
    "build_payload",
    "markdown_provenance",
    "markdown_summary",
    "read_rows",
    "result_stem",
    "sanitize_name",
    "write_json",
]


#: The longest :func:`sanitize_name` result: two of them in a result stem plus a suffix stay
#: well inside the usual 255-byte file-name limit.
MAX_NAME_CHARS = 64


def sanitize_name(value: str) -> str:
    """File-name form of a model name, as the original: non ``[A-Za-z0-9._-]`` runs → ``_``.

    A name longer than :data:`MAX_NAME_CHARS` once sanitised keeps a readable prefix and ends
    in ``-`` plus the first 8 hex digits of the SHA-256 of the full name, so it stays a valid
    file name and distinct long names stay distinct; shorter names are unchanged.

    >>> sanitize_name("openai/gpt-5.5 (May)")
    'openai_gpt-5.5_May'
    >>> long = sanitize_name("9" * 400)
    >>> len(long), long[:12], long == sanitize_name("9" * 400), long == sanitize_name("9" * 401)
    (64, '999999999999', True, False)
    """
    out = re.sub(r"[^A-Za-z0-9._-]+", "_", value.strip())
    out = re.sub(r"_+", "_", out)
    out = out.strip("._") or "model"
    if len(out) > MAX_NAME_CHARS:
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        out = f"{out[: MAX_NAME_CHARS - 9].rstrip('._')}-{digest}"
    return out


def result_stem(answer_model: str, judge_model: str) -> str:
    """``<answer>_metrics_<judge>`` with both names sanitised."""
    return f"{sanitize_name(answer_model)}_metrics_{sanitize_name(judge_model)}"


def write_json(path: Path, data: Any) -> None:
    """Write *data* the way the original does (UTF-8, indent 2, trailing newline), atomically
    (:func:`causalcheck.base.files.atomic_write_text`: the previous file survives a failed write)."""
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False) + "\n")


def read_rows(path: Path) -> list[ResultItem]:
    """The items of a JSONL result file, one per line (:func:`causalcheck.explain.result_schema.decode_row`;
    a torn last line from an interrupted write is ignored).

    Read with :func:`causalcheck.base.files.read_input_text` and :mod:`causalcheck.base.safejson`: a
    damaged line raises :class:`InputFormatError` naming the file and line.
    """
    if not path.exists():
        return []
    rows = []
    lines = read_input_text(path, what="result lines").splitlines()
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = safejson.loads(line, source=f"{path}:{n}")
        except safejson.JSONSyntaxError as exc:
            if n == len(lines):
                break
            raise InputFormatError(f"{path}:{n}: line={line[:60]!r} is not JSON: {exc}") from None
        try:
            rows.append(decode_row(obj))
        except InputFormatError as exc:
            raise InputFormatError(f"{path}:{n}: {exc}") from None
    return rows


def build_payload(
    rows: Sequence[ResultItem],
    benchmark: Benchmark,
    *,
    answer_model: str,
    judge_model: str,
    parser_model: str,
    source_answers: str,
    timestamp: str,
    pm_mode: str | None = None,
    causalcheck: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The official result-file object from scored items (kept in benchmark order).

    *pm_mode*, when given, is recorded as ``meta.pm_mode`` (an addition to the official
    layout, which other readers ignore) so that ``explain replay`` recomputes PM the same way.
    *causalcheck*, when given, is recorded as ``meta.causalcheck``: the provenance of the
    file (version, command, options, time, inputs with SHA-256) and what was not scored.
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
            **({"causalcheck": dict(causalcheck)} if causalcheck is not None else {}),
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
        "items": [encode_item(r) for r in ok],
        "failures": [encode_item(r) for r in failed],
    }


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.2f}"


def markdown_provenance(causalcheck: Mapping[str, Any]) -> list[str]:
    """The ``## Provenance`` section of a report from a ``meta.causalcheck`` object (lines)."""
    out = ["", "## Provenance", ""]
    version, command, started = (str(causalcheck.get(k, "?")) for k in ("version", "command", "started"))
    out.append(f"causalcheck {markdown_text(version)}, {markdown_code(command)}, {markdown_text(started)}")
    options = causalcheck.get("options") or {}
    if options:
        out.append("")
        out.append("Options: " + ", ".join(markdown_code(f"{k}={v!r}") for k, v in options.items()))
    inputs = causalcheck.get("inputs") or []
    if inputs:
        out += ["", "| Input | bytes | SHA-256 |", "|---|---:|---|"]
        out += [f"| {markdown_cell(str(i.get('path')))} | {markdown_cell(str(i.get('bytes')))} | {markdown_code(str(i.get('sha256')), cell=True)} |" for i in inputs]
    for key, label in (("unmatched_answers", "Answer ids that match no benchmark item (not scored)"),
                       ("not_answered", "Benchmark items with no answer in the answers file (not answered, not scored)"),
                       ("unreplayed", "Items that could not be replayed"),
                       ("removed_stale", "Removed results of an older scoring of the same answers")):  # fmt: skip
        values = causalcheck.get(key) or []
        if values:
            out += ["", f"{label}:", ""]
            out += ["- " + markdown_text(f"{v['key']}: {v['error']}" if isinstance(v, Mapping) else str(v)) for v in values]
    return out


def markdown_summary(
    summary: Summary,
    rows: Sequence[ResultItem],
    *,
    title: str,
    pm_mode: str = "causal",
    causalcheck: Mapping[str, Any] | None = None,
) -> str:
    """Domain table, failure-mode counts and per-item table in Markdown (and the provenance, when given)."""
    out = [f"# {markdown_text(title)}", ""]
    notice = (causalcheck or {}).get("notice")
    if notice:
        out += [f"> Note: {markdown_text(str(notice))}", ""]
    out += ["| Domain | n | PM | RM | Final |", "|---|---:|---:|---:|---:|"]
    for row in summary.rows:
        name = f"**{row.bucket}**" if row.bucket == "Overall" else markdown_cell(row.bucket)
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
            out.append(f"| {markdown_cell(r.key)} | {markdown_cell(r.bucket or '?')} | {_pct(r.pm)} | {_pct(r.rm)} | {_pct(r.final)} | {markdown_cell(flags)} |")
        else:
            out.append(f"| {markdown_cell(r.key)} | {markdown_cell(r.bucket or '?')} | – | – | – | failed: {markdown_cell(str(r.error))} |")
    if summary.n_failed:
        out += ["", f"{summary.n_failed} item(s) failed and are not in the means."]
    if causalcheck is not None:
        out += markdown_provenance(causalcheck)
    return "\n".join(out) + "\n"
