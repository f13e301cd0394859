"""The general graph model: named nodes, at most one edge per pair, two endpoint marks per edge.

Causal-discovery methods return more than directed graphs.  PC and GES return a CPDAG with
undirected edges ``a -- b``; FCI returns a PAG whose edges carry circle marks ``a o-> b``;
latent confounding is drawn as ``a <-> b``.  All of them are one structure: an edge is a
pair of nodes with a *mark* at each end, and a mark is a tail, an arrowhead or a circle.

=========  ==================  =========================================
token      marks (left, right)  reading
=========  ==================  =========================================
``->``     tail, arrow          directed: left causes right
``--``     tail, tail           undirected (CPDAG) or selection (MAG)
``<->``    arrow, arrow         bidirected: latent confounding
``o->``    circle, arrow        PAG: right is not an ancestor of left
``o-o``    circle, circle       PAG: nothing known
``o--``    circle, tail         PAG: left or selection
=========  ==================  =========================================

The mirrored tokens (``<-``, ``<-o``, ``--o``) are the same edges written the other way.
:class:`GraphEdge` stores every edge in one *canonical* orientation — the left mark is
the lower in the order circle < tail < arrow, and a symmetric edge has its names in sorted
order — so that two spellings of one edge compare equal.

A :class:`Graph` keeps node names exactly as given (no trimming, no aliasing: see
:mod:`causalcheck.graphs.names` for dialects that do), keeps node order (first seen), and
refuses a second edge between the same two nodes with an error naming both edges.  Two
graphs are equal when they have the same node set and the same edge set.

**Two representations, one type.**  The default representation is *simple*: at most one
edge per node pair and no self-loop — what a DAG, CPDAG, MAG or PAG is, and what every file
format and adapter reads.  A graph built with ``stated=True`` keeps directed edges *as
stated* instead: in the order given (exact repeats dropped), several per node pair (``a ->
b`` and ``b -> a``; one pair with two labels), self-loops included.  That is what a causal
hypothesis or an explanation graph says, and the contradictions in it — a two-edge cycle, a
self-loop, both directions of one pair — are exactly what :mod:`causalcheck.solvers`
report, so the solvers take either representation (they read :attr:`Graph.arcs`, the
directed edges as :class:`Edge` values).  :meth:`Graph.simple` turns a stated graph into the
simple one, naming the first pair it cannot hold.  CausaLab's hypothesis graph
:class:`causalcheck.graph.CausalGraph` is the stated representation with CausaLab's name
dialect (:data:`~causalcheck.graphs.names.CAUSALAB`: trimmed names, one frequency node); a
general graph's :attr:`Graph.dialect` is :data:`~causalcheck.graphs.names.EXACT`.

An edge may carry a relation *label* (``CAUSE``, ``RESULT``, ...): part of the edge's
identity, kept by every derived graph, not written by the text formats.

A node may carry attributes (:attr:`Graph.attributes`, kept in ``meta["attributes"]``):
DAGitty's ``[latent]``, ``[exposure]``, ``[outcome]``, ``pos="x,y"``, ...  They are not part
of equality; :attr:`Graph.latent`, :attr:`Graph.exposure` and :attr:`Graph.outcome` list the
flagged nodes; with_edges, with_nodes, renamed and simple keep them.

>>> g = Graph.from_edges([("X", "->", "Y"), ("Y", "<-", "Z"), ("Z", "--", "W")])
>>> g.nodes, [str(e) for e in g.edges]
(('X', 'Y', 'Z', 'W'), ['X -> Y', 'Z -> Y', 'W -- Z'])
>>> g.parents("Y"), g.neighbors("Z"), g.kind
(('X', 'Z'), ('W',), 'PDAG')

One module because :class:`Graph`, :class:`GraphEdge`, :class:`Mark` and the three traversals
are the model itself: every other module of ``graphs/`` builds on exactly these.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, TypeVar, overload

from causalcheck.base.errors import InputFormatError
from causalcheck.base.frames import html_table
from causalcheck.graphs.names import EXACT, NamePolicy

__all__ = [
    "EDGE_TOKENS",
    "NODE_ATTRIBUTES",
    "Edge",
    "Graph",
    "GraphEdge",
    "GraphKind",
    "Mark",
    "connected_components",
    "depth_first",
    "parse_edge_token",
    "reachable",
]

N = TypeVar("N", bound=Hashable)


T = TypeVar("T")


class _cached(Generic[T]):
    """``functools.cached_property`` without the lock it takes before Python 3.12.

    A graph's derived views (positions, incident edges, parents) are pure functions of the
    frozen graph and are read in tight loops; the lock made each first read cost a
    microsecond more.  Computed once per instance and stored in its ``__dict__`` (which then
    shadows this non-data descriptor).
    """

    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> _cached[T]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> T | _cached[T]:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


def reachable(first: Iterable[N], step: Callable[[N], Iterable[N]]) -> frozenset[N]:
    """The nodes of *first* and every node reached from them by repeated *step* (a node's next nodes).

    ``reachable(parents(v), parents)`` are the ancestors of ``v``; *v* itself is in it only on a cycle.
    Hand-written (networkx's ``ancestors`` / ``descendants`` need a networkx graph): ``tests/benchmarks/bench_graphs.py``
    measures it 19x (10 nodes) to 290x (400 nodes) faster than building one and asking it,
    and a hypothesis check never imports networkx.  Property-tested against networkx.

    >>> parents = {"c": ["b"], "b": ["a"]}
    >>> sorted(reachable(parents["c"], lambda n: parents.get(n, ())))
    ['a', 'b']
    """
    seen: set[N] = set()
    stack = list(first)
    while stack:
        cur = stack.pop()
        if cur not in seen:
            seen.add(cur)
            stack.extend(step(cur))
    return frozenset(seen)


def connected_components(nodes: Iterable[N], pairs: Iterable[tuple[N, N]]) -> list[list[N]]:
    """Connected components of the undirected graph on *nodes* with an edge per pair of *pairs*.

    Endpoints missing from *nodes* are added.  Union-find (path halving), so linear in
    practice; components come in the order of their first node, their members in the order
    first seen (nodes, then pair endpoints) — deterministic.  Hand-written (networkx's
    ``connected_components`` needs a networkx graph and yields unordered sets): ``tests/benchmarks/bench_graphs.py`` measures
    it 1.5–2.9x faster including the build, and explain scoring, which calls it for every
    answer, never imports networkx.  Property-tested against networkx.

    >>> connected_components("abcd", [("c", "a"), ("e", "d")])
    [['a', 'c'], ['b'], ['d', 'e']]
    """
    parent: dict[N, N] = {v: v for v in nodes}

    def find(v: N) -> N:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for a, b in pairs:
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[rb] = ra
    groups: dict[N, list[N]] = {}
    for v in parent:
        groups.setdefault(find(v), []).append(v)
    return list(groups.values())


def depth_first(successors: Sequence[Sequence[int]]) -> tuple[list[int], list[int]]:
    """Iterative depth-first search over nodes ``0..n-1`` (roots and successors in index order).

    Returns ``(order, [])`` — the post-order: every node after all its successors — or, at the
    first edge back into the search path, ``(partial order, cycle)`` with the directed cycle
    ``[w, ..., w]`` that edge closes.  No recursion, so no depth limit; deterministic.  The
    post-order equals ``networkx.dfs_postorder_nodes`` and the cycle ``networkx.find_cycle``
    (property-tested); kept hand-written because it runs on integer successor lists — the
    lab's SCM order and the DAG certificate — where ``tests/benchmarks/bench_graphs.py`` measures it about 6x faster than
    building a networkx graph.

    >>> depth_first([[1], [2], []])
    ([2, 1, 0], [])
    >>> depth_first([[1], [2], [0]])[1]
    [0, 1, 2, 0]
    """
    state = [0] * len(successors)  # 0 new, 1 on the search path, 2 done
    via = [-1] * len(successors)
    order: list[int] = []
    for root in range(len(successors)):
        if state[root]:
            continue
        stack: list[tuple[int, int]] = [(root, 0)]
        state[root] = 1
        while stack:
            v, i = stack[-1]
            if i < len(successors[v]):
                stack[-1] = (v, i + 1)
                w = successors[v][i]
                if state[w] == 0:
                    state[w] = 1
                    via[w] = v
                    stack.append((w, 0))
                elif state[w] == 1:
                    cycle = [v]
                    while cycle[-1] != w:
                        cycle.append(via[cycle[-1]])
                    cycle.reverse()
                    return order, [*cycle, w]
            else:
                state[v] = 2
                stack.pop()
                order.append(v)
    return order, []


class Mark(enum.Enum):
    """The mark at one end of an edge."""

    TAIL = "tail"
    ARROW = "arrow"
    CIRCLE = "circle"

    def __repr__(self) -> str:
        return f"Mark.{self.name}"

    def __lt__(self, other: object) -> bool:
        """Marks order as circle < tail < arrow (the canonical-orientation order), so edges sort."""
        if not isinstance(other, Mark):
            return NotImplemented
        return _RANK[self] < _RANK[other]


_RANK = {Mark.CIRCLE: 0, Mark.TAIL: 1, Mark.ARROW: 2}

#: Every edge token the text formats accept, with its (left mark, right mark).
EDGE_TOKENS: Mapping[str, tuple[Mark, Mark]] = {
    "->": (Mark.TAIL, Mark.ARROW),
    "<-": (Mark.ARROW, Mark.TAIL),
    "--": (Mark.TAIL, Mark.TAIL),
    "<->": (Mark.ARROW, Mark.ARROW),
    "o->": (Mark.CIRCLE, Mark.ARROW),
    "<-o": (Mark.ARROW, Mark.CIRCLE),
    "o-o": (Mark.CIRCLE, Mark.CIRCLE),
    "o--": (Mark.CIRCLE, Mark.TAIL),
    "--o": (Mark.TAIL, Mark.CIRCLE),
}

#: The kinds a graph's marks allow (validity is checked by :mod:`causalcheck.graphchecks.kinds`).
GraphKind = Literal["DAG", "PDAG", "MAG", "PAG"]


def parse_edge_token(token: str) -> tuple[Mark, Mark]:
    """``(left mark, right mark)`` of an edge token such as ``"o->"``.

    >>> parse_edge_token("<-o")
    (Mark.ARROW, Mark.CIRCLE)
    """
    try:
        return EDGE_TOKENS[token]
    except KeyError:
        raise InputFormatError(f"edge token={token!r} must be one of {list(EDGE_TOKENS)!r}") from None


@dataclass(frozen=True, order=True)
class GraphEdge:
    """An edge ``u *-* v`` with the mark ``mark_u`` at ``u`` and ``mark_v`` at ``v``, and an optional label.

    Construction puts the edge in canonical orientation (see the module docstring), so
    ``GraphEdge("b", "a", Mark.ARROW, Mark.TAIL)`` *is* ``a -> b``.  Edges compare by
    endpoints, marks and label, whatever their class (an :class:`Edge` equals the directed
    ``GraphEdge`` with the same endpoints and label).

    >>> GraphEdge("b", "a", Mark.ARROW, Mark.TAIL)
    GraphEdge(u='a', v='b', mark_u=Mark.TAIL, mark_v=Mark.ARROW)
    >>> str(GraphEdge.parse("y", "<-o", "x")), GraphEdge.parse("a", "->", "b").is_directed
    ('x o-> y', True)
    """

    u: str
    v: str
    mark_u: Mark
    mark_v: Mark
    label: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.mark_u, Mark) or not isinstance(self.mark_v, Mark):
            raise InputFormatError(
                f"edge marks ({self.mark_u!r}, {self.mark_v!r}) must be causalcheck.graphs.Mark values"
            )
        for name in (self.u, self.v):
            if not isinstance(name, str) or not name:
                raise InputFormatError(f"node name {name!r} must be a non-empty string")
        if self.u == self.v:
            raise InputFormatError(f"edge {self.u!r} {self.token} {self.v!r} is a self-loop; graphs here have none")
        ru, rv = _RANK[self.mark_u], _RANK[self.mark_v]
        if ru > rv or (ru == rv and self.u > self.v):
            u, v, mu, mv = self.v, self.u, self.mark_v, self.mark_u
            object.__setattr__(self, "u", u)
            object.__setattr__(self, "v", v)
            object.__setattr__(self, "mark_u", mu)
            object.__setattr__(self, "mark_v", mv)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GraphEdge):
            return NotImplemented
        return (
            self.u == other.u
            and self.v == other.v
            and self.label == other.label
            and self.mark_u is other.mark_u
            and self.mark_v is other.mark_v
        )

    def __hash__(self) -> int:
        # the marks are left out (an Enum hashes in Python, slowly): equal edges still hash alike
        return hash((self.u, self.v, self.label))

    def __repr__(self) -> str:
        label = "" if self.label is None else f", label={self.label!r}"
        return f"GraphEdge(u={self.u!r}, v={self.v!r}, mark_u={self.mark_u!r}, mark_v={self.mark_v!r}{label})"

    # ------------------------------------------------------------------ constructors
    @classmethod
    def parse(cls, left: str, token: str, right: str) -> GraphEdge:
        """The edge ``left token right``, e.g. ``GraphEdge.parse("a", "o->", "b")``."""
        mu, mv = parse_edge_token(token)
        return cls(left, right, mu, mv)

    @classmethod
    def directed(cls, cause: str, effect: str, label: str | None = None) -> GraphEdge:
        """``cause -> effect``."""
        return cls(cause, effect, Mark.TAIL, Mark.ARROW, label)

    @classmethod
    def undirected(cls, a: str, b: str) -> GraphEdge:
        """``a -- b``."""
        return cls(a, b, Mark.TAIL, Mark.TAIL)

    @classmethod
    def bidirected(cls, a: str, b: str) -> GraphEdge:
        """``a <-> b``."""
        return cls(a, b, Mark.ARROW, Mark.ARROW)

    # ------------------------------------------------------------------ views
    @property
    def token(self) -> str:
        """The edge token read from ``u`` to ``v`` (``"->"``, ``"o-o"``, ...)."""
        return _TOKEN_OF[(self.mark_u, self.mark_v)]

    @property
    def pair(self) -> frozenset[str]:
        """The two endpoints, unordered."""
        return frozenset((self.u, self.v))

    @property
    def is_directed(self) -> bool:
        """True for ``u -> v``."""
        return self.mark_u is Mark.TAIL and self.mark_v is Mark.ARROW

    @property
    def is_undirected(self) -> bool:
        """True for ``u -- v``."""
        return self.mark_u is Mark.TAIL and self.mark_v is Mark.TAIL

    @property
    def is_bidirected(self) -> bool:
        """True for ``u <-> v``."""
        return self.mark_u is Mark.ARROW and self.mark_v is Mark.ARROW

    @property
    def has_circle(self) -> bool:
        """True when either end is a circle."""
        return Mark.CIRCLE in (self.mark_u, self.mark_v)

    def mark_at(self, node: str) -> Mark:
        """The mark at *node* (an endpoint of this edge)."""
        return self.mark_u if self._is_u(node) else self.mark_v

    def other(self, node: str) -> str:
        """The endpoint that is not *node*."""
        return self.v if self._is_u(node) else self.u

    def _is_u(self, node: str) -> bool:
        """Whether *node* is the ``u`` end (else the ``v`` end); an error for any other node."""
        if node == self.u:
            return True
        if node == self.v:
            return False
        raise InputFormatError(f"node={node!r} is not an endpoint of the edge {self}")

    def renamed(self, mapping: Mapping[str, str]) -> GraphEdge:
        """The same marks (and label) between renamed endpoints (names missing from *mapping* kept)."""
        return GraphEdge(mapping.get(self.u, self.u), mapping.get(self.v, self.v), self.mark_u, self.mark_v, self.label)

    def __str__(self) -> str:
        return f"{self.u} {self.token} {self.v}"


class Edge(GraphEdge):
    """A directed edge ``source -> target`` as stated, with an optional relation label (e.g. ``CAUSE``).

    The directed :class:`GraphEdge` of the stated representation (``u`` is the source, ``v``
    the target; tail at the source, arrowhead at the target).  Unlike a general edge it may
    be a self-loop: a hypothesis may state one, and the checker reports it.  ``pair`` is the
    ordered ``(cause, effect)`` tuple (a general edge's ``pair`` is the unordered set).

    >>> e = Edge("a", "b", "CAUSE")
    >>> str(e), e.pair, e == GraphEdge.directed("a", "b", "CAUSE"), e.is_directed
    ('a -> b : CAUSE', ('a', 'b'), True, True)
    """

    #: The cause (the same as ``u``).
    source: str
    #: The effect (the same as ``v``).
    target: str

    def __init__(self, source: str, target: str, label: str | None = None) -> None:
        # no validation or re-orientation: a stated edge is kept as written (the graph checks names);
        # source and target are plain attributes, not properties (checks read them in tight loops)
        d = self.__dict__
        d["u"] = d["source"] = source
        d["v"] = d["target"] = target
        d["mark_u"] = Mark.TAIL
        d["mark_v"] = Mark.ARROW
        d["label"] = label

    @property
    def pair(self) -> tuple[str, str]:  # type: ignore[override]  # ordered for a directed edge, as it always was
        """The unlabelled ``(cause, effect)`` pair."""
        return (self.u, self.v)

    @property
    def is_directed(self) -> bool:
        """Always True."""
        return True

    def reversed(self) -> Edge:
        """The same edge pointing the other way."""
        return Edge(self.v, self.u, self.label)

    def renamed(self, mapping: Mapping[str, str]) -> Edge:
        """The same edge between renamed endpoints (names missing from *mapping* kept)."""
        return Edge(mapping.get(self.u, self.u), mapping.get(self.v, self.v), self.label)

    def __repr__(self) -> str:
        return f"Edge(source={self.u!r}, target={self.v!r}, label={self.label!r})"

    def __str__(self) -> str:
        suffix = f" : {self.label}" if self.label else ""
        return f"{self.u} -> {self.v}{suffix}"


_TOKEN_OF: dict[tuple[Mark, Mark], str] = {marks: tok for tok, marks in EDGE_TOKENS.items()}


def _kind(edges: Iterable[GraphEdge]) -> GraphKind:
    undirected = bidirected = False
    for e in edges:
        if e.has_circle:
            return "PAG"
        if e.is_bidirected:
            bidirected = True
        elif e.is_undirected:
            undirected = True
    if bidirected:
        return "MAG"
    return "PDAG" if undirected else "DAG"


#: The node attributes DAGitty knows — flags, and ``pos="x,y"`` — which every format that can
#: hold node attributes carries (DAGitty, DOT, GML, JSON, networkx, pgmpy's ``latents``).
NODE_ATTRIBUTES: tuple[str, ...] = ("exposure", "outcome", "latent", "adjusted", "selected", "pos")

NodeAttributes = Mapping[str, Mapping[str, "str | bool"]]


def _dedupe(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


@dataclass(frozen=True, eq=False)
class Graph:
    """Named nodes and marked edges — simple (at most one edge per node pair) unless ``stated``.

    ``nodes`` keeps first-seen order (edge endpoints are added); ``edges`` keeps the given
    order with exact repeats removed.  In the simple representation (the default) a second,
    *different* edge between the same pair raises
    :class:`~causalcheck.base.errors.InputFormatError` naming both.  With ``stated=True`` (see
    the module docstring) every edge must be directed and is kept as an :class:`Edge`, several
    per pair and self-loops included.  ``kind`` tells which family the marks fit: ``"DAG"``
    (only ``->``), ``"PDAG"`` (``->`` and ``--``), ``"MAG"`` (also ``<->``), ``"PAG"`` (any
    circle) — whether the graph is a *valid* member (acyclic, a CPDAG, ancestral, ...) is
    answered by :mod:`causalcheck.graphchecks.kinds`.

    >>> Graph.from_edges([("a", "->", "b")]) == Graph.from_edges([("b", "<-", "a")])
    True
    >>> Graph.from_edges([("a", "->", "b"), ("b", "--", "a")])
    Traceback (most recent call last):
    ...
    causalcheck.base.errors.InputFormatError: two edges between 'a' and 'b': 'a -> b' and 'a -- b'; a graph holds at most one edge per node pair
    >>> g = Graph((), (Edge("a", "b"), Edge("b", "a")), stated=True)
    >>> g.parents("a"), str(g)
    (('b',), 'a -> b; b -> a')
    """

    nodes: tuple[str, ...] = ()
    edges: tuple[GraphEdge, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    stated: bool = field(default=False, kw_only=True)

    #: How names written by a user map onto this graph's node names (a general graph keeps them exactly).
    dialect: ClassVar[NamePolicy] = EXACT

    def __post_init__(self) -> None:
        for name in self.nodes:
            if not isinstance(name, str) or not name:
                raise InputFormatError(f"node name {name!r} must be a non-empty string")
        if self.stated:
            self._init_stated()
        else:
            self._init_simple()

    def _init_simple(self) -> None:
        seen: dict[str, None] = dict.fromkeys(self.nodes)
        by_pair: dict[frozenset[str], GraphEdge] = {}
        edges: list[GraphEdge] = []
        for e in self.edges:
            if not isinstance(e, GraphEdge):
                raise InputFormatError(f"edge {e!r} must be a GraphEdge")
            if type(e) is not GraphEdge:  # an Edge: the simple representation holds plain edges
                if e.u == e.v:
                    raise InputFormatError(f"edge {e.u!r} {e.token} {e.v!r} is a self-loop; graphs here have none")
                e = GraphEdge(e.u, e.v, e.mark_u, e.mark_v, e.label)
            key = frozenset((e.u, e.v))
            old = by_pair.get(key)
            if old is not None:
                if old != e:
                    raise InputFormatError(
                        f"two edges between {old.u!r} and {old.v!r}: {str(old)!r} and {str(e)!r}; "
                        "a graph holds at most one edge per node pair"
                    )
                continue
            by_pair[key] = e
            edges.append(e)
            seen.setdefault(e.u, None)
            seen.setdefault(e.v, None)
        object.__setattr__(self, "nodes", tuple(seen))
        object.__setattr__(self, "edges", tuple(edges))
        self.__dict__["_by_pair"] = by_pair

    def _init_stated(self) -> None:
        edges: dict[Edge, None] = {}
        for e in self.edges:
            if type(e) is not Edge:
                if not isinstance(e, GraphEdge):
                    raise InputFormatError(f"edge {e!r} must be an Edge")
                if not e.is_directed:
                    raise InputFormatError(f"edge {str(e)!r} is not directed; a stated graph holds directed edges only")
                e = Edge(e.u, e.v, e.label)
            edges.setdefault(e, None)
        object.__setattr__(self, "nodes", _dedupe([*self.nodes, *(n for e in edges for n in (e.u, e.v))]))
        object.__setattr__(self, "edges", tuple(edges))

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_edges(cls, edges: Iterable[GraphEdge | tuple[str, str, str]], nodes: Iterable[str] = ()) -> Graph:
        """Build from :class:`GraphEdge` values or ``(left, token, right)`` triples."""
        out = []
        for e in edges:
            if isinstance(e, GraphEdge):
                out.append(e)
            elif isinstance(e, tuple) and len(e) == 3:
                out.append(GraphEdge.parse(str(e[0]), str(e[1]), str(e[2])))
            else:
                raise InputFormatError(f"edge {e!r} must be a GraphEdge or a (left, token, right) triple")
        return cls(tuple(nodes), tuple(out))

    @classmethod
    def from_directed(cls, pairs: Iterable[tuple[str, str]], nodes: Iterable[str] = ()) -> Graph:
        """A directed graph from ``(cause, effect)`` pairs."""
        return cls(tuple(nodes), tuple(GraphEdge.directed(a, b) for a, b in pairs))

    # ------------------------------------------------------------------ equality
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Graph):
            return NotImplemented
        return set(self.nodes) == set(other.nodes) and set(self.edges) == set(other.edges)

    def __hash__(self) -> int:
        return hash((frozenset(self.nodes), frozenset(self.edges)))

    def __iter__(self) -> Iterator[GraphEdge]:
        return iter(self.edges)

    def __len__(self) -> int:
        return len(self.edges)

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, GraphEdge):
            return False
        if self.stated:
            return item in self._edge_set
        return self._by_pair.get(frozenset((item.u, item.v))) == item

    def __str__(self) -> str:
        return "; ".join(str(e) for e in self.edges) or "(no edges)"

    def __repr__(self) -> str:
        stated = ", stated=True" if self.stated else ""
        return f"Graph(nodes={list(self.nodes)!r}, edges={[str(e) for e in self.edges]!r}{stated})"

    def _repr_html_(self) -> str:
        """Jupyter's view: the kind, the edges and each node's attributes, as a table."""
        edges: dict[str, list[str]] = {n: [] for n in self.nodes}
        for e in self.edges:
            edges[e.u].append(str(e))
        rows = [{"node": n, "edges": "; ".join(edges[n]), **self.attributes.get(n, {})} for n in self.nodes]
        return html_table(rows, f"{self.kind}: {len(self.nodes)} node(s), {len(self.edges)} edge(s)")

    def __getstate__(self) -> dict[str, Any]:
        """The fields only: cached views are rebuilt on demand, not pickled (worker processes get lean graphs)."""
        return {f: getattr(self, f) for f in ("nodes", "edges", "meta", "stated")}

    # ------------------------------------------------------------------ local views
    @_cached
    def _by_pair(self) -> dict[frozenset[str], GraphEdge]:
        """The (first) edge of every node pair (set by the simple representation's constructor)."""
        by_pair: dict[frozenset[str], GraphEdge] = {}
        for e in self.edges:
            by_pair.setdefault(frozenset((e.u, e.v)), e)
        return by_pair

    @_cached
    def _edge_set(self) -> frozenset[GraphEdge]:
        return frozenset(self.edges)

    @_cached
    def _incident(self) -> dict[str, list[GraphEdge]]:
        inc: dict[str, list[GraphEdge]] = {n: [] for n in self.nodes}
        for e in self.edges:
            inc[e.u].append(e)
            if e.v != e.u:  # a stated self-loop touches its node once
                inc[e.v].append(e)
        return inc

    @_cached
    def index(self) -> Mapping[str, int]:
        """Position of every node in :attr:`nodes`."""
        return {n: i for i, n in enumerate(self.nodes)}

    # ------------------------------------------------------------------ node attributes
    @property
    def attributes(self) -> NodeAttributes:
        """Node attributes by node (``meta["attributes"]``): DAGitty's ``[latent]``, ``[exposure]``, ``pos="x,y"``, ...

        >>> Graph.from_edges([("u", "->", "y")]).with_attributes({"u": {"latent": True}}).latent
        ('u',)
        """
        attrs = self.meta.get("attributes") if isinstance(self.meta, Mapping) else None
        return attrs if isinstance(attrs, Mapping) else {}

    def _flagged(self, attribute: str) -> tuple[str, ...]:
        attrs = self.attributes
        return tuple(n for n in self.nodes if attrs.get(n, {}).get(attribute))

    @property
    def latent(self) -> tuple[str, ...]:
        """The nodes marked ``[latent]`` (unobserved: the validator tests what they imply for the others)."""
        return self._flagged("latent")

    @property
    def exposure(self) -> tuple[str, ...]:
        """The nodes marked ``[exposure]``."""
        return self._flagged("exposure")

    @property
    def outcome(self) -> tuple[str, ...]:
        """The nodes marked ``[outcome]``."""
        return self._flagged("outcome")

    def with_attributes(self, attributes: NodeAttributes) -> Graph:
        """This graph with *attributes* (node -> {name: ``True`` or a string}) as its node attributes.

        Empty entries are left out; a node the graph does not have, or a value that is neither
        ``True`` nor a string, raises :class:`InputFormatError`.
        """
        clean: dict[str, dict[str, str | bool]] = {}
        for node, attrs in attributes.items():
            if node not in self.index:
                raise InputFormatError(f"node attributes name {node!r}, which is not a node of the graph")
            if not isinstance(attrs, Mapping):
                raise InputFormatError(f"node {node!r} attributes={attrs!r} must be a mapping of name -> true or a string")
            for key, value in attrs.items():
                if not isinstance(key, str) or not (value is True or isinstance(value, str)):
                    raise InputFormatError(f"node {node!r} attribute {key!r}={value!r} must be true or a string")
            if attrs:
                clean[node] = dict(attrs)
        meta = {k: v for k, v in self.meta.items() if k != "attributes"}
        if clean:
            meta["attributes"] = clean
        return self._like(self.nodes, self.edges, meta)

    @property
    def kind(self) -> GraphKind:
        """Which family the marks fit: ``"DAG"``, ``"PDAG"``, ``"MAG"`` or ``"PAG"``."""
        return _kind(self.edges)

    @_cached
    def arcs(self) -> tuple[Edge, ...]:
        """The directed edges as :class:`Edge` values, in edge order (a stated graph: all its edges).

        This is what the solvers read: cycles, contradictions and equivalence classes are
        properties of the directed part.
        """
        if self.stated:
            return self.edges  # type: ignore[return-value]  # a stated graph holds Edge values only
        return tuple(Edge(e.u, e.v, e.label) for e in self.edges if e.is_directed)

    def _require(self, node: str) -> None:
        if node not in self.index:
            raise InputFormatError(f"node={node!r} is not in the graph {list(self.nodes)!r}")

    def edge(self, a: str, b: str) -> GraphEdge | None:
        """The edge between *a* and *b* (a stated graph: the first one stated), or None."""
        return self._by_pair.get(frozenset((a, b)))

    def has_edge(self, a: str, b: str) -> bool:
        """True when *a* and *b* are adjacent."""
        return frozenset((a, b)) in self._by_pair

    def mark(self, at: str, other: str) -> Mark | None:
        """The mark at *at* on the edge between *at* and *other* (None: not adjacent)."""
        e = self.edge(at, other)
        return None if e is None else e.mark_at(at)

    def incident(self, node: str) -> tuple[GraphEdge, ...]:
        """Edges touching *node*, in edge order."""
        self._require(node)
        return tuple(self._incident.get(node, ()))

    def adjacent(self, node: str) -> tuple[str, ...]:
        """Nodes joined to *node* by any edge."""
        return tuple(e.other(node) for e in self.incident(node))

    def _select(self, node: str, near: Mark, far: Mark) -> tuple[str, ...]:
        return tuple(
            e.other(node) for e in self.incident(node) if e.mark_at(node) is near and e.mark_at(e.other(node)) is far
        )

    @_cached
    def _directed(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """``(parents, children)`` lists of every node with a directed edge, in edge order (one pass; repeats kept)."""
        pa: dict[str, list[str]] = {}
        ch: dict[str, list[str]] = {}
        tail, arrow = Mark.TAIL, Mark.ARROW
        for e in self.edges:
            if e.mark_u is tail and e.mark_v is arrow:
                u, v = e.u, e.v
                if v in pa:
                    pa[v].append(u)
                else:
                    pa[v] = [u]
                if u in ch:
                    ch[u].append(v)
                else:
                    ch[u] = [v]
        return pa, ch

    def parents(self, node: str) -> tuple[str, ...]:
        """Nodes ``p`` with ``p -> node``, in edge order."""
        self._require(node)
        return _dedupe(self._directed[0].get(node, ()))

    def children(self, node: str) -> tuple[str, ...]:
        """Nodes ``c`` with ``node -> c``, in edge order."""
        self._require(node)
        return _dedupe(self._directed[1].get(node, ()))

    def neighbors(self, node: str) -> tuple[str, ...]:
        """Nodes ``w`` with ``node -- w``."""
        return self._select(node, Mark.TAIL, Mark.TAIL)

    def spouses(self, node: str) -> tuple[str, ...]:
        """Nodes ``w`` with ``node <-> w``."""
        return self._select(node, Mark.ARROW, Mark.ARROW)

    def into(self, node: str) -> tuple[str, ...]:
        """Nodes whose edge has an arrowhead at *node* (``w *-> node``: colliders are made of these)."""
        return tuple(e.other(node) for e in self.incident(node) if e.mark_at(node) is Mark.ARROW)

    def roots(self) -> tuple[str, ...]:
        """Nodes without parents, in node order."""
        has_parent = self._directed[0]
        return tuple(n for n in self.nodes if n not in has_parent)

    # ------------------------------------------------------------------ global views
    @property
    def directed_pairs(self) -> frozenset[tuple[str, str]]:
        """``(cause, effect)`` of every ``->`` edge."""
        return frozenset((e.u, e.v) for e in self.edges if e.is_directed)

    @property
    def undirected_pairs(self) -> frozenset[frozenset[str]]:
        """Endpoints of every ``--`` edge."""
        return frozenset(e.pair for e in self.edges if e.is_undirected)

    @property
    def skeleton(self) -> frozenset[frozenset[str]]:
        """Endpoints of every edge, whatever its marks."""
        return frozenset(self._by_pair)

    def ancestors(self, node: str) -> frozenset[str]:
        """Nodes with a directed (``->``) path to *node* (*node* itself only when it lies on a cycle)."""
        self._require(node)
        pa = self._directed[0]
        return reachable(pa.get(node, ()), lambda n: pa.get(n, ()))

    def descendants(self, node: str) -> frozenset[str]:
        """Nodes reachable from *node* by a directed (``->``) path (*node* itself only on a cycle)."""
        self._require(node)
        ch = self._directed[1]
        return reachable(ch.get(node, ()), lambda n: ch.get(n, ()))

    def chain_components(self) -> tuple[tuple[str, ...], ...]:
        """Connected components of the undirected (``--``) part, in node order (singletons included)."""
        return tuple(
            tuple(c) for c in connected_components(self.nodes, ((e.u, e.v) for e in self.edges if e.is_undirected))
        )

    def indexed(self, order: Sequence[str] | None = None) -> tuple[tuple[str, ...], list[tuple[int, int, Mark, Mark]]]:
        """``(names, [(i, j, mark_i, mark_j), ...])`` over *order* (default: :attr:`nodes`)."""
        names = self.order(order)
        pos = {n: i for i, n in enumerate(names)}
        return names, [(pos[e.u], pos[e.v], e.mark_u, e.mark_v) for e in self.edges]

    def order(self, order: Sequence[str] | None) -> tuple[str, ...]:
        """*order* checked to be a permutation of :attr:`nodes` (None: :attr:`nodes`)."""
        if order is None:
            return self.nodes
        names = tuple(order)
        if len(set(names)) != len(names):
            raise InputFormatError(f"order={list(names)!r} repeats a node")
        if set(names) != set(self.nodes):
            missing = [n for n in self.nodes if n not in set(names)]
            extra = [n for n in names if n not in self.index]
            raise InputFormatError(
                f"order={list(names)!r} must list exactly the graph's nodes (missing {missing!r}, unknown {extra!r})"
            )
        return names

    # ------------------------------------------------------------------ derived graphs
    def _like(self, nodes: Iterable[str], edges: Iterable[GraphEdge], meta: Mapping[str, Any] | None = None) -> Graph:
        """A graph of this class and representation (same meta unless *meta*) over *nodes* and *edges*."""
        meta = self.meta if meta is None else meta
        if type(self) is Graph:
            return Graph(tuple(nodes), tuple(edges), meta, stated=self.stated)
        return type(self)(tuple(nodes), tuple(edges), meta)

    def with_edges(self, edges: Iterable[GraphEdge]) -> Graph:
        """Same nodes, *edges* instead of the current ones."""
        return self._like(self.nodes, edges)

    def with_nodes(self, nodes: Iterable[str]) -> Graph:
        """The same edges over *nodes* (their order first; edge endpoints are kept)."""
        return self._like(nodes, self.edges)

    def renamed(self, mapping: Mapping[str, str], *, merge: bool = False) -> Graph:
        """Nodes renamed through *mapping* (names missing from it kept).

        Two nodes renamed onto one name raise, unless *merge* (or the graph is stated): then
        they become one node, and two different edges that land on one pair still raise.
        """
        new = [mapping.get(n, n) for n in self.nodes]
        if len(set(new)) != len(new) and not (merge or self.stated):
            clash: dict[str, list[str]] = {}
            for old, nn in zip(self.nodes, new, strict=True):
                clash.setdefault(nn, []).append(old)
            merged = {k: v for k, v in clash.items() if len(v) > 1}
            raise InputFormatError(f"renaming would merge nodes {merged!r}")
        out = self._like(new, (e.renamed(mapping) for e in self.edges))
        if self.attributes:  # node attributes follow their node
            out = out.with_attributes({mapping.get(n, n): a for n, a in self.attributes.items()})
        return out

    def simple(self) -> Graph:
        """This graph in the simple representation (itself when it is simple).

        Raises :class:`InputFormatError` for what only the stated representation holds: an
        edge and its reverse, one pair with two labels, a self-loop.  Labels are kept.

        >>> str(Graph((), (Edge("a", "b", "CAUSE"),), stated=True).simple().edges[0].label)
        'CAUSE'
        """
        if not self.stated:
            return self
        seen: dict[tuple[str, str], GraphEdge] = {}
        for e in self.edges:
            other = seen.get((e.u, e.v)) or seen.get((e.v, e.u))
            if other is not None:
                raise InputFormatError(
                    f"edges {str(other)!r} and {str(e)!r} join one pair; a general graph holds one edge per pair"
                )
            seen[(e.u, e.v)] = e
        return Graph(self.nodes, self.edges, dict(self.meta))

    def to_dict(self) -> dict[str, Any]:
        """``{"kind", "nodes": [...], "edges": [[left, token, right], ...]}`` (JSON-ready; labels are not written).

        A graph with node attributes (:attr:`attributes`) also has ``"attributes": {node: {name: value}}``.
        """
        out: dict[str, Any] = {
            "kind": self.kind,
            "nodes": list(self.nodes),
            "edges": [[e.u, e.token, e.v] for e in self.edges],
        }
        if self.attributes:
            out["attributes"] = {n: dict(self.attributes[n]) for n in self.nodes if n in self.attributes}
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Graph:
        """Inverse of :meth:`to_dict` (``kind`` is recomputed, not trusted).

        When ``"nodes"`` is given it must name every node an edge names (an edge to an
        undeclared node raises, naming the edge and the node); without it the edges' nodes are the nodes.
        """
        if not isinstance(data, Mapping) or "edges" not in data:
            raise InputFormatError(f"graph JSON={data!r} must be an object with 'edges' (and optional 'nodes')")
        nodes = data.get("nodes", [])
        edges = data["edges"]
        if not isinstance(nodes, list) or not isinstance(edges, list):
            raise InputFormatError("graph JSON 'nodes' and 'edges' must be lists")
        triples = []
        for e in edges:
            if not isinstance(e, list | tuple) or len(e) != 3:
                raise InputFormatError(f"graph JSON edge={e!r} must be [left, token, right]")
            if not all(isinstance(part, str) for part in e):
                raise InputFormatError(f"graph JSON edge={e!r} must be three strings [left, token, right]")
            triples.append((e[0], e[1], e[2]))
        for n in nodes:
            if not isinstance(n, str):
                raise InputFormatError(f"graph JSON node={n!r} must be a string (a node name)")
        if "nodes" in data:  # a declared node list is the whole list: an edge to a node outside it is a typo, not a new node
            declared = set(nodes)
            for e in triples:
                missing = [n for n in (e[0], e[2]) if n not in declared]
                if missing:
                    raise InputFormatError(
                        f"graph JSON edge={list(e)!r} names {missing[0]!r}, which is not in 'nodes' "
                        f"({len(declared)} declared); add it to 'nodes' or leave 'nodes' out"
                    )
        graph = cls.from_edges(triples, list(nodes))
        attributes = data.get("attributes", {})
        if not isinstance(attributes, Mapping):
            raise InputFormatError(f"graph JSON attributes={attributes!r} must be an object {{node: {{name: value}}}}")
        return graph.with_attributes(attributes) if attributes else graph
