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
content (a ``dag {`` header, ``digraph``, ``graph [``, ``Graph Nodes:``, a JSON object).  A
``graph { ... }`` or ``digraph { ... }`` text that is not named ``.dot`` / ``.gv`` may be DOT
or DAGitty (whose legacy headers these are):
:func:`~causalcheck.graphs.formats.dot_or_dagitty` tells which from the content, and a text the
two read into different graphs with nothing only one of them has is refused, naming the
``format=`` to pass (``--graph-format`` on the command line).
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

import functools
import math
import os
import re
import warnings
from pathlib import Path
from typing import Any

from causalcheck.base import safejson
from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import could_be_path, read_input_text
from causalcheck.base.limits import check_graph_size
from causalcheck.graphs import convert
from causalcheck.graphs.formats import (
    FORMATS,
    NoWeights,
    dot_or_dagitty,
    parse_adjacency_csv,
    parse_edgelist_csv,
)
from causalcheck.graphs.model import EDGE_TOKENS, NODE_ATTRIBUTES, Graph
from causalcheck.graphs.names import NamePolicy, apply_policy

__all__ = [
    "ATTRIBUTE_FORMATS",
    "GRAPH_JSON_KEYS",
    "SUFFIXES",
    "AttributesDropped",
    "guess_format",
    "is_graph_json",
    "read_graph",
    "sniff_graph_format",
    "write_graph",
]


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


#: The keys of the JSON graph format (:meth:`Graph.to_dict`).
GRAPH_JSON_KEYS = frozenset({"kind", "nodes", "edges", "attributes"})


def is_graph_json(data: Any) -> bool:
    """True when the decoded JSON *data* is in the JSON graph format: an object whose ``edges``
    are ``[left, token, right]`` triples of strings with an edge token in the middle (an empty
    edge list counts when ``kind`` or ``nodes`` is given, as :meth:`Graph.to_dict` writes them).

    >>> is_graph_json({"nodes": ["a", "b"], "edges": [["a", "->", "b"]]})
    True
    >>> is_graph_json({"edges": [{"from": "a", "to": "b"}]})  # a hypothesis
    False
    """
    if not isinstance(data, dict) or not isinstance(data.get("edges"), list):
        return False
    edges = data["edges"]
    if not edges:
        return ("kind" in data or "nodes" in data) and set(data) <= GRAPH_JSON_KEYS
    return all(
        isinstance(e, list) and len(e) == 3 and all(isinstance(x, str) for x in e) and e[1] in EDGE_TOKENS for e in edges
    )


_GRAPH_JSON_HINT = re.compile(r'"edges"\s*:\s*\[\s*(\[|\])')


def _sniff_json(text: str) -> str | None:
    """``"json"`` when *text* is one JSON object in the graph format (cheap test first: ``"edges": [[``)."""
    if not _GRAPH_JSON_HINT.search(text[:100_000]):
        return None
    try:
        data = safejson.loads(text.lstrip("\ufeff"))
    except InputFormatError:
        return None
    return "json" if is_graph_json(data) else None


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return not cell.strip()  # an empty cell is a 0 in an adjacency CSV
    return True


def _sniff_csv(text: str) -> str | None:
    """``edgelist`` or ``adjacency`` when the CSV *text* reads as one, else ``None``."""
    kind = _csv_kind(text)
    if kind == "edgelist":
        return kind
    lines = [line for line in text.lstrip("\ufeff").splitlines() if line.strip()]
    if len(lines) < 2:
        return None
    delimiter = next((d for d in (",", ";", "\t") if d in lines[0]), ",")
    names = [c for c in lines[0].split(delimiter) if c.strip()]
    if len(lines) - 1 != len(names):  # a square matrix: one row per named node (a data table has more)
        return None
    for line in lines[1:]:
        cells = line.split(delimiter)
        if not _is_number(cells[0]):
            cells = cells[1:]  # a leading name column
        if not cells or not all(_is_number(c) for c in cells):
            return None
    return "adjacency"


def sniff_graph_format(text: str, path: str | os.PathLike[str] | None = None) -> str | None:
    """The graph format *text* (a file's content) is in, judged from the content, or ``None``.

    ``None`` means the content is no graph file of a known kind.  Formats with a marker are
    recognised wherever they are (a DAGitty ``dag {`` header, ``digraph``/``graph {``, GML's
    ``graph [``, causal-learn's ``Graph Nodes:``, a JSON object in the graph format
    (:func:`is_graph_json`), an edge-list CSV header, a CSV of names over rows of numbers); the
    plain-text format (``A -> B``) shares its syntax with a hypothesis, so it is ``"text"`` only
    when *path* ends in ``.graph``.  A ``graph {`` / ``digraph {`` text is ``"dot"`` or
    ``"dagitty"`` as its suffix says (``.dot``, ``.gv``, ``.dagitty``), else as
    :func:`~causalcheck.graphs.formats.dot_or_dagitty` tells (``"dot"`` when it is ambiguous:
    :func:`read_graph` refuses it).  ``check`` and ``report --check`` use it to tell a graph
    from a hypothesis or a record by content, not by name.

    >>> sniff_graph_format('{"nodes": ["a", "b"], "edges": [["a", "->", "b"]]}', "g.json")
    'json'
    >>> sniff_graph_format("digraph { a -> b }", "g.txt")
    'dot'
    >>> sniff_graph_format("digraph { a <-> b }", "g.txt")
    'dagitty'
    >>> sniff_graph_format("A -> B", "h.txt") is None
    True
    """
    head = text.lstrip("\ufeff \t\r\n")
    if not head:
        return None
    if head.startswith(("{", "[")):
        found = _sniff_json(head)
        if found is not None or head.startswith("["):
            return found
    suffix = Path(path).suffix.lower() if path is not None else ""
    fmt = guess_format(head)
    if fmt == "dot" and SUFFIXES.get(suffix) in ("dot", "dagitty"):  # read as its name says
        return SUFFIXES[suffix]
    if fmt == "dot":
        return _header_format(head, "error") or "dot"
    if fmt in ("dagitty", "gml", "causallearn"):
        return fmt if fmt != "dagitty" or not head.startswith("{") or SUFFIXES.get(suffix) == "dagitty" else None
    if fmt in ("edgelist", "adjacency") or SUFFIXES.get(suffix) == "csv":
        return _sniff_csv(head)
    return "text" if suffix == ".graph" else None


#: The header of a DOT or DAGitty text: ``[strict] type [name] {`` (the type in any letter case).
_HEADER = re.compile(r'(?:strict\s+)?(digraph|graph|pdag|dag|mag|pag)(?![\w.])\s*(?:-?[\w.]+\s*|"(?:[^"\\]|\\.)*"\s*)?\{', re.IGNORECASE)


@functools.lru_cache(maxsize=4)
def _header_format(head: str, symmetric: str) -> str | None:
    """:func:`~causalcheck.graphs.formats.dot_or_dagitty` of *head*, or ``None`` when it is ambiguous.

    :func:`read_graph` then asks again, so that the error names the file.  Cached because
    ``check`` judges one text up to three times: to sniff it, to guess its format, to read it.
    """
    try:
        return dot_or_dagitty(head, symmetric=symmetric)
    except InputFormatError:
        return None


def guess_format(text: str, path: str | None = None) -> str:
    """The format name for *text* (from *path*'s suffix when it has a known one)."""
    if path is not None:
        fmt = SUFFIXES.get(Path(path).suffix.lower())
        if fmt == "csv":
            return _csv_kind(text)
        if fmt == "text":  # a .txt may hold causal-learn's text format (it writes .txt files), DOT, DAGitty, ...
            found = sniff_graph_format(text)
            return found if found not in (None, "adjacency", "edgelist") else "text"
        if fmt is not None:
            return fmt
    head = text.lstrip("\ufeff \t\r\n")
    low = head[:200].lower()
    if low.startswith("{") or low.startswith("["):
        if low.startswith("{") and ('"edges"' in low or '"nodes"' in low):
            return "json"
        return "dagitty"
    header = _HEADER.match(head)
    if header is not None:
        return "dot" if header.group(1).lower() in ("graph", "digraph") else "dagitty"
    if low.startswith(("digraph", "strict")):
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
            obj, names, convention=convention, threshold=threshold,
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
    symmetric: str | None = None,
    threshold: float | None = None,
) -> Graph:
    """Read a graph from a path, a text or a library object (see the module docstring).

    *names* is the node-name list for a bare matrix; *convention* its reading; *threshold*
    the weight an edge of a weighted source must exceed in absolute value (default 0);
    *policy* a :class:`~causalcheck.graphs.NamePolicy` (or ``"exact"`` / ``"causalab"``)
    applied to the result; *symmetric* (``"undirected"`` or ``"error"``) how a pair written
    both ways with plain arrows is read.  By default (``None``) such a pair is refused as a
    2-cycle in a DOT or GML file, where an undirected edge has its own notation, and is read as
    ``--`` from a library object or a matrix, whose documented conventions store an undirected
    edge so; the text formats, edge lists and JSON always refuse two edges on one pair.
    """
    if format is not None and format not in FORMATS:
        raise InputFormatError(f"format={format!r} must be one of {sorted(FORMATS)!r}")
    if symmetric not in (None, "undirected", "error"):
        raise InputFormatError(f"symmetric={symmetric!r} must be 'undirected' or 'error' (or None: the source's convention)")
    threshold = _check_threshold(threshold)
    if not isinstance(source, str | os.PathLike):
        graph = _from_object(source, names=names, convention=convention, symmetric=symmetric or "undirected", threshold=threshold)
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
    if format is None and fmt == "dot" and SUFFIXES.get(Path(path).suffix.lower() if path else "") != "dot":
        head = text.lstrip("\ufeff \t\r\n")
        fmt = _header_format(head, symmetric or "error") or dot_or_dagitty(head, source=where, symmetric=symmetric or "error")
    try:
        if fmt == "adjacency":
            graph = parse_adjacency_csv(text, source=where, convention=convention, threshold=threshold)
        elif fmt == "edgelist":
            graph = parse_edgelist_csv(text, source=where, threshold=threshold)
        else:
            _no_weights(threshold, f"{where} (format {fmt!r})")
            if fmt in ("dot", "gml"):
                graph = FORMATS[fmt][0](text, source=where, symmetric=symmetric or "error")
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
