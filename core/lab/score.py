"""Re-score lab episodes: per-step and final mechanism metrics, I-MEC sizes, roll-ups.

For each episode (an official run folder or one of our trajectories, read by
:mod:`causalcheck.episodes` into the typed model whose records were parsed once by the
tolerant record parser — so every edge spelling the parser accepts is scored):

* **per step** — the hypothesis in force after the step (the last non-empty one, carried
  forward like the official visualiser), scored with :mod:`causalcheck.metrics` against the
  true graph, plus the size of the interventional Markov equivalence class of the true DAG
  given ∅ and every distinct node intervened on so far (:func:`~causalcheck.solvers.
  equivalence.imec_size`): how many graphs the evidence gathered so far still allows;
* **final** — the predicted graph is the last hypothesis with non-empty edges, equation or
  coefficients (causalab-spec §4.1); task accuracy, edge / frequency-parent / root /
  coefficient P-R-F1, SHD with its breakdown, the corrected formula error against the true
  reactor frequency, MEC and final I-MEC sizes, budget use and audit counts;
* **roll-ups** — per graph (``experiment_id``) and per suite, the mean of every numeric
  final metric with a percentile bootstrap interval (seeded ``numpy`` Generator; the same
  seed for every group, so results are reproducible).

An episode that cannot be read is reported in ``failures`` with its reason; the others are
scored.  A hypothesis naming nodes outside the true graph is scored (its edges are wrong)
and the episode carries a warning naming them; a step whose output is not a record, and
hypothesis content the parser had to drop, are warnings too.  Step numbers are 1-based
(:data:`causalcheck.episodes.SCORE_NUMBERING`).

One module because ``lab score`` is one computation: the per-step and final scores, their
roll-ups and the CSV / Markdown / JSON writers share the score types defined here, which nothing
else builds.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

from causalcheck import metrics as M
from causalcheck.base.errors import (
    CausalCheckError,
    InputFormatError,
    Notice,
    WorkerDied,
    did_you_mean,
)
from causalcheck.base.escape import csv_row, markdown_cell, markdown_code, markdown_text
from causalcheck.base.files import atomic_write_text, sha256_file
from causalcheck.base.frames import frame, html_table
from causalcheck.base.gcpace import fewer_collections
from causalcheck.base.pool import Executor
from causalcheck.episodes import (
    EPISODE_WARNING_CODES,
    SCORE_NUMBERING,
    Discovered,
    DiscoveredKind,
    EpisodeRecord,
    Unparsed,
    discover_inputs,
    load_episode,
    nonempty_hypothesis,
)
from causalcheck.graph import FREQ, CausalGraph, normalize_node
from causalcheck.lab.audit import audit_episode
from causalcheck.parsing import dropped_content
from causalcheck.records import Hypothesis
from causalcheck.solvers.equivalence import imec_size

__all__ = [
    "OUTPUT_FILES",
    "SCORE_WARNING_CODES",
    "EpisodeScore",
    "Failure",
    "ScoreReport",
    "StepScore",
    "episodes_csv",
    "inputs_csv",
    "rollup",
    "score_episode",
    "score_paths",
    "step_curves",
    "steps_csv",
    "summary_markdown",
    "write_outputs",
]

#: Final metrics rolled up (numeric, one value per episode).
ROLLUP_KEYS = (
    "task_accuracy",
    "edge_precision",
    "edge_recall",
    "edge_f1",
    "parent_f1",
    "root_f1",
    "coefficient_f1",
    "shd",
    "shd_missing",
    "shd_extra",
    "shd_reversed",
    "formula_abs_error",
    "formula_hit",
    "mec_size",
    "imec_size",
    "interventions_used",
    "interventions_unused",
    "audit_errors",
)


@dataclass(frozen=True)
class StepScore:
    """Metrics of the hypothesis in force after one step (``step`` is 1-based)."""

    step: int
    hypothesis_step: int | None
    edge: M.PRF
    parent: M.PRF
    root: M.PRF
    coefficient: M.PRF
    shd: M.SHD
    targets: tuple[str, ...]
    imec_size: int | None

    def row(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "hypothesis_step": self.hypothesis_step,
            "edge_precision": self.edge.precision,
            "edge_recall": self.edge.recall,
            "edge_f1": self.edge.f1,
            "parent_f1": self.parent.f1,
            "root_f1": self.root.f1,
            "coefficient_f1": self.coefficient.f1,
            "shd": self.shd.total,
            "targets": " ".join(self.targets),
            "imec_size": self.imec_size,
        }


#: The codes of :attr:`EpisodeScore.warnings` (:class:`~causalcheck.base.errors.Notice` values) →
#: meaning: the reader's (:data:`~causalcheck.episodes.EPISODE_WARNING_CODES`) and the scorer's.
SCORE_WARNING_CODES: Mapping[str, str] = MappingProxyType({
    **EPISODE_WARNING_CODES,
    "unparsed-step": "a step's output holds no record (the parser's reason)",
    "hypothesis-content-dropped": "the parser had to drop part of a step's hypothesis (the repair)",
    "unknown-intervention-node": "a step intervened on a node that is not in the true graph",
    "unknown-nodes": "the hypotheses name nodes that are not in the true graph",
})


@dataclass(frozen=True)
class EpisodeScore:
    """Everything measured for one episode (``warnings``: codes in :data:`SCORE_WARNING_CODES`)."""

    source: str
    kind: str
    suite: str
    graph_id: str
    experiment_id: str
    seed: str
    final: Mapping[str, Any]
    steps: tuple[StepScore, ...]
    audit: Mapping[str, Any]
    warnings: tuple[Notice, ...] = ()
    agent: str = ""
    model: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "kind": self.kind,
            "suite": self.suite,
            "agent": self.agent,
            "model": self.model,
            "graph_id": self.graph_id,
            "experiment_id": self.experiment_id,
            "seed": self.seed,
            "final": dict(self.final),
            "steps": [s.row() for s in self.steps],
            "audit": dict(self.audit),
            "warnings": [str(w) for w in self.warnings],
        }


@dataclass(frozen=True)
class Failure:
    """An episode that could not be scored, with the reason."""

    source: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"source": self.source, "reason": self.reason}


@dataclass(frozen=True)
class ScoreReport:
    """The scored batch: episodes, failures and roll-ups."""

    episodes: tuple[EpisodeScore, ...]
    failures: tuple[Failure, ...] = ()
    by_graph: tuple[Mapping[str, Any], ...] = ()
    by_suite: tuple[Mapping[str, Any], ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    by_step: tuple[Mapping[str, Any], ...] = ()
    #: The manifest: one entry per input found (see :func:`score_paths`).
    inputs: tuple[Mapping[str, Any], ...] = ()
    #: What produced the report (:meth:`causalcheck.base.files.Provenance.to_json`, without inputs).
    provenance: Mapping[str, Any] = field(default_factory=dict)
    #: Episodes whose scoring hit a bug in causalcheck (also in ``failures``): exit code 70.
    internal_errors: int = 0

    def rows(self, table: str = "episodes") -> list[dict[str, Any]]:
        """The rows of one table: ``"episodes"`` (final metrics, as ``episodes.csv``), ``"steps"``
        (as ``steps.csv``), ``"suites"`` / ``"graphs"`` (means with intervals), ``"inputs"`` (the manifest)."""
        if table == "episodes":
            return [{"source": ep.source, "suite": ep.suite, "agent": ep.agent, "model": ep.model,
                     "experiment_id": ep.experiment_id, "seed": ep.seed, **ep.final} for ep in self.episodes]
        if table == "steps":
            return [{"source": ep.source, "agent": ep.agent, "model": ep.model, "experiment_id": ep.experiment_id,
                     "seed": ep.seed, **st.row()} for ep in self.episodes for st in ep.steps]
        tables = {"suites": self.by_suite, "graphs": self.by_graph, "inputs": self.inputs}
        if table not in tables:
            raise InputFormatError(f"table={table!r} must be one of 'episodes', 'steps', 'suites', 'graphs', 'inputs'")
        return [dict(r) for r in tables[table]]

    def to_frame(self, table: str = "episodes") -> Any:
        """:meth:`rows` of *table* as a ``pandas.DataFrame`` (intervals as ``metric``, ``metric.low``, ``metric.high``, ``metric.n``)."""
        return frame(self.rows(table), f"ScoreReport.to_frame(table={table!r})")

    def _repr_html_(self) -> str:
        return html_table(self.rows("suites"), f"lab scores: {len(self.episodes)} episode(s), per suite (to_frame() for every table)")

    @property
    def duplicates(self) -> tuple[Mapping[str, Any], ...]:
        """Manifest entries of inputs that repeat an earlier episode's content (counted once)."""
        return tuple(i for i in self.inputs if i.get("status") == "duplicate")

    @property
    def identical(self) -> tuple[Mapping[str, Any], ...]:
        """Manifest entries of scored episodes whose content equals an earlier one's at another path
        (``identical_to``): both are counted, as the official re-evaluation counts them."""
        return tuple(i for i in self.inputs if i.get("status") == "scored" and "identical_to" in i)

    @property
    def skipped(self) -> tuple[Mapping[str, Any], ...]:
        """Manifest entries of files that are not episodes (with the reason)."""
        return tuple(i for i in self.inputs if i.get("status") == "skipped")

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "causalcheck-scores/1",
            "provenance": {**dict(self.provenance), "inputs": [dict(i) for i in self.inputs]},
            "options": dict(self.options),
            "episodes": [e.to_json() for e in self.episodes],
            "failures": [f.to_json() for f in self.failures],
            "by_graph": [dict(g) for g in self.by_graph],
            "by_suite": [dict(s) for s in self.by_suite],
            "by_step": [dict(s) for s in self.by_step],
        }


