"""causalcheck.base.safejson: every document the standard decoder accepts but a later step would crash on is refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.base.safejson import (
    MAX_DEPTH,
    MAX_INT_DIGITS,
    JSONSyntaxError,
    load_file,
    loads,
    raw_decode,
)

BAD_DOCUMENTS = [
    ("[" * 100_000 + "]" * 100_000, "MAX_DEPTH"),
    ('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), "MAX_DEPTH"),
    ('{"n": ' + "9" * 400 + "}", "MAX_INT_DIGITS"),
    ('{"n": -' + "9" * 5000 + "}", "MAX_INT_DIGITS"),
    ('{"x": 1e400}', "not finite"),
    ('{"x": NaN}', "NaN is not JSON"),
    ('[-Infinity]', "-Infinity is not JSON"),
    ('{"s": "\\ud83c"}', "lone surrogate"),
    ('{"\\udc00key": 1}', "lone surrogate"),
    ('"\\ud83c\\ud83c"', "lone surrogate"),
]


@pytest.mark.parametrize(("text", "reason"), BAD_DOCUMENTS)
def test_unsafe_documents_are_input_errors_naming_source_and_reason(text: str, reason: str) -> None:
    """Depth, huge integers, non-finite numbers, NaN constants and lone surrogates raise InputFormatError, never RecursionError/OverflowError."""
    with pytest.raises(InputFormatError, match=reason) as info:
        loads(text, source="doc.json")
    assert "doc.json" in str(info.value)
    assert not isinstance(info.value, JSONSyntaxError)


def test_good_documents_decode_as_the_standard_decoder_does() -> None:
    """Pairs of surrogates, escaped backslashes, long-but-allowed integers and MAX_DEPTH-deep nesting decode unchanged."""
    import json

    for text in [
        '{"emoji": "\\ud83c\\udf0d", "bs": "\\\\ud83c", "n": ' + "9" * MAX_INT_DIGITS + ', "f": -1.5e300}',
        "[" * MAX_DEPTH + "]" * MAX_DEPTH,
        '[1, 2.5, "x", null, true]',
    ]:
        assert loads(text) == json.loads(text)


def test_syntax_errors_are_told_apart_with_position() -> None:
    """Malformed JSON raises JSONSyntaxError with line and column (callers fall back to JSON lines on it)."""
    with pytest.raises(JSONSyntaxError, match="line 2 column 1") as info:
        loads('{"a": 1}\n{"b": 2}', source="x.jsonl")
    assert info.value.line == 2


def test_raw_decode_reads_a_value_inside_text_with_the_same_limits() -> None:
    """raw_decode returns the embedded value and its end, and applies the same refusals."""
    assert raw_decode('ok {"a": 1} tail', 3) == ({"a": 1}, 11)
    with pytest.raises(InputFormatError, match="MAX_DEPTH"):
        raw_decode("x " + "[" * 5000, 2, source="reply")


def test_load_file_refuses_non_regular_files(tmp_path: Path) -> None:
    """load_file reads through read_input_text: a FIFO is refused instead of blocking."""
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(InputFormatError, match="not a regular file"):
        load_file(fifo, what="benchmark")
    good = tmp_path / "good.json"
    good.write_text('{"a": [1]}')
    assert load_file(good) == {"a": [1]}
