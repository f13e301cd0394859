"""Graph file formats: parse and print each one; :mod:`causalcheck.graphs.io` picks the format.

==============  ===============================  ==========================================
format          looks like                       marks
==============  ===============================  ==========================================
``text``        ``A -> B -> C <- D``             all (``->`` ``<-`` ``--`` ``<->`` ``o->``
                                                 ``<-o`` ``o-o`` ``o--`` ``--o``)
``dagitty``     ``pdag { a -> b -- c }``         all (circles written ``@``: ``@->``)
``dot``         ``digraph { a -> b }``           all (``dir``/``arrowhead``/``arrowtail``)
``gml``         ``graph [ directed 1 ... ]``     all (edge attribute ``marks``)
``causallearn`` ``Graph Edges: 1. X1 --> X2``    all (``-->`` ``---`` ``<->`` ``o->`` ...)
``edgelist``    CSV ``source,target,edge``       all (``edge`` column holds the token;
                                                 a ``weight`` column is thresholded)
``adjacency``   CSV, header row of names         0/1 (``->``, ``--``), or causal-learn codes
``json``        ``{"nodes": [...], "edges":      all
                [["a", "->", "b"]]}``
==============  ===============================  ==========================================

Every reader returns a :class:`~causalcheck.graphs.Graph` with names exactly as written
(quoted names keep spaces) and raises :class:`~causalcheck.base.errors.DSLSyntaxError` (line,
column, expected tokens, caret) for text that does not parse, or
:class:`~causalcheck.base.errors.InputFormatError` for a well-formed file that is not a graph
(two different edges between one pair, an unknown mark).  Every writer is the reader's
inverse on the graphs the format can hold.

DOT conventions.  Read with ``grammar/dot.lark``, the DOT language's grammar, as Graphviz reads
it (ports are not part of a name, ``{a b} -> c`` is an edge from each node of the group,
``edge [...]`` / ``node [...]`` defaults apply to what follows in their scope, a ``digraph``
takes ``->`` only and a ``graph`` ``--`` only, text after the graph is refused); so files from
``networkx.nx_pydot.write_dot``, pydot, Graphviz and causal-learn's ``GraphUtils.to_pydot``
read as they were meant.  In a ``digraph`` an edge ``u -> v`` is directed unless its ``dir``
attribute says otherwise: ``dir=none`` is ``u -- v``; ``dir=both`` reads the mark at ``u``
from ``arrowtail`` and the mark at ``v`` from ``arrowhead`` (``none`` → tail, ``odot`` /
``circle`` → circle, any other shape → arrowhead), which is how causal-learn's
``GraphUtils.to_pydot`` writes PAGs; in a ``graph`` (undirected) edges are ``--``.  A node's
``label`` attribute, when present, is its name (causal-learn writes integer ids with
labels).  A pair written both ways with plain arrows (``a -> b; b -> a``) is a 2-cycle, which a
graph here cannot hold: it is refused naming both edges (an undirected edge is ``dir=none``);
``symmetric="undirected"`` reads such a pair as ``a -- b`` (how ``networkx.nx_pydot.write_dot``
writes a CPDAG's undirected edge from a ``DiGraph``).  A node named by an HTML id ``<-...>`` is
refused at its place: it is DAGitty's edge ``<->`` or ``<-``, which DOT does not have.

DAGitty conventions.  Read with ``grammar/dagitty.lark``, as dagitty's own parser reads it
(:func:`parse_dagitty`): the headers ``dag``, ``pdag``, ``mag``, ``pag`` and the legacy ``graph``
and ``digraph`` in any letter case, ``strict`` and a graph name allowed, ``;`` as white space,
groups on either side of an edge and on their own, and every spelling of dagitty's node flags
(``[l]`` is ``latent``, ``[e]`` ``exposure``, ...).  A ``graph { ... }`` or ``digraph { ... }``
text may be DOT or DAGitty: :func:`dot_or_dagitty` tells which from the content, and refuses
one the two read into different graphs without a feature only one of them has.

GML conventions.  As written by ``networkx.write_gml`` of :func:`~causalcheck.graphs.convert.to_networkx`:
nodes by ``label``, ``directed 1``, the edge attribute ``marks`` for non-directed edges.  A pair
written both ways without ``marks`` is a 2-cycle and refused, as in DOT (``symmetric="undirected"``
reads it as ``--``).  Layout never stops a read: a node's 2-D ``pos`` (``pos [ x 1 y 2 ]``
included) is kept, a ``pos`` of another shape and every other nested ``[ ... ]`` attribute
(``graphics``, ``color``) are ignored.

Node attributes (:data:`~causalcheck.graphs.model.NODE_ATTRIBUTES`: ``latent``, ``exposure``,
``outcome``, ``adjusted``, ``selected``, ``pos``): DAGitty and JSON hold any; DOT and GML hold
these as node attributes (``"u" [latent=true]``, ``latent 1``); the text, causal-learn and
CSV formats hold none (:func:`~causalcheck.graphs.write_graph` warns, naming them).

>>> g = parse_text("A -> B -> C <- D; nodes: E")
>>> print(format_text(g), end="")
nodes: A, B, C, D, E
A -> B
B -> C
D -> C
>>> str(parse_dagitty('pag { x @-> y <- z ; z @-@ w }'))
'x o-> y; z -> y; w o-o z'

One module because every format is a small parse / format pair over the same builder and quoting
rules, picked from one place by :mod:`causalcheck.graphs.io`; a module per format would be eight
small files sharing private helpers.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

from causalcheck.base import safejson
from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.base.files import csv_rows
from causalcheck.base.limits import MAX_GRAPH_EDGES, MAX_GRAPH_NESTING
from causalcheck.grammar.parsers import parser, syntax_error
from causalcheck.graphs.convert import (
    assemble,
    from_matrix,
    from_networkx,
    read_node_attributes,
    to_matrix,
    to_networkx,
)
from causalcheck.graphs.model import EDGE_TOKENS, NODE_ATTRIBUTES, Graph, GraphEdge, Mark

__all__ = [
    "FORMATS",
    "NoWeights",
    "dot_or_dagitty",
    "format_adjacency_csv",
    "format_causallearn",
    "format_dagitty",
    "format_dot",
    "format_edgelist_csv",
    "format_gml",
    "format_json",
    "format_text",
    "parse_adjacency_csv",
    "parse_causallearn",
    "parse_dagitty",
    "parse_dot",
    "parse_edgelist_csv",
    "parse_gml",
    "parse_json",
    "parse_text",
]

_PLAIN_NAME = re.compile(r"[^\W][\w.]*")


def _quote(name: str, reserved: Iterable[str] = ()) -> str:
    if _PLAIN_NAME.fullmatch(name) and name not in reserved:
        return name
    return json.dumps(name, ensure_ascii=False)


def _short(text: str, limit: int = 40) -> str:
    """*text* quoted, cut to *limit* characters."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _unquote(token: str, source: str = "<string>") -> str:
    """A name token; a quoted one is decoded as a JSON string, so a control character, a bad
    escape or a lone surrogate in it is refused (``InputFormatError``) like anywhere JSON is read."""
    if token.startswith('"'):
        value = safejson.loads(token, source=f"{source}: quoted name {token[:60]!r}")
        if not isinstance(value, str):  # pragma: no cover - the grammar admits only strings
            raise InputFormatError(f"name {token!r} is not a string")
        return value
    return token


