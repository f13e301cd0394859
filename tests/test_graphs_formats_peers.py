"""networkx's own GML parser cases, ported: each GML text networkx refuses is refused here, each it reads is read.

Source (values only): networkx/networkx at cfc6b79 (BSD-3), ``networkx/readwrite/tests/test_gml.py`` —
``TestGraph.test_exceptions`` (the texts ``parse_gml`` must refuse and those it must read) and
``test_relabel_duplicate``.  The sample files of that test module are in
``tests/test_graphs_gml_peer.py``.

Convention: a graph here holds at most one edge per node pair and no self-loop, so GML texts that
networkx reads as a self-loop, a 2-cycle or a multigraph are refused, naming the edge; those cases
are strict expected failures naming the convention.
"""

from __future__ import annotations

import pytest
from causalcheck.base.errors import CausalCheckError
from causalcheck.graphs.formats import parse_gml, parse_text

TWO_NODES = "graph [ node [ id 0 label 0 ] node [ id 1 label 1 ] "

#: test_exceptions: assert_parse_error(...) and test_relabel_duplicate — networkx refuses every one
REFUSED = [
    "",
    'Creator ""',
    "0",
    "graph ]",
    "graph [ 1 ]",
    "graph [ 1.E+2 ]",
    'graph [ "A" ]',
    "graph [ ] graph ]",
    "graph [ ] graph [ ]",
    "graph [ data [1, 2, 3] ]",
    "graph [ node [ ] ]",
    "graph [ node [ id 0 ] ]",
    "graph [ node [ id 0 label 0 ] node [ id 0 label 1 ] ]",
    "graph [ node [ id 0 label 0 ] node [ id 1 label 0 ] ]",
    "graph [ node [ id 0 label 0 ] edge [ ] ]",
    "graph [ node [ id 0 label 0 ] edge [ source 0 ] ]",
    "graph [ node [ id 0 label 0 ] edge [ source 1 target 0 ] ]",
    "graph [ node [ id 0 label 0 ] edge [ source 0 target 1 ] ]",
    TWO_NODES + "edge [ source 0 target 1 ] edge [ source 1 target 0 ] ]",
    TWO_NODES + "edge [ source 0 target 1 key 0 ] edge [ source 0 target 1 key 0 ]multigraph 1 ]",
    "graph [edge [ source '\u4200' target '\u4200' ] node [ id '\u4200' label b ] ]",
    'graph [ label "" directed 1 node [ id 0 label "same" ] node [ id 1 label "same" ] ]',  # test_relabel_duplicate
]


@pytest.mark.parametrize("text", REFUSED, ids=[f"refused-{i}" for i in range(len(REFUSED))])
def test_networkx_refuses_and_so_do_we(text):
    """test_gml.py test_exceptions / test_relabel_duplicate: a text networkx's parse_gml refuses is refused with a CausalCheckError."""
    with pytest.raises(CausalCheckError, match="GML"):
        parse_gml(text)


ONE_EDGE_PER_PAIR = pytest.mark.xfail(
    raises=CausalCheckError, strict=True, reason="convention: a graph here holds no self-loop and at most one edge per node pair"
)

#: test_exceptions: the texts networkx reads, with the graph read (node labels become names)
READ = [
    pytest.param('graph [ name "x" node [ id 0 label "x" ] ]', "nodes: x", id="test_name"),
    pytest.param('graph [ node [ id 0 label "x" ] ]', "nodes: x", id="test_name-unnamed"),
    pytest.param(TWO_NODES + "edge [ source 0 target 1 ] ]", "0 -- 1", id="undirected-edge"),
    pytest.param(TWO_NODES + "edge [ source 0 target 1 ] directed 1 ]", "0 -> 1", id="directed-edge"),
    pytest.param("graph [edge [ source 0 target 0 ] node [ id 0 label 0 ] ]", "nodes: 0", id="self-loop", marks=ONE_EDGE_PER_PAIR),
    pytest.param("graph [edge [ source a target a ] node [ id a label b ] ]", "nodes: b", id="self-loop-alphanumeric-id", marks=ONE_EDGE_PER_PAIR),
    pytest.param(TWO_NODES + "edge [ source 0 target 1 ] edge [ source 1 target 0 ] directed 1 ]", "0 -> 1", id="2-cycle", marks=ONE_EDGE_PER_PAIR),
    pytest.param(TWO_NODES + "edge [ source 0 target 1 ] edge [ source 0 target 1 ]multigraph 1 ]", "0 -- 1", id="multigraph", marks=ONE_EDGE_PER_PAIR),
    pytest.param(
        TWO_NODES + "edge [ source 0 target 1 key 0 ] edge [ source 0 target 1 ]multigraph 1 ]", "0 -- 1", id="multigraph-key", marks=ONE_EDGE_PER_PAIR
    ),
    pytest.param(
        TWO_NODES + "edge [ source 0 target 1 key 0 ] edge [ source 1 target 0 key 0 ]directed 1 multigraph 1 ]",
        "0 -> 1",
        id="multidigraph",
        marks=ONE_EDGE_PER_PAIR,
    ),
    pytest.param(
        "graph [ node [ id n42 label 0 ] node [ id x43 label 1 ]edge [ source n42 target x43 key 0 ]"
        "edge [ source x43 target n42 key 0 ]directed 1 multigraph 1 ]",
        "0 -> 1",
        id="multidigraph-alphanumeric-ids",
        marks=ONE_EDGE_PER_PAIR,
    ),
]


@pytest.mark.parametrize(("text", "expected"), READ)
def test_networkx_reads_and_so_do_we(text, expected):
    """test_gml.py test_exceptions / test_name: a text networkx's parse_gml reads is read, its labels the node names."""
    g = parse_gml(text)
    assert (g.nodes, set(g.edges)) == (parse_text(expected).nodes, set(parse_text(expected).edges))
