"""The finding codes of ``causalcheck check`` on hypotheses, records and trajectories.

A view of the one registry, :mod:`causalcheck.base.codes` (the stages ``hypothesis``, ``record``
and ``trajectory``); the package documentation's table is rendered from it.

>>> FINDING_CODES["cycle"].severity, FINDING_CODES["record-drift"].also
('error', ('warning',))
"""

from __future__ import annotations

from causalcheck.base.codes import CHECK_STAGES, FindingCode, Stage, codes_in
from causalcheck.base.codes import codes_table as _table

__all__ = ["FINDING_CODES", "FindingCode", "Stage", "codes_table"]

#: Every finding code ``causalcheck check`` can report on hypotheses, records and trajectories.
FINDING_CODES = codes_in(CHECK_STAGES)


def codes_table() -> str:
    """These codes as a reStructuredText table (code, severity, meaning)."""
    return _table(CHECK_STAGES, style="rst")
