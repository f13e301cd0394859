"""CausaLab as a TRL environment: ``GRPOTrainer(environment_factory=...)`` plays lab episodes through tool calls.

TRL's ``GRPOTrainer`` (read at TRL v1.9.0, ``trl/trainer/grpo_trainer.py``; ``environment_factory``
since 0.29, ``get_reward`` since 1.8) trains a model in an environment given as
``environment_factory``: a callable without arguments that returns an environment object.  The
trainer keeps a pool of these objects and, for each rollout, calls ``reset(**row)`` with every
column of the dataset row and appends the string it returns to the row's last prompt message.
Every other public method of the object is a tool the model may call; TRL shows the tools to the
model through transformers' ``get_json_schema`` (type hints and the docstring's ``Args:``), calls
``tool(**arguments)`` for each tool call, answers with ``str(result)`` as a ``tool`` message (an
exception as ``{"error": ...}``) and generates again, until a model turn calls no tool.  An
optional ``get_reward()`` then scores the rollout.  :class:`CausaLabTRLEnv` is that object for
the lab, over a :class:`~causalcheck.rl.env.CausaLabEnv` in chat mode:

* ``reset(**row)`` reads the row's ``graph_id`` (a graph of the suite) and ``seed`` (the episode
  seed, as ``lab run --seeds``) and ignores its other columns; without them the environment draws
  both.  It returns the environment's first observation, the LLM agent's first prompt.
* The tools are the lab's actions: ``intervene(prop, value)``, ``open_reactor()``,
  ``set_frequency(frequency)`` and ``submit(message)``.  Each also takes the record's other fields
  (``memory``, ``thought``, ``past_data``, ``hypothesis``, ``experiment``), all optional.  A call
  is one :meth:`CausaLabEnv.step <causalcheck.rl.env.CausaLabEnv.step>` of the record its arguments
  make (JSON, keys in the record's order), so budgets, refusals, degraded records and rewards are
  the Gymnasium environment's for that reply.  It returns the environment's new observation text
  (the conversation TRL keeps holds the earlier turns).  A call after the episode is over raises
  :class:`~causalcheck.base.errors.BudgetExceededError`, which TRL shows the model as the tool's
  error.
* ``get_reward()`` is the return of the episode: the sum of the environment's rewards of the
  steps played.  TRL ≥ 1.8 adds it as a reward source (weight 1, logged as ``CausaLabTRLEnv``);
  with an older TRL pass ``reward_funcs=[environment_reward]`` instead, never both (TRL adds them
  up).

What TRL decides and the environment does not see:

* A rollout also ends when TRL's ``max_tool_calling_iterations`` or ``max_completion_length`` is
  reached.  An episode left unfinished scores the steps played: the final mechanism terms (paid on
  an episode's last step) and the reactor's success are not earned, so stopping early earns no more
  than playing on.
* A tool call TRL cannot make (an unknown tool, a missing or unknown argument) is answered by TRL
  with an error and is no lab step: unlike an unreadable reply in the Gymnasium environment it costs
  no step and no ``format`` penalty.  A call with arguments of the wrong type is a step, read as
  the Gymnasium environment reads that record (a value that is not a number is refused).

:func:`environment_factory` checks the options once and returns a factory that pickles (TRL's
async trainer sends it to another process); :func:`episode_rows` makes the dataset rows, one per
graph and seed, whose prompt is :data:`TOOL_RULES` as the system message and an empty user
message.  Nothing here imports TRL.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Optional

from causalcheck.base.errors import BudgetExceededError, InputFormatError
from causalcheck.base.limits import check_seed
from causalcheck.lab.suites import Suite, load_suite
from causalcheck.rl.env import CausaLabEnv
from causalcheck.rl.rewards import RewardWeights

__all__ = ["TOOL_RULES", "CausaLabTRLEnv", "environment_factory", "environment_reward", "episode_rows"]

#: The system message of a tool-calling rollout (the tools' own descriptions carry their arguments).
TOOL_RULES = """You are a scientist agent in a causal-discovery lab. Every step, call exactly one of the tools
intervene, open_reactor, set_frequency or submit: it is your action, and its answer is what the
environment shows you next. Pass your record with every call:

