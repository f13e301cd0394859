"""Graph-to-graph functions keep what they do not change: node attributes of the nodes that survive, and meta that still holds."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from causalcheck import strategies as cs
from causalcheck.base.errors import InputFormatError
from causalcheck.graph import CausalGraph
from causalcheck.graphchecks.kinds import check_cpdag, consistent_extension, cpdag_of
from causalcheck.graphchecks.separation import latent_projection, representative, skeleton_dag
from causalcheck.graphs import Graph
from causalcheck.graphs.convert import carry_attributes
from causalcheck.graphs.formats import parse_text
from causalcheck.graphs.model import NODE_ATTRIBUTES
from causalcheck.graphs.names import CAUSALAB, apply_policy
from causalcheck.solvers import equivalence
from causalcheck.testing import settings_for
from hypothesis import assume, given
from hypothesis import strategies as st

FLAGS = tuple(a for a in NODE_ATTRIBUTES if a != "pos")

#: What parse_dagitty reads from 'dag { bb="0,0,1,1" u [latent] x [exposure,pos="1,2"] y [outcome] u -> x u -> y x -> y z -> y }'.
ATTRIBUTES = {"u": {"latent": True}, "x": {"exposure": True, "pos": "1,2"}, "y": {"outcome": True}}
META = {"dagitty_type": "dag", "graph_attributes": {"bb": "0,0,1,1"}}


def dagitty_graph(text: str, header: str, attributes: dict[str, dict[str, str | bool]]) -> Graph:
    """The graph of *text* with the meta parse_dagitty gives a file with this *header* and these node *attributes*."""
    g = parse_text(text)
    return Graph(g.nodes, g.edges, {**META, "dagitty_type": header}).with_attributes(attributes)


@st.composite
def attributed(draw: st.DrawFn, graphs: st.SearchStrategy[Graph]) -> Graph:
    """A graph from *graphs* whose every node has a ``pos`` and some flags (``latent`` on no more than half of them)."""
    g = draw(graphs)
    attrs: dict[str, dict[str, str | bool]] = {}
    for k, n in enumerate(g.nodes):
        flags = draw(st.sets(st.sampled_from(FLAGS)))
        if 2 * len([m for m in attrs.values() if "latent" in m]) >= len(g.nodes) - 1:
            flags.discard("latent")
        attrs[n] = {**dict.fromkeys(sorted(flags), True), "pos": f"{k},{draw(st.integers(-9, 9))}"}
    return g.with_attributes(attrs)


def _or_none(fn: Callable[[Graph], Graph | None]) -> Callable[[Graph], Graph | None]:
    """*fn*, with None for an input it refuses (a graph of the wrong kind, a PDAG without extension)."""

    def call(g: Graph) -> Graph | None:
        try:
            return fn(g)
        except InputFormatError:
            return None

    return call


def _renamed(g: Graph) -> Graph:
    return g.renamed({n: n + "'" for n in g.nodes})


DAGS = cs.dags(max_nodes=6)
PDAGS = cs.pdags(max_nodes=6)
CPDAGS = cs.cpdags(max_nodes=6)

#: Every public function that takes a graph and returns a graph, with the inputs it is defined on
#: and how it names a node of its input (renamed: with a prime).
TRANSFORMS: dict[str, tuple[st.SearchStrategy[Graph], Callable[[Graph], Graph | None], Callable[[str], str]]] = {
    "Graph.with_edges": (PDAGS, lambda g: g.with_edges(g.edges[1:]), str),
    "Graph.with_nodes": (PDAGS, lambda g: g.with_nodes(reversed(g.nodes)), str),
    "Graph.renamed": (PDAGS, _renamed, lambda n: n + "'"),
    "Graph.simple": (DAGS, lambda g: Graph(g.nodes, g.edges, g.meta, stated=True).simple(), str),
    "names.apply_policy": (DAGS, _or_none(lambda g: apply_policy(g, CAUSALAB)), CAUSALAB),
    "CausalGraph.from_general": (DAGS, CausalGraph.from_general, str),
    "CausalGraph.to_general": (DAGS, lambda g: CausalGraph.from_general(g).to_general(), str),
    "kinds.cpdag_of": (DAGS, cpdag_of, str),
    "kinds.consistent_extension": (PDAGS, consistent_extension, str),
    "kinds.check_cpdag extension": (CPDAGS, lambda g: check_cpdag(g).extension, str),
    "separation.representative": (PDAGS, _or_none(representative), str),
    "separation.latent_projection": (DAGS, latent_projection, str),
    "equivalence.enumerate_equivalent_dags": (DAGS, lambda g: next(equivalence.enumerate_equivalent_dags(g), None), str),
    "separation.representative of a PAG": (cs.pags(max_nodes=6), _or_none(representative), str),
    "separation.skeleton_dag": (PDAGS, lambda g: skeleton_dag(g)[0], str),
    "equivalence.cpdag": (DAGS, equivalence.cpdag, str),
    "equivalence.interventional_essential_graph": (DAGS, lambda g: equivalence.interventional_essential_graph(g, g.nodes[:1]), str),
    "equivalence.consistent_extension": (PDAGS, equivalence.consistent_extension, str),
}



def _assert_kept(g: Graph, out: Graph | None, name: Callable[[str], str] = str) -> None:
    assume(out is not None)
    assert out is not None
    survivors = [n for n in g.nodes if name(n) in out.index]
    assume(survivors)
    assert {name(n): dict(g.attributes[n]) for n in survivors} == {name(n): dict(out.attributes.get(name(n), {})) for n in survivors}


@pytest.mark.parametrize("transform", sorted(TRANSFORMS))
def test_every_graph_to_graph_function_keeps_the_attributes_of_the_nodes_that_survive(transform: str) -> None:
    """Each node of the result that was a node of the input has the input's attributes (latent, exposure, pos, ...)."""
    graphs, fn, name = TRANSFORMS[transform]

    @settings_for("ci", max_examples=60)
    @given(attributed(graphs))
    def check(g: Graph) -> None:
        _assert_kept(g, fn(g), name)

    check()


