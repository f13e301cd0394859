"""Figures for notebooks: a graph, a comparison of two graphs, score means with their intervals.

Three functions draw on matplotlib Axes and return what they drew on; none calls ``plt.show()``
(Jupyter shows a figure made with pyplot at the end of the cell; a script saves it with
``fig.savefig``):

* :func:`plot_graph` — any :class:`~causalcheck.graphs.Graph` (DAG, CPDAG, MAG, PAG; or anything
  :func:`~causalcheck.graphs.read_graph` reads, or a
  :class:`~causalcheck.graphchecks.validator.GraphValidation`) with its edge marks: an arrowhead
  for ``>``, an open circle for ``o``, nothing for a tail; a *highlight* set of edges drawn over a
  wide band; the edges of a cycle and the nodes a finding names marked as in the report;
* :func:`plot_comparison` — truth and estimate side by side on one layout, the estimate's edges
  marked correct / missing / extra / reversed / with other marks (counts equal to
  :func:`~causalcheck.graphs.compare`'s: missing = ``skeleton.fn``, extra = ``skeleton.fp``, all
  but correct = ``shd``), with a legend;
* :func:`plot_scores` — per agent (lab) or answer model (explain) the mean of one metric with its
  95% percentile bootstrap interval: from a :class:`~causalcheck.lab.score.ScoreReport`, a
  ``scores.json``, explain result files or a folder holding them.

The drawing is the HTML report's: nodes are placed by :func:`causalcheck.report.layout.place`
(deterministic: layered for a graph without a cycle, Kamada–Kawai from the circle otherwise), edges
follow :func:`causalcheck.report.layout.edge_geometry` and take the colours, dash patterns and
glyphs of :data:`causalcheck.report.figures.EDGE_STYLES`.  Every artist carries a ``gid``
(``node:NAME``, ``edge:A -> B``, ``mark:A o-> B@A``, ``highlight:A -> B``, ``score:LABEL``), so
a drawing can be inspected and tested.  matplotlib is optional (``[plot]`` extra): without it each
function raises the install hint.

Self-loops (only in a graph built with ``stated=True``) are not drawn, as in the report.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError, did_you_mean, missing_extra
from causalcheck.findings import Finding
from causalcheck.graphchecks.kinds import cpdag_of
from causalcheck.graphchecks.scores import Comparison, compare
from causalcheck.graphchecks.validator import GraphValidation
from causalcheck.graphs.io import read_graph
from causalcheck.graphs.model import Graph, GraphEdge, Mark
from causalcheck.lab.score import ROLLUP_KEYS, ScoreReport
from causalcheck.metrics import bootstrap_ci
from causalcheck.report.check_views import graph_drawing
from causalcheck.report.explain_views import explain_runs
from causalcheck.report.figures import (
    EDGE_STYLES,
    NODE_STYLES,
    SERIES_STYLES,
    DrawnEdge,
    EdgeStyle,
    GraphFigure,
    GraphPanel,
)
from causalcheck.report.inputs import classify, load_inputs
from causalcheck.report.layout import (
    NODE_FONT,
    NODE_HEIGHT,
    edge_geometry,
    graph_panel,
    label_of,
    node_width,
    panel_bounds,
    place,
)
from causalcheck.report.text import counted

__all__ = ["COMPARISON_STATUSES", "EXPLAIN_METRICS", "MARKS_DIFFER", "ScoreGroup", "plot_comparison", "plot_graph", "plot_scores", "score_groups"]

#: How an edge of the estimate compares with the truth (the order of the legend).
COMPARISON_STATUSES = ("correct", "missing", "extra", "reversed", "marks-differ")
#: The per-item scores of an explain result file that :func:`plot_scores` plots.
EXPLAIN_METRICS = ("final", "pm", "rm")
#: The style of an estimate's edge whose marks differ from the truth's otherwise than by a reversal.
MARKS_DIFFER = EdgeStyle("#7b3294", "3 2", 2.4, "≠", "other marks (e.g. -> where the truth has --)")
_STYLES: dict[str, EdgeStyle] = {**EDGE_STYLES, "marks-differ": MARKS_DIFFER}
_HALO = "#ffc107"  # the band under a highlighted edge
_PX = 1 / 90  # inches per layout pixel of a figure made here


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise missing_extra("causalcheck.report's plots", "matplotlib") from exc
    return plt


def _linestyle(pattern: str) -> Any:
    """An SVG dash pattern (``"8 4"``) as a matplotlib line style."""
    if not pattern:
        return "-"
    return (0, tuple(float(v) / 1.5 for v in pattern.split()))


# ------------------------------------------------------------------------------------------ graphs


@dataclass(frozen=True)
class _Marks:
    """The edge a drawn line stands for and its marks at the drawn source and target."""

    edge: GraphEdge
    at_source: Mark
    at_target: Mark


def _ends(edge: GraphEdge, source: str, target: str) -> _Marks:
    return _Marks(edge, edge.mark_at(source), edge.mark_at(target))


def _edge_of(g: Graph, source: str, target: str) -> GraphEdge:
    """The edge of *g* drawn from *source* to *target* (a stated graph: the directed one)."""
    if g.stated:
        return next(e for e in g.edges if (e.u, e.v) == (source, target))
    found = g.edge(source, target)
    assert found is not None  # the panel was drawn from g's own edges
    return found


def _drawn_edges(g: Graph, diagnostics: Sequence[Mapping[str, Any]] = ()) -> tuple[GraphPanel | None, tuple[DrawnEdge, ...]]:
    """The report's drawing of *g* (:func:`causalcheck.report.check_views.graph_drawing`): its panel and edges."""
    block = graph_drawing("", g.to_dict(), diagnostics)
    if block is None or not isinstance(block.figure, GraphFigure):
        return None, ()
    panel = block.figure.panels[0]
    return panel, panel.edges


