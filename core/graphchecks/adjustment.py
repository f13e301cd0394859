"""Covariate adjustment: which sets ``Z`` identify the causal effect of ``X`` on ``Y`` by ``∑_z P(y | x, z) P(z)``.

**The adjustment criterion** (Shpitser, VanderWeele & Robins 2010; van der Zander, Liśkiewicz &
Textor 2014; generalised to CPDAGs, MAGs and PAGs by Perković, Textor, Kalisch & Maathuis 2018).
``Z`` is an adjustment set relative to ``(X, Y)`` in ``G`` exactly when

0. ``G`` is *amenable*: every proper possibly causal path from ``X`` to ``Y`` starts with a
   visible directed edge out of ``X`` (always true on a DAG; on a CPDAG the first edge must be
   directed; on a MAG or PAG also *visible*: a node not adjacent to its head points into its tail,
   directly or along a collider path of the head's parents);
1. ``Z`` contains no node of ``Forb(X, Y)``, the (possible) descendants of every node other than
   ``X`` on a proper possibly causal path from ``X`` to ``Y``;
2. ``Z`` m-separates ``X`` and ``Y`` in the *proper back-door graph*: the graph without the first
   edge of every proper causal path.

Proper: only the path's first node is in ``X``.  Possibly causal: every edge can point away
from ``X`` (``->``, ``--`` in a CPDAG, ``o->``, ``o-o``).  Condition 2 is checked on a
:func:`~causalcheck.graphchecks.separation.representative` of a CPDAG's or PAG's class, which
suffices once 0 and 1 hold.  A PDAG is read as maximally oriented (a CPDAG, possibly with
background knowledge: closed under Meek's rules).  ``[latent]`` nodes are never adjusted for.

**The back-door criterion** (Pearl 1993; ``criterion="backdoor"``, DAGs only): ``Z`` contains no
descendant of ``X`` and blocks every path between ``X`` and ``Y`` that starts with an edge into
``X``.  Every back-door set is an adjustment set, not conversely: a non-descendant of ``X``
that is a descendant of a mediator is forbidden by neither, but a set that contains a
descendant of ``X`` off every causal path (``X -> W``, ``W`` not an ancestor of ``Y``) can be an
adjustment set and is never a back-door set.  pgmpy's ``get_all_backdoor_adjustment_sets``
lists the minimal back-door sets; DAGitty's ``adjustmentSets`` the minimal adjustment sets.

**Sets listed.**  *Minimal*: no proper subset (containing the included nodes) is valid; listed by
Kloks & Kratsch's enumeration of minimal separators in the augmented proper back-door graph, as
DAGitty.  *Canonical*: the (possible) ancestors of ``X ∪ Y`` minus ``X``, ``Y``, ``Forb`` and the
latent nodes — valid whenever any set is (van der Zander et al. 2014; Perković et al. 2018).
*Optimal* (the O-set, Henckel, Perković & Maathuis 2022, DAGs and CPDAGs): the parents of the
causal nodes minus ``Forb`` and ``X``; among all valid sets it gives the smallest asymptotic
variance of the adjusted estimator in linear models.

>>> from causalcheck.graphs.formats import parse_dagitty
>>> g = parse_dagitty("dag { x [exposure] y [outcome] a -> x -> m -> y; a -> b -> y; x -> y }")
>>> result = adjustment_sets(g)
>>> result.minimal, result.canonical, result.optimal
((('a',), ('b',)), ('a', 'b'), ('b',))
>>> print(is_adjustment_set(g, ["m"]).reason)
m lies on a causal path from the exposure to the outcome (it is in Forb(X, Y)); adjusting for it biases the effect
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.kinds import check_dag
from causalcheck.graphchecks.separation import (
    Separator,
    augmented_graph,
    list_minimal_separators,
    node_set,
    query_graph,
)
from causalcheck.graphs.model import Graph, GraphEdge, Mark, reachable

__all__ = ["AdjustmentCheck", "AdjustmentSets", "Criterion", "adjustment_sets", "is_adjustment_set"]

Criterion = Literal["adjustment", "backdoor"]

#: How many minimal sets :func:`adjustment_sets` lists by default (their number can grow exponentially).
DEFAULT_LIMIT = 1000


@dataclass(frozen=True)
class AdjustmentCheck:
    """Whether ``given`` is a valid adjustment set for the effect of ``exposure`` on ``outcome``.

    ``reason`` says why not (empty when valid); ``identifiable`` is False when no set at all can
    be valid by this criterion (the graph is not amenable, or no set blocks every biasing path).
    """

    exposure: tuple[str, ...]
    outcome: tuple[str, ...]
    given: tuple[str, ...]
    valid: bool
    reason: str = ""
    criterion: Criterion = "adjustment"

    def __bool__(self) -> bool:
        return self.valid

    def to_dict(self) -> dict[str, object]:
        """``{"exposure", "outcome", "given", "valid", "reason", "criterion"}``."""
        return {"exposure": list(self.exposure), "outcome": list(self.outcome), "given": list(self.given),
                "valid": self.valid, "reason": self.reason, "criterion": self.criterion}  # fmt: skip


@dataclass(frozen=True)
class AdjustmentSets:
    """The adjustment sets of one graph for ``exposure`` → ``outcome`` (see the module docstring).

    ``identifiable``: some set is valid; otherwise ``reason`` says why not and the lists are empty.
    ``minimal``: every minimal valid set containing ``included``, each in graph order, the lists
    by size then graph order (``truncated`` when ``limit`` cut it).  ``canonical`` and ``optimal``
    are None where they do not exist or are not defined (``optimal_reason`` says which).
    ``given``: the check of the graph's ``[adjusted]`` nodes, when it has any.
    """

    exposure: tuple[str, ...]
    outcome: tuple[str, ...]
    criterion: Criterion
    identifiable: bool
    reason: str = ""
    minimal: tuple[tuple[str, ...], ...] = ()
    canonical: tuple[str, ...] | None = None
    optimal: tuple[str, ...] | None = None
    optimal_reason: str = ""
    included: tuple[str, ...] = ()
    truncated: bool = False
    given: AdjustmentCheck | None = field(default=None)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready: the fields above, sets as lists."""
        return {
            "exposure": list(self.exposure), "outcome": list(self.outcome), "criterion": self.criterion,
            "identifiable": self.identifiable, "reason": self.reason, "minimal": [list(s) for s in self.minimal],
            "truncated": self.truncated, "canonical": None if self.canonical is None else list(self.canonical),
            "optimal": None if self.optimal is None else list(self.optimal), "optimal_reason": self.optimal_reason,
            "included": list(self.included), "given": None if self.given is None else self.given.to_dict(),
        }  # fmt: skip


