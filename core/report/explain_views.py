"""Explain views: PRISM's Table 2 across answer models, failure modes, graph topology, items.

Built from explain result files (``<answer>_metrics_<judge>.json``, the official layout with
our ``causalcheck`` object per item), read by :func:`causalcheck.explain.result_schema.decode_file`:
the views read the recorded values (graph statistics, failure modes, EDU offsets) and compute
none of them.  Official files without the ``causalcheck`` object work too — the decoder then
derives the statistics and failure modes with the functions the writer uses.  An item the
decoder cannot read is skipped, and the section says which and why:

* **per-domain table** (the paper's Table 2 layout) — PM, RM and Final ×100 for STEM, HSS,
  Hybrid and Overall, one column group per answer model (one result file each; a model
  judged by two judges appears as ``answer / judge``), computed with
  :func:`causalcheck.explain.scoring.summarize` (the means the result files report);
* **failure modes** (Table 3) — answers with Final < 60 per mode and model;
* **topology** (Figure 3) — the distribution of node count and longest causal path of the
  response-derived graphs per model (box plots and a table);
* **all items** — Final per item and model side by side (the cross-model table);
* **items in detail** — for a bounded selection of items (:func:`select_items`: the
  lowest, median and highest mean Final, the largest disagreement between models, the
  first answer showing each failure mode), every model's answer with its EDUs marked (the
  stored character offsets, else the EDU texts found in order), its graph drawn (causal vs
  discourse relations, supported / not supported / not judged) and the rubric criteria
  with their scores and reasons.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from causalcheck.base.escape import markdown_lines
from causalcheck.explain.result_schema import ResultFile, ResultItem, decode_file
from causalcheck.explain.scoring import FAILURE_MODES, summarize
from causalcheck.report.document import FigureBlock, Markup, Section, Table, Text
from causalcheck.report.fields import field_list
from causalcheck.report.figures import BoxChart, DrawnEdge, GraphFigure, box_of
from causalcheck.report.layout import graph_panel, label_of
from causalcheck.report.svg import esc
from causalcheck.report.text import counted

__all__ = ["DEFAULT_ITEMS", "NODE_LABEL", "ExplainRun", "explain_runs", "explain_sections", "marked_answer", "node_label", "select_items"]

#: Items shown in detail (each for every model that answered it).
DEFAULT_ITEMS = 6
#: Longest node label of an answer graph (the EDU id and the first words of its text; the tooltip has all).
NODE_LABEL = 22
#: Largest graph drawn with its isolated EDUs (bigger graphs draw only linked EDUs).
MAX_DRAWN_NODES = 80
_CAUSAL = frozenset({"CAUSE", "CONDITION", "RESULT", "CONSEQUENCE"})


@dataclass(frozen=True)
class ExplainRun:
    """One result file: its label (answer model), judge, decoded items, and the entries that could not be read."""

    label: str
    answer_model: str
    judge_model: str
    path: str
    meta: Mapping[str, Any]
    items: tuple[ResultItem, ...]
    skipped: tuple[tuple[str, str], ...] = ()


def explain_runs(inputs: Sequence[tuple[str, Mapping[str, Any]]]) -> list[ExplainRun]:
    """The result files as :class:`ExplainRun` s, labelled by answer model (``answer / judge`` when needed)."""
    raw: list[tuple[str, str, str, ResultFile]] = []
    for path, data in inputs:
        decoded = decode_file(data)
        answer = str(decoded.meta.get("answer_model") or "answers")
        judge = str(decoded.meta.get("judge_model") or "judge")
        raw.append((answer, judge, path, decoded))
    answers = [a for a, *_ in raw]
    out: list[ExplainRun] = []
    used: set[str] = set()
    for answer, judge, path, decoded in raw:
        label = answer if answers.count(answer) == 1 else f"{answer} / {judge}"
        base, k = label, 2
        while label in used:
            label, k = f"{base} #{k}", k + 1
        used.add(label)
        out.append(ExplainRun(label, answer, judge, path, decoded.meta, decoded.items, decoded.skipped))
    return out


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.2f}"


def _domain_table(runs: Sequence[ExplainRun]) -> Table:
    summaries = [summarize(r.items) for r in runs]
    buckets = [row.bucket for row in summaries[0].rows] if summaries else []
    rows = []
    for b in buckets:
        row = [b]
        for s in summaries:
            d = next(x for x in s.rows if x.bucket == b)
            row += [str(d.n), _pct(d.pm), _pct(d.rm), _pct(d.final)]
        rows.append(row)
    cols = ["domain"] + ["n", "PM", "RM", "Final"] * len(runs)
    return Table(cols, rows, caption="Per domain (×100; the paper's Table 2 layout), one column group per answer model",
                 groups=[("", 1), *((r.label, 4) for r in runs)], numeric=frozenset(range(1, len(cols))),
                 totals=frozenset(i for i, b in enumerate(buckets) if b == "Overall"))


def _files_table(runs: Sequence[ExplainRun]) -> Table:
    rows = []
    for r in runs:
        ok = [i for i in r.items if i.ok]
        rows.append([r.label, r.judge_model, str(r.meta.get("parser_model", "")), str(r.meta.get("pm_mode", "")) or "–",
                     str(len(ok)), str(len(r.items) - len(ok)), str(sum(1 for i in ok if i.degraded)), r.path])
    notices = sorted({str(n) for r in runs for n in [(r.meta.get("causalcheck") or {}).get("notice")] if n})
    caption = "Result files" + "".join(f". Note: {n}" for n in notices)
    return Table(["answer model", "judge", "parser", "PM mode", "scored", "failed", "degraded", "file"], rows,
                 caption=caption, numeric=frozenset({4, 5, 6}))


def _failure_table(runs: Sequence[ExplainRun]) -> list[Any]:
    rows = []
    below = ["Final < 60"]
    for r in runs:
        ok = [i for i in r.items if i.ok]
        n_low = sum(1 for i in ok if i.final < 0.6)
        below.append(f"{n_low} of {len(ok)}")
    rows.append(below)
    for m in FAILURE_MODES:
        row = [m]
        for r in runs:
            ok = [i for i in r.items if i.ok]
            c = sum(1 for i in ok if m in i.failure_modes)
            row.append(f"{c} ({c / len(ok):.0%})" if ok else "–")
        rows.append(row)
    out: list[Any] = [Table(["failure mode", *(r.label for r in runs)], rows,
                            caption="Failure modes of answers with Final < 60 (several may apply; the paper's Table 3)",
                            numeric=frozenset(range(1, len(runs) + 1)))]
    derived = [r.label for r in runs if any(i.derived for i in r.items)]
    if derived:
        out.append(Text("Graph statistics and failure modes of " + ", ".join(derived)
                        + " were derived by the report (the file has no causalcheck object).", note=True))
    return out


def _topology(runs: Sequence[ExplainRun]) -> list[Any]:
    rows = []
    node_boxes, path_boxes = [], []
    for r in runs:
        stats = [i.stats for i in r.items if i.ok and i.stats is not None]
        nodes = [s.nodes for s in stats]
        paths = [s.longest_path for s in stats]
        causal = [s.causal_edges for s in stats]
        if nodes:
            node_boxes.append(box_of(r.label, nodes))
        if paths:
            path_boxes.append(box_of(r.label, paths))
        nb = box_of(r.label, nodes) if nodes else None
        pb = box_of(r.label, paths) if paths else None
        rows.append([r.label, str(len(nodes)),
                     "–" if nb is None else f"{nb.mean:.1f}", "–" if nb is None else f"{nb.median:g}",
                     "–" if pb is None else f"{pb.mean:.2f}", "–" if pb is None else f"{pb.median:g}",
                     "–" if pb is None else f"{pb.maximum:g}",
                     f"{sum(causal) / len(causal):.1f}" if causal else "–"])
    out: list[Any] = []
    if node_boxes:
        out.append(FigureBlock(BoxChart("Node count of the response graphs",
                                        "Distribution of the number of EDU nodes per answer graph, one box per answer model.",
                                        "nodes (EDUs)", tuple(node_boxes), integer=True)))
    if path_boxes:
        out.append(FigureBlock(BoxChart("Longest causal path",
                                        "Distribution of the longest directed path over causal edges (in edges) per answer graph, one box per answer model.",
                                        "longest causal path (edges)", tuple(path_boxes), integer=True)))
    out.append(Table(["answer model", "graphs", "nodes mean", "nodes median", "longest path mean", "longest path median",
                      "longest path max", "causal edges mean"], rows, caption="Topology of the response-derived graphs",
                     numeric=frozenset(range(1, 8))))
    return out


def _cross_table(runs: Sequence[ExplainRun]) -> Table:
    keys: list[str] = []
    where: dict[tuple[str, str], ResultItem] = {}
    domain: dict[str, str] = {}
    for r in runs:
        for i in r.items:
            if i.key not in domain:
                keys.append(i.key)
                domain[i.key] = i.bucket or "?"
            where[(r.label, i.key)] = i
    rows = []
    for k in keys:
        row = [k, domain[k]]
        for r in runs:
            found = where.get((r.label, k))
            row.append("–" if found is None else ("failed" if not found.ok else f"{100 * found.final:.1f} ({100 * found.pm:.0f}/{100 * found.rm:.0f})"))
        rows.append(row)
    return Table(["item", "domain", *(r.label for r in runs)], rows,
                 caption="Every item: Final (PM/RM) ×100 per answer model", numeric=frozenset(range(2, 2 + len(runs))))


def select_items(runs: Sequence[ExplainRun], limit: int) -> list[tuple[str, str]]:
    """Up to *limit* item keys to show in detail, each with the reason it was chosen.

    In order: the lowest, highest and median mean Final over the models, the largest
    spread of Final between models (with two or more), the first answer with each failure
    mode, then input order.
    """
    if limit <= 0:
        return []
    finals: dict[str, list[float]] = {}
    for r in runs:
        for i in r.items:
            if i.ok:
                finals.setdefault(i.key, []).append(i.final)
    if not finals:
        return []
    keys = list(finals)
    mean = sorted((sum(v) / len(v), n, k) for n, (k, v) in enumerate(finals.items()))
    picks = [(mean[0][2], "lowest mean Final"), (mean[-1][2], "highest mean Final"), (mean[len(mean) // 2][2], "median mean Final")]
    if len(runs) > 1:
        spread = sorted(((-(max(v) - min(v)), keys.index(k), k) for k, v in finals.items() if len(v) > 1))
        picks += [(k, "largest disagreement between models") for _, _, k in spread[:2]]

    for m in FAILURE_MODES:
        hit = next((i.key for r in runs for i in r.items if i.ok and m in i.failure_modes), None)
        if hit is not None:
            picks.append((hit, f"failure mode: {m}"))
    picks += [(k, "input order") for k in keys]
    out: list[tuple[str, str]] = []
    for k, why in picks:
        if k not in [o[0] for o in out]:
            out.append((k, why))
        if len(out) >= limit:
            break
    return out


def _offsets(result: ResultItem, answer: str) -> list[tuple[str, int, int]]:
    """EDU spans in the answer: the stored offsets, else each EDU's text found in order."""
    stored = None if result.causalcheck is None else result.causalcheck.edu_offsets
    spans: list[tuple[str, int, int]] = []
    if stored is not None:
        for eid, start, end in stored:
            if start is not None and end is not None and 0 <= start <= end <= len(answer):
                spans.append((eid, start, end))
        if spans:
            return spans
    dag = result.parsed_dag
    cursor = 0
    for n in field_list(dag, "nodes"):
        if not isinstance(n, Mapping):
            continue
        text = str(n.get("text") or "").strip()
        if not text:
            continue
        at = answer.find(text, cursor)
        if at < 0:
            continue
        spans.append((str(n.get("id", "?")), at, at + len(text)))
        cursor = at + len(text)
    return spans


