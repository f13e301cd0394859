"""causalcheck.base.gcpace: fewer collector passes inside a block, the thresholds put back after it."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from causalcheck.base.gcpace import YOUNG_THRESHOLD, fewer_collections


def test_the_thresholds_are_raised_inside_and_restored_after_even_on_an_error() -> None:
    before = gc.get_threshold()
    with pytest.raises(KeyError), fewer_collections():
        assert gc.get_threshold() == (max(YOUNG_THRESHOLD, before[0]), *before[1:])
        raise KeyError("x")
    assert gc.get_threshold() == before


def test_collection_switched_off_by_a_zero_threshold_stays_off() -> None:
    before = gc.get_threshold()
    try:
        gc.set_threshold(0)
        with fewer_collections():
            assert gc.get_threshold()[0] == 0
        assert gc.get_threshold()[0] == 0
    finally:
        gc.set_threshold(*before)


def _thresholds_seen_by(module: Any, name: str, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The young threshold at each call of ``module.name`` (filled as the calls come)."""
    seen: list[int] = []
    real = getattr(module, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.get_threshold()[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return seen


def test_score_paths_runs_with_fewer_passes_and_restores_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """lab score's loop: the young threshold is raised while it scores, and back to the default after."""
    import causalcheck.lab.score as score

    seen = _thresholds_seen_by(score, "_score_all", monkeypatch)
    before = gc.get_threshold()
    score.score_paths([tmp_path], resamples=0)
    assert seen == [max(YOUNG_THRESHOLD, before[0])]
    assert gc.get_threshold() == before


def test_the_validator_and_its_permutation_test_run_with_fewer_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    """validate_graph (and falsify, when called alone): the young threshold raised inside, restored after."""
    import numpy as np
    from causalcheck.graphchecks import falsify
    from causalcheck.graphs import validate_graph

    seen = _thresholds_seen_by(falsify, "_violations", monkeypatch)
    before = gc.get_threshold()
    rng = np.random.default_rng(0)
    a = rng.normal(size=200)
    validate_graph("a -> b; b -> c", data={"a": a, "b": a + rng.normal(size=200), "c": rng.normal(size=200)}, permutations=3)
    assert seen and set(seen) == {max(YOUNG_THRESHOLD, before[0])}
    assert gc.get_threshold() == before


def test_overlapping_blocks_in_two_threads_leave_the_thresholds_as_they_were() -> None:
    """A enters, B enters, A leaves, B leaves: the thresholds are the ones before A, not the raised ones."""
    import threading

    before = gc.get_threshold()
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[int] = []

    def a() -> None:
        with fewer_collections():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def b() -> None:
        a_in.wait(5)
        with fewer_collections():
            b_in.set()
            a_out.wait(5)
            seen.append(gc.get_threshold()[0])  # A has left: still raised for B

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == [max(YOUNG_THRESHOLD, before[0])]
    assert gc.get_threshold() == before
