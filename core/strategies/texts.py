"""Graph texts in every format :func:`causalcheck.graphs.read_graph` reads.

:func:`graph_texts` draws a graph the format can express (marks and names it can write) and
returns it with its text from :func:`causalcheck.graphs.write_graph`; reading the text back
gives the same graph.  What each format can hold (:data:`FORMAT_LIMITS`):

=============  ===========================  ================================
format         names                        marks
=============  ===========================  ================================
``text``       any                          all
``json``       any                          all
``dagitty``    any                          all
``edgelist``   any                          all
``dot``        any                          all
``gml``        any                          all
``causallearn`` no blanks (identifiers)     all
``adjacency``  identifiers                  ``->`` and ``--``
=============  ===========================  ================================

>>> from hypothesis import find
>>> from causalcheck.graphs import read_graph
>>> t = find(graph_texts("dagitty"), lambda t: len(t.graph.edges) == 1)
>>> read_graph(t.text, format="dagitty") == t.graph
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from causalcheck.base.errors import InputFormatError
from causalcheck.graphs.io import write_graph
from causalcheck.graphs.model import Graph, GraphEdge, Mark
from causalcheck.strategies.names import identifiers, node_names
from hypothesis import strategies as st

__all__ = ["FORMAT_LIMITS", "GraphText", "any_graphs", "graph_texts"]

#: format -> (names: "any" | "identifiers", marks: "all" | "pdag").
FORMAT_LIMITS: dict[str, tuple[str, str]] = {
    "text": ("any", "all"),
    "json": ("any", "all"),
    "dagitty": ("any", "all"),
    "edgelist": ("any", "all"),
    "dot": ("any", "all"),
    "gml": ("any", "all"),
    "causallearn": ("identifiers", "all"),
    "adjacency": ("identifiers", "pdag"),
}

_MARKS = (Mark.TAIL, Mark.ARROW, Mark.CIRCLE)


@dataclass(frozen=True)
class GraphText:
    """A graph, the name of a format, and the graph written in it."""

    format: str
    text: str
    graph: Graph


@st.composite
def any_graphs(
    draw: st.DrawFn, *, names: st.SearchStrategy[str] | None = None, marks: str = "all", max_nodes: int = 6, max_edges: int = 10
) -> Graph:
    """A graph with any marks (``marks="pdag"``: only ``->`` and ``--``), cycles allowed, distinct names."""
    nodes = draw(st.lists(names if names is not None else node_names("exact"), min_size=1, max_size=max_nodes, unique=True))
    pairs = list(itertools.combinations(nodes, 2))
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=max_edges)) if pairs else []
    options = _MARKS if marks == "all" else (Mark.TAIL, Mark.ARROW)
    edges = []
    for a, b in chosen:
        mu, mv = draw(st.sampled_from(options)), draw(st.sampled_from(options))
        if marks != "all" and (mu, mv) == (Mark.ARROW, Mark.ARROW):
            mv = Mark.TAIL
        edges.append(GraphEdge(a, b, mu, mv))
    return Graph(tuple(nodes), tuple(edges))


def _format_names(fmt: str) -> st.SearchStrategy[str]:
    kind = FORMAT_LIMITS[fmt][0]
    if kind == "identifiers":
        return identifiers()
    # NUL cannot be written by any text format; leading/trailing blanks survive quoting
    return node_names("exact").filter(lambda n: "\x00" not in n)


def graph_texts(format: str | None = None, *, max_nodes: int = 6) -> st.SearchStrategy[GraphText]:
    """A graph the format can hold, written in *format* (None: any of :data:`FORMAT_LIMITS`)."""
    if format is None:
        return st.sampled_from(sorted(FORMAT_LIMITS)).flatmap(lambda f: graph_texts(f, max_nodes=max_nodes))
    if format not in FORMAT_LIMITS:
        raise InputFormatError(f"format={format!r} must be one of {sorted(FORMAT_LIMITS)!r}")

    marks = FORMAT_LIMITS[format][1]
    return any_graphs(names=_format_names(format), marks=marks, max_nodes=max_nodes).map(
        lambda g: GraphText(format, write_graph(g, format=format), g)
    )