# --------------------------------------------------------------------------- the graph's structure


def _possibly_directed(e: GraphEdge, a: str, pdag: bool) -> bool:
    """True when edge *e* can point from *a* to its other end."""
    b = e.other(a)
    at_a, at_b = e.mark_at(a), e.mark_at(b)
    if at_a is Mark.ARROW:
        return False
    return at_b is not Mark.TAIL or (pdag and at_a is Mark.TAIL)


@dataclass(frozen=True)
class _Setting:
    """Everything the criterion needs of one graph, exposure and outcome."""

    graph: Graph
    exposure: tuple[str, ...]
    outcome: tuple[str, ...]
    latent: frozenset[str]
    causal: frozenset[str]  # nodes other than X on proper possibly causal paths from X to Y
    forbidden: frozenset[str]  # Forb(X, Y): possible descendants of the causal nodes
    blocker: str  # why the graph is not amenable ("" when it is)
    backdoor_graph: Graph  # the proper back-door graph of a representative
    possible_ancestors: frozenset[str]  # of X ∪ Y, themselves included


def _visible(graph: Graph, tail: str, head: str) -> bool:
    """True when the directed edge *tail* -> *head* of a MAG or PAG is visible (Zhang 2008)."""
    chain = {tail}
    stack = [tail]
    while stack:
        v = stack.pop()
        for e in graph.incident(v):
            c = e.other(v)
            if c == head or e.mark_at(v) is not Mark.ARROW:
                continue
            if not graph.has_edge(c, head):
                return True  # c *-> v, and v is the tail or a collider on a path into the tail
            if e.mark_at(c) is Mark.ARROW and c not in chain and graph.mark(head, c) is Mark.ARROW and graph.mark(c, head) is Mark.TAIL:
                chain.add(c)  # c <-> v with c -> head: the collider path may go on through c
                stack.append(c)
    return False


def _kind(graph: Graph) -> str:
    """The graph's kind, a DAG declared ``mag``/``pag`` in DAGitty's syntax counting as a MAG (its edges need to be visible)."""
    kind = graph.kind
    if kind == "DAG" and graph.meta.get("dagitty_type") in ("mag", "pag"):
        return "MAG"
    return kind


