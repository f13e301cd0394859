"""The data shipped inside the package: every name resolves, the CausaLab files are unchanged, the wheel has them."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest
from causalcheck.base.bundled import BUNDLED, bundled_path, data_root, official_suite_files
from causalcheck.base.errors import InputFormatError
from causalcheck.cli import main
from causalcheck.lab.suites import bundled_suites, load_suite, official_suites

REPO = Path(__file__).resolve().parents[1]


def test_every_bundled_name_resolves_to_an_existing_path() -> None:
    """Each entry of BUNDLED is present in the installed package."""
    for name in BUNDLED:
        assert bundled_path(name).exists(), name


def test_an_unknown_name_is_refused_with_the_known_names() -> None:
    """A bad name is an input error that shows the value and lists what is known."""
    with pytest.raises(InputFormatError, match=r"name='nope' is not known; known: .*sample-run"):
        bundled_path("nope")


def test_the_official_files_are_the_release_unchanged() -> None:
    """Every file listed in the release's checksums.sha256 is shipped and has that SHA-256 (19 suites, 950 SCMs)."""
    release = bundled_path("causalab-suites").parent
    listed = [line.split() for line in (release / "checksums.sha256").read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len([f for _, f in listed if f.startswith("data/")]) == 19
    for digest, name in listed:
        assert hashlib.sha256((release / name).read_bytes()).hexdigest() == digest, name
    assert len(official_suite_files()) == 19
    assert sum(len(load_suite(f).graphs) for f in official_suite_files()) == 950


def test_license_and_notice_travel_with_the_data() -> None:
    """The Apache-2.0 text and the notice naming the upstream source sit beside the data."""
    root = data_root() / "causalab"
    assert "Apache License" in (root / "LICENSE").read_text(encoding="utf-8")
    notice = (root / "NOTICE.md").read_text(encoding="utf-8")
    assert "DylanZSZ/CausaLab-Benchmark" in notice and "Apache" in notice


def test_lab_suites_lists_the_bundled_and_the_19_official_suites(capsys: pytest.CaptureFixture[str]) -> None:
    """`lab suites` shows mini with a description from its content and every official suite."""
    assert main(["lab", "suites"]) == 0
    lines = capsys.readouterr().out.splitlines()
    official = [line for line in lines if "\tofficial\t" in line]
    assert len(official) == 19 and any(line.startswith("4nodes\tofficial\t50 graphs of 4 nodes") for line in official)
    assert "mini\tbundled\t12 graphs of 3-5 nodes" in lines
    assert bundled_suites()["mini"] == "12 graphs of 3-5 nodes" and len(official_suites()) == 19


def test_an_official_suite_runs_by_name(tmp_path: Path) -> None:
    """`lab run --suite 4nodes` works from the package alone (no shared/ folder is consulted)."""
    code = main(["lab", "run", "--suite", "4nodes", "--agent", "planner", "--limit", "2", "--out", str(tmp_path / "lab"), "--quiet"])
    assert code == 0
    assert len(list((tmp_path / "lab").rglob("*.jsonl"))) >= 2


def test_data_command_lists_and_prints_paths(capsys: pytest.CaptureFixture[str]) -> None:
    """`causalcheck data` lists every name with its license; `data NAME` prints the path; a bad name exits 2."""
    assert main(["data"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in BUNDLED) and "Apache-2.0" in out
    assert main(["data", "sample-run"]) == 0
    assert Path(capsys.readouterr().out.strip()) == bundled_path("sample-run")
    assert main(["data", "nope"]) == 2
    assert "'nope'" in capsys.readouterr().err


def test_the_sample_run_scores_from_its_bundled_path(tmp_path: Path) -> None:
    """`lab score "$(causalcheck data sample-run)"` scores the official episode."""
    assert main(["lab", "score", str(bundled_path("sample-run")), "--out", str(tmp_path / "s"), "--bootstrap", "0"]) == 0
    assert (tmp_path / "s" / "scores.json").is_file()


@pytest.mark.slow
def test_the_wheel_contains_the_data(tmp_path: Path) -> None:
    """A built wheel carries the 19 suites, the sample run (file names with spaces) and the license and notice.

    The build runs in pip's isolated build environment (setuptools from the package registry, as
    ``pip install`` of the README does)."""
    from _wheel import build_wheel

    wheel = build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "causalcheck/data/causalab/NOTICE.md" in names and "causalcheck/data/causalab/LICENSE" in names
    assert len([n for n in names if n.startswith("causalcheck/data/causalab/release/causalab_dataset/data/")]) == 19
    assert any(n.endswith("seed_1/Reactor Lab Causal_Causal_1_tracking_simple.jsonl") for n in names)
