"""Fisher-z on values of extreme magnitude: exact rescaling, never a NaN statistic read as p = 1; strict JSON out."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from causalcheck.checking.cli import run
from causalcheck.graphchecks.citests import CITester, scaled_columns
from causalcheck.graphchecks.structural import fit_equations
from causalcheck.graphchecks.validator import validate_graph
from causalcheck.graphs.data import load_data
from causalcheck.graphs.formats import parse_text


def _chain(rows: int = 300, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=rows)
    y = x + rng.normal(size=rows)
    z = y + rng.normal(size=rows)
    return {"x": x, "y": y, "z": z}


def test_a_column_scaled_by_a_huge_power_of_two_gives_the_same_p_values_bit_for_bit():
    """x·2**600 (about 4e180, whose squares overflow) tests exactly as x: the rescale is a power of two."""
    data = _chain()
    huge = {**data, "x": data["x"] * 2.0**600}
    plain = CITester(load_data(data, ["x", "y", "z"]), "fisherz")
    scaled = CITester(load_data(huge, ["x", "y", "z"]), "fisherz")
    assert scaled.rescaled == ("x",) and plain.rescaled == ()
    for x, y, given in [(0, 2, [1]), (0, 1, []), (0, 2, [])]:
        assert scaled.raw_pvalue(x, y, given) == plain.raw_pvalue(x, y, given)
        assert scaled.certificate(x, y, given) == plain.certificate(x, y, given)


def test_ordinary_columns_are_left_bit_for_bit():
    """scaled_columns leaves every column within 2**±300 untouched (the same array object when none is extreme)."""
    values = np.array([[1.0, -3e80], [2.0, 5e-80]])
    out, cols = scaled_columns(values)
    assert out is values and cols == []


def test_one_cell_of_1e300_gives_a_finite_statistic_and_a_finding_naming_the_column():
    """The issue's example: one finite cell of 1e300 no longer gives a NaN statistic with p = 1 and '0 rejected'."""
    data = _chain()
    data["x"][5] = 1e300
    result = validate_graph(parse_text("x -> z; y -> z"), data=data)
    notes = [f.message for f in result.report.findings if f.code == "data-encoded"]
    assert any("['x']" in m and "rescaled" in m for m in notes)
    tester = CITester(load_data(data, ["x", "y", "z"]), "fisherz")
    cert = tester.certificate(0, 1, [])
    assert math.isfinite(cert.statistic) and math.isfinite(cert.p_value) and cert.p_value < 1
    fits = {f.node: f for f in result.equations}
    assert all(math.isfinite(f.residual_scale) and math.isfinite(f.r_squared) for f in fits.values())


