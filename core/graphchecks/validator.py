"""``validate_graph``: check a discovered causal graph against data, a truth, interventions and knowledge.

One call, offline, a certificate for every finding::

    result = validate_graph(pc_output, data=df, truth=true_dag, interventions=["X3"],
                            background="knowledge.txt")
    result.ok, [f.code for f in result.findings], result.to_dict()

The result is a :class:`GraphValidation`: the findings (:class:`causalcheck.findings.Finding`,
the one finding type) and every section computed; :attr:`GraphValidation.report` is the same
as the one :class:`~causalcheck.findings.Report` that :func:`causalcheck.check` returns for a
graph (its ``detail`` is this result).

What runs (each part only when its input is given):

1. **Kind** — :func:`causalcheck.graphchecks.kinds.validate` (DAG / CPDAG / MAG / PAG): a
   directed cycle is a ``cycle`` error (its edges, a
   :class:`~causalcheck.findings.CycleWitness`: the same code and certificate as the
   hypothesis checker's), any other failure a ``graph-invalid`` error with the rule, edge and
   witness.
2. **Data** (:mod:`~causalcheck.graphs.data`) — the basis of implied independencies
   (:func:`~causalcheck.graphchecks.separation.implied_independencies`) tested with causal-learn
   (:mod:`~causalcheck.graphchecks.citests`; ``ci_test="auto"`` chooses Fisher-z or χ² from the
   data and says why, ``ci-test-chosen``; χ² and G² without a continuity correction unless
   ``continuity="yates"``), adjusted by **Holm** (default; ``correction="bh"``
   for Benjamini–Hochberg), each rejection a ``ci-violated`` error; statements the data
   cannot decide (too few rows, collinear or constant within strata) are one
   ``ci-undecidable`` warning, outside the family, never an error; Fisher's C over the graph's
   basis set (:mod:`~causalcheck.graphchecks.globalfit`, the same tests reused), one ``global-fit``
   finding with C, its degrees of freedom and p (``global-fit-rejected``, a warning, at
   ``p <= alpha``; not evaluable without a decidable statement); DoWhy's permutation test
   (:mod:`~causalcheck.graphchecks.falsify`) for DAGs and CPDAGs (``falsification-undecidable``,
   a warning, when its falsified verdict counts undecidable statements); least-squares
   structural equations with their noise model and t-tests of stated coefficients
   (:mod:`~causalcheck.graphchecks.structural`) for DAGs.  A PDAG or PAG with no representative
   is tested on a DAG with its skeleton (``implications-surrogate``; rejections warnings).
   A DAG with ``[latent]`` nodes (:attr:`Graph.latent`) is tested through its latent
   projection (:func:`~causalcheck.graphchecks.separation.latent_projection`): no data column for
   a latent node, only the implications for the observed nodes.
3. **Truth** — :func:`causalcheck.graphs.compare` (truth first), one finding per pair whose
   edge differs.
4. **Interventions** — :func:`~causalcheck.graphchecks.coverage.intervention_coverage`: the
   I-MEC size (range over the members of a CPDAG) and the next intervention to run.
5. **Background** — :func:`~causalcheck.graphs.background.check_knowledge`: each broken
   rule, or minimal conflicting set (a z3 unsat core), a finding.

Every finding's ``code`` is in :data:`causalcheck.graphs.codes.VALIDATOR_CODES`, with its
severity.  ``result.ok`` is True when no finding is an error (warnings — a difference from
the truth, a graph the data cannot falsify — keep a correct graph ok).

>>> r = validate_graph("a -> b -> c", truth="a -> b <- c", interventions=[], background="forbid b -> c")
>>> [f.code for f in r.findings]
['truth-mark-differs', 'truth-summary', 'imec-size', 'intervention-suggestion', 'background-violated']
>>> print(r.findings[0].message)
the truth has 'c -> b', the graph has 'b -> c'

One module because :func:`validate_graph` assembles its four parts (data, truth, coverage,
background) into one report here, each part a thin call into its own module.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.base.codes import CODES
from causalcheck.base.errors import InputFormatError
from causalcheck.base.frames import frame, html_table
from causalcheck.base.gcpace import fewer_collections
from causalcheck.base.limits import LimitExceededError
from causalcheck.base.options import options_of, with_option_keywords
from causalcheck.findings import (
    CycleWitness,
    Dictable,
    Figures,
    Finding,
    Report,
    Severity,
    no_errors,
    plain,
)
from causalcheck.graphchecks.citests import CONTINUITY, SCALE_EXPONENT, CITester, adjust
from causalcheck.graphchecks.coverage import intervention_coverage
from causalcheck.graphchecks.falsify import falsify
from causalcheck.graphchecks.globalfit import fisher_c_of, global_fit_basis
from causalcheck.graphchecks.kinds import cpdag_of, validate
from causalcheck.graphchecks.scores import compare
from causalcheck.graphchecks.separation import (
    implied_independencies,
    latent_projection,
    local_markov_triples,
    representative,
    skeleton_dag,
)
from causalcheck.graphchecks.structural import fit_equations
from causalcheck.graphs.background import check_knowledge
from causalcheck.graphs.codes import VALIDATOR_CODES
from causalcheck.graphs.data import load_data
from causalcheck.graphs.io import read_graph

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.graphchecks.citests import TestCertificate
    from causalcheck.graphchecks.coverage import Coverage
    from causalcheck.graphchecks.falsify import Falsification
    from causalcheck.graphchecks.globalfit import GlobalFit
    from causalcheck.graphchecks.kinds import Certificate
    from causalcheck.graphchecks.scores import Comparison
    from causalcheck.graphchecks.separation import CIStatement
    from causalcheck.graphchecks.structural import EquationFit
    from causalcheck.graphs.background import KnowledgeCheck
    from causalcheck.graphs.data import DataTable
    from causalcheck.graphs.model import Graph

__all__ = [
    "CITestResult", "Finding", "GraphValidation", "IndependenceTests", "ValidationOptions", "format_report", "validate_graph",
]


def _finding(code: str, message: str, elements: Iterable[str] = (), certificate: Dictable | None = None, severity: Severity | None = None) -> Finding:
    assert code in VALIDATOR_CODES, code
    return Finding(code, severity or VALIDATOR_CODES[code].severity, message, tuple(elements), certificate)


@dataclass(frozen=True)
class CITestResult:
    """One implied independence tested: the statement, the test's certificate, the adjusted p."""

    statement: CIStatement
    test: TestCertificate
    adjusted_p: float
    correction: str
    rejected: bool
    undecidable: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (``undecidable``, the reason, only for a statement the data cannot decide)."""
        out = {
            "statement": self.statement.to_dict(),
            **self.test.to_dict(),
            "adjusted_p": self.adjusted_p,
            "correction": self.correction,
            "rejected": self.rejected,
        }
        return out | ({"undecidable": self.undecidable} if self.undecidable else {})


@dataclass(frozen=True)
class IndependenceTests:
    """Every implied independence tested, with the settings."""

    basis: str
    test: str
    correction: str
    alpha: float
    results: tuple[CITestResult, ...]
    tests_run: int

    @property
    def rejected(self) -> tuple[CITestResult, ...]:
        """The statements the data reject after correction."""
        return tuple(r for r in self.results if r.rejected)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "basis": self.basis,
            "test": self.test,
            "correction": self.correction,
            "alpha": self.alpha,
            "statements": len(self.results),
            "rejected": len(self.rejected),
            "tests_run": self.tests_run,
            "results": [r.to_dict() for r in self.results],
        }


#: The sections of :meth:`GraphValidation.to_dict`, in order.
_SECTIONS = (
    "graph", "kind", "settings", "findings", "data", "independence", "global_fit", "falsification", "equations", "comparison", "coverage",
    "background",
)


@dataclass(frozen=True)
class GraphValidation:
    """Everything :func:`validate_graph` found; every section ``None`` when its input was not given.

    ``source`` names the graph checked (its path, else ``"graph"``); :attr:`report` is the one
    report of :func:`causalcheck.check`; ``ok``, ``errors`` and ``codes()`` are its answers.
    """

    graph: Graph
    kind: Certificate
    findings: tuple[Finding, ...]
    data: DataTable | None = None
    independence: IndependenceTests | None = None
    falsification: Falsification | None = None
    equations: tuple[EquationFit, ...] = ()
    comparison: Comparison | None = None
    coverage: Coverage | None = None
    background: KnowledgeCheck | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    source: str = "graph"
    global_fit: GlobalFit | None = None

    @cached_property
    def report(self) -> Report:
        """The graph's :class:`~causalcheck.findings.Report` (kind ``"graph"``, this result as its ``detail``)."""
        return Report(self.source, self.findings, kind="graph", detail=self)

    @property
    def ok(self) -> bool:
        """True when no finding is an error (:func:`causalcheck.findings.no_errors`)."""
        return no_errors(self.findings)

    @property
    def errors(self) -> tuple[Finding, ...]:
        """The findings of severity ``error``."""
        return self.report.errors

    def codes(self) -> tuple[str, ...]:
        """Every finding's code, in order."""
        return self.report.codes()

    def to_frame(self) -> Any:
        """The findings as a ``pandas.DataFrame``: code, severity, stage, message, elements."""
        return frame(self._finding_rows(), "GraphValidation.to_frame()", ("code", "severity", "stage", "message", "elements"))

    def _finding_rows(self) -> list[dict[str, Any]]:
        return [{"code": f.code, "severity": f.severity, "stage": CODES[f.code].stage if f.code in CODES else "", "message": f.message, "elements": ", ".join(f.elements)}
                for f in self.findings]

    def _repr_html_(self) -> str:
        return html_table(self._finding_rows(), f"{self.source}: {self.graph.kind}, {len(self.findings)} finding(s)")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``ok``, then every section (:func:`causalcheck.findings.plain`; ``None`` when not computed)."""
        return {"ok": self.ok, **{name: plain(getattr(self, name)) for name in _SECTIONS}}


# --------------------------------------------------------------------------- parts


def _kind_findings(cert: Certificate) -> list[Finding]:
    """``cycle`` for a directed cycle (its edges, a :class:`~causalcheck.findings.CycleWitness`),
    ``graph-invalid`` for any other kind failure, nothing for a valid graph."""
    if cert:
        return []
    if cert.rule == "cycle":
        cycle = CycleWitness.of_nodes(cert.witness)
        return [_finding("cycle", f"not a valid {cert.claim}: {cert.reason}", (f"{a} -> {b}" for a, b in cycle.cycle), cycle)]
    elements = tuple(x for x in ((str(cert.edge) if cert.edge else ""),) if x) + cert.witness
    return [_finding("graph-invalid", f"not a valid {cert.claim}: {cert.reason}", elements, cert)]


def _statements(g: Graph, basis: str, findings: list[Finding]) -> tuple[Graph, Graph | None, tuple[CIStatement, ...]] | None:
    """The graph whose implications are tested (its representative, else a surrogate DAG on its skeleton),
    the surrogate (None when the graph has a representative), and the statements."""
    try:
        rep = representative(g)
    except InputFormatError as exc:
        reason = str(exc)
    else:
        try:
            return rep, None, implied_independencies(g, basis)  # type: ignore[arg-type]
        except InputFormatError as exc:  # a basis the graph's kind has not
            findings.append(_finding("implications-unavailable", str(exc)))
            return None
    try:
        surrogate, dropped = skeleton_dag(g)
        statements = implied_independencies(surrogate, basis)  # type: ignore[arg-type]
    except InputFormatError as exc:
        findings.append(_finding("implications-unavailable", f"{reason}; {exc}"))
        return None
    lost = f"; orientations dropped (they close a cycle): {', '.join(str(e) for e in dropped)}" if dropped else ""
    findings.append(
        _finding(
            "implications-surrogate",
            f"{reason}: tested on a DAG with its skeleton instead ({surrogate}){lost}; its rejections are warnings",
            (str(e) for e in dropped),
        )
    )
    return surrogate, surrogate, statements


def _data_notes(table: DataTable, tester: CITester, ci_test: str, findings: list[Finding]) -> None:
    """The data's own findings: rows dropped, columns encoded, the test chosen, collinear columns."""
    if table.rows_dropped:
        findings.append(_finding("data-rows-dropped", f"{table.rows_dropped} row(s) with NaN dropped; {table.rows} remain", (), table))
    for note in table.notes:
        findings.append(_finding("data-encoded", note))
    if tester.rescaled:  # one cell of 1e300 made Fisher-z's statistic NaN (a silent p = 1) before the rescale
        findings.append(
            _finding(
                "data-encoded",
                f"column(s) {list(tester.rescaled)!r} hold values of extreme magnitude (beyond 2**±"
                f"{SCALE_EXPONENT} ≈ 1e±90, where squares and products leave the float range): Fisher-z reads them rescaled by a power of two (exact: a correlation does not depend on scale)",
            )
        )
    if ci_test == "auto":
        findings.append(_finding("ci-test-chosen", f"ci_test='auto' chose {tester.test}: {tester.choice.reason}", (), tester.choice))
    if tester.collinear:
        names = list(tester.collinear)
        if names:
            findings.append(
                _finding(
                    "data-collinear",
                    f"columns {names!r} are in an exact linear dependence: Fisher-z cannot condition on them together "
                    "(those statements are undecidable)",
                    names,
                )
            )


