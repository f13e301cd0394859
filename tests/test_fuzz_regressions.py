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
from causalcheck.base.errors import CausalCheckError
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
    """read_graph[json] / background knowledge: JSON is decoded with causalcheck.base.safejson (100 000-deep nesting raised RecursionError; NaN was accepted)."""
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


def _check_damaged_snapshot(tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: Callable[[dict[str, Any]], object]) -> tuple[Path, str]:
    """Record a snapshot, apply *damage* to its content, run 'snapshot check' on it: exit 2; the path and stderr."""
    import json

    from causalcheck.cli import main

    path, data = _recorded_snapshot(tmp_path)
    damage(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["snapshot", "check", str(path), "--command", "cat {truth}"]) == 2
    return path, capsys.readouterr().err


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
    path, err = _check_damaged_snapshot(tmp_path, capsys, lambda data: damage(data["cases"][1]))
    assert f"{path}: case 'graph-pairs-001': " in err and needle in err


@pytest.mark.parametrize("case_id", [5, "", "..", "../outside", "/abs/path"], ids=["int", "empty", "dotdot", "relative", "absolute"])
def test_a_snapshot_case_id_cannot_name_a_folder_elsewhere(tmp_path: Path, capsys: pytest.CaptureFixture[str], case_id: object) -> None:
    """snapshot check: a stored case id that is not a plain name is exit 2 (an int was a TypeError, exit 70; '../x' or '/x' wrote the case's files outside the temporary folder)."""
    _, err = _check_damaged_snapshot(tmp_path, capsys, lambda data: data["cases"][0].update(id=case_id))
    assert f"id={case_id!r} must be a non-empty name" in err


@pytest.mark.parametrize(
    "text,needle",
    [('{"format": "causalcheck-snapshot/1", "x": ' + "[" * 100_000, "MAX_DEPTH"), ('{"format": "causalcheck-snapshot/1", "x": NaN}', "NaN is not JSON")],
    ids=["deep", "nan"],
)
def test_a_snapshot_file_is_decoded_safely(tmp_path: Path, text: str, needle: str) -> None:
    """snapshot check / testing.snapshot: the snapshot is decoded with causalcheck.base.safejson (100 000-deep nesting raised RecursionError: exit 70; NaN was accepted)."""
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
    "text,fmt",
    [("[" * 300, "text"), ("9" * 300, "dagitty"), ("[" * 5000, "text"), ("a\x00b", "text"), ("a\rb -> c", "text")],
    ids=["text-too-long", "dagitty-too-long", "beyond-path-max", "nul", "carriage-return"],
)
def test_a_text_that_cannot_be_a_path_is_read_as_text(text: str, fmt: str) -> None:
    """read_graph[text]/[dagitty]: a long or NUL-carrying text is parsed as text, never probed into an OSError."""
    with pytest.raises(CausalCheckError, match="<string>"):
        read_graph(text, format=fmt)


def test_background_text_that_cannot_be_a_path_is_read_as_text() -> None:
    """background knowledge: a 300-character text is a rule text, not a file name too long."""
    with pytest.raises(CausalCheckError, match="<string>"):
        read_knowledge("x" * 300)


_HUGE_FIELD = '"' + "x" * 200_000 + '"'


@pytest.mark.parametrize(
    "text,fmt,needle",
    [
        ("\rource,target,edge\na,,\n", "edgelist", "needs a source column"),
        ("\rource,target,edge\na,,\n", None, "<string>"),
        (f"source,target\n{_HUGE_FIELD},b\n", "edgelist", r"<string>:2: the CSV does not parse: field larger"),
        (f",A\n{_HUGE_FIELD},0\n", "adjacency", r"<string>:2: the CSV does not parse"),
    ],
    ids=["edgelist-cr", "auto-cr", "edgelist-field-limit", "adjacency-field-limit"],
)
def test_a_csv_graph_the_csv_module_refuses_is_an_input_error(text: str, fmt: str | None, needle: str) -> None:
    """read_graph[edgelist]/[adjacency]/[auto]: a lone \\r is a row break and a csv.Error is an input error naming the line."""
    with pytest.raises(CausalCheckError, match=needle):
        read_graph(text, format=fmt)


def test_an_adjacency_csv_with_a_lone_carriage_return_is_read() -> None:
    """read_graph[adjacency]: a lone \\r ends a row as the csv module documents, not a _csv.Error."""
    assert read_graph("\r,A\nA,0\n", format="adjacency").nodes == ("A",)


