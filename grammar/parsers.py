"""Shared plumbing for the lark grammars: cached LALR parsers and error conversion.

lark reports a syntax error as ``UnexpectedCharacters``, ``UnexpectedToken`` or
``UnexpectedEOF``; :func:`syntax_error` turns any of them into a
:class:`~causalcheck.base.errors.DSLSyntaxError` with a 1-based line and column, the expected
tokens spelled the way a user types them (``"}"`` rather than ``RBRACE``) and a caret
snippet.  *offset* shifts positions when the parsed text is a slice of a larger document.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from causalcheck.base.errors import DSLSyntaxError
from causalcheck.grammar import load

if TYPE_CHECKING:  # pragma: no cover
    from lark import Lark

__all__ = ["line_col", "parser", "syntax_error"]

# How terminal names read in messages.  Anonymous terminals get their literal text from the
# grammar (lark keeps it in the terminal definition); the named ones are spelled here.
_FRIENDLY = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string",
    "ESCAPED_STRING": "a string",
    "RHS": "an expression or number",
    "LABEL": "a relation label",
    "ARROW": '"->"',
    "POW": '"^"',
    "_NL": "a new line",
    "$END": "end of input",
}


@cache
def parser(name: str) -> Lark:
    """An LALR parser for ``grammar/<name>.lark`` (built once per process)."""
    from lark import Lark

    return Lark(load(name), parser="lalr", lexer="contextual", maybe_placeholders=False)


def line_col(text: str, pos: int) -> tuple[int, int]:
    """1-based ``(line, column)`` of character index *pos* in *text*."""
    pos = max(0, min(pos, len(text)))
    line = text.count("\n", 0, pos) + 1
    start = text.rfind("\n", 0, pos) + 1
    return line, pos - start + 1


def _spell(parser_: Lark, names: Any) -> list[str]:
    by_name = {t.name: t for t in parser_.terminals}
    out: list[str] = []
    for n in names or ():
        if n in _FRIENDLY:
            out.append(_FRIENDLY[n])
            continue
        term = by_name.get(n)
        if term is not None and term.pattern.type == "str":
            out.append(f'"{term.pattern.value}"')
        else:
            out.append(n.lower())
    return out


def syntax_error(
    exc: Exception,
    text: str,
    *,
    grammar: str,
    source: str,
    what: str,
    offset: int = 0,
    document: str | None = None,
) -> DSLSyntaxError:
    """Convert a lark exception raised while parsing *text* with *grammar* into our error.

    *text* is what was handed to lark; *document* (default: *text*) is the whole input,
    of which *text* starts at character *offset* — positions are reported in *document*.
    """
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    doc = text if document is None else document
    p = parser(grammar)
    expected: list[str] = []
    if isinstance(exc, UnexpectedEOF):
        pos = len(text)
        expected = _spell(p, exc.expected)
        found = "end of input"
    elif isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            pos = len(text)
            found = "end of input"
        else:
            pos = tok.start_pos if tok.start_pos is not None else 0
            found = repr(str(tok))
        expected = _spell(p, exc.accepts or exc.expected)
    elif isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        found = repr(text[pos]) if pos < len(text) else "end of input"
        expected = _spell(p, exc.allowed)
    else:  # pragma: no cover - lark raises only the three above from parse()
        pos = 0
        found = repr(text[:20])
    line, column = line_col(doc, offset + pos)
    label = None
    if found == "end of input":
        label = "the text ends too early: truncated, or a bracket/quote is not closed"
    elif grammar == "record" and '","' in expected and len(found) > 1 and found[1] in '"{[tfn-0123456789':
        label = "a ',' is probably missing before this value"
    return DSLSyntaxError(
        f"{what}: unexpected {found}",
        text=doc,
        line=line,
        column=column,
        expected=expected,
        source=source,
        label=label,
    )