class _Builder:
    """Collects nodes and edges from a parse tree and reports a repeated pair at its position."""

    def __init__(self, text: str, source: str) -> None:
        self.text = text
        self.source = source
        self.nodes: dict[str, None] = {}
        self.edges: dict[frozenset[str], GraphEdge] = {}

    def node(self, name: str) -> None:
        self.nodes.setdefault(name, None)

    def edge(self, left: str, token: str, right: str, pos: Any) -> None:
        mu, mv = EDGE_TOKENS[token]
        try:
            e = GraphEdge(left, right, mu, mv)
        except InputFormatError as exc:
            raise self._error(str(exc), pos) from None
        key = frozenset((e.u, e.v))
        old = self.edges.get(key)
        if old is not None and old != e:
            raise self._error(
                f"second edge between {e.u!r} and {e.v!r}: {str(e)!r} after {str(old)!r}; "
                "a graph holds at most one edge per node pair",
                pos,
            )
        self.edges.setdefault(key, e)
        self.node(left)
        self.node(right)

    def _error(self, message: str, tok: Any) -> DSLSyntaxError:
        line = getattr(tok, "line", 1) or 1
        column = getattr(tok, "column", 1) or 1
        return DSLSyntaxError(message, text=self.text, line=line, column=column, source=self.source)

    def graph(self, meta: dict[str, Any] | None = None) -> Graph:
        return Graph(tuple(self.nodes), tuple(self.edges.values()), meta or {})


def _parse(grammar: str, text: str, source: str, what: str) -> Any:
    from lark.exceptions import UnexpectedInput

    try:
        return parser(grammar).parse(text)
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, grammar=grammar, source=source, what=what) from None


# --------------------------------------------------------------------------- text


def parse_text(text: str, *, source: str = "<string>") -> Graph:
    """causalcheck's plain-text graph format (``grammar/graph.lark``)."""
    tree = _parse("graph", text, source, "bad graph statement")
    b = _Builder(text, source)
    for stmt in tree.children:
        if stmt.data == "nodes":
            for node in stmt.children:
                b.node(_unquote(str(node.children[0]), source))
            continue
        parts = stmt.children
        names = [_unquote(str(p.children[0]), source) for p in parts[::2]]
        b.node(names[0])
        for k, edge in enumerate(parts[1::2]):
            tok = edge.children[0]
            b.edge(names[k], str(tok), names[k + 1], tok)
    return b.graph()


def format_text(graph: Graph) -> str:
    """The plain-text format: a ``nodes:`` line, then one edge per line (``parse_text`` inverts it)."""
    q = [_quote(n, ("nodes",)) for n in graph.nodes]
    lines = [f"nodes: {', '.join(q)}"] if graph.nodes else []
    lines += [f"{_quote(e.u, ('nodes',))} {e.token} {_quote(e.v, ('nodes',))}" for e in graph.edges]
    return "\n".join(lines) + ("\n" if lines else "")


# --------------------------------------------------------------------------- dagitty

_DAGITTY_TOKEN = {"@->": "o->", "<-@": "<-o", "@-@": "o-o", "@--": "o--", "--@": "--o"}
_TO_DAGITTY = {"o->": "@->", "o-o": "@-@", "o--": "@--"}
_DAGITTY_TYPE = {"DAG": "dag", "PDAG": "pdag", "MAG": "mag", "PAG": "pag"}
#: The edges each DAGitty graph type allows (dagitty's ``GraphAnalyzer.validate``; ``None``: any).
_DAGITTY_TYPE_EDGES: dict[str, frozenset[str] | None] = {
    "dag": frozenset({"->", "<->"}),
    "pdag": frozenset({"->", "--", "<->"}),
    "mag": frozenset({"->", "--", "<->"}),
    "pag": None,
}
#: Every spelling of a node flag that dagitty's ``GraphParser`` reads, and the flag it sets.
_DAGITTY_FLAGS = {
    "latent": "latent", "l": "latent", "unobserved": "latent", "u": "latent",
    "exposure": "exposure", "e": "exposure", "source": "exposure",
    "outcome": "outcome", "o": "outcome", "target": "outcome",
    "adjusted": "adjusted", "a": "adjusted",
    "selected": "selected", "s": "selected",
}
#: Names dagitty refuses for a variable; a bare ``graph`` statement holds the graph's attributes.
_DAGITTY_RESERVED = ("graph", "node")
#: The names dagitty's serializer writes without quotes.
_DAGITTY_BARE = re.compile(r"[0-9a-zA-Z_.]+")


