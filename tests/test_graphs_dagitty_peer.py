"""DAGitty's own parser tests, ported: each case's text and expected value come from dagitty's test files.

Cases come from jtextor/dagitty at commit 7a65777: ``test/test/parser.js`` (tests of
``GraphParser``, the reader of dagitty.net and the R package) and ``jslib/parser/parser-tests.js``
(tests of the grammar ``jslib/parser/GraphDotParser.pegjs``); the attribute names come from
``jslib/graph/GraphParser.js``.  A dagitty graph may hold several edges between one pair
(``x -> y`` and ``x <-> y``); a graph here holds one, so those cases are refused naming both
edges instead of being read into a smaller graph.
"""

from __future__ import annotations

import pytest
from causalcheck.base.errors import DSLSyntaxError
from causalcheck.graphs import read_graph, write_graph
from causalcheck.graphs.formats import format_dagitty, parse_dagitty, parse_text

# --------------------------------------------------------------------------- test/test/parser.js


@pytest.mark.parametrize(
    ("text", "vertices"),
    [
        ("dag{a->b}", 2),  # "DAG construction from dot string"
        (" dag { a -> b } ", 2),
        ("dag{a;b}", 2),  # "semicolons 2"
        ("dag{;b}", 1),
        ("dag{a;}", 1),
        ("dag{}", 0),
        ("dag{;}", 0),
        ("dag{;;;}", 0),
        ("dag{a}", 1),  # "spaces"
        ("dag{a }", 1),
        ("dag{ a }", 1),
        ("dag{x1}", 1),  # the toLavaan case
    ],
)
def test_peer_parser_js_vertex_counts(text, vertices):
    """parser.js: ';' is white space, so these texts have the vertex counts dagitty asserts."""
    assert len(parse_dagitty(text).nodes) == vertices


@pytest.mark.parametrize(
    ("text", "edges"),
    [
        ("dag{{x->{a b}}}", 2),  # "grouping": a bare group statement
        ("dag{{x->{a ; b}}}", 2),  # "semicolons"
        ("pag{a @-> {b --@ {c @-@ d} }}", 6),
        ("dag{x->{a b}}", 2),
        ("dag{x->{a->b}}", 3),
        ("dag{a->{b->{c->{d->e}}}}", 10),
    ],
)
def test_peer_parser_js_edge_counts(text, edges):
    """parser.js: a group on either side of an edge stands for each of its nodes, and its own edges are kept."""
    assert len(parse_dagitty(text).edges) == edges


def test_peer_parser_js_groups_expand_to_every_pair():
    """parser.js: 'dag{ U -> {a b c d} }' serialises as the four edges from U; the nested PAG group as its six edges."""
    assert parse_dagitty("dag{ U -> {a b c d} }") == parse_text("U -> a; U -> b; U -> c; U -> d")
    assert parse_dagitty("pag{a @-> {b --@ {c @-@ d} }}") == parse_text(
        "c o-o d; b --o c; b --o d; a o-> b; a o-> c; a o-> d"
    )
    assert sorted(parse_dagitty("pag{a @->b<-@c}").nodes) == ["a", "b", "c"]
    assert sorted(parse_dagitty("pag{a @->b<-@c @-@d}").nodes) == ["a", "b", "c", "d"]


def test_peer_parser_js_unicode_name_and_label():
    """parser.js: a quoted Unicode name is one vertex; 'label' is a vertex's display label, kept as an attribute."""
    runes = "ᚠᛇᚻ᛫ᛒᛦᚦ᛫ᚠᚱᚩᚠᚢᚱ᛫ᚠᛁᚱᚪ᛫ᚷᛖᚻᚹᛦᛚᚳᚢᛗ"
    assert parse_dagitty(f'digraph G {{ "{runes}" }}').nodes == (runes,)
    g = parse_dagitty('digraph G { x [label="από το Άξιον Εστί"] }')
    assert g.nodes == ("x",)
    assert g.attributes == {"x": {"label": "από το Άξιον Εστί"}}


def test_peer_parser_js_graph_statement_is_the_bounding_box():
    """parser.js: 'graph [bb=...]' sets the graph's bounding box; it names no vertex."""
    g = parse_dagitty('digraph G { graph [bb="0,0,100,100"] }')
    assert g.nodes == ()
    assert g.meta["graph_attributes"] == {"bb": "0,0,100,100"}


def test_peer_parser_js_legacy_digraph_header():
    """parser.js: the legacy 'digraph' header takes dagitty's edges: 'x <-> m' is bidirected, 'x -> m' directed."""
    assert parse_dagitty("digraph G { x <-> y }") == parse_text("x <-> y")
    assert parse_dagitty("digraph G { x <-> m } ") == parse_text("m <-> x")
    assert parse_dagitty("digraph G { x -> m } ") == parse_text("x -> m")
    assert parse_dagitty("digraph G { x <-> m }").meta["dagitty_type"] == "digraph"


