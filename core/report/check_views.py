"""Check views: the findings of ``causalcheck check`` with the checked graph drawn.

Built from ``causalcheck check --json`` payloads (:func:`causalcheck.checking.report.
report_payload`; a graph validation's payload is read as one report of its findings, marked
``"checked": "graph"``) or from running the checker on a source given to ``report --check``.
For every input: the verdict, a table of every finding (``info`` findings of a trajectory
only when they are the only ones), and for a bounded selection of reports
(:data:`MAX_DRAWINGS` per input: those whose findings concern the graph or the data, each
distinct hypothesis once) the hypothesis graph drawn — and a graph that ``check`` validated
(a graph file, or ``check GRAPH --json``) drawn whole with its edge marks (:func:`graph_drawing`) — with the edges of a **cycle** and of
**contradicting directions** highlighted, the nodes named by a finding flagged, and the
conflicting data points of a ``data-mismatch`` listed with their residuals.

Findings are read in the one finding format (a report's ``findings``, a finding's
``certificate``: :meth:`causalcheck.findings.Finding.to_dict`), and in the names files of earlier
versions used (``diagnostics``, ``data``).  The verdict counts the reports with problems (an error
or a warning): files written before ``ok`` meant "no error" read the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from causalcheck.base.errors import CausalCheckError
from causalcheck.parsing import parse_hypothesis
from causalcheck.report.document import FigureBlock, Section, Table, Text
from causalcheck.report.fields import field_list, field_map
from causalcheck.report.figures import DrawnEdge, GraphFigure
from causalcheck.report.layout import graph_panel
from causalcheck.report.text import counted

__all__ = ["GRAPH_CODES", "MAX_DRAWINGS", "check_sections", "graph_drawing", "highlighted"]

#: Reports drawn per check input.
MAX_DRAWINGS = 12
#: Finding codes that concern the graph (their elements are edges or nodes).
GRAPH_CODES = frozenset({"cycle", "direction-contradiction", "contradicts-reference", "unknown-node",
                         "non-parent-in-equation", "parent-missing-from-equation", "self-reference"})
_EDGE_CODES = {"cycle": "cycle", "direction-contradiction": "conflict", "contradicts-reference": "conflict"}


def _pair(text: str) -> tuple[str, str] | None:
    left, sep, right = text.partition("->")
    return (left.strip(), right.strip()) if sep and left.strip() and right.strip() else None


def highlighted(diagnostics: Sequence[Mapping[str, Any]]) -> tuple[dict[tuple[str, str], str], set[str]]:
    """Edges to highlight (edge → ``cycle`` / ``conflict``) and nodes to flag, from the findings.

    >>> highlighted([{"code": "cycle", "elements": ["a -> b", "b -> a"]}, {"code": "unknown-node", "elements": ["x"]}])
    ({('a', 'b'): 'cycle', ('b', 'a'): 'cycle'}, {'x'})
    """
    edges: dict[tuple[str, str], str] = {}
    nodes: set[str] = set()
    for d in diagnostics:
        code = str(d.get("code", ""))
        elements = [str(e) for e in field_list(d, "elements")]
        if code in _EDGE_CODES:
            for e in elements:
                p = _pair(e)
                if p is not None and edges.get(p) != "cycle":
                    edges[p] = _EDGE_CODES[code]
        elif code in GRAPH_CODES:
            nodes.update(e for e in elements if "->" not in e)
    return edges, nodes


def _drawing(subject: str, hypothesis: str, diagnostics: Sequence[Mapping[str, Any]]) -> FigureBlock | None:
    try:
        h = parse_hypothesis(hypothesis)
    except CausalCheckError:
        return None
    pairs = sorted(h.graph.pairs)
    marks, flagged = highlighted(diagnostics)
    nodes = list(dict.fromkeys([*h.graph.nodes, *(n for p in pairs for n in p), *sorted(flagged)]))
    if not nodes:
        return None
    edges = [DrawnEdge(a, b, marks.get((a, b), "plain"), f"{a} → {b}" + (f": {marks[(a, b)]}" if (a, b) in marks else "")) for a, b in pairs]
    styles = {n: ("flagged" if n in flagged else ("target" if n == "resonanceFreq" else "plain")) for n in nodes}
    panel = graph_panel(subject, nodes, pairs, edges, styles=styles,
                        tooltips={n: n + (" (named in a finding)" if n in flagged else "") for n in nodes})
    n_cycle = sum(1 for v in marks.values() if v == "cycle")
    n_conf = sum(1 for v in marks.values() if v == "conflict")
    desc = (f"The hypothesis graph of {subject}: {counted(len(nodes), 'node')}, {counted(len(pairs), 'edge')}; "
            f"{counted(n_cycle, 'edge')} of a cycle and {counted(n_conf, 'edge')} with contradicting directions highlighted, "
            f"{counted(len(flagged), 'node')} flagged.")
    return FigureBlock(GraphFigure(f"Checked graph: {subject}", desc, (panel,)))


#: An edge token of a checked graph → (drawn from the left node, style); tokens pointing left are turned round.
_TOKENS: dict[str, tuple[bool, str]] = {
    "->": (True, "plain"), "<-": (False, "plain"), "--": (True, "undirected"), "<->": (True, "bidirected"),
    "o->": (True, "partial"), "<-o": (False, "partial"), "o-o": (True, "circle"), "o--": (True, "circle"), "--o": (True, "circle"),
}


def graph_drawing(subject: str, graph: Mapping[str, Any], diagnostics: Sequence[Mapping[str, Any]]) -> FigureBlock | None:
    """The drawing of a graph that ``check`` validated (``{"nodes", "edges": [[u, token, v], ...]}``, the graph
    JSON of :meth:`causalcheck.graphs.Graph.to_dict`), with the edges of a cycle and the nodes of the findings marked.

    Edges are laid out top-down (an edge without a direction as it is written, left node first) and drawn
    with their own line and arrowheads: undirected, bidirected, circle-marked.  ``None`` for a graph without nodes.
    """
    marks, flagged = highlighted(diagnostics)
    edges: list[DrawnEdge] = []
    layout: list[tuple[str, str]] = []
    for e in field_list(graph, "edges"):
        if not (isinstance(e, list) and len(e) == 3 and all(isinstance(x, str) for x in e)) or e[1] not in _TOKENS:
            continue
        forward, style = _TOKENS[e[1]]
        a, b = (e[0], e[2]) if forward else (e[2], e[0])
        style = marks.get((a, b), style) if style == "plain" else style
        edges.append(DrawnEdge(a, b, style, f"{e[0]} {e[1]} {e[2]}" + (f": {style}" if style in ("cycle", "conflict") else "")))
        layout.append((a, b))
    named = [str(n) for n in field_list(graph, "nodes") if isinstance(n, (str, int))]
    nodes = list(dict.fromkeys([*named, *(n for e in edges for n in (e.source, e.target)), *sorted(flagged)]))
    if not nodes:
        return None
    styles = {n: "flagged" if n in flagged else "plain" for n in nodes}
    panel = graph_panel(subject, nodes, layout, edges, styles=styles,
                        tooltips={n: n + (" (named in a finding)" if n in flagged else "") for n in nodes})
    n_cycle = sum(1 for e in edges if e.style == "cycle")
    kind = graph.get("kind")
    desc = (f"The checked graph {subject}" + (f" ({kind})" if isinstance(kind, str) else "")
            + f": {counted(len(nodes), 'node')}, {counted(len(edges), 'edge')}; {counted(n_cycle, 'edge')} of a cycle highlighted, "
            f"{counted(len(flagged & set(nodes)), 'node')} flagged.")
    return FigureBlock(GraphFigure(f"Checked graph: {subject}", desc, (panel,)))


def _findings(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """A report's findings (``findings``; ``diagnostics`` in files of earlier versions)."""
    found = field_list(report, "findings") or field_list(report, "diagnostics")
    return [d for d in found if isinstance(d, Mapping)]


