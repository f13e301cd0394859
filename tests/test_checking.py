"""Solver checks and the check API: cycles, contradictions, equations, data, trajectories."""

from __future__ import annotations

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.checking import check, check_hypothesis, check_record, check_trajectory
from causalcheck.findings import DataConflict, Undetermined
from causalcheck.graph import CausalGraph, Edge
from causalcheck.graphchecks.named import NAMED_GRAPHS
from causalcheck.parsing import parse_hypothesis, parse_record_obj
from causalcheck.records import DataPoint, Hypothesis
from causalcheck.solvers.acyclicity import find_cycle_core, find_cycle_cores, is_acyclic
from causalcheck.solvers.contradictions import direction_contradictions
from causalcheck.solvers.data_consistency import data_consistency
from causalcheck.solvers.equations import equation_consistency

CHAIN, FORK, COLLIDER, DIAMOND = (NAMED_GRAPHS[n] for n in ("chain", "fork", "collider", "diamond"))


def _pts(rows):
    return [DataPoint(f"{i}/n", {k: float(v) for k, v in props.items()}, float(f)) for i, (props, f) in enumerate(rows)]


# ----------------------------------------------------------------------- acyclicity
@pytest.mark.parametrize("graph", [CHAIN, FORK, COLLIDER, DIAMOND, CausalGraph()], ids=["chain", "fork", "collider", "diamond", "empty"])
def test_dags_have_no_core(graph):
    """Chains, forks, colliders and diamonds are acyclic for both methods."""
    assert is_acyclic(graph)
    assert find_cycle_core(graph) is None
    assert find_cycle_core(graph, method="networkx") is None


def test_core_is_exactly_one_cycle():
    """With a cycle plus distracting edges, the core is the cycle's edges in order."""
    g = CausalGraph.from_pairs([("X", "A"), ("A", "B"), ("B", "C"), ("C", "A"), ("C", "D"), ("D", "E"), ("X", "E")])
    core = find_cycle_core(g)
    assert core == (Edge("A", "B"), Edge("B", "C"), Edge("C", "A"))


def test_core_picks_one_of_overlapping_cycles():
    """Two overlapping cycles: the core is one simple cycle, minimal by construction."""
    g = CausalGraph.from_pairs([("A", "B"), ("B", "A"), ("B", "C"), ("C", "A")])
    core = find_cycle_core(g)
    assert core is not None
    assert set(core) in ({Edge("A", "B"), Edge("B", "A")}, {Edge("A", "B"), Edge("B", "C"), Edge("C", "A")})
    for e in core:
        assert is_acyclic(CausalGraph((), tuple(x for x in core if x != e)))


def test_self_loop_is_a_cycle_of_one_edge():
    """A -> A is reported as a one-edge cycle."""
    assert find_cycle_core(CausalGraph.from_pairs([("A", "A"), ("A", "B")])) == (Edge("A", "A"),)


def test_disjoint_cycles_are_all_found():
    """find_cycle_cores reports each edge-disjoint cycle once."""
    g = CausalGraph.from_pairs([("A", "B"), ("B", "A"), ("C", "D"), ("D", "E"), ("E", "C")])
    cores = find_cycle_cores(g)
    assert sorted(len(c) for c in cores) == [2, 3]


def test_cores_do_not_depend_on_earlier_queries():
    """The z3 state reused across calls never changes the answer for a graph (fresh solver per query)."""
    import random

    rnd = random.Random(7)
    graphs = []
    for _ in range(100):
        n = rnd.randint(3, 20)
        graphs.append(CausalGraph.from_pairs([(f"N{rnd.randrange(n)}", f"N{rnd.randrange(n)}") for _ in range(3 * n)]))
    first = [find_cycle_cores(g, limit=20) for g in graphs]
    again = [find_cycle_cores(g, limit=20) for g in reversed(graphs)][::-1]
    assert first == again
    few = graphs[:20]
    assert [find_cycle_core(g, minimize="deletion") for g in few] == [
        find_cycle_core(g, minimize="deletion") for g in reversed(few)
    ][::-1]


def test_cores_in_another_thread():
    """Each thread gets its own z3 context; results agree with the main thread's."""
    import threading

    g = CausalGraph.from_pairs([("A", "B"), ("B", "C"), ("C", "A"), ("C", "D"), ("D", "D")])
    out: list[object] = []
    t = threading.Thread(target=lambda: out.append(find_cycle_cores(g)))
    t.start()
    t.join()
    assert out == [find_cycle_cores(g)]
    assert sorted(len(c) for c in out[0]) == [1, 3]  # type: ignore[union-attr]


