"""CausaLab's hypothesis graph: the general graph in its stated representation, CausaLab's name dialect.

A hypothesis *states* directed, optionally labelled edges (``CAUSE``, ...), and may state
both ``a -> b`` and ``b -> a`` or a self-loop: exactly what the checker must report.  So
:class:`CausalGraph` is not a second graph model but a thin subtype of the one graph type,
:class:`causalcheck.graphs.Graph`, in its *stated* representation (see
:mod:`causalcheck.graphs.model`): every edge an :class:`Edge` (a directed
:class:`~causalcheck.graphs.GraphEdge` with ``source``, ``target`` and ``label``), kept in the
order stated, several per node pair allowed.  What the subtype adds is CausaLab's dialect —
:attr:`CausalGraph.dialect` is :data:`~causalcheck.graphs.names.CAUSALAB` (names trimmed,
every frequency alias the node :data:`FREQ`, the target) while a general graph keeps names
exactly — and the conventions CausaLab users' scripts rely on: equality in stated order, no
error for a node the hypothesis never mentions (it has no parents), and the boundary
below.  Every solver takes a ``Graph`` and so takes a ``CausalGraph`` as it is.

Edges are ``(cause, effect)`` pairs everywhere in causalcheck.  This module is also the one
tested boundary where a hypothesis graph becomes a matrix or a third-party object:

* :meth:`CausalGraph.to_adjacency` — ``A[i, j] == 1`` iff ``order[i] -> order[j]``
  (row = cause, column = effect), the convention of ``networkx.to_numpy_array``;
* :meth:`CausalGraph.to_networkx` — a ``networkx.DiGraph`` with an ``label`` edge attribute;
* :meth:`CausalGraph.to_causallearn` — causal-learn's endpoint matrix ``G`` where
  ``G[j, i] == 1 and G[i, j] == -1`` means ``i -> j`` (causal-learn's own convention, see
  ``causallearn.graph.GeneralGraph``).

The frequency node of CausaLab answers to several spellings; :func:`normalize_node` maps
all of them onto ``resonanceFreq`` exactly as the official scorer does (causalab-spec §4.1).
The name rules live with the dialect, in :mod:`causalcheck.graphs.names`, and are re-exported
here where CausaLab code has always imported them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from causalcheck.base.errors import InputFormatError
from causalcheck.graphs.model import Edge, Graph
from causalcheck.graphs.names import CAUSALAB, FREQ, NamePolicy, is_freq_alias, normalize_node

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx
    import numpy as np

__all__ = ["FREQ", "CausalGraph", "Edge", "is_freq_alias", "normalize_node"]

@dataclass(frozen=True, eq=False, repr=False)
class CausalGraph(Graph):
    """A directed hypothesis graph over named nodes: a :class:`~causalcheck.graphs.Graph` as stated.

    ``nodes`` keeps first-seen order (endpoints of edges are added automatically); ``edges``
    keeps the given order with exact duplicates removed, as :class:`Edge` values.  The graph
    is *not* required to be acyclic, nor to hold one edge per pair: checking that is the job
    of :mod:`causalcheck.solvers`.  Two CausalGraphs are equal when they state the same nodes
    and edges in the same order.
    """

    edges: tuple[Edge, ...] = ()
    stated: bool = field(default=True, init=False, kw_only=True)

    #: CausaLab's dialect: trimmed names, every frequency alias is the target :data:`FREQ`.
    dialect: ClassVar[NamePolicy] = CAUSALAB

    def _require(self, node: str) -> None:
        """A hypothesis may be asked about a node it never mentions: it has no parents or children."""

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CausalGraph):
            return self.nodes == other.nodes and self.edges == other.edges
        return super().__eq__(other)

    __hash__ = Graph.__hash__

    def __repr__(self) -> str:
        return f"CausalGraph(nodes={self.nodes!r}, edges={self.edges!r}, meta={dict(self.meta)!r})"

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_pairs(
        cls,
        pairs: Iterable[tuple[str, str] | tuple[str, str, str | None]],
        nodes: Iterable[str] = (),
        *,
        normalize: bool = False,
    ) -> CausalGraph:
        """Build a graph from ``(cause, effect)`` or ``(cause, effect, label)`` tuples.

        *normalize* passes every name through the CausaLab dialect (:attr:`dialect`).
        """
        norm = cls.dialect.normalize if normalize else None
        edges = []
        for p in pairs:
            if len(p) not in (2, 3):
                raise InputFormatError(f"edge {p!r} must be (cause, effect) or (cause, effect, label)")
            src, dst = str(p[0]), str(p[1])
            label = p[2] if len(p) == 3 else None
            if norm is not None:
                src, dst = norm(src), norm(dst)
            edges.append(Edge(src, dst, label))
        node_list = [norm(n) for n in nodes] if norm is not None else list(nodes)
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
        """The set of unlabelled ``(cause, effect)`` pairs (:attr:`directed_pairs`)."""
        return self.directed_pairs

    def __iter__(self) -> Iterator[Edge]:
        return iter(self.arcs)

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
        for e in self.arcs:
            a[index[e.source], index[e.target]] = 1
        return a

    def to_networkx(self) -> nx.DiGraph:
        """A ``networkx.DiGraph`` with the same nodes, edges and ``label`` attributes.

        An edge without a label gets no ``label`` attribute (never ``None``, which GML cannot hold).
        """
        # late: keeps the pytest plug-in light
        from causalcheck.graphs.convert import to_networkx

        return to_networkx(self, labels=True)

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
        for e in self.arcs:
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
    def to_general(self) -> Graph:
        """This graph in the simple representation, names and labels kept (:meth:`Graph.simple`).

        Raises :class:`InputFormatError` for what the simple representation cannot hold: an
        edge and its reverse, one pair with two different labels, a self-loop.

        >>> g = CausalGraph.from_pairs([("a", "b", "CAUSE")], ["c"])
        >>> CausalGraph.from_general(g.to_general()) == g
        True
        """
        return self.simple()

    @classmethod
    def from_general(cls, graph: Graph) -> CausalGraph:
        """A CausalGraph from a directed :class:`causalcheck.graphs.Graph` (names and labels kept exactly).

        An edge that is not ``->`` raises :class:`InputFormatError` naming every such edge.
        """
        bad = [str(e) for e in graph.edges if not e.is_directed]
        if bad:
            raise InputFormatError(
                f"a CausalGraph holds directed edges only; {len(bad)} edge(s) are not directed: {bad!r}. "
                "Keep them with causalcheck.read_graph(...), which returns a causalcheck.graphs.Graph"
            )
        meta = dict(graph.meta) if isinstance(graph.meta, Mapping) else {}
        return cls(tuple(graph.nodes), graph.arcs, meta)
