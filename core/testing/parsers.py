"""``check_parser_total``, ``check_round_trip`` and ``check_edge_parser``: parsers that never crash,
printers that round-trip, edge parsers that keep names exactly.

* :func:`check_parser_total` — ``parse`` either returns or raises the documented *error*
  (default :class:`~causalcheck.base.errors.CausalCheckError`) on every example of *strategy*;
  anything else (a ``KeyError``, a ``RecursionError``, ...) fails with the input and the
  exception.  An error message must name something: an empty message fails too.
* :func:`check_round_trip` — ``parse(format(x)) == x`` for every example, and the printed
  text is stable: ``format(parse(format(x))) == format(x)``.
* :func:`check_edge_parser` — a parser of edges (yours: of a CSV, a DSL, model output) reads
  back every edge of a graph written by causalcheck's writer of the format (or your
  *format* callable) with every name exactly as written, one property per family of names
  (:data:`~causalcheck.base.pools.NAME_FAMILIES`): ``structure`` (plain names: each edge
  once, its direction kept), ``blanks`` (`` a``, ``a `` and ``a`` are three nodes), ``case``,
  ``unicode``, ``combining`` (marks kept), ``right-to-left``, ``emoji`` (joined sequences,
  skin tones), ``normalization`` (``é`` in NFC and in NFD are two nodes: nothing is
  normalised) and ``syntax`` (``a->b``, quotes, commas inside a name).  A failure shows the
  graph, the text, what was read, the edges missing and extra, and how a name changed
  (``' a' -> 'a' (trimmed)``); an exception from the parser is a failure too.

>>> from hypothesis import strategies as st
>>> from causalcheck.graphs.formats import parse_text
>>> check_parser_total(parse_text, st.text(max_size=20), max_examples=20).properties
('total',)
>>> from causalcheck import strategies as cs
>>> from causalcheck.graphs.formats import format_text, parse_text
>>> check_round_trip(parse_text, format_text, cs.dags(), max_examples=20).properties
('round-trip', 'stable-text')
>>> check_edge_parser(parse_text, "text", max_examples=10).properties[:3]
('structure', 'blanks', 'case')
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.pools import NAME_FAMILIES
from causalcheck.graphs.io import write_graph
from causalcheck.graphs.model import Graph, GraphEdge
from causalcheck.testing import runner
from causalcheck.testing.runner import Property, PropertyFailure, SuiteReport, call, describe

__all__ = ["check_edge_parser", "check_parser_total", "check_round_trip"]


def check_parser_total(
    parse: Callable[[Any], Any],
    strategy: Any,
    *,
    error: type[BaseException] | tuple[type[BaseException], ...] = CausalCheckError,
    profile: str | None = None,
    max_examples: int | None = None,
) -> SuiteReport:
    """Check that *parse* raises nothing but *error* (with a message) on *strategy*'s examples."""
    suite = "check_parser_total"
    subject = describe(parse)
    names = error.__name__ if isinstance(error, type) else " or ".join(e.__name__ for e in error)

    def total(text: Any) -> None:
        try:
            parse(text)
        except error as exc:
            if not str(exc).strip():
                raise PropertyFailure(suite, "total", f"  input:    {text!r}\n  raised:   {type(exc).__name__} with an empty message", subject) from exc
        except Exception as exc:
            raise PropertyFailure(
                suite, "total", f"  input:    {text!r}\n  raised:   {type(exc).__name__}: {exc}\n  expected: a result or {names}", subject
            ) from exc

    return runner.run_suite(suite, [Property("total", strategy, total)], subject=subject, profile=profile, max_examples=max_examples)


