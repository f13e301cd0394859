"""The causalcheck pytest plugin, as a user's project sees it: fixtures, the profile setting, snapshot updates."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from causalcheck.graphchecks.named import NAMED_GRAPHS


def _pytest(folder: Path, *args: str, k: int = 1) -> subprocess.CompletedProcess[str]:
    """Run pytest in *folder* in a fresh process (the plugin is found through its pytest11 entry point); *k* is $K there."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "K": str(k)},
    )


def _project(tmp_path: Path, test: str, ini: str = "") -> Path:
    (tmp_path / "test_user.py").write_text(test, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text(f"[pytest]\n{ini}\n", encoding="utf-8")
    return tmp_path


def test_named_causal_graph_runs_once_per_named_graph(tmp_path: Path) -> None:
    """A user's test taking named_causal_graph runs for every named graph, with the name as test id."""
    proj = _project(tmp_path, "def test_g(named_causal_graph):\n    name, g = named_causal_graph\n    assert g.pairs\n")
    run = _pytest(proj, "-vv")  # -q -vv: one line per test with its id
    assert run.returncode == 0 and f"{len(NAMED_GRAPHS)} passed" in run.stdout, run.stdout + run.stderr
    for name in NAMED_GRAPHS:
        assert f"test_user.py::test_g[{name}] PASSED" in run.stdout


PROFILE_TEST = "def test_p(causalcheck_profile):\n    print('PROFILE=' + causalcheck_profile)\n"


@pytest.mark.parametrize(
    ("ini", "args", "expected"),
    [
        ("", (), "ci"),
        ("causalcheck_profile = dev", (), "dev"),
        ("causalcheck_profile = dev", ("--causalcheck-profile=thorough",), "thorough"),
    ],
)
def test_the_profile_comes_from_the_command_line_then_the_ini_file(tmp_path: Path, ini: str, args: tuple[str, ...], expected: str) -> None:
    """--causalcheck-profile wins over the causalcheck_profile ini value, which wins over the default ci."""
    out = _pytest(_project(tmp_path, PROFILE_TEST, ini), "-s", *args)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"PROFILE={expected}" in out.stdout


def test_an_unknown_profile_is_a_usage_error(tmp_path: Path) -> None:
    """A misspelt ini profile stops the run with a message naming the choices."""
    out = _pytest(_project(tmp_path, PROFILE_TEST, "causalcheck_profile = fast"))
    assert out.returncode == 4
    assert "causalcheck_profile='fast' must be one of ['ci', 'dev', 'thorough']" in out.stderr


SNAPSHOT_TEST = (
    "import os\n"
    "from causalcheck.testing import corpus, snapshot\n"
    "def test_snap():\n"
    "    k = int(os.environ.get('K', '1'))\n"
    "    snapshot(lambda s: k * sum(s), corpus('criterion-scores', size=3), 'snap.json')\n"
)


def _updated_section(run: subprocess.CompletedProcess[str]) -> None:
    """The run passed and ends with the section naming the updated snapshot, its count and 'id: old → new' lines."""
    assert run.returncode == 0, run.stdout + run.stderr
    section = run.stdout.split("causalcheck snapshot updates", 1)[-1]
    assert "updated, 3 of 3 outputs of" in section and "criterion-scores-000: " in section and " → " in section, run.stdout


def test_update_snapshots_option_rewrites_a_changed_snapshot_and_lists_it(tmp_path: Path) -> None:
    """Without the option a changed rule fails; with --causalcheck-update-snapshots the snapshot is rewritten and the run
    ends with a section listing it; the next run passes."""
    proj = _project(tmp_path, SNAPSHOT_TEST)
    assert _pytest(proj).returncode == 0  # records
    failed = _pytest(proj, k=2)
    assert failed.returncode == 1 and "SnapshotMismatch" in failed.stdout
    _updated_section(_pytest(proj, "--causalcheck-update-snapshots", k=2))
    assert _pytest(proj, k=2).returncode == 0


def test_the_options_are_listed_in_pytest_help(tmp_path: Path) -> None:
    """pytest --help shows the causalcheck group."""
    out = _pytest(_project(tmp_path, PROFILE_TEST), "--help")
    assert "--causalcheck-profile" in out.stdout and "--causalcheck-update-snapshots" in out.stdout
    assert "causalcheck_profile" in out.stdout


def test_the_profile_marker_overrides_the_session_profile_for_one_test(tmp_path: Path) -> None:
    """@pytest.mark.causalcheck_profile('ci') runs that test at ci under --causalcheck-profile=dev; the next test is back at
    dev, and a suite called there without a profile runs at dev (its report says so)."""
    test = (
        "import pytest\n"
        "from causalcheck.testing import check_explanation_scorer\n"
        "from causalcheck.explain.scoring import compute_final\n"
        "from causalcheck.testing.profiles import default_profile\n"
        "@pytest.mark.causalcheck_profile('ci')\n"
        "def test_a():\n"
        "    print('MARKED=' + default_profile())\n"
        "def test_b():\n"
        "    print('UNMARKED=' + default_profile())\n"
        "    r = check_explanation_scorer(compute_final, 'final')\n"
        "    print('REPORT', r.profile, r.max_examples)\n"
    )
    out = _pytest(_project(tmp_path, test), "-s", "--causalcheck-profile=dev")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "MARKED=ci" in out.stdout and "UNMARKED=dev" in out.stdout and "REPORT dev 200" in out.stdout


def test_a_profile_marker_without_a_known_name_is_a_usage_error(tmp_path: Path) -> None:
    """causalcheck_profile('fast') stops the test with a message naming the choices."""
    test = "import pytest\n@pytest.mark.causalcheck_profile('fast')\ndef test_a():\n    pass\n"
    out = _pytest(_project(tmp_path, test))
    assert out.returncode != 0 and "must be one profile name of ['ci', 'dev', 'thorough']" in out.stdout + out.stderr


def test_the_graph_factory_gives_causal_and_general_graphs_and_the_documented_pairs(tmp_path: Path) -> None:
    """causalcheck_graph(name) is the catalogue value; general=True converts to causalcheck.graphs.Graph; the README's and
    the fixture docstring's one-liner for pairs runs in a user's test and gives the stated list."""
    import re

    from causalcheck.testing import plugin

    readme = (Path(__file__).resolve().parents[1] / "docs" / "testing.md").read_text(encoding="utf-8")
    m = re.search(r"`(sorted\(causalcheck_graph\(\"collider\"\)\.pairs\))` →\s*`(\[[^`]*\])`", readme)
    assert m, "docs/testing.md lost the pairs one-liner"
    assert "sorted(causalcheck_graph(" in (plugin.__doc__ or "") and ".pairs)" in (plugin.causalcheck_graph.__doc__ or "")
    proj = _project(
        tmp_path,
        "from causalcheck.graphchecks.named import NAMED_GRAPHS\n"
        "from causalcheck.graphs import Graph\n"
        "def test_f(causalcheck_graph):\n"
        "    assert causalcheck_graph('collider') is NAMED_GRAPHS['collider']\n"
        "    g = causalcheck_graph('collider', general=True)\n"
        "    assert isinstance(g, Graph) and sorted(g.directed_pairs) == [('A', 'C'), ('B', 'C')]\n"
        f"def test_pairs(causalcheck_graph):\n    assert {m.group(1)} == {m.group(2)}\n",
    )
    out = _pytest(proj)
    assert out.returncode == 0 and "2 passed" in out.stdout, out.stdout + out.stderr


def test_the_list_of_updated_snapshots_travels_with_xdist_workers(tmp_path: Path) -> None:
    """Under pytest-xdist (-n 2) the updated-snapshot section still ends the run: the summaries travel with the reports."""
    proj = _project(tmp_path, SNAPSHOT_TEST)
    assert _pytest(proj).returncode == 0  # records
    _updated_section(_pytest(proj, "-n", "2", "--causalcheck-update-snapshots", k=2))
