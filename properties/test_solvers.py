"""Property tests of the solver checks against networkx and against data we construct."""

from __future__ import annotations

import networkx as nx
from causalcheck.graph import FREQ, CausalGraph, Edge
from causalcheck.records import DataPoint, Hypothesis
from causalcheck.solvers.acyclicity import find_cycle_core, find_cycle_cores, is_acyclic
from causalcheck.solvers.contradictions import direction_contradictions
from causalcheck.solvers.data_consistency import data_consistency
from causalcheck.solvers.equations import equation_consistency
from hypothesis import given, settings
from hypothesis import strategies as st

NAMES = [f"X{i}" for i in range(9)]


@st.composite
def graphs(draw, max_nodes=9, max_edges=20):
    """Random directed graphs (self-loops and 2-cycles included) over up to 9 nodes."""
    n = draw(st.integers(1, max_nodes))
    nodes = NAMES[:n]
    pairs = draw(st.lists(st.tuples(st.sampled_from(nodes), st.sampled_from(nodes)), max_size=max_edges))
    return CausalGraph.from_pairs(pairs, nodes)


@st.composite
def dags(draw):
    """Random DAGs: edges only go forward in a random order."""
    n = draw(st.integers(1, 8))
    order = draw(st.permutations(NAMES[:n]))
    pairs = [
        (order[i], order[j])
        for i in range(n)
        for j in range(i + 1, n)
        if draw(st.booleans())
    ]
    return CausalGraph.from_pairs(pairs, order)


@given(graphs())
def test_acyclicity_verdict_equals_networkx(g):
    """find_cycle_core is None exactly when networkx says the graph is a DAG."""
    expected = nx.is_directed_acyclic_graph(g.to_networkx())
    assert is_acyclic(g) is expected
    assert (find_cycle_core(g) is None) is expected


@given(graphs(), st.sampled_from(["cycle", "deletion"]))
def test_cores_are_minimal_cycles(g, minimize):
    """A core is a subset of the edges, forms a cycle head to tail, and dropping any edge leaves it acyclic."""
    core = find_cycle_core(g, minimize=minimize)
    if core is None:
        return
    assert set(core) <= set(g.edges)
    for a, b in zip(core, core[1:] + core[:1], strict=True):
        assert a.target == b.source
    assert not is_acyclic(CausalGraph((), core))
    for e in core:
        rest = CausalGraph((), tuple(x for x in core if x != e))
        assert is_acyclic(rest)


@settings(max_examples=50)
@given(graphs())
def test_z3_and_networkx_cores_have_the_same_guarantee(g):
    """Both methods return a cycle (or both None); removing all edge-disjoint cores' edges one by one terminates."""
    a, b = find_cycle_core(g), find_cycle_core(g, method="networkx")
    assert (a is None) == (b is None)
    cores = find_cycle_cores(g, limit=20)
    used = [e for c in cores for e in c]
    assert len(used) == len(set(used))


@given(graphs(max_edges=30))
def test_cyclic_part_matches_networkx_components(g):
    """The edges handed to z3 are exactly the self-loops and the edges inside a networkx SCC."""
    from causalcheck.solvers.acyclicity import _cyclic_part

    comp = {n: k for k, c in enumerate(nx.strongly_connected_components(g.to_networkx())) for n in c}
    assert _cyclic_part(g) == tuple(e for e in g.edges if e.source == e.target or comp[e.source] == comp[e.target])


@given(dags())
def test_dags_have_no_contradictions(g):
    """A DAG never asserts both directions, and agrees with itself as a reference."""
    assert direction_contradictions(g, reference=g.pairs) == ()


@given(graphs())
def test_contradictions_name_real_edges(g):
    """Each direction contradiction names two edges of the graph that reverse each other, and every
    pair of opposite edges is reported."""
    reported = set()
    for d in direction_contradictions(g):
        first, second = (tuple(x.split(" -> ")) for x in d.elements)
        assert first[::-1] == second
        assert first in g.pairs and second in g.pairs
        reported.add(frozenset([first, second]))
    expected = {frozenset([(a, b), (b, a)]) for a, b in g.pairs if a != b and (b, a) in g.pairs}
    assert reported == expected


@st.composite
def linear_models(draw):
    """A linear equation over 1-3 parents with integer coefficients, and points it generates exactly."""
    k = draw(st.integers(1, 3))
    parents = NAMES[:k]
    coeffs = {"base": float(draw(st.integers(-30, 30)))}
    coeffs.update({f"c_{p}": float(draw(st.integers(1, 3))) for p in parents})
    equation = f"{FREQ} = base + " + " + ".join(f"c_{p}*{p}" for p in parents)
    h = Hypothesis(CausalGraph.from_pairs([(p, FREQ) for p in parents]), equation, coeffs)
    rows = draw(st.lists(st.tuples(*[st.integers(0, 100) for _ in parents]), min_size=1, max_size=8))
    points = []
    for i, row in enumerate(rows):
        props = {p: float(v) for p, v in zip(parents, row, strict=True)}
        freq = coeffs["base"] + sum(coeffs[f"c_{p}"] * props[p] for p in parents)
        points.append(DataPoint(f"{i}/n", props, freq))
    return h, points


@given(linear_models())
def test_generated_data_is_consistent(model):
    """Points generated by the equation itself raise no data finding, and the equation is consistent."""
    h, points = model
    assert data_consistency(h, points, 0.01) == ()
    assert equation_consistency(h) == ()


@given(linear_models(), st.data())
def test_one_corrupted_point_is_named(model, data):
    """Shifting one point's frequency by more than the tolerance names exactly that point."""
    h, points = model
    i = data.draw(st.integers(0, len(points) - 1))
    shift = data.draw(st.sampled_from([-7.5, -1.0, 0.5, 3.0]))
    bad = points[i]
    points = [*points[:i], DataPoint(bad.id, bad.props, (bad.freq or 0.0) + shift), *points[i + 1 :]]
    mismatch = [d for d in data_consistency(h, points, 0.01) if d.code == "data-mismatch"]
    assert len(mismatch) == 1 and mismatch[0].elements == (bad.id,)
    assert abs(mismatch[0].data["min_tolerance"] - abs(shift)) < 1e-9


@settings(max_examples=25)
@given(linear_models(), st.data())
def test_free_coefficient_cores_are_minimal(model, data):
    """With coefficients undetermined, a reported conflicting set is unsat and every proper subset fits."""
    h, points = model
    i = data.draw(st.integers(0, len(points) - 1))
    bad = points[i]
    points = [*points[:i], DataPoint(bad.id, bad.props, (bad.freq or 0.0) + 5.0), *points[i + 1 :]]
    free = Hypothesis(h.graph, h.equation, {k: None for k in h.coefficients})
    found = [d for d in data_consistency(free, points, 0.01) if d.code == "data-mismatch"]
    if not found:
        return  # few points: some coefficients fit even the corrupted data
    core = set(found[0].elements)
    subset = [p for p in points if p.id in core]
    assert any(d.code == "data-mismatch" for d in data_consistency(free, subset, 0.01))
    for drop in subset:
        rest = [p for p in subset if p is not drop]
        assert not any(d.code == "data-mismatch" for d in data_consistency(free, rest, 0.01))


def test_edge_type_is_preserved_in_cores():
    """Labelled edges come back as the graph's own Edge objects."""
    g = CausalGraph((), (Edge("A", "B", "CAUSE"), Edge("B", "A", "CAUSE")))
    assert set(find_cycle_core(g) or ()) == set(g.edges)
