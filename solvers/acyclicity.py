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

The solvers read the directed part of any :class:`~causalcheck.graphs.Graph` (its
:attr:`~causalcheck.graphs.Graph.arcs`): a general graph's ``->`` edges, or every edge of a
graph in the stated representation — CausaLab's :class:`~causalcheck.graph.CausalGraph` —
where a self-loop and an edge with its reverse are cycles too.

Reference: the rank encoding is the standard one for acyclicity in SMT (e.g. Bjørner et
al., *Programming Z3*, §"unsat cores"); deletion-based core minimisation is Marques-Silva's
"linear search" MUS extraction.

>>> from causalcheck.graph import CausalGraph
>>> g = CausalGraph.from_pairs([("A", "B"), ("B", "C"), ("C", "A"), ("C", "D")])
>>> [str(e) for e in find_cycle_core(g)]
['A -> B', 'B -> C', 'C -> A']
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any, Literal

from causalcheck.findings import CycleWitness, Finding
from causalcheck.graphs.model import Edge, Graph

__all__ = ["acyclicity_diagnostics", "cycle_order", "find_cycle_core", "find_cycle_cores", "is_acyclic"]


def is_acyclic(graph: Graph) -> bool:
    """True when *graph*'s directed edges form no cycle (self-loops count as cycles); networkx only."""
    import networkx as nx

    return bool(nx.is_directed_acyclic_graph(_digraph(graph.nodes, graph.arcs)))


def _digraph(nodes: Sequence[str], arcs: Sequence[Edge]) -> Any:
    """A ``networkx.DiGraph`` of *arcs* over *nodes* (networkx imported here, lazily)."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_edges_from((e.u, e.v) for e in arcs)
    return g


def cycle_order(edges: Sequence[Edge]) -> tuple[Edge, ...]:
    """Order the edges of one cycle head-to-tail, starting at the smallest edge.

    >>> from causalcheck.graph import Edge
    >>> [str(e) for e in cycle_order([Edge("C", "A"), Edge("B", "C"), Edge("A", "B")])]
    ['A -> B', 'B -> C', 'C -> A']
    """
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
    return len(cycle_order(edges)) == len(edges)


class _Z3Ranks(threading.local):
    """Per-thread z3 state reused across calls: one context and the rank / edge-literal
    constants (created once, grown on demand).

    Each query gets a fresh solver on this context, so its answer does not depend on earlier
    queries (a solver reused through push/pop keeps its search heuristics and can return a
    different core for the same graph).  A forked child process builds its own state (the
    pid is checked).
    """

    pid: int | None = None
    ctx: Any = None
    ranks: list[Any]
    literals: list[Any]

    def reset(self) -> None:
        import z3

        self.pid = os.getpid()
        self.ctx = z3.Context()
        self.ranks = []
        self.literals = []

    def grow(self, nodes: int, edges: int) -> None:
        import z3

        while len(self.ranks) < nodes:
            self.ranks.append(z3.Int(f"rank_{len(self.ranks)}", self.ctx))
        while len(self.literals) < edges:
            self.literals.append(z3.Bool(f"edge_{len(self.literals)}", self.ctx))


_Z3 = _Z3Ranks()


def _z3_core(edges: Sequence[Edge], minimize: Literal["cycle", "deletion"] = "cycle") -> tuple[Edge, ...] | None:
    """Minimal unsat core of the rank constraints of *edges*, or ``None`` when satisfiable."""
    import z3
    from z3 import z3core

    # One integer rank per node and one Boolean literal per edge: edge_i => rank(u) < rank(v).
    # The terms are built with the C API on cached constants (the Python term builders cost
    # far more than the solver on graphs this size).
    ranks: dict[str, int] = {}
    for e in edges:
        for n in (e.u, e.v):
            ranks.setdefault(n, len(ranks))
    state = _Z3
    if state.pid != os.getpid():
        state.reset()
    state.grow(len(ranks), len(edges))
    ref = state.ctx.ref()
    # a fresh plain incremental solver (no tactic preprocessing); `solver` owns it until we return
    solver = z3.SimpleSolver(ctx=state.ctx)
    raw = solver.solver
    rank = [r.as_ast() for r in state.ranks[: len(ranks)]]
    literals = [p.as_ast() for p in state.literals[: len(edges)]]
    index = {z3core.Z3_get_ast_id(ref, p): i for i, p in enumerate(literals)}
    for p, e in zip(literals, edges, strict=True):
        # each new term is kept alive by the context until the next one is made, which is
        # what this chain relies on: lt -> implies -> asserted (the solver holds it)
        lt = z3core.Z3_mk_lt(ref, rank[ranks[e.source]], rank[ranks[e.target]])
        z3core.Z3_solver_assert(ref, raw, z3core.Z3_mk_implies(ref, p, lt))

    def unsat(subset: Sequence[int]) -> bool:
        assumptions = (z3.Ast * len(subset))(*[literals[j] for j in subset])
        return bool(z3core.Z3_solver_check_assumptions(ref, raw, len(subset), assumptions) == z3.Z3_L_FALSE)

    def core() -> list[int]:
        vector = z3.AstVector(z3core.Z3_solver_get_unsat_core(ref, raw), state.ctx)  # holds its elements
        return [index[z3core.Z3_get_ast_id(ref, z3core.Z3_ast_vector_get(ref, vector.vector, k))] for k in range(len(vector))]

    if not unsat(range(len(edges))):
        return None
    kept = sorted(core())
    if _is_simple_cycle([edges[i] for i in kept]):
        return cycle_order([edges[i] for i in kept])
    if minimize == "cycle":
        # every unsatisfiable set of rank constraints contains a directed cycle, and a simple
        # cycle is a minimal one: extract it from the (small) core's edges
        cycle = _nx_core((), [edges[i] for i in kept])
        assert cycle is not None  # an unsat core always contains a cycle
        return cycle
    # deletion-based minimisation on the same solver (assumptions only): drop an edge when the
    # rest stays unsatisfiable, and shrink to the solver's new core right away
    i = 0
    while i < len(kept):
        trial = kept[:i] + kept[i + 1 :]
        if trial and unsat(trial):
            shrunk = set(core())
            kept = [j for j in trial if j in shrunk]
        else:
            i += 1
    return cycle_order([edges[i] for i in kept])


def _cyclic_part(graph: Graph) -> tuple[Edge, ...]:
    """Edges that can lie on a cycle: self-loops and edges inside a strongly connected component."""
    return _cyclic_edges(graph.arcs)


def _cyclic_edges(edges: Sequence[Edge]) -> tuple[Edge, ...]:
    component = _components(edges)
    return tuple(e for e in edges if e.source == e.target or component[e.source] == component[e.target])


def _components(edges: Sequence[Edge]) -> dict[str, int]:
    """Strongly connected component number of every endpoint (iterative Tarjan, linear time).

    Plain dictionaries rather than a networkx graph: ``tests/benchmarks/bench_graphs.py`` measures this 2.2–3.8x faster than
    building a networkx graph for ``strongly_connected_components``, and an acyclic
    hypothesis is then checked without importing networkx (about 0.4 s).  Property-tested
    against networkx (``properties/test_solvers.py``).
    """
    succ: dict[str, list[str]] = {}
    for e in edges:
        succ.setdefault(e.source, []).append(e.target)
        succ.setdefault(e.target, [])
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    component: dict[str, int] = {}
    stack: list[str] = []
    for root in succ:
        if root in order:
            continue
        order[root] = low[root] = len(order)
        stack.append(root)
        work = [(root, iter(succ[root]))]
        while work:
            node, children = work[-1]
            for child in children:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    work.append((child, iter(succ[child])))
                    break
                if child not in component:  # on the stack
                    low[node] = min(low[node], order[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == order[node]:
                    k = len(component)
                    while True:
                        member = stack.pop()
                        component[member] = k
                        if member == node:
                            break
    return component


def _nx_core(nodes: Sequence[str], arcs: Sequence[Edge]) -> tuple[Edge, ...] | None:
    """The cycle ``networkx.find_cycle`` finds in *arcs* (the last edge stated for a pair), head to tail."""
    import networkx as nx

    try:
        cyc = nx.find_cycle(_digraph(nodes, arcs))
    except nx.NetworkXNoCycle:
        return None
    lookup = {(e.u, e.v): e for e in arcs}
    return cycle_order([lookup[(u, v)] for u, v, *_ in cyc])


def find_cycle_core(
    graph: Graph,
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
    tail, starting from the smallest edge.  Never raises on a valid :class:`~causalcheck.graphs.Graph`.
    """
    if method == "networkx":
        return _nx_core(graph.nodes, graph.arcs)
    part = _cyclic_part(graph)  # empty exactly when the graph is acyclic
    if not part:
        return None
    return _z3_core(part, minimize)


