"""Bad input never crashes the scorer: randomly damaged trajectories and run folders are either
scored or reported as failures with a reason."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from causalcheck.episodes import read_json_values
from causalcheck.lab.score import score_paths
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

JUNK = st.sampled_from([None, "x", "", -1, 0, 1e308, True, [], {}, [1, "a"], {"from": 1}, "{not json"])


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:6]):
            out.extend(_paths(v, (*prefix, i)))
    return out


def _replace(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(obj, dict):
        return {**obj, head: _replace(obj[head], rest, value)}
    copy = list(obj)
    copy[head] = _replace(copy[head], rest, value)
    return copy


@pytest.fixture(scope="module")
def trajectory_lines(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    """The JSON lines of one planner episode on the bundled mini suite."""
    from causalcheck.lab.runner import run_suite

    out = tmp_path_factory.mktemp("one")
    run_suite("mini", "planner", out, seeds=(1,), limit=1, progress=False)
    (path,) = sorted((out / "episodes").glob("*.jsonl"))
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), junk=JUNK)
def test_damaged_trajectories_never_crash(
    trajectory_lines: list[Any], tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, junk: Any
) -> None:
    """Replacing any value of a trajectory with junk yields a score or a reported failure."""
    lines = list(trajectory_lines)
    k = data.draw(st.integers(0, len(lines) - 1))
    path = data.draw(st.sampled_from(_paths(lines[k])[1:] or [()]))
    lines[k] = _replace(lines[k], path, junk) if path else lines[k]
    folder = tmp_path_factory.mktemp("bad")
    (folder / "t.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    report = score_paths([folder / "t.jsonl"], resamples=0)
    assert len(report.episodes) + len(report.failures) == 1
    for f in report.failures:
        assert f.reason


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), junk=JUNK, which=st.sampled_from(["tracking", "raw_io", "graph_config.json"]))
def test_damaged_run_folders_never_crash(
    sample_run: Path, tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, junk: Any, which: str
) -> None:
    """Replacing any value in a run folder's files with junk yields a score or a reported failure."""
    folder = tmp_path_factory.mktemp("run") / "exp" / "seed_1"
    shutil.copytree(sample_run, folder)
    target = next(folder.glob("*_tracking*.jsonl")) if which == "tracking" else folder / (
        "raw_io.jsonl" if which == "raw_io" else which
    )
    values = read_json_values(target)
    k = data.draw(st.integers(0, len(values) - 1))
    path = data.draw(st.sampled_from(_paths(values[k])))
    values[k] = _replace(values[k], path, junk)
    target.write_text("\n".join(json.dumps(v, indent=1) for v in values), encoding="utf-8")
    report = score_paths([folder], resamples=0)
    assert len(report.episodes) + len(report.failures) == 1
