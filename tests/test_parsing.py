"""Parsing step records and hypotheses: the real format, its drift, and helpful errors."""

from __future__ import annotations

import json

import pytest
from causalcheck.base.errors import CausalCheckError, DSLSyntaxError, InputFormatError
from causalcheck.graph import CausalGraph, Edge
from causalcheck.parsing import (
    decode_json,
    format_hypothesis,
    parse_hypothesis,
    parse_record,
    parse_record_obj,
)
from causalcheck.records import Hypothesis

# Step 5 of the official gpt-5-mini run (causalab-spec §3.2), memory/thought shortened.
STEP5 = {
    "memory": "m",
    "thought": "t",
    "past_data": [
        {"id": "0/12", "props": {"density": 14, "moisture": 3, "quantumSize": 95}, "freq": 42.0},
        {"id": "1/12", "props": {"density": 35, "moisture": 31, "quantumSize": 129}, "freq": 91.0},
        {"id": "2/12", "props": {"density": 39, "moisture": 50.0, "quantumSize": 109}, "freq": 114.0},
    ],
    "hypothesis": {
        "edges": [{"from": "moisture", "to": "resonanceFreq"}],
        "freq_equation": "resonanceFreq = base + c_moisture*moisture",
        "coefficients": {"base": 64, "c_moisture": 1},
    },
    "experiment": {"target_prop": "density", "target_value": 80, "purpose": "probe density"},
    "chosen_dialog_option_int": 2,
}


def test_real_record_parses_without_warnings():
    """A record in the official format parses cleanly with every field typed."""
    rec = parse_record(json.dumps(STEP5))
    assert rec.warnings == ()
    assert rec.memory == "m" and rec.thought == "t"
    assert [p.id for p in rec.past_data or ()] == ["0/12", "1/12", "2/12"]
    assert rec.past_data[2].props == {"density": 39.0, "moisture": 50.0, "quantumSize": 109.0}
    assert rec.past_data[2].freq == 114.0
    assert rec.hypothesis is not None
    assert rec.hypothesis.graph.pairs == {("moisture", "resonanceFreq")}
    assert rec.hypothesis.coefficients == {"base": 64.0, "c_moisture": 1.0}
    assert rec.experiment is not None and rec.experiment.target_prop == "density"
    assert rec.experiment.target_value == 80.0 and rec.experiment.extras == {"purpose": "probe density"}
    assert rec.action.kind == "dialog" and rec.action.option == 2


def test_dict_and_text_give_the_same_record():
    """parse_record accepts an already-decoded dict (parse_record_obj) with the same result."""
    assert parse_record(STEP5) == parse_record(json.dumps(STEP5, indent=2)) == parse_record_obj(STEP5)


@pytest.mark.parametrize(
    "wrap,repair",
    [
        ("```json\n{}\n```", "code fence"),
        ("```\n{}\n```", "code fence"),
        ("<think>Let me plan {carefully}.</think>\n{}", "<think>"),
        ("<think>I will intervene on density next.\n{}", "unclosed <think>"),
        ("Here is my record:\n{}\nI hope this helps!", "prose"),
        ("Sure.\n```json\n{}\n```\nDone.", "code fence"),
    ],
)
def test_wrapped_records_are_recovered(wrap, repair):
    """Code fences, think blocks and prose around the object are removed and reported."""
    body = json.dumps(STEP5, indent=2)
    text = wrap.replace("{}", body) if "{}" in wrap else wrap + "\n" + body
    rec = parse_record(text)
    assert rec == parse_record(STEP5)
    assert any(repair in w for w in rec.warnings), rec.warnings


def test_trailing_commas_use_the_lenient_grammar():
    """A trailing comma (invalid JSON) is read by record.lark and reported."""
    rec = parse_record('{"memory": "m", "past_data": [], "value": 3,}')
    assert rec.action.value == 3.0
    assert any("not strict" in w for w in rec.warnings)


