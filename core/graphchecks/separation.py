"""d-separation, m-separation and the independencies a graph implies.

A path between ``x`` and ``y`` is *m-connecting* given a set ``Z`` when every non-collider on
it is outside ``Z`` and every collider (a node with an arrowhead on both of its path edges,
``*-> v <-*``) is in ``Z`` or an ancestor of ``Z``.  ``x`` and ``y`` are *m-separated* by ``Z``
when no path is m-connecting.  On a DAG this is d-separation (Pearl 1988); on a maximal
ancestral graph it is Richardson & Spirtes' (2002) m-separation, with ``--`` and ``<->``
edges; ancestors are taken along ``->`` edges.  :class:`Separator` answers by one
breadth-first search over *(node, arrowhead at node?)* states from ``x`` (linear in the
graph), which finds every node m-connected to ``x`` at once.

Equivalence classes.  All members of a Markov equivalence class imply the same separations,
so a CPDAG (or any PDAG with a consistent extension) is answered on a consistent extension
(Dor & Tarsi), and a PAG on a representative MAG (Zhang 2008, Thm. 2: ``o->`` becomes
``->``, the ``o-o`` part is oriented into a DAG without unshielded colliders; a circle
opposite a tail, ``o--``, is read as a tail).  :func:`representative` returns that graph.

Testable implications (a *basis*: the graph's other independencies follow from these by the
graphoid axioms).  ``basis="local"`` — the local Markov conditions of a DAG, each node
independent of its non-descendants given its parents, written pairwise ``X ⫫ Y | Pa(X)``
for every non-descendant ``Y`` that is not a parent (the parental triples of DoWhy's
``falsify_graph``).  ``basis="pairwise"`` — for every non-adjacent pair,
``X ⫫ Y | An({X, Y}) \\ {X, Y}``: the pairwise Markov property of maximal ancestral graphs
(Sadeghi & Lauritzen 2014), valid for DAGs too.  ``"auto"`` (default) is ``local`` for DAGs
and PDAGs and ``pairwise`` for MAGs and PAGs.

Queries.  :func:`find_minimal_separator` and :func:`is_minimal_separator` find and check a
minimal separator between two node sets (van der Zander, Liśkiewicz & Textor 2019; networkx's
``find_minimal_d_separator``, DAGitty's ``findMinimalSeparator``), on DAGs, MAGs and acyclic
directed mixed graphs (:func:`query_graph`); :func:`list_minimal_separators` lists them all
(Kloks & Kratsch 1998) for :mod:`~causalcheck.graphchecks.adjustment`; :func:`markov_blanket`
gives the nodes joined to a node by a collider path (Richardson 2003).

>>> from causalcheck.graphs.formats import parse_text
>>> g = parse_text("a -> b -> c; d -> c")
>>> m_separated(g, "a", "c", ["b"]), m_separated(g, "a", "d", ["c"])
(True, False)
>>> [str(s) for s in implied_independencies(g)]
['a ⫫ c | b, d', 'a ⫫ d', 'b ⫫ d', 'b ⫫ d | a']
>>> [str(s) for s in implied_independencies(parse_text("a <-> b <-> c"))]
['a ⫫ c']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from causalcheck.base.errors import InputFormatError, did_you_mean
from causalcheck.graphchecks.kinds import check_dag, check_mag, consistent_extension
from causalcheck.graphs.convert import carry_attributes
from causalcheck.graphs.model import Graph, GraphEdge, Mark, depth_first, reachable
from causalcheck.solvers.equivalence import dor_tarsi

__all__ = [
    "Basis",
    "CIStatement",
    "MarkovBlanket",
    "MinimalSeparator",
    "Separator",
    "augmented_graph",
    "connected_to",
    "find_minimal_separator",
    "implied_independencies",
    "is_minimal_separator",
    "latent_projection",
    "list_minimal_separators",
    "local_markov_triples",
    "m_separated",
    "markov_blanket",
    "query_graph",
    "representative",
    "skeleton_dag",
]

Basis = Literal["auto", "local", "pairwise"]


@dataclass(frozen=True, order=True)
class CIStatement:
    """The statement ``x ⫫ y | given``: ``x`` before ``y`` and ``given`` in the graph's node order."""

    x: str
    y: str
    given: tuple[str, ...] = ()

    def __str__(self) -> str:
        head = f"{self.x} ⫫ {self.y}"
        return f"{head} | {', '.join(self.given)}" if self.given else head

    def to_dict(self) -> dict[str, object]:
        """``{"x", "y", "given": [...], "text"}``."""
        return {"x": self.x, "y": self.y, "given": list(self.given), "text": str(self)}


