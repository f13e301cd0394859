"""``causalcheck.checking`` (public as ``causalcheck.check``): verify hypotheses, step records and whole agent trajectories.

:func:`check_hypothesis` runs every solver of :mod:`causalcheck.solvers` on one hypothesis
and collects their diagnostics into a :class:`~causalcheck.diagnostics.CheckReport`:

==============================  =========  ==================================================
code                            severity   meaning
==============================  =========  ==================================================
``cycle``                       error      the edges of one directed cycle (a minimal core)
``direction-contradiction``     error      ``A -> B`` and ``B -> A`` both asserted
``contradicts-reference``       error      an edge reverses one of the reference edges
``unknown-node``                warning    an edge or the equation names a node not in ``nodes``
``equation-syntax``             error      the equation does not parse
``non-parent-in-equation``      error      the equation uses a variable that is not a parent
``parent-missing-from-equation`` error     a parent of the target is not in the equation
``self-reference``              error      the target appears on its own right-hand side
``undetermined-coefficient``    warning    a coefficient is missing, ``null`` or zero
``data-mismatch``               error      the stated equation misses recorded points
``equation-refuted``            error      no coefficients at all fit the recorded points
==============================  =========  ==================================================

:func:`check` accepts anything that holds hypotheses — a path, text, a
:class:`~causalcheck.records.Hypothesis`, a :class:`~causalcheck.records.StepRecord`, a
list of records — and returns one report, or one report per step for trajectories.  A step
is checked against its *own* ``past_data`` (the evidence the agent wrote down), and the
trajectory-level finding ``data-stop-agreeing`` marks the first step whose hypothesis the
recorded data contradict.  Records the tolerant parser had to repair carry an ``info``
diagnostic ``record-drift`` listing the repairs (a ``warning`` when a repair had to drop content,
e.g. an edge that is not ``{"from", "to"}``); a step that could not be parsed at all is
an ``unparseable-record`` error.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from causalcheck.diagnostics import CheckReport, Diagnostic
from causalcheck.errors import DSLSyntaxError, InputFormatError
from causalcheck.graph import FREQ, normalize_node
from causalcheck.records import DataPoint, Hypothesis, StepRecord

__all__ = [
    "check",
    "check_hypothesis",
    "check_record",
    "check_trajectory",
    "example_names",
    "example_path",
    "first_data_conflict",
]

_DATA_CODES = ("data-mismatch", "equation-refuted")


def _describe(h: Hypothesis) -> str:
    from causalcheck.parsing import format_hypothesis

    try:
        text: str = format_hypothesis(h)
        return text.rstrip("\n")
    except InputFormatError:
        return f"{h.graph}; {h.equation}; {dict(h.coefficients)}"


def _unknown_nodes(h: Hypothesis, nodes: set[str]) -> tuple[Diagnostic, ...]:
    named = list(h.graph.nodes)
    if h.equation.strip():
        from causalcheck.solvers.equations import hypothesis_equation

        with contextlib.suppress(DSLSyntaxError):
            named.extend(hypothesis_equation(h).variables)
    unknown = [n for n in dict.fromkeys(named) if n not in nodes and n != h.target]
    if not unknown:
        return ()
    lower = {n.lower(): n for n in nodes}
    hints = [f"{u!r} (did you mean {lower[u.lower()]!r}?)" if u.lower() in lower else repr(u) for u in unknown]
    return (
        Diagnostic(
            "unknown-node",
            f"the hypothesis names {', '.join(hints)}, which {'is' if len(unknown) == 1 else 'are'} not among "
            f"the known nodes ({', '.join(sorted(nodes))}); node names are case-sensitive",
            "warning",
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
) -> CheckReport:
    """All diagnostics for *h* (see the module table); never raises on a bad hypothesis.

    *data* are evidence points for the data-consistency check, *reference* known
    ``(cause, effect)`` edges, *tolerance* the absolute tolerance in the target's units,
    *nodes* the node names the hypothesis may use (``None``: any).
    """
    if not isinstance(h, Hypothesis):
        raise InputFormatError(f"h={h!r} must be a Hypothesis (use causalcheck.parse_hypothesis)")
    if not isinstance(tolerance, (int, float)) or isinstance(tolerance, bool) or not tolerance >= 0:
        raise InputFormatError(f"tolerance={tolerance!r} must be a number >= 0")
    from causalcheck.solvers.acyclicity import acyclicity_diagnostics
    from causalcheck.solvers.contradictions import direction_contradictions
    from causalcheck.solvers.data_consistency import data_consistency
    from causalcheck.solvers.equations import equation_consistency

    diags: list[Diagnostic] = []
    diags.extend(acyclicity_diagnostics(h.graph))
    diags.extend(direction_contradictions(h.graph, reference))
    if nodes is not None:
        diags.extend(_unknown_nodes(h, {normalize_node(n) for n in nodes} | {FREQ}))
    diags.extend(equation_consistency(h))
    diags.extend(data_consistency(h, data, tolerance))
    meta: dict[str, Any] = {
        "hypothesis": _describe(h),
        "edges": len(h.graph.edges),
        "data_points": len(data),
        "tolerance": tolerance,
    }
    if data and h.equation.strip():
        meta["data_agrees"] = not any(d.code in _DATA_CODES for d in diags)
    return CheckReport(subject, tuple(diags), meta)


def check_record(
    record: StepRecord,
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
) -> CheckReport:
    """Check a step record's hypothesis against its own ``past_data``.

    When *nodes* is ``None`` the properties seen in ``past_data`` (plus the frequency) are
    the known nodes, so a misspelled or mis-cased node name is reported.
    """
    subject = f"step {record.step}" if record.step is not None else "record"
    meta_extra: dict[str, Any] = {"step": record.step, "action": str(record.action)}
    if "parse_error" in record.extras:
        diag = Diagnostic(
            "unparseable-record",
            f"the model output of this step is not a record: {record.extras['parse_error']}",
            "error",
        )
        return CheckReport(subject, (diag,), {**meta_extra, "hypothesis": None})
    drift: tuple[Diagnostic, ...] = ()
    if record.warnings:
        lost = [w for w in record.warnings if "ignored" in w and not w.startswith("ignored unknown keys")]
        drift = (
            Diagnostic(
                "record-drift",
                f"the record deviates from the format; repaired {len(record.warnings)} thing(s)"
                + (f", and had to drop content: {'; '.join(lost[:3])}" if lost else ""),
                "warning" if lost else "info",
                elements=tuple(record.warnings),
            ),
        )
    h = record.hypothesis
    if h is None or h.is_empty:
        meta = {**meta_extra, "hypothesis": None if h is None else ""}
        return CheckReport(subject, drift, meta)
    data = record.past_data or ()
    known = nodes
    if known is None and data:
        known = {n for p in data for n in p.props}
    report = check_hypothesis(
        h, data=data, reference=reference, tolerance=tolerance, nodes=known, subject=subject
    )
    return CheckReport(subject, report.diagnostics + drift, {**meta_extra, **report.meta})


def first_data_conflict(reports: Sequence[CheckReport]) -> int | None:
    """Index into *reports* of the first step whose recorded data contradict its hypothesis."""
    for i, r in enumerate(reports):
        if r.meta.get("data_agrees") is False:
            return i
    return None


def _rewritten(prev: StepRecord, cur: StepRecord) -> Diagnostic | None:
    if not prev.past_data or cur.past_data is None:
        return None
    now = {p.id: p for p in cur.past_data}
    changed = [p.id for p in prev.past_data if p.id in now and (now[p.id].props, now[p.id].freq) != (p.props, p.freq)]
    dropped = [p.id for p in prev.past_data if p.id not in now]
    if not changed and not dropped:
        return None
    parts = []
    if changed:
        parts.append(f"changed {', '.join(changed)}")
    if dropped:
        parts.append(f"dropped {', '.join(dropped)}")
    return Diagnostic(
        "past-data-rewritten",
        f"past_data must keep earlier entries unchanged, but this step {' and '.join(parts)}",
        "warning",
        elements=tuple(changed + dropped),
    )


def check_trajectory(
    records: Sequence[StepRecord],
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
) -> list[CheckReport]:
    """One report per step, plus the trajectory findings ``data-stop-agreeing`` and ``past-data-rewritten``."""
    ref = list(reference)
    node_list = None if nodes is None else list(nodes)
    reports = [check_record(r, reference=ref, tolerance=tolerance, nodes=node_list) for r in records]
    for i in range(1, len(records)):
        d = _rewritten(records[i - 1], records[i])
        if d is not None:
            reports[i] = dataclasses.replace(reports[i], diagnostics=(*reports[i].diagnostics, d))
    k = first_data_conflict(reports)
    if k is not None:
        agreed = [r.meta.get("step") for r in reports[:k] if r.meta.get("data_agrees") is True]
        before = (
            f"the hypotheses of steps {', '.join(map(str, agreed))} fit their data"
            if agreed
            else "no earlier step had a hypothesis checkable against data"
        )
        step = reports[k].meta.get("step")
        d = Diagnostic(
            "data-stop-agreeing",
            f"from step {step} the recorded data no longer agree with the hypothesis ({before})",
            "warning",
            elements=(str(step),),
            data={"step": step, "index": k},
        )
        reports[k] = dataclasses.replace(reports[k], diagnostics=(*reports[k].diagnostics, d))
    return reports


# ---------------------------------------------------------------------- examples
def example_names() -> list[str]:
    """Names of the bundled examples (``causalcheck check example:<name>``)."""
    from importlib import resources

    folder = resources.files("causalcheck") / "data" / "examples"
    if not folder.is_dir():
        return []
    return sorted(p.name.split(".", 1)[0] for p in folder.iterdir() if not p.name.startswith((".", "_")))


def example_path(name: str) -> Path:
    """The file of bundled example *name*."""
    from importlib import resources

    folder = resources.files("causalcheck") / "data" / "examples"
    if folder.is_dir():
        for p in folder.iterdir():
            if p.name.split(".", 1)[0] == name:
                return Path(str(p))
    raise InputFormatError(f"example name={name!r} is not bundled; available: {', '.join(example_names())}")


# ---------------------------------------------------------------------- dispatch
def _from_text(
    text: str, source: str, strict: bool = False
) -> tuple[list[StepRecord] | None, Hypothesis | None]:
    from causalcheck.parsing import parse_hypothesis
    from causalcheck.trajectory import records_from_text

    body = text.lstrip()
    if not body:
        raise InputFormatError(f"{source}: the input is empty; expected a record (JSON), a trajectory or a hypothesis")
    if body.startswith(("{", "[", "```", "<think>")) or source.endswith((".json", ".jsonl")):
        return records_from_text(text, source=source, strict=strict), None
    try:
        return None, parse_hypothesis(text, source=source)
    except DSLSyntaxError as exc:
        if "{" in text:
            try:
                return records_from_text(text, source=source, strict=strict), None
            except (DSLSyntaxError, InputFormatError):
                pass
        raise exc from None


def load_checkable(obj: Any, *, strict: bool = False) -> tuple[list[StepRecord] | None, Hypothesis | None, str]:
    """Resolve *obj* (path, ``example:<name>``, text, dict) to records or a hypothesis, and a label.

    With *strict*, a step whose model output cannot be parsed raises instead of becoming an
    ``unparseable-record`` finding.
    """
    from causalcheck.trajectory import find_record_file, read_text

    label = None
    if isinstance(obj, str) and obj.startswith("example:"):
        label = obj
        obj = example_path(obj.split(":", 1)[1])
    if isinstance(obj, Path) or (isinstance(obj, str) and "\n" not in obj and len(obj) < 4096 and Path(obj).exists()):
        p = Path(obj)
        if p.is_dir():
            p = find_record_file(p)
        records, hyp = _from_text(read_text(p), str(p), strict)
        return records, hyp, label or str(p)
    if isinstance(obj, str):
        if not obj.strip():
            raise InputFormatError("the input is empty: give a path, a hypothesis or a record")
        looks_like_path = "\n" not in obj and not any(c in obj for c in "{}=") and "->" not in obj
        if looks_like_path and ("/" in obj or "." in obj):
            raise InputFormatError(f"path={obj!r} does not exist")
        records, hyp = _from_text(obj, "<string>", strict)
        return records, hyp, "<string>"
    if isinstance(obj, Mapping):
        from causalcheck.parsing import parse_record_obj

        return [parse_record_obj(obj)], None, "<dict>"
    raise InputFormatError(
        f"obj={obj!r} must be a path, text, Hypothesis, StepRecord or a list of StepRecords"
    )


def check(
    obj: Any,
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
    data: Sequence[DataPoint] = (),
    strict: bool = False,
) -> CheckReport | list[CheckReport]:
    """Check anything that holds hypotheses; one report, or a list (one per step) for trajectories.

    *obj* is a :class:`Hypothesis`, a :class:`StepRecord`, a sequence of records, a path
    (record JSON, JSONL, text hypothesis, lab trajectory, official ``raw_io.jsonl`` or run
    folder), ``"example:<name>"``, or text.  Input that cannot be read raises
    :class:`~causalcheck.errors.InputFormatError` / :class:`~causalcheck.errors.DSLSyntaxError`.
    """
    ref = list(reference)
    if isinstance(obj, Hypothesis):
        return check_hypothesis(obj, data=data, reference=ref, tolerance=tolerance, nodes=nodes)
    if isinstance(obj, StepRecord):
        return check_record(obj, reference=ref, tolerance=tolerance, nodes=nodes)
    if isinstance(obj, (list, tuple)) and all(isinstance(r, StepRecord) for r in obj):
        return check_trajectory(obj, reference=ref, tolerance=tolerance, nodes=nodes)
    records, hyp, source = load_checkable(obj, strict=strict)
    if hyp is not None:
        return check_hypothesis(hyp, data=data, reference=ref, tolerance=tolerance, nodes=nodes, subject=source)
    assert records is not None
    if len(records) == 1:
        rec = dataclasses.replace(records[0], step=None) if records[0].step == 1 else records[0]
        report = check_record(rec, reference=ref, tolerance=tolerance, nodes=nodes)
        return dataclasses.replace(report, subject=source)
    return check_trajectory(records, reference=ref, tolerance=tolerance, nodes=nodes)