def test_value_drift_is_repaired_and_listed():
    """Numeric strings, nulls, frequency aliases and list edges become typed values with warnings."""
    rec = parse_record_obj(
        {
            "past_data": [
                {"id": 3, "props": {"density": "14", "moisture": None, "pH": "high"}, "frequency": "42 Hz"},
                {"id": "4", "props": {"density": 1, "resonanceFreq": 7}},
                "garbage",
            ],
            "hypothesis": {
                "edges": [["density", "freq"], "moisture -> Resonance Frequency", {"source": "a", "target": "b"}],
                "freq_equation": None,
                "coefficients": {"base": "20", "c_density": None},
            },
        }
    )
    p0, p1 = rec.past_data or ()
    assert p0.id == "3" and p0.props == {"density": 14.0, "moisture": None, "pH": None}
    assert p0.freq == 42.0 and p0.extras["raw_props"] == {"pH": "high"}
    assert p1.freq == 7.0 and "resonanceFreq" not in p1.props
    h = rec.hypothesis
    assert h is not None
    assert h.graph.edges == (Edge("density", "resonanceFreq"), Edge("moisture", "resonanceFreq"), Edge("a", "b"))
    assert h.equation == "" and h.coefficients == {"base": 20.0, "c_density": None}
    joined = "\n".join(rec.warnings)
    for fragment in ("'14' is a string", "frequency alias", "'garbage'", "read as 'freq'", "is a list"):
        assert fragment in joined


@pytest.mark.parametrize(
    "experiment,target,warning",
    [
        ({"target_prop": "none", "target_value": None}, None, "means no intervention"),
        ({"target_prop": "read_reactor_properties", "target_value": None}, "read_reactor_properties", "not a property"),
        ({"target_prop": "resonanceFreq", "target_value": 3}, "resonanceFreq", "cannot be intervened"),
        ({}, None, None),
        (None, None, "read as {}"),
        ("density to 50", None, "must be an object"),
    ],
)
def test_experiment_misuse(experiment, target, warning):
    """Non-interventions written into experiment are recognised and reported."""
    rec = parse_record_obj({"past_data": STEP5["past_data"], "experiment": experiment})
    assert rec.experiment is not None and rec.experiment.target_prop == target
    if warning is None:
        assert rec.warnings == ()
    else:
        assert any(warning in w for w in rec.warnings), rec.warnings


@pytest.mark.parametrize(
    "obj,kind,attr,value",
    [
        ({"action": "TALK", "arg1": 57736}, "action", "arg1", 57736),
        ({"action": "talk", "arg1": 1}, "action", "name", "TALK"),
        ({"action": {"action": "USE", "arg1": 5}}, "action", "arg1", 5),
        ({"chosen_dialog_option_int": "3"}, "dialog", "option", 3),
        ({"value": 99.25531914893617}, "value", "value", 99.25531914893617),
        ({"memory": "only memory"}, "none", "name", None),
    ],
)
def test_action_forms(obj, kind, attr, value):
    """Each action form becomes an Action of the matching kind."""
    action = parse_record_obj(obj).action
    assert action.kind == kind and getattr(action, attr) == value


def test_several_action_forms_take_the_first():
    """A record with two action forms keeps 'action' and warns."""
    rec = parse_record_obj({"action": "WAIT", "value": 3})
    assert rec.action.name == "WAIT" and any("several action forms" in w for w in rec.warnings)


def test_hypothesis_given_as_string():
    """A hypothesis serialised into a string (JSON or text format) is parsed."""
    as_json = parse_record_obj({"hypothesis": json.dumps(STEP5["hypothesis"])})
    as_text = parse_record_obj({"hypothesis": "moisture -> resonanceFreq\nresonanceFreq = base + c_moisture*moisture\nbase = 64\nc_moisture = 1"})
    assert as_json.hypothesis is not None and as_text.hypothesis is not None
    assert as_json.hypothesis.graph.pairs == as_text.hypothesis.graph.pairs
    assert as_json.hypothesis.coefficients == as_text.hypothesis.coefficients


def test_edges_given_as_one_string():
    """An edges value written as 'A -> B; C -> D' text is split into edges with a warning."""
    rec = parse_record_obj({"hypothesis": {"edges": "A -> B; C->freq", "freq_equation": "", "coefficients": {}}})
    assert rec.hypothesis is not None
    assert rec.hypothesis.graph.pairs == {("A", "B"), ("C", "resonanceFreq")}
    assert any("is a string" in w for w in rec.warnings)


def test_bare_hypothesis_object_is_a_record():
    """A JSON file holding only {edges, freq_equation, coefficients} reads as a hypothesis-only record."""
    rec = parse_record(json.dumps(STEP5["hypothesis"]))
    assert rec.hypothesis is not None and rec.hypothesis.equation.startswith("resonanceFreq")
    assert rec.past_data is None