def test_a_data_csv_the_csv_module_refuses_is_an_input_error(tmp_path: Path) -> None:
    """graphs.data.load_data: a csv.Error in a data file is an input error naming the file and line."""
    from causalcheck.graphs.data import load_data

    path = tmp_path / "data.csv"
    path.write_text(f"a,b\n1,{_HUGE_FIELD}\n", encoding="utf-8")
    with pytest.raises(CausalCheckError, match=r"data\.csv:2: the CSV does not parse"):
        load_data(str(path), ["a", "b"])


def test_a_human_scores_csv_with_a_carriage_return_is_read(tmp_path: Path) -> None:
    """report agree: a human-scores CSV starting with a lone \\r is read, not a _csv.Error."""
    from causalcheck.report.agree import read_scores

    path = tmp_path / "human.csv"
    path.write_bytes(b"\rid,pm,rm,final\ndemo_stem_01,1.0,0.74,0.87\n")
    assert read_scores(path).scores["demo_stem_01"]["pm"] == 1.0


def test_a_gml_string_spread_over_an_empty_line_is_read() -> None:
    """read_graph[gml]: an empty line inside a multi-line label is whitespace, not networkx's IndexError."""
    text = 'graph [\r\r\n  directed 1\r\r\n  node [\r\r\n    id 0\r\r\n    label "graph [\r\r\n  directed 1\r\r\n  node [\r\r\n    id 0\r\r\n    label "a"\r\r\n  ]\r\r\n]\r\r\n'
    with pytest.raises(CausalCheckError, match="<string>: not a GML graph"):
        read_graph(text, format="gml")
    assert read_graph('graph [\n directed 1\n node [\n id 0\n label "a\n\nb"\n ]\n]\n', format="gml").nodes == ("a  b",)


