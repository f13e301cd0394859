"""The optional ``testing`` extra: what needs hypothesis, and the error when it is missing.

``causalcheck.strategies`` and the property suites of :mod:`causalcheck.testing` are built on
`hypothesis <https://hypothesis.readthedocs.io>`_, an optional dependency
(``pip install 'causalcheck[testing]'``).  Importing them without it raises
:class:`MissingExtraError` — an :class:`ImportError` (and a
:class:`~causalcheck.base.errors.CausalCheckError`) whose one-line message is the install hint,
raised ``from None`` so no chained traceback of the failed import follows it.

>>> issubclass(MissingExtraError, ImportError)
True
>>> require_hypothesis("causalcheck.strategies")  # installed here: returns quietly
"""

from __future__ import annotations

import importlib.util

from causalcheck.base.errors import MissingExtraError, missing_extra

__all__ = ["MissingExtraError", "has_hypothesis", "missing_hypothesis", "require_hypothesis"]


def has_hypothesis() -> bool:
    """True when hypothesis can be imported."""
    try:
        if importlib.util.find_spec("hypothesis") is None:
            return False
        import hypothesis  # noqa: F401
    except (ImportError, ValueError):  # a None entry in sys.modules, a broken install
        return False
    return True


def missing_hypothesis(module: str) -> MissingExtraError:
    """The error for *module* when hypothesis is missing (its message is the one-line hint)."""
    return missing_extra(module, "hypothesis")


def require_hypothesis(module: str) -> None:
    """Raise :func:`missing_hypothesis` for *module* unless hypothesis can be imported."""
    if not has_hypothesis():
        raise missing_hypothesis(module)
