"""CausaLab as a `verifiers <https://github.com/PrimeIntellect-ai/verifiers>`_ environment (verifiers ≥ 0.4, ``verifiers.v1``).

Three pieces, each the verifiers v1 form of something :mod:`causalcheck.rl.env` already has:

* :class:`CausaLabTaskset` (id :data:`TASKSET_ID`, ``"causalcheck-lab"``) — one task per lab
  episode: every graph of :attr:`CausaLabConfig.graphs` (default: all of the suite) × every seed
  of :attr:`CausaLabConfig.seeds`, with the episode options of ``lab run``
  (:attr:`CausaLabConfig.options`, the names of :data:`~causalcheck.lab.episode.EPISODE_FLAGS`).
  A task's prompt is the first observation of :class:`~causalcheck.rl.env.CausaLabEnv`, its system
  prompt the LLM agent's record rules, and its data carry everything needed to play the episode
  again (suite, graph, seed, options, reward weights).
* :class:`CausaLabVerifiersEnv` — the multi-turn environment: the lab plays the user.  Each model
  reply is one :meth:`CausaLabEnv.step <causalcheck.rl.env.CausaLabEnv.step>` (the same reply
  reader, budgets and refusals), until the episode ends.  What the model sees each turn is
  :attr:`CausaLabConfig.user_turn`: ``"fresh"`` (the default) sends the system prompt and the
  whole next prompt as a context of their own — the prompt already holds the episode's history
  in compact form, within ``max_prompt_chars``, so a request stays the size of one prompt, as
  ``lab run --agent llm`` sends it; ``"prompt"`` appends the whole prompt to the conversation
  (which grows by a prompt and a reply each turn); ``"observation"`` appends only the
  environment's new observation text (the conversation grows by a step at a time).  A fresh
  context is built by the player's harness (:class:`~causalcheck.rl.verifiers_harness.LabHarness`:
  the taskset's own chat harness, the player's default, or the scripted one).
* the rubric, :meth:`CausaLabTask.score` / :func:`score_replies` — the reward terms of
  :mod:`causalcheck.rl.rewards` (weights ``rewards="dense"``, ``"paper"`` or a mapping), computed
  by playing the trace's replies again through a fresh :class:`~causalcheck.rl.env.CausaLabEnv`:
  each term with a non-zero weight is a verifiers reward (its episode sum as the score, its weight
  as the weight), so ``trace.reward`` equals the Gymnasium episode's return for the same replies;
  the final mechanism terms, the step count and the outcome are metrics.  Scoring depends on the
  replies alone, so a stored or replayed trace scores the same, whatever ``user_turn`` played it.

verifiers resolves an id by importing the top-level module of that name (dashes as underscores)
and taking the classes it exports: the distribution installs ``causalcheck_lab``, which exports
this module's taskset and environment and the lab's chat harness, so ``vf-eval causalcheck-lab``
finds them by id.  Importing this module makes :data:`SCRIPTED_HARNESS_ID` (the in-process harness
of :mod:`causalcheck.rl.verifiers_harness`) loadable by id in the running process.
:func:`load_environment` builds the environment in one call.
"""

from __future__ import annotations

import sys
import types
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

try:
    import verifiers.v1 as vf
except ImportError:  # pragma: no cover - exercised only without the extra
    from causalcheck.base.errors import missing_extra

    raise missing_extra("causalcheck.rl.verifiers_env", "verifiers", requirement="verifiers>=0.4") from None

from causalcheck.base.errors import InputFormatError
from causalcheck.lab.episode import EPISODE_FLAGS
from causalcheck.rl import verifiers_harness
from causalcheck.rl.env import CausaLabEnv
from causalcheck.rl.rewards import TERMS, reward_weights
from causalcheck.rl.verifiers_harness import FRESH, LabHarness
from pydantic import Field

__all__ = [
    "CausaLabConfig",
    "CausaLabData",
    "CausaLabEnvConfig",
    "CausaLabTask",
    "CausaLabTaskset",
    "CausaLabVerifiersEnv",
]

#: The verifiers taskset id of the lab (``--env.taskset.id causalcheck-lab``).
TASKSET_ID = "causalcheck-lab"
#: The verifiers harness id of the in-process scripted policy.
SCRIPTED_HARNESS_ID = verifiers_harness.HARNESS_ID
#: The mechanism terms, reported as metrics (computed on the last step under every preset).
MECHANISM_TERMS = ("edge_f1", "parent_f1", "coefficient_f1", "shd")


