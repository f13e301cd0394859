"""``.ci/readme-skips``: CI's check that every test skipped on the README's install says how to install what it needs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / ".ci" / "readme-skips"

_JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="" name="tests.test_inspect"><skipped message="collection skipped">('{repo}/tests/test_inspect.py', 21, "Skipped: inspect_ai is not installed (pip install 'causalcheck[inspect]')")</skipped></testcase>
<testcase classname="tests.test_doctests" name="test_docstring_examples[causalcheck.rl.env]"><skipped type="pytest.skip" message="causalcheck.rl.env needs gymnasium: pip install 'causalcheck[rl]'" /></testcase>
<testcase classname="tests.test_layout" name="test_x" time="0.1" />
{extra}
</testsuite></testsuites>
"""


def _run(tmp_path: Path, extra: str = "") -> tuple[subprocess.CompletedProcess[str], list[str]]:
    junit = tmp_path / "junit.xml"
    junit.write_text(_JUNIT.format(repo=REPO, extra=extra), encoding="utf-8")
    out = tmp_path / "ids.txt"
    done = subprocess.run([sys.executable, str(SCRIPT), str(junit), str(out)], cwd=REPO, capture_output=True, text=True)
    return done, out.read_text(encoding="utf-8").splitlines() if out.exists() else []


def test_skips_with_install_hints_pass_and_are_listed_for_the_second_run(tmp_path: Path) -> None:
    done, ids = _run(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert ids == ["tests/test_inspect.py", "tests/test_doctests.py::test_docstring_examples[causalcheck.rl.env]"]
    assert "2 skipped on the README's install" in done.stdout


def test_a_skip_without_an_install_hint_fails_naming_its_reason(tmp_path: Path) -> None:
    extra = ('<testcase classname="tests.test_rl_env" name="test_y">'
             '<skipped type="pytest.skip" message="the rl extra (gymnasium) is not installed" /></testcase>')
    done, ids = _run(tmp_path, extra)
    assert done.returncode == 1
    assert "do not say how to install" in done.stdout
    assert done.stdout.rstrip().endswith("1  the rl extra (gymnasium) is not installed")
    assert ids[-1] == "tests/test_rl_env.py::test_y"


def test_an_expected_failure_is_no_skip(tmp_path: Path) -> None:
    # JUnit writes an xfail as <skipped type="pytest.xfail">: the test ran, it needs nothing installed
    extra = ('<testcase classname="tests.test_layout" name="test_z">'
             '<skipped type="pytest.xfail" message="convention: proper ancestors here" /></testcase>')
    done, ids = _run(tmp_path, extra)
    assert done.returncode == 0, done.stdout
    assert "tests/test_layout.py::test_z" not in ids
    assert "convention" not in done.stdout