class _DagittyWalk:
    """The statements of a DAGitty parse tree, read as dagitty's ``GraphParser`` reads them.

    ``aliases`` collects the flag spellings used that DOT does not read (``l``, ``source``, ...).
    """

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.builder = _Builder(text, source)
        self.attributes: dict[str, dict[str, str | bool]] = {}
        self.graph_attributes: dict[str, str | bool] = {}
        self.aliases: set[str] = set()

    def ident(self, tree: Any) -> str:
        """A ``node`` or ``id``: a bare word, or quoted strings joined with ``+``."""
        tok = tree.children[0]
        if getattr(tok, "data", None) == "string":
            return "".join(_unquote(str(part), self.source) for part in tok.children)
        return str(tok)

    def bare_word(self, tree: Any) -> Any:
        """The ``NAME`` token of a bare node, or ``None`` for a quoted one."""
        tok = tree.children[0]
        return tok if getattr(tok, "type", None) == "NAME" else None

    def reserved(self, tok: Any) -> DSLSyntaxError:
        return self.builder._error(
            f"bad dagitty statement: {str(tok)!r} is reserved in DAGitty's syntax and cannot name a variable "
            f"(dagitty refuses it; a quoted {json.dumps(str(tok))} is read as a name here)",
            tok,
        )

    def items(self, children: Sequence[Any], depth: int) -> list[str]:
        """Walk one scope; returns the nodes mentioned in it, in order (a group's members)."""
        MAX_GRAPH_NESTING.check(depth, f"dagitty graph {self.source!r}")  # the walk recurses per group
        mentioned: dict[str, None] = {}
        for item in children:
            mentioned.update(dict.fromkeys(self.statement(item, depth)))
        return list(mentioned)

    def statement(self, item: Any, depth: int) -> list[str]:
        kind = item.data
        if kind == "graph_attr":
            self.graph_attributes[self.ident(item.children[0])] = self.ident(item.children[1])
            return []
        if kind == "group":
            return self.items(item.children, depth + 1)
        if kind == "node_stmt":
            return self.node_statement(item)
        return self.edge_statement(item, depth)

    def node_statement(self, item: Any) -> list[str]:
        bare = self.bare_word(item.children[0])
        attrs = item.children[1].children if len(item.children) > 1 else []
        if bare is not None and str(bare) == "graph":  # 'graph [bb="..."]': the graph's attributes
            for attr in attrs:
                key = self.ident(attr.children[0])
                self.graph_attributes[key] = self.ident(attr.children[1]) if len(attr.children) > 1 else True
            return []
        name = self.node(item.children[0])
        for attr in attrs:
            key = self.ident(attr.children[0])
            value: str | bool = self.ident(attr.children[1]) if len(attr.children) > 1 else True
            flag = _DAGITTY_FLAGS.get(key)
            if flag is not None:  # dagitty sets a flag whatever value it is given
                if flag != key:
                    self.aliases.add(key)
                key, value = flag, True
            self.attributes.setdefault(name, {})[key] = value
        return [name]

    def node(self, tree: Any) -> str:
        bare = self.bare_word(tree)
        if bare is not None and str(bare) in _DAGITTY_RESERVED:
            raise self.reserved(bare)
        name = self.ident(tree)
        self.builder.node(name)
        return name

    def end(self, tree: Any, depth: int) -> list[str]:
        if tree.data == "group":
            return self.items(tree.children, depth + 1)
        return [self.node(tree)]

    def edge_statement(self, item: Any, depth: int) -> list[str]:
        parts = [c for c in item.children if c.data != "attrs"]  # an edge's own attributes (pos, label) are layout
        ends = [self.end(p, depth) for p in parts[::2]]
        # '{a1 ... an} -> {b1 ... bm}' is n x m edges: counted before they are made
        MAX_GRAPH_EDGES.check(
            len(self.builder.edges) + sum(len(a) * len(b) for a, b in itertools.pairwise(ends)), f"dagitty graph {self.source!r}"
        )
        for k, edge in enumerate(parts[1::2]):
            tok = edge.children[0]
            token = _DAGITTY_TOKEN.get(str(tok), str(tok))
            for left in ends[k]:
                for right in ends[k + 1]:
                    self.builder.edge(left, token, right, tok)
        return [n for end in ends for n in end]


def _dagitty_read(text: str, source: str) -> tuple[Graph, frozenset[str]]:
    """The graph of a DAGitty text, and the flag spellings in it that DOT does not read."""
    tree = _parse("dagitty", text, source, "bad dagitty statement")
    walk = _DagittyWalk(text, source)
    children = list(tree.children)
    meta: dict[str, Any] = {"dagitty_type": "dag"}
    while children and not hasattr(children[0], "data"):  # 'strict' needs nothing (a repeated edge is merged) and the type
        tok = children.pop(0)
        if tok.type == "GRAPHTYPE":
            meta["dagitty_type"] = str(tok).lower()
    if children and children[0].data == "graph_name":
        meta["dagitty_name"] = walk.ident(children.pop(0).children[0])
    walk.items(children, 0)
    if walk.attributes:
        meta["attributes"] = walk.attributes
    if walk.graph_attributes:
        meta["graph_attributes"] = walk.graph_attributes
    return walk.builder.graph(meta), frozenset(walk.aliases)


def parse_dagitty(text: str, *, source: str = "<string>") -> Graph:
    """The DAGitty syntax (``grammar/dagitty.lark``), read as dagitty's own parser reads it.

    The header is ``dag``, ``pdag``, ``mag``, ``pag`` or the legacy ``graph`` / ``digraph``, in
    any letter case, after an optional ``strict`` and before an optional graph name; ``;`` is
    white space.  A group ``{ ... }`` on either side of an edge stands for each of its nodes
    (``{a b} -> {c d}`` is four edges) and adds its own edges; a group may stand alone.  Node
    attributes go to ``meta["attributes"]``: dagitty's flags in every spelling it reads
    (``[l]``, ``[u]``, ``[unobserved]`` → ``latent``; ``[e]``, ``[source]`` → ``exposure``;
    ``[o]``, ``[target]`` → ``outcome``; ``[a]`` → ``adjusted``; ``[s]`` → ``selected``; a flag
    is set whatever value it is given, as dagitty sets it), ``pos`` and any other attribute
    as written.  An edge's own attributes (``pos``, ``label``) are layout and not read.
    ``graph [key=value]`` and ``key=value`` statements go to ``meta["graph_attributes"]``;
    ``meta["dagitty_type"]`` keeps the header in lower case, ``meta["dagitty_name"]`` the name.
    A bare ``node``, or ``graph`` as an end of an edge, is refused (dagitty reserves them).
    """
    return _dagitty_read(text, source)[0]


def _dagitty_name(name: str) -> str:
    if _DAGITTY_BARE.fullmatch(name) and name not in _DAGITTY_RESERVED:
        return name
    return json.dumps(name, ensure_ascii=False)


def _dagitty_header(graph: Graph, read: object) -> str:
    """The header read (``meta["dagitty_type"]``) while the graph's edges fit it, else the one of ``graph.kind``."""
    if isinstance(read, str) and read in _DAGITTY_TYPE_EDGES:
        allowed = _DAGITTY_TYPE_EDGES[read]
        if allowed is None or all(e.token in allowed for e in graph.edges):
            return read
    return _DAGITTY_TYPE[graph.kind]


def _dagitty_attrs(attrs: Mapping[str, object]) -> str:
    parts = [_dagitty_name(k) if v is True else f"{_dagitty_name(k)}={json.dumps(str(v), ensure_ascii=False)}" for k, v in attrs.items()]
    return f"[{','.join(parts)}]"


def format_dagitty(graph: Graph, graph_type: str | None = None) -> str:
    """DAGitty syntax, read back by :func:`parse_dagitty` (and by dagitty) as the same graph and attributes.

    The header is *graph_type*, else the one read (``meta["dagitty_type"]``: ``dag``, ``pdag``,
    ``mag`` or ``pag``) while the graph's edges are ones it allows, else the one of
    ``graph.kind``; the graph name and graph attributes read are written back, and node
    attributes with their full names (``latent``, ``exposure``, ...).  Names that are not
    dagitty bare words (``[0-9a-zA-Z_.]+``) are quoted.
    """
    meta = graph.meta if isinstance(graph.meta, Mapping) else {}
    header = graph_type or _dagitty_header(graph, meta.get("dagitty_type"))
    name = meta.get("dagitty_name")
    lines = [f"{header} {_dagitty_name(name) + ' ' if isinstance(name, str) else ''}{{"]
    graph_attributes = meta.get("graph_attributes")
    if isinstance(graph_attributes, Mapping):
        lines += [f"{_dagitty_name(k)}={json.dumps(str(v), ensure_ascii=False)}" for k, v in graph_attributes.items() if v is not True]
        flags = {k: v for k, v in graph_attributes.items() if v is True}
        if flags:
            lines.append(f"graph {_dagitty_attrs(flags)}")
    for n in graph.nodes:
        attrs = graph.attributes.get(n)
        lines.append(f"{_dagitty_name(n)} {_dagitty_attrs(attrs)}" if attrs else _dagitty_name(n))
    for e in graph.edges:
        lines.append(f"{_dagitty_name(e.u)} {_TO_DAGITTY.get(e.token, e.token)} {_dagitty_name(e.v)}")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- DOT

_SHAPE_CIRCLE = {"odot", "dot", "circle", "ocircle"}


def _symmetric(symmetric: str) -> Literal["undirected", "error"]:
    if symmetric not in ("undirected", "error"):
        raise InputFormatError(f"symmetric={symmetric!r} must be 'undirected' or 'error'")
    return "undirected" if symmetric == "undirected" else "error"


def _dot_mark(shape: str | None, default: Mark) -> Mark:
    if shape is None:
        return default
    s = shape.strip('"').lower()
    if s == "none":
        return Mark.TAIL
    if s in _SHAPE_CIRCLE:
        return Mark.CIRCLE
    return Mark.ARROW


_DOT_ESCAPE = re.compile(r'\\(["\\])')


def _dot_unquote(name: str) -> str:
    """A DOT id without its quotes; ``\\"`` and ``\\\\`` are unescaped (what :func:`format_dot` writes)."""
    if len(name) >= 2 and name[0] == '"' and name[-1] == '"':
        return _DOT_ESCAPE.sub(r"\1", name[1:-1])
    return name


def parse_dot(text: str, *, source: str = "<string>", symmetric: str = "error") -> Graph:
    """Graphviz DOT (``grammar/dot.lark``, the DOT language's grammar).

    Read as Graphviz reads it: ``a`` and ``"a"`` are one node; a port (``a:p``, ``a:p:n``) is
    not part of the name; ``{a b} -> c`` (a subgraph as an end point) is an edge from each
    node of the group; ``edge [...]`` and ``node [...]`` defaults apply to the edges and
    nodes that follow in their scope (a subgraph's defaults end with it); a ``digraph``
    takes ``->`` only, a ``graph`` ``--`` only.  Nodes come in the order of their first
    appearance.  *symmetric* ``"error"`` (the default) refuses ``a -> b`` with ``b -> a`` (a
    2-cycle); ``"undirected"`` reads that pair as ``a -- b``.  A file with more than one
    graph, or text after the graph, is refused.
    """
    return _dot_read(text, source, symmetric)[0]


def _dot_read(text: str, source: str, symmetric: str) -> tuple[Graph, frozenset[str]]:
    """The graph of a DOT text, and the DOT features in it that DAGitty reads otherwise (:data:`_DOT_ONLY`)."""
    tree = _parse("dot", text, source, "bad DOT graph")
    kids = list(tree.children)  # 'strict' needs nothing: every graph here merges a repeated edge
    graph_type = next(k for k in kids if getattr(k, "data", None) == "graph_type")
    walk = _DotWalk(text, source, directed=str(graph_type.children[0]).lower() == "digraph")
    walk.statements(next(k for k in kids if getattr(k, "data", None) == "stmt_list"), {}, {}, 0)
    items = [(walk.label(u), walk.label(v), *_dot_marks(attrs, walk.directed, f"{source}: DOT edge {u!r} {walk.op} {v!r}"))
             for u, v, attrs in walk.edges]
    nodes = list(dict.fromkeys(walk.label(n) for n in walk.order))
    graph = assemble(nodes, items, symmetric=_symmetric(symmetric), source=source)
    attributes = read_node_attributes([(walk.label(n), walk.node_attrs[n]) for n in walk.order], source=source)
    return (graph.with_attributes(attributes) if attributes else graph), frozenset(walk.features)


def _dot_ident(tree: Any) -> str:
    """An ``id`` of ``grammar/dot.lark`` as a name: quotes and escapes removed, ``+`` joined, ``<...>`` unwrapped."""
    tok = tree.children[0]
    if getattr(tok, "data", None) == "quoted":
        return "".join(_dot_unquote(str(part).replace("\\\n", "")) for part in tok.children)
    value = str(tok)
    return value[1:-1] if tok.type == "HTML" else value


def _dot_attrs(attr_list: Any) -> dict[str, str]:
    """``[a=1, b][c=2]`` as ``{"a": "1", "b": "true", "c": "2"}``."""
    out: dict[str, str] = {}
    for a_list in attr_list.children:
        for attr in a_list.children:
            out[_dot_ident(attr.children[0])] = _dot_ident(attr.children[1]) if len(attr.children) > 1 else "true"
    return out


def _dot_marks(attrs: Mapping[str, str], directed: bool, where: str) -> tuple[Mark, Mark]:
    """The marks at the two ends of a DOT edge from its ``dir``, ``arrowtail`` and ``arrowhead``."""
    dir_ = attrs.get("dir", "forward" if directed else "none").lower()
    if dir_ == "none":
        return Mark.TAIL, Mark.TAIL
    if dir_ == "both":
        return _dot_mark(attrs.get("arrowtail"), Mark.ARROW), _dot_mark(attrs.get("arrowhead"), Mark.ARROW)
    if dir_ == "back":
        return _dot_mark(attrs.get("arrowtail"), Mark.ARROW), Mark.TAIL
    if dir_ == "forward":
        return Mark.TAIL, _dot_mark(attrs.get("arrowhead"), Mark.ARROW)
    raise InputFormatError(f"{where} has dir={attrs.get('dir')!r}; expected forward, back, both or none")


#: Edge attributes that give a DOT edge its marks; DAGitty reads an edge's attributes as layout.
_DOT_ONLY_EDGE_ATTRIBUTES = ("dir", "arrowhead", "arrowtail")


class _DagittyEdgeInDot(DSLSyntaxError):
    """DAGitty's ``<->`` / ``<-`` / ``<-@`` in a DOT text, where the DOT grammar would read it as an HTML id."""


