"""The verifiers id ``causalcheck-lab``: the lab's taskset, environment and chat harness.

verifiers finds an environment by id (``vf-eval causalcheck-lab``) by importing the top-level
module of that name, dashes as underscores, and taking the Taskset, Env and Harness classes its
``__all__`` exports (the harness is the taskset's default for every seat that pins none).  The
classes live in :mod:`causalcheck.rl.verifiers_env` and :mod:`causalcheck.rl.verifiers_harness`
(docs/rl.md, "verifiers"); this module only names them.
"""

from causalcheck.rl.verifiers_env import CausaLabTaskset, CausaLabVerifiersEnv
from causalcheck.rl.verifiers_harness import CausaLabChatHarness

__all__ = ["CausaLabChatHarness", "CausaLabTaskset", "CausaLabVerifiersEnv"]
