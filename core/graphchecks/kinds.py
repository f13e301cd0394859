"""Is this graph what it claims to be?  DAG, CPDAG, MAG and PAG checks with certificates.

Each check returns a :class:`Certificate`: truthy when the graph passes, and otherwise the
rule that fails, the edge it fails on and the nodes that show it — a reason a user can
verify by looking at the graph, not a bare yes/no.

* :func:`check_dag` — only ``->`` edges and no directed cycle (the cycle is named).
* :func:`check_cpdag` — the graph is the CPDAG (essential graph) of some DAG.  The failures,
  in the order they are looked for: a mark a CPDAG cannot have; a directed cycle; an
  undirected edge that one of Meek's rules R1–R4 would orient (a CPDAG is closed under
  them); a chordless undirected cycle (chain components of a CPDAG are chordal); no
  consistent extension (Dor & Tarsi); a directed edge that no v-structure or rule forces
  ("unprotected": the CPDAG of the extension has it undirected); an undirected edge that
  is compelled.  Passing means the graph equals the CPDAG of its consistent extension,
  which is the definition (Andersson, Madigan & Perlman 1997; Meek 1995).
* :func:`consistent_extension` — a DAG with the PDAG's skeleton, its directed edges and no
  new v-structure, or None (Dor & Tarsi 1992).
* :func:`check_mag` — ``->``, ``<->``, ``--`` only; ancestral (no directed cycle, no almost
  directed cycle ``a <-> b`` with ``a`` an ancestor of ``b``, no arrowhead at an endpoint of
  an undirected edge) and maximal (no inducing path between non-adjacent nodes).
* :func:`check_pag` — necessary conditions on a PAG's marks: no directed cycle, no almost
  directed cycle, no arrowhead at an endpoint of an undirected edge.
* :func:`cpdag_of` — the CPDAG of a DAG (the Meek closure in :mod:`causalcheck.solvers.equivalence`).

The graphs these return (:func:`consistent_extension`, :func:`cpdag_of`, a certificate's
``extension``) keep their input's node attributes — DAGitty's ``[latent]``, ``[exposure]``,
``pos`` — and the meta that still holds of them (:func:`causalcheck.graphs.convert.carry_attributes`).

>>> from causalcheck.graphs.formats import parse_text
>>> g = parse_text("a -> b -- c")
>>> c = check_cpdag(g)
>>> bool(c), c.rule, str(c.edge)
(False, 'R1', 'b -- c')
>>> print(c.reason)
Meek's rule R1 orients 'b -- c' as 'b -> c': 'a' -> 'b' and 'a' is not adjacent to 'c'
>>> str(cpdag_of(parse_text("a -> b -> c")))
'a -- b; b -- c'

One module because the DAG, CPDAG, MAG and PAG checks share one certificate type and build on
one another (the CPDAG check uses the DAG check and Meek's rules, the PAG check the MAG check).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.graphs.convert import carry_attributes
from causalcheck.graphs.model import Graph, GraphEdge, Mark, reachable
from causalcheck.solvers.equivalence import (
    chordless_cycle,
    cpdag,
    directed_cycle,
    extension_or_stuck,
    meek_rule,
)
from causalcheck.solvers.equivalence import consistent_extension as extend

__all__ = [
    "Certificate",
    "check_cpdag",
    "check_dag",
    "check_mag",
    "check_pag",
    "consistent_extension",
    "cpdag_of",
    "validate",
]


@dataclass(frozen=True)
class Certificate:
    """The outcome of a check: ``ok`` plus, on failure, the rule, the edge and the witness nodes.

    ``rule`` is one of ``"marks"``, ``"cycle"``, ``"R1"``–``"R4"``, ``"chordality"``,
    ``"extension"``, ``"unprotected"``, ``"compelled"``, ``"almost-directed cycle"``,
    ``"undirected edge"``, ``"inducing path"``; ``witness`` lists the nodes of the cycle,
    path or rule configuration in order.  ``extension`` is a consistent extension when one
    was computed.
    """

    ok: bool
    claim: str
    reason: str
    rule: str | None = None
    edge: GraphEdge | None = None
    witness: tuple[str, ...] = ()
    extension: Graph | None = None

    def __bool__(self) -> bool:
        return self.ok

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the extension as :meth:`Graph.to_dict`)."""
        return {
            "ok": self.ok,
            "claim": self.claim,
            "reason": self.reason,
            "rule": self.rule,
            "edge": None if self.edge is None else [self.edge.u, self.edge.token, self.edge.v],
            "witness": list(self.witness),
            "extension": None if self.extension is None else self.extension.to_dict(),
        }


