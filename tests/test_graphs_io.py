"""read_graph / write_graph: weights thresholded on every weighted read, node attributes carried or named as dropped."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.graphs import Graph, read_graph, write_graph
from causalcheck.graphs.convert import from_pgmpy, to_networkx, to_pgmpy
from causalcheck.graphs.io import ATTRIBUTE_FORMATS, AttributesDropped

#: lingam's B[effect, cause]: x -> y (0.9), y -> z (0.5), and a near-zero x -> z (0.01).
LINGAM_B = np.array([[0.0, 0.0, 0.0], [0.9, 0.0, 0.0], [0.01, 0.5, 0.0]])

DAGITTY = 'dag { u [latent] x [exposure, pos="0.5,1"] y [outcome] u -> x  u -> y  x -> y }'


# --------------------------------------------------------------------------- weights and threshold=


def test_read_graph_threshold_on_a_matrix():
    assert str(read_graph(LINGAM_B, names=list("xyz"), convention="lingam")) == "x -> y; x -> z; y -> z"
    assert str(read_graph(LINGAM_B, names=list("xyz"), convention="lingam", threshold=0.1)) == "x -> y; y -> z"
    frame = pd.DataFrame(LINGAM_B.T, columns=list("xyz"))
    assert str(read_graph(frame, convention="row_to_column", threshold=0.1)) == "x -> y; y -> z"


def test_read_graph_threshold_on_an_adjacency_csv(tmp_path):
    path = tmp_path / "w.csv"
    path.write_text(",x,y,z\nx,0,0.9,0.01\ny,0,0,-0.5\nz,0,0,0\n", encoding="utf-8")
    assert str(read_graph(path)) == "x -> y; x -> z; y -> z"
    assert str(read_graph(path, threshold=0.1)) == "x -> y; y -> z"


def test_edgelist_weight_column_is_read_and_thresholded(tmp_path):
    path = tmp_path / "edges.csv"
    path.write_text("source,target,weight\na,b,0.8\nb,c,0\nc,d,-0.05\n", encoding="utf-8")
    g = read_graph(path)
    assert str(g) == "a -> b; c -> d"  # the weight-0 row is no edge
    assert g.nodes == ("a", "b", "c", "d")  # its nodes stay
    assert str(read_graph(path, threshold=0.1)) == "a -> b"
    assert str(read_graph("from,to,edge,Weight\na,b,--,2\nb,c,->,0.0\n", format="edgelist")) == "a -- b"


def test_bad_weights_and_thresholds_are_refused(tmp_path):
    with pytest.raises(DSLSyntaxError, match=r"weight='heavy'"):
        read_graph("source,target,weight\na,b,heavy\n", format="edgelist")
    with pytest.raises(DSLSyntaxError, match=r"weight='nan'"):
        read_graph("source,target,weight\na,b,nan\n", format="edgelist")
    with pytest.raises(InputFormatError, match=r"threshold=0.1 needs a weight column"):
        read_graph("source,target\na,b\n", format="edgelist", threshold=0.1)
    with pytest.raises(InputFormatError, match=r"threshold=0.1 applies to weighted input.*format 'text'"):
        read_graph("a -> b", threshold=0.1)
    with pytest.raises(InputFormatError, match=r"threshold=0.1 applies to weighted input.*networkx"):
        read_graph(nx.DiGraph([("a", "b")]), threshold=0.1)
    for bad in (-1, float("nan"), "0.1", True):
        with pytest.raises(InputFormatError, match=r"threshold=.* must be a finite number >= 0"):
            read_graph(LINGAM_B, names=list("xyz"), convention="lingam", threshold=bad)
    with pytest.raises(InputFormatError, match=r"causal-learn endpoint codes"):
        read_graph(np.array([[0, -1], [1, 0]]), names=["a", "b"], convention="causallearn", threshold=0.5)


# --------------------------------------------------------------------------- node attributes


def test_graph_exposes_latent_exposure_outcome_and_positions():
    g = read_graph(DAGITTY)
    assert (g.latent, g.exposure, g.outcome) == (("u",), ("x",), ("y",))
    assert g.attributes["x"] == {"exposure": True, "pos": "0.5,1"}
    assert read_graph("a -> b").latent == ()


@pytest.mark.parametrize("fmt", ["dagitty", "dot", "gml", "json"])
def test_attributes_survive_every_format_that_holds_them(fmt):
    g = read_graph(DAGITTY)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no AttributesDropped here
        text = write_graph(g, format=fmt)
    back = read_graph(text, format=fmt)
    assert back == g
    assert back.attributes == g.attributes


@pytest.mark.parametrize("fmt", ["text", "causallearn", "edgelist", "adjacency"])
def test_formats_that_cannot_hold_attributes_name_what_they_drop(fmt, tmp_path):
    g = read_graph(DAGITTY)
    with pytest.warns(AttributesDropped, match=r"the \w+ format cannot hold .*'u' \[latent\]; 'x' \[exposure, pos='0.5,1'\]; 'y' \[outcome\]"):
        write_graph(g, format=fmt)
    assert ATTRIBUTE_FORMATS[fmt] == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        write_graph(read_graph("u -> x -> y"), format=fmt)  # nothing to drop: no warning


def test_dot_and_gml_name_attributes_outside_their_set():
    g = read_graph('dag { x [exposure, colour="red"] x -> y }')
    with pytest.warns(AttributesDropped, match=r"dot format .*'x' \[colour='red'\]"):
        text = write_graph(g, format="dot")
    assert read_graph(text).attributes == {"x": {"exposure": True}}


def test_outputs_without_attributes_are_unchanged():
    g = read_graph("a -> b; b -- c")
    assert write_graph(g, format="dot") == 'digraph {\n  "a";\n  "b";\n  "c";\n  "a" -> "b";\n  "b" -> "c" [dir=both, arrowtail=none, arrowhead=none];\n}\n'
    assert "attributes" not in g.to_dict()
    assert dict(to_networkx(g).nodes(data=True)) == {"a": {}, "b": {}, "c": {}}


def test_attributes_cross_the_networkx_and_pgmpy_adapters():
    g = read_graph(DAGITTY)
    nxg = to_networkx(g)
    assert nxg.nodes["u"] == {"latent": True} and nxg.nodes["x"] == {"exposure": True, "pos": "0.5,1"}
    assert read_graph(nxg).attributes == g.attributes
    hand = nx.DiGraph()
    hand.add_node("a", pos=(1.5, 2), latent=1, shape="box")  # networkx's (x, y) positions; other attributes are not ours
    hand.add_edge("a", "b")
    assert read_graph(hand).attributes == {"a": {"pos": "1.5,2", "latent": True}}
    model = to_pgmpy(g)
    assert (model.latents, model.exposures, model.outcomes) == ({"u"}, {"x"}, {"y"})
    assert from_pgmpy(model).attributes == g.attributes
    pdag = read_graph('pdag { u [latent] u -> x -- y }')
    assert read_graph(to_pgmpy(pdag)).latent == ("u",)


def test_bad_attribute_values_are_refused():
    hand = nx.DiGraph()
    hand.add_node("a", latent="maybe")
    hand.add_edge("a", "b")
    with pytest.raises(InputFormatError, match=r"node 'a' has latent='maybe'; expected true or false"):
        read_graph(hand)
    with pytest.raises(InputFormatError, match=r"node attributes name 'q'"):
        Graph.from_edges([("a", "->", "b")]).with_attributes({"q": {"latent": True}})
    with pytest.raises(InputFormatError, match=r"attribute 'latent'=3"):
        Graph.from_dict({"nodes": ["a"], "edges": [], "attributes": {"a": {"latent": 3}}})


def test_attributes_follow_a_renaming():
    g = read_graph(DAGITTY).renamed({"u": "U"})
    assert g.latent == ("U",)
