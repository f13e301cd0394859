"""A small SVG writer for the report's figures: crisp, compact, accessible, no dependency.

:func:`render` turns a figure specification (:mod:`causalcheck.report.figures`) into one
``<svg>`` element to inline in HTML.  Every SVG has ``role="img"`` and is labelled by its
own ``<title>`` and ``<desc>`` (``aria-labelledby``); every series, point, edge and node
has a ``<title>`` tooltip; legends name each style in words, and styles differ in dash
pattern, marker shape and a glyph as well as in colour.  Text is real ``<text>`` (it stays
selectable and searchable, and scales crisply); numbers are written with at most two
decimals, so a figure is a few kilobytes.

Ids inside a figure (arrow markers, title, desc) are prefixed with the figure id the caller
gives, so any number of figures can share one page.  Figures are sized from the drawn width
of their text (:func:`causalcheck.report.text.text_width`): titles, legends and labels fit
inside their figure and legend entries never run into each other; the parts a test looks
for carry classes (``legend-item``, ``tick``, ``node-label``, ``glyph``; a count axis is
``axis count``).

>>> from causalcheck.report.figures import BarChart
>>> svg = render(BarChart("Rates", "Two bars.", "rate", (("a", 0.5), ("b", 1.0))), "f1")
>>> svg.startswith('<svg') and 'role="img"' in svg and "<title id=\\"f1-t\\">Rates</title>" in svg
True
"""

from __future__ import annotations

import html
import math
import re
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
from causalcheck.report.layout import (
    GLYPH_SIZE,
    NODE_FONT,
    NODE_HEIGHT,
    EdgeGeometry,
    edge_geometry,
    node_width,
    panel_bounds,
)
from causalcheck.report.text import text_width

__all__ = ["FONT", "MAX_FIGURE_WIDTH", "esc", "nice_ticks", "render", "wrap_label"]

FONT = "system-ui, -apple-system, 'Segoe UI', 'DejaVu Sans', sans-serif"
#: Widest figure (px): graph panels beyond it go on the next row (the page's column is wider).
MAX_FIGURE_WIDTH = 1080.0
_W, _H = 460.0, 250.0
_ML, _MR, _MT, _MB = 54.0, 14.0, 30.0, 42.0
_PAD = 8.0  # data drawn this far inside the axes, so no point sits half on an axis
_FS = 11.0  # chart text size (px)
_LONGEST = 60  # characters of a legend label drawn in full (the tooltip has all)


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


def _ticks_within(lo: float, hi: float) -> list[float]:
    """The :func:`nice_ticks` of [lo, hi] that lie in it (an axis padded past its bounds shows no tick beyond them).

    >>> _ticks_within(-0.05, 1.05)
    [0.0, 0.25, 0.5, 0.75, 1.0]
    """
    inside = [t for t in nice_ticks(lo, hi) if lo - 1e-9 <= t <= hi + 1e-9]
    return inside or nice_ticks(lo, hi)


def _fmt_tick(v: float) -> str:
    if abs(v) >= 1000:
        return f"{v:.3g}" if abs(v) < 1e5 else f"{v:.1e}"
    return f"{v:.2f}".rstrip("0").rstrip(".") if v != int(v) else str(int(v))


def _open(fid: str, title: str, desc: str, w: float, h: float) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="fig" id="{fid}" role="img" aria-labelledby="{fid}-t {fid}-d" '
        f'viewBox="0 0 {_n(w)} {_n(h)}" width="{_n(w)}" height="{_n(h)}" font-family="{esc(FONT)}" font-size="{_n(_FS)}">',
        f'<title id="{fid}-t">{esc(title)}</title><desc id="{fid}-d">{esc(desc)}</desc>',
        f'<rect width="{_n(w)}" height="{_n(h)}" fill="#ffffff"/>',
    ]


