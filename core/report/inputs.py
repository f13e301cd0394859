"""Report inputs: found by content, read safely, listed with their SHA-256.

``causalcheck report`` takes any mix of

* **lab scores** — a ``scores.json`` written by ``lab score`` (``"format":
  "causalcheck-scores/1"``, or ``episodes`` + ``by_suite``), or a folder holding one;
* **explain results** — ``<answer>_metrics_<judge>.json`` files (``meta`` + ``items``, the
  official PRISM layout, ours or the published ones);
* **check reports** — ``causalcheck check --json`` output: of hypotheses, records and
  trajectories (``source``, ``kind``, ``reports``), of a folder (``kind: "folder"``,
  ``results``: one such report per file) and of a graph (``causalcheck check GRAPH --json``:
  ``graph``, ``kind`` with the ``claim``, ``findings``), which :func:`check_payload_of` turns
  into the first shape.

A file is classified by what it holds, never by its name (:func:`classify`); a file given by
name that is none of these, or that cannot be read, is an
:class:`~causalcheck.base.errors.InputFormatError` naming it.  A folder is searched
recursively for ``*.json`` files that are (other JSON in it — run summaries, configs — is
skipped); a folder holding none is an error too.  A file in a folder that cannot be read
(truncated, not UTF-8, not JSON, beyond the safe reader's limits) is not skipped silently: it
is listed in :attr:`Inputs.unreadable` with the reason, and the report says it is partial
(``report`` then exits 1).  JSON is decoded with :mod:`causalcheck.base.safejson`; the one
leniency is for the bare ``NaN`` / ``Infinity`` earlier ``lab score`` versions wrote into audit
details, read as missing values — the document is then held to the safe reader's other
limits (nesting, integer size, lone surrogates) all the same.  Every file read is recorded in
a :class:`causalcheck.base.files.Provenance` (path, SHA-256, size).

>>> classify({"format": "causalcheck-scores/1", "episodes": []})
'lab'
>>> classify({"meta": {}, "items": [], "summary": {}})
'explain'
>>> classify({"source": "x", "kind": "single", "reports": []})
'check'
>>> classify({"ok": True, "graph": {"nodes": [], "edges": []}, "kind": {"claim": "DAG"}, "findings": []})
'check'
>>> classify({"hello": 1}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from causalcheck.base import safejson
from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import Provenance, decode_input_text, read_input_bytes
from causalcheck.report.text import counted

__all__ = ["InputKind", "Inputs", "check_payload_of", "classify", "load_inputs", "read_json"]

InputKind = Literal["lab", "explain", "check"]


def classify(obj: Any) -> InputKind | None:
    """Which report input *obj* (a decoded JSON value) is, or ``None``."""
    if not isinstance(obj, Mapping):
        return None
    if obj.get("format") == "causalcheck-scores/1" or (isinstance(obj.get("episodes"), list) and isinstance(obj.get("by_suite"), list)):
        return "lab"
    if isinstance(obj.get("items"), list) and isinstance(obj.get("meta"), Mapping) and ("summary" in obj or "state" in obj):
        return "explain"
    if isinstance(obj.get("reports"), list) and obj.get("kind") in ("trajectory", "single") and "source" in obj:
        return "check"
    if isinstance(obj.get("results"), list) and obj.get("kind") == "folder" and "source" in obj:
        return "check"
    if _is_graph_check(obj):
        return "check"
    return None


def _is_graph_check(obj: Mapping[str, Any]) -> bool:
    """``causalcheck check GRAPH --json``: the validator's result (graph, kind claim, findings)."""
    graph, kind = obj.get("graph"), obj.get("kind")
    return (isinstance(graph, Mapping) and isinstance(graph.get("nodes"), list) and isinstance(kind, Mapping)
            and "claim" in kind and isinstance(obj.get("findings"), list))


