"""The lab: hidden-SCM episodes compatible with CausaLab.

An agent faces a hidden linear (or quadratic) structural causal model over crystal
properties, reads prior measurement records, makes *shift* interventions on a manipulator
crystal, writes a hypothesis every step, and predicts the resonance frequency of a reactor
crystal (causalab-spec §1–2).  Pieces, in pipeline order:

* :mod:`~causalcheck.lab.suites` — load and validate official JSONL suites;
* :mod:`~causalcheck.lab.generator` — seeded generator of new suites;
* :mod:`~causalcheck.lab.scm` — the compiled SCM (topological evaluation, 2-dp rounding);
* :mod:`~causalcheck.lab.episode` — ``reset(seed)`` / ``step(action)``, the texts printed by
  :mod:`~causalcheck.lab.render`, the seeded draws made by :mod:`~causalcheck.lab.seeding`;
* :mod:`~causalcheck.lab.agents` — the :class:`Agent` protocol and offline agents;
* :mod:`~causalcheck.lab.trajectory` and :mod:`~causalcheck.lab.runner` — runs on disk.

Names are imported lazily so ``import causalcheck.lab`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from causalcheck.base.lazy import lazy_exports

_EXPORTS: dict[str, tuple[str, ...]] = {
    "causalcheck.lab.agents": ("AGENTS", "Agent", "AgentStep", "make_agent"),
    "causalcheck.lab.episode": ("Episode", "EpisodeConfig", "LabAction", "Observation"),
    "causalcheck.lab.generator": ("generate_suite",),
    "causalcheck.lab.runner": ("run_suite",),
    "causalcheck.lab.scm": ("SCM",),
    "causalcheck.lab.suites": ("Suite", "SuiteGraph", "load_suite"),
    "causalcheck.lab.trajectory": ("Trajectory", "read_trajectory", "write_trajectory"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover  (the same names for the type checker; aliases mark re-exports)
    from causalcheck.lab.agents import AGENTS as AGENTS
    from causalcheck.lab.agents import Agent as Agent
    from causalcheck.lab.agents import AgentStep as AgentStep
    from causalcheck.lab.agents import make_agent as make_agent
    from causalcheck.lab.episode import Episode as Episode
    from causalcheck.lab.episode import EpisodeConfig as EpisodeConfig
    from causalcheck.lab.episode import LabAction as LabAction
    from causalcheck.lab.episode import Observation as Observation
    from causalcheck.lab.generator import generate_suite as generate_suite
    from causalcheck.lab.runner import run_suite as run_suite
    from causalcheck.lab.scm import SCM as SCM
    from causalcheck.lab.suites import Suite as Suite
    from causalcheck.lab.suites import SuiteGraph as SuiteGraph
    from causalcheck.lab.suites import load_suite as load_suite
    from causalcheck.lab.trajectory import Trajectory as Trajectory
    from causalcheck.lab.trajectory import read_trajectory as read_trajectory
    from causalcheck.lab.trajectory import write_trajectory as write_trajectory
