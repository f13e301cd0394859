"""Explanation graphs: EDUs as nodes, labelled discourse relations as directed edges.

(Not to be confused with :mod:`causalcheck.graph`, the causal graphs of lab hypotheses over
named variables; an explanation graph is built from the text of one answer.)

PRISM turns an answer into a graph whose nodes are elementary discourse units (EDUs) and
whose edges are the RST relations projected onto EDU pairs (see :mod:`.rst`).  The JSON
shape is the official ``parsed_dag``::

    {"nodes": [{"id": "EDU1", "text": "..."}],
     "edges": [{"source": "EDU1", "target": "EDU3", "relation_type": "RESULT", "reason": "..."}]}

The name says "DAG" but nothing makes it one: a model can write a cycle or link two units
both ways.  :func:`check_graph` finds those through the core checks (a minimal cycle via
:mod:`causalcheck.solvers.acyclicity`, opposite-direction pairs via
:mod:`causalcheck.solvers.contradictions`), restricted to the *causal* edges (EDUs that restate one claim merged first) — relation
types ``CAUSE``, ``CONDITION``, ``RESULT``, ``CONSEQUENCE`` (:data:`CAUSAL_TYPES`), the
subset the Process Metric scores.

Statistics (:func:`graph_stats`): node count, edge count, causal-edge count, the longest
directed path over causal edges counted in edges (on the condensation when the causal
edges contain a cycle, so it is always finite), and the number of weakly connected
components over *all* edges, isolated EDUs included.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.explain._fields import as_list, as_text
from causalcheck.explain._text import content_lemmas
from causalcheck.findings import Finding
from causalcheck.graph import CausalGraph, Edge
from causalcheck.graphs.model import Graph, connected_components
from causalcheck.solvers.acyclicity import find_cycle_core
from causalcheck.solvers.contradictions import direction_contradictions

__all__ = [
    "CAUSAL_TYPES",
    "MAX_GRAPH_EDGES",
    "MAX_GRAPH_NODES",
    "ExplanationEdge",
    "ExplanationGraph",
    "ExplanationNode",
    "GraphStats",
    "check_graph",
    "claim_classes",
    "graph_stats",
    "is_causal",
]

#: Most nodes (EDUs) an explanation graph may have.  The offline segmenter cuts a
#: ``MAX_ANSWER_CHARS`` (200 000-character) answer into at most about 20 000 EDUs of three
#: words; a model's parser output for a 4 096-token answer has a few hundred.
MAX_GRAPH_NODES = 20_000

#: Most edges an explanation graph may have (the offline parser makes at most one relation per
#: EDU; real parser outputs give about one edge per EDU).  Every edge is judged — with a model
#: judge that is one call each — so a parser output that projects to more is refused.
MAX_GRAPH_EDGES = 20_000

#: Relation types the Process Metric counts (exact constant of the May-2026 evaluator).
CAUSAL_TYPES: frozenset[str] = frozenset({"CAUSE", "CONDITION", "RESULT", "CONSEQUENCE"})


_CAUSAL_MEMO: dict[str, bool] = {}


def is_causal(relation_type: str) -> bool:
    """True when *relation_type* (any case) is one of :data:`CAUSAL_TYPES`."""
    known = _CAUSAL_MEMO.get(relation_type)
    if known is None:
        known = relation_type.upper() in CAUSAL_TYPES
        if len(_CAUSAL_MEMO) < 4096:  # relation labels are few; bound the memo anyway
            _CAUSAL_MEMO[relation_type] = known
    return known


@dataclass(frozen=True, slots=True)
class ExplanationNode:
    """One EDU as a graph node."""

    id: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "text": self.text}


@dataclass(frozen=True, slots=True)
class ExplanationEdge:
    """A directed edge ``source -> target`` labelled with a relation type and the projection reason."""

    source: str
    target: str
    relation_type: str
    reason: str = ""

    @property
    def causal(self) -> bool:
        """True for ``CAUSE`` / ``CONDITION`` / ``RESULT`` / ``CONSEQUENCE``."""
        return is_causal(self.relation_type)

    def to_json(self) -> dict[str, str]:
        return {
            "source": self.source,
            "target": self.target,
            "relation_type": self.relation_type,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class ExplanationGraph:
    """An answer's explanation graph in the official ``parsed_dag`` shape (edge order is significant:
    edge judgments are index-aligned with ``edges``)."""

    nodes: tuple[ExplanationNode, ...] = ()
    edges: tuple[ExplanationEdge, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def text_of(self) -> dict[str, str]:
        """Node text by id (first occurrence wins for duplicate ids)."""
        out: dict[str, str] = {}
        for n in self.nodes:
            out.setdefault(n.id, n.text)
        return out

    def causal_indices(self) -> tuple[int, ...]:
        """Indices of the causal edges."""
        return tuple(i for i, e in enumerate(self.edges) if e.causal)

    def to_json(self) -> dict[str, Any]:
        """The official ``parsed_dag`` object."""
        return {"nodes": [n.to_json() for n in self.nodes], "edges": [e.to_json() for e in self.edges]}

    @classmethod
    def from_json(cls, obj: Any) -> ExplanationGraph:
        """Read a ``parsed_dag`` object; raises :class:`InputFormatError` naming the bad entry.

        At most :data:`MAX_GRAPH_NODES` nodes and :data:`MAX_GRAPH_EDGES` edges are read.
        """
        if not isinstance(obj, Mapping):
            raise InputFormatError(f"parsed_dag={obj!r:.80} must be an object with 'nodes' and 'edges'")
        raw_nodes = as_list(obj.get("nodes") or None, "parsed_dag.nodes")
        raw_edges = as_list(obj.get("edges") or None, "parsed_dag.edges")
        if len(raw_nodes) > MAX_GRAPH_NODES or len(raw_edges) > MAX_GRAPH_EDGES:
            raise InputFormatError(
                f"parsed_dag has {len(raw_nodes)} nodes and {len(raw_edges)} edges; the limits are "
                f"MAX_GRAPH_NODES={MAX_GRAPH_NODES} and MAX_GRAPH_EDGES={MAX_GRAPH_EDGES}"
            )
        nodes = []
        for n in raw_nodes:
            if not isinstance(n, Mapping) or not isinstance(n.get("id"), str):
                raise InputFormatError(f"parsed_dag node={n!r:.80} must be an object with a string 'id'")
            nodes.append(ExplanationNode(id=n["id"], text=as_text(n.get("text"), "parsed_dag node text")))
        edges = []
        for e in raw_edges:
            if not isinstance(e, Mapping) or not isinstance(e.get("source"), str) or not isinstance(e.get("target"), str):
                raise InputFormatError(f"parsed_dag edge={e!r:.80} must have string 'source' and 'target'")
            edges.append(
                ExplanationEdge(
                    source=e["source"],
                    target=e["target"],
                    relation_type=as_text(e.get("relation_type", e.get("type")), "parsed_dag edge relation_type"),
                    reason=as_text(e.get("reason"), "parsed_dag edge reason"),
                )
            )
        return cls(nodes=tuple(nodes), edges=tuple(edges))

    def to_causal_graph(self, *, causal_only: bool = True) -> CausalGraph:
        """The core :class:`~causalcheck.graph.CausalGraph` (EDU ids as node names, labels kept)."""
        chosen: Iterable[ExplanationEdge] = (e for e in self.edges if e.causal) if causal_only else self.edges
        ids = [n.id for n in self.nodes if n.id]
        return CausalGraph(
            tuple(dict.fromkeys(ids)),
            tuple(Edge(e.source, e.target, e.relation_type) for e in chosen if e.source and e.target),
        )


@dataclass(frozen=True)
class GraphStats:
    """Size and shape of an explanation graph (see the module docstring for the definitions)."""

    nodes: int
    edges: int
    causal_edges: int
    longest_path: int
    components: int
    largest_component: int

    def to_json(self) -> dict[str, int]:
        return {
            "nodes": self.nodes,
            "edges": self.edges,
            "causal_edges": self.causal_edges,
            "longest_path": self.longest_path,
            "components": self.components,
            "largest_component": self.largest_component,
        }


def _dag_longest_path(pairs: Sequence[tuple[str, str]]) -> int | None:
    """Longest path in edges when *pairs* form a DAG (Kahn's order, one pass); ``None`` when they contain a cycle.

    Nodes outside *pairs* are isolated and add nothing, so only the endpoints are visited.
    Hand-written because it runs on every answer (graph statistics and the cycle check's fast
    path): ``tests/benchmarks/bench_graphs.py`` measures it 9x faster than building a
    networkx graph for ``dag_longest_path_length`` at 10–400 EDUs, and the common acyclic
    case never imports networkx.
    """
    succ: dict[str, list[str]] = {}
    indeg: dict[str, int] = {}
    for a, b in pairs:
        succ.setdefault(a, []).append(b)
        indeg[b] = indeg.get(b, 0) + 1
        indeg.setdefault(a, 0)
    dist = dict.fromkeys(indeg, 0)
    todo = [n for n, d in indeg.items() if d == 0]
    done = 0
    while todo:
        n = todo.pop()
        done += 1
        step = dist[n] + 1
        for m in succ.get(n, ()):
            if dist[m] < step:
                dist[m] = step
            indeg[m] -= 1
            if indeg[m] == 0:
                todo.append(m)
    if done < len(indeg):
        return None
    return max(dist.values(), default=0)


def _longest_path(nodes: Sequence[str], pairs: Sequence[tuple[str, str]]) -> int:
    """Longest directed path in edges, over the condensation (strongly connected components collapsed).

    Acyclic edges take the fast path; cyclic ones go to networkx (``condensation``, then
    ``dag_longest_path_length``), imported only then.
    """
    if not pairs:
        return 0
    dag = _dag_longest_path(pairs)
    if dag is not None:
        return dag
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_edges_from(pairs)
    return int(nx.dag_longest_path_length(nx.condensation(g)))


def graph_stats(graph: ExplanationGraph) -> GraphStats:
    """Compute :class:`GraphStats` for *graph*."""
    node_ids = list(dict.fromkeys(n.id for n in graph.nodes))
    causal_edges = [e for e in graph.edges if is_causal(e.relation_type)]
    causal = [(e.source, e.target) for e in causal_edges if e.source != e.target]
    comps = sorted(map(len, connected_components(node_ids, ((e.source, e.target) for e in graph.edges))), reverse=True)
    return GraphStats(
        nodes=len(node_ids),
        edges=len(graph.edges),
        causal_edges=len(causal_edges),
        longest_path=_longest_path(node_ids, causal),
        components=len(comps),
        largest_component=comps[0] if comps else 0,
    )


def claim_classes(graph: ExplanationGraph, ids: Iterable[str] | None = None) -> dict[str, str]:
    """Map every EDU id to the id of the first EDU that states the same claim.

    Two EDUs state the same claim when their sets of content stems (see
    :mod:`._text`) are equal and hold at least two stems — "so wages rise." and
    "Wages rise," are one claim.  Other EDUs map to themselves.  With *ids*, only those
    EDUs are mapped (the cycle check needs only the endpoints of causal edges).
    """
    first: dict[frozenset[str], str] = {}
    out: dict[str, str] = {}
    wanted = None if ids is None else set(ids)
    for n in graph.nodes:
        if wanted is not None and n.id not in wanted:
            continue
        stems = content_lemmas(n.text)
        if len(stems) >= 2:
            out[n.id] = first.setdefault(stems, n.id)
        else:
            out.setdefault(n.id, n.id)
    return out


def check_graph(graph: ExplanationGraph, *, merge_restated: bool = True) -> tuple[Finding, ...]:
    """Cycle and opposite-direction findings on the causal edges of *graph*, through the core checks.

    With *merge_restated* (default) EDUs that restate one claim are merged first
    (:func:`claim_classes`), so "Prices rise, so wages rise. Wages rise, so prices rise."
    is a cycle even though each sentence has its own EDUs.  Codes: ``"cycle"`` (error; a
    minimal cycle, ``elements`` = its edges ``"EDUa -> EDUb"``: the cycle that
    :func:`causalcheck.solvers.acyclicity.find_cycle_core` with ``method="networkx"`` returns —
    one simple cycle, which is already a minimal core; z3 would cost more than the rest of
    the scoring; networkx is imported only when the causal edges have a cycle or a pair
    stated both ways) and ``"direction-contradiction"`` (error; from
    :func:`causalcheck.solvers.contradictions.direction_contradictions`).
    """
    causal_ids = {n for e in graph.edges if is_causal(e.relation_type) for n in (e.source, e.target)}
    if not causal_ids:
        return ()
    mapping = claim_classes(graph, causal_ids) if merge_restated else {}
    pairs = []
    for e in graph.edges:
        if not is_causal(e.relation_type):
            continue
        a, b = mapping.get(e.source, e.source), mapping.get(e.target, e.target)
        if a and b and a != b:
            pairs.append(Edge(a, b, e.relation_type))
    if not pairs:
        return ()
    pair_set = {(p.source, p.target) for p in pairs}
    if _dag_longest_path([(p.source, p.target) for p in pairs]) is not None and not any((b, a) in pair_set for a, b in pair_set):
        return ()  # the common case, decided without building the core graph
    cg = Graph((), tuple(pairs), stated=True)  # EDU ids compared exactly (no CausaLab dialect)
    out: list[Finding] = []
    core = find_cycle_core(cg, method="networkx")
    if core:
        shown = " -> ".join([core[0].source, *(e.target for e in core)])
        merged = sorted({k for k, v in mapping.items() if v != k})
        note = f" (after merging restated claims {merged})" if merged else ""
        out.append(
            Finding(
                code="cycle",
                message=f"the causal edges contain a cycle: {shown}{note}",
                severity="error",
                elements=tuple(f"{e.source} -> {e.target}" for e in core),
            )
        )
    out.extend(direction_contradictions(cg))
    return tuple(out)