# --------------------------------------------------------------------------- helpers


def _true_graph(config: Mapping[str, Any]) -> CausalGraph:
    nodes = config.get("nodes")
    names = [normalize_node(str(k)) for k in nodes] if isinstance(nodes, Mapping) else []
    pairs = sorted(M.normalize_pairs(config.get("edges") or []))
    return CausalGraph.from_pairs(pairs, names)


class _ImecCache:
    """Memoises I-MEC sizes per (true graph, target set); suites reuse few graphs."""

    def __init__(self) -> None:
        self._sizes: dict[tuple[Any, ...], int | None] = {}

    def size(self, graph: CausalGraph, targets: frozenset[str], graph_key: Any = None) -> int | None:
        key = (graph_key if graph_key is not None else (graph.nodes, graph.pairs), targets)
        if key not in self._sizes:
            try:
                self._sizes[key] = imec_size(graph, [[t] for t in sorted(targets)])
            except CausalCheckError:
                self._sizes[key] = None
        return self._sizes[key]


_CACHE = _ImecCache()


# --------------------------------------------------------------------------- scoring


MAX_LAB_VALUE = 1e12
"""Largest magnitude of a reactor value read from a file, and of a predicted frequency that is
scored: beyond it sums and means of the scores could overflow to ``inf``."""


def _lab_value(field_name: str, value: float) -> float:
    """*value*, read from the episode's file as *field_name*, if finite and within ±MAX_LAB_VALUE (the caller names the file)."""
    if not math.isfinite(value) or abs(value) > MAX_LAB_VALUE:
        raise InputFormatError(f"{field_name}={value!r} must be a finite number within ±{MAX_LAB_VALUE:g}")
    return value


