"""Property tests: Fisher's C equals pgmpy's ``FisherC`` on random DAGs with random linear-Gaussian data."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from causalcheck import strategies as cs
from causalcheck.graphchecks.globalfit import fisher_c
from causalcheck.graphs import Graph
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pgmpy")


@settings(max_examples=30, deadline=None)
@given(cs.dags(min_nodes=2, max_nodes=6, max_edges=8), cs.dags(min_nodes=2, max_nodes=6, max_edges=8), st.integers(0, 2**32 - 1))
def test_fisher_c_equals_pgmpy(truth: Graph, tested: Graph, seed: int) -> None:
    """Data from *truth* (on its nodes), tested against *tested* relabelled onto them: pgmpy's p-value and RMSEA."""
    from pgmpy.base import DAG
    from pgmpy.metrics import FisherC

    nodes = list(truth.nodes)
    rng = np.random.default_rng(seed)
    cols: dict[str, np.ndarray] = {}
    order = [v for v in nodes]
    while len(cols) < len(nodes):  # a topological order of the truth
        for v in order:
            if v not in cols and all(p in cols for p in truth.parents(v)):
                cols[v] = sum((rng.uniform(0.5, 1.5) * cols[p] for p in truth.parents(v)), rng.normal(size=300))
    df = pd.DataFrame(cols)[nodes]
    mapping = dict(zip(tested.nodes, nodes, strict=False))
    edges = [(mapping[u], mapping[v]) for u, v in tested.directed_pairs if u in mapping and v in mapping]
    g = Graph.from_edges([(u, "->", v) for u, v in edges], nodes)
    d = DAG(sorted(edges))
    d.add_nodes_from(nodes)
    p, r = FisherC(ci_test="fisher_z", compute_rmsea=True, show_progress=False).evaluate(X=df, causal_graph=d)
    fit = fisher_c(g, df, ci_test="fisherz")
    if fit.p_value is None:  # a complete graph: pgmpy's χ² on 0 degrees of freedom
        assert not fit.statements and not fit.left_out
        return
    assert fit.p_value == pytest.approx(p, rel=1e-9, abs=1e-15)
    if not math.isnan(r):
        assert fit.rmsea == pytest.approx(r, abs=1e-12)
