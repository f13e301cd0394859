"""Formats: files written by networkx, pydot, causal-learn and dagitty's documented syntax; errors with positions."""

from __future__ import annotations

import json
import re

import networkx as nx
import pytest
from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.graphs import read_graph, write_graph
from causalcheck.graphs.formats import (
    FORMATS,
    format_causallearn,
    format_dagitty,
    format_dot,
    parse_adjacency_csv,
    parse_causallearn,
    parse_dagitty,
    parse_dot,
    parse_edgelist_csv,
    parse_gml,
    parse_text,
)
from causalcheck.graphs.io import guess_format, sniff_graph_format
from causalcheck.graphs.model import GraphEdge, Mark

ALL_MARKS = parse_text('a -> b; b -- c; c <-> d; d o-> e; e o-o f; f o-- g; nodes: h, "two words"')


# --------------------------------------------------------------------------- our text format


def test_text_chains_mirrors_comments_and_quotes():
    """Chains, mirrored tokens, comments, nodes: lines and quoted names all parse."""
    g = parse_text(
        """
        # a comment line
        nodes: Z, "Age (years)"
        A -> B -> C <- D      # chain
        A <- E; C -- F; F <-> G
        G o-> H; H <-o I; I o-o J; J o-- K; K --o L
        "Age (years)" -> A
        """
    )
    assert g.nodes[:2] == ("Z", "Age (years)")
    want = {"A -> B", "B -> C", "D -> C", "E -> A", "C -- F", "F <-> G", "G o-> H", "I o-> H",
            "I o-o J", "J o-- K", "L o-- K", "Age (years) -> A"}
    assert {str(e) for e in g.edges} == want


def test_text_names_exact_and_node_named_o():
    """A node may be called 'o' (only spaced circle marks are marks); names are not trimmed inside quotes."""
    g = parse_text('o -> b o-> c; " x " -> c')
    assert {str(e) for e in g.edges} == {"o -> b", "b o-> c", " x  -> c"}


def test_text_syntax_error_has_position_expected_and_caret():
    """A bad token gives line, column, the expected tokens and a caret."""
    with pytest.raises(DSLSyntaxError) as info:
        parse_text("a -> b\nb => c", source="g.txt")
    err = info.value
    assert (err.line, err.column) == (2, 3)
    assert err.source == "g.txt" and "^" in err.snippet
    assert any("->" in e for e in err.expected)


def test_text_second_edge_error_points_at_it():
    """A second edge on one pair is a DSLSyntaxError at the second edge's token, naming both edges."""
    with pytest.raises(DSLSyntaxError, match=r"'a -- b' after 'a -> b'") as info:
        parse_text("a -> b\nb -- a")
    assert (info.value.line, info.value.column) == (2, 3)


# --------------------------------------------------------------------------- files written by other tools


def test_reads_networkx_write_gml(tmp_path):
    """A GML file written by networkx.write_gml (plain DiGraph and our marks attribute) reads back."""
    from causalcheck.graphs.convert import to_networkx

    plain = nx.DiGraph([("x", "y"), ("y", "z")])
    plain.add_node("w")
    nx.write_gml(plain, tmp_path / "plain.gml")
    assert read_graph(tmp_path / "plain.gml") == parse_text("x -> y -> z; nodes: w")
    nx.write_gml(to_networkx(ALL_MARKS), tmp_path / "marks.gml")
    assert read_graph(tmp_path / "marks.gml") == ALL_MARKS
    undirected = nx.Graph([("p", "q")])
    nx.write_gml(undirected, tmp_path / "u.gml")
    assert read_graph(tmp_path / "u.gml") == parse_text("p -- q")


def test_reads_networkx_write_dot(tmp_path):
    """A DOT file written by networkx.nx_pydot.write_dot reads back; a both-way pair is a refused 2-cycle unless symmetric='undirected'."""
    g = nx.DiGraph([("x", "y"), ("y", "z"), ("z", "y")])
    g.add_node("lonely")
    nx.nx_pydot.write_dot(g, tmp_path / "g.dot")
    with pytest.raises(InputFormatError, match=r"g\.dot: 'y -> z' and 'z -> y' form a 2-cycle"):
        read_graph(tmp_path / "g.dot")
    assert read_graph(tmp_path / "g.dot", symmetric="undirected") == parse_text("x -> y -- z; nodes: lonely")
    nx.nx_pydot.write_dot(nx.DiGraph([("x", "y")]), tmp_path / "one.dot")
    assert read_graph(tmp_path / "one.dot") == parse_text("x -> y")


