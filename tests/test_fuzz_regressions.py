"""Crashes the fuzz harness found (properties/test_fuzz_*.py), each pinned by its smallest input.

Every test names the fuzz row that found it; the fix is in the commit that added the test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from causalcheck.errors import CausalCheckError
from causalcheck.graphs import read_graph
from causalcheck.graphs.background import parse_knowledge, read_knowledge


@pytest.mark.parametrize(
    "text,fmt,needle",
    [
        ('nodes: "\x00"\n', "text", "Invalid control character"),
        ('dag {\na\n"\x00"\n}\n', "dagitty", "Invalid control character"),
        ('a -> "\\q"', "text", "Invalid \\escape"),
        ('dag { "\\ud83c" -> b }', "dagitty", "lone surrogate"),
    ],
    ids=["text-nul", "dagitty-nul", "bad-escape", "lone-surrogate"],
)
def test_quoted_graph_names_that_are_not_json_strings_are_refused(text: str, fmt: str, needle: str) -> None:
    """read_graph[text]/[dagitty]: a quoted name with a control character, a bad escape or a lone surrogate is an input error naming it, not a JSONDecodeError."""
    with pytest.raises(CausalCheckError, match="quoted name") as info:
        read_graph(text, format=fmt)
    assert needle in str(info.value)


def test_quoted_background_names_that_are_not_json_strings_are_refused() -> None:
    """background knowledge: the same quoted-name refusal in the rule grammar."""
    with pytest.raises(CausalCheckError, match="Invalid control character"):
        parse_knowledge('require "\x01" -> b\n', source="bk.txt")


@pytest.mark.parametrize(
    "read",
    [lambda t: read_graph(t, format="json"), read_knowledge],
    ids=["graph-json", "background-json"],
)
@pytest.mark.parametrize(
    "text,needle",
    [('{"a": ' * 100_000, "MAX_DEPTH"), ('{"nodes": ["a"], "edges": [], "x": NaN}', "NaN is not JSON")],
    ids=["deep", "nan"],
)
def test_graph_and_background_json_is_read_safely(read, text: str, needle: str) -> None:  # type: ignore[no-untyped-def]
    """read_graph[json] / background knowledge: JSON is decoded with causalcheck.safejson (100 000-deep nesting raised RecursionError; NaN was accepted)."""
    with pytest.raises(CausalCheckError, match=needle):
        read(text)


def test_a_suite_parameter_beyond_float_range_is_refused() -> None:
    """parse_suite_record: an integer coefficient of 400 digits is an input error naming it (OverflowError before)."""
    import json

    from causalcheck.lab.suites import find_suite, parse_suite_record

    record = json.loads(find_suite("mini")[1].splitlines()[0])
    key = next(k for k in record["params"] if k.startswith("coeff"))
    record["params"][key] = 10**400
    with pytest.raises(CausalCheckError, match=f"params\\['{key}'\\].*must be a finite number"):
        parse_suite_record(record, where="s.jsonl:1")


@pytest.mark.parametrize("text", ["", "nodes: a"], ids=["no-node", "one-node"])
def test_compare_of_graphs_with_fewer_than_two_nodes_has_no_distances(text: str) -> None:
    """compare: a 0- or 1-node graph gives SID/AID None with a note (gadjid raised RuntimeError / a Rust panic before)."""
    from causalcheck.graphs import compare

    c = compare(text, text)
    assert (c.sid, c.parent_aid, c.ancestor_aid, c.oset_aid) == (None, None, None, None)
    assert c.shd == 0
    assert any("2 or more nodes" in n for n in c.notes)


def test_compare_names_both_files_when_their_nodes_differ(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """compare: the node-mismatch error (exit 2) names the truth and estimate files (it said only 'truth and estimate')."""
    from causalcheck.cli import main

    (tmp_path / "t.txt").write_text("", encoding="utf-8")
    (tmp_path / "e.txt").write_text("nodes: a\n", encoding="utf-8")
    assert main(["compare", str(tmp_path / "t.txt"), str(tmp_path / "e.txt")]) == 2
    err = capsys.readouterr().err
    assert f"truth {str(tmp_path / 't.txt')!r} and estimate {str(tmp_path / 'e.txt')!r} have different nodes" in err


@pytest.mark.parametrize(
    "text,needle",
    [("n", "must be square"), ("A,A\n0,0\n0,0\n", "names repeat"), (",A\nA,1\n", "self-loops")],
    ids=["no-row", "repeated-name", "diagonal"],
)
def test_a_graph_file_refused_below_its_parser_is_named(tmp_path: Path, text: str, needle: str) -> None:
    """read_graph[adjacency]: an error of the matrix check under the CSV parser names the file (it named none)."""
    path = tmp_path / "g.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CausalCheckError, match=needle) as info:
        read_graph(path, format="adjacency")
    assert str(info.value).startswith(f"{path}: ")


@pytest.mark.parametrize("text,got", [("null", "got NoneType"), ('{"items": 3}', "got 'items' of type int")], ids=["null", "items-int"])
def test_a_result_file_that_is_not_a_result_is_named(tmp_path: Path, text: str, got: str) -> None:
    """explain replay: a result file without an 'items' list is refused naming the file and what it holds (it named neither)."""
    from causalcheck.explain.replay import replay_file

    path = tmp_path / "r.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CausalCheckError, match="must be an object with an 'items' list") as info:
        replay_file(path)
    assert str(info.value).startswith(f"{path}: ") and got in str(info.value)


def _recorded_snapshot(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A snapshot recorded by 'causalcheck snapshot check' (2 graph-pairs cases) and its content."""
    import json

    from causalcheck.cli import main

    path = tmp_path / "s.json"
    assert main(["snapshot", "check", str(path), "--kind", "graph-pairs", "--size", "2", "--command", "cat {truth}"]) == 0
    return path, json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    "damage,needle",
    [
        (lambda c: c["input"].pop("truth"), "a missing key 'truth'"),
        (lambda c: c.update(input=3), "input=3 is not a 'graph-pairs' case"),
        (lambda c: c["input"].update(estimate=[7]), "TypeError"),
    ],
    ids=["missing-key", "not-an-object", "edge-not-a-pair"],
)
def test_a_damaged_case_input_of_a_snapshot_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Callable[[dict[str, Any]], object], needle: str) -> None:
    """snapshot check: a stored case input without the kind's shape is exit 2 naming the file and the case (KeyError / TypeError: exit 70 before)."""
    import json

    from causalcheck.cli import main

    path, data = _recorded_snapshot(tmp_path)
    damage(data["cases"][1])
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["snapshot", "check", str(path), "--command", "cat {truth}"]) == 2
    err = capsys.readouterr().err
    assert f"{path}: case 'graph-pairs-001': " in err and needle in err