def check_payload_of(path: str, obj: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The check payloads (``source``, ``kind``, ``reports``) a check input holds: itself; a
    folder's per-file results; a graph validation as one report of its findings."""
    if obj.get("kind") == "folder":
        return [r for r in obj.get("results", []) if isinstance(r, Mapping) and classify(r) == "check"]
    if not _is_graph_check(obj):
        return [obj]
    findings = [f for f in obj.get("findings", []) if isinstance(f, Mapping)]
    problems = any(f.get("severity") in ("error", "warning") for f in findings)
    claim = obj["kind"].get("claim")
    return [{
        "source": path,
        "kind": "single",
        "checked": "graph",
        "graph": obj["graph"],
        "ok": obj.get("ok"),
        "summary": {"reports": 1, "with_problems": int(problems), "first_data_conflict_step": None},
        "reports": [{"subject": f"{path} ({claim})" if isinstance(claim, str) else path, "ok": obj.get("ok"),
                     "meta": {}, "findings": findings}],
    }]


@dataclass
class Inputs:
    """The classified inputs, each ``(path as given, decoded JSON)``, and their provenance."""

    lab: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    explain: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    check: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    provenance: Provenance = field(default_factory=lambda: Provenance("causalcheck report"))
    #: Files found in a folder that could not be read: ``(path, reason)``; the report is partial.
    unreadable: list[tuple[str, str]] = field(default_factory=list)

    def add(self, kind: InputKind, path: str, obj: Mapping[str, Any]) -> None:
        if kind == "check":
            self.check.extend((path, payload) for payload in check_payload_of(path, obj))
        else:
            getattr(self, kind).append((path, obj))

    @property
    def empty(self) -> bool:
        return not (self.lab or self.explain or self.check)


def read_json(path: Path) -> tuple[Any, bytes]:
    """The decoded JSON of the report input *path* and its bytes (module docstring: the safe reader,
    bare ``NaN`` / ``Infinity`` read as missing); an :class:`InputFormatError` naming *path* otherwise."""
    data = read_input_bytes(path, what="report input")
    text = decode_input_text(data, path, what="report input", expected="a JSON result file")
    try:
        return safejson.loads(text, source=f"report input {str(path)!r}"), data
    except InputFormatError as exc:
        # ``lab score`` has written NaN into audit details (a non-JSON constant): read such
        # constants as missing values rather than refusing the whole file
        if "NaN" not in text and "Infinity" not in text:
            raise
        import json

        try:
            value = json.loads(text, parse_constant=lambda _name: None)
        except (ValueError, RecursionError):
            raise exc from None
        safejson.check_value(value, source=f"report input {str(path)!r}")  # nesting, integers, lone surrogates
        return value, data


def load_inputs(paths: Sequence[str | Path], *, provenance: Provenance | None = None) -> Inputs:
    """Read and classify every path (files, or folders searched recursively)."""
    out = Inputs(provenance=provenance or Provenance("causalcheck report"))
    if not paths:
        raise InputFormatError("report needs at least one PATH (scores.json, an explain result file or a check --json report)")
    for given in paths:
        p = Path(given)
        if p.is_dir():
            found = 0
            for f in sorted(q for q in p.rglob("*.json") if q.is_file()):
                try:
                    obj, data = read_json(f)
                except InputFormatError as exc:
                    out.unreadable.append((str(f), str(exc)))
                    continue
                kind = classify(obj)
                if kind is None:
                    continue
                out.add(kind, str(f), obj)
                out.provenance.add_input(f, data=data)
                found += 1
            if not found:
                unread = f" ({counted(len(out.unreadable), 'file')} there could not be read: {out.unreadable[0][1]})" if out.unreadable else ""
                raise InputFormatError(
                    f"report input path={str(given)!r} is a folder holding no lab scores.json, explain result file "
                    f"or check --json report{unread}"
                )
            continue
        obj, data = read_json(p)
        kind = classify(obj)
        if kind is None:
            raise InputFormatError(
                f"report input path={str(given)!r} is neither lab scores (scores.json), an explain result file "
                "(<answer>_metrics_<judge>.json) nor a check --json report (of hypotheses, a folder or a graph)"
            )
        out.add(kind, str(given), obj)
        out.provenance.add_input(p, data=data)
    return out
