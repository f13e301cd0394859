"""Where things are: every test file is named after the module, package or behaviour it tests.

A newcomer finds the test of a module by its name: ``causalcheck.lab.score`` is tested in
``tests/test_lab_score.py``, ``causalcheck.base.files`` in ``tests/test_base_files.py``, the
``causalcheck.graphs`` package as a whole in ``tests/test_graphs.py`` and a topic of a module in
``tests/test_<module>_<topic>.py`` (``test_graphs_validator_data.py``).  Tests that cross
modules are named after the behaviour they pin, from :data:`BEHAVIOURS`.  The module names come
from the installed packages (``[tool.setuptools] packages``), so a moved module renames its
test, and a test file named after nothing fails here with the rule.
"""

from __future__ import annotations

import pkgutil
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parents[1]

#: Test files named after a behaviour that crosses modules (``test_<behaviour>[_<topic>].py``).
BEHAVIOURS = (
    "architecture",  # the layer and import rules of the package
    "differential_original",  # the lab against the original CausaLab environment
    "docs_examples",  # every shell and Python example of the README and docs pages, run
    "docs_prose",  # the manual reads as a manual: no working-log prose in the docs
    "doctests",  # every module's docstring examples
    "faults",  # fault injection: retries, kill and resume, disk full, signals
    "function_length",  # no function over 80 lines without a reason in its docstring
    "fuzz",  # the fuzz harness (properties/) and the crashes it found (tests/)
    "layout",  # this file
    "readme_install",  # the README's tests on the README's install: CI's check of their skips
    "llm",  # the model-backed paths end to end through scripted models
    "newcomer_messages",  # the messages a new user meets first (issue 24, item 5)
    "server",  # a real OpenAI-compatible server
)


def module_names() -> set[str]:
    """``lab_score`` for ``causalcheck.lab.score``, ``graphs`` for ``causalcheck.graphs``: every module and package."""
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    names: set[str] = set()
    dirs: dict[str, str] = setuptools["package-dir"]
    for package in setuptools["packages"]:
        names.add(package)
        head = max((h for h in dirs if package == h or package.startswith(h + ".")), key=len)
        folder = REPO / dirs[head] / Path(*package.split(".")[len(head.split(".")) :])
        names.update(info.name for info in pkgutil.iter_modules([str(folder)], package + "."))  # no import: an extra may be missing
    return {n.removeprefix("causalcheck").lstrip(".").replace(".", "_") for n in names} - {""}


def subject(stem: str, names: set[str]) -> str | None:
    """The module or behaviour a test file's stem (``test_lab_score_csv``) is named after, or ``None``."""
    rest = stem.removeprefix("test_")
    found = [n for n in (*names, *BEHAVIOURS) if rest == n or rest.startswith(n + "_")]
    return max(found, key=len) if found else None


def test_every_test_file_is_named_after_a_module_or_a_behaviour() -> None:
    """tests/ and properties/ hold only test_<module or package or behaviour>[_<topic>].py files."""
    names = module_names()
    unnamed = [
        path.relative_to(REPO).as_posix()
        for folder in ("tests", "properties")
        for path in sorted((REPO / folder).glob("test_*.py"))
        if subject(path.stem, names) is None
    ]
    assert unnamed == [], f"name these after the module they test (test_<package>_<module>.py) or add the behaviour to BEHAVIOURS: {unnamed}"


def test_a_moved_module_leaves_its_old_test_name_unmatched() -> None:
    """The rule reads the real module list: a name of no module or behaviour matches nothing."""
    names = module_names()
    assert subject("test_lab_score_csv", names) == "lab_score"
    assert subject("test_base_files", names) == "base_files"
    assert subject("test_runfolder_fast_reader", names) is None


def test_no_two_test_files_share_a_name() -> None:
    """pytest imports tests/ and properties/ by file name, so one name may be used once."""
    stems = [p.stem for folder in ("tests", "properties") for p in (REPO / folder).glob("test_*.py")]
    assert sorted({s for s in stems if stems.count(s) > 1}) == []


def test_the_version_is_pyprojects() -> None:
    """causalcheck.__version__ (causalcheck.base.version) is the version pyproject.toml declares."""
    from causalcheck import __version__
    from causalcheck.base.version import __version__ as base_version

    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert __version__ == base_version == declared