class CausaLabConfig(vf.TasksetConfig):
    """The lab taskset's options (``--env.taskset.<name>``)."""

    suite: str = "mini"
    """A suite name (``lab suites``) or a suite file."""
    graphs: list[str] | None = None
    """Graph ids of the suite; ``None`` plays every graph."""
    seeds: list[int] = Field(default_factory=lambda: [0])
    """Episode seeds (``lab run --seeds``); one task per graph and seed."""
    options: dict[str, Any] = Field(default_factory=dict)
    """``lab run``'s episode flags (``budget``, ``interventions``, ``do``, …)."""
    rewards: str | dict[str, float] = "dense"
    """Reward weights: a preset (``"dense"``, ``"paper"``) or a mapping of term → weight."""
    max_prompt_chars: int = 16384
    """The LLM agent's prompt budget."""
    consistency_tolerance: float = 0.01
    """The data-consistency tolerance of the reward (Hz)."""
    user_turn: Literal["fresh", "prompt", "observation"] = FRESH
    """What the model sees each turn: the system prompt and the whole prompt in a new context
    (``"fresh"``), the conversation and the whole prompt (``"prompt"``), or the conversation and
    the new observation text (``"observation"``)."""


class CausaLabData(vf.TaskData):
    """One lab episode: what :func:`score_replies` needs to play it again."""

    suite: str
    graph_id: str
    seed: int
    options: dict[str, Any] = Field(default_factory=dict)
    weights: dict[str, float] = Field(default_factory=dict)
    max_prompt_chars: int = 16384
    consistency_tolerance: float = 0.01
    user_turn: Literal["fresh", "prompt", "observation"] = FRESH


@dataclass
class LabScore:
    """The rubric's reading of one transcript (:func:`score_replies`)."""

    total: float
    """The weighted return: the sum of the Gymnasium rewards of the played steps."""
    weights: dict[str, float]
    """The weights used (the task's; the ``dense`` preset's for a task that names none)."""
    terms: dict[str, float]
    """Each term's unweighted sum over the played steps."""
    steps: int
    done: bool
    success: bool
    degraded: int
    """Steps whose reply was not a usable record."""
    unused_replies: int
    """Replies after the episode ended (not played)."""
    rewards: list[float] = field(default_factory=list)
    """The reward of each played step."""
    summary: dict[str, Any] = field(default_factory=dict)
    """The episode summary (when it ended)."""


def lab_env(data: CausaLabData) -> CausaLabEnv:
    """The Gymnasium environment that plays the episode of *data* (not yet reset)."""
    return CausaLabEnv(
        data.suite, data.graph_id, rewards=dict(data.weights), max_prompt_chars=data.max_prompt_chars,
        consistency_tolerance=data.consistency_tolerance, **dict(data.options),
    )


def score_replies(data: CausaLabData, replies: Sequence[str]) -> LabScore:
    """Play *replies* in the episode of *data* and add up the reward terms (the rubric)."""
    env = lab_env(data)
    env.reset(seed=data.seed)
    sums = dict.fromkeys(TERMS, 0.0)
    rewards: list[float] = []
    degraded = 0
    done = success = False
    summary: dict[str, Any] = {}
    for reply in replies:
        if done:
            break
        _, reward, terminated, truncated, info = env.step(reply)
        rewards.append(reward)
        for name, value in info["reward_terms"].items():
            sums[name] += value
        degraded += bool(info.get("degraded"))
        done = terminated or truncated
        if done:
            summary = dict(info.get("summary") or {})
            success = bool(env.episode.success)
    return LabScore(
        total=float(sum(rewards)), weights=env.weights.to_json(), terms=sums, steps=len(rewards), done=done, success=success,
        degraded=degraded, unused_replies=len(replies) - len(rewards), rewards=rewards, summary=summary,
    )


def trace_replies(trace: vf.Trace) -> list[str]:
    """The model's replies in *trace*, as the environment read them (each assistant message's text, stripped).

    The lab offers no tools, so a turn is one model call and one assistant message; a harness that
    answered a turn with several assistant messages would be stepped with the last of them by
    :class:`CausaLabVerifiersEnv` but scored here on all of them.
    """
    return [(m.content or "").strip() if isinstance(m.content, str) else "" for m in trace.assistant_messages]


