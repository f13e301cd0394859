"""Property tests of the validator's kernels: d-separation, corrections, class members, background cores."""

from __future__ import annotations

import itertools

import networkx as nx
from causalcheck.graphchecks.citests import adjust
from causalcheck.graphchecks.coverage import class_members
from causalcheck.graphchecks.kinds import cpdag_of
from causalcheck.graphchecks.separation import Separator, implied_independencies
from causalcheck.graphs import Graph, GraphEdge
from causalcheck.graphs.background import Knowledge, Rule, check_knowledge
from causalcheck.graphs.convert import to_networkx
from causalcheck.solvers.equivalence import count_orientations
from hypothesis import given, settings
from hypothesis import strategies as st


@st.composite
def dags(draw: st.DrawFn, max_nodes: int = 7) -> Graph:
    """A random DAG over v0..v(n-1): forward pairs of a drawn order."""
    n = draw(st.integers(1, max_nodes))
    names = [f"v{i}" for i in range(n)]
    order = draw(st.permutations(names))
    pairs = list(itertools.combinations(order, 2))
    chosen = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
    return Graph(tuple(names), tuple(GraphEdge.directed(a, b) for (a, b), c in zip(pairs, chosen, strict=True) if c))


@settings(max_examples=60, deadline=None)
@given(dags(), st.data())
def test_d_separation_agrees_with_networkx(g, data):
    """Separator.separated equals networkx.is_d_separator for any pair and conditioning set."""
    if len(g.nodes) < 2:
        return
    x, y = data.draw(st.lists(st.sampled_from(g.nodes), min_size=2, max_size=2, unique=True))
    z = data.draw(st.sets(st.sampled_from([v for v in g.nodes if v not in (x, y)]))) if len(g.nodes) > 2 else set()
    sep = Separator(g)
    assert sep.separated(g.index[x], g.index[y], [g.index[v] for v in z]) == nx.is_d_separator(to_networkx(g), {x}, {y}, z)


@settings(max_examples=60, deadline=None)
@given(dags())
def test_implied_statements_are_separations(g):
    """Every implied statement is a d-separation of the graph."""
    nxg = to_networkx(g)
    assert all(nx.is_d_separator(nxg, {s.x}, {s.y}, set(s.given)) for s in implied_independencies(g))


@given(st.lists(st.floats(0, 1), max_size=30))
def test_corrections_are_ordered(p):
    """raw <= BH-adjusted <= Holm-adjusted <= 1, element-wise."""
    holm, bh = adjust(p, "holm"), adjust(p, "bh")
    assert all(r <= b + 1e-12 and b <= h + 1e-12 and h <= 1 for r, b, h in zip(p, bh, holm, strict=True))


@settings(max_examples=40, deadline=None)
@given(dags(max_nodes=6))
def test_class_members_count_and_share_the_cpdag(g):
    """As many distinct members as clique-picking counts, each with the same CPDAG."""
    cp = cpdag_of(g)
    members = class_members(cp)
    pos = cp.index
    assert len(set(members)) == len(members) == count_orientations(len(cp.nodes), [(pos[e.u], pos[e.v]) for e in cp.edges if e.is_undirected])
    names = cp.nodes
    for m in members:
        assert cpdag_of(Graph.from_directed([(names[a], names[b]) for a, b in m], names)) == cp


@settings(max_examples=40, deadline=None)
@given(dags(max_nodes=5), st.data())
def test_background_cores_are_minimal(g, data):
    """On a DAG's CPDAG every reported conflict is unsatisfiable and each rule of it is needed."""
    cp = cpdag_of(g)
    und = [e for e in cp.edges if e.is_undirected]
    if not und:
        return
    picks = data.draw(st.lists(st.tuples(st.sampled_from(und), st.booleans()), max_size=6))
    rules = tuple(dict.fromkeys(Rule("require", e.u, e.v) if fwd else Rule("require", e.v, e.u) for e, fwd in picks))
    for conflict in check_knowledge(cp, Knowledge(rules)).conflicts:
        core = list(conflict.rules)
        assert not check_knowledge(cp, Knowledge(tuple(core))).ok
        for i in range(len(core)):
            assert check_knowledge(cp, Knowledge(tuple(core[:i] + core[i + 1 :]))).ok
