"""Messages and outputs a newcomer hit (issue 24, item 5): each says what happened, first, and no more."""

from __future__ import annotations

from pathlib import Path

import pytest
from causalcheck.cli import main


def test_lab_score_wrong_path_prints_the_reason_and_no_empty_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wrong path to lab score: exit 2, the path and reason on stderr, no empty Markdown report, no files."""
    missing = tmp_path / "no_such_run"
    out = tmp_path / "out"
    assert main(["lab", "score", str(missing)]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    assert f"not scored: {missing}" in cap.err and "does not exist" in cap.err
    assert "nothing scored" in cap.err and "no report written" in cap.err
    assert main(["lab", "score", str(missing), "--out", str(out)]) == 2
    assert not out.exists() or [p.name for p in out.iterdir() if not p.name.startswith(".")] == []
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["lab", "score", str(empty)]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and f"no episode found under the given paths ({empty})" in cap.err
