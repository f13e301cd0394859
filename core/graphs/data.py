"""Observational data for the validator: one numeric table whose columns are the graph's nodes.

:func:`load_data` accepts a pandas ``DataFrame``, a NumPy array with ``names=``, a mapping
``name -> values`` or a CSV path (a header row of names, one row per sample; an empty cell is
a missing value) and returns a :class:`DataTable` — float64 values, one column per node in
the graph's order.  Everything that would make a test meaningless is refused with an
:class:`~causalcheck.base.errors.InputFormatError` naming the columns:

* nodes without a column and columns that are not nodes (``extra_columns="ignore"`` keeps
  the nodes' columns and drops the others);
* non-numeric columns (strings, categories: encode them first), infinite values;
* missing values (NaN) — unless ``nan="drop"``, which drops those rows and reports how many;
* constant columns (a test needs variation) and fewer rows than the tests need.

A table is *discrete* when every column holds integers (integer or boolean dtype, or whole
numbers with at most :data:`MAX_DISCRETE_LEVELS` distinct values in a CSV); the validator's
``ci_test="auto"`` then picks the χ² test, and Fisher-z otherwise.

>>> t = load_data({"a": [1.0, 2.0, 4.0, 3.0, 0.0], "b": [0.5, 0.1, 0.3, 0.2, 0.9]}, ["b", "a"])
>>> t.names, t.values.shape, t.discrete
(('b', 'a'), (5, 2), False)
>>> load_data({"a": [1.0, 1.0, 1.0, 1.0, 1.0]}, ["a"])
Traceback (most recent call last):
...
causalcheck.base.errors.InputFormatError: data column(s) ['a'] are constant (values 1.0); a test needs variation
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import csv_rows, read_input_text

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["MAX_DISCRETE_LEVELS", "DataTable", "load_data"]

#: A CSV column of whole numbers with at most this many distinct values counts as discrete.
MAX_DISCRETE_LEVELS = 20

NanPolicy = Literal["error", "drop"]
ExtraColumns = Literal["error", "ignore"]


@dataclass(frozen=True, eq=False)
class DataTable:
    """Samples of the graph's nodes: ``values[:, k]`` is the column of ``names[k]``."""

    names: tuple[str, ...]
    values: np.ndarray
    discrete: bool
    rows_dropped: int = 0
    source: str = "data"

    @property
    def rows(self) -> int:
        """Number of samples."""
        return int(self.values.shape[0])

    def to_dict(self) -> dict[str, Any]:
        """``{"source", "rows", "columns", "discrete", "rows_dropped"}`` (no values)."""
        return {
            "source": self.source,
            "rows": self.rows,
            "columns": list(self.names),
            "discrete": self.discrete,
            "rows_dropped": self.rows_dropped,
        }


def _read_csv(path: str) -> tuple[list[str], list[list[str]]]:
    text = read_input_text(path, what="data file")  # regular files only, UTF-8, errors naming the path
    sample = text[:4096]
    delimiter = "\t" if sample.count("\t") > sample.count(",") else ","
    rows = csv_rows(text, source=path, delimiter=delimiter)
    rows = [r for r in rows if any(c.strip() for c in r)]
    if not rows:
        raise InputFormatError(f"data file {path!r} is empty")
    header = [c.strip() for c in rows[0]]
    for k, r in enumerate(rows[1:], start=2):
        if len(r) != len(header):
            raise InputFormatError(f"{path}:{k}: the row has {len(r)} cells but the header names {len(header)} columns")
    return header, rows[1:]


def _csv_columns(path: str) -> tuple[list[str], list[Any], list[bool]]:
    import numpy as np

    header, rows = _read_csv(path)
    columns: list[Any] = []
    integral: list[bool] = []
    bad: dict[str, str] = {}
    for k, name in enumerate(header):
        out = np.empty(len(rows))
        for i, r in enumerate(rows):
            cell = r[k].strip()
            if cell == "" or cell.lower() in ("nan", "na", "null"):
                out[i] = np.nan
                continue
            try:
                out[i] = float(cell)
            except ValueError:
                bad.setdefault(name, f"{cell!r} (line {i + 2})")
                out[i] = np.nan
        columns.append(out)
        finite = out[np.isfinite(out)]
        integral.append(bool(finite.size) and bool(np.all(finite == np.round(finite))) and np.unique(finite).size <= MAX_DISCRETE_LEVELS)
    if bad:
        shown = ", ".join(f"{n!r}: {v}" for n, v in bad.items())
        raise InputFormatError(f"data file {path!r} has non-numeric column(s): {shown}; encode categories as numbers")
    return header, columns, integral


def _frame_columns(df: Any) -> tuple[list[str], list[Any], list[bool]]:
    import numpy as np

    names = [str(c) for c in df.columns]
    columns: list[Any] = []
    integral: list[bool] = []
    bad = []
    for name, col in zip(names, df.columns, strict=True):
        series = df[col]
        kind = getattr(series.dtype, "kind", "O")
        if kind not in "biuf":
            bad.append(f"{name!r} ({series.dtype})")
            continue
        columns.append(series.to_numpy(dtype=float, na_value=np.nan))
        integral.append(kind in "biu")
    if bad:
        raise InputFormatError(f"data has non-numeric column(s): {', '.join(bad)}; encode categories as numbers")
    return names, columns, integral


