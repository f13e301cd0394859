"""The validator's defaults on real-world data (issue 20): the test ``auto`` picks, categorical data, little data,
collinear columns, graphs that are not valid CPDAGs/PAGs."""

from __future__ import annotations

import json

import numpy as np
import pytest
from _graphs import random_dag, simulate, simulate_varied
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.citests import CITester, choose_test
from causalcheck.graphchecks.kinds import check_dag
from causalcheck.graphchecks.separation import skeleton_dag
from causalcheck.graphs import Graph, validate_graph
from causalcheck.graphs.data import load_data
from causalcheck.graphs.formats import parse_text

pd = pytest.importorskip("pandas")


def _errors(result) -> list[str]:
    return [f.code for f in result.findings if f.severity == "error"]


def _markov_chain(n: int, rng: np.random.Generator, labels=("lo", "mid", "hi")) -> dict[str, np.ndarray]:
    """a -> b -> c over three labels: each child copies its parent's label with probability 0.6, else draws one."""
    lab = np.array(labels)
    a = rng.integers(0, 3, n)
    b = np.where(rng.random(n) < 0.6, a, rng.integers(0, 3, n))
    c = np.where(rng.random(n) < 0.6, b, rng.integers(0, 3, n))
    return {"a": lab[a], "b": lab[b], "c": lab[c]}


CHAIN = parse_text("a -> b -> c")


# --------------------------------------------------------------------------- 1: integer-valued continuous data


def test_integer_valued_continuous_data_is_tested_with_fisherz():
    """Rounded continuous data (60-160 distinct integers per column): auto picks Fisher-z, says why, and the true DAG
    keeps ok — on main it picked χ² and rejected 30 true independencies."""
    rng = np.random.default_rng(0)
    g = random_dag(8, 2 / 7, rng)
    df = (pd.DataFrame(simulate_varied(g, 1000, rng)) * 10).round().astype(int)
    assert all(30 <= df[c].nunique() <= 200 for c in df)
    r = validate_graph(g, data=df)
    assert r.settings["ci_test"] == "fisherz" and "integer" in r.settings["ci_test_reason"]
    (chosen,) = r.report.having("ci-test-chosen")
    assert "chose fisherz" in chosen.message and "read as numbers" in chosen.message
    assert not r.report.having("ci-violated") and r.ok


def test_auto_picks_chisq_for_few_levels_and_fisherz_when_the_tables_are_too_big_for_the_rows():
    """Integers with few levels and enough rows: χ²; the same levels with too few rows for the table: Fisher-z."""
    rng = np.random.default_rng(1)
    few = {k: rng.integers(0, 4, 400) for k in "abc"}
    assert choose_test("auto", load_data(few, list("abc"))).test == "chisq"
    assert choose_test("auto", load_data({k: v[:40] for k, v in few.items()}, list("abc"))).test == "fisherz"
    assert choose_test("gsq", load_data(few, list("abc"))).reason == "asked for"


# --------------------------------------------------------------------------- 2: categorical data as pandas gives it


@pytest.mark.parametrize("form", ["str", "category", "numeric-str", "bool"])
def test_categorical_frames_are_tested_with_a_discrete_test(form):
    """Text, category, numeric-text and bool columns are read (on main: 'encode categories as numbers')."""
    rng = np.random.default_rng(3)
    if form == "bool":
        a = rng.random(1500) < 0.5
        b = np.where(rng.random(1500) < 0.7, a, ~a)
        c = np.where(rng.random(1500) < 0.7, b, ~b)
        df = pd.DataFrame({"a": a, "b": b, "c": c})
    else:
        labels = ("0", "1", "2") if form == "numeric-str" else ("lo", "mid", "hi")
        df = pd.DataFrame(_markov_chain(1500, rng, labels))
        if form == "category":
            df = df.astype("category")
    r = validate_graph(CHAIN, data=df)
    assert r.settings["ci_test"] == "chisq" and r.ok and not r.report.having("ci-violated")
    assert r.independence is not None and len(r.independence.results) == 1
    wrong = validate_graph("a -> b; c -> b", data=df)
    assert wrong.report.having("ci-violated") and not wrong.ok
    if form != "numeric-str":
        assert r.report.having("data-encoded")