def test_peer_parser_js_latent_vertex():
    """parser.js: oldToString lists x1 x3 x4 x5 x6 and xi1 (U: latent), and the edges from each vertex."""
    text = "digraph G { xi1 [latent]\nxi1 -> x1\nxi1 -> x3\nxi1 -> x4\nxi1 -> x5\nx5 -> x6\nx1 -> x6\nx6 -> x3 }\n"
    g = parse_dagitty(text)
    assert sorted(g.nodes) == ["x1", "x3", "x4", "x5", "x6", "xi1"]
    assert g.latent == ("xi1",)
    assert g == parse_text("x1 -> x6; x5 -> x6; x6 -> x3; xi1 -> x1; xi1 -> x3; xi1 -> x4; xi1 -> x5")


def test_peer_parser_js_old_syntax_still_works_through_read_graph():
    """parser.js "old syntax still works": read_graph takes the 'digraph' text as DAGitty, '<->' included."""
    text = (
        "digraph  { xi1 [latent]\nxi2 [latent]\nxi1 <-> xi2\nxi1 -> x1\nxi1 -> x2\nxi1 -> x3\n"
        "xi2 -> x4\nxi2 -> x5\nxi2 -> x6 } "
    )
    g = read_graph(text)
    assert g == parse_text("xi1 -> x1; xi1 -> x2; xi1 -> x3; xi1 <-> xi2; xi2 -> x4; xi2 -> x5; xi2 -> x6")
    assert g.latent == ("xi1", "xi2")


@pytest.mark.parametrize(
    "text",
    [
        "digraph { x -> y\ny -> z\nx <-> y } ",
        "digraph G {\ny -- x -> y <-> x }",
        'digraph G { x -- y \n x -> y \n x <-> y [pos="1.000,1.000"] }',
        'digraph G {\n  y --   x -> y   <-> x [pos="1.0,0.1"] }',
    ],
)
def test_peer_parser_js_several_edges_on_one_pair_are_refused(text):
    """parser.js keeps 'x -> y' and 'x <-> y' side by side; a graph here holds one edge per pair, so the file is refused naming both."""
    with pytest.raises(DSLSyntaxError, match="second edge between"):
        parse_dagitty(text)
    with pytest.raises(DSLSyntaxError, match="second edge between"):
        read_graph(text)


def test_peer_parser_js_flags_and_positions():
    """parser.js: exposure, outcome and a position with blanks inside its quotes are read from a 'graph G' file."""
    g = parse_dagitty('graph G {\nx [ exposure , pos =" 12. , .13 "]\ny [outcome]\n}')
    assert (g.exposure, g.outcome) == (("x",), ("y",))
    assert [float(v) for v in g.attributes["x"]["pos"].split(",")] == [12.0, 0.13]
    assert parse_dagitty("graph G { x [exposure] \n y [outcome] }").attributes == {"x": {"exposure": True}, "y": {"outcome": True}}
    for text in ("graph G { x \n y }", "graph G { x [] \n y [] }", "digraph G { x [] \n y [] }"):
        g = parse_dagitty(text)
        assert (g.nodes, g.edges, g.attributes) == (("x", "y"), (), {}), text


def test_peer_parser_js_named_dag_with_positions():
    """parser.js: 'dag G { ... }' with positions on vertices and on an edge; M -> Y beside M <-> Y is refused, the rest reads."""
    text = (
        'dag G { M [pos="-0.521,-0.265"] \n X [exposure,pos="-1.749,-0.238"] \n Y [outcome,pos="1.029,-0.228"] \n '
        'M <-> Y [pos="0.645,-0.279"] \n X -> Y \n X -> M -> Y } '
    )
    with pytest.raises(DSLSyntaxError, match="second edge between 'M' and 'Y'"):
        parse_dagitty(text)
    g = parse_dagitty(text.replace("X -> M -> Y", "X -> M"))  # the same file with one edge per pair
    assert g == parse_text("M <-> Y; X -> Y; X -> M")
    assert g.attributes == {
        "M": {"pos": "-0.521,-0.265"},
        "X": {"exposure": True, "pos": "-1.749,-0.238"},
        "Y": {"outcome": True, "pos": "1.029,-0.228"},
    }
    assert g.meta["dagitty_name"] == "G"


# --------------------------------------------------------------------------- jslib/parser/parser-tests.js


