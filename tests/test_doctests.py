"""Every module's docstring examples run as doctests.

The module list is derived from ``[tool.setuptools] packages`` in ``pyproject.toml`` (what a
wheel installs), not written by hand, so a new module cannot be forgotten; a folder with an
``__init__.py`` that the list lacks (it would be missing from a wheel) fails too.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parents[1]
_SETUPTOOLS = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
PACKAGES: list[str] = list(_SETUPTOOLS["packages"])
PACKAGE_DIRS: dict[str, str] = dict(_SETUPTOOLS["package-dir"])
_SKIP = {"causalcheck.__main__"}  # runs the command line on import


def _source_folder(package: str) -> Path | None:
    parts = package.split(".")
    for k in range(len(parts), 0, -1):
        head = ".".join(parts[:k])
        if head in PACKAGE_DIRS:
            return REPO / PACKAGE_DIRS[head] / Path(*parts[k:])
    return None


def _modules() -> list[str]:
    """Every module of every package, listed from the source folders (importing a package of an extra
    that is not installed would fail before its tests could skip)."""
    names: set[str] = set()
    for package in PACKAGES:
        names.add(package)
        folder = _source_folder(package)
        if folder is None:
            continue
        for info in pkgutil.iter_modules([str(folder)], package + "."):
            if not info.ispkg and info.name not in _SKIP:
                names.add(info.name)
    return sorted(names)


MODULES = _modules()


def test_every_source_package_is_installed():
    """Each folder with an ``__init__.py`` under the mapped folders is listed in ``packages``."""
    found = set()
    for package, folder in PACKAGE_DIRS.items():
        for init in (REPO / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(REPO / folder)
            found.add(".".join([package, *rel.parts]))
    missing = sorted(found - set(PACKAGES))
    assert not missing, f"packages missing from [tool.setuptools] packages (a wheel would lack them): {missing}"
    for package in PACKAGES:
        folder = _source_folder(package)
        assert folder is not None and (folder / "__init__.py").is_file(), f"{package} has no source folder"


def _import(module: str):  # type: ignore[no-untyped-def]
    """The module, or ``None`` when it needs an optional extra that is not installed (the extra's own tests skip too)."""
    from causalcheck.base.errors import MissingExtraError

    try:
        return importlib.import_module(module)
    except MissingExtraError:
        return None


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples(module):
    """The module's docstring examples (if any) pass (a module of an extra not installed here skips, saying so)."""
    mod = _import(module)
    if mod is None:
        from causalcheck.base.errors import MissingExtraError

        with pytest.raises(MissingExtraError) as info:
            importlib.import_module(module)
        pytest.skip(str(info.value))
    result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, report=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} doctest example(s) failed in {module}"


def test_the_package_has_doctests():
    """Guard against a collection bug that finds no modules or no examples at all."""
    attempted = 0
    for module in MODULES:
        finder = doctest.DocTestFinder()
        mod = _import(module)
        attempted += sum(len(t.examples) for t in finder.find(mod)) if mod is not None else 0
    assert len(MODULES) >= 40 and attempted >= 15
