"""``causalcheck demo``: the README's main job runs offline and is idempotent."""

from __future__ import annotations

import json
from pathlib import Path

from causalcheck.cli import main


def _episode_files(root: Path) -> list[Path]:
    return sorted((root / "lab" / "planner" / "episodes").glob("*.jsonl"))


def assert_strict_json_files(root: Path) -> None:
    """Every .json / .jsonl file under *root* is strict JSON: no bare NaN or Infinity token (JSON has none)."""

    def refuse(token: str) -> None:
        raise AssertionError(f"a bare {token} token in {path}")

    paths = sorted([*root.rglob("*.json"), *root.rglob("*.jsonl")])
    assert paths
    for path in paths:
        text = path.read_text(encoding="utf-8")
        docs = [line for line in text.splitlines() if line.strip()] if path.suffix == ".jsonl" else [text]
        for doc in docs:
            json.loads(doc, parse_constant=refuse)


def test_demo_runs_end_to_end_and_resumes(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """The demo writes lab trajectories, lab scores and explain results, all strict JSON; a rerun duplicates nothing."""
    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--quiet"]) == 0
    episodes = _episode_files(out)
    assert episodes, "the planner wrote no trajectory"
    scores = json.loads((out / "lab-scores" / "scores.json").read_text())
    assert scores  # non-empty report
    results = sorted((out / "explain").glob("*_metrics_offline.json"))
    assert len(results) >= 2
    strong = json.loads((out / "explain" / "demo-strong_metrics_offline.json").read_text())
    weak = json.loads((out / "explain" / "demo-weak_metrics_offline.json").read_text())
    assert strong["summary"]["total_mean"] > weak["summary"]["total_mean"]
    assert_strict_json_files(out)
    sizes = {p.name: p.stat().st_size for p in episodes}
    capsys.readouterr()
    assert main(["demo", "--out", str(out), "--quiet"]) == 0
    assert {p.name: p.stat().st_size for p in _episode_files(out)} == sizes
    assert "demo summary" in capsys.readouterr().out
