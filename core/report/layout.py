"""Graph layouts without Graphviz: layered for DAGs, Kamada–Kawai otherwise.

:func:`place` positions the nodes of a directed graph for drawing and returns a
:class:`~causalcheck.report.figures.GraphPanel`-ready placement in pixels:

* **acyclic** graphs get a *layered* (Sugiyama-style) layout: layers are networkx's
  ``topological_generations`` (every edge points down), and the nodes of each layer are
  ordered by the barycentre of their neighbours in the layer above, then below (four
  sweeps), which removes most crossings of small graphs; then each row of up to
  :data:`MAX_PERMUTED_ROW` nodes is tried in every order and the one with the fewest
  crossings and edges through boxes (:func:`tangles`, counted over the layout's edges and the
  *extra* edges drawn with them) is kept;
* graphs **with a cycle** get networkx's ``kamada_kawai_layout`` started from the circular
  layout (deterministic), scaled to the number of nodes; above :data:`MAX_SPRING` nodes
  (Kamada–Kawai is quadratic) the condensation is layered instead, a cycle's nodes sharing
  a layer;
* a layer wider than :data:`MAX_ROW` nodes wraps into several rows;
* **isolated** nodes are set apart in a final row, in their given order, so a fragmented
  explanation graph still reads top-down.

Node boxes are sized from their label drawn at :data:`NODE_FONT` px
(:func:`causalcheck.report.text.text_width`); labels longer than :data:`MAX_LABEL` characters
are shortened with "…" (the full text stays in the node's tooltip).  A layer also wraps when
its row would be wider than :data:`MAX_ROW_WIDTH`, so a drawing is never scaled down to fit
the page.  networkx is imported on first use.

:func:`edge_geometry` draws the edges the same way for both renderers: several edge ends on
one side of a box are spread along it (each arrowhead has its own point), edges between
nodes of one row arc past the row instead of joining neighbours with a stub, an edge that
would cross a box bends around it, and every glyph is placed where it overlaps no box and no
other glyph.  :func:`panel_bounds` is the region the nodes and curves cover.

>>> pos, w, h = place(["a", "b", "c"], [("a", "b"), ("b", "c")])
>>> pos["a"][1] < pos["b"][1] < pos["c"][1]
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from causalcheck.report.figures import DrawnEdge, DrawnNode, GraphPanel
from causalcheck.report.text import text_width

__all__ = ["GLYPH_SIZE", "LAYER_GAP", "MAX_LABEL", "MAX_PERMUTED_ROW", "MAX_ROW", "MAX_ROW_WIDTH", "MAX_SPRING", "NODE_FONT",
           "NODE_HEIGHT", "EdgeGeometry", "edge_geometry", "graph_panel", "label_of", "node_width", "panel_bounds", "place", "tangles"]

#: Font size of node labels (px).
NODE_FONT = 12.0
#: Font size of the glyph drawn on an edge (px).
GLYPH_SIZE = 12.0
#: Height of a node box (px).
NODE_HEIGHT = 26.0
#: Vertical distance between layers (px).
LAYER_GAP = 62.0
#: Longest label drawn in full (characters).
MAX_LABEL = 18
#: Largest graph with a cycle laid out by Kamada–Kawai (bigger ones: layered condensation).
MAX_SPRING = 60
#: Most nodes side by side in one row of a layered drawing.
MAX_ROW = 12
#: Widest row of a layered drawing (px); a wider layer wraps.
MAX_ROW_WIDTH = 900.0
_MARGIN = 16.0
_GAP = 18.0


def label_of(text: str, limit: int = MAX_LABEL) -> str:
    """*text* shortened to *limit* characters (with "…")."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def node_width(label: str) -> float:
    """Box width of a node showing *label*."""
    return max(34.0, text_width(label, NODE_FONT) + 16.0)


def _rows(layer: Sequence[str], width: Mapping[str, float]) -> list[list[str]]:
    """*layer* cut into rows of at most :data:`MAX_ROW` nodes and :data:`MAX_ROW_WIDTH` px."""
    rows: list[list[str]] = [[]]
    used = 0.0
    for n in layer:
        if rows[-1] and (len(rows[-1]) >= MAX_ROW or used + width[n] > MAX_ROW_WIDTH):
            rows.append([])
            used = 0.0
        rows[-1].append(n)
        used += width[n] + _GAP
    return rows