def _independence(
    tester: CITester, statements: Sequence[CIStatement], findings: list[Finding], *, basis: str, correction: str, alpha: float, surrogate: bool
) -> IndependenceTests:
    """Every statement tested; the decidable ones adjusted as one family; rejections and undecidable ones reported."""
    pos = {v: i for i, v in enumerate(tester.table.names)}
    asked = [(pos[s.x], pos[s.y], [pos[v] for v in s.given]) for s in statements]
    tester.prefetch(asked)
    certs = [tester.certificate(x, y, z) for x, y, z in asked]
    why = [tester.undecidable(x, y, z) for x, y, z in asked]
    decided = [k for k, w in enumerate(why) if w is None]
    adjusted = dict(zip(decided, adjust([certs[k].p_value for k in decided], correction), strict=True))
    results = tuple(
        CITestResult(s, c, adjusted.get(k, 1.0), correction, k in adjusted and adjusted[k] <= alpha, why[k])
        for k, (s, c) in enumerate(zip(statements, certs, strict=True))
    )
    tests = IndependenceTests(basis, tester.test, correction, alpha, results, tester.tests_run)
    on = " (on the surrogate DAG)" if surrogate else ""
    for r in tests.rejected:
        stat = f"{r.test.statistic_name}={r.test.statistic:.3g}" + (f", dof={r.test.dof}" if r.test.dof is not None else "")
        findings.append(
            _finding(
                "ci-violated",
                f"the data reject {r.statement}{on} ({r.test.test}: {stat}, p={r.test.p_value:.3g}, "
                f"{correction}-adjusted p={r.adjusted_p:.3g} <= {alpha})",
                (str(r.statement),),
                r,
                "warning" if surrogate else None,
            )
        )
    undecided = [r for r in results if r.undecidable]
    if undecided:
        low = sum(r.test.p_value <= alpha for r in undecided)
        shown = "; ".join(f"{r.statement}: {r.undecidable}" for r in undecided[:3]) + ("; …" if len(undecided) > 3 else "")
        findings.append(
            _finding(
                "ci-undecidable",
                f"the data ({tester.table.rows} rows) cannot decide {len(undecided)} of {len(results)} implied independencies "
                f"({low} with unadjusted p <= {alpha}): neither evidence for nor against the graph, left out of the "
                f"{correction} family — {shown}",
                (str(r.statement) for r in undecided),
                Figures({"undecidable": len(undecided), "statements": len(results), "rows": tester.table.rows, "low_p": low}),
            )
        )
    figures: dict[str, Any] = {"statements": len(results), "rejected": len(tests.rejected), "test": tester.test, "correction": correction}
    if undecided:
        figures["undecidable"] = len(undecided)
    findings.append(
        _finding(
            "ci-summary",
            f"{len(results)} implied independencies ({basis} basis) tested with {tester.test}; "
            f"{len(tests.rejected)} rejected at {alpha} after {correction} correction"
            + (f"; {len(undecided)} undecidable" if undecided else ""),
            (),
            Figures(figures),
        )
    )
    return tests


def _global_fit(tested: Graph, tester: CITester, findings: list[Finding], *, alpha: float) -> GlobalFit:
    """Fisher's C over the graph's basis set (:mod:`~causalcheck.graphchecks.globalfit`), the tester's cache reused."""
    basis, statements = global_fit_basis(tested)
    fit = fisher_c_of(tester, statements, basis=basis, alpha=alpha)
    figures = {"statistic": fit.statistic, "dof": fit.dof, "p_value": fit.p_value, "basis": fit.basis, "left_out": len(fit.left_out)}
    code = "global-fit-rejected" if fit.verdict == "rejected" else "global-fit"
    findings.append(_finding(code, fit.summary(), (), Figures(figures)))
    return fit


def _falsification(
    g: Graph, rep: Graph, tester: CITester, findings: list[Finding], *, alpha: float, permutations: int | str | None, seed: int | None, exact_counts: bool
) -> Falsification | None:
    """DoWhy's permutation test on *rep*; a falsified verdict resting on undecidable statements is no refutation."""
    if permutations == 0 or rep.kind != "DAG":
        why = "permutations=0" if permutations == 0 else f"the permutation test is defined for DAGs and CPDAGs, not a {g.kind}"
        findings.append(_finding("falsification-skipped", why))
        return None
    falsification = falsify(
        rep, tester, significance_level=alpha, significance_ci=alpha, permutations=permutations, seed=seed, exact_counts=exact_counts
    )
    code = {
        "falsified": "graph-falsified",
        "not falsified": "graph-not-falsified",
        "not falsifiable": "graph-not-falsifiable",
        "not evaluable": "falsification-not-evaluable",
    }[falsification.verdict]
    note = "" if g.kind == "DAG" else " (on a consistent extension: every member implies the same)"
    distinct = len({(frozenset((x, y)), frozenset(pa)) for x, y, pa in local_markov_triples(rep)})
    if distinct != falsification.given_tests:  # the ci-summary counts distinct statements
        note += (
            f"; the {falsification.given_tests} conditions are DoWhy's count, X ⫫ Y | Pa(X) from each side of a pair: "
            f"{distinct} distinct implied independencies"
        )
    if code == "graph-not-falsifiable" and math.factorial(len(rep.nodes)) * alpha < 1:
        note += (
            f"; with {len(rep.nodes)} nodes there are only {math.factorial(len(rep.nodes))} relabellings, so at least "
            f"1/{math.factorial(len(rep.nodes))} of them are as informative as the graph itself (> alpha={alpha:g}): "
            "this test cannot falsify any graph of so few nodes; the per-statement tests above still apply"
        )
    undecided = tester.undecidable_tested()
    if code == "graph-falsified" and undecided:
        code = "falsification-undecidable"
        note += (
            f"; but {undecided} of the {tester.tests_run} statement(s) it tested cannot be decided by {tester.table.rows} rows "
            "(counted as not violated): the data cannot decide, no refutation"
        )
    findings.append(_finding(code, falsification.summary() + note, (), falsification))
    return falsification


def _equations(
    g: Graph, table: DataTable, findings: list[Finding], *, coefficients: Mapping[tuple[str, str], float] | None, correction: str, alpha: float
) -> tuple[EquationFit, ...]:
    """Least-squares structural equations of a DAG and t-tests of the stated coefficients."""
    if g.kind != "DAG":
        if coefficients:
            findings.append(_finding("equations-skipped", f"structural equations are fitted on DAGs only; the graph is a {g.kind}"))
        return ()
    stated = dict(coefficients or {})
    for (cause, effect), value in stated.items():
        if (cause, effect) not in g.directed_pairs:
            findings.append(
                _finding(
                    "coefficient-not-an-edge",
                    f"a coefficient {value!r} is stated for {cause} -> {effect}, which is not an edge of the graph",
                    (f"{cause} -> {effect}",),
                )
            )
    equations = fit_equations(g, table, stated)
    tested = [(f, c) for f in equations for c in f.coefficients if c.p_value is not None]
    adj = adjust([c.p_value for _, c in tested if c.p_value is not None], correction)
    for (f, c), a in zip(tested, adj, strict=True):
        if a <= alpha:
            findings.append(
                _finding(
                    "coefficient-mismatch",
                    f"the coefficient of {c.parent} in {f.node}'s equation is {c.estimate:.4g} ± {c.std_error:.2g}, "
                    f"not the stated {c.stated!r} (t={c.t:.3g}, dof={f.dof}, p={c.p_value:.3g}, {correction}-adjusted p={a:.3g})",
                    (f"{c.parent} -> {f.node}",),
                    Figures({**c.to_dict(), "node": f.node, "dof": f.dof, "adjusted_p": a, "correction": correction}),
                )
            )
    return equations


