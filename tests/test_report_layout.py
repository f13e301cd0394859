"""Edge geometry of the report's graph drawings: arrow tips apart, same-row edges arcing, glyphs clear."""

from __future__ import annotations

import itertools
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


def test_rows_are_reordered_so_extra_edges_pass_no_box() -> None:
    """A hypothesis edge a -> c beside the truth r -> a, b, c: a and c end up side by side, not with b between them."""
    from causalcheck.report.layout import place, tangles

    truth = [("r", "a"), ("r", "b"), ("r", "c")]
    plain, _, _ = place(["r", "a", "b", "c"], truth)
    assert sorted("abc", key=lambda n: plain[n][0]) == ["a", "b", "c"]  # ties keep the given order
    pos, _, _ = place(["r", "a", "b", "c"], truth, extra=[("a", "c")])
    order = sorted("abc", key=lambda n: pos[n][0])
    assert abs(order.index("a") - order.index("c")) == 1, order
    width = {n: node_width(n) for n in pos}
    assert tangles(pos, width, [*truth, ("a", "c")]) == 0 < tangles(plain, width, [*truth, ("a", "c")])


def _crossings(curves: list[list[tuple[float, float]]]) -> int:
    """Pairs of drawn curves (as polylines) that cross away from their ends."""
    def turn(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    def _crosses(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
        return turn(r, s, p) * turn(r, s, q) < 0 and turn(p, q, r) * turn(p, q, s) < 0

    count = 0
    for i, a in enumerate(curves):
        for b in curves[i + 1 :]:
            if any(_crosses(p, q, r, s) for p, q in itertools.pairwise(a[2:-2]) for r, s in itertools.pairwise(b[2:-2])):
                count += 1
    return count


def test_the_four_node_episode_of_the_issue_draws_cleanly() -> None:
    """Issue 44's 4-node drawing (truth q -> ph, q -> rF, p -> ph; hypothesis ph -> rF, p -> q, p -> rF): the two
    same-row arcs leave their rows outward, only the unavoidable K2,2 crossing is left, and no two glyphs overlap."""
    from causalcheck.report.layout import GLYPH_SIZE, place

    nodes = ["quantumSize", "pressure", "ph", "resonanceFreq"]
    truth = [("quantumSize", "ph"), ("quantumSize", "resonanceFreq"), ("pressure", "ph")]
    hyp = [("ph", "resonanceFreq"), ("pressure", "quantumSize"), ("pressure", "resonanceFreq")]
    positions = place(nodes, truth, extra=hyp)
    status = {("quantumSize", "ph"): "missing", ("quantumSize", "resonanceFreq"): "missing", ("pressure", "ph"): "missing",
              **dict.fromkeys(hyp, "extra")}
    panel = graph_panel("step 5", nodes, truth, [DrawnEdge(a, b, s, "") for (a, b), s in status.items()], positions=positions)
    geometry = edge_geometry(panel)
    rows = sorted({n.y for n in panel.nodes})
    for g in geometry:
        if g.bent and abs(g.y1 - g.y2) < 1:  # a same-row arc: above the first row, below the last
            row = g.y1 if abs(g.y1 - rows[0]) < NODE_HEIGHT else g.y2
            assert (g.middle[1] < rows[0]) if abs(row - rows[0]) < NODE_HEIGHT else (g.middle[1] > rows[-1]), g
    curves = [[g.at(k / 40) for k in range(41)] for g in geometry]
    assert _crossings(curves) <= 1
    glyphs = [g.glyph for g in geometry]
    assert all(max(abs(p[0] - q[0]), abs(p[1] - q[1])) >= GLYPH_SIZE for i, p in enumerate(glyphs) for q in glyphs[i + 1 :])