def _reactor_props(ep: EpisodeRecord) -> dict[str, float]:
    return {k: _lab_value(f"reactor.props[{k!r}]", v) for k, v in (ep.reactor_props or {}).items()}


def _bounded(formula: M.FormulaResult) -> M.FormulaResult:
    """*formula* with a prediction beyond ±MAX_LAB_VALUE treated like a non-finite one (not evaluated)."""
    if formula.predicted is None or abs(formula.predicted) <= MAX_LAB_VALUE:
        return formula
    reason = f"the predicted frequency {formula.predicted:g} is beyond ±{MAX_LAB_VALUE:g}"
    return M.FormulaResult(None, formula.target, None, None, formula.names, reason)


def score_episode(
    ep: EpisodeRecord, *, coefficient_tolerance: float = 1e-6, audit: bool = True, solver_checks: bool = True
) -> EpisodeScore:
    """Score one loaded episode (content problems become warnings).

    *audit* runs :func:`~causalcheck.lab.audit.audit_episode`; *solver_checks* lets it call
    the core's exact data-consistency solver when the arithmetic check finds a contradiction.
    Raises :class:`~causalcheck.base.errors.InputFormatError` only for an episode without a usable
    true graph config (records without an environment cannot be scored) or with a reactor value
    that is not finite or beyond ±:data:`MAX_LAB_VALUE`.
    """
    config = ep.require_config()
    against = _truth_metrics(config, coefficient_tolerance)
    walk = _walk_steps(ep, against)
    final = _final_metrics(ep, against, walk)
    audit_json: dict[str, Any] = {}
    if audit:
        report = audit_episode(ep, solver_checks=solver_checks)
        final.update(
            interventions_unused=report.meta.get("interventions_unused"),
            submissions_unused=report.meta.get("submissions_unused"),
            audit_errors=len(report.errors),
        )
        audit_json = report.to_json()
    return EpisodeScore(
        ep.source, ep.kind, ep.suite, ep.graph_id, ep.experiment_id, ep.seed, final, tuple(walk.steps), audit_json,
        tuple(walk.warnings), ep.agent, ep.model,
    )


_Metrics = tuple[M.PRF, M.PRF, M.PRF, M.SHD, M.PRF]  # edge, parent, root, SHD, coefficient


class _TruthMetrics:
    """An episode's true graph and the metrics of hypotheses against it, each distinct edge set and coefficient map computed once."""

    def __init__(self, config: Mapping[str, Any], coefficient_tolerance: float) -> None:
        self.config = config
        self.tolerance = coefficient_tolerance
        self.truth = truth = _true_graph(config)
        self.true_pairs = truth.pairs
        self.graph_key = (truth.nodes, truth.pairs)
        self.true_pairs_n = M.normalize_pairs(truth.pairs)  # as M.shd normalises them
        self.coeff_truth = M.true_coefficients(config)
        self.true_parents = {q for q in truth.pairs if q[1] == FREQ}
        self.true_roots = M.roots_upstream_of(truth.pairs)
        self.known = set(truth.nodes) | {FREQ}
        self._edges: dict[frozenset[tuple[str, str]], tuple[M.PRF, M.PRF, M.PRF, M.SHD]] = {}
        self._coefficients: dict[tuple[tuple[str, str], ...], M.PRF] = {}

    def of(self, pairs: frozenset[tuple[str, str]], coeffs: Mapping[str, float | None]) -> _Metrics:
        # the edge metrics depend on the pairs only, the coefficient metric on the coefficients only
        edge_metrics = self._edges.get(pairs)
        if edge_metrics is None:
            edge_metrics = self._edges[pairs] = (
                M.set_prf(pairs, self.true_pairs),
                M.set_prf({q for q in pairs if q[1] == FREQ}, self.true_parents),
                M.set_prf(M.roots_normalized(pairs, FREQ), self.true_roots),
                M.shd_normalized(pairs, self.true_pairs_n),
            )
        ckey = tuple(sorted([(str(k), repr(v)) for k, v in coeffs.items()]))
        c = self._coefficients.get(ckey)
        if c is None:
            c = self._coefficients[ckey] = M.coefficient_prf(coeffs, self.config, self.tolerance, truth=self.coeff_truth)
        return (*edge_metrics, c)

    def imec_size(self, targets: frozenset[str]) -> int | None:
        return _CACHE.size(self.truth, targets, self.graph_key)


#: The truth metrics of the configs scored so far, by ``id`` of the config (kept alive by the
#: entry, so the id is not reused) and tolerance: the episodes of one graph share their config
#: value (:func:`causalcheck.episodes.load_run_folder` checks each distinct one once), and so
#: their memoised metrics.
_TRUTHS: dict[tuple[int, float], _TruthMetrics] = {}
_TRUTHS_MAX = 1024


def _truth_metrics(config: Mapping[str, Any], coefficient_tolerance: float) -> _TruthMetrics:
    """The :class:`_TruthMetrics` of *config*, built once per config value."""
    key = (id(config), coefficient_tolerance)
    got = _TRUTHS.get(key)
    if got is not None and got.config is config:
        return got
    if len(_TRUTHS) >= _TRUTHS_MAX:
        _TRUTHS.clear()
    got = _TRUTHS[key] = _TruthMetrics(config, coefficient_tolerance)
    return got


@dataclass
class _Walk:
    """The steps scored in order: their rows, the warnings so far, the hypothesis in force and the targets intervened on."""

    steps: list[StepScore]
    warnings: list[Notice]
    current: tuple[frozenset[tuple[str, str]], str, Mapping[str, float | None]]
    current_step: int | None
    targets: set[str]


