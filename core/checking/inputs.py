"""Data in: what ``check`` was given — a path, ``example:<name>``, text or a dict — as records or a hypothesis.

Records are read through the episode layer (:mod:`causalcheck.episodes`: every file
layout, each step's output parsed once, numbered as ``check`` prints it); text that is not
JSON is tried as a plain-text hypothesis (:func:`causalcheck.parsing.parse_hypothesis`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from causalcheck.base import safejson
from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.base.files import read_input_text
from causalcheck.checking.examples import example_path
from causalcheck.episodes import Unparsed, find_record_file, read_text, records_from_text
from causalcheck.parsing import RECORD_KEYS, parse_hypothesis, parse_record_obj
from causalcheck.records import Hypothesis, StepRecord

__all__ = ["Checkable", "graph_file_format", "load_checkable"]

#: What an input resolves to: step records (or ``None``), a hypothesis (or ``None``), and a label.
Checkable = tuple[list[StepRecord | Unparsed] | None, Hypothesis | None, str]


#: Keys that make a JSON object a record or a hypothesis, not a graph in the JSON graph format.
_RECORD_LIKE_KEYS = frozenset({*RECORD_KEYS, "freq_equation", "coefficients", "target"})


#: A ``["a", "->", "b"]`` graph edge in JSON text (the cheap test before a mixed object is decoded).
_TRIPLE_HINT = re.compile(r'\[\s*"(?:[^"\\]|\\.)*"\s*,\s*"(?:->|<-|--|<->|o->|<-o|o-o|o--|--o)"\s*,')


def _json_graph_kind(text: str, source: str) -> str | None:
    """``"graph"`` for a JSON object in the JSON graph format, ``None`` for anything else; a JSON
    object that is both (graph edge triples beside record keys or ``{"from", "to"}`` edges) raises."""
    # late: the graph readers (pydot, networkx adapters) load only when a file may be a graph
    from causalcheck.graphs.io import is_graph_json, sniff_graph_format

    if sniff_graph_format(text, source) == "json":
        data = safejson.loads(text.lstrip("\ufeff"), source=source)
        record_keys = sorted(set(data) & _RECORD_LIKE_KEYS)
        if not record_keys:
            return "graph"
        raise InputFormatError(
            f"{source}: ambiguous input: its 'edges' are graph edges [left, token, right] (the JSON graph format) but it "
            f"also has the record keys {record_keys!r}; expected either a graph "
            '({"nodes": [...], "edges": [["a", "->", "b"]]}) or a record / hypothesis ({"edges": [{"from": "a", "to": "b"}]})'
        )
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith("{") and _TRIPLE_HINT.search(body):  # a graph edge triple somewhere: is it a mix?
        try:
            data = safejson.loads(body, source=source)
        except InputFormatError:
            return None
        edges = data.get("edges") if isinstance(data, dict) else None
        if isinstance(edges, list) and any(is_graph_json({"kind": "", "edges": [e]}) for e in edges):
            raise InputFormatError(
                f"{source}: ambiguous input: some 'edges' are graph edges [left, token, right] and others are not; "
                'expected a graph ({"nodes": [...], "edges": [["a", "->", "b"]]}) or a record / hypothesis '
                '({"edges": [{"from": "a", "to": "b"}]})'
            )
    return None


def graph_file_format(obj: Any) -> str | None:
    """The graph format of the file *obj* names, judged from its content
    (:func:`causalcheck.graphs.io.sniff_graph_format`), or ``None`` when *obj* names no file or the
    file holds no graph (a record, a hypothesis, a trajectory).  ``check`` validates a file with a
    format as a graph whatever its suffix: ``graph.json`` in the JSON graph format is a graph, not a record.
    """
    # late: the graph readers (pydot, networkx adapters) load only when a file may be a graph
    from causalcheck.graphs.io import sniff_graph_format

    if not (isinstance(obj, Path) or (isinstance(obj, str) and _is_existing_path(obj))):
        return None
    p = Path(obj)
    if not p.is_file() or p.suffix.lower() == ".jsonl":
        return None
    text = read_input_text(p, what="input")
    fmt = sniff_graph_format(text, p)
    if fmt == "json":
        _json_graph_kind(text, str(p))  # a graph with record keys too is refused as ambiguous
    return fmt


def _from_text(
    text: str, source: str, strict: bool = False
) -> tuple[list[StepRecord | Unparsed] | None, Hypothesis | None]:
    body = text.lstrip()
    if not body:
        raise InputFormatError(f"{source}: the input is empty; expected a record (JSON), a trajectory or a hypothesis")
    if body.startswith("{") and _json_graph_kind(body, source) == "graph":
        raise InputFormatError(
            f"{source}: is a causal graph in the JSON graph format, not a record or a hypothesis; expected a record "
            "(JSON), a trajectory or a hypothesis here (causalcheck check validates a graph file as a graph; "
            "read it with causalcheck.graphs.read_graph)"
        )
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


def _is_existing_path(text: str) -> bool:
    """True when *text* names an existing file or folder (never for record text: a long
    one-line record is not a file name, and the OS may refuse it as one)."""
    import os

    if "\n" in text or len(text) >= 4096 or text.lstrip().startswith(("{", "[")):
        return False
    try:
        return os.path.exists(text)
    except (OSError, ValueError):  # a name too long for the file system, a NUL byte
        return False


def load_checkable(obj: Any, *, strict: bool = False) -> Checkable:
    """Resolve *obj* (path, ``example:<name>``, text, dict) to records or a hypothesis, and a label.

    With *strict*, a step whose model output cannot be parsed raises instead of becoming an
    ``unparseable-record`` finding.
    """
    label = None
    if isinstance(obj, str) and obj.startswith("example:"):
        label = obj
        obj = example_path(obj.split(":", 1)[1])
    if isinstance(obj, Path) or (isinstance(obj, str) and _is_existing_path(obj)):
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
        return [parse_record_obj(obj)], None, "<dict>"
    raise InputFormatError(
        f"obj={obj!r} must be a path, text, Hypothesis, StepRecord or a list of StepRecords"
    )
