"""Lazy re-exports for package ``__init__`` modules: names resolve on first use.

``import causalcheck`` must stay fast, so a package lists its public names and the module
that defines each, and :func:`lazy_exports` gives it the module-level ``__getattr__`` and
``__dir__`` (PEP 562) that import the defining module only when a name is first used (and
then cache it in the package's namespace)::

    _EXPORTS = {"check": "causalcheck.checking.api", ...}
    __all__ = sorted(_EXPORTS)
    __getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)

>>> import types, sys
>>> pkg = types.ModuleType("demo_pkg"); sys.modules["demo_pkg"] = pkg
>>> pkg.__getattr__, pkg.__dir__ = lazy_exports("demo_pkg", {"dumps": "json"}, ["dumps"])
>>> pkg.dumps([1])
'[1]'
>>> pkg.nope
Traceback (most recent call last):
...
AttributeError: module 'demo_pkg' has no attribute 'nope'
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, exports: Mapping[str, str], public: Sequence[str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for *package*: *exports* maps each name to its module; *public* is ``__all__``."""
    names = list(public)

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return names

    return __getattr__, __dir__