def wrap_label(text: str, width: float, size: float = _FS, lines: int = 3) -> list[str]:
    """*text* in at most *lines* lines of at most *width* px, broken after spaces, "/", "-", "_" or "·"
    (the last line is shortened with "…" only when even that does not fit).

    >>> wrap_label("gpt-5-mini / judge", 80)
    ['gpt-5-mini /', 'judge']
    """
    parts = [p for p in re.split(r"(?<=[ /_·-])", text) if p]
    out: list[str] = []
    for part in parts:
        if out and text_width(out[-1] + part, size) <= width:
            out[-1] += part
        else:
            out.append(part)
    out = [o.strip() for o in out if o.strip()] or [text]
    if len(out) > lines:
        out = [*out[: lines - 1], " ".join(out[lines - 1 :])]
    last = out[-1]
    while len(last) > 1 and text_width(last, size) > width:
        last = last[:-2] + "…"
    return [*out[:-1], last]


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


def _legend_label(name: str) -> str:
    return name if len(name) <= _LONGEST else name[: _LONGEST - 1] + "…"


def _series_legend(names: Sequence[str], x0: float, y0: float, width: float, line: bool) -> tuple[list[str], float]:
    """Legend entries laid out in rows from (x0, y0); returns the elements and the height used.

    Each entry is as wide as its drawn label; a label is shown in full up to 60 characters.
    """
    out: list[str] = []
    x, y = x0, y0
    for i, name in enumerate(names):
        st = _style(i)
        label = _legend_label(name)
        w = 32 + text_width(label, _FS) + 16
        if x + w > x0 + width and x > x0:
            x, y = x0, y + 16
        parts = [f'<g class="legend-item"><title>{esc(name)}</title>']
        if line:
            dash = f' stroke-dasharray="{st.dash}"' if st.dash else ""
            parts.append(f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x + 26)}" y2="{_n(y)}" stroke="{st.color}" stroke-width="2"{dash}/>')
        parts.append(_marker(st.marker, x + 13, y, 3.6, st.color))
        parts.append(f'<text x="{_n(x + 32)}" y="{_n(y + 4)}">{esc(label)}</text></g>')
        out.append("".join(parts))
        x += w
    return out, (y - y0) + 16


def _legend_width(names: Sequence[str]) -> float:
    """The width the widest single legend entry needs (a chart is at least that wide)."""
    return max([32 + text_width(_legend_label(n), _FS) + 16 for n in names] or [0.0])


class _Frame:
    """Plot area of a chart: data → pixel transforms (inset by a few pixels), axes, ticks and grid."""

    def __init__(self, x_range: tuple[float, float], y_range: tuple[float, float], w: float = _W, h: float = _H,
                 *, count: bool = False) -> None:
        self.x0, self.x1 = x_range
        self.y0, self.y1 = y_range
        if self.x1 <= self.x0:
            self.x1 = self.x0 + 1
        if self.y1 <= self.y0:
            self.y1 = self.y0 + 1
        self.w, self.h = w, h
        self.count = count

    def px(self, x: float) -> float:
        return _ML + _PAD + (x - self.x0) / (self.x1 - self.x0) * (self.w - _ML - _MR - 2 * _PAD)

    def py(self, y: float) -> float:
        return self.h - _MB - _PAD - (y - self.y0) / (self.y1 - self.y0) * (self.h - _MT - _MB - 2 * _PAD)

    def axes(self, x_label: str, y_label: str, xticks: Sequence[float], yticks: Sequence[float]) -> list[str]:
        out = [f'<g class="axis y{" count" if self.count else ""}">']
        for t in yticks:
            y = self.py(t)
            out.append(f'<line x1="{_n(_ML)}" y1="{_n(y)}" x2="{_n(self.w - _MR)}" y2="{_n(y)}" stroke="#e3e3e3"/>')
            out.append(f'<text class="tick" x="{_n(_ML - 6)}" y="{_n(y + 4)}" text-anchor="end" fill="#444">{_fmt_tick(t)}</text>')
        out.append('</g><g class="axis x">')
        for t in xticks:
            x = self.px(t)
            out.append(f'<line x1="{_n(x)}" y1="{_n(self.h - _MB)}" x2="{_n(x)}" y2="{_n(self.h - _MB + 4)}" stroke="#444"/>')
            out.append(f'<text class="tick" x="{_n(x)}" y="{_n(self.h - _MB + 16)}" text-anchor="middle" fill="#444">{_fmt_tick(t)}</text>')
        out.append("</g>")
        out.append(
            f'<path d="M{_n(_ML)} {_n(_MT - 4)}V{_n(self.h - _MB)}H{_n(self.w - _MR)}" fill="none" stroke="#444"/>'
        )
        if x_label:
            out.append(f'<text x="{_n((_ML + self.w - _MR) / 2)}" y="{_n(self.h - 8)}" text-anchor="middle">{esc(x_label)}</text>')
        out.append(
            f'<text transform="translate(13 {_n((_MT + self.h - _MB) / 2)}) rotate(-90)" text-anchor="middle">{esc(y_label)}</text>'
        )
        return out


