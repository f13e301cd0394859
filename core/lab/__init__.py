"""The lab: hidden-SCM episodes compatible with CausaLab.

An agent faces a hidden linear (or quadratic) structural causal model over crystal
properties, reads prior measurement records, makes *shift* interventions on a manipulator
crystal, writes a hypothesis every step, and predicts the resonance frequency of a reactor
crystal (causalab-spec §1–2).  Pieces, in pipeline order:

* :mod:`~causalcheck.lab.suites` — load and validate official JSONL suites;
* :mod:`~causalcheck.lab.generator` — seeded generator of new suites;
* :mod:`~causalcheck.lab.scm` — the compiled SCM (topological evaluation, 2-dp rounding);
* :mod:`~causalcheck.lab.episode` — ``reset(seed)`` / ``step(action)``;
* :mod:`~causalcheck.lab.agents` — the :class:`Agent` protocol and offline agents;
* :mod:`~causalcheck.lab.trajectory` and :mod:`~causalcheck.lab.runner` — runs on disk.

Names are imported lazily so ``import causalcheck.lab`` stays cheap.
"""

from __future__ import annotations

from causalcheck.lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "AGENTS": "causalcheck.lab.agents",
    "Agent": "causalcheck.lab.agents",
    "AgentStep": "causalcheck.lab.agents",
    "Episode": "causalcheck.lab.episode",
    "EpisodeConfig": "causalcheck.lab.episode",
    "LabAction": "causalcheck.lab.episode",
    "Observation": "causalcheck.lab.episode",
    "SCM": "causalcheck.lab.scm",
    "Suite": "causalcheck.lab.suites",
    "SuiteGraph": "causalcheck.lab.suites",
    "Trajectory": "causalcheck.lab.trajectory",
    "generate_suite": "causalcheck.lab.generator",
    "load_suite": "causalcheck.lab.suites",
    "make_agent": "causalcheck.lab.agents",
    "read_trajectory": "causalcheck.lab.trajectory",
    "run_suite": "causalcheck.lab.runner",
    "write_trajectory": "causalcheck.lab.trajectory",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