def representative(graph: Graph) -> Graph:
    """A DAG or MAG with the separations of *graph*'s class (see the module docstring).

    DAGs and MAGs are returned as they are; a PDAG gives a consistent extension, a PAG a
    representative MAG.  Raises :class:`InputFormatError` when there is none.
    """
    kind = graph.kind
    if kind == "DAG":
        cert = check_dag(graph)
        if not cert:
            raise InputFormatError(f"the graph implies no independencies: {cert.reason}")
        return graph
    if kind == "PDAG":
        ext = consistent_extension(graph)
        if ext is None:
            raise InputFormatError(
                "the PDAG has no consistent extension (Dor & Tarsi), so it implies no independencies"
            )
        return ext
    if kind == "MAG":
        cert = check_mag(graph)
        if not cert:
            raise InputFormatError(f"the graph is not a MAG, so m-separation is not defined on it: {cert.reason}")
        return graph
    mag = carry_attributes(graph, _pag_representative(graph))
    cert = check_mag(mag)
    if not cert:
        raise InputFormatError(f"the PAG has no representative MAG by Zhang's construction: {cert.reason}")
    return mag


def _pag_representative(graph: Graph) -> Graph:
    names = graph.nodes
    pos = graph.index
    edges: list[GraphEdge] = []
    circle: list[tuple[int, int]] = []
    for e in graph.edges:
        if e.mark_u is Mark.CIRCLE and e.mark_v is Mark.CIRCLE:
            circle.append((pos[e.u], pos[e.v]))
        elif e.mark_u is Mark.CIRCLE:  # o-> or o--: the circle becomes a tail
            edges.append(GraphEdge(e.u, e.v, Mark.TAIL, e.mark_v))
        else:
            edges.append(e)
    if circle:
        oriented, stuck = dor_tarsi(len(names), [], circle)
        if stuck:
            raise InputFormatError(
                f"the o-o edges among {[names[v] for v in stuck]!r} cannot be oriented without an unshielded collider"
            )
        edges += [GraphEdge.directed(names[a], names[b]) for a, b in oriented]
    return Graph(names, tuple(edges))


class Separator:
    """Repeated m-separation queries on one DAG or MAG, over node indices ``0..n-1``.

    ``connected(x, given)`` is the set of nodes m-connected to ``x`` given ``given``
    (``x`` and the nodes of ``given`` themselves excluded).
    """

    def __init__(self, graph: Graph) -> None:
        names, idx = graph.indexed()
        n = len(names)
        self.names = names
        self.index = dict(graph.index)
        # incident[v] = [(w, mark at v, mark at w)]; parents along -> edges
        self.incident: list[list[tuple[int, bool, bool]]] = [[] for _ in range(n)]
        self.parents: list[list[int]] = [[] for _ in range(n)]
        for i, j, mi, mj in idx:
            ai, aj = mi is Mark.ARROW, mj is Mark.ARROW
            self.incident[i].append((j, ai, aj))
            self.incident[j].append((i, aj, ai))
            if mi is Mark.TAIL and mj is Mark.ARROW:
                self.parents[j].append(i)
            elif mj is Mark.TAIL and mi is Mark.ARROW:
                self.parents[i].append(j)
        # a walk search answers for paths unless a node has a -- edge and an arrowhead (not ancestral): there a
        # walk may pass a node twice (d -> x -- a -- x <-> c) where no path does, and paths are searched instead
        undirected = {v for v in range(n) for _, at_v, at_w in self.incident[v] if not (at_v or at_w)}
        self.walks_are_paths = not any(at_v for v in undirected for _, at_v, _ in self.incident[v])

    def ancestors_of(self, nodes: Iterable[int]) -> set[int]:
        """*nodes* and every node with a directed path into them."""
        return set(reachable(nodes, self.parents.__getitem__))

    def connected(self, x: int, given: Iterable[int]) -> set[int]:
        """Nodes with an m-connecting path to *x* given *given*."""
        z = set(given)
        an = self.ancestors_of(z)
        if not self.walks_are_paths:
            return self._connected_by_paths(x, z, an)
        incident = self.incident
        seen: set[tuple[int, bool]] = set()
        queue: deque[tuple[int, bool]] = deque()
        for w, _, at_w in incident[x]:
            state = (w, at_w)
            if state not in seen:
                seen.add(state)
                queue.append(state)
        reached: set[int] = set()
        while queue:
            v, arrow_in = queue.popleft()
            reached.add(v)
            in_z = v in z
            in_an = v in an
            for w, at_v, at_w in incident[v]:
                if arrow_in and at_v:  # collider at v
                    if not in_an:
                        continue
                elif in_z:
                    continue
                state = (w, at_w)
                if state not in seen:
                    seen.add(state)
                    queue.append(state)
        reached.discard(x)
        reached -= z
        return reached

    def _connected_by_paths(self, x: int, z: set[int], an: set[int]) -> set[int]:
        """:meth:`connected` by a depth-first search over simple paths (exponential in the worst case)."""
        incident = self.incident
        on_path = [False] * len(incident)
        on_path[x] = True
        reached: set[int] = set()
        stack = [(x, False, iter(incident[x]))]
        while stack:
            v, arrow_in, edges = stack[-1]
            step = next(edges, None)
            if step is None:
                stack.pop()
                on_path[v] = False
                continue
            w, at_v, at_w = step
            if on_path[w]:
                continue
            if v != x and ((v not in an) if arrow_in and at_v else (v in z)):
                continue  # a collider outside An(given), or a non-collider in given
            reached.add(w)
            on_path[w] = True
            stack.append((w, at_w, iter(incident[w])))
        reached.discard(x)
        return reached - z

    def separated(self, x: int, y: int, given: Iterable[int]) -> bool:
        """True when *x* and *y* are m-separated by *given*."""
        return y not in self.connected(x, given)


