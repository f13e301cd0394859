"""read_graph on damaged files of every format: each one is read exactly as written or refused with a named error, never changed silently."""

from __future__ import annotations

import pytest
from causalcheck.base.errors import CausalCheckError
from causalcheck.graphs import Graph, read_graph, write_graph
from causalcheck.graphs.formats import FORMATS, parse_text
from causalcheck.graphs.io import sniff_graph_format

#: Every mark, an isolated node and a quoted name (the adjacency format holds only -> and --).
ALL_MARKS = parse_text('a -> b; b -- c; c <-> d; d o-> e; e o-o f; f o-- g; nodes: h, "two words"')
DIRECTED = parse_text("a -> b -> c; a -> c; b -- d; nodes: e")

#: Format -> a file holding uno -> dos and dos -> uno (a 2-cycle; names no message holds by chance).  The adjacency
#: format is the one whose documented encoding of an undirected edge is the pair stored both ways: it reads uno -- dos.
TWO_CYCLES = {
    "text": "uno -> dos\ndos -> uno\n",
    "dagitty": "dag { uno -> dos dos -> uno }",
    "dot": "digraph { uno -> dos; dos -> uno }",
    "gml": 'graph [\n directed 1\n node [ id 0 label "uno" ]\n node [ id 1 label "dos" ]\n'
    " edge [ source 0 target 1 ]\n edge [ source 1 target 0 ]\n]\n",
    "causallearn": "Graph Nodes:\nuno;dos\n\nGraph Edges:\n1. uno --> dos\n2. dos --> uno\n",
    "edgelist": "source,target\nuno,dos\ndos,uno\n",
    "adjacency": ",uno,dos\nuno,0,1\ndos,1,0\n",
    "json": '{"nodes": ["uno", "dos"], "edges": [["uno", "->", "dos"], ["dos", "->", "uno"]]}',
}

#: Format -> a file with the self-loop uno -> uno.
SELF_LOOPS = {
    "text": "uno -> uno\n",
    "dagitty": "dag { uno -> uno }",
    "dot": "digraph { uno -> uno }",
    "gml": 'graph [\n directed 1\n node [ id 0 label "uno" ]\n edge [ source 0 target 0 ]\n]\n',
    "causallearn": "Graph Nodes:\nuno\n\nGraph Edges:\n1. uno --> uno\n",
    "edgelist": "source,target\nuno,uno\n",
    "adjacency": ",uno\nuno,1\n",
    "json": '{"nodes": ["uno"], "edges": [["uno", "->", "uno"]]}',
}

#: Format -> a file whose edge names 'zz', a node its node list does not declare (formats with a node list).
UNDECLARED = {
    "gml": 'graph [\n directed 1\n node [ id 0 label "uno" ]\n edge [ source 0 target 7 ]\n]\n',
    "causallearn": "Graph Nodes:\nuno\n\nGraph Edges:\n1. uno --> zz\n",
    "json": '{"nodes": ["uno"], "edges": [["uno", "->", "zz"]]}',
}

#: Formats a cut file can never be a whole file of: a cut before the end leaves a bracket open.
CLOSED_FORMATS = ("dagitty", "dot", "gml", "json")


def _held(fmt: str) -> Graph:
    """The graph *fmt* can hold: every mark (no spaces in names for causal-learn's text), or -> and -- for a matrix."""
    if fmt == "adjacency":
        return DIRECTED
    if fmt == "causallearn":
        return Graph(tuple(n for n in ALL_MARKS.nodes if " " not in n), ALL_MARKS.edges)
    return ALL_MARKS


def _refused(text: str, fmt: str, *names: str) -> CausalCheckError:
    with pytest.raises(CausalCheckError) as info:
        read_graph(text, format=fmt)
    for name in names:
        assert repr(name) in str(info.value) or name in str(info.value), (fmt, name, str(info.value))
    return info.value


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_round_trips_the_graphs_it_holds(fmt):
    """write_graph then read_graph gives the same graph, node for node and mark for mark."""
    g = _held(fmt)
    assert read_graph(write_graph(g, format=fmt), format=fmt) == g


