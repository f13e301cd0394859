"""``causalcheck check`` from the command line: output, exit codes, and a dozen kinds of broken input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from causalcheck.checking.cli import run

GOOD_RECORD = {
    "past_data": [{"id": "0/2", "props": {"A": 1, "B": 2}, "freq": 5.0}],
    "hypothesis": {
        "edges": [{"from": "A", "to": "resonanceFreq"}],
        "freq_equation": "resonanceFreq = base + c_A*A",
        "coefficients": {"base": 3, "c_A": 2},
    },
    "experiment": {},
    "action": "TALK",
    "arg1": 1,
}


def _run(capsys, *argv):
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_clean_record_exits_zero(tmp_path, capsys):
    """A consistent record prints its hypothesis and exits 0."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps(GOOD_RECORD))
    code, out, err = _run(capsys, path)
    assert code == 0 and err == ""
    assert "A -> resonanceFreq" in out and "no problems found" in out


def test_cyclic_text_hypothesis_exits_one(capsys):
    """The bundled cyclic example reports exactly the cycle's edges and the non-parent."""
    code, out, _ = _run(capsys, "example:cyclic")
    assert code == 1
    assert "density -> quantumSize -> moisture -> density" in out
    assert "non-parent-in-equation: the equation uses quantumSize" in out


def test_json_output(capsys):
    """--json prints one JSON document with per-step reports and the conflict step."""
    code, out, _ = _run(capsys, "example:trajectory", "--json")
    doc = json.loads(out)
    assert code == 1 and doc["kind"] == "trajectory" and doc["ok"] is False
    assert doc["summary"]["first_data_conflict_step"] == 3
    assert [r["meta"]["step"] for r in doc["reports"]] == [1, 2, 3, 4, 5]
    cycle = next(d for d in doc["reports"][3]["findings"] if d["code"] == "cycle")
    assert cycle["elements"] == ["density -> quantumSize", "quantumSize -> density"]


def test_sample_run_cli(sample_run, capsys):
    """The official run: 14 steps, hypotheses shown, data stop agreeing at step 5."""
    code, out, _ = _run(capsys, sample_run)
    assert code == 1
    assert out.count("\nstep ") == 14
    assert "resonanceFreq = base + c_moisture*moisture + c_quantumSize*quantumSize" in out
    assert out.rstrip().endswith("the recorded data stop agreeing with the hypothesis at step 5")


def test_sample_raw_io_json(sample_run, capsys):
    """--json on raw_io.jsonl names step 5 as the first data conflict."""
    code, out, _ = _run(capsys, sample_run / "raw_io.jsonl", "--json")
    assert code == 1
    assert json.loads(out)["summary"]["first_data_conflict_step"] == 5


def test_reference_and_nodes_options(tmp_path, capsys):
    """--reference flags reversed edges; --nodes flags unknown names."""
    ref = tmp_path / "ref.txt"
    ref.write_text("resonanceFreq -> A\n")
    hyp = tmp_path / "h.txt"
    hyp.write_text("A -> resonanceFreq\nB -> A\n")
    code, out, _ = _run(capsys, hyp, "--reference", ref, "--nodes", "A")
    assert code == 1 and "contradicts-reference" in out and "unknown-node" in out


def test_list_examples(capsys):
    """--list-examples names every bundled example."""
    code, out, _ = _run(capsys, "--list-examples")
    assert code == 0
    assert {"example:trajectory", "example:cyclic", "example:hypothesis", "example:record"} <= set(out.split())


def test_drift_is_shown_for_single_records(tmp_path, capsys):
    """Repairs of a single record are listed; dropped content makes it a problem."""
    path = tmp_path / "r.json"
    path.write_text(json.dumps({**GOOD_RECORD, "hypothesis": {**GOOD_RECORD["hypothesis"], "edges": ["A"]}}))
    code, out, _ = _run(capsys, path)
    assert code == 1 and "record-drift" in out and "edges[0]='A'" in out


# ----------------------------------------------------------------------- broken inputs
def _write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


BROKEN = [
    ("empty.json", "", ["empty"]),
    ("blank.txt", "\n\n   \n", ["empty"]),
    ("image.json", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ["binary"]),
    ("latin1.json", b'{"memory": "caf\xe9"}', ["not UTF-8", "0xe9"]),
    ("truncated.json", '{\n  "memory": "m",\n  "hypothesis": {"edges": [', ["truncated.json:3:", "ends too early", "^"]),
    ("missing_colon.json", '{\n  "memory" "m"\n}', ["missing_colon.json:2:12:", 'expected one of: ":"', "^"]),
    ("unknown_keys.json", '{"graph": "A -> B", "answer": 3}', ["no step records", "answer"]),
    ("numbers.jsonl", "1\n2\n3\n", ["no step records"]),
    ("bad_equation.txt", "A -> resonanceFreq\nresonanceFreq = base + * A\n", ["bad_equation.txt:2:24:", "a name", "^"]),
    ("prose.txt", "I think density causes the frequency.\n", ["prose.txt:1:", "cause -> effect"]),
    ("bad_arrow.txt", "A => B\n", ["bad_arrow.txt:1:", "cause -> effect"]),
    ("double_coeff.txt", "base = 1\nbase = 2\n", ["double_coeff.txt:2:1:", "assigned twice"]),
    ("deep.json", "[" * 100000 + "]" * 100000, ["nested deeper than MAX_DEPTH"]),
]


