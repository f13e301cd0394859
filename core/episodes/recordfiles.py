"""Files of step records without an environment: one record, JSONL, a JSON array, ``raw_io.jsonl``, tracking files.

:func:`records_episode` reads any of these layouts into an episode of ``kind="records"``
(steps only):

* one record (a JSON object, possibly wrapped in prose, code fences or ``<think>``);
* JSONL, one record per line, or a JSON array of records;
* the official ``raw_io.jsonl``: concatenated pretty-printed ``{step, raw_input, raw_output}``
  objects; ``raw_output`` is the model's text;
* an official ``*_tracking_simple.jsonl``: ``{dialog_box, lastActionMessage, action, ...}``
  objects whose ``action`` is the decoded record (objects with ``action: null`` are skipped);
* the step lines of an unfinished lab trajectory (``{"type": "step", "record": ...}``; the
  ``header`` and ``summary`` lines are skipped) — a finished one is read by
  :mod:`causalcheck.episodes.trajectory`.

Each step's label is the object's ``step`` field when it has one (else ``None``: the step is
then numbered by its position among the records).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.base.jsontext import iter_json_values
from causalcheck.episodes.model import EpisodeRecord, Step, Unparsed
from causalcheck.episodes.reading import RecordReader
from causalcheck.parsing import looks_like_record, parse_record
from causalcheck.records import StepRecord

__all__ = ["records_episode"]


def records_episode(text: str, *, source: str = "<string>") -> EpisodeRecord:
    """The records of *text* in any layout of the module docstring, as an episode of ``kind="records"``.

    Raises :class:`~causalcheck.base.errors.InputFormatError` for empty text and text holding no
    record, :class:`~causalcheck.base.errors.DSLSyntaxError` for text that is neither JSON nor a
    record wrapped in prose.  A step whose output cannot be parsed becomes an
    :class:`~causalcheck.episodes.model.Unparsed` marker.
    """
    if not text.strip():
        raise InputFormatError(f"{source}: the input is empty; expected step records (JSON)")
    values: list[Any] = []
    try:
        for value in iter_json_values(text, source=source):
            values.append(value)
    except DSLSyntaxError as exc:
        # Not clean (concatenated) JSON: one record with prose, fences or drift around it.
        try:
            single_record = parse_record(text, source=source)
        except DSLSyntaxError as single:
            # a broken first object: the record grammar's message is the more precise one
            raise (single if not values else exc) from None
        return EpisodeRecord(source, "records", (Step(0, None, single_record),))
    if len(values) == 1 and isinstance(values[0], list):
        values = values[0]
    reader = RecordReader()
    steps: list[Step] = []
    kinds: set[str] = set()
    for value in values:
        if not isinstance(value, Mapping):
            kinds.add(type(value).__name__)
            continue
        label_raw = value.get("step")
        label = label_raw if isinstance(label_raw, int) and not isinstance(label_raw, bool) else None
        where = f"{source} (step {label if label is not None else len(steps) + 1})"
        record: StepRecord | Unparsed
        if "raw_output" in value:
            record = reader.read(value["raw_output"], where, what="raw_output")
        elif "record" in value:
            record = reader.read(value["record"], where)
        elif value.get("type") in ("header", "summary"):
            continue
        elif "action" in value and "dialog_box" in value:  # official *_tracking_simple.jsonl
            if not isinstance(value["action"], Mapping):
                continue
            record = reader.read(value["action"], where)
        elif looks_like_record(value):
            record = reader.read(value, where)
        else:
            kinds.add("object with keys " + ", ".join(sorted(map(str, value))[:6]))
            continue
        steps.append(Step(len(steps), label, record))
    if not steps:
        found = "; ".join(sorted(kinds)) or "nothing"
        raise InputFormatError(
            f"{source}: no step records found (found {found}); expected record objects, "
            "{step, raw_output} objects (raw_io.jsonl) or lab trajectory lines"
        )
    return EpisodeRecord(source, "records", tuple(steps))