def _array_columns(arr: Any, names: Sequence[str] | None) -> tuple[list[str], list[Any], list[bool]]:
    import numpy as np

    a = np.asarray(arr)
    if a.ndim != 2:
        raise InputFormatError(f"a data array must be 2-D (rows = samples, columns = nodes); got shape {a.shape!r}")
    if names is None:
        raise InputFormatError(f"a {a.shape[0]}x{a.shape[1]} data array has no column names: pass names=[...]")
    labels = [str(n) for n in names]
    if len(labels) != a.shape[1]:
        raise InputFormatError(f"names has {len(labels)} entries but the data array has {a.shape[1]} columns")
    if a.dtype.kind not in "biuf":
        raise InputFormatError(f"data array entries must be numbers; got dtype {a.dtype}")
    integral = a.dtype.kind in "biu"
    f = a.astype(float)
    return labels, [f[:, k] for k in range(f.shape[1])], [integral] * f.shape[1]


def load_data(
    data: Any,
    nodes: Sequence[str],
    *,
    names: Sequence[str] | None = None,
    nan: NanPolicy = "error",
    extra_columns: ExtraColumns = "error",
    min_rows: int = 5,
) -> DataTable:
    """The samples of *nodes* from *data* (see the module docstring for what is accepted and refused)."""
    import numpy as np

    if nan not in ("error", "drop"):
        raise InputFormatError(f"nan={nan!r} must be 'error' or 'drop'")
    if extra_columns not in ("error", "ignore"):
        raise InputFormatError(f"extra_columns={extra_columns!r} must be 'error' or 'ignore'")
    source = "data"
    mod = type(data).__module__ or ""
    if isinstance(data, str | os.PathLike):
        source = os.fspath(data)
        cols, columns, integral = _csv_columns(source)
    elif mod.startswith("pandas") and hasattr(data, "columns"):
        if names is not None and [str(n) for n in names] != [str(c) for c in data.columns]:
            raise InputFormatError(f"names={list(names)!r} disagree with the DataFrame columns {list(data.columns)!r}")
        cols, columns, integral = _frame_columns(data)
    elif isinstance(data, Mapping):
        cols = [str(k) for k in data]
        columns, integral = [], []
        for k in data:
            col = np.asarray(data[k])
            if col.ndim != 1 or col.dtype.kind not in "biuf":
                raise InputFormatError(f"data column {k!r} must be a 1-D sequence of numbers; got dtype {col.dtype}, shape {col.shape!r}")
            columns.append(col.astype(float))
            integral.append(col.dtype.kind in "biu")
        if len({c.shape[0] for c in columns}) > 1:
            raise InputFormatError(f"data columns have different lengths: { {c: int(v.shape[0]) for c, v in zip(cols, columns, strict=True)} !r}")
    elif mod.startswith("numpy") or isinstance(data, list):
        cols, columns, integral = _array_columns(data, names)
    else:
        raise InputFormatError(
            f"cannot read data from a {mod}.{type(data).__name__}: pass a pandas DataFrame, a NumPy array with names=, "
            "a mapping of column -> values, or a CSV path"
        )
    try:
        return _checked_table(cols, columns, integral, nodes, nan, extra_columns, min_rows, source)
    except InputFormatError as exc:  # the checks below the reader do not know the file: name it
        if isinstance(data, str | os.PathLike) and source not in str(exc):
            raise InputFormatError(f"{source}: {exc}") from None
        raise


def _checked_table(
    cols: list[str], columns: list[Any], integral: list[bool], nodes: Sequence[str], nan: str, extra_columns: str, min_rows: int, source: str
) -> DataTable:
    """The table of *nodes* from the read columns, refused when it cannot be tested (see the module docstring)."""
    import numpy as np

    if len(set(cols)) != len(cols):
        raise InputFormatError(f"data column names repeat: {sorted({c for c in cols if cols.count(c) > 1})!r}")
    missing = [n for n in nodes if n not in cols]
    extra = [c for c in cols if c not in set(nodes)]
    if missing or (extra and extra_columns == "error"):
        parts = []
        if missing:
            parts.append(f"nodes without a column {missing!r}")
        if extra and extra_columns == "error":
            parts.append(f"columns that are not nodes {extra!r} (pass extra_columns='ignore' to drop them)")
        raise InputFormatError(f"data columns do not match the graph's nodes: {'; '.join(parts)}")
    where = {c: k for k, c in enumerate(cols)}
    order = [where[n] for n in nodes]
    values = np.column_stack([columns[k] for k in order]) if order else np.empty((0, 0))
    is_int = all(integral[k] for k in order)
    if np.isinf(values).any():
        bad = [nodes[k] for k in range(values.shape[1]) if np.isinf(values[:, k]).any()]
        raise InputFormatError(f"data column(s) {bad!r} contain infinite values")
    dropped = 0
    nan_rows = np.isnan(values).any(axis=1)
    if nan_rows.any():
        bad = [nodes[k] for k in range(values.shape[1]) if np.isnan(values[:, k]).any()]
        if nan == "error":
            first = int(np.flatnonzero(nan_rows)[0])
            raise InputFormatError(
                f"data column(s) {bad!r} contain NaN in {int(nan_rows.sum())} row(s) (first: row {first}); "
                "pass nan='drop' to drop those rows"
            )
        dropped = int(nan_rows.sum())
        values = values[~nan_rows]
    if values.shape[0] < min_rows:
        raise InputFormatError(f"data has {values.shape[0]} usable row(s); the tests need at least {min_rows}")
    const = [k for k in range(values.shape[1]) if np.all(values[:, k] == values[0, k])]
    if const:
        shown = ", ".join(repr(float(values[0, k])) for k in const)
        raise InputFormatError(
            f"data column(s) {[nodes[k] for k in const]!r} are constant (values {shown}); a test needs variation"
        )
    return DataTable(tuple(nodes), np.ascontiguousarray(values), is_int, dropped, source)
