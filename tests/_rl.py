"""Scripted policies for the RL tests and benchmark: the replies an offline agent's records make."""

from __future__ import annotations

import json
from typing import Any

from causalcheck.lab.agents import make_agent
from causalcheck.lab.runner import run_episode


def planner_replies(graph: Any, seed: int, agent: str = "planner") -> list[str]:
    """The reply texts of the offline *agent*'s episode (its records as JSON): a scripted policy
    that plays that episode again through the LLM agent's protocol."""
    _, steps, _ = run_episode(graph, make_agent(agent, seed=seed), seed)
    return [json.dumps(s["record"]) for s in steps]
