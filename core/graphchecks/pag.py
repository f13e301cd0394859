"""The PAG of a DAG with latent nodes: what observational data on the observed nodes can say of it.

A DAG whose ``[latent]`` nodes are unobserved implies, on the observed nodes, the independencies
of its latent projection, a maximal ancestral graph (MAG:
:func:`~causalcheck.graphchecks.separation.latent_projection`).  MAGs with the same independencies
form a Markov equivalence class, drawn as a *partial ancestral graph* (PAG): the MAG's skeleton,
a mark that every member of the class shares where the PAG shows a tail or an arrowhead, and a
circle ``o`` where members differ (Zhang 2008, "On the completeness of orientation rules for
causal discovery in the presence of latent confounders and selection bias", *AI* 172).

Construction (:func:`pag_of_mag`, Zhang 2008 §3 and Thm. 4): start from the MAG's skeleton with
circles at every end; put an arrowhead at ``b`` on every unshielded collider ``a *-> b <-* c``
of the MAG; close under FCI's orientation rules R1–R4 and R8–R10 (R5–R7 concern selection
variables, which a latent projection has none of).  R4, the discriminating-path rule, reads
whether ``b`` is a collider on the path in the MAG itself, which is what a separating set tells
FCI.  The rules, for a PAG ``P`` (``*`` any mark):

* R1: ``a *-> b o-* c``, ``a``, ``c`` not adjacent ⇒ ``b -> c``;
* R2: ``a -> b *-> c`` or ``a *-> b -> c``, and ``a *-o c`` ⇒ ``a *-> c``;
* R3: ``a *-> b <-* c``, ``a *-o d o-* c``, ``a``, ``c`` not adjacent, ``d *-o b`` ⇒ ``d *-> b``;
* R4: a discriminating path ``<e, ..., a, b, c>`` for ``b`` with ``b o-* c``: ``b -> c`` when ``b``
  is no collider on it in the MAG, else ``a <-> b <-> c``;
* R8: ``a -> b -> c`` or ``a -o b -> c``, and ``a o-> c`` ⇒ ``a -> c``;
* R9: ``a o-> c`` and an uncovered potentially directed path ``<a, b, ..., c>`` with ``b``, ``c``
  not adjacent ⇒ ``a -> c``;
* R10: ``a o-> c``, ``b -> c <- d``, uncovered potentially directed paths from ``a`` to ``b`` and
  from ``a`` to ``d`` whose second nodes differ and are not adjacent ⇒ ``a -> c``.

R9 and R10 enumerate paths, exponential in the worst case; the graphs a user draws by hand are
small.  :func:`pag_of` is the whole conversion, DAG to PAG.

>>> from causalcheck.graphs.formats import parse_dagitty
>>> str(pag_of(parse_dagitty("dag { u [latent] a -> b <- u -> c  d -> c }")))
'a o-> b; b <-> c; d o-> c'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.kinds import check_mag
from causalcheck.graphchecks.separation import latent_projection
from causalcheck.graphs.convert import carry_attributes
from causalcheck.graphs.model import Graph, GraphEdge, Mark

__all__ = ["pag_of", "pag_of_mag"]

C, T, A = Mark.CIRCLE, Mark.TAIL, Mark.ARROW


class _Marks:
    """The PAG under construction: ``mark[(x, y)]`` is the mark at ``y`` on the edge ``x *-* y``."""

    def __init__(self, mag: Graph) -> None:
        self.nodes = mag.nodes
        self.adj: dict[str, set[str]] = {v: set(mag.adjacent(v)) for v in mag.nodes}
        self.mark: dict[tuple[str, str], Mark] = {}
        for e in mag.edges:
            self.mark[(e.u, e.v)] = C
            self.mark[(e.v, e.u)] = C
        self.changed = False

    def at(self, x: str, y: str) -> Mark:
        """The mark at *y* on the edge between *x* and *y*."""
        return self.mark[(x, y)]

    def set(self, x: str, y: str, m: Mark) -> None:
        """Put the mark *m* at *y* on the edge ``x *-* y`` (a circle only: orientations are never undone)."""
        if self.mark[(x, y)] is C and m is not C:
            self.mark[(x, y)] = m
            self.changed = True

    def adjacent(self, x: str, y: str) -> bool:
        return y in self.adj[x]

    def graph(self, like: Graph) -> Graph:
        edges = [GraphEdge(e.u, e.v, self.mark[(e.v, e.u)], self.mark[(e.u, e.v)]) for e in like.edges]
        return Graph(like.nodes, tuple(edges))


def _pd_paths(p: _Marks, start: str, end: str) -> Iterator[list[str]]:
    """Uncovered potentially directed paths from *start* to *end* (no arrowhead towards *start*, no tail towards *end*)."""
    stack: list[list[str]] = [[start]]
    while stack:
        path = stack.pop()
        v = path[-1]
        for w in sorted(p.adj[v]):
            if w in path or p.at(w, v) is A or p.at(v, w) is T:
                continue
            if len(path) > 1 and p.adjacent(path[-2], w):
                continue  # covered: the triple <path[-2], v, w> is shielded
            if w == end:
                yield [*path, w]
            else:
                stack.append([*path, w])


def _discriminating(p: _Marks, b: str, c: str) -> str | None:
    """The node ``a`` before *b* on a discriminating path ``<e, ..., a, b, c>`` for *b*, or None."""
    for a in sorted(p.adj[b]):
        # a <-* ... : a must be a collider-chain node into b and a parent of c
        if a == c or not p.adjacent(a, c) or p.at(b, a) is not A or p.at(a, c) is not A or p.at(c, a) is not T:
            continue
        # walk back from a through colliders that are parents of c, looking for e not adjacent to c
        stack = [[b, a]]
        while stack:
            path = stack.pop()
            v = path[-1]
            for e in sorted(p.adj[v]):
                if e in path or e == c or p.at(e, v) is not A:
                    continue
                if not p.adjacent(e, c):
                    return a
                if p.at(v, e) is A and p.at(e, c) is A and p.at(c, e) is T:  # e a collider on the path, a parent of c
                    stack.append([*path, e])
    return None


def _rules(p: _Marks, mag: Graph) -> None:
    nodes = p.nodes
    for b in nodes:
        for a in sorted(p.adj[b]):
            for c in sorted(p.adj[b]):
                if a == c:
                    continue
                # R1
                if p.at(a, b) is A and p.at(c, b) is C and not p.adjacent(a, c):
                    p.set(c, b, T)
                    p.set(b, c, A)
                # R2
                if p.adjacent(a, c) and p.at(a, c) is C:
                    chain1 = p.at(b, a) is T and p.at(a, b) is A and p.at(b, c) is A
                    chain2 = p.at(a, b) is A and p.at(c, b) is T and p.at(b, c) is A
                    if chain1 or chain2:
                        p.set(a, c, A)
                # R3: a *-> b <-* c, a *-o d o-* c, d *-o b
                if a < c and p.at(a, b) is A and p.at(c, b) is A and not p.adjacent(a, c):
                    for d in sorted(p.adj[a] & p.adj[c] & p.adj[b]):
                        if p.at(a, d) is C and p.at(c, d) is C and p.at(d, b) is C:
                            p.set(d, b, A)
    for b in nodes:  # R4
        for c in sorted(p.adj[b]):
            if p.at(c, b) is not C:
                continue
            start = _discriminating(p, b, c)
            if start is None:
                continue
            collider = mag.mark(b, start) is A and mag.mark(b, c) is A
            if collider:
                p.set(start, b, A)
                p.set(c, b, A)
                p.set(b, c, A)
            else:
                p.set(c, b, T)
                p.set(b, c, A)
    for a in nodes:  # R8, R9, R10 on every a o-> c
        for c in sorted(p.adj[a]):
            if not (p.at(c, a) is C and p.at(a, c) is A):
                continue
            if any(
                p.at(a, b) is A and p.at(b, c) is A and p.at(c, b) is T and p.at(b, a) in (T, C)
                for b in p.adj[a] & p.adj[c]
            ):
                p.set(c, a, T)  # R8
                continue
            if any(len(path) > 2 and not p.adjacent(path[1], c) for path in _pd_paths(p, a, c)):
                p.set(c, a, T)  # R9
                continue
            if _r10(p, a, c):
                p.set(c, a, T)


def _r10(p: _Marks, a: str, c: str) -> bool:
    parents = [b for b in p.adj[c] if b != a and p.at(b, c) is A and p.at(c, b) is T]
    if len(parents) < 2:
        return False
    firsts: dict[str, set[str]] = {}
    for b in parents:
        firsts[b] = {path[1] for path in _pd_paths(p, a, b)}
    for i, b in enumerate(parents):
        for d in parents[i + 1 :]:
            for mu in firsts[b]:
                for omega in firsts[d]:
                    if mu != omega and not p.adjacent(mu, omega):
                        return True
    return False


def pag_of_mag(mag: Graph) -> Graph:
    """The PAG of the Markov equivalence class of the MAG *mag* (module docstring); node order kept.

    Raises :class:`InputFormatError` when *mag* is not a MAG without selection (``--``) edges.
    """
    cert = check_mag(mag)
    if not cert:
        raise InputFormatError(f"the PAG is built from a MAG; this graph is not one: {cert.reason}")
    undirected = [str(e) for e in mag.edges if e.is_undirected]
    if undirected:
        raise InputFormatError(f"edges {undirected!r} mean selection bias; the PAG here is built without selection (FCI's R5–R7)")
    p = _Marks(mag)
    for b in mag.nodes:
        into = sorted(a for a in p.adj[b] if mag.mark(b, a) is A)
        for i, a in enumerate(into):
            for c in into[i + 1 :]:
                if not p.adjacent(a, c):
                    p.set(a, b, A)
                    p.set(c, b, A)
    p.changed = True
    while p.changed:
        p.changed = False
        _rules(p, mag)
    return carry_attributes(mag, p.graph(mag))


def pag_of(dag: Graph, latent: Iterable[str] | None = None) -> Graph:
    """The PAG over the observed nodes of *dag* when its *latent* nodes (default :attr:`Graph.latent`) are unobserved.

    The latent projection (:func:`~causalcheck.graphchecks.separation.latent_projection`), then
    :func:`pag_of_mag`.  Without latent nodes, the PAG of the DAG's own class (a CPDAG's marks
    with circles where the CPDAG has ``--``).
    """
    return pag_of_mag(latent_projection(dag, latent))
