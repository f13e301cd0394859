"""The one progress display: log lines by count and by time, and no other progress display in the package."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.base.progress import RunProgress

REPO = Path(__file__).resolve().parents[1]


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_log_lines_by_time_alone() -> None:
    """every=None, every_seconds=5: a line at the start, when 5 s have passed, and at the last unit."""
    out, clock = io.StringIO(), _Clock()
    with RunProgress("log", title="lab run", unit="episodes", every=None, every_seconds=5.0, stream=out, clock=clock) as p:
        p.begin(4)
        for t in (1.0, 6.0, 7.0, 8.0):
            clock.now = t
            p.advance()
    assert [line.split(",")[0] for line in out.getvalue().splitlines()] == [
        "causalcheck: lab run: 0/4 episodes", "causalcheck: lab run: 2/4 episodes", "causalcheck: lab run: 4/4 episodes"]


def test_the_extra_text_is_read_at_every_line() -> None:
    out, calls = io.StringIO(), []

    def extra() -> str:
        calls.append(1)
        return f"calls {len(calls)}"

    with RunProgress("log", title="explain score", stream=out, every=1, extra=extra, clock=lambda: 0.0) as p:
        p.begin(2)
        p.advance()
    assert out.getvalue().splitlines()[-1] == "causalcheck: explain score: 1/2 items, 0:00:00 elapsed; calls 2"


@pytest.mark.parametrize("options", [{"mode": "dots"}, {"every": 0}, {"every": True}, {"every_seconds": -1.0}])
def test_bad_options_are_named(options: dict[str, object]) -> None:
    kwargs = {"mode": "log", **options}
    with pytest.raises(InputFormatError, match=next(iter(options))):
        RunProgress(title="t", **kwargs)  # type: ignore[arg-type]


def test_no_other_module_draws_progress() -> None:
    """One progress reporter: only causalcheck.base.progress imports rich's progress, and any other class
    named after progress only hands its reports to a RunProgress."""
    found = []
    for folder in ("core", "adapters", "solvers"):
        for path in sorted((REPO / folder).rglob("*.py")):
            if path == REPO / "core" / "base" / "progress.py":
                continue
            text = path.read_text(encoding="utf-8")
            if "rich.progress" in text:
                found.append(f"{path.relative_to(REPO)} imports rich.progress")
            for node in ast.walk(ast.parse(text)):
                own = isinstance(node, ast.ClassDef) and "progress" in node.name.lower() and not _is_protocol(node)
                if own and "RunProgress" not in ast.unparse(node):
                    found.append(f"{path.relative_to(REPO)}: class {getattr(node, 'name', '?')} draws progress of its own")
    assert found == []


def _is_protocol(node: ast.ClassDef) -> bool:
    return any(ast.unparse(base).endswith("Protocol") for base in node.bases)
