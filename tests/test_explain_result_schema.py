"""The explain result item (causalcheck.explain.result_schema): one definition, written and read.

Round trips on the bundled results, our LLM pipeline's file and the original tool's recorded
file (skips without the anchors); the report reading recorded values (not recomputing them);
damaged fields named; the readers (resume rows, report, agree) using it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from causalcheck.base import safejson
from causalcheck.base.errors import InputFormatError
from causalcheck.cli import main
from causalcheck.explain.explanation_graph import ExplanationGraph, graph_stats
from causalcheck.explain.result_schema import (
    decode_file,
    decode_item,
    decode_row,
    encode_item,
    encode_row,
)
from causalcheck.explain.results import read_rows
from causalcheck.report.agree import read_scores
from causalcheck.report.explain_views import explain_runs


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo set scored offline: three result files with their JSONL rows (one item fails)."""
    out = tmp_path_factory.mktemp("explain")
    assert main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(out), "--quiet"]) == 0
    return out


def _load(path: Path) -> Any:
    return safejson.loads(path.read_text(encoding="utf-8"), source=str(path))


def _round_trip(payload: Any) -> None:
    decoded = decode_file(payload)
    assert decoded.skipped == ()
    written = [*payload["items"], *payload["failures"]]
    assert [encode_item(it) for it in decoded.items] == written
    # key order too: the bytes the writer would give are the bytes read
    assert [json.dumps(encode_item(it), ensure_ascii=False) for it in decoded.items] == [json.dumps(o, ensure_ascii=False) for o in written]
    again = [decode_item(encode_item(it), ok=it.ok) for it in decoded.items]
    assert again == list(decoded.items)


def test_round_trip_on_the_bundled_results(results: Path) -> None:
    """encode(decode(item)) is the item for every item of the three result files and every JSONL row."""
    files = sorted(results.glob("*_metrics_offline.json"))
    assert len(files) == 3
    for f in files:
        payload = _load(f)
        _round_trip(payload)
        for item in decode_file(payload).items:
            assert not item.derived and item.causalcheck is not None
        lines = f.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()
        assert lines
        for line in lines:
            row = json.loads(line)
            assert encode_row(decode_row(row)) == row


def _without_causalcheck(path: Path) -> Any:
    """The result file at *path* as a tool without causalcheck's additions writes it: no ``causalcheck`` objects."""
    payload = _load(path)
    payload["meta"].pop("causalcheck", None)
    for obj in [*payload["items"], *payload["failures"]]:
        obj.pop("causalcheck", None)
    return payload


@pytest.mark.parametrize("source", ["own_llm_result", "whatif_result"])
def test_round_trip_on_the_official_file(source: str, request: pytest.FixtureRequest) -> None:
    """A file without causalcheck objects round-trips too — the original tool's recorded file, byte for byte, and
    our LLM pipeline's with them removed; its values are derived once, by the decoder."""
    payload = _without_causalcheck(request.getfixturevalue(source))
    _round_trip(payload)
    judged = decode_file(payload).items[: len(payload["items"])]
    assert judged
    for item, obj in zip(judged, payload["items"], strict=True):
        assert item.derived and item.causalcheck is None and "causalcheck" not in encode_item(item)
        assert item.stats == graph_stats(ExplanationGraph.from_json(obj["parsed_dag"]))


