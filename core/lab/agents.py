"""The agent registry and the offline agents (random, observational, planner).

An agent is anything with (the :class:`~causalcheck.lab.episode.Agent` protocol, re-exported
here with its :class:`~causalcheck.lab.episode.AgentStep`)::

    reset(task: TaskInfo) -> None          # once per episode, before the first act()
    act(observation: Observation) -> AgentStep

``AgentStep.record`` is the CausaLab-format record of the step (causalab-spec §3:
``memory``, ``thought``, ``past_data``, ``hypothesis``, ``experiment`` and the action
fields) and ``AgentStep.action`` the :class:`~causalcheck.lab.episode.LabAction` the
environment executes.  An LLM agent reads ``task.text`` / ``observation.text``, emits a
record and turns it into an action with :meth:`LabAction.from_record`.

Agents are created by name through :func:`make_agent`: a name registered in the entry-point
group ``causalcheck.agents`` (the built-ins below are registered there by causalcheck itself)
or a factory written as ``package.module:factory``; the factory is called as
``factory(seed=seed, **options)`` and what it returns is checked against the protocol
(:mod:`causalcheck.plugins`).  :data:`AGENTS` is that registry as a mapping
name → ``"module:factory"``.

Offline agents:

* ``random`` — random interventions (random target, integer value in [0, 100]) until a
  random stopping point, then a random DAG (frequency a sink unless the suite allows
  otherwise) with least-squares coefficients for the frequency's parents;
* ``observational`` — no interventions: causal-learn's PC (Fisher-z, α = 0.05; or GES with
  ``method="ges"``) on every passively recorded state, edges touching the frequency
  oriented into it, then least squares for the coefficients; falls back to regressing the
  frequency on every property (edges where ``|c| > 0.05``) when the search finds no parent;
* ``planner`` — :class:`causalcheck.lab.planner.PlannerAgent`.

``llm`` (:mod:`causalcheck.lab.llm_agent`) needs a model (``--model``) and is not offline.

Every agent submits its prediction, then ±9.5 Hz brackets on failure (binary reactor
feedback, ±5 Hz tolerance).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from causalcheck.base.errors import InputFormatError
from causalcheck.graph import FREQ
from causalcheck.lab.episode import Agent, AgentStep, LabAction
from causalcheck.lab.planner import (
    Evidence,
    Mechanisms,
    evidence_from_task,
    hypothesis_record,
    parent_features,
    predict_freq,
)
from causalcheck.plugins import Registry, create

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.lab.episode import Observation, TaskInfo

__all__ = ["AGENTS", "OFFLINE_AGENTS", "Agent", "AgentStep", "ObservationalAgent", "RandomAgent", "make_agent"]


#: Agent name → ``"module:factory"``: the ``causalcheck.agents`` entry points (built-ins included);
#: ``"package.module:factory" in AGENTS`` is true as well (see :class:`causalcheck.plugins.Registry`).
AGENTS: Mapping[str, str] = Registry("agent")

#: The agents that need no model, key or network.
OFFLINE_AGENTS: tuple[str, ...] = ("observational", "planner", "random")


def make_agent(name: str, *, seed: int = 0, options: Mapping[str, Any] | None = None) -> Agent:
    """Create the agent *name* (registered, or ``package.module:factory``), checked against the protocol.

    Raises :class:`~causalcheck.plugins.PluginError` (an input error) for an unknown name, a
    factory that cannot be imported or does not take the options, or an object that is not an
    :class:`Agent` (naming the missing method or the wrong signature).
    """
    opts = dict(options or {})
    if "seed" in opts:  # the episode's seed: an option of that name would make two
        raise InputFormatError(f"agent option seed={opts['seed']!r}: an agent's seed is the episode seed (--seeds), not an option")
    return create("agent", name, seed=seed, **opts)


# ---------------------------------------------------------------------- shared pieces
class _Base:
    """Evidence tracking, record writing and the reactor phase shared by the simple agents."""

    name = "base"

    def __init__(self, seed: int = 0) -> None:
        import numpy as np

        self.seed = seed
        self.rng = np.random.default_rng([seed, 7])

    def reset(self, task: TaskInfo) -> None:
        import zlib

        import numpy as np

        self.task = task
        # the graph id enters the stream so one seed gives different choices on different graphs
        self.rng = np.random.default_rng([self.seed, 7, zlib.crc32(str(task.graph_id).encode("utf-8"))])
        self.ev: Evidence | None = None
        self.mech: Mechanisms | None = None
        self.pending: tuple[str, float] | None = None
        self.prediction: float | None = None
        self.submitted: list[float] = []
        self.family = task.equation_family if task.equation_family in ("linear", "quadratic") else "linear"

    def _absorb(self, obs: Observation) -> None:
        if self.ev is None:
            self.ev = evidence_from_task(self.task, obs.state)
        resp = obs.response
        if self.pending is not None and resp.get("accepted") and "state" in resp:
            tgt, value = self.pending
            state = dict(resp["state"])
            self.ev.sequences[0].append((tgt, state))
            self.ev.past_data.append(
                {
                    "id": f"manipulator/{len(self.ev.sequences[0]) - 1}",
                    "props": {k: v for k, v in state.items() if k != FREQ},
                    "freq": state[FREQ],
                    "intervention": {"target_prop": tgt, "target_value": value},
                }
            )
        self.pending = None

    def _record(self, thought: str, experiment: Mapping[str, Any], action: LabAction) -> AgentStep:
        record = {
            "memory": f"{self.name} agent; prediction: {self.prediction}",
            "thought": thought,
            "past_data": [dict(e) for e in (self.ev.past_data if self.ev else [])],
            "hypothesis": hypothesis_record(self.mech),
            "experiment": dict(experiment),
            **action.to_record_fields(),
        }
        return AgentStep(record, action)

    def _fit_freq(self, parents: list[str]) -> Mechanisms:
        """Least-squares frequency equation over *parents* from every recorded state."""
        import numpy as np

        assert self.ev is not None
        states = self.ev.states()
        rows = [[1.0, *[f for p in parents for f in parent_features(self.family, s[p])]] for s in states]
        y = np.asarray([s[FREQ] for s in states], dtype=float)
        coef, *_ = np.linalg.lstsq(np.asarray(rows, dtype=float), y, rcond=None)
        width = 2 if self.family == "quadratic" else 1
        coefs = {
            p: tuple(round(float(coef[1 + i * width + w]), 6) for w in range(width)) for i, p in enumerate(parents)
        }
        return Mechanisms(self.family, {FREQ: tuple(parents)}, {FREQ: coefs}, round(float(coef[0]), 4), 0.0)

    def _reactor(self, obs: Observation, edges: list[tuple[str, str]]) -> AgentStep:
        if obs.reactor_props is None:
            return self._record("Open the reactor.", {}, LabAction("open_reactor"))
        if self.prediction is None:
            self.prediction = predict_freq(self.mech, obs.reactor_props) if self.mech is not None else None
            if self.prediction is None:
                assert self.ev is not None
                self.prediction = round(float(np.mean([s[FREQ] for s in self.ev.states()])), 2)
        # attach the non-frequency edges to the hypothesis that is reported
        if isinstance(self.mech, Mechanisms):
            parents: dict[str, tuple[str, ...]] = dict(self.mech.parents)
            for a, b in edges:
                if b != FREQ:
                    parents[b] = (*parents.get(b, ()), a)
            self.mech = Mechanisms(self.mech.family, parents, self.mech.coefs, self.mech.base_freq, 0.0)
        if obs.submissions_left > 0:
            k = len(self.submitted)
            value = round(self.prediction + (0.0, 9.5, -9.5)[k % 3], 2)
            self.submitted.append(value)
            return self._record(f"Submit {value} Hz.", {}, LabAction.submit(value))
        return self._record("Done.", {}, LabAction("finish", text="Task completed!"))


import numpy as np  # noqa: E402  (numpy is light and needed by both agents below)


class RandomAgent(_Base):
    """Random interventions, a random graph, least-squares coefficients."""

    name = "random"

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        budget = int(task.budgets["interventions"])
        self.n_interventions = int(self.rng.integers(0, budget + 1)) if budget > 0 else 0
        self.edges: list[tuple[str, str]] = []

    def _random_graph(self) -> list[tuple[str, str]]:
        nodes = [*self.task.properties, FREQ]
        order = [nodes[i] for i in self.rng.permutation(len(nodes))]
        if not self.task.frequency_can_be_parent:
            order = [n for n in order if n != FREQ] + [FREQ]
        edges = []
        for i, a in enumerate(order):
            for b in order[i + 1 :]:
                if self.rng.random() < 0.4:
                    edges.append((a, b))
        if not any(b == FREQ for _, b in edges):
            before = [n for n in order[: order.index(FREQ)]]
            if before:
                edges.append((before[int(self.rng.integers(0, len(before)))], FREQ))
        return edges

    def act(self, obs: Observation) -> AgentStep:
        self._absorb(obs)
        if obs.phase == "manipulator":
            used = obs.interventions_used
            if used < self.n_interventions and obs.interventions_left > 0 and self.task.controllable:
                x = str(self.task.controllable[int(self.rng.integers(0, len(self.task.controllable)))])
                v = float(self.rng.integers(0, 101))
                self.pending = (x, v)
                return self._record(f"Try {x} = {v}.", {"target_prop": x, "target_value": v}, LabAction.intervene(x, v))
            self.edges = self._random_graph()
            self.mech = self._fit_freq([a for a, b in self.edges if b == FREQ])
            return self._record("Guess a graph and go to the reactor.", {}, LabAction("open_reactor"))
        if obs.phase == "reactor":
            return self._reactor(obs, self.edges)
        return self._record("Done.", {}, LabAction("finish"))


class ObservationalAgent(_Base):
    """PC (or GES) on passive records, then regression; never intervenes."""

    name = "observational"

    def __init__(self, seed: int = 0, *, method: str = "pc", alpha: float = 0.05) -> None:
        super().__init__(seed)
        if method not in ("pc", "ges"):
            raise InputFormatError(f"method={method!r} must be 'pc' or 'ges'")
        if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not 0 < alpha < 1:
            raise InputFormatError(f"alpha={alpha!r} must be a number between 0 and 1 (the search's significance level)")
        self.method = method
        self.alpha = alpha

    def reset(self, task: TaskInfo) -> None:
        super().reset(task)
        self.edges: list[tuple[str, str]] = []

    def _discover(self) -> list[tuple[str, str]]:
        """Edges from the causal search (each undirected edge oriented into F, else by name order)."""
        import warnings

        assert self.ev is not None
        nodes = [*self.task.properties, FREQ]
        data = np.asarray([[s[n] for n in nodes] for s in self.ev.states()], dtype=float)
        if data.shape[0] < 4 or np.any(data.std(axis=0) == 0):
            return []
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if self.method == "pc":
                    from causallearn.search.ConstraintBased.PC import pc

                    g = pc(data, self.alpha, "fisherz", show_progress=False, node_names=nodes).G.graph
                else:
                    from causallearn.search.ScoreBased.GES import ges

                    g = ges(data, score_func="local_score_BIC")["G"].graph
        except Exception:  # singular data etc.: treat as "no edge found"
            return []
        out = []
        for i in range(len(nodes)):
            for j in range(i + 1, len(nodes)):
                a, b = g[j, i], g[i, j]
                if a == 0 and b == 0:
                    continue
                u, v = nodes[i], nodes[j]
                if a == 1 and b == -1:
                    out.append((u, v))
                elif a == -1 and b == 1:
                    out.append((v, u))
                else:
                    out.append((u, v) if v == FREQ or (u != FREQ and u < v) else (v, u))
        if not self.task.frequency_can_be_parent:
            out = [(a, b) if a != FREQ else (b, a) for a, b in out]
        return out

    def act(self, obs: Observation) -> AgentStep:
        self._absorb(obs)
        if obs.phase == "manipulator":
            self.edges = self._discover()
            parents = [a for a, b in self.edges if b == FREQ]
            if not parents:
                mech = self._fit_freq(list(self.task.properties))
                parents = [p for p, c in mech.coefs[FREQ].items() if max(abs(x) for x in c) > 0.05]
                self.edges = [e for e in self.edges if e[1] != FREQ] + [(p, FREQ) for p in parents]
            self.mech = self._fit_freq(parents)
            return self._record(
                f"{self.method.upper()} on {len(self.ev.states()) if self.ev else 0} passive states; regress F on its parents.",
                {},
                LabAction("open_reactor"),
            )
        if obs.phase == "reactor":
            return self._reactor(obs, self.edges)
        return self._record("Done.", {}, LabAction("finish"))