def marked_answer(answer: str, spans: Sequence[tuple[str, int, int]]) -> Markup:
    """The answer as escaped HTML with every EDU span marked (and a plain ``[EDUn] …`` text form).

    >>> m = marked_answer("A <b>. C", [("EDU1", 0, 6), ("EDU2", 7, 8)])
    >>> m.html
    '<div class="answer"><span class="edu a" title="EDU1"><sup>EDU1</sup>A &lt;b&gt;.</span> <span class="edu b" title="EDU2"><sup>EDU2</sup>C</span></div>'
    """
    html_parts, text_parts = [], []
    pos = 0
    for k, (eid, start, end) in enumerate(sorted(spans, key=lambda s: (s[1], s[2]))):
        if start < pos:
            continue
        html_parts.append(esc(answer[pos:start]))
        text_parts.append(answer[pos:start])
        cls = "a" if k % 2 == 0 else "b"
        html_parts.append(f'<span class="edu {cls}" title="{esc(eid)}"><sup>{esc(eid)}</sup>{esc(answer[start:end])}</span>')
        text_parts.append(f"[{eid}] {answer[start:end]}")
        pos = end
    html_parts.append(esc(answer[pos:]))
    text_parts.append(answer[pos:])
    text = "".join(text_parts).strip()
    quoted = "\n".join("> " + line for line in markdown_lines(text)) if text else "> (empty answer)"
    return Markup(f'<div class="answer">{"".join(html_parts)}</div>', quoted)


