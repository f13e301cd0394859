"""The report as a document: sections of text, tables and figures, rendered to HTML or Markdown.

Views (:mod:`~causalcheck.report.lab_views`, :mod:`~causalcheck.report.explain_views`,
:mod:`~causalcheck.report.check_views`) build :class:`Section` s out of four block types —
:class:`Text`, :class:`Table`, :class:`FigureBlock` and :class:`Markup` (pre-escaped HTML
with a plain-text stand-in for Markdown) — and know nothing of the output format.
:func:`render_html` writes one self-contained page (inline CSS, inline SVG, one small inline
script, no network): a sidebar of every section (:mod:`causalcheck.report.page`), each section
a ``<details>`` element (open, or closed when the view marks it ``collapsed``), tables that
sort by a click on a column heading and scroll inside their own box; long decimals in text
are shortened with the exact value in a tooltip, ``⫫`` is written ``⊥⊥``
(:func:`causalcheck.report.text.readable`).  :func:`render_markdown` writes Markdown and draws
every figure to a PNG file next to it (``alt`` text = the figure's description).

>>> doc = Document("T", [Section("S", [Text("hello <world>")])])
>>> "hello &lt;world&gt;" in render_html(doc)
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from causalcheck.base.escape import markdown_cell, markdown_text
from causalcheck.report.figures import Figure
from causalcheck.report.page import CSS, SCRIPT
from causalcheck.report.png import render_png
from causalcheck.report.svg import esc, render
from causalcheck.report.text import INDEPENDENT, number_spans, readable

__all__ = [
    "Block",
    "Document",
    "FigureBlock",
    "Markup",
    "Section",
    "Table",
    "Text",
    "prose_html",
    "render_html",
    "render_markdown",
    "sidebar_html",
]


@dataclass(frozen=True)
class Text:
    """A paragraph of plain text (escaped on output); ``note`` renders it smaller and grey."""

    text: str
    note: bool = False


@dataclass(frozen=True)
class Table:
    """A table of text cells; ``groups`` are optional spanning header cells ``(label, span)``.

    ``marked`` row indices are emphasised as problems (e.g. a cycle's edges), ``totals`` as
    totals (e.g. the "Overall" row; they stay last when the table is sorted); ``numeric``
    columns align right; ``mono`` columns (hashes) are set in a monospace font and may break anywhere.
    """

    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    caption: str = ""
    groups: Sequence[tuple[str, int]] = ()
    numeric: frozenset[int] = frozenset()
    marked: frozenset[int] = frozenset()
    totals: frozenset[int] = frozenset()
    mono: frozenset[int] = frozenset()


@dataclass(frozen=True)
class FigureBlock:
    """A figure with an optional caption under it."""

    figure: Figure
    caption: str = ""


@dataclass(frozen=True)
class Markup:
    """Pre-escaped HTML (built with :func:`~causalcheck.report.svg.esc`) and its pre-escaped Markdown
    form (built with :mod:`causalcheck.base.escape`)."""

    html: str
    text: str


Block = Text | Table | FigureBlock | Markup


@dataclass
class Section:
    """A titled section: blocks, then sub-sections; a ``collapsed`` one starts closed in HTML; ``label``
    names it in the sidebar when shorter than the title reads better there."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    anchor: str = ""
    collapsed: bool = False
    label: str = ""  # the sidebar's shorter name for it (default: the title)


@dataclass
class Document:
    """The whole report: a title, sections, and header lines (version, inputs …)."""

    title: str
    sections: list[Section]
    header: list[Block] = field(default_factory=list)


def _slug(text: str, used: set[str]) -> str:
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, k = base, 2
    while slug in used:
        slug, k = f"{base}-{k}", k + 1
    used.add(slug)
    return slug


_INTERVAL = re.compile(r"(\S+) (\[[^\]]*\])")


def _cell_html(text: str) -> str:
    """A numeric cell; a value with its interval (``0.42 [0.31, 0.53]``) may break before the interval, nowhere else.

    >>> _cell_html("0.42 [0.31, 0.53]")
    '<td class="n iv">0.42 <span class="ci">[0.31, 0.53]</span></td>'
    """
    hit = _INTERVAL.fullmatch(text)
    if hit is None:
        return f'<td class="n">{prose_html(text)}</td>'
    return f'<td class="n iv">{esc(hit.group(1))} <span class="ci">{esc(hit.group(2))}</span></td>'


def prose_html(text: str) -> str:
    """*text* as escaped HTML for reading: each long decimal shortened, its exact value in a tooltip,
    and ``⫫`` written ``⊥⊥`` (:func:`causalcheck.report.text.readable`).

    >>> prose_html("off by 11.021056 < 12; a ⫫ b")
    'off by <span class="num" title="11.021056">11.02</span> &lt; 12; a <span class="indep" title="independent of">⊥⊥</span> b'
    """
    out: list[str] = []
    pos = 0
    for start, end, shown in number_spans(text):
        out.append(esc(text[pos:start]))
        out.append(f'<span class="num" title="{esc(text[start:end])}">{esc(shown)}</span>')
        pos = end
    out.append(esc(text[pos:]))
    return "".join(out).replace("⫫", f'<span class="indep" title="independent of">{INDEPENDENT}</span>')


def _row_class(t: Table, i: int) -> str:
    if i in t.totals:
        return ' class="total"'
    return ' class="mark"' if i in t.marked else ""


def _table_html(t: Table) -> str:
    out = ['<div class="scroll">' if len(t.rows) > 18 else '<div class="wide">', "<table>"]
    if t.caption:
        out.append(f"<caption>{esc(t.caption)}</caption>")
    out.append("<thead>")
    if t.groups:
        out.append("<tr>" + "".join(f'<th colspan="{span}" scope="colgroup">{esc(label)}</th>' for label, span in t.groups) + "</tr>")
    out.append("<tr>" + "".join(f'<th scope="col">{esc(c)}</th>' for c in t.columns) + "</tr></thead><tbody>")
    for i, row in enumerate(t.rows):
        cells = "".join(_cell_html(c) if j in t.numeric else (f'<td class="hash">{esc(c)}</td>' if j in t.mono else f"<td>{prose_html(c)}</td>")
                        for j, c in enumerate(row))
        out.append(f"<tr{_row_class(t, i)}>{cells}</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


class _Counter:
    def __init__(self) -> None:
        self.n = 0

    def next(self) -> str:
        self.n += 1
        return f"f{self.n}"


def _blocks_html(blocks: Sequence[Block], ids: _Counter) -> list[str]:
    out: list[str] = []
    for b in blocks:
        if isinstance(b, Text):
            out.append(f'<p class="note">{prose_html(b.text)}</p>' if b.note else f"<p>{prose_html(b.text)}</p>")
        elif isinstance(b, Table):
            out.append(_table_html(b))
        elif isinstance(b, FigureBlock):
            cap = f"<figcaption>{esc(b.caption)}</figcaption>" if b.caption else ""
            out.append(f"<figure>{render(b.figure, ids.next())}{cap}</figure>")
        else:
            out.append(b.html)
    return out


def _section_html(s: Section, level: int, ids: _Counter) -> list[str]:
    h = min(level, 6)
    opened = "" if s.collapsed else " open"
    out = [f'<section id="{esc(s.anchor)}" class="l{h}"><details{opened}><summary><h{h}>{esc(s.title)}</h{h}></summary>']
    out += _blocks_html(s.blocks, ids)
    for c in s.children:
        out += _section_html(c, level + 1, ids)
    out.append("</details></section>")
    return out


def _anchor(sections: Sequence[Section], used: set[str]) -> None:
    for s in sections:
        s.anchor = s.anchor or _slug(s.title, used)
        _anchor(s.children, used)


#: Sub-lists of the sidebar longer than this start closed.
SIDEBAR_OPEN = 8


def _sidebar_items(sections: Sequence[Section], depth: int) -> list[str]:
    out = ["<ul>"]
    for s in sections:
        link = f'<a href="#{esc(s.anchor)}" title="{esc(s.title)}">{esc(s.label or s.title)}</a>'
        if not s.children or depth >= 3:
            out.append(f"<li>{link}</li>")
        elif depth == 0 or len(s.children) <= SIDEBAR_OPEN:
            out += [f"<li>{link}", *_sidebar_items(s.children, depth + 1), "</li>"]
        else:
            out += [f"<li><details><summary>{link} ({len(s.children)})</summary>", *_sidebar_items(s.children, depth + 1),
                    "</details></li>"]
    out.append("</ul>")
    return out


def sidebar_html(title: str, sections: Sequence[Section]) -> str:
    """The sidebar: a link to every section, nested as the sections are (long lists start closed)."""
    return ('<nav class="side" aria-label="Sections"><details open><summary>Contents</summary>'
            f'<ul><li><a href="#top">{esc(title)}</a></li></ul>{"".join(_sidebar_items(sections, 0))}'
            '<div class="tools" id="tools"></div></details></nav>')


def render_html(doc: Document) -> str:
    """One self-contained page: the sidebar, the report, one inline script (no external resource)."""
    _anchor(doc.sections, {"top", "tools"})
    ids = _Counter()
    body = [f'<h1 id="top">{esc(doc.title)}</h1>', *_blocks_html(doc.header, ids)]
    for s in doc.sections:
        body += _section_html(s, 2, ids)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(doc.title)}</title><style>{CSS}</style></head>"
        f'<body><div class="page">{sidebar_html(doc.title, doc.sections)}<main>{"".join(body)}</main></div>'
        f"<script>{SCRIPT}</script></body></html>\n"
    )


