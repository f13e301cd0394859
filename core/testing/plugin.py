"""The causalcheck pytest plugin: named causal graphs as fixtures, and the example-count profile.

Installed with causalcheck (a ``pytest11`` entry point), so it is active in every pytest run
of an environment that has causalcheck; it imports nothing heavy and works without
hypothesis.  Fixture names start with ``causalcheck_`` or say ``causal_graph``, so they
cannot clash with a project's own:

``causalcheck_graph``
    a factory: ``causalcheck_graph("collider")`` is the named graph as a
    :class:`~causalcheck.graph.CausalGraph`; ``causalcheck_graph("collider", general=True)``
    as a :class:`causalcheck.graphs.Graph`.  Names: chain, fork, collider, diamond,
    m_structure, y_structure, instrument, confounded_triangle, causalab_sample
    (:mod:`causalcheck.graphchecks.named`).  The ``(cause, effect)`` pairs a rule of
    :func:`~causalcheck.testing.check_graph_metric` takes are one line away:
    ``sorted(causalcheck_graph("collider").pairs)`` is ``[('A', 'C'), ('B', 'C')]`` (``.pairs``
    is a property holding a frozenset; ``.edges`` are ``Edge(source, target, label)`` objects;
    a general graph has ``.directed_pairs``).
``named_causal_graph``
    parametrized over every named graph: a test that takes it runs once per graph and gets
    a :class:`NamedCausalGraph` ``(name, graph)``; the test id is the graph's name.  Pairs:
    ``name, g = named_causal_graph; pairs = sorted(g.pairs)``.
``causalcheck_profile``
    the profile in force (``ci``, ``dev`` or ``thorough``; :mod:`causalcheck.testing.profiles`).

Marker: ``@pytest.mark.causalcheck_profile("ci")`` on a test (or ``pytestmark = ...`` for a
module) runs that test's suites at the named profile whatever the session's, and restores the
session's afterwards — for tests that assert a shrunk counterexample, which only the
derandomised ``ci`` profile makes the same on every run.

Settings: ``--causalcheck-profile=NAME`` on the command line or ``causalcheck_profile = NAME``
in the ini file (``[tool.pytest.ini_options]``) selects the profile the suites of
:mod:`causalcheck.testing` run under (the command line wins; then the ini value; then
``$CAUSALCHECK_PROFILE``; then ``ci``).  ``--causalcheck-update-snapshots`` makes
:func:`causalcheck.testing.snapshot` rewrite changed snapshots instead of failing; the run ends
with a "causalcheck snapshot updates" section listing each updated snapshot, its count of changed
outputs and a short diff per changed case.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from typing import Any, NamedTuple

import pytest
from causalcheck.graphchecks.named import NAMED_GRAPHS, named_graph
from causalcheck.testing.profiles import (
    PROFILES,
    default_profile,
    set_default_profile,
    set_update_snapshots,
    take_snapshot_updates,
    using_profile,
)

__all__ = ["NamedCausalGraph"]


class NamedCausalGraph(NamedTuple):
    """One named graph: ``name`` and ``graph`` (a :class:`~causalcheck.graph.CausalGraph`)."""

    name: str
    graph: Any


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--causalcheck-profile``, ``--causalcheck-update-snapshots`` and the ``causalcheck_profile`` ini value."""
    group = parser.getgroup("causalcheck", "causalcheck testing kit")
    group.addoption(
        "--causalcheck-profile",
        choices=sorted(PROFILES),
        default=None,
        help="example budget of the causalcheck property suites (ci: 50 derandomized, dev: 200, thorough: 2000)",
    )
    group.addoption(
        "--causalcheck-update-snapshots",
        action="store_true",
        default=False,
        help="rewrite causalcheck regression snapshots whose outputs changed",
    )
    parser.addini("causalcheck_profile", "default profile of the causalcheck property suites (ci, dev, thorough)", default="")


def pytest_configure(config: pytest.Config) -> None:
    """Put the chosen profile and the snapshot mode in force for this run; register the ``causalcheck_profile`` marker."""
    config.addinivalue_line(
        "markers", "causalcheck_profile(name): run this test's causalcheck property suites at profile NAME (ci, dev, thorough)"
    )
    name = config.getoption("causalcheck_profile") or str(config.getini("causalcheck_profile") or "").strip() or None
    if name is not None and name not in PROFILES:
        raise pytest.UsageError(f"causalcheck_profile={name!r} must be one of {sorted(PROFILES)!r}")
    set_default_profile(name)
    set_update_snapshots(bool(config.getoption("causalcheck_update_snapshots")))


def pytest_unconfigure(config: pytest.Config) -> None:
    """Leave no profile or snapshot mode behind (pytest may run in-process more than once)."""
    set_default_profile(None)
    set_update_snapshots(None)


_SECTION = "causalcheck snapshot updates"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Run a test marked ``causalcheck_profile(NAME)`` with NAME as the default profile (restored afterwards);
    attach the summaries of the snapshots it updated to its report (they travel with it under xdist)."""
    take_snapshot_updates()
    marker = item.get_closest_marker("causalcheck_profile")
    try:
        if marker is None:
            return (yield)
        name = marker.args[0] if len(marker.args) == 1 and not marker.kwargs else None
        if name not in PROFILES:
            raise pytest.UsageError(f"{item.nodeid}: causalcheck_profile marker args={marker.args!r} must be one profile name of {sorted(PROFILES)!r}")
        with using_profile(str(name)):
            return (yield)
    finally:
        updates = take_snapshot_updates()
        if updates:
            item.add_report_section("call", _SECTION, "\n".join(updates) + "\n")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """After the run, list every snapshot the tests updated: its count of changes and a short diff per changed case."""
    texts = [
        content
        for reports in terminalreporter.stats.values()
        for rep in reports
        for title, content in getattr(rep, "sections", ())
        if _SECTION in title
    ]
    if texts:
        terminalreporter.section(_SECTION)
        for text in texts:
            terminalreporter.write(text)


@pytest.fixture
def causalcheck_profile() -> str:
    """The causalcheck property-suite profile in force (ci, dev or thorough)."""
    return default_profile()


@pytest.fixture
def causalcheck_graph() -> Callable[..., Any]:
    """Factory of named causal graphs: ``causalcheck_graph("fork")`` (``general=True``: a causalcheck.graphs.Graph).

    Its ``(cause, effect)`` pairs, as a rule under test takes them: ``sorted(causalcheck_graph("fork").pairs)``.
    """

    def make(name: str, *, general: bool = False) -> Any:
        g = named_graph(name)
        return g.to_general() if general else g

    return make


@pytest.fixture(params=sorted(NAMED_GRAPHS), ids=str)
def named_causal_graph(request: pytest.FixtureRequest) -> Iterator[NamedCausalGraph]:
    """Each named graph of causalcheck.graphchecks.named in turn, as ``(name, graph)``; pairs: ``sorted(graph.pairs)``."""
    yield NamedCausalGraph(request.param, NAMED_GRAPHS[request.param])
