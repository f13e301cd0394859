"""The lab in inspect: one sample per episode, the LLM lab agent driven by inspect's model, the lab scorer.

* :func:`episode_config` — the episode budgets and options, named as ``lab run``'s flags
  (``budget="3o6i"``, ``interventions``, ``submissions``, ``do``, ``hidden``, …);
* :func:`lab_dataset` — one sample per (graph, seed) of a suite (``"mini"``, an official name
  such as ``"4nodes"``, or a JSONL path): id ``<graph_id>_s<seed>``, input = the task text the
  agent is shown, metadata = where the episode comes from (suite, graph, seed, config);
* :func:`lab_agent` — the solver: plays the sample's episode with
  :class:`causalcheck.lab.llm_agent.LLMAgent` — the same prompts, record format, state carried
  forward, unreadable-reply handling and optional verification step as ``lab run --agent llm``
  — and :func:`causalcheck.lab.runner.run_episode`, the same episode loop; only the model is
  inspect's, wrapped as our ``LLM`` (:class:`~causalcheck.inspect.model.InspectLLM`).  Every
  step adds an ``InfoEvent`` (source ``causalcheck/lab``) with the step's record, hypothesis,
  action and call info to the sample's transcript, next to the step's ``ModelEvent``; the
  whole trajectory (header, step lines, summary — the lines of a ``lab run`` episode file)
  is kept in the sample's metadata under ``causalcheck_trajectory``
  (:data:`causalcheck.episodes.inspect_logs.TRAJECTORY_KEY`);
* :func:`lab_scorer` — :func:`causalcheck.lab.score.score_episode` of that trajectory, read by
  the episode layer like a file: value ``{"task_accuracy", "edge_f1", "parent_f1", "root_f1",
  "coefficient_f1", "shd", "imec_size"}`` (the final hypothesis; ``imec_size`` is the size of
  the true graph's interventional equivalence class given the targets intervened on), the
  full final metrics and warnings in its metadata;
* :func:`lab_metrics` — the mean of each over the episodes (as ``lab score``'s roll-up).

Budgets are the episode's (interventions, submissions, step cap); the model call budget is
inspect's own (``--token-limit``, ``--message-limit`` …, or a ``max_tokens`` per call here).
A solver of your own can be scored with :func:`lab_scorer` when it leaves a trajectory in
the sample metadata.
"""

from __future__ import annotations

import functools
import json
import math
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import anyio.from_thread
from causalcheck.base.boundary import PluginError, call_plugin, is_own, plugin_label
from causalcheck.base.errors import InputFormatError
from causalcheck.episodes.inspect_logs import TRAJECTORY_KEY, sample_episode, sample_trajectory
from causalcheck.inspect.model import InspectLLM, run_in_thread
from causalcheck.inspect.providers import agent_model_name
from causalcheck.lab.agents import make_agent
from causalcheck.lab.episode import (
    EPISODE_FLAGS,
    Agent,
    AgentStep,
    Episode,
    EpisodeConfig,
    Observation,
    TaskInfo,
)
from causalcheck.lab.llm_agent import LLMAgent
from causalcheck.lab.runner import run_episode
from causalcheck.lab.score import EpisodeScore, score_episode
from causalcheck.lab.suites import Suite, SuiteGraph, load_suite
from causalcheck.metrics import bootstrap_ci
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.log import transcript
from inspect_ai.model import ModelOutput, get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

__all__ = [
    "LAB_KEYS",
    "TRAJECTORY_KEY",
    "StepEvents",
    "episode_config",
    "lab_agent",
    "lab_dataset",
    "lab_metrics",
    "lab_scorer",
]

#: The lab score reported per sample (and averaged by :func:`lab_metrics`).
LAB_KEYS: tuple[str, ...] = ("task_accuracy", "edge_f1", "parent_f1", "root_f1", "coefficient_f1", "shd", "imec_size")

_SCORE_LOCK = threading.Lock()  # scoring uses the exact solvers and shared caches: one episode at a time


def episode_config(**flags: Any) -> EpisodeConfig:
    """The :class:`EpisodeConfig` of ``lab run``'s flags of the same names (``budget="3o6i"``, ``do=True`` …;
    :meth:`EpisodeConfig.from_flags`, which lists them); an unknown name is refused."""
    unknown = sorted(set(flags) - set(EPISODE_FLAGS))
    if unknown:
        raise InputFormatError(f"episode_config: unknown flag(s) {unknown!r}; known: {sorted(EPISODE_FLAGS)!r}")
    return EpisodeConfig.from_flags(flags)


