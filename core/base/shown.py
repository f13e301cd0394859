"""Quoting a user's value in a message: readable, and bounded however long the value is.

An error message shows the offending value so the user can find it — but a 5 000-character
case id or a 1 MB field copied whole floods the terminal and hides the rest of the message.
:func:`shown` is the one way messages quote such values: the ``repr`` of a short value, and
of a long one its first :data:`SHOWN_CHARS` characters followed by ``…(N chars)``, N being the
value's full length.

>>> shown("graph-pairs-007")
"'graph-pairs-007'"
>>> shown("x" * 5000)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'…(5000 chars)"
>>> shown(["a", "b"]), shown(list(range(100)), limit=10)
("['a', 'b']", '[0, 1, 2, …(390 chars)')

:func:`cut` is the same bound for text shown as it is (an exception's message, unquoted):

>>> cut("boom"), cut("x" * 500, limit=5)
('boom', 'xxxxx…(500 chars)')
"""

from __future__ import annotations

__all__ = ["SHOWN_CHARS", "cut", "shown"]

#: Characters of a long value a message shows.
SHOWN_CHARS = 80


def cut(text: str, *, limit: int = SHOWN_CHARS) -> str:
    """*text* as it is when short, else its first *limit* characters then ``…(N chars)``."""
    return text if len(text) <= limit else f"{text[:limit]}…({len(text)} chars)"


def shown(value: object, *, limit: int = SHOWN_CHARS) -> str:
    """*value* quoted for a message: its ``repr``, a long string cut to *limit* characters (then
    ``…(N chars)`` with its length), another long value's ``repr`` cut the same way."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}…({len(value)} chars)"
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}…({len(text)} chars)"
