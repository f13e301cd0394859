"""Intervention coverage: how many DAGs the data plus interventions still leave, and what to do next.

For a DAG ``D`` and intervention targets 𝓘 (the observational target ∅ implied), the
interventional Markov equivalence class I-MEC(D) is counted exactly by
:func:`causalcheck.solvers.equivalence.imec_size` (Hauser & Bühlmann 2012; clique-picking
counts).  When only the CPDAG is known — the usual output of PC or GES — the true DAG is one
unknown member of the class, and the size of its I-MEC depends on which one.  This module
reports the **minimum, maximum and mean** of |I-MEC(D, 𝓘)| over the members ``D``:

* **exact** when the class has at most ``member_limit`` (:data:`EXACT_MEMBER_LIMIT`)
  members: every member is listed (:func:`class_members`);
* otherwise **estimated** from ``samples`` members drawn uniformly at random with a seeded
  ``numpy.random.Generator``.  ``cliquepicking.MecSampler`` samples uniformly too but cannot
  be seeded, so the sampler here is He, Jia & Yu's (2015) recursion on the same exact
  counts: in a connected chordal component every orientation has a unique source, so a
  source ``v`` is drawn with probability |AMOs rooted at ``v``| / |AMOs| — the rooted count
  is the I-MEC size for the target ``{v}`` of any AMO with source ``v`` — and each chain
  component of the ``v``-rooted essential graph is sampled the same way, independently.

**Suggestion** (``suggest=k``): the ``k`` further single-node interventions that minimise
the *worst-case* remaining class size over the members (ties: the expected size, i.e. the
mean over members under a uniform prior; then node order), with the set that minimises the
expected size reported beside it; none when the targets already identify the graph (I-MEC size
1, exactly: a note says so).  Candidates are the nodes on an undirected edge of the
class (intervening elsewhere orients nothing new).  All ``k``-sets are scored while there
are at most :data:`SCORING_BUDGET` member evaluations; beyond that the set is built greedily
(one node at a time) and the result says so.

**Cost.**  Every figure is a number of I-MEC evaluations (a Meek closure and a clique-picking
count, each about ``n + edges`` operations), estimated before it starts and held to
:data:`~causalcheck.base.limits.COVERAGE_COST_BUDGET` (``CAUSALCHECK_COVERAGE_COST_BUDGET``),
once for the members and once for the suggestion.  A class whose listing is over the budget
is sampled instead, with as many samples as the budget pays for (the draw of one sample in a
chordal component of ``m`` nodes, ``e`` edges and clique number ω costs about
``m(m + e)(ω - 2)`` after the first: an extension and a closure per candidate source on each level); fewer than :data:`MIN_SAMPLES` refuses the coverage
(:class:`~causalcheck.base.limits.LimitExceededError`).  A suggestion over the budget is
scored over an evenly spaced subset of the members, or skipped when one member is over it;
each such step is a note naming the budget.

>>> from causalcheck.graphs.formats import parse_text
>>> c = intervention_coverage(parse_text("a -- b; b -- c"), [])
>>> c.interventional.minimum, c.interventional.maximum, c.interventional.exact
(3, 3, True)
>>> s = c.suggestion; s.targets, s.worst, s.expected
(('b',), 1, 1.0)
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from causalcheck.base.errors import InputFormatError, Notice
from causalcheck.base.limits import COVERAGE_COST_BUDGET, LimitExceededError
from causalcheck.graphchecks.kinds import check_cpdag, check_dag, consistent_extension, cpdag_of
from causalcheck.graphs.model import Graph, connected_components
from causalcheck.solvers.equivalence import (
    close_essential,
    count_orientations,
    dor_tarsi,
    essential_graph_size,
    normalize_targets,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = [
    "DEFAULT_SAMPLES",
    "EXACT_MEMBER_LIMIT",
    "MIN_SAMPLES",
    "SCORING_BUDGET",
    "ClassSize",
    "Coverage",
    "Suggestion",
    "class_members",
    "intervention_coverage",
    "sample_members",
]

#: A class with at most this many members is enumerated (exact figures); above, it is sampled.
EXACT_MEMBER_LIMIT = 500
#: Members drawn when the class is too large to enumerate.
DEFAULT_SAMPLES = 200
#: Most (member × candidate set) I-MEC evaluations for scoring every k-set; greedy beyond.
SCORING_BUDGET = 50_000
#: Fewest samples a class over the compute budget is estimated from (fewer: the coverage is refused).
MIN_SAMPLES = 5

Pair = tuple[int, int]


@dataclass(frozen=True)
class ClassSize:
    """|I-MEC| over the members considered: exact over all of them, or a sample estimate."""

    minimum: int
    maximum: int
    mean: float
    exact: bool
    members: int
    class_size: int
    samples: int | None = None
    seed: int | None = None

    @property
    def identified(self) -> bool:
        """Every member considered has I-MEC size 1, over all members (not a sample): nothing is left to orient."""
        return self.exact and self.maximum == 1

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: the fields in order."""
        return asdict(self)