@functools.lru_cache(maxsize=8)
def _suite(ref: str) -> Suite:
    return load_suite(ref)


def _candidates(suite: Suite, config: EpisodeConfig) -> list[Any]:
    return [g.scm.graph for g in suite.graphs] if config.candidate_tool else []


def _graph_list(graphs: str | Sequence[str] | None) -> tuple[str, ...]:
    if graphs is None:
        return ()
    if isinstance(graphs, str):
        return tuple(g.strip() for g in graphs.split(",") if g.strip())
    return tuple(str(g) for g in graphs)


def lab_dataset(
    suite: str = "mini",
    *,
    seeds: int = 1,
    seed_start: int = 1,
    graphs: str | Sequence[str] | None = None,
    limit: int | None = None,
    config: EpisodeConfig | None = None,
) -> MemoryDataset:
    """One sample per (graph, seed) of *suite*, in ``lab run``'s order (module docstring)."""
    cfg = config or EpisodeConfig()
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise InputFormatError(f"seeds={seeds!r} must be a positive integer")
    loaded = _suite(str(suite))
    wanted = _graph_list(graphs)
    chosen = [(i, g) for i, g in enumerate(loaded.graphs) if not wanted or g.graph_id in wanted]
    missing = sorted(set(wanted) - {g.graph_id for _, g in chosen})
    if missing:
        raise InputFormatError(f"graphs={missing!r} are not in suite {loaded.name!r}")
    if limit is not None:
        chosen = chosen[:limit]
    cands = _candidates(loaded, cfg)
    samples = []
    for index, graph in chosen:
        for seed in range(seed_start, seed_start + seeds):
            task, _ = Episode(graph, cfg, candidates=cands).reset(seed)
            samples.append(
                Sample(
                    input=task.text,
                    id=f"{graph.graph_id}_s{seed}",
                    metadata={
                        "suite": str(suite),
                        "suite_name": loaded.name,
                        "graph_id": graph.graph_id,
                        "graph_index": index,
                        "seed": seed,
                        "episode_config": cfg.to_json(),
                    },
                )
            )
    return MemoryDataset(samples, name=f"lab:{loaded.name}")


class StepEvents:
    """An agent wrapper that adds one ``InfoEvent`` per step to the sample's transcript.

    Runs in the episode's worker thread; the event is appended on inspect's loop
    (``anyio.from_thread``), in the sample's context.
    """

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.step = 0

    def reset(self, task: TaskInfo) -> None:
        call_plugin("agent", self.agent, "reset", task)
        self.step = 0

    def act(self, observation: Observation) -> AgentStep:
        out: AgentStep = call_plugin("agent", self.agent, "act", observation, returns=AgentStep)
        if not is_own(self.agent) and (problems := out.problems()):
            raise PluginError(f"agent {plugin_label(self.agent)}: act() returned a step that cannot be played: {'; '.join(problems)}")
        data: dict[str, Any] = {
            "step": self.step,
            "phase": observation.phase,
            "record": dict(out.record),
            "hypothesis": out.record.get("hypothesis"),
            "action": out.action.to_json(),
        }
        if out.info:
            data["info"] = dict(out.info)
        self.step += 1
        anyio.from_thread.run_sync(functools.partial(transcript().info, data, source="causalcheck/lab"))
        return out


def _graph_of(suite: Suite, meta: Mapping[str, Any]) -> SuiteGraph:
    graph_id = meta.get("graph_id")
    for g in suite.graphs:
        if g.graph_id == graph_id:
            return g
    raise InputFormatError(f"graph_id={graph_id!r} is not in suite {suite.name!r}")


