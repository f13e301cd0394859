"""Global fit of a graph to data: Fisher's C over a basis set of the graph's implied independencies.

Shipley (2000), "A new inferential test for path models based on directed acyclic graphs"
(*Structural Equation Modeling* 7:206–218).  A DAG implies, for every pair of non-adjacent
nodes ``u``, ``v``, the independence ``u ⫫ v | Pa(u) ∪ Pa(v)`` — Shipley's *basis set* ``B_U``:
one statement per missing edge, and every other independence the graph implies follows from
them.  Each statement is tested on the data (p-value ``p_i``) and the ``k`` tests are combined by
Fisher's method::

    C = −2 Σ ln p_i,    C ~ χ²(2k) when every statement holds and the tests are independent,

so the *p-value* is ``P(χ²_2k ≥ C)``: small when the data contradict the graph as a whole.
pgmpy's ``pgmpy.metrics.FisherC`` computes the same statistic on the same basis (its p-values
clipped below at 1e-6, as ``clip`` does here) and ``RMSEA = √(max((C − 2k) / (2k(N − 1)), 0))``
beside it; this module equals it on its CI tests (Fisher-z; χ² with ``continuity="yates"``,
pgmpy's correction).

Graphs.  ``basis="auto"`` is Shipley's basis (``"shipley"``) for a DAG, and for a CPDAG / PDAG
on a consistent extension (every member implies the same independencies); for a MAG or PAG
(and a DAG with ``[latent]`` nodes, tested through its latent projection, as the validator
does) it is the pairwise basis of :func:`~causalcheck.graphchecks.separation.implied_independencies`,
``u ⫫ v | An({u, v}) \\ {u, v}`` per missing edge (``"pairwise"``, also allowed for a DAG).

What it assumes, and what it does not say:

* the ``k`` tests are independent — Shipley's basis in a DAG gives independent tests
  (each conditions on the parents); the pairwise basis of a MAG need not, so there the
  χ²(2k) reference is an approximation;
* each CI test is valid for the data (Fisher-z: linear-Gaussian; χ²/G²: enough rows per cell);
* a small p-value says the data are unlikely under the graph's independencies; a large one is
  not a proof that the graph is right (other graphs fit as well: its whole Markov equivalence
  class, at least);
* a statement the data cannot decide (:meth:`~causalcheck.graphchecks.citests.CITester.undecidable`:
  too few rows, a sparse table, collinear columns) is left out of C and of ``k`` by default
  (``undecidable="include"`` keeps its test's own p-value, as pgmpy does); with no statement
  left (a complete graph, or too little data) there is no test: ``p_value`` is ``None`` and the
  verdict ``"not evaluable"`` — too little data is never read as a refutation.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> a = rng.normal(size=500); b = a + rng.normal(size=500); c = b + rng.normal(size=500)
>>> fit = fisher_c("a -> b -> c", {"a": a, "b": b, "c": c})
>>> [str(s) for s in fit.statements], fit.dof, fit.verdict
(['a ⫫ c | b'], 2, 'fits')
>>> fisher_c("a -> b <- c", {"a": a, "b": b, "c": c}).verdict
'rejected'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.citests import CITester, chi2_survival_even
from causalcheck.graphchecks.separation import (
    CIStatement,
    implied_independencies,
    latent_projection,
    representative,
)
from causalcheck.graphs.data import load_data
from causalcheck.graphs.io import read_graph
from causalcheck.graphs.model import Graph

__all__ = ["GLOBAL_FIT_BASES", "GlobalFit", "fisher_c", "fisher_c_of", "global_fit_basis", "shipley_basis"]

#: The bases :func:`fisher_c` takes (``"auto"`` resolves to one of the others).
GLOBAL_FIT_BASES: tuple[str, ...] = ("auto", "shipley", "pairwise")
#: pgmpy's lower clip of every p-value (``ln 0`` would make C infinite).
DEFAULT_CLIP = 1e-6

Verdict = Literal["fits", "rejected", "not evaluable"]


@dataclass(frozen=True)
class GlobalFit:
    """Fisher's C of a graph on data (module docstring): the statistic, ``dof = 2k``, the p-value, the basis.

    ``statements`` / ``p_values`` are the ``k`` statements combined and their tests' p-values (before
    the clip); ``left_out`` the statements the data cannot decide, with why.  ``p_value`` is ``None``
    when ``k = 0`` (verdict ``"not evaluable"``); ``rmsea`` is pgmpy's, ``None`` then too.
    """

    statistic: float
    dof: int
    p_value: float | None
    rmsea: float | None
    alpha: float
    basis: str
    test: str
    rows: int
    clip: float
    statements: tuple[CIStatement, ...]
    p_values: tuple[float, ...]
    left_out: tuple[tuple[CIStatement, str], ...] = ()

    @property
    def verdict(self) -> Verdict:
        """``"rejected"`` when ``p_value <= alpha``, ``"fits"`` above it, ``"not evaluable"`` without statements."""
        if self.p_value is None:
            return "not evaluable"
        return "rejected" if self.p_value <= self.alpha else "fits"

    def summary(self) -> str:
        """One sentence with C, its degrees of freedom and the p-value."""
        if self.p_value is None:
            why = (
                f"the data ({self.rows} rows) cannot decide any of its {len(self.left_out)} basis statement(s)"
                if self.left_out
                else "the graph implies no testable independence (no missing edge)"
            )
            return f"Fisher's C not evaluable: {why}; no evidence for or against the graph"
        left = f"; {len(self.left_out)} undecidable statement(s) left out" if self.left_out else ""
        return (
            f"Fisher's C = {self.statistic:.4g} on {self.dof} degrees of freedom ({self.dof // 2} {self.basis}-basis "
            f"statement(s), {self.test}), p = {self.p_value:.4g}: {'the data reject the graph' if self.verdict == 'rejected' else 'no evidence against the graph'} "
            f"at {self.alpha}{left}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the sentence under ``"summary"``)."""
        return {
            "statistic": self.statistic,
            "dof": self.dof,
            "p_value": self.p_value,
            "rmsea": self.rmsea,
            "alpha": self.alpha,
            "verdict": self.verdict,
            "basis": self.basis,
            "test": self.test,
            "rows": self.rows,
            "clip": self.clip,
            "statements": [dict(s.to_dict(), p_value=p) for s, p in zip(self.statements, self.p_values, strict=True)],
            "left_out": [dict(s.to_dict(), reason=why) for s, why in self.left_out],
            "summary": self.summary(),
        }


