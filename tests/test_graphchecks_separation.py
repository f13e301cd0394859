"""d-/m-separation on the general graph model and the implied independencies (causalcheck.graphchecks.separation)."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
import pytest
from _graphs import random_dag
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.kinds import check_mag
from causalcheck.graphchecks.separation import (
    Separator,
    connected_to,
    implied_independencies,
    latent_projection,
    local_markov_triples,
    m_separated,
    representative,
)
from causalcheck.graphs import Graph, GraphEdge, Mark
from causalcheck.graphs.convert import to_networkx
from causalcheck.graphs.formats import parse_dagitty, parse_text


def _brute_separated(g: Graph, x: str, y: str, z: set[str]) -> bool:
    """m-separation by enumerating every simple path of the skeleton (the definition)."""
    an = set(z).union(*(g.ancestors(v) for v in z))
    skel = nx.Graph()
    skel.add_nodes_from(g.nodes)
    skel.add_edges_from((e.u, e.v) for e in g.edges)
    for path in nx.all_simple_paths(skel, x, y):
        ok = True
        for prev, v, nxt in zip(path, path[1:], path[2:], strict=False):
            collider = g.mark(v, prev) is Mark.ARROW and g.mark(v, nxt) is Mark.ARROW
            if (collider and v not in an) or (not collider and v in z):
                ok = False
                break
        if ok:
            return False
    return True


def test_d_separation_matches_networkx_on_random_dags():
    """On random DAGs every (x, y, Z) query agrees with networkx.is_d_separator."""
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(40):
        g = random_dag(int(rng.integers(3, 9)), float(rng.uniform(0.2, 0.6)), rng)
        nxg = to_networkx(g)
        sep = Separator(g)
        names = g.nodes
        for x, y in itertools.combinations(range(len(names)), 2):
            others = [v for v in range(len(names)) if v not in (x, y)]
            z = [v for v in others if rng.random() < 0.4]
            expected = nx.is_d_separator(nxg, {names[x]}, {names[y]}, {names[v] for v in z})
            assert sep.separated(x, y, z) == expected
            assert m_separated(g, names[x], names[y], [names[v] for v in z]) == expected
            checked += 1
    assert checked > 200


def _random_mixed(n: int, rng: np.random.Generator) -> Graph:
    names = [f"v{i}" for i in range(n)]
    order = rng.permutation(n)
    edges = []
    for i, j in itertools.combinations(range(n), 2):
        r = rng.random()
        a, b = names[order[i]], names[order[j]]
        if r < 0.3:
            edges.append(GraphEdge.directed(a, b))
        elif r < 0.45:
            edges.append(GraphEdge.bidirected(a, b))
        elif r < 0.5:
            edges.append(GraphEdge.undirected(a, b))
    return Graph(tuple(names), tuple(edges))


def test_m_separation_matches_path_enumeration_on_mixed_graphs():
    """With -> , <-> and -- edges the search agrees with enumerating every path (the definition)."""
    rng = np.random.default_rng(11)
    for _ in range(60):
        g = _random_mixed(int(rng.integers(3, 7)), rng)
        sep = Separator(g)
        for x, y in itertools.combinations(g.nodes, 2):
            others = [v for v in g.nodes if v not in (x, y)]
            z = {v for v in others if rng.random() < 0.4}
            assert sep.separated(g.index[x], g.index[y], [g.index[v] for v in z]) == _brute_separated(g, x, y, z), (str(g), x, y, z)


def test_collider_opened_by_descendant():
    """Conditioning on a collider's descendant connects its parents."""
    g = parse_text("a -> c <- b; c -> d")
    assert m_separated(g, "a", "b")
    assert not m_separated(g, "a", "b", ["d"])
    assert connected_to(g, "a", ["d"]) == frozenset({"b", "c"})


def test_bidirected_collider_in_a_mag():
    """a <-> b <-> c: a and c are m-separated marginally, connected given b."""
    g = parse_text("a <-> b <-> c")
    assert m_separated(g, "a", "c") and not m_separated(g, "a", "c", ["b"])


def test_m_separated_refuses_bad_queries():
    """Unknown nodes and x in the conditioning set are errors naming the values."""
    g = parse_text("a -> b")
    with pytest.raises(InputFormatError, match="'zz'"):
        m_separated(g, "a", "zz")
    with pytest.raises(InputFormatError, match="must differ"):
        m_separated(g, "a", "b", ["a"])


def test_local_markov_triples_are_dowhys_parental_triples():
    """Each node with each non-descendant non-parent, given its parents; roots pair up twice."""
    g = parse_text("a -> b -> c; d -> c")
    assert local_markov_triples(g) == (
        ("a", "d", ()),
        ("b", "d", ("a",)),
        ("c", "a", ("b", "d")),
        ("d", "a", ()),
        ("d", "b", ()),
    )