def _setting(graph: Graph, exposure: tuple[str, ...], outcome: tuple[str, ...]) -> _Setting:
    kind = _kind(graph)
    if kind in ("MAG", "PAG"):
        selection = [e for e in graph.edges if e.mark_u is Mark.TAIL and e.mark_v is Mark.TAIL]
        if selection:
            raise InputFormatError(
                f"the {kind} has the edge {str(selection[0])!r}: adjustment under selection bias (-- edges in a MAG or PAG) is not supported"
            )
    if kind == "DAG":
        cert = check_dag(graph)
        if not cert:
            raise InputFormatError(f"adjustment sets need an acyclic graph: {cert.reason}")
    pdag = kind in ("DAG", "PDAG")
    succ: dict[str, list[str]] = {n: [] for n in graph.nodes}
    pred: dict[str, list[str]] = {n: [] for n in graph.nodes}
    for e in graph.edges:
        for a in (e.u, e.v):
            if _possibly_directed(e, a, pdag):
                succ[a].append(e.other(a))
                pred[e.other(a)].append(a)
    xs = set(exposure)
    from_x = reachable((w for x in exposure for w in succ[x] if w not in xs), lambda v: [w for w in succ[v] if w not in xs])
    to_y = reachable((y for y in outcome), lambda v: [w for w in pred[v] if w not in xs])
    causal = frozenset(from_x & to_y)
    forbidden = reachable(causal, succ.__getitem__)
    blocker = ""
    for x in exposure:
        for e in graph.incident(x):
            w = e.other(x)
            if w in xs or w not in to_y or not _possibly_directed(e, x, pdag):
                continue
            directed = e.mark_at(x) is Mark.TAIL and e.mark_at(w) is Mark.ARROW
            if not directed:
                blocker = f"the edge {str(e)!r} may point into {x!r} or out of it, and a causal path to the outcome may start with it"
            elif not pdag and not _visible(graph, x, w):
                blocker = f"the edge {str(e)!r} is not visible: a latent confounder of {x!r} and {w!r} is not ruled out"
            if blocker:
                break
        if blocker:
            break
    rep = query_graph(graph)
    cut = {(x, w) for x in exposure for w in causal}
    backdoor = rep.with_edges(e for e in rep.edges if not (e.is_directed and (e.u, e.v) in cut))
    ancestors = reachable((*exposure, *outcome), pred.__getitem__)
    return _Setting(graph, exposure, outcome, frozenset(graph.latent), causal, frozenset(forbidden), blocker, backdoor, ancestors)