@pytest.mark.parametrize(
    ("text", "header", "expected"),
    [
        ("graph { a -- b; b -- c; a -- c; d -- c; e -- c; e -- a; }", "graph", "a -- b -- c -- a; d -- c -- e -- a"),
        ('\ndag {\n bb = "0,0,1,1" \n}\n', "dag", ""),
        ("dag{ U -> {a b c d} }", "dag", "U -> a; U -> b; U -> c; U -> d"),
        (" dag{ x -> { a b } }", "dag", "x -> a; x -> b"),
        (" strict Dag { x y ; z \n q }", "dag", "nodes: x, y, z, q"),
        (" STRICT dag{ x -> m -> a b }", "dag", "x -> m -> a; nodes: b"),
        (
            'graph {\na [pos="0.179,0.301"]\nb [pos="0.618,0.988"]\nc [pos="0.305,0.981"]\nx [exposure,pos="0.484,0.032"]\n'
            'y [ outcome , pos = " 0.774 , 0.285 " ]\na -- b\na -- c\na -- x\na -- y\nb -- c\nb -- x\nb -- y\nc -- x\nc -- y\nx -- y\n}',
            "graph",
            "a -- b; a -- c; a -- x; a -- y; b -- c; b -- x; b -- y; c -- x; c -- y; x -- y",
        ),
        (
            "digraph G { xi1 [latent]\nxi1 -> x1\nxi1 -> x3\nxi1 -> x4\nxi1 -> x5\nx5 -> x6\nx1 -> x6\nx6 -> x3 }\n",
            "digraph",
            "xi1 -> x1; xi1 -> x3; xi1 -> x4; xi1 -> x5; x5 -> x6; x1 -> x6; x6 -> x3",
        ),
    ],
)
def test_peer_grammar_types_and_graphs(text, header, expected):
    """parser-tests.js: the grammar's type (lower-cased, 'strict' and a name allowed) and the graph read."""
    g = parse_dagitty(text)
    assert g.meta["dagitty_type"] == header
    assert g == parse_text(expected)


def test_peer_grammar_subgraph_is_a_vertex_then_a_group():
    """parser-tests.js: dagitty's grammar reads 'subgraph cluster_0 { ... }' as the vertices 'subgraph' and 'cluster_0', then a group."""
    text = (
        '\n\tdigraph { \n\t\tsubgraph cluster_0 {\n\t\t\tgraph [label = "Subgraph A"]\n\t\t\ta -> b;\n\t\t\tb -> c;\n'
        '\t\t\tc -> d;\n\t\t}\n\t\t\n\t\tsubgraph cluster_1 {\n\t\t\tgraph [label="Subgraph B";]\n\t\t\ta -> f;\n'
        "\t\t\tf -> c;\n\t\t}\n\t}\n"
    )
    g = parse_dagitty(text)
    assert g == parse_text("a -> b -> c -> d; a -> f -> c; nodes: subgraph, cluster_0, cluster_1")
    assert read_graph(text) == parse_text("a -> b -> c -> d; a -> f -> c")  # read_graph: 'subgraph' is DOT's keyword


# --------------------------------------------------------------------------- jslib/graph/GraphParser.js


@pytest.mark.parametrize(
    ("written", "meaning"),
    [
        ("latent", "latent"), ("l", "latent"), ("unobserved", "latent"), ("u", "latent"),
        ("exposure", "exposure"), ("e", "exposure"), ("source", "exposure"),
        ("outcome", "outcome"), ("o", "outcome"), ("target", "outcome"),
        ("adjusted", "adjusted"), ("a", "adjusted"),
        ("selected", "selected"), ("s", "selected"),
    ],
)
def test_peer_graphparser_attribute_names(written, meaning):
    """GraphParser.js: each spelling of a vertex flag sets the flag causalcheck names in full; format_dagitty writes the full name."""
    g = parse_dagitty(f"dag {{ x [{written}] x -> y }}")
    assert g.attributes == {"x": {meaning: True}}
    assert f"x [{meaning}]" in format_dagitty(g)
    assert read_graph(f"digraph {{ x [{written}] x -> y }}").attributes == {"x": {meaning: True}}


def test_peer_graphparser_flag_values_do_not_unset():
    """GraphParser.js sets a flag whatever value it is given: '[latent=false]' is latent, as dagitty reads it."""
    assert parse_dagitty('dag { u [latent="false"] u -> y }').latent == ("u",)


def test_peer_graphparser_graph_and_node_are_reserved():
    """GraphParser.js refuses the variable names 'graph' and 'node'; a quoted name is a name here (what format_dagitty writes)."""
    for text, column in (("dag { node -> y }", 7), ("dag { x -> graph }", 12), ("dag { node }", 7)):
        with pytest.raises(DSLSyntaxError, match="reserved") as info:
            parse_dagitty(text)
        assert (info.value.line, info.value.column) == (1, column), text
    g = parse_text('"graph" -> "node"')
    assert parse_dagitty(write_graph(g, format="dagitty")) == g
