"""The closed-form twin of the z3 fit: which cases it decides, and that it answers as z3 does."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from causalcheck.equation import parse_equation
from causalcheck.records import DataPoint
from causalcheck.solvers import fastfit
from causalcheck.solvers.data_consistency import fit_points, solver_fit
from causalcheck.solvers.datafit import DataFit, Row
from causalcheck.solvers.fastfit import reference_fit, reference_weights

FREE = ["base", "c"]


def _rows(xs: list[int], ys: list[float], ids: list[str] | None = None) -> list[Row]:
    """Rows of ``base + c*x = y`` (weights 1 and x; a zero weight is left out, as fit_points does)."""
    names = ids or [f"p{i}" for i in range(len(xs))]
    return [
        (pid, F(0), {k: F(v) for k, v in (("base", 1), ("c", x)) if v != 0}, F(str(y)))
        for pid, x, y in zip(names, xs, ys, strict=True)
    ]


def test_three_points_on_a_bend_are_decided_exactly() -> None:
    """(0, 0), (1, 1), (2, 0) under base + c*x: λ = (1, -2, 1), the minimax line is y = 0.5, off by 0.5."""
    rows = _rows([0, 1, 2], [0, 1, 0])
    assert reference_weights([[F(1), F(0)], [F(1), F(1)], [F(1), F(2)]]) == [F(1), F(-2), F(1)]
    got = reference_fit(rows, FREE, 0.01)
    assert got == DataFit(False, ("p0", "p1", "p2"), 0.5, 0.5, {"base": 0.5, "c": 0.0}, {"p0": 0.5, "p1": -0.5, "p2": 0.5})
    assert got == solver_fit(rows, FREE, 0.01)


def test_a_fractional_minimax_fit_matches_z3() -> None:
    """Uneven x and decimal frequencies: the same floats as z3's optimiser (unique optimum)."""
    rows = _rows([14, 94, 23], [421.0, 1067.0, 358.37])
    got = reference_fit(rows, FREE, 0.5)
    assert got is not None and got.conflicting == ("p0", "p1", "p2")
    assert got == solver_fit(rows, FREE, 0.5)


@pytest.mark.parametrize(
    ("xs", "ys", "ids", "tolerance", "why"),
    [
        ([0, 1, 2], [0, 1, 0], None, 0.5, "the minimax value 0.5 is within the tolerance: z3's model is the fit"),
        ([1, 1, 1], [0, 1, 2], None, 0.01, "every point at one x: rank 1 < 2, the fit is not unique"),
        ([0, 0, 1], [0, 1, 5], None, 0.01, "λ = (1, -1, 0): the third point does not bind, the fit is not unique"),
        ([0, 1, 2, 3], [0, 1, 0, 1], None, 0.01, "four points for two coefficients: not the closed-form case"),
        ([0, 1], [0, 1], None, 0.01, "two points for two coefficients"),
        ([0, 1, 2], [0, 1, 0], ["a", "a", "b"], 0.01, "repeated point ids"),
    ],
)
def test_undecided_cases_go_to_the_solver(
    xs: list[int], ys: list[float], ids: list[str] | None, tolerance: float, why: str
) -> None:
    """Cases outside the closed form return None (the plain twin answers them)."""
    assert reference_fit(_rows(xs, ys, ids), FREE, tolerance) is None, why


def test_fit_points_answers_the_same_with_and_without_the_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    """fit_points on three bent points: the twin's answer equals the z3-only answer."""
    eq = parse_equation("resonanceFreq = base + c*x", coefficients=("base", "c"), nodes=("x", "resonanceFreq"))
    points = [DataPoint("a", {"x": 0.0}, 0.0), DataPoint("b", {"x": 1.0}, 1.0), DataPoint("c", {"x": 2.0}, 0.25)]
    calls: list[DataFit | None] = []
    real = fastfit.reference_fit

    def spy(*args: object) -> DataFit | None:
        calls.append(real(*args))  # type: ignore[arg-type]
        return calls[-1]

    monkeypatch.setattr(fastfit, "reference_fit", spy)
    fast = fit_points(eq, points, {}, 0.01)
    assert calls and calls[0] is not None  # the twin decided it
    monkeypatch.setattr(fastfit, "reference_fit", lambda *args: None)
    assert fit_points(eq, points, {}, 0.01) == fast


def test_integer_elimination_finds_the_basic_solution() -> None:
    """x + 2y = 7 alone: y has no pivot, so the basic solution is x = 7, y = 0 (as the plain twin gives)."""
    rows: list[Row] = [("a", F(0), {"x": F(1), "y": F(2)}, F(7))]
    assert fastfit.interpolation(rows, ["x", "y"]) == {"x": F(7), "y": F(0)}


def test_integer_elimination_scales_fractional_rows() -> None:
    """x/3 + y/2 = 1 and 1/6 + x/4 − y = 1/3: the unique solution x = 26/11, y = 14/33, in lowest terms."""
    rows: list[Row] = [("a", F(0), {"x": F(1, 3), "y": F(1, 2)}, F(1)), ("b", F(1, 6), {"x": F(1, 4), "y": F(-1)}, F(1, 3))]
    assert fastfit.interpolation(rows, ["x", "y"]) == {"x": F(26, 11), "y": F(14, 33)}


def test_integer_elimination_refuses_a_contradiction() -> None:
    """2c = 4 and 2c = 5: no exact solution."""
    rows: list[Row] = [("a", F(0), {"c": F(2)}, F(4)), ("b", F(0), {"c": F(2)}, F(5))]
    assert fastfit.interpolation(rows, ["c"]) is None
