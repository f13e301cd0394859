"""The optional ``testing`` extra: what needs hypothesis, and the error when it is missing.

``causalcheck.strategies`` and the property suites of :mod:`causalcheck.testing` are built on
`hypothesis <https://hypothesis.readthedocs.io>`_, an optional dependency
(``pip install 'causalcheck[testing]'``).  Importing them without it raises
:class:`MissingExtraError` — an :class:`ImportError` (and a
:class:`~causalcheck.errors.CausalCheckError`) whose one-line message is the install hint,
raised ``from None`` so no chained traceback of the failed import follows it.

>>> issubclass(MissingExtraError, ImportError)
True
>>> require_hypothesis("causalcheck.strategies")  # installed here: returns quietly
"""

from __future__ import annotations

import importlib.util

from causalcheck.errors import CausalCheckError

__all__ = ["INSTALL_HINT", "MissingExtraError", "require_hypothesis"]

#: The command that installs what :mod:`causalcheck.strategies` needs.
INSTALL_HINT = "pip install 'causalcheck[testing]'"


class MissingExtraError(CausalCheckError, ImportError):
    """An optional dependency of the imported module is not installed (the message says how to install it)."""


def require_hypothesis(module: str) -> None:
    """Raise :class:`MissingExtraError` for *module* unless hypothesis can be imported."""
    try:
        found = importlib.util.find_spec("hypothesis") is not None
    except (ImportError, ValueError):  # a None entry in sys.modules, a broken install
        found = False
    if found:
        try:
            import hypothesis  # noqa: F401
        except ImportError:
            found = False
    if not found:
        raise MissingExtraError(f"{module} needs hypothesis, which is not installed: {INSTALL_HINT}") from None