def _walk_steps(ep: EpisodeRecord, against: _TruthMetrics) -> _Walk:
    """Score the hypothesis in force after every step (carried forward) and the I-MEC size of the targets so far."""
    known = against.known
    walk = _Walk([], list(ep.warnings), (frozenset(), "", {}), None, set())
    unknown: set[str] = set()
    current_hyp: Hypothesis | None = None
    current_metrics = against.of(walk.current[0], walk.current[2])
    n_targets = -1
    sorted_targets: tuple[str, ...] = ()
    size: int | None = None
    for st in ep.steps:
        number = st.number(SCORE_NUMBERING)
        if isinstance(st.record, Unparsed):
            walk.warnings.append(Notice(st.record.summary, "unparsed-step"))
        rec = st.parsed
        hyp = nonempty_hypothesis(rec)
        if rec is not None and hyp is not None:
            lost = [w for w in dropped_content(rec.warnings) if w.field == "hypothesis"] if rec.warnings else ()
            walk.warnings.extend(Notice(f"step {number}: {w}", "hypothesis-content-dropped") for w in lost)
            if hyp is not current_hyp:  # the episode reader shares a restated hypothesis: scored once
                pairs = hyp.graph.pairs  # normalised by the parser, as metrics.normalize_pairs would
                unknown.update({n for pair in pairs for n in pair} - known)
                walk.current = (pairs, hyp.equation, hyp.coefficients)
                current_metrics = against.of(pairs, hyp.coefficients)
                current_hyp = hyp
            walk.current_step = number
        if st.intervention is not None:
            if st.intervention[0] in known:
                walk.targets.add(st.intervention[0])
            else:
                walk.warnings.append(Notice(f"step {number}: intervention on unknown node {st.intervention[0]!r}", "unknown-intervention-node"))
        e, p, r, s, c = current_metrics
        if len(walk.targets) != n_targets:  # the target set only grows: unchanged size, same I-MEC
            n_targets = len(walk.targets)
            frozen_targets = frozenset(walk.targets)
            sorted_targets = tuple(sorted(frozen_targets))
            size = against.imec_size(frozen_targets)
        walk.steps.append(StepScore(number, walk.current_step, e, p, r, c, s, sorted_targets, size))
    if unknown:
        named = ", ".join(f"{n!r}{did_you_mean(n, known)}" for n in sorted(unknown))
        walk.warnings.append(Notice(
            f"hypothesis names node(s) {named} that are not in the true graph {sorted(known)!r} (scored as wrong nodes)", "unknown-nodes"
        ))
    return walk


def _final_metrics(ep: EpisodeRecord, against: _TruthMetrics, walk: _Walk) -> dict[str, Any]:
    """The final row: task accuracy, the last hypothesis' metrics, the formula error, MEC / I-MEC sizes and budget use."""
    pairs, eq, coeffs = walk.current
    steps, true_pairs = walk.steps, against.true_pairs
    final: dict[str, Any] = {"task_accuracy": None if ep.success is None else (1.0 if ep.success else 0.0)}
    if steps:
        last = steps[-1]
        e, p, r, c, s = last.edge, last.parent, last.root, last.coefficient, last.shd
    else:
        e = M.set_prf(pairs, true_pairs)
        p = M.parent_prf(pairs, true_pairs)
        r = M.root_prf(pairs, true_pairs)
        c = M.coefficient_prf(coeffs, against.config, against.tolerance, truth=against.coeff_truth)
        s = M.shd(pairs, true_pairs)
    final.update(
        hypothesis_step=walk.current_step,
        edge_precision=e.precision,
        edge_recall=e.recall,
        edge_f1=e.f1,
        parent_precision=p.precision,
        parent_recall=p.recall,
        parent_f1=p.f1,
        root_precision=r.precision,
        root_recall=r.recall,
        root_f1=r.f1,
        coefficient_precision=c.precision,
        coefficient_recall=c.recall,
        coefficient_f1=c.f1,
        shd=s.total,
        shd_missing=s.missing,
        shd_extra=s.extra,
        shd_reversed=s.reversed,
    )
    formula: M.FormulaResult | None = None
    if ep.target_freq is not None and ep.reactor_props is not None:
        formula = _bounded(M.formula_error(eq, _reactor_props(ep), _lab_value("reactor.target_freq", ep.target_freq), coeffs))
    final.update(
        target_freq=ep.target_freq,
        formula_predicted=None if formula is None else formula.predicted,
        formula_abs_error=None if formula is None else formula.abs_error,
        formula_hit=None if formula is None or formula.hit is None else float(formula.hit),
        formula_reason=None if formula is None else formula.reason,
        submitted=next((s.submission for s in reversed(ep.steps) if s.submission is not None), None),
        mec_size=against.imec_size(frozenset()),
        imec_size=steps[-1].imec_size if steps else against.imec_size(frozenset()),
        interventions_used=sum(1 for s in ep.steps if s.intervention is not None),
        distinct_targets=len(walk.targets),
        steps=len(ep.steps),
    )
    return final