def _font(ax: Any, bounds: tuple[float, float, float, float]) -> float:
    """Node label size (points) that fits the boxes at the scale *ax* draws *bounds* at."""
    left, top, right, bottom = bounds
    fig = ax.figure
    box = ax.get_position()
    width_in, height_in = fig.get_figwidth() * box.width, fig.get_figheight() * box.height
    points_per_px = 72 * min(width_in / max(right - left, 1.0), height_in / max(bottom - top, 1.0))
    return max(3.0, min(11.0, float(NODE_FONT * points_per_px * 0.85)))


def _new_axes(plt: Any, panels: int, bounds: Sequence[tuple[float, float, float, float]], legend_rows: int) -> tuple[Any, list[Any]]:
    widths = [max(r - left, 120.0) for left, _, r, _ in bounds]
    height = max(b - t for _, t, _, b in bounds)
    fig, axes = plt.subplots(1, panels, figsize=(max(sum(widths) * _PX + 0.3 * (panels - 1), 2.5), max(height * _PX, 1.0) + 0.45 + 0.2 * legend_rows),
                             squeeze=False, gridspec_kw={"width_ratios": widths})
    return fig, list(axes[0])


def _draw_panel(ax: Any, panel: GraphPanel, marks: Mapping[tuple[str, str], _Marks], highlight: frozenset[tuple[str, str]],
                bounds: tuple[float, float, float, float]) -> list[str]:
    """Draw *panel* on *ax* (layout pixels, y down); the edge styles used, in drawing order."""
    from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch
    from matplotlib.path import Path as MplPath

    left, top, right, bottom = bounds
    ax.set_xlim(left, right)
    ax.set_ylim(bottom, top)
    ax.set_aspect("equal")
    ax.axis("off")
    font = _font(ax, bounds)
    used: list[str] = []
    for g in edge_geometry(panel):
        e = g.edge
        st = _STYLES[e.style]
        if e.style not in used:
            used.append(e.style)
        m = marks[(e.source, e.target)]
        name = str(m.edge)
        points = [(g.x1, g.y1), (g.cx, g.cy), (g.x2, g.y2)] if g.bent else [(g.x1, g.y1), (g.x2, g.y2)]
        codes = [MplPath.MOVETO, MplPath.CURVE3, MplPath.CURVE3] if g.bent else [MplPath.MOVETO, MplPath.LINETO]
        width = st.width * (2.0 if (e.source, e.target) in highlight else 1.0)
        if (e.source, e.target) in highlight:
            ax.add_patch(FancyArrowPatch(path=MplPath(points, codes), arrowstyle="-", color=_HALO, alpha=0.75, linewidth=width + 7,
                                         capstyle="round", zorder=1, gid=f"highlight:{name}"))
        heads = ("<|" if m.at_source is Mark.ARROW else "") + "-" + ("|>" if m.at_target is Mark.ARROW else "")
        ax.add_patch(FancyArrowPatch(path=MplPath(points, codes), arrowstyle=heads, mutation_scale=10 + 2 * width, color=st.color,
                                     linewidth=width * 0.8, linestyle=_linestyle(st.dash), zorder=2, gid=f"edge:{name}"))
        for t, mark, node in ((0.0, m.at_source, e.source), (1.0, m.at_target, e.target)):
            if mark is not Mark.CIRCLE:
                continue
            (x0, y0), (x1, y1) = g.at(t), g.at(0.08 if t == 0.0 else 0.92)
            d = math.hypot(x1 - x0, y1 - y0) or 1.0
            r = 4.0
            ax.add_patch(Circle((x0 + (x1 - x0) / d * r, y0 + (y1 - y0) / d * r), r, facecolor="white", edgecolor=st.color,
                                linewidth=1.3, zorder=3, gid=f"mark:{name}@{node}"))
        if st.glyph:
            ax.text(*g.glyph, st.glyph, color=st.color, fontsize=font * 0.9, ha="center", va="center", fontweight="bold", zorder=5,
                    bbox={"boxstyle": "round,pad=0.05", "fc": "white", "ec": "none"}, gid=f"glyph:{name}")
    for n in panel.nodes:
        ns = NODE_STYLES[n.style]
        hw, hh = node_width(n.label) / 2, NODE_HEIGHT / 2
        ax.add_patch(FancyBboxPatch((n.x - hw, n.y - hh), 2 * hw, 2 * hh, boxstyle="round,pad=0,rounding_size=6", facecolor=ns.fill,
                                    edgecolor=ns.stroke, linewidth=ns.width, zorder=4, gid=f"node:{n.id}"))
        ax.text(n.x, n.y, n.label, ha="center", va="center", fontsize=font, zorder=5, gid=f"label:{n.id}")
        if ns.badge:
            ax.add_patch(Circle((n.x + hw - 2, n.y - hh + 1), 6, facecolor=ns.stroke, edgecolor="none", zorder=5))
            ax.text(n.x + hw - 2, n.y - hh + 1, ns.badge, color="white", fontsize=font * 0.7, fontweight="bold", ha="center", va="center", zorder=6)
    return used


