"""Property tests: every graph format and adapter round-trips; kinds agree with their definitions."""

from __future__ import annotations

from causalcheck import strategies as cs
from causalcheck.graph import CausalGraph
from causalcheck.graphchecks.kinds import check_cpdag, check_dag, consistent_extension, cpdag_of
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
from hypothesis import given
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


@given(dags())
def test_a_stated_graph_of_a_dag_has_the_dags_views(g: Graph) -> None:
    """The stated representation of a DAG has the same parents, children, ancestors, roots and simple form."""
    stated = Graph(g.nodes, g.arcs, stated=True)
    for v in g.nodes:
        assert stated.parents(v) == g.parents(v) and stated.children(v) == g.children(v)
        assert stated.ancestors(v) == g.ancestors(v) and stated.descendants(v) == g.descendants(v)
    assert stated.roots() == g.roots() and stated.simple() == g and stated.simple().nodes == g.nodes


@st.composite
def digraphs(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    """Random directed graphs over 0..n-1 without self-loops (2-cycles included), edges in drawn order."""
    n = draw(st.integers(1, 9))
    pairs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=18))
    return n, list(dict.fromkeys((a, b) for a, b in pairs if a != b))


@given(digraphs())
def test_hand_written_traversals_agree_with_networkx(case: tuple[int, list[tuple[int, int]]]) -> None:
    """depth_first's post-order and cycle, cyclic_remainder, reachable and connected_components equal networkx's."""
    import networkx as nx
    from causalcheck.graphs.model import connected_components, depth_first, reachable
    from causalcheck.solvers._meek import cyclic_remainder, directed_cycle

    n, pairs = case
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(pairs)
    succ: list[list[int]] = [[] for _ in range(n)]
    for a, b in pairs:
        succ[a].append(b)
    try:
        found = nx.find_cycle(g)
        cycle = [u for u, _ in found] + [found[0][0]]
    except nx.NetworkXNoCycle:
        cycle = []
    assert directed_cycle(n, pairs) == cycle
    if not cycle:
        assert depth_first(succ)[0] == list(nx.dfs_postorder_nodes(g))
    downstream = {v for c in nx.strongly_connected_components(g) if len(c) > 1 for v in c}
    downstream |= {w for v in set(downstream) for w in nx.descendants(g, v)}
    assert set(cyclic_remainder(n, pairs)) == downstream
    for v in range(n):
        assert reachable(succ[v], succ.__getitem__) == set().union(*({w} | nx.descendants(g, w) for w in succ[v]))
    ours = connected_components(range(n), pairs)
    assert sorted(map(sorted, ours)) == sorted(sorted(c) for c in nx.connected_components(g.to_undirected()))