def test_key_spelling_drift():
    """Record keys with other casing or spacing are mapped and reported."""
    rec = parse_record_obj({"Past Data": [], "Hypothesis": STEP5["hypothesis"], "reasoning": "x"})
    assert rec.past_data == () and rec.hypothesis is not None
    assert rec.extras == {"reasoning": "x"}
    assert any("'Past Data' read as 'past_data'" in w for w in rec.warnings)


@pytest.mark.parametrize(
    "text,line,column,expected",
    [
        ('{"memory": "x",\n "thought": ', 2, 12, "a string"),
        ('{"memory" "x"}', 1, 11, '":"'),
        ('{"memory": "x" "thought": "y"}', 1, 16, '"}"'),
        ('{"past_data": [1, 2}', 1, 20, '"]"'),
        ('Here you go: {"memory": tru}', 1, 25, "a string"),
    ],
)
def test_malformed_records_point_at_the_problem(text, line, column, expected):
    """Unrecoverable JSON raises DSLSyntaxError with line, column, expected tokens and caret."""
    with pytest.raises(DSLSyntaxError) as info:
        parse_record(text, source="step.json")
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert expected in err.expected, err.expected
    assert str(err).startswith(f"step.json:{line}:{column}:")
    assert err.snippet.splitlines()[-1].endswith("^")


@pytest.mark.parametrize(
    "text,error,fragment",
    [
        ("", DSLSyntaxError, "empty input"),
        ("   \n ", DSLSyntaxError, "empty input"),
        ("I could not decide.", DSLSyntaxError, "no JSON object"),
        ('{"foo": 1}', InputFormatError, "not a step record"),
        ("[1, 2]", DSLSyntaxError, "no JSON object"),
        ('[{"foo": 1}]', InputFormatError, "not a step record"),
        ("bin\x00ary", InputFormatError, "binary"),
        ('{"memory": "\\q"}', CausalCheckError, "JSON"),
    ],
)
def test_non_records_raise_helpful_errors(text, error, fragment):
    """Inputs that hold no record raise a CausalCheckError that says why."""
    with pytest.raises(error, match=fragment):
        parse_record(text)


def test_decode_json_reports_leniency():
    """decode_json says whether the lenient grammar was needed."""
    assert decode_json('{"a": [1, 2]}') == ({"a": [1, 2]}, False)
    assert decode_json('{"a": [1, 2,],}') == ({"a": [1, 2]}, True)


# ----------------------------------------------------------------------- text hypotheses
TEXT = """\
# a hand-written hypothesis
nodes: density, moisture, quantumSize, "Crystal Color"
density -> quantumSize
moisture -> freq : CAUSE     # alias for the frequency
density -> resonanceFreq
resonanceFreq = base + c_density*density + c_moisture*moisture
base = 25
c_density = 2.5
c_moisture = null
"""


def test_text_format_parses():
    """Nodes, edges (with labels and aliases), the equation and coefficients are read."""
    h = parse_hypothesis(TEXT)
    assert h.graph.nodes == ("density", "moisture", "quantumSize", "Crystal Color", "resonanceFreq")
    assert h.graph.edges[1] == Edge("moisture", "resonanceFreq", "CAUSE")
    assert h.equation == "resonanceFreq = base + c_density*density + c_moisture*moisture"
    assert h.coefficients == {"base": 25.0, "c_density": 2.5, "c_moisture": None}
    assert h.target == "resonanceFreq"


def test_format_then_parse_is_identity():
    """parse → print → parse gives the same hypothesis, and printing is stable."""
    h = parse_hypothesis(TEXT)
    printed = format_hypothesis(h)
    assert parse_hypothesis(printed) == h
    assert format_hypothesis(parse_hypothesis(printed)) == printed


def test_json_and_text_agree():
    """The JSON form and the text form of the same hypothesis are equal."""
    from_json = parse_hypothesis(json.dumps(STEP5["hypothesis"]))
    from_text = parse_hypothesis(format_hypothesis(from_json))
    assert from_text == from_json


def test_whole_record_as_hypothesis_input():
    """parse_hypothesis on a full record returns the record's hypothesis."""
    assert parse_hypothesis(STEP5) == parse_hypothesis(STEP5["hypothesis"])


