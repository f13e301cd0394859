"""The data-consistency solver's numbers: finite tolerances, and the values JSON writers can take."""

from __future__ import annotations

import json
import math
from pathlib import Path

from causalcheck.base.safejson import loads
from causalcheck.equation import parse_equation
from causalcheck.records import DataPoint
from causalcheck.solvers.data_consistency import fit_points


def _line(coefficients: tuple[str, ...] = ("base", "c_ph")) -> object:
    return parse_equation("resonanceFreq = base + c_ph*ph", coefficients=coefficients, nodes=("ph", "resonanceFreq"))


def test_a_whole_number_minimax_tolerance_is_finite() -> None:
    """Two points at the same ph with frequencies 10 and 20: the best fit misses by exactly 5, not NaN.

    The optimiser answers a whole-number optimum with an integer numeral; it used to come out as NaN.
    """
    points = [DataPoint("a", {"ph": 1.0}, 10.0), DataPoint("b", {"ph": 1.0}, 20.0)]
    fit = fit_points(_line(), points, {}, 0.5)  # type: ignore[arg-type]
    assert fit is not None and not fit.consistent
    assert fit.conflicting == ("a", "b")
    assert fit.min_tolerance == 5.0 and fit.core_min_tolerance == 5.0
    assert all(math.isfinite(v) for v in (*fit.coefficients.values(), *fit.residuals.values()))


def test_a_fractional_minimax_tolerance_is_exact() -> None:
    """Frequencies 10 and 11 at one ph: the smallest accepting tolerance is 0.5 (a rational numeral)."""
    points = [DataPoint("a", {"ph": 2.0}, 10.0), DataPoint("b", {"ph": 2.0}, 11.0)]
    fit = fit_points(_line(), points, {}, 0.1)  # type: ignore[arg-type]
    assert fit is not None and (fit.min_tolerance, fit.core_min_tolerance) == (0.5, 0.5)


def test_every_result_file_of_the_demo_is_strict_json(tmp_path: Path) -> None:
    """Every .json / .run file and every .jsonl line the demo writes parses with safejson.loads (no NaN)."""
    from causalcheck.cli import main

    out = tmp_path / "demo"
    assert main(["demo", "--out", str(out), "--quiet"]) == 0
    checked = 0
    for path in sorted(out.rglob("*")):
        if path.suffix in (".json", ".run"):
            loads(path.read_text(encoding="utf-8"), source=str(path))
            checked += 1
        elif path.suffix == ".jsonl":
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    loads(line, source=str(path))
            checked += 1
    assert checked >= 10
    scores = (out / "lab-scores" / "scores.json").read_text(encoding="utf-8")
    assert "NaN" not in scores and "misses by nan" not in scores
    assert json.loads(scores)["episodes"]


def test_points_on_the_equation_are_decided_exactly_without_the_solver(monkeypatch: object) -> None:
    """Points lying exactly on the line are consistent, with the basic solution as the fit, and z3 is not asked."""
    import pytest
    import z3

    mp = monkeypatch
    assert isinstance(mp, pytest.MonkeyPatch)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the solver was asked")

    mp.setattr(z3, "Context", refuse)
    points = [DataPoint("a", {"ph": 1.0}, 23.0), DataPoint("b", {"ph": 3.0}, 29.0)]
    fit = fit_points(_line(), points, {}, 0.01)  # type: ignore[arg-type]
    assert fit is not None and fit.consistent and fit.coefficients == {"base": 20.0, "c_ph": 3.0}
    one = fit_points(_line(), points[:1], {}, 0.01)  # type: ignore[arg-type]
    assert one is not None and one.coefficients == {"base": 23.0, "c_ph": 0.0}  # under-determined: c_ph is 0


def test_points_near_but_not_on_the_equation_still_ask_the_solver(monkeypatch: object) -> None:
    """Three points within the tolerance of a line but on no line at all: consistent, decided by z3."""
    import pytest
    import z3

    mp = monkeypatch
    assert isinstance(mp, pytest.MonkeyPatch)
    made: list[object] = []
    real = z3.Context

    def counting(*args: object, **kwargs: object) -> object:
        made.append(1)
        return real(*args, **kwargs)

    mp.setattr(z3, "Context", counting)
    points = [DataPoint("a", {"ph": 0.0}, 10.0), DataPoint("b", {"ph": 1.0}, 11.004), DataPoint("c", {"ph": 2.0}, 12.0)]
    fit = fit_points(_line(), points, {}, 0.01)  # type: ignore[arg-type]
    assert fit is not None and fit.consistent and made
    assert max(abs(r) for r in fit.residuals.values()) <= 0.01 + 1e-6


def test_without_the_form_question_the_mismatch_and_its_points_are_the_same() -> None:
    """form_question=False keeps the data-mismatch verdict and its conflicting points, and drops equation-refuted."""
    from causalcheck.parsing import parse_hypothesis
    from causalcheck.solvers.data_consistency import data_consistency

    h = parse_hypothesis({"edges": [{"from": "ph", "to": "resonanceFreq"}], "freq_equation": "resonanceFreq = base + c_ph*ph", "coefficients": {"base": 1, "c_ph": 2}})
    points = [DataPoint("a", {"ph": 1.0}, 10.0), DataPoint("b", {"ph": 1.0}, 20.0), DataPoint("c", {"ph": 2.0}, 5.0)]
    full = {f.code: f for f in data_consistency(h, points)}
    short = {f.code: f for f in data_consistency(h, points, form_question=False)}
    assert set(full) == {"data-mismatch", "equation-refuted"} and set(short) == {"data-mismatch"}
    assert short["data-mismatch"].elements == full["data-mismatch"].elements
