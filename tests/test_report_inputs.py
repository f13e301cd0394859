"""causalcheck.report.inputs: every input read safely, every unreadable one named, check results of any kind shown."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from causalcheck.cli import main
from causalcheck.report.build import ReportOptions, build_report
from causalcheck.report.inputs import classify, load_inputs


def _check_json(*argv: str) -> str:
    """The standard output of ``causalcheck check ARGV --json``."""
    buf = io.StringIO()
    with redirect_stdout(buf):
        main(["check", *argv, "--json"])
    return buf.getvalue()


@pytest.fixture(scope="module")
def cyclic_json() -> str:
    """``check example:cyclic --json``: a check report with a cycle."""
    return _check_json("example:cyclic")


def test_a_truncated_file_in_a_folder_is_named_and_the_report_is_partial(tmp_path: Path, cyclic_json: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A folder with one good and one truncated result file: exit 1, stderr and the report name the truncated one."""
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "good.json").write_text(cyclic_json, encoding="utf-8")
    (folder / "cut.json").write_text(cyclic_json[: len(cyclic_json) // 2], encoding="utf-8")
    (folder / "config.json").write_text('{"other": "json"}', encoding="utf-8")  # valid JSON of no report kind: skipped
    out = tmp_path / "r.html"
    assert main(["report", str(folder), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"causalcheck: not read: {folder / 'cut.json'}: report input" in err and "not valid JSON" in err
    assert "partial: 1 input file could not be read" in err and "config.json" not in err
    html = out.read_text(encoding="utf-8")
    assert "This report is partial: 1 input file could not be read" in html and str(folder / "cut.json") in html
    result = build_report([folder], tmp_path / "r2.html", options=ReportOptions(resamples=0))
    assert result.partial and [p for p, _ in result.unreadable] == [str(folder / "cut.json")]
    assert result.inputs == {"lab": 0, "explain": 0, "check": 1}


def test_a_folder_whose_only_result_is_unreadable_is_an_error_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing readable in the folder: exit 2, and the message says why the file there was not read."""
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "scores.json").write_bytes(b'{"format": "causalcheck-scores/1", "episodes": [')
    assert main(["report", str(folder), "--out", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "holding no lab scores.json" in err and "1 file there could not be read" in err and "scores.json" in err


@pytest.mark.parametrize("damage", [
    '"agent": "x\\ud800", "final": {"edge_f1": NaN}',  # NaN sends the reader to the lenient path; the surrogate must still be refused
    '"final": {"edge_f1": Infinity}, "deep": ' + "[" * 200 + "]" * 200,
    '"final": {"edge_f1": NaN}, "id": ' + "9" * 400,
])
def test_a_scores_file_beyond_the_safe_readers_limits_exits_2_naming_it(tmp_path: Path, damage: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Bare NaN together with a lone surrogate, deep nesting or a huge integer: exit 2 (not 70), the file named."""
    scores = tmp_path / "scores.json"
    scores.write_text('{"format": "causalcheck-scores/1", "by_suite": [], "episodes": [{' + damage + "}]}", encoding="utf-8")
    for fmt in ("html", "md"):
        assert main(["report", str(scores), "--format", fmt, "--out", str(tmp_path / f"out-{fmt}")]) == 2
        assert f"report input {str(scores)!r}" in capsys.readouterr().err


def test_bare_nan_of_earlier_lab_score_versions_is_still_read_as_missing(tmp_path: Path) -> None:
    """The one leniency stays: NaN / Infinity in an otherwise sound scores.json read as null."""
    scores = tmp_path / "scores.json"
    scores.write_text('{"format": "causalcheck-scores/1", "by_suite": [], "episodes": [{"final": {"edge_f1": NaN}}]}', encoding="utf-8")
    inputs = load_inputs([scores])
    assert inputs.lab[0][1]["episodes"][0]["final"] == {"edge_f1": None}


def test_the_json_of_check_on_a_graph_is_a_report_input(tmp_path: Path) -> None:
    """``check GRAPH --json`` (the validator's result) is shown as a graph check with its findings."""
    graph = tmp_path / "g.dot"
    graph.write_text("digraph { a -> b; b -> c; a -> c; }\n", encoding="utf-8")
    truth = tmp_path / "t.dot"
    truth.write_text("digraph { a -> b; c -> b; }\n", encoding="utf-8")
    payload = _check_json(str(graph), "--truth", str(truth))
    assert classify(json.loads(payload)) == "check"
    (tmp_path / "c.json").write_text(payload, encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", str(tmp_path / "c.json"), "--out", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "Graph: 1 of 1 report with problems" in html and "truth-extra-edge" in html


def test_the_json_of_check_on_a_folder_is_a_report_input(tmp_path: Path, cyclic_json: str) -> None:
    """``check FOLDER --json`` (kind folder, one result per file) shows every file's check."""
    folder = tmp_path / "steps"
    folder.mkdir()
    for i in (1, 2):
        (folder / f"step{i}.json").write_text(json.dumps({"step": i, "hypothesis": {"edges": [["a", "b"], ["b", "a"]], "target": "b"}}),
                                              encoding="utf-8")
    payload = json.loads(_check_json(str(folder)))
    assert payload["kind"] == "folder" and len(payload["results"]) == 2
    (tmp_path / "c.json").write_text(json.dumps(payload), encoding="utf-8")
    result = build_report([tmp_path / "c.json"], tmp_path / "r.html", options=ReportOptions(resamples=0))
    assert result.inputs["check"] == 2


def test_check_of_a_graph_file_validates_the_graph(tmp_path: Path) -> None:
    """``report --check graph.dot`` reads the file as a graph (validated), never as a hypothesis record."""
    graph = tmp_path / "g.dot"
    graph.write_text("digraph { a -> b; b -> c; c -> a; }\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert main(["report", "--check", str(graph), "--out", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "Graph: 1 of 1 report with problems" in html and "cycle" in html and "bad hypothesis line" not in html


def test_a_check_source_that_cannot_be_read_is_named_as_the_check_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A --check SOURCE the checker refuses: exit 2, the message starts with --check and the source."""
    assert main(["report", "--check", str(tmp_path / "missing.dot"), "--out", str(tmp_path / "r.html")]) == 2
    assert f"--check {str(tmp_path / 'missing.dot')!r}:" in capsys.readouterr().err
