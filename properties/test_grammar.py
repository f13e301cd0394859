"""Property tests of the grammars: round-trips, and 'the parser raises nothing but CausalCheckError'."""

from __future__ import annotations

import contextlib
import json

import pytest
from causalcheck import strategies as cs
from causalcheck.base.errors import CausalCheckError
from causalcheck.episodes import records_from_text
from causalcheck.equation import parse_equation
from causalcheck.grammar.parsers import parser
from causalcheck.parsing import format_hypothesis, parse_hypothesis, parse_record, parse_record_obj
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

# ----------------------------------------------------------------------- equations
# from_lark explores equation.lark itself but is slow on a recursive expression grammar
# (about a second per example), so it runs in the slow suite; a custom strategy that writes
# the same language with random spacing runs by default.
EQUATIONS_LARK = from_lark(
    parser("equation"),
    explicit={
        "NAME": st.sampled_from(["base", "c_A", "c_density", "A", "density", "pH", "freq", "x1", "coeff2_B_C"]),
        "NUMBER": st.from_regex(r"(0|[1-9][0-9]{0,3})(\.[0-9]{1,3})?([eE][+-]?[0-9])?|\.[0-9]{1,2}", fullmatch=True),
        "WS": st.sampled_from([" ", "\t", "\n"]),
    },
)
_SP = st.sampled_from(["", " ", "  "])
_ATOMS = st.one_of(
    st.sampled_from(["base", "c_A", "c_density", "A", "density", "pH", "quantumSize", "x1", "coeff2_B_C"]),
    st.from_regex(r"(0|[1-9][0-9]{0,3})(\.[0-9]{1,3})?([eE][+-]?[0-9])?", fullmatch=True),
)


def _combine(children):
    binop = st.tuples(children, _SP, st.sampled_from(["+", "-", "*", "/", "^", "**"]), _SP, children).map(lambda t: "".join(t))
    unary = st.tuples(st.sampled_from(["-", "+"]), children).map(lambda t: "".join(t))
    paren = st.tuples(_SP, children, _SP).map(lambda t: "(" + "".join(t) + ")")
    return st.one_of(binop, unary, paren)


EQUATIONS = st.tuples(
    st.sampled_from(["", "resonanceFreq = ", "freq=", "B = "]),
    st.recursive(_ATOMS, _combine, max_leaves=12),
).map(lambda t: "".join(t))


def _round_trip(text):
    eq = parse_equation(text)
    again = parse_equation(eq.canonical())
    assert again.rhs == eq.rhs and again.target == eq.target
    assert parse_equation(again.canonical()).canonical() == again.canonical()
    assert not set(eq.variables) & set(eq.coefficient_names)
    in_terms = {v for t in eq.terms for v in t.variables} | {c for t in eq.terms for c in t.coefficient_names}
    assert in_terms == set(eq.variables) | set(eq.coefficient_names)


@given(EQUATIONS)
def test_equation_canonical_round_trip(text):
    """Every generated equation parses; its canonical print parses to the same tree; names are partitioned."""
    _round_trip(text)


@pytest.mark.slow
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(EQUATIONS_LARK)
def test_equation_round_trip_from_grammar(text):
    """Sentences generated from equation.lark itself round-trip through the canonical printer."""
    _round_trip(text)


# ----------------------------------------------------------------------- text hypotheses
hypotheses = cs.hypotheses  # nodes, labelled edges, an equation over the frequency's parents


@given(hypotheses())
def test_text_format_round_trip(h):
    """parse(print(h)) == h, and parse → print → parse is the identity on the printed text."""
    text = format_hypothesis(h)
    parsed = parse_hypothesis(text)
    assert parsed.graph == h.graph
    assert parsed.coefficients == h.coefficients
    assert parsed.equation == " ".join(h.equation.split())
    printed = format_hypothesis(parsed)
    assert printed == text
    assert parse_hypothesis(printed) == parsed


@given(hypotheses())
def test_json_form_round_trip(h):
    """Hypothesis → CausaLab JSON → parse_hypothesis keeps edges, equation and coefficients."""
    back = parse_hypothesis(json.dumps(h.to_json()))
    assert back.graph.pairs == h.graph.pairs
    assert back.equation == h.equation and back.coefficients == h.coefficients


# ----------------------------------------------------------------------- robustness
JSONISH = st.text(alphabet='{}[]":,.-+0123456789eEtrufalsn memoryhpdic_->=*^#\n\t`<>/\\', max_size=80)
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=10)),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(
            st.one_of(st.sampled_from(["memory", "past_data", "hypothesis", "edges", "freq_equation", "coefficients", "experiment", "action", "value", "chosen_dialog_option_int", "props", "freq", "id", "from", "to", "target_prop", "target_value", "arg1"]), st.text(max_size=5)),
            children,
            max_size=5,
        ),
    ),
    max_leaves=20,
)


@given(st.one_of(st.text(max_size=200), JSONISH))
def test_parsers_raise_only_causalcheck_errors(text):
    """On arbitrary text every parser either returns or raises a CausalCheckError."""
    for fn in (parse_record, parse_hypothesis, parse_equation, records_from_text):
        with contextlib.suppress(CausalCheckError):
            fn(text)


@given(JSON_VALUES)
def test_record_objects_never_crash(obj):
    """Any decoded JSON value is converted to a record or rejected with a CausalCheckError."""
    try:
        rec = parse_record_obj(obj) if isinstance(obj, dict) else None
    except CausalCheckError:
        return
    if rec is not None:
        from causalcheck.checking import check_record

        check_record(rec)
    with contextlib.suppress(CausalCheckError):
        parse_record(json.dumps(obj))


@given(st.text(max_size=60))
def test_parse_errors_have_valid_positions(text):
    """Every DSLSyntaxError points inside the input (1-based line and column)."""
    from causalcheck.base.errors import DSLSyntaxError

    for fn in (parse_hypothesis, parse_equation):
        try:
            fn(text)
        except DSLSyntaxError as exc:
            lines = text.splitlines() or [""]
            assert 1 <= exc.line <= max(len(lines), 1) + 1
            assert exc.column >= 1
        except CausalCheckError:
            pass
    assume(True)
