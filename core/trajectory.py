"""Reading agent trajectories: every file layout that holds step records.

An agent *trajectory* is the sequence of step records an agent wrote during one episode.
They come in several layouts, all read by :func:`load_records`:

* one record (a JSON object, possibly wrapped in prose, code fences or ``<think>``);
* JSONL, one record per line, or a JSON array of records;
* causalcheck lab trajectories (:mod:`causalcheck.lab.trajectory`): ``header`` / ``step`` /
  ``summary`` lines, the agent's record under ``record`` (a dict, or the raw text);
* the official CausaLab run folder (causalab-spec §5.3): ``raw_io.jsonl`` holds
  *concatenated, pretty-printed* JSON objects ``{step, raw_input, raw_output}`` — not one
  object per line — and ``raw_output`` is the model's text; ``*_tracking_simple.jsonl``
  holds ``{dialog_box, lastActionMessage, action, ...}`` objects whose ``action`` is the
  decoded record.  A folder prefers ``raw_io.jsonl`` (it has the model's own text).

:func:`iter_json_objects` is the streaming decoder for concatenated JSON.  A step whose
model output cannot be parsed does not abort the trajectory (the official controller
replaces it by a ``WAIT``): it becomes a record with ``extras["parse_error"]`` and a
warning, unless ``strict=True``.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from causalcheck.errors import CausalCheckError, DSLSyntaxError, InputFormatError
from causalcheck.parsing import _looks_like_record, parse_record, parse_record_obj
from causalcheck.records import StepRecord

__all__ = ["find_record_file", "iter_json_objects", "load_records", "read_text", "records_from_text"]

_JSON_EXPECT = {
    "Expecting value": ["a value"],
    "Expecting ',' delimiter": ['","', '"}"', '"]"'],
    "Expecting ':' delimiter": ['":"'],
    "Expecting property name enclosed in double quotes": ["a string"],
}
_WS = re.compile(r"\s*")


def iter_json_objects(text: str, *, source: str = "<string>") -> Iterator[Any]:
    """Yield the JSON values of *text*: JSONL, concatenated pretty-printed JSON, or one value.

    Whitespace between values is skipped.  Raises :class:`~causalcheck.errors.DSLSyntaxError`
    at the first character that does not decode, with line, column and a caret.
    """
    decoder = json.JSONDecoder()
    pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
    n = len(text)
    while pos < n:
        try:
            value, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            expected = _JSON_EXPECT.get(exc.msg, [])
            label = None
            if exc.pos >= n or exc.msg.startswith("Unterminated string"):
                label = "the text ends too early: truncated, or a bracket/quote is not closed"
            raise DSLSyntaxError(
                f"not valid JSON: {exc.msg}",
                text=text,
                line=exc.lineno,
                column=exc.colno,
                expected=expected,
                source=source,
                label=label,
            ) from None
        except RecursionError:
            raise InputFormatError(f"{source}: JSON nests too deeply to decode") from None
        yield value
        pos = _WS.match(text, end).end()  # type: ignore[union-attr]


def read_text(path: str | Path) -> str:
    """The UTF-8 text of *path*, with messages for missing, binary and undecodable files."""
    p = Path(path)
    if not p.exists():
        raise InputFormatError(f"path={str(p)!r} does not exist")
    if p.is_dir():
        raise InputFormatError(f"path={str(p)!r} is a directory, expected a file")
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputFormatError(f"path={str(p)!r} cannot be read: {exc.strerror or exc}") from None
    if b"\x00" in data[:8192]:
        raise InputFormatError(f"path={str(p)!r} looks binary (it contains NUL bytes); expected JSON or text")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFormatError(
            f"path={str(p)!r} is not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start}); "
            "expected JSON or text"
        ) from None
    return text


_DIR_PATTERNS = ("raw_io.jsonl", "*_tracking_simple.jsonl", "*_tracking.jsonl", "*.jsonl", "*.json")


_NOT_RECORDS = ("graph_config.json", "source_config.json", "run.json", "summary.json")


def find_record_file(folder: str | Path) -> Path:
    """The file of a run folder that holds its records (``raw_io.jsonl`` first).

    A causalcheck lab run folder keeps one trajectory per episode under ``episodes/``; it
    is accepted when it holds exactly one.
    """
    d = Path(folder)
    for pattern in _DIR_PATTERNS:
        for f in sorted(d.glob(pattern)):
            if f.is_file() and f.name not in _NOT_RECORDS:
                if pattern == "*.json" and f.name.endswith("_data.json"):
                    continue
                return f
    episodes = sorted((d / "episodes").glob("*.jsonl")) if (d / "episodes").is_dir() else []
    if len(episodes) == 1:
        return episodes[0]
    if episodes:
        shown = ", ".join(e.name for e in episodes[:3])
        raise InputFormatError(
            f"directory={str(d)!r} is a lab run with {len(episodes)} episode trajectories ({shown}, ...); "
            "check one of them (episodes/<file>.jsonl), or score the whole run with 'causalcheck lab score'"
        )
    raise InputFormatError(
        f"directory={str(d)!r} holds no records: looked for {', '.join(_DIR_PATTERNS)} "
        "(an official run folder has raw_io.jsonl)"
    )


def _failed(step: int | None, exc: CausalCheckError) -> StepRecord:
    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return StepRecord(
        extras={"parse_error": str(exc)},
        warnings=(f"unparseable record: {first}",),
        step=step,
    )


def records_from_text(text: str, *, source: str = "<string>", strict: bool = False) -> list[StepRecord]:
    """All step records in *text* (any layout of the module docstring); see :func:`load_records`."""
    if not text.strip():
        raise InputFormatError(f"{source}: the input is empty; expected step records (JSON)")
    values: list[Any] = []
    try:
        for value in iter_json_objects(text, source=source):
            values.append(value)
    except DSLSyntaxError as exc:
        # Not clean (concatenated) JSON: one record with prose, fences or drift around it.
        try:
            return [dataclasses.replace(parse_record(text, source=source), step=1)]
        except DSLSyntaxError as single:
            # a broken first object: the record grammar's message is the more precise one
            raise (single if not values else exc) from None
    if len(values) == 1 and isinstance(values[0], list):
        values = values[0]
    out: list[StepRecord] = []
    kinds: set[str] = set()
    for i, value in enumerate(values):
        if not isinstance(value, Mapping):
            kinds.add(type(value).__name__)
            continue
        step_raw = value.get("step")
        step = step_raw if isinstance(step_raw, int) and not isinstance(step_raw, bool) else i + 1
        where = f"{source} (step {step})"
        try:
            if "raw_output" in value:
                raw = value["raw_output"]
                rec = parse_record(raw, source=where) if isinstance(raw, (str, Mapping)) else None
                if rec is None:
                    raise InputFormatError(f"{where}: raw_output={raw!r} must be the model's text")
            elif "record" in value:
                raw = value["record"]
                if not isinstance(raw, (str, Mapping)):
                    raise InputFormatError(f"{where}: record={raw!r} must be an object or the model's text")
                rec = parse_record(raw, source=where)
            elif value.get("type") in ("header", "summary"):
                continue
            elif "action" in value and "dialog_box" in value:  # official *_tracking_simple.jsonl
                if not isinstance(value["action"], Mapping):
                    continue
                rec = parse_record_obj(value["action"], source=where)
            elif _looks_like_record(value):
                rec = parse_record_obj(value, source=where)
            else:
                kinds.add("object with keys " + ", ".join(sorted(map(str, value))[:6]))
                continue
        except CausalCheckError as exc:
            if strict:
                raise
            rec = _failed(step, exc)
        out.append(dataclasses.replace(rec, step=step))
    if not out:
        found = "; ".join(sorted(kinds)) or "nothing"
        raise InputFormatError(
            f"{source}: no step records found (found {found}); expected record objects, "
            "{step, raw_output} objects (raw_io.jsonl) or lab trajectory lines"
        )
    return out


def load_records(path: str | Path, *, strict: bool = False) -> list[StepRecord]:
    """Every step record of a record file, JSONL, lab trajectory, ``raw_io.jsonl`` or run folder.

    ``StepRecord.step`` is the file's ``step`` field where it has one, else the 1-based
    position.  Raises :class:`~causalcheck.errors.InputFormatError` for missing, binary or
    empty inputs and folders without records, :class:`~causalcheck.errors.DSLSyntaxError`
    for text that is not JSON; with ``strict=True`` also for any step that fails to parse.
    """
    p = Path(path)
    if p.is_dir():
        p = find_record_file(p)
    return records_from_text(read_text(p), source=str(p), strict=strict)