def _heading(title: str, w: float) -> str:
    return f'<text x="{_n(w / 2)}" y="17" text-anchor="middle" font-size="12.5" font-weight="600">{esc(title)}</text>'


def _chart_width(title: str, names: Sequence[str] = ()) -> float:
    """A chart's width: the usual one, or wider when its title or a legend entry needs it."""
    return max(_W, text_width(title, 12.5, bold=True) + 24, _ML + _MR + _legend_width(names))


def _line_chart(fig: LineChart, fid: str) -> str:
    xs = [p[0] for s in fig.series for p in s.points]
    ys = [p[1] for s in fig.series for p in s.points if p[1] is not None]
    x_range = (min(xs), max(xs)) if xs else (0.0, 1.0)
    if fig.y_range is not None:
        y_range = fig.y_range
    else:
        lo, hi = (min(ys), max(ys)) if ys else (0.0, 1.0)
        lo = min(lo, 0.0)
        yt = nice_ticks(lo, hi if hi > lo else lo + 1, integer=fig.integer)
        y_range = (yt[0], yt[-1])
    w = _chart_width(fig.title, [s.name for s in fig.series])
    legend, lh = _series_legend([s.name for s in fig.series], _ML, 0, w - _ML - _MR, True)
    h = _H + lh
    frame = _Frame(x_range, y_range, w, _H, count=fig.integer)
    whole = all(float(x).is_integer() for x in xs)
    xt = [t for t in nice_ticks(*x_range, count=6, integer=whole) if x_range[0] - 1e-9 <= t <= x_range[1] + 1e-9]
    yt = [t for t in nice_ticks(*y_range, integer=fig.integer) if y_range[0] - 1e-9 <= t <= y_range[1] + 1e-9]
    out = _open(fid, fig.title, fig.desc, w, h)
    out.append(_heading(fig.title, w))
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
    w = _chart_width(fig.title, names)
    legend, lh = _series_legend(names, _ML, 0, w - _ML - _MR, False)
    h = _H + lh
    frame = _Frame(fig.x_range, fig.y_range, w, _H)
    xt = _ticks_within(*fig.x_range)
    yt = _ticks_within(*fig.y_range)
    out = _open(fid, fig.title, fig.desc, w, h)
    out.append(_heading(fig.title, w))
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
    """Box plots side by side; each box's slot is as wide as its label needs (up to 3 lines of 170 px)."""
    lo = min([0.0, *(b.minimum for b in fig.boxes)])
    hi = max([1.0, *(b.maximum for b in fig.boxes)])
    yt = nice_ticks(lo, hi, integer=fig.integer)
    labels = [wrap_label(b.label, 170.0) for b in fig.boxes]
    slots = [max(70.0, max(text_width(line, _FS) for line in lines) + 14) for lines in labels]
    extra = 13.0 * (max([len(lines) for lines in labels] or [1]) - 1)
    note = "box: quartiles; bar: median; ◆ mean; whiskers: min–max"
    w = max(_W, _ML + _MR + 2 * _PAD + sum(slots), text_width(note, _FS) + _ML + _MR, text_width(fig.title, 12.5, bold=True) + 24)
    h = _H + extra
    frame = _Frame((0.0, 1.0), (yt[0], yt[-1]), w, _H, count=fig.integer)
    inner = w - _ML - _MR - 2 * _PAD
    scale = inner / (sum(slots) or 1.0)
    out = _open(fid, fig.title, fig.desc, w, h)
    out.append(_heading(fig.title, w))
    out += frame.axes("", fig.y_label, [], yt)
    left = _ML + _PAD
    for i, b in enumerate(fig.boxes):
        st = _style(i)
        slot = slots[i] * scale
        cx = left + slot / 2
        left += slot
        half = min(22.0, slot * 0.3)
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
        for k, line in enumerate(labels[i]):
            out.append(f'<text class="label" x="{_n(cx)}" y="{_n(_H - _MB + 16 + 13 * k)}" text-anchor="middle">{esc(line)}</text>')
        out.append("</g>")
    out.append(f'<text x="{_n(w - _MR)}" y="{_n(h - 6)}" text-anchor="end" fill="#555">{note}</text>')
    out.append("</svg>")
    return "".join(out)


