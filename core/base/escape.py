"""Escaping what users write for the format it is written in: Markdown, CSV, the terminal.

Model, agent and suite names, answer texts, node names, file names and titles come from the
user; every writer that puts one into an output passes it through the function for that
output's format, so that the reader of the output sees the text and nothing else:

* :func:`markdown_text` — a paragraph, heading or list item: a CommonMark renderer shows the
  text and makes no element out of it (no raw HTML, no link, no image, no autolink, no
  entity, no emphasis, no heading or list or block quote, no code); a line break becomes a
  space.  :func:`markdown_cell` also escapes ``|`` (a GFM table cell), :func:`markdown_code`
  is a code span, :func:`markdown_lines` keeps the lines (each escaped, e.g. for a ``>`` quote).
* :func:`csv_cell` / :func:`csv_row` — the OWASP rule against spreadsheet formula injection:
  a *text* cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a
  leading ``'``; numbers (``-0.5`` as a float) stay numbers.
* :func:`terminal_text` — control characters (ANSI escapes, carriage returns, bell, C1) and
  bidirectional overrides are shown as ``\\u001b`` / ``\\u202e``; :func:`terminal_streams` applies
  it to everything the command line writes to stdout and stderr.  The ``\\uXXXX`` form is a JSON
  escape too: ``--json`` output stays valid JSON with the same values.

The escapes are minimal: a character is escaped only where it could mean something in its
context (``_`` inside a word, ``<`` before a space, ``[`` without a following ``(`` are left
alone), so text without special characters is written byte for byte as before.  The HTML
report escapes with :func:`html.escape` (:func:`causalcheck.report.svg.esc`).

>>> markdown_text("<img src=x onerror=alert(1)> [x](javascript:alert(1)) a_b *c*")
'\\\\<img src=x onerror=alert(1)> [x\\\\](javascript:alert(1)) a_b \\\\*c\\\\*'
>>> markdown_cell("a|b"), markdown_code("k=`v`")
('a\\\\|b', '`` k=`v` ``')
>>> csv_cell("=HYPERLINK(1)"), csv_cell(-0.5), csv_cell("-0.5")
("'=HYPERLINK(1)", -0.5, "'-0.5")
>>> terminal_text("red\\x1b[31m")
'red\\\\u001b[31m'
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator, Mapping
from typing import Any, TextIO

__all__ = [
    "CSV_FORMULA_STARTS",
    "csv_cell",
    "csv_row",
    "markdown_cell",
    "markdown_code",
    "markdown_lines",
    "markdown_text",
    "raw_stream",
    "terminal_streams",
    "terminal_text",
]

# ----------------------------------------------------------------------------- terminal

#: C0 controls but tab and line feed, DEL, C1 controls, and the bidirectional embeddings,
#: overrides and isolates (text that reorders what follows it on screen).
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _visible(m: re.Match[str]) -> str:
    return f"\\u{ord(m.group()):04x}"


def terminal_text(text: str) -> str:
    """*text* with every control character (but tab and newline) and bidi override shown as an escape.

    >>> terminal_text("a\\rb\\u202ec\\n")
    'a\\\\u000db\\\\u202ec\\n'
    """
    return _CONTROL.sub(_visible, text)


class _TerminalStream:
    """A text stream that writes :func:`terminal_text` of everything to the stream it wraps."""

    def __init__(self, raw: TextIO) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(terminal_text(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, encoding, buffer, fileno ...
        return getattr(self.raw, name)


def raw_stream(stream: Any) -> Any:
    """The stream under a :func:`terminal_streams` wrapper (for a ``rich`` console that writes its
    own styling escapes; what it prints must then be passed through :func:`terminal_text`)."""
    return stream.raw if isinstance(stream, _TerminalStream) else stream


@contextlib.contextmanager
def terminal_streams() -> Iterator[None]:
    """Within the block, ``sys.stdout`` and ``sys.stderr`` write :func:`terminal_text` of what they are given."""
    saved = sys.stdout, sys.stderr
    sys.stdout = _TerminalStream(raw_stream(saved[0]))
    sys.stderr = _TerminalStream(raw_stream(saved[1]))
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


# ----------------------------------------------------------------------------- Markdown

_BREAK = re.compile(r"\r\n?|\n|\u2028|\u2029")
# Anywhere: a backslash, a backtick (code span), * (emphasis), ~ (GFM strikethrough); < that
# could open a tag, comment, declaration or autolink; & that could start an entity; ] that
# could close a link text, an image or a reference definition's label.
_INLINE = re.compile(r"[\\`*~]|<(?=[A-Za-z/!?])|&(?=#|[A-Za-z][A-Za-z0-9]*;)|\](?=[(\[:])")
# _ opens or closes emphasis unless it is inside a word (a letter or digit on both sides).
_UNDERSCORES = re.compile(r"_+")
# At the start of a line: an ATX heading, a block quote, a bullet or ordered list item, a
# thematic break or setext underline (``---``, ``===``); HTML blocks and fences are covered by
# the escapes of ``<``, backtick and ``~``; leading blanks (an indented code block) and trailing
# ones (two make a hard line break) are dropped.
_LINE_START = re.compile(r"(?:#{1,6}|[+-]|\d{1,9}[.)])(?=[ \t]|$)|>|[-=]+[ \t]*$|-[ \t]*-[ \t]*-")


def _underscores(text: str) -> str:
    def sub(m: re.Match[str]) -> str:
        before = text[m.start() - 1] if m.start() > 0 else " "
        after = text[m.end()] if m.end() < len(text) else " "
        return m.group() if before.isalnum() and after.isalnum() else "\\_" * len(m.group())

    return _UNDERSCORES.sub(sub, text)


def _inline(text: str) -> str:
    return _underscores(_INLINE.sub(lambda m: "\\" + m.group(), terminal_text(text)))


def _line(text: str) -> str:
    out = _inline(text.strip(" \t"))  # leading blanks: a code block; trailing ones: a hard line break
    m = _LINE_START.match(out)
    if m is None:
        return out
    at = m.end() - 1 if out[0].isdigit() and m.group()[-1] in ".)" else 0  # 1. -> 1\.
    return f"{out[:at]}\\{out[at:]}"


def markdown_text(text: str) -> str:
    """*text* escaped for a line of Markdown (a paragraph, heading, list item); line breaks become spaces.

    >>> markdown_text("# <script>alert(1)</script>\\n- &amp; 1. x")
    '\\\\# \\\\<script>alert(1)\\\\</script> - \\\\&amp; 1. x'
    """
    return _line(_BREAK.sub(" ", text))


def markdown_lines(text: str) -> list[str]:
    """*text*'s lines, each escaped with :func:`markdown_text` and ``|`` as ``\\|`` (no table can
    form out of them), e.g. for a block quote: ``"> " + line``."""
    return [_line(line).replace("|", "\\|") for line in _BREAK.split(text)]


def markdown_cell(text: str) -> str:
    """*text* escaped for a cell of a GFM table (:func:`markdown_text`, and ``|`` as ``\\|``).

    >>> markdown_cell("a | b\\nc")
    'a \\\\| b c'
    """
    return _inline(_BREAK.sub(" ", text)).replace("|", "\\|")


def markdown_code(text: str, *, cell: bool = False) -> str:
    """*text* as a code span: fenced by more backticks than any run inside it; line breaks become
    spaces; with *cell*, ``|`` is escaped (a code span in a GFM table cell).

    >>> markdown_code("a"), markdown_code("``x"), markdown_code("a|b", cell=True)
    ('`a`', '``` ``x ```', '`a\\\\|b`')
    """
    body = terminal_text(_BREAK.sub(" ", text)) or " "  # an empty span is two backticks, not code
    if cell:
        body = body.replace("|", "\\|")
    runs = [len(r) for r in re.findall(r"`+", body)]
    fence = "`" * (max(runs) + 1 if runs else 1)
    pad = body.startswith("`") or body.endswith("`") or (body.startswith(" ") and body.endswith(" ") and body.strip(" ") != "")
    return f"{fence} {body} {fence}" if pad else f"{fence}{body}{fence}"


# ----------------------------------------------------------------------------- CSV

#: What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
CSV_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """*value* for a CSV cell: a text starting like a formula gets a leading ``'``; anything that
    is not a ``str`` (numbers, ``None``) is returned as it is."""
    if isinstance(value, str) and value.startswith(CSV_FORMULA_STARTS):
        return "'" + value
    return value


def csv_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """*row* with :func:`csv_cell` applied to every value."""
    return {k: csv_cell(v) for k, v in row.items()}
