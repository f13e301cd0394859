"""Report inputs: found by content, read safely, listed with their SHA-256.

``causalcheck report`` takes any mix of

* **lab scores** — a ``scores.json`` written by ``lab score`` (``"format":
  "causalcheck-scores/1"``, or ``episodes`` + ``by_suite``), or a folder holding one;
* **explain results** — ``<answer>_metrics_<judge>.json`` files (``meta`` + ``items``, the
  official PRISM layout, ours or the published ones);
* **check reports** — ``causalcheck check --json`` output (``source``, ``kind``, ``reports``).

A file is classified by what it holds, never by its name (:func:`classify`); a file that is
none of these is an :class:`~causalcheck.base.errors.InputFormatError` naming it.  A folder is
searched recursively for files that are (other JSON in it — run summaries, configs — is
skipped); a folder holding none is an error too.  Every file read is recorded in a
:class:`causalcheck.base.files.Provenance` (path, SHA-256, size).

>>> classify({"format": "causalcheck-scores/1", "episodes": []})
'lab'
>>> classify({"meta": {}, "items": [], "summary": {}})
'explain'
>>> classify({"source": "x", "kind": "single", "reports": []})
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
from causalcheck.base.files import Provenance, read_input_bytes

__all__ = ["InputKind", "Inputs", "classify", "load_inputs"]

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
    return None


@dataclass
class Inputs:
    """The classified inputs, each ``(path as given, decoded JSON)``, and their provenance."""

    lab: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    explain: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    check: list[tuple[str, Mapping[str, Any]]] = field(default_factory=list)
    provenance: Provenance = field(default_factory=lambda: Provenance("causalcheck report"))

    def add(self, kind: InputKind, path: str, obj: Mapping[str, Any]) -> None:
        getattr(self, kind).append((path, obj))

    @property
    def empty(self) -> bool:
        return not (self.lab or self.explain or self.check)


def _read(path: Path) -> tuple[Any, bytes]:
    data = read_input_bytes(path, what="report input")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputFormatError(f"report input path={str(path)!r} is not UTF-8 text") from None
    try:
        return safejson.loads(text, source=str(path)), data
    except InputFormatError as exc:
        # ``lab score`` has written NaN into audit details (a non-JSON constant): read such
        # constants as missing values rather than refusing the whole file
        if "NaN" not in text and "Infinity" not in text:
            raise
        import json

        try:
            return json.loads(text, parse_constant=lambda _name: None), data
        except (ValueError, RecursionError):
            raise exc from None


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
                    obj, data = _read(f)
                except InputFormatError:
                    continue
                kind = classify(obj)
                if kind is None:
                    continue
                out.add(kind, str(f), obj)
                out.provenance.add_input(f, data=data)
                found += 1
            if not found:
                raise InputFormatError(
                    f"report input path={str(given)!r} is a folder holding no lab scores.json, explain result file "
                    "or check --json report"
                )
            continue
        obj, data = _read(p)
        kind = classify(obj)
        if kind is None:
            raise InputFormatError(
                f"report input path={str(given)!r} is neither lab scores (scores.json), an explain result file "
                "(<answer>_metrics_<judge>.json) nor a check --json report"
            )
        out.add(kind, str(given), obj)
        out.provenance.add_input(p, data=data)
    return out