def rollup(
    episodes: Sequence[EpisodeScore], by: str, *, resamples: int = 1000, seed: int = 0
) -> tuple[dict[str, Any], ...]:
    """Group *episodes* by ``"graph"`` (suite, agent, model, experiment_id) or ``"suite"`` (suite,
    agent, model); mean + bootstrap CI per metric.  Different agents or models are never
    averaged together."""
    if by not in ("graph", "suite"):
        raise CausalCheckError(f"by={by!r} must be 'graph' or 'suite'")
    groups: dict[tuple[str, ...], list[EpisodeScore]] = {}
    for ep in episodes:
        key: tuple[str, ...] = (ep.suite, ep.agent, ep.model)
        if by == "graph":
            key += (ep.experiment_id,)
        groups.setdefault(key, []).append(ep)
    out: list[dict[str, Any]] = []
    # the interval depends on the values, resamples and seed only: groups and metrics with the
    # same values (constant columns, repeated graphs) share one bootstrap
    intervals: dict[tuple[Any, ...], dict[str, Any]] = {}
    boot = _Bootstrap(resamples, seed)
    for key in sorted(groups):
        members = groups[key]
        row: dict[str, Any] = {"suite": key[0], "agent": key[1], "model": key[2]}
        if by == "graph":
            row["experiment_id"] = key[3]
        row["episodes"] = len(members)
        for metric in ROLLUP_KEYS:
            vals = [ep.final.get(metric) for ep in members]
            nums = [float(v) for v in vals if isinstance(v, (int, float)) and not isinstance(v, bool)]
            memo_key: tuple[Any, ...] = tuple(nums)
            if 0.0 in memo_key:  # -0.0 == 0.0 but prints differently: tell them apart
                memo_key += tuple(math.copysign(1.0, v) for v in nums if v == 0)
            ci_json = intervals.get(memo_key)
            if ci_json is None:
                ci_json = intervals[memo_key] = boot.ci(nums)
            row[metric] = dict(ci_json)
        out.append(row)
    return tuple(out)


class _Bootstrap:
    """:func:`causalcheck.metrics.bootstrap_ci` of many value lists with one resample count and seed, as JSON."""

    def __init__(self, resamples: int, seed: int) -> None:
        self.resamples, self.seed = resamples, seed

    def ci(self, nums: list[float]) -> dict[str, Any]:
        return M.bootstrap_ci(nums, resamples=self.resamples, seed=self.seed).to_json()


_STEP_KEYS = ("edge_f1", "parent_f1", "root_f1", "coefficient_f1", "shd", "imec_size")


def step_curves(episodes: Sequence[EpisodeScore]) -> tuple[dict[str, Any], ...]:
    """Per suite, agent, model and step, the mean of the per-step metrics over episodes.

    Like the official visualiser's averaged curves, an episode that ended earlier contributes
    its last step's values (carried forward) up to the longest episode of its group.
    """
    suites: dict[tuple[str, str, str], list[EpisodeScore]] = {}
    for ep in episodes:
        if ep.steps:
            suites.setdefault((ep.suite, ep.agent, ep.model), []).append(ep)
    out: list[dict[str, Any]] = []
    for key in sorted(suites):
        members = suites[key]
        longest = max(len(ep.steps) for ep in members)
        suite, agent, model = key
        for k in range(longest):
            row: dict[str, Any] = {
                "suite": suite,
                "agent": agent,
                "model": model,
                "step": k + 1,
                "running": sum(1 for ep in members if len(ep.steps) > k),
            }
            rows = [ep.steps[min(k, len(ep.steps) - 1)].row() for ep in members]
            for metric in _STEP_KEYS:
                vals = [r[metric] for r in rows if r[metric] is not None]
                row[metric] = sum(vals) / len(vals) if vals else None
            out.append(row)
    return tuple(out)


def _entry(path: Path | str, kind: str, status: str, **extra: Any) -> dict[str, Any]:
    return {"path": str(path), "kind": kind, "status": status, **extra}


def _internal(exc: BaseException) -> str:
    """The failure reason for a bug hit while reading or scoring one episode (type, message, where)."""
    import traceback

    tb = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
    return f"internal error (a bug in causalcheck, please report it): {type(exc).__name__}: {exc}{where}"


def _first_line(text: str) -> str:
    return (text.splitlines() or [""])[0]


def _file_facts(path: Path) -> dict[str, Any]:
    """SHA-256 and size of a regular file (``None`` when it cannot be read)."""
    import stat

    try:
        st = path.stat()
        if stat.S_ISREG(st.st_mode):
            return {"sha256": sha256_file(path), "bytes": st.st_size}
    except OSError:
        pass
    return {"sha256": None, "bytes": None}