@dataclass(frozen=True)
class Suggestion:
    """The next intervention(s): the worst-case choice and the expected-size choice, with figures."""

    targets: tuple[str, ...]
    worst: int
    expected: float
    best_expected_targets: tuple[str, ...]
    best_expected: float
    best_expected_worst: int
    candidates: tuple[str, ...]
    search: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "targets": list(self.targets),
            "worst": self.worst,
            "expected": self.expected,
            "best_expected_targets": list(self.best_expected_targets),
            "best_expected": self.best_expected,
            "best_expected_worst": self.best_expected_worst,
            "candidates": list(self.candidates),
            "search": self.search,
        }


@dataclass(frozen=True)
class Coverage:
    """Observational and interventional class sizes, and a suggestion (see the module docstring)."""

    graph_kind: str
    targets: tuple[tuple[str, ...], ...]
    observational: ClassSize
    interventional: ClassSize
    suggestion: Suggestion | None
    notes: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "graph_kind": self.graph_kind,
            "targets": [list(t) for t in self.targets],
            "observational": self.observational.to_dict(),
            "interventional": self.interventional.to_dict(),
            "suggestion": None if self.suggestion is None else self.suggestion.to_dict(),
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- members


def _cpdag_parts(cpdag: Graph) -> tuple[list[Pair], list[Pair]]:
    pos = cpdag.index
    directed = [(pos[e.u], pos[e.v]) for e in cpdag.edges if e.is_directed]
    undirected = [(pos[e.u], pos[e.v]) for e in cpdag.edges if e.is_undirected]
    return directed, undirected


def _uniform_below(total: int, rng: np.random.Generator) -> int:
    """A uniform integer in ``[0, total)`` (exact for any size of *total*)."""
    bits = max(total - 1, 1).bit_length()
    nbytes = (bits + 7) // 8
    while True:
        r = int.from_bytes(rng.bytes(nbytes), "big") >> (8 * nbytes - bits)
        if r < total:
            return r


def _components(nodes: Iterable[int], edges: Iterable[Pair]) -> list[tuple[list[int], list[Pair]]]:
    """The components of *edges* with at least one edge: (sorted members, their sorted edges), by smallest member."""
    pairs = list(edges)
    out = []
    for comp in connected_components(sorted(nodes), pairs):
        if len(comp) > 1:
            members = set(comp)
            out.append((sorted(comp), sorted(e for e in pairs if e[0] in members)))
    return out


Rooted = list[tuple[int, int, list[Pair], list[Pair]]]


def _rooted(nodes: list[int], edges: list[Pair]) -> Rooted:
    """For each node ``v`` of a connected chordal component: (v, #AMOs rooted at v, directed, undirected)."""
    local = {v: i for i, v in enumerate(nodes)}
    m = len(nodes)
    ledges = [(local[a], local[b]) for a, b in edges]
    out: Rooted = []
    for v in nodes:
        lv = local[v]
        out_v = [(lv, b if a == lv else a) for a, b in ledges if lv in (a, b)]
        rest = [(a, b) for a, b in ledges if lv not in (a, b)]
        ext, stuck = dor_tarsi(m, out_v, rest)
        assert not stuck  # a chordal component has an AMO with any node as its source
        directed, undirected = close_essential(m, ext, [frozenset({lv})])
        weight = count_orientations(m, undirected)
        out.append(
            (
                v,
                weight,
                [(nodes[a], nodes[b]) for a, b in directed],
                [(nodes[a], nodes[b]) for a, b in undirected],
            )
        )
    return out


