"""MkDocs hook (``mkdocs.yml: hooks``): lay the source folders out as the ``causalcheck`` package for mkdocstrings.

The design-card folders (``core/``, ``solvers/``, ``adapters/``, ``grammar/``) become one
``causalcheck`` package only through ``[tool.setuptools] package-dir``; griffe, which reads the
docstrings for the API pages, looks for a folder named ``causalcheck`` (and, run as the
``mkdocs`` script, even picks up the ``causalcheck`` console script beside it).  Before the build
this hook builds the same link tree as ``.ci/typecheck`` under ``build/docs-api/`` (git-ignored),
which ``mkdocs.yml`` gives the python handler as its only search path: the API pages always
document this checkout's source, whatever is installed.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "docs-api"


def on_startup(command: str, dirty: bool) -> None:
    """Build ``build/docs-api/causalcheck/…`` (symlinks into the source folders) before mkdocstrings starts.

    (``on_startup``, not ``on_config``: the python handler drops a search path that does not exist
    when the plugins are configured.)"""
    loader = importlib.machinery.SourceFileLoader("_cc_typecheck", str(ROOT / ".ci" / "typecheck"))
    spec = importlib.util.spec_from_loader("_cc_typecheck", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    module.TREE = TREE
    module.build_tree(module.package_dirs())


#: A Sphinx cross-reference role as the docstrings write it (``:class:`~a.b.C```), once rendered to HTML.
_ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj|const):<code>(~?)([^<]+)</code>")


def _role(match: re.Match[str]) -> str:
    target = match.group(2)
    return f"<code>{target.rsplit('.', 1)[-1] if match.group(1) else target}</code>"


def on_page_content(html: str, **kwargs: object) -> str:
    """Show the docstrings' reST roles as code (``:class:`~a.b.C``` → ``C``), as Sphinx would print them."""
    return _ROLE.sub(_role, html)
