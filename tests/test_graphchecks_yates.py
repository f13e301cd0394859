"""Yates' continuity correction of the χ² and G² tests: off by default (causal-learn, DAGitty), on request pgmpy's values."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks import citests
from causalcheck.graphchecks.citests import CITester
from causalcheck.graphchecks.cli import main_validate
from causalcheck.graphchecks.validator import validate_graph
from causalcheck.graphs.data import load_data

pd = pytest.importorskip("pandas")

ADULT = Path(__file__).parent / "fixtures" / "adult_counts.csv"

#: ``(x, y, given)`` over the columns of :func:`mixed`: 2×2 tables, 2×2 strata, wider ones, strata where x or y
#: is constant, strata where two of d's three levels occur (a 2×2 table inside a 2×3 one), and 2×2 strata beside 3×2 ones.
STATEMENTS = [
    ("a", "b", []),
    ("a", "c", []),
    ("a", "b", ["c"]),
    ("b", "d", ["a"]),
    ("a", "c", ["d", "e"]),
    ("a", "b", ["d", "e"]),
    ("d", "e", ["a", "c"]),
    ("c", "e", []),
    ("a", "d", ["b"]),
    ("f", "a", ["c"]),
]


def mixed(n: int = 600, seed: int = 7) -> dict[str, np.ndarray]:
    """Binary a, b, c (b depends on a), a three-level d (depends on b), a four-level e, and f: two levels where c = 0, three where c = 1."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    b = a ^ (rng.random(n) < 0.3)
    c = rng.integers(0, 2, n)
    d = (b + rng.integers(0, 2, n)) % 3
    e = rng.integers(0, 4, n)
    f = np.where(c == 0, rng.integers(0, 2, n), rng.integers(0, 3, n))
    return {"a": a, "b": b.astype(int), "c": c, "d": d, "e": e, "f": f}


def _ours(data: dict[str, np.ndarray], test: str, continuity: str) -> list[tuple[float, int, float]]:
    names = list(data)
    tester = CITester(load_data(data, names), test, continuity=continuity)
    out = []
    for x, y, given in STATEMENTS:
        cert = tester.certificate(names.index(x), names.index(y), [names.index(v) for v in given])
        out.append((cert.statistic, cert.dof, cert.p_value))
    return out


@pytest.mark.parametrize(("test", "pgmpy_test"), [("chisq", "ChiSquare"), ("gsq", "GSq")])
def test_with_yates_the_figures_equal_pgmpys_ci_test_classes(test, pgmpy_test):
    """continuity='yates': χ² (G²), degrees of freedom and p equal pgmpy's ChiSquare (GSq) on every statement."""
    ci_tests = pytest.importorskip("pgmpy.ci_tests")
    data = mixed()
    theirs = getattr(ci_tests, pgmpy_test)(pd.DataFrame(data))
    for (stat, dof, p), (x, y, given) in zip(_ours(data, test, "yates"), STATEMENTS, strict=True):
        their_stat, their_p = theirs.run_test(x, y, given)
        assert (stat, dof, p) == (pytest.approx(their_stat, rel=1e-10), theirs.dof_, pytest.approx(their_p, rel=1e-9, abs=1e-15)), (x, y, given)


@pytest.mark.filterwarnings("ignore::FutureWarning")  # pgmpy 1.1 marks the function API deprecated
@pytest.mark.parametrize(("test", "function"), [("chisq", "chi_square"), ("gsq", "g_sq")])
def test_with_yates_the_figures_equal_pgmpys_functions_built_on_scipy(test, function):
    """continuity='yates': the same figures as pgmpy's chi_square / g_sq functions, which run scipy's chi2_contingency per stratum."""
    cit = pytest.importorskip("pgmpy.estimators.CITests")
    data = mixed(seed=11)
    frame = pd.DataFrame(data)
    for (stat, dof, p), (x, y, given) in zip(_ours(data, test, "yates"), STATEMENTS, strict=True):
        their_stat, their_p, their_dof = getattr(cit, function)(X=x, Y=y, Z=given, data=frame, boolean=False)
        assert (stat, dof, p) == (pytest.approx(their_stat, rel=1e-10), their_dof, pytest.approx(their_p, rel=1e-6, abs=1e-12)), (x, y, given)


@pytest.mark.parametrize("test", ["chisq", "gsq"])
def test_without_the_option_the_figures_are_causal_learns(test):
    """The default (continuity='none') is causal-learn's Chisq_or_Gsq p-value; Yates lowers every statistic with a 2×2 table in it."""
    from causallearn.utils.cit import CIT

    data = mixed()
    names = list(data)
    theirs = CIT(np.column_stack([data[v] for v in names]).astype(float), method=test)
    default, corrected = _ours(data, test, "none"), _ours(data, test, "yates")
    for (_, _, p), (x, y, given) in zip(default, STATEMENTS, strict=True):
        assert p == pytest.approx(theirs(names.index(x), names.index(y), [names.index(v) for v in given]), rel=1e-9, abs=1e-15)
    two_by_two = [0, 1, 2, 4, 5, 8, 9]  # statements with a 2×2 table or stratum
    assert all(corrected[k][0] < default[k][0] and corrected[k][1] == default[k][1] for k in two_by_two)
    assert [corrected[k] for k in (3, 6, 7)] == [default[k] for k in (3, 6, 7)]


