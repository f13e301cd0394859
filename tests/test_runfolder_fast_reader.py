"""The fast trajectory reader of lab scoring agrees with the reference reader on any file."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from causalcheck.errors import InputFormatError
from causalcheck.lab.runfolder import _read_trajectory_fast
from causalcheck.lab.trajectory import read_trajectory


def _random_trajectory(rng: random.Random) -> list[str]:
    """A trajectory whose growing ``past_data`` is re-serialised every step, with damage mixed in."""
    lines = ['{"type":"header","x":1}']
    past: list[object] = []
    for i in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.5:
            past = [*past, {"id": f"{i}", "props": {"a": rng.choice([1, 1.5, 12, True])}, "freq": rng.choice([3, 3.0, None])}]
        elif r < 0.6:
            past = past[:-1]
        elif r < 0.7:
            past = [*past, rng.choice([1, 12, "s", [1], None])]
        record = {"past_data": past, "hypothesis": {}}
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
        lines.append(text)
    if rng.random() < 0.9:
        lines.append('{"type":"summary"}')
    return lines


@pytest.mark.parametrize("seed", range(4))
def test_fast_reader_equals_reference_reader(tmp_path: Path, seed: int) -> None:
    """On 100 random (partly damaged) files per seed, both readers agree or both reject."""
    rng = random.Random(seed)
    agreed = 0
    for trial in range(100):
        path = tmp_path / f"{trial}.jsonl"
        path.write_text("\n".join(_random_trajectory(rng)) + "\n")
        try:
            ref = read_trajectory(path)
        except InputFormatError:
            ref = None
        fast = _read_trajectory_fast(path)
        if ref is None:
            assert fast is None, path.read_text()
            continue
        assert fast is not None, path.read_text()
        assert json.dumps([fast.header, fast.steps, fast.summary], sort_keys=True) == json.dumps(
            [ref.header, ref.steps, ref.summary], sort_keys=True
        )
        assert fast == ref
        agreed += 1
    assert agreed > 20  # the generator produces mostly readable files