def _legend(fig: Any, styles: Sequence[str], nodes: Iterable[str], highlighted_edges: bool) -> int:
    """A legend under the drawing: every edge style used, the node styles other than plain, the highlight band; its rows."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = []
    labels: list[str] = []
    for k in styles:
        st = _STYLES[k]
        handles.append(Line2D([0], [0], color=st.color, linestyle=_linestyle(st.dash), linewidth=st.width))
        labels.append(f"{st.glyph} {st.legend}".strip())
    for k in sorted(set(nodes) - {"plain"}, key=list(NODE_STYLES).index):
        ns = NODE_STYLES[k]
        handles.append(Patch(facecolor=ns.fill, edgecolor=ns.stroke, linewidth=ns.width))
        labels.append(ns.legend)
    if highlighted_edges:
        handles.append(Line2D([0], [0], color=_HALO, linewidth=7, alpha=0.75))
        labels.append("highlighted")
    if not handles:
        return 0
    columns = min(2, len(handles))
    fig.legend(handles, labels, loc="lower center", ncol=columns, fontsize=7, frameon=False)
    return math.ceil(len(handles) / columns)


def _edge_key(g: Graph, item: Any) -> tuple[str, str]:
    """The drawn ``(source, target)`` of a highlight *item*: a :class:`GraphEdge`, ``"a -> b"``, ``(a, b)`` or ``(a, token, b)``."""
    edge: GraphEdge | None
    if isinstance(item, GraphEdge):
        edge = item
    elif isinstance(item, str):
        try:
            parsed = read_graph(item)
        except CausalCheckError as exc:
            raise InputFormatError(f"highlight edge {item!r} is not an edge ({exc})") from None
        if len(parsed.edges) != 1:
            raise InputFormatError(f"highlight edge {item!r} must be one edge, like 'a -> b' or 'a o-> b'")
        edge = parsed.edges[0]
    elif isinstance(item, tuple) and len(item) == 3 and all(isinstance(x, str) for x in item):
        edge = GraphEdge.parse(*item)
    elif isinstance(item, tuple) and len(item) == 2 and all(isinstance(x, str) for x in item):
        a, b = item
        for n in (a, b):
            if n not in g.index:
                raise InputFormatError(f"highlight edge {item!r}: {n!r} is not a node of the graph{did_you_mean(n, g.nodes)}")
        if g.stated:
            if any((e.u, e.v) == (a, b) for e in g.edges):
                return a, b
            edge = None
        else:
            edge = g.edge(a, b)
        if edge is None:
            raise InputFormatError(f"highlight edge {item!r}: the graph has no edge between {a!r} and {b!r}")
    else:
        raise InputFormatError(
            f"highlight item {item!r:.80} must be an edge (a GraphEdge, 'a -> b', ('a', 'b') or ('a', '->', 'b')) or a Finding"
        )
    if edge not in g:
        raise InputFormatError(f"highlight edge {str(edge)!r} is not an edge of the graph ({g})")
    return edge.u, edge.v


def _finding_edges(g: Graph, finding: Finding) -> set[tuple[str, str]]:
    """The edges of *g* that *finding* names among its elements (other elements — nodes, rules — are not edges)."""
    out: set[tuple[str, str]] = set()
    for element in finding.elements:
        try:
            out.add(_edge_key(g, element))
        except CausalCheckError:
            continue
    return out


def plot_graph(graph: Any, *, highlight: Iterable[Any] | None = None, ax: Any = None, title: str | None = None, legend: bool = True) -> Any:
    """Draw *graph* on *ax* (a new figure when ``None``) and return the Axes.

    *graph* is a :class:`~causalcheck.graphs.Graph`, anything
    :func:`~causalcheck.graphs.read_graph` reads (``"a -> b; b o-> c"``, a file, a networkx,
    pgmpy or causal-learn graph) or a :class:`~causalcheck.graphchecks.validator.GraphValidation`
    (its graph, with the edges and nodes of its errors and warnings highlighted unless
    *highlight* is given).  *highlight* holds edges — :class:`~causalcheck.graphs.GraphEdge`,
    ``"a -> b"``, ``("a", "b")``, ``("a", "o->", "b")`` — each of which must be in the graph, and
    :class:`~causalcheck.findings.Finding` s, whose edges of the graph are highlighted and whose
    nodes are flagged (a cycle's edges are drawn as the report draws them).  *legend* adds the
    edge and node kinds under the drawing.
    """
    plt = _pyplot()
    findings: list[Finding] = []
    if isinstance(graph, GraphValidation):
        if highlight is None:
            highlight = [f for f in graph.findings if f.severity in ("error", "warning")]
        graph = graph.graph
    g = read_graph(graph)
    keys: set[tuple[str, str]] = set()
    for item in highlight or ():
        if isinstance(item, Finding):
            findings.append(item)
            keys |= _finding_edges(g, item)
        else:
            keys.add(_edge_key(g, item))
    panel, _ = _drawn_edges(g, [f.to_dict() for f in findings])
    if panel is None:
        raise InputFormatError(f"graph={g!r} has no nodes: there is nothing to draw")
    marks = {(e.source, e.target): _ends(_edge_of(g, e.source, e.target), e.source, e.target) for e in panel.edges}
    bounds = panel_bounds(panel, edge_geometry(panel))
    if ax is None:
        _, axes = _new_axes(plt, 1, [bounds], 2 if legend else 0)
        ax = axes[0]
    used = _draw_panel(ax, panel, marks, frozenset(keys), bounds)
    ax.set_title(title if title is not None else f"{g.kind}: {counted(len(g.nodes), 'node')}, {counted(len(g.edges), 'edge')}", fontsize=9)
    if legend:
        _legend(ax.figure, used, (n.style for n in panel.nodes), bool(keys))
    return ax


# ------------------------------------------------------------------------------------- comparison


def _status(r: GraphEdge | None, e: GraphEdge | None) -> str:
    if e is None:
        return "missing"
    if r is None:
        return "extra"
    a, b = e.u, e.v
    if (r.mark_at(a), r.mark_at(b)) == (e.mark_at(a), e.mark_at(b)):
        return "correct"
    if (r.mark_at(a), r.mark_at(b)) == (e.mark_at(b), e.mark_at(a)):
        return "reversed"
    return "marks-differ"


def _counts(statuses: Iterable[str]) -> dict[str, int]:
    seen = list(statuses)
    return {k: seen.count(k) for k in COMPARISON_STATUSES}


def plot_comparison(truth: Any, estimate: Any, comparison: Comparison | None = None, *, axes: Sequence[Any] | None = None,
                    title: str | None = None) -> Any:
    """Draw *truth* and *estimate* side by side on one layout and return the Figure.

    The estimate's edges are marked by how they compare with the truth: correct, missing (drawn
    where the truth has it), extra, reversed, or with other marks.  *comparison* is
    :func:`~causalcheck.graphs.compare` ``(truth, estimate)`` (computed when ``None``); when its
    ``basis`` is ``"cpdag(truth)"`` (a DAG truth, a CPDAG estimate) the left panel is the truth's
    CPDAG, as the metrics compare with it.  The marks agree with its counts (missing =
    ``skeleton.fn``, extra = ``skeleton.fp``, every mark but correct = ``shd``); a *comparison*
    of other graphs is an error naming both figures.  *axes* are two Axes to draw on.
    """
    plt = _pyplot()
    t, e = read_graph(truth), read_graph(estimate)
    if comparison is None:
        comparison = compare(t, e)
    elif not isinstance(comparison, Comparison):
        raise InputFormatError(f"comparison={comparison!r:.80} must be the result of causalcheck.graphs.compare(truth, estimate)")
    nodes = [*t.nodes, *(n for n in e.nodes if n not in t.index)]
    if len(nodes) != len(t.nodes) or len(nodes) != len(e.nodes):
        t, e = t.with_nodes(nodes), e.with_nodes(nodes)
    reference = cpdag_of(t) if comparison.basis == "cpdag(truth)" else t
    pairs = sorted(reference.skeleton | e.skeleton, key=lambda p: sorted(t.index[n] for n in p))
    status: dict[tuple[str, str], str] = {}
    marks: dict[tuple[str, str], _Marks] = {}
    for pair in pairs:
        a, b = sorted(pair, key=t.index.__getitem__)
        r_edge, e_edge = reference.edge(a, b), e.edge(a, b)
        shown = e_edge if e_edge is not None else r_edge
        assert shown is not None
        key = (shown.u, shown.v)
        status[key] = _status(r_edge, e_edge)
        marks[key] = _ends(shown, *key)
    counts = _counts(status.values())
    differ = counts["missing"] + counts["extra"] + counts["reversed"] + counts["marks-differ"]
    expected = (comparison.nodes, comparison.skeleton.fn, comparison.skeleton.fp, comparison.shd)
    if (len(nodes), counts["missing"], counts["extra"], differ) != expected:
        raise InputFormatError(
            f"comparison= describes other graphs: it has {comparison.nodes} nodes, missing {comparison.skeleton.fn}, extra "
            f"{comparison.skeleton.fp}, SHD {comparison.shd}; truth and estimate have {len(nodes)} nodes, missing {counts['missing']}, "
            f"extra {counts['extra']}, SHD {differ}"
        )
    _, truth_edges = _drawn_edges(reference)
    truth_marks = {(d.source, d.target): _ends(_edge_of(reference, d.source, d.target), d.source, d.target) for d in truth_edges}
    layout = [(d.source, d.target) for d in truth_edges]
    labels = {n: label_of(n) for n in nodes}
    positions = place(nodes, layout, labels, extra=list(status))
    left_caption = "truth as CPDAG" if reference is not t else "truth"
    left = graph_panel(left_caption, nodes, layout, truth_edges, positions=positions)
    right = graph_panel(
        f"estimate (SHD {comparison.shd})", nodes, layout,
        [DrawnEdge(a, b, s, f"{marks[(a, b)].edge}: {s}") for (a, b), s in status.items()], positions=positions,
    )
    drawn = [(left, truth_marks), (right, marks)]
    bounds_each = [panel_bounds(p, edge_geometry(p)) for p, _ in drawn]
    bounds = (min(b[0] for b in bounds_each), min(b[1] for b in bounds_each), max(b[2] for b in bounds_each), max(b[3] for b in bounds_each))
    if axes is None:
        fig, axes = _new_axes(plt, 2, [bounds, bounds], 3)
    elif len(axes) != 2:
        raise InputFormatError(f"axes= must be two matplotlib Axes (truth, estimate), got {len(axes)}")
    fig = axes[0].figure
    used: list[str] = []
    for ax, (panel, panel_marks) in zip(axes, drawn, strict=True):
        for k in _draw_panel(ax, panel, panel_marks, frozenset(), bounds):
            if k not in used:
                used.append(k)
        ax.set_title(panel.caption, fontsize=9)
    shown_counts = ", ".join(f"{counts[k]} {k.replace('-', ' ')}" for k in COMPARISON_STATUSES)
    fig.suptitle(title if title is not None else f"{comparison.truth_kind} truth vs {comparison.estimate_kind} estimate: {shown_counts}", fontsize=9)
    ordered = [k for k in (*[k for k in used if k not in COMPARISON_STATUSES], *COMPARISON_STATUSES) if k in used]
    _legend(fig, ordered, (), False)
    return fig


# ----------------------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class ScoreGroup:
    """One point of :func:`plot_scores`: a group's label, the mean of the metric, its interval (``None`` bounds: too few values), n."""

    label: str
    mean: float | None
    low: float | None
    high: float | None
    n: int


