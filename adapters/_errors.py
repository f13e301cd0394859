"""The errors only the adapters raise: a replay-cache miss and a spent cost budget.

The model protocol itself — :class:`~causalcheck.protocols.LLM`, its values
(:class:`~causalcheck.protocols.Request`, :class:`~causalcheck.protocols.Completion` …) and the
two errors every implementation may raise (:class:`~causalcheck.protocols.LLMError`,
:class:`~causalcheck.protocols.TransientLLMError`) — lives in the core,
:mod:`causalcheck.protocols`; this package implements it.  Both errors here are also
:class:`~causalcheck.base.errors.BudgetExceededError`, which is all the core needs to know: a
pipeline stops on them (CLI exit code 3) instead of degrading.
"""

from __future__ import annotations

from causalcheck.base.errors import BudgetExceededError
from causalcheck.protocols import LLMError

__all__ = ["CostLimitError", "ReplayMissError"]


class ReplayMissError(LLMError, BudgetExceededError):  # type: ignore[misc,unused-ignore]
    """Replay mode was asked for a call that is not in the cache (a replay never goes online).

    It is also a :class:`~causalcheck.base.errors.BudgetExceededError` — a replay has no budget
    for network calls — so pipelines stop on it (CLI exit code 3) instead of degrading.
    """


class CostLimitError(BudgetExceededError):  # type: ignore[misc,unused-ignore]
    """The run reached ``--max-cost``; no further calls are made (CLI exit code 3)."""