@pytest.mark.parametrize("name,content,fragments", BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_inputs_exit_two_with_a_helpful_message(tmp_path, capsys, name, content, fragments):
    """Each broken input exits 2 with a message naming the problem (and position where there is one)."""
    code, out, err = _run(capsys, _write(tmp_path, name, content))
    assert code == 2, (out, err)
    assert out == "" and "Traceback" not in err
    assert err.startswith("causalcheck: error: ")
    for fragment in fragments:
        assert fragment in err, err


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["no/such/run_folder"], "does not exist"),
        (["example:nope"], "available:"),
        (["example:cyclic", "--reference", "missing.txt"], "does not exist"),
        (["example:cyclic", "--tolerance", "-1"], "--tolerance"),
        ([], "PATH is required"),
    ],
)
def test_bad_arguments_exit_two(capsys, argv, fragment):
    """Missing paths, unknown examples, bad references and tolerances exit 2."""
    code, _, err = _run(capsys, *argv)
    assert code == 2 and fragment in err


def test_folder_without_records(tmp_path, capsys):
    """A folder with no record files exits 2 and lists what was looked for."""
    (tmp_path / "notes.md").write_text("nothing here")
    code, _, err = _run(capsys, tmp_path)
    assert code == 2 and "raw_io.jsonl" in err


def test_broken_step_inside_a_run_is_a_problem_not_a_crash(tmp_path, capsys):
    """One unparseable model output in raw_io.jsonl is reported for its step (exit 1)."""
    rows = [{"step": 1, "raw_output": json.dumps(GOOD_RECORD)}, {"step": 2, "raw_output": '{"memory": "cut off'}]
    (tmp_path / "raw_io.jsonl").write_text("".join(json.dumps(r, indent=2) for r in rows))
    code, out, _ = _run(capsys, tmp_path)
    assert code == 1 and "unparseable-record" in out and "step 2" in out


def test_bad_equation_inside_a_record_is_a_finding(tmp_path, capsys):
    """A record whose equation does not parse is readable: exit 1 with an equation-syntax finding."""
    rec = {**GOOD_RECORD, "hypothesis": {**GOOD_RECORD["hypothesis"], "freq_equation": "resonanceFreq = base +* A"}}
    code, out, _ = _run(capsys, _write(tmp_path, "r.json", json.dumps(rec)))
    assert code == 1 and "equation-syntax" in out


def test_console_script_never_prints_a_traceback(tmp_path):
    """Through the real entry point, a malformed record exits 2 with position and caret, no traceback."""
    path = _write(tmp_path, "bad.json", '{"memory": "m",\n "past_data": [1, 2,, 3]}')
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run(
        [sys.executable, "-m", "causalcheck", "check", str(path)], capture_output=True, text=True, env=env, timeout=120
    )
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert f"{path}:2:" in proc.stderr and "^" in proc.stderr


def test_strict_makes_an_unparseable_step_fatal(tmp_path, capsys):
    """--strict: a step whose model output cannot be parsed exits 2; without it, 1 with a finding."""
    good = {"memory": "m", "past_data": [], "hypothesis": {"edges": [], "freq_equation": "", "coefficients": {}},
            "experiment": {}, "action": "TALK", "arg1": 1}
    raw = tmp_path / "raw_io.jsonl"
    raw.write_text(
        json.dumps({"step": 1, "raw_input": "x", "raw_output": json.dumps(good)}, indent=2)
        + "\n"
        + json.dumps({"step": 2, "raw_input": "x", "raw_output": "I will now think about it."}, indent=2)
        + "\n"
    )
    code, out, _ = _run(capsys, str(raw))
    assert code == 1 and "unparseable-record" in out
    code, _, err = _run(capsys, "--strict", str(raw))
    assert code == 2 and err


def test_folder_checks_every_episode_and_lists_the_rest(tmp_path, capsys):
    """A folder of several trajectories: each is checked; an empty file fails and a note is skipped, with reasons (exit 1)."""
    from causalcheck.lab.runner import run_suite

    run_suite("mini", "planner", tmp_path / "run", seeds=(1,), limit=3, progress=False)
    (tmp_path / "run" / "episodes" / "zz_empty.jsonl").write_text("")
    (tmp_path / "run" / "notes.txt").write_text("my notes")
    code, out, _ = _run(capsys, tmp_path / "run")
    assert code == 1
    checked = [line for line in out.splitlines() if line.startswith("== ")]
    assert len(checked) == 3 and all(line.endswith("_s1.jsonl") for line in checked)
    assert "failed  " in out and "zz_empty.jsonl: the file is empty" in out
    assert "skipped " in out and "notes.txt: not a record file" in out
    assert "folder summary: 3 checked (0 with problems), 1 could not be read, 1 skipped" in out
    code, out, _ = _run(capsys, tmp_path / "run", "--json")
    doc = json.loads(out)
    assert doc["kind"] == "folder" and doc["summary"] == {"checked": 3, "with_problems": 0, "failed": 1, "skipped": 1}
    statuses = sorted(i["status"] for i in doc["inputs"])
    assert statuses == ["checked", "checked", "checked", "failed", "skipped"]
    assert all(len(i["sha256"]) == 64 for i in doc["inputs"] if i["status"] == "checked")


def test_steps_count_from_one_in_check(tmp_path, capsys):
    """check numbers a trajectory's steps from 1, as lab score does (the file's own step fields count from 0)."""
    from causalcheck.lab.runner import run_suite

    run_suite("mini", "planner", tmp_path / "run", seeds=(1,), limit=1, progress=False)
    path = next((tmp_path / "run" / "episodes").glob("*.jsonl"))
    _code, out, _ = _run(capsys, path, "--json")
    assert next(r["meta"]["step"] for r in json.loads(out)["reports"]) == 1


def test_long_one_line_record_text_is_not_a_file_name():
    """causalcheck.check(text) on a 5 000-character one-line record checks it (no OSError: File name too long)."""
    import causalcheck as cc

    record = dict(GOOD_RECORD, memory="x" * 5000)
    report = cc.check(json.dumps(record))
    assert report.ok