class CausaLabTask(vf.Task[CausaLabData, vf.State, vf.TaskConfig]):
    """A lab episode; its score is the rubric of :mod:`causalcheck.rl.rewards` over the trace's replies."""

    async def score(self, trace: vf.Trace, runtime: Any = None) -> None:
        await super().score(trace, runtime)
        if self.scoring_deferred:
            return
        result = score_replies(self.data, trace_replies(trace))
        weights = result.weights
        for name in TERMS:
            if weights.get(name, 0.0) != 0.0:
                trace.record_reward(name, result.terms[name], weights[name])
        for name in MECHANISM_TERMS:
            trace.record_metric(name, result.terms[name])
        trace.record_metrics({
            "steps": result.steps, "done": result.done, "success": result.success,
            "degraded_steps": result.degraded, "unused_replies": result.unused_replies, "return": result.total,
        })


class CausaLabTaskset(vf.Taskset[CausaLabTask, CausaLabConfig]):
    """The lab episodes of a suite (:class:`CausaLabConfig`)."""

    def __init__(self, config: CausaLabConfig) -> None:
        super().__init__(config)
        unknown = sorted(set(config.options) - set(EPISODE_FLAGS))
        if unknown:
            raise InputFormatError(f"taskset options {unknown!r} unknown; episode options are {sorted(EPISODE_FLAGS)!r}")
        if not config.seeds:
            raise InputFormatError("taskset seeds=[] must name at least one seed")
        bad = [s for s in config.seeds if isinstance(s, bool) or not 0 <= s < 2**31]
        if bad:
            raise InputFormatError(f"taskset seeds {bad!r} must be integers in 0..2**31-1")
        # a task's key is its data's hash, unique within a taskset: one task per graph and seed
        for name, values in (("seeds", config.seeds), ("graphs", config.graphs or [])):
            repeated = sorted((v for v, n in Counter(values).items() if n > 1), key=str)
            if repeated:
                raise InputFormatError(f"taskset {name} {repeated!r} are repeated; name each once")
        self.weights = reward_weights(config.rewards).to_json()
        # validates the suite, the options and the prompt budget (raises InputFormatError)
        probe = CausaLabEnv(
            config.suite, rewards=self.weights, max_prompt_chars=config.max_prompt_chars,
            consistency_tolerance=config.consistency_tolerance, **config.options,
        )
        ids = [g.graph_id for g in probe.suite.graphs]
        if config.graphs is None:
            self.graph_ids = ids
        else:
            missing = [g for g in config.graphs if g not in ids]
            if missing:
                raise InputFormatError(f"taskset graphs {missing!r} are not graph ids of suite {probe.suite.name!r} (e.g. {ids[0]!r})")
            self.graph_ids = list(config.graphs)
        self.suite_ref = config.suite

    def load(self) -> Iterator[CausaLabTask]:
        c = self.config
        for graph_id in self.graph_ids:
            for seed in c.seeds:
                data = CausaLabData(
                    name=f"{graph_id}#{seed}", suite=self.suite_ref, graph_id=graph_id, seed=int(seed),
                    options=dict(c.options), weights=dict(self.weights), max_prompt_chars=c.max_prompt_chars,
                    consistency_tolerance=c.consistency_tolerance, user_turn=c.user_turn,
                )
                env = lab_env(data)
                prompt, _ = env.reset(seed=int(seed))
                yield CausaLabTask(data.model_copy(update={"prompt": prompt, "system_prompt": env.system_prompt}), c.task)


class CausaLabEnvConfig(vf.EnvConfig):
    """The lab environment's config: one seat, ``player`` (the taskset's chat harness in the local subprocess runtime unless pinned)."""

    player: vf.AgentConfig = vf.AgentConfig(runtime={"type": "subprocess"})


