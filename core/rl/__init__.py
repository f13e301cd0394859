"""The lab as a training environment: Gymnasium, verifier rewards, TRL reward functions and a TRL environment.

* :mod:`~causalcheck.rl.env` — :class:`CausaLabEnv`, the text environment registered with
  Gymnasium as ``causalcheck/CausaLab-v0`` when this package is imported (needs the ``rl``
  extra: ``pip install 'causalcheck[rl]'``);
* :mod:`~causalcheck.rl.rewards` — the reward terms and their weights (no extra needed);
* :mod:`~causalcheck.rl.trl` — reward functions with TRL's ``reward_funcs`` signature (no extra);
* :mod:`~causalcheck.rl.trl_env` — the lab as a TRL ``environment_factory`` for ``GRPOTrainer``'s
  multi-turn tool calling (needs the ``rl`` extra; TRL itself is not imported);
* :mod:`~causalcheck.rl.datasets` — single-turn datasets from suites: prompts and the reward's
  columns, split by graph (needs the ``rl`` extra);
* :mod:`~causalcheck.rl.verifiers_env` — the lab as a verifiers (v1) taskset, multi-turn
  environment and rubric, and :mod:`~causalcheck.rl.verifiers_harness`, its chat harness (a fresh
  context each turn) and an in-process scripted harness (needs the ``verifiers`` extra: ``pip install 'causalcheck[verifiers]'``).

Gymnasium 1.x reads no plug-in entry points, so the environment is registered by importing
this package; ``gymnasium.make("causalcheck.rl:causalcheck/CausaLab-v0", ...)`` imports it
for you.
"""

from __future__ import annotations

import importlib.util

__all__ = ["ENV_ID", "register"]

#: The Gymnasium id of the lab environment.
ENV_ID = "causalcheck/CausaLab-v0"


def register() -> bool:
    """Register :data:`ENV_ID` with Gymnasium (idempotent); ``False`` when Gymnasium is not installed."""
    if importlib.util.find_spec("gymnasium") is None:
        return False
    import gymnasium

    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="causalcheck.rl.env:CausaLabEnv", disable_env_checker=False)
    return True


register()