class _DotWalk:
    """The statements of a DOT parse tree, scope by scope: nodes in order of first appearance, their
    attributes, and the edges with their attributes (the scope's ``edge [...]`` defaults included)."""

    def __init__(self, text: str, source: str, *, directed: bool) -> None:
        self.text, self.source, self.directed = text, source, directed
        self.op = "->" if directed else "--"
        self.order: dict[str, None] = {}
        self.node_attrs: dict[str, dict[str, str]] = {}
        self.edges: list[tuple[str, str, dict[str, str]]] = []
        self.features: set[str] = set()

    def label(self, name: str) -> str:
        given = self.node_attrs[name].get("label")
        return name if given is None or given == "\\N" else given

    def mention(self, name: str, defaults: Mapping[str, str]) -> None:
        if name not in self.order:
            self.order[name] = None
            self.node_attrs[name] = {k: v for k, v in defaults.items() if k != "label"}

    def node_name(self, id_tree: Any) -> str:
        """A node's name; an HTML id ``<-...>`` is refused as DAGitty's edge (DOT has no ``<->`` or ``<-``)."""
        tok = id_tree.children[0]
        if getattr(tok, "type", None) == "HTML" and str(tok).startswith("<-"):
            edge = next(e for e in ("<->", "<-@", "<-") if str(tok).startswith(e))
            raise _DagittyEdgeInDot(
                f"bad DOT graph: DOT has no edge {edge!r} (it would read {_short(str(tok))} as a node named by an HTML "
                "string); this is DAGitty's edge syntax: read the file as dagitty with format='dagitty' "
                "(on the command line --graph-format dagitty, or --truth-format / --estimate-format dagitty)",
                text=self.text, line=tok.line or 1, column=tok.column or 1, source=self.source,
            )
        return _dot_ident(id_tree)

    def statements(self, stmt_list: Any, node_defaults: dict[str, str], edge_defaults: dict[str, str], depth: int) -> list[str]:
        """Walk one scope; returns the nodes mentioned in it, in order (a group's members)."""
        MAX_GRAPH_NESTING.check(depth, f"DOT graph {self.source!r}")  # the walk recurses per level
        members: dict[str, None] = {}
        node_defaults, edge_defaults = dict(node_defaults), dict(edge_defaults)
        for stmt in stmt_list.children:
            kind = stmt.data
            if kind == "attr_stmt":
                which = str(stmt.children[0]).lower()
                if which in ("node", "edge"):
                    self.features.add(f"{which} [...]")
                    (node_defaults if which == "node" else edge_defaults).update(_dot_attrs(stmt.children[1]))
            elif kind == "node_stmt":
                name = self.node_name(stmt.children[0].children[0])
                self.mention(name, node_defaults)
                if len(stmt.children) > 1:
                    self.node_attrs[name].update(_dot_attrs(stmt.children[1]))
                members[name] = None
            elif kind == "subgraph":
                members.update(dict.fromkeys(self.group(stmt, node_defaults, edge_defaults, depth)))
            elif kind == "edge_stmt":
                members.update(dict.fromkeys(self.edge_statement(stmt, node_defaults, edge_defaults, depth)))
        return list(members)

    def edge_statement(self, stmt: Any, node_defaults: dict[str, str], edge_defaults: dict[str, str], depth: int) -> list[str]:
        parts = list(stmt.children)
        own = _dot_attrs(parts.pop()) if getattr(parts[-1], "data", None) == "attr_list" else {}
        ends = [self.group(p, node_defaults, edge_defaults, depth) for p in parts[::2]]
        for op in parts[1::2]:
            if str(op) != self.op:
                raise DSLSyntaxError(
                    f"bad DOT graph: edge operator {str(op)!r} in a {'digraph' if self.directed else 'graph'} (which takes {self.op!r})",
                    text=self.text, line=op.line or 1, column=op.column or 1, source=self.source,
                )
        attrs = {**edge_defaults, **own}
        self.features.update(k for k in _DOT_ONLY_EDGE_ATTRIBUTES if k in attrs)
        # '{a1 ... an} -> {b1 ... bm}' is n x m edges: counted before they are made
        MAX_GRAPH_EDGES.check(len(self.edges) + sum(len(a) * len(b) for a, b in itertools.pairwise(ends)), f"DOT graph {self.source!r}")
        for left, right in itertools.pairwise(ends):
            self.edges.extend((u, v, attrs) for u in left for v in right)
        return [n for end in ends for n in end]

    def group(self, item: Any, node_defaults: dict[str, str], edge_defaults: dict[str, str], depth: int) -> list[str]:
        if item.data == "node_id":
            name = self.node_name(item.children[0])
            self.mention(name, node_defaults)
            return [name]
        if getattr(item.children[0], "type", None) == "SUBGRAPH":
            self.features.add("subgraph")
        return self.statements(item.children[-1], node_defaults, edge_defaults, depth + 1)


_DOT_SHAPE = {Mark.TAIL: "none", Mark.ARROW: "normal", Mark.CIRCLE: "odot"}


