"""The closed-form fit against its plain twin, z3 (the oracle): same inputs, identical results."""

from __future__ import annotations

from fractions import Fraction

import pytest
from causalcheck.graph import FREQ, CausalGraph
from causalcheck.records import DataPoint, Hypothesis
from causalcheck.solvers import fastfit
from causalcheck.solvers.data_consistency import data_consistency, interpolation, solver_fit
from causalcheck.solvers.fastfit import reference_fit
from hypothesis import given, settings
from hypothesis import strategies as st

FREE = ["base", "c_a", "c_b", "c_c"]
# small values with zeros and repeats, so rank-deficient matrices and zero λ_i are drawn too
_WEIGHTS = st.sampled_from([0, 0, 1, 1, 2, -1, 3, Fraction(1, 2), Fraction(-7, 4), 14, 94])
_VALUES = st.one_of(st.integers(-50, 50), st.sampled_from([0.25, 1.5, 358.37, -2.01, 1067.0])).map(
    lambda v: Fraction(str(v))
)
_TOLERANCES = st.sampled_from([0.0, 0.01, 0.5, 1.0, 3.0])


@st.composite
def row_sets(draw: st.DrawFn) -> tuple[list, list[str]]:
    """n = k + 1 rows (the twin's case) or, sometimes, other sizes, over k free coefficients."""
    k = draw(st.integers(1, 3))
    free = FREE[: k]
    n = draw(st.sampled_from([k + 1, k + 1, k + 1, k, k + 2]))
    rows = []
    for i in range(n):
        weights = {c: Fraction(draw(_WEIGHTS)) for c in free}
        rows.append((f"p{i}", draw(_VALUES), {c: w for c, w in weights.items() if w != 0}, draw(_VALUES)))
    return rows, free


@settings(max_examples=150, deadline=None)
@given(row_sets(), _TOLERANCES)
def test_the_closed_form_answers_as_z3_does(case: tuple[list, list[str]], tolerance: float) -> None:
    """Whenever the twin decides, its DataFit (verdict, core, tolerances, fit, residuals) equals z3's."""
    rows, free = case
    if not any(w for _, _, w, _ in rows):
        return  # no free coefficient has a weight: fit_points never asks this
    got = reference_fit(rows, free, tolerance)
    if got is not None:
        assert got == solver_fit(rows, free, tolerance)


@st.composite
def any_rows(draw: st.DrawFn) -> tuple[list, list[str]]:
    """0–5 rows over 0–4 coefficients with fractional entries: under-, well- and over-determined systems."""
    free = FREE[: draw(st.integers(0, 4))]
    entries = st.fractions(min_value=-20, max_value=20, max_denominator=12)
    rows = []
    for i in range(draw(st.integers(0, 5))):
        weights = {c: draw(st.one_of(st.just(Fraction(0)), entries)) for c in free}
        rows.append((f"p{i}", draw(entries), {c: w for c, w in weights.items() if w != 0}, draw(entries)))
    return rows, free


@settings(max_examples=200, deadline=None)
@given(any_rows())
def test_integer_elimination_gives_the_plain_basic_solution(case: tuple[list, list[str]]) -> None:
    """fastfit.interpolation equals data_consistency.interpolation: None or the same basic solution, key order too."""
    rows, free = case
    plain = interpolation(rows, free)
    fast = fastfit.interpolation(rows, free)
    assert fast == plain
    assert (None if fast is None else list(fast)) == (None if plain is None else list(plain))


@st.composite
def agent_records(draw: st.DrawFn) -> tuple[Hypothesis, list[DataPoint]]:
    """A CausaLab-like final record: an affine equation over 1–2 parents, 2–4 entries off the line."""
    parents = ["a", "b"][: draw(st.integers(1, 2))]
    equation = f"{FREQ} = base + " + " + ".join(f"c_{p}*{p}" for p in parents)
    coeffs: dict[str, float | None] = {"base": float(draw(st.integers(-20, 20)))}
    coeffs.update({f"c_{p}": draw(st.sampled_from([None, 1.0, 2.5])) for p in parents})
    h = Hypothesis(CausalGraph.from_pairs([(p, FREQ) for p in parents]), equation, coeffs)
    points = [
        DataPoint(
            f"{i}/8",
            {p: float(draw(st.integers(0, 100))) for p in parents},
            float(draw(st.integers(0, 1200))) + draw(st.sampled_from([0.0, 0.37])),
        )
        for i in range(draw(st.integers(2, 4)))
    ]
    return h, points


@settings(max_examples=60, deadline=None)
@given(agent_records(), st.sampled_from([0.01, 0.5]))
def test_data_consistency_is_identical_without_the_twin(record: tuple[Hypothesis, list[DataPoint]], tolerance: float) -> None:
    """data_consistency's findings and certificates are equal with the twins and with the plain path alone."""
    h, points = record
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fastfit, "reference_fit", lambda *args: None)
        mp.setattr(fastfit, "interpolation", interpolation)
        plain = data_consistency(h, points, tolerance)
    assert data_consistency(h, points, tolerance) == plain
