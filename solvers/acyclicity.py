"""Acyclicity of a causal graph, with a minimal certificate when it fails.

A directed graph is acyclic iff its nodes can be given integer *ranks* with
``rank(u) < rank(v)`` for every edge ``u -> v`` (a topological order).  We hand exactly
these constraints to z3, one *tracked* assertion per edge.  When the graph has a cycle the
constraints are unsatisfiable and z3 returns an *unsat core*: a subset of edges whose
rank constraints already contradict each other.  A **minimal** core — one from which no
edge can be dropped — is exactly the edge set of one directed cycle (a set of rank
constraints is unsatisfiable iff its edges contain a cycle, and a cycle minus any edge is a
path).  So the core is the certificate we report: "these k edges form a cycle".

Only edges inside a strongly connected component can lie on a cycle, so those are the ones
given to z3.  z3's core is not guaranteed minimal.  Because every unsatisfiable set of rank
constraints contains a directed cycle, and a simple cycle is itself a minimal unsatisfiable
set, :func:`find_cycle_core` minimises the core by extracting a simple cycle from its edges
(linear time on the small core); ``minimize="deletion"`` instead removes edges one at a time
while the rest stays unsatisfiable (deletion-based minimisation with assumption literals on
one incremental solver).  Both guarantee minimality; the property tests check it.  When only a verdict is needed,
:func:`is_acyclic` uses networkx (linear time, no solver).

Reference: the rank encoding is the standard one for acyclicity in SMT (e.g. Bjørner et
al., *Programming Z3*, §"unsat cores"); deletion-based core minimisation is Marques-Silva's
"linear search" MUS extraction.

>>> from causalcheck.graph import CausalGraph
>>> g = CausalGraph.from_pairs([("A", "B"), ("B", "C"), ("C", "A"), ("C", "D")])
>>> [str(e) for e in find_cycle_core(g)]
['A -> B', 'B -> C', 'C -> A']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from causalcheck.diagnostics import Diagnostic
from causalcheck.graph import CausalGraph, Edge

__all__ = ["acyclicity_diagnostics", "find_cycle_core", "find_cycle_cores", "is_acyclic"]


def is_acyclic(graph: CausalGraph) -> bool:
    """True when *graph* has no directed cycle (self-loops count as cycles); networkx only."""
    import networkx as nx

    return bool(nx.is_directed_acyclic_graph(graph.to_networkx()))


def _cycle_order(edges: Sequence[Edge]) -> tuple[Edge, ...]:
    """Order the edges of one cycle head-to-tail, starting at the smallest edge."""
    by_source = {e.source: e for e in edges}
    start = min(edges)
    out = [start]
    cur = by_source.get(start.target)
    while cur is not None and cur != start and len(out) < len(edges):
        out.append(cur)
        cur = by_source.get(cur.target)
    return tuple(out)


def _is_simple_cycle(edges: Sequence[Edge]) -> bool:
    if not edges:
        return False
    sources = [e.source for e in edges]
    targets = [e.target for e in edges]
    if len(set(sources)) != len(edges) or set(sources) != set(targets):
        return False
    return len(_cycle_order(edges)) == len(edges)


def _z3_core(edges: Sequence[Edge], minimize: Literal["cycle", "deletion"] = "cycle") -> tuple[Edge, ...] | None:
    """Minimal unsat core of the rank constraints of *edges*, or ``None`` when satisfiable."""
    import z3

    # One integer rank per node and one Boolean literal per edge: edge_i => rank(u) < rank(v).
    # The constraints are handed over as SMT-LIB text, which is several times faster than
    # building them term by term through the Python API.
    ranks: dict[str, int] = {}
    for e in edges:
        for n in e.pair:
            ranks.setdefault(n, len(ranks))
    smt = [f"(declare-const rank_{i} Int)" for i in range(len(ranks))]
    smt += [f"(declare-const edge_{i} Bool)" for i in range(len(edges))]
    smt += [
        f"(assert (=> edge_{i} (< rank_{ranks[e.source]} rank_{ranks[e.target]})))" for i, e in enumerate(edges)
    ]
    solver = z3.SimpleSolver()  # plain incremental solver: no tactic preprocessing per call
    solver.from_string("\n".join(smt))
    literals = [z3.Bool(f"edge_{i}") for i in range(len(edges))]
    index = {str(p): i for i, p in enumerate(literals)}
    if solver.check(*literals) != z3.unsat:
        return None
    kept = sorted(index[str(p)] for p in solver.unsat_core())
    if _is_simple_cycle([edges[i] for i in kept]):
        return _cycle_order([edges[i] for i in kept])
    if minimize == "cycle":
        # every unsatisfiable set of rank constraints contains a directed cycle, and a simple
        # cycle is a minimal one: extract it from the (small) core's edges
        sub = CausalGraph((), tuple(edges[i] for i in kept))
        cycle = _nx_core(sub)
        assert cycle is not None  # an unsat core always contains a cycle
        return cycle
    # deletion-based minimisation on the same solver (assumptions only): drop an edge when the
    # rest stays unsatisfiable, and shrink to the solver's new core right away
    i = 0
    while i < len(kept):
        trial = kept[:i] + kept[i + 1 :]
        if trial and solver.check(*[literals[j] for j in trial]) == z3.unsat:
            core = {index[str(p)] for p in solver.unsat_core()}
            kept = [j for j in trial if j in core]
        else:
            i += 1
    return _cycle_order([edges[i] for i in kept])


def _cyclic_part(graph: CausalGraph) -> tuple[Edge, ...]:
    """Edges that can lie on a cycle: self-loops and edges inside a strongly connected component."""
    import networkx as nx

    component: dict[str, int] = {}
    for k, nodes in enumerate(nx.strongly_connected_components(graph.to_networkx())):
        for n in nodes:
            component[n] = k
    return tuple(e for e in graph.edges if e.source == e.target or component[e.source] == component[e.target])


def _nx_core(graph: CausalGraph) -> tuple[Edge, ...] | None:
    import networkx as nx

    g = graph.to_networkx()
    try:
        cyc = nx.find_cycle(g)
    except nx.NetworkXNoCycle:
        return None
    lookup = {e.pair: e for e in graph.edges}
    return _cycle_order([lookup[(u, v)] for u, v, *_ in cyc])


def find_cycle_core(
    graph: CausalGraph,
    *,
    method: Literal["z3", "networkx"] = "z3",
    minimize: Literal["cycle", "deletion"] = "cycle",
) -> tuple[Edge, ...] | None:
    """The edges of one directed cycle of *graph* (a minimal unsat core), or ``None`` if acyclic.

    ``method="z3"`` (default) extracts the core from the rank constraints as described in
    the module docstring, minimised by extracting a simple cycle from the core's edges
    (``minimize="cycle"``) or by deletion-based minimisation with the solver
    (``minimize="deletion"``; the same guarantee, more solver calls); ``method="networkx"`` returns the cycle ``networkx.find_cycle``
    finds (same guarantee, used as the benchmark baseline).  The edges are returned head to
    tail, starting from the smallest edge.  Never raises on a valid :class:`CausalGraph`.
    """
    if method == "networkx":
        return _nx_core(graph)
    part = _cyclic_part(graph)  # empty exactly when the graph is acyclic
    if not part:
        return None
    return _z3_core(part, minimize)


def find_cycle_cores(graph: CausalGraph, *, limit: int = 5) -> list[tuple[Edge, ...]]:
    """Up to *limit* edge-disjoint cycles: find a core, drop its edges, repeat."""
    if limit < 1:
        raise ValueError(f"limit={limit!r} must be at least 1")
    cores: list[tuple[Edge, ...]] = []
    g = CausalGraph((), _cyclic_part(graph))
    while len(cores) < limit and g.edges:
        core = find_cycle_core(g)
        if core is None:
            break
        cores.append(core)
        drop = set(core)
        g = g.with_edges(e for e in g.edges if e not in drop)
    return cores


def acyclicity_diagnostics(graph: CausalGraph, *, limit: int = 5) -> tuple[Diagnostic, ...]:
    """One ``cycle`` error per edge-disjoint cycle (at most *limit*); empty when acyclic."""
    out = []
    for core in find_cycle_cores(graph, limit=limit):
        path = " -> ".join([core[0].source, *(e.target for e in core)])
        kind = "a self-loop" if len(core) == 1 else f"a cycle of {len(core)} edges"
        out.append(
            Diagnostic(
                code="cycle",
                message=f"the graph has {kind}: {path} (a causal graph must be acyclic; remove or reverse one of these edges)",
                severity="error",
                elements=tuple(str(Edge(e.source, e.target)) for e in core),
                data={"cycle": [list(e.pair) for e in core]},
            )
        )
    return tuple(out)
