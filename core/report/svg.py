"""A small SVG writer for the report's figures: crisp, compact, accessible, no dependency.

:func:`render` turns a figure specification (:mod:`causalcheck.report.figures`) into one
``<svg>`` element to inline in HTML.  Every SVG has ``role="img"`` and is labelled by its
own ``<title>`` and ``<desc>`` (``aria-labelledby``); every series, point, edge and node
has a ``<title>`` tooltip; legends name each style in words, and styles differ in dash
pattern, marker shape and a glyph as well as in colour.  Text is real ``<text>`` (it stays
selectable and searchable, and scales crisply); numbers are written with at most two
decimals, so a figure is a few kilobytes.

Ids inside a figure (arrow markers, title, desc) are prefixed with the figure id the caller
gives, so any number of figures can share one page.

>>> from causalcheck.report.figures import BarChart
>>> svg = render(BarChart("Rates", "Two bars.", "rate", (("a", 0.5), ("b", 1.0))), "f1")
>>> svg.startswith('<svg') and 'role="img"' in svg and "<title id=\\"f1-t\\">Rates</title>" in svg
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from causalcheck.report.figures import (
    EDGE_STYLES,
    NODE_STYLES,
    SERIES_STYLES,
    BarChart,
    BoxChart,
    Figure,
    GraphFigure,
    GraphPanel,
    LineChart,
    ScatterChart,
    SeriesStyle,
)
from causalcheck.report.layout import NODE_HEIGHT, edge_geometry, node_width

__all__ = ["FONT", "esc", "nice_ticks", "render"]

FONT = "system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif"
_W, _H = 460.0, 250.0
_ML, _MR, _MT, _MB = 54.0, 14.0, 30.0, 42.0


def esc(text: object) -> str:
    """*text* escaped for HTML/SVG text and attribute values."""
    return html.escape(str(text), quote=True)


def _n(v: float) -> str:
    """A coordinate with at most two decimals."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def nice_ticks(lo: float, hi: float, count: int = 5, *, integer: bool = False) -> list[float]:
    """Round tick values from at or below *lo* to at or above *hi* (whole numbers with *integer*).

    >>> nice_ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(0, 4.2)
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    >>> nice_ticks(1, 4, integer=True)
    [1.0, 2.0, 3.0, 4.0]
    """
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(count, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    if integer:
        step = max(1.0, float(math.ceil(step)))
    start = math.floor(lo / step + 1e-9) * step
    ticks = [round(start, 10)]
    while ticks[-1] < hi - step * 1e-6:
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def _fmt_tick(v: float) -> str:
    if abs(v) >= 1000:
        return f"{v:.3g}" if abs(v) < 1e5 else f"{v:.1e}"
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _open(fid: str, title: str, desc: str, w: float, h: float) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="fig" id="{fid}" role="img" aria-labelledby="{fid}-t {fid}-d" '
        f'viewBox="0 0 {_n(w)} {_n(h)}" width="{_n(w)}" height="{_n(h)}" font-family="{esc(FONT)}" font-size="11">',
        f'<title id="{fid}-t">{esc(title)}</title><desc id="{fid}-d">{esc(desc)}</desc>',
        f'<rect width="{_n(w)}" height="{_n(h)}" fill="#ffffff"/>',
    ]


