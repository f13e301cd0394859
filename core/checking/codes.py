"""The finding codes of ``causalcheck check``: one registry, code → severity and meaning.

Every :class:`~causalcheck.diagnostics.Diagnostic` that the checks of this package (and the
solvers they run, :mod:`causalcheck.solvers`) can emit has its ``code`` here, with the
severity it is reported with, the other severity it takes in a stated special case, the
stage that emits it and a one-line meaning.  The package documentation's table is rendered
from this registry (:func:`codes_table`), and a test runs inputs that produce every code and
compares the codes and severities seen with the registry, so a new finding cannot be added
without documenting it here.

>>> FINDING_CODES["cycle"].severity, FINDING_CODES["record-drift"].also
('error', ('warning',))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from causalcheck.diagnostics import Severity

__all__ = ["FINDING_CODES", "FindingCode", "Stage", "codes_table"]

#: Where a finding comes from: one hypothesis, one step record, or a whole trajectory.
Stage = Literal["hypothesis", "record", "trajectory"]


@dataclass(frozen=True)
class FindingCode:
    """One finding code: its usual severity, another severity it takes in a special case, its meaning."""

    code: str
    severity: Severity
    stage: Stage
    meaning: str
    also: tuple[Severity, ...] = ()

    @property
    def severities(self) -> tuple[Severity, ...]:
        """Every severity the code can be reported with (the usual one first)."""
        return (self.severity, *self.also)


_CODES = (
    FindingCode("cycle", "error", "hypothesis", "the edges of one directed cycle (a minimal core; one finding per edge-disjoint cycle)"),
    FindingCode("direction-contradiction", "error", "hypothesis", "``A -> B`` and ``B -> A`` both asserted"),
    FindingCode("contradicts-reference", "error", "hypothesis", "an edge reverses one of the reference edges"),
    FindingCode("unknown-node", "warning", "hypothesis", "an edge or the equation names a node not in ``nodes`` (with a case-fix hint)"),
    FindingCode("missing-equation", "warning", "hypothesis", "the target has parents but the hypothesis gives no equation"),
    FindingCode("equation-syntax", "error", "hypothesis", "the equation does not parse"),
    FindingCode("equation-target", "warning", "hypothesis", "the equation defines another node than the hypothesis target"),
    FindingCode("self-reference", "error", "hypothesis", "the target appears on its own right-hand side"),
    FindingCode("non-parent-in-equation", "error", "hypothesis", "the equation uses a variable that is not a parent"),
    FindingCode("parent-missing-from-equation", "error", "hypothesis", "a parent of the target is not in the equation"),
    FindingCode("undetermined-coefficient", "warning", "hypothesis", "a coefficient is missing, ``null`` or zero (``base`` may be 0)"),
    FindingCode("unused-coefficient", "warning", "hypothesis", "coefficients the equation does not use (info when none looks like a coefficient)", ("info",)),
    FindingCode("data-skipped", "info", "hypothesis", "recorded points without the values the equation needs"),
    FindingCode("data-not-checked", "warning", "hypothesis", "the equation cannot be evaluated on some points (info: not linear in its free coefficients)", ("info",)),
    FindingCode("data-mismatch", "error", "hypothesis", "the stated equation misses recorded points (names them, residuals, smallest accepting tolerance)"),
    FindingCode("equation-refuted", "error", "hypothesis", "no coefficients at all fit the recorded points: the form is wrong"),
    FindingCode("record-drift", "info", "record", "repairs the tolerant parser made (warning when content had to be dropped)", ("warning",)),
    FindingCode("unparseable-record", "error", "record", "the model output of a step holds no record"),
    FindingCode("past-data-rewritten", "warning", "trajectory", "a step changed or dropped an earlier ``past_data`` entry"),
    FindingCode("data-stop-agreeing", "warning", "trajectory", "the first step whose recorded data contradict its hypothesis"),
)

#: Every finding code ``causalcheck check`` can report, in documentation order.
FINDING_CODES: Mapping[str, FindingCode] = MappingProxyType({c.code: c for c in _CODES})


def codes_table() -> str:
    """The registry as a reStructuredText table (code, severity, meaning)."""
    rows = [(f"``{c.code}``", "/".join(c.severities), c.meaning) for c in FINDING_CODES.values()]
    widths = [max(len(r[i]) for r in [("code", "severity", "meaning"), *rows]) for i in range(3)]
    rule = "  ".join("=" * w for w in widths)
    lines = [rule, "  ".join(h.ljust(w) for h, w in zip(("code", "severity", "meaning"), widths, strict=True)), rule]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.append(rule)
    return "\n".join(lines)
