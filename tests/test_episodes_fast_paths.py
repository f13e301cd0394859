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


# --------------------------------------------------------------------------- official seed folders
#: Damage done to a copy of the sample run folder: (file, how).  Each is read by the fast folder
#: reader and by the plain one, which must agree (episode, files read, or the error).
_FOLDER_DAMAGE: list[tuple[str, str]] = [
    ("", "none"),
    ("tracking", "nan"),
    ("tracking", "huge-int"),
    ("tracking", "huge-float"),
    ("tracking", "surrogate"),
    ("tracking", "truncate"),
    ("raw_io.jsonl", "truncate"),
    ("raw_io.jsonl", "bom"),
    ("raw_io.jsonl", "nul"),
    ("raw_io.jsonl", "latin-1"),
    ("raw_io.jsonl", "remove"),
    ("raw_io.jsonl", "folder"),
    ("graph_config.json", "nan"),
    ("graph_config.json", "two-values"),
    ("graph_config.json", "bad-edges"),
    ("graph_config.json", "remove"),
    ("graph_config.json", "folder"),
    ("graph_config.json", "symlink"),
    ("source_config.json", "truncate"),
    ("complete", "empty"),
    ("complete", "remove"),
    ("data", "remove"),
]


def _damaged_folder(sample_run: Path, root: Path, which: str, how: str) -> Path:
    """A copy of *sample_run* under *root* with one file damaged (``_FOLDER_DAMAGE``)."""
    import shutil

    folder = root / f"{which.replace('.', '_') or 'clean'}-{how}" / "seed_1"
    shutil.copytree(sample_run, folder)
    names = {"tracking": "Reactor Lab Causal_Causal_1_tracking_simple.jsonl", "complete": "Reactor Lab Causal_Causal_1_complete.txt",
             "data": "Reactor Lab Causal_Causal_1_data.json"}
    path = folder / names.get(which, which)
    if how == "none":
        return folder
    if how in ("remove", "folder", "symlink"):
        data = path.read_bytes()
        path.unlink()
        if how == "folder":
            path.mkdir()
        elif how == "symlink":
            (folder / "real.bin").write_bytes(data)
            path.symlink_to(folder / "real.bin")
        return folder
    data = path.read_bytes()
    edits = {
        "nan": lambda d: d.replace(b"{", b'{"x": NaN, ', 1),
        "huge-int": lambda d: d.replace(b"{", b'{"x": ' + b"9" * 120 + b", ", 1),
        "huge-float": lambda d: d.replace(b"{", b'{"x": 1e400, ', 1),
        "surrogate": lambda d: d.replace(b"{", b'{"x": "\\ud800", ', 1),
        "truncate": lambda d: d[: len(d) // 2],
        "bom": lambda d: b"\xef\xbb\xbf" + d,
        "nul": lambda d: b"\x00" + d,
        "latin-1": lambda d: d + b"\xe9",
        "two-values": lambda d: d + b"\n" + d,
        "bad-edges": lambda d: json.dumps({**json.loads(d), "edges": [["a", "b"]]}).encode(),
        "empty": lambda d: b"",
    }
    path.write_bytes(edits[how](data))
    return folder


def _load(folder: Path, fast: bool) -> object:
    """The episode and its files read, or the error's type and message."""
    from causalcheck.episodes import load_run_folder, official

    official._CONFIGS.clear()
    try:
        ep = load_run_folder(folder, fast=fast)
    except CausalCheckError as exc:
        return type(exc).__name__, str(exc)
    return ep, ep.inputs


@pytest.mark.parametrize(("which", "how"), _FOLDER_DAMAGE)
def test_fast_folder_reader_equals_plain_reader(sample_run: Path, tmp_path: Path, which: str, how: str) -> None:
    """The fast seed-folder reader gives the plain reader's episode, files read (hashes) and errors on damaged copies."""
    folder = _damaged_folder(sample_run, tmp_path, which, how)
    fast, plain = _load(folder, True), _load(folder, False)
    assert fast == plain
    if how == "none":
        assert isinstance(fast, tuple) and len(fast[1]) == 5  # graph config, tracking, raw_io, complete, source config
    if (which, how) in (("tracking", "truncate"), ("graph_config.json", "nan"), ("raw_io.jsonl", "nul")):
        assert isinstance(fast[0], str)  # refused, with the plain reader's message


def test_fast_folder_reader_checks_each_config_once(sample_run: Path, tmp_path: Path) -> None:
    """Two folders with the same graph config bytes share one checked config value; another config is read anew."""
    from causalcheck.episodes import load_run_folder, official

    official._CONFIGS.clear()
    a = _damaged_folder(sample_run, tmp_path / "a", "", "none")
    b = _damaged_folder(sample_run, tmp_path / "b", "", "none")
    c = _damaged_folder(sample_run, tmp_path / "c", "", "none")
    config = json.loads((c / "graph_config.json").read_text(encoding="utf-8"))
    (c / "graph_config.json").write_text(json.dumps(config), encoding="utf-8")  # same value, other bytes
    ea, eb, ec = (load_run_folder(f) for f in (a, b, c))
    assert ea.config is eb.config
    assert ec.config is not ea.config and ec.config == ea.config
    assert ea.inputs[0].sha256 == eb.inputs[0].sha256 != ec.inputs[0].sha256
    assert len(official._CONFIGS) == 2


def test_prior_record_literal_fast_path_equals_literal_eval() -> None:
    """A prior record's dict literal read without compiling equals ``ast.literal_eval`` of it, or is left to it."""
    import ast

    from causalcheck.episodes.official import _simple_literal

    rng = random.Random(7)
    names = ["a", "moisture", "é", "x y", "\x0b", "", "\\", '"']
    numbers = ["1", "0", "007", "-0", "1.5", "2e3", "-1E-2", "00.5", "1e400", "9" * 5000, "5.", ".5", "1_0", "- 1", "True", "None"]
    read = 0
    for _ in range(4000):
        items = [f"{rng.choice(['', ' ', chr(9), chr(160)])}'{rng.choice(names)}'{rng.choice(['', ' '])}:{rng.choice(['', ' '])}"
                 f"{rng.choice(numbers)}{rng.choice(['', ' '])}" for _ in range(rng.randint(0, 3))]
        literal = "{" + ",".join(items) + rng.choice(["", ",", ", ", " "]) + "}"
        fast = _simple_literal(literal)
        if fast is None:
            continue
        plain = ast.literal_eval(literal)
        assert list(plain.items()) == list(fast.items()), literal
        assert [type(v) for v in plain.values()] == [type(v) for v in fast.values()], literal
        read += 1
    assert read > 500  # the usual form is read without compiling
    assert _simple_literal("{'a': 007}") is None and _simple_literal("{'a': 1_0}") is None  # not plain decimals: left to ast