def _sides(graph: Graph, exposure: str | Iterable[str] | None, outcome: str | Iterable[str] | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    xs = node_set(graph, graph.exposure if exposure is None else exposure, "exposure")
    ys = node_set(graph, graph.outcome if outcome is None else outcome, "outcome")
    if not xs:
        raise InputFormatError("no exposure: pass exposure= or mark a node [exposure] in the graph")
    if not ys:
        raise InputFormatError("no outcome: pass outcome= or mark a node [outcome] in the graph")
    both = set(xs) & set(ys)
    if both:
        raise InputFormatError(f"exposure={list(xs)!r} and outcome={list(ys)!r} must be disjoint; both contain {sorted(both)!r}")
    return xs, ys


def _separated(graph: Graph, xs: Iterable[str], ys: Iterable[str], given: Iterable[str]) -> tuple[str, str] | None:
    """None when *given* m-separates *xs* and *ys* in *graph*; else a connected pair."""
    sep = Separator(graph)
    zi = [sep.index[z] for z in given]
    targets = {sep.index[y] for y in ys}
    for x in xs:
        hit = sep.connected(sep.index[x], zi) & targets
        if hit:
            return x, sep.names[min(hit)]
    return None


def _backdoor_graph(graph: Graph, exposure: Iterable[str]) -> Graph:
    xs = set(exposure)
    return graph.with_edges(e for e in graph.edges if not (e.is_directed and e.u in xs))


def _descendants(graph: Graph, nodes: Iterable[str]) -> frozenset[str]:
    return frozenset().union(*(graph.descendants(x) for x in nodes))


def _inadmissible(s: _Setting, z: str, criterion: Criterion) -> str:
    """Why node *z* can be in no valid set ("" when it can)."""
    if z in s.exposure or z in s.outcome:
        return f"{z} is {'an exposure' if z in s.exposure else 'an outcome'} node and cannot be adjusted for"
    if z in s.latent:
        return f"{z} is latent (unobserved) and cannot be adjusted for"
    if criterion == "backdoor":
        if z in _descendants(s.graph, s.exposure):
            return f"{z} is a descendant of the exposure; the back-door criterion admits none"
    elif z in s.forbidden:
        where = "lies on" if z in s.causal else "descends from a node on"
        return f"{z} {where} a causal path from the exposure to the outcome (it is in Forb(X, Y)); adjusting for it biases the effect"
    return ""


def _check(s: _Setting, given: tuple[str, ...], criterion: Criterion) -> AdjustmentCheck:
    def verdict(reason: str) -> AdjustmentCheck:
        return AdjustmentCheck(s.exposure, s.outcome, given, not reason, reason, criterion)

    if criterion == "adjustment" and s.blocker:
        return verdict(f"the effect is not identifiable by adjustment: {s.blocker}")
    for z in given:
        why = _inadmissible(s, z, criterion)
        if why:
            return verdict(why)
    if criterion == "backdoor":
        open_pair = _separated(_backdoor_graph(s.graph, s.exposure), s.exposure, s.outcome, given)
        if open_pair:
            return verdict(f"a back-door path from {open_pair[0]} to {open_pair[1]} is open given the set")
        return verdict("")
    open_pair = _separated(s.backdoor_graph, s.exposure, s.outcome, given)
    if open_pair:
        return verdict(f"a non-causal path from {open_pair[0]} to {open_pair[1]} is open given the set (they are m-connected in the proper back-door graph)")
    return verdict("")


def _criterion(graph: Graph, criterion: str) -> Criterion:
    if criterion not in ("adjustment", "backdoor"):
        raise InputFormatError(f"criterion={criterion!r} must be 'adjustment' or 'backdoor'")
    if criterion == "backdoor" and graph.kind != "DAG":
        raise InputFormatError(f"criterion='backdoor' needs a DAG; this graph is a {graph.kind} (use criterion='adjustment')")
    return criterion  # type: ignore[return-value]


def is_adjustment_set(
    graph: Graph,
    given: Iterable[str] | None = None,
    exposure: str | Iterable[str] | None = None,
    outcome: str | Iterable[str] | None = None,
    *,
    criterion: Criterion = "adjustment",
) -> AdjustmentCheck:
    """Whether *given* (default: the graph's ``[adjusted]`` nodes) is a valid adjustment set.

    *exposure* and *outcome* (a node or several) default to the graph's ``[exposure]`` and
    ``[outcome]`` nodes.  ``criterion="adjustment"`` (default) is the generalised adjustment
    criterion, as DAGitty's ``isAdjustmentSet``; ``"backdoor"`` is Pearl's back-door criterion
    (DAGs), as pgmpy's ``is_valid_backdoor_adjustment_set`` (which does not itself refuse
    descendants of the exposure).  Raises :class:`InputFormatError` for an unknown node.

    >>> from causalcheck.graphs.formats import parse_text
    >>> g = parse_text("z -> x -> y; z -> y")
    >>> bool(is_adjustment_set(g, ["z"], "x", "y")), bool(is_adjustment_set(g, [], "x", "y"))
    (True, False)
    """
    crit = _criterion(graph, criterion)
    xs, ys = _sides(graph, exposure, outcome)
    zs = node_set(graph, _adjusted(graph) if given is None else given, "adjusted")
    return _check(_setting(graph, xs, ys), zs, crit)


def _adjusted(graph: Graph) -> tuple[str, ...]:
    attrs = graph.attributes
    return tuple(n for n in graph.nodes if attrs.get(n, {}).get("adjusted"))


def adjustment_sets(
    graph: Graph,
    exposure: str | Iterable[str] | None = None,
    outcome: str | Iterable[str] | None = None,
    *,
    criterion: Criterion = "adjustment",
    included: Iterable[str] | None = None,
    limit: int | None = DEFAULT_LIMIT,
) -> AdjustmentSets:
    """The minimal, canonical and optimal adjustment sets for *exposure* → *outcome* (see the module docstring).

    *exposure*, *outcome* default to the graph's ``[exposure]``/``[outcome]`` nodes and
    *included* to its ``[adjusted]`` nodes: the minimal sets listed all contain them (as
    DAGitty's ``adjustmentSets``), and ``given`` reports whether they are valid themselves.
    When the effect is not identifiable by adjustment, ``identifiable`` is False and ``reason``
    says why — no exception.  Raises :class:`InputFormatError` for an unknown node, overlapping
    exposure and outcome, or a graph the criterion is not defined on.
    """
    crit = _criterion(graph, criterion)
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise InputFormatError(f"limit={limit!r} must be a positive integer or None")
    xs, ys = _sides(graph, exposure, outcome)
    inc = node_set(graph, _adjusted(graph) if included is None else included, "included")
    s = _setting(graph, xs, ys)
    given = _check(s, inc, crit) if inc else None

    def result(reason: str, **kw: object) -> AdjustmentSets:
        return AdjustmentSets(xs, ys, crit, not reason, reason, included=inc, given=given, **kw)  # type: ignore[arg-type]

    if crit == "adjustment" and s.blocker:
        return result(f"the graph is not amenable: {s.blocker}")
    for z in inc:
        why = _inadmissible(s, z, crit)
        if why:
            return result(f"no valid set contains the included nodes: {why}")
    if crit == "adjustment":
        work, barred = s.backdoor_graph, s.forbidden
    else:
        work, barred = _backdoor_graph(graph, xs), _descendants(graph, xs)
    minimal, truncated = _minimal_sets(work, xs, ys, inc, barred | s.latent, limit)
    if not minimal:
        return result("no set of observed nodes blocks every biasing path" + ("" if not inc else " while containing the included nodes"))
    canonical = optimal = None
    why_not = "the canonical and optimal sets are defined for criterion='adjustment'"
    if crit == "adjustment":
        pos = graph.index
        canon = tuple(sorted(s.possible_ancestors - set(xs) - set(ys) - s.forbidden - s.latent, key=pos.__getitem__))
        canonical = canon if _check(s, canon, crit).valid else None
        optimal, why_not = _optimal(s)
    return result("", minimal=tuple(minimal), truncated=truncated, canonical=canonical, optimal=optimal,
                  optimal_reason="" if optimal is not None else why_not)  # fmt: skip


def _minimal_sets(
    work: Graph, xs: tuple[str, ...], ys: tuple[str, ...], inc: tuple[str, ...], barred: frozenset[str], limit: int | None
) -> tuple[list[tuple[str, ...]], bool]:
    sep = Separator(work)
    ix, iy = {sep.index[n] for n in xs}, {sep.index[n] for n in ys}
    ii = {sep.index[n] for n in inc}
    ancestral = sep.ancestors_of(ix | iy | ii)
    adj = augmented_graph(sep, ancestral)
    for v in ii:  # the included nodes are in every set: take them out of the graph
        for w in adj[v]:
            adj[w].discard(v)
        adj[v] = set()
    allowed = {v for v in ancestral if sep.names[v] not in barred} - ix - iy - ii
    found, truncated = list_minimal_separators(adj, ix, iy, allowed, limit)
    sets = [tuple(sorted(z | ii)) for z in found]
    sets.sort(key=lambda t: (len(t), t))
    return [tuple(sep.names[v] for v in t) for t in sets], truncated


def _optimal(s: _Setting) -> tuple[tuple[str, ...] | None, str]:
    """Henckel, Perković & Maathuis's O-set ``Pa(cn) \\ (Forb ∪ X)``, or None and why not."""
    if _kind(s.graph) not in ("DAG", "PDAG"):
        return None, f"the optimal (O-)set is defined for DAGs and CPDAGs; this graph is a {_kind(s.graph)}"
    beyond = [y for y in s.outcome if y not in s.causal]
    if beyond:
        return None, f"the optimal (O-)set is defined when every outcome node is a (possible) descendant of the exposure; {beyond[0]} is not"
    parents = {p for c in s.causal for p in s.graph.parents(c)}
    pos = s.graph.index
    oset = tuple(sorted(parents - s.forbidden - set(s.exposure), key=pos.__getitem__))
    hidden = [n for n in oset if n in s.latent]
    if hidden:
        return None, f"the optimal (O-)set contains the latent nodes {hidden!r}"
    verdict = _check(s, oset, "adjustment")
    if not verdict.valid:
        return None, f"the optimal (O-)set {list(oset)!r} is not valid here: {verdict.reason}"
    return oset, ""