def _lab_groups(rows: Sequence[Mapping[str, Any]], metric: str) -> list[ScoreGroup]:
    suites = {str(r.get("suite", "")) for r in rows}
    known = [k for k in dict.fromkeys(k for r in rows for k, v in r.items() if isinstance(v, Mapping) and "mean" in v)] or list(ROLLUP_KEYS)
    if metric not in known:
        raise InputFormatError(f"metric={metric!r} is not a lab score metric: one of {known!r}{did_you_mean(metric, known)}")
    out = []
    for r in rows:
        who = " / ".join(str(r[k]) for k in ("agent", "model") if r.get(k)) or "(no agent name)"
        label = f"{r.get('suite')}: {who}" if len(suites) > 1 else who
        v = r.get(metric)
        if isinstance(v, Mapping):
            out.append(ScoreGroup(label, v.get("mean"), v.get("low"), v.get("high"), int(v.get("n") or 0)))
        else:
            out.append(ScoreGroup(label, float(v) if isinstance(v, (int, float)) else None, None, None, int(r.get("episodes") or 0)))
    return out


def _explain_groups(inputs: Sequence[tuple[str, Mapping[str, Any]]], metric: str, resamples: int, seed: int) -> list[ScoreGroup]:
    if metric not in EXPLAIN_METRICS:
        raise InputFormatError(f"metric={metric!r} is not an explain score: one of {list(EXPLAIN_METRICS)!r}{did_you_mean(metric, EXPLAIN_METRICS)}")
    out = []
    for run in explain_runs(inputs):
        ci = bootstrap_ci([getattr(i, metric) for i in run.items if i.ok], resamples=resamples, seed=seed)
        out.append(ScoreGroup(run.label, ci.mean, ci.low, ci.high, ci.n))
    return out


