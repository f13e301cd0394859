"""Stage 3 — the bundled examples (``causalcheck check example:<name>``): a trajectory, a record, hypotheses."""

from __future__ import annotations

from pathlib import Path

from causalcheck.base.errors import InputFormatError

__all__ = ["example_names", "example_path"]


def example_names() -> list[str]:
    """Names of the bundled examples (``causalcheck check example:<name>``)."""
    from importlib import resources

    folder = resources.files("causalcheck") / "data" / "examples"
    if not folder.is_dir():
        return []
    return sorted(p.name.split(".", 1)[0] for p in folder.iterdir() if not p.name.startswith((".", "_")))


def example_path(name: str) -> Path:
    """The file of bundled example *name*."""
    from importlib import resources

    folder = resources.files("causalcheck") / "data" / "examples"
    if folder.is_dir():
        for p in folder.iterdir():
            if p.name.split(".", 1)[0] == name:
                return Path(str(p))
    raise InputFormatError(f"example name={name!r} is not bundled; available: {', '.join(example_names())}")
