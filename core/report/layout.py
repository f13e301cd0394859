"""Graph layouts without Graphviz: layered for DAGs, Kamada–Kawai otherwise.

:func:`place` positions the nodes of a directed graph for drawing and returns a
:class:`~causalcheck.report.figures.GraphPanel`-ready placement in pixels:

* **acyclic** graphs get a *layered* (Sugiyama-style) layout: layers are networkx's
  ``topological_generations`` (every edge points down), and the nodes of each layer are
  ordered by the barycentre of their neighbours in the layer above, then below (four
  sweeps), which removes most crossings of small graphs;
* graphs **with a cycle** get networkx's ``kamada_kawai_layout`` started from the circular
  layout (deterministic), scaled to the number of nodes; above :data:`MAX_SPRING` nodes
  (Kamada–Kawai is quadratic) the condensation is layered instead, a cycle's nodes sharing
  a layer;
* a layer wider than :data:`MAX_ROW` nodes wraps into several rows;
* **isolated** nodes are set apart in a final row, in their given order, so a fragmented
  explanation graph still reads top-down.

Node boxes are sized from their label (about 6.6 px per character at the 11 px font the
SVG writer uses); labels longer than :data:`MAX_LABEL` characters are shortened with "…"
(the full text stays in the node's tooltip).  networkx is imported on first use.

>>> pos, w, h = place(["a", "b", "c"], [("a", "b"), ("b", "c")])
>>> pos["a"][1] < pos["b"][1] < pos["c"][1]
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from causalcheck.report.figures import DrawnEdge, DrawnNode, GraphPanel

__all__ = ["CHAR_WIDTH", "LAYER_GAP", "MAX_LABEL", "MAX_ROW", "MAX_SPRING", "NODE_HEIGHT", "EdgeGeometry", "edge_geometry", "graph_panel", "label_of", "node_width", "place"]

#: Approximate width of one character of the drawing font (px).
CHAR_WIDTH = 6.6
#: Height of a node box (px).
NODE_HEIGHT = 24.0
#: Vertical distance between layers (px).
LAYER_GAP = 62.0
#: Longest label drawn in full (characters).
MAX_LABEL = 18
#: Largest graph with a cycle laid out by Kamada–Kawai (bigger ones: layered condensation).
MAX_SPRING = 60
#: Most nodes side by side in one row of a layered drawing.
MAX_ROW = 12
_MARGIN = 16.0
_GAP = 18.0


def label_of(text: str) -> str:
    """*text* shortened to :data:`MAX_LABEL` characters (with "…")."""
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 1] + "…"


def node_width(label: str) -> float:
    """Box width of a node showing *label*."""
    return max(34.0, CHAR_WIDTH * len(label) + 16.0)


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


def place(
    nodes: Sequence[str], edges: Iterable[tuple[str, str]], labels: dict[str, str] | None = None
) -> tuple[dict[str, tuple[float, float]], float, float]:
    """Centres ``{node: (x, y)}`` in pixels and the drawing's ``(width, height)``.

    *labels* maps a node to its shown label (default: the node name, shortened).
    """
    edge_list = [(u, v) for u, v in edges if u != v]
    shown = {n: label_of((labels or {}).get(n, n)) for n in nodes}
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
            rows = [layer[i : i + MAX_ROW] for layer in layers for i in range(0, len(layer), MAX_ROW)]
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
    if linked and any(abs(pos[u][1] - pos[v][1]) > 1.5 * LAYER_GAP for u, v in edge_list if u in pos and v in pos):
        total_w += max(width[n] for n in linked) / 2 + 30  # room on the right for edges bent around a layer
    if isolated:
        per_row = max(1, int(max(total_w, 480.0) // (max(width[n] for n in isolated) + _GAP)))
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
) -> GraphPanel:
    """A panel placed with :func:`causalcheck.report.layout.place` on *layout_edges* (or given *positions*)."""
    shown = {n: label_of((labels or {}).get(n, n)) for n in nodes}
    pos, w, h = positions if positions is not None else place(nodes, layout_edges, dict(shown))
    drawn = tuple(
        DrawnNode(n, shown[n], (tooltips or {}).get(n, n), pos[n][0], pos[n][1], (styles or {}).get(n, "plain"))
        for n in nodes
        if n in pos
    )
    return GraphPanel(caption, drawn, tuple(edges), w, h)


def _clip(cx: float, cy: float, tx: float, ty: float, hw: float, hh: float) -> tuple[float, float]:
    """The point where the ray from the box centre (cx, cy) towards (tx, ty) leaves the box."""
    dx, dy = tx - cx, ty - cy
    if dx == 0 and dy == 0:
        return cx, cy
    t = min(hw / abs(dx) if dx else math.inf, hh / abs(dy) if dy else math.inf)
    return cx + dx * t, cy + dy * t


def _crosses(ax: float, ay: float, bx: float, by: float, box: tuple[float, float, float, float]) -> bool:
    """Whether the segment a–b passes through the rectangle (x, y, half-width, half-height)."""
    x, y, hw, hh = box
    if not (min(ax, bx) - hw - 2 < x < max(ax, bx) + hw + 2 and min(ay, by) - hh - 2 < y < max(ay, by) + hh + 2):
        return False  # outside the segment's bounding box
    steps = 24
    for k in range(1, steps):
        t = k / steps
        px, py = ax + (bx - ax) * t, ay + (by - ay) * t
        if abs(px - x) < hw + 2 and abs(py - y) < hh + 2:
            return True
    return False


@dataclass(frozen=True)
class EdgeGeometry:
    """Where an edge is drawn: from (x1, y1) on the source box to (x2, y2) on the target box,
    through the quadratic-Bézier control point (cx, cy) when ``bent``."""

    edge: DrawnEdge
    x1: float
    y1: float
    cx: float
    cy: float
    x2: float
    y2: float
    bent: bool

    @property
    def middle(self) -> tuple[float, float]:
        """The point of the drawn line halfway along it (where a glyph goes)."""
        if not self.bent:
            return (self.x1 + self.x2) / 2, (self.y1 + self.y2) / 2
        return ((self.x1 + self.x2) / 2 + self.cx) / 2, ((self.y1 + self.y2) / 2 + self.cy) / 2


def edge_geometry(panel: GraphPanel) -> list[EdgeGeometry]:
    """The drawn geometry of every edge of *panel* (both renderers use it).

    Two opposite edges between one pair bend apart; an edge whose straight line would cross
    another node's box bends around it, towards the right (+x), by enough that the curve's
    middle clears the widest box in the way.  Self-loops and edges to unknown nodes are left out.
    """
    centre = {n.id: (n.x, n.y) for n in panel.nodes}
    half = {n.id: (node_width(n.label) / 2, NODE_HEIGHT / 2) for n in panel.nodes}
    pairs = {(e.source, e.target) for e in panel.edges}
    out: list[EdgeGeometry] = []
    for e in panel.edges:
        if e.source not in centre or e.target not in centre or e.source == e.target:
            continue
        (sx, sy), (tx, ty) = centre[e.source], centre[e.target]
        dx, dy = tx - sx, ty - sy
        length = math.hypot(dx, dy) or 1.0
        nx_, ny_ = -dy / length, dx / length
        bow = 0.0
        if (e.target, e.source) in pairs:
            bow = 16.0  # two opposite edges: one bends each way
        else:
            others = [(*centre[n], *half[n]) for n in centre if n not in (e.source, e.target)]
            crossed = [b for b in others if _crosses(sx, sy, tx, ty, b)]
            if crossed:  # the curve's middle is at half the bow
                bow = 2 * (max(b[2] for b in crossed) + 14)
                if nx_ < 0 or (nx_ == 0 and ny_ < 0):
                    nx_, ny_ = -nx_, -ny_
        mx, my = (sx + tx) / 2 + nx_ * bow, (sy + ty) / 2 + ny_ * bow
        ax, ay = (mx, my) if bow else (tx, ty)
        bx, by = (mx, my) if bow else (sx, sy)
        x1, y1 = _clip(sx, sy, ax, ay, *half[e.source])
        x2, y2 = _clip(tx, ty, bx, by, *half[e.target])
        out.append(EdgeGeometry(e, x1, y1, mx, my, x2, y2, bool(bow)))
    return out