def _marker(shape: str, x: float, y: float, r: float, color: str) -> str:
    X, Y = _n(x), _n(y)
    if shape == "square":
        return f'<rect x="{_n(x - r)}" y="{_n(y - r)}" width="{_n(2 * r)}" height="{_n(2 * r)}" fill="{color}"/>'
    if shape == "triangle":
        pts = f"{_n(x)},{_n(y - r * 1.2)} {_n(x - r * 1.1)},{_n(y + r * 0.8)} {_n(x + r * 1.1)},{_n(y + r * 0.8)}"
        return f'<polygon points="{pts}" fill="{color}"/>'
    if shape == "diamond":
        pts = f"{_n(x)},{_n(y - r * 1.3)} {_n(x + r * 1.3)},{Y} {_n(x)},{_n(y + r * 1.3)} {_n(x - r * 1.3)},{Y}"
        return f'<polygon points="{pts}" fill="{color}"/>'
    if shape == "cross":
        return (f'<path d="M{_n(x - r)} {_n(y - r)}L{_n(x + r)} {_n(y + r)}M{_n(x - r)} {_n(y + r)}L{_n(x + r)} {_n(y - r)}" '
                f'stroke="{color}" stroke-width="2.2"/>')
    if shape == "star":
        pts = " ".join(
            f"{_n(x + (r * 1.4 if k % 2 == 0 else r * 0.6) * math.sin(k * math.pi / 5))},"
            f"{_n(y - (r * 1.4 if k % 2 == 0 else r * 0.6) * math.cos(k * math.pi / 5))}"
            for k in range(10)
        )
        return f'<polygon points="{pts}" fill="{color}"/>'
    return f'<circle cx="{X}" cy="{Y}" r="{_n(r)}" fill="{color}"/>'


def _style(i: int) -> SeriesStyle:
    return SERIES_STYLES[i % len(SERIES_STYLES)]


def _series_legend(names: Sequence[str], x0: float, y0: float, width: float, line: bool) -> tuple[list[str], float]:
    """Legend entries laid out in rows from (x0, y0); returns the elements and the height used."""
    out: list[str] = []
    x, y = x0, y0
    for i, name in enumerate(names):
        st = _style(i)
        label = name if len(name) <= 28 else name[:27] + "…"
        w = 34 + 6.4 * len(label) + 14
        if x + w > x0 + width and x > x0:
            x, y = x0, y + 16
        if line:
            dash = f' stroke-dasharray="{st.dash}"' if st.dash else ""
            out.append(f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x + 26)}" y2="{_n(y)}" stroke="{st.color}" stroke-width="2"{dash}/>')
        out.append(_marker(st.marker, x + 13, y, 3.6, st.color))
        out.append(f'<text x="{_n(x + 32)}" y="{_n(y + 4)}">{esc(label)}</text>')
        x += w
    return out, (y - y0) + 16


class _Frame:
    """Plot area of a chart: data → pixel transforms, axes, ticks and grid."""

    def __init__(self, x_range: tuple[float, float], y_range: tuple[float, float], w: float = _W, h: float = _H) -> None:
        self.x0, self.x1 = x_range
        self.y0, self.y1 = y_range
        if self.x1 <= self.x0:
            self.x1 = self.x0 + 1
        if self.y1 <= self.y0:
            self.y1 = self.y0 + 1
        self.w, self.h = w, h

    def px(self, x: float) -> float:
        return _ML + (x - self.x0) / (self.x1 - self.x0) * (self.w - _ML - _MR)

    def py(self, y: float) -> float:
        return self.h - _MB - (y - self.y0) / (self.y1 - self.y0) * (self.h - _MT - _MB)

    def axes(self, x_label: str, y_label: str, xticks: Sequence[float], yticks: Sequence[float]) -> list[str]:
        out = []
        for t in yticks:
            y = self.py(t)
            out.append(f'<line x1="{_n(_ML)}" y1="{_n(y)}" x2="{_n(self.w - _MR)}" y2="{_n(y)}" stroke="#e3e3e3"/>')
            out.append(f'<text x="{_n(_ML - 6)}" y="{_n(y + 4)}" text-anchor="end" fill="#444">{_fmt_tick(t)}</text>')
        for t in xticks:
            x = self.px(t)
            out.append(f'<line x1="{_n(x)}" y1="{_n(self.h - _MB)}" x2="{_n(x)}" y2="{_n(self.h - _MB + 4)}" stroke="#444"/>')
            out.append(f'<text x="{_n(x)}" y="{_n(self.h - _MB + 16)}" text-anchor="middle" fill="#444">{_fmt_tick(t)}</text>')
        out.append(
            f'<path d="M{_n(_ML)} {_n(_MT - 4)}V{_n(self.h - _MB)}H{_n(self.w - _MR)}" fill="none" stroke="#444"/>'
        )
        out.append(f'<text x="{_n((_ML + self.w - _MR) / 2)}" y="{_n(self.h - 8)}" text-anchor="middle">{esc(x_label)}</text>')
        out.append(
            f'<text transform="translate(13 {_n((_MT + self.h - _MB) / 2)}) rotate(-90)" text-anchor="middle">{esc(y_label)}</text>'
        )
        return out