def _data_part(
    g: Graph, table: DataTable, findings: list[Finding], **options: Any
) -> tuple[IndependenceTests | None, Falsification | None, tuple[EquationFit, ...], CITester, GlobalFit | None]:
    """:func:`_data_tests`; what the tests refuse in the data names the file it came from."""
    try:
        return _data_tests(g, table, findings, **options)
    except InputFormatError as exc:
        if table.source != "data" and table.source not in str(exc):
            raise InputFormatError(f"{table.source}: {exc}") from None
        raise


def _data_tests(
    g: Graph,
    table: DataTable,
    findings: list[Finding],
    *,
    ci_test: str,
    continuity: str,
    alpha: float,
    correction: str,
    basis: str,
    permutations: int | str | None,
    seed: int | None,
    exact_counts: bool,
    coefficients: Mapping[tuple[str, str], float] | None,
) -> tuple[IndependenceTests | None, Falsification | None, tuple[EquationFit, ...], CITester, GlobalFit | None]:
    tester = CITester(table, ci_test, continuity=continuity)
    _data_notes(table, tester, ci_test, findings)
    found = _statements(g, basis, findings)
    if found is None:
        return None, None, (), tester, None
    rep, surrogate, statements = found
    used_basis = basis if basis != "auto" else ("local" if (surrogate or g).kind in ("DAG", "PDAG") else "pairwise")
    tests = _independence(tester, statements, findings, basis=used_basis, correction=correction, alpha=alpha, surrogate=surrogate is not None)
    fit = None if surrogate is not None else _global_fit(g, tester, findings, alpha=alpha)
    if surrogate is not None:
        findings.append(_finding("falsification-skipped", "no permutation test on a surrogate DAG (the graph has no representative)"))
        falsification = None
    else:
        falsification = _falsification(g, rep, tester, findings, alpha=alpha, permutations=permutations, seed=seed, exact_counts=exact_counts)
    equations = _equations(g, table, findings, coefficients=coefficients, correction=correction, alpha=alpha)
    return tests, falsification, equations, tester, fit


