"""Structured findings returned by the checks (never raised)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

__all__ = ["CheckReport", "Diagnostic", "Graded", "GradedReport", "Severity"]

Severity = Literal["error", "warning", "info"]


class Graded(Protocol):
    """A finding with a stable ``code`` and a ``severity``."""

    @property
    def code(self) -> str: ...

    @property
    def severity(self) -> Severity: ...


G = TypeVar("G", bound=Graded)


class GradedReport(Generic[G]):
    """What every report of graded findings answers, from its :meth:`graded` findings in order.

    ``ok`` is true when no finding is an error or a warning; ``errors`` are the findings of
    severity ``error``; ``codes()`` lists every finding's code.
    """

    def graded(self) -> tuple[G, ...]:
        """The report's findings, in order."""
        raise NotImplementedError

    @property
    def ok(self) -> bool:
        """True when no finding has severity ``error`` or ``warning``."""
        return not any(d.severity in ("error", "warning") for d in self.graded())

    @property
    def errors(self) -> tuple[G, ...]:
        """The findings of severity ``error``."""
        return tuple(d for d in self.graded() if d.severity == "error")

    def codes(self) -> tuple[str, ...]:
        """The finding codes in order."""
        return tuple(d.code for d in self.graded())


@dataclass(frozen=True)
class Diagnostic:
    """One finding of a check.

    Attributes:
        code: a stable machine-readable identifier, e.g. ``"cycle"``, ``"non-parent-in-equation"``.
        message: a sentence for people that names the offending values.
        severity: ``"error"`` (the hypothesis is wrong or inconsistent), ``"warning"``
            (suspicious or undetermined), ``"info"``.
        elements: the offending elements, e.g. edges as ``"A -> B"`` strings or node names.
        data: extra structured detail (e.g. the minimal tolerance for data conflicts).
    """

    code: str
    message: str
    severity: Severity = "error"
    elements: tuple[str, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "elements": list(self.elements),
            "data": dict(self.data),
        }


@dataclass(frozen=True)
class CheckReport(GradedReport[Diagnostic]):
    """All diagnostics for one checked object (a hypothesis, a record, or one step)."""

    subject: str
    diagnostics: tuple[Diagnostic, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)

    def graded(self) -> tuple[Diagnostic, ...]:
        return self.diagnostics

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "ok": self.ok,
            "meta": dict(self.meta),
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }
