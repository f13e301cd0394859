"""``causalcheck explain agree A B``: how far two scorers of the same answers agree.

A and B are each an explain result file (``<answer>_metrics_<judge>.json``, ours or an
official one) or a CSV of human scores with an ``id`` column and any of ``pm``, ``rm``,
``final`` (on the result files' 0–1 scale; a blank cell is a missing score).  Items are
joined on their key — ``canonical_id``, else ``id`` (a CSV ``id`` is matched against both);
items found in only one file, or not scored in it, are reported and left out, and so are
entries of a result file that :func:`causalcheck.explain.result_schema.decode_file` cannot read
or whose scores are not finite numbers of magnitude at most
:data:`~causalcheck.base.limits.MAX_MAGNITUDE` (with the reason).  An item key found twice in one
file is an error (exit 2): which of its scores to compare would be a guess.

For PM, RM and Final (each where both sides have it): Pearson's r, Spearman's ρ and the
mean absolute error, each with a percentile bootstrap 95% interval over resampled items
(:mod:`causalcheck.report.agreement`, seeded ``numpy`` Generator).  When both files hold
edge judgments of the same graphs — an edge is identified by its source and target EDU
texts (whitespace-normalised) and relation type — the yes/no verdicts of the paired edges
(``score >= 0.5``) are compared: precision and recall of B's yes against A's, and Cohen's κ
with its interval.  Exit codes: 0 computed, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.base.cmdline import nonnegative_int, plain_help
from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import csv_rows, read_input_text
from causalcheck.base.limits import MAX_MAGNITUDE, bounded_number
from causalcheck.report.fields import field_list

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.explain.result_schema import ResultItem

__all__ = ["METRICS", "Agreement", "ScoreSet", "agree", "agree_files", "read_scores", "register", "register_explain"]

METRICS = ("pm", "rm", "final")

EdgeKey = tuple[str, str, str]


@dataclass(frozen=True)
class ScoreSet:
    """Scores of one side: per item key, the metrics it has; edge verdicts per item; unscored keys."""

    path: str
    label: str
    scores: Mapping[str, Mapping[str, float]]
    edges: Mapping[str, Mapping[EdgeKey, bool]] = field(default_factory=dict)
    unscored: tuple[str, ...] = ()
    aliases: Mapping[str, str] = field(default_factory=dict)  # other key (id) → key
    skipped: tuple[str, ...] = ()  # entries of a result file that are not readable items, with the reason


def _norm(text: Any) -> str:
    return " ".join(str(text or "").split())


def _edge_verdicts(item: ResultItem) -> dict[EdgeKey, bool]:
    """The yes/no verdict of each judged edge of *item*, keyed by its EDU texts and relation type."""
    dag = item.parsed_dag
    text = {str(n.get("id")): _norm(n.get("text")) for n in field_list(dag, "nodes") if isinstance(n, Mapping)}
    judged = field_list(item.metrics.pm, "edges")
    verdicts: dict[EdgeKey, bool] = {}
    for k, e in enumerate(field_list(dag, "edges")):
        if not isinstance(e, Mapping) or k >= len(judged) or not isinstance(judged[k], Mapping):
            continue
        score = judged[k].get("score")
        if not isinstance(score, (int, float)) or isinstance(score, bool):
            continue
        ek = (text.get(str(e.get("source")), ""), text.get(str(e.get("target")), ""), str(e.get("relation_type", "")).upper())
        verdicts.setdefault(ek, float(score) >= 0.5)
    return verdicts


def _from_result(path: str, obj: Mapping[str, Any]) -> ScoreSet:
    """One side from a result file, read by :func:`causalcheck.explain.result_schema.decode_file`."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.result_schema import decode_file

    decoded = decode_file(obj)
    meta = decoded.meta
    label = f"{meta.get('answer_model', '?')} judged by {meta.get('judge_model', '?')}"
    scores: dict[str, dict[str, float]] = {}
    edges: dict[str, dict[EdgeKey, bool]] = {}
    aliases: dict[str, str] = {}
    bad: list[str] = []
    for n, it in enumerate(decoded.items):
        if not it.ok:
            continue
        key = it.key
        if key in scores:
            raise InputFormatError(f"{path}: item {key!r} appears twice (entry {n}); an item is scored once per result file")
        values = {"pm": it.pm_score, "rm": it.rm_score, "final": it.total_score}
        try:
            scores[key] = {m: bounded_number(v, m) for m, v in values.items() if v is not None}
        except InputFormatError as exc:
            bad.append(f"item {key!r}: {exc}")
            continue
        if it.benchmark.get("id") is not None:
            aliases[str(it.benchmark["id"])] = key
        verdicts = _edge_verdicts(it)
        if verdicts:
            edges[key] = verdicts
    unscored = tuple(it.key for it in decoded.items if not it.ok)
    skipped = tuple(f"{where}: {why}" for where, why in decoded.skipped) + tuple(bad)
    return ScoreSet(path, label, scores, edges, unscored, aliases, skipped)


def _from_csv(path: str, text: str) -> ScoreSet:
    # (row number, row) of the rows that hold a cell: the first is the header
    reader = iter([(n, row) for n, row in enumerate(csv_rows(text, source=path), start=1) if any(c.strip() for c in row)])
    try:
        header = [h.strip().lower() for h in next(reader)[1]]
    except StopIteration:
        raise InputFormatError(f"human scores path={path!r} is empty; expected a header 'id,pm,rm,final' (any subset of pm, rm, final)") from None
    if "id" not in header or not set(header) & set(METRICS):
        raise InputFormatError(f"human scores path={path!r} header={header!r} must have an 'id' column and at least one of pm, rm, final")
    cols = {m: header.index(m) for m in METRICS if m in header}
    idc = header.index("id")
    scores: dict[str, dict[str, float]] = {}
    for line, row in reader:
        if len(row) <= idc or not row[idc].strip():
            raise InputFormatError(f"{path}:{line}: row={row!r} has no id")
        key = row[idc].strip()
        if key in scores:
            raise InputFormatError(f"{path}:{line}: id={key!r} appears twice")
        vals: dict[str, float] = {}
        for m, c in cols.items():
            cell = row[c].strip() if c < len(row) else ""
            if not cell:
                continue
            try:
                v = float(cell)
            except ValueError:
                raise InputFormatError(f"{path}:{line}: {m}={cell!r} must be a number") from None
            try:
                vals[m] = bounded_number(v, m)
            except InputFormatError:
                raise InputFormatError(f"{path}:{line}: {m}={cell!r} must be a finite number of magnitude at most {MAX_MAGNITUDE:g}") from None
        scores[key] = vals
    return ScoreSet(path, "human scores", scores)


def read_scores(path: str | Path) -> ScoreSet:
    """One side: a result file (JSON, classified by content) or a CSV of human scores."""
    # late: keeps causalcheck --help light
    from causalcheck.base import safejson

    # late: keeps causalcheck --help light
    from causalcheck.report.inputs import classify

    text = read_input_text(path, what="scores")
    stripped = text.lstrip()
    if not stripped.startswith(("{", "[")):
        return _from_csv(str(path), text)
    obj = safejson.loads(text, source=str(path))
    if classify(obj) != "explain":
        raise InputFormatError(
            f"scores path={str(path)!r} is not an explain result file (meta + items) nor a CSV with columns id,pm,rm,final"
        )
    return _from_result(str(path), obj)


@dataclass(frozen=True)
class Agreement:
    """Everything ``explain agree`` reports (``to_json`` is its ``--json`` output)."""

    a: ScoreSet
    b: ScoreSet
    matched: tuple[str, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]
    metrics: Mapping[str, Mapping[str, Any]]
    edges: Mapping[str, Any] | None
    bootstrap: int
    seed: int

    def to_json(self) -> dict[str, Any]:
        return {
            "a": {"path": self.a.path, "label": self.a.label, "unscored": list(self.a.unscored), "skipped": list(self.a.skipped)},
            "b": {"path": self.b.path, "label": self.b.label, "unscored": list(self.b.unscored), "skipped": list(self.b.skipped)},
            "matched": len(self.matched),
            "only_in_a": list(self.only_a),
            "only_in_b": list(self.only_b),
            "metrics": {k: dict(v) for k, v in self.metrics.items()},
            "edges": None if self.edges is None else dict(self.edges),
            "bootstrap": self.bootstrap,
            "seed": self.seed,
        }