def _truth_part(g: Graph, truth: Any, findings: list[Finding], truth_format: str | None, symmetric: str | None = None) -> Comparison:
    t = read_graph(truth, truth_format, symmetric=symmetric)
    comparison = compare(t, g, nodes="union")
    findings.extend(_finding("truth-budget", str(n)) for n in comparison.notes if getattr(n, "code", "") == "truth-budget")
    ref = cpdag_of(t) if comparison.basis == "cpdag(truth)" else t
    for pair in sorted(ref.skeleton | g.skeleton, key=lambda p: sorted(p)):
        a, b = sorted(pair)
        te, ge = ref.edge(a, b), g.edge(a, b)
        if te is not None and ge is None:
            findings.append(_finding("truth-missing-edge", f"the truth has {str(te)!r}, the graph has no edge between {a!r} and {b!r}", (str(te),)))
        elif te is None and ge is not None:
            findings.append(_finding("truth-extra-edge", f"the graph has {str(ge)!r}, the truth has no edge between {a!r} and {b!r}", (str(ge),)))
        elif te is not None and ge is not None and te != ge:
            findings.append(_finding("truth-mark-differs", f"the truth has {str(te)!r}, the graph has {str(ge)!r}", (str(ge), str(te))))
    f1 = comparison.skeleton.f1
    findings.append(
        _finding(
            "truth-summary",
            f"SHD {comparison.shd} against the truth (basis {comparison.basis}); skeleton F1 "
            f"{'-' if f1 is None else f'{f1:.3f}'}",
            (),
            comparison,
        )
    )
    return comparison


def _coverage_part(g: Graph, interventions: Any, findings: list[Finding], *, suggest: int, seed: int | None) -> Coverage | None:
    targets: Any = interventions
    if isinstance(interventions, str):
        targets = [[t.strip()] for t in interventions.split(",") if t.strip()]
    try:
        cov = intervention_coverage(g, targets, suggest=suggest, seed=seed)
    except LimitExceededError as exc:  # over the compute budget even when sampled: skipped, said why
        findings.append(_finding("coverage-budget", str(exc)))
        return None
    except InputFormatError as exc:
        if g.kind in ("MAG", "PAG") or "acyclic" in str(exc) or "extension" in str(exc):
            findings.append(_finding("coverage-skipped", str(exc)))
            return None
        raise
    findings.extend(_finding("coverage-budget", str(n)) for n in cov.notes if getattr(n, "code", "") == "coverage-budget")
    i = cov.interventional
    shown = " + ".join("{" + ", ".join(t) + "}" for t in cov.targets) or "no interventions"
    if i.minimum == i.maximum and i.exact:
        size = f"{i.minimum}"
    else:
        size = f"min {i.minimum}, max {i.maximum}, mean {i.mean:.3g}"
    how = "exact" if i.exact else f"estimate over {i.samples} uniform samples (seed {i.seed})"
    members = "" if g.kind == "DAG" else f" over the {i.members} member(s) considered"
    identified = "; identified: no further intervention is needed" if i.identified else ""
    findings.append(
        _finding(
            "imec-size",
            f"with {shown}: I-MEC size {size}{members} ({how}); observational MEC size {cov.observational.class_size}{identified}",
            tuple(",".join(t) for t in cov.targets),
            cov,
        )
    )
    s = cov.suggestion
    if s is not None:
        extra = ""
        if s.best_expected_targets != s.targets:
            extra = f"; for the expected size, intervene on {', '.join(s.best_expected_targets)} (expected {s.best_expected:.3g}, worst {s.best_expected_worst})"
        findings.append(
            _finding(
                "intervention-suggestion",
                f"next intervene on {', '.join(s.targets)}: worst-case remaining class size {s.worst}, expected {s.expected:.3g} "
                f"({s.search} search over {len(s.candidates)} candidate node(s)){extra}",
                s.targets,
                s,
            )
        )
    return cov