def _planted(results: Path, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """demo-strong's file with item 0's recorded failure modes and graph statistics replaced."""
    payload = _load(results / "demo-strong_metrics_offline.json")
    item = payload["items"][0]
    assert item["causalcheck"]["failure_modes"] == [] and item["total_score"] >= 0.6
    item["causalcheck"]["failure_modes"] = ["rubric misalignment"]
    item["causalcheck"]["stats"] = {**item["causalcheck"]["stats"], "nodes": 777, "longest_path": 55}
    path = tmp_path / "planted_metrics_offline.json"
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    return path, item


def test_the_report_reads_the_recorded_values(results: Path, tmp_path: Path) -> None:
    """Planted failure modes and statistics (which the scoring rules would never give) are what the report shows."""
    path, item = _planted(results, tmp_path)
    (run,) = explain_runs([(str(path), _load(path))])
    first = next(i for i in run.items if i.key == item["canonical_id"])
    assert first.failure_modes == ("rubric misalignment",) and first.stats is not None
    assert first.stats.nodes == 777 and first.stats.longest_path == 55
    assert not first.derived
    out = tmp_path / "r.md"
    assert main(["report", str(path), "--format", "md", "--out", str(out), "--bootstrap", "0"]) == 0
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "| rubric misalignment | 1 (8%) |" in md  # 1 of 12 answers: the planted one


@pytest.mark.parametrize(
    ("field", "value", "needle"),
    [
        ("pm_score", "x", "pm_score='x' must be a number"),
        ("parsed_dag", [1], "parsed_dag=[1] must be an object"),
        ("metrics", {"degraded": "yes"}, "metrics.degraded='yes' must be true or false"),
        ("causalcheck", {"stats": {"nodes": "a"}}, "causalcheck.stats.nodes='a' must be an integer"),
        ("causalcheck", {"failure_modes": [3]}, "causalcheck.failure_modes[0]=3 must be a string"),
        ("causalcheck", {"edu_offsets": [["E", 1]]}, "causalcheck.edu_offsets[0]=['E', 1] must be [EDU id, start, end]"),
    ],
)
def test_a_damaged_field_is_named(results: Path, field: str, value: Any, needle: str) -> None:
    """The decoder's error names the field and shows the value."""
    obj = dict(_load(results / "demo-weak_metrics_offline.json")["items"][0])
    obj[field] = value
    with pytest.raises(InputFormatError) as exc:
        decode_item(obj)
    assert needle in str(exc.value)


def test_the_report_lists_what_it_skipped(results: Path, tmp_path: Path) -> None:
    """A damaged item does not stop the report: it is left out and named with the reason; the rest is shown."""
    payload = _load(results / "demo-weak_metrics_offline.json")
    payload["items"][1]["pm_score"] = "x"
    payload["items"].append(7)
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    (run,) = explain_runs([(str(path), _load(path))])
    assert len(run.items) == 11 and [w for w, _ in run.skipped] == ["items[1]", "items[12]"]
    out = tmp_path / "r.html"
    assert main(["report", str(path), "--out", str(out), "--bootstrap", "0"]) == 0
    html = out.read_text(encoding="utf-8")
    assert "Skipped 2 entries that could not be read as result items" in html
    assert f"{path} items[1]: pm_score=&#x27;x&#x27; must be a number" in html
    assert f"{path} items[12]: result item=7 must be a JSON object" in html


def test_agree_lists_what_it_skipped(results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """explain agree reads through the schema as well: a damaged item is 'not read', with the reason."""
    payload = _load(results / "demo-weak_metrics_offline.json")
    payload["items"][0]["rm_score"] = True
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
    side = read_scores(path)
    assert len(side.scores) == 11 and side.skipped == ("items[0]: rm_score=True must be a number",)
    assert main(["explain", "agree", str(path), str(results / "demo-weak_metrics_offline.json"), "--bootstrap", "0"]) == 0
    assert "not read in A: items[0]: rm_score=True must be a number" in capsys.readouterr().out


def test_a_resume_row_with_a_damaged_official_object_names_it(results: Path, tmp_path: Path) -> None:
    """The JSONL reader decodes each row's official object with the same schema; the error names line and field."""
    lines = (results / "demo-weak_metrics_offline.jsonl").read_text(encoding="utf-8").splitlines()
    row = json.loads(lines[0])
    row["official"]["causalcheck"]["degraded_reasons"] = "no"
    path = tmp_path / "rows.jsonl"
    path.write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"rows\.jsonl:1: row official: causalcheck\.degraded_reasons='no' must be a list"):
        read_rows(path)


# ----------------------------------------------------------------- one scored-item type
#: The types and helpers that a scored item had before it was one type (issue 41, item 2): none may come back.
SUPERSEDED = {
    "causalcheck.explain.scoring": ("ItemResult", "assemble_result", "Scored"),
    "causalcheck.explain.results": ("ResultRow", "row_of", "result_item", "item_to_official"),
    "causalcheck.explain.data": ("ItemScores",),
    "causalcheck.report.explain_views": ("ExplainItem",),
}


def test_one_scored_item_type() -> None:
    """A scored item is one type, ResultItem: the four other homes (and their converters) are gone, and no module
    of the package defines or names them."""
    import ast
    import importlib

    import causalcheck

    for module, names in SUPERSEDED.items():
        loaded = importlib.import_module(module)
        assert [n for n in names if hasattr(loaded, n)] == [], module
    gone = {n for names in SUPERSEDED.values() for n in names} - {"Scored"}  # "Scored" is a common word in prose
    found = []
    for path in sorted(Path(causalcheck.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = getattr(node, "name", None) or getattr(node, "id", None) or getattr(node, "attr", None)
            if name in gone or (isinstance(node, ast.alias) and node.name.rsplit(".", 1)[-1] in gone):
                found.append(f"{path.name}:{getattr(node, 'lineno', '?')} {name or node.name}")
    assert found == []
    import causalcheck.explain as explain

    assert explain.ResultItem is importlib.import_module("causalcheck.explain.result_schema").ResultItem
    assert not hasattr(explain, "ItemResult")


def test_score_item_returns_the_item_the_file_holds(results: Path) -> None:
    """score_item's value is the result file's item, byte for byte once encoded; what it judged stays in memory
    (not encoded, empty once decoded), and the resume line is the same value again."""
    from causalcheck.explain.data import load_answer_sets, load_benchmark
    from causalcheck.explain.offline import OfflineCriterionJudge, OfflineEdgeJudge
    from causalcheck.explain.relations import OfflineParser
    from causalcheck.explain.result_schema import ResultItem
    from causalcheck.explain.scoring import score_item

    item = load_benchmark("demo").items[0]
    [strong] = [s for s in load_answer_sets("demo") if s.model == "demo-strong"]
    answer = strong.get(item)
    assert answer is not None and answer.text
    scored = score_item(item, answer.text, OfflineParser(), OfflineEdgeJudge(), OfflineCriterionJudge(), judge_edges="all")
    assert isinstance(scored, ResultItem) and scored.ok and scored.item is item
    written = _load(results / "demo-strong_metrics_offline.json")["items"][0]
    assert json.dumps(encode_item(scored), ensure_ascii=False) == json.dumps(written, ensure_ascii=False)
    assert scored.graph is not None and scored.record is not None and len(scored.edge_judgments) == len(scored.graph.edges)
    assert [c.score for c in scored.criterion_judgments] == written["metrics"]["rm"]["criterion_scores"]
    assert [f.to_dict() for f in scored.findings] == written["causalcheck"]["findings"]
    assert (scored.pm, scored.rm, scored.final) == (written["pm_score"], written["rm_score"], written["total_score"])
    back = decode_item(encode_item(scored))
    assert back == scored and back.graph is None and back.item is None and back.edge_judgments == ()
    line = json.loads((results / "demo-strong_metrics_offline.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert line["key"] == scored.key and decode_row(line) == scored and line["official"] == encode_item(scored)


def test_a_resume_line_that_disagrees_with_its_item_is_refused(results: Path) -> None:
    """A line's scores and flags are written from its item: a line whose pm (or key) says otherwise is refused, named."""
    line = json.loads((results / "demo-weak_metrics_offline.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert decode_row(line).pm == line["pm"]
    with pytest.raises(InputFormatError, match=r"row pm=0\.123 does not match its official item"):
        decode_row({**line, "pm": 0.123})
    with pytest.raises(InputFormatError, match=r"row key='elsewhere' does not match its official item"):
        decode_row({**line, "key": "elsewhere"})


def test_resume_lines_of_an_earlier_version_still_resume(results: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines written before answer_sha256 (the hash then comes from the folder's map) are read by decode_row and
    resume the run: nothing scored again, the same result file."""
    import shutil

    from causalcheck.explain import scoring

    out = tmp_path / "out"
    shutil.copytree(results, out)
    every = [json.loads(x) for f in sorted(out.glob("*.jsonl")) for x in f.read_text(encoding="utf-8").splitlines()]
    again = [x["key"] for x in every if x["status"] != "ok" or x["degraded"]]
    stem = out / "demo-weak_metrics_offline"
    before = stem.with_suffix(".json").read_text(encoding="utf-8")
    lines = [json.loads(x) for x in stem.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()]
    old = [{k: v for k, v in line.items() if k != "answer_sha256"} for line in lines]
    stem.with_suffix(".jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in old), encoding="utf-8")
    assert [r.answer_sha256 for r in read_rows(stem.with_suffix(".jsonl"))] == [""] * len(old)
    scored: list[str] = []
    real = scoring.score_item

    def counting(item: Any, *args: Any, **kwargs: Any) -> Any:
        scored.append(item.key)
        return real(item, *args, **kwargs)

    monkeypatch.setattr(scoring, "score_item", counting)
    assert main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(out), "--quiet"]) == 0
    assert sorted(scored) == sorted(again)  # only failed or degraded items are scored again, as for lines of this version
    after = json.loads(stem.with_suffix(".json").read_text(encoding="utf-8"))
    assert after["items"] == json.loads(before)["items"] and after["failures"] == json.loads(before)["failures"]