# ----------------------------------------------------------------------- contradictions
def test_direction_contradiction_within_hypothesis():
    """A -> B with B -> A is one contradiction naming both edges."""
    (d,) = direction_contradictions(CausalGraph.from_pairs([("A", "B"), ("B", "A")]))
    assert d.code == "direction-contradiction" and set(d.elements) == {"A -> B", "B -> A"}


def test_contradiction_against_reference_uses_aliases():
    """An edge reversing a reference edge is reported; frequency aliases are normalised."""
    g = CausalGraph.from_pairs([("resonanceFreq", "density"), ("moisture", "resonanceFreq")])
    (d,) = direction_contradictions(g, reference=[("density", "freq"), ("moisture", "frequency")])
    assert d.code == "contradicts-reference" and d.elements == ("resonanceFreq -> density",)


# ----------------------------------------------------------------------- equations
def _h(text: str) -> Hypothesis:
    return parse_hypothesis(text)


def test_consistent_equation_has_no_findings():
    """Equation variables equal to the parents and determined coefficients: nothing to report."""
    h = _h("A -> resonanceFreq\nB -> resonanceFreq\nfreq = base + c_A*A + c_B*B\nbase = 0\nc_A = 1\nc_B = 2")
    assert equation_consistency(h) == ()


def test_non_parent_in_equation_is_named():
    """A variable without an edge into the target is reported with its name."""
    h = _h("A -> resonanceFreq\nB -> A\nfreq = base + c_A*A + c_B*B\nbase = 1\nc_A = 1\nc_B = 1")
    (d,) = equation_consistency(h)
    assert d.code == "non-parent-in-equation" and d.elements == ("B",)


def test_parent_missing_from_equation():
    """A parent edge whose variable is not in the equation is reported."""
    h = _h("A -> resonanceFreq\nB -> resonanceFreq\nfreq = base + c_A*A\nbase = 1\nc_A = 1")
    (d,) = equation_consistency(h)
    assert d.code == "parent-missing-from-equation" and d.elements == ("B -> resonanceFreq",)


@pytest.mark.parametrize(
    "coeffs,reason",
    [("c_A = null", "null"), ("c_A = 0", "zero"), ("", "missing")],
)
def test_undetermined_coefficients(coeffs, reason):
    """Missing, null and zero coefficients are undetermined (base may be 0)."""
    h = _h(f"A -> resonanceFreq\nfreq = base + c_A*A\nbase = 0\n{coeffs}")
    (d,) = equation_consistency(h)
    assert d.code == "undetermined-coefficient" and d.certificate == Undetermined(reason) and d.severity == "warning"


def test_equation_syntax_and_other_findings():
    """Unparseable, self-referencing and wrong-target equations are each reported."""
    bad = Hypothesis(CausalGraph.from_pairs([("A", "resonanceFreq")]), "freq = base + * A", {})
    assert [d.code for d in equation_consistency(bad)] == ["equation-syntax"]
    selfref = _h("A -> resonanceFreq\nfreq = c_A*A + c_F*freq\nc_A = 1\nc_F = 1")
    assert "self-reference" in [d.code for d in equation_consistency(selfref)]
    other = Hypothesis(CausalGraph.from_pairs([("A", "resonanceFreq")]), "B = c_A*A", {"c_A": 1.0})
    assert "equation-target" in [d.code for d in equation_consistency(other)]
    unused = _h("A -> resonanceFreq\nfreq = c_A*A\nc_A = 1\nc_B = 3")
    assert [d.code for d in equation_consistency(unused)] == ["unused-coefficient"]


# ----------------------------------------------------------------------- data
def test_fixed_coefficients_name_the_missed_points():
    """Stated coefficients that miss points name them, with the smallest accepting tolerance."""
    h = _h("A -> resonanceFreq\nfreq = base + c_A*A\nbase = 10\nc_A = 2")
    pts = _pts([({"A": 1}, 12.004), ({"A": 2}, 19)])
    (d,) = data_consistency(h, pts, 0.01)
    assert d.code == "data-mismatch" and d.elements == ("1/n",)
    assert isinstance(d.certificate, DataConflict) and d.certificate.min_tolerance == pytest.approx(5.0)
    assert "other coefficients fit all points" in d.message
    assert data_consistency(h, pts, 5.0) == ()