def shipley_basis(dag: Graph) -> tuple[CIStatement, ...]:
    """Shipley's basis set of the DAG *dag*: ``u ⫫ v | Pa(u) ∪ Pa(v)`` for every non-adjacent pair.

    Pairs in node order (``u`` before ``v``), the conditioning set in node order: the statements
    pgmpy's ``FisherC`` tests.

    >>> from causalcheck.graphs.formats import parse_text
    >>> [str(s) for s in shipley_basis(parse_text("a -> b -> c; d -> c"))]
    ['a ⫫ c | b, d', 'a ⫫ d', 'b ⫫ d | a']
    """
    pos = dag.index
    names = dag.nodes
    out = []
    for i, u in enumerate(names):
        for v in names[i + 1 :]:
            if dag.has_edge(u, v):
                continue
            given = sorted({*dag.parents(u), *dag.parents(v)}, key=pos.__getitem__)
            out.append(CIStatement(u, v, tuple(given)))
    return tuple(out)


def global_fit_basis(graph: Graph, basis: str = "auto") -> tuple[str, tuple[CIStatement, ...]]:
    """``(basis name, statements)`` Fisher's C combines for *graph* (module docstring: ``auto``, ``shipley``, ``pairwise``)."""
    if basis not in GLOBAL_FIT_BASES:
        raise InputFormatError(f"basis={basis!r} must be one of {list(GLOBAL_FIT_BASES)!r}")
    rep = representative(graph)
    if basis == "auto":
        basis = "shipley" if rep.kind == "DAG" else "pairwise"
    if basis == "shipley":
        if rep.kind != "DAG":
            raise InputFormatError(f"basis='shipley' needs a DAG or a PDAG; this graph is a {graph.kind} (use 'pairwise')")
        return basis, shipley_basis(rep)
    return basis, implied_independencies(rep, "pairwise")


