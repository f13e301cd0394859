"""Stage 2 — trajectory checks: every step against its own evidence, and what changes between steps.

:func:`check_trajectory` checks each step record (:func:`~causalcheck.checking.hypothesis.check_record`)
and adds the findings that need the whole sequence: ``past-data-rewritten`` (a step changed
or dropped an earlier evidence entry) and ``data-stop-agreeing`` (the first step whose
recorded data contradict its hypothesis).  The result is one
:class:`~causalcheck.findings.Report` of kind ``"trajectory"`` whose ``parts`` are the steps'
reports (the trajectory findings belong to the step they name).  :func:`check_episode` does this for an
:class:`~causalcheck.episodes.EpisodeRecord`, numbering its steps as ``check`` prints them
(:data:`~causalcheck.episodes.CHECK_NUMBERING`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

from causalcheck.checking.hypothesis import check_record
from causalcheck.episodes import EpisodeRecord, Unparsed, numbered_record
from causalcheck.findings import Finding, Report, StepIndex
from causalcheck.records import StepRecord

__all__ = ["check_episode", "check_trajectory", "first_data_conflict"]


def first_data_conflict(reports: Sequence[Report]) -> int | None:
    """Index into *reports* (a trajectory's ``parts``) of the first step whose recorded data contradict its hypothesis."""
    for i, r in enumerate(reports):
        if r.meta.get("data_agrees") is False:
            return i
    return None


def _rewritten(prev: StepRecord | Unparsed, cur: StepRecord | Unparsed) -> Finding | None:
    if isinstance(prev, Unparsed) or isinstance(cur, Unparsed) or not prev.past_data or cur.past_data is None:
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
    return Finding(
        "past-data-rewritten",
        "warning",
        f"past_data must keep earlier entries unchanged, but this step {' and '.join(parts)}",
        elements=tuple(changed + dropped),
    )


def check_trajectory(
    records: Sequence[StepRecord | Unparsed],
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
    subject: str = "trajectory",
) -> Report:
    """The trajectory's report: one part per step, plus the findings ``data-stop-agreeing`` and ``past-data-rewritten``."""
    ref = list(reference)
    node_list = None if nodes is None else list(nodes)
    reports = [check_record(r, reference=ref, tolerance=tolerance, nodes=node_list) for r in records]
    for i in range(1, len(records)):
        d = _rewritten(records[i - 1], records[i])
        if d is not None:
            reports[i] = dataclasses.replace(reports[i], own=(*reports[i].own, d))
    k = first_data_conflict(reports)
    if k is not None:
        agreed = [r.meta.get("step") for r in reports[:k] if r.meta.get("data_agrees") is True]
        before = (
            f"the hypotheses of steps {', '.join(map(str, agreed))} fit their data"
            if agreed
            else "no earlier step had a hypothesis checkable against data"
        )
        step = reports[k].meta.get("step")
        d = Finding(
            "data-stop-agreeing",
            "warning",
            f"from step {step} the recorded data no longer agree with the hypothesis ({before})",
            elements=(str(step),),
            certificate=StepIndex(step, k),
        )
        reports[k] = dataclasses.replace(reports[k], own=(*reports[k].own, d))
    return Report(subject, kind="trajectory", parts=tuple(reports))


def check_episode(
    ep: EpisodeRecord,
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
) -> Report:
    """:func:`check_trajectory` of the episode's steps, numbered as ``check`` shows them (subject: its source)."""
    return check_trajectory(
        [numbered_record(s) for s in ep.steps], reference=reference, tolerance=tolerance, nodes=nodes, subject=ep.source
    )
