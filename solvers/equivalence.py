"""Markov equivalence classes: CPDAGs, interventional essential graphs and exact class sizes.

Observational data cannot tell apart DAGs that share a skeleton and v-structures: they form
a *Markov equivalence class* (MEC), drawn as a CPDAG whose directed edges are common to all
members and whose undirected edges vary (Verma & Pearl 1990; Meek 1995; Chickering 1995).
Interventions shrink the class: for a family 𝓘 of intervention targets (the observational
target ∅ always included) two DAGs are *I-Markov equivalent* iff they share skeleton and
v-structures and, for every ``I`` in 𝓘, orient every edge with exactly one endpoint in ``I``
the same way (Hauser & Bühlmann 2012, "Characterization and greedy learning of
interventional Markov equivalence classes", JMLR 13).  The class is drawn as the
*I-essential graph*; its undirected part splits into chordal chain components and

    |I-MEC| = Π over chain components C of  #(acyclic orientations of C without v-structures),

each factor counted exactly by clique-picking (Wienöbst, Bannach & Liśkiewicz 2021, the
``cliquepicking`` package).  Sizes are Python ints: exact at any size.

Every function takes and returns the one graph type, :class:`~causalcheck.graphs.Graph`: a DAG
in (a general graph of kind ``"DAG"``, or CausaLab's :class:`~causalcheck.graph.CausalGraph`),
an essential graph out — a general graph of kind ``"PDAG"`` whose ``--`` edges vary across
the class (its chain components: :meth:`~causalcheck.graphs.Graph.chain_components`).
:func:`consistent_extension` is Dor & Tarsi's extension of a PDAG to a DAG; :func:`meek_closure`
closes any PDAG under Meek's rules, naming the rule behind each orientation and every conflict.  The integer
kernels (``close_essential``, ``meek_rule``, ``dor_tarsi``, ``directed_cycle``,
``chordless_cycle``, ``v_structures``, ``cyclic_remainder``) are public here for graph code
that works over ``0..n-1`` (:mod:`causalcheck.graphchecks.kinds` builds its certificates on them).

CausaLab note (causalab-spec §4.9): an agent's targets are ∅ plus each distinct single node
it intervened on; the lab's shift interventions are counted as such targets.

>>> from causalcheck.graph import CausalGraph
>>> chain = CausalGraph.from_pairs([("a", "b"), ("b", "c")])
>>> mec_size(chain), imec_size(chain, [["b"]])
(3, 1)
>>> str(cpdag(CausalGraph.from_pairs([("a", "c"), ("b", "c")]))), str(cpdag(chain))
('a -> c; b -> c', 'a -- b; b -- c')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.graphs.convert import carry_attributes
from causalcheck.graphs.io import read_graph
from causalcheck.graphs.model import Edge, Graph, GraphEdge, connected_components

from ._meek import (
    chordless_cycle,
    close_essential,
    cyclic_remainder,
    directed_cycle,
    dor_tarsi,
    enumerate_members,
    gc_paused,
    meek_orient,
    meek_rule,
    meek_witness,
    v_structures,
)

__all__ = [
    "MeekClosure",
    "MeekConflict",
    "MeekConflictError",
    "MeekStep",
    "chordless_cycle",
    "close_essential",
    "consistent_extension",
    "count_orientations",
    "cpdag",
    "cyclic_remainder",
    "directed_cycle",
    "dor_tarsi",
    "enumerate_equivalent_dags",
    "essential_graph",
    "essential_graph_size",
    "extension_or_stuck",
    "gc_paused",
    "imec_size",
    "interventional_essential_graph",
    "mec_size",
    "meek_closure",
    "meek_orient",
    "meek_rule",
    "meek_witness",
    "normalize_targets",
    "v_structures",
]


# --------------------------------------------------------------------------- inputs


def _indexed(graph: Graph) -> tuple[dict[str, int], list[tuple[int, int]]]:
    """Node positions and the edges over them; raises unless *graph* is a DAG (all ``->``, no cycle)."""
    bad = [str(e) for e in graph.edges if not e.is_directed]
    if bad:
        raise InputFormatError(f"graph={str(graph)!r} has edges that are not directed: {bad!r}; a DAG is required")
    index = dict(graph.index)
    edges = [(index[e.u], index[e.v]) for e in graph.edges]
    pairs = set(edges)
    for a, b in edges:
        if a == b:
            raise InputFormatError(f"edge {graph.nodes[a]!r} -> {graph.nodes[a]!r} is a self-loop; a DAG is required")
        if (b, a) in pairs:
            raise InputFormatError(
                f"edges {graph.nodes[a]!r} -> {graph.nodes[b]!r} and back form a cycle; a DAG is required"
            )
    remainder = cyclic_remainder(len(index), edges)
    if remainder:
        on_cycle = sorted(graph.nodes[v] for v in remainder)
        raise InputFormatError(f"graph={str(graph)!r} has a cycle through {on_cycle!r}; a DAG is required")
    return index, edges


def normalize_targets(targets: Iterable[Iterable[str]] | Iterable[str]) -> tuple[frozenset[str], ...]:
    """Targets as sorted, de-duplicated frozensets; a bare string counts as a one-node target.

    The observational target ∅ is implicit everywhere and is dropped here.

    >>> normalize_targets([["b"], "a", ("b",), []])
    (frozenset({'a'}), frozenset({'b'}))
    """
    if isinstance(targets, str):
        raise InputFormatError(f"targets={targets!r} must be a collection of node sets, not one string")
    out: set[frozenset[str]] = set()
    for t in targets:
        group = frozenset([t]) if isinstance(t, str) else frozenset(t)
        for name in group:
            if not isinstance(name, str):
                raise InputFormatError(f"target node {name!r} must be a string")
        if group:
            out.add(group)
    return tuple(sorted(out, key=lambda s: sorted(s)))


def _target_indices(
    graph: Graph, index: dict[str, int], targets: Iterable[Iterable[str]] | Iterable[str]
) -> list[frozenset[int]]:
    out = []
    for group in normalize_targets(targets):
        unknown = sorted(n for n in group if n not in index)
        if unknown:
            raise InputFormatError(
                f"intervention target(s) {unknown!r} are not nodes of the graph {list(graph.nodes)!r}"
            )
        out.append(frozenset(index[n] for n in group))
    return out


# --------------------------------------------------------------------------- graphs


def interventional_essential_graph(graph: Graph, targets: Iterable[Iterable[str]] | Iterable[str] = ()) -> Graph:
    """The I-essential graph of the DAG *graph* for targets 𝓘 = {∅} ∪ *targets*.

    Directed edges (``->``, sorted) are those every I-equivalent DAG shares; undirected edges
    (``--``, sorted, after the directed ones) are those that some members orient each way.
    The node order is *graph*'s.  Raises :class:`InputFormatError` when *graph* is not a DAG
    or a target names an unknown node.
    """
    with gc_paused():
        index, edges = _indexed(graph)
        tidx = _target_indices(graph, index, targets)
        directed, undirected = close_essential(len(index), edges, tidx)
        return carry_attributes(graph, essential_graph(graph.nodes, directed, undirected))


def essential_graph(names: tuple[str, ...], directed: Iterable[tuple[int, int]], undirected: Iterable[tuple[int, int]]) -> Graph:
    """The graph over *names* with these ``->`` and ``--`` edges over their indices (each kind sorted)."""
    edges = [GraphEdge.directed(names[a], names[b]) for a, b in sorted(directed)]
    edges += [GraphEdge.undirected(names[a], names[b]) for a, b in sorted(undirected)]
    return Graph(names, tuple(edges))


def cpdag(graph: Graph) -> Graph:
    """The CPDAG (observational essential graph) of the DAG *graph*."""
    return interventional_essential_graph(graph, ())


def _count(n: int, undirected: Iterable[tuple[int, int]]) -> int:
    """Product over chain components of clique-picking's exact count."""
    und = list(undirected)
    if not und:
        return 1
    import cliquepicking

    comp: dict[int, int] = {}
    local_index: dict[int, int] = {}
    for c, members in enumerate(connected_components(range(n), und)):
        for i, v in enumerate(members):
            comp[v], local_index[v] = c, i
    local: dict[int, list[tuple[int, int]]] = {}
    for a, b in und:
        i, j = local_index[a], local_index[b]
        lst = local.setdefault(comp[a], [])
        lst.append((i, j))
        lst.append((j, i))
    size = 1
    for comp_edges in local.values():
        size *= int(cliquepicking.mec_size(comp_edges))
    return size


