"""Property tests: adjustment sets against pgmpy and a brute-force criterion; separators against networkx; blankets against pgmpy."""

from __future__ import annotations

import itertools
import warnings

import pytest
from causalcheck import strategies as cs
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.adjustment import adjustment_sets, is_adjustment_set
from causalcheck.graphchecks.kinds import cpdag_of
from causalcheck.graphchecks.separation import (
    find_minimal_separator,
    is_minimal_separator,
    m_separated,
    markov_blanket,
)
from causalcheck.graphs import Graph, GraphEdge
from hypothesis import assume, given, settings
from hypothesis import strategies as st

DAGS = cs.dags(min_nodes=3, max_nodes=7, max_edges=12, names=st.just(list("abcdefg")).flatmap(lambda n: st.integers(3, 7).map(lambda k: n[:k])))


def _pair(g: Graph, data: st.DataObject) -> tuple[str, str]:
    x = data.draw(st.sampled_from(g.nodes))
    y = data.draw(st.sampled_from([n for n in g.nodes if n != x]))
    return x, y


def _subsets(nodes: list[str]) -> list[tuple[str, ...]]:
    return [c for k in range(len(nodes) + 1) for c in itertools.combinations(nodes, k)]


def _adjustment_criterion(g: Graph, xs: set[str], ys: set[str], z: set[str]) -> bool:
    """The adjustment criterion on a DAG, brute force: no forbidden node, and every proper non-causal path blocked.

    Enumerates every path from X to Y (with no other node of X) and applies d-connection
    node by node, independent of the module's back-door graph and separators.
    """
    def descendants(v: str) -> set[str]:
        return set(g.descendants(v)) | {v}

    causal: set[str] = set()
    for x in xs:
        for path in _paths(g, x, ys, xs):
            if all(g.mark(path[i + 1], path[i]) is not None and (path[i], path[i + 1]) in g.directed_pairs for i in range(len(path) - 1)):
                causal |= set(path[1:])
    forbidden = set().union(*(descendants(w) for w in causal)) if causal else set()
    if z & forbidden:
        return False
    an_z = set(z).union(*(g.ancestors(v) for v in z)) if z else set()
    for x in xs:
        for path in _paths(g, x, ys, xs):
            directed = all((path[i], path[i + 1]) in g.directed_pairs for i in range(len(path) - 1))
            if directed:
                continue
            open_path = True
            for i in range(1, len(path) - 1):
                a, v, b = path[i - 1], path[i], path[i + 1]
                collider = (a, v) in g.directed_pairs and (b, v) in g.directed_pairs
                if (collider and v not in an_z) or (not collider and v in z):
                    open_path = False
                    break
            if open_path:
                return False
    return True


def _paths(g: Graph, x: str, ys: set[str], xs: set[str]) -> list[list[str]]:
    out: list[list[str]] = []
    stack = [[x]]
    while stack:
        path = stack.pop()
        for w in g.adjacent(path[-1]):
            if w in path or w in xs:
                continue
            if w in ys:
                out.append([*path, w])
            else:
                stack.append([*path, w])
    return out


@given(DAGS, st.data())
def test_adjustment_validity_and_minimal_sets_equal_brute_force(g: Graph, data: st.DataObject) -> None:
    """On random DAGs the validity check equals the criterion applied path by path, and the minimal sets are
    exactly the inclusion-minimal valid sets of all subsets; canonical and optimal sets are valid."""
    x, y = _pair(g, data)
    others = [n for n in g.nodes if n not in (x, y)]
    valid = {z for z in _subsets(others) if _adjustment_criterion(g, {x}, {y}, set(z))}
    for z in _subsets(others):
        assert is_adjustment_set(g, z, x, y).valid == (z in valid), z
    minimal = {z for z in valid if not any(set(w) < set(z) for w in valid)}
    result = adjustment_sets(g, x, y)
    assert {tuple(sorted(s)) for s in result.minimal} == {tuple(sorted(s)) for s in minimal}
    assert result.identifiable == bool(valid)
    if valid:
        assert result.canonical is not None and tuple(sorted(result.canonical)) in {tuple(sorted(v)) for v in valid}
        if y in g.descendants(x):  # Henckel et al. define the O-set for outcomes that descend from the exposure
            assert result.optimal is not None and is_adjustment_set(g, result.optimal, x, y).valid
        else:
            assert result.optimal is None