#: χ² and p of :data:`STATEMENTS` on ``mixed()`` as causalcheck computed them before the option existed.
PINNED = [
    (83.58436031163112, 6.105417732881689e-20),
    (0.4317382932582984, 0.511137224674099),
    (84.21927658367152, 5.152481663669267e-19),
    (293.87990556670474, 2.2639915981676406e-62),
    (16.080918645036768, 0.1875578920967636),
    (46.729631008756414, 1.736011840322773e-09),
    (31.867277540300613, 0.13031822378196853),
    (2.0845044312105907, 0.5550539779599033),
    (3.443301659537282, 0.1787707840487717),
    (1.7683125592433115, 0.6218546329232351),
]


def test_the_default_figures_are_unchanged():
    """χ² and p without the option are bit for bit what they were before it existed."""
    assert [(stat, p) for stat, _, p in _ours(mixed(), "chisq", "none")] == PINNED


def adult() -> pd.DataFrame:
    """pgmpy's Adult test data, rebuilt from the counts in ``tests/fixtures/adult_counts.csv``."""
    counts = pd.read_csv(ADULT, comment="#")
    return counts.loc[counts.index.repeat(counts.pop("count"))].reset_index(drop=True)


def _adult_statistic(frame: pd.DataFrame, x: str, y: str, given: list[str], continuity: str) -> tuple[float, int, float]:
    names = list(frame.columns)
    cert = CITester(load_data(frame, names), "chisq", continuity=continuity).certificate(
        names.index(x), names.index(y), [names.index(v) for v in given]
    )
    return cert.statistic, cert.dof, cert.p_value


def test_pgmpys_expected_values_on_the_adult_data():
    """pgmpy's test_CITests.py values: the 2×2-stratified ones are Yates' (continuity='yates'); a 5×2 table has none to correct."""
    frame = adult()
    assert len(frame) == 30162
    strata = ["Age", "Education", "HoursPerWeek", "MaritalStatus"]
    # pgmpy's expectations (as printed there, to its precision), then what pgmpy 1.1.2 computes on these rows
    stat, dof, p = _adult_statistic(frame, "Income", "Race", strata, "yates")
    assert (stat, dof, p) == (pytest.approx(66.39, abs=0.01), 136, pytest.approx(0.99, abs=0.15))
    assert (stat, p) == (pytest.approx(66.39221682061532, rel=1e-10), pytest.approx(0.9999999200984626, rel=1e-10))
    stat, dof, p = _adult_statistic(frame, "Immigrant", "Income", strata, "yates")
    assert (stat, dof, p) == (pytest.approx(65.59, abs=0.01), 131, pytest.approx(0.999, abs=0.015))
    assert (stat, p) == (pytest.approx(65.59502043427642, rel=1e-10), pytest.approx(0.9999996778416518, rel=1e-10))
    stat, dof, p = _adult_statistic(frame, "Income", "Race", strata, "none")
    assert (stat, dof, p) == (pytest.approx(136.2804, abs=5e-5), 136, pytest.approx(0.4771, abs=5e-5))
    for continuity in ("none", "yates"):
        stat, dof, p = _adult_statistic(frame, "Age", "Immigrant", [], continuity)
        assert (stat, dof, float(np.log(p))) == (pytest.approx(57.75, abs=0.01), 4, pytest.approx(-25.47, abs=0.01))  # pgmpy and DAGitty


def test_dagittys_value_of_a_2x2_table_is_the_uncorrected_one():
    """Immigrant × Sex of the Adult data: DAGitty's χ² 0.2724 (pgmpy's test records it) is the default; Yates gives pgmpy's 0.2503."""
    counts = {(0, 0): 8932, (0, 1): 18572, (1, 0): 850, (1, 1): 1808}  # Immigrant no/yes × Sex Female/Male
    rows = np.array([k for k, c in counts.items() for _ in range(c)])
    table = load_data({"Immigrant": rows[:, 0], "Sex": rows[:, 1]}, ["Immigrant", "Sex"])
    plain = CITester(table, "chisq").certificate(0, 1)
    yates = CITester(table, "chisq", continuity="yates").certificate(0, 1)
    assert (plain.statistic, plain.dof) == (pytest.approx(0.2724, abs=1e-4), 1)
    assert (yates.statistic, yates.dof) == (pytest.approx(0.2503, abs=1e-4), 1)


