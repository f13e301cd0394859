"""The inspect tasks ``causalcheck/whatif`` and ``causalcheck/lab`` (registered through the ``inspect_ai`` entry point).

::

    inspect eval causalcheck/whatif --model openai/gpt-4o                  # the bundled demo set
    inspect eval causalcheck/whatif --model openai/gpt-4o -T benchmark=bench.json \\
        --model-role judge=openai/gpt-4o                                    # LLM judges through a role
    inspect eval causalcheck/lab -T suite=4nodes --model openai/gpt-4o     # one sample per episode
    inspect eval causalcheck/lab -T suite=mini -T seeds=3 -T verify=true --model ollama/llama3.1
    inspect eval causalcheck/lab -T suite=mini --model causalcheck/planner   # offline: a built-in agent
    inspect eval causalcheck/whatif --model causalcheck/replay -M answers=demo   # offline: recorded answers

The offline models are :mod:`causalcheck.inspect.providers`.

Task parameters (``-T name=value``) are the keyword arguments of :func:`whatif` and :func:`lab`.
"""

from __future__ import annotations

from collections.abc import Sequence

from causalcheck.explain.generation import DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE
from causalcheck.inspect.lab import lab_agent, lab_dataset, lab_scorer
from causalcheck.inspect.providers import (
    mark_item,  # importing it registers the offline models causalcheck/*
)
from causalcheck.inspect.whatif import prism_scorer, whatif_dataset
from causalcheck.lab.episode import EpisodeConfig
from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

__all__ = ["lab", "whatif"]


@task
def whatif(
    benchmark: str = "demo",
    limit: int | None = None,
    segmenter: str = "rules",
    pm_mode: str = "causal",
    judge_edges: str | None = None,
    judge_role: str | None = "judge",
    parser_role: str | None = "parser",
    parser_compat: str = "full",
    edge_judge: str | None = None,
    criterion_judge: str | None = None,
    answer_parser: str | None = None,
) -> Task:
    """WhatIfBench answered by the evaluated model and scored with PRISM (PM, RM, Final per domain).

    Answers are generated with the paper's settings — temperature 0.6, at most 4096 new tokens
    (inspect's ``--temperature`` / ``--max-tokens`` override them) — from the prompt of
    ``causalcheck explain answer``.  Scoring is offline unless the model roles *judge_role* /
    *parser_role* are bound (``--model-role judge=MODEL``); *edge_judge*, *criterion_judge*,
    *answer_parser* and *segmenter* take plug-in names (:mod:`causalcheck.plugins`).
    """
    scorer_options = {name: value for name, value in locals().items() if name not in ("benchmark", "limit")}
    return Task(
        dataset=whatif_dataset(benchmark, limit),
        solver=[mark_item(), generate()],
        scorer=prism_scorer(**scorer_options),
        config=GenerateConfig(temperature=DEFAULT_TEMPERATURE, max_tokens=DEFAULT_MAX_TOKENS),
    )


@task
def lab(
    suite: str = "mini",
    seeds: int = 1,
    seed_start: int = 1,
    graphs: str | Sequence[str] | None = None,
    limit: int | None = None,
    budget: str | None = None,
    prior_records: int | None = None,
    interventions: int | None = None,
    submissions: int = 3,
    tolerance: float = 5.0,
    do: bool = False,
    hidden: bool = True,
    oracle_chains: bool = False,
    candidate_tool: bool = False,
    known_structure: bool = False,
    anchor_ceiling: bool = False,
    anchor_submissions: bool = False,
    max_steps: int | None = None,
    verify: bool = False,
    temperature: float = 0.1,
    max_tokens: int = 4096,
    json_mode: bool = True,
    max_prompt_chars: int = 16384,
) -> Task:
    """CausaLab episodes of *suite* played by the evaluated model through the LLM lab agent, scored like ``lab score``.

    Episode parameters are ``lab run``'s flags (``budget="3o6i"``, ``interventions``, ``do`` …);
    agent parameters are ``--agent llm``'s options (``verify`` adds the consistency-check step).
    """
    config = EpisodeConfig.from_flags(locals())  # the task's episode parameters are lab run's flags
    return Task(
        dataset=lab_dataset(suite, seeds=seeds, seed_start=seed_start, graphs=graphs, limit=limit, config=config),
        solver=lab_agent(
            temperature=temperature, max_tokens=max_tokens, json_mode=json_mode, verify=verify, max_prompt_chars=max_prompt_chars
        ),
        scorer=lab_scorer(),
    )