def _bars(fig: BarChart, fid: str) -> str:
    labels = [_legend_label(b[0]) for b in fig.bars]
    label_w = 12 + max([text_width(lab, _FS) for lab in labels] or [24.0])
    row = 22.0
    h = _MT + row * len(fig.bars) + 40
    vals = [v for _, v in fig.bars]
    x_range = fig.x_range or (min([0.0, *vals]), max([1e-9, *vals]))
    w = max(_W, label_w + 10 + 260 + 56, text_width(fig.title, 12.5, bold=True) + 24)
    plot_l, plot_r = label_w + 10, w - 56
    out = _open(fid, fig.title, fig.desc, w, h)
    out.append(_heading(fig.title, w))

    def px(v: float) -> float:
        return plot_l + (v - x_range[0]) / ((x_range[1] - x_range[0]) or 1.0) * (plot_r - plot_l)

    for i, (name, v) in enumerate(fig.bars):
        st = _style(i)
        y = _MT + i * row
        shown = f"{100 * v:.1f}%" if fig.percent else f"{v:.3g}"
        out.append(f"<g><title>{esc(name)}: {shown}</title>")
        out.append(f'<text class="label" x="{_n(label_w)}" y="{_n(y + 14)}" text-anchor="end">{esc(labels[i])}</text>')
        out.append(f'<rect x="{_n(px(min(0.0, v)))}" y="{_n(y + 3)}" width="{_n(max(abs(px(v) - px(0.0)), 1.0))}" height="{_n(row - 6)}" fill="{st.color}"/>')
        out.append(f'<text x="{_n(max(px(v), px(0.0)) + 4)}" y="{_n(y + 14)}">{shown}</text></g>')
    axis_y = _MT + row * len(fig.bars) + 2
    out.append(f'<line x1="{_n(plot_l)}" y1="{_n(axis_y)}" x2="{_n(plot_r)}" y2="{_n(axis_y)}" stroke="#444"/>')
    out.append(f'<text x="{_n((plot_l + plot_r) / 2)}" y="{_n(axis_y + 18)}" text-anchor="middle">{esc(fig.x_label)}</text>')
    out.append("</svg>")
    return "".join(out)


# ------------------------------------------------------------------------------- graphs


def _heads(arrow: str, fid: str, style: str) -> str:
    """The marker attributes of an edge drawn with arrowheads *arrow* (``end`` / ``both`` / ``none``)."""
    end = f'marker-end="url(#{fid}-a-{style})"'
    return {"none": "", "both": f'marker-start="url(#{fid}-a-{style})" {end}'}.get(arrow, end)


def _edges_svg(geometry: Sequence[EdgeGeometry], fid: str) -> tuple[list[str], list[str]]:
    """The edge paths and (to draw above the nodes) their glyphs."""
    lines: list[str] = []
    glyphs: list[str] = []
    for g in geometry:
        e = g.edge
        st = EDGE_STYLES[e.style]
        dash = f' stroke-dasharray="{st.dash}"' if st.dash else ""
        d = (f"M{_n(g.x1)} {_n(g.y1)}Q{_n(g.cx)} {_n(g.cy)} {_n(g.x2)} {_n(g.y2)}" if g.bent
             else f"M{_n(g.x1)} {_n(g.y1)}L{_n(g.x2)} {_n(g.y2)}")
        lines.append(
            f'<g><title>{esc(e.tooltip)}</title><path class="edge" d="{d}" fill="none" stroke="{st.color}" stroke-width="{_n(st.width)}"{dash} '
            f'{_heads(st.arrow, fid, e.style)}/></g>'
        )
        if st.glyph:
            gx, gy = g.glyph
            glyphs.append(
                f'<text class="glyph" x="{_n(gx)}" y="{_n(gy + GLYPH_SIZE * 0.36)}" text-anchor="middle" font-size="{_n(GLYPH_SIZE)}" '
                f'font-weight="700" fill="{st.color}" stroke="#fff" stroke-width="3" paint-order="stroke" aria-hidden="true">{esc(st.glyph)}</text>'
            )
    return lines, glyphs


