"""``read_graph`` and ``write_graph``: one entry point for every format and adapter.

``read_graph(source)`` accepts

* a :class:`~causalcheck.graphs.Graph` (returned as is; a stated graph such as CausaLab's
  :class:`~causalcheck.graph.CausalGraph` in its simple representation) or a
  :class:`~causalcheck.records.Hypothesis`;
* a library object: networkx ``DiGraph``/``Graph`` (pgmpy's ``DAG``/``PDAG`` included),
  causal-learn ``GeneralGraph`` / ``Dag``, or a causal-learn result that holds one (``cg.G``
  of PC, the graph of GES's ``Record['G']``; pass FCI's first return value);
* a matrix — NumPy array, pandas DataFrame or nested lists — with ``names=`` (a DataFrame
  has them) and an explicit ``convention=`` (see :mod:`causalcheck.graphs.convert`);
* a path (``str`` or :class:`pathlib.Path`) or the text itself.

The format of a file is taken from *format*, else from the suffix (``.txt`` / ``.graph``
text, ``.dagitty``, ``.dot`` / ``.gv``, ``.gml``, ``.json``, ``.csv`` — an edge list when
its header has source/target columns, an adjacency matrix otherwise), else from the
content (a ``dag {`` header, ``digraph``, ``graph [``, ``Graph Nodes:``, a JSON object).
*policy* applies a :class:`~causalcheck.graphs.NamePolicy` (default: names kept exactly).

Weights.  A matrix (an array, or an adjacency CSV) and an edge-list CSV with a ``weight``
column are weighted: an entry or a row is an edge when ``abs(weight) > threshold``
(``threshold=0`` by default, so a weight-0 row is no edge).  *threshold* for a source with
no weights raises :class:`~causalcheck.graphs.formats.NoWeights` (an :class:`~causalcheck.base.errors.InputFormatError`)
rather than being ignored.

Node attributes (``[latent]``, ``[exposure]``, ``[outcome]``, ``pos``: :attr:`Graph.attributes`)
are read from DAGitty, DOT, GML, JSON, networkx and pgmpy, and written to the same formats;
:func:`write_graph` to a format that cannot hold them (text, causal-learn text, CSV) warns
with :class:`AttributesDropped`, naming each node and attribute left out.

>>> read_graph("X -> Y <- Z").kind
'DAG'
>>> read_graph("pdag { a -- b }").edges[0].is_undirected
True
"""

from __future__ import annotations

import math
import os
import warnings
from pathlib import Path
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import could_be_path, read_input_text
from causalcheck.base.limits import check_graph_size
from causalcheck.graphs import convert
from causalcheck.graphs.formats import (
    FORMATS,
    NoWeights,
    parse_adjacency_csv,
    parse_dot,
    parse_edgelist_csv,
)
from causalcheck.graphs.model import NODE_ATTRIBUTES, Graph
from causalcheck.graphs.names import NamePolicy, apply_policy

__all__ = ["ATTRIBUTE_FORMATS", "SUFFIXES", "AttributesDropped", "guess_format", "read_graph", "write_graph"]


class AttributesDropped(UserWarning):
    """:func:`write_graph` left node attributes out: the format cannot hold them (the message names them)."""


#: Format -> the node attributes it holds (``None``: any attribute).
ATTRIBUTE_FORMATS: dict[str, tuple[str, ...] | None] = {
    "dagitty": None,
    "json": None,
    "dot": NODE_ATTRIBUTES,
    "gml": NODE_ATTRIBUTES,
    "text": (),
    "causallearn": (),
    "edgelist": (),
    "adjacency": (),
}

#: File suffix -> format name.
SUFFIXES: dict[str, str] = {
    ".txt": "text",
    ".graph": "text",
    ".dagitty": "dagitty",
    ".dot": "dot",
    ".gv": "dot",
    ".gml": "gml",
    ".json": "json",
    ".csv": "csv",
    ".tsv": "csv",
}


def _csv_kind(text: str) -> str:
    first = text.lstrip("\ufeff").splitlines()[0].lower() if text.strip() else ""
    cells = {c.strip().strip('"') for c in first.replace(";", ",").replace("\t", ",").split(",")}
    if cells & {"source", "from", "cause", "u"} and cells & {"target", "to", "effect", "v"}:
        return "edgelist"
    return "adjacency"