def _background_part(g: Graph, background: Any, findings: list[Finding]) -> KnowledgeCheck:
    check = check_knowledge(g, background)
    for r in check.unknown:
        missing = [v for v in (r.a, r.b) if v not in set(g.nodes)]
        findings.append(_finding("background-unknown-node", f"the rule {r} names {missing!r}, not nodes of the graph; skipped", (str(r),), r))
    for c in check.conflicts:
        code = "background-violated" if len(c.rules) == 1 and c.reason.startswith("the graph has") else "background-conflict"
        findings.append(_finding(code, c.reason, (*c.edges, *(str(r) for r in c.rules)), c))
    return check


# --------------------------------------------------------------------------- entry point


@dataclass(frozen=True)
class ValidationOptions:
    """Every setting of :func:`validate_graph`: its name, default, check and meaning, defined once here.

    ``validate_graph(g, data=d, alpha=0.01)`` is ``validate_graph(g, data=d, options=ValidationOptions(alpha=0.01))``:
    the keywords of :func:`validate_graph` are these fields (its signature is derived from them), so
    several validations can share one value (vary it with :func:`dataclasses.replace`).  A value is
    checked when it is made: a wrong setting raises :class:`~causalcheck.base.errors.InputFormatError`
    naming it.

    Attributes:
        ci_test: ``"auto"`` (chosen from the data: :func:`~causalcheck.graphchecks.citests.choose_test`), ``"fisherz"``,
            ``"chisq"``, ``"gsq"`` or ``"kci"``.
        continuity: the continuity correction of ``chisq`` and ``gsq``: ``"none"`` (default; causal-learn's,
            pcalg's and DAGitty's statistic) or ``"yates"`` (Yates' correction of every 2×2 (sub)table, as
            scipy's ``chi2_contingency`` and pgmpy's ``chi_square`` apply it; :mod:`~causalcheck.graphchecks.citests`).
        alpha: the significance level of every test (CI tests after correction, the permutation test and
            its per-test level, coefficient t-tests, the global fit).
        correction: ``"holm"`` (default), ``"bh"`` or ``"none"``.
        basis: the implied independencies tested: ``"auto"``, ``"local"`` or ``"pairwise"`` (:mod:`~causalcheck.graphchecks.separation`).
        seed: the seed of the permutation test and of class sampling.
        permutations: the permutation test's relabellings (``None``: ``⌊1/alpha⌋``; ``0`` skips it; ``"all"``: every one).
        exact_counts: count the permutation test's exceedances exactly rather than by the bound.
        coefficients: stated structural coefficients ``{(parent, child): value}``.
        data_names: the column names of a NumPy array given as *data*.
        nan: ``"error"`` (default) refuses rows with NaN; ``"drop"`` drops them (reported).
        extra_columns: ``"error"`` (default) refuses data columns that are not nodes; ``"ignore"`` drops them.
        suggest: how many further single-node interventions to suggest (0: none).
        graph_format, truth_format: the formats of *graph* and *truth* (``None``: from the suffix or content).
        symmetric: :func:`~causalcheck.graphs.read_graph`'s reading of a pair written both ways, for *graph* and *truth*.
    """

    ci_test: str = "auto"
    continuity: str = "none"
    alpha: float = 0.05
    correction: str = "holm"
    basis: str = "auto"
    seed: int | None = 0
    permutations: int | str | None = None
    exact_counts: bool = False
    coefficients: Mapping[tuple[str, str], float] | None = None
    data_names: Sequence[str] | None = None
    nan: str = "error"
    extra_columns: str = "error"
    suggest: int = 1
    graph_format: str | None = None
    truth_format: str | None = None
    symmetric: str | None = None

    def __post_init__(self) -> None:
        alpha = self.alpha
        if isinstance(alpha, bool) or not (isinstance(alpha, float | int) and 0 < alpha < 1):
            raise InputFormatError(f"alpha={alpha!r} must be between 0 and 1")
        if self.continuity not in CONTINUITY:
            raise InputFormatError(f"continuity={self.continuity!r} must be one of {list(CONTINUITY)!r}")


