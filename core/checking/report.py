"""Results out: the report of :func:`~causalcheck.checking.check` as text lines or as a JSON payload.

:func:`render_text` gives ``(line, style)`` pairs — the CLI prints the lines, with the
``rich`` style on a terminal — and :func:`report_payload` the object ``check --json``
prints (its ``reports`` are the stored records of :meth:`~causalcheck.findings.Report.to_json`:
a trajectory's steps, or the one report).  ``ok`` is true when no report has an error; a
report "with problems" has an error or a warning.  For a trajectory the text shows each
step's hypothesis when it changes, folds findings that repeat the previous step's, and ends
with the step where the recorded data stop agreeing with the hypothesis.
"""

from __future__ import annotations

from typing import Any

from causalcheck.checking.trajectory import first_data_conflict
from causalcheck.findings import Report

__all__ = ["Line", "render_text", "report_payload", "shown_reports"]

#: One output line and its ``rich`` style (``None``: plain).
Line = tuple[str, "str | None"]

_MARK = {"error": "error  ", "warning": "warning", "info": "info   "}
_STYLE = {"error": "bold red", "warning": "yellow", "info": "dim"}


def shown_reports(report: Report) -> tuple[Report, ...]:
    """The reports printed one by one: a trajectory's steps, else the report itself."""
    return report.parts if report.kind == "trajectory" else (report,)


def _has_problem(r: Report) -> bool:
    return bool(r.errors or r.warnings)


def render_text(report: Report, source: str, verbose: bool) -> list[Line]:
    """The human-readable report (``info`` findings of a trajectory only with *verbose*)."""
    trajectory = report.kind == "trajectory"
    reports = shown_reports(report)
    out: list[Line] = []
    if trajectory:
        out.append((f"{source}: {len(reports)} steps", "bold"))
    previous: tuple[str | None, Any] | None = None
    last_shown: tuple[str, list[str]] | None = None
    for r in reports:
        head = r.subject
        if r.meta.get("action"):
            head += f"  [{r.meta['action']}]"
        out.append((head, "bold"))
        hyp = r.meta.get("hypothesis")
        if hyp is None and "unparseable-record" not in r.codes():
            out.append(("  hypothesis: (none)", None))
        elif hyp == "":
            out.append(("  hypothesis: (empty)", None))
        elif hyp is not None:
            if trajectory and previous is not None and previous[1] == hyp:
                out.append((f"  hypothesis: unchanged since {previous[0]}", None))
            else:
                out.append(("  hypothesis:", None))
                out.extend((f"    {line}", None) for line in str(hyp).splitlines())
                previous = (r.subject, hyp)
        shown = [d for d in r.findings if verbose or not trajectory or d.severity != "info"]
        messages = [d.message for d in shown]
        if trajectory and shown and last_shown is not None and last_shown[1] == messages:
            out.append((f"  {len(shown)} finding(s), the same as at {last_shown[0]}", _STYLE[shown[0].severity]))
            continue
        last_shown = (r.subject, messages)
        for d in shown:
            out.append((f"  {_MARK[d.severity]} {d.code}: {d.message}", _STYLE[d.severity]))
            if d.code == "record-drift" and (verbose or not trajectory):
                out.extend((f"      - {w}", "dim") for w in d.elements)
        if not any(d.severity != "info" for d in shown):
            out.append(("  ok", "green"))
    problems = sum(_has_problem(r) for r in reports)
    if trajectory:
        k = first_data_conflict(reports)
        tail = f"; the recorded data stop agreeing with the hypothesis at {reports[k].subject}" if k is not None else ""
        out.append((f"summary: {len(reports)} steps, {problems} with problems{tail}", "bold"))
    elif problems == 0:
        out.append(("no problems found", "green"))
    return out


def report_payload(report: Report, source: str) -> dict[str, Any]:
    """The ``check --json`` object: source, kind, overall verdict (``ok``: no error), summary and every report."""
    trajectory = report.kind == "trajectory"
    reports = shown_reports(report)
    problems = sum(_has_problem(r) for r in reports)
    k = first_data_conflict(reports)
    return {
        "source": source,
        "kind": "trajectory" if trajectory else "single",
        "ok": report.ok,
        "summary": {
            "reports": len(reports),
            "with_problems": problems,
            "first_data_conflict_step": reports[k].meta.get("step") if k is not None else None,
        },
        "reports": [r.to_json() for r in reports],
    }
