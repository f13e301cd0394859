"""The episode layer's fast paths agree with its plain paths on any file (fast trajectory reader, parse memo)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from causalcheck.base.errors import CausalCheckError
from causalcheck.episodes import read_trajectory, trajectory_episode, trajectory_from_text


def _random_trajectory(rng: random.Random) -> list[str]:
    """A trajectory whose growing ``past_data`` is re-serialised every step, with damage mixed in."""
    lines = ['{"type":"header","x":1}']
    past: list[object] = []
    hyps = [{}, {"edges": [{"from": "a", "to": "b"}], "freq_equation": "b = c_a*a", "coefficients": {"c_a": 1}},
            {"edges": [{"from": "a", "to": "b"}], "freq_equation": "b = c_a*a", "coefficients": {"c_a": 1.0}},
            {"edges": [["a", "b"]], "freq_equation": "", "coefficients": {"c_a": 0, "base": -0.0}},
            {"edges": [{"from": " Freq", "to": "a"}], "freq_equation": "", "coefficients": {"c_a": True}}]
    for i in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.5:
            past = [*past, {"id": f"{i}", "props": {"a": rng.choice([1, 1.5, 12, True, "3 Hz"])}, "freq": rng.choice([3, 3.0, None])}]
        elif r < 0.6:
            past = past[:-1]
        elif r < 0.7:
            past = [*past, rng.choice([1, 12, "s", [1], None, {"id": "x", "props": {"freq": 4}, "freq": 5}])]
        record = {"past_data": past, "hypothesis": rng.choice(hyps)}
        seps = rng.choice([(",", ":"), (", ", ": ")])
        text = json.dumps({"type": "step", "record": record, "observation": {"state": {"a": 1}}}, separators=seps)
        m = rng.random()
        if m < 0.05:
            text = text.replace("12", "NaN", 1)
        elif m < 0.1:
            text = text.replace('"past_data":', '"past_data" :')
        elif m < 0.15:
            text = text[:-3]  # truncated line
        elif m < 0.2:
            text = text.replace("]", " ]", 1)
        elif m < 0.25:
            text = text.replace('"record"', '"other"')
        elif m < 0.3 and past and isinstance(past[-1], int):
            text = text.replace(f"{past[-1]}]", f"{past[-1]}3]")  # numbers sharing a prefix
        elif m < 0.33:
            text = text.replace(", ", ",\n  ")  # pretty-printed: one object over several lines
        lines.append(text)
    if rng.random() < 0.9:
        lines.append('{"type":"summary"}')
    return lines


@pytest.mark.parametrize("seed", range(4))
def test_fast_reader_equals_plain_reader(seed: int) -> None:
    """On 100 random (partly damaged) files per seed, the fast and the plain path agree or both reject."""
    rng = random.Random(seed)
    agreed = 0
    for _ in range(100):
        text = "\n".join(_random_trajectory(rng)) + "\n"
        try:
            plain = trajectory_from_text(text, fast=False)
        except CausalCheckError:
            plain = None
        try:
            fast = trajectory_from_text(text)
        except CausalCheckError:
            fast = None
        if plain is None:
            assert fast is None, text
            continue
        assert fast is not None, text
        assert json.dumps([fast.header, fast.steps, fast.summary], sort_keys=True) == json.dumps(
            [plain.header, plain.steps, plain.summary], sort_keys=True
        )
        assert fast == plain
        agreed += 1
    assert agreed > 20  # the generator produces mostly readable files


@pytest.mark.parametrize("seed", range(4))
def test_memoised_parse_equals_plain_parse(seed: int) -> None:
    """Episodes parsed with the memo (shared entries, restated hypotheses) equal episodes parsed without it, repairs included."""
    rng = random.Random(100 + seed)
    compared = 0
    for _ in range(100):
        text = "\n".join(_random_trajectory(rng)) + "\n"
        try:
            traj = trajectory_from_text(text)
        except CausalCheckError:
            continue
        memo = trajectory_episode(traj)
        plain = trajectory_episode(trajectory_from_text(text, fast=False), memo=False)
        assert memo == plain
        for a, b in zip(memo.steps, plain.steps, strict=True):
            assert type(a.record) is type(b.record)
            if a.parsed is not None and b.parsed is not None:
                assert a.parsed.warnings == b.parsed.warnings
                assert repr(a.parsed.hypothesis) == repr(b.parsed.hypothesis)  # -0.0 vs 0.0 and int vs float
                assert [p.extras for p in a.parsed.past_data or ()] == [p.extras for p in b.parsed.past_data or ()]
        compared += 1
    assert compared > 20


def test_fast_reader_on_real_lab_trajectories(tmp_path: Path) -> None:
    """On the planner's own trajectories both paths give equal files and equal episodes."""
    from causalcheck.lab.runner import run_suite

    run_suite("mini", "planner", tmp_path, seeds=(1,), limit=3, progress=False)
    for path in sorted((tmp_path / "episodes").glob("*.jsonl")):
        text = path.read_text(encoding="utf-8")
        fast, plain = read_trajectory(path), trajectory_from_text(text, source=str(path), fast=False)
        assert fast == plain
        assert trajectory_episode(fast, source="x") == trajectory_episode(plain, source="x", memo=False)
