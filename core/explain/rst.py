"""The PRISM parser text format, RST records, and their projection to an explanation graph.

Rhetorical Structure Theory (RST; Mann & Thompson 1988) describes a text as elementary
discourse units (EDUs) linked by relations such as CAUSE or CONTRAST.  Most relations are
*asymmetric*: a **satellite** supports a **nucleus** (tag ``SN``: satellite first, ``NS``:
nucleus first); *multinuclear* relations (``NN``) join equals.  PRISM asks a model for three
plain-text sections and projects the relations onto EDU→EDU edges::

    EDUs:
    EDU1: If the Moon vanished,
    EDU2: tides would shrink to a third.
    RST ANALYSIS:
    CONDITION(EDU1, EDU2): CONDITION [SN]
    TREE STRUCTURE:
    ROOT ...

* :func:`parse_rst_output` reads that text into an :class:`RSTRecord` (the official
  ``parsed_rst`` object).  ``compat="anchor"`` reproduces the published parser exactly: a
  relation line whose reference is written ``EDU5-EDU11`` or ``EDU2+3`` is dropped, a
  missing nuclearity tag means ``SN``, and ``NS`` is treated like ``SN`` (the first
  reference is the satellite).  ``compat="full"`` (default) also reads those span forms
  (``EDU5-EDU11`` → EDUs 5..11, ``EDU2+3`` → EDUs 2..3) and honours ``NS`` (the *second*
  reference is then the satellite).  The TREE STRUCTURE lines are kept verbatim and, as
  in the original, not used for structure.
* :func:`project_to_graph` is the official projection (spec §3.6): one tree node per
  relation; an asymmetric node gives edges satellite → nucleus, a multinuclear node gives
  edges from the earlier to the later reference in text order; a reference that names a
  tree node (by id or by its span ``EDUa-b``; the last node with that span wins) is
  *promoted* — to its nucleus for ``SN``/``NS``, to both children for ``NN`` — and an
  unmatched span expands to every existing EDU in it; self-loops and repeated
  ``(source, target, type)`` triples are skipped.  Unlike the original, a reference that
  promotes into itself resolves to nothing instead of recursing forever.
* :func:`heuristic_fallback` is the record the original writes when the parser fails:
  the answer split after ``.``/``!``/``?`` followed by whitespace, or at newlines, the
  first 8 pieces chained by ``SEQUENCE`` / ``NN`` relations.

One module because the PRISM text format, its parser, the heuristic fallback and the projection
to an explanation graph work on the same ``EDU`` / ``Relation`` / ``RSTRecord`` values and are
specified together by the official projection.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import Any, Literal

from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.explain._fields import as_integer, as_list, as_mapping, as_text
from causalcheck.explain.explanation_graph import (
    MAX_GRAPH_EDGES,
    MAX_GRAPH_NODES,
    ExplanationEdge,
    ExplanationGraph,
    ExplanationNode,
)

__all__ = [
    "EDU",
    "MAX_PROJECTION_PAIRS",
    "MAX_REF_DIGITS",
    "MAX_RELATIONS",
    "RELATION_LABELS",
    "Compat",
    "ProjectionLimitError",
    "RSTRecord",
    "Relation",
    "TreeNode",
    "build_tree_nodes",
    "heuristic_fallback",
    "normalize_label",
    "normalize_ref",
    "parse_or_fallback",
    "parse_rst_output",
    "project_to_graph",
    "render_rst",
    "span_bounds",
]

#: The 24 relation labels PRISM suggests to its parser, in the published order.
RELATION_LABELS: tuple[str, ...] = (
    "ELABORATION", "EXPLANATION", "EVIDENCE", "EXAMPLE", "CONTRAST", "COMPARISON",
    "CONCESSION", "ANTITHESIS", "CAUSE", "RESULT", "CONSEQUENCE", "PURPOSE", "CONDITION",
    "TEMPORAL", "SEQUENCE", "BACKGROUND", "CIRCUMSTANCE", "SUMMARY", "RESTATEMENT",
    "EVALUATION", "INTERPRETATION", "ATTRIBUTION", "DEFINITION", "CLASSIFICATION",
)  # fmt: skip

Compat = Literal["full", "anchor"]

#: Most relations a parser output may have (a real RST analysis has one fewer than its EDUs;
#: a model's output for a 4 096-token answer has a few hundred).
MAX_RELATIONS = 20_000

#: Most source/target EDU pairs the projection may consider, over all relations.  Nested
#: multinuclear spans multiply (``n`` EDUs under two ``NN`` spans give ``n²`` pairs per
#: relation); real parser outputs need a few thousand.
MAX_PROJECTION_PAIRS = 200_000

#: Most digits of an EDU number in a reference (``EDU12``).  A parser output holds at most
#: ``MAX_GRAPH_NODES`` EDUs, so a longer number names an EDU that cannot exist: a relation
#: line with one is dropped (listed in :attr:`RSTRecord.dropped`), and :func:`span_bounds`
#: reads such a reference as no EDU reference at all.
MAX_REF_DIGITS = 18
_HEADERS = ("EDUs:", "RST ANALYSIS:", "TREE STRUCTURE:")
SN_REASON = "RST projection: satellite supports nucleus via {}"
NN_REASON = "RST projection: multinuclear relation via {}"


@dataclass(frozen=True)
class EDU:
    """An elementary discourse unit; ``start``/``end`` are character offsets into the answer when known."""

    id: str
    text: str
    start: int | None = None
    end: int | None = None


@dataclass(frozen=True)
class Relation:
    """One relation line: ``source``/``target`` references, a normalised ``type`` and ``SN``/``NS``/``NN``."""

    source: str
    target: str
    type: str
    nuclearity: str = "SN"


@dataclass(frozen=True)
class TreeNode:
    """The official per-relation tree node (spec §3.5)."""

    id: str
    span: tuple[int, int]
    span_ref: str
    relation: str
    nuclearity: str
    left_child: str
    right_child: str
    satellite_child: str | None = None
    nucleus_child: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "span": [self.span[0], self.span[1]],
            "span_ref": self.span_ref,
            "relation": self.relation,
            "nuclearity": self.nuclearity,
            "left_child": self.left_child,
            "right_child": self.right_child,
        }
        if self.satellite_child is not None or self.nucleus_child is not None:
            out["satellite_child"] = self.satellite_child
            out["nucleus_child"] = self.nucleus_child
        return out

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], where: str = "tree node") -> TreeNode:
        """Read a recorded tree node; a field of the wrong type raises :class:`InputFormatError`."""
        span = as_list(obj.get("span"), f"{where}.span") or [0, 0]
        if len(span) != 2:
            raise InputFormatError(f"{where}.span={span!r:.60} must be two integers")
        lo, hi = as_integer(span[0], f"{where}.span[0]"), as_integer(span[1], f"{where}.span[1]")
        sat, nuc = obj.get("satellite_child"), obj.get("nucleus_child")
        return cls(
            id=as_text(obj.get("id"), f"{where}.id"),
            span=(lo, hi),
            span_ref=as_text(obj.get("span_ref"), f"{where}.span_ref"),
            relation=as_text(obj.get("relation"), f"{where}.relation", "ELABORATION"),
            nuclearity=as_text(obj.get("nuclearity"), f"{where}.nuclearity"),
            left_child=as_text(obj.get("left_child"), f"{where}.left_child"),
            right_child=as_text(obj.get("right_child"), f"{where}.right_child"),
            satellite_child=None if sat is None else as_text(sat, f"{where}.satellite_child"),
            nucleus_child=None if nuc is None else as_text(nuc, f"{where}.nucleus_child"),
        )


@dataclass(frozen=True)
class RSTRecord:
    """The official ``parsed_rst`` record.

    ``source`` is ``"parser"`` (relations found), ``"partial"`` (EDUs only), ``"heuristic"``
    (fallback after a failure), or ``"offline"`` (causalcheck's cue-based parser).
    ``dropped`` lists RST ANALYSIS lines that were not understood (not part of the JSON).
    """

    raw_output: str
    edus: tuple[EDU, ...]
    relations: tuple[Relation, ...]
    tree_nodes: tuple[TreeNode, ...]
    ascii_lines: tuple[str, ...] = ()
    source: str = "parser"
    error: str | None = None
    dropped: tuple[str, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        """The official ``parsed_rst`` object."""
        return {
            "raw_output": self.raw_output,
            "edus": [{"id": e.id, "text": e.text} for e in self.edus],
            "relations": [
                {"source": r.source, "target": r.target, "type": r.type, "nuclearity": r.nuclearity}
                for r in self.relations
            ],
            "tree": {"ascii_lines": list(self.ascii_lines), "nodes": [n.to_json() for n in self.tree_nodes]},
            "source": self.source,
            "error": self.error,
        }

    @classmethod
    def from_json(cls, obj: Any) -> RSTRecord:
        """Read a recorded ``parsed_rst`` object; a field of the wrong type raises :class:`InputFormatError`."""
        if not isinstance(obj, Mapping):
            raise InputFormatError(f"parsed_rst={obj!r:.80} must be an object")
        edus = []
        for i, e in enumerate(as_list(obj.get("edus"), "parsed_rst.edus")):
            if isinstance(e, Mapping):
                w = f"parsed_rst.edus[{i}]"
                edus.append(EDU(id=as_text(e.get("id"), f"{w}.id"), text=as_text(e.get("text"), f"{w}.text")))
        rels = []
        for i, r in enumerate(as_list(obj.get("relations"), "parsed_rst.relations")):
            if isinstance(r, Mapping):
                w = f"parsed_rst.relations[{i}]"
                rels.append(
                    Relation(
                        as_text(r.get("source"), f"{w}.source"),
                        as_text(r.get("target"), f"{w}.target"),
                        as_text(r.get("type"), f"{w}.type"),
                        as_text(r.get("nuclearity"), f"{w}.nuclearity", "SN"),
                    )
                )
        tree = as_mapping(obj.get("tree"), "parsed_rst.tree")
        nodes = tuple(
            TreeNode.from_json(n, f"parsed_rst.tree.nodes[{i}]")
            for i, n in enumerate(as_list(tree.get("nodes"), "parsed_rst.tree.nodes"))
            if isinstance(n, Mapping)
        )
        lines = tuple(as_text(x, "parsed_rst.tree.ascii_lines[]") for x in as_list(tree.get("ascii_lines"), "parsed_rst.tree.ascii_lines"))
        err = obj.get("error")
        return cls(
            raw_output=as_text(obj.get("raw_output"), "parsed_rst.raw_output"),
            edus=tuple(edus),
            relations=tuple(rels),
            tree_nodes=nodes,
            ascii_lines=lines,
            source=as_text(obj.get("source"), "parsed_rst.source", "parser"),
            error=None if err is None else as_text(err, "parsed_rst.error"),
        )


# ------------------------------------------------------------------ normalisation
_NON_ALNUM = re.compile(r"[^A-Z0-9]+")
_REF_FULL = re.compile(r"EDU\s*(\d+)(?:\s*-\s*(\d+))?", re.IGNORECASE)
_SPAN_FORM = re.compile(r"EDU(\d+)(?:-(\d+))?")


def normalize_label(label: str) -> str:
    """Uppercase; runs of non-alphanumerics become ``_``; strip ``_`` at the ends.

    >>> normalize_label(" cause/effect ")
    'CAUSE_EFFECT'
    """
    return _NON_ALNUM.sub("_", label.strip().upper()).strip("_")


@lru_cache(maxsize=4096)
def normalize_ref(ref: str) -> str:
    """``EDU 3`` → ``EDU3``, ``edu3 - 5`` → ``EDU3-5``; other text is uppercased.

    >>> normalize_ref("edu 3 - 5"), normalize_ref("node_2")
    ('EDU3-5', 'NODE_2')
    """
    s = ref.strip()
    m = _REF_FULL.fullmatch(s)
    if not m:
        return s.upper()
    return f"EDU{m.group(1)}" if m.group(2) is None else f"EDU{m.group(1)}-{m.group(2)}"


@lru_cache(maxsize=4096)
def span_bounds(ref: str) -> tuple[int, int]:
    """``(lo, hi)`` of an EDU reference (``(0, 0)`` when it is not one); reversed spans are sorted."""
    m = _SPAN_FORM.fullmatch(normalize_ref(ref))
    if not m or max(len(m.group(1)), len(m.group(2) or "")) > MAX_REF_DIGITS:
        return (0, 0)
    lo = int(m.group(1))
    hi = int(m.group(2) or m.group(1))
    return (lo, hi) if lo <= hi else (hi, lo)


def build_tree_nodes(relations: Sequence[Relation], *, honour_ns: bool = False) -> tuple[TreeNode, ...]:
    """One official tree node per relation, in relation order.

    ``left_child`` is the reference that starts first in the text (ties keep the source
    first); ``satellite_child``/``nucleus_child`` are set for ``SN``/``NS``: the source is
    the satellite, except for ``NS`` when *honour_ns* is true.
    """
    nodes = []
    for i, rel in enumerate(relations, start=1):
        a, b = rel.source, rel.target
        left, right = (a, b) if span_bounds(a)[0] <= span_bounds(b)[0] else (b, a)
        (l_lo, l_hi), (r_lo, r_hi) = span_bounds(left), span_bounds(right)
        lo, hi = min(l_lo, r_lo), max(l_hi, r_hi)
        sat = nuc = None
        if rel.nuclearity in ("SN", "NS"):
            sat, nuc = (b, a) if (honour_ns and rel.nuclearity == "NS") else (a, b)
        nodes.append(
            TreeNode(
                id=f"node_{i}",
                span=(lo, hi),
                span_ref=f"EDU{lo}" if lo == hi else f"EDU{lo}-{hi}",
                relation=rel.type,
                nuclearity=rel.nuclearity,
                left_child=left,
                right_child=right,
                satellite_child=sat,
                nucleus_child=nuc,
            )
        )
    return tuple(nodes)


# ------------------------------------------------------------------ parsing
def _section(raw: str, header: str) -> str | None:
    """Text after the first *header* up to a line holding only another header; ``None`` if absent."""
    pos = raw.find(header)
    if pos < 0:
        return None
    rest = raw[pos + len(header) :]
    others = [h for h in _HEADERS if h != header]
    stop = re.search(
        r"^(?:" + "|".join(re.escape(h) for h in others) + r")[ \t\r\f\v]*$", rest, flags=re.MULTILINE
    )
    body = rest[: stop.start()] if stop else rest
    return body.strip()


_EDU_LINE = re.compile(r"^EDU\s*(\d+)\s*[:\-]\s*(.*)$", re.IGNORECASE)


def _parse_edus(raw: str) -> list[EDU]:
    block = _section(raw, "EDUs:") or raw
    edus: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        s = line.strip()
        if not s:
            continue
        m = _EDU_LINE.match(s)
        if m:
            edus.append((f"EDU{m.group(1)}", [m.group(2).strip()]))
        elif edus:
            edus[-1][1].append(s)
    out = [EDU(id=i, text=" ".join(parts).strip()) for i, parts in edus]
    return [e for e in out if e.text]


_REF_ANCHOR = r"EDU\s*\d+(?:\s*-\s*\d+)?"
_REF_WIDE = r"EDU\s*\d+(?:\s*(?:-|–|\+)\s*(?:EDU\s*)?\d+)*"
_LABEL = r"([A-Za-z _/-]+?)(?:\s*\[\s*(SN|NS|NN)\s*\])?$"


def _relation_patterns(ref: str, arrow_ref: str) -> list[tuple[re.Pattern[str], bool]]:
    return [
        (re.compile(rf"RELATION\(\s*({ref})\s*,\s*({ref})\s*\)\s*:\s*{_LABEL}", re.IGNORECASE), False),
        (re.compile(rf"({arrow_ref})\s*->\s*({arrow_ref})\s*:\s*{_LABEL}", re.IGNORECASE), False),
        (re.compile(rf"([A-Za-z _/-]+)\(\s*({ref})\s*,\s*({ref})\s*\)\s*:\s*{_LABEL}", re.IGNORECASE), True),
    ]


_PATTERNS: dict[str, list[tuple[re.Pattern[str], bool]]] = {
    "anchor": _relation_patterns(_REF_ANCHOR, r"EDU\d+(?:-\d+)?"),
    "full": _relation_patterns(_REF_WIDE, _REF_WIDE),
}


def _wide_ref(ref: str) -> str:
    """Full-mode reference: ``EDU5-EDU11`` → ``EDU5-11``; ``EDU2+3`` → ``EDU2-3`` (lowest..highest)."""
    nums = [int(x) for x in re.findall(r"\d+", ref)]
    if len(nums) == 1:
        return f"EDU{nums[0]}"
    if "+" in ref:
        lo, hi = min(nums), max(nums)
        return f"EDU{lo}" if lo == hi else f"EDU{lo}-{hi}"
    return f"EDU{nums[0]}-{nums[-1]}"


_DIGITS = re.compile(r"\d+")


def _parse_relations(raw: str, compat: Compat) -> tuple[list[Relation], list[str]]:
    block = _section(raw, "RST ANALYSIS:") or raw
    rels: list[Relation] = []
    dropped: list[str] = []
    patterns = _PATTERNS[compat]
    for line in block.splitlines():
        s = line.strip()
        if not s:
            continue
        for pat, named in patterns:
            m = pat.match(s)
            if not m:
                continue
            if named:
                src, dst, label, nuc = m.group(2), m.group(3), m.group(4) or m.group(1), m.group(5)
            else:
                src, dst, label, nuc = m.group(1), m.group(2), m.group(3), m.group(4)
            if any(len(d) > MAX_REF_DIGITS for d in _DIGITS.findall(f"{src} {dst}")):
                dropped.append(s)  # names an EDU number no parser output can have
                break
            fix = _wide_ref if compat == "full" else normalize_ref
            rels.append(Relation(fix(src), fix(dst), normalize_label(label), (nuc or "").upper() or "SN"))
            break
        else:
            if "EDU" in s.upper() and ("(" in s or "->" in s):
                dropped.append(s)
    return rels, dropped


def parse_rst_output(text: str, *, compat: Compat = "full") -> RSTRecord:
    """Parse parser text (``EDUs:`` / ``RST ANALYSIS:`` / ``TREE STRUCTURE:``) into an :class:`RSTRecord`.

    Raises :class:`DSLSyntaxError` for empty text (``"Empty parser output"``) and when no
    ``EDU<n>: text`` line is found (``"Could not extract EDUs from parser output"``) — the
    messages the original records as the fallback reason.  With EDUs but no relation the
    record is a flat ``SEQUENCE`` chain (``source="partial"``), as in the original.
    """
    if compat not in ("full", "anchor"):
        raise InputFormatError(f"compat={compat!r} must be 'full' or 'anchor'")
    if not isinstance(text, str):
        raise InputFormatError(f"parser output={text!r:.60} must be a string")
    if not text:
        raise DSLSyntaxError("Empty parser output", text=text, expected=_HEADERS, source="<parser output>")
    edus = _parse_edus(text)
    if not edus:
        raise DSLSyntaxError(
            "Could not extract EDUs from parser output",
            text=text,
            line=1,
            column=1,
            expected=("EDU<n>: <text>",),
            source="<parser output>",
        )
    rels, dropped = _parse_relations(text, compat)
    tree_block = _section(text, "TREE STRUCTURE:") or ""
    ascii_lines = tuple(line.rstrip() for line in tree_block.splitlines() if line.strip())
    honour_ns = compat == "full"
    if rels:
        return RSTRecord(text, tuple(edus), tuple(rels), build_tree_nodes(rels, honour_ns=honour_ns), ascii_lines, "parser", None, tuple(dropped))
    if len(edus) > 1:
        chain = _chain(edus)
        return RSTRecord(
            text, tuple(edus), (), build_tree_nodes(chain), ascii_lines, "partial",
            "Recovered flat tree from EDUs without explicit relations", tuple(dropped),
        )  # fmt: skip
    return RSTRecord(
        text, tuple(edus), (), (), ascii_lines, "partial",
        "RST output contained a single EDU and no explicit relations", tuple(dropped),
    )  # fmt: skip


def _chain(edus: Sequence[EDU]) -> list[Relation]:
    return [Relation(a.id, b.id, "SEQUENCE", "NN") for a, b in pairwise(edus)]


_HEURISTIC_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")


def heuristic_fallback(answer: str, error: str | None = None, *, raw_output: str = "") -> RSTRecord:
    """The original's fallback record: first 8 sentence-ish pieces, chained ``SEQUENCE``/``NN``."""
    parts = [p.strip() for p in _HEURISTIC_SPLIT.split(answer) if p.strip()]
    edus = [EDU(id=f"EDU{i}", text=p) for i, p in enumerate(parts[:8], start=1)]
    rels = _chain(edus)
    return RSTRecord(raw_output, tuple(edus), tuple(rels), build_tree_nodes(rels), (), "heuristic", error)


def parse_or_fallback(text: str, answer: str, *, compat: Compat = "full") -> RSTRecord:
    """:func:`parse_rst_output`, or :func:`heuristic_fallback` with the error text when that fails."""
    try:
        return parse_rst_output(text, compat=compat)
    except DSLSyntaxError as exc:
        return heuristic_fallback(answer, exc.message, raw_output=text)


# ------------------------------------------------------------------ projection
class _Frame:
    """One pending promotion of :func:`_resolve`: a tree node whose children are being resolved."""

    __slots__ = ("children", "node", "ref", "results")

    def __init__(self, ref: str, node: TreeNode) -> None:
        self.ref = ref
        self.node = node
        if node.nuclearity in ("SN", "NS") and node.nucleus_child:
            self.children: tuple[str, ...] = (node.nucleus_child,)
        else:
            self.children = (node.left_child, node.right_child)
        self.results: list[list[str]] = []

    def combine(self) -> list[str]:
        if len(self.children) == 1:
            return self.results[0]
        left, right = self.results
        if self.node.nuclearity == "NN":
            have = set(left)
            return left + [x for x in right if x not in have]
        return left or right


class _EduIndex:
    """The EDUs of a record by number, so a span ``EDUa-b`` expands over the EDUs that exist
    (a bisection), never over every number from *a* to *b*."""

    def __init__(self, edu_ids: set[str]) -> None:
        self.ids = edu_ids
        pairs = sorted((int(i[3:]), i) for i in edu_ids if _CANONICAL_EDU.fullmatch(i))
        self.numbers = [n for n, _ in pairs]
        self.names = [name for _, name in pairs]

    def span(self, lo: int, hi: int) -> list[str]:
        from bisect import bisect_left, bisect_right

        return self.names[bisect_left(self.numbers, lo) : bisect_right(self.numbers, hi)]


_CANONICAL_EDU = re.compile(rf"EDU(?:0|[1-9][0-9]{{0,{MAX_REF_DIGITS - 1}}})")


def _lookup(ref: str, index: _EduIndex, node_map: Mapping[str, TreeNode], memo: dict[str, list[str]], active: set[str]) -> tuple[list[str] | None, TreeNode | None]:
    """``(EDUs, None)`` when *ref* resolves without promotion, else ``(None, node to promote)``."""
    norm = normalize_ref(ref)
    for key in (ref, norm):
        if key in memo:
            return memo[key], None
    if norm in index.ids:
        memo[norm] = [norm]
        return memo[norm], None
    if ref in index.ids:
        memo[ref] = [ref]
        return memo[ref], None
    node = node_map.get(norm) or node_map.get(ref)
    if node is None:
        lo, hi = span_bounds(norm)
        if lo and hi and hi > lo:
            expanded = index.span(lo, hi)
            if expanded:
                memo[norm] = expanded
                return expanded, None
        memo[ref] = []
        return [], None
    if ref in active:  # the reference promotes into itself: nothing (the original recursed forever)
        return [], None
    return None, node


def _resolve(ref: str, index: _EduIndex, node_map: Mapping[str, TreeNode], memo: dict[str, list[str]]) -> list[str]:
    """The EDUs *ref* stands for (module docstring), promoting through tree nodes with an explicit
    stack: a chain of thousands of nested relations needs no recursion."""
    value, node = _lookup(ref, index, node_map, memo, set())
    if node is None:
        assert value is not None
        return value
    active = {ref}
    stack = [_Frame(ref, node)]
    returned: list[str] | None = None
    while stack:
        frame = stack[-1]
        if returned is not None:
            frame.results.append(returned)
            returned = None
        if len(frame.results) < len(frame.children):
            child = frame.children[len(frame.results)]
            value, node = _lookup(child, index, node_map, memo, active)
            if node is None:
                returned = value
            else:
                active.add(child)
                stack.append(_Frame(child, node))
            continue
        result = frame.combine()
        active.discard(frame.ref)
        memo[frame.ref] = result
        stack.pop()
        returned = result
    assert returned is not None
    return returned


class ProjectionLimitError(InputFormatError):
    """A parser output projects to more work than its size can justify (the message names the limit)."""


def project_to_graph(record: RSTRecord) -> ExplanationGraph:
    """Project an RST record onto EDU→EDU edges exactly as the official ``parsed_dag`` (module docstring).

    The work is bounded by the record's real size: a span expands only over EDUs that exist,
    and a record with more than :data:`~.explanation_graph.MAX_GRAPH_NODES` EDUs, more than
    :data:`MAX_RELATIONS` relations, more than :data:`MAX_PROJECTION_PAIRS` source/target pairs
    to consider or more than :data:`~.explanation_graph.MAX_GRAPH_EDGES` edges raises
    :class:`ProjectionLimitError`.
    """
    if len(record.edus) > MAX_GRAPH_NODES:
        raise ProjectionLimitError(f"parser output has {len(record.edus)} EDUs; the limit is MAX_GRAPH_NODES={MAX_GRAPH_NODES}")
    tree = record.tree_nodes or build_tree_nodes(record.relations)
    if len(tree) > MAX_RELATIONS:
        raise ProjectionLimitError(f"parser output has {len(tree)} relations; the limit is MAX_RELATIONS={MAX_RELATIONS}")
    nodes = tuple(ExplanationNode(e.id, e.text) for e in record.edus)
    index = _EduIndex({n.id for n in nodes})
    node_map: dict[str, TreeNode] = {}
    for tn in tree:
        node_map[tn.id] = tn
        node_map[tn.span_ref] = tn
    memo: dict[str, list[str]] = {}
    edges: list[ExplanationEdge] = []
    seen: set[tuple[str, str, str]] = set()
    pairs = 0
    for number, tn in enumerate(tree, start=1):
        rel = normalize_label(tn.relation or "ELABORATION") or "ELABORATION"
        nuc = tn.nuclearity.upper()
        if nuc in ("SN", "NS"):
            src_ref = tn.satellite_child or tn.right_child
            dst_ref = tn.nucleus_child or tn.left_child
            reason = SN_REASON.format(rel)
        else:
            src_ref, dst_ref = tn.left_child, tn.right_child
            reason = NN_REASON.format(rel)
        sources = _resolve(src_ref, index, node_map, memo)
        targets = _resolve(dst_ref, index, node_map, memo)
        pairs += len(sources) * len(targets)
        if pairs > MAX_PROJECTION_PAIRS:
            raise ProjectionLimitError(
                f"parser output relation #{number} ({tn.relation}({src_ref}, {dst_ref})) brings the EDU pairs to project to "
                f"{pairs}; the limit is MAX_PROJECTION_PAIRS={MAX_PROJECTION_PAIRS}"
            )
        for s in sources:
            for t in targets:
                if not s or not t or s == t or (s, t, rel) in seen:
                    continue
                seen.add((s, t, rel))
                edges.append(ExplanationEdge(s, t, rel, reason))
            if len(edges) > MAX_GRAPH_EDGES:
                raise ProjectionLimitError(
                    f"parser output projects to more than {MAX_GRAPH_EDGES} edges (at relation #{number}); "
                    f"the limit is MAX_GRAPH_EDGES={MAX_GRAPH_EDGES}"
                )
    return ExplanationGraph(nodes=nodes, edges=tuple(edges))


def render_rst(record: RSTRecord) -> str:
    """Write *record* back in the parser text format (``parse_rst_output`` reads it back, ``full`` mode)."""
    lines = ["EDUs:"]
    lines += [f"{e.id}: {' '.join(e.text.split())}" for e in record.edus]
    lines += ["", "RST ANALYSIS:"]
    lines += [f"{r.type}({r.source}, {r.target}): {r.type} [{r.nuclearity}]" for r in record.relations]
    lines += ["", "TREE STRUCTURE:"]
    lines += list(record.ascii_lines) or ["ROOT"]
    return "\n".join(lines) + "\n"