def _fail(claim: str, rule: str, reason: str, edge: GraphEdge | None = None, witness: Sequence[str] = ()) -> Certificate:
    return Certificate(False, claim, reason, rule, edge, tuple(witness))


def _first(*checks: Callable[[], Certificate | None]) -> Certificate | None:
    """The first failing certificate of *checks* (run in order, lazily); None when all pass."""
    for check in checks:
        found = check()
        if found is not None:
            return found
    return None


def _bad_mark(g: Graph, allowed: set[str], claim: str) -> Certificate | None:
    for e in g.edges:
        if e.token not in allowed:
            return _fail(
                claim,
                "marks",
                f"edge {str(e)!r} cannot occur in a {claim} (allowed: {' '.join(sorted(allowed))})",
                e,
                (e.u, e.v),
            )
    return None


def _cycle_text(names: Sequence[str]) -> str:
    return " -> ".join(names)


def _directed_cycle(g: Graph, claim: str) -> Certificate | None:
    names, idx = g.indexed()
    cyc = directed_cycle(len(names), [(i, j) for i, j, mi, mj in idx if mi is Mark.TAIL and mj is Mark.ARROW])
    if not cyc:
        return None
    witness = [names[v] for v in cyc]
    edge = g.edge(witness[0], witness[1])
    return _fail(claim, "cycle", f"directed cycle {_cycle_text(witness)}", edge, witness)


def check_dag(g: Graph) -> Certificate:
    """A DAG: every edge ``->`` and no directed cycle.

    >>> from causalcheck.graphs.formats import parse_text
    >>> print(check_dag(parse_text("a -> b -> c -> a")).reason)
    directed cycle a -> b -> c -> a
    """
    bad = _first(lambda: _bad_mark(g, {"->"}, "DAG"), lambda: _directed_cycle(g, "DAG"))
    return bad if bad is not None else Certificate(True, "DAG", "every edge is directed and there is no directed cycle")


# --------------------------------------------------------------------------- PDAG / CPDAG


class _Pdag:
    """Integer view of a PDAG: adjacency, directed parents/children, undirected neighbours."""

    def __init__(self, g: Graph) -> None:
        self.names = g.nodes
        n = len(self.names)
        pos = g.index
        self.adj: list[set[int]] = [set() for _ in range(n)]
        self.dpa: list[set[int]] = [set() for _ in range(n)]
        self.dch: list[set[int]] = [set() for _ in range(n)]
        self.und: list[set[int]] = [set() for _ in range(n)]
        self.undirected: list[tuple[int, int]] = []
        for e in g.edges:
            a, b = pos[e.u], pos[e.v]
            self.adj[a].add(b)
            self.adj[b].add(a)
            if e.is_directed:
                self.dpa[b].add(a)
                self.dch[a].add(b)
            else:
                self.und[a].add(b)
                self.und[b].add(a)
                self.undirected.append((min(a, b), max(a, b)))


def _rule_witness(p: _Pdag, rule: int, a: int, b: int) -> tuple[list[int], str]:
    """Nodes and a sentence showing why *rule* orients ``a - b`` as ``a -> b``."""
    n = p.names
    if rule == 1:
        c = min(c for c in p.dpa[a] if c not in p.adj[b])
        return [c, a, b], f"{n[c]!r} -> {n[a]!r} and {n[c]!r} is not adjacent to {n[b]!r}"
    if rule == 2:
        c = min(p.dch[a] & p.dpa[b])
        return [a, c, b], f"{n[a]!r} -> {n[c]!r} -> {n[b]!r} (the other way would close a cycle)"
    if rule == 3:
        cands = sorted(c for c in p.und[a] if c in p.dpa[b])
        for i, c in enumerate(cands):
            for d in cands[i + 1 :]:
                if d not in p.adj[c]:
                    return [c, a, d, b], (
                        f"{n[c]!r} -- {n[a]!r} -- {n[d]!r} with {n[c]!r} -> {n[b]!r} <- {n[d]!r} "
                        f"and {n[c]!r}, {n[d]!r} not adjacent"
                    )
    for c in sorted(p.und[a]):  # rule 4
        if c in p.adj[b]:
            continue
        ds = sorted(p.dch[c] & p.dpa[b])
        if ds:
            d = ds[0]
            return [c, a, d, b], (
                f"{n[c]!r} -- {n[a]!r}, {n[c]!r} -> {n[d]!r} -> {n[b]!r} and {n[c]!r} not adjacent to {n[b]!r}"
            )
    raise AssertionError("meek_rule reported a rule without a configuration")  # pragma: no cover