def test_the_command_line_reads_a_both_way_dot_pair_as_undirected_when_asked(tmp_path, capsys):
    """check and compare take --symmetric undirected for networkx's write_dot of a CPDAG (refused by default, naming the option)."""
    from causalcheck.cli import main

    g = nx.DiGraph([("x", "y"), ("y", "z"), ("z", "y")])
    nx.nx_pydot.write_dot(g, tmp_path / "g.dot")
    assert main(["check", str(tmp_path / "g.dot")]) == 2
    assert "--symmetric undirected" in capsys.readouterr().err
    assert main(["check", str(tmp_path / "g.dot"), "--symmetric", "undirected", "--json"]) in (0, 1)
    assert json.loads(capsys.readouterr().out)["graph"]["edges"] == [["x", "->", "y"], ["y", "--", "z"]]
    assert main(["compare", str(tmp_path / "g.dot"), str(tmp_path / "g.dot"), "--symmetric", "undirected", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shd"] == 0


def test_reads_causallearn_to_pydot():
    """causal-learn's GraphUtils.to_pydot (integer ids, labels, dir=both arrowtail/arrowhead) reads back."""
    from causalcheck.graphs.convert import to_causallearn
    from causallearn.utils.GraphUtils import GraphUtils

    g = parse_text("a -> b; b -- c; c <-> d; d o-> e; e o-o f; f o-- g")
    dot = GraphUtils.to_pydot(to_causallearn(g)).to_string()
    assert parse_dot(dot) == g


def test_reads_hand_written_pydot_and_dot_attributes():
    """pydot-built graphs and hand-written DOT with dir/arrowhead/arrowtail attributes."""
    import pydot

    d = pydot.Dot(graph_type="digraph")
    d.add_edge(pydot.Edge("a", "b"))
    d.add_edge(pydot.Edge("b", "c", dir="none"))
    d.add_edge(pydot.Edge("c", "d", dir="both"))
    d.add_edge(pydot.Edge("d", "e", dir="both", arrowtail="odot", arrowhead="normal"))
    d.add_edge(pydot.Edge("f", "e", dir="back"))
    assert parse_dot(d.to_string()) == parse_text("a -> b -- c <-> d o-> e; e -> f")
    text = 'graph G { "x y" -- z; subgraph s { z -- w } }'
    assert parse_dot(text) == parse_text('"x y" -- z -- w')


def test_dot_errors():
    """Unparseable DOT is a DSLSyntaxError; an unknown dir value names it."""
    with pytest.raises(DSLSyntaxError, match="bad DOT"):
        parse_dot("digraph { a -> }")
    with pytest.raises(InputFormatError, match="dir='sideways'"):
        parse_dot("digraph { a -> b [dir=sideways] }")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("digraph { a:p -> b:q:n }", "a -> b"),  # a port is not part of the name (pydot read 'a:p')
        ("digraph { {a b} -> c; d -> subgraph s { e } }", "nodes: a, b; a -> c; b -> c; d -> e"),  # a group end point (pydot: refused)
        ("digraph { edge [dir=none]; a -> b; { edge [dir=back]; c -> d } e -> f }", "nodes: a, b, c, d; a -- b; d -> c; e -- f"),  # defaults, scoped
        ("digraph { node [latent=true]; a; b [latent=false] }", "nodes: a, b"),
        ("digraph { c -> d; a; b -> c }", "nodes: c, d, a, b; c -> d; b -> c"),  # first appearance (pydot: a, c, d, b)
        ("DiGraph G { NODE [shape=box]; -1.5 -> .5; 2. -> x }", '"-1.5" -> ".5"; "2." -> x'),  # numerals (pydot: refused)
        ('digraph { "a" + "b" -> <c> ; "x\\\ny" -> z }', "ab -> c; xy -> z"),  # '+' joins strings; '\\<newline>' continues one
        ('digraph { a [label="A"]; a [label="\\N"]; b [label=B] a -> b }', "a -> B"),  # '\\N' is the node's own name
        ("strict digraph { a -> b; a -> b // repeated\n # preprocessor\n }", "a -> b"),
    ],
)
def test_dot_follows_the_dot_language(text, expected):
    """Ports, group end points, scoped edge/node defaults, node order, numerals, string joins: as Graphviz reads them."""
    g = parse_dot(text)
    assert g == parse_text(expected)
    assert g.nodes == parse_text(expected).nodes
    if "latent" in text:
        assert g.latent == ("a",)


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("graph { a -> b }", (1, 11), "edge operator '->' in a graph"),
        ("digraph { a -- b }", (1, 13), "edge operator '--' in a digraph"),
        ("digraph { a -> b }\n garbage", (2, 2), "unexpected 'garbage'"),  # pydot ignored text after the graph
        ("digraph { a } digraph { b }", (1, 15), "unexpected 'digraph'"),
        ("digraph { 1a -> b }", (1, 11), "bad DOT graph"),  # Graphviz reads '1' then 'a': refused, not guessed
        ("", (1, 1), "end of input"),
    ],
)
def test_dot_refusals_name_the_place(text, where, what):
    """Text that is not one DOT graph is a DSLSyntaxError at its line and column."""
    with pytest.raises(DSLSyntaxError, match=re.escape(what)) as info:
        parse_dot(text, source="g.dot")
    assert (info.value.line, info.value.column) == where
    assert str(info.value).startswith(f"g.dot:{where[0]}:{where[1]}:")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # from ?dagitty (the R package's documentation): variable statements with attributes
        ('dag { x [exposure,pos="1,0"] y [outcome] x -> y <- z }', "x -> y <- z"),
        # ?dagitty: bidirected edges in DAGs
        ("dag{ x <-> m <-> y <- x }", "x <-> m <-> y; x -> y"),
        # ?orientPDAG
        ("pdag { x -> y -- z }", "x -> y -- z"),
        # ?graphType
        ("mag{ x<-> y }", "x <-> y"),
        # ?AncestralRelations: 'graph' header and mixed edges
        ("graph{ a <-> x -> b ; c -- x <- d }", "a <-> x -> b; c -- x; d -> x"),
        # ?dagitty: PAG edges with circle marks written @
        ("pag { a @-@ b ; b @-> c ; c -> d ; d @-- e ; f --@ e }", "a o-o b o-> c -> d o-- e; f --o e"),
        # groups: 'x -> { y z }' and nested statements
        ("dag { m -> { a b -> c } ; bb=\"0,0,1,1\" }", "m -> a; m -> b; m -> c; b -> c"),
        ('dag { "Age (years)" -> "x y" }', '"Age (years)" -> "x y"'),
    ],
)
def test_dagitty_documented_syntax(text, expected):
    """Graphs in the syntax of dagitty's documentation parse to the expected edges."""
    assert parse_dagitty(text) == parse_text(expected)