def _edge_kind(relation: str, score: Any) -> str:
    causal = relation.upper() in _CAUSAL
    verdict = "unjudged" if not isinstance(score, (int, float)) or isinstance(score, bool) else ("supported" if score >= 0.5 else "unsupported")
    return f"{'causal' if causal else 'discourse'}-{verdict}"


def node_label(eid: str, text: str) -> str:
    """An EDU's node label: its id and the first words of its text, within :data:`NODE_LABEL` characters.

    >>> node_label("EDU3", "because doctors would have no drug that kills bacteria")
    'EDU3 because doctors…'
    >>> node_label("EDU1", "")
    'EDU1'
    """
    words = text.split()
    label = eid
    for k, word in enumerate(words):
        longer = f"{label} {word}"
        room = NODE_LABEL - (1 if k < len(words) - 1 else 0)
        if len(longer) > room:
            return label + "…" if k else label_of(f"{eid} {text.strip()}", NODE_LABEL)
        label = longer
    return label


def _item_view(run: ExplainRun, item: ResultItem) -> Section:
    result = item
    sec = Section(f"{run.label} · {item.key}", collapsed=True, label=f"{item.key} · {run.label}")
    if not item.ok:
        sec.blocks.append(Text(f"Not scored: {result.evaluation_error or 'failed'}."))
        return sec
    flags = ", ".join([*item.failure_modes, *(["degraded"] if item.degraded else [])]) or "none"
    sec.blocks.append(Text(f"{item.bucket or '?'} · PM {_pct(item.pm)}, RM {_pct(item.rm)}, Final {_pct(item.final)} · flags: {flags}"))
    sec.blocks.append(Text(f"Question: {result.benchmark.get('question', '')}"))
    answer = result.model_answer
    spans = _offsets(result, answer)
    sec.blocks.append(marked_answer(answer, spans))
    dag = result.parsed_dag
    nodes = [n for n in field_list(dag, "nodes") if isinstance(n, Mapping) and isinstance(n.get("id"), str)]
    raw_edges = [e for e in field_list(dag, "edges") if isinstance(e, Mapping)]
    judged = field_list(result.metrics.pm, "edges")
    ids = [str(n["id"]) for n in nodes]
    ids = list(dict.fromkeys(ids))
    text_of = {str(n["id"]): str(n.get("text", "")) for n in nodes}
    edges: list[DrawnEdge] = []
    rows = []
    for k, e in enumerate(raw_edges):
        s, t = str(e.get("source", "")), str(e.get("target", ""))
        rel = str(e.get("relation_type", e.get("type", "")))
        j = judged[k] if k < len(judged) and isinstance(judged[k], Mapping) else {}
        score = j.get("score")
        kind = _edge_kind(rel, score)
        verdict = kind.split("-", 1)[1].replace("unsupported", "not supported").replace("unjudged", "not judged")
        edges.append(DrawnEdge(s, t, kind, f"{s} → {t} {rel}: {verdict}. {text_of.get(s, '')[:80]} → {text_of.get(t, '')[:80]}"))
        rows.append([f"{s} → {t}", rel, "causal" if rel.upper() in _CAUSAL else "discourse", verdict, str(j.get("rationale") or "")[:200]])
    linked = {n for e in edges for n in (e.source, e.target)}
    shown = ids if len(ids) <= MAX_DRAWN_NODES else [n for n in ids if n in linked]
    shown += [n for n in sorted(linked) if n not in shown]
    panel = graph_panel(f"{counted(len(ids), 'EDU')}, {counted(len(edges), 'relation')}", shown,
                        [(e.source, e.target) for e in edges], edges,
                        styles={n: ("plain" if n in linked else "isolated") for n in shown},
                        labels={n: node_label(n, text_of.get(n, "")) for n in shown},
                        tooltips={n: f"{n}: {text_of.get(n, '')}" for n in shown}, limit=NODE_LABEL)
    desc = (f"Response-derived graph of {run.label}'s answer to {item.key}: {counted(len(ids), 'EDU node')}, {counted(len(edges), 'relation')}, "
            f"{sum(1 for e in edges if e.style.startswith('causal'))} causal; "
            f"{sum(1 for e in edges if e.style.endswith('-supported'))} supported.")
    note = "" if len(shown) == len(ids) else f" ({counted(len(ids) - len(shown), 'EDU')} without relations not drawn)"
    sec.blocks.append(FigureBlock(GraphFigure(f"Answer graph: {run.label} · {item.key}", desc, (panel,)),
                                  "Thick lines: causal relations (the ones PM scores); thin: discourse relations" + note + "."))
    if rows:
        sec.blocks.append(Table(["edge", "relation", "kind", "verdict", "judge's reason"], rows, caption="Relations and judgments"))
    crit = [c for c in field_list(result.metrics.rm, "criterion_evaluations") if isinstance(c, Mapping)]
    if crit:
        crow = [[str(c.get("index", "")), str(c.get("name", "")), str(c.get("score", "")), str(c.get("reason") or "")] for c in crit]
        sec.blocks.append(Table(["#", "criterion", "score (1–10)", "reason"], crow, caption="Rubric criteria", numeric=frozenset({0, 2})))
    return sec