def count_orientations(n: int, undirected: Iterable[tuple[int, int]]) -> int:
    """DAGs an (I-)essential graph over ``0..n-1`` with these undirected edges stands for.

    The product over its chain components of clique-picking's exact count (the components
    must be chordal, as those of :func:`close_essential`'s output are).

    >>> count_orientations(3, [(0, 1), (1, 2)]), count_orientations(4, [(0, 1), (2, 3)])
    (3, 4)
    """
    with gc_paused():
        return _count(n, undirected)


def essential_graph_size(pdag: Graph) -> int:
    """Number of DAGs represented by an (I-)essential graph: product over its chain components.

    Only meaningful for graphs produced by :func:`cpdag` / :func:`interventional_essential_graph`
    (their chain components are chordal).
    """
    with gc_paused():
        index = pdag.index
        return _count(len(index), [(index[e.u], index[e.v]) for e in pdag.edges if e.is_undirected])


def mec_size(graph: Graph) -> int:
    """Exact number of DAGs Markov equivalent to the DAG *graph* (1 for a graph without edges)."""
    return imec_size(graph, ())


def imec_size(graph: Graph, targets: Iterable[Iterable[str]] | Iterable[str] = ()) -> int:
    """Exact number of DAGs I-Markov equivalent to *graph* for 𝓘 = {∅} ∪ *targets*."""
    with gc_paused():
        index, edges = _indexed(graph)
        tidx = _target_indices(graph, index, targets)
        _, undirected = close_essential(len(index), edges, tidx)
        return _count(len(index), undirected)


