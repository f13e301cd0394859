"""The docs' testing-kit page ("Test your own scoring rule", docs/testing.md): its example runs as pasted, and its failure text is real."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from causalcheck.testing import PropertyFailure, check_graph_metric

README = Path(__file__).resolve().parents[1] / "docs" / "testing.md"  # the testing-kit page of the docs site


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    m = re.search(r"<!-- BEGIN testkit -->(.*?)<!-- END testkit -->", text, re.S)
    assert m, "docs/testing.md lacks the testkit section markers"
    return m.group(1)


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", _section(), re.S)


def test_the_readme_example_runs_as_pasted(tmp_path: Path) -> None:
    """The example, saved as test_my_metrics.py and run with pytest, passes twice (records, then unchanged)."""
    snippet = _blocks("python")[0]
    assert 8 <= len([line for line in snippet.splitlines() if line.strip()]) <= 14  # about ten lines
    (tmp_path / "test_my_metrics.py").write_text(snippet, encoding="utf-8")
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_my_metrics.py"],
            cwd=tmp_path, capture_output=True, text=True, check=False,
        )
        assert out.returncode == 0 and "2 passed" in out.stdout, out.stdout + out.stderr
    assert (tmp_path / "snapshots" / "my_shd.json").is_file()


def test_the_readme_failure_text_is_what_the_suite_prints() -> None:
    """Counting a reversal twice in the README's rule gives exactly the failure shown (convention line shortened)."""
    namespace: dict[str, object] = {}
    exec(_blocks("python")[0].replace(" - len(flipped)", ""), namespace)  # the classic mistake
    with pytest.raises(PropertyFailure) as info:
        check_graph_metric(namespace["my_shd"], "distance", reference="shd", profile="ci")  # type: ignore[arg-type]
    shown = _blocks("text")[0].splitlines()
    actual = str(info.value).splitlines()
    assert len(actual) == len(shown)
    for want, got in zip(shown, actual, strict=True):
        assert got.startswith(want.removesuffix("...")) if want.endswith("...") else got == want
