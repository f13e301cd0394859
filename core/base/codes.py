"""Every finding code causalcheck reports, in one registry: code → severity, stage and meaning.

The hypothesis checker (:mod:`causalcheck.checking`: stages ``hypothesis``, ``record``,
``trajectory``, ``folder``), the graph validator (:func:`causalcheck.graphs.validate_graph`: stages
``graph``, ``data``, ``truth``, ``coverage``, ``background``) and the lab's evidence audit
(:mod:`causalcheck.lab.audit`: stage ``audit``) report findings with a stable ``code``; every
one of them is listed here with the severity it is reported with, the other severities it
takes in a stated case, the stage that emits it and a one-line meaning.  Tools may match on
the codes.  Tests run inputs that produce every code and compare what they see with this
table, so a finding cannot be added without documenting it here
(:class:`causalcheck.findings.Finding` refuses an unregistered code or severity).

One concept has one code in every stage: a directed cycle is ``cycle`` in a hypothesis, in an
explanation graph and in a graph given to the validator (whose other kind failures are
``graph-invalid``).  ``cycle`` *refines* ``graph-invalid`` (a cyclic graph is not a valid
DAG): ``Finding.is_a("graph-invalid")`` and ``Report.having("graph-invalid")`` match it too,
so filters written for the validator's earlier ``graph-invalid`` cycles keep finding them.

>>> CODES["cycle"].severity, CODES["ci-violated"].stage, CODES["fabricated-entry"].stage
('error', 'data', 'audit')
>>> sorted({c.stage for c in CODES.values()})[:3]
['audit', 'background', 'coverage']
>>> CODES["cycle"].stages, CODES["cycle"].refines
(('hypothesis', 'graph'), ('graph-invalid',))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

__all__ = [
    "AUDIT_STAGES", "CHECK_STAGES", "CODES", "VALIDATOR_STAGES", "FindingCode", "Severity", "Stage", "codes_in", "codes_table",
]

#: How serious a finding is: ``error`` (wrong, inconsistent, contradicted: a report with one is
#: not ok), ``warning`` (suspicious, undetermined, or a check not completed), ``info`` (figures, notes).
Severity = Literal["error", "warning", "info"]
#: Where a finding comes from.
Stage = Literal["hypothesis", "record", "trajectory", "folder", "graph", "data", "truth", "coverage", "background", "audit"]
#: The stages of ``causalcheck check`` on hypotheses, records, trajectories and folders.
CHECK_STAGES: tuple[Stage, ...] = ("hypothesis", "record", "trajectory", "folder")
#: The stages of the graph validator.
VALIDATOR_STAGES: tuple[Stage, ...] = ("graph", "data", "truth", "coverage", "background")
#: The stage of the lab's evidence audit.
AUDIT_STAGES: tuple[Stage, ...] = ("audit",)


@dataclass(frozen=True)
class FindingCode:
    """One finding code: its usual severity, other severities in stated cases, its stage and meaning.

    ``also_in``: further stages that emit it; ``refines``: broader codes it is a case of (a
    filter on those matches it too, :meth:`causalcheck.findings.Finding.is_a`).
    """

    code: str
    severity: Severity
    stage: Stage
    meaning: str
    also: tuple[Severity, ...] = ()
    also_in: tuple[Stage, ...] = ()
    refines: tuple[str, ...] = ()

    @property
    def severities(self) -> tuple[Severity, ...]:
        """Every severity the code can be reported with (the usual one first)."""
        return (self.severity, *self.also)

    @property
    def stages(self) -> tuple[Stage, ...]:
        """Every stage that emits the code (its own stage first)."""
        return (self.stage, *self.also_in)


_CODES = (
    # ---- causalcheck check: hypotheses, records, trajectories
    FindingCode(
        "cycle", "error", "hypothesis",
        "the edges of one directed cycle (a hypothesis: a minimal core, one finding per edge-disjoint cycle; a graph: the cycle "
        "that makes it no DAG); refines ``graph-invalid``",
        also_in=("graph",), refines=("graph-invalid",),
    ),
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
    FindingCode("input-unreadable", "error", "folder", "a file of a checked folder could not be read (the reason is given)"),
    FindingCode("input-skipped", "info", "folder", "a file of a checked folder holds nothing to check (the reason is given)"),
    # ---- the graph validator
    FindingCode("graph-invalid", "error", "graph", "the graph is not the kind its marks claim (not a DAG / CPDAG / MAG / PAG) for another reason than a directed cycle (that is ``cycle``); the certificate names the rule, edge and witness"),
    FindingCode("implications-unavailable", "warning", "data", "the graph's implied independencies cannot be read in the basis asked for (basis='local' on a MAG or PAG); data tests skipped"),
    FindingCode("implications-surrogate", "warning", "data", "the graph has no consistent extension or representative MAG; its data tests ran on a DAG with its skeleton (named, with the orientations dropped), whose rejections are warnings"),
    FindingCode("data-rows-dropped", "info", "data", "rows with NaN were dropped (nan='drop'); the count is given"),
    FindingCode("data-encoded", "info", "data", "how the data were read: categorical columns (text, category, bool) encoded as level codes, an unnamed index column ignored"),
    FindingCode("ci-test-chosen", "info", "data", "which CI test ci_test='auto' chose and why (column kinds, levels, rows)"),
    FindingCode("data-collinear", "warning", "data", "columns in an exact linear dependence (named): Fisher-z cannot condition on them together; those statements are undecidable"),
    FindingCode("ci-undecidable", "warning", "data", "implied independencies the data cannot decide (too few rows per statement or per degree of freedom, collinear or constant within strata): neither evidence for nor against the graph"),
    FindingCode("ci-violated", "error", "data", "an implied conditional independence is rejected by the data after multiple-testing control (statement, test, statistic, p, adjusted p); a warning when tested on a surrogate DAG", ("warning",)),
    FindingCode("ci-summary", "info", "data", "how many implied independencies were tested and how many were rejected"),
    FindingCode("global-fit", "info", "data", "Fisher's C over the graph's basis set of implied independencies: C, degrees of freedom 2k, p-value; or not evaluable (no statement the data can decide)"),
    FindingCode("global-fit-rejected", "warning", "data", "Fisher's C rejects the graph as a whole at alpha (an omnibus of the basis-set tests that assumes them independent)"),
    FindingCode("graph-falsified", "error", "data", "the permutation test falsifies the graph: permuted graphs fit the data as well as the given one (DoWhy's falsify_graph)"),
    FindingCode("falsification-undecidable", "warning", "data", "the permutation test would falsify the graph, but some of the statements it counts cannot be decided by the data: no refutation"),
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
    FindingCode("intervention-suggestion", "info", "coverage", "the next single-node intervention(s) that minimise the worst-case (and the expected) remaining class size; none when the targets already identify the graph (I-MEC size 1)"),
    FindingCode("coverage-skipped", "info", "coverage", "intervention coverage is defined for DAGs and CPDAGs only"),
    FindingCode("coverage-budget", "warning", "coverage", "the I-MEC figures or the suggestion were sampled, scored over part of the members or skipped: the cost estimate is over COVERAGE_COST_BUDGET (named with how to raise it)"),
    FindingCode("truth-budget", "warning", "truth", "SID/AID were not computed: the cost estimate is over COMPARE_COST_BUDGET (named with how to raise it); SHD and the confusion figures are"),
    FindingCode("background-violated", "error", "background", "the graph breaks one background rule on its own (the edge and the rule are named)"),
    FindingCode("background-conflict", "error", "background", "no member of the graph's class satisfies these rules together: a minimal unsat core (dropping any one rule makes the rest satisfiable)"),
    FindingCode("background-unknown-node", "warning", "background", "a background rule names a node that is not in the graph"),
    # ---- the lab's evidence audit (causalcheck lab score)
    FindingCode("fabricated-entry", "error", "audit", "a past_data entry matches no state the environment showed, or was written before its state was shown and disagrees with it"),
    FindingCode("altered-entry", "error", "audit", "a shown state copied with a changed value"),
    FindingCode("prefilled-entry", "warning", "audit", "a right entry written before the environment showed it"),
    FindingCode("intervention-never-made", "error", "audit", "an entry records an intervention the environment never executed"),
    FindingCode("hypothesis-contradicts-evidence", "error", "audit", "the final equation misses the agent's own entries by more than the audit tolerance"),
    FindingCode("hypothesis-undetermined", "info", "audit", "the final coefficients hold non-numeric values: the equation was not checked"),
    FindingCode("solver-check-failed", "info", "audit", "the exact data check of the final record could not run (the reason is given)"),
    FindingCode("premature-stop", "warning", "audit", "the episode failed with interventions or submissions left"),
    FindingCode("budget-unused", "info", "audit", "the episode succeeded with budget left"),
)

#: Every finding code, in documentation order.
CODES: Mapping[str, FindingCode] = MappingProxyType({c.code: c for c in _CODES})


def codes_in(stages: Iterable[Stage]) -> Mapping[str, FindingCode]:
    """The codes emitted by *stages* (e.g. :data:`CHECK_STAGES`), in documentation order."""
    wanted = set(stages)
    return MappingProxyType({k: c for k, c in CODES.items() if wanted & set(c.stages)})


def codes_table(stages: Iterable[Stage] | None = None, *, style: Literal["markdown", "rst"] = "markdown") -> str:
    """The registry (or the codes of *stages*) as a Markdown or reStructuredText table.

    >>> codes_table(CHECK_STAGES).splitlines()[0]
    '| code | severity | stage | meaning |'
    """
    codes = CODES if stages is None else codes_in(stages)
    if style == "markdown":
        lines = ["| code | severity | stage | meaning |", "|---|---|---|---|"]
        lines += [f"| `{c.code}` | {'/'.join(c.severities)} | {'/'.join(c.stages)} | {c.meaning} |" for c in codes.values()]
        return "\n".join(lines)
    rows = [(f"``{c.code}``", "/".join(c.severities), c.meaning) for c in codes.values()]
    widths = [max(len(r[i]) for r in [("code", "severity", "meaning"), *rows]) for i in range(3)]
    rule = "  ".join("=" * w for w in widths)
    out = [rule, "  ".join(h.ljust(w) for h, w in zip(("code", "severity", "meaning"), widths, strict=True)), rule]
    out += ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    out.append(rule)
    return "\n".join(out)