def _layers(nodes: Sequence[str], edges: Sequence[tuple[str, str]]) -> list[list[str]] | None:
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_edges_from(e for e in edges if e[0] != e[1])
    order = {n: i for i, n in enumerate(nodes)}
    if nx.is_directed_acyclic_graph(g):
        layers = [sorted(gen, key=order.__getitem__) for gen in nx.topological_generations(g)]
    elif len(nodes) <= MAX_SPRING:
        return None
    else:  # too big for Kamada-Kawai: layer the condensation, a cycle's nodes share a layer
        cond = nx.condensation(g)
        members = cond.graph["mapping"]
        layers = [sorted((n for n in nodes if members[n] in gen), key=order.__getitem__)
                  for gen in nx.topological_generations(cond)]
    index = {n: i for layer in layers for i, n in enumerate(layer)}
    preds = {n: list(g.predecessors(n)) for n in g}
    succs = {n: list(g.successors(n)) for n in g}
    for sweep in range(4):
        down = sweep % 2 == 0
        seq = layers[1:] if down else layers[-2::-1]
        for layer in seq:
            def bary(n: str, down: bool = down) -> float:
                nb = preds[n] if down else succs[n]
                return sum(index[m] for m in nb) / len(nb) if nb else index[n]

            layer.sort(key=lambda n: (bary(n), order[n]))
            for i, n in enumerate(layer):
                index[n] = i
    return layers


