"""Integer-indexed kernels behind :mod:`causalcheck.solvers.equivalence`.

The public module speaks node names; this one speaks ``0..n-1`` and sets of ints, which is
what keeps the closure at a few milliseconds for a thousand-node sparse DAG.

Construction of the (interventional) essential graph from a known DAG ``D``
--------------------------------------------------------------------------
Start from the skeleton of ``D`` and orient, as in ``D``,

* every edge of a v-structure ``a -> b <- c`` (``a``, ``c`` non-adjacent), and
* every edge with exactly one endpoint in some intervention target ``I`` (an "I-cut" edge:
  intervening on one end reveals its direction, Hauser & Bühlmann 2012, Def. 7);

then close under Meek's rules R1–R4.  Because every orientation is the one ``D`` has, a rule
can only ever fire in ``D``'s direction, so each still-undirected edge is tested in that
single direction.  A work list revisits only the edges near a newly oriented one.

The rules, for an undirected ``a - b`` that ``D`` orients ``a -> b``:

* R1: some ``c -> a`` with ``c`` not adjacent to ``b``;
* R2: some ``c`` with ``a -> c -> b``;
* R3: two non-adjacent ``c, d`` with ``c - a - d`` undirected and ``c -> b <- d``;
* R4: some ``c - a`` undirected and ``d`` with ``c -> d -> b`` and ``c`` not adjacent to ``b``
  (if ``b -> a`` held, ``c -> a`` would follow to avoid a cycle, making a new v-structure).

Brute-force enumeration (:func:`enumerate_members`) is kept independent of these rules: it
tries every orientation of the non-forced edges and keeps the acyclic ones whose
v-structures equal ``D``'s, which is the definition of (interventional) Markov equivalence.
"""

from __future__ import annotations

import gc
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from causalcheck.graphs.model import depth_first

__all__ = [
    "chordless_cycle",
    "close_essential",
    "cyclic_remainder",
    "directed_cycle",
    "dor_tarsi",
    "enumerate_members",
    "gc_paused",
    "meek_orient",
    "meek_rule",
    "meek_witness",
    "v_structures",
]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small containers.

    The closure allocates one set per node and edge; with a large heap, the collections that
    those allocations trigger dominate the run time (superlinear in the graph size).  Nothing
    built here forms reference cycles, so pausing is safe; the previous state is restored.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

Pair = tuple[int, int]


def _adjacency(n: int, edges: Sequence[Pair]) -> tuple[list[set[int]], list[set[int]]]:
    parents: list[set[int]] = [set() for _ in range(n)]
    adj: list[set[int]] = [set() for _ in range(n)]
    for a, b in edges:
        parents[b].add(a)
        adj[a].add(b)
        adj[b].add(a)
    return parents, adj


def v_structures(n: int, edges: Sequence[Pair]) -> frozenset[tuple[int, int, int]]:
    """Triples ``(a, b, c)`` with ``a < c``, ``a -> b <- c`` and ``a``, ``c`` non-adjacent."""
    parents, adj = _adjacency(n, edges)
    out: set[tuple[int, int, int]] = set()
    for b in range(n):
        pb = sorted(parents[b])
        for i, a in enumerate(pb):
            for c in pb[i + 1 :]:
                if c not in adj[a]:
                    out.add((a, b, c))
    return frozenset(out)


def meek_rule(
    a: int,
    b: int,
    adj: Sequence[set[int]],
    dpa: Sequence[set[int]],
    dch: Sequence[set[int]],
    und: Sequence[set[int]],
    rule4: bool = True,
) -> int:
    """The first of Meek's rules R1–R4 that orients the undirected ``a - b`` as ``a -> b`` (0: none).

    *adj* holds every adjacency, *dpa*/*dch* the directed parents/children and *und* the
    undirected neighbours of each node (the rules as listed in the module docstring);
    ``rule4=False`` tries R1–R3 only.
    """
    adj_b = adj[b]
    for c in dpa[a]:  # R1
        if c not in adj_b:
            return 1
    dpa_b = dpa[b]
    if dch[a] & dpa_b:  # R2
        return 2
    cands = [c for c in und[a] if c in dpa_b]  # R3
    if len(cands) > 1:
        for i, c in enumerate(cands):
            adj_c = adj[c]
            for d in cands[i + 1 :]:
                if d not in adj_c:
                    return 3
    if not rule4:
        return 0
    for c in und[a]:  # R4
        if c in adj_b:
            continue
        if dch[c] & dpa_b:
            return 4
    return 0