def _dot_id(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _dot_node(graph: Graph, name: str) -> str:
    attrs = graph.attributes.get(name, {})
    parts = [f"{k}={'true' if attrs[k] is True else _dot_id(str(attrs[k]))}" for k in NODE_ATTRIBUTES if k in attrs]
    return f"  {_dot_id(name)}" + (f" [{', '.join(parts)}]" if parts else "") + ";"


def format_dot(graph: Graph) -> str:
    """A ``digraph``: ``->`` edges plain, others ``dir=both`` with ``arrowtail``/``arrowhead`` (causal-learn's style).

    Node attributes (``latent``, ``exposure``, ``outcome``, ``adjusted``, ``selected``, ``pos``) are node attributes.
    """
    lines = ["digraph {"]
    lines += [_dot_node(graph, n) for n in graph.nodes]
    for e in graph.edges:
        if e.is_directed:
            lines.append(f"  {_dot_id(e.u)} -> {_dot_id(e.v)};")
        else:
            lines.append(
                f"  {_dot_id(e.u)} -> {_dot_id(e.v)} [dir=both, arrowtail={_DOT_SHAPE[e.mark_u]}, "
                f"arrowhead={_DOT_SHAPE[e.mark_v]}];"
            )
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- DOT or DAGitty

def _model_attributes(graph: Graph) -> dict[str, dict[str, str | bool]]:
    """The node attributes of the model (:data:`NODE_ATTRIBUTES`), the ones both readers know."""
    out = {}
    for node, attrs in graph.attributes.items():
        kept = {k: attrs[k] for k in NODE_ATTRIBUTES if k in attrs}
        if kept:
            out[node] = kept
    return out


def _some(items: Iterable[str], limit: int = 3) -> str:
    shown = list(items)
    more = f" and {len(shown) - limit} more" if len(shown) > limit else ""
    return (", ".join(repr(x) for x in shown[:limit]) or "none") + more


def _difference(dot: Graph, dagitty: Graph) -> str:
    """The first way the DOT and the DAGitty reading of one text differ, in words."""
    if set(dot.nodes) != set(dagitty.nodes):
        return (
            f"nodes only in the DOT reading: {_some(n for n in dot.nodes if n not in dagitty.index)}; "
            f"only in the DAGitty reading: {_some(n for n in dagitty.nodes if n not in dot.index)}"
        )
    if dot != dagitty:
        a, b = {str(e) for e in dot.edges}, {str(e) for e in dagitty.edges}
        return f"edges only in the DOT reading: {_some(sorted(a - b))}; only in the DAGitty reading: {_some(sorted(b - a))}"
    a_attrs, b_attrs = _model_attributes(dot), _model_attributes(dagitty)
    node = next(n for n in dot.nodes if a_attrs.get(n) != b_attrs.get(n))
    return f"node {node!r} has the attributes {a_attrs.get(node, {})!r} as DOT and {b_attrs.get(node, {})!r} as DAGitty"


def _reach(exc: Exception) -> tuple[float, float]:
    """How far a reader got before *exc*: the position of a syntax error, the end for any other refusal."""
    if isinstance(exc, DSLSyntaxError):
        return (exc.line, exc.column)
    return (math.inf, math.inf)


def dot_or_dagitty(text: str, *, source: str = "<string>", symmetric: str = "error") -> str:
    """``"dot"`` or ``"dagitty"``: the format a text with a ``graph`` / ``digraph`` header is written in.

    ``graph { ... }`` and ``digraph { ... }`` are DOT's headers and DAGitty's legacy ones, and the
    two read some texts into different graphs.  The content decides:

    * a text only one of them reads is in that one — DAGitty's edges ``<->``, ``<-``, the ``@``
      edges, ``--`` in a ``digraph`` and ``->`` in a ``graph`` are not DOT; ports, ``node [...]``
      and HTML ids are not DAGitty;
    * a text both read into the same graph with the same node attributes is DOT;
    * a text both read into different graphs is the one whose features it has alone: DOT's
      ``edge [...]`` / ``node [...]`` defaults, ``subgraph`` and the ``dir`` / ``arrowhead`` /
      ``arrowtail`` of an edge, or DAGitty's flag spellings DOT does not know (``[l]``,
      ``[e]``, ``[source]``, ...).  With features of both, or of neither (a ``label``, which
      names a node in DOT and labels it in DAGitty), it raises
      :class:`~causalcheck.base.errors.InputFormatError` naming the difference and the
      ``format=`` to pass.

    A text neither reads is given to the one that read further, whose error the caller's
    reading then raises.  *symmetric* is :func:`parse_dot`'s.

    >>> dot_or_dagitty("digraph G { x <-> m -> y }"), dot_or_dagitty("digraph { a -> b [dir=none] }")
    ('dagitty', 'dot')
    """
    readings: dict[str, tuple[Graph, frozenset[str]]] = {}
    failures: dict[str, Exception] = {}
    for fmt in ("dot", "dagitty"):
        try:
            readings[fmt] = _dot_read(text, source, symmetric) if fmt == "dot" else _dagitty_read(text, source)
        except (DSLSyntaxError, InputFormatError) as exc:
            failures[fmt] = exc
    dagitty_edge = isinstance(failures.get("dot"), _DagittyEdgeInDot)  # '<->' or '<-', which DOT would read as a name
    if len(readings) == 1:
        return next(iter(readings))
    if not readings:  # the reader that got further; at a tie DAGitty, if DOT stopped at a DAGitty edge
        preferred = "dagitty" if dagitty_edge else "dot"
        return max(("dot", "dagitty"), key=lambda fmt: (_reach(failures[fmt]), fmt == preferred))
    (dot, dot_only), (dagitty, dagitty_only) = readings["dot"], readings["dagitty"]
    if dot == dagitty and _model_attributes(dot) == _model_attributes(dagitty):
        return "dot"
    if dot_only and not dagitty_only:
        return "dot"
    if dagitty_only and not dot_only:
        return "dagitty"
    has = (
        f"it has DOT's {_some(sorted(dot_only))} and DAGitty's {_some(sorted(dagitty_only))}"
        if dot_only
        else "nothing in it is only DOT's or only DAGitty's"
    )
    raise InputFormatError(
        f"{source}: ambiguous graph file: DOT and DAGitty (whose legacy header 'graph' / 'digraph' it has) read it "
        f"into different graphs ({_difference(dot, dagitty)}), and {has}; read it with format='dot' or "
        "format='dagitty' (on the command line --graph-format, --truth-format or --estimate-format)"
    )


# --------------------------------------------------------------------------- GML


def parse_gml(text: str, *, source: str = "<string>", symmetric: str = "error") -> Graph:
    """GML as ``networkx.read_gml`` reads it (nodes by ``label``), then the networkx adapter.

    *symmetric* as in :func:`parse_dot`: a pair written both ways without ``marks`` is refused
    unless ``"undirected"``.  Layout and display attributes never stop a read: a node's 2-D
    position (``pos "1,2"``, ``pos 1 pos 2`` as ``networkx.write_gml`` writes a pair, or
    ``pos [ x 1 y 2 ]``) is kept as its ``pos``; a ``pos`` of another shape (3-D, one
    number, a block with other keys) and every other nested ``[ ... ]`` attribute
    (``graphics``, an edge's ``color``) are ignored.
    """
    import networkx as nx

    # networkx's tokenizer indexes line[-1] inside a string spread over lines, so an empty
    # line there raised IndexError: give it lines that are never empty (a blank is whitespace to GML)
    lines = [line or " " for line in text.splitlines()]
    try:
        g = nx.parse_gml(lines, label="label")
    except nx.NetworkXError as exc:
        raise InputFormatError(f"{source}: not a GML graph: {exc}{_gml_repeated_pair(lines)}") from None
    except TypeError as exc:  # networkx keys a dict by each id/label/source/target: a repeated key is a list there
        raise InputFormatError(
            f"{source}: not a GML graph: a node's id and label and an edge's source and target must each be one "
            f"number or string, given once (networkx read a repeated key or a [ ... ] block: {exc})"
        ) from None
    for _, data in g.nodes(data=True):
        _gml_position(data)
    try:
        return from_networkx(g, symmetric=_symmetric(symmetric))
    except InputFormatError as exc:
        raise InputFormatError(f"{source}: {exc}") from None


def _gml_repeated_pair(lines: list[str]) -> str:
    """``: 'x -> y' and 'x <-> y' ...`` — the two edges of the first node pair a GML text joins twice (else ``""``)."""
    import networkx as nx

    multi = re.sub(r"\bgraph\s*\[", "graph [ multigraph 1 ", "\n".join(lines), count=1)
    try:
        g = nx.parse_gml(multi.splitlines(), label="label")
    except (nx.NetworkXError, TypeError):
        return ""
    seen: dict[frozenset[str], str] = {}
    for u, v, data in g.edges(data=True):
        token = data.get("marks", "->" if g.is_directed() else "--")
        edge = str(GraphEdge.parse(str(u), token, str(v))) if token in EDGE_TOKENS else f"{u} {token} {v}"
        key = frozenset((str(u), str(v)))
        if key in seen:
            return f": {seen[key]!r} and {edge!r} (a graph holds at most one edge per node pair)"
        seen[key] = edge
    return ""


def _gml_position(data: dict[str, Any]) -> None:
    """Keep a node's 2-D ``pos`` — a string, ``pos x pos y`` or ``pos [ x .. y .. ]`` — and drop a ``pos`` of any other shape.

    A position is layout: one the model cannot hold (3-D, one number, a block with other keys)
    must not stop the graph from being read.
    """
    pos = data.get("pos")
    if pos is None or isinstance(pos, str):
        return
    if isinstance(pos, dict) and set(pos) == {"x", "y"}:
        pos = [pos["x"], pos["y"]]
    if isinstance(pos, list) and len(pos) == 2 and all(
        isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in pos
    ):
        data["pos"] = pos
    else:
        del data["pos"]


def format_gml(graph: Graph) -> str:
    """GML via ``networkx.generate_gml`` of :func:`~causalcheck.graphs.convert.to_networkx`."""
    import networkx as nx

    return "\n".join(nx.generate_gml(to_networkx(graph))) + "\n"


# --------------------------------------------------------------------------- causal-learn text

_CL_EDGE = re.compile(r"^\s*(\d+)\.\s+(\S+)\s+([<o-])-([>o-])\s+(\S+)(\s.*)?$")
_CL_LEFT = {"-": Mark.TAIL, "<": Mark.ARROW, "o": Mark.CIRCLE}
_CL_RIGHT = {"-": Mark.TAIL, ">": Mark.ARROW, "o": Mark.CIRCLE}
_CL_LEFT_CHAR = {Mark.TAIL: "-", Mark.ARROW: "<", Mark.CIRCLE: "o"}
_CL_RIGHT_CHAR = {Mark.TAIL: "-", Mark.ARROW: ">", Mark.CIRCLE: "o"}


def parse_causallearn(text: str, *, source: str = "<string>") -> Graph:
    """causal-learn's text format (``GraphUtils.graph_string`` / ``txt2generalgraph``)::

        Graph Nodes:
        X1;X2;X3

        Graph Edges:
        1. X1 --> X2
        2. X2 o-> X3
    """
    lines = text.splitlines()
    nodes: list[str] = []
    b = _Builder(text, source)
    section = ""
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        words = line.split()
        if len(words) > 1 and words[1] == "Nodes:":
            section = "nodes"
            continue
        if len(words) > 1 and words[1] == "Edges:":
            section = "edges"
            continue
        if section == "nodes":
            nodes.extend(n for n in line.split(";") if n)
            for n in nodes:
                b.node(n)
            section = ""
            continue
        m = _CL_EDGE.match(raw)
        if m:
            _, left, lm, rm, right, _ = m.groups()
            mu, mv = _CL_LEFT[lm], _CL_RIGHT[rm]
            tok = type("Pos", (), {"line": lineno, "column": 1})()
            for name in (left, right):
                if nodes and name not in b.nodes:
                    raise DSLSyntaxError(
                        f"edge names {name!r}, which is not in the 'Graph Nodes:' line", text=text, line=lineno, column=1, source=source
                    )
            token = next(t for t, marks in EDGE_TOKENS.items() if marks == (mu, mv))
            b.edge(left, token, right, tok)
            continue
        raise DSLSyntaxError(
            "bad causal-learn graph line: expected 'Graph Nodes:', a ';'-separated node line, "
            "'Graph Edges:' or an edge like '1. X1 --> X2'",
            text=text,
            line=lineno,
            column=1,
            source=source,
        )
    return b.graph()


def format_causallearn(graph: Graph) -> str:
    """causal-learn's text format (what ``str(GeneralGraph)`` prints); names may not contain spaces or ';'."""
    for n in graph.nodes:
        if not n or any(c.isspace() for c in n) or ";" in n:
            raise InputFormatError(f"node name {n!r} cannot be written in causal-learn's text format (no spaces or ';')")
    out = ["Graph Nodes:", ";".join(graph.nodes), "", "Graph Edges:"]
    for k, e in enumerate(graph.edges, start=1):
        u, v, mu, mv = e.u, e.v, e.mark_u, e.mark_v
        if (mu, mv) == (Mark.CIRCLE, Mark.TAIL):  # causal-learn only stores this edge as 'v --o u'
            u, v, mu, mv = v, u, mv, mu
        out.append(f"{k}. {u} {_CL_LEFT_CHAR[mu]}-{_CL_RIGHT_CHAR[mv]} {v}")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- CSV

_SOURCE_COLS = ("source", "from", "cause", "u")
_TARGET_COLS = ("target", "to", "effect", "v")
_EDGE_COLS = ("edge", "marks", "type")


def _csv_rows(text: str, source: str) -> list[list[str]]:
    """CSV rows; the delimiter is ',' when the first line has one, else ';', else a tab."""
    text = text.lstrip("\ufeff")
    first = re.split(r"\r\n?|\n", text, maxsplit=1)[0]
    delimiter = next((d for d in (",", ";", "\t") if d in first), ",")
    return [row for row in csv_rows(text, source=source, delimiter=delimiter) if any(row)]


class NoWeights(InputFormatError):
    """``threshold=`` was given for a source that has no weights (raised, never ignored)."""


_WEIGHT_COLS = ("weight", "weights", "w", "coef", "coefficient", "strength")


def _edgelist_weight(cell: str, threshold: float, text: str, lineno: int, source: str) -> bool:
    """Whether a row whose weight cell is *cell* is an edge: ``abs(weight) > threshold``."""
    try:
        weight = float(cell)
    except ValueError:
        weight = math.nan
    if not math.isfinite(weight):
        raise DSLSyntaxError(
            f"edge-list row has weight={cell!r}; a weight must be a finite number", text=text, line=lineno, column=1, source=source
        )
    return abs(weight) > threshold


def parse_edgelist_csv(text: str, *, source: str = "<string>", threshold: float | None = None) -> Graph:
    """An edge-list CSV with a header: ``source,target`` and optional ``edge`` and ``weight`` columns.

    Accepted header names: source/from/cause/u, target/to/effect/v, edge/marks/type,
    weight/weights/w/coef/coefficient/strength (case ignored); other columns are ignored.  With a
    weight column a row is an edge when ``abs(weight) > threshold`` (default 0: a weight-0 row
    is no edge, its two nodes stay); *threshold* without a weight column raises.  A row with
    an empty target declares an isolated node.  Without an ``edge`` column every edge is ``->``;
    with one, an edge row with an empty edge cell raises (a cut file, a forgotten token).
    """
    rows = _csv_rows(text, source)
    if not rows:
        raise InputFormatError(f"{source}: empty edge-list CSV")
    header = [h.strip().lower() for h in rows[0]]

    def col(options: Sequence[str]) -> int | None:
        return next((header.index(o) for o in options if o in header), None)

    si, ti, ei, wi = col(_SOURCE_COLS), col(_TARGET_COLS), col(_EDGE_COLS), col(_WEIGHT_COLS)
    if si is None or ti is None:
        raise InputFormatError(
            f"{source}: edge-list CSV header {rows[0]!r} needs a source column ({'/'.join(_SOURCE_COLS)}) "
            f"and a target column ({'/'.join(_TARGET_COLS)})"
        )
    if wi is None and threshold is not None:
        raise NoWeights(
            f"{source}: threshold={threshold!r} needs a weight column ({'/'.join(_WEIGHT_COLS)}); the header is {rows[0]!r}"
        )
    b = _Builder(text, source)
    for lineno, row in enumerate(rows[1:], start=2):
        cells = row + [""] * (len(header) - len(row))
        s, t = cells[si], cells[ti]
        token = cells[ei].strip() if ei is not None else "->"
        pos = type("Pos", (), {"line": lineno, "column": 1})()
        if not s:
            raise DSLSyntaxError("edge-list row has an empty source", text=text, line=lineno, column=1, source=source)
        if not t:
            b.node(s)
            continue
        if not token and ei is not None:  # the file has an edge column: an empty cell is a cut or forgotten token, not '->'
            raise DSLSyntaxError(
                f"edge-list row {s!r},{t!r} has an empty {rows[0][ei].strip()!r} cell; write the edge token "
                f"(one of {list(EDGE_TOKENS)!r}) or leave the column out (then every edge is '->')",
                text=text, line=lineno, column=1, source=source,
            )
        if token not in EDGE_TOKENS:
            raise DSLSyntaxError(
                f"edge-list row has edge={token!r}; expected one of {list(EDGE_TOKENS)!r}",
                text=text,
                line=lineno,
                column=1,
                source=source,
            )
        if wi is not None and not _edgelist_weight(cells[wi].strip(), threshold or 0.0, text, lineno, source):
            b.node(s)
            b.node(t)
            continue
        b.edge(s, token, t, pos)
    return b.graph()


def format_edgelist_csv(graph: Graph) -> str:
    """``source,target,edge`` rows; each node without an edge gets a row ``name,,``."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["source", "target", "edge"])
    touched = {n for e in graph.edges for n in (e.u, e.v)}
    for n in graph.nodes:
        if n not in touched:
            w.writerow([n, "", ""])
    for e in graph.edges:
        w.writerow([e.u, e.v, e.token])
    return buf.getvalue()


def parse_adjacency_csv(
    text: str, *, source: str = "<string>", convention: str | None = None, threshold: float | None = None
) -> Graph:
    """An adjacency CSV: a header row of names, then one row per node (a leading name column is optional).

    *convention* defaults to ``"row_to_column"`` (what :func:`format_adjacency_csv` writes);
    see :func:`causalcheck.graphs.convert.from_matrix` for the others and for *threshold*
    (an entry is an edge when its absolute value exceeds it; without it a matrix of whole
    numbers holds only 0 and 1, and any other value is refused naming its row and column).
    """
    rows = _csv_rows(text, source)
    if not rows:
        raise InputFormatError(f"{source}: empty adjacency CSV")
    header = [c.strip() for c in rows[0]]
    body = rows[1:]
    indexed = bool(header) and (header[0] == "" or (all(len(r) == len(header) for r in body) and len(header) == len(body) + 1))
    names = header[1:] if indexed else header
    if len(body) != len(names):
        raise InputFormatError(f"{source}: the header names {len(names)} nodes but there are {len(body)} rows")
    matrix: list[list[float]] = []
    for lineno, row in enumerate(body, start=2):
        cells = row[1:] if indexed else row
        if indexed and row[0].strip() != names[lineno - 2]:
            raise InputFormatError(
                f"{source}: line {lineno} is labelled {row[0].strip()!r} but column {lineno - 1} is {names[lineno - 2]!r}"
            )
        if len(cells) != len(names):
            raise InputFormatError(f"{source}: line {lineno} has {len(cells)} values, expected {len(names)}")
        try:
            matrix.append([float(c) if c.strip() else 0.0 for c in cells])
        except ValueError:
            raise InputFormatError(f"{source}: line {lineno} has a value that is not a number: {cells!r}") from None
    return from_matrix(matrix, names, convention=convention or "row_to_column", threshold=threshold)


def format_adjacency_csv(graph: Graph, *, convention: str = "row_to_column") -> str:
    """Header ``,A,B,...`` then one labelled row per node (pandas reads it with ``index_col=0``)."""
    a = to_matrix(graph, convention=convention)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["", *graph.nodes])
    for name, row in zip(graph.nodes, a.tolist(), strict=True):
        w.writerow([name, *row])
    return buf.getvalue()


# --------------------------------------------------------------------------- JSON


def parse_json(text: str, *, source: str = "<string>") -> Graph:
    """``{"nodes": [...], "edges": [[left, token, right], ...]}`` (:meth:`Graph.to_dict`)."""
    try:  # safejson: deep nesting, 400-digit integers, NaN and lone surrogates are refused, not a crash
        data = safejson.loads(text, source=source)
    except safejson.JSONSyntaxError as exc:
        raise DSLSyntaxError(f"bad graph JSON: {exc.msg}", text=text, line=exc.line, column=exc.column, source=source) from None
    return Graph.from_dict(data)


def format_json(graph: Graph) -> str:
    """:meth:`Graph.to_dict` as indented JSON."""
    return json.dumps(graph.to_dict(), indent=2, ensure_ascii=False) + "\n"


Parser = Callable[..., Graph]
Printer = Callable[[Graph], str]

#: Format name -> (parser, printer).
FORMATS: dict[str, tuple[Parser, Printer]] = {
    "text": (parse_text, format_text),
    "dagitty": (parse_dagitty, format_dagitty),
    "dot": (parse_dot, format_dot),
    "gml": (parse_gml, format_gml),
    "causallearn": (parse_causallearn, format_causallearn),
    "edgelist": (parse_edgelist_csv, format_edgelist_csv),
    "adjacency": (parse_adjacency_csv, format_adjacency_csv),
    "json": (parse_json, format_json),
}
