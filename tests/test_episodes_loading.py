"""Loading records through the episode layer: official run folders, JSONL, lab trajectories, concatenated JSON."""

from __future__ import annotations

import json

import pytest
from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.base.jsontext import iter_json_values
from causalcheck.episodes import Unparsed, load_records, records_from_text

REC = {"past_data": [], "hypothesis": {"edges": [], "freq_equation": "", "coefficients": {}}, "action": "TALK", "arg1": 5}


def test_iter_json_values_concatenated_pretty_json():
    """Pretty-printed objects written back to back decode one by one."""
    text = json.dumps({"a": 1}, indent=2) + json.dumps([2, 3]) + "\n\n" + json.dumps("x", indent=4) + "  "
    assert list(iter_json_values(text)) == [{"a": 1}, [2, 3], "x"]


def test_iter_json_values_error_position():
    """A broken object in the middle raises at its line and column."""
    text = '{"a": 1}\n{"b": 2,\n "c" 3}\n'
    with pytest.raises(DSLSyntaxError) as info:
        list(iter_json_values(text, source="t.jsonl"))
    assert (info.value.line, info.value.column) == (3, 6)
    assert '":"' in info.value.expected


def test_official_run_folder(sample_run):
    """The sample run folder yields 14 steps from raw_io.jsonl, numbered by its step field."""
    recs = load_records(sample_run)
    assert [r.step for r in recs] == list(range(1, 15))
    assert recs[0].hypothesis is not None and recs[0].hypothesis.is_empty
    final = recs[-1].hypothesis
    assert final is not None
    assert final.graph.pairs == {("moisture", "resonanceFreq"), ("quantumSize", "resonanceFreq"), ("density", "quantumSize")}
    assert final.coefficients["c_moisture"] == pytest.approx(1.2340425531914894)
    assert recs[-1].action.name == "SUBMIT"
    assert len(recs[7].past_data or ()) == 5


def test_tracking_simple_matches_raw_io(sample_run):
    """The tracking file's decoded records carry the same hypotheses as raw_io.jsonl."""
    tracking = next(sample_run.glob("*_tracking_simple.jsonl"))
    a = load_records(sample_run / "raw_io.jsonl")
    b = load_records(tracking)
    assert len(b) == 13  # the last tracking object has action null
    assert [r.hypothesis for r in a[:13]] == [r.hypothesis for r in b]


def test_jsonl_and_array_of_records(tmp_path):
    """One record per line and a JSON array of records both load, numbered from 1."""
    lines = tmp_path / "r.jsonl"
    lines.write_text("\n".join(json.dumps(REC) for _ in range(3)))
    arr = tmp_path / "r.json"
    arr.write_text(json.dumps([REC, REC]))
    assert [r.step for r in load_records(lines)] == [1, 2, 3]
    assert len(load_records(arr)) == 2


def test_lab_trajectory_format(tmp_path):
    """Lab trajectories: header/summary lines are skipped, records under 'record' (dict or text) are read."""
    path = tmp_path / "t.jsonl"
    rows = [
        {"type": "header", "format": "causalcheck-trajectory/1"},
        {"type": "step", "step": 0, "record": REC, "action": {"kind": "talk"}},
        {"type": "step", "step": 1, "record": "```json\n" + json.dumps(REC) + "\n```"},
        {"type": "summary", "success": False},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows))
    recs = load_records(path)
    assert [r.step for r in recs] == [1, 2]  # every output counts steps from 1 (the file's step fields from 0)
    assert recs[0].action.name == "TALK" and recs[1].warnings


def test_unparseable_step_does_not_abort(tmp_path):
    """A step whose raw output is not a record becomes a parse-error record; strict mode raises."""
    path = tmp_path / "raw_io.jsonl"
    rows = [{"step": 1, "raw_output": json.dumps(REC)}, {"step": 2, "raw_output": "I am not sure what to do."}]
    path.write_text("".join(json.dumps(r, indent=2) for r in rows))
    recs = load_records(tmp_path)
    assert isinstance(recs[1], Unparsed) and "no JSON object found" in recs[1].reason and recs[1].step == 2
    with pytest.raises(DSLSyntaxError):
        load_records(path, strict=True)


def test_single_wrapped_record_file(tmp_path):
    """A file holding one record with prose around it loads as one step."""
    path = tmp_path / "out.txt"
    path.write_text("My answer:\n```json\n" + json.dumps(REC) + "\n```\n")
    (rec,) = load_records(path)
    assert rec.action.name == "TALK"


@pytest.mark.parametrize(
    "content,fragment",
    [
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "binary"),
        (b"\xff\xfe\xfa bad", "not UTF-8"),
        (b'{"step": 1, "raw_input": "x"}', "no step records"),
        (b"[1, 2, 3]", "no step records"),
    ],
)
def test_bad_files(tmp_path, content, fragment):
    """Empty, binary, non-UTF-8 and record-less files raise InputFormatError saying why."""
    path = tmp_path / "f.jsonl"
    path.write_bytes(content)
    with pytest.raises(InputFormatError, match=fragment):
        load_records(path)


def test_missing_path_and_empty_folder(tmp_path):
    """A missing path and a folder without records are reported by name."""
    with pytest.raises(InputFormatError, match="does not exist"):
        load_records(tmp_path / "nope.jsonl")
    with pytest.raises(InputFormatError, match="holds no records"):
        load_records(tmp_path)


def test_records_from_text_truncated():
    """Truncated JSON raises a DSLSyntaxError that says the text ends too early."""
    with pytest.raises(DSLSyntaxError, match="ends too early"):
        records_from_text('{"past_data": [{"id": "0/12", "props": {"density": 1')


def test_lab_run_folder(tmp_path):
    """A lab run folder with one episode uses it; with several, the error says which to pick."""
    (tmp_path / "run.json").write_text(json.dumps({"suite": "mini"}))
    episodes = tmp_path / "episodes"
    episodes.mkdir()
    line = json.dumps({"type": "step", "step": 0, "record": REC})
    (episodes / "000_a.jsonl").write_text(line + "\n")
    assert [r.step for r in load_records(tmp_path)] == [1]
    (episodes / "001_b.jsonl").write_text(line + "\n")
    with pytest.raises(InputFormatError, match="2 episode trajectories"):
        load_records(tmp_path)
