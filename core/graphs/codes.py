"""The finding codes of the graph validator: one registry, code → severity and meaning.

Every :class:`~causalcheck.graphs.validator.Finding` that
:func:`~causalcheck.graphs.validator.validate_graph` can report has its ``code`` here, with
its usual severity, any other severity it takes in a stated case, the stage that emits it
and a one-line meaning.  The codes are stable: tools may match on them.  A test runs inputs
that produce every code and compares what it sees with this table.

Severities: ``error`` — the graph is invalid, or contradicted by the data (at the stated
significance, after multiple-testing control) or by background knowledge; ``warning`` — it
differs from a given truth, or a check could not be completed as asked; ``info`` — figures
and notes.

>>> VALIDATOR_CODES["ci-violated"].severity, VALIDATOR_CODES["ci-violated"].stage
('error', 'data')
>>> sorted({c.stage for c in VALIDATOR_CODES.values()})
['background', 'coverage', 'data', 'graph', 'truth']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from causalcheck.diagnostics import Severity

__all__ = ["VALIDATOR_CODES", "FindingCode", "Stage", "codes_table"]

#: Which part of the validator emits a finding.
Stage = Literal["graph", "data", "truth", "coverage", "background"]


@dataclass(frozen=True)
class FindingCode:
    """One finding code: its usual severity, other severities in stated cases, its stage and meaning."""

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
    FindingCode("graph-invalid", "error", "graph", "the graph is not the kind its marks claim (not a DAG / CPDAG / MAG / PAG); the certificate names the rule, edge and witness"),
    FindingCode("implications-unavailable", "warning", "data", "the graph's implied independencies cannot be read (no consistent extension or representative MAG); data tests skipped"),
    FindingCode("data-rows-dropped", "info", "data", "rows with NaN were dropped (nan='drop'); the count is given"),
    FindingCode("ci-violated", "error", "data", "an implied conditional independence is rejected by the data after multiple-testing control (statement, test, statistic, p, adjusted p)"),
    FindingCode("ci-summary", "info", "data", "how many implied independencies were tested and how many were rejected"),
    FindingCode("graph-falsified", "error", "data", "the permutation test falsifies the graph: permuted graphs fit the data as well as the given one (DoWhy's falsify_graph)"),
    FindingCode("graph-not-falsified", "info", "data", "the permutation test does not falsify the graph (the figures behind the verdict are given)"),
    FindingCode("graph-not-falsifiable", "warning", "data", "too many permuted graphs imply the same independencies as the given one: the data cannot falsify it"),
    FindingCode("falsification-not-evaluable", "info", "data", "the graph implies no independence, so the permutation test cannot be evaluated"),
    FindingCode("falsification-skipped", "info", "data", "no permutation test for this kind of graph (MAG or PAG), or permutations=0"),
    FindingCode("coefficient-mismatch", "error", "data", "a stated structural coefficient is rejected by a t-test against the regression estimate (after multiple-testing control)"),
    FindingCode("coefficient-not-an-edge", "warning", "data", "a coefficient is stated for a pair that is not a directed edge of the graph"),
    FindingCode("equations-skipped", "info", "data", "structural equations are fitted on DAGs only"),
    FindingCode("truth-missing-edge", "warning", "truth", "the truth has an edge between the pair, the graph has none"),
    FindingCode("truth-extra-edge", "warning", "truth", "the graph has an edge the truth does not"),
    FindingCode("truth-mark-differs", "warning", "truth", "both have an edge on the pair, with different marks (e.g. reversed)"),
    FindingCode("truth-summary", "info", "truth", "the comparison's headline figures (SHD, F1s)"),
    FindingCode("imec-size", "info", "coverage", "the size of the interventional Markov equivalence class: exact, exact over the enumerated members, or a seeded sample estimate"),
    FindingCode("intervention-suggestion", "info", "coverage", "the next single-node intervention(s) that minimise the worst-case (and the expected) remaining class size"),
    FindingCode("coverage-skipped", "info", "coverage", "intervention coverage is defined for DAGs and CPDAGs only"),
    FindingCode("background-violated", "error", "background", "the graph breaks one background rule on its own (the edge and the rule are named)"),
    FindingCode("background-conflict", "error", "background", "no member of the graph's class satisfies these rules together: a minimal unsat core (dropping any one rule makes the rest satisfiable)"),
    FindingCode("background-unknown-node", "warning", "background", "a background rule names a node that is not in the graph"),
)

#: Every finding code the validator can report, in documentation order.
VALIDATOR_CODES: Mapping[str, FindingCode] = MappingProxyType({c.code: c for c in _CODES})


def codes_table() -> str:
    """The registry as a Markdown table (code, severity, stage, meaning).

    >>> codes_table().splitlines()[0]
    '| code | severity | stage | meaning |'
    """
    lines = ["| code | severity | stage | meaning |", "|---|---|---|---|"]
    lines += [f"| `{c.code}` | {'/'.join(c.severities)} | {c.stage} | {c.meaning} |" for c in VALIDATOR_CODES.values()]
    return "\n".join(lines)