def test_empty_text_hypothesis():
    """Blank lines and comments only give the empty hypothesis."""
    assert parse_hypothesis("# nothing yet\n\n").is_empty
    assert format_hypothesis(Hypothesis()) == ""


def test_equation_for_another_target():
    """An equation whose left-hand side is not the frequency sets the target."""
    h = parse_hypothesis("A -> B\nB = base_B + c_A*A\nbase_B = 1\nc_A = 2")
    assert h.target == "B" and h.coefficients == {"base_B": 1.0, "c_A": 2.0}


def test_printer_quotes_unusual_names():
    """Node names that are not identifiers are printed as JSON strings and read back."""
    h = Hypothesis(CausalGraph.from_pairs([("Crystal Color", "nodes"), ("a", "b")]), "", {})
    assert parse_hypothesis(format_hypothesis(h)) == h


@pytest.mark.parametrize(
    "text,line,column,fragment",
    [
        ("A -> B\nB -> \n", 2, 6, "unexpected"),
        ("A -> B\nA => B\n", 2, 4, "cause -> effect"),
        ("A causes B", 1, 3, "cause -> effect"),
        ("freq = base + * A", 1, 15, "bad equation"),
        ("base = 1\nbase = 2", 2, 1, "assigned twice"),
        ("freq = base + c_A*A\nfrequency = 2*B", 2, 1, "second equation"),
        ("nodes: A B", 1, 10, "unexpected"),
        ("A -> freq\nfreq = 2 A", 2, 10, "explicit '\\*'"),
        ("base = ten", 1, 8, "must be a number or null"),
    ],
)
def test_text_format_errors(text, line, column, fragment):
    """Mistakes in the text format raise DSLSyntaxError at the right line and column."""
    with pytest.raises(DSLSyntaxError, match=fragment) as info:
        parse_hypothesis(text, source="h.txt")
    assert (info.value.line, info.value.column) == (line, column)
    assert str(info.value).startswith(f"h.txt:{line}:{column}:")


def test_non_text_inputs_rejected():
    """parse_hypothesis names the offending value for unsupported types."""
    with pytest.raises(InputFormatError, match="42"):
        parse_hypothesis(42)


def test_parse_memo_gives_what_the_plain_parse_gives():
    """Records parsed with a shared ParseMemo equal records parsed alone: values, zeros' signs, ints, repairs."""
    from causalcheck.parsing import ParseMemo

    entry = {"id": "0", "props": {"a": 1, "Freq": 3}, "freq": 2}
    plain_entry = {"id": "1", "props": {"a": 1.5}, "freq": 4.0, "intervention": {"target_prop": "a", "target_value": 1.5}}
    hyps = [
        {"edges": [{"from": "a", "to": "freq"}], "freq_equation": "resonanceFreq = base + c_a*a", "coefficients": {"base": 0, "c_a": 1}},
        {"edges": [{"from": "a", "to": "freq"}], "freq_equation": "resonanceFreq = base + c_a*a", "coefficients": {"base": -0.0, "c_a": 1.0}},
        {"edges": [{"from": "a", "to": "resonanceFreq"}], "freq_equation": "resonanceFreq = base + c_a*a", "coefficients": {"base": None, "c_a": float("inf")}},
        {"edges": [{"from": "a", "to": "resonanceFreq"}], "freq_equation": "resonanceFreq = base + c_a*a", "coefficients": {" base ": 2, "c_a": 1}},
    ]
    memo = ParseMemo()
    past: list[object] = []
    for h in hyps * 2:
        past = [*past, entry, plain_entry]
        raw = {"past_data": past, "hypothesis": h, "experiment": {"target_prop": "a", "target_value": 2}, "action": "wait"}
        with_memo, alone = parse_record_obj(raw, memo=memo), parse_record_obj(raw)
        assert with_memo == alone
        assert repr(with_memo.hypothesis) == repr(alone.hypothesis)
        assert with_memo.warnings == alone.warnings
        assert [p.extras for p in with_memo.past_data or ()] == [p.extras for p in alone.past_data or ()]