def agree(a: ScoreSet, b: ScoreSet, *, resamples: int = 1000, seed: int = 0) -> Agreement:
    """Join *a* and *b* on the item key and compute the statistics (module docstring)."""
    # late: keeps causalcheck --help light
    from causalcheck.report.agreement import bootstrap, confusion, mae, pearson, spearman

    def resolve(key: str, side: ScoreSet) -> str | None:
        if key in side.scores:
            return key
        return side.aliases.get(key)

    pairs: list[tuple[str, str]] = []  # (key in a, key in b)
    used_b: set[str] = set()
    for ka in a.scores:
        kb = resolve(ka, b)
        if kb is None:
            kb = next((alias for alias, target in a.aliases.items() if target == ka and alias in b.scores), None)
        if kb is not None and kb not in used_b:
            pairs.append((ka, kb))
            used_b.add(kb)
    only_a = tuple(k for k in a.scores if k not in {p[0] for p in pairs})
    only_b = tuple(k for k in b.scores if k not in used_b)
    metrics: dict[str, dict[str, Any]] = {}
    for m in METRICS:
        xs = [a.scores[ka][m] for ka, kb in pairs if m in a.scores[ka] and m in b.scores[kb]]
        ys = [b.scores[kb][m] for ka, kb in pairs if m in a.scores[ka] and m in b.scores[kb]]
        if not xs:
            continue
        metrics[m] = {
            "n": len(xs),
            "pearson": bootstrap(pearson, xs, ys, resamples=resamples, seed=seed).to_json(),
            "spearman": bootstrap(spearman, xs, ys, resamples=resamples, seed=seed).to_json(),
            "mae": bootstrap(mae, xs, ys, resamples=resamples, seed=seed).to_json(),
        }
    edges: dict[str, Any] | None = None
    va: list[bool] = []
    vb: list[bool] = []
    items_with = 0
    identical = 0
    for ka, kb in pairs:
        ea, eb = a.edges.get(ka), b.edges.get(kb)
        if not ea or not eb:
            continue
        common = [k for k in ea if k in eb]
        if not common:
            continue
        items_with += 1
        identical += set(ea) == set(eb)
        va += [ea[k] for k in common]
        vb += [eb[k] for k in common]
    if va:
        table = confusion(va, vb)

        def kappa(x: Sequence[float], y: Sequence[float]) -> float | None:
            return confusion([v >= 0.5 for v in x], [v >= 0.5 for v in y]).kappa

        ci = bootstrap(kappa, [float(v) for v in va], [float(v) for v in vb], resamples=resamples, seed=seed)
        edges = {
            "paired": table.n,
            "items": items_with,
            "items_identical_graphs": identical,
            "a_yes": table.both_yes + table.a_only,
            "b_yes": table.both_yes + table.b_only,
            "both_yes": table.both_yes,
            "both_no": table.both_no,
            "precision": table.precision,
            "recall": table.recall,
            "kappa": ci.to_json(),
        }
    return Agreement(a, b, tuple(p[0] for p in pairs), only_a, only_b, metrics, edges, resamples, seed)


def agree_files(a: str | Path, b: str | Path, *, resamples: int = 1000, seed: int = 0) -> Agreement:
    """:func:`agree` of two files (result files or human-score CSVs)."""
    return agree(read_scores(a), read_scores(b), resamples=resamples, seed=seed)


def _ci(d: Mapping[str, Any]) -> str:
    v = d.get("value")
    if v is None:
        return "–"
    text = f"{v:.3f}"
    if d.get("low") is not None:
        text += f" [{d['low']:.3f}, {d['high']:.3f}]"
    return text


