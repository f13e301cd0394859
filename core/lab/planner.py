"""Evidence bookkeeping, exact mechanism solving and the active planner agent.

**Identification idea.**  In a CausaLab SCM a shift intervention on X moves exactly the
descendants of X (all coefficients are non-zero; linear suites have positive integer
coefficients), and every value is deterministic up to 2-dp rounding.  So

* one intervention per controllable node reveals the ancestor relation ("X moved Y");
* the *direct* parents and coefficients of a node Z then follow from linear equations:
  between two consecutive manipulator states where Z itself was not set, its base is
  unchanged, so ``ΔZ = Σ_{P ∈ pa(Z)} Δf_P(P)`` with ``f_P(P) = c·P`` (linear) or
  ``c2·P² + c1·P`` (quadratic); the frequency's intercept is a model constant, so every
  recorded state (prior records too) gives ``F = base + Σ f_P(P)``.

:func:`solve_mechanisms` picks, for every node, the *smallest* set of candidate parents
whose least-squares fit explains every equation within the rounding error (candidates
exclude nodes an intervention proved to be non-ancestors).  With one intervention on each
controllable node the answer is unique for the released linear graphs.

**Planner** (:class:`PlannerAgent`): intervene on the controllable node whose ancestor
relations are least known (ties: config order), with a value far from its current one;
stop when every node's relations are known; report the interventional Markov equivalence
class of the current hypothesis given the targets used (one shared solver,
:func:`causalcheck.solvers.equivalence.imec_size`) in each step's thought; optionally make
one *verification* intervention, predicting the full new state from the hypothesis before
looking (the paper's cure for premature stopping), and re-solve when it disagrees; then open
the reactor and submit ``base + Σ f(P)`` on the reactor's properties.  Failed submissions
are followed by ±9.5 Hz brackets (binary feedback, tolerance 5 Hz).

One module because evidence bookkeeping, exact mechanism solving and the planner agent are one
algorithm (the planner picks experiments from the solver's candidates); the simple agents of
:mod:`causalcheck.lab.agents` reuse only :class:`Evidence`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from causalcheck.base.errors import InputFormatError
from causalcheck.graph import FREQ, CausalGraph
from causalcheck.lab.episode import AgentStep, LabAction
from causalcheck.solvers.equivalence import imec_size

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.lab.episode import Observation, TaskInfo

__all__ = [
    "Evidence",
    "Mechanisms",
    "PlannerAgent",
    "evidence_from_task",
    "hypothesis_record",
    "parent_features",
    "predict_freq",
    "predict_state",
    "solve_mechanisms",
]

_MOVE_TOL = 0.011


@dataclass
class Evidence:
    """Recorded states, grouped in sequences of one crystal each.

    A sequence is a list of ``(target or None, state)``; ``state`` maps every node (the
    frequency included) to its displayed value.  Sequence 0 is the manipulator crystal.
    """

    nodes: tuple[str, ...]
    sequences: list[list[tuple[str | None, dict[str, float]]]] = field(default_factory=list)
    past_data: list[dict[str, Any]] = field(default_factory=list)

    def add_sequence(self, states: list[tuple[str | None, dict[str, float]]]) -> None:
        self.sequences.append(states)

    def transitions(self) -> list[tuple[str, dict[str, float], dict[str, float]]]:
        """``(target, before, after)`` for every recorded intervention."""
        out = []
        for seq in self.sequences:
            for (_, prev), (tgt, cur) in itertools.pairwise(seq):
                if tgt is not None:
                    out.append((tgt, prev, cur))
        return out

    def states(self) -> list[dict[str, float]]:
        return [s for seq in self.sequences for _, s in seq]

    def moved(self) -> dict[str, set[str]]:
        """Target → nodes that moved under some intervention on it (noise included)."""
        return self._responses(moved=True)

    def stayed(self) -> dict[str, set[str]]:
        """Target → nodes that did not move under an effective intervention on it."""
        return self._responses(moved=False)

    def _responses(self, *, moved: bool) -> dict[str, set[str]]:
        """Target → the other nodes that moved (*moved*) or did not, under effective interventions on it."""
        out: dict[str, set[str]] = {}
        for tgt, before, after in self.transitions():
            if abs(after[tgt] - before[tgt]) <= _MOVE_TOL:
                continue
            out.setdefault(tgt, set()).update(
                n for n in self.nodes if n != tgt and (abs(after[n] - before[n]) > _MOVE_TOL) == moved
            )
        return out


@dataclass(frozen=True)
class Mechanisms:
    """A solved hypothesis: parents and coefficients per node, and the frequency intercept.

    ``coefs[node][parent]`` is ``(c1,)`` for linear or ``(c2, c1)`` for quadratic terms.
    """

    family: str
    parents: Mapping[str, tuple[str, ...]]
    coefs: Mapping[str, Mapping[str, tuple[float, ...]]]
    base_freq: float | None
    residual: float

    @property
    def edges(self) -> list[tuple[str, str]]:
        return [(p, n) for n, ps in self.parents.items() for p in ps]


def parent_features(family: str, x: float) -> list[float]:
    """The regression features of one parent value: ``[x², x]`` (quadratic) or ``[x]`` (linear).

    >>> parent_features("quadratic", 3.0), parent_features("linear", 3.0)
    ([9.0, 3.0], [3.0])
    """
    return [x * x, x] if family == "quadratic" else [x]


def _snap(c: float, family: str) -> float:
    if family == "linear":
        r = round(c)
        if abs(c - r) < 0.02:
            return float(r)
        return round(c, 4)
    return round(c, 6)


def _candidate_parents(ev: Evidence, z: str, fcp: bool, moved: dict[str, set[str]], stayed: dict[str, set[str]]) -> list[str]:
    out = []
    for p in ev.nodes:
        if p == z:
            continue
        if p == FREQ and not fcp:
            continue
        if z in stayed.get(p, set()):
            continue  # intervening on p left z alone: p is not an ancestor of z
        if p in moved.get(z, set()):
            continue  # p moved when z was set: p descends from z
        out.append(p)
    return out


def _rows(ev: Evidence, z: str, cands: Sequence[str], family: str) -> tuple[list[list[float]], list[float], list[float]]:
    """Design rows for node z (first column = intercept for the frequency), targets, row tolerances."""
    xs: list[list[float]] = []
    ys: list[float] = []
    tols: list[float] = []
    if z == FREQ:
        for s in ev.states():
            row = [1.0]
            slack = 0.0
            for p in cands:
                row += parent_features(family, s[p])
                slack += 1.0 + (2 * abs(s[p]) if family == "quadratic" else 0.0)
            xs.append(row)
            ys.append(s[z])
            tols.append(slack)
    else:
        for tgt, before, after in ev.transitions():
            if tgt == z:
                continue
            row = []
            slack = 0.0
            for p in cands:
                row += [a - b for a, b in zip(parent_features(family, after[p]), parent_features(family, before[p]), strict=False)]
                slack += 2.0 + (4 * abs(after[p]) if family == "quadratic" else 0.0)
            xs.append(row)
            ys.append(after[z] - before[z])
            tols.append(slack)
    return xs, ys, tols


def _fit(xs: list[list[float]], ys: list[float], cols: list[int]) -> tuple[list[float], list[float]] | None:
    import numpy as np

    if not xs:
        return [0.0] * len(cols), []
    a = np.asarray(xs, dtype=float)[:, cols] if cols else np.zeros((len(xs), 0))
    y = np.asarray(ys, dtype=float)
    if a.shape[1] == 0:
        return [], list(map(float, y))
    if not (np.isfinite(a).all() and np.isfinite(y).all()):  # observations beyond float range: no fit
        return None
    try:
        coef, *_ = np.linalg.lstsq(a, y, rcond=None)
    except np.linalg.LinAlgError:  # SVD did not converge (ill-scaled observations): no fit
        return None
    res = y - a @ coef
    return [float(c) for c in coef], [float(r) for r in res]


def solve_mechanisms(
    ev: Evidence,
    *,
    family: str = "linear",
    frequency_can_be_parent: bool = False,
    max_subset: int = 8,
    noise_slack: float = 0.0,
) -> Mechanisms:
    """The sparsest mechanisms consistent with the evidence (see the module docstring).

    A fit is accepted when every row's residual is within the 2-dp rounding error of the
    terms involved (plus *noise_slack*, e.g. for hidden-disturbance suites); among the
    accepted subsets of the smallest size the one with the least squared residual wins.
    """
    moved, stayed = ev.moved(), ev.stayed()
    width = 2 if family == "quadratic" else 1
    parents: dict[str, tuple[str, ...]] = {}
    coefs: dict[str, dict[str, tuple[float, ...]]] = {}
    base: float | None = None
    worst = 0.0
    for z in ev.nodes:
        cands = _candidate_parents(ev, z, frequency_can_be_parent, moved, stayed)
        xs, ys, tols = _rows(ev, z, cands, family)
        off = 1 if z == FREQ else 0
        best: tuple[float, tuple[int, ...], list[float]] | None = None
        fallback: tuple[float, tuple[int, ...], list[float]] | None = None
        if len(cands) > max_subset:
            # too many subsets to enumerate (large scaling graphs): fit all candidates, keep the
            # clearly non-zero ones, and search subsets of those
            full = _fit(xs, ys, list(range(off + len(cands) * width)))
            if full is not None:
                keep = [k for k in range(len(cands)) if max(abs(full[0][off + k * width + w]) for w in range(width)) > 0.05]
                cands = [cands[k] for k in keep][: max_subset * 2]
            else:
                cands = cands[: max_subset * 2]
            xs, ys, tols = _rows(ev, z, cands, family)
        sizes = range(0, min(len(cands), max_subset) + 1)
        for size in sizes:
            for subset in itertools.combinations(range(len(cands)), size):
                cols = list(range(off)) + [off + k * width + w for k in subset for w in range(width)]
                fitted = _fit(xs, ys, cols)
                if fitted is None:
                    continue
                coef, res = fitted
                sse = sum(r * r for r in res)
                mags = [abs(c) for c in coef[off:]]
                scale = max(mags) if mags else 0.0
                ok = all(abs(r) <= 0.006 * (1 + t * max(scale, 1.0)) + 0.011 + noise_slack for r, t in zip(res, tols, strict=False))
                if any(m < 1e-6 for m in mags):
                    ok = False
                cand = (sse, subset, coef)
                if ok and (best is None or sse < best[0]):
                    best = cand
                if fallback is None or sse < fallback[0] - 1e-9:
                    fallback = cand
            if best is not None:
                break
        chosen = best or fallback
        assert chosen is not None
        sse, subset, coef = chosen
        worst = max(worst, sse)
        ps = tuple(cands[k] for k in subset)
        parents[z] = ps
        coefs[z] = {
            p: tuple(_snap(coef[off + i * width + w], family) for w in range(width)) for i, p in enumerate(ps)
        }
        if z == FREQ:
            base = round(coef[0], 2) if coef else (round(ys[0], 2) if ys else None)
            if family == "linear" and base is not None and abs(base - round(base)) < 0.05:
                base = float(round(base))
    return Mechanisms(family, parents, coefs, base, worst)


def predict_freq(mech: Mechanisms, props: Mapping[str, float]) -> float | None:
    """``base + Σ f(P)`` over the frequency's parents for the given property values."""
    if mech.base_freq is None:
        return None
    total = mech.base_freq
    for p, c in mech.coefs.get(FREQ, {}).items():
        if p not in props:
            return None
        x = props[p]
        total += c[0] * x * x + c[1] * x if len(c) == 2 else c[0] * x
    return round(total, 2)


