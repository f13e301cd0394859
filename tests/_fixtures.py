"""Fixtures shared by tests/ and properties/ (both conftest.py files import them).

Where the reference anchors are (fixtures skip cleanly when ../shared is absent), and short
aliases of the named-graph fixtures of the causalcheck pytest plugin.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from causalcheck.graphs.named import NAMED_GRAPHS

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("CAUSALCHECK_SHARED", REPO.parent / "shared"))
ANCHORS = SHARED / "anchors"
CAUSALAB = ANCHORS / "causalab"
CAUSALAB_DATA = CAUSALAB / "release" / "causalab_dataset" / "data"
SAMPLE_RUN = (
    CAUSALAB
    / "examples/sample_runs/react_simple-mem/obs_Causal_gpt-5-mini/4nodes/20260223-2134_dsl_right/4nodes_0_53calls/seed_1"
)
WHATIFBENCH = ANCHORS / "whatifbench" / "code"
WHATIF_BENCHMARK = WHATIFBENCH / "data" / "benchmark_candidates_with_rubrics_10.json"
WHATIF_RESULT = WHATIFBENCH / "result" / "test2" / "gpt-5.5_metrics_gpt-5.5.json"


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"reference anchors not available at {path} (set CAUSALCHECK_SHARED)")
    return path


def _anchor_fixture(name: str, path: Path, doc: str):  # type: ignore[no-untyped-def]
    def fixture() -> Path:
        return _need(path)

    fixture.__doc__ = doc + " (skips when the anchors are absent)."
    return pytest.fixture(name=name)(fixture)


fixture_causalab_data = _anchor_fixture("causalab_data", CAUSALAB_DATA, "Folder of the 19 official CausaLab suite files")
fixture_sample_run = _anchor_fixture("sample_run", SAMPLE_RUN, "The official recorded gpt-5-mini run folder (graph 4nodes_0, seed 1)")
fixture_whatif_benchmark = _anchor_fixture("whatif_benchmark", WHATIF_BENCHMARK, "The 10-item official WhatIfBench file")
fixture_whatif_result = _anchor_fixture("whatif_result", WHATIF_RESULT, "The official judged result file (gpt-5.5 answers, gpt-5.5 judge)")


@pytest.fixture
def disk_full(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Call it to fill the disk: from then on ``os.fsync`` raises ENOSPC.

    ``disk_full()`` fails only the flush of temporary files (names ending in ``.tmp``: an
    atomic write's new content), ``disk_full(everything=True)`` every flush.
    """

    def fill(everything: bool = False) -> None:
        real = os.fsync

        def fsync(fd: int) -> None:
            if everything or os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
                raise OSError(errno.ENOSPC, "No space left on device")
            real(fd)

        monkeypatch.setattr(os, "fsync", fsync)

    return fill


# --------------------------------------------------------------------------- named graphs
# The field's small graphs (chain, fork, collider, diamond, ...) live once in
# causalcheck.graphs.named and reach tests through the causalcheck pytest plugin
# (causalcheck.testing.plugin: the factory `causalcheck_graph` and the parametrized
# `named_causal_graph`); the short names below are this project's aliases of those fixtures.


def _named_fixture(name: str):  # type: ignore[no-untyped-def]
    def fixture(causalcheck_graph):  # type: ignore[no-untyped-def]
        return causalcheck_graph(name)

    fixture.__doc__ = f"The named graph {name!r} (the plugin's causalcheck_graph({name!r}))."
    return pytest.fixture(name=name)(fixture)


for _name in NAMED_GRAPHS:
    globals()[f"fixture_{_name}"] = _named_fixture(_name)


@pytest.fixture
def named(named_causal_graph):
    """Each named graph in turn, as ``(name, graph)`` (the plugin's named_causal_graph)."""
    return named_causal_graph
