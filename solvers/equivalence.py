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
:func:`consistent_extension` is Dor & Tarsi's extension of a PDAG to a DAG.  The integer
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

from collections.abc import Iterable, Iterator

from causalcheck.base.errors import InputFormatError
from causalcheck.graphs.convert import carry_attributes
from causalcheck.graphs.model import Edge, Graph, GraphEdge, connected_components

from ._meek import (
    chordless_cycle,
    close_essential,
    cyclic_remainder,
    directed_cycle,
    dor_tarsi,
    enumerate_members,
    gc_paused,
    meek_rule,
    v_structures,
)

__all__ = [
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
    "meek_rule",
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