def predict_state(mech: Mechanisms, before: Mapping[str, float], target: str, value: float, order: Sequence[str]) -> dict[str, float]:
    """The state the hypothesis expects after shifting *target* to *value* from *before*."""
    after = dict(before)
    after[target] = value

    def f(c: tuple[float, ...], x: float) -> float:
        return c[0] * x * x + c[1] * x if len(c) == 2 else c[0] * x

    for n in order:
        if n == target:
            continue
        cs = mech.coefs.get(n, {})
        if not cs:
            continue
        delta = sum(f(c, after[p]) - f(c, before[p]) for p, c in cs.items())
        after[n] = round(before[n] + delta, 2)
    return after


def hypothesis_record(mech: Mechanisms | None) -> dict[str, Any]:
    """The CausaLab ``hypothesis`` object for *mech* (``c_P`` names; quadratic ``c_P_1``/``c_P_2``)."""
    if mech is None:
        return {"edges": [], "freq_equation": "", "coefficients": {}}
    edges = [{"from": p, "to": n} for p, n in mech.edges]
    coefficients: dict[str, float | None] = {"base": mech.base_freq}
    terms = ["base"]
    for p, c in mech.coefs.get(FREQ, {}).items():
        if len(c) == 2:
            terms += [f"c_{p}_1*{p}^2", f"c_{p}_2*{p}"]
            coefficients[f"c_{p}_1"] = c[0]
            coefficients[f"c_{p}_2"] = c[1]
        else:
            terms.append(f"c_{p}*{p}")
            coefficients[f"c_{p}"] = c[0]
    return {"edges": edges, "freq_equation": f"{FREQ} = " + " + ".join(terms), "coefficients": coefficients}


