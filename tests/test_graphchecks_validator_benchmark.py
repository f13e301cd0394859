"""The validator timings of docs/performance.md against DoWhy name the CI test behind every ratio and agree with their own figures."""

from __future__ import annotations

import importlib.util
import inspect
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "tests" / "benchmarks" / "bench_validate.py"


def _timing_section() -> tuple[str, list[str], list[list[str]]]:
    """The prose above the bench_validate table, its header cells and its rows."""
    text = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    start = text.index("**Against DoWhy** (`python tests/benchmarks/bench_validate.py")
    lines = text[start:].splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("|"))
    table = []
    for line in lines[first:]:
        if not line.startswith("|"):
            break
        table.append([c.strip() for c in line.strip("|").split("|")])
    header, rows = table[0], table[2:]
    assert rows and all(len(r) == len(header) for r in rows)
    return "\n".join(lines[:first]), header, rows


def _seconds(cell: str) -> float:
    return float(cell.removesuffix(" s"))


def _ratio(cell: str) -> float:
    return float(cell.removesuffix("×").replace(" ", ""))


def test_every_dowhy_ratio_names_its_ci_test_and_matches_its_times():
    prose, header, rows = _timing_section()
    regression = next(i for i, c in enumerate(header) if "DoWhy" in c and "regression" in c)
    same = next(i for i, c in enumerate(header) if "DoWhy" in c and "Fisher-z" in c)
    assert "same test" in header[same]  # the like-for-like column says so
    assert "regression" in prose and "Fisher-z" in prose
    ours = header.index("ours")
    for row in rows:
        for column in (regression, same):
            assert header[column + 1] == "ratio"
            measured = _seconds(row[column]) / _seconds(row[ours])
            assert abs(_ratio(row[column + 1]) - measured) <= 0.06 * measured + 0.5, (row, header[column])


def test_the_benchmark_times_dowhy_with_the_same_fisher_z_test():
    spec = importlib.util.spec_from_file_location("bench_validate", BENCH)
    assert spec is not None and spec.loader is not None
    source = BENCH.read_text(encoding="utf-8")
    assert re.search(r'run_dowhy\([^)]*test="fisherz"\)', source)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert inspect.signature(module.run_dowhy).parameters["test"].default == "regression"