@pytest.mark.parametrize("damaged", ["bk.txt", "data.csv"])
def test_check_with_data_names_the_input_that_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str], damaged: str) -> None:
    """check GRAPH --data (validator): a background or data file that is not UTF-8 is named (the message named no file)."""
    from causalcheck.cli import main

    (tmp_path / "graph.txt").write_text("a -> b\nb -> c\n", encoding="utf-8")
    (tmp_path / "bk.txt").write_text("require a -> b\n", encoding="utf-8")
    (tmp_path / "data.csv").write_text("a,b,c\n" + "".join(f"{i},{2 * i % 7},{i % 3}\n" for i in range(20)), encoding="utf-8")
    (tmp_path / damaged).write_bytes(b"\x81" + (tmp_path / damaged).read_bytes())
    argv = ["check", str(tmp_path / "graph.txt"), "--data", str(tmp_path / "data.csv"), "--permutations", "0", "--background", str(tmp_path / "bk.txt")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert damaged in err and "byte 0x81 at offset 0" in err


@pytest.mark.parametrize(
    "text",
    [
        'graph [\n  directed 1\n  node [\n    id 0\n    id 0\n    label "a"\n  ]\n]\n',
        'graph [ directed 1 node [ id 0 label "a" label "b" ] ]',
        "graph [ directed 1 node [ id 0 label [ x 1 ] ] ]",
    ],
    ids=["repeated-id", "repeated-label", "block-label"],
)
def test_a_gml_node_name_that_is_not_one_value_is_refused(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> None:
    """compare / read_graph[gml]: a repeated or block id/label is an input error naming the file, not TypeError unhashable (exit 70)."""
    from causalcheck.cli import main

    (tmp_path / "truth.txt").write_text("nodes: a\n", encoding="utf-8")
    (tmp_path / "estimate.gml").write_text(text, encoding="utf-8")
    assert main(["compare", str(tmp_path / "truth.txt"), str(tmp_path / "estimate.gml")]) == 2
    err = capsys.readouterr().err
    assert "estimate.gml" in err and "must each be one number or string" in err


@pytest.mark.parametrize(
    "text,needle",
    [
        ('{"nodes": [["a"]], "edges": []}', "node=['a'] must be a string"),
        ('{"nodes": ["a", "b"], "edges": [[["a"], "->", "b"]]}', "edge=[['a'], '->', 'b'] must be three strings"),
        ('{"nodes": [1], "edges": []}', "node=1 must be a string"),
    ],
    ids=["list-node", "list-endpoint", "number-node"],
)
def test_a_json_graph_name_that_is_not_a_string_is_refused(text: str, needle: str) -> None:
    """compare / read_graph[json]: a node name must be a string; a list was silently read as the name "['a']"."""
    with pytest.raises(CausalCheckError, match=re.escape(needle)):
        read_graph(text, format="json")


def test_check_with_data_names_the_intervention_option_it_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """check GRAPH --data (validator): an --interventions target that is not a node is refused naming the option (it named neither option nor file)."""
    from causalcheck.cli import main

    (tmp_path / "graph.txt").write_text("a", encoding="utf-8")
    (tmp_path / "data.csv").write_text("a,b\n" + "".join(f"{i},{i % 3}\n" for i in range(20)), encoding="utf-8")
    argv = ["check", str(tmp_path / "graph.txt"), "--data", str(tmp_path / "data.csv"), "--permutations", "0", "--interventions", "a,b", "--ignore-extra-columns"]
    assert main(argv) == 2
    assert "interventions=['b'] name no node of the graph ['a']" in capsys.readouterr().err

@pytest.mark.parametrize("target", [["density"], {"p": 1}, 3, None], ids=["list", "object", "int", "null"])
def test_a_suite_bootstrap_intervention_target_that_is_not_a_name_is_refused(target: object) -> None:
    """load_suite[official]: a bootstrap intervention whose target_prop is a list is an input error naming it (TypeError: unhashable type before)."""
    import json

    from causalcheck.lab.suites import find_suite, parse_suite_record

    record = json.loads(find_suite("mini")[1].splitlines()[0])
    props = {n: 1.0 for n in record["nodes"] if n != "resonanceFreq"}
    record["bootstrap_past_data"] = [{"id": "0/b", "props": props, "freq": 2.0, "intervention": {"target_prop": target, "target_value": 1.0}}]
    with pytest.raises(CausalCheckError, match=r"bootstrap_past_data\[0\]\.intervention=.* must name a known target_prop"):
        parse_suite_record(record, where="s.jsonl:1")


@pytest.mark.parametrize("case_id", [[], {"a": 1}, None], ids=["list", "object", "null"])
def test_a_snapshot_case_id_that_is_not_a_string_is_refused_on_reading(tmp_path: Path, capsys: pytest.CaptureFixture[str], case_id: object) -> None:
    """snapshot check: a stored case id that is a list is exit 2 naming the file and the case (TypeError: unhashable type, exit 70 before)."""
    path, err = _check_damaged_snapshot(tmp_path, capsys, lambda data: data["cases"][0].update(id=case_id))
    assert f"{path}: cases[0]: id={case_id!r} must be a non-empty name" in err


def test_a_check_finding_code_that_is_not_a_string_does_not_crash_the_report(tmp_path: Path) -> None:
    """report: a check.json finding whose code is a list is shown as it is (TypeError: unhashable type, exit 70 before)."""
    import json

    from causalcheck.cli import main

    finding = {"code": [], "severity": "warning", "message": "m", "elements": ["a"], "data": {}}
    payload = {"source": "s", "kind": "trajectory", "ok": False, "summary": {"reports": 1, "with_problems": 1},
               "reports": [{"subject": "step 1", "ok": False, "meta": {"step": 1, "hypothesis": "a -> resonanceFreq"}, "diagnostics": [finding]}]}  # fmt: skip
    (tmp_path / "check.json").write_text(json.dumps(payload), encoding="utf-8")
    assert main(["report", str(tmp_path / "check.json"), "--out", str(tmp_path / "r.html"), "--bootstrap", "0"]) == 0
    assert "step 1" in (tmp_path / "r.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("field,value", [("target_freq", 1e308), ("props", 1e300)], ids=["target", "props"])
def test_a_reactor_value_beyond_range_is_refused_by_lab_score(tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: float) -> None:
    """lab score: a reactor target_freq of 1e308 (or props of 1e300) leaves its episode not scored, naming the file and field (numpy overflow in the bootstrap, exit 70 before)."""
    import json

    from causalcheck.cli import main
    from causalcheck.lab.runner import run_suite

    run_suite("mini", "planner", tmp_path / "run", seeds=(1,), limit=2, progress=False)
    path = sorted((tmp_path / "run").rglob("*.jsonl"))[0]
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    if field == "props":
        header["reactor"]["props"] = {k: value for k in header["reactor"]["props"]}
    else:
        header["reactor"]["target_freq"] = value
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["lab", "score", str(tmp_path / "run"), "--bootstrap", "10"]) == 1  # one of two episodes not scored
    out = capsys.readouterr()
    assert path.name in out.err and f"reactor.{field}" in out.err and "must be a finite number within" in out.err


@pytest.mark.parametrize("params", [[[]], 3, "x"], ids=["list", "int", "string"])
def test_a_run_folder_graph_config_with_damaged_params_names_the_file(sample_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], params: object) -> None:
    """lab score[run folder]: graph_config.json whose params is not an object is named with the field (the message named only the seed folder before)."""
    import json
    import shutil

    from causalcheck.cli import main

    run = tmp_path / "seed_1"
    shutil.copytree(sample_run, run)
    cfg = run / "graph_config.json"
    data = json.loads(cfg.read_text(encoding="utf-8"))
    data["params"] = params
    cfg.write_text(json.dumps(data), encoding="utf-8")
    capsys.readouterr()
    assert main(["lab", "score", str(run), "--bootstrap", "0"]) == 2
    out = capsys.readouterr()
    assert f"{cfg}: graph config params=" in out.out + out.err


def test_a_suite_bootstrap_record_missing_a_property_is_refused() -> None:
    """lab run[official suites]: a bootstrap record without one property's value is an input error naming it (the planner raised KeyError, exit 70, before)."""
    import json

    from causalcheck.lab.suites import find_suite, parse_suite_record

    record = json.loads(find_suite("mini")[1].splitlines()[0])
    nodes = [n for n in record["nodes"] if n != "resonanceFreq"]
    record["bootstrap_past_data"] = [{"id": "0/b", "props": {n: 1.0 for n in nodes[1:]}, "freq": 2.0}]
    with pytest.raises(CausalCheckError, match=re.escape(f"bootstrap_past_data[0]: props={sorted(nodes[1:])!r} must give every property; missing {[nodes[0]]!r}")):
        parse_suite_record(record, where="s.jsonl:1")


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
def test_a_result_number_beyond_float_range_is_refused(own_result: Path, damage: Callable[[dict[str, Any]], object], field: str) -> None:
    """replay_payload/[official]: an integer such as 10**400 in a score field is an input error naming the field, not an OverflowError."""
    from causalcheck.explain.replay import replay_payload

    payload = json.loads(own_result.read_text(encoding="utf-8"))
    damage(payload["items"][0])
    report = replay_payload(payload)
    (skipped,) = report.unreplayed
    assert field in skipped["error"] and "1000000" in skipped["error"] and "float range" in skipped["error"]


def test_a_malformed_human_scores_csv_is_named_with_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], own_result: Path) -> None:
    """read_scores[human csv] / explain agree: a CSV the csv module refuses (a field over its size limit) is an input error naming the file and line, not a csv.Error (exit 70)."""
    from causalcheck.cli import main
    from causalcheck.report.agree import read_scores

    path = tmp_path / "human.csv"
    path.write_bytes(("id,pm\na,1\n" + "b" * 200_000 + ",0.5\n").encode())
    with pytest.raises(CausalCheckError, match=re.escape(f"{path}:3: the CSV does not parse")):
        read_scores(path)
    assert main(["explain", "agree", str(own_result), str(path), "--bootstrap", "0"]) == 2
    assert f"{path}:3: the CSV does not parse" in capsys.readouterr().err


