"""Causal graphs with named nodes and directed, optionally typed edges.

Edges are ``(cause, effect)`` pairs everywhere in causalcheck.  This module is also the one
tested boundary where a graph becomes a matrix or a third-party object:

* :meth:`CausalGraph.to_adjacency` — ``A[i, j] == 1`` iff ``order[i] -> order[j]``
  (row = cause, column = effect), the convention of ``networkx.to_numpy_array``;
* :meth:`CausalGraph.to_networkx` — a ``networkx.DiGraph`` with an ``label`` edge attribute;
* :meth:`CausalGraph.to_causallearn` — causal-learn's endpoint matrix ``G`` where
  ``G[j, i] == 1 and G[i, j] == -1`` means ``i -> j`` (causal-learn's own convention, see
  ``causallearn.graph.GeneralGraph``).

The frequency node of CausaLab answers to several spellings; :func:`normalize_node` maps
all of them onto ``resonanceFreq`` exactly as the official scorer does (causalab-spec §4.1).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from causalcheck.errors import InputFormatError
from causalcheck.graphs.model import Graph, GraphEdge, reachable

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx
    import numpy as np

__all__ = ["FREQ", "CausalGraph", "Edge", "is_freq_alias", "normalize_node"]

#: Canonical name of the CausaLab target node.
FREQ = "resonanceFreq"
_FREQ_ALIASES = frozenset({"freq", "resonancefreq", "frequency", "resonancefrequency"})
_STRIP = re.compile(r"[\s_\-]+")


# Both are pure functions of a string that run for every node name of every record, edge and
# step, so they are memoised here, once (bounded; the cached function pickles by name).
@functools.lru_cache(maxsize=16384)
def is_freq_alias(name: str) -> bool:
    """True when *name* is one of the spellings the official scorer accepts for the frequency (memoised)."""
    return _STRIP.sub("", name.strip()).lower() in _FREQ_ALIASES


@functools.lru_cache(maxsize=16384)
def normalize_node(name: str) -> str:
    """Trim *name* and map every frequency alias to :data:`FREQ`; other names keep their case (memoised).

    >>> normalize_node(" Resonance_Freq "), normalize_node("density")
    ('resonanceFreq', 'density')
    """
    trimmed = name.strip()
    return FREQ if is_freq_alias(trimmed) else trimmed


@dataclass(frozen=True, order=True)
class Edge:
    """A directed edge ``source -> target`` with an optional relation label (e.g. ``CAUSE``)."""

    source: str
    target: str
    label: str | None = None

    @property
    def pair(self) -> tuple[str, str]:
        """The unlabelled ``(cause, effect)`` pair."""
        return (self.source, self.target)

    def reversed(self) -> Edge:
        """The same edge pointing the other way."""
        return Edge(self.target, self.source, self.label)

    def __str__(self) -> str:
        suffix = f" : {self.label}" if self.label else ""
        return f"{self.source} -> {self.target}{suffix}"


def _dedupe(items: Iterable[str]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return tuple(seen)


@dataclass(frozen=True)
class CausalGraph:
    """A directed graph over named nodes.

    ``nodes`` keeps first-seen order (endpoints of edges are added automatically); ``edges``
    keeps the given order with exact duplicates removed.  The graph is *not* required to be
    acyclic: checking that is the job of :mod:`causalcheck.solvers`.
    """

    nodes: tuple[str, ...] = ()
    edges: tuple[Edge, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        for name in self.nodes:
            if not isinstance(name, str) or not name:
                raise InputFormatError(f"node name {name!r} must be a non-empty string")
        for e in self.edges:
            if not isinstance(e, Edge):
                raise InputFormatError(f"edge {e!r} must be an Edge")
        nodes = _dedupe([*self.nodes, *(n for e in self.edges for n in e.pair)])
        object.__setattr__(self, "nodes", nodes)
        edges: dict[Edge, None] = {}
        for e in self.edges:
            edges.setdefault(e, None)
        object.__setattr__(self, "edges", tuple(edges))

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_pairs(
        cls,
        pairs: Iterable[tuple[str, str] | tuple[str, str, str | None]],
        nodes: Iterable[str] = (),
        *,
        normalize: bool = False,
    ) -> CausalGraph:
        """Build a graph from ``(cause, effect)`` or ``(cause, effect, label)`` tuples."""
        edges = []
        for p in pairs:
            if len(p) not in (2, 3):
                raise InputFormatError(f"edge {p!r} must be (cause, effect) or (cause, effect, label)")
            src, dst = str(p[0]), str(p[1])
            label = p[2] if len(p) == 3 else None
            if normalize:
                src, dst = normalize_node(src), normalize_node(dst)
            edges.append(Edge(src, dst, label))
        node_list = [normalize_node(n) if normalize else n for n in nodes]
        return cls(tuple(node_list), tuple(edges))

    @classmethod
    def from_adjacency(cls, matrix: Any, order: Sequence[str]) -> CausalGraph:
        """Inverse of :meth:`to_adjacency`: ``matrix[i][j] != 0`` means ``order[i] -> order[j]``."""
        n = len(order)
        rows = [list(r) for r in matrix]
        if len(rows) != n or any(len(r) != n for r in rows):
            raise InputFormatError(f"adjacency matrix must be {n}x{n} to match order={list(order)!r}")
        pairs = [(order[i], order[j]) for i in range(n) for j in range(n) if rows[i][j]]
        return cls.from_pairs(pairs, order)

    @classmethod
    def from_networkx(cls, g: nx.DiGraph) -> CausalGraph:
        """Build from a ``networkx.DiGraph``; the ``label`` edge attribute becomes the edge label."""
        return cls(
            tuple(str(n) for n in g.nodes),
            tuple(Edge(str(u), str(v), d.get("label")) for u, v, d in g.edges(data=True)),
        )

    # ------------------------------------------------------------------ views
    @property
    def pairs(self) -> frozenset[tuple[str, str]]:
        """The set of unlabelled ``(cause, effect)`` pairs."""
        return frozenset(e.pair for e in self.edges)

    def __iter__(self) -> Iterator[Edge]:
        return iter(self.edges)

    def __len__(self) -> int:
        return len(self.edges)

    def parents(self, node: str) -> tuple[str, ...]:
        """Direct causes of *node*, in edge order."""
        return _dedupe(e.source for e in self.edges if e.target == node)

    def children(self, node: str) -> tuple[str, ...]:
        """Direct effects of *node*, in edge order."""
        return _dedupe(e.target for e in self.edges if e.source == node)

    def roots(self) -> tuple[str, ...]:
        """Nodes without parents, in node order."""
        has_parent = {e.target for e in self.edges}
        return tuple(n for n in self.nodes if n not in has_parent)

    def ancestors(self, node: str) -> frozenset[str]:
        """Every node with a directed path to *node* (not including *node* unless on a cycle)."""
        parents: dict[str, list[str]] = {}
        for e in self.edges:
            parents.setdefault(e.target, []).append(e.source)
        return reachable(parents.get(node, ()), lambda n: parents.get(n, ()))

    def descendants(self, node: str) -> frozenset[str]:
        """Every node reachable from *node* by a directed path."""
        children: dict[str, list[str]] = {}
        for e in self.edges:
            children.setdefault(e.source, []).append(e.target)
        return reachable(children.get(node, ()), lambda n: children.get(n, ()))

    def with_edges(self, edges: Iterable[Edge]) -> CausalGraph:
        """A copy with *edges* replacing the edge list (nodes kept)."""
        return CausalGraph(self.nodes, tuple(edges), self.meta)

    def renamed(self, mapping: Mapping[str, str]) -> CausalGraph:
        """A copy with nodes renamed through *mapping* (names not in it are kept)."""
        return CausalGraph(
            tuple(mapping.get(n, n) for n in self.nodes),
            tuple(Edge(mapping.get(e.source, e.source), mapping.get(e.target, e.target), e.label) for e in self.edges),
            self.meta,
        )

    # ------------------------------------------------------------------ boundary
    def _order(self, order: Sequence[str] | None) -> list[str]:
        if order is None:
            return list(self.nodes)
        missing = [n for n in self.nodes if n not in set(order)]
        if missing:
            raise InputFormatError(f"order={list(order)!r} lacks graph nodes {missing!r}")
        if len(set(order)) != len(order):
            raise InputFormatError(f"order={list(order)!r} repeats a node")
        return list(order)

    def to_adjacency(self, order: Sequence[str] | None = None) -> np.ndarray:
        """0/1 matrix with ``A[i, j] == 1`` iff ``order[i] -> order[j]`` (row = cause)."""
        import numpy as np

        names = self._order(order)
        index = {n: i for i, n in enumerate(names)}
        a = np.zeros((len(names), len(names)), dtype=np.int8)
        for e in self.edges:
            a[index[e.source], index[e.target]] = 1
        return a

    def to_networkx(self) -> nx.DiGraph:
        """A ``networkx.DiGraph`` with the same nodes, edges and ``label`` attributes.

        An edge without a label gets no ``label`` attribute (never ``None``, which GML cannot hold).
        """
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self.nodes)
        for e in self.edges:
            if e.label is None:
                g.add_edge(e.source, e.target)
            else:
                g.add_edge(e.source, e.target, label=e.label)
        return g

    def to_causallearn_matrix(self, order: Sequence[str] | None = None) -> np.ndarray:
        """causal-learn endpoint matrix: ``G[j, i] == 1`` and ``G[i, j] == -1`` encode ``i -> j``."""
        import numpy as np

        a = self.to_adjacency(order).astype(int)
        both = a & a.T
        if both.any():
            i, j = map(int, np.argwhere(both)[0])
            names = self._order(order)
            raise InputFormatError(
                f"edges {names[i]!r} -> {names[j]!r} and back cannot both be encoded in a causal-learn matrix"
            )
        result: np.ndarray = a.T - a
        return result

    def to_causallearn(self, order: Sequence[str] | None = None) -> Any:
        """A ``causallearn.graph.Dag.Dag`` with the same edges (causal-learn imported lazily)."""
        from causallearn.graph.Dag import Dag
        from causallearn.graph.GraphNode import GraphNode

        names = self._order(order)
        cl_nodes = [GraphNode(n) for n in names]
        dag = Dag(cl_nodes)
        by_name = dict(zip(names, cl_nodes, strict=True))
        for e in self.edges:
            dag.add_directed_edge(by_name[e.source], by_name[e.target])
        return dag

    @classmethod
    def from_causallearn_matrix(cls, matrix: Any, order: Sequence[str]) -> CausalGraph:
        """Inverse of :meth:`to_causallearn_matrix`; refuses a matrix with any non-directed edge.

        A CausalGraph holds directed edges only: undirected, bidirected or circle edges (PC's
        CPDAG, FCI's PAG) raise :class:`InputFormatError` naming them — read such matrices
        with :func:`causalcheck.read_graph` (``convention="causallearn"``) instead.
        """
        # late: keeps the pytest plug-in light
        from causalcheck.graphs.convert import from_matrix

        general = from_matrix(matrix, list(order), convention="causallearn")
        return cls.from_general(general)

    # ------------------------------------------------------------------ general graphs
    def to_general(self) -> Any:
        """This graph as a :class:`causalcheck.graphs.Graph` (lossless: labels go to ``meta["labels"]``).

        Raises :class:`InputFormatError` for what the general model cannot hold: an edge and
        its reverse, or one pair with two different labels.

        >>> g = CausalGraph.from_pairs([("a", "b", "CAUSE")], ["c"])
        >>> CausalGraph.from_general(g.to_general()) == g
        True
        """
        labels: dict[tuple[str, str], str] = {}
        seen: dict[tuple[str, str], Edge] = {}
        for e in self.edges:
            other = seen.get(e.pair) or seen.get((e.target, e.source))
            if other is not None:
                raise InputFormatError(
                    f"edges {str(other)!r} and {str(e)!r} join one pair; a general graph holds one edge per pair"
                )
            seen[e.pair] = e
            if e.label is not None:
                labels[e.pair] = e.label
        meta: dict[str, Any] = dict(self.meta)
        if labels:
            meta["labels"] = labels
        return Graph(self.nodes, tuple(GraphEdge.directed(e.source, e.target) for e in self.edges), meta)

    @classmethod
    def from_general(cls, graph: Any) -> CausalGraph:
        """A CausalGraph from a directed :class:`causalcheck.graphs.Graph` (names kept exactly).

        Edge labels are restored from ``graph.meta["labels"]``; an edge that is not ``->``
        raises :class:`InputFormatError` naming every such edge.
        """
        bad = [str(e) for e in graph.edges if not e.is_directed]
        if bad:
            raise InputFormatError(
                f"a CausalGraph holds directed edges only; {len(bad)} edge(s) are not directed: {bad!r}. "
                "Keep them with causalcheck.read_graph(...), which returns a causalcheck.graphs.Graph"
            )
        raw = graph.meta.get("labels", {}) if isinstance(graph.meta, Mapping) else {}
        labels = raw if isinstance(raw, Mapping) else {}
        meta = {k: v for k, v in graph.meta.items() if k != "labels"} if isinstance(graph.meta, Mapping) else {}
        edges = tuple(Edge(e.u, e.v, labels.get((e.u, e.v))) for e in graph.edges)
        return cls(tuple(graph.nodes), edges, meta)

    def __str__(self) -> str:
        return "; ".join(str(e) for e in self.edges) or "(no edges)"
