"""Adapters: the one tested boundary between :class:`~causalcheck.graphs.Graph` and other libraries.

Every direction is here, each with its convention stated once:

* **networkx** — :func:`from_networkx` / :func:`to_networkx`.  A ``DiGraph`` edge ``(u, v)``
  is ``u -> v`` unless it carries the attribute ``marks`` (:data:`MARKS_ATTR`), an edge
  token read from ``u`` to ``v`` (``"--"``, ``"<->"``, ``"o->"``, ...).  A pair stored both
  ways without ``marks`` (``u -> v`` and ``v -> u``: how pgmpy, causal-learn and CDT keep an
  undirected CPDAG edge) is ``u -- v``; ``symmetric="error"`` refuses it instead.  An
  undirected ``Graph`` has ``--`` edges (``marks`` may say ``"<->"`` or ``"o-o"``; an
  asymmetric token needs a ``DiGraph``).  :func:`to_networkx` writes a ``DiGraph`` with
  ``marks`` only on edges that are not ``->`` and never writes ``None`` attributes, so
  ``networkx.generate_gml`` accepts it.
* **causal-learn** — :func:`from_causallearn` / :func:`to_causallearn` for ``GeneralGraph``
  (names from ``node.get_name()``), and :func:`from_matrix` with
  ``convention="causallearn"`` for its ``graph`` array: ``G[i, j]`` is the endpoint mark *at
  node i* on the edge between ``i`` and ``j`` — ``-1`` tail, ``1`` arrowhead, ``2`` circle,
  ``0`` no edge (so ``G[j, i] == 1, G[i, j] == -1`` is ``i -> j``; causal-learn's
  ``GeneralGraph.add_directed_edge``).  Codes ``4``/``5`` (two edges on one pair) are refused
  with both edges named.
* **adjacency matrices** (NumPy array, pandas DataFrame, nested lists) — :func:`from_matrix`
  / :func:`to_matrix` with an explicit ``convention``:

  ``"row_to_column"``   ``A[i, j] != 0`` means ``i -> j`` (networkx ``to_numpy_array``,
                        gadjid's ``"from row to column"``); both ``A[i, j]`` and ``A[j, i]``
                        non-zero means ``i -- j``.
  ``"column_to_row"``   ``A[i, j] != 0`` means ``j -> i``: lingam's ``B[effect, cause]``
                        (``x_i = Σ_j B[i, j] x_j``) and pcalg's ``amat``.  Alias ``"lingam"``.
  ``"causallearn"``     the endpoint codes above.

  A DataFrame gives the names (its columns; its index too unless it is a default
  ``RangeIndex``, and then both must agree); otherwise ``names`` is required.
* **pgmpy** — :func:`from_pgmpy` / :func:`to_pgmpy` for ``DAG`` and ``PDAG`` (imported lazily).

Node attributes (:data:`~causalcheck.graphs.model.NODE_ATTRIBUTES`: ``latent``, ``exposure``,
``outcome``, ``adjusted``, ``selected``, ``pos``) cross every graph adapter that can hold them:
networkx node attributes (a flag ``True`` / ``1``; ``pos`` a ``"x,y"`` string or an ``(x, y)``
pair, written back as ``"x,y"``) and pgmpy's ``latents`` / ``exposures`` / ``outcomes``.
Matrices and causal-learn graphs hold none (:func:`~causalcheck.graphs.write_graph` says what
it drops).  A graph derived from another one keeps them too: :func:`carry_attributes` gives the
result of a graph-to-graph function the attributes of the nodes it shares with its input, and
the input's meta that still holds.

>>> g = from_matrix([[0, 1], [0, 0]], names=["x", "y"], convention="row_to_column")
>>> str(g), str(from_matrix([[0, 1], [0, 0]], names=["x", "y"], convention="lingam"))
('x -> y', 'y -> x')

One module because it is the one tested boundary to other libraries: every adapter goes through
:func:`assemble` and the same matrix conventions, which a module per library would spread over
five files.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from causalcheck.base.errors import InputFormatError
from causalcheck.graphs.model import EDGE_TOKENS, NODE_ATTRIBUTES, Graph, GraphEdge, Mark, reachable

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx
    import numpy as np

__all__ = [
    "CONVENTIONS",
    "KIND_META",
    "MARKS_ATTR",
    "Convention",
    "assemble",
    "carry_attributes",
    "from_causallearn",
    "from_matrix",
    "from_networkx",
    "from_pgmpy",
    "is_causallearn_graph",
    "is_matrix",
    "is_networkx",
    "is_pgmpy",
    "read_node_attributes",
    "to_causallearn",
    "to_matrix",
    "to_networkx",
    "to_pgmpy",
]

#: The networkx edge attribute that carries an edge token (read from ``u`` to ``v``).
MARKS_ATTR = "marks"

Convention = Literal["row_to_column", "column_to_row", "causallearn", "lingam"]
#: Accepted ``convention`` values (``"lingam"`` is ``"column_to_row"``).
CONVENTIONS: tuple[str, ...] = ("row_to_column", "column_to_row", "causallearn", "lingam")

Symmetric = Literal["undirected", "error"]

_CL_CODE = {Mark.TAIL: -1, Mark.ARROW: 1, Mark.CIRCLE: 2}
_CL_MARK = {-1: Mark.TAIL, 1: Mark.ARROW, 2: Mark.CIRCLE}


def assemble(
    nodes: Iterable[str],
    items: Iterable[tuple[str, str, Mark, Mark]],
    *,
    symmetric: Symmetric = "undirected",
    source: str = "input",
) -> Graph:
    """A graph from ``(u, v, mark_u, mark_v)`` items where one pair may be written twice.

    A pair written as ``u -> v`` and as ``v -> u`` becomes ``u -- v`` (or raises, with
    ``symmetric="error"``); any other repeat with different marks raises naming both edges.
    """
    by_pair: dict[frozenset[str], GraphEdge] = {}
    order: list[frozenset[str]] = []
    for u, v, mu, mv in items:
        e = GraphEdge(u, v, mu, mv)
        key = frozenset((e.u, e.v))
        old = by_pair.get(key)
        if old is None:
            by_pair[key] = e
            order.append(key)
            continue
        if old == e:
            continue
        if old.is_directed and e.is_directed and old.u == e.v:
            if symmetric == "error":
                raise InputFormatError(
                    f"{source}: {str(old)!r} and {str(e)!r} form a 2-cycle, which a graph here cannot hold "
                    "(at most one edge per node pair); write an undirected edge once, marked undirected (DOT: dir=none; GML: marks \"--\"), or pass "
                    "symmetric='undirected' (on the command line --symmetric undirected) to read a pair stored both ways as an undirected edge"
                )
            by_pair[key] = GraphEdge.undirected(e.u, e.v)
            continue
        raise InputFormatError(
            f"{source}: two edges between {old.u!r} and {old.v!r}: {str(old)!r} and {str(e)!r}; "
            "a graph holds at most one edge per node pair"
        )
    return Graph(tuple(nodes), tuple(by_pair[k] for k in order))


# --------------------------------------------------------------------------- node attributes

_TRUE = (True, 1, "true", "1", "yes")
_FALSE = (False, 0, "false", "0", "no", "")
_PGMPY_ROLES = {"latent": "latents", "exposure": "exposures", "outcome": "outcomes"}


def _pos_text(value: Any, node: str, source: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence) and len(value) == 2 and all(isinstance(x, int | float) and math.isfinite(x) for x in value):
        return ",".join(format(x, "g") for x in value)
    raise InputFormatError(f"{source}: node {node!r} has pos={value!r}; expected an 'x,y' string or an (x, y) pair of numbers")


def read_node_attributes(items: Iterable[tuple[str, Mapping[str, Any]]], *, source: str = "input") -> dict[str, dict[str, str | bool]]:
    """The :data:`~causalcheck.graphs.model.NODE_ATTRIBUTES` of ``(node, attribute mapping)`` items.

    A flag is set by ``True``, ``1`` or ``"true"`` (also ``"1"``, ``"yes"``) and unset by
    their opposites; ``pos`` is kept as an ``"x,y"`` string.  Any other value raises
    :class:`InputFormatError` naming the node.  Other attributes are not node attributes here.
    """
    out: dict[str, dict[str, str | bool]] = {}
    for node, data in items:
        attrs: dict[str, str | bool] = {}
        for key in NODE_ATTRIBUTES:
            if key not in data:
                continue
            value = data[key]
            if key == "pos":
                attrs[key] = _pos_text(value, node, source)
                continue
            flag = value.strip().strip('"').lower() if isinstance(value, str) else value
            if flag in _TRUE and not isinstance(flag, float):
                attrs[key] = True
            elif flag not in _FALSE or isinstance(flag, float):
                raise InputFormatError(f"{source}: node {node!r} has {key}={value!r}; expected true or false")
        if attrs:
            out[node] = attrs
    return out


#: Meta keys that name the kind of graph (the DAGitty header ``dag``, ``pdag``, ...): a derived graph
#: keeps them only when it has its source's kind.
KIND_META: tuple[str, ...] = ("dagitty_type",)


def carry_attributes(source: Graph, result: Graph) -> Graph:
    """*result* with what *source* says of it that still holds: node attributes and meta.

    Every node of *result* that is a node of *source* gets *source*'s attributes (``latent``,
    ``exposure``, ``pos``, ...), an attribute *result* sets itself winning.  The other meta keys
    of *source* that *result* lacks are added, except those of :data:`KIND_META`, which are
    added only when *result* has *source*'s kind.  *result* itself is returned when there is
    nothing to add.  The graph-to-graph functions of :mod:`causalcheck.graphchecks.kinds` return
    their results through it.

    >>> dag = Graph(("u", "y"), (GraphEdge.directed("u", "y"),), {"dagitty_type": "dag", "graph_attributes": {"bb": "0,0,1,1"}})
    >>> out = carry_attributes(dag.with_attributes({"u": {"latent": True}}), Graph.from_edges([("u", "--", "y")]))
    >>> out.latent, out.meta["graph_attributes"], "dagitty_type" in out.meta
    (('u',), {'bb': '0,0,1,1'}, False)
    """
    meta = source.meta if isinstance(source.meta, Mapping) else {}
    own = result.meta if isinstance(result.meta, Mapping) else {}
    same_kind = not any(k in meta for k in KIND_META) or source.kind == result.kind
    extra = {k: v for k, v in meta.items() if k != "attributes" and k not in own and (same_kind or k not in KIND_META)}
    out = replace(result, meta={**own, **extra}) if extra else result
    inherited = {n: a for n, a in source.attributes.items() if n in result.index}
    if not inherited:
        return out
    attributes = {n: dict(a) for n, a in inherited.items()}
    for n, a in result.attributes.items():
        attributes[n] = {**attributes.get(n, {}), **a}
    return out.with_attributes(attributes)


def _networkx_node_attributes(graph: Graph, node: str) -> dict[str, str | bool]:
    attrs = graph.attributes.get(node, {})
    return {k: attrs[k] for k in NODE_ATTRIBUTES if k in attrs}


# --------------------------------------------------------------------------- type tests


def _module_of(obj: object) -> str:
    return type(obj).__module__ or ""


def is_networkx(obj: object) -> bool:
    """True for a networkx graph (without importing networkx)."""
    return any(c.__module__.startswith("networkx.") for c in type(obj).__mro__)


def is_pgmpy(obj: object) -> bool:
    """True for a pgmpy graph object."""
    return _module_of(obj).startswith("pgmpy.")


def is_causallearn_graph(obj: object) -> bool:
    """True for a causal-learn graph (``GeneralGraph``, ``Dag``)."""
    return _module_of(obj).startswith("causallearn.") and hasattr(obj, "get_graph_edges")


def is_matrix(obj: object) -> bool:
    """True for a NumPy array, a pandas DataFrame or a list of equal-length lists."""
    mod = _module_of(obj)
    if mod.startswith("numpy") or mod == "pandas" or mod.startswith("pandas."):
        return hasattr(obj, "shape")
    return isinstance(obj, list) and bool(obj) and all(isinstance(r, list | tuple) for r in obj)


# --------------------------------------------------------------------------- networkx


def _token_marks(token: Any, u: str, v: str) -> tuple[Mark, Mark]:
    if not isinstance(token, str) or token not in EDGE_TOKENS:
        raise InputFormatError(
            f"edge ({u!r}, {v!r}) has {MARKS_ATTR}={token!r}; it must be one of {list(EDGE_TOKENS)!r}"
        )
    return EDGE_TOKENS[token]


def from_networkx(g: Any, *, symmetric: Symmetric = "undirected") -> Graph:
    """A networkx ``DiGraph`` or ``Graph`` (see the module docstring for the conventions)."""
    if g.is_multigraph():
        raise InputFormatError(f"{type(g).__name__} is a multigraph; a graph here holds at most one edge per pair")
    nodes = [str(n) for n in g.nodes]
    directed = g.is_directed()
    items: list[tuple[str, str, Mark, Mark]] = []
    for a, b, data in g.edges(data=True):
        u, v = str(a), str(b)
        token = data.get(MARKS_ATTR)
        if token is None:
            mu, mv = (Mark.TAIL, Mark.ARROW) if directed else (Mark.TAIL, Mark.TAIL)
        else:
            mu, mv = _token_marks(token, u, v)
            if not directed and mu is not mv:
                raise InputFormatError(
                    f"edge ({u!r}, {v!r}) of an undirected networkx Graph has {MARKS_ATTR}={token!r}; "
                    "an asymmetric mark needs a DiGraph (a Graph does not keep the order of u and v)"
                )
        items.append((u, v, mu, mv))
    source = f"networkx {type(g).__name__}"
    graph = assemble(nodes, items, symmetric=symmetric, source=source)
    attributes = read_node_attributes(((str(n), data) for n, data in g.nodes(data=True)), source=source)
    return graph.with_attributes(attributes) if attributes else graph


def to_networkx(graph: Graph, *, labels: bool = False) -> nx.DiGraph:
    """A ``networkx.DiGraph``: ``->`` edges plain, every other edge with ``marks=<token>``.

    With *labels*, an edge's label becomes its ``label`` attribute (CausaLab's convention;
    a stated graph's edge and its reverse are two DiGraph edges).  Node attributes
    (``latent``, ``pos``, ...) become node attributes.  No attribute is ``None``, so
    ``networkx.generate_gml`` / ``write_gml`` accept the result.
    """
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from((n, _networkx_node_attributes(graph, n)) for n in graph.nodes)
    for e in graph.edges:
        attrs = {} if e.is_directed else {MARKS_ATTR: e.token}
        if labels and e.label is not None:
            attrs["label"] = e.label
        g.add_edge(e.u, e.v, **attrs)
    return g


# --------------------------------------------------------------------------- matrices


def _normalize_convention(convention: str | None) -> str:
    if convention is None:
        raise InputFormatError(
            f"an adjacency matrix needs an explicit convention= (one of {list(CONVENTIONS)!r}): "
            "'row_to_column' reads A[i, j] != 0 as i -> j; 'column_to_row' (lingam's B[effect, cause]) as j -> i; "
            "'causallearn' reads endpoint codes"
        )
    if convention not in CONVENTIONS:
        raise InputFormatError(f"convention={convention!r} must be one of {list(CONVENTIONS)!r}")
    return "column_to_row" if convention == "lingam" else convention


def _matrix_and_names(matrix: Any, names: Sequence[str] | None) -> tuple[np.ndarray, list[str]]:
    import numpy as np

    mod = _module_of(matrix)
    if mod == "pandas" or mod.startswith("pandas."):
        if not hasattr(matrix, "columns"):
            raise InputFormatError(f"a pandas {type(matrix).__name__} is not an adjacency matrix; pass a DataFrame")
        cols = [str(c) for c in matrix.columns]
        index = matrix.index
        if type(index).__name__ != "RangeIndex":
            rows = [str(r) for r in index]
            if rows != cols:
                raise InputFormatError(
                    f"DataFrame index {rows!r} and columns {cols!r} must name the same nodes in the same order"
                )
        if names is not None and list(names) != cols:
            raise InputFormatError(f"names={list(names)!r} disagree with the DataFrame columns {cols!r}")
        names = cols
        arr = matrix.to_numpy()
    else:
        try:
            arr = np.asarray(matrix)
        except (TypeError, ValueError) as exc:
            raise InputFormatError(f"matrix of type {type(matrix).__name__} is not a numeric array: {exc}") from None
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise InputFormatError(f"an adjacency matrix must be square; got shape {tuple(arr.shape)!r}")
    if names is None:
        raise InputFormatError(
            f"a {arr.shape[0]}x{arr.shape[1]} array has no node names: pass names=[...] (or a DataFrame with columns)"
        )
    names = [str(n) for n in names]
    if len(names) != arr.shape[0]:
        raise InputFormatError(f"names has {len(names)} entries but the matrix is {arr.shape[0]}x{arr.shape[1]}")
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise InputFormatError(f"names repeat {dup!r}")
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(float)
        except (TypeError, ValueError):
            raise InputFormatError(f"matrix entries must be numbers; got dtype {arr.dtype}") from None
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        i, j = map(int, np.argwhere(np.isnan(arr))[0])
        raise InputFormatError(f"matrix entry [{names[i]!r}, {names[j]!r}] is NaN")
    return arr, names


def _check_matrix_values(arr: np.ndarray, labels: Sequence[str], conv: str, *, weighted: bool) -> None:
    """Refuse an infinite entry, and, unless *weighted*, a whole-number entry other than 0 or 1 (see :func:`from_matrix`)."""
    import numpy as np

    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        i, j = map(int, np.argwhere(~np.isfinite(arr))[0])
        raise InputFormatError(f"matrix entry [row {labels[i]!r}, column {labels[j]!r}] = {float(arr[i, j])!r} is not a finite number")
    if weighted or (arr.dtype.kind == "f" and not np.array_equal(arr, np.round(arr))):
        return  # weights: every value is read against the threshold
    odd = np.argwhere((arr != 0) & (arr != 1))
    if odd.size:
        i, j = map(int, odd[0])
        value = arr[i, j].item()
        raise InputFormatError(
            f"matrix entry [row {labels[i]!r}, column {labels[j]!r}] = {value!r}: a 0/1 adjacency matrix ({conv}) holds "
            "0 (no edge) or 1 (an edge); pass threshold= (e.g. 0) to read whole numbers as weights, or "
            "convention='causallearn' for endpoint codes (-1 tail, 1 arrowhead, 2 circle)"
        )


def from_matrix(
    matrix: Any,
    names: Sequence[str] | None = None,
    *,
    convention: str | None = None,
    threshold: float | None = None,
    symmetric: Symmetric = "undirected",
) -> Graph:
    """An adjacency or endpoint matrix with node names and an explicit *convention*.

    For the 0/1 conventions an entry counts as an edge when ``abs(value) > threshold``
    (weighted matrices such as lingam's ``adjacency_matrix_`` work directly); causal-learn's
    endpoint codes take no threshold.  The diagonal must be zero.  Without *threshold*, a
    matrix of whole numbers is a 0/1 matrix: an entry other than 0 or 1 (a ``2``, a ``-1``:
    another convention's code) raises naming its row, column and value — pass ``threshold=``
    (``0`` keeps every non-zero entry) to read whole numbers as weights.  A matrix with a
    fractional entry is weighted.  An infinite entry always raises.
    """
    import numpy as np

    conv = _normalize_convention(convention)
    given = threshold is not None
    threshold = 0.0 if threshold is None else threshold
    if isinstance(threshold, bool) or not isinstance(threshold, int | float) or not threshold >= 0 or not math.isfinite(threshold):
        raise InputFormatError(f"threshold={threshold!r} must be a finite number >= 0")
    if conv == "causallearn" and threshold:
        raise InputFormatError(f"threshold={threshold!r}: causal-learn endpoint codes (-1, 1, 2) are marks, not weights")
    arr, labels = _matrix_and_names(matrix, names)
    if conv != "causallearn":
        _check_matrix_values(arr, labels, conv, weighted=given)
    diag = np.flatnonzero(np.diagonal(arr))
    if diag.size:
        v = labels[int(diag[0])]
        raise InputFormatError(f"matrix diagonal entry [{v!r}, {v!r}] = {arr[diag[0], diag[0]].item()!r}: self-loops are not graphs here")
    if conv == "causallearn":
        present = arr != 0
        one_sided = np.argwhere(present != present.T)
        if one_sided.size:
            i, j = map(int, one_sided[0])
            raise InputFormatError(
                f"causal-learn matrix: G[{labels[i]!r}, {labels[j]!r}] = {arr[i, j]!r} but "
                f"G[{labels[j]!r}, {labels[i]!r}] = {arr[j, i]!r}; both ends of an edge need a mark"
            )
        iu, ju = np.nonzero(np.triu(present, 1))
        codes_i = arr[iu, ju].tolist()
        codes_j = arr[ju, iu].tolist()
        edges: list[GraphEdge] = []
        for i, j, ci, cj in zip(iu.tolist(), ju.tolist(), codes_i, codes_j, strict=True):
            mi, mj = _CL_MARK.get(int(ci)), _CL_MARK.get(int(cj))
            if mi is None or mj is None or ci != int(ci) or cj != int(cj):
                if {int(ci), int(cj)} <= {4, 5}:
                    raise InputFormatError(
                        f"causal-learn matrix: G[{labels[i]!r}, {labels[j]!r}] = {ci!r}, G[{labels[j]!r}, {labels[i]!r}] = {cj!r} "
                        f"encode two edges between {labels[i]!r} and {labels[j]!r} (a directed and a bidirected one); "
                        "a graph here holds at most one edge per pair"
                    )
                raise InputFormatError(
                    f"causal-learn matrix: G[{labels[i]!r}, {labels[j]!r}] = {ci!r}, G[{labels[j]!r}, {labels[i]!r}] = {cj!r}; "
                    "endpoint codes must be -1 (tail), 1 (arrow) or 2 (circle)"
                )
            edges.append(GraphEdge(labels[i], labels[j], mi, mj))
        return Graph(tuple(labels), tuple(edges))
    present = np.abs(arr) > threshold
    if conv == "column_to_row":
        present = present.T
    both = present & present.T
    if both.any() and symmetric == "error":
        i, j = map(int, np.argwhere(both)[0])
        raise InputFormatError(
            f"matrix has {labels[i]!r} -> {labels[j]!r} and back (a 2-cycle); "
            "pass symmetric='undirected' to read it as an undirected edge"
        )
    edges = []
    ii, jj = np.nonzero(present & ~both)
    for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
        edges.append(GraphEdge(labels[i], labels[j], Mark.TAIL, Mark.ARROW))
    ii, jj = np.nonzero(np.triu(both, 1))
    for i, j in zip(ii.tolist(), jj.tolist(), strict=True):
        edges.append(GraphEdge(labels[i], labels[j], Mark.TAIL, Mark.TAIL))
    return Graph(tuple(labels), tuple(edges))


def to_matrix(graph: Graph, *, convention: str | None = None, order: Sequence[str] | None = None) -> np.ndarray:
    """The matrix of *graph* in *convention* over *order* (default: ``graph.nodes``).

    The 0/1 conventions write ``i -- j`` as both entries and cannot hold ``<->`` or circle
    marks (use ``"causallearn"``); an ``int8`` array is returned.
    """
    import numpy as np

    conv = _normalize_convention(convention)
    names, idx = graph.indexed(order)
    n = len(names)
    a = np.zeros((n, n), dtype=np.int8)
    if conv == "causallearn":
        for i, j, mi, mj in idx:
            a[i, j] = _CL_CODE[mi]
            a[j, i] = _CL_CODE[mj]
        return a
    for i, j, mi, mj in idx:
        if mi is Mark.TAIL and mj is Mark.ARROW:
            a[i, j] = 1
        elif mi is Mark.TAIL and mj is Mark.TAIL:
            a[i, j] = a[j, i] = 1
        else:
            e = GraphEdge(names[i], names[j], mi, mj)
            raise InputFormatError(
                f"edge {str(e)!r} cannot be written in a 0/1 adjacency matrix ({conv}); use convention='causallearn'"
            )
    return a.T.copy() if conv == "column_to_row" else a


# --------------------------------------------------------------------------- causal-learn objects


def from_causallearn(g: Any) -> Graph:
    """A causal-learn ``GeneralGraph`` (or ``Dag``): names from the nodes, marks from ``g.graph``."""
    try:
        nodes = list(g.get_nodes())
        matrix = g.graph
    except AttributeError:
        raise InputFormatError(f"{type(g).__name__} is not a causal-learn graph (no get_nodes()/graph)") from None
    names = [str(node.get_name()) for node in nodes]
    return from_matrix(matrix, names, convention="causallearn")


def to_causallearn(graph: Graph, order: Sequence[str] | None = None) -> Any:
    """A causal-learn ``GeneralGraph`` with ``GraphNode`` nodes named exactly as *graph*'s.

    Its ``graph`` matrix is written in causal-learn's endpoint convention and its ``dpath``
    (``dpath[x, y] == 1`` iff ``y`` is ``x`` or an ancestor of ``x`` along directed edges)
    is computed in one pass; the result equals what ``GeneralGraph.add_edge`` builds edge by
    edge (tested), without its O(n) work per edge and O(n²) set-up.
    """
    from causallearn.graph.GeneralGraph import GeneralGraph
    from causallearn.graph.GraphNode import GraphNode

    names = graph.order(order)
    n = len(names)
    nodes = [GraphNode(name) for name in names]
    cl = GeneralGraph([])
    cl.nodes = nodes
    cl.num_vars = n
    cl.node_map = {node: i for i, node in enumerate(nodes)}
    cl.graph = to_matrix(graph, convention="causallearn", order=names).astype(int)
    cl.dpath = _ancestor_matrix(n, [(i, j) for i, j, mi, mj in graph.indexed(names)[1] if mi is Mark.TAIL and mj is Mark.ARROW])
    return cl


def _ancestor_matrix(n: int, directed: Sequence[tuple[int, int]]) -> Any:
    """``D[x, y] == 1`` iff ``y == x`` or ``y`` has a directed path to ``x`` (causal-learn's ``dpath``)."""
    import numpy as np

    children: list[list[int]] = [[] for _ in range(n)]
    for a, b in directed:
        children[a].append(b)
    d = np.zeros((n, n), dtype=int)
    for y in range(n):  # every node reachable from y has y as an ancestor
        d[[y, *reachable(children[y], children.__getitem__)], y] = 1
    return d


# --------------------------------------------------------------------------- pgmpy


def from_pgmpy(g: Any) -> Graph:
    """A pgmpy ``DAG`` or ``PDAG`` (``PDAG.undirected_edges`` become ``--``; ``latents``,
    ``exposures`` and ``outcomes`` become the ``latent`` / ``exposure`` / ``outcome`` flags)."""
    und = getattr(g, "undirected_edges", None)
    if und is None:
        graph = from_networkx(g, symmetric="error")
    else:
        nodes = [str(n) for n in g.nodes]
        items: list[tuple[str, str, Mark, Mark]] = [(str(a), str(b), Mark.TAIL, Mark.ARROW) for a, b in g.directed_edges]
        items += [(str(a), str(b), Mark.TAIL, Mark.TAIL) for a, b in und]
        graph = assemble(nodes, items, symmetric="error", source=f"pgmpy {type(g).__name__}")
        found = read_node_attributes(((str(n), data) for n, data in g.nodes(data=True)), source=f"pgmpy {type(g).__name__}")
        graph = graph.with_attributes(found) if found else graph
    attributes = {n: dict(a) for n, a in graph.attributes.items()}
    for flag, role in _PGMPY_ROLES.items():
        for n in getattr(g, role, None) or ():
            attributes.setdefault(str(n), {})[flag] = True
    return graph.with_attributes(attributes) if attributes else graph


def to_pgmpy(graph: Graph) -> Any:
    """A pgmpy ``DAG`` (only ``->`` edges) or ``PDAG`` (``->`` and ``--``); other marks raise."""
    kind = graph.kind
    if kind not in ("DAG", "PDAG"):
        bad = next(e for e in graph.edges if not (e.is_directed or e.is_undirected))
        raise InputFormatError(f"pgmpy has no edge like {str(bad)!r}: only DAGs and PDAGs convert")
    if kind == "DAG":
        from pgmpy.base import DAG

        d = DAG()
        d.add_nodes_from(graph.nodes)
        d.add_edges_from(sorted(graph.directed_pairs, key=lambda p: (graph.index[p[0]], graph.index[p[1]])))
        return _with_pgmpy_roles(d, graph)
    from pgmpy.base import PDAG

    p = PDAG(
        directed_ebunch=[(e.u, e.v) for e in graph.edges if e.is_directed],
        undirected_ebunch=[(e.u, e.v) for e in graph.edges if e.is_undirected],
    )
    p.add_nodes_from(graph.nodes)
    return _with_pgmpy_roles(p, graph)


def _with_pgmpy_roles(model: Any, graph: Graph) -> Any:
    """*model* with pgmpy's ``latents`` / ``exposures`` / ``outcomes`` set from *graph*'s flags (``pos`` a node attribute)."""
    for node, attrs in graph.attributes.items():
        if "pos" in attrs:
            model.nodes[node]["pos"] = attrs["pos"]
    for flag, role in _PGMPY_ROLES.items():
        nodes = set(getattr(graph, flag))
        if nodes:
            setattr(model, role, nodes)
    return model
