"""Structural equations: parsing, classification of names, evaluation, algebra."""

from __future__ import annotations

import pickle

import pytest
from causalcheck.base.errors import CausalCheckError, DSLSyntaxError, InputFormatError
from causalcheck.equation import (
    BinOp,
    Expr,
    Num,
    Sym,
    Unary,
    compile_expr,
    evaluate_tree,
    is_coefficient_name,
    parse_equation,
    python_source,
)


def test_canonical_equation_parts():
    """The CausaLab form yields target, variables and coefficients in first-seen order."""
    eq = parse_equation("resonanceFreq = base + c_moisture*moisture + c_quantumSize*quantumSize")
    assert eq.target == "resonanceFreq"
    assert eq.variables == ("moisture", "quantumSize")
    assert eq.coefficient_names == ("base", "c_moisture", "c_quantumSize")
    assert [str(t) for t in eq.terms] == ["base", "c_moisture*moisture", "c_quantumSize*quantumSize"]


@pytest.mark.parametrize("lhs", ["freq", "frequency", "Resonance_Freq", "resonance_frequency"])
def test_frequency_aliases_on_the_left(lhs):
    """Every spelling the official scorer accepts names the frequency target."""
    assert parse_equation(f"{lhs} = base + c_A*A").target == "resonanceFreq"


def test_lhs_is_optional():
    """An equation without 'target =' has no target."""
    eq = parse_equation("base + c_A*A")
    assert eq.target is None and eq.variables == ("A",)


def test_empty_equation():
    """The empty string (the record default) parses to the empty equation."""
    eq = parse_equation("  ")
    assert eq.is_empty and eq.variables == () and eq.terms == ()


def test_precedence_follows_python():
    """Unary minus binds looser than power, power is right-associative, * before +."""
    assert parse_equation("-x^2").rhs == Unary("-", BinOp("^", Sym("x"), Num(2.0)))
    assert parse_equation("2^3^2").evaluate({}) == 512.0
    assert parse_equation("2**3**2").evaluate({}) == 512.0
    assert parse_equation("1 + 2*3 - 4/2").evaluate({}) == 5.0
    assert parse_equation("(1 + 2)*3").evaluate({}) == 9.0
    assert parse_equation("- -3").evaluate({}) == 3.0


@pytest.mark.parametrize("text,value", [("1e2", 100.0), ("2.5E-1", 0.25), (".5", 0.5), ("3.", 3.0), ("0.125", 0.125)])
def test_json_numbers(text, value):
    """Numbers in any JSON form (and the common '.5' / '3.') are read exactly."""
    assert parse_equation(text).evaluate({}) == value


def test_quadratic_prompt_form():
    """The quadratic prompt's c_P_1*P^2 + c_P_2*P form evaluates correctly."""
    eq = parse_equation("resonanceFreq = base + c_pH_1*pH^2 + c_pH_2*pH")
    assert eq.coefficient_names == ("base", "c_pH_1", "c_pH_2")
    assert eq.evaluate({"pH": 3}, {"base": 1, "c_pH_1": 2, "c_pH_2": 5}) == 1 + 18 + 15


def test_coefficient_hints_override_convention():
    """Names listed as coefficients or nodes are classified by the hint, not by the naming rule."""
    eq = parse_equation("k*A + c_B", coefficients=["k"], nodes=["c_B"])
    assert eq.coefficient_names == ("k",)
    assert eq.variables == ("A", "c_B")


@pytest.mark.parametrize("name,expected", [("base", True), ("base_freq", True), ("c_density", True), ("coeff_density_freq", True), ("c1", True), ("density", False), ("cx", False), ("pH", False)])
def test_coefficient_naming_convention(name, expected):
    """The convention recognises base/c_/coeff_ names and not property names."""
    assert is_coefficient_name(name) is expected


def test_evaluate_missing_value_names_it():
    """Evaluating without a needed value raises an InputFormatError that names the value."""
    eq = parse_equation("base + c_A*A")
    with pytest.raises(InputFormatError, match="'A'"):
        eq.evaluate({}, {"base": 1, "c_A": 2})
    with pytest.raises(InputFormatError, match="'c_A'"):
        eq.evaluate({"A": 1}, {"base": 1, "c_A": None})


def test_evaluate_undefined_arithmetic():
    """Division by zero and complex powers are reported, not raised as Python errors."""
    with pytest.raises(InputFormatError, match="divides by zero"):
        parse_equation("1/x").evaluate({"x": 0})
    with pytest.raises(InputFormatError, match="fractional power"):
        parse_equation("x^0.5").evaluate({"x": -4})
    with pytest.raises(CausalCheckError):
        parse_equation("10^x").evaluate({"x": 1e6})


def test_evaluate_reports_the_first_problem_left_to_right():
    """The compiled fast path falls back to the checked walk, so the message names the first failure in order."""
    with pytest.raises(InputFormatError, match="divides by zero"):
        parse_equation("1/0 + x").evaluate({})
    with pytest.raises(InputFormatError, match="'x'"):
        parse_equation("x + 1/0").evaluate({})
    with pytest.raises(InputFormatError, match="evaluates to inf"):
        parse_equation("x*10").evaluate({"x": 1e308})


def test_evaluate_keeps_python_float_order():
    """``a + b*c + d`` is ((a + b·c) + d) and constants are floats: the result is Python's, bit for bit."""
    eq = parse_equation("a + b*c + d")
    vals = {"a": 0.1, "b": 0.2, "c": 0.3, "d": 1e16}
    assert eq.evaluate(vals) == (0.1 + 0.2 * 0.3) + 1e16
    assert parse_equation("2^-1074 * 2^1023").evaluate({}) == 2.0**-1074 * 2.0**1023
    with pytest.raises(InputFormatError, match="out of range"):
        parse_equation("2^1024").evaluate({})  # float power: overflow, not a huge integer
    assert parse_equation("-2^2").evaluate({}) == -4.0 and parse_equation("(-2)^2").evaluate({}) == 4.0


