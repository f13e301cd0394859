"""The general graph model: marks, canonical edges, one edge per pair, exact names, CausalGraph conversion."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graph import CausalGraph, Edge
from causalcheck.graphs import CAUSALAB, EXACT, Graph, GraphEdge, Mark, NamePolicy
from causalcheck.graphs.formats import parse_text
from causalcheck.graphs.names import apply_policy, get_policy


@pytest.mark.parametrize(
    ("left", "token", "right", "canonical"),
    [
        ("a", "->", "b", "a -> b"),
        ("b", "<-", "a", "a -> b"),
        ("b", "--", "a", "a -- b"),
        ("b", "<->", "a", "a <-> b"),
        ("a", "o->", "b", "a o-> b"),
        ("b", "<-o", "a", "a o-> b"),
        ("b", "o-o", "a", "a o-o b"),
        ("a", "o--", "b", "a o-- b"),
        ("b", "--o", "a", "a o-- b"),
    ],
)
def test_edge_tokens_canonical(left, token, right, canonical):
    """Every token and its mirror denote one canonical edge."""
    e = GraphEdge.parse(left, token, right)
    assert str(e) == canonical
    assert e == GraphEdge.parse(*canonical.split())


def test_edge_marks_and_views():
    """mark_at / other / predicates read the right end."""
    e = GraphEdge.parse("x", "o->", "y")
    assert e.mark_at("x") is Mark.CIRCLE and e.mark_at("y") is Mark.ARROW
    assert e.other("x") == "y" and e.has_circle and not e.is_directed
    with pytest.raises(InputFormatError, match="not an endpoint"):
        e.mark_at("z")


def test_edge_refuses_self_loop_and_bad_marks():
    """A self-loop or a non-Mark mark is refused with the offending value."""
    with pytest.raises(InputFormatError, match="self-loop"):
        GraphEdge.directed("a", "a")
    with pytest.raises(InputFormatError, match="Mark"):
        GraphEdge("a", "b", "tail", Mark.ARROW)  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="edge token"):
        GraphEdge.parse("a", "=>", "b")


def test_second_edge_between_pair_names_both():
    """Two different edges on one pair raise naming both; an exact repeat is dropped."""
    with pytest.raises(InputFormatError, match=r"'a -> b' and 'a <-> b'"):
        Graph.from_edges([("a", "->", "b"), ("a", "<->", "b")])
    g = Graph.from_edges([("a", "->", "b"), ("b", "<-", "a")])
    assert len(g.edges) == 1


def test_names_kept_exactly():
    """No trimming, no aliasing: 'Freq', 'frequency' and ' a' stay distinct nodes."""
    g = Graph.from_edges([("frequency", "->", "Sales"), ("Freq", "->", "Sales"), (" a", "->", "a")])
    assert g.nodes == ("frequency", "Sales", "Freq", " a", "a")
    assert g.parents("Sales") == ("frequency", "Freq")


def test_kind_and_neighbourhoods():
    """kind follows the marks; parents/children/neighbors/spouses/into read them."""
    g = parse_text("a -> b <- c; b -- d; d <-> e; e o-> f")
    assert g.kind == "PAG"
    assert parse_text("a -> b").kind == "DAG"
    assert parse_text("a -> b -- c").kind == "PDAG"
    assert parse_text("a -> b <-> c").kind == "MAG"
    assert g.parents("b") == ("a", "c") and g.children("a") == ("b",)
    assert g.neighbors("b") == ("d",) and g.spouses("d") == ("e",)
    assert set(g.into("f")) == {"e"} and set(g.into("e")) == {"d"}
    assert g.adjacent("b") == ("a", "c", "d")
    assert g.mark("f", "e") is Mark.ARROW and g.mark("e", "f") is Mark.CIRCLE and g.mark("a", "f") is None
    assert g.ancestors("b") == {"a", "c"} and parse_text("a -> b -> c").descendants("a") == {"b", "c"}
    with pytest.raises(InputFormatError, match="not in the graph"):
        g.parents("zz")


def test_equality_ignores_order():
    """Graphs with the same node and edge sets are equal (and hash equal) whatever the order."""
    g1 = Graph(("a", "b", "c"), (GraphEdge.directed("a", "b"), GraphEdge.undirected("b", "c")))
    g2 = Graph(("c", "b", "a"), (GraphEdge.undirected("c", "b"), GraphEdge.directed("a", "b")))
    assert g1 == g2 and hash(g1) == hash(g2)
    assert g1 != Graph(("a", "b", "c"), (GraphEdge.directed("b", "a"), GraphEdge.undirected("b", "c")))


def test_dict_round_trip_and_errors():
    """to_dict / from_dict round-trip; malformed dicts raise with the value shown."""
    g = parse_text("nodes: z\na o-> b <-> c")
    assert Graph.from_dict(g.to_dict()) == g
    with pytest.raises(InputFormatError, match="edges"):
        Graph.from_dict({"nodes": []})
    with pytest.raises(InputFormatError, match=r"\[left, token, right\]"):
        Graph.from_dict({"edges": [["a", "b"]]})


def test_order_and_renamed():
    """order() checks a permutation; renamed() refuses merging two nodes."""
    g = parse_text("a -> b")
    assert g.order(["b", "a"]) == ("b", "a")
    with pytest.raises(InputFormatError, match="exactly the graph's nodes"):
        g.order(["a"])
    with pytest.raises(InputFormatError, match="merge"):
        g.renamed({"a": "b"})
    assert str(g.renamed({"a": "x"})) == "x -> b"


# --------------------------------------------------------------------------- name policies


def test_policies_are_explicit():
    """EXACT keeps names; CAUSALAB trims and maps frequency aliases onto resonanceFreq."""
    g = Graph.from_edges([("frequency", "->", "Sales"), (" density ", "->", "Sales")])
    assert apply_policy(g, EXACT) is g
    c = apply_policy(g, "causalab")
    assert c.nodes == ("resonanceFreq", "Sales", "density")
    assert CAUSALAB.target == "resonanceFreq" and EXACT.target is None
    assert get_policy(None) is EXACT
    with pytest.raises(InputFormatError, match="NamePolicy"):
        get_policy("lenient")


def test_causalab_policy_merge_that_collides_raises():
    """Merging 'Freq' and 'frequency' edges onto one pair with different marks raises naming both."""
    g = Graph.from_edges([("frequency", "->", "Sales"), ("Freq", "<->", "Sales")])
    with pytest.raises(InputFormatError, match="two edges between"):
        apply_policy(g, CAUSALAB)


def test_policy_without_merges_refuses_collisions():
    """A custom policy that does not mean to merge refuses two names mapped onto one."""
    lower = NamePolicy("lower", str.lower)
    with pytest.raises(InputFormatError, match="would merge"):
        apply_policy(Graph.from_edges([("A", "->", "b"), ("a", "->", "c")]), lower)
    assert lower("AbC") == "abc"  # a policy is a plain callable (what metrics can take)


# --------------------------------------------------------------------------- CausalGraph conversion


def test_causalgraph_round_trip_lossless():
    """CausalGraph -> Graph -> CausalGraph keeps nodes, order, labels and meta."""
    cg = CausalGraph(("z", "a", "b"), (Edge("a", "b", "CAUSE"), Edge("b", "z")), {"source": "test"})
    back = CausalGraph.from_general(cg.to_general())
    assert back == cg and back.nodes == cg.nodes and back.edges == cg.edges and dict(back.meta) == {"source": "test"}


def test_causalgraph_to_general_refuses_two_cycle():
    """An edge and its reverse cannot become one general edge: the error names both."""
    with pytest.raises(InputFormatError, match=r"'a -> b' and 'b -> a'"):
        CausalGraph.from_pairs([("a", "b"), ("b", "a")]).to_general()


def test_from_general_refuses_non_directed_edges():
    """A CausalGraph holds directed edges only; the other edges are named."""
    with pytest.raises(InputFormatError, match=r"\['a -- b', 'b o-> c'\]"):
        CausalGraph.from_general(parse_text("a -- b o-> c"))


def test_from_causallearn_matrix_refuses_undirected_edges():
    """Bug fix: from_causallearn_matrix used to drop non-directed edges silently; now it refuses, naming them.

    (PC returned 6 edges and the old reader kept 4.)  The error points to read_graph.
    """
    m = np.array([[0, -1, 0], [1, 0, -1], [0, -1, 0]])  # a -> b, b -- c
    with pytest.raises(InputFormatError, match=r"'b -- c'.*read_graph"):
        CausalGraph.from_causallearn_matrix(m, ["a", "b", "c"])
    directed = np.array([[0, -1], [1, 0]])
    assert CausalGraph.from_causallearn_matrix(directed, ["a", "b"]).pairs == {("a", "b")}


def test_causalgraph_to_networkx_writes_gml():
    """CausalGraph.to_networkx writes no None attribute, so networkx's GML writer accepts it."""
    cg = CausalGraph.from_pairs([("a", "b", "CAUSE"), ("b", "c")])
    g = cg.to_networkx()
    assert all(v is not None for _, _, d in g.edges(data=True) for v in d.values())
    text = "\n".join(nx.generate_gml(g))
    assert 'label "CAUSE"' in text
    assert CausalGraph.from_networkx(nx.parse_gml(text)) == cg


def test_read_graph_takes_causalab_objects():
    """read_graph accepts a CausalGraph and a Hypothesis (names exactly as they are in them)."""
    from causalcheck.graphs import read_graph
    from causalcheck.records import Hypothesis

    cg = CausalGraph.from_pairs([("density", "resonanceFreq")])
    assert read_graph(cg) == parse_text("density -> resonanceFreq")
    assert read_graph(Hypothesis(graph=cg)) == parse_text("density -> resonanceFreq")
    assert GraphEdge.directed("density", "resonanceFreq") in read_graph(cg)
    assert GraphEdge.undirected("density", "resonanceFreq") not in read_graph(cg)


def test_edges_sort_across_graphs():
    """Edges with the same endpoints and different marks sort (marks order circle < tail < arrow)."""
    edges = [GraphEdge.parse("a", tok, "b") for tok in ("<->", "->", "--", "o->", "o-o")]
    assert [e.token for e in sorted(edges)] == ["o-o", "o->", "--", "->", "<->"]