def find_cycle_cores(graph: Graph, *, limit: int = 5) -> list[tuple[Edge, ...]]:
    """Up to *limit* edge-disjoint cycles: find a core, drop its edges, repeat."""
    if limit < 1:
        raise ValueError(f"limit={limit!r} must be at least 1")
    cores: list[tuple[Edge, ...]] = []
    # the cyclic part of a cyclic part is itself, so each round recomputes it only once,
    # after dropping the previous core's edges
    part = _cyclic_part(graph)
    while len(cores) < limit and part:
        core = _z3_core(part)
        if core is None:  # pragma: no cover - a non-empty cyclic part always has a cycle
            break
        cores.append(core)
        drop = set(core)
        part = _cyclic_edges([e for e in part if e not in drop])
    return cores


def acyclicity_diagnostics(graph: Graph, *, limit: int = 5) -> tuple[Finding, ...]:
    """One ``cycle`` error per edge-disjoint cycle (at most *limit*); empty when acyclic."""
    out = []
    for core in find_cycle_cores(graph, limit=limit):
        path = " -> ".join([core[0].source, *(e.target for e in core)])
        kind = "a self-loop" if len(core) == 1 else f"a cycle of {len(core)} edges"
        out.append(
            Finding(
                code="cycle",
                message=f"the graph has {kind}: {path} (a causal graph must be acyclic; remove or reverse one of these edges)",
                severity="error",
                elements=tuple(str(Edge(e.source, e.target)) for e in core),
                certificate=CycleWitness(tuple(e.pair for e in core)),
            )
        )
    return tuple(out)
