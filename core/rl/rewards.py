"""Rewards from the verifier: separately weighted terms, all offline and deterministic.

Every term is computed from the episode and the agent's records alone — no model, no
network — by causalcheck's own checkers, and every term has a fixed range:

============== ============ =========================================================================
term           range        what it measures (when it is non-zero)
============== ============ =========================================================================
success        {0, 1}       the reactor verdict: 1 on the step that activates the reactor
edge_f1        [0, 1]       all-edge F1 of the final hypothesis (:func:`causalcheck.metrics.set_prf`), last step
parent_f1      [0, 1]       frequency-parent F1 of the final hypothesis, last step
coefficient_f1 [0, 1]       coefficient F1 (:func:`causalcheck.metrics.coefficient_prf`), last step
shd            [-1, 0]      minus the SHD of the final hypothesis over the number of node pairs, last step
consistency    {-1, 0}      −1 on every step whose hypothesis in force is refuted by the data the
                            environment has shown so far, or cannot be evaluated on some of it
                            (:func:`causalcheck.solvers.data_consistency.data_consistency`: z3 /
                            exact rational arithmetic; the minimal conflicting points go to
                            ``info["reward_details"]["conflicting"]``)
info_gain      [0, 1]       what an accepted intervention taught: the drop in the I-MEC size of the true
                            graph (:func:`causalcheck.solvers.equivalence.imec_size`, the sizes ``lab
                            score`` reports), ``log(before / after) / log(MEC size)``
format         {-1, 0}      −1 on a step whose reply was not a usable step record (a *degraded* step),
                            and in the Gymnasium env on a step whose action the episode refused
                            (a property that does not exist, a budget spent)
premature_stop [-1, 0]      on an ``SUBMIT`` that ends the episode without activating the reactor: minus
                            the share of reactor submissions left unused
============== ============ =========================================================================

"The final hypothesis" is the last non-empty one (causalab-spec §4.1), as ``lab score``
takes it; its metrics are the ones ``lab score`` reports (the same functions, the same
parser).  The reward of a step is ``sum(weight[t] * term[t])`` (:meth:`RewardWeights.combine`).
Presets (:data:`PRESETS`): ``"dense"`` (the default) weighs every term; ``"paper"`` is the
sparse reward of the published CausaLab metric, task accuracy: 1 when the reactor is activated,
nothing else — summed over an episode it equals ``lab score``'s ``task_accuracy``, and the
mechanism terms (reported in ``info`` under every preset) equal its ``edge_f1``, ``parent_f1``,
``coefficient_f1`` and ``shd``.

Terms whose weight is 0 are not computed per step (the consistency check is the only costly
one); the last step's mechanism terms are always computed, for ``info``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from types import MappingProxyType
from typing import Any

from causalcheck import metrics as M
from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.graph import FREQ, CausalGraph
from causalcheck.parsing import parse_record_obj
from causalcheck.records import DataPoint, Hypothesis
from causalcheck.solvers.data_consistency import data_consistency
from causalcheck.solvers.equivalence import imec_size

__all__ = [
    "PRESETS",
    "TERMS",
    "RewardTracker",
    "RewardWeights",
    "consistency_term",
    "format_term",
    "info_gain_term",
    "mechanism_terms",
    "premature_stop_term",
    "reward_weights",
    "success_term",
]

#: Every term → its range ``(low, high)``.
TERMS: Mapping[str, tuple[float, float]] = MappingProxyType({
    "success": (0.0, 1.0),
    "edge_f1": (0.0, 1.0),
    "parent_f1": (0.0, 1.0),
    "coefficient_f1": (0.0, 1.0),
    "shd": (-1.0, 0.0),
    "consistency": (-1.0, 0.0),
    "info_gain": (0.0, 1.0),
    "format": (-1.0, 0.0),
    "premature_stop": (-1.0, 0.0),
})

#: The finding code of :func:`data_consistency` that refutes a hypothesis.
REFUTING_CODES = frozenset({"data-mismatch"})
#: The finding code (at warning severity) of recorded points the hypothesis's equation cannot be
#: evaluated on (a division by zero, an overflow): it predicts nothing there, so those points
#: refute it too; a junk term never lifts a refuted hypothesis to "not refuted".
UNEVALUABLE_CODE = "data-not-checked"


@dataclass(frozen=True)
class RewardWeights:
    """One weight per term of :data:`TERMS` (any finite number; 0 switches a term off)."""

    success: float = 1.0
    edge_f1: float = 0.5
    parent_f1: float = 0.25
    coefficient_f1: float = 0.25
    shd: float = 0.25
    consistency: float = 0.1
    info_gain: float = 0.2
    format: float = 0.2
    premature_stop: float = 0.5

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise InputFormatError(f"reward weight {f.name}={v!r} must be a finite number")
        # term name -> weight, for combine() (not a field: equality and repr stay the weights')
        object.__setattr__(self, "_by_name", {name: getattr(self, name) for name in TERMS})

    def to_json(self) -> dict[str, float]:
        return {k: float(v) for k, v in asdict(self).items()}

    def combine(self, terms: Mapping[str, float]) -> float:
        """``sum(weight * term)`` over the terms present in *terms*."""
        by_name: dict[str, float] = self._by_name  # type: ignore[attr-defined]
        total: float = 0  # summed left to right from 0, as sum() does
        for name, value in terms.items():
            weight = by_name.get(name)
            if weight is not None:
                total += weight * value
        return float(total)


#: Named weightings: ``"dense"`` (every term) and ``"paper"`` (task success only, the published metric).
PRESETS: Mapping[str, RewardWeights] = MappingProxyType({
    "dense": RewardWeights(),
    "paper": RewardWeights(
        success=1.0, edge_f1=0.0, parent_f1=0.0, coefficient_f1=0.0, shd=0.0, consistency=0.0, info_gain=0.0,
        format=0.0, premature_stop=0.0,
    ),
})


def reward_weights(value: str | RewardWeights | Mapping[str, float] | None) -> RewardWeights:
    """The weights named by *value*: a preset name, a :class:`RewardWeights`, or a mapping of weights
    over the ``dense`` defaults (``None`` → ``dense``)."""
    if value is None:
        return PRESETS["dense"]
    if isinstance(value, RewardWeights):
        return value
    if isinstance(value, str):
        if value not in PRESETS:
            raise InputFormatError(f"rewards={value!r} must be one of {sorted(PRESETS)} or a mapping of weights")
        return PRESETS[value]
    if isinstance(value, Mapping):
        unknown = sorted(str(k) for k in value if k not in TERMS)
        if unknown:
            raise InputFormatError(f"reward weights {unknown!r} are not terms; terms are {list(TERMS)!r}")
        return RewardWeights(**{**PRESETS["dense"].to_json(), **dict(value)})
    raise InputFormatError(f"rewards={value!r:.80} must be a preset name, a RewardWeights or a mapping")


# ---------------------------------------------------------------------- the terms
def success_term(success: bool) -> float:
    """1.0 when the reactor was activated, else 0.0."""
    return 1.0 if success else 0.0


def format_term(degraded: bool) -> float:
    """−1.0 for a degraded step (its reply was not a usable step record), else 0.0."""
    return -1.0 if degraded else 0.0


def premature_stop_term(done_reason: str, success: bool, submissions_left: int, submissions: int) -> float:
    """Minus the share of reactor submissions left when the agent ends the episode without activating it.

    >>> premature_stop_term("agent-submitted", False, 3, 3), premature_stop_term("reactor-activated", True, 2, 3)
    (-1.0, 0.0)
    """
    if done_reason != "agent-submitted" or success or submissions <= 0:
        return 0.0
    return -min(1.0, max(0.0, submissions_left / submissions))


def info_gain_term(size_before: int | None, size_after: int | None, mec_size: int | None) -> float:
    """``log(before / after) / log(mec)``: the share of the MEC's uncertainty an intervention removed.

    0.0 when a size is unknown or the MEC holds one graph.

    >>> round(info_gain_term(8, 2, 8), 6)
    0.666667
    """
    if not size_before or not size_after or not mec_size or mec_size <= 1 or size_after >= size_before:
        return 0.0
    return min(1.0, math.log(size_before / size_after) / math.log(mec_size))


def mechanism_terms(
    pairs: Iterable[tuple[str, str]],
    coefficients: Mapping[str, float | None],
    true_pairs: Iterable[tuple[str, str]],
    config: Mapping[str, Any] | None,
    *,
    nodes: int,
    coefficient_tolerance: float = 1e-6,
    true_coefficients: Mapping[str, float] | None = None,
) -> tuple[dict[str, float], dict[str, Any]]:
    """The mechanism terms of a hypothesis (its edge *pairs* and *coefficients*) against the truth.

    Returns the terms (``edge_f1``, ``parent_f1``, ``coefficient_f1``, ``shd`` normalised by the
    ``nodes·(nodes−1)/2`` node pairs) and the raw metrics (``shd`` as a count).  Without the
    suite graph's *config* (the true coefficients) there is no ``coefficient_f1``.
    *true_coefficients* may pass :func:`causalcheck.metrics.true_coefficients` of *config* precomputed.
    """
    # normalised once (CausaLab names, as edge_prf / parent_prf / shd do each time), then the set forms
    pred, truth = M.normalize_pairs(pairs), M.normalize_pairs(true_pairs)
    e = M.set_prf(pred, truth)
    p = M.set_prf({x for x in pred if x[1] == FREQ}, {x for x in truth if x[1] == FREQ})
    s = M.shd_normalized(pred, truth).total
    span = max(1, nodes * (nodes - 1) // 2)
    terms = {"edge_f1": e.f1, "parent_f1": p.f1, "shd": 0.0 - min(1.0, s / span)}
    raw: dict[str, Any] = {"edge_f1": e.f1, "parent_f1": p.f1, "shd": s}
    if config is not None:
        terms["coefficient_f1"] = raw["coefficient_f1"] = M.coefficient_prf(coefficients, config, coefficient_tolerance, truth=true_coefficients).f1
    return terms, raw


def consistency_term(hypothesis: Hypothesis, points: Sequence[DataPoint], tolerance: float = 0.01) -> tuple[float, tuple[str, ...]]:
    """−1.0 and the minimal set of conflicting point ids when the data refute *hypothesis*, else ``(0.0, ())``.

    The ``data-mismatch`` question of :func:`data_consistency` (the stated coefficients, the free
    ones solved for); whether the form itself is refuted is not asked.  Points on which the
    equation cannot be evaluated (division by zero, overflow: :data:`UNEVALUABLE_CODE`) count as
    conflicting: an equation that predicts nothing for a point the environment showed does not
    reproduce it.
    """
    conflicting: list[str] = []
    for finding in data_consistency(hypothesis, points, tolerance, form_question=False):
        if (finding.code in REFUTING_CODES and finding.severity == "error") or (
            finding.code == UNEVALUABLE_CODE and finding.severity == "warning"
        ):
            conflicting.extend(e for e in finding.elements if e not in conflicting)
    return (-1.0 if conflicting else 0.0), tuple(conflicting)


# ---------------------------------------------------------------------- per episode
def _parse_hypothesis(raw: Any) -> Hypothesis | None:
    """The hypothesis of a record's ``hypothesis`` value as the episode reader parses it (``None`` when unusable)."""
    if not isinstance(raw, Mapping):
        return None
    try:
        rec = parse_record_obj({"hypothesis": raw})
    except (CausalCheckError, ValueError, RecursionError):
        return None
    h = rec.hypothesis
    return None if h is None or h.is_empty else h