def _sample_component(
    nodes: list[int], edges: list[Pair], rng: np.random.Generator, cache: dict[frozenset[Pair], Rooted]
) -> list[Pair]:
    key = frozenset(edges)
    rooted = cache.get(key)
    if rooted is None:
        rooted = cache[key] = _rooted(nodes, edges)
    total = sum(w for _, w, _, _ in rooted)
    r = _uniform_below(total, rng)
    for _, weight, directed, undirected in rooted:
        if r < weight:
            out = list(directed)
            for cn, ce in _components(nodes, undirected):
                out += _sample_component(cn, ce, rng, cache)
            return out
        r -= weight
    raise AssertionError("unreachable: r < total")  # pragma: no cover


def _list_component(nodes: list[int], edges: list[Pair], cache: dict[frozenset[Pair], Rooted]) -> list[list[Pair]]:
    key = frozenset(edges)
    rooted = cache.get(key)
    if rooted is None:
        rooted = cache[key] = _rooted(nodes, edges)
    out: list[list[Pair]] = []
    for _, _, directed, undirected in rooted:
        parts = [_list_component(cn, ce, cache) for cn, ce in _components(nodes, undirected)]
        for combo in itertools.product(*parts):
            out.append(list(directed) + [e for part in combo for e in part])
    return out


def class_members(cpdag: Graph) -> list[tuple[Pair, ...]]:
    """Every member DAG of the CPDAG *cpdag* (edges over its node indices, sorted).

    Each connected chain component is listed by its unique source: for every node ``v``,
    the ``v``-rooted essential graph's directed edges with every combination of its chain
    components' members (``cliquepicking.mec_list_dags`` is not used: it panics on some
    inputs, e.g. a single undirected edge, in version 0.3.2).
    """
    directed, undirected = _cpdag_parts(cpdag)
    cache: dict[frozenset[Pair], Rooted] = {}
    parts = [_list_component(cn, ce, cache) for cn, ce in _components(range(len(cpdag.nodes)), undirected)]
    return [tuple(sorted(directed + [e for part in combo for e in part])) for combo in itertools.product(*parts)]


