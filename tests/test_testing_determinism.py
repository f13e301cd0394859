"""A kit suite draws the same examples whatever else is loaded, and writes nothing (issue 22, item 1).

hypothesis mixes literal constants of every *local* module loaded into generation, so a derandomised suite's
examples depended on the other modules of the run (a user's suite failed alone and passed in the whole run);
and its Unicode cache appeared as ``.hypothesis/`` in the working folder.  Each check runs in a fresh
process, as a user's ``pytest one_file.py`` would.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("hypothesis")

SUITE = textwrap.dedent(
    """
    import hashlib, json, sys
    {preamble}
    from causalcheck.metrics import coefficient_prf
    from causalcheck.testing import check_coefficient_metric, check_graph_metric

    seen = []

    def shd(truth, estimate):
        seen.append(repr((sorted(truth), sorted(estimate))))
        t, e = set(truth), set(estimate)
        reversed_ = {{(a, b) for a, b in e if (b, a) in t and (a, b) not in t}}
        return len(t ^ e) - len(reversed_)

    def coefficient_f1(coefficients, config):
        seen.append(repr(sorted(coefficients.items())))
        return coefficient_prf(coefficients, config).f1

    check_graph_metric(shd, "distance", max_examples=30)
    check_coefficient_metric(coefficient_f1, max_examples=30)
    print(hashlib.sha256(json.dumps(seen).encode()).hexdigest(), len(seen))
    """
)

#: A local module of constants hypothesis' local-constants provider picks up (it skips integers below 100 and
#: strings over 20 characters), and causalcheck modules with many literals (local too in an editable install).
CONSTANTS = "VALUES = [" + ", ".join(f"{k}.25, {100 + 37 * k}" for k in range(64)) + "]\nNAMES = [" + ", ".join(repr(c * 3) for c in "abcxyzAB") + "]\n"
OTHERS = "import user_constants, causalcheck.explain.scoring, causalcheck.lab.score, causalcheck.graphchecks.validator, causalcheck.checking.api"


def _run(tmp_path: Path, preamble: str) -> str:
    (tmp_path / "user_constants.py").write_text(CONSTANTS)
    script = tmp_path / "suite.py"
    script.write_text(SUITE.format(preamble=preamble))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300, env=_env(tmp_path))
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def _env(tmp_path: Path) -> dict[str, str]:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith(("HYPOTHESIS", "CAUSALCHECK_PROFILE"))}
    env["PYTHONPATH"] = str(tmp_path)
    return env


def test_a_suite_draws_the_same_examples_whatever_local_modules_are_loaded_and_writes_nothing(tmp_path: Path) -> None:
    """The examples a ci-profile suite draws are the same with and without a constant-rich local module imported first;
    no .hypothesis/ (nor anything else) appears in the folder the suites ran in."""
    before = {p.name for p in tmp_path.iterdir()}
    alone = _run(tmp_path, "")
    beside = _run(tmp_path, OTHERS)
    assert alone == beside, "the suite's examples changed with an unrelated local module loaded"
    digest, count = alone.split()
    assert int(count) > 60 and len(digest) == 64
    after = {p.name for p in tmp_path.iterdir()} - {"__pycache__"}
    assert after == before | {"user_constants.py", "suite.py"}, sorted(after - before)


def test_the_hermetic_context_restores_hypothesis(tmp_path: Path) -> None:
    """After a suite the user's own hypothesis settings are back: home folder and constant provider."""
    from causalcheck.testing.runner import hermetic_hypothesis
    from hypothesis import configuration
    from hypothesis.internal.conjecture import providers

    home = "_" + "_hypothesis_home_directory"
    before_home, before_get = getattr(configuration, home), providers._get_local_constants
    with hermetic_hypothesis():
        assert getattr(configuration, home) != before_home
        assert not providers._get_local_constants().integers
    assert getattr(configuration, home) == before_home and providers._get_local_constants is before_get
