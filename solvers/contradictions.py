"""Contradictory edge directions.

A hypothesis contradicts itself when it asserts both ``A -> B`` and ``B -> A`` (in an
acyclic causal model at most one can hold).  It contradicts a *reference* when it asserts
``B -> A`` while the reference — e.g. the effects seen under interventions, or a known true
graph — establishes ``A -> B``.  Node names are compared in the graph's own dialect
(:attr:`~causalcheck.graphs.Graph.dialect`): exactly for a general graph, after
:func:`~causalcheck.graph.normalize_node` for CausaLab's
:class:`~causalcheck.graph.CausalGraph`; edge labels are ignored.  Only a graph in the
stated representation can hold both directions of a pair; any graph can contradict a
reference.

>>> from causalcheck.graph import CausalGraph
>>> g = CausalGraph.from_pairs([("A", "B"), ("B", "A"), ("C", "D")])
>>> [d.code for d in direction_contradictions(g, reference=[("D", "C")])]
['direction-contradiction', 'contradicts-reference']
"""

from __future__ import annotations

from collections.abc import Iterable

from causalcheck.findings import Finding, ReferenceEdge
from causalcheck.graphs.model import Graph

__all__ = ["direction_contradictions"]


def direction_contradictions(
    graph: Graph, reference: Iterable[tuple[str, str]] = ()
) -> tuple[Finding, ...]:
    """``direction-contradiction`` for each pair asserted both ways, ``contradicts-reference`` for each reversed reference edge."""
    dialect = graph.dialect.normalize
    norm = {n: dialect(n) for n in graph.nodes}  # once per node, not once per endpoint
    pairs = [(norm[e.u], norm[e.v]) for e in graph.arcs]
    present = set(pairs)
    out: list[Finding] = []
    seen: set[frozenset[str]] = set()
    for a, b in pairs:
        key = frozenset((a, b))
        if a != b and (b, a) in present and key not in seen:
            seen.add(key)
            out.append(
                Finding(
                    code="direction-contradiction",
                    message=f"the hypothesis asserts both {a} -> {b} and {b} -> {a}; at most one direction can hold",
                    severity="error",
                    elements=(f"{a} -> {b}", f"{b} -> {a}"),
                )
            )
    ref = {(dialect(str(a)), dialect(str(b))) for a, b in reference}
    for a, b in pairs:
        if (b, a) in ref and (a, b) not in ref:
            out.append(
                Finding(
                    code="contradicts-reference",
                    message=f"the hypothesis asserts {a} -> {b}, but the reference establishes {b} -> {a}",
                    severity="error",
                    elements=(f"{a} -> {b}",),
                    certificate=ReferenceEdge((b, a)),
                )
            )
    return tuple(out)
