"""CausaLab as a Gymnasium text environment: the LLM agent's prompt in, its record text out.

``gymnasium.make("causalcheck/CausaLab-v0", suite="4nodes", graph="4nodes_0", budget="3o6i")``
builds :class:`CausaLabEnv` over one lab :class:`~causalcheck.lab.episode.Episode`:

* an **observation** is the user message the LLM agent (:mod:`causalcheck.lab.llm_agent`)
  would be sent this step — task text, previous state, history of actions, the environment's
  observation — built by the same function (:func:`~causalcheck.lab.llm_agent.prompt_messages`);
  the constant system message (the record rules) is :attr:`CausaLabEnv.system_prompt`, and
  ``info["messages"]`` holds both as chat messages;
* an **action** is the reply text: read as the agent reads it
  (:func:`~causalcheck.lab.llm_agent.read_step`: ``<think>`` removed, fenced or bare JSON,
  :func:`~causalcheck.lab.llm_agent.step_record_problem`), an unusable reply becomes the
  agent's degraded ``WAIT`` (``info["degraded"]``, ``info["error"]``); the episode applies its
  own budgets and refusals (``info["refused"]``); state is carried forward as the agent carries it;
* the **reward** is :mod:`causalcheck.rl.rewards`' weighted terms (``rewards="dense"`` or
  ``"paper"``, or a :class:`~causalcheck.rl.rewards.RewardWeights`); ``info["reward_terms"]``
  and ``info["reward_details"]`` say how it was made; ``info["record"]`` is the record used;
* ``terminated`` when the episode ends (reactor activated, submissions spent, the agent
  submitted), ``truncated`` when it hits its step limit (``max_steps``, else 4 · interventions
  + 20: the reset's ``info["max_steps"]``); ``env.spec.max_episode_steps`` is the longest limit of any
  graph the env can draw, so a ``TimeLimit`` from it never cuts an episode short.

``reset(seed=s)`` plays the lab episode of seed ``s`` (``lab run --seeds s``), so one seed
gives the same episode byte for byte; ``reset()`` without a seed draws the next episode seed
from the environment's generator.  Without ``graph`` each reset draws a graph of the suite
from that generator (``options={"graph": id}`` picks one).  Episode options are
``lab run``'s flags (:data:`~causalcheck.lab.episode.EPISODE_FLAGS`: ``budget``,
``interventions``, ``do``, …) or ``config=EpisodeConfig(...)``.

:attr:`CausaLabEnv.trajectory` is the episode as ``lab run`` writes it (header and step
lines of :func:`causalcheck.lab.runner.run_episode`), so ``lab score`` can score a rollout.

Both spaces are :class:`PromptText` (a :class:`gymnasium.spaces.Text` that holds any
characters): observations up to :data:`~causalcheck.base.limits.MAX_RL_OBSERVATION_CHARS`,
actions up to :data:`~causalcheck.base.limits.MAX_RL_ACTION_CHARS` (a longer reply is a
degraded step, never parsed; so is a reply holding a lone surrogate, see
:mod:`causalcheck.base.surrogates`).

**Chat mode** (``observation="chat"``; the default ``"prompt"`` is the LLM agent's prompt, so a
seeded episode is byte for byte ``lab run``'s).  The first observation is still the first prompt;
every later one is only the new user turn: the environment's observation text
(:attr:`Observation.text <causalcheck.lab.episode.Observation>`, which carries the refusal of a
refused action and the notice of a degraded step, as the prompt does).  ``info["messages"]``
holds the whole conversation: the system message, the first prompt, then one assistant reply and
one user turn per step.  A reply is kept as its text: a reply that is not a string as ``""``, one
longer than ``MAX_RL_ACTION_CHARS`` cut to that length, lone surrogates replaced by U+FFFD.  The
rewards, terminations, the rest of ``info`` and the trajectory are prompt mode's for the same
replies.  Bounds: a user turn longer than ``MAX_RL_OBSERVATION_CHARS`` is refused as a prompt is
(:class:`~causalcheck.base.limits.LimitExceededError`), so after ``n`` steps the conversation holds
``2 + 2n`` messages of at most ``len(system) + len(first prompt) + n × (MAX_RL_ACTION_CHARS +
MAX_RL_OBSERVATION_CHARS)`` characters, ``n`` at most the episode's step limit
(``info["max_steps"]``, at most ``4 × MAX_RUN_BUDGET + 20``).  Each step's list is new (the
caller's own); its message dicts are read-only and shared between steps, so a step costs one
reference per message, not a copy of the text.

**Valid actions** (``valid_actions=True``): ``info["valid_actions"]`` at reset and after each step
is :meth:`CausaLabEnv.valid_actions`, the action forms the episode accepts now, each with the JSON
Schema of its arguments: ``INTERVENE`` (``arg1`` one of the controllable properties, ``arg2`` a
number) while the manipulator is unlocked and interventions remain, ``OPEN_REACTOR``,
``SET_FREQUENCY`` (``arg1`` a number; it also locks the manipulator) while submissions remain,
and ``SUBMIT`` (``arg1``, optional text); none once the episode is over.  A number is any finite
JSON number.  ``WAIT`` is the form of a degraded step, not an action a reply may name.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Mapping
from typing import Any

import numpy as np
from causalcheck.base.errors import BudgetExceededError, InputFormatError, missing_extra

try:
    import gymnasium
except ImportError:  # pragma: no cover - exercised only without the extra
    raise missing_extra("causalcheck.rl.env", "gymnasium") from None
from causalcheck.base.limits import (
    MAX_RL_ACTION_CHARS,
    MAX_RL_OBSERVATION_CHARS,
    LimitExceededError,
    check_seed,
)
from causalcheck.base.surrogates import has_lone_surrogates, scrub
from causalcheck.lab.episode import EPISODE_FLAGS, Episode, EpisodeConfig, LabAction, Observation
from causalcheck.lab.llm_agent import (
    EMPTY_HYPOTHESIS,
    carry_forward,
    degraded_record,
    prompt_messages,
    read_step,
    render_prompt,
)
from causalcheck.lab.suites import Suite, SuiteGraph, load_suite
from causalcheck.lab.trajectory import TRAJECTORY_FORMAT
from causalcheck.rl.rewards import RewardTracker, RewardWeights, reward_weights
from gymnasium import spaces
from gymnasium.envs.registration import EnvSpec
from gymnasium.utils import seeding

__all__ = ["CausaLabEnv", "PromptText", "rollout"]

#: Largest ``max_prompt_chars`` (the prompt's history budget).
MAX_PROMPT_CHARS = 1_000_000


class PromptText(spaces.Text):
    """A :class:`gymnasium.spaces.Text` of any characters (a model may write any Unicode).

    ``sample()`` draws from the alphanumeric charset; :meth:`contains` accepts every string
    within the length bounds.
    """

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length


def _no_shared_memory(space: PromptText, n: int = 1, ctx: Any = None) -> Any:
    """Gymnasium's shared memory holds a Text space's characters as indices into its charset, which
    prompts of any Unicode are not: refused when the vector env is made, saying what to do."""
    raise InputFormatError(
        "the lab's observations are free text (any Unicode, up to MAX_RL_OBSERVATION_CHARS characters), which "
        "Gymnasium's shared memory cannot hold: make the async vector env with shared_memory=False "
        "(gymnasium.make_vec(..., vectorization_mode='async', vector_kwargs={'shared_memory': False}))"
    )


with contextlib.suppress(ImportError):  # gymnasium's vector utilities: register the refusal for this space
    from gymnasium.vector.utils.shared_memory import create_shared_memory

    create_shared_memory.register(PromptText)(_no_shared_memory)


_SUITES: dict[str, Suite] = {}


def _suite(name: str) -> Suite:
    if name not in _SUITES:
        _SUITES[name] = load_suite(name)
    return _SUITES[name]


class CausaLabEnv(gymnasium.Env[str, str]):
    """The lab as a Gymnasium environment (module docstring).

    Args:
        suite: a suite name (``lab suites``) or a suite file.
        graph: a graph id or index in the suite; ``None`` draws one per reset.
        config: an :class:`EpisodeConfig`; else ``**flags`` of ``lab run``'s names build one.
        rewards: a preset name (``"dense"``, ``"paper"``), weights, or a mapping of weights.
        max_prompt_chars: the LLM agent's prompt budget (16 384, as ``--agent llm``).
        consistency_tolerance: the data-consistency tolerance of the reward (0.01 Hz).
        observation: ``"prompt"`` (each observation the whole prompt) or ``"chat"`` (after the first,
            the new user turn; ``info["messages"]`` the conversation).
        valid_actions: add ``info["valid_actions"]`` (:meth:`valid_actions`) at reset and each step.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012  (Gymnasium reads a plain dict class attribute)

    def __init__(
        self,
        suite: str | Suite = "mini",
        graph: str | int | None = None,
        *,
        config: EpisodeConfig | None = None,
        rewards: str | RewardWeights | Mapping[str, float] | None = "dense",
        max_prompt_chars: int = 16384,
        consistency_tolerance: float = 0.01,
        observation: str = "prompt",
        valid_actions: bool = False,
        render_mode: str | None = None,
        **flags: Any,
    ) -> None:
        unknown = sorted(set(flags) - set(EPISODE_FLAGS))
        if unknown:
            raise InputFormatError(f"CausaLabEnv option(s) {unknown!r} unknown; episode options are {sorted(EPISODE_FLAGS)!r}")
        if config is not None and flags:
            raise InputFormatError(f"pass config= or episode flags {sorted(flags)!r}, not both")
        if isinstance(max_prompt_chars, bool) or not isinstance(max_prompt_chars, int) or not 1000 <= max_prompt_chars <= MAX_PROMPT_CHARS:
            raise InputFormatError(f"max_prompt_chars={max_prompt_chars!r} must be an integer in 1000..MAX_PROMPT_CHARS={MAX_PROMPT_CHARS}")
        if render_mode not in (None, "ansi"):
            raise InputFormatError(f"render_mode={render_mode!r} must be None or 'ansi'")
        if observation not in ("prompt", "chat"):
            raise InputFormatError(f"observation={observation!r} must be 'prompt' or 'chat'")
        if not isinstance(valid_actions, bool):
            raise InputFormatError(f"valid_actions={valid_actions!r} must be true or false")
        self.suite = suite if isinstance(suite, Suite) else _suite(str(suite))
        if not self.suite.graphs:
            raise InputFormatError(f"suite={self.suite.name!r} has no graphs")
        self.config = config if config is not None else EpisodeConfig.from_flags(flags)
        self.weights = reward_weights(rewards)
        self.max_prompt_chars = max_prompt_chars
        self.render_mode = render_mode
        #: ``"prompt"`` or ``"chat"`` (the module docstring's chat mode).
        self.observation_mode = observation
        self._chat = observation == "chat"
        self._list_actions = valid_actions
        #: chat mode: the conversation so far, read-only message dicts
        self._conversation: list[dict[str, str]] = []
        self.fixed_graph = None if graph is None else self._graph(graph)
        self._rewards = RewardTracker(self.weights, tolerance=consistency_tolerance)
        self._episodes: dict[str, Episode] = {}
        self.max_observation_chars = MAX_RL_OBSERVATION_CHARS.value()
        self.max_action_chars = MAX_RL_ACTION_CHARS.value()
        self.observation_space = PromptText(self.max_observation_chars, min_length=0)
        self.action_space = PromptText(self.max_action_chars, min_length=0)
        self.system_prompt = prompt_messages("", "", "", [], {}, [], 1000)[0]["content"]
        self._episode: Episode | None = None
        self._options = self.config.to_json()  # flat: a dict() per header is a full copy
        drawn = (self.fixed_graph,) if self.fixed_graph is not None else self.suite.graphs
        #: The longest step limit of an episode this env can play (``spec.max_episode_steps``).
        self.max_episode_steps = max(self.config.step_limit(g) for g in drawn)
        self._spec: EnvSpec | None = None

    # ------------------------------------------------------------------ spec
    @property
    def spec(self) -> EnvSpec | None:
        """Gymnasium's spec of this env, ``max_episode_steps`` filled with :attr:`max_episode_steps`
        (``gymnasium.make`` sets the spec without it: the env truncates itself)."""
        spec: EnvSpec | None = self.__dict__.get("_spec")
        if spec is None or spec.max_episode_steps is not None:
            return spec
        return dataclasses.replace(spec, max_episode_steps=self.max_episode_steps)

    @spec.setter
    def spec(self, value: EnvSpec | None) -> None:
        self.__dict__["_spec"] = value

    # ------------------------------------------------------------------ np_random, built when read
    @property
    def _np_random(self) -> np.random.Generator | None:
        """Gymnasium's generator slot: after ``reset(seed=s)`` it holds ``seeding.np_random(s)``'s
        generator, built when first read (a seeded reset that draws nothing from it skips the
        ~25 µs of building one: an eighth of a reset)."""
        d = self.__dict__
        pending = d.get("_np_random_pending")
        if pending is not None:
            d["_np_random_pending"] = None
            d["_np_random_value"] = seeding.np_random(pending)[0]
        return d.get("_np_random_value")

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        self.__dict__["_np_random_pending"] = None
        self.__dict__["_np_random_value"] = value

    # ------------------------------------------------------------------ set-up
    def _graph(self, ref: str | int) -> SuiteGraph:
        graphs = self.suite.graphs
        if isinstance(ref, int) and not isinstance(ref, bool):
            if not 0 <= ref < len(graphs):
                raise InputFormatError(f"graph={ref!r} must be an index in 0..{len(graphs) - 1} of suite {self.suite.name!r}")
            return graphs[ref]
        for g in graphs:
            if g.graph_id == ref:
                return g
        raise InputFormatError(f"graph={ref!r} is not a graph id of suite {self.suite.name!r} (e.g. {graphs[0].graph_id!r})")

    def _episode_for(self, graph: SuiteGraph) -> Episode:
        ep = self._episodes.get(graph.graph_id)
        if ep is None:
            cands = [g.scm.graph for g in self.suite.graphs] if self.config.candidate_tool else []
            ep = self._episodes[graph.graph_id] = Episode(graph, self.config, candidates=cands)
        return ep

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        """Start the lab episode of *seed* (see the module docstring); returns the first prompt and ``info``."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise InputFormatError(f"seed={seed!r} must be a non-negative integer or None")
        if seed is not None:
            check_seed(int(seed))  # the trajectory records it: it must read back
        if seed is not None:  # what Env.reset(seed=seed) does, the generator built when first read
            self.__dict__["_np_random_pending"] = int(seed)
            self._np_random_seed = int(seed)
        opts = dict(options or {})
        unknown = sorted(set(opts) - {"graph"})
        if unknown:
            raise InputFormatError(f"reset options {unknown!r} unknown; the only option is 'graph'")
        if opts.get("graph") is not None:
            graph = self._graph(opts["graph"])
        elif self.fixed_graph is not None:
            graph = self.fixed_graph
        else:
            graph = self.suite.graphs[int(self.np_random.integers(len(self.suite.graphs)))]
        episode_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31 - 1))
        ep = self._episode = self._episode_for(graph)
        task, obs = ep.reset(episode_seed)
        self.task = task
        self.memory = ""
        self.past_data: list[Any] = _FrozenList()
        self.hypothesis: dict[str, Any] = _frozen(dict(EMPTY_HYPOTHESIS))
        self.actions: list[dict[str, Any]] = []
        self._history: list[str] = []  # the JSON text of each action, as the prompt shows them
        # (object, its JSON) of past_data, hypothesis: the empty ones' texts are known
        self._dumped: list[tuple[Any, str] | None] = [(self.past_data, "[]"), (self.hypothesis, _EMPTY_HYPOTHESIS_JSON)]
        self._head: list[tuple[str, str, str, str, str] | None] = [None]  # render_prompt's head cache
        self._obs = obs
        self._header: dict[str, Any] | None = None  # built when first read (header)
        self._lines: list[tuple[Observation, dict[str, Any], LabAction, Mapping[str, Any], dict[str, Any] | None]] = []
        self._rewards.reset(graph.scm.graph, graph.config, ep.prior, ep.manipulator_initial)
        self._prompt = self._messages(obs)
        messages = self._prompt
        if self._chat:
            self._conversation = [_FrozenDict(m) for m in messages]
            messages = list(self._conversation)
        info = {"messages": messages, "graph_id": graph.graph_id, "seed": episode_seed, "step": 0, "max_steps": ep.max_steps}
        if self._list_actions:
            info["valid_actions"] = self.valid_actions()
        return self._prompt[1]["content"], info

    def _messages(self, obs: Observation) -> list[dict[str, str]]:
        msgs = render_prompt(
            self.task.text, obs.text, self._json(self.past_data, 0), self._json(self.hypothesis, 1), self.memory,
            self._history, self.max_prompt_chars, self._head,
        )
        size = len(msgs[1]["content"])
        if size > self.max_observation_chars:
            raise LimitExceededError(MAX_RL_OBSERVATION_CHARS.message(size, f"prompt of graph {self.episode.graph.graph_id!r} step {obs.step}"))
        return msgs

    def _json(self, value: Any, slot: int) -> str:
        """The prompt's JSON text of a carried state value, dumped again only when the value was replaced."""
        kept = self._dumped[slot]
        if kept is not None and kept[0] is value:
            return kept[1]
        text = _JSON(value)
        self._dumped[slot] = (value, text)
        return text

    # ------------------------------------------------------------------ stepping
    def step(self, action: str) -> tuple[str, float, bool, bool, dict[str, Any]]:
        """Play the reply *action*; returns the next prompt, the reward, terminated, truncated and ``info``."""
        ep = self._episode
        if ep is None:
            raise BudgetExceededError("step() called before reset()")
        if ep.done:
            raise BudgetExceededError(f"episode is over (done_reason={ep.done_reason!r}); call reset()")
        info: dict[str, Any] = {}
        record: dict[str, Any] | None
        read_action: LabAction | None = None
        error: str | None
        if not isinstance(action, str):
            record, error = None, f"action={action!r:.80} must be a string (the reply text)"
        elif len(action) > self.max_action_chars:
            record, error = None, MAX_RL_ACTION_CHARS.message(len(action), "reply")
        elif has_lone_surrogates(action):  # causalcheck.base.surrogates: no file could hold what it meant
            record, error = None, "reply holds a lone surrogate (U+D800-U+DFFF), which is not text; the step is degraded"
        else:
            record, read_action, error = read_step(action)
        if record is None or read_action is None:
            # the record (kept for the trajectory) shares the carried read-only state; info gets its own copy
            # (Gymnasium: data returned by one call shares no object with another's)
            record, lab_action = degraded_record(error, self.memory, self.past_data, self.hypothesis)
            # decoded from the prompt's cached JSON of the carried state: a fresh copy at C speed
            shown = {**record, "past_data": json.loads(self._json(self.past_data, 0)), "hypothesis": json.loads(self._json(self.hypothesis, 1))}
            info.update(degraded=True, error=error)
        else:
            lab_action = read_action
            shown = record
        memory, past_data, hypothesis, fields = carry_forward(record, self.memory, self.past_data, self.hypothesis)
        self.memory = memory
        if past_data is not self.past_data:  # replaced by this step's record: carried read-only from now on
            self.past_data = _frozen(past_data)
        if hypothesis is not self.hypothesis:
            self.hypothesis = _frozen(hypothesis)
        self.actions.append(fields)
        self._history.append(_JSON(fields))
        before = self._obs
        n_transitions = len(ep.transitions)
        obs = self._obs = ep.step(lab_action)
        # the step line as run_episode writes it, built when the trajectory is read
        self._lines.append((before, record, lab_action, obs.response, dict(info) if info else None))
        moved = ep.transitions[-1] if len(ep.transitions) > n_transitions else None
        reward, terms, details = self._rewards.step(
            record,
            # a readable action the episode refuses (no such property, a budget spent) is penalised as a
            # malformed reply is: otherwise an impossible action would dodge the format penalty
            degraded=bool(info.get("degraded")) or bool(obs.response.get("refused")),
            intervention=None if moved is None else (str(moved["prop"]), moved["after"]),
            done=obs.done,
            success=obs.success,
            done_reason=ep.done_reason,
            submissions_left=obs.submissions_left,
            submissions=self.config.submissions,
        )
        truncated = obs.done and ep.done_reason == "step-limit"
        terminated = obs.done and not truncated
        if self._chat:
            observation = self._user_turn(action, obs)
            messages = list(self._conversation)
        else:
            self._prompt = messages = self._messages(obs)
            observation = messages[1]["content"]
        info.update(
            messages=messages,
            record=shown,
            action=lab_action.to_json(),
            refused=obs.response.get("refused"),
            reward_terms=terms,
            reward_details=details,
            step=obs.step,
        )
        if obs.done:
            info["summary"] = ep.summary()
        if self._list_actions:
            info["valid_actions"] = self.valid_actions()
        return observation, reward, terminated, truncated, info

    def _user_turn(self, action: Any, obs: Observation) -> str:
        """Chat mode: add the reply and the new user turn (the observation text) to the conversation."""
        text = obs.text
        if len(text) > self.max_observation_chars:
            raise LimitExceededError(MAX_RL_OBSERVATION_CHARS.message(len(text), f"observation of graph {self.episode.graph.graph_id!r} step {obs.step}"))
        reply = scrub(action[: self.max_action_chars]) if isinstance(action, str) else ""
        self._conversation += (_FrozenDict(role="assistant", content=reply), _FrozenDict(role="user", content=text))
        return text

    def valid_actions(self) -> list[dict[str, Any]]:
        """The action forms the episode accepts now (the module docstring), as the action fields of a
        record with the JSON Schema of each argument; ``[]`` once the episode is over."""
        ep = self.episode
        if ep.done:
            return []
        out: list[dict[str, Any]] = []
        controllable = ep.scm.controllable_names
        if controllable and not ep.locked and ep.interventions_used < ep.intervention_budget:
            out.append({"action": _ACTION_NAMES["intervene"], "arg1": {"enum": list(controllable)}, "arg2": {"type": "number"}})
        out.append({"action": _ACTION_NAMES["open_reactor"]})
        if ep.submissions_used < ep.config.submissions:
            out.append({"action": _ACTION_NAMES["submit_frequency"], "arg1": {"type": "number"}})
        out.append({"action": _ACTION_NAMES["finish"]})
        return out

    # ------------------------------------------------------------------ views
    @property
    def header(self) -> dict[str, Any]:
        """The trajectory header of the episode (as ``lab run`` writes it), built when first read."""
        if self._episode is None:
            raise BudgetExceededError("header read before reset()")
        if self._header is None:
            ep = self._episode
            graph = ep.graph
            self._header = {
                "format": TRAJECTORY_FORMAT,
                "suite": self.suite.name,
                "graph_id": graph.graph_id,
                "seed": ep.seed,
                "agent": "gymnasium",
                "config": dict(graph.config),
                "budgets": ep.budgets(),
                "reactor": {"props": dict(ep.reactor_props), "target_freq": ep.target_freq},
                "manipulator_initial": dict(ep.manipulator_initial),
                "prior_records": list(ep.prior),
                "options": dict(self._options),
                "task_text": self.task.text,
            }
        return self._header

    @property
    def trajectory(self) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The header and step lines of the episode so far, as ``lab run`` writes them."""
        if self._episode is None:
            raise BudgetExceededError("trajectory read before reset()")
        steps = []
        for k, (before, record, action, response, info) in enumerate(self._lines):
            line: dict[str, Any] = {
                "step": k,
                "observation": before.to_json(),
                "record": dict(record),
                "action": action.to_json(),
                "response": dict(response),
            }
            if info:
                line["info"] = info
            steps.append(line)
        return self.header, steps

    @property
    def observation(self) -> Observation:
        """The lab observation of the current step (its ``text`` is the environment's part of the prompt)."""
        if self._episode is None:
            raise BudgetExceededError("observation read before reset()")
        return self._obs

    @property
    def episode(self) -> Episode:
        """The lab episode being played."""
        if self._episode is None:
            raise BudgetExceededError("episode read before reset()")
        return self._episode

    def shown_data(self) -> list[dict[str, Any]]:
        """The data the environment has shown this episode — prior records, the manipulator's initial
        state, its state after each accepted intervention — as ``{"id", "props", "freq"}`` objects
        (the ``data`` column of :func:`causalcheck.rl.trl.hypothesis_reward`; the consistency term's data)."""
        if self._episode is None:
            raise BudgetExceededError("shown_data() called before reset()")
        return [{"id": p.id, "props": dict(p.props), "freq": p.freq} for p in self._rewards.points]

    def render(self) -> str | None:
        """The current observation (``render_mode="ansi"``): the prompt, or in chat mode the last user turn."""
        if self.render_mode != "ansi" or self._episode is None:
            return None
        if self._chat:
            return str(self._conversation[-1]["content"])
        return str(self._prompt[1]["content"])


#: ``json.dumps(value, ensure_ascii=False)``: the same text, from one encoder object instead of a new one per call
_JSON = json.JSONEncoder(ensure_ascii=False).encode
_EMPTY_HYPOTHESIS_JSON = _JSON(EMPTY_HYPOTHESIS)
#: The record's action name of each lab action kind (the lab's own mapping, ``LabAction.to_record_fields``).
_ACTION_NAMES = {kind: LabAction(kind).to_record_fields()["action"] for kind in ("intervene", "open_reactor", "submit_frequency", "finish")}


def _read_only(*_: Any, **__: Any) -> Any:
    raise TypeError("the state a CausaLab env carries between steps is read-only: copy it to change it")


class _FrozenList(list):  # type: ignore[type-arg]
    """A list that cannot be changed: the carried ``past_data``, shared by every step that keeps it.

    Still a ``list`` (readers, ``json`` and equality see one); pickled and copied as a new one."""

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _read_only
    append = extend = insert = pop = remove = clear = sort = reverse = _read_only

    def __reduce__(self) -> tuple[type[_FrozenList], tuple[list[Any]]]:
        return (_FrozenList, (list(self),))


class _FrozenDict(dict):  # type: ignore[type-arg]
    """A dict that cannot be changed (the carried ``hypothesis`` and the objects inside carried values)."""

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[type[_FrozenDict], tuple[dict[Any, Any]]]:
        return (_FrozenDict, (dict(self),))


def _frozen(value: Any) -> Any:
    """*value* (decoded JSON) as read-only lists and dicts, copied once: the carried state is then shared
    by the records of the steps that keep it, not copied per step (memory and time stay flat)."""
    if isinstance(value, (_FrozenList, _FrozenDict)):
        return value
    if isinstance(value, dict):
        return _FrozenDict({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return _FrozenList(_frozen(v) for v in value)
    return value


def rollout(env: gymnasium.Env[str, str], policy: Any, *, seed: int, max_steps: int | None = None) -> list[dict[str, Any]]:
    """Play one episode of *env* with ``policy(observation) -> reply``; returns each step's reward and info.

    A small helper for examples and tests; *max_steps* defaults to the episode's step limit.
    """
    obs, _ = env.reset(seed=seed)
    base = env.unwrapped
    limit = max_steps if max_steps is not None else getattr(base, "episode").max_steps  # noqa: B009  (a CausaLabEnv under wrappers)
    out: list[dict[str, Any]] = []
    for _ in range(int(limit)):
        obs, reward, terminated, truncated, info = env.step(policy(obs))
        out.append({"reward": reward, **info})
        if terminated or truncated:
            break
    return out

