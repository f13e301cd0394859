"""Property tests of every lab metric, through the testing kit's suites (causalcheck.testing).

The suites check bounds, identity, empty sets, symmetry, renaming, reordering, the name
policy, single edits and agreement with the reference conventions; what is specific to
causalcheck.metrics (the breakdown of SHD, set P/R/F1 by definition, the name-policy
keyword) is checked here directly.
"""

from __future__ import annotations

from causalcheck import metrics as M
from causalcheck import strategies as cs
from causalcheck.testing import check_coefficient_metric, check_graph_metric
from hypothesis import given
from hypothesis import strategies as st


def test_shd_under_both_conventions() -> None:
    """SHD: a reversal costs 1 (CausaLab) or 2 (double count); every other property of a distance."""
    check_graph_metric(lambda t, e: M.shd(e, t, names="exact"), "distance", reference="shd")
    check_graph_metric(lambda t, e: M.shd(e, t, names="exact", double_count_reversal=True), "distance", reversal_cost=2, reference="shd-double")
    check_graph_metric(lambda t, e: M.shd(e, t), "distance", names="causalab", reference="shd")


def test_edge_prf_under_both_name_policies() -> None:
    """Edge F1 is a similarity with F1(∅, ∅) = 1 under exact names and under CausaLab's dialect."""
    check_graph_metric(lambda t, e: M.edge_prf(e, t, names="exact"), "similarity", reference="edge-f1")
    check_graph_metric(lambda t, e: M.edge_prf(e, t), "similarity", names="causalab", reference="edge-f1")


def test_parent_and_root_prf() -> None:
    """Parent F1 and root F1 measure only the target's parents / root ancestors (CausaLab and exact with a target)."""
    check_graph_metric(lambda t, e: M.parent_prf(e, t), "similarity", names="causalab", reference="parent-f1")
    check_graph_metric(lambda t, e: M.root_prf(e, t), "similarity", names="causalab", reference="root-f1")
    check_graph_metric(lambda t, e: M.parent_prf(e, t, "y", names="exact"), "similarity", target="y", reference="parent-f1")


def test_coefficient_prf_under_both_name_policies() -> None:
    """Coefficient F1: exact values score 1, base never counts, tolerance, key spellings."""
    check_coefficient_metric(M.coefficient_prf)
    check_coefficient_metric(lambda c, cfg: M.coefficient_prf(c, cfg, target="resonanceFreq", names="exact"), names="exact")


@given(cs.graph_pairs(added=(0, 3), removed=(0, 3), reversed=(0, 3)))
def test_shd_breakdown_counts_each_kind_of_edit(pair: cs.GraphPair) -> None:
    """missing / extra / reversed equal the removals, additions and reversals made; SHD(P, T) swaps missing and extra."""
    t = [(e.u, e.v) for e in pair.truth.edges]
    e = [(x.u, x.v) for x in pair.estimate.edges]
    r = M.shd(e, t, names="exact")
    assert (r.missing, r.extra, r.reversed) == (pair.count("remove"), pair.count("add"), pair.count("reverse"))
    back = M.shd(t, e, names="exact")
    assert (back.missing, back.extra, back.reversed) == (r.extra, r.missing, r.reversed)


@given(st.sets(st.integers(0, 9)), st.sets(st.integers(0, 9)))
def test_set_prf_matches_its_definition(pred: set[int], true: set[int]) -> None:
    """set_prf equals |P∩T|/|P| and |P∩T|/|T| whenever both sets are non-empty."""
    r = M.set_prf(pred, true)
    if pred and true:
        assert r.precision == len(pred & true) / len(pred)
        assert r.recall == len(pred & true) / len(true)


@given(cs.edge_lists(dialect="causalab", names=cs.name_lists("causalab", min_size=2, include_target=True)))
def test_exact_names_keep_every_spelling(pairs: list[tuple[str, str]]) -> None:
    """Under names='exact' normalize_pairs is the identity; under CAUSALAB it trims and maps aliases."""
    assert M.normalize_pairs(pairs, names="exact") == frozenset(pairs)
    from causalcheck.graph import normalize_node

    assert M.normalize_pairs(pairs) == frozenset((normalize_node(a), normalize_node(b)) for a, b in pairs)
