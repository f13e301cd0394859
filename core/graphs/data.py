"""Observational data for the validator: one numeric table whose columns are the graph's nodes.

:func:`load_data` accepts a pandas ``DataFrame``, a NumPy array with ``names=``, a mapping
``name -> values`` or a CSV path (a header row of names, one row per sample; an empty cell is
a missing value) and returns a :class:`DataTable` — float64 values, one column per node in
the graph's order.  A clean numeric CSV is parsed in C (:mod:`causalcheck.graphs.datafast`), any
other by the :mod:`csv` module, with the same values bit for bit and the same messages.  Everything that would make a test meaningless is refused with an
:class:`~causalcheck.base.errors.InputFormatError` naming the columns:

* nodes without a column and columns that are not nodes (``extra_columns="ignore"`` keeps
  the nodes' columns and drops the others);
* infinite values;
* missing values (NaN) — unless ``nan="drop"``, which drops those rows and reports how many;
* constant columns (a test needs variation) and fewer rows than the tests need.

Categorical data as pandas gives it are read, not refused: text columns (pgmpy's sampler
output, a CSV of labels), ``category`` and bool columns become level codes ``0..k-1`` (text
in sorted order, a ``category`` in its own order; text that is all numbers becomes those
numbers), and the unnamed first column ``DataFrame.to_csv`` writes (its index) is ignored;
:attr:`DataTable.notes` says what was done.  Each column has a *kind*
(:attr:`DataTable.kinds`: ``continuous``, ``integer`` — whole numbers — or ``categorical``)
and a number of distinct values (:attr:`DataTable.levels`).  A table is *discrete* when
every column is categorical or an integer with at most :data:`MAX_DISCRETE_LEVELS` levels;
the validator's ``ci_test="auto"`` (:func:`causalcheck.graphchecks.citests.choose_test`) reads
the kinds, levels and rows.

>>> t = load_data({"a": [1.0, 2.0, 4.0, 3.0, 0.0], "b": [0.5, 0.1, 0.3, 0.2, 0.9]}, ["b", "a"])
>>> t.names, t.values.shape, t.discrete
(('b', 'a'), (5, 2), False)
>>> s = load_data({"c": ["lo", "hi", "hi", "lo", "mid"]}, ["c"])
>>> s.values.ravel().tolist(), s.kinds, s.levels, s.discrete
([1.0, 0.0, 0.0, 1.0, 2.0], ('categorical',), (3,), True)
>>> load_data({"a": [1.0, 1.0, 1.0, 1.0, 1.0]}, ["a"])
Traceback (most recent call last):
...
causalcheck.base.errors.InputFormatError: data column(s) ['a'] are constant (values 1.0); a test needs variation
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from causalcheck.base.errors import InputFormatError, did_you_mean, keyword_hint
from causalcheck.base.files import csv_numbered_rows, read_input_text
from causalcheck.base.limits import check_table_size
from causalcheck.graphs.datafast import read_clean_csv

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

__all__ = ["MAX_DISCRETE_LEVELS", "DataTable", "load_data"]

#: A column of whole numbers with at most this many distinct values counts as discrete.
MAX_DISCRETE_LEVELS = 20

NanPolicy = Literal["error", "drop"]
ExtraColumns = Literal["error", "ignore"]
#: How a column was read: real numbers, whole numbers, or category codes (text, ``category``, bool).
ColumnKind = Literal["continuous", "integer", "categorical"]


@dataclass(frozen=True, eq=False)
class DataTable:
    """Samples of the graph's nodes: ``values[:, k]`` is the column of ``names[k]``."""

    names: tuple[str, ...]
    values: np.ndarray
    discrete: bool
    rows_dropped: int = 0
    source: str = "data"
    kinds: tuple[ColumnKind, ...] = ()
    #: the distinct values of each column, ``None`` for one not counted yet (read them from :attr:`levels`)
    counted_levels: tuple[int | None, ...] = ()
    notes: tuple[str, ...] = ()
    #: ``(column, why)`` for a text column whose cells are mostly numbers (a damaged number is likelier
    #: than labels); errors about the column's kind quote it.
    suspects: tuple[tuple[str, str], ...] = ()

    @property
    def rows(self) -> int:
        """Number of samples."""
        return int(self.values.shape[0])

    @property
    def levels(self) -> tuple[int, ...]:
        """The number of distinct values of each column.

        Integer and categorical columns are counted when the table is made (``ci_test="auto"`` reads
        them); a continuous column when this is first read (a sort of the column).
        """
        if None not in self.counted_levels:
            return self.counted_levels  # type: ignore[return-value]
        import numpy as np

        counted = tuple(int(np.unique(self.values[:, k]).size) if m is None else m for k, m in enumerate(self.counted_levels))
        object.__setattr__(self, "counted_levels", counted)  # a cache of what the values determine
        return counted

    def to_dict(self) -> dict[str, Any]:
        """``{"source", "rows", "columns", "discrete", "rows_dropped"}`` (no values)."""
        return {
            "source": self.source,
            "rows": self.rows,
            "columns": list(self.names),
            "discrete": self.discrete,
            "rows_dropped": self.rows_dropped,
        }