def test_free_coefficients_unsat_core_is_minimal():
    """With a null coefficient the conflicting points form a minimal core; smallest tolerance is the minimax fit."""
    h = _h("A -> resonanceFreq\nfreq = base + c_A*A\nbase = 0\nc_A = null")
    pts = _pts([({"A": 1}, 2), ({"A": 2}, 4), ({"A": 3}, 7), ({"A": 0}, 0)])
    codes = {d.code: d for d in data_consistency(h, pts, 0.01)}
    d = codes["data-mismatch"]
    assert len(d.elements) == 2 and "2/n" in d.elements
    # y = c*A through (1,2),(2,4),(3,7): max(|c-2|, |2c-4|, |3c-7|) is smallest, 0.4, at c = 2.2
    assert isinstance(d.certificate, DataConflict) and d.certificate.min_tolerance == pytest.approx(0.4)


def test_wrong_form_is_refuted():
    """Data that no coefficients fit refute the form of the equation, with a minimal core."""
    h = _h("A -> resonanceFreq\nfreq = base + c_A*A\nbase = 0\nc_A = 1")
    pts = _pts([({"A": 0, "B": 0}, 0), ({"A": 1, "B": 0}, 1), ({"A": 0, "B": 1}, 3)])
    by_code = {d.code: d for d in data_consistency(h, pts, 0.01)}
    assert set(by_code) == {"data-mismatch", "equation-refuted"}
    refuted = by_code["equation-refuted"]
    assert set(refuted.elements) == {"0/n", "2/n"}


def test_points_without_values_are_skipped():
    """Points lacking the frequency or a variable are skipped with an info diagnostic."""
    h = _h("A -> resonanceFreq\nfreq = base + c_A*A\nbase = 0\nc_A = 1")
    pts = [DataPoint("x", {"A": 1.0}, None), DataPoint("y", {"B": 1.0}, 3.0), DataPoint("z", {"A": 2.0}, 2.0)]
    (d,) = data_consistency(h, pts)
    assert d.code == "data-skipped" and d.severity == "info" and d.elements == ("x", "y")


def test_nonlinear_in_coefficients_with_free_values_is_not_checked():
    """An equation nonlinear in an undetermined coefficient is left unchecked (info)."""
    h = _h("A -> resonanceFreq\nfreq = c_A^2*A\nc_A = null")
    (d,) = data_consistency(h, _pts([({"A": 1}, 4)]))
    assert d.code == "data-not-checked"


def test_negative_tolerance_is_bad_input():
    """A negative tolerance raises InputFormatError naming the value."""
    with pytest.raises(InputFormatError, match="-1"):
        check_hypothesis(Hypothesis(), tolerance=-1)


# ----------------------------------------------------------------------- check API
def test_check_hypothesis_collects_every_solver():
    """One report gathers cycle, contradiction, reference, unknown-node and equation findings."""
    h = _h("A -> B\nB -> A\nB -> resonanceFreq\nfreq = base + c_B*B + c_C*C\nbase = 1\nc_B = 1\nc_C = 1")
    report = check_hypothesis(h, reference=[("resonanceFreq", "B")], nodes=["A", "B"])
    assert set(report.codes()) == {"cycle", "direction-contradiction", "contradicts-reference", "unknown-node", "non-parent-in-equation"}
    assert not report.ok


def test_unknown_node_suggests_case_fix():
    """A mis-cased node name is reported with the known spelling."""
    rec = parse_record_obj(
        {
            "past_data": [{"id": "0", "props": {"ph": 1, "pressure": 2}, "freq": 3}],
            "hypothesis": {"edges": [{"from": "pH", "to": "resonanceFreq"}], "freq_equation": "", "coefficients": {}},
        }
    )
    report = check_record(rec)
    (d,) = [d for d in report.findings if d.code == "unknown-node"]
    assert "did you mean 'ph'" in d.message


def test_check_dispatches_on_input_kind(tmp_path):
    """check() accepts hypotheses, text, records, paths and record lists."""
    h = _h("A -> resonanceFreq\nfreq = base + c_A*A\nbase = 1\nc_A = 1")
    assert check(h).ok
    assert check("A -> B\nB -> A").codes()[0] == "cycle"
    path = tmp_path / "h.txt"
    path.write_text("A -> B\n")
    assert check(path).ok and check(str(path)).ok
    rec = parse_record_obj({"hypothesis": h.to_json(), "past_data": []})
    assert check(rec).ok
    both = check([rec, rec])
    assert both.kind == "trajectory" and len(both.parts) == 2
    with pytest.raises(InputFormatError, match="does not exist"):
        check("no/such/file.json")
    with pytest.raises(InputFormatError, match="must be a path"):
        check(3.5)


