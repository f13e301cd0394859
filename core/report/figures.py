"""Figure specifications: what a report figure shows, independent of how it is drawn.

A view (lab, explain, check) builds plain frozen values — a :class:`LineChart`,
:class:`ScatterChart`, :class:`BoxChart`, :class:`BarChart` or :class:`GraphFigure` — and a
renderer draws them: :mod:`causalcheck.report.svg` as inline SVG for the HTML report (no
dependency at all), :mod:`causalcheck.report.png` as PNG files through matplotlib for the
Markdown report.  Every figure carries a ``title`` and a ``desc`` (its text alternative:
the SVG ``<title>``/``<desc>``, the PNG's ``alt`` text).

Edge and series styles never rely on colour alone: each :data:`EDGE_STYLES` entry has a
dash pattern and a glyph drawn at the edge's midpoint as well as a colour, and each series
of a chart gets a marker shape and a dash pattern from :data:`SERIES_STYLES`.

>>> EDGE_STYLES["reversed"].legend
'reversed (the truth has the other direction)'
>>> box_of("demo", [1, 2, 3, 4]).median
2.5
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "EDGE_STYLES",
    "NODE_STYLES",
    "SERIES_STYLES",
    "BarChart",
    "Box",
    "BoxChart",
    "DrawnEdge",
    "DrawnNode",
    "EdgeStyle",
    "Figure",
    "GraphFigure",
    "GraphPanel",
    "LineChart",
    "ScatterChart",
    "ScatterPoint",
    "Series",
    "SeriesStyle",
    "box_of",
]


@dataclass(frozen=True)
class EdgeStyle:
    """How one kind of edge is drawn: colour, SVG dash pattern ("" = solid), width, glyph, legend text,
    and its arrowheads (``end``: at the target; ``both``; ``none``)."""

    color: str
    dash: str
    width: float
    glyph: str
    legend: str
    arrow: str = "end"


#: Edge kinds (keys) → style.  Lab: truth / correct / missing / extra / reversed; explain:
#: causal or discourse × supported / unsupported / unjudged; check: plain / cycle / conflict, and
#: for the marks of a checked graph undirected / bidirected / partial / circle.
EDGE_STYLES: dict[str, EdgeStyle] = {
    "truth": EdgeStyle("#3b3b3b", "", 1.6, "", "true edge"),
    "correct": EdgeStyle("#1a7f37", "", 2.4, "✓", "correct"),
    "missing": EdgeStyle("#8c8c8c", "2 4", 1.8, "−", "missing (in the truth, not in the hypothesis)"),
    "extra": EdgeStyle("#c62828", "8 4", 2.2, "+", "extra (not in the truth)"),
    "reversed": EdgeStyle("#e66100", "10 3 2 3", 2.4, "⇄", "reversed (the truth has the other direction)"),
    "causal-supported": EdgeStyle("#1a7f37", "", 2.4, "✓", "causal relation, supported"),
    "causal-unsupported": EdgeStyle("#c62828", "8 4", 2.2, "✗", "causal relation, not supported"),
    "causal-unjudged": EdgeStyle("#6a3d9a", "1 3", 2.0, "?", "causal relation, not judged"),
    "discourse-supported": EdgeStyle("#4a78a8", "", 1.1, "", "discourse relation, supported"),
    "discourse-unsupported": EdgeStyle("#9aa7b4", "5 3", 1.1, "", "discourse relation, not supported"),
    "discourse-unjudged": EdgeStyle("#b4b4b4", "1 3", 1.1, "", "discourse relation, not judged"),
    "plain": EdgeStyle("#3b3b3b", "", 1.6, "", "edge"),
    "undirected": EdgeStyle("#3b3b3b", "", 1.6, "", "undirected edge (--)", "none"),
    "bidirected": EdgeStyle("#1f5fa8", "", 1.6, "↔", "bidirected edge (<->: a hidden common cause)", "both"),
    "partial": EdgeStyle("#6a6a6a", "4 3", 1.6, "∘", "edge with a circle mark (o->: the tail is undetermined)"),
    "circle": EdgeStyle("#6a6a6a", "4 3", 1.6, "∘", "edge with circle marks (o-o, o--: orientation undetermined)", "none"),
    "cycle": EdgeStyle("#c62828", "6 3", 3.0, "↻", "edge of a cycle"),
    "conflict": EdgeStyle("#6a3d9a", "2 2", 3.0, "⇄", "contradicting directions"),
}


@dataclass(frozen=True)
class NodeStyle:
    """How a node is drawn: fill, stroke, stroke width, badge text, legend text."""

    fill: str
    stroke: str
    width: float
    badge: str
    legend: str


NODE_STYLES: dict[str, NodeStyle] = {
    "plain": NodeStyle("#ffffff", "#3b3b3b", 1.2, "", "node"),
    "target": NodeStyle("#fff4d6", "#8a6d00", 1.6, "", "target (resonance frequency)"),
    "flagged": NodeStyle("#fde7e7", "#c62828", 2.4, "!", "named in a finding"),
    "isolated": NodeStyle("#f4f4f4", "#9a9a9a", 1.0, "", "no edge"),
}


@dataclass(frozen=True)
class SeriesStyle:
    """Colour (Okabe–Ito, colour-blind safe), marker shape and dash pattern of one series."""

    color: str
    marker: str  # circle | square | triangle | diamond | cross | star
    dash: str


SERIES_STYLES: tuple[SeriesStyle, ...] = (
    SeriesStyle("#0072b2", "circle", ""),
    SeriesStyle("#d55e00", "square", "6 3"),
    SeriesStyle("#009e73", "triangle", "2 3"),
    SeriesStyle("#cc79a7", "diamond", "9 3 2 3"),
    SeriesStyle("#e69f00", "cross", "4 4"),
    SeriesStyle("#56b4e9", "star", "1 2"),
    SeriesStyle("#000000", "circle", "12 4"),
    SeriesStyle("#f0e442", "square", ""),
)


@dataclass(frozen=True)
class Series:
    """One named line: ``(x, y)`` points in x order (``y`` ``None`` = a gap)."""

    name: str
    points: tuple[tuple[float, float | None], ...]


@dataclass(frozen=True)
class LineChart:
    """Lines over a numeric x axis (e.g. a metric per interaction step, one line per agent)."""

    title: str
    desc: str
    x_label: str
    y_label: str
    series: tuple[Series, ...]
    y_range: tuple[float, float] | None = None
    step: bool = False  # draw as a step function (counts)
    integer: bool = False  # y is a count: whole-number ticks only


@dataclass(frozen=True)
class ScatterPoint:
    """One point; ``series`` picks its style; optional interval whiskers on either axis."""

    x: float
    y: float
    label: str
    series: str
    x_interval: tuple[float, float] | None = None
    y_interval: tuple[float, float] | None = None


@dataclass(frozen=True)
class ScatterChart:
    title: str
    desc: str
    x_label: str
    y_label: str
    points: tuple[ScatterPoint, ...]
    x_range: tuple[float, float] = (0.0, 1.0)
    y_range: tuple[float, float] = (0.0, 1.0)


@dataclass(frozen=True)
class Box:
    """Five-number summary (and mean) of one group's values."""

    label: str
    n: int
    minimum: float
    q1: float
    median: float
    q3: float
    maximum: float
    mean: float


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile (numpy's default method) of sorted values."""
    pos = (len(sorted_values) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def box_of(label: str, values: Sequence[float]) -> Box:
    """The :class:`Box` of *values* (at least one value)."""
    xs = sorted(float(v) for v in values)
    if not xs:
        raise ValueError(f"box_of({label!r}) needs at least one value")
    return Box(label, len(xs), xs[0], _quantile(xs, 0.25), _quantile(xs, 0.5), _quantile(xs, 0.75), xs[-1], sum(xs) / len(xs))


@dataclass(frozen=True)
class BoxChart:
    """Distributions side by side (one box per model), e.g. node counts of the answer graphs."""

    title: str
    desc: str
    y_label: str
    boxes: tuple[Box, ...]
    integer: bool = False  # the values are counts: whole-number ticks only


@dataclass(frozen=True)
class BarChart:
    """Horizontal bars with their values printed (e.g. a rate per agent)."""

    title: str
    desc: str
    x_label: str
    bars: tuple[tuple[str, float], ...]
    x_range: tuple[float, float] | None = None
    percent: bool = False


@dataclass(frozen=True)
class DrawnNode:
    """A placed node: ``id``, shown ``label``, hover ``tooltip``, centre ``(x, y)`` in pixels, style key."""

    id: str
    label: str
    tooltip: str
    x: float
    y: float
    style: str = "plain"


@dataclass(frozen=True)
class DrawnEdge:
    """A directed edge ``source -> target`` of an :data:`EDGE_STYLES` kind, with its hover text."""

    source: str
    target: str
    style: str
    tooltip: str


@dataclass(frozen=True)
class GraphPanel:
    """One drawn graph (panels of a figure share their layout, so they compare at a glance)."""

    caption: str
    nodes: tuple[DrawnNode, ...]
    edges: tuple[DrawnEdge, ...]
    width: float
    height: float


@dataclass(frozen=True)
class GraphFigure:
    """Graph panels side by side, with a legend of the edge and node styles used."""

    title: str
    desc: str
    panels: tuple[GraphPanel, ...]


Figure = LineChart | ScatterChart | BoxChart | BarChart | GraphFigure