def test_the_sparse_path_gives_the_dense_figures_with_yates(monkeypatch):
    """Tables too large to lay out (over DENSE_CELLS) are corrected the same way, 2×2 strata laid out on their own."""
    data = mixed(n=300, seed=3)
    codes = citests.category_codes(np.column_stack(list(data.values())).astype(float))
    rng = np.random.default_rng(4)
    z = rng.integers(0, 2, 400)  # x has two levels where z = 0 (a 2×2 stratum) and three where z = 1 (a 3×2 one)
    both = citests.category_codes(np.column_stack([np.where(z == 0, rng.integers(0, 2, 400), rng.integers(0, 3, 400)), rng.integers(0, 2, 400), z]).astype(float))
    cases = [(codes, x, y, given) for x, y, given in [(0, 1, []), (0, 1, [2]), (0, 2, [3, 4]), (3, 4, [0, 2]), (1, 3, [0]), (0, 3, [1]), (0, 1, [3, 4])]]
    for table, x, y, given in [*cases, (both, 0, 1, [2])]:
        for g_squared in (False, True):
            dense = citests.contingency_test(table, x, y, given, g_squared=g_squared, yates=True)
            monkeypatch.setattr(citests, "DENSE_CELLS", 0)
            sparse = citests.contingency_test(table, x, y, given, g_squared=g_squared, yates=True)
            monkeypatch.undo()
            assert (sparse.dof, sparse.sparse) == (dense.dof, dense.sparse)
            assert sparse.statistic == pytest.approx(dense.statistic, rel=1e-12, abs=1e-12)
            assert sparse.p_value == pytest.approx(dense.p_value, rel=1e-10, abs=1e-12)
    assert citests.contingency_test(both, 0, 1, [2], g_squared=False, yates=True).dof == 1 + 2


def test_a_continuity_correction_needs_a_contingency_table_and_a_known_name():
    """An unknown continuity, or Yates on a test without a contingency table, raises naming the value and the test."""
    table = load_data(mixed(), list("abcdef"))
    with pytest.raises(InputFormatError, match=r"continuity='williams' must be one of \['none', 'yates'\]"):
        CITester(table, "chisq", continuity="williams")
    with pytest.raises(InputFormatError, match=r"continuity='yates' corrects the chisq and gsq tests; ci_test='fisherz' runs fisherz"):
        CITester(table, "fisherz", continuity="yates")
    with pytest.raises(InputFormatError, match=r"continuity='Yates' must be one of"):
        validate_graph("a -> b", continuity="Yates")


def test_validate_graph_and_the_command_line_take_the_option(tmp_path, capsys):
    """validate_graph(continuity='yates') and `check GRAPH --continuity yates` report pgmpy's p-values and the setting."""
    ci_tests = pytest.importorskip("pgmpy.ci_tests")
    data = mixed()
    csv = tmp_path / "d.csv"
    pd.DataFrame(data).to_csv(csv, index=False)
    graph = tmp_path / "g.txt"
    graph.write_text("a -> b -> d; c -> f; e\n", encoding="utf-8")
    r = validate_graph(graph, data=csv, ci_test="chisq", continuity="yates", permutations=0)
    assert r.settings["continuity"] == "yates"
    theirs = ci_tests.ChiSquare(pd.DataFrame(data))
    for res in r.independence.results:
        s = res.statement
        assert res.test.p_value == pytest.approx(theirs.run_test(s.x, s.y, list(s.given))[1], rel=1e-9, abs=1e-15), str(s)
    assert validate_graph(graph, data=csv, ci_test="chisq", permutations=0).settings["continuity"] == "none"
    assert main_validate([str(graph), "--data", str(csv), "--continuity", "yates", "--permutations", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["settings"]["continuity"] == "yates" and out["settings"]["ci_test"] == "chisq"
    p = {r["statement"]["text"]: r["p_value"] for r in out["independence"]["results"]}
    assert p == {str(res.statement): pytest.approx(res.test.p_value, rel=1e-12) for res in r.independence.results}


def test_the_command_line_refuses_yates_on_continuous_data(tmp_path, capsys):
    """`--continuity yates` where 'auto' picks Fisher-z exits 2, naming the option and the test chosen."""
    rng = np.random.default_rng(0)
    csv = tmp_path / "d.csv"
    pd.DataFrame({"a": rng.normal(size=200), "b": rng.normal(size=200)}).to_csv(csv, index=False)
    graph = tmp_path / "g.txt"
    graph.write_text("a; b\n", encoding="utf-8")
    assert main_validate([str(graph), "--data", str(csv), "--continuity", "yates"]) == 2
    assert "continuity='yates' corrects the chisq and gsq tests; ci_test='auto' runs fisherz" in capsys.readouterr().err


def test_the_option_is_in_the_command_line_help(capsys):
    """`causalcheck check --help` names --continuity with its two conventions."""
    with pytest.raises(SystemExit):
        main_validate(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--continuity {none,yates}" in text and "Yates" in text and "pgmpy" in text
