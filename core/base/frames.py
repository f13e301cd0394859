"""Tables for notebooks: a pandas ``DataFrame`` (``to_frame()``) and an HTML table (``_repr_html_``).

Every result with rows — a lab score report, a comparison, a validator report, an explain
summary — gives its rows as plain dicts; :func:`frame` makes them a ``DataFrame`` (pandas is
optional: without it the error says how to install it) and :func:`html_table` the table Jupyter
shows for the object (no pandas, no script, every cell escaped).  Nested values are flattened
with dotted names (``{"shd": {"total": 3}}`` → column ``shd.total``); an interval
``{"mean", "low", "high", "n"}`` becomes ``metric``, ``metric.low``, ``metric.high``, ``metric.n``.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from causalcheck.base.errors import missing_extra

__all__ = ["flat_row", "frame", "html_table"]

#: Most rows an HTML table shows (the rest are counted below it).
HTML_MAX_ROWS = 200


def flat_row(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """*row* with nested mappings flattened to dotted names; an interval's ``mean`` takes the metric's own name.

    >>> flat_row({"edge_f1": {"mean": 0.5, "low": 0.4, "high": 0.6, "n": 9}, "agent": "planner"})
    {'edge_f1': 0.5, 'edge_f1.low': 0.4, 'edge_f1.high': 0.6, 'edge_f1.n': 9, 'agent': 'planner'}
    """
    out: dict[str, Any] = {}
    for key, value in row.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            for sub, v in flat_row(value, f"{name}.").items():
                out[name if sub == f"{name}.mean" else sub] = v
        else:
            out[name] = value
    return out


def frame(rows: Iterable[Mapping[str, Any]], what: str, columns: Sequence[str] = ()) -> Any:
    """A ``pandas.DataFrame`` of the flattened *rows*: *columns* first (so an empty table still has
    them), then the others in first-seen order; *what* names the caller in the install hint."""
    try:
        import pandas
    except ImportError:
        raise missing_extra(what, "pandas") from None
    flat = [flat_row(r) for r in rows]
    names = list(dict.fromkeys([*columns, *(k for r in flat for k in r)]))
    return pandas.DataFrame(flat, columns=names)


def html_table(rows: Sequence[Mapping[str, Any]], caption: str) -> str:
    """An HTML table of the flattened *rows* under *caption* (at most :data:`HTML_MAX_ROWS` rows; every cell escaped).

    >>> html_table([{"a": 1, "b": "<x>"}], "t")
    '<table><caption>t</caption><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>&lt;x&gt;</td></tr></tbody></table>'
    """
    flat = [flat_row(r) for r in rows]
    columns = list(dict.fromkeys(k for r in flat for k in r))
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_cell(r.get(c))}</td>" for c in columns) + "</tr>" for r in flat[:HTML_MAX_ROWS]
    )
    more = f"<p>{len(flat) - HTML_MAX_ROWS} more rows (to_frame() has them all)</p>" if len(flat) > HTML_MAX_ROWS else ""
    return f"<table><caption>{html.escape(caption)}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}"


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.4g}"
    return html.escape(str(value))