@given(DAGS, st.data())
def test_minimal_sets_with_included_and_latent_nodes_equal_brute_force(g: Graph, data: st.DataObject) -> None:
    """Minimal sets containing an included node, with a latent node barred, equal the brute-force minimal ones."""
    x, y = _pair(g, data)
    others = [n for n in g.nodes if n not in (x, y)]
    assume(len(others) >= 2)
    inc = data.draw(st.sampled_from(others))
    hidden = data.draw(st.sampled_from([n for n in others if n != inc]))
    g2 = g.with_attributes({hidden: {"latent": True}})
    pool = [n for n in others if n != hidden]
    valid = {z for z in _subsets(pool) if inc in z and _adjustment_criterion(g, {x}, {y}, set(z))}
    minimal = {z for z in valid if not any(set(w) < set(z) for w in valid)}
    result = adjustment_sets(g2, x, y, included=[inc])
    assert {tuple(sorted(s)) for s in result.minimal} == {tuple(sorted(s)) for s in minimal}


def _pgmpy_model(g: Graph):  # type: ignore[no-untyped-def]
    from pgmpy.base import DAG

    model = DAG()
    model.add_nodes_from(g.nodes)
    model.add_edges_from(sorted(g.directed_pairs))
    return model


@settings(max_examples=30, deadline=None)
@given(cs.dags(min_nodes=3, max_nodes=6, max_edges=9, names=st.just(list("abcdef")).flatmap(lambda n: st.integers(3, 6).map(lambda k: n[:k]))), st.data())
def test_backdoor_sets_equal_pgmpy(g: Graph, data: st.DataObject) -> None:
    """The minimal back-door sets equal pgmpy's get_all_backdoor_adjustment_sets (frozenset() there: the empty set
    is valid; a ValueError: none is), and the check equals pgmpy's on every set of non-descendants of X."""
    pytest.importorskip("pgmpy")
    from pgmpy.inference import CausalInference

    x, y = _pair(g, data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        inference = CausalInference(_pgmpy_model(g))
        try:
            theirs = {tuple(sorted(s)) for s in inference.get_all_backdoor_adjustment_sets(x, y)} or {()}
        except ValueError:
            theirs = set()
        ours = adjustment_sets(g, x, y, criterion="backdoor")
        assert {tuple(sorted(s)) for s in ours.minimal} == theirs
        below = g.descendants(x)
        for z in _subsets([n for n in g.nodes if n not in (x, y) and n not in below]):
            assert is_adjustment_set(g, z, x, y, criterion="backdoor").valid == inference.is_valid_backdoor_adjustment_set(x, y, list(z)), z


def _mec(cpdag: Graph) -> list[Graph]:
    """Every DAG of the class of *cpdag*, by orienting its undirected edges every way."""
    undirected = [e for e in cpdag.edges if e.is_undirected]
    fixed = [e for e in cpdag.edges if not e.is_undirected]
    out = []
    for flips in itertools.product((False, True), repeat=len(undirected)):
        edges = fixed + [GraphEdge.directed(e.v, e.u) if f else GraphEdge.directed(e.u, e.v) for e, f in zip(undirected, flips, strict=True)]
        d = Graph(cpdag.nodes, tuple(edges))
        try:
            if cpdag_of(d) == cpdag:
                out.append(d)
        except InputFormatError:  # a cycle: not a member
            continue
    return out


@given(cs.dags(min_nodes=3, max_nodes=6, max_edges=8, names=st.just(list("abcdef")).flatmap(lambda n: st.integers(3, 6).map(lambda k: n[:k]))), st.data())
def test_cpdag_adjustment_is_adjustment_in_every_member(dag: Graph, data: st.DataObject) -> None:
    """On a CPDAG a set is valid exactly when it is an adjustment set in every DAG of the class (Perković et al. 2018)."""
    cpdag = cpdag_of(dag)
    x, y = _pair(cpdag, data)
    members = _mec(cpdag)
    assert members
    others = [n for n in cpdag.nodes if n not in (x, y)]
    for z in _subsets(others):
        everywhere = all(is_adjustment_set(d, z, x, y).valid for d in members)
        assert is_adjustment_set(cpdag, z, x, y).valid == everywhere, (str(cpdag), z)


@given(DAGS, st.data())
def test_minimal_separator_equals_networkx(g: Graph, data: st.DataObject) -> None:
    """find_minimal_separator returns networkx's find_minimal_d_separator (included/restricted too), and
    is_minimal_separator agrees with networkx's is_minimal_d_separator on every set."""
    import networkx as nx

    x, y = _pair(g, data)
    others = [n for n in g.nodes if n not in (x, y)]
    inc = data.draw(st.lists(st.sampled_from(others), unique=True, max_size=1)) if others else []
    res = data.draw(st.lists(st.sampled_from(others), unique=True)) if others else []
    res = sorted(set(res) | set(inc))
    ng = nx.DiGraph(sorted(g.directed_pairs))
    ng.add_nodes_from(g.nodes)
    theirs = nx.find_minimal_d_separator(ng, {x}, {y}, included=set(inc), restricted=set(res))
    ours = find_minimal_separator(g, x, y, included=inc, restricted=res)
    assert (None if ours.nodes is None else set(ours.nodes)) == theirs
    for z in _subsets(others):
        if set(inc) <= set(z) <= set(res):
            assert is_minimal_separator(g, x, y, z, included=inc, restricted=res) == nx.is_minimal_d_separator(
                ng, {x}, {y}, set(z), included=set(inc), restricted=set(res)
            ), z
    if ours.nodes is not None:
        assert m_separated(g, x, y, ours.nodes)


@given(DAGS, st.data())
def test_markov_blanket_equals_pgmpy(g: Graph, data: st.DataObject) -> None:
    """On DAGs both rules give pgmpy's get_markov_blanket."""
    pytest.importorskip("pgmpy")
    v = data.draw(st.sampled_from(g.nodes))
    theirs = set(_pgmpy_model(g).get_markov_blanket(v))
    assert set(markov_blanket(g, v).nodes) == theirs
    assert set(markov_blanket(g, v, rule="directed").nodes) == theirs


@settings(max_examples=60, deadline=None)
@given(cs.dags(min_nodes=4, max_nodes=7, max_edges=12, names=st.just(list("abcdefg")).flatmap(lambda n: st.integers(4, 7).map(lambda k: n[:k]))), st.data())
def test_minimal_separator_on_mixed_graphs_is_minimal_by_brute_force(dag: Graph, data: st.DataObject) -> None:
    """On the MAG of a DAG with one latent node, the separator found separates, no proper subset containing
    the included nodes does, and it exists exactly when some allowed set separates (brute force over subsets)."""
    from causalcheck.graphchecks.separation import latent_projection

    hidden = data.draw(st.sampled_from(dag.nodes))
    mag = latent_projection(dag, [hidden])
    x, y = _pair(mag, data)
    others = [n for n in mag.nodes if n not in (x, y)]
    inc = data.draw(st.lists(st.sampled_from(others), unique=True, max_size=1)) if others else []
    res = sorted(set(data.draw(st.lists(st.sampled_from(others), unique=True)) if others else []) | set(inc))
    candidates = [z for z in _subsets(res) if set(inc) <= set(z)]
    separating = [z for z in candidates if m_separated(mag, x, y, z)]
    found = find_minimal_separator(mag, x, y, included=inc, restricted=res)
    assert found.found == bool(separating)
    if found.nodes is not None:
        assert m_separated(mag, x, y, found.nodes)
        assert not any(set(z) < set(found.nodes) for z in separating)
        assert is_minimal_separator(mag, x, y, found.nodes, included=inc, restricted=res)
    for z in candidates:
        minimal = z in separating and not any(set(w) < set(z) for w in separating)
        assert is_minimal_separator(mag, x, y, z, included=inc, restricted=res) == minimal, z