def enumerate_equivalent_dags(
    graph: Graph,
    targets: Iterable[Iterable[str]] | Iterable[str] = (),
    limit: int | None = None,
) -> Iterator[Graph]:
    """Brute force: yield every DAG I-equivalent to *graph* (for tests; exponential in edges).

    At most *limit* graphs when given.  Each result is a graph of *graph*'s class with its
    node order (:meth:`~causalcheck.graphs.Graph.with_edges`).
    """
    if limit is not None and (not isinstance(limit, int) or limit < 0):
        raise InputFormatError(f"limit={limit!r} must be a non-negative integer or None")
    index, edges = _indexed(graph)
    tidx = _target_indices(graph, index, targets)
    names = graph.nodes
    for member in enumerate_members(len(index), edges, tidx, limit):
        yield graph.with_edges(Edge(names[a], names[b]) for a, b in member)


def consistent_extension(pdag: Graph) -> Graph | None:
    """A DAG with *pdag*'s skeleton, directed edges and v-structures (Dor & Tarsi 1992), or None.

    *pdag* holds ``->`` and ``--`` edges only (any other mark raises
    :class:`InputFormatError` naming the edge); the DAG keeps its node order.

    >>> from causalcheck.graphs.formats import parse_text
    >>> str(consistent_extension(parse_text("a -> b -- c")))
    'a -> b; b -> c'
    >>> consistent_extension(parse_text("a -- b -- c -- d -- a")) is None
    True
    """
    return extension_or_stuck(pdag)[0]