def _indices(sep: Separator, names: Iterable[str], what: str) -> list[int]:
    out = []
    for n in names:
        if n not in sep.index:
            raise InputFormatError(f"{what} node={n!r} is not in the graph {list(sep.names)!r}")
        out.append(sep.index[n])
    return out


def connected_to(graph: Graph, x: str, given: Iterable[str] = ()) -> frozenset[str]:
    """Nodes m-connected to *x* given *given* in *graph* (any mixed graph; a PDAG or PAG through :func:`representative`)."""
    sep = Separator(query_graph(graph))
    (xi,) = _indices(sep, [x], "x")
    return frozenset(sep.names[v] for v in sep.connected(xi, _indices(sep, given, "given")))


def m_separated(graph: Graph, x: str, y: str, given: Iterable[str] = ()) -> bool:
    """True when *given* m-separates (d-separates, on a DAG) *x* and *y* in *graph*'s class.

    Any graph of ``->``, ``<->`` and ``--`` edges is read as it is (the path criterion of the
    module docstring: a node is a collider when both its path edges have an arrowhead at it, so
    a ``--`` end never makes one), whether or not it is ancestral or maximal, as DAGitty reads a
    mixed graph; a PDAG or PAG is answered on its :func:`representative`.  Raises
    :class:`InputFormatError` for an unknown node, *x* / *y* in *given*, or a directed cycle.
    """
    sep = Separator(query_graph(graph))
    xi, yi = _indices(sep, [x, y], "x/y")
    zi = _indices(sep, given, "given")
    if xi == yi or xi in zi or yi in zi:
        raise InputFormatError(f"x={x!r}, y={y!r} must differ and not be in given={list(given)!r}")
    return sep.separated(xi, yi, zi)


