"""Check views: a graph that ``check`` validated is drawn, with its edge marks and its cycle."""

from __future__ import annotations

import json
from pathlib import Path

from causalcheck.report.build import ReportOptions, build_document
from causalcheck.report.check_views import graph_drawing
from causalcheck.report.document import FigureBlock, Section, render_html
from causalcheck.report.figures import GraphFigure
from causalcheck.report.inputs import check_payload_of


def _graphs(sec: Section) -> list[GraphFigure]:
    out = [b.figure for b in sec.blocks if isinstance(b, FigureBlock) and isinstance(b.figure, GraphFigure)]
    for c in sec.children:
        out += _graphs(c)
    return out


def test_a_valid_graph_given_to_check_is_drawn(tmp_path: Path) -> None:
    """``report --check graph.dot`` of a DAG without findings draws it: every node and edge, arrows down."""
    dot = tmp_path / "g.dot"
    dot.write_text("digraph { a -> b; b -> c; a -> c; c -> d; }\n", encoding="utf-8")
    doc, _ = build_document([], ReportOptions(checks=[str(dot)]))
    (fig,) = _graphs(doc.sections[0])
    assert fig.title == f"Checked graph: {dot}"
    (panel,) = fig.panels
    assert sorted((e.source, e.target, e.style) for e in panel.edges) == [
        ("a", "b", "plain"), ("a", "c", "plain"), ("b", "c", "plain"), ("c", "d", "plain")]
    y = {n.id: n.y for n in panel.nodes}
    assert y["a"] < y["b"] < y["c"] < y["d"]


def test_a_cyclic_graph_is_drawn_with_its_cycle_marked(tmp_path: Path) -> None:
    """The cycle's edges get the cycle style; the edge off the cycle stays plain."""
    dot = tmp_path / "cyc.dot"
    dot.write_text("digraph { a -> b; b -> c; c -> a; c -> d; }\n", encoding="utf-8")
    doc, _ = build_document([], ReportOptions(checks=[str(dot)]))
    (fig,) = _graphs(doc.sections[0])
    styles = {(e.source, e.target): e.style for e in fig.panels[0].edges}
    assert styles == {("a", "b"): "cycle", ("b", "c"): "cycle", ("c", "a"): "cycle", ("c", "d"): "plain"}
    assert 'marker-end="url(#f1-a-cycle)"' in render_html(doc)


def test_edge_marks_are_drawn_with_their_own_lines_and_heads() -> None:
    """``--`` has no arrowhead, ``<->`` two, ``o->`` one and a circle glyph; ``<-`` is turned round."""
    graph = {"kind": "PAG", "nodes": ["a", "b", "c", "d", "e"],
             "edges": [["a", "--", "b"], ["c", "<-", "b"], ["c", "<->", "d"], ["d", "o->", "e"], ["a", "o-o", "e"]]}
    block = graph_drawing("g.json", graph, [])
    assert block is not None and isinstance(block.figure, GraphFigure)
    edges = {(e.source, e.target): e.style for e in block.figure.panels[0].edges}
    assert edges == {("a", "b"): "undirected", ("b", "c"): "plain", ("c", "d"): "bidirected", ("d", "e"): "partial",
                     ("a", "e"): "circle"}
    from causalcheck.report.svg import render

    svg = render(block.figure, "f9")
    assert svg.count('marker-start="url(#f9-a-bidirected)"') == 2  # the edge and its legend sample
    undirected = svg[svg.index("<title>a -- b</title>"):]
    undirected = undirected[: undirected.index("</g>")]
    assert "marker" not in undirected
    assert graph_drawing("empty", {"nodes": [], "edges": []}, []) is None


def test_the_json_of_check_on_a_graph_carries_the_graph_to_draw(tmp_path: Path) -> None:
    """A saved ``check GRAPH --json`` keeps its graph in the report's payload, so the report draws it too."""
    obj = {"ok": True, "graph": {"kind": "DAG", "nodes": ["x", "y"], "edges": [["x", "->", "y"]]},
           "kind": {"claim": "DAG"}, "findings": []}
    (payload,) = check_payload_of("g.json", obj)
    assert payload["graph"] == obj["graph"]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    doc, _ = build_document([path])
    (fig,) = _graphs(doc.sections[0])
    assert [(e.source, e.target) for e in fig.panels[0].edges] == [("x", "y")]