def _heading(title: str, w: float) -> str:
    return f'<text x="{_n(w / 2)}" y="17" text-anchor="middle" font-size="12.5" font-weight="600">{esc(title)}</text>'


def _line_chart(fig: LineChart, fid: str) -> str:
    xs = [p[0] for s in fig.series for p in s.points]
    ys = [p[1] for s in fig.series for p in s.points if p[1] is not None]
    x_range = (min(xs), max(xs)) if xs else (0.0, 1.0)
    if fig.y_range is not None:
        y_range = fig.y_range
    else:
        lo, hi = (min(ys), max(ys)) if ys else (0.0, 1.0)
        lo = min(lo, 0.0)
        yt = nice_ticks(lo, hi if hi > lo else lo + 1)
        y_range = (yt[0], yt[-1])
    legend, lh = _series_legend([s.name for s in fig.series], _ML, 0, _W - _ML - _MR, True)
    h = _H + lh
    frame = _Frame(x_range, y_range, _W, _H)
    whole = all(float(x).is_integer() for x in xs)
    xt = [t for t in nice_ticks(*x_range, count=6, integer=whole) if x_range[0] - 1e-9 <= t <= x_range[1] + 1e-9]
    yt = [t for t in nice_ticks(*y_range) if y_range[0] - 1e-9 <= t <= y_range[1] + 1e-9]
    out = _open(fid, fig.title, fig.desc, _W, h)
    out.append(_heading(fig.title, _W))
    out += frame.axes(fig.x_label, fig.y_label, xt, yt)
    for i, s in enumerate(fig.series):
        st = _style(i)
        dash = f' stroke-dasharray="{st.dash}"' if st.dash else ""
        segs: list[list[tuple[float, float]]] = [[]]
        prev_y: float | None = None
        for x, y in s.points:
            if y is None:
                segs.append([])
                prev_y = None
                continue
            if fig.step and prev_y is not None:
                segs[-1].append((frame.px(x), frame.py(prev_y)))
            segs[-1].append((frame.px(x), frame.py(y)))
            prev_y = y
        d = "".join(
            "M" + "L".join(f"{_n(px)} {_n(py)}" for px, py in seg) for seg in segs if seg
        )
        shown = [p for p in s.points if p[1] is not None]
        tip = f"{s.name}: {len(shown)} points" + (f", last {shown[-1][1]:.3g} at {shown[-1][0]:g}" if shown else "")
        out.append(f'<g><title>{esc(tip)}</title><path d="{d}" fill="none" stroke="{st.color}" stroke-width="2"{dash}/>')
        every = max(1, len(shown) // 12)
        for k, (x, y) in enumerate(shown):
            if k % every == 0 or k == len(shown) - 1:
                assert y is not None
                out.append(_marker(st.marker, frame.px(x), frame.py(y), 3.2, st.color))
        out.append("</g>")
    out += [f'<g transform="translate(0 {_n(_H + 4)})">', *legend, "</g>", "</svg>"]
    return "".join(out)


def _scatter(fig: ScatterChart, fid: str) -> str:
    names: list[str] = []
    for p in fig.points:
        if p.series not in names:
            names.append(p.series)
    legend, lh = _series_legend(names, _ML, 0, _W - _ML - _MR, False)
    h = _H + lh
    frame = _Frame(fig.x_range, fig.y_range)
    xt = nice_ticks(*fig.x_range)
    yt = nice_ticks(*fig.y_range)
    out = _open(fid, fig.title, fig.desc, _W, h)
    out.append(_heading(fig.title, _W))
    out += frame.axes(fig.x_label, fig.y_label, xt, yt)
    for p in fig.points:
        st = _style(names.index(p.series))
        x, y = frame.px(p.x), frame.py(p.y)
        tip = f"{p.label}: {fig.x_label} {p.x:.3f}, {fig.y_label} {p.y:.3f}"
        parts = [f"<g><title>{esc(tip)}</title>"]
        if p.x_interval:
            parts.append(f'<line x1="{_n(frame.px(p.x_interval[0]))}" y1="{_n(y)}" x2="{_n(frame.px(p.x_interval[1]))}" y2="{_n(y)}" stroke="{st.color}" stroke-width="1.2"/>')
        if p.y_interval:
            parts.append(f'<line x1="{_n(x)}" y1="{_n(frame.py(p.y_interval[0]))}" x2="{_n(x)}" y2="{_n(frame.py(p.y_interval[1]))}" stroke="{st.color}" stroke-width="1.2"/>')
        parts.append(_marker(st.marker, x, y, 5.0, st.color))
        parts.append("</g>")
        out.append("".join(parts))
    out += [f'<g transform="translate(0 {_n(_H + 4)})">', *legend, "</g>", "</svg>"]
    return "".join(out)


def _boxes(fig: BoxChart, fid: str) -> str:
    lo = min([0.0, *(b.minimum for b in fig.boxes)])
    hi = max([1.0, *(b.maximum for b in fig.boxes)])
    yt = nice_ticks(lo, hi)
    w = max(_W, _ML + _MR + 70.0 * len(fig.boxes))
    frame = _Frame((0.0, float(max(len(fig.boxes), 1))), (yt[0], yt[-1]), w, _H)
    out = _open(fid, fig.title, fig.desc, w, _H)
    out.append(_heading(fig.title, w))
    out += frame.axes("", fig.y_label, [], yt)
    for i, b in enumerate(fig.boxes):
        st = _style(i)
        cx = frame.px(i + 0.5)
        half = min(22.0, (frame.px(1) - frame.px(0)) * 0.3)
        tip = (f"{b.label}: n={b.n}, min {b.minimum:g}, Q1 {b.q1:g}, median {b.median:g}, Q3 {b.q3:g}, "
               f"max {b.maximum:g}, mean {b.mean:.2f}")
        out.append(f"<g><title>{esc(tip)}</title>")
        out.append(f'<line x1="{_n(cx)}" y1="{_n(frame.py(b.minimum))}" x2="{_n(cx)}" y2="{_n(frame.py(b.maximum))}" stroke="#333"/>')
        for v in (b.minimum, b.maximum):
            out.append(f'<line x1="{_n(cx - half / 2)}" y1="{_n(frame.py(v))}" x2="{_n(cx + half / 2)}" y2="{_n(frame.py(v))}" stroke="#333"/>')
        top, bottom = frame.py(b.q3), frame.py(b.q1)
        out.append(f'<rect x="{_n(cx - half)}" y="{_n(top)}" width="{_n(2 * half)}" height="{_n(max(bottom - top, 1.0))}" '
                   f'fill="{st.color}" fill-opacity="0.25" stroke="{st.color}" stroke-width="1.5"/>')
        out.append(f'<line x1="{_n(cx - half)}" y1="{_n(frame.py(b.median))}" x2="{_n(cx + half)}" y2="{_n(frame.py(b.median))}" stroke="#111" stroke-width="2.2"/>')
        out.append(_marker("diamond", cx, frame.py(b.mean), 3.2, "#111"))
        label = b.label if len(b.label) <= 14 else b.label[:13] + "…"
        out.append(f'<text x="{_n(cx)}" y="{_n(_H - _MB + 16)}" text-anchor="middle">{esc(label)}</text>')
        out.append("</g>")
    out.append(f'<text x="{_n(w - _MR)}" y="{_n(_H - 6)}" text-anchor="end" fill="#555">box: quartiles; bar: median; ◆ mean; whiskers: min–max</text>')
    out.append("</svg>")
    return "".join(out)


def _bars(fig: BarChart, fid: str) -> str:
    label_w = min(180.0, 12 + 6.4 * max([len(b[0]) for b in fig.bars] or [4]))
    row = 22.0
    h = _MT + row * len(fig.bars) + 40
    vals = [v for _, v in fig.bars]
    x_range = fig.x_range or (min([0.0, *vals]), max([1e-9, *vals]))
    plot_l, plot_r = label_w + 10, _W - 50
    out = _open(fid, fig.title, fig.desc, _W, h)
    out.append(_heading(fig.title, _W))

    def px(v: float) -> float:
        return plot_l + (v - x_range[0]) / ((x_range[1] - x_range[0]) or 1.0) * (plot_r - plot_l)

    for i, (name, v) in enumerate(fig.bars):
        st = _style(i)
        y = _MT + i * row
        shown = f"{100 * v:.1f}%" if fig.percent else f"{v:.3g}"
        label = name if len(name) <= 28 else name[:27] + "…"
        out.append(f"<g><title>{esc(name)}: {shown}</title>")
        out.append(f'<text x="{_n(label_w)}" y="{_n(y + 14)}" text-anchor="end">{esc(label)}</text>')
        out.append(f'<rect x="{_n(px(min(0.0, v)))}" y="{_n(y + 3)}" width="{_n(max(abs(px(v) - px(0.0)), 1.0))}" height="{_n(row - 6)}" fill="{st.color}"/>')
        out.append(f'<text x="{_n(max(px(v), px(0.0)) + 4)}" y="{_n(y + 14)}">{shown}</text></g>')
    axis_y = _MT + row * len(fig.bars) + 2
    out.append(f'<line x1="{_n(plot_l)}" y1="{_n(axis_y)}" x2="{_n(plot_r)}" y2="{_n(axis_y)}" stroke="#444"/>')
    out.append(f'<text x="{_n((plot_l + plot_r) / 2)}" y="{_n(axis_y + 18)}" text-anchor="middle">{esc(fig.x_label)}</text>')
    out.append("</svg>")
    return "".join(out)


# ------------------------------------------------------------------------------- graphs


def _panel(p: GraphPanel, fid: str, ox: float, oy: float) -> list[str]:
    out = [f'<g transform="translate({_n(ox)} {_n(oy)})">']
    out.append(f'<text x="{_n(p.width / 2)}" y="-6" text-anchor="middle" font-weight="600">{esc(p.caption)}</text>')
    half = {n.id: (node_width(n.label) / 2, NODE_HEIGHT / 2) for n in p.nodes}
    glyphs: list[str] = []
    for g in edge_geometry(p):
        e = g.edge
        st = EDGE_STYLES[e.style]
        x1, y1, mx, my, x2, y2, bow = g.x1, g.y1, g.cx, g.cy, g.x2, g.y2, g.bent
        dash = f' stroke-dasharray="{st.dash}"' if st.dash else ""
        d = (f"M{_n(x1)} {_n(y1)}Q{_n(mx)} {_n(my)} {_n(x2)} {_n(y2)}" if bow else f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}")
        out.append(
            f'<g><title>{esc(e.tooltip)}</title><path d="{d}" fill="none" stroke="{st.color}" stroke-width="{_n(st.width)}"{dash} '
            f'marker-end="url(#{fid}-a-{e.style})"/></g>'
        )
        if st.glyph:
            gx, gy = g.middle
            glyphs.append(
                f'<text x="{_n(gx)}" y="{_n(gy + 4)}" text-anchor="middle" font-size="12" font-weight="700" fill="{st.color}" '
                f'stroke="#fff" stroke-width="3" paint-order="stroke" aria-hidden="true">{esc(st.glyph)}</text>'
            )
    for n in p.nodes:
        ns = NODE_STYLES[n.style]
        hw, hh = half[n.id]
        out.append(
            f'<g><title>{esc(n.tooltip)}</title><rect x="{_n(n.x - hw)}" y="{_n(n.y - hh)}" width="{_n(2 * hw)}" height="{_n(2 * hh)}" rx="6" '
            f'fill="{ns.fill}" stroke="{ns.stroke}" stroke-width="{_n(ns.width)}"/>'
            f'<text x="{_n(n.x)}" y="{_n(n.y + 4)}" text-anchor="middle">{esc(n.label)}</text>'
        )
        if ns.badge:
            out.append(
                f'<circle cx="{_n(n.x + hw - 2)}" cy="{_n(n.y - hh + 1)}" r="6" fill="{ns.stroke}"/>'
                f'<text x="{_n(n.x + hw - 2)}" y="{_n(n.y - hh + 5)}" text-anchor="middle" fill="#fff" font-weight="700" font-size="10">{esc(ns.badge)}</text>'
            )
        out.append("</g>")
    out += glyphs
    out.append("</g>")
    return out


def _graph(fig: GraphFigure, fid: str) -> str:
    gap = 28.0
    top = 40.0
    widths = [max(p.width, 120.0) for p in fig.panels]
    w = sum(widths) + gap * (len(fig.panels) - 1) + 16
    body_h = max([p.height for p in fig.panels] or [40.0])
    edge_kinds = sorted({e.style for p in fig.panels for e in p.edges}, key=list(EDGE_STYLES).index)
    node_kinds = sorted({n.style for p in fig.panels for n in p.nodes} - {"plain"}, key=list(NODE_STYLES).index)
    entries = [(k, EDGE_STYLES[k].legend) for k in edge_kinds] + [("node:" + k, NODE_STYLES[k].legend) for k in node_kinds]
    w = max(w, 300.0, 16 + 7.2 * len(fig.title))
    # legend rows
    legend: list[str] = []
    x, y = 8.0, 0.0
    for key, text in entries:
        ew = 58 + 6.2 * len(text)
        if x + ew > w and x > 8:
            x, y = 8.0, y + 18
        if key.startswith("node:"):
            ns = NODE_STYLES[key[5:]]
            legend.append(f'<rect x="{_n(x)}" y="{_n(y - 7)}" width="30" height="14" rx="4" fill="{ns.fill}" stroke="{ns.stroke}" stroke-width="{_n(ns.width)}"/>')
            if ns.badge:
                legend.append(f'<text x="{_n(x + 15)}" y="{_n(y + 4)}" text-anchor="middle" font-weight="700" fill="{ns.stroke}">{esc(ns.badge)}</text>')
        else:
            st = EDGE_STYLES[key]
            dash = f' stroke-dasharray="{st.dash}"' if st.dash else ""
            legend.append(f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x + 34)}" y2="{_n(y)}" stroke="{st.color}" stroke-width="{_n(st.width)}"{dash} marker-end="url(#{fid}-a-{key})"/>')
            if st.glyph:
                legend.append(f'<text x="{_n(x + 44)}" y="{_n(y + 4)}" text-anchor="middle" font-weight="700" fill="{st.color}">{esc(st.glyph)}</text>')
        legend.append(f'<text x="{_n(x + 54)}" y="{_n(y + 4)}">{esc(text)}</text>')
        x += ew
    legend_h = y + 18 if entries else 0
    h = top + body_h + 12 + legend_h
    out = _open(fid, fig.title, fig.desc, w, h)
    defs = ["<defs>"]
    for k in edge_kinds:
        st = EDGE_STYLES[k]
        defs.append(
            f'<marker id="{fid}-a-{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            f'markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="{st.color}"/></marker>'
        )
    defs.append("</defs>")
    out += defs
    out.append(f'<text x="8" y="17" font-size="12.5" font-weight="600">{esc(fig.title)}</text>')
    ox = 8.0
    for p, pw in zip(fig.panels, widths, strict=True):
        out += _panel(p, fid, ox + (pw - p.width) / 2, top)
        ox += pw + gap
    if entries:
        out.append(f'<g transform="translate(0 {_n(top + body_h + 18)})">')
        out += legend
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def render(fig: Figure, fid: str) -> str:
    """The ``<svg>`` element of *fig*; *fid* prefixes every id inside it (unique per page)."""
    if isinstance(fig, LineChart):
        return _line_chart(fig, fid)
    if isinstance(fig, ScatterChart):
        return _scatter(fig, fid)
    if isinstance(fig, BoxChart):
        return _boxes(fig, fid)
    if isinstance(fig, BarChart):
        return _bars(fig, fid)
    return _graph(fig, fid)