def latent_projection(dag: Graph, latent: Iterable[str] | None = None) -> Graph:
    """The MAG over the observed nodes of *dag* when its *latent* nodes (default :attr:`Graph.latent`) are unobserved.

    Two observed nodes ``a``, ``b`` are adjacent when no set of observed nodes d-separates
    them in *dag*; it suffices to try their observed ancestors ``An({a, b}) ∩ O \\ {a, b}``
    (Richardson & Spirtes 2002, §4.2: there is an inducing path relative to the latents
    exactly when that set fails).  The edge is ``a -> b`` when ``a`` is an ancestor of ``b``
    and ``a <-> b`` when neither is an ancestor of the other.  Its m-separations are *dag*'s
    d-separations among the observed nodes, so its implications are what data on the
    observed nodes can test.  Observed nodes keep their attributes.  Raises
    :class:`InputFormatError` for a latent node the graph does not have, or a graph that is
    not a DAG.

    >>> from causalcheck.graphs.formats import parse_dagitty
    >>> str(latent_projection(parse_dagitty("dag { u [latent] x -> y  u -> x  u -> y  u -> z }")))
    'x -> y; x <-> z; y <-> z'
    """
    hidden = set(dag.latent if latent is None else latent)
    unknown = sorted(hidden - set(dag.nodes))
    if unknown:
        raise InputFormatError(f"latent nodes {unknown!r} are not in the graph {list(dag.nodes)!r}")
    if not hidden:
        return dag
    cert = check_dag(dag)
    if dag.kind != "DAG" or not cert:
        why = cert.reason if dag.kind == "DAG" else f"the graph is a {dag.kind}"
        raise InputFormatError(
            f"latent nodes {sorted(hidden)!r}: the latent projection is defined here for DAGs only ({why}); "
            "testing only the observed implications of this graph is not supported"
        )
    sep = Separator(dag)
    observed = [n for n in dag.nodes if n not in hidden]
    obs = {sep.index[n] for n in observed}
    ancestors = {sep.index[n]: sep.ancestors_of([sep.index[n]]) for n in observed}
    edges: list[GraphEdge] = []
    for k, a in enumerate(observed):
        i = sep.index[a]
        for b in observed[k + 1 :]:
            j = sep.index[b]
            given = ((ancestors[i] | ancestors[j]) & obs) - {i, j}
            if sep.separated(i, j, given):
                continue
            if i in ancestors[j]:
                edges.append(GraphEdge.directed(a, b))
            elif j in ancestors[i]:
                edges.append(GraphEdge.directed(b, a))
            else:
                edges.append(GraphEdge(a, b, Mark.ARROW, Mark.ARROW))
    mag = Graph(tuple(observed), tuple(edges), {k: v for k, v in dag.meta.items() if k != "attributes"})
    kept = {n: a for n, a in dag.attributes.items() if n not in hidden}
    return mag.with_attributes(kept) if kept else mag


