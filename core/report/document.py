"""The report as a document: sections of text, tables and figures, rendered to HTML or Markdown.

Views (:mod:`~causalcheck.report.lab_views`, :mod:`~causalcheck.report.explain_views`,
:mod:`~causalcheck.report.check_views`) build :class:`Section` s out of four block types —
:class:`Text`, :class:`Table`, :class:`FigureBlock` and :class:`Markup` (pre-escaped HTML
with a plain-text stand-in for Markdown) — and know nothing of the output format.
:func:`render_html` writes one self-contained page (inline CSS, inline SVG, no script, no
network); :func:`render_markdown` writes Markdown and draws every figure to a PNG file next
to it (``alt`` text = the figure's description).

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
from causalcheck.report.png import render_png
from causalcheck.report.svg import esc, render

__all__ = [
    "Block",
    "Document",
    "FigureBlock",
    "Markup",
    "Section",
    "Table",
    "Text",
    "render_html",
    "render_markdown",
]


@dataclass(frozen=True)
class Text:
    """A paragraph of plain text (escaped on output); ``note`` renders it smaller and grey."""

    text: str
    note: bool = False


@dataclass(frozen=True)
class Table:
    """A table of text cells; ``groups`` are optional spanning header cells ``(label, span)``.

    ``marked`` row indices are emphasised (e.g. a cycle's edges); ``numeric`` columns align right.
    """

    columns: Sequence[str]
    rows: Sequence[Sequence[str]]
    caption: str = ""
    groups: Sequence[tuple[str, int]] = ()
    numeric: frozenset[int] = frozenset()
    marked: frozenset[int] = frozenset()


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
    """A titled section: blocks, then sub-sections."""

    title: str
    blocks: list[Block] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    anchor: str = ""


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


_CSS = """
:root{color-scheme:light}
body{font-family:system-ui,-apple-system,'Segoe UI','DejaVu Sans',sans-serif;margin:0;color:#1d1d1d;background:#fafafa;line-height:1.45}
main{max-width:1180px;margin:0 auto;padding:18px 26px 60px;background:#fff}
h1{font-size:1.6em;margin:.3em 0}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
h3{margin-top:1.3em}h4{margin:1.1em 0 .4em}
table{border-collapse:collapse;margin:.5em 0 1em;font-size:.88em}
th,td{border:1px solid #d6d6d6;padding:3px 7px;vertical-align:top;text-align:left}
th{background:#f1f3f5}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.iv{white-space:normal}td .ci{white-space:nowrap;color:#555;font-size:.9em}
tr.mark td{background:#fde7e7;font-weight:600}
caption{caption-side:top;text-align:left;font-weight:600;padding:4px 0}
figure{margin:.6em 0 1.2em;display:inline-block;vertical-align:top;max-width:100%}
figure svg{max-width:100%;height:auto}figcaption{font-size:.82em;color:#555;max-width:640px}
p.note{font-size:.85em;color:#555}
nav>ul{display:grid;grid-template-columns:repeat(auto-fill,minmax(17em,1fr));gap:.2em 2.2em;font-size:.9em;padding-left:1.3em}
nav ul ul{padding-left:1.3em}
.scroll{max-height:420px;overflow:auto;border:1px solid #eee;margin-bottom:1em}.wide{overflow-x:auto}
.answer{border:1px solid #e2e2e2;padding:8px 10px;border-radius:6px;font-size:.9em;max-height:360px;overflow:auto;white-space:pre-wrap}
.edu{border-radius:3px;padding:0 1px}.edu.a{background:#e8f1fb}.edu.b{background:#fff3dc}
.edu sup{font-size:.68em;color:#36557a;font-weight:700;margin-right:2px}
.edu.miss{outline:1px dashed #c62828}
code{background:#f3f3f3;padding:0 3px;border-radius:3px}
"""


_INTERVAL = re.compile(r"(\S+) (\[[^\]]*\])")


def _cell_html(text: str) -> str:
    """A numeric cell; a value with its interval (``0.42 [0.31, 0.53]``) may break before the interval, nowhere else.

    >>> _cell_html("0.42 [0.31, 0.53]")
    '<td class="n iv">0.42 <span class="ci">[0.31, 0.53]</span></td>'
    """
    hit = _INTERVAL.fullmatch(text)
    if hit is None:
        return f'<td class="n">{esc(text)}</td>'
    return f'<td class="n iv">{esc(hit.group(1))} <span class="ci">{esc(hit.group(2))}</span></td>'


def _table_html(t: Table) -> str:
    out = ['<div class="scroll">' if len(t.rows) > 18 else '<div class="wide">', "<table>"]
    if t.caption:
        out.append(f"<caption>{esc(t.caption)}</caption>")
    out.append("<thead>")
    if t.groups:
        out.append("<tr>" + "".join(f'<th colspan="{span}" scope="colgroup">{esc(label)}</th>' for label, span in t.groups) + "</tr>")
    out.append("<tr>" + "".join(f'<th scope="col">{esc(c)}</th>' for c in t.columns) + "</tr></thead><tbody>")
    for i, row in enumerate(t.rows):
        cls = ' class="mark"' if i in t.marked else ""
        cells = "".join(_cell_html(c) if j in t.numeric else f"<td>{esc(c)}</td>" for j, c in enumerate(row))
        out.append(f"<tr{cls}>{cells}</tr>")
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
            out.append(f'<p class="note">{esc(b.text)}</p>' if b.note else f"<p>{esc(b.text)}</p>")
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
    out = [f'<section id="{esc(s.anchor)}"><h{h}>{esc(s.title)}</h{h}>']
    out += _blocks_html(s.blocks, ids)
    for c in s.children:
        out += _section_html(c, level + 1, ids)
    out.append("</section>")
    return out


def _anchor(sections: Sequence[Section], used: set[str]) -> None:
    for s in sections:
        s.anchor = s.anchor or _slug(s.title, used)
        _anchor(s.children, used)


def render_html(doc: Document) -> str:
    """One self-contained HTML page (no script, no external resource)."""
    _anchor(doc.sections, set())
    ids = _Counter()
    toc = ["<nav><h2>Contents</h2><ul>"]
    for s in doc.sections:
        toc.append(f'<li><a href="#{esc(s.anchor)}">{esc(s.title)}</a><ul>')
        toc += [f'<li><a href="#{esc(c.anchor)}">{esc(c.title)}</a></li>' for c in s.children]
        toc.append("</ul></li>")
    toc.append("</ul></nav>")
    body = [f"<h1>{esc(doc.title)}</h1>", *_blocks_html(doc.header, ids), *toc]
    for s in doc.sections:
        body += _section_html(s, 2, ids)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(doc.title)}</title><style>{_CSS}</style></head>"
        f"<body><main>{''.join(body)}</main></body></html>\n"
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
        cells = [_emphasis(markdown_cell(c), "**") if i in t.marked else markdown_cell(c) for c in row]
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
                text = markdown_text(b.text)
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