def extension_or_stuck(pdag: Graph) -> tuple[Graph | None, tuple[str, ...]]:
    """``(consistent extension, ())``, or ``(None, the nodes none of which can be made a sink)``.

    See :func:`consistent_extension` (this form also names the nodes that block an extension).
    """
    for e in pdag.edges:
        if not (e.is_directed or e.is_undirected):
            raise InputFormatError(f"edge {str(e)!r} cannot occur in a PDAG (allowed: -- ->)")
    index = pdag.index
    directed: list[tuple[int, int]] = []
    undirected: list[tuple[int, int]] = []
    for e in pdag.edges:
        a, b = index[e.u], index[e.v]
        if e.is_directed:
            directed.append((a, b))
        else:
            undirected.append((min(a, b), max(a, b)))
    edges, stuck = dor_tarsi(len(index), directed, undirected)
    names = pdag.nodes
    if stuck:
        return None, tuple(names[v] for v in stuck)
    return carry_attributes(pdag, Graph(names, tuple(GraphEdge.directed(names[a], names[b]) for a, b in edges))), ()


# --------------------------------------------------------------------------- Meek closure


_RULE_TEXT = {
    1: "{c} -> {a} and {c} is not adjacent to {b}",
    2: "{a} -> {c} -> {b} (the other way would close a cycle)",
    3: "{c} -- {a} -- {d} with {c} -> {b} <- {d} and {c}, {d} not adjacent",
    4: "{c} -- {a}, {c} -> {d} -> {b} and {c} not adjacent to {b}",
}


def _because(rule: int, names: tuple[str, ...], a: int, b: int, witness: tuple[int, ...]) -> str:
    c, d = (names[v] for v in (*witness, *witness)[:2])  # R1 and R2 read one node, R3 and R4 two
    return _RULE_TEXT[rule].format(a=names[a], b=names[b], c=c, d=d)


@dataclass(frozen=True)
class MeekStep:
    """One orientation made by :func:`meek_closure`: *edge* (``a -> b``), the rule (``"R1"``–``"R4"``), why.

    ``witness`` holds the nodes the rule reads (:func:`meek_witness`) and ``reason`` the sentence.
    """

    edge: GraphEdge
    rule: str
    witness: tuple[str, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"edge": str(self.edge), "rule": self.rule, "witness": list(self.witness), "reason": self.reason}


@dataclass(frozen=True)
class MeekConflict:
    """Where Meek's rules contradict each other or the PDAG: ``kind`` ``"both-ways"`` or ``"cycle"``.

    ``edges`` names the edges involved (the undirected edge oriented both ways; the edges of the
    directed cycle); ``reason`` says which rules, on which nodes.
    """

    kind: str
    edges: tuple[str, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"kind": self.kind, "edges": list(self.edges), "reason": self.reason}


