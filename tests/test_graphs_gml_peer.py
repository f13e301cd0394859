"""networkx's GML tests, ported: the sample files and expected graphs of networkx's own GML reader.

Cases come from networkx/networkx at commit cfc6b79, ``networkx/readwrite/tests/test_gml.py``
(``TestGraph.simple_data``, ``test_parse_gml``, ``test_parse_gml_cytoscape_bug``).  Layout and
display attributes — ``pos [ x 1 y 1 ]``, Cytoscape's ``graphics [ ... ]``, an edge's
``color [ ... ]``, a 3-D ``pos`` written by ``networkx.write_gml`` — never stop a graph from
being read: a 2-D position is kept as the node's ``pos``, every other one is ignored.
"""

from __future__ import annotations

import networkx as nx
import pytest
from causalcheck.graphs import read_graph, write_graph
from causalcheck.graphs.formats import parse_gml, parse_text

#: test_gml.py, TestGraph.simple_data
SIMPLE_DATA = """Creator "me"
Version "xx"
graph [
 comment "This is a sample graph"
 directed 1
 IsPlanar 1
 pos  [ x 0 y 1 ]
 node [
   id 1
   label "Node 1"
   pos [ x 1 y 1 ]
 ]
 node [
    id 2
    pos [ x 1 y 2 ]
    label "Node 2"
    ]
  node [
    id 3
    label "Node 3"
    pos [ x 1 y 3 ]
  ]
  edge [
    source 1
    target 2
    label "Edge from node 1 to node 2"
    color [line "blue" thickness 3]

  ]
  edge [
    source 2
    target 3
    label "Edge from node 2 to node 3"
  ]
  edge [
    source 3
    target 1
    label "Edge from node 3 to node 1"
  ]
]
"""

#: test_gml.py, test_parse_gml_cytoscape_bug (networkx issue #321): two nodes shown, the third and the edges abridged alike
CYTOSCAPE = """
Creator "Cytoscape"
Version 1.0
graph   [
    node    [
        root_index  -3
        id  -3
        graphics    [
            x   -96.0
            y   -67.0
            w   40.0
            h   40.0
            fill    "#ff9999"
            type    "ellipse"
            outline "#666666"
            outline_width   1.5
        ]
        label   "node2"
    ]
    node    [
        root_index  -2
        id  -2
        graphics    [
            x   63.0
            y   37.0
            w   40.0
            h   40.0
            fill    "#ff9999"
            type    "ellipse"
            outline "#666666"
            outline_width   1.5
        ]
        label   "node1"
    ]
    node    [
        root_index  -1
        id  -1
        graphics    [
            x   -31.0
            y   -17.0
            w   40.0
            h   40.0
            fill    "#ff9999"
            type    "ellipse"
            outline "#666666"
            outline_width   1.5
        ]
        label   "node0"
    ]
    edge    [
        root_index  -2
        target  -2
        source  -1
        graphics    [
            width   1.5
            fill    "#0000ff"
            type    "line"
            Line    [
            ]
            source_arrow    0
            target_arrow    3
        ]
        label   "DirectedEdge"
    ]
    edge    [
        root_index  -1
        target  -1
        source  -3
        graphics    [
            width   1.5
            fill    "#0000ff"
            type    "line"
            Line    [
            ]
            source_arrow    0
            target_arrow    3
        ]
        label   "DirectedEdge"
    ]
]
"""


def test_peer_simple_data_reads_with_its_positions(tmp_path):
    """test_parse_gml: nodes 'Node 1'..'Node 3' and the edges 1 -> 2 -> 3 -> 1; each 'pos [ x y ]' is kept as the node's pos."""
    g = parse_gml(SIMPLE_DATA)
    assert sorted(g.nodes) == ["Node 1", "Node 2", "Node 3"]
    assert g == parse_text('"Node 1" -> "Node 2" -> "Node 3" -> "Node 1"')
    assert g.attributes == {"Node 1": {"pos": "1,1"}, "Node 2": {"pos": "1,2"}, "Node 3": {"pos": "1,3"}}
    path = tmp_path / "test.gml"  # test_read_gml: the same file read from disk
    path.write_text(SIMPLE_DATA, encoding="utf-8")
    assert read_graph(path) == g and read_graph(path).attributes == g.attributes


def test_peer_cytoscape_graphics_blocks_are_ignored():
    """test_parse_gml_cytoscape_bug: Cytoscape's nested 'graphics' blocks (with an empty 'Line [ ]') do not stop the read."""
    g = parse_gml(CYTOSCAPE)
    assert sorted(g.nodes) == ["node0", "node1", "node2"]
    assert g == parse_text("node0 -- node1; node2 -- node0")  # no 'directed 1': an undirected graph
    assert g.attributes == {}


@pytest.mark.parametrize(
    ("pos", "kept"),
    [
        ((1.0, 2.0, 3.0), None),  # 3-D: not the model's x,y position
        ((1, 2), "1,2"),
        ([0.5], None),  # one coordinate (written with networkx's list marker)
        ({"x": 1, "y": 2}, "1,2"),  # written as 'pos [ x 1 y 2 ]'
        ({"x": 1, "y": 2, "z": 3}, None),
        ("3,4", "3,4"),
    ],
)
def test_a_position_of_any_shape_written_by_networkx_reads(pos, kept):
    """networkx.write_gml of a node position: a 2-D one is the node's pos, any other shape is ignored; the graph reads either way."""
    g = nx.DiGraph([("a", "b")])
    g.nodes["a"]["pos"] = pos
    g.nodes["a"]["latent"] = 1
    text = "\n".join(nx.generate_gml(g))
    read = parse_gml(text)
    assert read == parse_text("a -> b")
    expected = {"latent": True} if kept is None else {"latent": True, "pos": kept}
    assert read.attributes == {"a": expected}
    assert parse_gml(write_graph(read, format="gml")).attributes == read.attributes


def test_a_nested_block_on_a_flag_is_still_refused():
    """A flag the reader uses ('latent') given as a [ ... ] block is not layout: refused naming the node, as before."""
    from causalcheck.base.errors import InputFormatError

    with pytest.raises(InputFormatError, match="node 'a' has latent="):
        parse_gml('graph [ directed 1 node [ id 0 label "a" latent [ x 1 ] ] ]')