def _crosses(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float], s: tuple[float, float]) -> bool:
    """Whether the segments p–q and r–s cross at a point inside both (segments sharing an end do not)."""
    if len({p, q, r, s}) < 4:
        return False

    def turn(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2, d3, d4 = turn(r, s, p), turn(r, s, q), turn(p, q, r), turn(p, q, s)
    return d1 * d2 < 0 and d3 * d4 < 0


def _through(ax: float, ay: float, bx: float, by: float, left: float, top: float, right: float, bottom: float) -> bool:
    """Whether the segment a–b passes through the rectangle (Liang–Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - left), (dx, right - ax), (-dy, ay - top), (dy, bottom - ay)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def tangles(pos: Mapping[str, tuple[float, float]], width: Mapping[str, float], edges: Iterable[tuple[str, str]],
            stop: int | None = None) -> int:
    """How tangled a drawing is: pairs of straight edges that cross, plus edges whose straight line
    runs through a third node's box (each such edge must bend round it).  Counting ends at *stop*
    (a drawing at least that tangled is not wanted).

    >>> pos = {"a": (0.0, 0.0), "b": (100.0, 0.0), "c": (0.0, 100.0), "d": (100.0, 100.0)}
    >>> w = dict.fromkeys(pos, 40.0)
    >>> tangles(pos, w, [("a", "d"), ("b", "c")]), tangles(pos, w, [("a", "c"), ("b", "d")])
    (1, 0)
    """
    segs = sorted({(u, v) if u <= v else (v, u) for u, v in edges if u != v and u in pos and v in pos})
    count = 0
    for i, (a, b) in enumerate(segs):
        for c, d in segs[i + 1 :]:
            if _crosses(pos[a], pos[b], pos[c], pos[d]):
                count += 1
        (ax, ay), (bx, by) = pos[a], pos[b]
        for n, (nx_, ny_) in pos.items():
            if n in (a, b):
                continue
            hw, hh = width[n] / 2 + 2, NODE_HEIGHT / 2 + 2
            if _through(ax, ay, bx, by, nx_ - hw, ny_ - hh, nx_ + hw, ny_ + hh):
                count += 1
        if stop is not None and count >= stop:
            return count
    return count


#: Largest row whose orders are all tried when untangling (6! = 720 orders).
MAX_PERMUTED_ROW = 6
_UNTANGLE_BUDGET = 60_000  # edge-pair and edge-box tests per untangling (a few hundredths of a second)


def _untangle(rows: list[list[str]], width: Mapping[str, float], edges: Sequence[tuple[str, str]]) -> None:
    """Reorder the nodes within each row (every order of a row of up to :data:`MAX_PERMUTED_ROW`
    nodes, one row at a time, two passes) while that lowers :func:`tangles`; ties keep the order."""
    import itertools

    nodes = sum(len(row) for row in rows)
    tries = sum(math.factorial(len(row)) for row in rows if 1 < len(row) <= MAX_PERMUTED_ROW)
    if tries * (len(edges) ** 2 + len(edges) * nodes) > _UNTANGLE_BUDGET:
        return  # a big drawing: the barycentre order stands
    total = max(sum(width[n] for n in row) + _GAP * (len(row) - 1) for row in rows)

    def centres() -> dict[str, tuple[float, float]]:
        out: dict[str, tuple[float, float]] = {}
        for r, row in enumerate(rows):
            x = _MARGIN + (total - sum(width[n] for n in row) - _GAP * (len(row) - 1)) / 2
            for n in row:
                out[n] = (x + width[n] / 2, r * LAYER_GAP)
                x += width[n] + _GAP
        return out

    best = tangles(centres(), width, edges)
    for _ in range(2):
        for r, row in enumerate(rows):
            if best == 0 or not 1 < len(row) <= MAX_PERMUTED_ROW:
                continue
            start = list(row)
            for order in itertools.permutations(start):
                rows[r] = list(order)
                score = tangles(centres(), width, edges, stop=best)
                if score < best:
                    best, start = score, list(order)
            rows[r] = start


def place(
    nodes: Sequence[str], edges: Iterable[tuple[str, str]], labels: dict[str, str] | None = None, *, limit: int = MAX_LABEL,
    extra: Iterable[tuple[str, str]] = (),
) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Centres ``{node: (x, y)}`` in pixels and the drawing's ``(width, height)``.

    *labels* maps a node to its shown label (default: the node name), shortened to *limit* characters.
    The layers come from *edges*; the order within each row is then chosen so that *edges* and the
    *extra* edges drawn with them (e.g. a hypothesis' edges beside the truth) cross as little as
    possible (:func:`tangles`).
    """
    edge_list = [(u, v) for u, v in edges if u != v]
    extra_list = [(u, v) for u, v in extra if u != v]
    shown = {n: label_of((labels or {}).get(n, n), limit) for n in nodes}
    width = {n: node_width(shown[n]) for n in nodes}
    touched = {n for e in edge_list for n in e}
    linked = [n for n in nodes if n in touched]
    isolated = [n for n in nodes if n not in touched]
    pos: dict[str, tuple[float, float]] = {}
    total_w = 0.0
    y = _MARGIN + NODE_HEIGHT / 2
    if linked:
        layers = _layers(linked, edge_list)
        if layers is not None:
            # a wide layer wraps into rows of MAX_ROW nodes (a layer has no edges inside it)
            rows = [row for layer in layers for row in _rows(layer, width)]
            _untangle(rows, width, [*edge_list, *extra_list])
        else:
            rows = []
            _spring(linked, edge_list, width, pos)
        for r, layer in enumerate(rows):
            x = _MARGIN
            for n in layer:
                pos[n] = (x + width[n] / 2, y + r * LAYER_GAP)
                x += width[n] + _GAP
            total_w = max(total_w, x - _GAP + _MARGIN)
        if rows:
            # centre every layer on the widest one
            for layer in rows:
                span = sum(width[n] for n in layer) + _GAP * (len(layer) - 1)
                shift = (total_w - 2 * _MARGIN - span) / 2
                for n in layer:
                    pos[n] = (pos[n][0] + shift, pos[n][1])
            y += len(rows) * LAYER_GAP
        else:
            total_w = max(p[0] + width[n] / 2 for n, p in pos.items()) + _MARGIN
            y = max(p[1] for p in pos.values()) + LAYER_GAP
    if isolated:
        per_row = max(1, int(max(min(total_w, MAX_ROW_WIDTH), 480.0) // (max(width[n] for n in isolated) + _GAP)))
        for i, n in enumerate(isolated):
            r, c = divmod(i, per_row)
            x = _MARGIN + c * (max(width[m] for m in isolated) + _GAP) + width[n] / 2
            pos[n] = (x, y + r * (NODE_HEIGHT + 14))
            total_w = max(total_w, x + width[n] / 2 + _MARGIN)
        y += ((len(isolated) - 1) // per_row + 1) * (NODE_HEIGHT + 14)
        y -= 14
    else:
        y -= LAYER_GAP
    height = y + NODE_HEIGHT / 2 + _MARGIN if pos else 2 * _MARGIN
    return pos, max(total_w, 2 * _MARGIN), height


def _spring(
    nodes: Sequence[str], edges: Sequence[tuple[str, str]], width: dict[str, float], pos: dict[str, tuple[float, float]]
) -> None:
    """Kamada–Kawai positions (pixels) for a graph with a cycle."""
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    start = nx.circular_layout(nodes)
    raw = nx.kamada_kawai_layout(g, pos=start)
    widest = max(width.values())
    scale = max(70.0, (widest + _GAP) * 0.9) * max(1.0, len(nodes) ** 0.5)
    xs = [float(raw[n][0]) for n in nodes]
    ys = [float(raw[n][1]) for n in nodes]
    minx, miny = min(xs), min(ys)
    spanx = max(max(xs) - minx, 1e-9)
    spany = max(max(ys) - miny, 1e-9)
    for n, x, y in zip(nodes, xs, ys, strict=True):
        pos[n] = (
            _MARGIN + widest / 2 + (x - minx) / spanx * scale,
            _MARGIN + NODE_HEIGHT / 2 + (y - miny) / spany * scale * 0.7,
        )
    _separate(nodes, width, pos)


def _separate(nodes: Sequence[str], width: Mapping[str, float], pos: dict[str, tuple[float, float]]) -> None:
    """Push apart (to the right) boxes that overlap, so no two node labels cover each other."""
    for _ in range(60):
        moved = False
        ordered = sorted(nodes, key=lambda n: pos[n])
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                (ax, ay), (bx, by) = pos[a], pos[b]
                need = (width[a] + width[b]) / 2 + 8 - (bx - ax)
                if abs(ay - by) < NODE_HEIGHT + 8 and need > 0:
                    pos[b] = (bx + need, by)
                    moved = True
        if not moved:
            return


def graph_panel(
    caption: str,
    nodes: Sequence[str],
    layout_edges: Sequence[tuple[str, str]],
    edges: Sequence[DrawnEdge],
    *,
    styles: Mapping[str, str] | None = None,
    labels: Mapping[str, str] | None = None,
    tooltips: Mapping[str, str] | None = None,
    positions: tuple[dict[str, tuple[float, float]], float, float] | None = None,
    limit: int = MAX_LABEL,
    extra_edges: Sequence[tuple[str, str]] = (),
) -> GraphPanel:
    """A panel placed with :func:`causalcheck.report.layout.place` on *layout_edges*, untangled for
    *extra_edges* too (or given *positions*); labels are shortened to *limit* characters."""
    shown = {n: label_of((labels or {}).get(n, n), limit) for n in nodes}
    pos, w, h = positions if positions is not None else place(nodes, layout_edges, dict(shown), limit=limit, extra=extra_edges)
    drawn = tuple(
        DrawnNode(n, shown[n], (tooltips or {}).get(n, n), pos[n][0], pos[n][1], (styles or {}).get(n, "plain"))
        for n in nodes
        if n in pos
    )
    return GraphPanel(caption, drawn, tuple(edges), w, h)




_Box = tuple[float, float, float, float]  # centre x, centre y, half-width, half-height


def _clip(cx: float, cy: float, tx: float, ty: float, hw: float, hh: float) -> tuple[float, float]:
    """The point where the ray from the box centre (cx, cy) towards (tx, ty) leaves the box."""
    dx, dy = tx - cx, ty - cy
    if dx == 0 and dy == 0:
        return cx, cy
    t = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    return cx + dx * t, cy + dy * t


def _bezier(a: tuple[float, float], c: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    u = 1 - t
    return u * u * a[0] + 2 * u * t * c[0] + t * t * b[0], u * u * a[1] + 2 * u * t * c[1] + t * t * b[1]


def _hits(a: tuple[float, float], c: tuple[float, float], b: tuple[float, float], boxes: Sequence[_Box], pad: float = 3.0) -> bool:
    """Whether the quadratic curve a–c–b (a straight line when c is its middle) passes through a box."""
    for k in range(1, 32):
        x, y = _bezier(a, c, b, k / 32)
        if any(abs(x - bx) < hw + pad and abs(y - by) < hh + pad for bx, by, hw, hh in boxes):
            return True
    return False


@dataclass(frozen=True)
class EdgeGeometry:
    """Where an edge is drawn: from (x1, y1) on the source box to (x2, y2) on the target box,
    through the quadratic-Bézier control point (cx, cy) when ``bent``; its glyph goes at ``glyph``."""

    edge: DrawnEdge
    x1: float
    y1: float
    cx: float
    cy: float
    x2: float
    y2: float
    bent: bool
    glyph: tuple[float, float] = (0.0, 0.0)

    def at(self, t: float) -> tuple[float, float]:
        """The point of the drawn line at parameter *t* (0 = source end, 1 = target end)."""
        if not self.bent:
            return self.x1 + (self.x2 - self.x1) * t, self.y1 + (self.y2 - self.y1) * t
        return _bezier((self.x1, self.y1), (self.cx, self.cy), (self.x2, self.y2), t)

    @property
    def middle(self) -> tuple[float, float]:
        """The point of the drawn line halfway along it."""
        return self.at(0.5)


def _bow(s: tuple[float, float], t: tuple[float, float], others: Sequence[_Box], rows: Sequence[float],
         opposite: bool, size: tuple[float, float]) -> tuple[float, float]:
    """The control point of the edge s → t: the middle for a straight line, else bent clear of the *others*.

    Opposite edges of one pair bend apart; an edge within one row arcs away from the edges between
    rows: above the first row, below any other (two opposite ones: one each side); any other edge that would cross a box bends around it,
    to the right first, by as little as clears every box.
    """
    (sx, sy), (tx, ty) = s, t
    dx, dy = tx - sx, ty - sy
    length = math.hypot(dx, dy) or 1.0
    nx_, ny_ = -dy / length, dx / length
    mid = ((sx + tx) / 2, (sy + ty) / 2)
    same_row = abs(dy) < 1.0
    if same_row:  # the first row arcs above itself, any other below: away from the edges between rows
        below = sy > min(rows) + 1.0 or len(rows) == 1
        if opposite and sx > tx:  # the other one of two opposite edges takes the other side
            below = not below
        ny_ = 1.0 if below else -1.0
        nx_ = 0.0
        start = 2 * (size[1] + 12.0)
    elif opposite:
        start = 32.0
    else:
        if not _hits(s, mid, t, others):
            return mid
        if nx_ < 0 or (nx_ == 0 and ny_ < 0):
            nx_, ny_ = -nx_, -ny_
        start = 24.0
    sides = (1.0,) if same_row or opposite else (1.0, -1.0)
    for bow in (start + 12.0 * k for k in range(24)):
        for side in sides:
            c = (mid[0] + side * nx_ * bow, mid[1] + side * ny_ * bow)
            if not _hits(s, c, t, others):
                return c
    return (mid[0] + nx_ * start, mid[1] + ny_ * start)


def _side(x: float, y: float, box: _Box) -> str:
    bx, by, _, hh = box
    if abs(y - (by - hh)) < 0.5:
        return "top"
    if abs(y - (by + hh)) < 0.5:
        return "bottom"
    return "left" if x < bx else "right"


def _spread(ends: list[tuple[int, str, float]], box: _Box, side: str) -> dict[tuple[int, str], tuple[float, float]]:
    """Points along one *side* of *box* for several edge ends, in the order of where each edge comes from."""
    bx, by, hw, hh = box
    ends.sort(key=lambda e: e[2])
    k = len(ends)
    horizontal = side in ("top", "bottom")
    room = 2 * hw - 14 if horizontal else 2 * hh - 8
    step = min(16.0, room / (k - 1)) if k > 1 else 0.0
    out = {}
    for i, (idx, end, _) in enumerate(ends):
        offset = (i - (k - 1) / 2) * step
        if horizontal:
            out[(idx, end)] = (bx + offset, by - hh if side == "top" else by + hh)
        else:
            out[(idx, end)] = (bx - hw if side == "left" else bx + hw, by + offset)
    return out


def _glyph_spot(g: EdgeGeometry, boxes: Sequence[_Box], taken: list[tuple[float, float]]) -> tuple[float, float]:
    """A point on the edge for its glyph, clear of every box and of the glyphs already placed."""
    half = GLYPH_SIZE * 0.6
    for t in (0.5, 0.4, 0.6, 0.32, 0.68, 0.25, 0.75, 0.2, 0.8, 0.15, 0.85):
        x, y = g.at(t)
        clear_boxes = all(abs(x - bx) > hw + half or abs(y - by) > hh + half for bx, by, hw, hh in boxes)
        clear_glyphs = all(abs(x - gx) > 2 * half + 1 or abs(y - gy) > 2 * half + 1 for gx, gy in taken)
        if clear_boxes and clear_glyphs:
            return x, y
    # nowhere clear of everything: the spot on the edge farthest from the other glyphs
    return max((g.at(k / 20) for k in range(3, 18)),
               key=lambda q: min([max(abs(q[0] - gx), abs(q[1] - gy)) for gx, gy in taken] or [0.0]))


def edge_geometry(panel: GraphPanel) -> list[EdgeGeometry]:
    """The drawn geometry of every edge of *panel* (both renderers use it).

    Two opposite edges between one pair bend apart; an edge between two nodes of one row
    arcs past the row; an edge whose straight line would cross another node's box bends
    around it.  Edge ends that meet one side of a box are spread along that side, in the
    order of where their edges come from, so no two arrowheads share a point; each glyph sits
    where it covers no box and no other glyph.  Self-loops and edges to unknown nodes are left out.
    """
    box = {n.id: (n.x, n.y, node_width(n.label) / 2, NODE_HEIGHT / 2) for n in panel.nodes}
    rows = sorted({n.y for n in panel.nodes})
    pairs = {(e.source, e.target) for e in panel.edges}
    drawn = [e for e in panel.edges if e.source in box and e.target in box and e.source != e.target]
    controls: list[tuple[float, float]] = []
    bent: list[bool] = []
    ends: dict[tuple[str, str], list[tuple[int, str, float]]] = {}
    for i, e in enumerate(drawn):
        s, t = box[e.source], box[e.target]
        others = [b for n, b in box.items() if n not in (e.source, e.target)]
        c = _bow(s[:2], t[:2], others, rows, (e.target, e.source) in pairs, (s[2], s[3]))
        straight = c == ((s[0] + t[0]) / 2, (s[1] + t[1]) / 2)
        controls.append(c)
        bent.append(not straight)
        for end, me, other in (("source", s, t), ("target", t, s)):
            toward = other[:2] if straight else c
            x, y = _clip(me[0], me[1], toward[0], toward[1], me[2], me[3])
            side = _side(x, y, me)
            key = toward[0] if side in ("top", "bottom") else toward[1]
            ends.setdefault((e.source if end == "source" else e.target, side), []).append((i, end, key))
    spots: dict[tuple[int, str], tuple[float, float]] = {}
    for (node, side), group in ends.items():
        spots.update(_spread(group, box[node], side))
    out: list[EdgeGeometry] = []
    taken: list[tuple[float, float]] = []
    boxes = list(box.values())
    for i, e in enumerate(drawn):
        (x1, y1), (x2, y2) = spots[(i, "source")], spots[(i, "target")]
        cx, cy = controls[i] if bent[i] else ((x1 + x2) / 2, (y1 + y2) / 2)
        g = EdgeGeometry(e, x1, y1, cx, cy, x2, y2, bent[i])
        spot = _glyph_spot(g, boxes, taken)
        taken.append(spot)
        out.append(EdgeGeometry(e, x1, y1, cx, cy, x2, y2, bent[i], spot))
    return out


def panel_bounds(panel: GraphPanel, geometry: Sequence[EdgeGeometry]) -> tuple[float, float, float, float]:
    """``(left, top, right, bottom)`` of what *panel* draws: its own area, every box and every curve (with a margin)."""
    left, top, right, bottom = 0.0, 0.0, panel.width, panel.height
    for n in panel.nodes:
        hw = node_width(n.label) / 2
        left, right = min(left, n.x - hw - 8), max(right, n.x + hw + 8)
        top, bottom = min(top, n.y - NODE_HEIGHT / 2 - 8), max(bottom, n.y + NODE_HEIGHT / 2 + 8)
    for g in geometry:
        for k in range(17):
            x, y = g.at(k / 16)
            left, right = min(left, x - 8), max(right, x + 8)
            top, bottom = min(top, y - 8), max(bottom, y + 8)
        gx, gy = g.glyph
        left, right = min(left, gx - GLYPH_SIZE), max(right, gx + GLYPH_SIZE)
        top, bottom = min(top, gy - GLYPH_SIZE), max(bottom, gy + GLYPH_SIZE)
    return left, top, right, bottom