def check_round_trip(
    parse: Callable[[Any], Any],
    format: Callable[[Any], Any],
    strategy: Any,
    *,
    equal: Callable[[Any, Any], bool] | None = None,
    stable: bool = True,
    skip: Sequence[str] = (),
    profile: str | None = None,
    max_examples: int | None = None,
) -> SuiteReport:
    """Check ``parse(format(x)) == x`` (or ``equal(x, parsed)``) and, with *stable*, a stable printed text."""
    suite = "check_round_trip"
    subject = f"{describe(parse)} / {describe(format)}"
    same = equal or (lambda a, b: a == b)

    def printed(prop: str, x: Any) -> tuple[Any, Any]:
        try:
            text = format(x)
            back = parse(text)
        except Exception as exc:
            raise PropertyFailure(suite, prop, f"  value:    {x!r}\n  raised:   {type(exc).__name__}: {exc}", subject) from exc
        return text, back

    def round_trip(x: Any) -> None:
        text, back = printed("round-trip", x)
        if not same(x, back):
            raise PropertyFailure(suite, "round-trip", f"  value:    {x!r}\n  text:     {text!r}\n  parsed:   {back!r}\n  expected: the value itself", subject)

    def stable_text(x: Any) -> None:
        text, back = printed("stable-text", x)
        again = format(back)
        if again != text:
            raise PropertyFailure(suite, "stable-text", f"  value:    {x!r}\n  text:     {text!r}\n  reprinted: {again!r}\n  expected: the same text", subject)

    props = [Property("round-trip", strategy, round_trip)]
    if stable:
        props.append(Property("stable-text", strategy, stable_text))
    return runner.run_suite(suite, props, subject=subject, profile=profile, max_examples=max_examples, skip=skip)


# --------------------------------------------------------------------------- check_edge_parser
#: How a name can change on its way through a sloppy parser, tried in this order to say which.
_CHANGES: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("trimmed", str.strip),
    ("lower-cased", str.lower),
    ("upper-cased", str.upper),
    ("case-folded", str.casefold),
    ("normalised to NFC", lambda n: unicodedata.normalize("NFC", n)),
    ("normalised to NFD", lambda n: unicodedata.normalize("NFD", n)),
    ("normalised to NFKC", lambda n: unicodedata.normalize("NFKC", n)),
    ("trimmed and lower-cased", lambda n: n.strip().lower()),
    ("blanks collapsed", lambda n: " ".join(n.split())),
    ("stripped of non-ASCII", lambda n: n.encode("ascii", "ignore").decode()),
    ("stripped of quotes", lambda n: n.strip("\"'")),
)


def _pairs_of(out: Any) -> list[Any]:
    """The edges a parser returned, as ``(cause, effect)`` pairs (another edge kind as ``(u, token, v)``)."""
    if isinstance(out, Graph):
        return [(e.u, e.v) if e.is_directed else (e.u, e.token, e.v) for e in out.edges]
    pairs = getattr(out, "pairs", None)  # causalcheck.graph.CausalGraph and look-alikes
    if pairs is not None and not callable(pairs):
        out = pairs
    if isinstance(out, (str, bytes)) or not isinstance(out, Iterable):
        raise TypeError(f"cannot read edges from {type(out).__name__} {out!r:.80}: pass convert= to turn it into (cause, effect) pairs")
    got = []
    for item in out:
        if isinstance(item, (tuple, list)) and len(item) == 2:
            got.append((item[0], item[1]))
        elif hasattr(item, "u") and hasattr(item, "v"):
            got.append((item.u, item.v))
        elif hasattr(item, "cause") and hasattr(item, "effect"):
            got.append((item.cause, item.effect))
        else:
            raise TypeError(f"cannot read an edge from {item!r:.80}: pass convert= to turn the output into (cause, effect) pairs")
    return got


def _renamings(written: set[str], read: set[str]) -> list[str]:
    """``'x' -> 'y' (how)`` for each written name missing from what was read, matched to a read name by a known change."""
    lines = []
    for w in sorted(written - read):
        how = next(((what, f(w)) for what, f in _CHANGES if f(w) != w and f(w) in read), None)
        if how is not None:
            lines.append(f"{w!r} -> {how[1]!r} ({how[0]})")
        else:
            lines.append(f"{w!r} not read")
    return lines