def test_implied_independencies_hold_in_the_graph():
    """Every statement of either basis is a d-separation of the DAG, and the local basis is deduplicated."""
    rng = np.random.default_rng(3)
    for _ in range(25):
        g = random_dag(int(rng.integers(2, 8)), 0.4, rng)
        nxg = to_networkx(g)
        for basis in ("local", "pairwise"):
            stmts = implied_independencies(g, basis)
            assert len(set(stmts)) == len(stmts)
            for s in stmts:
                assert nx.is_d_separator(nxg, {s.x}, {s.y}, set(s.given))
        pairs = {frozenset((s.x, s.y)) for s in implied_independencies(g, "pairwise")}
        assert pairs == {frozenset(p) for p in itertools.combinations(g.nodes, 2) if not g.has_edge(*p)}


def test_cpdag_uses_a_consistent_extension():
    """A CPDAG implies its class's independencies: a -- b -- c gives a ⫫ c | b."""
    assert [str(s) for s in implied_independencies(parse_text("a -- b -- c"))] == ["a ⫫ c | b"]
    assert representative(parse_text("a -- b -- c")).kind == "DAG"


def test_pag_representative_mag():
    """o-> becomes ->, o-o is oriented without unshielded colliders (Zhang's construction)."""
    pag = parse_text("a o-> b <-o c; b -> d; e o-o a")
    mag = representative(pag)
    assert mag.kind == "DAG" and set(mag.directed_pairs) >= {("a", "b"), ("c", "b"), ("b", "d")}
    stmts = implied_independencies(pag)
    assert {frozenset((s.x, s.y)) for s in stmts} == {
        frozenset(p) for p in itertools.combinations(pag.nodes, 2) if not pag.has_edge(*p)
    }
    assert all(_brute_separated(mag, s.x, s.y, set(s.given)) for s in stmts)


def test_mag_pairwise_basis_and_bad_graphs():
    """A MAG uses the pairwise basis (given the ancestors); a cyclic DAG and a bad PDAG have none."""
    assert [str(s) for s in implied_independencies(parse_text("a -> b <-> c; c -> d"))] == [
        "a ⫫ c",
        "a ⫫ d | c",
        "b ⫫ d | a, c",
    ]
    with pytest.raises(InputFormatError, match="directed cycle"):
        implied_independencies(parse_text("a -> b -> c -> a"))
    with pytest.raises(InputFormatError, match="no consistent extension"):
        implied_independencies(parse_text("a -- b -- c -- d -- a"))
    with pytest.raises(InputFormatError, match="basis="):
        implied_independencies(parse_text("a -> b"), "global")  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="needs a DAG"):
        implied_independencies(parse_text("a <-> b"), "local")


def test_latent_projection_keeps_exactly_the_observed_d_separations():
    """On random DAGs with 1–2 latent nodes the projection is a MAG whose m-separations over
    every observed pair and every observed set are networkx's d-separations in the DAG."""
    rng = np.random.default_rng(11)
    checked = bidirected = 0
    for _ in range(30):
        g = random_dag(int(rng.integers(4, 7)), float(rng.uniform(0.3, 0.6)), rng)
        hidden = {str(v) for v in rng.choice(list(g.nodes), size=int(rng.integers(1, 3)), replace=False)}
        mag = latent_projection(g, hidden)
        observed = [n for n in g.nodes if n not in hidden]
        assert mag.nodes == tuple(observed) and check_mag(mag)
        bidirected += sum(e.is_bidirected for e in mag.edges)
        nxg = to_networkx(g)
        for x, y in itertools.combinations(observed, 2):
            rest = [v for v in observed if v not in (x, y)]
            for k in range(len(rest) + 1):
                for z in itertools.combinations(rest, k):
                    assert m_separated(mag, x, y, z) == nx.is_d_separator(nxg, {x}, {y}, set(z)), (str(g), hidden, x, y, z)
                    checked += 1
    assert checked > 300 and bidirected > 0


def test_latent_projection_reads_the_graphs_latent_nodes_and_refuses_what_it_cannot_project():
    g = parse_dagitty("dag { u [latent] z [exposure] u -> x  u -> y  z -> x  x -> y }")
    mag = latent_projection(g)
    assert str(mag) == "z -> x; z -> y; x -> y" and mag.exposure == ("z",)  # z -> x <- u -> y is an inducing path
    assert latent_projection(parse_text("a -> b")) == parse_text("a -> b")  # no latent node: the graph itself
    with pytest.raises(InputFormatError, match=r"latent nodes \['q'\] are not in the graph"):
        latent_projection(g, ["q"])
    with pytest.raises(InputFormatError, match=r"latent projection is defined here for DAGs only \(the graph is a PDAG\)"):
        latent_projection(parse_dagitty("pdag { u [latent] u -> x -- y }"))