def score_groups(source: Any, metric: str | None = None, *, resamples: int = 1000, seed: int = 0) -> tuple[str, list[ScoreGroup]]:
    """The metric and the groups :func:`plot_scores` draws from *source* (see there).

    A lab source gives the intervals ``lab score`` computed (``by_suite``); explain result files
    give, per result file, the mean of the items' *metric* with :func:`causalcheck.metrics.bootstrap_ci`
    (*resamples*, *seed*: the same defaults as ``lab score``).
    """
    lab: list[Mapping[str, Any]] = []
    explain: list[tuple[str, Mapping[str, Any]]] = []
    if isinstance(source, ScoreReport):
        lab = [dict(r) for r in source.by_suite]
    elif isinstance(source, Mapping):
        kind = classify(source)
        if kind == "lab":
            lab = [r for r in source.get("by_suite") or [] if isinstance(r, Mapping)]
        elif kind == "explain":
            explain = [("result", source)]
        else:
            raise InputFormatError("source= is a mapping that is neither lab scores (scores.json) nor an explain result file")
    elif isinstance(source, (str, Path)) or (isinstance(source, Sequence) and source and all(isinstance(p, (str, Path)) for p in source)):
        inputs = load_inputs([source] if isinstance(source, (str, Path)) else list(source))
        lab = [r for _, payload in inputs.lab for r in payload.get("by_suite") or [] if isinstance(r, Mapping)]
        explain = list(inputs.explain)
        if not lab and not explain:
            raise InputFormatError(f"source={source!r} holds check reports only: plot_scores needs lab scores or explain result files")
    else:
        raise InputFormatError(
            f"source={source!r:.80} must be a ScoreReport, a scores.json or explain result payload, or paths of such files or folders"
        )
    if lab and explain and metric is None:
        raise InputFormatError(f"source={source!r:.80} holds lab scores and explain results: pass metric= (an explain score: {list(EXPLAIN_METRICS)!r})")
    if explain and (not lab or metric in EXPLAIN_METRICS):
        metric = metric or "final"
        return metric, _explain_groups(explain, metric, resamples, seed)
    metric = metric or "edge_f1"
    return metric, _lab_groups(lab, metric)


