"""The fast CSV reader (``causalcheck.graphs.datafast``) against its plain twin, on generated files.

Every generated file is read twice by :func:`causalcheck.graphs.data.load_data` — once as it runs
(a clean file parsed in C), once with the fast reader switched off (the ``csv`` module and ``float()``
per cell) — and the outcomes must be equal: the same names, kinds, levels, notes and suspects, the
values bit for bit, or the same error type and message.  Files are drawn clean half of the time
(numbers in many spellings, empty cells, blank lines) and damaged otherwise (labels, ``nan``, ``inf``,
quotes, spaces, carriage returns, a BOM, short and long rows, rows of empty cells, a header alone).
Both parsers of the fast path are exercised: pandas' C reader and ``numpy.loadtxt``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from typing import Any
from unittest import mock

import pytest
from causalcheck.base.errors import CausalCheckError
from causalcheck.graphs import data as plain_data
from causalcheck.graphs import datafast
from causalcheck.graphs.data import load_data
from hypothesis import example, given
from hypothesis import strategies as st

CLEAN_TOKENS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda v: f"{v:.3e}"),
    st.integers(-(10**20), 10**20).map(str),
    st.sampled_from(["", "-0", "+1", ".5", "1.", "1E5", "-.25e-3", "0", "7", "1e400", "1e-400", "00012", "4.9e-324"]),
)
DAMAGED_TOKENS = st.sampled_from(["nan", "NA", "null", "inf", "-Infinity", "1e", "a", "lo", '"1"', " 1", "1 ", "1_0", "e5", "--1", "1,5", "x\ty", "."])
NAMES = st.sampled_from(["a", "b", "c", "d", "e f", " g", "", "a"])


@st.composite
def csv_files(draw: Any) -> bytes:
    """A CSV: clean, clean cells in an irregular layout (short, long and empty rows), or damaged cells."""
    mode = draw(st.sampled_from(["clean", "layout", "damaged"]))
    width = draw(st.integers(1, 4))
    header = [draw(NAMES) for _ in range(width)]
    delimiter = draw(st.sampled_from([",", "\t"]))
    token = DAMAGED_TOKENS if mode == "damaged" and draw(st.booleans()) else CLEAN_TOKENS
    lines = [delimiter.join(header)]
    for _ in range(draw(st.integers(1, 9))):
        if draw(st.integers(0, 9)) == 0:
            lines.append("")  # a blank line
            continue
        cells = width if mode == "clean" or draw(st.integers(0, 3)) else draw(st.integers(1, width + 1))
        if mode == "layout" and draw(st.integers(0, 4)) == 0:
            lines.append(delimiter * (cells - 1))  # a row of empty cells
            continue
        lines.append(delimiter.join(draw(st.one_of(token, CLEAN_TOKENS)) for _ in range(cells)))
    end = draw(st.sampled_from(["\n", "\r\n"])) if mode == "damaged" else "\n"
    text = end.join(lines) + (end if draw(st.booleans()) else "")
    prefix = b"\xef\xbb\xbf" if mode == "damaged" and draw(st.integers(0, 9)) == 0 else b""
    return prefix + text.encode()


def _outcome(path: str, fast: bool, parser: str) -> Any:
    """What load_data gives: the table's fields (values as bytes) or the error's type and message."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(datafast, "PANDAS_FROM_BYTES", 0))
        if not fast:
            stack.enter_context(mock.patch.object(plain_data, "read_clean_csv", lambda p: None))
        if parser == "numpy":
            stack.enter_context(mock.patch.dict(sys.modules, {"pandas": None}))  # import pandas raises ImportError
        try:
            names, columns, kinds, notes, suspects = plain_data._csv_columns(path)
            read = (names, [c.tobytes() for c in columns], kinds, notes, suspects)
        except CausalCheckError as exc:
            return type(exc).__name__, str(exc)
        nodes = list(dict.fromkeys(n for n in names if n))
        try:
            t = load_data(path, nodes, nan="drop", extra_columns="ignore", min_rows=1)
        except CausalCheckError as exc:
            return read, type(exc).__name__, str(exc)
        return read, t.names, t.values.tobytes(), t.kinds, t.levels, t.notes, t.suspects, t.discrete, t.rows_dropped


@pytest.mark.parametrize("parser", ["pandas", "numpy"])
@given(content=csv_files())
@example(content=b"a,b\n1,2\n,\n3,4\n")  # a row of empty cells: skipped by the plain reader
@example(content=b"a,b\n1,2\n3\n4,5\n")  # a short row: refused by the plain reader
@example(content=b"a,b\n1,2\n3,4,5\n")  # a long row: refused by the plain reader
@example(content=b",\n1,2\n3,4\n")  # a header of empty cells: skipped, the next row is the header
@example(content=b"a,b\n1,2\n3, 4\n4,1e5\n")  # a space in a cell
def test_the_fast_reader_reads_every_file_as_the_plain_reader(parser, content):
    """Same table bit for bit, or the same error, with and without the fast path (pandas and numpy parsers)."""
    if parser == "pandas":
        pytest.importorskip("pandas")
    fd, path = tempfile.mkstemp(suffix=".csv")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(content)
        assert _outcome(path, True, parser) == _outcome(path, False, parser)
    finally:
        os.unlink(path)