@solver
def lab_agent(
    temperature: float = 0.1,
    max_tokens: int = 4096,
    json_mode: bool = True,
    verify: bool = False,
    max_prompt_chars: int = 16384,
) -> Solver:
    """Play the sample's episode with the LLM lab agent on inspect's model (module docstring).

    The sample metadata names the episode (``suite``, ``graph_id``, ``seed``, ``episode_config``,
    as :func:`lab_dataset` writes it).  Options as ``--agent llm``'s.
    """

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        meta = state.metadata
        suite = _suite(str(meta.get("suite", "mini")))
        graph = _graph_of(suite, meta)
        cfg = EpisodeConfig(**dict(meta.get("episode_config") or {}))
        seed = int(meta.get("seed", 1))
        cands = _candidates(suite, cfg)
        builtin = agent_model_name(get_model())
        if builtin is not None:  # causalcheck/planner etc.: the built-in agent plays, as `lab run --agent NAME`
            own = StepEvents(make_agent(builtin, seed=seed))
            header, steps, summary = await run_in_thread(
                lambda: run_episode(graph, own, seed, config=cfg, suite_name=suite.name, agent_name=builtin, candidates=cands)
            )
            header["model"] = f"causalcheck/{builtin}"
            state.metadata[TRAJECTORY_KEY] = {"header": header, "steps": steps, "summary": summary}
            state.output = ModelOutput.from_content(model=f"causalcheck/{builtin}", content=json.dumps(summary, sort_keys=True))
            state.messages.append(state.output.message)
            return state
        llm = InspectLLM()
        agent = StepEvents(
            LLMAgent(
                llm,
                seed=seed,
                temperature=temperature,
                max_tokens=max_tokens,
                json_mode=json_mode,
                verify=verify,
                max_prompt_chars=max_prompt_chars,
            )
        )
        header, steps, summary = await run_in_thread(
            lambda: run_episode(graph, agent, seed, config=cfg, suite_name=suite.name, agent_name="llm", candidates=cands),
            models=(llm,),
        )
        header["model"] = str(llm.inspect_model)
        header["agent_options"] = {
            "temperature": temperature,
            "max_tokens": max_tokens,
            "json_mode": json_mode,
            "verify": verify,
            "max_prompt_chars": max_prompt_chars,
        }
        state.metadata[TRAJECTORY_KEY] = {"header": header, "steps": steps, "summary": summary}
        if llm.outputs:
            state.output = llm.outputs[-1]
            state.messages.append(state.output.message)
        return state

    return solve


@metric
def lab_metrics() -> Metric:
    """The mean of every :data:`LAB_KEYS` value over the scored episodes, and their number."""

    def compute(scores: list[SampleScore]) -> Value:
        def order(pair: tuple[int, SampleScore]) -> tuple[int, int, int]:
            meta = pair[1].sample_metadata or {}
            return int(meta.get("graph_index", pair[0])), int(meta.get("seed", 0)), pair[0]

        values = [s.score.value for _, s in sorted(enumerate(scores), key=order)]
        dicts = [v for v in values if isinstance(v, Mapping)]
        out: dict[str, float | None] = {}
        for key in LAB_KEYS:
            nums = [float(x) for x in (v.get(key) for v in dicts) if isinstance(x, (int, float)) and not isinstance(x, bool)]
            out[key] = bootstrap_ci(nums, resamples=0).mean  # None without values: inspect drops it
        out["episodes"] = float(len(dicts))
        return out

    return compute


@scorer(metrics=[lab_metrics()])
def lab_scorer(coefficient_tolerance: float = 1e-6, audit: bool = True) -> Scorer:
    """``lab score`` of the sample's trajectory (module docstring); options as ``lab score``'s."""

    async def score(state: TaskState, target: Target) -> Score:
        if sample_trajectory(state.metadata) is None:
            return Score(value=math.nan, explanation=f"the sample holds no trajectory in metadata[{TRAJECTORY_KEY!r}]")
        ep = sample_episode(state.metadata, f"{state.sample_id}@{state.epoch}")

        def run() -> EpisodeScore:
            with _SCORE_LOCK:
                return score_episode(ep, coefficient_tolerance=coefficient_tolerance, audit=audit)

        result = await run_in_thread(run)
        final = dict(result.final)
        value = {key: final.get(key) for key in LAB_KEYS}
        success = final.get("task_accuracy")
        return Score(
            value=value,
            answer=None if final.get("submitted") is None else str(final["submitted"]),
            explanation=(
                f"reactor {'activated' if success == 1.0 else 'not activated'}; "
                f"final hypothesis at step {final.get('hypothesis_step')}: edge F1 {final.get('edge_f1')}, SHD {final.get('shd')}"
            ),
            metadata={"final": final, "warnings": list(result.warnings)},
        )

    return score
