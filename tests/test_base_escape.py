"""The escapers of causalcheck.base.escape: what they change, what they leave alone, and the CLI's terminal streams."""

from __future__ import annotations

import io
import json
import sys

import pytest
from causalcheck.base.escape import (
    csv_cell,
    csv_row,
    markdown_cell,
    markdown_code,
    markdown_lines,
    markdown_text,
    raw_stream,
    terminal_streams,
    terminal_text,
)
from causalcheck.cli import main

#: Names as they are in the bundled suites, the demo and the official runs: written unchanged.
ORDINARY = ["4nodes_hidden_freqnode_n1", "gpt-4o-mini", "demo-strong_metrics_offline.json", "planner (random)",
            "1.000 [0.667, 1.000]", "Final < 60: 12 of 12", "a -> b", "-0.5", "x = y + 1", "EDU1 → EDU2", "runs/a_b/c.jsonl"]


@pytest.mark.parametrize("name", ORDINARY)
def test_ordinary_names_are_written_byte_for_byte(name: str) -> None:
    """Text with no character that means something where it stands is not changed (outputs stay as they were)."""
    assert markdown_cell(name) == name.replace("|", "\\|")
    assert markdown_text(name) == name
    assert markdown_code(name) == f"`{name}`"
    assert terminal_text(name) == name


@pytest.mark.parametrize(("text", "escaped"), [
    ("<script>alert(1)</script>", "\\<script>alert(1)\\</script>"),
    ("<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert(1)>"),
    ("[x](javascript:alert(1))", "[x\\](javascript:alert(1))"),
    ("![x](javascript:alert(1))", "![x\\](javascript:alert(1))"),
    ("<https://evil.example>", "\\<https://evil.example>"),
    ("&lt;b&gt; &#60;", "\\&lt;b\\&gt; \\&#60;"),
    ("[x]: javascript:alert(1)", "[x\\]: javascript:alert(1)"),
    ("*em* _em_ snake_case `code` ~~del~~", "\\*em\\* \\_em\\_ snake_case \\`code\\` \\~\\~del\\~\\~"),
    ("# title", "\\# title"),
    ("> quote", "\\> quote"),
    ("1. item", "1\\. item"),
    ("- item", "\\- item"),
    ("a\nb\r\nc", "a b c"),
    ("back\\slash", "back\\\\slash"),
])
def test_markdown_text_escapes_what_a_renderer_would_read_as_markup(text: str, escaped: str) -> None:
    """Tags, autolinks, links, images, entities, reference definitions, emphasis, code and block starts are escaped."""
    assert markdown_text(text) == escaped


def test_a_table_cell_cannot_end_early_or_break_its_row() -> None:
    """| is escaped in a cell and in a code span meant for a cell; line breaks become spaces."""
    assert markdown_cell("a | b\n| c") == "a \\| b \\| c"
    assert markdown_code("a|b", cell=True) == "`a\\|b`"
    assert markdown_code("a|b") == "`a|b`"


def test_a_code_span_is_fenced_longer_than_the_backticks_inside() -> None:
    """A backtick in the text cannot close the span; an empty text is still a span."""
    assert markdown_code("a`b") == "``a`b``"
    assert markdown_code("`") == "`` ` ``"
    assert markdown_code("") == "` `"


def test_markdown_lines_escape_each_line_and_keep_them() -> None:
    """Each line is escaped on its own (block starts at the start of every line) and | too (no table forms)."""
    assert markdown_lines("# a\n<div>\n|---|") == ["\\# a", "\\<div>", "\\|---\\|"]


def test_csv_cells_of_text_starting_like_a_formula_get_a_quote() -> None:
    """= + - @ tab CR at the start of text: a leading ' (OWASP); numbers and None are left as they are."""
    assert [csv_cell(v) for v in ("=1+2", "+cmd|' /C calc'!A0", "-2", "@SUM(1)", "\tx", "\rx")] == [
        "'=1+2", "'+cmd|' /C calc'!A0", "'-2", "'@SUM(1)", "'\tx", "'\rx"]
    assert [csv_cell(v) for v in (-0.5, -3, 0.0, None, True, "a=b", " =1")] == [-0.5, -3, 0.0, None, True, "a=b", " =1"]
    assert csv_row({"agent": "=x", "edge_f1": -0.5}) == {"agent": "'=x", "edge_f1": -0.5}


def test_terminal_text_shows_controls_as_escapes() -> None:
    """ANSI escapes, CR, BEL, C1 and bidi overrides become visible escapes; tab and newline stay."""
    assert terminal_text("\x1b[2J\r\x07\x9b\u202e\t\n") == "\\u001b[2J\\u000d\\u0007\\u009b\\u202e\t\n"


def test_terminal_text_keeps_json_valid_with_the_same_values() -> None:
    """The escapes are JSON escapes: JSON printed through the terminal streams reads back as the same value."""
    value = {"model": "a\x85b\u202ec\x9b[31m", "n": -0.5}
    assert json.loads(terminal_text(json.dumps(value, ensure_ascii=False))) == value


def test_terminal_streams_escape_what_is_written_and_restore_the_streams() -> None:
    """Within the block stdout and stderr escape controls; the raw stream is reachable; afterwards they are restored."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        with terminal_streams():
            print("a\x1bb")
            print("c\rd", file=sys.stderr)
            assert raw_stream(sys.stdout) is out
    finally:
        got = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = saved
    assert got == (out, err)
    assert (out.getvalue(), err.getvalue()) == ("a\\u001bb\n", "c\\u000dd\n")


def test_the_command_line_shows_a_hostile_file_name_escaped(tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    """A file name holding an ANSI escape reaches stderr as an escape's text, not as a terminal command."""
    missing = f"{tmp_path}/\x1b[31mred\x1b]0;title\x07.dot"
    assert main(["check", missing]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "[31mred" in err