def explain_sections(inputs: Sequence[tuple[str, Mapping[str, Any]]], *, items: int = DEFAULT_ITEMS) -> Section:
    """The "Explain" section of the report for the ``(path, result file)`` *inputs*."""
    runs = explain_runs(inputs)
    sec = Section("Explain")
    sec.blocks.append(Text(f"{counted(len(runs), 'result file')}; {counted(sum(len(r.items) for r in runs), 'item')}."))
    skipped = [f"{r.path} {where}: {why}" for r in runs for where, why in r.skipped]
    if skipped:
        sec.blocks.append(Text(f"Skipped {counted(len(skipped), 'entry', 'entries')} that could not be read "
                               "as result items: " + "; ".join(skipped) + ".", note=True))
    sec.children.append(Section("Per domain", [_domain_table(runs), _files_table(runs),
                                               Text("PM: share of the causal edges (CAUSE, CONDITION, RESULT, CONSEQUENCE) "
                                                    "judged supported; RM: mean criterion score / 10; Final = (PM + RM) / 2.", note=True)]))
    sec.children.append(Section("Failure modes", _failure_table(runs)))
    sec.children.append(Section("Topology of the answer graphs", _topology(runs)))
    sec.children.append(Section("All items", [_cross_table(runs)]))
    detail = Section("Items in detail")
    chosen = select_items(runs, items)
    detail.blocks.append(Text(f"Shown: {counted(len(chosen), 'item')} (of {len({i.key for r in runs for i in r.items})}), each for every "
                              "answer model — " + "; ".join(f"{k}: {why}" for k, why in chosen) + "."))
    for key, _why in chosen:
        for r in runs:
            item = next((i for i in r.items if i.key == key), None)
            if item is not None:
                detail.children.append(_item_view(r, item))
    sec.children.append(detail)
    return sec
