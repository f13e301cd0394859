"""The peers' own conditional-independence test values, ported: each case is data, a statement and what a peer's tests expect.

Sources (values only):

* pgmpy (pgmpy/pgmpy at 94105f1, MIT): ``pgmpy/tests/test_estimators/test_CITests.py`` —
  ``TestDiscreteTests`` on its Adult data (``testdata/adult.csv``, kept as counts in
  ``tests/fixtures/peers/pgmpy_adult_counts.csv``): χ², log p and degrees of freedom
  (``test_chisquare_adult_dataset``, several "taken from dagitty"), the verdicts at 0.05 of χ² and
  G² (``test_discrete_tests``), two copies of one binary variable (``test_exactly_same_vars``),
  and the verdicts of ``TestPearsonr.test_pearsonr`` on data built the same way (Fisher-z here).
* causal-learn (py-why/causal-learn at e30895b, MIT): ``tests/TestCIT.py``
  (``test_fisherz_singularity_problem``: two copies of one Gaussian variable).

Convention: pgmpy's χ² and G² apply Yates' continuity correction to every 2×2 (sub)table (scipy's
default); causalcheck's default does not, and ``continuity="yates"`` reproduces pgmpy — used for
every pgmpy case here.  A table larger than 2×2 has nothing to correct, so both settings agree there.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from causalcheck.graphchecks.citests import CITester
from causalcheck.graphs import load_data

ADULT = Path(__file__).parent / "fixtures" / "peers" / "pgmpy_adult_counts.csv"
_FRAME: list[pd.DataFrame] = []


def adult() -> pd.DataFrame:
    """pgmpy's Adult rows, rebuilt from the counts."""
    if not _FRAME:
        counts = pd.read_csv(ADULT, comment="#")
        _FRAME.append(counts.loc[counts.index.repeat(counts.pop("count"))].reset_index(drop=True))
    return _FRAME[0]


def _tester(frame: pd.DataFrame, test: str, continuity: str = "none") -> CITester:
    return CITester(load_data(frame, list(frame.columns)), test, continuity=continuity)


def _certificate(test: str, x: str, y: str, given: list[str], continuity: str = "yates"):
    frame = adult()
    names = list(frame.columns)
    return _tester(frame, test, continuity).certificate(names.index(x), names.index(y), [names.index(v) for v in given])


# test_chisquare_adult_dataset: (X, Y, Z, χ², log p or p, which of the two, dof); pgmpy compares with decimal=1
# (|Δ| < 0.15), the last p with decimal=2 (|Δ| < 0.015)
ADULT_CHI_SQUARE = [
    ("Age", "Immigrant", [], 57.75, -25.47, "log_p", 4),
    ("Age", "Race", [], 56.25, -24.75, "log_p", 4),
    ("Age", "Sex", [], 289.62, -139.82, "log_p", 4),
    ("Education", "HoursPerWeek", ["Age", "Immigrant", "Race", "Sex"], 1460.11, 0.0, "p", 316),
    ("Immigrant", "Sex", [], 0.2724, -0.50, "log_p", 1),
    ("Education", "MaritalStatus", ["Age", "Sex"], 481.96, 0.0, "p", 58),
    ("Income", "Race", ["Age", "Education", "HoursPerWeek", "MaritalStatus"], 66.39, 0.99, "p", 136),
    ("Immigrant", "Income", ["Age", "Education", "HoursPerWeek", "MaritalStatus"], 65.59, 0.999, "p", 131),
]


def _adult_id(case) -> str:
    x, y, z = case[0], case[1], case[2]
    return f"{x}-{y}|{','.join(z) or '-'}"


@pytest.mark.parametrize(("x", "y", "given", "statistic", "p", "scale", "dof"), ADULT_CHI_SQUARE, ids=[_adult_id(c) for c in ADULT_CHI_SQUARE])
def test_pgmpy_chi_square_adult(x, y, given, statistic, p, scale, dof):
    """test_chisquare_adult_dataset: pgmpy's χ², p (or log p) and degrees of freedom, with Yates as pgmpy applies it."""
    cert = _certificate("chisq", x, y, given)
    assert cert.dof == dof
    assert cert.statistic == pytest.approx(statistic, abs=0.15)
    got = np.log(cert.p_value) if scale == "log_p" else cert.p_value
    assert got == pytest.approx(p, abs=0.015 if p == 0.999 else 0.15)


