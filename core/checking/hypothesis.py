"""Stage 1 — hypothesis and record checks: every solver of :mod:`causalcheck.solvers` on one hypothesis.

:func:`check_hypothesis` runs the acyclicity, direction-contradiction, equation and
data-consistency solvers on one :class:`~causalcheck.records.Hypothesis` and collects their
findings into one :class:`~causalcheck.findings.Report`; :func:`check_record`
checks a step record's hypothesis against the record's *own* ``past_data`` and adds the
record-level findings (``record-drift``, ``unparseable-record``).  The codes are listed in
:mod:`causalcheck.checking.codes`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from typing import Any

from causalcheck.base.errors import DSLSyntaxError, InputFormatError, did_you_mean
from causalcheck.episodes import Unparsed
from causalcheck.findings import Finding, Report
from causalcheck.graph import FREQ, normalize_node
from causalcheck.parsing import dropped_content, format_hypothesis
from causalcheck.records import DataPoint, Hypothesis, StepRecord

__all__ = ["DATA_CODES", "MAX_DATA_POINTS", "check_hypothesis", "check_record"]

#: Most ``past_data`` entries of one record checked against its equation (the newest are kept;
#: the rest are named in a ``data-skipped`` finding).  The exact solver's work grows with the
#: points — 2 000 points took 6 s — while real records hold a few dozen (the official sample
#: at most 14).
MAX_DATA_POINTS = 500

#: The codes meaning "the recorded data contradict the hypothesis".
DATA_CODES = ("data-mismatch", "equation-refuted")


def _describe(h: Hypothesis) -> str:
    try:
        text: str = format_hypothesis(h)
        return text.rstrip("\n")
    except InputFormatError:
        return f"{h.graph}; {h.equation}; {dict(h.coefficients)}"


def _unknown_nodes(h: Hypothesis, nodes: set[str]) -> tuple[Finding, ...]:
    named = list(h.graph.nodes)
    if h.equation.strip():
        # late: keeps check API light
        from causalcheck.solvers.equations import hypothesis_equation

        with contextlib.suppress(DSLSyntaxError):
            named.extend(hypothesis_equation(h).variables)
    unknown = [n for n in dict.fromkeys(named) if n not in nodes and n != h.target]
    if not unknown:
        return ()
    hints = [f"{u!r}{did_you_mean(u, nodes)}" for u in unknown]
    return (
        Finding(
            "unknown-node",
            "warning",
            f"the hypothesis names {', '.join(hints)}, which {'is' if len(unknown) == 1 else 'are'} not among "
            f"the known nodes ({', '.join(sorted(nodes))}); node names are case-sensitive",
            elements=tuple(unknown),
        ),
    )


def check_hypothesis(
    h: Hypothesis,
    *,
    data: Sequence[DataPoint] = (),
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
    subject: str = "hypothesis",
) -> Report:
    """All findings for *h* (see the module table) in one report; never raises on a bad hypothesis.

    *data* are evidence points for the data-consistency check, *reference* known
    ``(cause, effect)`` edges, *tolerance* the absolute tolerance in the target's units,
    *nodes* the node names the hypothesis may use (``None``: any).
    """
    if not isinstance(h, Hypothesis):
        raise InputFormatError(f"h={h!r} must be a Hypothesis (use causalcheck.parse_hypothesis)")
    if not isinstance(tolerance, (int, float)) or isinstance(tolerance, bool) or not tolerance >= 0:
        raise InputFormatError(f"tolerance={tolerance!r} must be a number >= 0")
    # late: keeps check API light
    from causalcheck.solvers.acyclicity import acyclicity_diagnostics

    # late: keeps check API light
    from causalcheck.solvers.contradictions import direction_contradictions

    # late: keeps check API light
    from causalcheck.solvers.data_consistency import data_consistency

    # late: keeps check API light
    from causalcheck.solvers.equations import equation_consistency

    diags: list[Finding] = []
    diags.extend(acyclicity_diagnostics(h.graph))
    diags.extend(direction_contradictions(h.graph, reference))
    if nodes is not None:
        diags.extend(_unknown_nodes(h, {normalize_node(n) for n in nodes} | {FREQ}))
    diags.extend(equation_consistency(h))
    try:
        diags.extend(data_consistency(h, data, tolerance))
    except (ValueError, OverflowError, ZeroDivisionError) as exc:  # values beyond float range (1e308 squared)
        diags.append(
            Finding(
                "data-not-checked",
                "warning",
                f"the recorded data could not be checked against the equation: its values leave float range ({exc})",
            )
        )
    meta: dict[str, Any] = {
        "hypothesis": _describe(h),
        "edges": len(h.graph.edges),
        "data_points": len(data),
        "tolerance": tolerance,
    }
    if data and h.equation.strip():
        meta["data_agrees"] = not any(d.code in DATA_CODES for d in diags)
    return Report(subject, tuple(diags), meta)


def check_record(
    record: StepRecord | Unparsed,
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
) -> Report:
    """Check a step record's hypothesis against its own ``past_data``.

    When *nodes* is ``None`` the properties seen in ``past_data`` (plus the frequency) are
    the known nodes, so a misspelled or mis-cased node name is reported.  An
    :class:`~causalcheck.episodes.Unparsed` step is one ``unparseable-record`` error.
    """
    subject = f"step {record.step}" if record.step is not None else "record"
    if isinstance(record, Unparsed):
        diag = Finding("unparseable-record", "error", f"the model output of this step is not a record: {record.reason}")
        return Report(subject, (diag,), {"step": record.step, "action": "(no action)", "hypothesis": None}, kind="record")
    meta_extra: dict[str, Any] = {"step": record.step, "action": str(record.action)}
    drift: tuple[Finding, ...] = ()
    if record.warnings:
        lost = dropped_content(record.warnings)
        drift = (
            Finding(
                "record-drift",
                "warning" if lost else "info",
                f"the record deviates from the format; repaired {len(record.warnings)} thing(s)"
                + (f", and had to drop content: {'; '.join(lost[:3])}" if lost else ""),
                elements=tuple(record.warnings),
            ),
        )
    h = record.hypothesis
    if h is None or h.is_empty:
        meta = {**meta_extra, "hypothesis": None if h is None else ""}
        return Report(subject, drift, meta, kind="record")
    data = record.past_data or ()
    known = nodes
    if known is None and data:
        known = {n for p in data for n in p.props}
    limited: tuple[Finding, ...] = ()
    if len(data) > MAX_DATA_POINTS:  # the exact solver's work grows with the points: check the newest
        dropped = len(data) - MAX_DATA_POINTS
        limited = (
            Finding(
                "data-skipped",
                "info",
                f"{dropped} of {len(data)} data points not checked: past_data has more than "
                f"MAX_DATA_POINTS={MAX_DATA_POINTS} entries, the newest {MAX_DATA_POINTS} were checked",
                elements=tuple(p.id for p in data[:dropped][:20]),
            ),
        )
        data = data[dropped:]
    report = check_hypothesis(
        h, data=data, reference=reference, tolerance=tolerance, nodes=known, subject=subject
    )
    return Report(subject, report.own + limited + drift, {**meta_extra, **report.meta}, kind="record")