def test_every_repair_carries_a_registered_code_and_the_field_it_concerns():
    """Each repair of a drifting record is a Notice whose code is in REPAIR_CODES and whose field is the record key."""
    from causalcheck.base.errors import Notice
    from causalcheck.parsing import REPAIR_CODES

    text = 'Sure!\n{"Past Data": null, "hypothesis": {"edges": ["a -> freq", 3]}, "experiment": null, "action": "talk", "zz": 1,}'
    rec = parse_record(text)
    got = [(w.code, w.field) for w in rec.warnings if isinstance(w, Notice)]
    assert len(got) == len(rec.warnings) and all(code in REPAIR_CODES for code, _ in got)
    assert got == [
        ("prose-around", ""), ("lenient-json", ""), ("key-spelling", ""), ("unknown-keys", ""), ("past-data-null", "past_data"),
        ("edge-as-string", "hypothesis"), ("frequency-alias", "hypothesis"), ("not-an-edge", "hypothesis"),
        ("experiment-null", "experiment"), ("action-case", "action"),
    ]


def test_the_repair_codes_in_the_source_are_exactly_the_registered_ones():
    """Every code the parser and the envelope search emit is in REPAIR_CODES, and every registered code is emitted somewhere."""
    import ast
    from pathlib import Path

    import causalcheck.base.jsontext
    import causalcheck.parsing
    from causalcheck.parsing import REPAIR_CODES

    used: set[str] = set()
    for module in (causalcheck.parsing, causalcheck.base.jsontext):
        for node in ast.walk(ast.parse(Path(module.__file__ or "").read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            position = {"warn": 0, "warn_past": 0, "warn_hyp": 0, "Notice": 1}.get(node.func.id)
            if position is not None and isinstance(code := node.args[position], ast.Constant):
                used.add(code.value)
    assert used == set(REPAIR_CODES)


def test_dropped_content_is_decided_by_code_not_by_wording():
    """A reworded dropping repair still counts, a repair that merely mentions 'ignored' does not, a plain string never does."""
    from causalcheck.base.errors import Notice
    from causalcheck.parsing import dropped_content

    reworded = Notice("edge number 1 was thrown away", "not-an-edge", "hypothesis")
    mentions = Notice("hypothesis.edges[0]='ignored -> b' is a string; read as {'from': 'ignored', 'to': 'b'}", "edge-as-string", "hypothesis")
    assert dropped_content((reworded, mentions, "x; ignored")) == (reworded,)
    assert dropped_content(parse_record_obj({"hypothesis": {"edges": [{"from": "a"}]}}).warnings)  # edge-without-ends


def test_a_node_named_ignored_is_not_dropped_content():
    """An edge 'ignored -> freq' is read, not dropped: its repair used to count as dropped content because its text says 'ignored'."""
    from causalcheck.checking import check_record
    from causalcheck.parsing import dropped_content

    rec = parse_record_obj({"hypothesis": {"edges": ["ignored -> freq"]}, "action": "WAIT"})
    assert rec.hypothesis is not None and [e.source for e in rec.hypothesis.graph.edges] == ["ignored"]
    assert "'ignored -> freq'" in rec.warnings[0] and dropped_content(rec.warnings) == ()
    drift = [d for d in check_record(rec).findings if d.code == "record-drift"]
    assert [d.severity for d in drift] == ["info"]


def test_an_integer_beyond_float_range_is_a_repair_not_a_crash() -> None:
    """A coefficient of 10**400 (valid JSON) is read as null with a warning (the full-strength fuzz run found an OverflowError)."""
    from causalcheck.parsing import parse_hypothesis

    hyp = parse_hypothesis({"edges": [{"from": "density", "to": "resonanceFreq"}], "coefficients": {"base": 10**400, "c": 2}})
    assert hyp.coefficients == {"base": None, "c": 2.0}


def test_an_edge_list_with_an_arrow_in_the_middle_is_read_by_the_arrow_not_as_a_node_named_arrow():
    """A record edge ['a', '->', 'b'] is a -> b (and '<-' reverses it), never an edge to a node '->'; an undirected token is dropped with a warning."""
    from causalcheck.parsing import parse_record_obj

    rec = parse_record_obj({"hypothesis": {"edges": [["a", "->", "b"], ["c", "<-", "d"], ["e", "--", "f"]]}})
    assert {(e.source, e.target) for e in rec.hypothesis.graph.edges} == {("a", "b"), ("d", "c")}
    assert "->" not in rec.hypothesis.graph.nodes and "e" not in rec.hypothesis.graph.nodes
    assert any("'--' edge, not a directed one" in w for w in rec.warnings)