def plot_scores(source: Any, metric: str | None = None, *, ax: Any = None, title: str | None = None, resamples: int = 1000,
                seed: int = 0) -> Any:
    """Plot one point per agent (lab) or answer model (explain): the mean of *metric* with its 95% bootstrap interval; return the Axes.

    *source* is a :class:`~causalcheck.lab.score.ScoreReport`, the JSON of a ``scores.json`` or of an
    explain result file, or paths of such files or of folders holding them (read as
    ``causalcheck report`` reads them).  *metric* defaults to ``edge_f1`` for lab scores (any
    roll-up metric: ``task_accuracy``, ``shd``, ...) and to ``final`` for explain results
    (``pm``, ``rm``).  A group with fewer than 5 values has no interval (a point only); a group
    without a value is left out and named in the axis label.
    """
    plt = _pyplot()
    metric, groups = score_groups(source, metric, resamples=resamples, seed=seed)
    shown = [gr for gr in groups if gr.mean is not None]
    if not shown:
        raise InputFormatError(f"metric={metric!r}: no group of source= has a value" + (f" (groups: {[gr.label for gr in groups]!r})" if groups else " (no group)"))
    if ax is None:
        _, ax = plt.subplots(figsize=(6.0, 0.9 + 0.38 * len(shown)))
    for i, gr in enumerate(shown):
        st = SERIES_STYLES[i % len(SERIES_STYLES)]
        assert gr.mean is not None
        xerr = None if gr.low is None or gr.high is None else [[gr.mean - gr.low], [gr.high - gr.mean]]
        ax.errorbar([gr.mean], [i], xerr=xerr, fmt={"circle": "o", "square": "s", "triangle": "^", "diamond": "D", "cross": "X", "star": "*"}[st.marker],
                    color=st.color, capsize=4, markersize=7, elinewidth=1.6, label=gr.label, gid=f"score:{gr.label}")
    ax.set_yticks(range(len(shown)), [f"{gr.label} (n={gr.n})" for gr in shown], fontsize=8)
    ax.set_ylim(len(shown) - 0.5, -0.5)
    values = [v for gr in shown for v in (gr.mean, gr.low, gr.high) if v is not None]
    if min(values) >= 0.0 and max(values) <= 1.0 and metric not in ("shd", "imec_size", "mec_size"):
        ax.set_xlim(-0.05, 1.05)  # a point at 0 or 1 is drawn whole
    missing = [gr.label for gr in groups if gr.mean is None]
    ax.set_xlabel(f"{metric}: mean and 95% bootstrap interval" + (f" (no value: {', '.join(missing)})" if missing else ""), fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title if title is not None else f"{metric} per {'answer model' if metric in EXPLAIN_METRICS else 'agent'}", fontsize=9)
    return ax