def close_essential(
    n: int, edges: Sequence[Pair], targets: Sequence[frozenset[int]]
) -> tuple[set[Pair], set[Pair]]:
    """Return ``(directed, undirected)`` of the I-essential graph of the DAG ``edges``.

    ``undirected`` holds each undirected edge once as ``(min, max)``.  ``targets`` need not
    contain the empty set (it orients nothing).
    """
    parents, adj = _adjacency(n, edges)
    membership: list[int] = [0] * n  # bit k set <=> node in targets[k]
    for k, target in enumerate(targets):
        bit = 1 << k
        for v in target:
            membership[v] |= bit

    dpa: list[set[int]] = [set() for _ in range(n)]  # directed parents in the PDAG
    dch: list[set[int]] = [set() for _ in range(n)]  # directed children in the PDAG
    und: list[set[int]] = [set() for _ in range(n)]  # undirected neighbours
    true_parent = parents  # D's orientation of every edge

    for a, b in edges:
        forced = membership[a] != membership[b]
        if not forced:
            pb = parents[b]
            if len(pb) > 1:
                adj_a = adj[a]
                for c in pb:
                    if c != a and c not in adj_a:
                        forced = True
                        break
        if forced:
            dpa[b].add(a)
            dch[a].add(b)
        else:
            und[a].add(b)
            und[b].add(a)

    def fires(a: int, b: int) -> bool:
        return meek_rule(a, b, adj, dpa, dch, und) != 0

    queue: deque[Pair] = deque()
    queued: set[Pair] = set()
    for a in range(n):
        for b in und[a]:
            if a in true_parent[b]:
                queue.append((a, b))
                queued.add((a, b))

    def enqueue_around(v: int) -> None:
        for w in und[v]:
            pair = (v, w) if v in true_parent[w] else (w, v)
            if pair not in queued:
                queued.add(pair)
                queue.append(pair)

    while queue:
        a, b = queue.popleft()
        queued.discard((a, b))
        if b not in und[a]:
            continue
        if fires(a, b):
            und[a].discard(b)
            und[b].discard(a)
            dpa[b].add(a)
            dch[a].add(b)
            enqueue_around(a)
            enqueue_around(b)
            for c in dch[b]:  # R4 two steps downstream
                enqueue_around(c)
            for c in dpa[a]:
                enqueue_around(c)

    directed = {(a, b) for b in range(n) for a in dpa[b]}
    undirected = {(a, b) for a in range(n) for b in und[a] if a < b}
    return directed, undirected


def meek_witness(
    rule: int,
    a: int,
    b: int,
    adj: Sequence[set[int]],
    dpa: Sequence[set[int]],
    dch: Sequence[set[int]],
    und: Sequence[set[int]],
) -> tuple[int, ...]:
    """The nodes that show *rule* orienting ``a - b`` as ``a -> b`` (the smallest, so a report is stable).

    R1 and R2: ``(c,)`` (``c -> a``; ``a -> c -> b``); R3 and R4: ``(c, d)`` (``c -- a -- d``
    with ``c -> b <- d``; ``c -- a`` with ``c -> d -> b``).  Empty when *rule* does not apply.

    >>> adj, dpa, dch, und = [{1}, {0, 2}, {1}], [set(), {0}, set()], [{1}, set(), set()], [set(), {2}, {1}]
    >>> meek_rule(1, 2, adj, dpa, dch, und), meek_witness(1, 1, 2, adj, dpa, dch, und)
    (1, (0,))
    """
    if rule == 1:
        found = sorted(c for c in dpa[a] if c not in adj[b])
        return (found[0],) if found else ()
    if rule == 2:
        found = sorted(dch[a] & dpa[b])
        return (found[0],) if found else ()
    if rule == 3:
        cands = sorted(c for c in und[a] if c in dpa[b])
        for i, c in enumerate(cands):
            for d in cands[i + 1 :]:
                if d not in adj[c]:
                    return (c, d)
        return ()
    if rule == 4:
        for c in sorted(und[a]):
            if c not in adj[b]:
                ds = sorted(dch[c] & dpa[b])
                if ds:
                    return (c, ds[0])
    return ()


Step = tuple[int, int, int, tuple[int, ...]]


