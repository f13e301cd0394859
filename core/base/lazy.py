"""Lazy re-exports for package ``__init__`` modules: names resolve on first use.

``import causalcheck`` must stay fast, so a package declares, module by module, the public
names it re-exports, and :func:`lazy_exports` gives it the module-level ``__getattr__`` and
``__dir__`` (PEP 562) that import the defining module only when a name is first used (and
then cache it in the package's namespace), and its ``__all__`` (sorted)::

    _EXPORTS = {"causalcheck.checking.api": ("check", "check_hypotheses"), ...}
    __getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)

    if TYPE_CHECKING:  # the same names, for the type checker
        from causalcheck.checking.api import check as check

>>> import types, sys
>>> pkg = types.ModuleType("demo_pkg"); sys.modules["demo_pkg"] = pkg
>>> pkg.__getattr__, pkg.__dir__, pkg.__all__ = lazy_exports("demo_pkg", {"json": ("dumps",)})
>>> pkg.dumps([1]), pkg.__all__
('[1]', ['dumps'])
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
    package: str, exports: Mapping[str, Sequence[str]], *, also: Sequence[str] = ()
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``(__getattr__, __dir__, __all__)`` for *package*.

    *exports* maps each defining module to the names the package re-exports from it; *also*
    adds names the package defines itself to ``__all__``.
    """
    home = {name: module for module, names in exports.items() for name in names}
    public = sorted([*home, *also])

    def __getattr__(name: str) -> Any:
        module = home.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return list(public)

    return __getattr__, __dir__, public