def test_compiled_source_and_pickle():
    """The compiled function is Python source over argument names and float literals; it pickles by recompiling."""
    eq = parse_equation("freq = base + c_A*A^2")
    f = eq.compiled
    assert f is not None and f.source == "lambda _0, _1, _2: _0 + _1 * _2 ** 2.0"
    again = pickle.loads(pickle.dumps(eq))
    assert again == eq and again.evaluate({"A": 3}, {"base": 1, "c_A": 2}) == 19.0
    assert pickle.loads(pickle.dumps(f))(1.0, 2.0, 3.0) == 19.0


def test_deep_trees_compile_or_fall_back_to_the_walk():
    """A tree beyond Python's nesting limit is walked instead of compiled, with the same value."""
    deep: Expr = Sym("x")
    for k in range(300):
        deep = BinOp("-", Num(float(k)), deep)  # right-nested: 300 levels of parentheses
    f = compile_expr(deep)
    assert f.source == ""
    assert f(0.5) == evaluate_tree(deep, {Sym("x"): 0.5})
    flat: Expr = Sym("x")
    for k in range(300):
        flat = BinOp("+", flat, Num(float(k)))  # left-nested: no parentheses needed
    g = compile_expr(flat)
    assert g.source and "(" not in g.source and g(0.5) == evaluate_tree(flat, {Sym("x"): 0.5})


def test_python_source_binds_non_finite_numbers():
    """inf and nan have no literal: they are bound as constants, or refused without a constants list."""
    consts: list[float] = []
    assert python_source(BinOp("*", Num(float("inf")), Sym("x")), constants=consts) == "_k0 * x"
    assert consts == [float("inf")]
    with pytest.raises(InputFormatError, match="inf"):
        python_source(Num(float("inf")))


def test_raw_names_keep_frequency_spellings():
    """With raw_names nothing is normalised: ``freq`` stays ``freq``."""
    assert parse_equation("freq = base + Freq", raw_names=True).variables == ("Freq",)
    assert parse_equation("freq = base + Freq", raw_names=True).target == "freq"
    assert parse_equation("freq = base + Freq").variables == ("resonanceFreq",)


def test_polynomial_expansion():
    """polynomial() multiplies out products and integer powers; it refuses division by a name and big powers."""
    assert parse_equation("(a + 1)^2 / 2").polynomial() == {(("a", 2),): 0.5, (("a", 1),): 1.0, (): 0.5}
    with pytest.raises(InputFormatError, match="divides"):
        parse_equation("1/a").polynomial()
    with pytest.raises(InputFormatError, match="power"):
        parse_equation("a^9").polynomial()


def test_linear_form_in_coefficients():
    """For fixed variable values the right-hand side is affine in the free coefficients."""
    eq = parse_equation("base + c_A*A + c_B*B^2")
    const, weights = eq.linear_form({"A": 2, "B": 3}, {"base": 10}) or (None, None)
    assert const == 10.0 and weights == {"c_A": 2.0, "c_B": 9.0}
    assert parse_equation("c_A^2*A").linear_form({"A": 1}) is None
    assert parse_equation("c_A*c_B").is_linear_in_coefficients() is False
    assert parse_equation("base + c_A*A").is_linear_in_coefficients() is True


def test_to_sympy_matches_evaluate():
    """The sympy expression agrees with the evaluator and keeps decimals exact."""
    import sympy

    eq = parse_equation("freq = base + 0.1*A - A^2/4")
    expr = eq.to_sympy()
    assert expr.subs({sympy.Symbol("base", real=True): 1, sympy.Symbol("A", real=True): 2}) == sympy.Rational(1, 5)
    assert eq.evaluate({"A": 2}, {"base": 1}) == pytest.approx(0.2)


def test_canonical_reparses_to_same_tree():
    """Printing and re-parsing keeps the expression tree."""
    eq = parse_equation("y = (a - (b - c)) / (d*e) ^ -f")
    assert parse_equation(eq.canonical()).rhs == eq.rhs


@pytest.mark.parametrize(
    "text,column,expect",
    [
        ("freq = base +", 14, "a name"),
        ("freq = = 3", 8, "a number"),
        ("freq = base + (c*A", 19, '")"'),
        ("freq = base $ A", 13, '"+"'),
        ("freq = 2 ** * A", 13, "a number"),
    ],
)
def test_syntax_errors_have_position_and_expected_tokens(text, column, expect):
    """Bad equations raise DSLSyntaxError with the column, the expected tokens and a caret."""
    with pytest.raises(DSLSyntaxError) as info:
        parse_equation(text)
    err = info.value
    assert err.line == 1 and err.column == column
    assert expect in err.expected
    assert err.snippet.splitlines()[1].index("^") == column - 1
    assert isinstance(err, ValueError)


def test_parse_tree_is_memoised_and_results_unchanged() -> None:
    # lab score parses the same few equations in every episode: the lark tree is cached by text
    from causalcheck import equation as eqmod

    text = "y = 3.5*x_memo_probe + c0*z"
    before = eqmod._parse_cached.cache_info().hits
    first = eqmod.parse_equation(text, coefficients=["c0"])
    second = eqmod.parse_equation(text, coefficients=["c0"])
    assert eqmod._parse_cached.cache_info().hits == before + 1
    assert first == second and first.canonical() == second.canonical()
    # a syntax error is raised every time (errors are not cached) with the caller's source
    for _ in range(2):
        with pytest.raises(DSLSyntaxError, match=r"memo\.txt"):
            eqmod.parse_equation("y = 3 x", source="memo.txt")