def test_dagitty_keeps_header_and_attributes():
    """The header and node attributes survive a parse / print / parse round trip."""
    g = parse_dagitty('dag { x [exposure,pos="1,0"] y [outcome] x -> y }')
    assert g.meta["dagitty_type"] == "dag"
    assert g.meta["attributes"] == {"x": {"exposure": True, "pos": "1,0"}, "y": {"outcome": True}}
    again = parse_dagitty(write_graph(g, format="dagitty"))
    assert again == g and again.meta["attributes"] == g.meta["attributes"]
    with pytest.raises(DSLSyntaxError) as info:
        parse_dagitty("dag { x -> }")
    assert info.value.line == 1 and info.value.column == 12


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("digraph G { x <-> m -> y }", "x <-> m -> y"),  # issue 42: DOT read '<->' as a node named '-'
        ("digraph { a -- b -> c }", "a -- b -> c"),  # '--' in a digraph is DAGitty's
        ("graph { a -> b <- c }", "a -> b <- c"),  # '->' in a graph is DAGitty's
        ("digraph { a @-> b }", "a o-> b"),
        ('digraph { u [l] u -> x "y" }', "u -> x; nodes: y"),  # a DAGitty flag DOT does not have
        ("digraph { a -> b [dir=none] }", "a -- b"),  # a DOT attribute DAGitty does not have
        ("digraph { a -> b; b -> c }", "a -> b -> c"),  # both read it alike
        ("graph { a -- b }", "a -- b"),
        ("strict dag G { a -> b }", "a -> b"),
        ("DAG { a -> b }", "a -> b"),
        ("Pdag { a -- b }", "a -- b"),
    ],
)
def test_read_graph_tells_dagitty_from_dot_by_content(text, expected, tmp_path):
    """A 'graph'/'digraph' header is DOT's and DAGitty's legacy one: the edges and attributes only one of them has decide."""
    assert read_graph(text) == parse_text(expected)
    path = tmp_path / "g.txt"
    path.write_text(text, encoding="utf-8")
    assert read_graph(path) == parse_text(expected)
    if "[l]" in text:
        assert read_graph(path).latent == ("u",)
    assert sniff_graph_format(text, "g.txt") in ("dot", "dagitty")


