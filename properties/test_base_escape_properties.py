"""Properties of the escapers: rendered by CommonMark, escaped text is the text and nothing else;
a CSV cell read back is the value (with a ``'`` before a formula start); terminal text holds no control."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from causalcheck.base.escape import (
    CSV_FORMULA_STARTS,
    csv_cell,
    markdown_cell,
    markdown_code,
    markdown_lines,
    markdown_text,
    terminal_text,
)
from hypothesis import given, settings
from hypothesis import strategies as st

#: Pieces that mean something to a Markdown renderer, mixed with letters and digits.
_PIECES = [*"ab1 _*`<>&#;[]()!|\\-+=.:/~\"'\n\t", "javascript:", "<script>", "&amp;", "&#x41;", "http://x",
           "<a href=", "www.x.com", "1.", "    ", "\x1b[31m", "é", "\u202e"]
texts = st.lists(st.sampled_from(_PIECES) | st.text(max_size=3), max_size=14).map("".join)


def _md() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _shown(text: str) -> str:
    """What a reader should see of *text*: line breaks as spaces, control characters as escapes."""
    return _norm(terminal_text(re.sub(r"\r\n?|\n|\u2028|\u2029", " ", text)))


def _inline_text(token: Any) -> str:
    """The text of an inline token; an element made from the input shows as ``<<type>>``."""
    out = []
    for c in token.children:
        out.append(c.content if c.type in ("text", "code_inline") else " " if c.type == "softbreak" else f"<<{c.type}>>")
    return "".join(out)


def _paragraph_text(markdown: str) -> str:
    tokens = _md().parse(markdown)
    return "".join(_inline_text(t) if t.type == "inline" else "" if t.type.startswith("paragraph_") else f"<<{t.type}>>" for t in tokens)


@settings(max_examples=300)
@given(texts)
def test_escaped_text_renders_as_exactly_the_text(s: str) -> None:
    """markdown_text: the paragraph a renderer makes holds the input's text (controls shown) and no element."""
    assert _norm(_paragraph_text(markdown_text(s))) == _shown(s)


@settings(max_examples=300)
@given(texts)
def test_escaped_lines_in_a_block_quote_render_as_the_text(s: str) -> None:
    """markdown_lines under ``> ``: one quote, its text the input's (no heading, list, table or HTML inside)."""
    tokens = _md().parse("\n".join("> " + line for line in markdown_lines(s)))
    inner = [t.type for t in tokens if t.type not in ("blockquote_open", "blockquote_close", "paragraph_open", "paragraph_close", "inline")]
    assert inner == []
    assert _norm(" ".join(_inline_text(t) for t in tokens if t.type == "inline")) == _shown(s)


@settings(max_examples=300)
@given(texts)
def test_an_escaped_cell_stays_one_cell_of_its_text(s: str) -> None:
    """markdown_cell: the table keeps one row of one cell, and the cell's text is the input's."""
    tokens = _md().parse(f"| h |\n|---|\n| {markdown_cell(s)} |\n")
    assert [t.type for t in tokens].count("td_open") == 1
    cell = [t for t in tokens if t.type == "inline"][1]
    assert _norm(_inline_text(cell)) == _shown(s)


@settings(max_examples=300)
@given(texts)
def test_a_code_span_is_one_code_span_of_the_text(s: str) -> None:
    """markdown_code: exactly one code span between the words around it, holding the text (line breaks as spaces)."""
    inline = next(t for t in _md().parse(f"x {markdown_code(s)} y") if t.type == "inline")
    assert [c.type for c in inline.children] == ["text", "code_inline", "text"]
    assert _norm(inline.children[1].content) == _shown(s) or not _norm(s)


@settings(max_examples=300)
@given(st.one_of(texts, st.floats(allow_nan=False), st.integers()))
def test_a_csv_cell_reads_back_as_the_value_with_a_quote_before_a_formula(value: Any) -> None:
    """csv_cell: numbers are written as before; text reads back unchanged, or with one leading ' when it starts like a formula."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow([csv_cell(value)])
    plain = io.StringIO()
    csv.writer(plain, lineterminator="\n").writerow([value])
    (back,) = next(csv.reader(io.StringIO(buf.getvalue())))
    if isinstance(value, str):
        expected = io.StringIO()  # what the csv module itself reads back of the expected text (a lone \r is not kept)
        csv.writer(expected, lineterminator="\n").writerow(["'" + value if value.startswith(CSV_FORMULA_STARTS) else value])
        assert back == next(csv.reader(io.StringIO(expected.getvalue())))[0]
        assert not back.startswith(CSV_FORMULA_STARTS)
    else:
        assert buf.getvalue() == plain.getvalue()


@given(texts)
def test_terminal_text_holds_no_control_character(s: str) -> None:
    """terminal_text: nothing but tab and newline below space, no DEL, C1 or bidi override; escaping twice adds nothing new."""
    out = terminal_text(s)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out)
    assert terminal_text(out) == out


@given(st.text())
def test_json_through_the_terminal_escapes_reads_back_as_the_same_value(s: str) -> None:
    """terminal_text of a JSON document (ensure_ascii=False, as --json writes it) is JSON of the same value."""
    import json

    assert json.loads(terminal_text(json.dumps({"name": s}, ensure_ascii=False))) == {"name": s}
