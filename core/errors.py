"""``causalcheck.errors``: Compatibility name, kept for users' scripts; the module is :mod:`causalcheck.base.errors` (former name kept).

The README documents ``causalcheck.errors`` as public, so its names are re-exported here: the
same objects (``causalcheck.errors.X is causalcheck.base.errors.X``).  causalcheck's own code imports from
:mod:`causalcheck.base.errors`.
"""

from __future__ import annotations

from causalcheck.base.errors import (
    BudgetExceededError,
    CausalCheckError,
    DSLSyntaxError,
    InputFormatError,
    Notice,
    caret_snippet,
)

__all__ = [
    "BudgetExceededError",
    "CausalCheckError",
    "DSLSyntaxError",
    "InputFormatError",
    "Notice",
    "caret_snippet",
]