def test_sample_run_flags_step_five(sample_run):
    """On the official run: 14 reports; steps 1-4 have empty hypotheses; data stop agreeing at step 5."""
    reports = check(sample_run).parts
    assert len(reports) == 14
    assert all(r.ok and r.meta["hypothesis"] == "" for r in reports[:4])
    step5 = reports[4]
    assert step5.meta["step"] == 5 and step5.meta["data_agrees"] is False
    assert {"data-mismatch", "equation-refuted", "data-stop-agreeing"} <= set(step5.codes())
    mismatch = next(d for d in step5.findings if d.code == "data-mismatch")
    assert mismatch.elements == ("0/12", "1/12")
    assert isinstance(mismatch.certificate, DataConflict) and mismatch.certificate.min_tolerance == pytest.approx(25.0)
    assert sum("data-stop-agreeing" in r.codes() for r in reports) == 1
    final = reports[-1]
    mismatch = next(d for d in final.findings if d.code == "data-mismatch")
    assert mismatch.elements == ("1/12",)  # the curve fit ignores the second prior record
    assert "moisture -> resonanceFreq" in final.meta["hypothesis"]


def test_trajectory_rewritten_past_data():
    """A step that changes an earlier evidence entry is flagged."""
    a = parse_record_obj({"past_data": [{"id": "0", "props": {"A": 1}, "freq": 2}]})
    b = parse_record_obj({"past_data": [{"id": "0", "props": {"A": 1}, "freq": 5}]})
    reports = check_trajectory([a, b]).parts
    assert reports[1].codes() == ("past-data-rewritten",) and reports[0].ok


def test_bundled_trajectory_example():
    """The bundled trajectory flags step 3 (non-parent, data) and step 4 (cycle)."""
    reports = check("example:trajectory").parts
    assert len(reports) == 5
    assert {"non-parent-in-equation", "data-mismatch", "data-stop-agreeing"} <= set(reports[2].codes())
    assert {"cycle", "direction-contradiction"} <= set(reports[3].codes())
    assert reports[1].ok and reports[4].ok


def test_public_check_is_the_function_however_imported():
    """causalcheck.check is the function, also after the implementing module was imported."""
    import causalcheck
    import causalcheck.checking as module

    assert causalcheck.check is module.check
    report = causalcheck.check("A -> B\nB -> A")
    assert report.codes()[0] == "cycle"


def test_a_point_that_cannot_be_evaluated_does_not_hide_the_others():
    """Division by zero on one point is a warning naming it; the other points are still checked."""
    from causalcheck import parse_hypothesis
    from causalcheck.records import DataPoint

    h = parse_hypothesis("a -> resonanceFreq\nresonanceFreq = base + c_a/a\nbase = 1\nc_a = 1\n")
    points = [DataPoint("p0", {"a": 0.0}, 1.0), DataPoint("p1", {"a": 2.0}, 500.0)]
    report = check_hypothesis(h, data=points)
    by_code = {d.code: d for d in report.findings}
    assert by_code["data-not-checked"].severity == "warning"
    assert by_code["data-not-checked"].elements == ("p0",)
    assert by_code["data-mismatch"].severity == "error" and "p1" in by_code["data-mismatch"].message
    assert not report.ok


def test_huge_past_data_is_checked_within_the_named_limit():
    """A record with 5 000 past_data entries: the newest MAX_DATA_POINTS are checked, the rest named in data-skipped."""
    from causalcheck.checking import check_record
    from causalcheck.checking.hypothesis import MAX_DATA_POINTS
    from causalcheck.parsing import parse_record_obj

    pts = [{"id": str(i), "props": {"a": i % 97}, "freq": 3.0 + 2 * (i % 97)} for i in range(5000)]
    rec = parse_record_obj({"past_data": pts, "hypothesis": {"edges": [{"from": "a", "to": "resonanceFreq"}],
                            "freq_equation": "resonanceFreq = base + c_a*a", "coefficients": {"base": 3, "c_a": 2}}})
    report = check_record(rec)
    skipped = next(d for d in report.findings if d.code == "data-skipped")
    assert f"{5000 - MAX_DATA_POINTS} of 5000" in skipped.message and "MAX_DATA_POINTS" in skipped.message
    assert report.meta["data_points"] == MAX_DATA_POINTS and report.ok
