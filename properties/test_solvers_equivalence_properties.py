"""Property tests: exact MEC / I-MEC counts and essential graphs agree with brute force."""

from __future__ import annotations

import itertools

from causalcheck import strategies as cs
from causalcheck.graphs import Graph
from causalcheck.solvers.equivalence import (
    cpdag,
    enumerate_equivalent_dags,
    imec_size,
    interventional_essential_graph,
    mec_size,
)
from hypothesis import given
from hypothesis import strategies as st

MAX_EDGES = 13  # keeps brute force (2**free edges) fast while covering dense 5–6 node graphs


def dags(max_nodes: int = 9) -> st.SearchStrategy[Graph]:
    """cs.dags on up to *max_nodes* nodes (at most MAX_EDGES edges): general graphs, as the solvers take them."""
    return cs.dags(max_nodes=max_nodes, max_edges=MAX_EDGES)


@st.composite
def dag_and_targets(draw: st.DrawFn) -> tuple[Graph, list[list[str]]]:
    """A DAG with a family of single- and two-node intervention targets."""
    g = draw(dags())
    nodes = list(g.nodes)
    singles = draw(st.lists(st.sampled_from(nodes), max_size=len(nodes), unique=True))
    targets = [[x] for x in singles]
    if len(nodes) > 1 and draw(st.booleans()):
        targets.append(draw(st.lists(st.sampled_from(nodes), min_size=2, max_size=2, unique=True)))
    return g, targets


@given(dags())
def test_mec_size_equals_brute_force(g: Graph) -> None:
    """The MEC size equals the number of enumerated Markov-equivalent DAGs."""
    assert mec_size(g) == len(list(enumerate_equivalent_dags(g)))


@given(dag_and_targets())
def test_imec_size_and_essential_graph_equal_brute_force(case: tuple[Graph, list[list[str]]]) -> None:
    """I-MEC size = enumeration; the essential graph's directed edges are exactly those shared by all members."""
    g, targets = case
    members = list(enumerate_equivalent_dags(g, targets))
    assert imec_size(g, targets) == len(members)
    shared = frozenset.intersection(*(m.directed_pairs for m in members))
    ess = interventional_essential_graph(g, targets)
    assert ess.directed_pairs == shared
    skeleton = {frozenset(p) for p in g.directed_pairs}
    assert {frozenset(p) for p in ess.directed_pairs} | set(ess.undirected_pairs) == skeleton


@given(dags())
def test_intervening_on_every_node_identifies_the_dag(g: Graph) -> None:
    """With every node a target, the I-MEC is the DAG alone."""
    assert imec_size(g, [[v] for v in g.nodes]) == 1
    assert interventional_essential_graph(g, [[v] for v in g.nodes]).directed_pairs == g.directed_pairs


@given(dag_and_targets())
def test_more_targets_never_enlarge_the_class(case: tuple[Graph, list[list[str]]]) -> None:
    """Adding targets can only shrink the class, and the MEC bounds every I-MEC."""
    g, targets = case
    sizes = [imec_size(g, targets[:k]) for k in range(len(targets) + 1)]
    assert sizes[0] == mec_size(g)
    assert all(a >= b >= 1 for a, b in itertools.pairwise(sizes))


@given(dags())
def test_the_dag_is_a_member_of_its_own_class(g: Graph) -> None:
    """The CPDAG's directed edges are edges of the DAG itself."""
    assert cpdag(g).directed_pairs <= g.directed_pairs