def _local_indexed(dag: Graph) -> list[tuple[int, list[int], tuple[int, ...]]]:
    """For every node index: (node, its non-descendant non-parents, its parents), indices sorted."""
    names, idx = dag.indexed()
    n = len(names)
    children: list[list[int]] = [[] for _ in range(n)]
    parents: list[list[int]] = [[] for _ in range(n)]
    for i, j, _, _ in idx:
        children[i].append(j)
        parents[j].append(i)
    indeg = [len(p) for p in parents]
    order = [v for v in range(n) if indeg[v] == 0]
    for v in order:  # Kahn: order grows while it is walked
        for w in children[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                order.append(w)
    below = [0] * n  # bitset of descendants
    for v in reversed(order):
        bits = 0
        for w in children[v]:
            bits |= below[w] | (1 << w)
        below[v] = bits
    out = []
    for v in range(n):
        pa = tuple(sorted(parents[v]))
        skip = below[v] | (1 << v)
        for p in pa:
            skip |= 1 << p
        out.append((v, [w for w in range(n) if not skip >> w & 1], pa))
    return out


def local_markov_triples(dag: Graph) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """DoWhy's parental triples ``(X, Y, Pa(X))``: every ``Y`` a non-descendant, non-parent of ``X``.

    In node order; a pair of roots appears twice (once from each side), as DoWhy counts it.

    >>> from causalcheck.graphs.formats import parse_text
    >>> local_markov_triples(parse_text("a -> b; c"))
    (('a', 'c', ()), ('b', 'c', ('a',)), ('c', 'a', ()), ('c', 'b', ()))
    """
    names = dag.nodes
    return tuple(
        (names[v], names[w], tuple(names[p] for p in pa)) for v, others, pa in _local_indexed(dag) for w in others
    )


def _statement(a: str, b: str, given: Sequence[str], pos: dict[str, int]) -> CIStatement:
    x, y = sorted((a, b), key=pos.__getitem__)
    return CIStatement(x, y, tuple(sorted(given, key=pos.__getitem__)))


def skeleton_dag(graph: Graph) -> tuple[Graph, tuple[GraphEdge, ...]]:
    """A DAG on *graph*'s skeleton for a graph with no representative (an invalid CPDAG or PAG).

    Its stated orientations (``->``, and ``o->`` read as ``->``) are kept, in edge order, unless
    one would close a directed cycle with those kept before; the other edges (undirected,
    bidirected, circles, the orientations dropped) follow a topological order of the kept ones
    (ties by node order).  Returns the DAG and the dropped orientations.  It may add
    v-structures the graph does not state: its implications are a surrogate, not the graph's own.
    """
    nodes = graph.nodes
    children: dict[str, set[str]] = {v: set() for v in nodes}
    dropped: list[GraphEdge] = []
    for e in graph.edges:
        if e.mark_v is Mark.ARROW and e.mark_u in (Mark.TAIL, Mark.CIRCLE):
            u, v = e.u, e.v
        elif e.mark_u is Mark.ARROW and e.mark_v in (Mark.TAIL, Mark.CIRCLE):
            u, v = e.v, e.u
        else:
            continue
        if u in reachable([v], lambda w: children[w]):
            dropped.append(e)
        else:
            children[u].add(v)
    indegree = {v: 0 for v in nodes}
    for u in nodes:
        for v in children[u]:
            indegree[v] += 1
    rank: dict[str, int] = {}
    ready = [v for v in nodes if indegree[v] == 0]
    while ready:
        u = min(ready, key=nodes.index)
        ready.remove(u)
        rank[u] = len(rank)
        for v in children[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                ready.append(v)
    edges = [GraphEdge.directed(*sorted((e.u, e.v), key=rank.__getitem__)) for e in graph.edges]
    return carry_attributes(graph, Graph.from_edges(edges, nodes)), tuple(dropped)


def implied_independencies(graph: Graph, basis: Basis = "auto") -> tuple[CIStatement, ...]:
    """A basis of the independencies *graph* implies (see the module docstring), without repeats.

    Sorted by the position of ``x``, then ``y``, then the conditioning set.  Raises
    :class:`InputFormatError` when the graph has no representative (see :func:`representative`).
    """
    if basis not in ("auto", "local", "pairwise"):
        raise InputFormatError(f"basis={basis!r} must be 'auto', 'local' or 'pairwise'")
    rep = representative(graph)
    pos = dict(rep.index)
    if basis == "auto":
        basis = "local" if graph.kind in ("DAG", "PDAG") else "pairwise"
    found: set[CIStatement] = set()
    if basis == "local":
        if rep.kind != "DAG":
            raise InputFormatError(f"basis='local' needs a DAG or a PDAG; this graph is a {graph.kind} (use 'pairwise')")
        names = rep.nodes
        keys: set[tuple[int, int, tuple[int, ...]]] = set()
        for v, others, pa in _local_indexed(rep):
            for w in others:
                keys.add((v, w, pa) if v < w else (w, v, pa))
        return tuple(CIStatement(names[a], names[b], tuple(names[p] for p in pa)) for a, b, pa in sorted(keys))
    else:
        sep = Separator(rep)
        names = rep.nodes
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                if rep.has_edge(a, b):
                    continue
                an = sep.ancestors_of([pos[a], pos[b]]) - {pos[a], pos[b]}
                found.add(_statement(a, b, [names[v] for v in an], pos))

    def key(s: CIStatement) -> tuple[int, int, tuple[int, ...]]:
        return (pos[s.x], pos[s.y], tuple(pos[g] for g in s.given))

    return tuple(sorted(found, key=key))


# --------------------------------------------------------------------------- separators and blankets
#
# Minimal separators (Tian, Paz & Pearl 1998; van der Zander, Liśkiewicz & Textor 2019).  When a
# set Z lies within the ancestors An(X ∪ Y ∪ I) of the two sides and of the nodes I it must
# include, m-separation by Z is vertex separation in the *augmented graph* of that ancestral set
# (Lauritzen's moral graph for a DAG; for a mixed graph two nodes are also joined when a collider
# path connects them: every pair among a district and its parents).  A separator that exists
# within R exists within R ∩ An(X ∪ Y ∪ I), and a minimal one lies there.


def query_graph(graph: Graph) -> Graph:
    """The graph separation queries run on: a DAG, MAG or acyclic directed mixed graph as it is, a PDAG
    or PAG as its :func:`representative`.  Raises :class:`InputFormatError` for a directed cycle."""
    if graph.kind in ("PDAG", "PAG"):
        return representative(graph)
    names, idx = graph.indexed()
    successors: list[list[int]] = [[] for _ in names]
    for i, j, mi, mj in idx:
        if mi is Mark.TAIL and mj is Mark.ARROW:
            successors[i].append(j)
    _, cycle = depth_first(successors)
    if cycle:
        raise InputFormatError(f"the graph has the directed cycle {' -> '.join(names[v] for v in cycle)}; separation is not defined on it")
    return graph


def node_set(graph: Graph, nodes: str | Iterable[str], what: str) -> tuple[str, ...]:
    """*nodes* (one name or several) checked against *graph*, in the graph's node order, without repeats."""
    given = [nodes] if isinstance(nodes, str) else list(nodes)
    for n in given:
        if not isinstance(n, str) or n not in graph.index:
            raise InputFormatError(f"{what} node {n!r} is not in the graph{did_you_mean(str(n), graph.nodes)}")
    pos = graph.index
    return tuple(sorted(set(given), key=pos.__getitem__))


def augmented_graph(sep: Separator, within: Iterable[int]) -> list[set[int]]:
    """Adjacency sets of the augmented graph of *sep*'s graph restricted to *within* (an ancestral set).

    Two nodes of *within* are adjacent when an edge or a collider path inside *within* joins them:
    the edges, and every pair of a district (``<->``-connected nodes) together with its parents.
    """
    inside = set(within)
    adj: list[set[int]] = [set() for _ in sep.names]
    for v in inside:
        for w, _, _ in sep.incident[v]:
            if w in inside:
                adj[v].add(w)
    seen: set[int] = set()
    for v in sorted(inside):
        if v in seen:
            continue
        seen.add(v)
        district, stack = [v], [v]
        while stack:
            a = stack.pop()
            for w, at_a, at_w in sep.incident[a]:
                if at_a and at_w and w in inside and w not in seen:
                    seen.add(w)
                    district.append(w)
                    stack.append(w)
        members = set(district) | {p for d in district for p in sep.parents[d] if p in inside}
        if len(members) > 1:
            for a in members:
                adj[a] |= members - {a}
    return adj


def _reach(adj: Sequence[set[int]], start: Iterable[int], stop: set[int]) -> set[int]:
    """Nodes reached from *start* in *adj*; a node of *stop* is reached but not passed through."""
    first = set(start)
    seen = set(first)
    stack = list(first)
    while stack:
        v = stack.pop()
        if v in stop and v not in first:
            continue
        for w in adj[v]:
            if w not in seen:
                seen.add(w)
                stack.append(w)
    return seen


@dataclass(frozen=True)
class MinimalSeparator:
    """A minimal m-separator (d-separator on a DAG) of ``x`` and ``y`` that contains ``included``.

    ``nodes`` is the separator in the graph's node order, or None when no set within the allowed
    nodes separates ``x`` and ``y``.
    """

    x: tuple[str, ...]
    y: tuple[str, ...]
    nodes: tuple[str, ...] | None
    included: tuple[str, ...] = ()

    @property
    def found(self) -> bool:
        """True when a separator exists."""
        return self.nodes is not None

    def to_dict(self) -> dict[str, object]:
        """``{"x", "y", "included", "separator": [...] or null}``."""
        return {"x": list(self.x), "y": list(self.y), "included": list(self.included),
                "separator": None if self.nodes is None else list(self.nodes)}  # fmt: skip


def _separator_setup(
    graph: Graph, x: str | Iterable[str], y: str | Iterable[str], included: Iterable[str], restricted: Iterable[str] | None
) -> tuple[Separator, tuple[str, ...], tuple[str, ...], set[int], set[int], set[int], set[int]]:
    xs, ys = node_set(graph, x, "x"), node_set(graph, y, "y")
    inc = node_set(graph, included, "included")
    res = graph.nodes if restricted is None else node_set(graph, restricted, "restricted")
    if not xs or not ys:
        raise InputFormatError(f"x={list(xs)!r} and y={list(ys)!r} must each name at least one node")
    both = set(xs) & set(ys)
    if both:
        raise InputFormatError(f"x and y must be disjoint; both contain {sorted(both)!r}")
    clash = set(inc) & (set(xs) | set(ys))
    if clash:
        raise InputFormatError(f"included={list(inc)!r} must not contain a node of x or y ({sorted(clash)!r})")
    outside = set(inc) - set(res)
    if outside:
        raise InputFormatError(f"included={list(inc)!r} must be a subset of restricted; {sorted(outside)!r} is not in it")
    sep = Separator(query_graph(graph))
    ix = {sep.index[n] for n in xs}
    iy = {sep.index[n] for n in ys}
    return sep, xs, ys, ix, iy, {sep.index[n] for n in inc}, {sep.index[n] for n in res}


def find_minimal_separator(
    graph: Graph,
    x: str | Iterable[str],
    y: str | Iterable[str],
    *,
    included: Iterable[str] = (),
    restricted: Iterable[str] | None = None,
) -> MinimalSeparator:
    """A minimal set ``Z`` with ``included ⊆ Z ⊆ restricted`` that m-separates *x* and *y* (d-separates, on a DAG).

    Minimal: no proper subset of ``Z`` that still contains *included* separates.  The algorithm
    of van der Zander, Liśkiewicz & Textor (2019), as networkx's ``find_minimal_d_separator`` and
    DAGitty's ``findMinimalSeparator``: from ``R ∩ An(x ∪ y ∪ included)``, keep the nodes the
    augmented graph reaches from *x*, then those of them it reaches from *y*.  Works on DAGs,
    MAGs and acyclic directed mixed graphs, and on a PDAG or PAG through :func:`representative`
    (a whole Markov equivalence class implies the same separations).  ``nodes`` is None when no
    set within *restricted* separates.

    >>> from causalcheck.graphs.formats import parse_text
    >>> g = parse_text("a -> b -> c; a -> d -> c")
    >>> find_minimal_separator(g, "a", "c").nodes
    ('b', 'd')
    >>> find_minimal_separator(g, "a", "c", restricted=["b"]).nodes is None
    True
    """
    sep, xs, ys, ix, iy, inc, res = _separator_setup(graph, x, y, included, restricted)
    incl_names = tuple(sep.names[v] for v in sorted(inc))
    ancestral = sep.ancestors_of(ix | iy | inc)
    adj = augmented_graph(sep, ancestral)
    start = (res & ancestral) - ix - iy
    if _reach(adj, ix, start) & iy:
        return MinimalSeparator(xs, ys, None, incl_names)
    near_x = (start & _reach(adj, ix, start)) | inc
    found = (near_x & _reach(adj, iy, near_x)) | inc
    return MinimalSeparator(xs, ys, tuple(sep.names[v] for v in sorted(found)), incl_names)


def is_minimal_separator(
    graph: Graph,
    x: str | Iterable[str],
    y: str | Iterable[str],
    z: Iterable[str],
    *,
    included: Iterable[str] = (),
    restricted: Iterable[str] | None = None,
) -> bool:
    """True when *z* m-separates *x* and *y*, ``included ⊆ z ⊆ restricted``, and no proper subset of *z*
    containing *included* separates (networkx's ``is_minimal_d_separator``, DAGitty's ``isMinimalSeparator``).

    >>> from causalcheck.graphs.formats import parse_text
    >>> g = parse_text("a -> b -> c; a -> d -> c")
    >>> is_minimal_separator(g, "a", "c", ["b", "d"]), is_minimal_separator(g, "a", "c", ["b"])
    (True, False)
    """
    sep, _, _, ix, iy, inc, res = _separator_setup(graph, x, y, included, restricted)
    zs = {sep.index[n] for n in node_set(graph, z, "z")}
    if zs & (ix | iy):
        raise InputFormatError(f"z={sorted(sep.names[v] for v in zs)!r} must not contain a node of x or y")
    if not inc <= zs or not zs <= res:
        return False
    if any(sep.connected(v, zs) & iy for v in ix):
        return False
    ancestral = sep.ancestors_of(ix | iy | inc)
    if not zs <= ancestral:
        return False  # its part within the ancestors separates too
    adj = augmented_graph(sep, ancestral)
    near_x, near_y = _reach(adj, ix, zs), _reach(adj, iy, zs)
    return all(v in near_x and v in near_y for v in zs - inc)


def list_minimal_separators(
    adj: Sequence[set[int]], sources: set[int], targets: set[int], allowed: set[int], limit: int | None = None
) -> tuple[list[frozenset[int]], bool]:
    """Every minimal vertex separator of *sources* and *targets* in the undirected graph *adj* made of
    nodes of *allowed* (the other nodes can never separate), and whether *limit* cut the list short.

    Kloks & Kratsch's enumeration (1998), as DAGitty's ``listMinimalSeparators``: start from the
    separator closest to *sources*, and from each separator ``Z`` and each ``z`` in it move to the
    separator closest to *targets* around the sources' side of ``Z`` grown by ``z``.  Nodes that
    may not separate are absorbed into the side that reaches them.
    """

    def close(side: set[int]) -> set[int] | None:
        comp, stack = set(side), list(side)
        while stack:
            v = stack.pop()
            for w in adj[v]:
                if w in comp:
                    continue
                if w in targets:
                    return None
                if w in allowed:
                    continue
                comp.add(w)
                stack.append(w)
        return comp

    def towards_targets(side: set[int]) -> frozenset[int]:
        border = {w for v in side for w in adj[v]} - side
        beyond = _reach(adj, targets, border) - border
        return frozenset(z for z in border if adj[z] & beyond)

    first = close(set(sources))
    if first is None:
        return [], False
    queue = [towards_targets(first)]
    seen = set(queue)
    out: list[frozenset[int]] = []
    while queue:
        z = queue.pop(0)
        out.append(z)
        if limit is not None and len(out) > limit:
            return out[:limit], True
        side = _reach(adj, sources, set(z)) - set(z)
        for v in sorted(z):
            grown = close(side | {v})
            if grown is None:
                continue
            nxt = towards_targets(grown)
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return out, False


BlanketRule = Literal["collider", "directed"]


@dataclass(frozen=True)
class MarkovBlanket:
    """The Markov blanket of ``of``: the nodes that make ``of`` independent of all the others.

    ``rule="collider"``: every node joined to ``of`` by a collider path (on a DAG: parents,
    children and the children's other parents; on a mixed graph also the districts and their
    parents, Richardson 2003).  ``rule="directed"``: parents, children and the children's
    parents along ``->`` edges only (DAGitty's ``markovBlanket``).  ``nodes`` in graph order.
    """

    of: tuple[str, ...]
    nodes: tuple[str, ...]
    rule: BlanketRule = "collider"

    def to_dict(self) -> dict[str, object]:
        """``{"of": [...], "blanket": [...], "rule"}``."""
        return {"of": list(self.of), "blanket": list(self.nodes), "rule": self.rule}


def markov_blanket(graph: Graph, nodes: str | Iterable[str], *, rule: BlanketRule = "collider") -> MarkovBlanket:
    """The Markov blanket of *nodes* (one node or a set; the set's members left out), see :class:`MarkovBlanket`.

    On a DAG both rules give pgmpy's ``get_markov_blanket`` and DAGitty's ``markovBlanket``.  A
    PDAG or PAG is answered on its :func:`representative` (every member of a Markov equivalence
    class has the same blanket).

    >>> from causalcheck.graphs.formats import parse_text
    >>> markov_blanket(parse_text("a -> b <- c; b -> d; e <-> d"), "a").nodes
    ('b', 'c')
    >>> markov_blanket(parse_text("a -> b <- c; b -> d; e <-> d"), "b").nodes
    ('a', 'c', 'd', 'e')
    >>> markov_blanket(parse_text("a -> b <- c; b -> d; e <-> d"), "b", rule="directed").nodes
    ('a', 'c', 'd')
    """
    if rule not in ("collider", "directed"):
        raise InputFormatError(f"rule={rule!r} must be 'collider' or 'directed'")
    of = node_set(graph, nodes, "blanket")
    sep = Separator(query_graph(graph))
    start = {sep.index[n] for n in of}
    found: set[int] = set()
    if rule == "directed":
        children: list[list[int]] = [[] for _ in sep.names]
        for v, ps in enumerate(sep.parents):
            for p in ps:
                children[p].append(v)
        for v in start:
            found.update(sep.parents[v])
            for c in children[v]:
                found.add(c)
                found.update(sep.parents[c])
    else:
        states: set[tuple[int, bool]] = set()
        stack: list[int] = []
        for v in start:
            for w, _, at_w in sep.incident[v]:
                found.add(w)
                if at_w and (w, True) not in states:
                    states.add((w, True))
                    stack.append(w)
        while stack:  # w was entered with an arrowhead: go on through edges with an arrowhead at w
            w = stack.pop()
            for u, at_w, at_u in sep.incident[w]:
                if not at_w:
                    continue
                found.add(u)
                if at_u and (u, True) not in states:
                    states.add((u, True))
                    stack.append(u)
    found -= start
    pos = graph.index
    return MarkovBlanket(of, tuple(sorted((sep.names[v] for v in found), key=pos.__getitem__)), rule)