def meek_orient(
    n: int, directed: Sequence[Pair], undirected: Sequence[Pair], rule4: bool = True
) -> tuple[list[Step], dict[Pair, tuple[Step, Step]], list[set[int]], list[set[int]]]:
    """Close the PDAG over ``0..n-1`` under Meek's rules (R1–R3, and R4 when *rule4*); both directions tried.

    Returns ``(steps, conflicts, dpa, und)``: each step ``(a, b, rule, witness)`` oriented
    ``a -- b`` as ``a -> b``, in the order applied (*witness*: :func:`meek_witness` at that
    moment); ``conflicts[(lo, hi)]`` the two steps that would orient an undirected edge both
    ways when it is looked at (it stays undirected); *dpa* the directed parents and *und* the
    undirected neighbours of every node at the end.

    A work list (edges in sorted order, then the undirected edges near each newly oriented one)
    finds the orientations; a final sweep over every undirected edge re-runs the list until no
    rule fires, so the result is a fixpoint whatever the order.  An edge is tested both ways
    each time it is looked at, so two orientations that would form a new unshielded collider
    are found when the second one is about to be made (R1 fires the other way).
    """
    adj: list[set[int]] = [set() for _ in range(n)]
    dpa: list[set[int]] = [set() for _ in range(n)]
    dch: list[set[int]] = [set() for _ in range(n)]
    und: list[set[int]] = [set() for _ in range(n)]
    for a, b in directed:
        adj[a].add(b)
        adj[b].add(a)
        dpa[b].add(a)
        dch[a].add(b)
    for a, b in undirected:
        adj[a].add(b)
        adj[b].add(a)
        und[a].add(b)
        und[b].add(a)
    steps: list[Step] = []
    conflicts: dict[Pair, tuple[Step, Step]] = {}
    queue: deque[Pair] = deque(sorted({(min(a, b), max(a, b)) for a, b in undirected}))
    queued: set[Pair] = set(queue)

    def enqueue_around(v: int) -> None:
        for w in sorted(und[v]):
            k = (v, w) if v < w else (w, v)
            if k not in queued and k not in conflicts:
                queued.add(k)
                queue.append(k)

    def rules(lo: int, hi: int) -> tuple[int, int]:
        return meek_rule(lo, hi, adj, dpa, dch, und, rule4), meek_rule(hi, lo, adj, dpa, dch, und, rule4)

    while queue:
        while queue:
            lo, hi = queue.popleft()
            queued.discard((lo, hi))
            if hi not in und[lo] or (lo, hi) in conflicts:
                continue
            forward, backward = rules(lo, hi)
            if forward and backward:
                conflicts[(lo, hi)] = (
                    (lo, hi, forward, meek_witness(forward, lo, hi, adj, dpa, dch, und)),
                    (hi, lo, backward, meek_witness(backward, hi, lo, adj, dpa, dch, und)),
                )
                continue
            if not (forward or backward):
                continue
            a, b, rule = (lo, hi, forward) if forward else (hi, lo, backward)
            steps.append((a, b, rule, meek_witness(rule, a, b, adj, dpa, dch, und)))
            und[a].discard(b)
            und[b].discard(a)
            dpa[b].add(a)
            dch[a].add(b)
            enqueue_around(a)
            enqueue_around(b)
            for c in sorted(dch[b]):  # R4 two steps downstream
                enqueue_around(c)
            for c in sorted(dpa[a]):
                enqueue_around(c)
        for lo in range(n):  # the sweep: every rule that still fires goes back on the list
            for hi in sorted(w for w in und[lo] if w > lo):
                if (lo, hi) not in conflicts and any(rules(lo, hi)):
                    queued.add((lo, hi))
                    queue.append((lo, hi))
    return steps, conflicts, dpa, und


def cyclic_remainder(n: int, edges: Sequence[Pair]) -> list[int]:
    """Nodes ``0..n-1`` left over by Kahn's algorithm: empty iff *edges* form a DAG.

    The remainder is every node on a directed cycle or downstream of one.  Hand-written:
    networkx has the verdict (``is_directed_acyclic_graph``) but not this set, and ``tests/benchmarks/bench_graphs.py``
    measures this 7–9x faster than building a networkx graph for the verdict alone.
    """
    indeg = [0] * n
    children: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        children[a].append(b)
        indeg[b] += 1
    stack = [v for v in range(n) if indeg[v] == 0]
    while stack:
        v = stack.pop()
        for w in children[v]:
            indeg[w] -= 1
            if indeg[w] == 0:
                stack.append(w)
    return [v for v in range(n) if indeg[v] > 0]


def _acyclic(n: int, edges: Sequence[Pair]) -> bool:
    return not cyclic_remainder(n, edges)


def enumerate_members(
    n: int, edges: Sequence[Pair], targets: Sequence[frozenset[int]], limit: int | None = None
) -> Iterator[tuple[Pair, ...]]:
    """Brute force: every DAG I-Markov-equivalent to ``edges`` (as sorted edge tuples).

    Edges of v-structures and I-cut edges are fixed (any equivalent DAG shares them by
    definition); every orientation of the remaining ``m`` edges is tried (``2**m`` cases)
    and kept when it is acyclic and has exactly the v-structures of the input.
    """
    vs = v_structures(n, edges)
    in_vs = {(a, b) for a, b, _ in vs} | {(c, b) for _, b, c in vs}
    cut = {
        (a, b)
        for a, b in edges
        if any((a in t) != (b in t) for t in targets)
    }
    fixed = sorted(in_vs | cut)
    free = sorted(set(edges) - set(fixed))
    count = 0
    for mask in range(1 << len(free)):
        oriented = list(fixed)
        for i, (a, b) in enumerate(free):
            oriented.append((b, a) if mask >> i & 1 else (a, b))
        if not _acyclic(n, oriented):
            continue
        if v_structures(n, oriented) != vs:
            continue
        yield tuple(sorted(oriented))
        count += 1
        if limit is not None and count >= limit:
            return