class CausaLabVerifiersEnv(vf.Env[CausaLabEnvConfig]):
    """The multi-turn lab: each model reply is one step of :class:`~causalcheck.rl.env.CausaLabEnv` (module docstring)."""

    def __init__(self, config: CausaLabEnvConfig) -> None:
        super().__init__(config)
        user_turn = self.taskset.config.user_turn
        harness = config.agent_harnesses()["player"]
        if user_turn == FRESH and not isinstance(vf.load_harness(harness), LabHarness):
            raise InputFormatError(
                f"harness {harness.id!r} resends the conversation every turn, so it cannot play user_turn={user_turn!r}; "
                f"pin harness {TASKSET_ID!r} (the default) or {SCRIPTED_HARNESS_ID!r}, or set user_turn='prompt' or 'observation'"
            )

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        data = task.data
        if not isinstance(data, CausaLabData):
            raise InputFormatError(f"task {type(data).__name__} is not a lab episode (CausaLabData)")
        env = lab_env(data)
        prompt, _ = env.reset(seed=data.seed)
        if prompt != data.prompt:
            raise InputFormatError(f"task {data.name!r}: its prompt is not the episode's first observation (suite or options changed since it was loaded)")
        total = 0.0
        steps = 0
        async with agents.player.interaction(task) as interaction:
            segment = await interaction.turn()
            while not segment.terminated:
                prompt, reward, terminated, truncated, _ = env.step(segment.last_reply)
                total += reward
                steps += 1
                if terminated or truncated:
                    break  # the episode is over: the exchange ends
                segment = await interaction.turn(env.observation.text if data.user_turn == "observation" else prompt)
        episode = env.episode
        interaction.trace.info["causalab"] = {
            "graph_id": data.graph_id, "seed": data.seed, "steps": steps, "return": total,
            "done": episode.done, "done_reason": episode.done_reason,
        }


def load_environment(
    suite: str = "mini",
    *,
    graphs: Sequence[str] | None = None,
    seeds: Sequence[int] = (0,),
    rewards: str | Mapping[str, float] = "dense",
    harness: Mapping[str, Any] | None = None,
    user_turn: Literal["fresh", "prompt", "observation"] = FRESH,
    max_prompt_chars: int = 16384,
    consistency_tolerance: float = 0.01,
    **options: Any,
) -> CausaLabVerifiersEnv:
    """The lab environment through verifiers' own loader (``vf.load_environment``).

    *options* are ``lab run``'s episode flags; *harness* pins the player's harness config
    (default: the taskset's own, ``{"id": "causalcheck-lab"}``, verifiers' tool-less chat loop
    with the lab's context; ``{"id": "causalcheck-scripted", "replies": [...]}`` plays fixed
    replies in-process; another harness resends the conversation, so it needs
    ``user_turn="prompt"`` or ``"observation"``).
    """
    taskset: dict[str, Any] = {
        "id": TASKSET_ID, "suite": suite, "graphs": None if graphs is None else list(graphs), "seeds": list(seeds),
        "options": options, "rewards": rewards if isinstance(rewards, str) else dict(rewards),
        "user_turn": user_turn, "max_prompt_chars": max_prompt_chars, "consistency_tolerance": consistency_tolerance,
    }
    raw: dict[str, Any] = {"taskset": taskset}
    if harness is not None:
        raw["player"] = {"harness": dict(harness)}
    config = vf.resolve_env_config(raw)
    env = vf.load_environment(config)
    if not isinstance(env, CausaLabVerifiersEnv):  # pragma: no cover - the id resolves to this module
        raise InputFormatError(f"taskset id {TASKSET_ID!r} resolved to {type(env).__name__}, not CausaLabVerifiersEnv")
    return env


def register() -> None:
    """Make :data:`SCRIPTED_HARNESS_ID` loadable by id in the running process (idempotent).

    verifiers imports the module named after the id, ``causalcheck_scripted``, and takes the one
    Harness class it exports; this places a module that exports :class:`ScriptedHarness
    <causalcheck.rl.verifiers_harness.ScriptedHarness>` under that name.  :data:`TASKSET_ID` needs
    nothing: the distribution installs its top-level module.
    """
    name = SCRIPTED_HARNESS_ID.replace("-", "_")
    if name not in sys.modules:
        module = types.ModuleType(name, f"The verifiers harness id {SCRIPTED_HARNESS_ID!r}.")
        exports = {"ScriptedHarness": verifiers_harness.ScriptedHarness, "ScriptedHarnessConfig": verifiers_harness.ScriptedHarnessConfig}
        vars(module).update(exports, __all__=sorted(exports))
        sys.modules[name] = module

register()