@pytest.mark.parametrize("fmt", sorted(TWO_CYCLES))
def test_a_two_cycle_is_refused_naming_both_edges_or_read_by_the_format_s_documented_rule(fmt):
    """uno -> dos with dos -> uno never becomes uno -- dos silently: refused naming both (the adjacency matrix documents both entries as --)."""
    if fmt == "adjacency":
        assert read_graph(TWO_CYCLES[fmt], format=fmt) == parse_text("uno -- dos")
        return
    message = str(_refused(TWO_CYCLES[fmt], fmt, "uno", "dos"))
    assert "dos -> uno" in message or "'dos' and 'uno'" in message or "'uno' and 'dos'" in message


@pytest.mark.parametrize("fmt", sorted(SELF_LOOPS))
def test_a_self_loop_is_refused_in_every_format(fmt):
    """uno -> uno is refused naming uno, in every format."""
    assert "self-loop" in str(_refused(SELF_LOOPS[fmt], fmt, "uno"))


@pytest.mark.parametrize("fmt", sorted(UNDECLARED))
def test_an_edge_to_an_undeclared_node_is_refused(fmt):
    """A format with a node list refuses an edge naming a node outside it (never adds the node)."""
    assert ("undefined target 7" if fmt == "gml" else "'zz'") in str(_refused(UNDECLARED[fmt], fmt))


@pytest.mark.parametrize("value", ["2", "-1", "3", "0.5e400", "inf", "-inf", "nan"])
def test_an_adjacency_value_outside_the_convention_is_refused_naming_row_column_and_value(value):
    """A 0/1 adjacency CSV refuses a 2, a -1, an infinity or a NaN, naming the row and the column."""
    error = str(_refused(f",uno,dos\nuno,0,{value}\ndos,0,0\n", "adjacency", "uno", "dos"))
    assert "NaN" in error or "inf" in error or f"{float(value)!r}" in error


def test_weights_are_read_when_the_matrix_is_weighted_or_a_threshold_is_given():
    """A fractional entry makes the matrix weighted; threshold= reads whole numbers as weights."""
    assert read_graph(",a,b\na,0,2.5\nb,0,0\n", format="adjacency") == parse_text("a -> b")
    assert read_graph(",a,b\na,0,2\nb,0,0\n", format="adjacency", threshold=0) == parse_text("a -> b")
    assert read_graph(",a,b\na,0,2\nb,0,0\n", format="adjacency", threshold=2) == parse_text("nodes: a, b")


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_file_cut_anywhere_is_refused_or_read_as_a_part_of_the_whole(fmt):
    """Every prefix of a written file is an error of ours or (line formats) a graph; cut at a line end, only edges of the whole with their marks.

    A cut inside the last line of a line format can leave a valid shorter token (``<->`` cut to
    ``<-``): no reader can tell that from a file written so, which is why only cuts at line ends
    are compared edge for edge.
    """
    g = _held(fmt)
    text = write_graph(g, format=fmt).rstrip("\n")
    whole = {frozenset((e.u, e.v)): e for e in g.edges}
    cuts = range(1, len(text))
    for cut in cuts:
        try:
            part = read_graph(text[:cut], format=fmt)
        except CausalCheckError:
            continue
        assert fmt not in CLOSED_FORMATS, (fmt, cut, text[:cut])
        if text[cut] != "\n":
            continue
        for e in part.edges:
            assert e == whole.get(frozenset((e.u, e.v))), (fmt, cut, str(e))


@pytest.mark.parametrize("fmt", ["edgelist", "adjacency"])
def test_a_csv_cut_inside_a_quoted_field_is_refused_naming_the_line(fmt):
    """A CSV whose last quoted field never closes (a truncated file) is refused with its line, not read as a long name."""
    text = 'source,target\na,b\n"c,d\n' if fmt == "edgelist" else ',"a",b\n"a,0,1\nb,0,0\n'
    assert ":2:" in str(_refused(text, fmt)) or ":3:" in str(_refused(text, fmt))
    assert "never closed" in str(_refused(text, fmt))


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_sniff_graph_format_names_every_written_format_from_the_content_alone(fmt):
    """sniff_graph_format tells each format by its content (plain text only by a .graph name: a hypothesis shares its syntax)."""
    text = write_graph(_held(fmt), format=fmt)
    assert sniff_graph_format(text) == (None if fmt == "text" else fmt)
    assert sniff_graph_format(text, "g.graph" if fmt == "text" else "g.txt") == fmt
    assert sniff_graph_format("A -> B; C -> B", "h.txt") is None
    assert sniff_graph_format('{"edges": [{"from": "A", "to": "B"}]}', "h.json") is None
