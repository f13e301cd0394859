"""Evidence audit: does what an agent *wrote down* match what the environment *showed* it?

A CausaLab agent keeps its evidence in ``past_data`` and is told to copy earlier entries
and append new ones.  Nothing forces it to copy faithfully: in the official sample run the
agent wrote entry ``4/12`` with the frequency its own equation predicted (105.0) in the same
output that requested the intervention; the manipulator then showed 155.0 and the entry was
never corrected (causalab-spec §3.4).  This module compares every entry with the states the
environment displayed (prior records, golden traces, every manipulator state) and with the
moment it was displayed, and reports :class:`~causalcheck.findings.Finding` s (certificates
:class:`~causalcheck.findings.EntryShownEarly`, :class:`~causalcheck.findings.EntryValue`,
:class:`~causalcheck.findings.EntryUnmatched`, :class:`~causalcheck.findings.SolverEvidence`)
in one :class:`~causalcheck.findings.Report` of kind ``"audit"``:

* ``fabricated-entry`` (error) — no displayed state matches the entry's values, or the entry
  was written before its state was displayed and disagrees with what was then displayed;
* ``altered-entry`` (error) — the entry copies an already displayed state but changes a value;
* ``prefilled-entry`` (warning) — the values are right but were written before they were shown;
* ``intervention-never-made`` (error) — an entry claims an intervention that was not executed;
* ``hypothesis-contradicts-evidence`` (error) — the final equation and coefficients do not
  reproduce the frequencies of the agent's own entries (more than ``fit_tolerance`` Hz off);
* ``premature-stop`` (warning, failed episodes) / ``budget-unused`` (info, successful
  ones) — interventions or reactor submissions left at the end.

Values match when they differ by at most ``tolerance`` (0.01: the simulator rounds to 2 dp).
Step numbers in messages are 1-based, like the official ``raw_io`` ``step`` field
(:data:`causalcheck.episodes.SCORE_NUMBERING`).  The audit works on the typed episode of
:mod:`causalcheck.episodes`: entries are the parsed :class:`~causalcheck.records.DataPoint` s
of each step's record (so the parser's repairs — numeric strings, frequency aliases, a
``past_data`` serialised into a string — apply here too) and the final hypothesis is the
parsed one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from causalcheck.base.errors import CausalCheckError
from causalcheck.checking.hypothesis import DATA_CODES, MAX_DATA_POINTS
from causalcheck.episodes import SCORE_NUMBERING, EpisodeRecord, ShownState
from causalcheck.findings import (
    EntryShownEarly,
    EntryUnmatched,
    EntryValue,
    Figures,
    Finding,
    Report,
    SolverEvidence,
)
from causalcheck.graph import FREQ
from causalcheck.metrics import formula_errors
from causalcheck.records import DataPoint, Hypothesis, Intervention, StepRecord
from causalcheck.solvers.data_consistency import data_consistency

__all__ = ["Entry", "audit_episode"]


@dataclass(frozen=True)
class Entry:
    """One ``past_data`` entry as numbers (non-numeric values dropped)."""

    id: str
    props: Mapping[str, float]
    freq: float | None
    intervention: tuple[str, float] | None = None

    def key(self) -> tuple[Any, ...]:
        return (tuple(sorted(self.props.items())), self.freq, self.intervention)

    def describe(self) -> str:
        vals = ", ".join(f"{k}={v:g}" for k, v in sorted(self.props.items()))
        freq = "null" if self.freq is None else f"{self.freq:g}"
        return f"{{{vals}; freq={freq}}}"

    @classmethod
    def of(cls, point: DataPoint) -> Entry:
        """The numeric view of a parsed entry (properties without a number are left out)."""
        iv = point.intervention
        return cls(
            point.id,
            {k: v for k, v in point.props.items() if v is not None},
            point.freq,
            None if iv is None else (iv.target_prop, iv.target_value),
        )

    def point(self) -> DataPoint:
        """The entry as a :class:`~causalcheck.records.DataPoint` (for the core's checks)."""
        iv = self.intervention
        return DataPoint(self.id, dict(self.props), self.freq, None if iv is None else Intervention(*iv))


def _rounded(props: Mapping[str, float], freq: float | None) -> tuple[Any, ...]:
    return (tuple(sorted([(k, round(v, 2)) for k, v in props.items()])), None if freq is None else round(freq, 2))


def _state_index(states: tuple[ShownState, ...]) -> dict[tuple[Any, ...], int]:
    """Exact-match fast path: rounded state → the earliest step it was visible from."""
    out: dict[tuple[Any, ...], int] = {}
    keys: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # states are often shown twice (after a step, before the next)
    for st in states:
        raw = (tuple(st.props.items()), st.freq)
        key = keys.get(raw)
        if key is None:
            key = keys[raw] = _rounded(st.props, st.freq)
        out[key] = min(out.get(key, st.visible_from), st.visible_from)
    return out


def _agree(entry: Entry, state: ShownState, tol: float) -> tuple[int, list[str]]:
    """(number of agreeing fields, names of disagreeing fields); a missing field disagrees."""
    good, bad = 0, []
    for k, v in entry.props.items():
        s = state.props.get(k)
        if s is not None and abs(s - v) <= tol:
            good += 1
        else:
            bad.append(k)
    if entry.freq is not None:
        if state.freq is not None and abs(state.freq - entry.freq) <= tol:
            good += 1
        else:
            bad.append(FREQ)
    return good, bad


def _audit_entry(entry: Entry, step: int, number: int, shown: tuple[ShownState, ...], tol: float) -> Finding | None:
    """The finding for *entry*, first written at step index *step* (shown to people as *number*), or ``None``."""
    if not entry.props and entry.freq is None:
        return None
    best: tuple[int, int, ShownState, list[str]] | None = None
    for st in shown:
        good, bad = _agree(entry, st, tol)
        if not bad:
            if st.visible_from <= step:
                return None
            # right values, not yet shown: keep looking for an earlier exact match
            cand = (1_000_000, -st.visible_from, st, bad)
        else:
            cand = (good, -st.visible_from, st, bad)
        if best is None or cand[:2] > best[:2]:
            best = cand
    where = f"entry {entry.id!r} written at step {number}"
    if best is not None and not best[3]:
        st = best[2]
        return Finding(
            "prefilled-entry",
            "warning",
            f"{where} holds {entry.describe()} before the environment showed it ({st.label})",
            (entry.id,),
            EntryShownEarly(number, st.label),
        )
    if best is not None and len(best[3]) == 1:
        st, field = best[2], best[3][0]
        wrote = entry.freq if field == FREQ else entry.props.get(field)
        saw = st.freq if field == FREQ else st.props.get(field)
        if st.visible_from > step:
            code = "fabricated-entry"
            message = (
                f"{where} gives {field}={wrote!r} before the environment showed that state; "
                f"it then showed {field}={saw!r} ({st.label})"
            )
        else:
            code = "altered-entry"
            message = f"{where} gives {field}={wrote!r} but the environment showed {field}={saw!r} ({st.label})"
        return Finding(code, "error", message, (entry.id,), EntryValue(number, field, wrote, saw, st.label))
    return Finding(
        "fabricated-entry",
        "error",
        f"{where} holds {entry.describe()}, which matches no state the environment showed",
        (entry.id,),
        EntryUnmatched(number),
    )


def _solver_check(
    record: StepRecord, entries: Sequence[Entry], tolerance: float
) -> list[Finding]:
    """``hypothesis-contradicts-evidence`` from the core's data-consistency solver (empty if it agrees).

    The findings are the ``data-mismatch`` / ``equation-refuted`` findings that
    :func:`causalcheck.checking.check_record` gives for the record with these entries as its
    ``past_data`` (the newest :data:`~causalcheck.checking.hypothesis.MAX_DATA_POINTS` of
    them); only that solver is asked, since the record's other checks (cycles, node names)
    do not enter this finding.
    """
    h = record.hypothesis
    if h is None or h.is_empty:
        return []
    points = tuple(e.point() for e in entries)[-MAX_DATA_POINTS:]
    try:
        found = data_consistency(h, points, tolerance)
    except (ValueError, OverflowError, ZeroDivisionError):  # values beyond float range: not checked
        return []
    except CausalCheckError as exc:
        return [Finding("solver-check-failed", "info", f"the final record could not be checked: {exc}")]
    bad = [d for d in found if d.code in DATA_CODES]
    if not bad:
        return []
    elements = tuple(sorted({e for d in bad for e in d.elements}))
    return [
        Finding(
            "hypothesis-contradicts-evidence",
            "error",
            "the final hypothesis contradicts the agent's own entries: " + " / ".join(d.message for d in bad),
            elements,
            SolverEvidence(tuple(bad)),
        )
    ]


def _fit_check(hyp: Hypothesis | None, entries: list[Entry], fit_tolerance: float) -> list[Finding]:
    if hyp is None or not hyp.equation.strip():
        return []
    eq, coeffs = hyp.equation, hyp.coefficients
    if any(v is None for v in coeffs.values()):
        return [
            Finding(
                "hypothesis-undetermined",
                "info",
                f"final coefficients {dict(coeffs)!r} contain non-numeric values; the equation was not checked",
            )
        ]
    bad: list[str] = []
    worst = 0.0
    checked = [e for e in entries if e.freq is not None]
    results = formula_errors(eq, [(e.props, e.freq) for e in checked if e.freq is not None], coeffs, fit_tolerance)
    for e, res in zip(checked, results, strict=True):
        if res.abs_error is not None and res.abs_error > fit_tolerance:
            bad.append(e.id)
            worst = max(worst, res.abs_error)
    if not bad:
        return []
    return [
        Finding(
            "hypothesis-contradicts-evidence",
            "error",
            f"final equation {eq!r} with coefficients {dict(coeffs)!r} misses the agent's own "
            f"entries {bad!r} by up to {worst:.4g} Hz (tolerance {fit_tolerance:g})",
            tuple(bad),
            Figures({"max_abs_error": worst}),
        )
    ]


def _settled(d: Finding, kept: bool) -> Finding:
    """An entry's finding once every step is read: whether the final record still holds it (*kept*)."""
    note = " (still in the final record)" if kept else " (later corrected or dropped)"
    assert isinstance(d.certificate, (EntryShownEarly, EntryValue, EntryUnmatched))
    return replace(d, message=d.message + note, certificate=replace(d.certificate, uncorrected=kept))


def audit_episode(
    ep: EpisodeRecord, tolerance: float = 0.01, fit_tolerance: float = 0.5, *, solver_checks: bool = True
) -> Report:
    """Audit one episode; the report's ``meta`` holds the budget figures.

    The final hypothesis is first checked arithmetically against the agent's final entries;
    when that finds a contradiction (or cannot decide because coefficients are missing) and
    *solver_checks* is on, the core's exact checks (:func:`causalcheck.checking.check_record`:
    ``data-mismatch`` with the smallest accepting tolerance, ``equation-refuted`` with a
    minimal conflicting set of entries) supply the finding and its details.
    """
    shown = list(ep.shown)
    made: list[tuple[str, float]] = []
    for point in ep.golden:
        entry = Entry.of(point)
        shown.append(ShownState(entry.props, entry.freq, f"golden entry {entry.id}", 0))
        if entry.intervention:
            made.append(entry.intervention)
    states = tuple(shown)
    made.extend(s.intervention for s in ep.steps if s.intervention is not None)

    diags: list[Finding] = []
    seen_versions: dict[str, tuple[Any, ...]] = {}
    flagged: dict[str, Finding] = {}
    final_entries: list[Entry] = []
    index = _state_index(states) if tolerance >= 0.01 else {}
    prev_points: tuple[DataPoint, ...] = ()
    prev_entries: list[Entry] = []
    for step in ep.steps:
        data = step.past_data
        if data is None:
            continue
        number = step.number(SCORE_NUMBERING)
        fresh: list[Entry] = []
        # entries copied unchanged from the previous record (the usual case) are reused; the
        # episode reader hands repeated entries over as the same objects, so the comparison
        # short-circuits on identity
        entries: list[Entry] = []
        n_prev = len(prev_points)
        for pos, point in enumerate(data):
            if pos < n_prev and (point is prev_points[pos] or point == prev_points[pos]):
                entries.append(prev_entries[pos])
                continue
            entry = Entry.of(point)
            fresh.append(entry)
            entries.append(entry)
        prev_points, prev_entries = data, entries
        final_entries = entries
        for e in fresh:
            if seen_versions.get(e.id) == e.key():
                continue
            seen_versions[e.id] = e.key()
            first = index.get(_rounded(e.props, e.freq))
            d = (
                None
                if first is not None and first <= step.index
                else _audit_entry(e, step.index, number, states, tolerance)
            )
            if d is not None:
                flagged[e.id] = d
            else:
                flagged.pop(e.id, None)
            if e.intervention is not None and not any(
                p == e.intervention[0] and abs(v - e.intervention[1]) <= tolerance for p, v in made
            ):
                diags.append(
                    Finding(
                        "intervention-never-made",
                        "error",
                        f"entry {e.id!r} (step {number}) records intervention "
                        f"{e.intervention[0]}={e.intervention[1]:g}, which was never executed",
                        (e.id,),
                    )
                )
    final_ids = {e.id: e.key() for e in final_entries}
    for eid, d in flagged.items():
        diags.append(_settled(d, eid in final_ids and final_ids[eid] == seen_versions.get(eid)))

    final = ep.final()
    found = _fit_check(None if final is None else final[1], final_entries, fit_tolerance)
    if solver_checks and final is not None and final[0].parsed is not None and found:
        found = _solver_check(final[0].parsed, final_entries, fit_tolerance) or found
    diags.extend(found)

    used = sum(1 for s in ep.steps if s.intervention is not None)
    unused = None if ep.intervention_budget is None else max(ep.intervention_budget - used, 0)
    sub_unused = (
        None
        if ep.submission_budget is None or ep.submissions_used is None
        else max(ep.submission_budget - ep.submissions_used, 0)
    )
    left = [f"{unused} of {ep.intervention_budget} interventions"] if unused else []
    if sub_unused:
        left.append(f"{sub_unused} of {ep.submission_budget} reactor submissions")
    if left:
        if ep.success is False:
            diags.append(
                Finding("premature-stop", "warning", f"the episode failed with {' and '.join(left)} unused")
            )
        else:
            diags.append(Finding("budget-unused", "info", f"{' and '.join(left)} left unused"))
    meta = {
        "interventions_used": used,
        "intervention_budget": ep.intervention_budget,
        "interventions_unused": unused,
        "submissions_used": ep.submissions_used,
        "submission_budget": ep.submission_budget,
        "submissions_unused": sub_unused,
        "entries_checked": len(seen_versions),
    }
    diags.sort(key=lambda d: ({"error": 0, "warning": 1, "info": 2}[d.severity], d.code, d.elements))
    return Report(ep.source, tuple(diags), meta, kind="audit")
