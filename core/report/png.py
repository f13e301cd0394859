"""PNG drawings of the report's figures through matplotlib (Agg), for the Markdown report.

The same figure specifications as the SVG writer (:mod:`causalcheck.report.figures`), the
same styles (colours, dash patterns, markers, glyphs), drawn with matplotlib's ``Agg``
backend into PNG bytes at 110 dpi.  matplotlib is imported on first use (it is installed
with causalcheck; ``pip install matplotlib`` if a trimmed environment lacks it), and the
backend is chosen explicitly so no display is needed.
"""

from __future__ import annotations

import io
import math
from typing import Any

from causalcheck.base.errors import missing_extra
from causalcheck.report import figures as fg
from causalcheck.report.layout import NODE_HEIGHT, edge_geometry, node_width

__all__ = ["render_png"]

_MARKERS = {"circle": "o", "square": "s", "triangle": "^", "diamond": "D", "cross": "x", "star": "*"}


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as exc:  # pragma: no cover - matplotlib ships with the install
        raise missing_extra("the Markdown report's PNG figures", "matplotlib") from exc
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def _dash(pattern: str) -> Any:
    if not pattern:
        return "-"
    nums = [float(v) for v in pattern.split()]
    return (0, tuple(n / 1.5 for n in nums))


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


def _whole_ticks(ax: Any) -> None:
    """Ticks of a count axis at whole numbers only."""
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def render_png(spec: fg.Figure) -> bytes:
    """PNG bytes of *spec*; no figure stays open, also when drawing fails (a damaged input's
    figure used to stay open, and the 21st open one raised matplotlib's warning as an error).

    A name with a character the font lacks (an agent or node named in a script DejaVu Sans does not
    cover) is drawn with the font's box for it, without matplotlib's "Glyph … missing" warning: the
    Markdown and HTML text beside the figure give the name exactly.
    """
    import warnings

    plt = _pyplot()
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from", category=UserWarning)
            return _render(plt, spec)
    finally:
        plt.close("all")