def test_dagitty_edges_in_a_dot_file_are_refused_at_their_place(tmp_path):
    """A .dot file is read as DOT, which has no '<->': the edge is refused at its line and column, naming DAGitty, not read as a node '-'."""
    path = tmp_path / "g.dot"
    path.write_text("digraph G {\n  x <-> m -> y\n}\n", encoding="utf-8")
    with pytest.raises(DSLSyntaxError, match="dagitty") as info:
        read_graph(path)
    assert (info.value.line, info.value.column) == (2, 5)
    assert read_graph(path, format="dagitty") == parse_text("x <-> m -> y")
    (tmp_path / "g.dagitty").write_text(path.read_text(), encoding="utf-8")
    assert read_graph(tmp_path / "g.dagitty") == parse_text("x <-> m -> y")
    assert sniff_graph_format(path.read_text(), tmp_path / "g.dagitty") == "dagitty"


@pytest.mark.parametrize(
    "text",
    [
        'digraph G { x [label="X"] x -> y }',  # DOT: the label is the name; DAGitty: a display label
        "digraph { u [l] u -> x; edge [dir=none]; a -> b }",  # a DAGitty flag and a DOT default
    ],
)
def test_a_graph_dot_and_dagitty_read_differently_is_refused(text):
    """When DOT and DAGitty read a text into different graphs and nothing in it is only one's, read_graph refuses, naming both and the option."""
    with pytest.raises(InputFormatError, match=r"format='dot' or format='dagitty'.*--graph-format"):
        read_graph(text)
    assert read_graph(text, format="dot") != read_graph(text, format="dagitty")


def test_the_command_line_reads_a_legacy_dagitty_file(tmp_path, capsys):
    """causalcheck check: issue 42's file as .txt is the MAG x <-> m -> y; as .dot it is refused (exit 2) naming DAGitty."""
    from causalcheck.cli import main

    (tmp_path / "g.txt").write_text("digraph G { x <-> m -> y }\n", encoding="utf-8")
    main(["check", str(tmp_path / "g.txt"), "--json"])
    assert json.loads(capsys.readouterr().out)["graph"]["edges"] == [["m", "<->", "x"], ["m", "->", "y"]]
    (tmp_path / "g.dot").write_text("digraph G { x <-> m -> y }\n", encoding="utf-8")
    assert main(["check", str(tmp_path / "g.dot")]) == 2
    assert "--graph-format dagitty" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text",
    [
        "digraph G { x <-> m -> y }",
        'dag G { x [e] y [o] u [u] a [a] s [s] p [pos="1,2", label="P"] x -> y <- u; a -> s }',
        "strict Pdag { a -- b -> c }",
        'dag { bb="0,0,1,1" {x -> {a b}} ; a <-> b }',
        "pag { a @-> {b --@ {c @-@ d} } }",
        'dag { "two words" [latent] "two words" -> "a\\"b" ; -1 -> .5 }',
        'graph { a -- b [pos="1,1"] }',
    ],
)
def test_format_dagitty_round_trips_what_parse_dagitty_reads(text):
    """parse -> format -> parse gives the same graph, the same node attributes, header and graph attributes."""
    g = parse_dagitty(text)
    again = parse_dagitty(format_dagitty(g))
    assert again == g
    assert again.attributes == g.attributes
    assert again.meta.get("graph_attributes") == g.meta.get("graph_attributes")
    if g.meta["dagitty_type"] in ("dag", "pdag", "mag", "pag"):
        assert again.meta["dagitty_type"] == g.meta["dagitty_type"]


