"""Edge geometry of the report's graph drawings: arrow tips apart, same-row edges arcing, glyphs clear."""

from __future__ import annotations

import math

from causalcheck.report.figures import DrawnEdge
from causalcheck.report.layout import (
    NODE_HEIGHT,
    edge_geometry,
    graph_panel,
    node_width,
    panel_bounds,
)


def test_edges_into_one_node_end_at_distinct_points() -> None:
    """Three edges into one node have their arrow tips at least 8 px apart on its top side."""
    panel = graph_panel("p", ["a", "b", "c", "t"], [("a", "t"), ("b", "t"), ("c", "t")],
                        [DrawnEdge(s, "t", "truth", "") for s in "abc"])
    tips = [(g.x2, g.y2) for g in edge_geometry(panel)]
    assert all(math.dist(p, q) >= 8 for i, p in enumerate(tips) for q in tips[i + 1 :]), tips


def test_an_edge_within_a_row_arcs_and_its_glyph_clears_the_boxes() -> None:
    """An extra edge between two nodes of one layer bends past the row; its glyph is on no box; bounds hold the curve."""
    panel = graph_panel("p", ["a", "b", "t"], [("a", "t"), ("b", "t")],
                        [DrawnEdge("a", "t", "truth", ""), DrawnEdge("b", "t", "truth", ""), DrawnEdge("a", "b", "extra", "")])
    geometry = edge_geometry(panel)
    extra = next(g for g in geometry if g.edge.style == "extra")
    assert extra.bent and abs(extra.middle[1] - panel.nodes[0].y) > NODE_HEIGHT / 2
    gx, gy = extra.glyph
    assert all(abs(gx - n.x) > node_width(n.label) / 2 or abs(gy - n.y) > NODE_HEIGHT / 2 for n in panel.nodes)
    left, top, right, bottom = panel_bounds(panel, geometry)
    assert all(left <= x <= right and top <= y <= bottom for x, y in (extra.at(k / 10) for k in range(11)))