def _meek_violation(g: Graph, p: _Pdag, claim: str) -> Certificate | None:
    n = p.names
    for lo, hi in p.undirected:
        for a, b in ((lo, hi), (hi, lo)):
            rule = meek_rule(a, b, p.adj, p.dpa, p.dch, p.und)
            if rule:
                witness, why = _rule_witness(p, rule, a, b)
                edge = g.edge(n[a], n[b])
                return _fail(
                    claim,
                    f"R{rule}",
                    f"Meek's rule R{rule} orients {n[a] + ' -- ' + n[b]!r} as {n[a] + ' -> ' + n[b]!r}: {why}",
                    edge,
                    [n[v] for v in witness],
                )
    return None


def _chordality(g: Graph, p: _Pdag, claim: str) -> Certificate | None:
    import networkx as nx

    und = nx.Graph()
    und.add_edges_from(p.undirected)
    if nx.is_chordal(und):  # linear time; the witness search below runs only on failure
        return None
    cyc = chordless_cycle(len(p.names), p.undirected)
    if not cyc:
        return None
    names = [p.names[v] for v in cyc]
    return _fail(
        claim,
        "chordality",
        f"the undirected cycle {' -- '.join([*names, names[0]])} has no chord (chain components of a CPDAG are chordal)",
        g.edge(names[0], names[1]),
        names,
    )


def _extension(g: Graph, claim: str) -> Graph | Certificate:
    ext, stuck = extension_or_stuck(g)
    if ext is None:
        return _fail(
            claim,
            "extension",
            f"no consistent extension: none of {list(stuck)!r} can be made a sink without a new v-structure or a cycle",
            None,
            stuck,
        )
    return carry_attributes(g, ext)


def consistent_extension(g: Graph) -> Graph | None:
    """A DAG extending the PDAG *g* without new v-structures (Dor & Tarsi), or None if none exists.

    :func:`causalcheck.solvers.equivalence.consistent_extension`, exported here beside the checks;
    the DAG keeps *g*'s node attributes and the meta that still holds (:func:`~causalcheck.graphs.convert.carry_attributes`).

    >>> from causalcheck.graphs.formats import parse_text
    >>> ext = consistent_extension(parse_text("a -> b -- c").with_attributes({"a": {"latent": True}}))
    >>> str(ext), ext.latent
    ('a -> b; b -> c', ('a',))
    """
    ext = extend(g)
    return None if ext is None else carry_attributes(g, ext)


def cpdag_of(dag: Graph) -> Graph:
    """The CPDAG of the DAG *dag* (raises :class:`InputFormatError` naming a cycle or a bad mark).

    :func:`causalcheck.solvers.equivalence.cpdag` behind the DAG certificate's error message; the
    CPDAG keeps *dag*'s node attributes and the meta that still holds (:func:`~causalcheck.graphs.convert.carry_attributes`).
    """
    cert = check_dag(dag)
    if not cert:
        raise InputFormatError(f"cpdag_of needs a DAG: {cert.reason}")
    return carry_attributes(dag, cpdag(dag))


def check_cpdag(g: Graph) -> Certificate:
    """Is *g* the CPDAG of some DAG?  A failing certificate names the edge and the rule.

    >>> from causalcheck.graphs.formats import parse_text
    >>> print(check_cpdag(parse_text("a -> b")).reason)
    'a -> b' is unprotected: no v-structure or Meek rule forces it, so the CPDAG of every consistent extension has 'a -- b'
    >>> check_cpdag(parse_text("a -> c <- b")).ok
    True
    """
    claim = "CPDAG"
    p = _Pdag(g)
    bad = _first(
        lambda: _bad_mark(g, {"->", "--"}, claim),
        lambda: _directed_cycle(g, claim),
        lambda: _meek_violation(g, p, claim),
        lambda: _chordality(g, p, claim),
    )
    if bad is not None:
        return bad
    ext = _extension(g, claim)
    if isinstance(ext, Certificate):
        return ext
    cp = cpdag_of(ext)
    for e in g.edges:
        c = cp.edge(e.u, e.v)
        assert c is not None
        if e.is_directed and c.is_undirected:
            return _fail(
                claim,
                "unprotected",
                f"{str(e)!r} is unprotected: no v-structure or Meek rule forces it, so the CPDAG of every "
                f"consistent extension has {str(c)!r}",
                e,
                (e.u, e.v),
            )
        if e.is_undirected and c.is_directed:
            vs = [w for w in cp.parents(c.v) if w != c.u and not cp.has_edge(w, c.u)]
            if vs:
                return _fail(
                    claim,
                    "compelled",
                    f"{str(e)!r} is compelled: every consistent extension has the v-structure "
                    f"{c.u} -> {c.v} <- {vs[0]}",
                    e,
                    (c.u, c.v, vs[0]),
                )
            q = _Pdag(cp.with_edges([e if {x.u, x.v} == {e.u, e.v} else x for x in cp.edges]))
            pos = {v: i for i, v in enumerate(q.names)}

            rule = meek_rule(pos[c.u], pos[c.v], q.adj, q.dpa, q.dch, q.und)
            witness, why = _rule_witness(q, rule, pos[c.u], pos[c.v]) if rule else ([], "")
            return _fail(
                claim,
                "compelled",
                f"{str(e)!r} is compelled: in the CPDAG Meek's rule R{rule} orients it as {str(c)!r}: {why}",
                e,
                [q.names[v] for v in witness] or (c.u, c.v),
            )
    return Certificate(True, claim, "the graph equals the CPDAG of its consistent extension", extension=ext)