def test_equations_on_a_column_scaled_by_a_power_of_two_scale_back_exactly():
    """The structural fit of 2**700·x and 2**650·y gives x's coefficient times 2**-50 and the same R²."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=200)
    y = 2 * x + rng.normal(size=200)
    g = parse_text("x -> y")
    plain = fit_equations(g, load_data({"x": x, "y": y}, ["x", "y"]))[1]
    huge = fit_equations(g, load_data({"x": x * 2.0**700, "y": y * 2.0**650}, ["x", "y"]))[1]
    assert huge.coefficients[0].estimate * 2.0**50 == pytest.approx(plain.coefficients[0].estimate, rel=1e-12)
    assert huge.r_squared == pytest.approx(plain.r_squared, rel=1e-12)
    assert huge.residual_scale == pytest.approx(plain.residual_scale * 2.0**650, rel=1e-12)


def test_a_statistic_that_is_not_a_number_is_undecidable_with_its_columns_named(monkeypatch):
    """Should a test still return NaN, the statement is undecidable and says why — never a silent p = 1."""
    tester = CITester(load_data(_chain(), ["x", "y", "z"]), "fisherz")
    monkeypatch.setattr(tester, "_compute", lambda *args: float("nan"))
    assert tester.pvalue(0, 2, [1]) == 1.0
    assert "['x', 'z', 'y']" in (tester.undecidable(0, 2, [1]) or "") and "not a number" in tester.undecidable(0, 2, [1])


def test_check_json_with_extreme_data_is_strict_json(tmp_path, capsys):
    """check GRAPH --data CSV --json with a 1e300 cell prints strict JSON: no bare NaN or Infinity token."""
    data = _chain()
    data["x"][5] = 1e300
    csv = tmp_path / "d.csv"
    rows = zip(data["x"].tolist(), data["y"].tolist(), data["z"].tolist(), strict=True)
    csv.write_text("x,y,z\n" + "".join(f"{a!r},{b!r},{c!r}\n" for a, b, c in rows), encoding="utf-8")
    graph = tmp_path / "g.dagitty"
    graph.write_text("dag { x -> z  y -> z }", encoding="utf-8")
    code = run([str(graph), "--data", str(csv), "--json"])  # warnings are errors here: no overflow either
    out = capsys.readouterr().out

    def refuse(token: str) -> None:
        raise AssertionError(f"bare {token} in --json output")

    payload = json.loads(out, parse_constant=refuse)
    assert code in (0, 1) and payload


@pytest.mark.parametrize(("suffix", "text"), [(".dagitty", "dag { x -> y  y -> z }"), (".dot", "digraph { x -> y; y -> z }")])
def test_check_graph_with_data_imports_no_heavy_dependency(tmp_path, suffix, text):
    """`causalcheck check GRAPH --data CSV` (a subprocess) loads neither causal-learn, matplotlib, KCI, spaCy, scipy.stats/special,
    pydot (pyparsing) nor the code of the other commands (lab, explain, report, snapshot)."""
    import subprocess
    import sys

    data = _chain()
    csv = tmp_path / "d.csv"
    rows = zip(data["x"].tolist(), data["y"].tolist(), data["z"].tolist(), strict=True)
    csv.write_text("x,y,z\n" + "".join(f"{a!r},{b!r},{c!r}\n" for a, b, c in rows), encoding="utf-8")
    graph = tmp_path / f"g{suffix}"
    graph.write_text(text, encoding="utf-8")
    probe = (
        "import sys, runpy, contextlib, io\n"
        f"sys.argv = ['causalcheck', 'check', {str(graph)!r}, '--data', {str(csv)!r}, '--json']\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):\n"
        "    runpy.run_module('causalcheck', run_name='__main__')\n"
        "assert '\"ok\"' in out.getvalue(), out.getvalue()\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    # scipy.special too: tenths of a second, and numpy.testing/f2py through scipy's array-API layer
    heavy = {"causallearn", "causallearn.utils.cit", "matplotlib", "causallearn.utils.KCI", "spacy", "sklearn", "scipy.stats", "scipy.special", "pandas",
             "pydot", "pyparsing", "causalcheck.lab.cli", "causalcheck.explain.cli", "causalcheck.report.cli", "causalcheck.testing.cli"}
    assert not loaded & heavy, sorted(loaded & heavy)


def test_a_table_too_large_to_lay_out_gives_the_dense_tables_figures(monkeypatch):
    """The sparse χ²/G² path (tables over DENSE_CELLS) agrees with the dense one: statistic, dof, p and Cochran's verdict."""
    from causalcheck.graphchecks import citests

    rng = np.random.default_rng(5)
    codes = citests.category_codes(rng.integers(0, [3, 4, 2, 3], size=(200, 4)).astype(float))
    for given in ([], [2], [2, 3]):
        for g_squared in (False, True):
            dense = citests.contingency_test(codes, 0, 1, given, g_squared=g_squared)
            monkeypatch.setattr(citests, "DENSE_CELLS", 0)
            sparse = citests.contingency_test(codes, 0, 1, given, g_squared=g_squared)
            monkeypatch.undo()
            assert (sparse.dof, sparse.sparse) == (dense.dof, dense.sparse)
            assert sparse.statistic == pytest.approx(dense.statistic, rel=1e-12, abs=1e-12)
            assert sparse.p_value == pytest.approx(dense.p_value, rel=1e-10, abs=1e-12)


def test_chisq_on_continuous_columns_is_undecidable_not_a_crash():
    """χ² asked for on 2 000-valued continuous columns (a 60 GiB table before: exit 70) is undecidable by its degrees of freedom."""
    rng = np.random.default_rng(2)
    tester = CITester(load_data({k: rng.normal(size=300) for k in "abc"}, list("abc")), "chisq")
    assert tester.pvalue(0, 1, [2]) == 1.0 and tester.undecidable(0, 1, []) is not None