@fewer_collections()  # millions of small objects that live to the report: see causalcheck.base.gcpace
def score_paths(
    paths: Iterable[str | Path],
    *,
    resamples: int = 1000,
    seed: int = 0,
    coefficient_tolerance: float = 1e-6,
    audit: bool = True,
    solver_checks: bool = True,
    merge_identical: bool = False,
    provenance: Mapping[str, Any] | None = None,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
) -> ScoreReport:
    """Discover, load and score every episode under *paths*; failures are collected, not raised.

    One input reached twice (a path given twice, or inside another path given) is counted once.
    Two episodes at different paths with identical content (a deterministic agent on one config
    produces exactly that) are both counted, as the official re-evaluation counts them; the
    later one's manifest entry names the first (``identical_to``) and the report lists them
    (:attr:`ScoreReport.identical`).  *merge_identical* counts such copies once instead.

    The report's ``inputs`` is the manifest of everything found: per episode (or file that is
    not one) ``path``, ``kind``, ``status`` — ``scored``, ``failed`` (with ``reason``),
    ``duplicate`` (an input reached twice, or with *merge_identical* the same content as an
    earlier input; ``duplicate_of``; counted once) or
    ``skipped`` (not an episode, with ``reason``) — and ``sha256`` / ``bytes`` (for a seed
    folder: a digest over its files' hashes and their total size, the files listed under
    ``files``).  Every scored episode carries the warnings of its reader (step lines removed,
    unparseable steps, ...).

    *workers* > 1 loads and scores the episodes in that many processes
    (:func:`causalcheck.base.pool.ordered_map`); the answers are folded in discovery order, so
    the report is the same for every number of workers.  A worker that dies while scoring
    (killed, out of memory) fails the episodes it held, named, as bugs (exit 70).  *progress*
    hears ``(episodes done, episodes to do)`` as the work goes on.  *executor* (default: the
    local one of *workers*) runs the jobs elsewhere, e.g. as Ray tasks
    (:mod:`causalcheck.base.ray_executor`): the report is the same; its workers read the inputs
    from this process's working folder, so on a cluster of several machines the inputs must be on a
    shared file system at the same paths.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputFormatError(f"workers={workers!r} must be a positive integer")
    found_all = [(found, os.path.realpath(found.path)) for found in discover_inputs(list(paths))]
    taken: set[str] = set()
    todo: list[tuple[str, DiscoveredKind]] = []  # the inputs to load, in order (as _Batch.settled decides)
    for found, real in found_all:
        if real not in taken and found.kind not in ("skipped", "failed", "missing"):
            todo.append((str(found.path), cast("DiscoveredKind", found.kind)))
        taken.add(real)
    outcomes = iter(_score_all(todo, _Options(coefficient_tolerance, audit, solver_checks), workers, progress, executor))
    batch = _Batch(merge_identical=merge_identical)
    for found, real in found_all:  # the accounting, in discovery order whatever the workers
        if not batch.settled(found, real):
            batch.fold(found, next(outcomes))
    episodes = batch.episodes
    return ScoreReport(
        tuple(episodes),
        tuple(batch.failures),
        rollup(episodes, "graph", resamples=resamples, seed=seed),
        rollup(episodes, "suite", resamples=resamples, seed=seed),
        {"bootstrap": resamples, "seed": seed, "coefficient_tolerance": coefficient_tolerance, "audit": audit,
         "solver_checks": solver_checks, **({"merge_identical": True} if merge_identical else {})},
        step_curves(episodes),
        tuple(batch.manifest),
        dict(provenance or {}),
        batch.internal,
    )


@dataclass(frozen=True)
class _Options:
    """The scoring options a worker needs (pickled with each job)."""

    coefficient_tolerance: float
    audit: bool
    solver_checks: bool


@dataclass(frozen=True)
class _Outcome:
    """One input loaded and scored (in a worker): the manifest facts, and the score or why there is none."""

    facts: Mapping[str, Any]
    key: str = ""
    warnings: int = 0
    score: EpisodeScore | None = None
    #: Why the input could not be loaded (``loaded`` is then false) or scored; *internal*: a bug.
    reason: str = ""
    loaded: bool = True
    internal: bool = False


def _load_and_score(path: Path, kind: DiscoveredKind, options: _Options) -> _Outcome:
    """Load one discovered episode and score it; every exception becomes the outcome's reason."""
    try:
        ep = load_episode(kind, path)
    except Exception as exc:  # CausalCheckError: bad input; anything else: a bug, named
        internal = not isinstance(exc, CausalCheckError)
        failed = _file_facts(path) if kind == "trajectory" else {"sha256": None, "bytes": None}
        return _Outcome(failed, reason=_internal(exc) if internal else str(exc), loaded=False, internal=internal)
    facts: dict[str, Any] = {"sha256": ep.content_key, "bytes": sum(f.bytes for f in ep.inputs)}
    if kind == "trajectory" and len(ep.inputs) == 1:
        facts["sha256"] = ep.inputs[0].sha256
    else:
        facts["files"] = [f.to_json() for f in ep.inputs]
    warnings = len(ep.warnings)
    try:
        score = score_episode(ep, coefficient_tolerance=options.coefficient_tolerance, audit=options.audit,
                              solver_checks=options.solver_checks)
    except CausalCheckError as exc:
        return _Outcome(facts, ep.content_key, warnings, reason=str(exc))
    except Exception as exc:  # a bug in causalcheck: name the episode, keep the rest of the batch
        return _Outcome(facts, ep.content_key, warnings, reason=_internal(exc), internal=True)
    return _Outcome(facts, ep.content_key, warnings, score)


def _score_chunk(job: tuple[list[tuple[str, DiscoveredKind]], _Options, str | None]) -> list[_Outcome]:
    """A worker's job: load and score a run of consecutive inputs (from the caller's working folder, when given)."""
    items, options, here = job
    if here is None or here == os.getcwd():
        return [_load_and_score(Path(path), kind, options) for path, kind in items]
    before = os.getcwd()
    os.chdir(here)  # a Ray worker runs one task at a time: no other job sees the change
    try:
        return [_load_and_score(Path(path), kind, options) for path, kind in items]
    finally:
        os.chdir(before)