def _read_csv(path: str) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The header and the (line, cells) of each non-blank row of the CSV *path*."""
    text = read_input_text(path, what="data file")  # regular files only, UTF-8, errors naming the path
    sample = text[:4096]
    delimiter = "\t" if sample.count("\t") > sample.count(",") else ","
    check_table_size(text.rstrip("\n").count("\n"), sample.split("\n", 1)[0].count(delimiter) + 1, f"data file {path!r}")  # before parsing
    rows = [(line, r) for line, r in csv_numbered_rows(text, source=path, delimiter=delimiter) if any(c.strip() for c in r)]
    if not rows:
        raise InputFormatError(f"data file {path!r} is empty")
    header = [c.strip() for c in rows[0][1]]
    for line, r in rows[1:]:
        if len(r) != len(header):
            raise InputFormatError(f"{path}:{line}: the row has {len(r)} cells but the header names {len(header)} columns")
    return header, rows[1:]


def _categorical(labels: Sequence[Any], order: Sequence[Any] | None = None) -> Any:
    """Codes ``0..k-1`` of *labels* (``None`` is missing: NaN), in *order* or the sorted order of their text."""
    import numpy as np

    present = [x for x in labels if x is not None]
    levels = list(order) if order is not None else sorted({str(x) for x in present})
    where = {str(v): k for k, v in enumerate(levels)}
    return np.array([np.nan if x is None else where[str(x)] for x in labels], dtype=float)


def _numeric_kind(values: Any) -> ColumnKind:
    """``"integer"`` when every finite value is a whole number, else ``"continuous"``."""
    import numpy as np

    finite = values[np.isfinite(values)]
    return "integer" if finite.size and bool(np.all(finite == np.round(finite))) else "continuous"


def _csv_columns(path: str) -> tuple[list[str], list[Any], list[ColumnKind], list[str], tuple[tuple[str, str], ...]]:
    import numpy as np

    clean = read_clean_csv(path)  # a clean numeric file parsed in C; None: anything else, read below
    header, rows = (clean[0], []) if clean is not None else _read_csv(path)
    notes: list[str] = []
    suspects: list[tuple[str, str]] = []
    skip = -1
    if header and header[0] == "" and len(header) > 1:  # pandas' to_csv writes its index under an empty name
        skip = 0
        notes.append(f"data file {path!r}: the first column has no name (an index written by pandas); ignored")
    if clean is not None:
        keep = [k for k in range(len(header)) if k != skip]
        picked = [clean[1][:, k] for k in keep]
        return [header[k] for k in keep], picked, [_numeric_kind(c) for c in picked], notes, ()
    columns: list[Any] = []
    kinds: list[ColumnKind] = []
    names: list[str] = []
    for k, name in enumerate(header):
        if k == skip:
            continue
        cells: list[str | None] = []
        out = np.empty(len(rows))
        text: list[int] = []  # rows whose cell is not a number
        for i, (_, r) in enumerate(rows):
            cell = r[k].strip()
            if cell == "" or cell.lower() in ("nan", "na", "null"):
                out[i] = np.nan
                cells.append(None)
                continue
            cells.append(cell)
            try:
                out[i] = float(cell)
            except ValueError:
                text.append(i)
        names.append(name)
        if text:
            columns.append(_categorical(cells))
            kinds.append("categorical")
            present = sum(c is not None for c in cells)
            if 2 * len(text) < present:  # mostly numbers: a few text cells are more likely damage than labels
                line, r = rows[text[0]]
                suspects.append((name, f"{present - len(text)} of {present} cells are numbers; {path}:{line} holds {r[k].strip()!r}"))
        else:
            columns.append(out)
            kinds.append(_numeric_kind(out))
    return names, columns, kinds, notes, tuple(suspects)


def _frame_column(series: Any) -> tuple[Any, ColumnKind]:
    """One DataFrame column as floats and its kind: bool, ``category`` and text columns become category codes
    (text that is all numbers becomes those numbers)."""
    import numpy as np
    import pandas as pd

    kind = getattr(series.dtype, "kind", "O")
    if kind == "b":
        return series.to_numpy(dtype=float), "categorical"
    if kind in "iuf":
        values = series.to_numpy(dtype=float, na_value=np.nan)
        return values, _numeric_kind(values)
    if isinstance(series.dtype, pd.CategoricalDtype):
        codes = series.cat.codes.to_numpy().astype(float)
        codes[codes < 0] = np.nan
        return codes, "categorical"
    labels = [None if pd.isna(x) else x for x in series.tolist()]
    if any(isinstance(x, bool) for x in labels):
        return _categorical([None if x is None else str(x) for x in labels]), "categorical"
    numbers = pd.to_numeric(pd.Series([x for x in labels if x is not None], dtype=object), errors="coerce")
    if not numbers.isna().any():
        values = np.array([np.nan if x is None else float(x) for x in labels])
        return values, _numeric_kind(values)
    return _categorical(labels), "categorical"


def _frame_columns(df: Any) -> tuple[list[str], list[Any], list[ColumnKind], list[str]]:
    names = [str(c) for c in df.columns]
    if len(set(names)) != len(names):
        raise InputFormatError(f"data column names repeat: {sorted({c for c in names if names.count(c) > 1})!r}")
    columns: list[Any] = []
    kinds: list[ColumnKind] = []
    for col in df.columns:
        values, kind = _frame_column(df[col])
        columns.append(values)
        kinds.append(kind)
    return names, columns, kinds, []


def _mapping_column(col: Any) -> tuple[Any, ColumnKind]:
    """One column of a mapping as floats and its kind (labels become category codes, numeric text numbers)."""
    import numpy as np

    if col.dtype.kind in "biuf":
        values = col.astype(float)
        return values, "categorical" if col.dtype.kind == "b" else _numeric_kind(values)
    labels = [None if x is None or (isinstance(x, float) and np.isnan(x)) else x for x in col.tolist()]
    try:
        values = np.array([np.nan if x is None else float(x) for x in labels])
    except (TypeError, ValueError):
        return _categorical(labels), "categorical"
    return values, _numeric_kind(values)


def _array_columns(arr: Any, names: Sequence[str] | None) -> tuple[list[str], list[Any], list[ColumnKind], list[str]]:
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
    f = a.astype(float)
    columns = [f[:, k] for k in range(f.shape[1])]
    kinds: list[ColumnKind] = ["categorical" if a.dtype.kind == "b" else _numeric_kind(c) for c in columns]
    return labels, columns, kinds, []


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
    suspects: tuple[tuple[str, str], ...] = ()
    mod = type(data).__module__ or ""
    if isinstance(data, str | os.PathLike):
        source = os.fspath(data)
        cols, columns, kinds, notes, suspects = _csv_columns(source)
    elif mod.startswith("pandas") and hasattr(data, "columns"):
        if names is not None and [str(n) for n in names] != [str(c) for c in data.columns]:
            raise InputFormatError(f"names={list(names)!r} disagree with the DataFrame columns {list(data.columns)!r}")
        cols, columns, kinds, notes = _frame_columns(data)
    elif isinstance(data, Mapping):
        cols = [str(k) for k in data]
        columns, kinds, notes = [], [], []
        for k in data:
            col = np.asarray(data[k])
            if col.ndim != 1 or col.dtype.kind not in "biufUO":
                raise InputFormatError(f"data column {k!r} must be a 1-D sequence of numbers or labels; got dtype {col.dtype}, shape {col.shape!r}")
            values, kind = _mapping_column(col)
            columns.append(values)
            kinds.append(kind)
        if len({c.shape[0] for c in columns}) > 1:
            raise InputFormatError(f"data columns have different lengths: { {c: int(v.shape[0]) for c, v in zip(cols, columns, strict=True)} !r}")
    elif mod.startswith("numpy") or isinstance(data, list):
        cols, columns, kinds, notes = _array_columns(data, names)
    else:
        raise InputFormatError(
            f"cannot read data from a {mod}.{type(data).__name__}: pass a pandas DataFrame, a NumPy array with names=, "
            "a mapping of column -> values, or a CSV path"
        )
    check_table_size(len(columns[0]) if columns else 0, len(columns), source)
    try:
        table = _checked_table(cols, columns, kinds, nodes, nan, extra_columns, min_rows, source)
    except InputFormatError as exc:  # the checks below the reader do not know the file: name it
        if isinstance(data, str | os.PathLike) and source not in str(exc):
            raise InputFormatError(f"{source}: {exc}") from None
        raise
    suspects = tuple(x for x in suspects if x[0] in table.names)
    notes += [f"column {c!r} read as categories although {why}" for c, why in suspects]
    return replace(table, notes=(*notes, *table.notes), suspects=suspects)


def _checked_table(
    cols: list[str], columns: list[Any], kinds: list[ColumnKind], nodes: Sequence[str], nan: str, extra_columns: str, min_rows: int, source: str
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
            hints = [f"{n!r}: {hint[2:-1]}" for n in missing if (hint := did_you_mean(n, extra))]
            parts.append(f"nodes without a column {missing!r}" + (f" ({'; '.join(hints)})" if hints else ""))
        if extra and extra_columns == "error":
            parts.append(f"columns that are not nodes {extra!r} ({keyword_hint('extra_columns', 'ignore')} to drop them)")
        raise InputFormatError(f"data columns do not match the graph's nodes: {'; '.join(parts)}")
    where = {c: k for k, c in enumerate(cols)}
    order = [where[n] for n in nodes]
    values = np.column_stack([columns[k] for k in order]) if order else np.empty((0, 0))
    node_kinds = tuple(kinds[k] for k in order)
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
                f"data column(s) {bad!r} contain NaN in {int(nan_rows.sum())} row(s) (first: data row {first + 1}, the header not counted); "
                f"{keyword_hint('nan', 'drop')} to drop those rows"
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
    # a continuous column's distinct values are counted when DataTable.levels is read (a sort per column)
    levels = tuple(None if kind == "continuous" else int(np.unique(values[:, k]).size) for k, kind in enumerate(node_kinds))
    discrete = all(k == "categorical" or (k == "integer" and (m or 0) <= MAX_DISCRETE_LEVELS) for k, m in zip(node_kinds, levels, strict=True))
    encoded = [f"{nodes[k]} ({levels[k]} levels)" for k in range(len(nodes)) if node_kinds[k] == "categorical"]
    notes = (f"categorical column(s) encoded as level codes: {', '.join(encoded)}",) if encoded else ()
    return DataTable(tuple(nodes), np.ascontiguousarray(values), discrete, dropped, source, node_kinds, levels, notes)