def directed_cycle(n: int, edges: Sequence[Pair]) -> list[int]:
    """One directed cycle ``[v0, v1, ..., v0]`` of *edges* (empty list: acyclic).

    Iterative depth-first search (no recursion limit); the cycle found is deterministic
    for a given edge order and is the one ``networkx.find_cycle`` finds (property-tested):
    :func:`causalcheck.graphs.model.depth_first`, about 6x faster in ``tests/benchmarks/bench_graphs.py``.
    """
    children: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        children[a].append(b)
    return depth_first(children)[1]


def dor_tarsi(n: int, directed: Sequence[Pair], undirected: Sequence[Pair]) -> tuple[list[Pair], list[int]]:
    """Dor & Tarsi (1992): orient the undirected edges of a PDAG without new v-structures or cycles.

    Returns ``(edges, stuck)``: when *stuck* is empty, *edges* is a consistent extension
    (every edge of the PDAG, directed ones kept, as ``(cause, effect)``); otherwise none
    exists and *stuck* lists the nodes left when no node could be removed.  A node ``x``
    is removed when it has no directed child among the remaining nodes and every
    undirected neighbour of ``x`` is adjacent to every other remaining neighbour of ``x``;
    its undirected edges are then oriented into ``x``.
    """
    dpa, adj = _adjacency(n, directed)
    dch: list[set[int]] = [set() for _ in range(n)]
    for a, b in directed:
        dch[a].add(b)
    und: list[set[int]] = [set() for _ in range(n)]
    for a, b in undirected:
        und[a].add(b)
        und[b].add(a)
        adj[a].add(b)
        adj[b].add(a)
    out: list[Pair] = list(directed)
    alive = set(range(n))

    def removable(x: int) -> bool:
        if dch[x]:
            return False
        nbrs = adj[x]
        for y in und[x]:
            adj_y = adj[y]
            for z in nbrs:
                if z != y and z not in adj_y:
                    return False
        return True

    candidates = deque(sorted(alive))
    queued = set(alive)
    while candidates:
        x = candidates.popleft()
        queued.discard(x)
        if x not in alive or not removable(x):
            continue
        alive.discard(x)
        touched = adj[x]
        for y in und[x]:
            out.append((y, x))
            und[y].discard(x)
        for y in dpa[x]:
            dch[y].discard(x)
        for y in touched:
            adj[y].discard(x)
        for y in touched:
            if y not in queued:
                queued.add(y)
                candidates.append(y)
        adj[x] = set()
        und[x] = set()
        dpa[x] = set()
    return out, sorted(alive)


def chordless_cycle(n: int, undirected: Sequence[Pair]) -> list[int]:
    """A chordless cycle of length >= 4 in the undirected graph *undirected* (empty: chordal).

    For each node ``x`` and non-adjacent neighbours ``a, b`` of ``x``, a shortest path from
    ``a`` to ``b`` avoiding the other neighbours of ``x`` closes a chordless cycle through
    ``x``; a graph has a chordless cycle iff some such path exists.  Returned as
    ``[x, a, ..., b]`` (the cycle closes back to ``x``).  Whether a chordless cycle exists
    is decided by ``networkx.is_chordal`` first (:mod:`causalcheck.graphchecks.kinds`); this search
    runs only to name the witness, which is part of the certificate: ``networkx.chordless_cycles``
    yields a different first cycle on every random case tried, so it would change reports.
    """
    adj: list[set[int]] = [set() for _ in range(n)]
    for a, b in undirected:
        adj[a].add(b)
        adj[b].add(a)
    for x in range(n):
        nb = sorted(adj[x])
        for i, a in enumerate(nb):
            for b in nb[i + 1 :]:
                if b in adj[a]:
                    continue
                blocked = adj[x] - {a, b}
                blocked.add(x)
                prev = {a: -1}
                frontier = deque([a])
                while frontier and b not in prev:
                    v = frontier.popleft()
                    for w in sorted(adj[v]):
                        if w not in prev and w not in blocked:
                            prev[w] = v
                            frontier.append(w)
                if b in prev:
                    path = [b]
                    while path[-1] != a:
                        path.append(prev[path[-1]])
                    path.reverse()
                    return [x, *path]
    return []