# test_discrete_tests: (X, Y, Z, independent at 0.05?) for chi_square and g_sq alike
ADULT_VERDICTS = [
    ("Age", "Immigrant", [], False),
    ("Age", "Race", [], False),
    ("Age", "Sex", [], False),
    ("Education", "HoursPerWeek", ["Age", "Immigrant", "Race", "Sex"], False),
    ("Immigrant", "Sex", [], True),
    ("Education", "MaritalStatus", ["Age", "Sex"], False),
]


@pytest.mark.parametrize("test", ["chisq", "gsq"])
@pytest.mark.parametrize(("x", "y", "given", "independent"), ADULT_VERDICTS, ids=[_adult_id(c) for c in ADULT_VERDICTS])
def test_pgmpy_discrete_verdicts_adult(test, x, y, given, independent):
    """test_discrete_tests: pgmpy's verdict at significance 0.05 (p >= 0.05 is 'independent') for χ² and G²."""
    assert (_certificate(test, x, y, given).p_value >= 0.05) is independent


@pytest.mark.parametrize("continuity", ["none", "yates"])
@pytest.mark.parametrize("test", ["chisq", "gsq"])
def test_pgmpy_exactly_same_vars(test, continuity):
    """test_exactly_same_vars: y a copy of a binary x over 1 000 rows — dof 1, p ≈ 0 (to 5 decimals)."""
    x = np.random.default_rng(42).choice([0, 1], size=1000)
    frame = pd.DataFrame({"x": x, "y": x.copy()})
    cert = _tester(frame, test, continuity).certificate(0, 1)
    assert cert.dof == 1
    assert cert.p_value == pytest.approx(0, abs=1e-5)


def _pearsonr_frames() -> dict[str, tuple[pd.DataFrame, list[str], bool]]:
    """TestPearsonr.setUp's four data sets (same recipe, seeded here): frame, conditioning set, independent?"""
    rng = np.random.default_rng(42)
    n = 10000
    ind = pd.DataFrame(rng.standard_normal((n, 3)), columns=["X", "Y", "Z"])
    z = rng.standard_normal(n)
    cind = pd.DataFrame({"X": 3 * z + rng.normal(0, 0.1, n), "Y": 2 * z + rng.normal(0, 0.1, n), "Z": z})
    z1, z2 = rng.standard_normal(n), rng.standard_normal(n)
    cind_mul = pd.DataFrame({"X": 3 * z1 + 2 * z2 + rng.normal(0, 0.1, n), "Y": 2 * z1 + 3 * z2 + rng.normal(0, 0.1, n), "Z1": z1, "Z2": z2})
    x, y = rng.random(n), rng.random(n)
    vstruct = pd.DataFrame({"X": x, "Y": y, "Z": 2 * x + 2 * y + rng.normal(0, 0.1, n)})
    return {
        "df_ind": (ind, [], True),
        "df_cind": (cind, ["Z"], True),
        "df_cind_mul": (cind_mul, ["Z1", "Z2"], True),
        "df_vstruct": (vstruct, ["Z"], False),
    }


@pytest.mark.parametrize("name", ["df_ind", "df_cind", "df_cind_mul", "df_vstruct"])
def test_pgmpy_pearsonr_verdicts(name):
    """test_CITests.py TestPearsonr.test_pearsonr: X ⫫ Y | Z holds on three data sets and fails on the v-structure (Fisher-z, 0.05)."""
    frame, given, independent = _pearsonr_frames()[name]
    names = list(frame.columns)
    p = _tester(frame, "fisherz").pvalue(names.index("X"), names.index("Y"), [names.index(v) for v in given])
    assert (p > 0.05) is independent


def test_causallearn_fisherz_on_two_copies_of_one_variable():
    """TestCIT.py test_fisherz_singularity_problem: causal-learn raises on X1 = X2; here the test is undecidable, with the collinear columns named."""
    x = np.random.default_rng(0).normal(size=1000)
    tester = _tester(pd.DataFrame({"X1": x, "X2": x.copy()}), "fisherz")
    assert tester.collinear == ("X1", "X2")
    assert tester.undecidable(0, 1) is not None
