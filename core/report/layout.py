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

from collections.abc import Iterable, Mapping, Sequence

from causalcheck.report.figures import DrawnEdge, DrawnNode, GraphPanel

__all__ = ["CHAR_WIDTH", "LAYER_GAP", "MAX_LABEL", "MAX_ROW", "MAX_SPRING", "NODE_HEIGHT", "graph_panel", "label_of", "node_width", "place"]

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