def _family_graphs(groups: tuple[tuple[str, ...], ...], max_nodes: int) -> Any:
    """DAGs whose nodes are whole groups of one family, each node on an edge (a random tree plus extra forward edges)."""
    from hypothesis import strategies as st

    @st.composite
    def graphs(draw: st.DrawFn) -> Graph:
        chosen = draw(st.lists(st.sampled_from(groups), min_size=1, max_size=3, unique=True))
        names = list(dict.fromkeys(n for g in chosen for n in g))[:max_nodes]
        if len(names) < 2:  # a one-name group: pair it with a plain name so it sits on an edge
            names.append("n0")
        order = draw(st.permutations(names))
        edges = [GraphEdge.directed(order[draw(st.integers(0, i - 1))], order[i]) for i in range(1, len(order))]
        have = {(e.u, e.v) for e in edges}
        for i, j in draw(st.lists(st.tuples(st.integers(0, len(order) - 2), st.integers(1, len(order) - 1)), max_size=2)):
            if i < j and (order[i], order[j]) not in have:
                have.add((order[i], order[j]))
                edges.append(GraphEdge.directed(order[i], order[j]))
        if draw(st.booleans()):
            edges.reverse()
        return Graph(tuple(order), tuple(edges))

    return graphs()


def check_edge_parser(
    parse: Callable[[str], Any],
    format: str | Callable[[Graph], str] = "text",
    *,
    convert: Callable[[Any], Iterable[tuple[str, str]]] | None = None,
    max_nodes: int = 6,
    skip: Sequence[str] = (),
    profile: str | None = None,
    max_examples: int | None = None,
) -> SuiteReport:
    """Check that *parse* reads back every edge of a written graph with every name exactly as written.

    *format*: a format of :func:`causalcheck.graphs.write_graph` that holds any name (``text``,
    ``json``, ``dagitty``, ``edgelist``, ``dot``, ``gml``), or your writer ``Graph -> text``.
    *parse* gets the text and returns the edges: a :class:`causalcheck.graphs.Graph`, a
    :class:`causalcheck.graph.CausalGraph`, or an iterable of ``(cause, effect)`` pairs (or of
    objects with ``.u``/``.v`` or ``.cause``/``.effect``); *convert* turns anything else into
    pairs.  Edges are compared as sets; every name must come back exactly (no trimming, case
    change or Unicode normalisation).  One property per family of
    :data:`~causalcheck.base.pools.NAME_FAMILIES` (names for *skip*).
    """
    suite = "check_edge_parser"
    write, fmt_name = _writer(format)
    subject = describe(parse)
    read = convert or _pairs_of

    def prop(family: str) -> Callable[[Graph], None]:
        kept = NAME_FAMILIES[family][0]

        def check(g: Graph) -> None:
            want = {(e.u, e.v) for e in g.edges}
            text = write(g)
            shown = f"  convention: names kept exactly — {kept}; format {fmt_name}\n  graph:    {sorted(want)!r}\n  text:     {text!r}"
            out = call(suite, family, subject, parse, (text,), shown)
            try:
                got = set(read(out))
            except Exception as exc:  # convert= (or the default reading of the output) failed on what parse returned
                raise PropertyFailure(suite, family, f"{shown}\n  parsed:   {out!r:.200}\n  raised:   {type(exc).__name__}: {exc}", subject) from exc
            if got != want:
                names_got = {n for p in got for n in (p[0], p[-1]) if isinstance(n, str)}
                lines = [shown, f"  parsed:   {sorted(got, key=repr)!r}"]
                lines += [f"  missing:  {sorted(want - got)!r}", f"  extra:    {sorted(got - want, key=repr)!r}"]
                lines += [f"  renamed:  {r}" for r in _renamings(set(g.nodes), names_got)]
                raise PropertyFailure(suite, family, "\n".join(lines) + "\n  expected: the graph's edges, every name as written", subject)

        return check

    props = [Property(family, _family_graphs(groups, max_nodes), prop(family)) for family, (_, groups) in NAME_FAMILIES.items()]
    return runner.run_suite(suite, props, subject=subject, profile=profile, max_examples=max_examples, skip=skip)


def _writer(format: str | Callable[[Graph], str]) -> tuple[Callable[[Graph], str], str]:
    """The writer of *format* and its name; a format that cannot hold every name is refused."""
    if callable(format):
        return format, describe(format)
    holds_any = ("text", "json", "dagitty", "edgelist", "dot", "gml")
    if format not in holds_any:
        raise InputFormatError(f"format={format!r} must be a format that holds any name, one of {list(holds_any)!r}, or a writer Graph -> text")
    return (lambda g: write_graph(g, format=format)), format