def _score_all(
    items: list[tuple[str, DiscoveredKind]], options: _Options, workers: int, progress: Callable[[int, int], None] | None,
    executor: Executor | None = None,
) -> list[_Outcome]:
    """The outcome of every item, in order, computed by *workers* processes (or *executor*) in chunks."""
    # late: the pool is needed only here
    from causalcheck.base.pool import ordered_map

    size = 1 if workers == 1 else max(1, min(16, len(items) // (8 * workers)))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    # a worker elsewhere (Ray) has another working folder: its jobs carry this one, so the inputs
    # are read, and named in the report, exactly as here
    here = None if executor is None or executor.shares_files else os.getcwd()
    total = len(items)

    def heard(done: int) -> None:
        if progress is not None:
            progress(min(done * size, total), total)

    answers = ordered_map(_score_chunk, [(c, options, here) for c in chunks], workers, on_answer=heard, executor=executor)
    out: list[_Outcome] = []
    for chunk, answer in zip(chunks, answers, strict=True):
        if isinstance(answer, WorkerDied):
            why = f"internal error (a bug in causalcheck, please report it): {answer}"
            out.extend(_Outcome({"sha256": None, "bytes": None}, reason=why, loaded=False, internal=True) for _ in chunk)
        else:
            out.extend(answer)
    return out


@dataclass
class _Batch:
    """What :func:`score_paths` found so far: scored episodes, failures, the manifest, content keys seen, bugs hit."""

    episodes: list[EpisodeScore] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    manifest: list[dict[str, Any]] = field(default_factory=list)
    seen: dict[str, str] = field(default_factory=dict)
    internal: int = 0
    merge_identical: bool = False
    #: The resolved paths taken so far: an input reached twice is counted once.
    taken: dict[str, str] = field(default_factory=dict)

    def settled(self, found: Discovered, real: str) -> bool:
        """Account for an input that needs no loading (reached twice, skipped, failed); ``False``: load it.

        *real* is the input's resolved path (an input reached twice is counted once)."""
        path, kind, reason = found.path, found.kind, found.reason
        if real in self.taken:
            first = self.taken[real]
            self.manifest.append(_entry(path, kind, "duplicate", duplicate_of=first, reason=f"the same input as {first}; counted once"))
            return True
        self.taken[real] = str(path)
        if kind == "skipped":
            self.manifest.append(_entry(path, "", "skipped", reason=reason, **_file_facts(path)))
            return True
        if kind == "failed" or kind == "missing":
            self.failures.append(Failure(str(path), reason))
            self.manifest.append(_entry(path, "", "failed", reason=reason, **_file_facts(path)))
            return True
        return False

    def fold(self, found: Discovered, got: _Outcome) -> None:
        """Account for a loaded (or unloadable) input's outcome."""
        path, kind = found.path, found.kind
        facts = dict(got.facts)
        if not got.loaded:
            self.internal += got.internal
            self.failures.append(Failure(str(path), got.reason))
            self.manifest.append(_entry(path, kind, "failed", reason=_first_line(got.reason), **facts))
            return
        first = self.seen.setdefault(got.key, str(path))
        if first != str(path):
            if self.merge_identical:
                reason = f"the same content as {first}; counted once (merge_identical)"
                self.manifest.append(_entry(path, kind, "duplicate", duplicate_of=first, reason=reason, **facts))
                return
            facts["identical_to"] = first
            facts["reason"] = f"the same content as {first}; both counted, as the official re-evaluation counts them"
        if got.score is None:
            self.internal += got.internal
            self.failures.append(Failure(str(path), got.reason))
            self.manifest.append(_entry(path, kind, "failed", reason=got.reason if got.internal else _first_line(got.reason), **facts))
            return
        self.episodes.append(got.score)
        self.manifest.append(_entry(path, kind, "scored", **facts, **({"warnings": got.warnings} if got.warnings else {})))


# --------------------------------------------------------------------------- outputs

_CSV_FIELDS = (
    "source",
    "suite",
    "agent",
    "model",
    "experiment_id",
    "seed",
    *ROLLUP_KEYS[: ROLLUP_KEYS.index("formula_abs_error")],
    "target_freq",
    "formula_predicted",
    *ROLLUP_KEYS[ROLLUP_KEYS.index("formula_abs_error") : ROLLUP_KEYS.index("audit_errors")],
    "submissions_unused",
    "audit_errors",
)

#: Every file :func:`write_outputs` may write, by format (a rescoring removes the ones it
#: does not write this time, so no stale result stays beside the new ones).
OUTPUT_FILES = {"json": ("scores.json",), "csv": ("episodes.csv", "steps.csv", "inputs.csv"), "md": ("summary.md",)}


def episodes_csv(report: ScoreReport) -> str:
    """One row per scored episode with the final metrics (text cells that start like a spreadsheet
    formula get a leading ``'``: :func:`causalcheck.base.escape.csv_cell`, as in every CSV written here)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(_CSV_FIELDS), extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for row in report.rows("episodes"):
        w.writerow(csv_row(row))
    return buf.getvalue()


def steps_csv(report: ScoreReport) -> str:
    """One row per (episode, step) with the per-step metrics."""
    buf = io.StringIO()
    fields = ["source", "agent", "model", "experiment_id", "seed", "step", "hypothesis_step", "edge_precision",
              "edge_recall", "edge_f1", "parent_f1", "root_f1", "coefficient_f1", "shd", "targets", "imec_size"]
    w = csv.DictWriter(buf, fieldnames=fields, lineterminator="\n")
    w.writeheader()
    for row in report.rows("steps"):
        w.writerow(csv_row(row))
    return buf.getvalue()


def inputs_csv(report: ScoreReport) -> str:
    """The manifest: one row per input found (path, kind, status, sha256, bytes, reason)."""
    buf = io.StringIO()
    fields = ["path", "kind", "status", "sha256", "bytes", "reason"]
    w = csv.DictWriter(buf, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for entry in report.inputs:
        w.writerow(csv_row(entry))
    return buf.getvalue()


def _fmt(ci: Mapping[str, Any]) -> str:
    mean = ci.get("mean")
    if mean is None:
        return "–"
    text = f"{mean:.3f}" if abs(mean) < 1000 else f"{mean:.4g}"
    if ci.get("low") is not None:
        text += f" [{ci['low']:.3f}, {ci['high']:.3f}]"
    return text


_MD_MAX_STEPS = 40
_MD_COLS = ("task_accuracy", "edge_f1", "parent_f1", "root_f1", "coefficient_f1", "shd", "formula_abs_error", "imec_size", "interventions_unused", "audit_errors")


def _markdown_table(rows: Sequence[Mapping[str, Any]], keys: Sequence[str]) -> list[str]:
    lines = ["| " + " | ".join([*keys, "n", *_MD_COLS]) + " |", "|" + "---|" * (len(keys) + 1 + len(_MD_COLS))]
    for row in rows:
        cells = [markdown_cell(str(row[k])) or "–" for k in keys] + [str(row["episodes"])] + [_fmt(row[c]) for c in _MD_COLS]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def warning_counts(report: ScoreReport) -> list[tuple[str, int, str]]:
    """``(code, episodes, first example)`` of every warning code the scored episodes carry, most
    frequent first: what ``lab score`` counts on stderr and in ``summary.md``."""
    counts: dict[str, int] = {}
    first: dict[str, str] = {}
    for ep in report.episodes:
        for code in dict.fromkeys(w.code for w in ep.warnings if w.code):
            counts[code] = counts.get(code, 0) + 1
            if code not in first:
                example = next(str(w) for w in ep.warnings if w.code == code)
                first[code] = f"{ep.source}: {example}"
    return sorted(((c, n, first[c]) for c, n in counts.items()), key=lambda t: (-t[1], t[0]))


def suite_table(report: ScoreReport) -> str:
    """The per-suite Markdown table of :func:`summary_markdown` alone (what ``lab score --out`` prints)."""
    return "\n".join(_markdown_table(report.by_suite, ("suite", "agent", "model"))) + "\n"


def summary_markdown(report: ScoreReport) -> str:
    """Markdown tables: per suite, per graph, per step, the inputs not scored, and the provenance."""
    lines = ["# Lab scores", ""]
    groups = ("suite", "agent", "model")
    for title, rows, keys in (("Per suite", report.by_suite, groups), ("Per graph", report.by_graph, (*groups, "experiment_id"))):
        lines += [f"## {title}", "", *_markdown_table(rows, keys), ""]
    if report.by_step:
        lines += ["## Per step (means; finished episodes carried forward)", "",
                  "| suite | agent | model | step | running | " + " | ".join(_STEP_KEYS) + " |", "|" + "---|" * (5 + len(_STEP_KEYS))]
        for row in report.by_step:
            if row["step"] > _MD_MAX_STEPS:
                continue
            cells = [markdown_cell(str(row[k])) or "–" for k in ("suite", "agent", "model")]
            cells += [str(row["step"]), str(row["running"])]
            cells += ["–" if row[k] is None else f"{row[k]:.3f}" for k in _STEP_KEYS]
            lines.append("| " + " | ".join(cells) + " |")
        if any(row["step"] > _MD_MAX_STEPS for row in report.by_step):
            lines.append(f"\n(steps after {_MD_MAX_STEPS} are in scores.json `by_step`)")
        lines.append("")
    opts = report.options
    if opts.get("bootstrap"):
        lines.append(f"Means with {opts.get('bootstrap')}-resample percentile bootstrap 95% intervals (seed {opts.get('seed')}); "
                     f"a mean of fewer than {M.MIN_BOOTSTRAP_N} values (column n) has no interval: too few to resample.")
    else:
        lines.append("Means (no bootstrap intervals requested).")
    if report.failures:
        lines += ["", "## Not scored", ""]
        lines += [f"- {markdown_code(f.source)}: {markdown_text((f.reason.splitlines() or [''])[0])}" for f in report.failures]
    for title, entries, said in (
        ("Duplicates (counted once)", report.duplicates, "reason"),
        ("Identical episodes (each counted, as the official re-evaluation does)", report.identical, "identical_to"),
        ("Skipped (not episodes)", report.skipped, "reason"),
    ):
        if entries:
            lines += ["", f"## {title}", ""]
            lines += [f"- {markdown_code(str(d['path']))}: "
                      + (f"the same content as {markdown_code(str(d[said]))}" if said == "identical_to" else markdown_text(str(d[said])))
                      for d in entries]
    warned = warning_counts(report)
    if warned:
        lines += ["", "## Warnings (episodes scored with a problem)", ""]
        lines += [f"- {markdown_code(code)} ({markdown_text(SCORE_WARNING_CODES.get(code, ''))}): {n} episode(s); "
                  f"e.g. {markdown_text(example)}" for code, n, example in warned]
    counts: dict[str, int] = {}
    for entry in report.inputs:
        counts[str(entry.get("status"))] = counts.get(str(entry.get("status")), 0) + 1
    lines += ["", "## Inputs", "", ", ".join(f"{n} {k}" for k, n in sorted(counts.items())) or "none",
              "(every input with its SHA-256 in scores.json `provenance.inputs` / inputs.csv)"]
    prov = report.provenance
    if prov:
        version, command, started = (markdown_text(str(prov.get(k))) for k in ("version", "command", "started"))
        lines += ["", f"Written by causalcheck {version} ({command}) at {started}."]
    return "\n".join(lines) + "\n"


def write_outputs(report: ScoreReport, out_dir: str | Path, formats: Sequence[str] = ("json", "csv", "md")) -> tuple[list[Path], list[Path]]:
    """Write ``scores.json``, ``episodes.csv`` + ``steps.csv`` + ``inputs.csv``, ``summary.md`` (as
    selected), each atomically; returns ``(written, removed)`` — *removed* are result files of an
    earlier scoring (:data:`OUTPUT_FILES`) that this one did not write, deleted so that no stale
    result stays beside the new ones.  The caller holds the folder's :class:`~causalcheck.base.files.RunLock`."""
    out = Path(out_dir)
    written: list[Path] = []
    if "json" in formats:
        p = out / "scores.json"
        # compact: the C encoder (an indented dump runs the pure-Python encoder, ~10x slower);
        # strict: NaN / Infinity are not JSON (causalcheck.base.safejson refuses to read them back)
        atomic_write_text(p, json.dumps(report.to_json(), ensure_ascii=False, allow_nan=False, default=str, separators=(",", ":")) + "\n")
        written.append(p)
    if "csv" in formats:
        for name, text in (("episodes.csv", episodes_csv(report)), ("steps.csv", steps_csv(report)), ("inputs.csv", inputs_csv(report))):
            p = out / name
            atomic_write_text(p, text)
            written.append(p)
    if "md" in formats:
        p = out / "summary.md"
        atomic_write_text(p, summary_markdown(report))
        written.append(p)
    removed: list[Path] = []
    for fmt, names in OUTPUT_FILES.items():
        if fmt in formats:
            continue
        for name in names:
            stale = out / name
            if stale.is_file():
                stale.unlink()
                removed.append(stale)
    return written, removed