def test_a_csv_written_by_pandas_with_its_index_reads_like_the_frame(tmp_path):
    """pandas' to_csv writes an unnamed index column first: ignored (and said); text cells are categories."""
    df = pd.DataFrame(_markov_chain(800, np.random.default_rng(4)))
    path = tmp_path / "chain.csv"
    df.to_csv(path)
    from_csv, from_frame = validate_graph(CHAIN, data=path), validate_graph(CHAIN, data=df)
    assert [r.test.p_value for r in from_csv.independence.results] == [r.test.p_value for r in from_frame.independence.results]
    notes = [f.message for f in from_csv.report.having("data-encoded")]
    assert any("no name (an index written by pandas)" in m for m in notes)
    assert any("a (3 levels)" in m for m in notes)


def test_mixed_data_is_refused_with_the_choices():
    """A three-level category next to real-valued columns: auto refuses and names the columns and the ways out."""
    rng = np.random.default_rng(5)
    data = {"a": np.array(["x", "y", "z"])[rng.integers(0, 3, 300)], "b": rng.normal(size=300), "c": rng.normal(size=300)}
    with pytest.raises(InputFormatError, match=r"mixed data: categorical column\(s\) a \(3 levels\) next to numeric column\(s\) b, c; pass ci_test='kci'"):
        validate_graph(CHAIN, data=data)
    assert validate_graph(CHAIN, data=data, ci_test="fisherz").settings["ci_test"] == "fisherz"



def test_a_damaged_number_in_a_csv_is_named_with_its_line_and_value(tmp_path):
    """One cell of a numeric CSV column damaged (found by the CI fuzz sample): the column reads as 40 categories, and
    the refusal names the file, the line and the cell instead of only calling the data mixed."""
    rng = np.random.default_rng(0)
    a = rng.normal(size=40)
    b = a + rng.normal(size=40)
    rows = ["a,b,c", *(f"{x:.4f},{y:.4f},{y + z:.4f}" for x, y, z in zip(a, b, rng.normal(size=40), strict=True))]
    rows.insert(2, "")  # a blank line: the line numbers are the file's, not the rows'
    rows[3] = "\x01" + rows[3][1:]
    path = tmp_path / "data.csv"
    path.write_text("\n".join(rows) + "\n")
    cell = rows[3].split(",")[0]
    with pytest.raises(InputFormatError) as caught:
        validate_graph(CHAIN, data=str(path))
    message = str(caught.value)
    assert message.startswith(f"{path}: mixed data: categorical column(s) a (40 levels)")
    assert f"a: 39 of 40 cells are numbers; {path}:4 holds {cell!r}" in message
    table = load_data(str(path), ["a", "b", "c"])
    assert table.suspects == (("a", f"39 of 40 cells are numbers; {path}:4 holds {cell!r}"),)
    assert any("column 'a' read as categories although 39 of 40" in n for n in table.notes)
    labels = tmp_path / "labels.csv"
    labels.write_text("a,b\n" + "".join(f"{x},{y}\n" for x, y in zip(["lo", "hi", "1"] * 5, range(15), strict=True)))
    assert load_data(str(labels), ["a", "b"]).suspects == ()  # mostly labels: a category, not damage


# --------------------------------------------------------------------------- 3: little data


def test_five_rows_give_warnings_not_a_refutation():
    """n = 5 on the true 8-node DAG: main reported graph-falsified (an error); now the data cannot decide, said as warnings."""
    rng = np.random.default_rng(0)
    g = random_dag(8, 2 / 7, rng)
    r = validate_graph(g, data=simulate_varied(g, 5, np.random.default_rng(0)))
    assert not _errors(r) and r.ok
    assert {"ci-undecidable", "falsification-undecidable"} <= set(r.codes())
    (undecided,) = r.report.having("ci-undecidable")
    assert "cannot decide" in undecided.message and "degrees of freedom" in undecided.message
    assert all(x.undecidable and not x.rejected for x in r.independence.results)
    assert "undecidable" in json.dumps(r.to_dict())