def _render(plt: Any, spec: fg.Figure) -> bytes:
    if isinstance(spec, fg.GraphFigure):
        return _graph(plt, spec)
    fig, ax = plt.subplots(figsize=(5.2, 3.1))
    ax.set_title(spec.title, fontsize=10)
    if isinstance(spec, fg.LineChart):
        for i, s in enumerate(spec.series):
            st = fg.SERIES_STYLES[i % len(fg.SERIES_STYLES)]
            xs = [p[0] for p in s.points]
            ys = [math.nan if p[1] is None else p[1] for p in s.points]
            ax.plot(xs, ys, color=st.color, linestyle=_dash(st.dash), marker=_MARKERS[st.marker], markersize=3,
                    markevery=max(1, len(xs) // 12), drawstyle="steps-post" if spec.step else "default", label=s.name,
                    clip_on=False)  # a point on an axis is drawn whole
        if spec.y_range:
            ax.set_ylim(*spec.y_range)
        ax.set_xlabel(spec.x_label)
        ax.set_ylabel(spec.y_label)
        if spec.integer:
            _whole_ticks(ax)
        ax.legend(fontsize=7)
    elif isinstance(spec, fg.ScatterChart):
        names: list[str] = []
        for p in spec.points:
            if p.series not in names:
                names.append(p.series)
        for p in spec.points:
            st = fg.SERIES_STYLES[names.index(p.series) % len(fg.SERIES_STYLES)]
            xerr = None if p.x_interval is None else [[p.x - p.x_interval[0]], [p.x_interval[1] - p.x]]
            yerr = None if p.y_interval is None else [[p.y - p.y_interval[0]], [p.y_interval[1] - p.y]]
            ax.errorbar([p.x], [p.y], xerr=xerr, yerr=yerr, color=st.color, marker=_MARKERS[st.marker], linestyle="none",
                        label=p.series, clip_on=False)
        handles, labels = ax.get_legend_handles_labels()
        seen: dict[str, Any] = {}
        for h, lab in zip(handles, labels, strict=False):
            seen.setdefault(lab, h)
        ax.legend(list(seen.values()), list(seen), fontsize=7)
        ax.set_xlim(*spec.x_range)
        ax.set_ylim(*spec.y_range)
        ax.set_xlabel(spec.x_label)
        ax.set_ylabel(spec.y_label)
    elif isinstance(spec, fg.BoxChart):
        stats = [{"label": b.label, "whislo": b.minimum, "q1": b.q1, "med": b.median, "q3": b.q3, "whishi": b.maximum,
                  "mean": b.mean, "fliers": []} for b in spec.boxes]
        if stats:
            ax.bxp(stats, showmeans=True)
        ax.set_ylabel(spec.y_label)
        if spec.integer:
            _whole_ticks(ax)
        ax.tick_params(axis="x", labelsize=7)
    elif isinstance(spec, fg.BarChart):
        labels = [b[0] for b in spec.bars]
        vals = [b[1] for b in spec.bars]
        colors = [fg.SERIES_STYLES[i % len(fg.SERIES_STYLES)].color for i in range(len(vals))]
        ax.barh(range(len(vals)), vals, color=colors)
        ax.set_yticks(range(len(vals)), labels, fontsize=7)
        ax.invert_yaxis()
        for i, v in enumerate(vals):
            ax.text(v, i, f" {100 * v:.1f}%" if spec.percent else f" {v:.3g}", va="center", fontsize=7)
        if spec.x_range:
            ax.set_xlim(*spec.x_range)
        ax.set_xlabel(spec.x_label)
    ax.grid(alpha=0.3)
    return _png(fig)


def _graph(plt: Any, spec: fg.GraphFigure) -> bytes:
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
    from matplotlib.path import Path as MplPath

    panels = spec.panels or ()
    total_w = sum(max(p.width, 120.0) for p in panels) + 28 * max(len(panels) - 1, 0) or 200.0
    max_h = max([p.height for p in panels] or [80.0])
    scale = 1 / 90
    fig, axes = plt.subplots(1, max(len(panels), 1), figsize=(max(total_w * scale, 3.0), max_h * scale + 1.2), squeeze=False)
    fig.suptitle(spec.title, fontsize=9)
    used_edges: list[str] = []
    for ax, p in zip(axes[0], panels, strict=False):
        if p.caption.lower() not in spec.title.lower():  # no caption that repeats the title
            ax.set_title(p.caption, fontsize=8)
        ax.set_xlim(0, max(p.width, 1.0))
        ax.set_ylim(max(p.height, 1.0), 0)
        ax.axis("off")
        for g in edge_geometry(p):
            st = fg.EDGE_STYLES[g.edge.style]
            if g.edge.style not in used_edges:
                used_edges.append(g.edge.style)
            path = MplPath([(g.x1, g.y1), (g.cx, g.cy), (g.x2, g.y2)] if g.bent else [(g.x1, g.y1), (g.x2, g.y2)],
                           [MplPath.MOVETO, MplPath.CURVE3, MplPath.CURVE3] if g.bent else [MplPath.MOVETO, MplPath.LINETO])
            heads = {"none": "-", "both": "<|-|>"}.get(st.arrow, "-|>")
            ax.add_patch(FancyArrowPatch(path=path, arrowstyle=heads, mutation_scale=9, color=st.color,
                                         linewidth=st.width * 0.8, linestyle=_dash(st.dash)))
            if st.glyph:
                mx, my = g.glyph
                ax.text(mx, my, st.glyph, color=st.color, fontsize=8, ha="center", va="center", fontweight="bold",
                        bbox={"boxstyle": "round,pad=0.05", "fc": "white", "ec": "none"})
        for n in p.nodes:
            ns = fg.NODE_STYLES[n.style]
            w = node_width(n.label)
            ax.add_patch(FancyBboxPatch((n.x - w / 2, n.y - NODE_HEIGHT / 2), w, NODE_HEIGHT, boxstyle="round,pad=0,rounding_size=5",
                                        fc=ns.fill, ec=ns.stroke, lw=ns.width))
            ax.text(n.x, n.y, n.label + (f" {ns.badge}" if ns.badge else ""), ha="center", va="center", fontsize=8)
    if used_edges:
        from matplotlib.lines import Line2D

        handles = [Line2D([0], [0], color=fg.EDGE_STYLES[k].color, linestyle=_dash(fg.EDGE_STYLES[k].dash), lw=fg.EDGE_STYLES[k].width)
                   for k in used_edges]
        labels = [f"{fg.EDGE_STYLES[k].glyph} {fg.EDGE_STYLES[k].legend}".strip() for k in used_edges]
        fig.legend(handles, labels, loc="lower center", ncol=min(3, len(labels)), fontsize=7, frameon=False)
    return _png(fig)