@pytest.mark.parametrize("case_id", [5, "", "..", "../outside", "/abs/path"], ids=["int", "empty", "dotdot", "relative", "absolute"])
def test_a_snapshot_case_id_cannot_name_a_folder_elsewhere(tmp_path: Path, capsys: pytest.CaptureFixture[str], case_id: object) -> None:
    """snapshot check: a stored case id that is not a plain name is exit 2 (an int was a TypeError, exit 70; '../x' or '/x' wrote the case's files outside the temporary folder)."""
    import json

    from causalcheck.cli import main

    path, data = _recorded_snapshot(tmp_path)
    data["cases"][0]["id"] = case_id
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["snapshot", "check", str(path), "--command", "cat {truth}"]) == 2
    assert f"id={case_id!r} must be a non-empty name" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text,needle",
    [('{"format": "causalcheck-snapshot/1", "x": ' + "[" * 100_000, "MAX_DEPTH"), ('{"format": "causalcheck-snapshot/1", "x": NaN}', "NaN is not JSON")],
    ids=["deep", "nan"],
)
def test_a_snapshot_file_is_decoded_safely(tmp_path: Path, text: str, needle: str) -> None:
    """snapshot check / testing.snapshot: the snapshot is decoded with causalcheck.safejson (100 000-deep nesting raised RecursionError: exit 70; NaN was accepted)."""
    from causalcheck.testing.snapshots import read_snapshot

    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CausalCheckError, match=needle):
        read_snapshot(path)


@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_a_snapshot_timeout_that_is_not_a_finite_nonnegative_number_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    """snapshot check --timeout nan / inf: exit 2 naming the option (subprocess raised ValueError: exit 70; -1 timed every command out)."""
    from causalcheck.cli import main

    path, _ = _recorded_snapshot(tmp_path)
    capsys.readouterr()
    assert main(["snapshot", "check", str(path), "--command", "cat {truth}", "--timeout", value]) == 2
    assert f"--timeout={float(value)!r} must be a finite number >= 0" in capsys.readouterr().err


@pytest.mark.parametrize(
    "text,needle",
    [
        ("0.1,0.2,0.3\n0.4,0.5,0.6\n", "data columns do not match the graph's nodes"),
        ("a,b,c\n" + "1,2,3\n" * 6, "are constant"),
        ("a,b,c\n1,2,3\n2,3,1\n", "usable row(s)"),
    ],
    ids=["header-lost", "constant", "too-few-rows"],
)
def test_a_data_file_refused_after_reading_is_named(tmp_path: Path, text: str, needle: str) -> None:
    """load_data / check GRAPH --data: a CSV refused by the checks after reading (columns, constant, rows) names the file (it named none)."""
    from causalcheck.graphs.data import load_data

    path = tmp_path / "d.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CausalCheckError, match=re.escape(needle)) as info:
        load_data(path, ["a", "b", "c"])
    assert str(info.value).startswith(f"{path}: ")