def test_format_dagitty_keeps_a_dag_with_bidirected_edges_a_dag():
    """dagitty's 'dag' allows '<->' (a latent confounder); the header read is written back while the marks fit it."""
    assert format_dagitty(parse_dagitty("dag { a <-> b -> c }")).startswith("dag {")
    circled = parse_dagitty("dag { a -> b }").with_edges([GraphEdge("a", "b", Mark.CIRCLE, Mark.ARROW)])
    assert format_dagitty(circled).startswith("pag {")  # a circle does not fit 'dag': the header follows the marks
    assert format_dagitty(parse_text("a <-> b")).startswith("mag {")


def test_causallearn_text_format_both_ways(tmp_path):
    """str(GeneralGraph) parses to the same graph, and causal-learn's txt2generalgraph reads what we write."""
    from causalcheck.graphs.convert import from_causallearn, to_causallearn
    from causallearn.utils.TXT2GeneralGraph import txt2generalgraph

    g = parse_text("a -> b; b -- c; c <-> d; d o-> e; e o-o f; f o-- g")
    assert parse_causallearn(str(to_causallearn(g))) == g
    path = tmp_path / "g.txt"
    path.write_text(format_causallearn(g), encoding="utf-8")
    assert from_causallearn(txt2generalgraph(str(path))) == g
    assert read_graph(path) == g  # guessed from 'Graph Nodes:'
    with pytest.raises(InputFormatError, match="cannot be written"):
        format_causallearn(parse_text('"a b" -> c'))
    with pytest.raises(DSLSyntaxError) as info:
        parse_causallearn("Graph Nodes:\nX1;X2\n\nGraph Edges:\n1. X1 --> X3\n")
    assert info.value.line == 5


def test_edgelist_csv_columns_and_errors():
    """Edge-list CSV: aliases of the header, default '->', isolated nodes, extra columns, bad tokens."""
    g = parse_edgelist_csv("from,to,weight\nA,B,0.5\nC,,\n")
    assert g == parse_text("A -> B; nodes: C")
    g = parse_edgelist_csv("source;target;edge\nA;B;o->\nB;C;--\n")
    assert g == parse_text("A o-> B -- C")
    with pytest.raises(InputFormatError, match="needs a source column"):
        parse_edgelist_csv("a,b\n1,2\n")
    with pytest.raises(DSLSyntaxError, match="edge='=>'") as info:
        parse_edgelist_csv("source,target,edge\nA,B,=>\n")
    assert info.value.line == 2


def test_adjacency_csv_with_and_without_index():
    """Adjacency CSV: a header row of names, optional leading name column, symmetric = undirected."""
    assert parse_adjacency_csv(",a,b,c\na,0,1,0\nb,0,0,1\nc,0,1,0\n") == parse_text("a -> b -- c")
    assert parse_adjacency_csv("a,b\n0,1\n0,0\n") == parse_text("a -> b")
    assert parse_adjacency_csv("a,b\n0,1\n0,0\n", convention="lingam") == parse_text("b -> a")
    with pytest.raises(InputFormatError, match="labelled 'c'"):
        parse_adjacency_csv(",a,b\nc,0,1\nb,0,0\n")
    with pytest.raises(InputFormatError, match="not a number"):
        parse_adjacency_csv("a,b\n0,x\n0,0\n")


