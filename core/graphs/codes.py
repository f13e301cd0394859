"""The finding codes of the graph validator (:func:`~causalcheck.graphchecks.validator.validate_graph`).

A view of the one registry, :mod:`causalcheck.base.codes` (the codes emitted in the stages
``graph``, ``data``, ``truth``, ``coverage`` and ``background``, including ``cycle``, which the
hypothesis checker reports too).  Severities: ``error`` — the graph is invalid, or
contradicted by the data (at the stated significance, after multiple-testing control) or by
background knowledge; ``warning`` — it differs from a given truth, or a check could not be
completed as asked; ``info`` — figures and notes.

>>> VALIDATOR_CODES["ci-violated"].severity, VALIDATOR_CODES["ci-violated"].stage
('error', 'data')
>>> sorted({s for c in VALIDATOR_CODES.values() for s in c.stages if s in VALIDATOR_STAGES})
['background', 'coverage', 'data', 'graph', 'truth']
>>> VALIDATOR_CODES["cycle"].stages  # one code for a directed cycle, here and in the hypothesis checker
('hypothesis', 'graph')
"""

from __future__ import annotations

from causalcheck.base.codes import VALIDATOR_STAGES, FindingCode, Stage, codes_in
from causalcheck.base.codes import codes_table as _table

__all__ = ["VALIDATOR_CODES", "FindingCode", "Stage", "codes_table"]

#: Every finding code the validator can report, in documentation order.
VALIDATOR_CODES = codes_in(VALIDATOR_STAGES)


def codes_table() -> str:
    """These codes as a Markdown table (code, severity, stage, meaning).

    >>> codes_table().splitlines()[0]
    '| code | severity | stage | meaning |'
    """
    return _table(VALIDATOR_STAGES)