def evidence_from_task(task: TaskInfo, initial_state: Mapping[str, float]) -> Evidence:
    """The evidence an episode starts with: the task's prior records and bootstrap states
    (one sequence each) and the manipulator's initial state as sequence 0."""
    nodes = (*task.properties, FREQ)
    ev = Evidence(tuple(nodes))
    for rec in task.prior_records:
        ev.add_sequence([(None, {**rec["props"], FREQ: rec["freq"]})])
        ev.past_data.append(dict(rec))
    boot = list(task.bootstrap)
    if boot:
        seq: list[tuple[str | None, dict[str, float]]] = []
        for k, e in enumerate(boot):
            state = {**e["props"], FREQ: e["freq"]}
            iv = e.get("intervention")
            if k == 1 and not iv:
                ev.add_sequence([(None, state)])
            elif iv:
                seq.append((iv["target_prop"], state))
            else:
                seq.append((None, state))
            ev.past_data.append(dict(e))
        if seq:
            ev.add_sequence(seq)
    ev.sequences.insert(0, [(None, dict(initial_state))])
    ev.past_data.append({"id": "manipulator/0", "props": {k: v for k, v in initial_state.items() if k != FREQ}, "freq": initial_state[FREQ]})
    return ev


class PlannerAgent:
    """Active planner: intervene to identify every relation, solve exactly, verify, predict."""

    name = "planner"

    def __init__(self, seed: int = 0, *, verify: bool = True, rounds: int | None = None) -> None:
        if not isinstance(verify, bool):
            raise InputFormatError(f"verify={verify!r} must be true or false")
        if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1):
            raise InputFormatError(f"rounds={rounds!r} must be a positive integer or null (as many as the budget allows)")
        self.seed = seed
        self.verify = verify
        self.rounds = rounds

    def reset(self, task: TaskInfo) -> None:
        self.task = task
        self.ev: Evidence | None = None
        self.mech: Mechanisms | None = None
        self.targets: list[str] = []
        self.pending: tuple[str, float, dict[str, float] | None] | None = None
        self.verified = False
        self.verify_failed = 0
        self.prediction: float | None = None
        self.submitted: list[float] = []
        self.family = task.equation_family if task.equation_family in ("linear", "quadratic") else "linear"
        rounds = self.rounds
        if rounds is None:
            rounds = 3 if self.family == "quadratic" else 1
        self.n_rounds = rounds
        self.slack = 10.5 if task.hidden_disturbance else 0.0

    # ---------------------------------------------------------------- helpers
    def _solve(self) -> Mechanisms:
        assert self.ev is not None
        self.mech = solve_mechanisms(
            self.ev,
            family=self.family,
            frequency_can_be_parent=self.task.frequency_can_be_parent,
            noise_slack=self.slack,
        )
        return self.mech

    def _imec(self) -> int | None:
        if self.mech is None:
            return None
        try:
            g = CausalGraph.from_pairs(self.mech.edges, self.ev.nodes if self.ev else ())
            return int(imec_size(g, [[t] for t in sorted(set(self.targets))]))
        except Exception:  # a cyclic or otherwise unusable hypothesis has no class
            return None

    def _unknown(self, x: str) -> int:
        """How many relations of x are still unknown (0 once x was set)."""
        assert self.ev is not None
        if x in self.targets:
            return 0
        moved = self.ev.moved()
        others = [y for y in self.ev.nodes if y != x and (y != FREQ or self.task.frequency_can_be_parent)]
        return sum(1 for y in others if x not in moved.get(y, set()))

    def _next_target(self, obs: Any) -> tuple[str, float] | None:
        ctrl = list(self.task.controllable)
        budget_left = obs.interventions_left - (1 if self.verify and not self.verified else 0)
        if budget_left <= 0:
            return None
        count = {c: self.targets.count(c) for c in ctrl}
        for rnd in range(self.n_rounds):
            todo = [c for c in ctrl if count[c] <= rnd and (rnd > 0 or self._unknown(c) > 0)]
            if todo:
                x = max(todo, key=lambda c: (self._unknown(c), -ctrl.index(c)))
                cur = float(obs.state[x])
                offsets = (50.0, -35.0, 20.0, 65.0)
                d = offsets[rnd % len(offsets)]
                value = cur + d if cur + d <= 100 else cur - abs(d)
                return x, float(round(value))
        return None

    def _record(self, thought: str, experiment: Mapping[str, Any], action: LabAction) -> AgentStep:
        imec = self._imec()
        hyp = hypothesis_record(self.mech)
        memory = (
            f"targets so far: {self.targets}; I-MEC size of current hypothesis given them: {imec}; "
            f"prediction: {self.prediction}"
        )
        record = {
            "memory": memory,
            "thought": thought,
            "past_data": [dict(e) for e in (self.ev.past_data if self.ev else [])],
            "hypothesis": hyp,
            "experiment": dict(experiment),
            **action.to_record_fields(),
        }
        return AgentStep(record, action, {"imec_size": imec})

    # ---------------------------------------------------------------- the loop
    def act(self, obs: Observation) -> AgentStep:
        if self.ev is None:
            self.ev = evidence_from_task(self.task, obs.state)
        ev = self.ev
        resp = obs.response
        if self.pending is not None and resp.get("accepted") and "state" in resp:
            tgt, value, expected = self.pending
            state = dict(resp["state"])
            ev.sequences[0].append((tgt, state))
            ev.past_data.append(
                {
                    "id": f"manipulator/{len(ev.sequences[0]) - 1}",
                    "props": {k: v for k, v in state.items() if k != FREQ},
                    "freq": state[FREQ],
                    "intervention": {"target_prop": tgt, "target_value": value},
                }
            )
            self.targets.append(tgt)
            if expected is not None:
                tol = 0.05 + self.slack
                if any(abs(expected[n] - state[n]) > tol for n in state):
                    self.verify_failed += 1
            self._solve()
        self.pending = None
        if self.mech is None:
            self._solve()
        assert self.mech is not None

        if obs.phase == "manipulator":
            nxt = self._next_target(obs)
            if nxt is not None:
                x, v = nxt
                self.pending = (x, v, None)
                return self._record(
                    f"Set {x} to {v} to learn which properties it moves.",
                    {"target_prop": x, "target_value": v},
                    LabAction.intervene(x, v),
                )
            if self.verify and not self.verified and obs.interventions_left > 0 and self.task.controllable:
                self.verified = True
                rng_pick = sorted(self.task.controllable)[self.seed % len(self.task.controllable)]
                cur = float(obs.state[rng_pick])
                v = float(round(cur - 30 if cur > 50 else cur + 30))
                expected = predict_state(self.mech, obs.state, rng_pick, v, list(obs.state))
                self.pending = (rng_pick, v, expected)
                return self._record(
                    f"Verification: my hypothesis predicts the state after setting {rng_pick} to {v}; check it.",
                    {"target_prop": rng_pick, "target_value": v},
                    LabAction.intervene(rng_pick, v),
                )
            return self._record("Hypothesis is determined; open the reactor.", {}, LabAction("open_reactor"))
        if obs.phase == "reactor":
            if obs.reactor_props is None:
                return self._record("Open the reactor to read the crystal.", {}, LabAction("open_reactor"))
            if self.prediction is None:
                self.prediction = predict_freq(self.mech, obs.reactor_props)
                if self.prediction is None:
                    self.prediction = float(sum(s[FREQ] for s in ev.states()) / max(len(ev.states()), 1))
            if obs.submissions_left > 0:
                k = len(self.submitted)
                offsets = (0.0, 9.5, -9.5)
                value = round(self.prediction + offsets[k % 3], 2)
                self.submitted.append(value)
                return self._record(
                    f"Predict {self.prediction} Hz from the fitted equation; submission {k + 1}.",
                    {},
                    LabAction.submit(value),
                )
        return self._record("Done.", {}, LabAction("finish", text="Task completed!"))