# --------------------------------------------------------------------------- MAG / PAG


def _ancestral(g: Graph, claim: str) -> Certificate | None:
    bad = _directed_cycle(g, claim)
    if bad is not None:
        return bad
    for e in g.edges:
        if e.is_bidirected:
            for a, b in ((e.u, e.v), (e.v, e.u)):
                if a in g.ancestors(b):
                    return _fail(
                        claim,
                        "almost-directed cycle",
                        f"{str(e)!r} with {a!r} an ancestor of {b!r}: an almost directed cycle",
                        e,
                        (a, b),
                    )
        if e.is_undirected:
            for x in (e.u, e.v):
                heads = g.into(x)
                if heads:
                    return _fail(
                        claim,
                        "undirected edge",
                        f"{str(e)!r} meets an arrowhead at {x!r} (from {heads[0]!r}); "
                        "an endpoint of an undirected edge has no parents or spouses",
                        e,
                        (x, heads[0]),
                    )
    return None


def _inducing_path(g: Graph, a: str, b: str) -> list[str] | None:
    """An inducing path ``a *-> v1 <-> ... <-> vk <-* b`` (every vi a collider in An({a, b}))."""
    an = reachable((a, b), g.parents)  # a, b and their ancestors
    starts = [v for v in g.adjacent(a) if v != b and v in an and g.mark(v, a) is Mark.ARROW]
    prev: dict[str, str] = {v: a for v in starts}
    queue = deque(starts)
    while queue:
        v = queue.popleft()
        if g.has_edge(v, b) and g.mark(v, b) is Mark.ARROW:
            path = [b, v]
            while path[-1] != a:
                path.append(prev[path[-1]])
            return path[::-1]
        for w in g.spouses(v):
            if w not in prev and w not in (a, b) and w in an:
                prev[w] = v
                queue.append(w)
    return None


def check_mag(g: Graph) -> Certificate:
    """A maximal ancestral graph: ancestral, and no inducing path between non-adjacent nodes.

    >>> from causalcheck.graphs.formats import parse_text
    >>> print(check_mag(parse_text("a -> b -> c; a <-> c")).reason)
    'a <-> c' with 'a' an ancestor of 'c': an almost directed cycle
    >>> c = check_mag(parse_text("a <-> b <-> c <-> d; b -> d; c -> a"))
    >>> c.rule, c.witness
    ('inducing path', ('a', 'b', 'c', 'd'))
    """
    claim = "MAG"
    bad = _first(lambda: _bad_mark(g, {"->", "<->", "--"}, claim), lambda: _ancestral(g, claim))
    if bad is not None:
        return bad
    nodes = g.nodes
    for i, a in enumerate(nodes):
        for b in nodes[i + 1 :]:
            if g.has_edge(a, b):
                continue
            path = _inducing_path(g, a, b)
            if path:
                return _fail(
                    claim,
                    "inducing path",
                    f"{a!r} and {b!r} are not adjacent but joined by the inducing path {' *-* '.join(path)} "
                    "(a maximal graph adds the edge)",
                    None,
                    path,
                )
    return Certificate(True, claim, "ancestral and maximal")


def check_pag(g: Graph) -> Certificate:
    """Necessary conditions on a PAG's marks: no directed or almost directed cycle, no arrowhead on ``--``."""
    claim = "PAG"
    bad = _ancestral(g, claim)
    return bad if bad is not None else Certificate(True, claim, "no directed or almost directed cycle; undirected edges meet no arrowhead")


def validate(g: Graph) -> Certificate:
    """The check that fits ``g.kind``: DAG, CPDAG (for a PDAG), MAG or PAG."""
    kind = g.kind
    if kind == "DAG":
        return check_dag(g)
    if kind == "PDAG":
        return check_cpdag(g)
    if kind == "MAG":
        return check_mag(g)
    return check_pag(g)
