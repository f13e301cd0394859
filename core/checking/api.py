"""The front door: :func:`check` takes anything that holds hypotheses and returns the reports.

It dispatches on the input: a :class:`~causalcheck.records.Hypothesis` goes to the
hypothesis stage, a :class:`~causalcheck.records.StepRecord` (or an
:class:`~causalcheck.episodes.Unparsed` step) to the record check, a sequence of records or
an :class:`~causalcheck.episodes.Episode` to the trajectory stage, and everything else
(paths, ``example:<name>``, text, dicts) is first read by :mod:`causalcheck.checking.inputs`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

from causalcheck.checking.hypothesis import check_hypothesis, check_record
from causalcheck.checking.inputs import load_checkable
from causalcheck.checking.trajectory import check_episode, check_trajectory
from causalcheck.diagnostics import CheckReport
from causalcheck.episodes import Episode, Unparsed
from causalcheck.records import DataPoint, Hypothesis, StepRecord

__all__ = ["check"]


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

    *obj* is a :class:`Hypothesis`, a :class:`StepRecord`, a sequence of records, an
    :class:`~causalcheck.episodes.Episode`, a path (record JSON, JSONL, text hypothesis, lab
    trajectory, official ``raw_io.jsonl`` or run folder), ``"example:<name>"``, or text.
    Input that cannot be read raises :class:`~causalcheck.errors.InputFormatError` /
    :class:`~causalcheck.errors.DSLSyntaxError`.
    """
    ref = list(reference)
    if isinstance(obj, Hypothesis):
        return check_hypothesis(obj, data=data, reference=ref, tolerance=tolerance, nodes=nodes)
    if isinstance(obj, (StepRecord, Unparsed)):
        return check_record(obj, reference=ref, tolerance=tolerance, nodes=nodes)
    if isinstance(obj, Episode):
        return check_episode(obj, reference=ref, tolerance=tolerance, nodes=nodes)
    if isinstance(obj, (list, tuple)) and all(isinstance(r, (StepRecord, Unparsed)) for r in obj):
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
