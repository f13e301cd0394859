"""Examples for causalcheck.solvers.equivalence: CPDAGs, I-essential graphs, exact class sizes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graph import FREQ, CausalGraph
from causalcheck.graphchecks.named import NAMED_GRAPHS
from causalcheck.graphs import Graph
from causalcheck.solvers.equivalence import (
    consistent_extension,
    cpdag,
    enumerate_equivalent_dags,
    essential_graph_size,
    imec_size,
    interventional_essential_graph,
    mec_size,
    normalize_targets,
)

CHAIN, FORK, COLLIDER, DIAMOND = (NAMED_GRAPHS[n] for n in ("chain", "fork", "collider", "diamond"))
COMPLETE4 = CausalGraph.from_pairs([(f"x{i}", f"x{j}") for i in range(4) for j in range(i + 1, 4)])
EMPTY = CausalGraph(("a", "b"))

NAMED = {"chain": CHAIN, "fork": FORK, "collider": COLLIDER, "diamond": DIAMOND, "complete4": COMPLETE4, "empty": EMPTY}


def _undirected(*pairs: tuple[str, str]) -> frozenset[frozenset[str]]:
    return frozenset(frozenset(p) for p in pairs)


def test_chain_cpdag_is_fully_undirected() -> None:
    """A chain has no v-structure, so its CPDAG keeps both edges undirected."""
    g = cpdag(CHAIN)
    assert g.directed_pairs == frozenset()
    assert g.undirected_pairs == _undirected(("A", "B"), ("B", "C"))


def test_collider_cpdag_keeps_the_v_structure() -> None:
    """The two edges of a v-structure are compelled."""
    g = cpdag(COLLIDER)
    assert g.directed_pairs == {("A", "C"), ("B", "C")}
    assert g.undirected_pairs == frozenset()


def test_diamond_cpdag_orients_the_collider_only() -> None:
    """In the diamond the collider at d is compelled and the top stays undirected."""
    g = cpdag(DIAMOND)
    assert g.directed_pairs == {("B", "D"), ("C", "D")}
    assert g.undirected_pairs == _undirected(("A", "B"), ("A", "C"))


@pytest.mark.parametrize(
    ("name", "expected"),
    [("chain", 3), ("fork", 3), ("collider", 1), ("diamond", 3), ("complete4", 24), ("empty", 1)],
)
def test_mec_sizes_of_named_graphs(name: str, expected: int) -> None:
    """Known MEC sizes: chain/fork 3, collider 1, diamond 3, complete DAG on 4 nodes 4! = 24."""
    assert mec_size(NAMED[name]) == expected


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_graph_counts_match_enumeration(name: str) -> None:
    """Exact counts equal brute-force enumeration, with and without one intervention."""
    g = NAMED[name]
    assert mec_size(g) == len(list(enumerate_equivalent_dags(g)))
    first = g.nodes[0]
    assert imec_size(g, [[first]]) == len(list(enumerate_equivalent_dags(g, [[first]])))


def test_intervening_on_the_middle_of_a_chain_identifies_it() -> None:
    """Targeting b orients both edges of a - b - c (each has exactly one endpoint in {b})."""
    e = interventional_essential_graph(CHAIN, [["B"]])
    assert e.directed_pairs == {("A", "B"), ("B", "C")}
    assert imec_size(CHAIN, [["B"]]) == 1


def test_meek_rule_propagates_an_intervention_orientation() -> None:
    """Targeting a in a - b - c orients a -> b, and Meek R1 then orients b -> c."""
    e = interventional_essential_graph(CHAIN, [["A"]])
    assert e.directed_pairs == {("A", "B"), ("B", "C")}


def test_complete_graph_needs_interventions_to_shrink() -> None:
    """Intervening on x0 in the complete 4-DAG leaves the 3! orders of the rest."""
    assert imec_size(COMPLETE4, [["x0"]]) == 6
    assert imec_size(COMPLETE4, [["x0"], ["x1"], ["x2"]]) == 1


def test_a_two_node_target_orients_only_cut_edges() -> None:
    """A joint target {a, b} orients b -> c (cut) but not a - b (both endpoints inside)."""
    e = interventional_essential_graph(CHAIN, [["A", "B"]])
    assert ("B", "C") in e.directed_pairs
    assert frozenset(("A", "B")) in e.undirected_pairs
    assert imec_size(CHAIN, [["A", "B"]]) == 2


def test_counts_are_exact_integers_beyond_float_precision() -> None:
    """A complete DAG on 30 nodes has 30! members, counted exactly."""
    import math

    g = CausalGraph.from_pairs([(f"v{i}", f"v{j}") for i in range(30) for j in range(i + 1, 30)])
    assert mec_size(g) == math.factorial(30)


def test_size_of_a_pdag_is_the_product_over_chain_components() -> None:
    """Two disjoint chains: 3 × 3 = 9."""
    g = CausalGraph.from_pairs([("a", "b"), ("b", "c"), ("x", "y"), ("y", "z")])
    pd = cpdag(g)
    assert len([c for c in pd.chain_components() if len(c) > 1]) == 2
    assert essential_graph_size(pd) == 9 == mec_size(g)


def test_essential_graph_is_a_general_graph_with_sorted_edges() -> None:
    """The CPDAG is the one graph type (kind PDAG): directed edges sorted, then undirected ones sorted."""
    g = cpdag(DIAMOND)
    assert type(g) is Graph and g.kind == "PDAG" and not g.stated
    assert g.to_dict()["edges"] == [["B", "->", "D"], ["C", "->", "D"], ["A", "--", "B"], ["A", "--", "C"]]


def test_solvers_take_general_and_hypothesis_graphs_alike() -> None:
    """A general DAG and the CausalGraph with the same edges give the same CPDAG, sizes and members."""
    general = DIAMOND.simple()
    assert type(general) is Graph
    assert cpdag(general) == cpdag(DIAMOND)
    assert mec_size(general) == mec_size(DIAMOND) == 3
    assert {m.directed_pairs for m in enumerate_equivalent_dags(general)} == {
        m.directed_pairs for m in enumerate_equivalent_dags(DIAMOND)
    }
    assert all(type(m) is CausalGraph for m in enumerate_equivalent_dags(DIAMOND))


def test_a_graph_with_an_undirected_edge_is_not_a_dag() -> None:
    """imec_size refuses a PDAG, naming the edge that is not directed."""
    with pytest.raises(InputFormatError, match="'A -- B'"):
        mec_size(cpdag(DIAMOND))


def test_consistent_extension_orients_a_cpdag_into_a_member() -> None:
    """The Dor & Tarsi extension of a CPDAG is a DAG of its class."""
    ext = consistent_extension(cpdag(DIAMOND))
    assert ext is not None and ext.kind == "DAG" and cpdag(ext) == cpdag(DIAMOND)


def test_enumeration_limit_stops_early() -> None:
    """limit caps the number of yielded DAGs."""
    assert len(list(enumerate_equivalent_dags(COMPLETE4, limit=5))) == 5


def test_cycle_is_rejected_with_the_nodes() -> None:
    """A cyclic graph raises InputFormatError naming the nodes on the cycle."""
    g = CausalGraph.from_pairs([("a", "b"), ("b", "c"), ("c", "a")])
    with pytest.raises(InputFormatError, match="cycle"):
        mec_size(g)
    with pytest.raises(InputFormatError, match="cycle"):
        cpdag(CausalGraph.from_pairs([("a", "b"), ("b", "a")]))


def test_unknown_target_is_rejected() -> None:
    """A target that is not a node is an input error that shows it."""
    with pytest.raises(InputFormatError, match="'zzz'"):
        imec_size(CHAIN, [["zzz"]])


def test_targets_accept_bare_strings_and_drop_the_empty_set() -> None:
    """A bare string is a one-node target; ∅ and duplicates are dropped."""
    assert normalize_targets(["b", ["b"], [], ("a",)]) == (frozenset({"a"}), frozenset({"b"}))
    with pytest.raises(InputFormatError):
        normalize_targets("ab")  # type: ignore[arg-type]


def test_cpdag_agrees_with_causal_learn() -> None:
    """Our CPDAG equals causal-learn's dag2cpdag on the named graphs (matrix boundary)."""
    from causallearn.utils.DAG2CPDAG import dag2cpdag

    for g in (CHAIN, FORK, COLLIDER, DIAMOND, COMPLETE4):
        order = list(g.nodes)
        m = dag2cpdag(g.to_causallearn(order)).graph
        n = len(order)
        directed = {(order[i], order[j]) for i in range(n) for j in range(n) if m[i, j] == -1 and m[j, i] == 1}
        undirected = {frozenset((order[i], order[j])) for i in range(n) for j in range(n) if m[i, j] == -1 and m[j, i] == -1}
        ours = cpdag(g)
        assert ours.directed_pairs == directed
        assert ours.undirected_pairs == undirected


