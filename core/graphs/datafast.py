"""The fast twin of :func:`causalcheck.graphs.data.load_data`'s CSV reader, for large clean numeric files.

The plain reader decodes the whole file, splits it with the :mod:`csv` module and converts every
cell with ``float()``: at 100 columns × 100 000 rows that is ten million Python calls and well over
a gigabyte of cell strings.  This reader parses a file only when it is *clean*, and in C:

* a regular file within the byte limit, its first line a header of printable ASCII without quotes;
* every later byte a digit, ``.``, ``e``, ``E``, ``+``, ``-``, the delimiter or a newline — plain
  numbers and empty cells, no quotes, spaces, carriage returns, labels, ``nan`` or ``inf`` text;
* every non-blank row as many cells as the header, and none of them all empty.

pandas' C reader parses it where pandas is installed (a file of :data:`PANDAS_FROM_BYTES` or more, or any
once pandas is imported), otherwise ``numpy.loadtxt``; both round each
number exactly as ``float()`` does (``tests/test_graphs_datafast.py`` compares the values bit for bit
with the plain reader's).  A file that is anything else — missing, not regular, too large, over the
cell limit, with a BOM, quotes, labels, a short row — gives ``None`` and the plain reader reads it, so
every message and limit comes from one place (:func:`causalcheck.graphs.data.load_data`).
"""

from __future__ import annotations

import os
import stat
import sys
import warnings
from typing import Any

from causalcheck.base.files import DEFAULT_MAX_INPUT_BYTES
from causalcheck.base.limits import MAX_DATA_CELLS

__all__ = ["PANDAS_FROM_BYTES", "read_clean_csv"]

#: The bytes a clean data row may hold, besides its delimiter.
_NUMBER_BYTES = b"0123456789.eE+-\n"
#: The header's bytes: printable ASCII and tab, no quote.
_HEADER_BYTES = bytes(b for b in range(0x20, 0x7F) if b != ord('"')) + b"\t"
_CHUNK = 1 << 24
#: pandas parses a file of at least this many bytes (or any file, once imported); ``numpy.loadtxt`` a smaller
#: one: importing pandas costs about 0.3 s, what it saves on 20 MB of numbers.
PANDAS_FROM_BYTES = 16 << 20


def read_clean_csv(path: str) -> tuple[list[str], Any] | None:
    """The header names and the ``rows × columns`` float64 values of the clean CSV *path*, or None.

    None means "not clean (module docstring): read it with the plain reader", never an error.
    """
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or not 0 < st.st_size <= DEFAULT_MAX_INPUT_BYTES:
            return None
        with open(path, "rb") as fh:
            scanned = _scan(fh)
    except OSError:
        return None
    if scanned is None:
        return None
    header, delimiter = scanned
    values = _parse(path, delimiter)
    if values is None or not values.shape[0] or values.shape[1] != len(header):
        return None  # no rows, or a first row of another width
    import numpy as np

    if np.isnan(values).any():  # empty cells, or a short row (pandas fills it with NaN)?
        if np.isnan(values).all(axis=1).any():  # a row of empty cells: the plain reader skips it
            return None
        if _delimiters(path) != (len(header) - 1) * values.shape[0]:  # the plain reader refuses a short row
            return None
    return header, values


def _delimiters(path: str) -> int:
    """The delimiters after the header line of the clean file *path* (commas or tabs, whichever it has)."""
    count = 0
    with open(path, "rb") as fh:
        fh.readline()
        for chunk in iter(lambda: fh.read(_CHUNK), b""):
            count += chunk.count(b",") + chunk.count(b"\t")  # a clean data row holds only its own delimiter
    return count


def _scan(fh: Any) -> tuple[list[str], str] | None:
    """The header and the delimiter, when every byte is clean and the plain reader's cell limit is kept."""
    head = fh.read(4096)
    # the plain reader's choice, from the first 4 096 characters (bytes, in an ASCII file)
    delimiter = b"\t" if head.count(b"\t") > head.count(b",") else b","
    line_end = head.find(b"\n")
    if line_end < 0:
        return None
    header_bytes = head[:line_end]
    if header_bytes.translate(None, _HEADER_BYTES) or not header_bytes.strip():
        return None
    header = [c.strip() for c in header_bytes.decode("ascii").split(delimiter.decode())]
    if not any(header):  # a row of empty cells: the plain reader skips it, the next row is its header
        return None
    allowed = _NUMBER_BYTES + delimiter
    chunk = head[line_end + 1 :] or fh.read(_CHUNK)
    newlines = 1
    trailing = 0  # newlines at the end of what was read
    while chunk:
        if chunk.translate(None, allowed):
            return None
        newlines += chunk.count(b"\n")
        end = len(chunk)
        while end and chunk[end - 1] == 10:  # b"\n"
            end -= 1
        trailing = len(chunk) - end + (trailing if not end else 0)
        chunk = fh.read(_CHUNK)
    # the plain reader's size check, before parsing: it raises over the limit
    rows = newlines - trailing
    if rows * (head.split(b"\n", 1)[0].count(delimiter) + 1) > MAX_DATA_CELLS.value():
        return None
    return header, delimiter.decode()


def _parse(path: str, delimiter: str) -> Any:
    """The data rows of the clean file *path* as float64 (pandas' C reader, else ``numpy.loadtxt``), or None."""
    import numpy as np

    pd = _pandas() if "pandas" in sys.modules or os.path.getsize(path) >= PANDAS_FROM_BYTES else None
    try:
        if pd is None:
            with warnings.catch_warnings():  # "input contained no data": a header alone, left to the plain reader
                warnings.simplefilter("ignore", UserWarning)
                values = np.loadtxt(path, delimiter=delimiter, skiprows=1, dtype=np.float64, ndmin=2, comments=None, encoding="ascii")
            return values if values.shape[0] else None
        options: dict[str, Any] = {}
        if int(pd.__version__.split(".")[0]) < 3:  # pandas 3 rounds as float() does by default
            options["float_precision"] = "round_trip"
        frame = pd.read_csv(
            path, sep=delimiter, header=None, skiprows=1, dtype=np.float64, keep_default_na=False, na_values=[""],
            skip_blank_lines=True, engine="c", **options,
        )
        return frame.to_numpy(dtype=np.float64)
    except (ValueError, TypeError, OverflowError, OSError, IndexError):  # pandas' ParserError and EmptyDataError are ValueErrors
        return None


def _pandas() -> Any:
    """pandas where it is installed, else None (it is an optional dependency)."""
    try:
        import pandas
    except ImportError:
        return None
    return pandas