def _panel(p: GraphPanel, geometry: Sequence[EdgeGeometry], fid: str, ox: float, oy: float, caption: str,
           cap_y: float = -8.0) -> list[str]:
    """One panel drawn with its top-left corner at (ox, oy); *caption* (may be empty) centred above it, at *cap_y*."""
    out = [f'<g transform="translate({_n(ox)} {_n(oy)})">']
    if caption:
        out.append(f'<text class="caption" x="{_n(p.width / 2)}" y="{_n(cap_y)}" text-anchor="middle" font-weight="600">{esc(caption)}</text>')
    lines, glyphs = _edges_svg(geometry, fid)
    out += lines
    for n in p.nodes:
        ns = NODE_STYLES[n.style]
        hw, hh = node_width(n.label) / 2, NODE_HEIGHT / 2
        out.append(
            f'<g><title>{esc(n.tooltip)}</title><rect x="{_n(n.x - hw)}" y="{_n(n.y - hh)}" width="{_n(2 * hw)}" height="{_n(2 * hh)}" rx="6" '
            f'fill="{ns.fill}" stroke="{ns.stroke}" stroke-width="{_n(ns.width)}"/>'
            f'<text class="node-label" x="{_n(n.x)}" y="{_n(n.y + NODE_FONT * 0.36)}" text-anchor="middle" font-size="{_n(NODE_FONT)}">{esc(n.label)}</text>'
        )
        if ns.badge:
            out.append(
                f'<circle cx="{_n(n.x + hw - 2)}" cy="{_n(n.y - hh + 1)}" r="6" fill="{ns.stroke}"/>'
                f'<text x="{_n(n.x + hw - 2)}" y="{_n(n.y - hh + 5)}" text-anchor="middle" fill="#fff" font-weight="700" font-size="10" aria-hidden="true">{esc(ns.badge)}</text>'
            )
        out.append("</g>")
    out += glyphs
    out.append("</g>")
    return out


def _legend_entries(fig: GraphFigure) -> list[tuple[str, str]]:
    edge_kinds = sorted({e.style for p in fig.panels for e in p.edges}, key=list(EDGE_STYLES).index)
    node_kinds = sorted({n.style for p in fig.panels for n in p.nodes} - {"plain"}, key=list(NODE_STYLES).index)
    return [(k, EDGE_STYLES[k].legend) for k in edge_kinds] + [("node:" + k, NODE_STYLES[k].legend) for k in node_kinds]


def _graph_legend(entries: Sequence[tuple[str, str]], fid: str, width: float) -> tuple[list[str], float]:
    """Legend rows (sample, glyph, words) within *width*; returns the elements and the height used."""
    legend: list[str] = []
    x, y = 8.0, 0.0
    for key, text in entries:
        ew = 56 + text_width(text, _FS) + 24  # sample (34) and glyph (14) and gap, the words, the gap to the next entry
        if x + ew > width and x > 8:
            x, y = 8.0, y + 18
        parts = ['<g class="legend-item">']
        if key.startswith("node:"):
            ns = NODE_STYLES[key[5:]]
            parts.append(f'<rect x="{_n(x)}" y="{_n(y - 7)}" width="30" height="14" rx="4" fill="{ns.fill}" stroke="{ns.stroke}" stroke-width="{_n(ns.width)}"/>')
            if ns.badge:
                parts.append(f'<text x="{_n(x + 15)}" y="{_n(y + 4)}" text-anchor="middle" font-weight="700" fill="{ns.stroke}">{esc(ns.badge)}</text>')
        else:
            st = EDGE_STYLES[key]
            dash = f' stroke-dasharray="{st.dash}"' if st.dash else ""
            parts.append(f'<line x1="{_n(x)}" y1="{_n(y)}" x2="{_n(x + 34)}" y2="{_n(y)}" stroke="{st.color}" stroke-width="{_n(st.width)}"{dash} '
                         f'{_heads(st.arrow, fid, key)}/>')
            if st.glyph:
                parts.append(f'<text x="{_n(x + 45)}" y="{_n(y + 4)}" text-anchor="middle" font-weight="700" fill="{st.color}">{esc(st.glyph)}</text>')
        parts.append(f'<text x="{_n(x + 56)}" y="{_n(y + 4)}">{esc(text)}</text></g>')
        legend.append("".join(parts))
        x += ew
    return legend, (y + 18 if entries else 0.0)