def guess_format(text: str, path: str | None = None) -> str:
    """The format name for *text* (from *path*'s suffix when it has a known one)."""
    if path is not None:
        fmt = SUFFIXES.get(Path(path).suffix.lower())
        if fmt == "csv":
            return _csv_kind(text)
        if fmt == "text" and text.lstrip("\ufeff \t\r\n").lower().startswith("graph nodes:"):
            return "causallearn"  # causal-learn writes its text format to .txt files
        if fmt is not None:
            return fmt
    head = text.lstrip("\ufeff \t\r\n")
    low = head[:200].lower()
    if low.startswith("{") or low.startswith("["):
        if low.startswith("{") and ('"edges"' in low or '"nodes"' in low):
            return "json"
        return "dagitty"
    first = low.split("{", 1)[0].strip()
    if first in ("dag", "pdag", "mag", "pag") or (first == "graph" and "{" in low and "graph [" not in low):
        return "dagitty"
    if low.startswith(("digraph", "strict", "graph {", "graph{")) or first.startswith(("digraph", "strict")):
        return "dot"
    if low.startswith("graph [") or low.startswith("graph\n[") or low.startswith("graph["):
        return "gml"
    if low.startswith("graph nodes:"):
        return "causallearn"
    first_line = head.splitlines()[0] if head else ""
    if "," in first_line and not low.startswith("nodes") and not any(t in first_line for t in ("->", "<-", "--")):
        return _csv_kind(head)
    return "text"


def _looks_like_path(source: str) -> bool:
    if any(c in source for c in "\x00\n\r") or len(source) > 4096:
        return False
    if any(tok in source for tok in ("->", "<-", "--", "{", ";")):
        return could_be_path(source)
    return True


def _check_threshold(threshold: float | None) -> float | None:
    if threshold is None:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not math.isfinite(threshold) or threshold < 0:
        raise InputFormatError(f"threshold={threshold!r} must be a finite number >= 0")
    return float(threshold)


def _no_weights(threshold: float | None, what: str) -> None:
    if threshold is not None:
        raise NoWeights(
            f"threshold={threshold!r} applies to weighted input (a matrix, an adjacency CSV, an edge-list CSV "
            f"with a weight column); {what} has no weights"
        )


def _from_object(obj: Any, *, names: Any, convention: str | None, symmetric: str, threshold: float | None = None) -> Graph | None:
    if convert.is_matrix(obj):
        return convert.from_matrix(
            obj, names, convention=convention, threshold=threshold or 0.0,
            symmetric="error" if symmetric == "error" else "undirected",
        )
    _no_weights(threshold, f"a {type(obj).__module__}.{type(obj).__name__}")
    if isinstance(obj, Graph):  # a stated graph (a CausalGraph) in the simple representation
        return obj.simple()
    mod = type(obj).__module__ or ""
    if mod == "causalcheck.records" and isinstance(getattr(obj, "graph", None), Graph):
        g: Graph = obj.graph.simple()
        return g
    if convert.is_pgmpy(obj) and convert.is_networkx(obj):
        return convert.from_pgmpy(obj)
    if convert.is_networkx(obj):
        return convert.from_networkx(obj, symmetric="error" if symmetric == "error" else "undirected")
    if convert.is_causallearn_graph(obj):
        return convert.from_causallearn(obj)
    inner = getattr(obj, "G", None)  # causal-learn CausalGraph (PC's result)
    if inner is not None and convert.is_causallearn_graph(inner):
        return convert.from_causallearn(inner)
    if isinstance(obj, dict) and convert.is_causallearn_graph(obj.get("G")):  # GES's Record
        return convert.from_causallearn(obj["G"])
    if isinstance(obj, dict) and "edges" in obj:
        return Graph.from_dict(obj)
    return None