@dataclass(frozen=True)
class MeekClosure:
    """The result of :func:`meek_closure`: the closed graph, each orientation with its rule, the conflicts."""

    graph: Graph
    steps: tuple[MeekStep, ...]
    conflicts: tuple[MeekConflict, ...]
    rule4: bool

    @property
    def ok(self) -> bool:
        """True when the rules met no conflict."""
        return not self.conflicts

    def rule_of(self, cause: str, effect: str) -> str | None:
        """The rule that oriented ``cause -> effect`` (None: not oriented by a rule)."""
        for step in self.steps:
            if (step.edge.u, step.edge.v) == (cause, effect):
                return step.rule
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: the closed graph as text, the steps, the conflicts."""
        return {
            "graph": str(self.graph),
            "rule4": self.rule4,
            "steps": [s.to_dict() for s in self.steps],
            "conflicts": [c.to_dict() for c in self.conflicts],
        }


class MeekConflictError(InputFormatError):
    """Meek's rules conflict on the PDAG (no DAG has its skeleton, directed edges and v-structures).

    ``conflicts`` lists every :class:`MeekConflict`; ``closure`` is the partial closure (the
    conflicting edges left undirected), what ``meek_closure(..., strict=False)`` returns.
    """

    def __init__(self, closure: MeekClosure) -> None:
        self.closure = closure
        self.conflicts = closure.conflicts
        shown = "; ".join(c.reason for c in closure.conflicts)
        super().__init__(
            f"Meek's rules conflict on the PDAG (it has no consistent extension): {shown} "
            "(pass strict=False for the partial closure with the conflicts listed)"
        )


def meek_closure(pdag: Any, *, rule4: bool = True, strict: bool = True) -> MeekClosure:
    """Orient every ``--`` edge of *pdag* that Meek's rules R1–R4 force; each orientation with its rule.

    *pdag* is anything :func:`~causalcheck.graphs.read_graph` reads, with ``->`` and ``--``
    edges only (another mark raises :class:`InputFormatError` naming the edge; so does a
    directed cycle among its stated ``->`` edges).  The rules are Meek's (1995), as in the
    module docstring of :mod:`causalcheck.solvers._meek`; ``rule4=False`` applies R1–R3 only
    (pgmpy's ``PDAG.apply_meeks_rules()`` default).  Every undirected edge is tried both ways.

    A *conflict* is an edge the rules orient both ways (typically two arrows that would meet in
    a new unshielded collider) or a directed cycle the orientations close.  With ``strict=True``
    (default) a conflict raises :class:`MeekConflictError` naming the edges; with
    ``strict=False`` the closure is returned with :attr:`MeekClosure.conflicts`, the conflicting
    edges left undirected.  The closed graph keeps *pdag*'s node order and attributes.

    >>> c = meek_closure("a -> b; b -- c; c -- d; b -- d")
    >>> str(c.graph), [(str(s.edge), s.rule) for s in c.steps]
    ('a -> b; b -> c; b -> d; c -- d', [('b -> c', 'R1'), ('b -> d', 'R1')])
    >>> meek_closure("a -> b; b -- c; d -> c", strict=False).conflicts[0].reason
    "'b -- c' is oriented both ways: 'b -> c' by R1: a -> b and a is not adjacent to c; 'c -> b' by R1: d -> c and d is not adjacent to b"
    """
    g = read_graph(pdag)
    for e in g.edges:
        if not (e.is_directed or e.is_undirected):
            raise InputFormatError(f"edge {str(e)!r} cannot occur in a PDAG (Meek's rules read -- and -> only)")
    names = g.nodes
    index = g.index
    directed = [(index[e.u], index[e.v]) for e in g.edges if e.is_directed]
    undirected = [(index[e.u], index[e.v]) for e in g.edges if e.is_undirected]
    given_cycle = directed_cycle(len(names), directed)
    if given_cycle:
        shown = " -> ".join(names[v] for v in given_cycle)
        raise InputFormatError(f"the PDAG's directed edges form a cycle {shown}: Meek's rules need an acyclic start")
    with gc_paused():
        steps, conflicted, dpa, und = meek_orient(len(names), directed, undirected, rule4)
    made = tuple(
        MeekStep(GraphEdge.directed(names[a], names[b]), f"R{rule}", tuple(names[v] for v in w), _because(rule, names, a, b, w))
        for a, b, rule, w in steps
    )
    conflicts: list[MeekConflict] = []
    for (lo, hi), pair in sorted(conflicted.items()):
        edge = f"{names[lo]} -- {names[hi]}"
        why = [f"{names[x] + ' -> ' + names[y]!r} by R{r}: {_because(r, names, x, y, w)}" for x, y, r, w in pair]
        conflicts.append(MeekConflict("both-ways", (edge,), f"{edge!r} is oriented both ways: {why[0]}; {why[1]}"))
    final_directed = sorted((a, b) for b in range(len(names)) for a in dpa[b])
    cycle = directed_cycle(len(names), final_directed)
    if cycle:
        pairs = [(names[x], names[y]) for x, y in itertools.pairwise(cycle)]
        edges = tuple(f"{a} -> {b}" for a, b in pairs)
        by_rule = {(s.edge.u, s.edge.v): s.rule for s in made}
        shown = ", ".join(f"{a} -> {b} ({by_rule.get((a, b), 'given')})" for a, b in pairs)
        conflicts.append(MeekConflict("cycle", edges, f"the orientations close a directed cycle: {shown}"))
    closed = essential_graph(names, final_directed, [(a, b) for a in range(len(names)) for b in und[a] if a < b])
    result = MeekClosure(carry_attributes(g, closed), made, tuple(conflicts), rule4)
    if strict and conflicts:
        raise MeekConflictError(result)
    return result