def test_cpdag_of_and_the_extension_keep_dagitty_attributes_and_drop_a_header_no_longer_true():
    """cpdag_of of a DAGitty DAG keeps [latent], [exposure], pos and the graph attributes; 'dag' is not its kind, so that goes."""
    g = dagitty_graph("u -> x; u -> y; x -> y; z -> y", "dag", ATTRIBUTES)
    cp = cpdag_of(g)
    assert str(cp) == "u -> y; x -> y; z -> y; u -- x"
    assert (cp.latent, cp.exposure, cp.outcome, cp.attributes["x"]["pos"]) == (("u",), ("x",), ("y",), "1,2")
    assert cp.meta["graph_attributes"] == {"bb": "0,0,1,1"} and "dagitty_type" not in cp.meta
    ext = consistent_extension(cp)
    assert ext is not None and ext.attributes == g.attributes and ext.meta["graph_attributes"] == {"bb": "0,0,1,1"}
    assert "dagitty_type" not in ext.meta  # the CPDAG had none left to carry
    cert = check_cpdag(cp)
    assert cert and cert.extension is not None and cert.extension.latent == ("u",)
    assert cert.to_dict()["extension"]["attributes"] == ATTRIBUTES


def test_a_header_that_still_names_the_kind_is_kept():
    """A DAG whose every edge is compelled is its own CPDAG: its 'dag' header is still true and stays; a 'pdag' one goes."""
    g = dagitty_graph("a -> c <- b", "dag", {"a": {"exposure": True}})
    assert cpdag_of(g).meta == g.meta
    ext = consistent_extension(dagitty_graph("a -- b", "pdag", {"a": {"latent": True}}))
    assert ext is not None and ext.meta == {"graph_attributes": {"bb": "0,0,1,1"}, "attributes": {"a": {"latent": True}}}


def test_carry_attributes_lets_the_result_s_own_attributes_win():
    """An attribute the result sets itself is not overwritten; the others come from the source."""
    source = Graph.from_edges([("a", "->", "b")]).with_attributes({"a": {"latent": True, "pos": "0,0"}})
    result = Graph.from_edges([("a", "--", "b"), ("b", "--", "c")]).with_attributes({"a": {"pos": "5,5"}, "c": {"outcome": True}})
    out = carry_attributes(source, result)
    assert out.attributes == {"a": {"latent": True, "pos": "5,5"}, "c": {"outcome": True}}
    assert out == result and carry_attributes(Graph.from_edges([("a", "->", "b")]), result) is result