def test_a_long_answer_model_name_still_gives_a_valid_result_file_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """explain score: an answer model named '9' * 400 is scored into a file whose name is capped (prefix + hash), not an OSError."""
    from causalcheck.cli import main
    from causalcheck.explain.results import MAX_NAME_CHARS, sanitize_name

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


def test_an_empty_dagitty_group_names_no_node() -> None:
    """read_graph[auto] (10 000-example fuzz run in CI): an empty group '{}' in a dagitty edge raised IndexError; it names no node."""
    from causalcheck.graphs import read_graph

    g = read_graph('pdag {\x0ba\n"Crystal Color"\n"Crystal Color"{} -- a\n}\n')
    assert not g.edges
    assert not read_graph("dag { {} -> a }").edges


def test_a_suite_crystal_preset_that_is_not_a_number_is_refused() -> None:
    """lab run[official suites] (10 000-example fuzz run in CI): a null observation preset crashed the episode (float(None), exit 70); load refuses it naming the preset."""
    import json

    from causalcheck.lab.suites import find_suite, parse_suite_record

    record = json.loads(find_suite("mini")[1].splitlines()[0])
    node = next(n for n in record["nodes"] if n != "resonanceFreq")
    record["quadratic_metadata"] = {"observation_presets": [{node: None}]}
    with pytest.raises(CausalCheckError, match=re.escape(f"quadratic_metadata.observation_presets[0][{node!r}]=None must be a number")):
        parse_suite_record(record, where="s.jsonl:1")
    record["quadratic_metadata"] = {"reactor": {node: "12"}}
    with pytest.raises(CausalCheckError, match=re.escape("quadratic_metadata.reactor")):
        parse_suite_record(record, where="s.jsonl:1")