def _placed_panels(
    fig: GraphFigure, captions: Sequence[str]
) -> tuple[list[tuple[GraphPanel, list[EdgeGeometry], float, float, float]], float, float]:
    """Every panel with its edges, its origin and the height of its caption (in its own coordinates), in rows
    no wider than :data:`MAX_FIGURE_WIDTH`; the width and height used.  All panels share one top, so the
    rows of nodes of side-by-side panels line up even when an edge of one arcs above its first row."""
    gap, cap_h = 28.0, (22.0 if any(captions) else 0.0)
    placed: list[tuple[GraphPanel, list[EdgeGeometry], float, float, float]] = []
    drawn = [(p, edge_geometry(p)) for p in fig.panels]
    bounds = [panel_bounds(p, g) for p, g in drawn]
    top = min([b[1] for b in bounds] or [0.0])
    x, y, row_h, width = 8.0, cap_h, 0.0, 0.0
    for (p, geometry), (left, _, right, bottom), caption in zip(drawn, bounds, captions, strict=True):
        pw = max(right - left, text_width(caption, _FS, bold=True) + 8, 120.0 if len(fig.panels) > 1 else 0.0)
        if x > 8.0 and x + pw > MAX_FIGURE_WIDTH:
            x, y, row_h = 8.0, y + row_h + cap_h + 12, 0.0
        shift = (pw - (right - left)) / 2
        placed.append((p, geometry, x - left + shift, y - top, top - 8))
        x += pw + gap
        width = max(width, x - gap)
        row_h = max(row_h, bottom - top)
    return placed, width + 8.0, y + row_h


def _graph(fig: GraphFigure, fid: str) -> str:
    """Graph panels (several in rows, each with its caption; one with its caption as the figure's subtitle)."""
    single = len(fig.panels) == 1
    subtitle = fig.panels[0].caption if single else ""
    if subtitle and subtitle.lower() in fig.title.lower():
        subtitle = ""  # the title says it already
    captions = [""] * len(fig.panels) if single else [p.caption for p in fig.panels]
    top = 46.0 if subtitle else 30.0
    placed, body_w, body_h = _placed_panels(fig, captions)
    entries = _legend_entries(fig)
    w = max(body_w, 300.0, 16 + text_width(fig.title, 13, bold=True), 16 + text_width(subtitle, _FS))
    w = max(w, min(MAX_FIGURE_WIDTH, 8 + max([56 + text_width(t, _FS) + 24 for _, t in entries] or [0.0])))
    legend, legend_h = _graph_legend(entries, fid, w)
    h = top + body_h + (14 + legend_h if entries else 8)
    out = _open(fid, fig.title, fig.desc, w, h)
    defs = ["<defs>"]
    for k in sorted({e.style for p in fig.panels for e in p.edges}, key=list(EDGE_STYLES).index):
        st = EDGE_STYLES[k]
        defs.append(
            f'<marker id="{fid}-a-{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" '
            f'markerUnits="userSpaceOnUse" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="{st.color}"/></marker>'
        )
    defs.append("</defs>")
    out += defs
    out.append(f'<text class="title" x="8" y="18" font-size="13" font-weight="600">{esc(fig.title)}</text>')
    if subtitle:
        out.append(f'<text class="subtitle" x="8" y="35" fill="#555">{esc(subtitle)}</text>')
    for (p, geometry, ox, oy, cap_y), caption in zip(placed, captions, strict=True):
        out += _panel(p, geometry, fid, ox, top + oy, caption, cap_y)
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