@fewer_collections()  # statements, certificates and findings that live to the report: see causalcheck.base.gcpace
def validate_graph(
    graph: Any,
    *,
    data: Any = None,
    truth: Any = None,
    interventions: Any = None,
    background: Any = None,
    options: ValidationOptions | None = None,
    **keywords: Any,
) -> GraphValidation:
    """Validate *graph* (anything :func:`~causalcheck.graphs.read_graph` reads) — see the module docstring.

    Args:
        data: a pandas DataFrame, a NumPy array (with ``data_names``), a mapping column ->
            values, or a CSV path; columns must be the graph's nodes (``extra_columns="ignore"``
            drops others); ``nan="drop"`` drops rows with NaN (reported).
        truth: the true graph (any readable source); compared with :func:`compare`.
        interventions: intervention targets — a list of node names / node sets, or ``"A,B"``
            (each name one single-node target); ``[]`` reports the observational class.
        background: rules (a path, text, JSON object, causal-learn ``BackgroundKnowledge``).
        options: every setting as one :class:`ValidationOptions` value (then give no keywords).
        **keywords: the settings one by one, by name: the fields of :class:`ValidationOptions`, whose
            defaults and meanings hold for them (``alpha=0.01``, ``ci_test="kci"``, ``continuity="yates"``, ...).
    """
    o = options_of(ValidationOptions, options, keywords, what="validate_graph")
    g = read_graph(graph, o.graph_format, symmetric=o.symmetric)
    findings: list[Finding] = []
    cert = validate(g)
    findings.extend(_kind_findings(cert))
    table = independence = falsification = tester = fit = None
    equations: tuple[EquationFit, ...] = ()
    if data is not None:
        tested = latent_projection(g) if g.latent else g  # a latent node has no column: test what it implies for the others
        table = load_data(data, tested.nodes, names=o.data_names, nan=o.nan, extra_columns=o.extra_columns)  # type: ignore[arg-type]
        independence, falsification, equations, tester, fit = _data_part(
            tested, table, findings, ci_test=o.ci_test, continuity=o.continuity, alpha=float(o.alpha), correction=o.correction,
            basis=o.basis, permutations=o.permutations, seed=o.seed, exact_counts=o.exact_counts, coefficients=o.coefficients,
        )
    comparison = _truth_part(g, truth, findings, o.truth_format, o.symmetric) if truth is not None else None
    coverage = _coverage_part(g, interventions, findings, suggest=o.suggest, seed=o.seed) if interventions is not None else None
    knowledge = _background_part(g, background, findings) if background is not None else None
    settings = {
        "ci_test": independence.test if independence is not None else o.ci_test,
        "continuity": o.continuity,
        "alpha": o.alpha,
        "correction": o.correction,
        "basis": o.basis,
        "seed": o.seed,
        "permutations": falsification.permutations if falsification is not None else o.permutations,
    }
    if g.latent:
        settings["latent"] = list(g.latent)
    if tester is not None and o.ci_test == "auto":
        settings["ci_test_reason"] = tester.choice.reason
    return GraphValidation(
        graph=g,
        kind=cert,
        findings=tuple(findings),
        data=table,
        independence=independence,
        falsification=falsification,
        equations=equations,
        comparison=comparison,
        coverage=coverage,
        background=knowledge,
        settings=settings,
        source=_source(graph), global_fit=fit,
    )


with_option_keywords(validate_graph, ValidationOptions)  # the keywords derived from the options value


def _source(graph: Any) -> str:
    """The path of a graph read from a file, else ``"graph"``."""
    if isinstance(graph, Path) or (isinstance(graph, str) and "\n" not in graph and len(graph) < 4096):
        try:
            if Path(graph).is_file():
                return str(graph)
        except (OSError, ValueError):  # a name too long for the file system, a NUL byte
            pass
    return "graph"



_MARK = {"error": "error  ", "warning": "warning", "info": "info   "}


def format_report(report: GraphValidation, *, verbose: bool = True) -> str:
    """The text the command line prints: one line per finding (info lines only when *verbose*)."""
    g = report.graph
    lines = [f"graph: {len(g.nodes)} nodes, {len(g.edges)} edges, {g.kind} ({'valid' if report.kind else 'invalid'})"]
    for f in report.findings:
        if f.severity == "info" and not verbose:
            continue
        lines.append(f"{_MARK[f.severity]} {f.code}: {f.message}")
    errors = len(report.errors)
    warnings = sum(f.severity == "warning" for f in report.findings)
    lines.append(f"{errors} error(s), {warnings} warning(s)")
    return "\n".join(lines)
