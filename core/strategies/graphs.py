"""Graphs of every kind the field exchanges, and (truth, estimate) pairs with known edits.

All values are :class:`causalcheck.graphs.Graph` (the general model: named nodes, one edge
per pair, a mark at each end).  Every strategy shrinks towards few nodes and few edges:

* :func:`dags` — DAGs with bounds on size, density and in-degree (edges go forward in the
  drawn node order, so a DAG is acyclic by construction);
* :func:`pdags` — a DAG with some edges made undirected (acyclic directed part);
* :func:`cpdags` — the CPDAG of a DAG (:func:`causalcheck.graphchecks.kinds.cpdag_of`);
* :func:`pags` — PAGs as FCI reports them for a causally sufficient DAG: the skeleton, an
  arrowhead ``o->`` into each unshielded collider, circles elsewhere;
* :func:`edge_lists` — a DAG's edges as ``(cause, effect)`` pairs (what CausaLab metrics take),
  with self-loops and repeated edges inserted when asked (``self_loops=``, ``duplicates=``;
  :func:`with_self_loop` / :func:`with_duplicate` do one insertion) — input a rule must
  ignore or refuse; :func:`dags` adds isolated nodes with ``isolated=``;
* :func:`graph_pairs` — a truth and an estimate made from it by *k* edits (additions,
  removals, reversals, mark changes) on distinct node pairs, with the edits listed, so the
  cost every metric should charge is known.

>>> from hypothesis import find
>>> g = find(dags(min_nodes=3), lambda g: len(g.edges) >= 2)
>>> len(g.nodes), len(g.edges)
(3, 2)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.kinds import cpdag_of
from causalcheck.graphs.model import Graph, GraphEdge, Mark
from causalcheck.graphs.names import NamePolicy
from causalcheck.strategies.names import name_lists
from hypothesis import strategies as st

__all__ = [
    "Edit",
    "GraphPair",
    "apply_edit",
    "cpdags",
    "dags",
    "edge_lists",
    "graph_pairs",
    "pags",
    "pdags",
    "with_duplicate",
    "with_self_loop",
]

EditOp = Literal["add", "remove", "reverse", "change"]


@dataclass(frozen=True)
class Edit:
    """One change from truth to estimate: ``before`` (None for an addition) → ``after`` (None for a removal)."""

    op: EditOp
    before: GraphEdge | None
    after: GraphEdge | None

    def __str__(self) -> str:
        if self.op == "add":
            return f"add {self.after}"
        if self.op == "remove":
            return f"remove {self.before}"
        return f"{self.op} {self.before} to {self.after}"


@dataclass(frozen=True)
class GraphPair:
    """A truth, an estimate and the edits that turn the one into the other (on distinct node pairs)."""

    truth: Graph
    estimate: Graph
    edits: tuple[Edit, ...] = ()

    def count(self, op: EditOp) -> int:
        """How many edits of kind *op*."""
        return sum(1 for e in self.edits if e.op == op)

    def __str__(self) -> str:
        edits = "; ".join(map(str, self.edits)) or "no edits"
        return f"truth {self.truth} | estimate {self.estimate} | {edits}"


def _names(names: st.SearchStrategy[list[str]] | None, dialect: str | NamePolicy, lo: int, hi: int) -> st.SearchStrategy[list[str]]:
    if names is not None:
        return names
    return name_lists(dialect, min_size=lo, max_size=hi)


@st.composite
def dags(
    draw: st.DrawFn,
    *,
    min_nodes: int = 1,
    max_nodes: int = 6,
    max_edges: int | None = None,
    min_edges: int = 0,
    density: float | None = None,
    max_in_degree: int | None = None,
    dialect: str | NamePolicy = "exact",
    names: st.SearchStrategy[list[str]] | None = None,
    isolated: int | tuple[int, int] = 0,
) -> Graph:
    """A DAG on ``min_nodes..max_nodes`` nodes named under *dialect* (or drawn from *names*).

    *density* (0..1) is the chance of each forward pair becoming an edge; without it the
    edges are a uniform sub-list of the forward pairs (at most *max_edges*).  *max_in_degree*
    bounds every node's parents; *min_edges* asks for at least that many edges (as far as
    the node count allows); *isolated* (a count or a range) adds that many nodes without
    edges (named ``isolated0``, ...) after the others.  Shrinks to fewer nodes, fewer edges,
    simpler names.
    """
    nodes = draw(_names(names, dialect, min_nodes, max_nodes))
    lo_iso, hi_iso = (isolated, isolated) if isinstance(isolated, int) else isolated
    n_iso = draw(st.integers(lo_iso, hi_iso)) if hi_iso > lo_iso else lo_iso
    forward = list(itertools.combinations(range(len(nodes)), 2))
    if density is not None:
        if not 0.0 <= density <= 1.0:
            raise InputFormatError(f"density={density!r} must be between 0 and 1")
        cut = round(100 * (1 - density))
        chosen = [p for p in forward if draw(st.integers(0, 99)) >= cut] if density > 0 else []
        if max_edges is not None:
            chosen = chosen[:max_edges]
    else:
        limit = len(forward) if max_edges is None else max_edges
        lo = min(min_edges, len(forward), limit)
        chosen = draw(st.lists(st.sampled_from(forward), unique=True, min_size=lo, max_size=limit)) if forward else []
    indeg = [0] * len(nodes)
    edges: list[GraphEdge] = []
    for i, j in chosen:
        if max_in_degree is not None and indeg[j] >= max_in_degree:
            continue
        indeg[j] += 1
        edges.append(GraphEdge.directed(nodes[i], nodes[j]))
    lone = [f"isolated{k}" for k in range(n_iso) if f"isolated{k}" not in nodes]
    return Graph((*nodes, *lone), tuple(edges))


def with_self_loop(pairs: list[tuple[str, str]], node: str, pos: int) -> list[tuple[str, str]]:
    """*pairs* with the self-loop ``(node, node)`` inserted at position ``pos`` (modulo the length + 1)."""
    k = pos % (len(pairs) + 1)
    return [*pairs[:k], (node, node), *pairs[k:]]


def with_duplicate(pairs: list[tuple[str, str]], pos: int) -> list[tuple[str, str]]:
    """*pairs* with its edge at ``pos`` (modulo the length) listed again right after it; unchanged when empty."""
    if not pairs:
        return list(pairs)
    k = pos % len(pairs)
    return [*pairs[: k + 1], pairs[k], *pairs[k + 1 :]]


@st.composite
def edge_lists(
    draw: st.DrawFn, /, *, self_loops: int | tuple[int, int] = 0, duplicates: int | tuple[int, int] = 0, **kwargs: object
) -> list[tuple[str, str]]:
    """The edges of :func:`dags` (same keywords) as a list of ``(cause, effect)`` pairs.

    *self_loops* and *duplicates* (counts or ranges, default none) insert that many self-loops
    on drawn nodes and repeats of drawn edges at drawn positions: the input a rule over edge
    lists must ignore or refuse.
    """
    g = draw(dags(**kwargs))  # type: ignore[arg-type]
    pairs = [(e.u, e.v) for e in g.edges]

    def count(spec: int | tuple[int, int]) -> int:
        lo, hi = (spec, spec) if isinstance(spec, int) else spec
        return draw(st.integers(lo, hi)) if hi > lo else lo

    for _ in range(count(self_loops)):
        pairs = with_self_loop(pairs, draw(st.sampled_from(g.nodes)), draw(st.integers(0, len(pairs))))
    for _ in range(count(duplicates) if pairs else 0):
        pairs = with_duplicate(pairs, draw(st.integers(0, len(pairs) - 1)))
    return pairs


@st.composite
def _undirect_some(draw: st.DrawFn, graphs: st.SearchStrategy[Graph]) -> Graph:
    g = draw(graphs)
    flags = draw(st.lists(st.booleans(), min_size=len(g.edges), max_size=len(g.edges)))
    edges = [GraphEdge.undirected(e.u, e.v) if f else e for e, f in zip(g.edges, flags, strict=True)]
    return g.with_edges(edges)


def pdags(**kwargs: object) -> st.SearchStrategy[Graph]:
    """A DAG from :func:`dags` (same keywords) with some of its edges made undirected."""
    return _undirect_some(dags(**kwargs))  # type: ignore[arg-type]


def cpdags(**kwargs: object) -> st.SearchStrategy[Graph]:
    """The CPDAG (essential graph) of a DAG from :func:`dags` (same keywords)."""
    return dags(**kwargs).map(cpdag_of)  # type: ignore[arg-type]


def _pag_of(g: Graph) -> Graph:
    edges = []
    for e in g.edges:
        # e.u -> e.v: an arrowhead at e.v when another parent of e.v is not adjacent to e.u
        collider = any(w != e.u and not g.has_edge(w, e.u) for w in g.parents(e.v))
        edges.append(GraphEdge(e.u, e.v, Mark.CIRCLE, Mark.ARROW if collider else Mark.CIRCLE))
    return g.with_edges(edges)


def pags(**kwargs: object) -> st.SearchStrategy[Graph]:
    """A PAG of a DAG from :func:`dags`: ``o->`` into unshielded colliders, ``o-o`` elsewhere."""
    return dags(**kwargs).map(_pag_of)  # type: ignore[arg-type]


_TOKENS = ("->", "--", "<->", "o->", "o-o", "o--")


def apply_edit(g: Graph, edit: Edit) -> Graph:
    """*g* with one :class:`Edit` applied (the edit's ``before`` edge must be in *g*)."""
    edges = [e for e in g.edges if edit.before is None or e != edit.before]
    if edit.after is not None:
        edges.append(edit.after)
    return g.with_edges(edges)


@st.composite
def graph_pairs(
    draw: st.DrawFn,
    truth: st.SearchStrategy[Graph] | None = None,
    *,
    added: int | tuple[int, int] = (0, 2),
    removed: int | tuple[int, int] = (0, 2),
    reversed: int | tuple[int, int] = (0, 2),
    changed: int | tuple[int, int] = 0,
    acyclic: bool = False,
    tokens: Sequence[str] = ("->",),
) -> GraphPair:
    """A truth (default :func:`dags`) and an estimate made by edits on distinct node pairs.

    Each count is an exact number or a ``(low, high)`` range; the drawn counts are capped by
    what the truth allows (a graph with 2 edges cannot lose 3).  ``reversed`` flips directed
    edges; ``changed`` gives an edge other marks (from *tokens*, e.g. ``("--",)`` to make
    edges undirected); ``added`` joins non-adjacent pairs with a *tokens* edge.  With
    *acyclic* the estimate stays a DAG: additions follow the node order and only edges whose
    reversal closes no cycle are reversed.
    """
    g = draw(truth if truth is not None else dags(min_nodes=2))

    def count(spec: int | tuple[int, int], cap: int) -> int:
        lo, hi = (spec, spec) if isinstance(spec, int) else spec
        return min(draw(st.integers(min(lo, cap), min(hi, cap))) if hi >= lo else 0, cap)

    free = list(g.edges)
    edits: list[Edit] = []
    est = g
    n_rev = count(reversed, sum(1 for e in free if e.is_directed))
    if acyclic:  # one at a time: each reversal must close no cycle in the graph so far
        for _ in range(n_rev):
            reversible = [e for e in free if e.is_directed and not _other_path(est, e)]
            if not reversible:
                break
            e = draw(st.sampled_from(reversible))
            edits.append(Edit("reverse", e, GraphEdge.directed(e.v, e.u)))
            est = apply_edit(est, edits[-1])
            free.remove(e)
    elif n_rev:
        directed = [e for e in free if e.is_directed]
        for e in draw(st.lists(st.sampled_from(directed), unique=True, min_size=n_rev, max_size=n_rev)):
            edits.append(Edit("reverse", e, GraphEdge.directed(e.v, e.u)))
            free.remove(e)
    n_rm = count(removed, len(free))
    for e in draw(st.lists(st.sampled_from(free), unique=True, min_size=n_rm, max_size=n_rm)) if n_rm else []:
        edits.append(Edit("remove", e, None))
        free.remove(e)
    n_ch = count(changed, len(free))
    for e in draw(st.lists(st.sampled_from(free), unique=True, min_size=n_ch, max_size=n_ch)) if n_ch else []:
        other = [t for t in tokens if GraphEdge.parse(e.u, t, e.v) != e] or [t for t in _TOKENS if GraphEdge.parse(e.u, t, e.v) != e]
        new_token: str = draw(st.sampled_from(other))
        edits.append(Edit("change", e, GraphEdge.parse(e.u, new_token, e.v)))
        free.remove(e)
    for ed in edits:
        if not acyclic or ed.op != "reverse":
            est = apply_edit(est, ed)
    pos = {n: i for i, n in enumerate(_topological(est) if acyclic else g.nodes)}
    empty = [(a, b) for a, b in itertools.combinations(g.nodes, 2) if not g.has_edge(a, b)]
    n_add = count(added, len(empty))
    for a, b in draw(st.lists(st.sampled_from(empty), unique=True, min_size=n_add, max_size=n_add)) if n_add else []:
        add_token: str = draw(st.sampled_from(list(tokens)))
        if add_token == "->" and not acyclic and draw(st.booleans()):
            a, b = b, a
        if acyclic and pos[a] > pos[b]:
            a, b = b, a
        edits.append(Edit("add", None, GraphEdge.parse(a, add_token, b)))
        est = apply_edit(est, edits[-1])
    return GraphPair(g, est, tuple(edits))


def _topological(g: Graph) -> list[str]:
    """The nodes of *g* in an order its directed edges respect (Kahn; ties in node order)."""
    indeg = {n: 0 for n in g.nodes}
    for e in g.edges:
        if e.is_directed:
            indeg[e.v] += 1
    out: list[str] = []
    ready = [n for n in g.nodes if indeg[n] == 0]
    while ready:
        n = ready.pop(0)
        out.append(n)
        for c in g.children(n):
            indeg[c] -= 1
            if indeg[c] == 0:
                ready.append(c)
    return out + [n for n in g.nodes if n not in set(out)]


def _other_path(g: Graph, e: GraphEdge) -> bool:
    """True when *g* has a directed path ``e.u -> ... -> e.v`` other than *e* (reversing *e* closes a cycle)."""
    stack = [c for c in g.children(e.u) if c != e.v]
    seen: set[str] = set()
    while stack:
        cur = stack.pop()
        if cur == e.v:
            return True
        if cur not in seen:
            seen.add(cur)
            stack.extend(g.children(cur))
    return False
