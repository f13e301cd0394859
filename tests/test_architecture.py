"""Architecture rules of the installed ``causalcheck`` package, read from its source.

Five rules (BRIEF, style guide, docs/architecture.md), checked on every module the package installs — the modules
are found through the imported packages' ``__path__``, so the test sees what an install
maps, not a hand-written list:

* **no import cycles** among causalcheck modules, counting module-level *and*
  function-level imports (an import inside a function still makes two modules depend on
  each other).  Not counted: imports under ``if TYPE_CHECKING:`` (they never run) and the
  lazy ``__getattr__`` of a package ``__init__``.  A name imported from a package front door
  (``from causalcheck.adapters import LLMRun``) is followed to the module the package
  re-exports it from (its ``_EXPORTS`` table or its ``from .m import name`` lines); edges
  into a package ``__init__`` itself are re-export plumbing and ignored;
* **no private name across modules**: ``from causalcheck.x import _y`` and ``x._y`` on an
  imported causalcheck module are errors unless ``x`` is the importing module itself.  A
  private *module* (``causalcheck.explain._cues``) may be imported by the modules of its own
  package (``causalcheck.explain.*``), for its public names.

A third rule keeps the adapters at the edge: outside :mod:`causalcheck.adapters`, only the
functions of :data:`ADAPTER_EDGES` (each builds model clients from options) import them —
never at module level, not even for types.

A fourth rule is the layer table of ``docs/architecture.md`` (the docs site's Architecture page; the table
with the columns ``layer | modules | what lives there``, lowest layer first): every module is
in exactly one layer, and **no module imports a module of a higher layer** — module- or
function-level, ``TYPE_CHECKING`` blocks and a package's lazy ``__getattr__`` excluded, names
from a package front door followed to the module that defines them, as for cycles.  In the
table, ``x`` is the module ``causalcheck.x`` (``causalcheck`` the root package itself) and
``x/`` the package ``causalcheck.x`` with everything below it; the most specific entry wins
(``graphs.model`` over ``graphs/``).  An entry that names no module is an error too, so the
table stays true when modules move.

The rules are plain functions over parsed sources (:func:`import_cycles`,
A fifth keeps imports of causalcheck's own modules at the top of files: one inside a
function carries a ``# late: <reason>`` comment line (it pulls a heavy dependency, would close
an import cycle, clashes with a name, imports the adapters ...).

The rules are plain functions over parsed sources (:func:`import_cycles`,
:func:`private_uses`, :func:`adapter_imports`, :func:`layer_problems`,
:func:`upward_imports`, :func:`unmarked_late_imports`), so the last tests plant a cycle, a
private import, an adapter import, an upward import and an unmarked late import and show
that they are caught.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parents[1]
PACKAGES: list[str] = list(
    tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"]
)

@dataclass(frozen=True)
class Source:
    """One module: dotted ``name``, whether it is a package ``__init__``, its parsed ``tree`` and
    its file ``path`` (relative to the checkout when it lies in it) for messages."""

    name: str
    is_package: bool
    tree: ast.Module
    path: str = ""
    text: str = ""


def _shown(path: Path) -> str:
    """*path* relative to the checkout when it lies in it (``core/graphchecks/kinds.py``), else as given."""
    try:
        return path.resolve().relative_to(REPO).as_posix()
    except ValueError:
        return str(path)


def installed_sources() -> dict[str, Source]:
    """Every module of the installed causalcheck packages, parsed (found, not imported: a package whose
    optional dependency is missing, causalcheck.inspect without inspect_ai, is still read)."""
    out: dict[str, Source] = {}
    for package in PACKAGES:
        spec = importlib.util.find_spec(package)
        assert spec is not None and spec.submodule_search_locations, package
        paths = list(spec.submodule_search_locations)
        folder = Path(paths[0])
        init = folder / "__init__.py"
        text = init.read_text(encoding="utf-8")
        out[package] = Source(package, True, ast.parse(text), _shown(init), text)
        for info in pkgutil.iter_modules(paths, package + "."):
            if not info.ispkg:
                path = folder / (info.name.rpartition(".")[2] + ".py")
                text = path.read_text(encoding="utf-8")
                out[info.name] = Source(info.name, False, ast.parse(text), _shown(path), text)
    return out


def sources_from_text(modules: Mapping[str, str], packages: set[str]) -> dict[str, Source]:
    """Sources for planted examples: dotted name -> code; *packages* are the ``__init__`` modules."""
    return {
        name: Source(name, name in packages, ast.parse(code), name.replace(".", "/") + ("/__init__.py" if name in packages else ".py"), code)
        for name, code in modules.items()
    }


# ---------------------------------------------------------------------- reading imports
@dataclass(frozen=True)
class Import:
    """One imported name of a module.

    ``module``: the causalcheck module it resolves to; ``name``: the name taken from it
    (``None`` when the module itself is imported); ``type_only``: under ``TYPE_CHECKING``;
    ``lazy_export``: inside a package ``__init__``'s ``__getattr__``; ``function``: the innermost
    function it is in (``None`` at module level); ``line`` for messages.
    """

    module: str
    name: str | None
    type_only: bool
    lazy_export: bool
    function: str | None
    line: int


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _base(importer: Source, node: ast.ImportFrom) -> str:
    """The absolute module name of ``from <base> import ...`` (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = importer.name if importer.is_package else importer.name.rpartition(".")[0]
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{node.module}" if node.module else base


def _reexports(package: Source) -> dict[str, str]:
    """Name -> defining module for what a package ``__init__`` re-exports (``_EXPORTS`` and ``from .m import n``)."""
    out: dict[str, str] = {}
    for node in ast.walk(package.tree):
        if isinstance(node, ast.ImportFrom):
            base = _base(package, node)
            for alias in node.names:
                out.setdefault(alias.asname or alias.name, base)
        else:
            for name, module in _lazy_table(node).items():
                out[name] = module
    return out


def _lazy_table(node: ast.AST) -> dict[str, str]:
    """Name -> module of an ``_EXPORTS = {module: (name, ...)}`` assignment (empty for any other node)."""
    target = node.target if isinstance(node, ast.AnnAssign) else None
    if isinstance(node, ast.Assign):
        target = node.targets[0]
    value = getattr(node, "value", None)
    if not (isinstance(target, ast.Name) and target.id == "_EXPORTS" and isinstance(value, ast.Dict)):
        return {}
    out: dict[str, str] = {}
    for key, names in zip(value.keys, value.values, strict=True):
        if isinstance(key, ast.Constant) and isinstance(names, (ast.Tuple, ast.List)):
            for name in names.elts:
                if isinstance(name, ast.Constant):
                    out[str(name.value)] = str(key.value)
    return out


def imports_of(source: Source, sources: Mapping[str, Source], *, through_front_doors: bool) -> list[Import]:
    """Every import in *source* that resolves to a module in *sources*.

    ``from P import m`` of a submodule ``P.m`` resolves to ``P.m``; any other name to ``P`` —
    or, with *through_front_doors*, when ``P`` is a package that re-exports the name, to the
    module that defines it.
    """
    found: list[Import] = []

    def resolve(base: str, name: str) -> tuple[str, str | None] | None:
        if f"{base}.{name}" in sources:
            return f"{base}.{name}", None
        if base not in sources:
            return None
        if through_front_doors and sources[base].is_package:
            target = _reexports(sources[base]).get(name)
            if target in sources and target != source.name:
                return target, name
        return base, name

    def visit(node: ast.AST, type_only: bool, lazy: bool, function: str | None) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True, lazy, function)
            for child in node.orelse:
                visit(child, type_only, lazy, function)
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
            lazy = lazy or (source.is_package and node.name == "__getattr__")
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in sources:
                    found.append(Import(alias.name, None, type_only, lazy, function, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = _base(source, node)
            for alias in node.names:
                hit = resolve(base, alias.name)
                if hit is not None:
                    found.append(Import(hit[0], hit[1], type_only, lazy, function, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child, type_only, lazy, function)

    visit(source.tree, False, False, None)
    return found


# ---------------------------------------------------------------------- rule 1: no cycles
def import_graph(sources: Mapping[str, Source]) -> dict[str, set[str]]:
    """Module -> the modules it imports when it runs (module or function level; see the module docstring)."""
    graph: dict[str, set[str]] = {}
    for name, source in sources.items():
        graph[name] = {
            imp.module
            for imp in imports_of(source, sources, through_front_doors=True)
            if not imp.type_only and not imp.lazy_export and imp.module != name and not sources[imp.module].is_package
        }
    return graph


def _components(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, set())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: list[str] = []
            while not comp or comp[-1] != v:
                comp.append(stack.pop())
                on_stack.discard(comp[-1])
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(out)


def _shortest_cycle(graph: Mapping[str, set[str]], start: str, component: set[str]) -> list[str]:
    """The shortest ``start -> ... -> start`` inside one component (breadth first)."""
    parent: dict[str, str] = {start: start}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for v in frontier:
            for w in sorted(graph.get(v, set()) & component):
                if w == start:
                    path = [v]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [*reversed(path), start]
                if w not in parent:
                    parent[w] = v
                    following.append(w)
        frontier = following
    raise AssertionError(f"{start} is on no cycle of its component")  # pragma: no cover


def import_cycles(sources: Mapping[str, Source]) -> list[str]:
    """One line per strongly connected component: its shortest cycle ``a -> b -> a`` and, when
    more modules are tangled in it, how many."""
    graph = import_graph(sources)
    out: list[str] = []
    for comp in _components(graph):
        members = set(comp)
        path = min((_shortest_cycle(graph, start, members) for start in comp), key=lambda p: (len(p), p))
        extra = f"  ({len(comp)} modules in this cycle's component)" if len(comp) > len(path) - 1 else ""
        out.append(" -> ".join(path) + extra)
    return out


def folder_of(module: str) -> str:
    """The top-level package or module of causalcheck a module belongs to (``graphs`` for
    ``causalcheck.graphchecks.kinds``, ``graph`` for ``causalcheck.graph``, ``causalcheck`` for the root)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def folder_loops(sources: Mapping[str, Source]) -> list[list[str]]:
    """The top-level packages and modules that import each other, directly or through others
    (module- and function-level imports, as for :func:`import_cycles`): each loop sorted."""
    folders: dict[str, set[str]] = {}
    for module, imported in import_graph(sources).items():
        folders.setdefault(folder_of(module), set()).update(folder_of(m) for m in imported if folder_of(m) != folder_of(module))
    return sorted(_components(folders))


# ---------------------------------------------------------------------- rule 2: no private names
def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _outside_its_package(importer: str, module: str) -> bool:
    """Whether *module* lies below a private module ``P._m`` while *importer* is outside package ``P``."""
    parts = module.split(".")
    for k, part in enumerate(parts):
        if _private(part):
            owner = ".".join(parts[:k])
            return not (importer == owner or importer.startswith(owner + "."))
    return False


def _dotted(expr: ast.expr) -> list[str] | None:
    """``a.b.c`` -> ``["a", "b", "c"]``; ``None`` for anything but a chain of names."""
    parts: list[str] = []
    while isinstance(expr, ast.Attribute):
        parts.append(expr.attr)
        expr = expr.value
    return [expr.id, *reversed(parts)] if isinstance(expr, ast.Name) else None


def _bound_modules(source: Source, sources: Mapping[str, Source]) -> dict[str, str]:
    """Local name -> causalcheck module bound to it by an import (``import a.b`` binds ``a``)."""
    bound: dict[str, str] = {}
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in sources:
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    else:
                        bound[alias.name.partition(".")[0]] = alias.name.partition(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = _base(source, node)
            for alias in node.names:
                if f"{base}.{alias.name}" in sources:
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
    return bound


def private_uses(sources: Mapping[str, Source]) -> list[str]:
    """One line per use of another module's private name, or of a private module outside its package."""
    problems: list[tuple[str, int, str, str]] = []  # (module, line, what, "module._name")
    for name, source in sorted(sources.items()):
        for imp in imports_of(source, sources, through_front_doors=False):
            if imp.module == name:
                continue
            if _outside_its_package(name, imp.module):
                problems.append((name, imp.line, "imports private module", imp.module))
            elif imp.name is not None and _private(imp.name):
                problems.append((name, imp.line, "imports private name", f"{imp.module}.{imp.name}"))
        bound = _bound_modules(source, sources)
        for node in ast.walk(source.tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                chain = _dotted(node.value)
                if chain is not None and chain[0] in bound:
                    target = ".".join([bound[chain[0]], *chain[1:]])
                    if target in sources and target != name:
                        problems.append((name, node.lineno, "uses private name", f"{target}.{node.attr}"))
    return [
        f"{module}:{line} {what} {used}"
        for module, line, what, used in sorted(set(problems))
    ]


# ---------------------------------------------------------------------- rule 3: adapters only at the edges
ADAPTERS = "causalcheck.adapters"

#: The functions outside the adapters that may import them: each builds model clients from
#: command-line or agent options.  Everything else in the core sees only the protocols of
#: ``causalcheck.protocols`` (so it can never ask for an adapter's class).
ADAPTER_EDGES: frozenset[tuple[str, str]] = frozenset(
    {
        ("causalcheck.explain.answer", "run_answer"),
        ("causalcheck.explain.generation", "add_generation_arguments"),
        ("causalcheck.explain.generation", "start_generation"),
        ("causalcheck.explain.llm_cli", "add_cli_options"),
        ("causalcheck.explain.llm_cli", "make_llm_components"),
        ("causalcheck.explain.rubrics", "run_rubrics"),
        ("causalcheck.lab.llm_agent", "make_llm_agent"),
    }
)


def adapter_imports(sources: Mapping[str, Source]) -> list[str]:
    """One line per import of the adapters from outside them that is not in a listed edge function."""
    out: list[str] = []
    for name, source in sorted(sources.items()):
        if name == ADAPTERS or name.startswith(ADAPTERS + "."):
            continue
        for imp in imports_of(source, sources, through_front_doors=False):
            if imp.module == ADAPTERS or imp.module.startswith(ADAPTERS + "."):
                where = "module level" if imp.function is None else f"{imp.function}()"
                if imp.function is None or (name, imp.function) not in ADAPTER_EDGES:
                    out.append(f"{name}:{imp.line} imports {imp.module} at {where}")
    return out


# ---------------------------------------------------------------------- rule 4: layers
@dataclass(frozen=True)
class Layer:
    """One row of the layer table: its ``name`` and its ``entries`` as written (``errors``, ``graphs.model``, ``solvers/``)."""

    name: str
    entries: tuple[str, ...]


LAYER_HEADER = ["layer", "modules", "what lives there"]
_ENTRIES = re.compile(r"`[^`]+`(?:\s*,\s*`[^`]+`)*")


def layer_table(markdown: str) -> list[Layer]:
    """The layer table of the Architecture section of *markdown* (a README), lowest layer first.

    The modules cell holds only backquoted entries separated by commas (anything else, or a
    layer named twice, is an ``AssertionError`` naming the row), so the prose of the third
    column can never be read as a module.
    """
    assert "<!-- BEGIN architecture" in markdown and "<!-- END architecture -->" in markdown, "no Architecture section"
    section = markdown.split("<!-- BEGIN architecture", 1)[1].split("<!-- END architecture -->", 1)[0]
    lines = section.splitlines()
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None for line in lines]
    assert LAYER_HEADER in cells, f"the Architecture section has no table with the columns {LAYER_HEADER}"
    start = cells.index(LAYER_HEADER) + 2  # the header and its |---| line
    layers: list[Layer] = []
    for row in cells[start:]:
        if row is None:
            break
        assert len(row) == 3 and _ENTRIES.fullmatch(row[1]), f"layer table row {row!r}: the modules cell must be `a`, `b/`, ..."
        assert row[0] not in {layer.name for layer in layers}, f"layer {row[0]!r} is in the table twice"
        layers.append(Layer(row[0], tuple(re.findall(r"`([^`]+)`", row[1]))))
    assert layers, "the layer table has no rows"
    return layers


def _covers(entry: str, module: str) -> int | None:
    """How specifically *entry* names *module* (higher wins), ``None`` when it does not."""
    folder = entry.endswith("/")
    core = entry.rstrip("/")
    name = core if core == "causalcheck" else f"causalcheck.{core}"
    if module == name:
        return 10_000 if not folder else name.count(".")
    if folder and module.startswith(name + "."):
        return name.count(".")
    return None


def place_modules(sources: Mapping[str, Source], layers: Sequence[Layer]) -> tuple[dict[str, str], list[str]]:
    """Module -> its layer (the most specific entry naming it), and the problems of the table:
    modules in no layer, entries naming no module, entries listed twice."""
    problems: list[str] = []
    seen: dict[str, str] = {}
    for layer in layers:
        for entry in layer.entries:
            if entry in seen:
                problems.append(f"`{entry}` is listed twice (layers {seen[entry]} and {layer.name})")
            seen.setdefault(entry, layer.name)
            if not any(_covers(entry, module) is not None for module in sources):
                problems.append(f"`{entry}` (layer {layer.name}) names no causalcheck module")
    placed: dict[str, str] = {}
    for module in sorted(sources):
        ranked = [(rank, entry) for entry in seen if (rank := _covers(entry, module)) is not None]
        if not ranked:
            problems.append(f"{module} is in no layer of the layer table")
        else:
            placed[module] = seen[max(ranked)[1]]
    return placed, problems


def layer_problems(sources: Mapping[str, Source], layers: Sequence[Layer]) -> list[str]:
    """The table's problems (see :func:`place_modules`): empty when every module is in exactly one layer."""
    return place_modules(sources, layers)[1]


def upward_imports(sources: Mapping[str, Source], layers: Sequence[Layer]) -> list[str]:
    """One line per import of a higher layer's module:
    ``causalcheck.x (layer A) -> causalcheck.y (layer B) at core/x.py:12 in f()``."""
    placed, _ = place_modules(sources, layers)
    rank = {layer.name: k for k, layer in enumerate(layers)}
    found: set[tuple[str, int, str]] = set()
    for name, source in sources.items():
        for imp in imports_of(source, sources, through_front_doors=True):
            if imp.type_only or imp.lazy_export or imp.module == name:
                continue
            low, high = placed.get(name), placed.get(imp.module)
            if low is not None and high is not None and rank[high] > rank[low]:
                where = "module level" if imp.function is None else f"{imp.function}()"
                found.add((source.path, imp.line, f"{name} ({low}) -> {imp.module} ({high}) at {source.path}:{imp.line} in {where}"))
    return [line for _, _, line in sorted(found)]


# ---------------------------------------------------------------------- rule 5: own imports at the top
LATE_MARK = "# late: "


def unmarked_late_imports(sources: Mapping[str, Source]) -> list[str]:
    """One line per import of a causalcheck module inside a function without a ``# late: <reason>``
    comment on the line above (``TYPE_CHECKING`` blocks and a package's lazy ``__getattr__`` excluded)."""
    out: set[tuple[str, int]] = set()
    for name, source in sources.items():
        lines = source.text.splitlines()
        for imp in imports_of(source, sources, through_front_doors=False):
            if imp.function is None or imp.type_only or imp.lazy_export or imp.module == name:
                continue
            above = lines[imp.line - 2].strip() if imp.line >= 2 else ""
            if not above.startswith(LATE_MARK):
                out.add((source.path, imp.line))
    return [f"{path}:{line} imports a causalcheck module inside a function without a '# late: <reason>' line above it" for path, line in sorted(out)]


# ---------------------------------------------------------------------- the tests
SOURCES = installed_sources()


def test_the_scan_sees_the_installed_package() -> None:
    """Core, adapters and solvers modules are scanned, and imports through a package front door resolve."""
    assert {"causalcheck.cli", "causalcheck.adapters._client", "causalcheck.solvers.equivalence"} <= set(SOURCES)
    graph = import_graph(SOURCES)
    assert "causalcheck.base.errors" in graph["causalcheck.base.cmdline"]  # a function-level import
    assert "causalcheck.adapters._registry" in graph["causalcheck.explain.answer"]  # via causalcheck.adapters


def test_no_import_cycles() -> None:
    """No two causalcheck modules import each other, directly or through others (function-level imports count)."""
    cycles = import_cycles(SOURCES)
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


def test_no_private_names_across_modules() -> None:
    """No module imports or reads another module's private name, or another package's private module."""
    problems = private_uses(SOURCES)
    assert not problems, "private names used across modules:\n" + "\n".join(problems)


def lazy_views(source: Source) -> tuple[dict[str, str], dict[str, str]]:
    """A package's ``_EXPORTS`` table and its ``if TYPE_CHECKING:`` imports, each as name -> module."""
    table: dict[str, str] = {}
    static: dict[str, str] = {}
    for node in source.tree.body:
        table.update(_lazy_table(node))
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                if isinstance(child, ast.ImportFrom):
                    for alias in child.names:
                        static[alias.asname or alias.name] = _base(source, child)
    return table, static


def test_lazy_exports_are_what_the_type_checker_sees() -> None:
    """Every package with a lazy ``_EXPORTS`` table imports exactly those names under ``TYPE_CHECKING``."""
    lazy = {name: lazy_views(source) for name, source in SOURCES.items() if source.is_package}
    lazy = {name: views for name, views in lazy.items() if views[0]}
    assert {"causalcheck", "causalcheck.adapters", "causalcheck.graphs"} <= set(lazy)
    for name, (table, static) in lazy.items():
        assert table == static, f"{name}: _EXPORTS and its TYPE_CHECKING imports differ"


def test_core_imports_adapters_only_where_it_builds_clients() -> None:
    """No core module imports an adapter for a type or a class check; only the listed edge functions build clients."""
    problems = adapter_imports(SOURCES)
    assert not problems, "adapters imported outside the edge functions:\n" + "\n".join(problems)


def test_an_adapter_import_in_library_code_is_caught() -> None:
    """A TYPE_CHECKING import of an adapter type, or one inside an unlisted function, is reported."""
    planted = sources_from_text(
        {
            "causalcheck": "",
            "causalcheck.adapters": "",
            "causalcheck.adapters._client": "class LLMClient: ...\n",
            "causalcheck.lab.llm_agent": "def make_llm_agent():\n    from causalcheck.adapters import LLMRun\n",
            "causalcheck.explain.llm": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from causalcheck.adapters import LLMClient\n"
                "def judge(llm):\n    from causalcheck.adapters._client import LLMClient\n    return isinstance(llm, LLMClient)\n"
            ),
        },
        packages={"causalcheck", "causalcheck.adapters"},
    )
    assert adapter_imports(planted) == [
        "causalcheck.explain.llm:3 imports causalcheck.adapters at module level",
        "causalcheck.explain.llm:5 imports causalcheck.adapters._client at judge()",
    ]


def test_a_planted_cycle_is_caught_and_named() -> None:
    """A function-level import that closes a loop is reported with its path; TYPE_CHECKING and front-door edges are not."""
    planted = sources_from_text(
        {
            "pkg": "_EXPORTS = {'pkg.c': ('thing',)}\ndef __getattr__(name):\n    import pkg.a\n",
            "pkg.a": "import pkg.b\nfrom typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.c\n",
            "pkg.b": "def f():\n    from pkg import a\n",
            "pkg.c": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\nfrom pkg import d\n",
            "pkg.d": "def g():\n    from pkg import thing\n",
        },
        packages={"pkg"},
    )
    assert import_graph(planted)["pkg.d"] == {"pkg.c"}  # followed through the front door
    assert import_cycles(planted) == ["pkg.a -> pkg.b -> pkg.a", "pkg.c -> pkg.d -> pkg.c"]


def test_a_planted_private_import_is_caught() -> None:
    """``from m import _x``, ``m._x`` and another package's private module are reported; own privates are not."""
    planted = sources_from_text(
        {
            "pkg": "",
            "pkg.a": "_x = 1\ny = _x\n",
            "pkg.b": "from pkg.a import _x\n",
            "pkg.c": "from pkg import a\nz = a._x\n",
            "pkg.sub": "",
            "pkg.sub._impl": "def f():\n    return 1\n",
            "pkg.sub.front": "from pkg.sub._impl import f\nfrom . import _impl\nw = _impl.f\n",
            "pkg.d": "def g():\n    import pkg.sub._impl\n",
        },
        packages={"pkg", "pkg.sub"},
    )
    assert private_uses(planted) == [
        "pkg.b:1 imports private name pkg.a._x",
        "pkg.c:2 uses private name pkg.a._x",
        "pkg.d:2 imports private module pkg.sub._impl",
    ]


def readme_layers() -> list[Layer]:
    """The layer table of this checkout's docs/architecture.md (the README keeps a summary linking to it)."""
    return layer_table((REPO / "docs" / "architecture.md").read_text(encoding="utf-8"))


def test_the_layer_table_places_every_module_once() -> None:
    """Every installed causalcheck module is in exactly one layer of the layer table of docs/architecture.md, and every entry names a module."""
    layers = readme_layers()
    problems = layer_problems(SOURCES, layers)
    assert not problems, "the layer table of docs/architecture.md does not match the package:\n" + "\n".join(problems)
    placed, _ = place_modules(SOURCES, layers)
    assert placed["causalcheck.graphs.model"] != placed["causalcheck.graphchecks.kinds"]  # the most specific entry wins


def test_no_module_imports_a_higher_layer() -> None:
    """No causalcheck module imports a module of a higher layer of the layer table (function-level imports count)."""
    problems = upward_imports(SOURCES, readme_layers())
    assert not problems, "imports against the layer order of docs/architecture.md:\n" + "\n".join(problems)


PLANTED_README = """
Intro text with `not_a_module` that is no table.
<!-- BEGIN architecture -->
| layer | modules | what lives there |
|---|---|---|
| foundations | `causalcheck`, `errors`, `files`, `ghost` | the base (`prose` here is not read) |
| pipelines | `lab/` | the runs |

Prose after the table.
<!-- END architecture -->
"""


def test_a_planted_upward_import_is_caught_and_named() -> None:
    """A foundation module importing a pipeline module inside a function is reported with the edge, file and line."""
    layers = layer_table(PLANTED_README)
    assert layers == [Layer("foundations", ("causalcheck", "errors", "files", "ghost")), Layer("pipelines", ("lab/",))]
    planted = sources_from_text(
        {
            "causalcheck": "",
            "causalcheck.errors": "class CausalCheckError(Exception): ...\ndef explain():\n    from causalcheck.lab.runner import run\n    return run\n",
            "causalcheck.files": (
                "from typing import TYPE_CHECKING\nfrom causalcheck import errors\n"
                "if TYPE_CHECKING:\n    from causalcheck.lab import runner\n"
            ),
            "causalcheck.lab": "",
            "causalcheck.lab.runner": "from causalcheck.errors import CausalCheckError\ndef run(): ...\n",
            "causalcheck.stray": "",
        },
        packages={"causalcheck", "causalcheck.lab"},
    )
    assert upward_imports(planted, layers) == [
        "causalcheck.errors (foundations) -> causalcheck.lab.runner (pipelines) at causalcheck/errors.py:3 in explain()",
    ]
    assert layer_problems(planted, layers) == [
        "`ghost` (layer foundations) names no causalcheck module",
        "causalcheck.stray is in no layer of the layer table",
    ]
    with pytest.raises(AssertionError, match="the modules cell must be"):
        layer_table(PLANTED_README.replace("`lab/` |", "`lab/` and the rest |"))


def test_own_module_imports_sit_at_the_top_unless_marked_late() -> None:
    """Every import of a causalcheck module inside a function says why it is late (a heavy dependency, a cycle, ...)."""
    problems = unmarked_late_imports(SOURCES)
    assert not problems, "function-level imports to move to the top (or mark '# late: <reason>'):\n" + "\n".join(problems)


def test_an_unmarked_function_level_import_is_caught() -> None:
    """A function-level own import without its ``# late:`` line is reported; marked, type-only and lazy-export ones are not."""
    planted = sources_from_text(
        {
            "pkg": "_EXPORTS = {'pkg.b': ('g',)}\ndef __getattr__(name):\n    import pkg.b\n",
            "pkg.a": (
                "from typing import TYPE_CHECKING\n"
                "def f():\n    from pkg.b import g\n    return g\n"
                "def h():\n    # late: pulls numpy\n    from pkg import b\n"
                "def k():\n    if TYPE_CHECKING:\n        from pkg.b import g\n"
            ),
            "pkg.b": "def g(): ...\n",
        },
        packages={"pkg"},
    )
    assert unmarked_late_imports(planted) == [
        "pkg/a.py:3 imports a causalcheck module inside a function without a '# late: <reason>' line above it",
    ]


def install_hints(sources: Mapping[str, Source]) -> list[str]:
    """``module:line`` of every string (docstrings aside) that spells an install command outside
    :mod:`causalcheck.base.errors`, the one home of the missing-extra error and its hint."""
    found = []
    for name, src in sources.items():
        if name == "causalcheck.base.errors":
            continue
        docs = {
            id(node.body[0].value)
            for node in ast.walk(src.tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
        }  # fmt: skip
        found += [
            f"{src.path or name}:{node.lineno}"
            for node in ast.walk(src.tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "pip install" in node.value and id(node) not in docs
        ]
    return found


def test_one_way_to_report_a_missing_extra() -> None:
    """Every missing optional package is reported by causalcheck.base.errors.missing_extra (one message,
    one error type, one table of extras): no other module spells an install command."""
    assert install_hints(SOURCES) == []


def test_a_planted_install_hint_is_caught() -> None:
    planted = sources_from_text({"causalcheck.fake": 'def f():\n    """pip install x is fine here."""\n    raise ImportError("pip install x")\n'}, set())
    assert install_hints(planted) == ["causalcheck/fake.py:3"]


def test_no_loop_between_top_level_packages() -> None:
    """Top-level packages and modules form layers: no two import each other, counting function-level
    imports (TYPE_CHECKING blocks and a front door's lazy exports aside)."""
    assert folder_loops(SOURCES) == []


def test_a_planted_loop_between_top_level_packages_is_caught_and_named() -> None:
    planted = sources_from_text(
        {"causalcheck.a.x": "import causalcheck.b.y\n", "causalcheck.b.y": "def f():\n    import causalcheck.a.x\n"}, set()
    )
    assert folder_loops(planted) == [["a", "b"]]


PIPELINE_HEADER = ["", "data in", "stages", "results out", "CLI"]


def pipeline_problems(markdown: str, sources: Mapping[str, Source]) -> list[str]:
    """What the pipelines table of docs/architecture.md gets wrong: a public module of a pipeline
    package it does not name, or a backquoted name that is no module (``x`` of the row's package, or
    ``pkg.x`` of causalcheck)."""
    lines = [line for line in markdown.splitlines() if line.startswith("|")]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    assert PIPELINE_HEADER in rows, f"docs/architecture.md has no table with the columns {PIPELINE_HEADER}"
    start = rows.index(PIPELINE_HEADER) + 2
    problems: list[str] = []
    for row in rows[start:]:
        if len(row) != len(PIPELINE_HEADER):
            break
        package = row[0].strip("`")
        named = set()
        for token in re.findall(r"`([^`]+)`", " | ".join(row[1:])):
            for candidate in (f"causalcheck.{package}.{token}", f"causalcheck.{token}"):
                if candidate in sources:
                    named.add(candidate)
                    break
            else:
                problems.append(f"{package}: `{token}` names no module")
        public = {m for m in sources if m.startswith(f"causalcheck.{package}.") and not m.rsplit(".", 1)[1].startswith("_")}
        problems += [f"{package}: {m} is not in the table" for m in sorted(public - named)]
    return problems


def test_the_pipelines_table_names_exactly_the_modules_that_exist() -> None:
    """Every public module of checking/, lab/ and explain/ is in its row, and every name there is a module."""
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert pipeline_problems(text, SOURCES) == []
    broken = text.replace("`scoring`", "`scoring`, `workers`").replace("`seeding` (the seeded draws), ", "")
    assert set(pipeline_problems(broken, SOURCES)) == {"explain: `workers` names no module", "lab: causalcheck.lab.seeding is not in the table"}


def public_class_homes(sources: Mapping[str, Source]) -> dict[str, list[str]]:
    """Public class names defined (at module level) in more than one module, with those modules."""
    homes: dict[str, list[str]] = {}
    for name, src in sources.items():
        for node in src.tree.body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                homes.setdefault(node.name, []).append(name)
    return {cls: mods for cls, mods in homes.items() if len(mods) > 1}


def test_no_public_class_name_is_defined_twice() -> None:
    """One concept, one name: two classes called Episode (or Agent, GraphEdge, Confusion, Term) confuse every reader."""
    assert public_class_homes(SOURCES) == {}
    planted = sources_from_text({"causalcheck.a": "class Episode:\n    pass\n", "causalcheck.b": "class Episode:\n    pass\n"}, set())
    assert public_class_homes(planted) == {"Episode": ["causalcheck.a", "causalcheck.b"]}