def test_a_sparse_contingency_table_is_undecidable():
    """χ² with fewer than 10 rows per degree of freedom (pcalg's rule) or cells expected below 1 (Cochran) decides nothing."""
    rng = np.random.default_rng(6)
    data = {k: rng.integers(0, 6, 300) for k in "abc"}
    tester = CITester(load_data(data, list("abc")), "chisq")
    assert tester.undecidable(0, 1) is None
    reason = tester.undecidable(0, 2, [1])
    assert reason is not None and "per degree of freedom" in reason and tester.pvalue(0, 2, [1]) == 1.0
    rare = rng.integers(0, 3, 400)
    rare[:2] = 3  # a level seen twice: its cells expect 2/3 of a row each
    sparse = CITester(load_data({"a": rare, "b": rng.integers(0, 3, 400)}, ["a", "b"]), "chisq")
    why = sparse.undecidable(0, 1)
    assert why is not None and why.startswith("sparse table: 3 cell(s) expected below 1") and "Cochran" in why


def test_a_correct_chain_on_good_data_stays_ok():
    """Warnings never make a correct graph not ok (fixed on main already; kept)."""
    chain = parse_text("a -> b -> c -> d")
    r = validate_graph(chain, data=simulate(chain, 500, np.random.default_rng(1)))
    assert r.ok and not _errors(r)


# --------------------------------------------------------------------------- 4: collinear columns


def test_collinear_columns_are_a_finding_not_an_exception():
    """c = 2·b: the check completes, names the columns, and the statements needing both are undecidable."""
    rng = np.random.default_rng(0)
    a = rng.normal(size=500)
    b = a + rng.normal(size=500)
    for graph in ("a -> b -> c", "a -> b; a -> c", "b -> a -> c"):
        r = validate_graph(graph, data={"a": a, "b": b, "c": 2 * b})
        (collinear,) = r.report.having("data-collinear")
        assert collinear.elements == ("b", "c") and r.independence is not None
    r = validate_graph("b -> a -> c", data={"a": a, "b": b, "c": 2 * b})
    (stmt,) = r.independence.results
    assert stmt.undecidable is not None and "collinear" in stmt.undecidable and not stmt.rejected


# --------------------------------------------------------------------------- 7: not a valid CPDAG / PAG


def test_skeleton_dag_keeps_orientations_that_close_no_cycle():
    """The surrogate is a DAG on the same skeleton; an orientation closing a cycle is dropped and returned."""
    g = parse_text("a -> b; b -> c; c -> a; c -- d")
    dag, dropped = skeleton_dag(g)
    assert check_dag(dag) and dag.skeleton == g.skeleton
    assert [str(e) for e in dropped] == ["c -> a"] and {"a -> b", "b -> c"} <= {str(e) for e in dag.edges}


def test_a_cpdag_without_extension_is_tested_on_a_surrogate():
    """A PC-style output with no consistent extension: main skipped every data test; now its skeleton DAG is tested, said."""
    truth = parse_text("a -> b; b -> c; c -> d; a -> d")
    data = simulate_varied(truth, 500, np.random.default_rng(0))
    r = validate_graph("a -- b; b -- c; c -- d; d -- a", data=data)
    (note,) = r.report.having("implications-surrogate")
    assert "no consistent extension" in note.message and "tested on a DAG with its skeleton" in note.message
    assert r.independence is not None and r.independence.results
    assert r.report.having("graph-invalid")  # the graph is still reported invalid
    assert all(f.severity == "warning" for f in r.report.having("ci-violated"))
    bad = validate_graph("a -> b; b -> c; c -> a; c -- d", data={**data, "d": data["d"]})
    assert bad.independence is not None and bad.report.having("implications-surrogate")


def test_explicit_fisherz_on_continuous_data_is_unchanged_by_the_defaults():
    """The validator with ci_test='fisherz' reports the CI tests' own p-values and Holm on all of them."""
    g = Graph.from_directed([("x", "y"), ("y", "z"), ("x", "w")])
    r = validate_graph(g, data=simulate(g, 400, np.random.default_rng(9)), ci_test="fisherz")
    assert "ci-test-chosen" not in r.codes() and "ci_test_reason" not in r.settings
    assert all(x.undecidable is None for x in r.independence.results)