def _mismatch(d: Mapping[str, Any]) -> Table | None:
    data = field_map(d, "certificate") or field_map(d, "data")
    residuals = field_map(data, "residuals")
    conflicting = {str(c) for c in field_list(data, "conflicting")}
    if not residuals:
        return None
    rows = []
    marked = set()
    for i, (point, r) in enumerate(residuals.items()):
        rows.append([str(point), f"{r:g}" if isinstance(r, (int, float)) else str(r), "yes" if str(point) in conflicting else ""])
        if str(point) in conflicting:
            marked.add(i)
    tol = data.get("min_tolerance")
    return Table(["data point", "residual (Hz)", "in the conflicting set"], rows,
                 caption="Data the equation misses" + (f" (smallest tolerance that accepts all: {tol:g} Hz)" if isinstance(tol, (int, float)) else ""),
                 numeric=frozenset({1}), marked=frozenset(marked))


def _one(path: str, payload: Mapping[str, Any]) -> Section:
    reports = [r for r in field_list(payload, "reports") if isinstance(r, Mapping)]
    source = str(payload.get("source") or path)
    trajectory = payload.get("kind") == "trajectory"
    label = "Trajectory" if trajectory else ("Graph" if payload.get("checked") == "graph" else "Hypothesis")
    sec = Section(f"Check: {source}")
    summary = field_map(payload, "summary")
    problems = summary.get("with_problems")
    clean = problems == 0 if isinstance(problems, int) and not isinstance(problems, bool) else bool(payload.get("ok"))
    verdict = "no problems" if clean else f"{summary.get('with_problems', '?')} of {counted(len(reports), 'report')} with problems"
    first = summary.get("first_data_conflict_step")
    sec.blocks.append(Text(f"{label}: {verdict}"
                           + (f"; the recorded data stop agreeing with the hypothesis at step {first}." if first is not None else ".")))
    rows: list[list[str]] = []
    marked: set[int] = set()
    for r in reports:
        diags = _findings(r)
        shown = [d for d in diags if d.get("severity") != "info"] or diags
        for d in shown:
            if d.get("severity") == "error":
                marked.add(len(rows))
            rows.append([str(r.get("subject", "")), str(d.get("severity", "")), str(d.get("code", "")), str(d.get("message", ""))])
    if rows:
        sec.blocks.append(Table(["report", "severity", "finding", "message"], rows, caption="Findings", marked=frozenset(marked)))
    else:
        sec.blocks.append(Text("No findings."))
    graph = field_map(payload, "graph")
    if graph:
        diags = [d for r in reports for d in _findings(r)]
        fig = graph_drawing(source, graph, diags)
        if fig is not None:
            sec.blocks.append(fig)
    drawn = 0
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for r in reports:
        diags = _findings(r)
        meta = field_map(r, "meta")
        hyp = meta.get("hypothesis")
        relevant = [d for d in diags if str(d.get("code")) in GRAPH_CODES | {"data-mismatch"}]  # a damaged code may be a list
        if not isinstance(hyp, str) or not hyp or (not relevant and drawn):
            continue
        sig = (hyp, tuple(sorted(str(d.get("code")) for d in relevant)))
        if sig in seen:
            continue
        if drawn >= MAX_DRAWINGS:
            sec.blocks.append(Text(f"More reports with graph findings are not drawn (limit {MAX_DRAWINGS}).", note=True))
            break
        seen.add(sig)
        sub = Section(str(r.get("subject", "report")))
        fig = _drawing(str(r.get("subject", "report")), hyp, relevant)
        if fig is not None:
            sub.blocks.append(fig)
            drawn += 1
        for d in relevant:
            if d.get("code") == "data-mismatch":
                t = _mismatch(d)
                if t is not None:
                    sub.blocks.append(t)
        if sub.blocks:
            sec.children.append(sub)
    return sec


def check_sections(inputs: Sequence[tuple[str, Mapping[str, Any]]]) -> Section:
    """The "Check" section of the report for the ``(path, check payload)`` *inputs*."""
    sec = Section("Check")
    sec.blocks.append(Text(f"{counted(len(inputs), 'check report')}."))
    for path, payload in inputs:
        sec.children.append(_one(path, payload))
    return sec