def _suite_graphs(folder: Path) -> list[tuple[str, CausalGraph, list[str]]]:
    out = []
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            g = CausalGraph.from_pairs([(e["from"], e["to"]) for e in rec["edges"]], list(rec["nodes"]))
            others = [n for n in rec["nodes"] if n != FREQ]
            out.append((f"{path.stem}:{rec['graph_id']}", g, others))
    return out


def test_official_suites_counts_equal_brute_force(causalab_data: Path) -> None:
    """On all 950 official graphs, MEC size = brute-force enumeration, and I-MEC = 1 after
    intervening on every non-frequency node."""
    graphs = _suite_graphs(causalab_data)
    assert len(graphs) == 950
    for name, g, others in graphs:
        assert mec_size(g) == len(list(enumerate_equivalent_dags(g))), name
        assert imec_size(g, [[x] for x in others]) == 1, name


def test_official_suite_mec_summary_matches_the_spec(causalab_data: Path) -> None:
    """Mean / max observational MEC sizes of the 4-node suite are 8.64 / 24 (spec §4.9)."""
    graphs = [g for name, g, _ in _suite_graphs(causalab_data) if name.startswith("4nodes:")]
    sizes = [mec_size(g) for g in graphs]
    assert len(sizes) == 50
    assert sum(sizes) / 50 == pytest.approx(8.64)
    assert max(sizes) == 24
