"""The lark grammars of causalcheck, shipped as package data.

:func:`load` reads one grammar file by name (``"equation"``, ``"hypothesis"``, ...).
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from causalcheck.base.errors import InputFormatError

__all__ = ["load", "names"]


def names() -> list[str]:
    """Names of the bundled grammars (file stems)."""
    return sorted(
        p.name[: -len(".lark")]
        for p in resources.files(__name__).iterdir()
        if p.name.endswith(".lark")
    )


@cache
def load(name: str) -> str:
    """Return the text of ``<name>.lark``."""
    path = resources.files(__name__) / f"{name}.lark"
    if not path.is_file():
        raise InputFormatError(f"grammar name={name!r} is not bundled; available: {names()!r}")
    return path.read_text(encoding="utf-8")
