"""Checking a whole folder: every checkable file and episode in it, and what was not checked and why.

``causalcheck check DIR`` used to pick one record file of a folder and report "0 with
problems" for the rest.  :func:`check_folder` instead finds every unit under the folder —
official seed folders (each through its record file, ``raw_io.jsonl`` first), lab
trajectories, and other ``*.json`` / ``*.jsonl`` files holding step records or a hypothesis
— checks each one, and lists the rest: files that cannot be read (``failed``, with the
reason) and files that hold nothing to check (``skipped``, with the reason).  The result
carries the manifest of the inputs read (path, SHA-256, bytes, status), and
:attr:`FolderCheck.report` is the folder's one :class:`~causalcheck.findings.Report`: a part
per checked unit, an ``input-unreadable`` error per failed file and an ``input-skipped``
note per skipped one.

A folder that is exactly one unit (an official seed folder, a lab run folder holding one
episode) is checked like that unit's file.  :func:`check_input` checks one unit: a file,
``example:<name>``, text or a dict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.files import sha256_file
from causalcheck.checking.hypothesis import check_hypothesis, check_record
from causalcheck.checking.inputs import load_checkable
from causalcheck.checking.trajectory import check_trajectory
from causalcheck.episodes import OWN_OUTPUTS, discover_inputs, find_record_file, is_run_folder
from causalcheck.findings import Finding, Report
from causalcheck.records import DataPoint

__all__ = ["FolderCheck", "UnitCheck", "check_folder", "check_input", "folder_units", "require_checked"]


@dataclass(frozen=True)
class UnitCheck:
    """One unit of a folder: its path, manifest status and report (``None`` when not checked)."""

    path: str
    status: str  # "checked" | "failed" | "skipped"
    report: Report | None = None
    reason: str = ""
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def trajectory(self) -> bool:
        """True when the unit is a trajectory (its report has one part per step)."""
        return self.report is not None and self.report.kind == "trajectory"

    @property
    def reports(self) -> tuple[Report, ...]:
        """The unit's reports as printed: a trajectory's steps, else the one report (none when not checked)."""
        if self.report is None:
            return ()
        return self.report.parts if self.trajectory else (self.report,)

    @property
    def problems(self) -> int:
        """How many of :attr:`reports` have an error or a warning."""
        return sum(bool(r.errors or r.warnings) for r in self.reports)

    def finding(self) -> Finding | None:
        """``input-unreadable`` for a failed unit, ``input-skipped`` for a skipped one, else ``None``."""
        if self.status == "checked":
            return None
        if self.status == "failed":
            return Finding("input-unreadable", "error", f"{self.path}: {self.reason}", (self.path,))
        return Finding("input-skipped", "info", f"{self.path}: {self.reason}", (self.path,))

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

    @property
    def report(self) -> Report:
        """The folder's report: an ``input-unreadable`` / ``input-skipped`` finding per unit not
        checked, a part per checked unit, the manifest under ``meta["inputs"]``."""
        own = tuple(f for f in (u.finding() for u in self.units) if f is not None)
        parts = tuple(u.report for u in self.units if u.report is not None)
        return Report(self.folder, own, {"inputs": [u.manifest() for u in self.units]}, kind="folder", parts=parts)


def require_checked(folder: FolderCheck) -> None:
    """Raise :class:`~causalcheck.base.errors.InputFormatError` when *folder* has no checked unit (the reasons named)."""
    if folder.checked:
        return
    reasons = "; ".join(f"{Path(u.path).name}: {u.reason}" for u in folder.units[:5]) or "the folder is empty"
    raise InputFormatError(
        f"directory={folder.folder!r} holds nothing to check: looked for *.json and *.jsonl record files, "
        f"lab trajectories and run folders (raw_io.jsonl, *_tracking*.jsonl) ({reasons})"
    )


def check_input(
    obj: Any,
    *,
    reference: Iterable[tuple[str, str]] = (),
    tolerance: float = 0.01,
    nodes: Iterable[str] | None = None,
    data: Sequence[DataPoint] = (),
    strict: bool = False,
) -> Report:
    """One input read by :func:`~causalcheck.checking.inputs.load_checkable` (a file, ``example:<name>``,
    text, a dict): a hypothesis' or a record's report, or a trajectory's (subject: the source)."""
    ref = list(reference)
    records, hyp, source = load_checkable(obj, strict=strict)
    if hyp is not None:
        return check_hypothesis(hyp, data=data, reference=ref, tolerance=tolerance, nodes=nodes, subject=source)
    assert records is not None
    if len(records) == 1:
        rec = dataclasses.replace(records[0], step=None) if records[0].step == 1 else records[0]
        report = check_record(rec, reference=ref, tolerance=tolerance, nodes=nodes)
        return dataclasses.replace(report, subject=source)
    return check_trajectory(records, reference=ref, tolerance=tolerance, nodes=nodes, subject=source)


def _facts(path: Path) -> dict[str, Any]:
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

    ref = list(reference)
    node_list = None if nodes is None else list(nodes)
    out: list[UnitCheck] = []
    for status, path, reason in folder_units(folder):
        facts = _facts(path)
        if status != "check":
            out.append(UnitCheck(str(path), status, reason=reason, facts=facts))
            continue
        try:
            result = check_input(path, reference=ref, tolerance=tolerance, nodes=node_list, strict=strict)
        except CausalCheckError as exc:
            message = str(exc).splitlines()[0]
            not_records = "not a step record" in message or "no step records found" in message
            out.append(UnitCheck(str(path), "skipped" if not_records else "failed", reason=message, facts=facts))
            continue
        out.append(UnitCheck(str(path), "checked", result, facts=facts))
    return FolderCheck(str(folder), tuple(out))
