"""Checking a whole folder: every checkable file and episode in it, and what was not checked and why.

``causalcheck check DIR`` used to pick one record file of a folder and report "0 with
problems" for the rest.  :func:`check_folder` instead finds every unit under the folder —
official seed folders (each through its record file, ``raw_io.jsonl`` first), lab
trajectories, and other ``*.json`` / ``*.jsonl`` files holding step records or a hypothesis
— checks each one, and lists the rest: files that cannot be read (``failed``, with the
reason) and files that hold nothing to check (``skipped``, with the reason).  The result
carries the manifest of the inputs read (path, SHA-256, bytes, status).

A folder that is exactly one unit (an official seed folder, a lab run folder holding one
episode) is checked like that unit's file.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from causalcheck.diagnostics import CheckReport
from causalcheck.episodes import OWN_OUTPUTS, discover_inputs, find_record_file, is_run_folder
from causalcheck.errors import CausalCheckError

__all__ = ["FolderCheck", "UnitCheck", "check_folder", "folder_units"]


@dataclass(frozen=True)
class UnitCheck:
    """One unit of a folder: its path, manifest status and reports (``None`` when not checked)."""

    path: str
    status: str  # "checked" | "failed" | "skipped"
    reports: list[CheckReport] | None = None
    trajectory: bool = False
    reason: str = ""
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def problems(self) -> int:
        return sum(not r.ok for r in self.reports or [])

    def manifest(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"path": self.path, "status": self.status, **self.facts}
        if self.reason:
            entry["reason"] = self.reason
        return entry


@dataclass(frozen=True)
class FolderCheck:
    """Every unit of a folder (see the module docstring)."""

    folder: str
    units: tuple[UnitCheck, ...]

    @property
    def checked(self) -> tuple[UnitCheck, ...]:
        return tuple(u for u in self.units if u.status == "checked")

    @property
    def failed(self) -> tuple[UnitCheck, ...]:
        return tuple(u for u in self.units if u.status == "failed")

    @property
    def skipped(self) -> tuple[UnitCheck, ...]:
        return tuple(u for u in self.units if u.status == "skipped")


def _facts(path: Path) -> dict[str, Any]:
    from causalcheck.files import sha256_file

    try:
        if path.is_file():
            return {"sha256": sha256_file(path), "bytes": path.stat().st_size}
    except OSError:
        pass
    return {"sha256": None, "bytes": None}


def folder_units(folder: str | Path) -> list[tuple[str, Path, str]]:
    """``(status, path, reason)`` of every unit under *folder*: ``"check"`` (a file to check; a
    seed folder's record file), ``"failed"`` or ``"skipped"`` (with the reason), sorted."""
    root = Path(folder)
    if is_run_folder(root):
        return [("check", find_record_file(root), "")]
    units: list[tuple[str, Path, str]] = []
    taken: set[Path] = set()
    seeds: list[Path] = []
    for found in discover_inputs([root]):
        if found.kind == "official":
            seeds.append(found.path)
            try:
                record_file = find_record_file(found.path)
            except CausalCheckError as exc:
                units.append(("failed", found.path, str(exc).splitlines()[0]))
                continue
            units.append(("check", record_file, ""))
        elif found.kind == "trajectory":
            units.append(("check", found.path, ""))
            taken.add(found.path)
        elif found.kind == "failed":
            units.append(("failed", found.path, found.reason))
            taken.add(found.path)
        elif found.kind == "skipped":  # JSON that is no trajectory: maybe records or a hypothesis
            units.append(("check", found.path, ""))
            taken.add(found.path)
    for sub in sorted(root.rglob("*")):
        if sub in taken or sub.is_dir() or sub.name in OWN_OUTPUTS or sub.name.startswith("."):
            continue
        if any(seed in sub.parents for seed in seeds):
            continue
        units.append(("skipped", sub, "not a record file (a folder is checked for *.json, *.jsonl, trajectories and run folders)"))
    units.sort(key=lambda u: u[1])
    return units


def check_folder(
    folder: str | Path,
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
    strict: bool = False,
) -> FolderCheck:
    """Check every unit of *folder* (module docstring); a unit that cannot be read is ``failed``.

    A JSON file that holds neither step records nor a hypothesis is ``skipped`` with the
    reason; with *strict* a step that does not parse makes its file ``failed``.
    """
    from causalcheck.checking.api import check_hypotheses as check

    ref = list(reference)
    node_list = None if nodes is None else list(nodes)
    out: list[UnitCheck] = []
    for status, path, reason in folder_units(folder):
        facts = _facts(path)
        if status != "check":
            out.append(UnitCheck(str(path), status, reason=reason, facts=facts))
            continue
        try:
            result = check(path, reference=ref, tolerance=tolerance, nodes=node_list, strict=strict)
        except CausalCheckError as exc:
            message = str(exc).splitlines()[0]
            not_records = "not a step record" in message or "no step records found" in message
            out.append(UnitCheck(str(path), "skipped" if not_records else "failed", reason=message, facts=facts))
            continue
        reports = result if isinstance(result, list) else [result]
        out.append(UnitCheck(str(path), "checked", reports, isinstance(result, list), facts=facts))
    return FolderCheck(str(folder), tuple(out))