def read_graph(
    source: Any,
    format: str | None = None,
    *,
    names: Any = None,
    convention: str | None = None,
    policy: NamePolicy | str | None = None,
    symmetric: str = "undirected",
    threshold: float | None = None,
) -> Graph:
    """Read a graph from a path, a text or a library object (see the module docstring).

    *names* is the node-name list for a bare matrix; *convention* its reading; *threshold*
    the weight an edge of a weighted source must exceed in absolute value (default 0);
    *policy* a :class:`~causalcheck.graphs.NamePolicy` (or ``"exact"`` / ``"causalab"``)
    applied to the result; *symmetric* (``"undirected"`` or ``"error"``) how a pair written
    both ways with plain arrows is read.
    """
    if format is not None and format not in FORMATS:
        raise InputFormatError(f"format={format!r} must be one of {sorted(FORMATS)!r}")
    threshold = _check_threshold(threshold)
    if not isinstance(source, str | os.PathLike):
        graph = _from_object(source, names=names, convention=convention, symmetric=symmetric, threshold=threshold)
        if graph is None:
            raise InputFormatError(
                f"cannot read a graph from a {type(source).__module__}.{type(source).__name__}: expected a path, "
                "a text, a networkx/pgmpy/causal-learn graph, or a matrix with names= and convention="
            )
        check_graph_size(len(graph.nodes), len(graph.edges), f"graph ({type(source).__name__})")
        return apply_policy(graph, policy)
    path: str | None = None
    if isinstance(source, os.PathLike) or (source.strip() and _looks_like_path(source)):
        path = os.fspath(source)
        p = Path(path)
        if isinstance(source, os.PathLike) or could_be_path(path) or p.suffix.lower() in SUFFIXES:
            text = read_input_text(p, what="graph file")  # regular files only: a FIFO cannot block the read
        else:
            text, path = os.fspath(source), None
    else:
        text = source
    fmt = format or guess_format(text, path)
    where = path or "<string>"
    try:
        if fmt == "adjacency":
            graph = parse_adjacency_csv(text, source=where, convention=convention, threshold=threshold or 0.0)
        elif fmt == "edgelist":
            graph = parse_edgelist_csv(text, source=where, threshold=threshold)
        else:
            _no_weights(threshold, f"{where} (format {fmt!r})")
            if fmt == "dot":
                graph = parse_dot(text, source=where, symmetric=symmetric)
            else:
                graph = FORMATS[fmt][0](text, source=where)
        check_graph_size(len(graph.nodes), len(graph.edges), f"graph {where!r}")
        return apply_policy(graph, policy)
    except InputFormatError as exc:  # a check below the parser (the matrix, the graph model) does not know the file
        if path is None or path in str(exc) or type(exc) is not InputFormatError:
            raise
        raise InputFormatError(f"{path}: {exc}") from None


def write_graph(graph: Any, path: str | os.PathLike[str] | None = None, format: str | None = None) -> str:
    """Write *graph* (anything :func:`read_graph` accepts as an object) to *path*; return the text.

    The format is *format*, else the suffix of *path* (``.csv`` writes an edge list), else
    the plain-text format.  With ``path=None`` nothing is written.  Node attributes the
    format cannot hold (:data:`ATTRIBUTE_FORMATS`) are named in an :class:`AttributesDropped` warning.
    """
    g = graph.simple() if isinstance(graph, Graph) else read_graph(graph)
    fmt = format
    if fmt is None and path is not None:
        fmt = SUFFIXES.get(Path(path).suffix.lower())
        if fmt == "csv":
            fmt = "edgelist"
    fmt = fmt or "text"
    if fmt not in FORMATS:
        raise InputFormatError(f"format={fmt!r} must be one of {sorted(FORMATS)!r}")
    _warn_dropped(g, fmt)
    text = FORMATS[fmt][1](g)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def _warn_dropped(graph: Graph, fmt: str) -> None:
    """Warn with :class:`AttributesDropped` naming the node attributes *fmt* cannot hold."""
    held = ATTRIBUTE_FORMATS[fmt]
    if held is None or not graph.attributes:
        return
    dropped = []
    for node in graph.nodes:
        lost = [
            k if v is True else f"{k}={v!r}" for k, v in graph.attributes.get(node, {}).items() if k not in held
        ]
        if lost:
            dropped.append(f"{node!r} [{', '.join(lost)}]")
    if dropped:
        keep = ", ".join(f for f, h in ATTRIBUTE_FORMATS.items() if h is None or h)
        warnings.warn(
            f"the {fmt} format cannot hold these node attributes, which are not written: {'; '.join(dropped)} "
            f"(formats that keep them: {keep})",
            AttributesDropped,
            stacklevel=3,
        )
