"""Property tests: compare()'s orientation scores equal pgmpy's and causal-learn's on random graph pairs.

* ``orientation`` — pgmpy's ``OrientationConfusionMatrix`` (DAG pairs; pgmpy takes DAGs only);
* ``arrowhead_common`` — causal-learn's ``ArrowConfusion`` CE counts (``get_arrows_tp_ce`` ...), on
  pairs with any marks.
"""

from __future__ import annotations

import pytest
from causalcheck import strategies as cs
from causalcheck.graphs import compare
from causalcheck.graphs.convert import to_causallearn
from hypothesis import given, settings

pytest.importorskip("pgmpy")
pytest.importorskip("causallearn")


@settings(max_examples=40)
@given(cs.graph_pairs(cs.dags(min_nodes=2, max_nodes=8), acyclic=True, added=(0, 3), removed=(0, 3), reversed=(0, 3)))
def test_orientation_equals_pgmpy(pair: cs.GraphPair) -> None:
    """TP/FP/FN/TN and the rates equal pgmpy's (pgmpy's 0.0 for an empty rate is None here)."""
    from pgmpy.base import DAG
    from pgmpy.metrics import OrientationConfusionMatrix

    t, e = pair.truth, pair.estimate
    pt, pe = DAG(sorted(t.directed_pairs)), DAG(sorted(e.directed_pairs))
    pt.add_nodes_from(t.nodes)
    pe.add_nodes_from(t.nodes)
    theirs = OrientationConfusionMatrix().evaluate(pt, pe)
    cm = theirs["cm"]
    c = compare(t, e).orientation
    assert c is not None
    assert (c.tp, c.fp, c.fn, c.tn) == (
        cm.loc["Actual Present", "Est Present"], cm.loc["Actual Absent", "Est Present"],
        cm.loc["Actual Present", "Est Absent"], cm.loc["Actual Absent", "Est Absent"],
    )
    for name in ("precision", "recall", "f1"):
        ours = getattr(c, name)
        assert (0.0 if ours is None else ours) == pytest.approx(theirs[name])


@settings(max_examples=40)
@given(cs.graph_pairs(cs.pags(min_nodes=2, max_nodes=7), changed=(0, 3), tokens=("->", "--", "<->", "o->", "o-o")))
def test_arrowhead_common_equals_causallearn_ce(pair: cs.GraphPair) -> None:
    """The four CE counts and the CE precision / recall equal causal-learn's ArrowConfusion."""
    from causallearn.graph.ArrowConfusion import ArrowConfusion

    t, e = pair.truth, pair.estimate
    arr = ArrowConfusion(to_causallearn(t), to_causallearn(e, t.nodes))
    c = compare(t, e, basis="given").arrowhead_common
    assert (c.tp, c.fp, c.fn, c.tn) == (arr.get_arrows_tp_ce(), arr.get_arrows_fp_ce(), arr.get_arrows_fn_ce(), arr.get_arrows_tn_ce())
    if c.tp + c.fp:
        assert c.precision == pytest.approx(arr.get_arrows_precision_ce())
    if c.tp + c.fn:
        assert c.recall == pytest.approx(arr.get_arrows_recall_ce())