def test_read_graph_guesses_formats(tmp_path):
    """read_graph takes texts and paths; the format comes from the suffix or the content."""
    g = parse_text("a -> b -- c")
    for fmt, suffix in [("text", ".txt"), ("dagitty", ".dagitty"), ("dot", ".dot"), ("gml", ".gml"),
                        ("edgelist", ".csv"), ("json", ".json"), ("causallearn", ".txt")]:
        text = write_graph(g, format=fmt)
        assert read_graph(text) == g, fmt
        path = tmp_path / f"g_{fmt}{suffix}"
        path.write_text(text, encoding="utf-8")
        assert read_graph(path) == g, fmt
        assert read_graph(str(path)) == g, fmt
    adj = tmp_path / "adj.csv"
    write_graph(g, adj, format="adjacency")
    assert guess_format(adj.read_text(), str(adj)) == "adjacency"
    assert read_graph(adj) == g
    assert json.loads(write_graph(g, format="json"))["kind"] == "PDAG"


def test_write_graph_suffix_and_errors(tmp_path):
    """write_graph picks the format from the suffix; unknown formats and missing files are refused."""
    g = parse_text("a -> b")
    write_graph(g, tmp_path / "g.dot")
    assert (tmp_path / "g.dot").read_text().startswith("digraph")
    write_graph(g, tmp_path / "g.csv")
    assert (tmp_path / "g.csv").read_text().startswith("source,target,edge")
    with pytest.raises(InputFormatError, match="format='yaml'"):
        write_graph(g, format="yaml")
    with pytest.raises(InputFormatError, match="does not exist"):
        read_graph(tmp_path / "missing.gml")
    with pytest.raises(InputFormatError, match="format='yaml'"):
        read_graph("a -> b", format="yaml")


def test_every_format_round_trips_all_marks():
    """Each format that can hold circle and bidirected marks round-trips a graph that has them all."""
    for name, (parse, show) in FORMATS.items():
        if name == "adjacency":
            continue
        g = ALL_MARKS if name != "causallearn" else parse_text("a -> b; b -- c; c <-> d; d o-> e; e o-o f; f o-- g")
        assert parse(show(g)) == g, name


def test_dot_writer_output_is_valid_dot():
    """Our DOT output parses with pydot and renders marks with causal-learn's attributes."""
    import pydot

    text = format_dot(ALL_MARKS)
    assert pydot.graph_from_dot_data(text)
    assert "arrowtail=odot" in text and "dir=both" in text


def test_gml_rejects_garbage():
    """Malformed GML is an InputFormatError naming the source."""
    with pytest.raises(InputFormatError, match="not a GML graph"):
        parse_gml("graph [ node [ id 0 ] node [ id 0 ] ]", source="x.gml")


def test_read_graph_refuses_a_fifo_instead_of_blocking(tmp_path):
    """A FIFO given as a graph file is bad input (exit 2 material), not a read that blocks forever."""
    import os

    from causalcheck.base.errors import InputFormatError
    from causalcheck.graphs import read_graph

    fifo = tmp_path / "g.dot"
    os.mkfifo(fifo)
    with pytest.raises(InputFormatError, match="not a regular file"):
        read_graph(fifo)


def test_dot_groups_and_nesting_are_bounded_before_the_work():
    """'{a1..a1000} -> {b1..b1000}' (a million edges from 12 KB) and subgraphs 101 deep are refused by named limits."""
    from causalcheck.base.limits import LimitExceededError

    wide = "digraph { {" + " ".join(f"a{i}" for i in range(1000)) + "} -> {" + " ".join(f"b{i}" for i in range(1000)) + "} }"
    with pytest.raises(LimitExceededError, match=r"DOT graph 'g.dot': 1000000 edges, over the limit MAX_GRAPH_EDGES"):
        parse_dot(wide, source="g.dot")
    deep = "digraph { " + "{" * 101 + "a" + "}" * 101 + " }"
    with pytest.raises(LimitExceededError, match=r"101 levels, over the limit MAX_GRAPH_NESTING=100"):
        parse_dot(deep, source="g.dot")
    assert parse_dot("digraph { " + "{" * 100 + "a" + "}" * 100 + " }").nodes == ("a",)