- memory: a running summary of what you learned and plan;
- thought: your reasoning for this step;
- past_data: the list of ALL evidence so far — copy the previous entries and append new ones,
  each as {"id": "<k>/<N>", "props": {<property>: number, ...}, "freq": number}; only record
  values the environment actually showed you, never predictions;
- hypothesis: your current causal model, {"edges": [{"from": P, "to": Q}, ...],
  "freq_equation": "resonanceFreq = base + c_A*A + ...", "coefficients": {"base": number, "c_A": number}}.
  Only parents of the frequency appear in the equation; coefficient names are c_<property>;
  use null for values you do not know yet; reason from interventions rather than curve fitting;
- experiment: the intervention you are making now, {"target_prop": P, "target_value": number},
  or {} when this step is not an intervention.

A memory, past_data or hypothesis you leave out (or leave empty) keeps its last value. The episode
ends when the reactor is activated, your submissions are spent or you call submit.
"""

#: The record's fields besides the action, in the record's order.
_RECORD_FIELDS = ("memory", "thought", "past_data", "hypothesis", "experiment")


class CausaLabTRLEnv:
    """A lab episode for TRL's ``environment_factory`` (module docstring).

    Args:
        suite: a suite name (``lab suites``) or a suite.
        graph: a graph id or index of the suite; ``None`` lets a row's ``graph_id`` or the
            environment's generator choose.
        rewards: a preset name (``"dense"``, ``"paper"``), weights, or a mapping of weights.
        max_prompt_chars: the LLM agent's prompt budget of the first observation.
        consistency_tolerance: the data-consistency tolerance of the reward (Hz).
        flags: ``lab run``'s episode flags (``budget``, ``interventions``, ``do``, …).

    Its public methods other than ``reset`` and ``get_reward`` are the tools, so it has no other
    public method; its state is in attributes: :attr:`env`, :attr:`episode_return`, :attr:`steps`,
    :attr:`done` and :attr:`last_info`.
    """

    def __init__(
        self,
        suite: str | Suite = "mini",
        graph: str | int | None = None,
        *,
        rewards: str | RewardWeights | Mapping[str, float] | None = "dense",
        max_prompt_chars: int = 16384,
        consistency_tolerance: float = 0.01,
        **flags: Any,
    ) -> None:
        taken = sorted(set(flags) & {"observation", "valid_actions", "render_mode"})
        if taken:
            raise InputFormatError(f"option(s) {taken!r} are not options of the TRL environment (its observations are the chat mode's)")
        #: The Gymnasium environment played, in chat mode.
        self.env = CausaLabEnv(
            suite, graph, rewards=rewards, max_prompt_chars=max_prompt_chars,
            consistency_tolerance=consistency_tolerance, observation="chat", **flags,
        )
        #: The sum of the rewards of the steps played since the last reset.
        self.episode_return = 0.0
        #: The steps played since the last reset.
        self.steps = 0
        #: Whether the episode is over (terminated or truncated).
        self.done = False
        #: The ``info`` of the last reset or step.
        self.last_info: dict[str, Any] = {}

    def reset(self, **row: Any) -> str:
        """Start the episode of the row's ``graph_id`` and ``seed``; returns its first observation."""
        graph = row.get("graph_id")
        observation, info = self.env.reset(seed=row.get("seed"), options=None if graph is None else {"graph": graph})
        self.episode_return = 0.0
        self.steps = 0
        self.done = False
        self.last_info = info
        return observation

    def get_reward(self) -> float:
        """The return of the episode: the sum of the rewards of the steps played since the last reset."""
        return float(self.episode_return)

    # ------------------------------------------------------------------ the tools
    def intervene(
        self,
        prop: str,
        value: float,
        memory: Optional[str] = None,  # noqa: UP045  (transformers' get_json_schema reads typing.Optional, not `X | None`)
        thought: Optional[str] = None,  # noqa: UP045
        past_data: Optional[list[dict[str, Any]]] = None,  # noqa: UP045
        hypothesis: Optional[dict[str, Any]] = None,  # noqa: UP045
        experiment: Optional[dict[str, Any]] = None,  # noqa: UP045
    ) -> str:
        """Set one controllable property of the manipulator crystal (a shift: its causes stay active), then read every property and the frequency.

        Args:
            prop: The controllable property to set.
            value: The value to set it to.
            memory: A running summary of what you learned and plan; left out, the last one is kept.
            thought: Your reasoning for this step.
            past_data: ALL evidence so far, each {"id": "<k>/<N>", "props": {property: number}, "freq": number}; left out, the last list is kept.
            hypothesis: Your causal model, {"edges": [{"from": P, "to": Q}], "freq_equation": "resonanceFreq = base + c_A*A", "coefficients": {"base": number, "c_A": number}}; left out, the last one is kept.
            experiment: The intervention you are making now, {"target_prop": P, "target_value": number}.

        Returns:
            What the environment shows after the step.
        """
        return self._play({"action": "INTERVENE", "arg1": prop, "arg2": value}, (memory, thought, past_data, hypothesis, experiment))

    def open_reactor(
        self,
        memory: Optional[str] = None,  # noqa: UP045
        thought: Optional[str] = None,  # noqa: UP045
        past_data: Optional[list[dict[str, Any]]] = None,  # noqa: UP045
        hypothesis: Optional[dict[str, Any]] = None,  # noqa: UP045
        experiment: Optional[dict[str, Any]] = None,  # noqa: UP045
    ) -> str:
        """Open the reactor dialog: it shows the reactor crystal's properties and locks the manipulator for the rest of the episode.

        Args:
            memory: A running summary of what you learned and plan; left out, the last one is kept.
            thought: Your reasoning for this step.
            past_data: ALL evidence so far, each {"id": "<k>/<N>", "props": {property: number}, "freq": number}; left out, the last list is kept.
            hypothesis: Your causal model, {"edges": [{"from": P, "to": Q}], "freq_equation": "resonanceFreq = base + c_A*A", "coefficients": {"base": number, "c_A": number}}; left out, the last one is kept.
            experiment: {} (this step is not an intervention).

        Returns:
            What the environment shows after the step.
        """
        return self._play({"action": "OPEN_REACTOR"}, (memory, thought, past_data, hypothesis, experiment))

    def set_frequency(
        self,
        frequency: float,
        memory: Optional[str] = None,  # noqa: UP045
        thought: Optional[str] = None,  # noqa: UP045
        past_data: Optional[list[dict[str, Any]]] = None,  # noqa: UP045
        hypothesis: Optional[dict[str, Any]] = None,  # noqa: UP045
        experiment: Optional[dict[str, Any]] = None,  # noqa: UP045
    ) -> str:
        """Submit your prediction of the reactor crystal's resonance frequency (one of your submissions; it locks the manipulator).

        Args:
            frequency: The predicted resonance frequency in Hz.
            memory: A running summary of what you learned and plan; left out, the last one is kept.
            thought: Your reasoning for this step.
            past_data: ALL evidence so far, each {"id": "<k>/<N>", "props": {property: number}, "freq": number}; left out, the last list is kept.
            hypothesis: Your causal model, {"edges": [{"from": P, "to": Q}], "freq_equation": "resonanceFreq = base + c_A*A", "coefficients": {"base": number, "c_A": number}}; left out, the last one is kept.
            experiment: {} (this step is not an intervention).

        Returns:
            What the environment shows after the step: whether the reactor is activated.
        """
        return self._play({"action": "SET_FREQUENCY", "arg1": frequency}, (memory, thought, past_data, hypothesis, experiment))

    def submit(
        self,
        message: Optional[str] = None,  # noqa: UP045
        memory: Optional[str] = None,  # noqa: UP045
        thought: Optional[str] = None,  # noqa: UP045
        past_data: Optional[list[dict[str, Any]]] = None,  # noqa: UP045
        hypothesis: Optional[dict[str, Any]] = None,  # noqa: UP045
        experiment: Optional[dict[str, Any]] = None,  # noqa: UP045
    ) -> str:
        """End the episode now; the hypothesis of this call is your final one.

        Args:
            message: A closing note, e.g. "done".
            memory: A running summary of what you learned and plan; left out, the last one is kept.
            thought: Your reasoning for this step.
            past_data: ALL evidence so far, each {"id": "<k>/<N>", "props": {property: number}, "freq": number}; left out, the last list is kept.
            hypothesis: Your final causal model, {"edges": [{"from": P, "to": Q}], "freq_equation": "resonanceFreq = base + c_A*A", "coefficients": {"base": number, "c_A": number}}; left out, the last one is kept.
            experiment: {} (this step is not an intervention).

        Returns:
            What the environment shows after the step.
        """
        return self._play({"action": "SUBMIT", "arg1": message}, (memory, thought, past_data, hypothesis, experiment))

    def _play(self, action: Mapping[str, Any], fields: Sequence[Any]) -> str:
        """Step the environment with the record of *action* and the record *fields* given (``None``: left out)."""
        if self.done:
            raise BudgetExceededError(
                f"the episode is over (done_reason={self.env.episode.done_reason!r}) and its reward is final: reply without a tool call"
            )
        record = {name: value for name, value in zip(_RECORD_FIELDS, fields, strict=True) if value is not None}
        record.update((name, value) for name, value in action.items() if value is not None)
        try:
            reply = json.dumps(record, ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            raise InputFormatError(f"tool arguments {record!r:.200} are not JSON values: {exc}") from None
        observation, reward, terminated, truncated, info = self.env.step(reply)
        self.episode_return += reward
        self.steps += 1
        self.done = terminated or truncated
        self.last_info = info
        return observation


def environment_factory(
    suite: str | Suite = "mini",
    graph: str | int | None = None,
    *,
    rewards: str | RewardWeights | Mapping[str, float] | None = "dense",
    max_prompt_chars: int = 16384,
    consistency_tolerance: float = 0.01,
    **flags: Any,
) -> Callable[[], CausaLabTRLEnv]:
    """The ``environment_factory`` of ``GRPOTrainer``: each call returns a new :class:`CausaLabTRLEnv`
    of these options (its arguments), which are checked now by building one."""
    CausaLabTRLEnv(suite, graph, rewards=rewards, max_prompt_chars=max_prompt_chars, consistency_tolerance=consistency_tolerance, **flags)
    return functools.partial(
        CausaLabTRLEnv, suite, graph, rewards=rewards, max_prompt_chars=max_prompt_chars,
        consistency_tolerance=consistency_tolerance, **flags,
    )


def environment_reward(
    prompts: Any = None, completions: Any = None, *, environments: Sequence[Any] | None = None, **columns: Any
) -> list[float | None]:
    """A reward function with TRL's ``reward_funcs`` signature: each rollout's :meth:`CausaLabTRLEnv.get_reward`.

    TRL passes ``environments`` (one per completion) when ``environment_factory`` is set; a
    rollout of another environment scores ``None`` (TRL leaves it out).  For TRL before 1.8, which
    does not call ``get_reward`` itself.
    """
    if environments is None:
        raise InputFormatError("environment_reward needs TRL's environments= argument (GRPOTrainer passes it when environment_factory is set)")
    return [env.get_reward() if isinstance(env, CausaLabTRLEnv) else None for env in environments]


def episode_rows(suite: str | Suite = "mini", *, graphs: Sequence[str] | None = None, seeds: Iterable[int] = (0,)) -> list[dict[str, Any]]:
    """The dataset rows of the episodes of *graphs* (default: every graph of the suite) × *seeds*.

    Each row is ``{"prompt", "graph_id", "seed"}``: the prompt is :data:`TOOL_RULES` as the system
    message and an empty user message (TRL appends the first observation to it), and ``graph_id``
    and ``seed`` reach :meth:`CausaLabTRLEnv.reset`.  The ``num_generations`` rollouts of a row play
    the same episode.
    """
    loaded = suite if isinstance(suite, Suite) else load_suite(str(suite))
    ids = [g.graph_id for g in loaded.graphs]
    if graphs is not None:
        missing = [g for g in graphs if g not in ids]
        if missing:
            raise InputFormatError(f"graphs {missing!r} are not graph ids of suite {loaded.name!r} (e.g. {ids[0]!r})")
        ids = list(graphs)
    checked = [check_seed(s, f"seeds[{k}]") for k, s in enumerate(seeds)]
    return [
        {"prompt": [{"role": "system", "content": TOOL_RULES}, {"role": "user", "content": ""}], "graph_id": graph_id, "seed": seed}
        for graph_id in ids
        for seed in checked
    ]