def test_a_result_field_of_the_wrong_type_does_not_crash_the_report(tmp_path: Path) -> None:
    """report: a result item whose parsed_dag nodes is not a list (true) is drawn without it (TypeError: exit 70 before)."""
    import json

    from causalcheck.cli import main

    assert main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong", "--limit", "1",
                 "--out", str(tmp_path / "x"), "--quiet", "--timestamp", "20260101-000000"]) == 0  # fmt: skip
    (result,) = (tmp_path / "x").glob("*_metrics_*.json")
    data = json.loads(result.read_text(encoding="utf-8"))
    data["items"][0]["parsed_dag"] = {"nodes": True, "edges": 3}
    result.write_text(json.dumps(data), encoding="utf-8")
    assert main(["report", str(result), "--out", str(tmp_path / "r.html"), "--bootstrap", "0"]) == 0


@pytest.mark.parametrize(
    "damage,field",
    [
        (lambda it: it.__setitem__("pm_score", 10**400), "pm_score"),
        (lambda it: it["metrics"]["rm"].update(criterion_evaluations=[], criterion_scores=[10**400]), "criterion_scores[0]"),
        (lambda it: it["metrics"]["rm"]["criterion_evaluations"][0].__setitem__("score", 10**400), "criterion_evaluations[0].score"),
        (lambda it: it["metrics"]["pm"]["edges"][0].__setitem__("score", 10**400), "metrics.pm.edges[0].score"),
    ],
    ids=["pm_score", "criterion_scores", "criterion_evaluations", "edge-score"],
)
def test_a_result_number_beyond_float_range_is_refused(whatif_result: Path, damage: Callable[[dict[str, Any]], object], field: str) -> None:
    """replay_payload/[official]: an integer such as 10**400 in a score field is an input error naming the field, not an OverflowError."""
    from causalcheck.explain.replay import replay_payload

    payload = json.loads(whatif_result.read_text(encoding="utf-8"))
    damage(payload["items"][0])
    report = replay_payload(payload)
    (skipped,) = report.unreplayed
    assert field in skipped["error"] and "1000000" in skipped["error"] and "float range" in skipped["error"]


@pytest.mark.parametrize(
    "text,line",
    [("\rid,pm,rm,final\ndemo_stem_01,1.0,0.74,0.87\n", 1), ("id,pm\na,1\n" + "b" * 200_000 + ",0.5\n", 3)],
    ids=["bare-carriage-return", "field-too-large"],
)
def test_a_malformed_human_scores_csv_is_named_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], whatif_result: Path, text: str, line: int) -> None:
    """read_scores[human csv] / explain agree: a CSV the csv module refuses is an input error naming the file and line, not a csv.Error (exit 70)."""
    from causalcheck.cli import main
    from causalcheck.report.agree import read_scores

    path = tmp_path / "human.csv"
    path.write_bytes(text.encode())
    with pytest.raises(CausalCheckError, match=re.escape(f"{path}:{line}: not a valid CSV row")):
        read_scores(path)
    assert main(["explain", "agree", str(whatif_result), str(path), "--bootstrap", "0"]) == 2
    assert f"{path}:{line}: not a valid CSV row" in capsys.readouterr().err


def test_a_long_answer_model_name_still_gives_a_valid_result_file_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """explain score: an answer model named '9' * 400 is scored into a file whose name is capped (prefix + hash), not an OSError."""
    from causalcheck.cli import main
    from causalcheck.explain.report import MAX_NAME_CHARS, sanitize_name

    model = "9" * 400
    answers = tmp_path / "answers.jsonl"
    answers.write_text(json.dumps({"id": "demo_stem_01", "model": model, "answer": "If the Moon vanished, tides would shrink."}) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["explain", "score", "--benchmark", "demo", "--answers", str(answers), "--out", str(out), "--quiet"]) in (0, 1), capsys.readouterr().err
    stem = sanitize_name(model)
    assert len(stem) == MAX_NAME_CHARS and stem.startswith("9" * 50)
    assert (out / f"{stem}_metrics_offline.json").is_file()


def test_nothing_could_be_replayed_names_the_result_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """explain replay/[official]: when no item can be replayed, the final error and each item line name the result file."""
    from causalcheck.cli import main

    path = tmp_path / "gpt-5.5_metrics_gpt-5.5.json"
    path.write_text(json.dumps({"items": [None], "state": {}}), encoding="utf-8")
    assert main(["explain", "replay", str(path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert f"{path}: item '#0' could not be replayed" in lines[0]
    assert lines[-1].endswith(f"error: nothing could be replayed from result file {str(path)!r}")