#: I-MEC sizes per (true graph, target set), shared by the trackers of a process (as ``lab score`` memoises them).
_IMEC: dict[tuple[Any, ...], int | None] = {}


#: The true coefficients (and their memo key) of each suite graph config met in the process, by
#: id; the config itself is kept, so its id cannot be reused by another object.
_TRUTHS: dict[int, tuple[Mapping[str, Any], dict[str, float], tuple[tuple[str, str], ...]]] = {}


def _point(ident: str, state: Mapping[str, float]) -> DataPoint:
    return DataPoint(ident, {k: v for k, v in state.items() if k != FREQ}, state.get(FREQ))


class RewardTracker:
    """The reward terms of one episode, step by step (module docstring); reused across episodes.

    Incremental: a hypothesis is parsed and scored once per distinct text; a hypothesis refuted
    by some points stays refuted as points are added (a minimal conflicting set stays one), so
    it is not checked again; I-MEC sizes are memoised per graph and target set, and computed
    only when ``info_gain`` has a weight (``reward_details["imec_size"]`` then).
    """

    #: Distinct hypotheses remembered per tracker (the memo is cleared beyond it).
    MEMO_LIMIT = 4096

    def __init__(self, weights: RewardWeights, *, tolerance: float = 0.01, coefficient_tolerance: float = 1e-6) -> None:
        self.weights = weights
        self.tolerance = tolerance
        self.coefficient_tolerance = coefficient_tolerance
        self._hyp: dict[str, Hypothesis | None] = {}
        self._mech: dict[tuple[Any, ...], tuple[dict[str, float], dict[str, Any]]] = {}
        self._prior_points: list[DataPoint] = []  # the points of the last episode's prior records

    def reset(self, graph: CausalGraph, config: Mapping[str, Any], prior: Sequence[Mapping[str, Any]], initial: Mapping[str, float]) -> None:
        """Start an episode over the true *graph* (its suite *config*) with the prior records and the initial manipulator state."""
        if getattr(self, "graph", None) is not graph:  # the same graph as the last episode: its key is kept
            self.graph_key = (graph.nodes, graph.pairs)
            self.true_pairs = sorted(graph.pairs)
        self.graph = graph
        self.config = config
        # the data the environment has shown: prior records, the manipulator's initial state, then
        # its state after each accepted intervention (the consistency term reads them)
        kept = self._prior_points
        # the same prior records as the last episode (a prior_seed): their (immutable) points are kept
        if not (len(kept) == len(prior) and all(
            p.id == str(r["id"]) and p.freq == r["freq"] and p.props == r["props"] for p, r in zip(kept, prior, strict=True)
        )):
            kept = self._prior_points = [DataPoint(str(r["id"]), dict(r["props"]), r["freq"]) for r in prior]
        self.points: list[DataPoint] = [*kept, _point("manipulator/0", initial)]
        self.targets: frozenset[str] = frozenset()
        self.final: Hypothesis | None = None
        self._final_key = ""
        self._unparsed: list[Any] = []  # hypotheses not parsed yet, oldest first
        self._interventions = 0
        self._refuted: dict[str, tuple[str, ...]] = {}  # hypothesis key -> conflicting points
        self._checked: dict[str, int] = {}  # hypothesis key -> points it was found consistent with

    def _size(self, targets: frozenset[str]) -> int | None:
        key = (self.graph_key, targets)
        if key not in _IMEC:
            if len(_IMEC) >= self.MEMO_LIMIT * 4:
                _IMEC.clear()
            try:
                _IMEC[key] = imec_size(self.graph, [[t] for t in sorted(targets)])
            except CausalCheckError:
                _IMEC[key] = None
        return _IMEC[key]

    def _hypothesis(self, raw: Any) -> tuple[str, Hypothesis | None]:
        try:
            key = json.dumps(raw, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError):
            return "", None
        if key not in self._hyp:
            if len(self._hyp) >= self.MEMO_LIMIT:
                self._hyp.clear()
            self._hyp[key] = _parse_hypothesis(raw)
        return key, self._hyp[key]

    def _consistency(self, key: str, hyp: Hypothesis) -> tuple[float, tuple[str, ...]]:
        if key in self._refuted:
            return -1.0, self._refuted[key]
        if self._checked.get(key) == len(self.points):
            return 0.0, ()
        value, conflicting = consistency_term(hyp, self.points, self.tolerance)
        if conflicting:
            self._refuted[key] = conflicting
        else:
            self._checked[key] = len(self.points)
        return value, conflicting

    def mechanism(self, hyp: Hypothesis | None) -> tuple[dict[str, float], dict[str, Any]]:
        """The mechanism terms and raw metrics of *hyp* (``None``: the empty hypothesis)."""
        pairs = hyp.graph.pairs if hyp is not None else frozenset()
        coeffs = dict(hyp.coefficients) if hyp is not None else {}
        # the truth's coefficients are part of the key: two suite graphs may share a structure
        truth, truth_key = self._truth()
        key = (self.graph_key, truth_key, pairs, tuple(sorted((str(k), repr(v)) for k, v in coeffs.items())))
        if key not in self._mech:
            if len(self._mech) >= self.MEMO_LIMIT:
                self._mech.clear()
            self._mech[key] = mechanism_terms(
                pairs, coeffs, self.true_pairs, self.config, nodes=len(self.graph.nodes),
                coefficient_tolerance=self.coefficient_tolerance, true_coefficients=truth,
            )
        return self._mech[key]

    def _truth(self) -> tuple[dict[str, float] | None, tuple[tuple[str, str], ...] | None]:
        """The true coefficients of the episode's graph config and their memo key, computed once per config."""
        config = self.config
        if config is None:
            return None, None
        kept = _TRUTHS.get(id(config))
        if kept is None or kept[0] is not config:
            if len(_TRUTHS) >= self.MEMO_LIMIT:
                _TRUTHS.clear()
            truth = M.true_coefficients(config)
            kept = _TRUTHS[id(config)] = (config, truth, tuple(sorted((k, repr(v)) for k, v in truth.items())))
        return kept[1], kept[2]

    def step(
        self,
        record: Mapping[str, Any],
        *,
        degraded: bool,
        intervention: tuple[str, Mapping[str, float]] | None,
        done: bool,
        success: bool,
        done_reason: str,
        submissions_left: int,
        submissions: int,
    ) -> tuple[float, dict[str, float], dict[str, Any]]:
        """The reward, the terms and their details after one step.

        *record* is the step's record as written, *intervention* the target and the state shown
        after an accepted intervention (``None`` otherwise).
        """
        w = self.weights
        terms: dict[str, float] = {"format": format_term(degraded)}
        details: dict[str, Any] = {}
        raw = record.get("hypothesis")
        if isinstance(raw, Mapping) and raw:
            if w.consistency:
                key, hyp = self._hypothesis(raw)
                if hyp is not None:
                    self.final, self._final_key = hyp, key
            else:  # parsed only when the episode ends (the last non-empty one)
                self._unparsed.append(raw)
        if intervention is not None:
            target, state = intervention
            self._interventions += 1
            self.points.append(_point(f"manipulator/{self._interventions}", state))
            before = self.targets
            self.targets = self.targets | {target}
            if w.info_gain:  # I-MEC sizes only when the term counts (memoised per process)
                after = self._size(self.targets)
                terms["info_gain"] = info_gain_term(self._size(before), after, self._size(frozenset()))
                details["imec_size"] = after
        if w.consistency and self.final is not None:
            # the hypothesis in force (the last non-empty one) against every point shown so far
            terms["consistency"], conflicting = self._consistency(self._final_key, self.final)
            if conflicting:
                details["conflicting"] = list(conflicting)
        terms["success"] = success_term(success)
        if done:
            while self._unparsed:
                key, hyp = self._hypothesis(self._unparsed.pop())
                if hyp is not None:
                    self.final, self._final_key = hyp, key
                    break
            self._unparsed.clear()
            mech, raw_metrics = self.mechanism(self.final)
            terms.update(mech)
            details["final"] = raw_metrics
            terms["premature_stop"] = premature_stop_term(done_reason, success, submissions_left, submissions)
        return w.combine(terms), terms, details