def format_text(r: Agreement) -> str:
    """The table ``explain agree`` prints."""
    lines = [f"A: {r.a.path} ({r.a.label})", f"B: {r.b.path} ({r.b.label})",
             f"items: {len(r.matched)} matched, {len(r.only_a)} only in A, {len(r.only_b)} only in B"]
    for name, keys in (("only in A", r.only_a), ("only in B", r.only_b), ("not scored in A", r.a.unscored), ("not scored in B", r.b.unscored)):
        if keys:
            lines.append(f"  {name}: {', '.join(keys[:20])}" + (f" … (+{len(keys) - 20})" if len(keys) > 20 else ""))
    for name, notes in (("not read in A", r.a.skipped), ("not read in B", r.b.skipped)):
        if notes:
            lines.append(f"  {name}: {'; '.join(notes[:20])}" + (f" … (+{len(notes) - 20})" if len(notes) > 20 else ""))
    lines.append("")
    lines.append(f"{'metric':<7} {'n':>4}  {'Pearson r [95% CI]':<26} {'Spearman rho [95% CI]':<26} {'MAE [95% CI]':<26}")
    for m, d in r.metrics.items():
        lines.append(f"{m.upper() if m != 'final' else 'Final':<7} {d['n']:>4}  {_ci(d['pearson']):<26} {_ci(d['spearman']):<26} {_ci(d['mae']):<26}")
    if not r.metrics:
        lines.append("(no metric is scored on both sides)")
    e = r.edges
    lines.append("")
    if e is None:
        lines.append("edges: no edge judgments of the same graphs in both files")
    else:
        prec = "–" if e["precision"] is None else f"{e['precision']:.3f}"
        rec = "–" if e["recall"] is None else f"{e['recall']:.3f}"
        lines.append(f"edges: {e['paired']} paired on {e['items']} item(s) ({e['items_identical_graphs']} with identical graphs); "
                     f"A yes {e['a_yes']}, B yes {e['b_yes']}, both yes {e['both_yes']}, both no {e['both_no']}")
        lines.append(f"  precision (B vs A) {prec}, recall {rec}, Cohen's kappa {_ci(e['kappa'])}")
    # late: keeps causalcheck --help light
    from causalcheck.metrics import MIN_BOOTSTRAP_N

    lines.append(f"(bootstrap: {r.bootstrap} resamples over items, seed {r.seed}; no interval from fewer than "
                 f"{MIN_BOOTSTRAP_N} items: too few to resample)")
    return "\n".join(lines)


def register_explain(subparsers: Any) -> None:
    """Add the ``explain`` command with its ``agree`` subcommand (the ``explain`` entry of the command
    registry, :mod:`causalcheck.plugins`: ``explain agree`` reads result files, a report's layer)."""
    # late: the command's module, loaded when the command is
    from causalcheck.explain.cli import register as register_explain_command

    register_explain_command(subparsers, also=(register,))


def register(subparsers: Any) -> None:
    """Add ``agree`` to the ``explain`` subcommands *subparsers*."""
    p = subparsers.add_parser("agree", help="agreement of two scorers: Pearson, Spearman, MAE (PM, RM, Final), edge kappa",
                              description=plain_help(__doc__.split("\n\n")[1]) if __doc__ else None)
    p.add_argument("a", metavar="A", help="result file (<answer>_metrics_<judge>.json) or human scores CSV (id,pm,rm,final)")
    p.add_argument("b", metavar="B", help="the other result file or CSV")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.add_argument("--bootstrap", type=nonnegative_int, default=1000, metavar="N", help="bootstrap resamples (default 1000; 0: no intervals)")
    p.add_argument("--seed", type=nonnegative_int, default=0, metavar="S", help="bootstrap seed (default 0)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Compute and print; returns the exit code."""
    result = agree_files(args.a, args.b, resamples=args.bootstrap, seed=args.seed)
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n")
    else:
        print(format_text(result))
    return 0