def sample_members(cpdag: Graph, samples: int, seed: int | None = 0) -> list[tuple[Pair, ...]]:
    """*samples* member DAGs of *cpdag*, drawn uniformly and independently (seeded; see the module docstring)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    directed, undirected = _cpdag_parts(cpdag)
    comps = _components(range(len(cpdag.nodes)), undirected)
    cache: dict[frozenset[Pair], Rooted] = {}
    out = []
    for _ in range(samples):
        edges = list(directed)
        for cn, ce in comps:
            edges += _sample_component(cn, ce, rng, cache)
        out.append(tuple(sorted(edges)))
    return out


# --------------------------------------------------------------------------- cost


def _clique_number(nodes: list[int], edges: list[Pair]) -> int:
    """The clique number of a chordal graph: largest visited neighbourhood + 1 along a maximum cardinality search.

    >>> _clique_number([0, 1, 2, 3], [(0, 1), (0, 2), (1, 2), (2, 3)])
    3
    """
    adj: dict[int, set[int]] = {v: set() for v in nodes}
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    weight = dict.fromkeys(nodes, 0)
    heap = [(0, v) for v in nodes]
    heapq.heapify(heap)
    visited: set[int] = set()
    best = 1
    while heap:
        w, v = heapq.heappop(heap)
        if v in visited or -w != weight[v]:
            continue  # a stale entry
        best = max(best, weight[v] + 1)
        visited.add(v)
        for u in adj[v] - visited:
            weight[u] += 1
            heapq.heappush(heap, (-weight[u], u))
    return best


def _member_costs(n: int, edges: int, comps: list[tuple[list[int], list[Pair]]]) -> tuple[int, int]:
    """``(first, per sample)``: the estimated cost of the first sampled member (it fills the cache) and of each further one."""
    unit = n + edges
    first = 2 * sum(len(cn) * (len(cn) + len(ce)) for cn, ce in comps) + unit
    per = sum(len(cn) * (len(cn) + len(ce)) * max(_clique_number(cn, ce) - 2, 0) for cn, ce in comps) + unit
    return first, per


# --------------------------------------------------------------------------- sizes


def _imec(n: int, dag: Sequence[Pair], targets: Sequence[frozenset[int]]) -> int:
    _, undirected = close_essential(n, dag, targets)
    return count_orientations(n, undirected)


def _size(values: Sequence[int], exact: bool, class_size: int, samples: int | None, seed: int | None) -> ClassSize:
    return ClassSize(min(values), max(values), sum(values) / len(values), exact, len(values), class_size, samples, seed)


def _targets(graph: Graph, targets: Iterable[Iterable[str]] | Iterable[str]) -> tuple[tuple[str, ...], ...]:
    out = []
    pos = graph.index
    for group in normalize_targets(targets):
        unknown = sorted(n for n in group if n not in pos)
        if unknown:
            raise InputFormatError(f"interventions={unknown!r} name no node of the graph {list(graph.nodes)!r} (an intervention target must be a node)")
        out.append(tuple(sorted(group, key=pos.__getitem__)))
    return tuple(out)


def _budget_note(what: str, cost: float, action: str) -> Notice:
    """A note of a computation sampled, reduced or skipped by :data:`COVERAGE_COST_BUDGET` (code ``coverage-budget``)."""
    return Notice(COVERAGE_COST_BUDGET.skip_note(what, cost, action), "coverage-budget")


def _suggest(
    names: tuple[str, ...],
    members: list[tuple[Pair, ...]],
    base: list[frozenset[int]],
    candidates: list[int],
    k: int,
    unit: int,
    notes: list[str],
) -> Suggestion | None:
    n = len(names)
    if not candidates or k < 1:
        return None
    k = min(k, len(candidates))

    def score(extra: Sequence[int]) -> tuple[int, float]:
        t = base + [frozenset({v}) for v in extra]
        sizes = [_imec(n, m, t) for m in members]
        return max(sizes), sum(sizes) / len(sizes)

    n_sets = 1
    for i in range(k):
        n_sets = n_sets * (len(candidates) - i) // (i + 1)
    exhaustive = n_sets * len(members) <= SCORING_BUDGET
    evaluations = n_sets if exhaustive else k * len(candidates) + 1  # per member
    cost = evaluations * len(members) * unit
    if COVERAGE_COST_BUDGET.over(cost):
        used = COVERAGE_COST_BUDGET.value() // (evaluations * unit)
        if used < 1:
            notes.append(_budget_note("the intervention suggestion", cost, "skipped"))
            return None
        step = len(members) / used
        notes.append(_budget_note("the intervention suggestion", cost, f"scored over {used} of the {len(members)} members (evenly spaced)"))
        members = [members[int(i * step)] for i in range(used)]
    if exhaustive:
        search = "exhaustive"
        scored = [(score(c), c) for c in itertools.combinations(candidates, k)]
    else:
        search = "greedy"
        chosen: list[int] = []
        scored = []
        for _ in range(k):
            options = [(score([*chosen, v]), (*chosen, v)) for v in candidates if v not in chosen]
            best = min(options, key=lambda o: (o[0][0], o[0][1], o[1]))
            chosen = list(best[1])
        scored = [(score(chosen), tuple(chosen))]
    worst = min(scored, key=lambda o: (o[0][0], o[0][1], o[1]))
    expected = min(scored, key=lambda o: (o[0][1], o[0][0], o[1]))
    return Suggestion(
        targets=tuple(names[v] for v in worst[1]),
        worst=worst[0][0],
        expected=worst[0][1],
        best_expected_targets=tuple(names[v] for v in expected[1]),
        best_expected=expected[0][1],
        best_expected_worst=expected[0][0],
        candidates=tuple(names[v] for v in candidates),
        search=search,
    )


def _class_figures(
    cp: Graph, mec: int, tidx: list[frozenset[int]], member_limit: int, samples: int, seed: int | None, notes: list[str]
) -> tuple[list[tuple[Pair, ...]], ClassSize]:
    """The members of the CPDAG *cp* considered (listed, or sampled within the budget) and their I-MEC figures."""
    n = len(cp.nodes)
    unit = n + len(cp.edges)
    comps = _components(range(n), _cpdag_parts(cp)[1])
    first, per = _member_costs(n, len(cp.edges), comps)
    if mec <= member_limit:
        cost = first + mec * unit
        if not COVERAGE_COST_BUDGET.over(cost):
            members = class_members(cp)
            return members, _size([_imec(n, m, tidx) for m in members], True, mec, None, None)
        notes.append(_budget_note(f"listing the {mec} members of the class", cost, "replaced by samples"))
    drawn = samples
    cost = first + samples * per
    if COVERAGE_COST_BUDGET.over(cost):
        drawn = min(samples, max(0, COVERAGE_COST_BUDGET.value() - first) // per)
        if drawn < MIN_SAMPLES:
            raise LimitExceededError(
                f"intervention coverage of a class of {mec} members: "
                + COVERAGE_COST_BUDGET.message(float(first + MIN_SAMPLES * per), f"{MIN_SAMPLES} samples")
            )
        notes.append(_budget_note("the I-MEC figures", cost, f"estimated from {drawn} samples instead of {samples}"))
    members = sample_members(cp, drawn, seed)
    if mec > member_limit:
        notes.append(f"the class has {mec} members (> member_limit={member_limit}): figures over {drawn} uniform samples, seed {seed}")
    return members, _size([_imec(n, m, tidx) for m in members], False, mec, drawn, seed)


def intervention_coverage(
    graph: Graph,
    targets: Iterable[Iterable[str]] | Iterable[str] = (),
    *,
    suggest: int = 1,
    member_limit: int = EXACT_MEMBER_LIMIT,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = 0,
) -> Coverage:
    """Class sizes for *graph* (a DAG or a CPDAG) and *targets*, and a suggestion of *suggest* more.

    A PDAG that is not a CPDAG is read as the CPDAG of its consistent extension (noted).
    Raises :class:`InputFormatError` for a MAG or PAG, a cyclic graph or an unknown target.
    """
    for name, value in (("suggest", suggest), ("member_limit", member_limit), ("samples", samples)):
        if not isinstance(value, int) or isinstance(value, bool) or value < (0 if name == "suggest" else 1):
            raise InputFormatError(f"{name}={value!r} must be a {'non-negative' if name == 'suggest' else 'positive'} integer")
    kind = graph.kind
    notes: list[str] = []
    groups = _targets(graph, targets)
    pos = graph.index
    tidx = [frozenset(pos[v] for v in g) for g in groups]
    n = len(graph.nodes)
    if kind == "DAG":
        cert = check_dag(graph)
        if not cert:
            raise InputFormatError(f"coverage needs an acyclic graph: {cert.reason}")
        dag = tuple(sorted((pos[e.u], pos[e.v]) for e in graph.edges))
        cp = cpdag_of(graph)
        mec = essential_graph_size(cp)
        obs = ClassSize(mec, mec, float(mec), True, 1, mec)
        size = _imec(n, dag, tidx)
        inter = ClassSize(size, size, float(size), True, 1, mec)
        members = [dag]
    elif kind == "PDAG":
        cp = graph
        if not check_cpdag(graph):
            ext = consistent_extension(graph)
            if ext is None:
                raise InputFormatError("coverage needs a CPDAG: this PDAG has no consistent extension")
            cp = cpdag_of(ext)
            notes.append("the PDAG is not a CPDAG; its consistent extension's CPDAG was used")
        mec = essential_graph_size(cp)
        obs = ClassSize(mec, mec, float(mec), True, mec, mec)
        members, inter = _class_figures(cp, mec, tidx, member_limit, samples, seed, notes)
    else:
        raise InputFormatError(f"intervention coverage is defined for DAGs and CPDAGs, not a {kind}")
    undirected = _cpdag_parts(cp)[1]
    touched = sorted({v for e in undirected for v in e})
    unit = n + len(cp.edges)
    identified = inter.identified  # nothing left to orient: no intervention to suggest
    if suggest and identified:
        notes.append("the targets identify the graph (I-MEC size 1): no further intervention is suggested")
    suggestion = _suggest(graph.nodes, members, tidx, touched, suggest, unit, notes) if suggest and not identified else None
    return Coverage(kind, groups, obs, inter, suggestion, tuple(notes))
