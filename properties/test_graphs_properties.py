"""Property tests: every graph format and adapter round-trips; kinds agree with their definitions."""

from __future__ import annotations

from causalcheck import strategies as cs
from causalcheck.graph import CausalGraph
from causalcheck.graphs import Graph
from causalcheck.graphs.convert import (
    from_causallearn,
    from_matrix,
    from_networkx,
    to_causallearn,
    to_matrix,
    to_networkx,
)
from causalcheck.graphs.formats import FORMATS
from causalcheck.graphs.kinds import check_cpdag, check_dag, consistent_extension, cpdag_of
from hypothesis import given, settings
from hypothesis import strategies as st

# graphs with any marks and names (awkward ones included), and DAGs: the exported strategies
ANY_NAME = cs.node_names("exact")
PLAIN = cs.identifiers()


def graphs(names: st.SearchStrategy[str] = PLAIN, marks: bool = True, max_nodes: int = 7) -> st.SearchStrategy[Graph]:
    """cs.any_graphs: distinct names, at most one edge per pair, any marks (or '->'/'--' only)."""
    return cs.any_graphs(names=names, marks="all" if marks else "pdag", max_nodes=max_nodes)


def dags(max_nodes: int = 7) -> st.SearchStrategy[Graph]:
    """cs.dags with awkward names, up to 12 edges."""
    return cs.dags(max_nodes=max_nodes, max_edges=12)


@given(graphs(names=ANY_NAME))
def test_text_json_dagitty_edgelist_round_trip_any_names(g: Graph) -> None:
    """text, JSON, dagitty and edge-list CSV round-trip any marks and any names (quoted where needed)."""
    for name in ("text", "json", "dagitty", "edgelist"):
        parse, show = FORMATS[name]
        back = parse(show(g))
        assert back == g, name
        assert back.nodes == g.nodes or name == "edgelist", name


@settings(max_examples=25)  # pydot's parser is slow (pyparsing); 25 cases cover the quoting rules
@given(graphs(names=ANY_NAME, max_nodes=5))
def test_dot_gml_round_trip_any_names(g: Graph) -> None:
    """DOT and GML round-trip any marks and any names, in node order."""
    for name in ("dot", "gml"):
        parse, show = FORMATS[name]
        back = parse(show(g))
        assert back == g, name
        assert back.nodes == g.nodes or name == "edgelist", name


@given(graphs())
def test_causallearn_text_round_trip(g: Graph) -> None:
    """causal-learn's text format round-trips every mark (names without spaces)."""
    parse, show = FORMATS["causallearn"]
    assert parse(show(g)) == g


@given(graphs(marks=False))
def test_adjacency_csv_and_matrix_conventions_round_trip(g: Graph) -> None:
    """Adjacency CSV and the 0/1 matrix conventions round-trip PDAGs; lingam's is the transpose."""
    parse, show = FORMATS["adjacency"]
    assert parse(show(g)) == g
    for conv in ("row_to_column", "column_to_row", "lingam"):
        assert from_matrix(to_matrix(g, convention=conv), g.nodes, convention=conv) == g
    assert (to_matrix(g, convention="row_to_column") == to_matrix(g, convention="lingam").T).all()


@given(graphs())
def test_adapters_round_trip(g: Graph) -> None:
    """networkx, causal-learn objects and causal-learn matrices round-trip every mark."""
    assert from_networkx(to_networkx(g)) == g
    assert from_causallearn(to_causallearn(g)) == g
    assert from_matrix(to_matrix(g, convention="causallearn"), g.nodes, convention="causallearn") == g


@given(dags())
def test_cpdag_of_a_dag_is_a_cpdag_and_extends_back(g: Graph) -> None:
    """The CPDAG of a DAG passes check_cpdag; its extension is a DAG with the same CPDAG."""
    cp = cpdag_of(g)
    cert = check_cpdag(cp)
    assert cert, cert.reason
    ext = consistent_extension(cp)
    assert ext is not None and check_dag(ext) and cpdag_of(ext) == cp
    assert cp.skeleton == g.skeleton
    assert cp.directed_pairs <= g.directed_pairs


@given(dags())
def test_causalgraph_conversion_lossless(g: Graph) -> None:
    """CausalGraph.from_general / to_general are inverse on directed graphs."""
    cg = CausalGraph.from_general(g)
    assert cg.to_general() == g and CausalGraph.from_general(cg.to_general()) == cg