def fisher_c_of(
    tester: CITester,
    statements: Sequence[CIStatement],
    *,
    basis: str,
    alpha: float = 0.05,
    clip: float = DEFAULT_CLIP,
    undecidable: str = "omit",
) -> GlobalFit:
    """Fisher's C of *statements* tested by *tester* (its cache reused: a statement tested already is not re-run)."""
    if undecidable not in ("omit", "include"):
        raise InputFormatError(f"undecidable={undecidable!r} must be 'omit' or 'include'")
    if not (isinstance(clip, float | int) and 0 < clip < 1):
        raise InputFormatError(f"clip={clip!r} must be between 0 and 1")
    pos = {v: i for i, v in enumerate(tester.table.names)}
    tester.prefetch([(pos[s.x], pos[s.y], [pos[v] for v in s.given]) for s in statements])  # Fisher-z in batches
    kept: list[CIStatement] = []
    pvals: list[float] = []
    left: list[tuple[CIStatement, str]] = []
    for s in statements:
        x, y, z = pos[s.x], pos[s.y], [pos[v] for v in s.given]
        why = tester.undecidable(x, y, z)
        if why is not None and undecidable == "omit":
            left.append((s, why))
            continue
        kept.append(s)
        pvals.append(tester.raw_pvalue(x, y, z))
    k = len(kept)
    rows = tester.table.rows
    if k == 0:
        return GlobalFit(0.0, 0, None, None, alpha, basis, tester.test, rows, clip, (), (), tuple(left))
    c = -2.0 * sum(math.log(max(p, clip)) for p in pvals)
    p_value = chi2_survival_even(c, k)
    rmsea = math.sqrt(max((c - 2 * k) / (2 * k * (rows - 1)), 0.0)) if rows > 1 else None
    return GlobalFit(c, 2 * k, p_value, rmsea, alpha, basis, tester.test, rows, clip, tuple(kept), tuple(pvals), tuple(left))


def fisher_c(
    graph: Any,
    data: Any,
    *,
    ci_test: str = "auto",
    continuity: str = "none",
    basis: str = "auto",
    alpha: float = 0.05,
    clip: float = DEFAULT_CLIP,
    undecidable: str = "omit",
    data_names: Sequence[str] | None = None,
) -> GlobalFit:
    """Fisher's C of *graph* (anything :func:`~causalcheck.graphs.read_graph` reads) on *data* (module docstring).

    *data* is what :func:`~causalcheck.graphs.load_data` reads; *ci_test* and *continuity* are the
    validator's (:class:`~causalcheck.graphchecks.citests.CITester`).  A DAG with ``[latent]``
    nodes is tested through its latent projection (no column for a latent node).
    """
    if not (isinstance(alpha, float | int) and 0 < alpha < 1):
        raise InputFormatError(f"alpha={alpha!r} must be between 0 and 1")
    g = read_graph(graph)
    tested = latent_projection(g) if g.latent else g
    used, statements = global_fit_basis(tested, basis)
    table = load_data(data, tested.nodes, names=data_names)
    tester = CITester(table, ci_test, continuity=continuity)
    return fisher_c_of(tester, statements, basis=used, alpha=float(alpha), clip=clip, undecidable=undecidable)