# ----------------------------------------------------------------------------- Markdown


def _emphasis(text: str, mark: str) -> str:
    """*text* (escaped Markdown) emphasised with *mark* (``*`` / ``**``); a blank one is left as it is
    (``****`` alone is a thematic break, ``**`` text)."""
    return f"{mark}{text}{mark}" if text.strip() else text


def _table_md(t: Table) -> list[str]:
    out = [_emphasis(markdown_text(t.caption), "**"), ""] if t.caption else []
    cols = list(t.columns)
    if t.groups:
        labels: list[str] = []
        for label, span in t.groups:
            labels += [label] * span
        cols = [f"{g} {c}".strip() if g else c for g, c in zip(labels, cols, strict=True)]
    out.append("| " + " | ".join(markdown_cell(c) for c in cols) + " |")
    out.append("|" + "".join("---:|" if j in t.numeric else "---|" for j in range(len(cols))))
    for i, row in enumerate(t.rows):
        cells = [_emphasis(markdown_cell(readable(c)), "**") if i in t.marked | t.totals else markdown_cell(readable(c)) for c in row]
        out.append("| " + " | ".join(cells) + " |")
    return [*out, ""]


def render_markdown(doc: Document, *, figure_prefix: str = "fig") -> tuple[str, list[tuple[str, bytes]]]:
    """Markdown text and the PNG files it references (``(file name, bytes)``; matplotlib draws them).

    Every text of the document is escaped for Markdown (:mod:`causalcheck.base.escape`): a
    CommonMark renderer shows it as text, as the HTML page does.
    """
    files: list[tuple[str, bytes]] = []
    lines: list[str] = [f"# {markdown_text(doc.title)}", ""]

    def blocks(bs: Sequence[Block]) -> None:
        for b in bs:
            if isinstance(b, Text):
                text = markdown_text(readable(b.text))
                lines.extend([_emphasis(text, "*") if b.note else text, ""])
            elif isinstance(b, Table):
                lines.extend(_table_md(b))
            elif isinstance(b, FigureBlock):
                name = f"{figure_prefix}-{len(files) + 1:03d}.png"
                files.append((name, render_png(b.figure)))
                alt = markdown_cell(f"{b.figure.title}. {b.figure.desc}".replace("[", "(").replace("]", ")"))
                lines.extend([f"![{alt}]({name})", ""])
                if b.caption:
                    lines.extend([_emphasis(markdown_text(b.caption), "*"), ""])
            else:
                lines.extend([b.text, ""])

    def section(s: Section, level: int) -> None:
        lines.extend(["#" * min(level, 6) + " " + markdown_text(s.title), ""])
        blocks(s.blocks)
        for c in s.children:
            section(c, level + 1)

    blocks(doc.header)
    for s in doc.sections:
        section(s, 2)
    return "\n".join(lines).rstrip() + "\n", files