def test_a_suite_parameter_beyond_the_magnitude_bound_is_refused() -> None:
    """lab run[official suites] (10 000-example fuzz run): a coefficient of 1e308 overflowed the planner (LinAlgError / OverflowError, exit 70); load refuses it with the named bound."""
    import json

    from causalcheck.lab.suites import find_suite, parse_suite_record

    record = json.loads(find_suite("mini")[1].splitlines()[0])
    key = next(iter(record["params"]))
    record["params"][key] = 1e308
    with pytest.raises(CausalCheckError, match=re.escape(f"params[{key!r}]=1e+308 is beyond MAX_PARAM_MAGNITUDE")):
        parse_suite_record(record, where="s.jsonl:1")



def test_mixed_data_from_a_damaged_csv_names_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """check GRAPH --data (validator) (CI fuzz sample, seed 18c8121c6e02): one damaged number turned a column into
    40 categories; the mixed-data refusal (exit 2) named neither the file nor the cell."""
    from causalcheck.cli import main

    rows = ["a,b,c", "\x01.1257,-1.0076,-0.8191", *(f"{k / 7:.4f},{(k * 3 % 11) / 5:.4f},{(k * 5 % 13) / 3:.4f}" for k in range(39))]
    (tmp_path / "data.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "graph.txt").write_text("a -> b\nb -> c\n")
    assert main(["check", str(tmp_path / "graph.txt"), "--data", str(tmp_path / "data.csv"), "--permutations", "0"]) == 2
    err = capsys.readouterr().err
    assert f"{tmp_path / 'data.csv'}: mixed data" in err
    assert f"{tmp_path / 'data.csv'}:2 holds '\\x01.1257'" in err


def test_a_damaged_zstd_member_of_an_inspect_log_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """explain score[inspect log] / lab score[inspect log] (10 000-example fuzz run): inspect writes .eval members
    zstd-compressed; a damaged frame raised zstandard's ZstdError out of the size check (exit 70)."""
    import io
    import zipfile

    zstd = pytest.importorskip("zipfile_zstd", reason="zipfile-zstd (an inspect_ai dependency) is not installed: pip install 'causalcheck[inspect]'")
    assert zstd
    from causalcheck.cli import main

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=93) as z:  # 93: Zstandard, as inspect_ai writes
        z.writestr("header.json", '{"version": 2, "status": "success", "eval": {}}' * 50)
    data = bytearray(buf.getvalue())
    data[data.find(b"\x28\xb5\x2f\xfd") + 6] ^= 0xFF  # inside the zstd frame
    log = tmp_path / "whatif.eval"
    log.write_bytes(bytes(data))
    assert main(["lab", "score", str(log), "--bootstrap", "0"]) in (1, 2)
    assert main(["explain", "score", "--benchmark", "demo", "--answers", str(log), "--out", str(tmp_path / "o"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "ZstdError" in err and "whatif.eval" in err and "internal error" not in err


def test_the_time_bound_tells_a_hang_from_a_loaded_machine() -> None:
    """report[result folder, md] at scale: a run slowed past CALL_LIMIT by a loaded machine failed as a hang. The
    bound is CPU time (a busy hang) and WALL_FACTOR times that on the clock (a blocked one); waiting is no hang."""
    import time

    import _fuzz

    with pytest.raises(_fuzz.CallTimeout, match="of CPU time"), _fuzz.time_limit("busy", 0.2):
        while True:
            pass
    with pytest.raises(_fuzz.CallTimeout, match="on the clock"), _fuzz.time_limit("blocked", 0.05):
        time.sleep(5)
    with _fuzz.time_limit("waiting", 0.05):  # 0.1 s on the clock, no CPU: what a starved call looks like
        time.sleep(0.1)
