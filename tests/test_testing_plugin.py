"""The causalcheck pytest plugin, as a user's project sees it: fixtures, the profile setting, snapshot updates."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from causalcheck.graphchecks.named import NAMED_GRAPHS


def _pytest(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run pytest in *folder* in a fresh process (the plugin is found through its pytest11 entry point)."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


def _project(tmp_path: Path, test: str, ini: str = "") -> Path:
    (tmp_path / "test_user.py").write_text(test, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text(f"[pytest]\n{ini}\n", encoding="utf-8")
    return tmp_path


def test_named_causal_graph_runs_once_per_named_graph(tmp_path: Path) -> None:
    """A user's test taking named_causal_graph runs for every named graph, with the name as test id."""
    proj = _project(tmp_path, "def test_g(named_causal_graph):\n    name, g = named_causal_graph\n    assert g.pairs\n")
    out = _pytest(proj, "--collect-only")
    assert out.returncode == 0, out.stdout + out.stderr
    for name in NAMED_GRAPHS:
        assert f"test_user.py::test_g[{name}]" in out.stdout
    run = _pytest(proj)
    assert run.returncode == 0 and f"{len(NAMED_GRAPHS)} passed" in run.stdout


def test_the_graph_factory_gives_causal_and_general_graphs(tmp_path: Path) -> None:
    """causalcheck_graph(name) is the catalogue value; general=True converts to causalcheck.graphs.Graph."""
    proj = _project(
        tmp_path,
        "from causalcheck.graphchecks.named import NAMED_GRAPHS\n"
        "from causalcheck.graphs import Graph\n"
        "def test_f(causalcheck_graph):\n"
        "    assert causalcheck_graph('collider') is NAMED_GRAPHS['collider']\n"
        "    g = causalcheck_graph('collider', general=True)\n"
        "    assert isinstance(g, Graph) and sorted(g.directed_pairs) == [('A', 'C'), ('B', 'C')]\n",
    )
    out = _pytest(proj)
    assert out.returncode == 0, out.stdout + out.stderr


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


def test_the_suites_run_under_the_selected_profile(tmp_path: Path) -> None:
    """A suite called without a profile uses the plugin's: its report says so."""
    proj = _project(
        tmp_path,
        "from causalcheck.testing import check_explanation_scorer\n"
        "from causalcheck.explain.scoring import compute_final\n"
        "def test_s():\n"
        "    r = check_explanation_scorer(compute_final, 'final')\n"
        "    print('REPORT', r.profile, r.max_examples)\n",
    )
    out = _pytest(proj, "-s", "--causalcheck-profile=dev")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "REPORT dev 200" in out.stdout


def test_update_snapshots_option_rewrites_a_changed_snapshot(tmp_path: Path) -> None:
    """Without the option a changed rule fails; with --causalcheck-update-snapshots the snapshot is rewritten."""
    test = (
        "import os\n"
        "from causalcheck.testing import corpus, snapshot\n"
        "def test_snap():\n"
        "    k = int(os.environ.get('K', '1'))\n"
        "    snapshot(lambda s: k * sum(s), corpus('criterion-scores', size=5), 'snap.json')\n"
    )
    proj = _project(tmp_path, test)
    assert _pytest(proj).returncode == 0  # records
    import os

    env_run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *a], cwd=proj, capture_output=True, text=True, check=False, env={**os.environ, "K": "2"}
    )
    failed = env_run()
    assert failed.returncode == 1 and "SnapshotMismatch" in failed.stdout
    assert env_run("--causalcheck-update-snapshots").returncode == 0
    assert env_run().returncode == 0


def test_the_options_are_listed_in_pytest_help(tmp_path: Path) -> None:
    """pytest --help shows the causalcheck group."""
    out = _pytest(_project(tmp_path, PROFILE_TEST), "--help")
    assert "--causalcheck-profile" in out.stdout and "--causalcheck-update-snapshots" in out.stdout
    assert "causalcheck_profile" in out.stdout


def test_the_profile_marker_overrides_the_session_profile_for_one_test(tmp_path: Path) -> None:
    """@pytest.mark.causalcheck_profile('ci') runs that test at ci under --causalcheck-profile=dev; the next test is back at dev."""
    test = (
        "import pytest\n"
        "from causalcheck.testing.profiles import default_profile\n"
        "@pytest.mark.causalcheck_profile('ci')\n"
        "def test_a():\n"
        "    print('MARKED=' + default_profile())\n"
        "def test_b():\n"
        "    print('UNMARKED=' + default_profile())\n"
    )
    out = _pytest(_project(tmp_path, test), "-s", "--causalcheck-profile=dev")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "MARKED=ci" in out.stdout and "UNMARKED=dev" in out.stdout


def test_a_profile_marker_without_a_known_name_is_a_usage_error(tmp_path: Path) -> None:
    """causalcheck_profile('fast') stops the test with a message naming the choices."""
    test = "import pytest\n@pytest.mark.causalcheck_profile('fast')\ndef test_a():\n    pass\n"
    out = _pytest(_project(tmp_path, test))
    assert out.returncode != 0 and "must be one profile name of ['ci', 'dev', 'thorough']" in out.stdout + out.stderr


def test_the_documented_pairs_one_liner_gives_the_pairs(tmp_path: Path) -> None:
    """The README's and the fixture docstring's one-liner for pairs runs in a user's test and gives the stated list."""
    import re

    from causalcheck.testing import plugin

    readme = (Path(__file__).resolve().parents[1] / "docs" / "testing.md").read_text(encoding="utf-8")
    m = re.search(r"`(sorted\(causalcheck_graph\(\"collider\"\)\.pairs\))` →\s*`(\[[^`]*\])`", readme)
    assert m, "docs/testing.md lost the pairs one-liner"
    assert "sorted(causalcheck_graph(" in (plugin.__doc__ or "") and ".pairs)" in (plugin.causalcheck_graph.__doc__ or "")
    proj = _project(tmp_path, f"def test_pairs(causalcheck_graph):\n    assert {m.group(1)} == {m.group(2)}\n")
    out = _pytest(proj)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["in-process", "xdist"])
def test_the_run_ends_with_the_list_of_updated_snapshots(tmp_path: Path, workers: tuple[str, ...]) -> None:
    """--causalcheck-update-snapshots ends with a section naming each updated snapshot, its count and 'id: old → new' lines."""
    import os

    test = (
        "import os\n"
        "from causalcheck.testing import corpus, snapshot\n"
        "def test_snap():\n"
        "    k = int(os.environ.get('K', '1'))\n"
        "    snapshot(lambda s: k * sum(s), corpus('criterion-scores', size=3), 'snap.json')\n"
    )
    proj = _project(tmp_path, test)
    assert _pytest(proj).returncode == 0  # records
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers, "--causalcheck-update-snapshots"],
        cwd=proj, capture_output=True, text=True, check=False, env={**os.environ, "K": "2"},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    section = run.stdout.split("causalcheck snapshot updates", 1)[-1]
    assert "updated, 3 of 3 outputs of" in section and "criterion-scores-000: " in section and " → " in section, run.stdout
