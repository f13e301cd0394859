"""DoWhy's own falsification cases, ported: each case is a DAG, data built by DoWhy's recipe and DoWhy's expected counts.

Source (values only): py-why/dowhy at 27d96da (MIT), ``tests/gcm/test_falsify.py`` — the
``validate_lmc`` figures of ``run_validations``: ``N_TESTS`` (the number of parental triples
``X ⫫ Y | Pa(X)``, a pair of roots counted from both sides) and ``N_VIOLATIONS`` (triples whose CI
test rejects at 0.05).  DoWhy tests with a linear generalised covariance measure; on these
linear-Gaussian data Fisher-z is the comparable test here.  Data follow DoWhy's recipe with a
seeded generator (DoWhy draws unseeded and retries a failed test up to five times).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from causalcheck.graphchecks.citests import CITester
from causalcheck.graphchecks.falsify import falsify
from causalcheck.graphchecks.separation import local_markov_triples
from causalcheck.graphs import load_data
from causalcheck.graphs.formats import parse_text


def _data(kind: str, rng: np.random.Generator) -> pd.DataFrame:
    n = 500
    if kind == "collider":  # X -> Z <- Y
        x, y = rng.normal(size=n), rng.normal(size=n)
        return pd.DataFrame({"X": x, "Y": y, "Z": 2 * x + 3 * y + rng.normal(size=n)})
    if kind == "chain":  # X -> Y -> Z
        x = rng.normal(size=n)
        y = 0.6 * x + rng.normal(size=n)
        return pd.DataFrame({"X": x, "Y": y, "Z": y + rng.normal(size=n)})
    if kind == "full":
        x0 = rng.normal(size=n)
        x1 = 0.5 * x0 + rng.normal(size=n)
        x2 = 1.2 * x0 + 0.7 * x1 + rng.normal(size=n)
        return pd.DataFrame({"X0": x0, "X1": x1, "X2": x2, "X3": 0.6 * x0 + 0.8 * x1 + 1.3 * x2 + rng.normal(size=n)})
    if kind == "single_edge":  # X0 -> X1
        x0 = rng.normal(size=n)
        return pd.DataFrame({"X0": x0, "X1": 2 * x0 + rng.normal(size=n)})
    return pd.DataFrame({"X": rng.normal(size=n)})  # a single node


# (test name, the DAG validated, data recipe, N_TESTS, N_VIOLATIONS)
CASES = [
    ("test_given_correct_collider", "X -> Z; Y -> Z", "collider", 2, 0),
    ("test_given_wrong_collider", "X -> Y; Z -> Y", "collider", 2, 2),
    ("test_given_correct_chain", "X -> Y; Y -> Z", "chain", 1, 0),
    ("test_given_wrong_chain", "X -> Z; Z -> Y", "chain", 1, 1),
    ("test_given_correct_full_DAG", "X0 -> X1; X0 -> X2; X0 -> X3; X1 -> X2; X1 -> X3; X2 -> X3", "full", 0, 0),
    ("test_given_correct_single_node", "nodes: X", "single", 0, 0),
    ("test_given_correct_single_edge", "X0 -> X1", "single_edge", 0, 0),
    ("test_given_wrong_single_edge", "nodes: X0, X1", "single_edge", 2, 2),
]


@pytest.mark.parametrize(("name", "dag", "kind", "tests", "violations"), CASES, ids=[c[0] for c in CASES])
def test_dowhy_validate_lmc(name, dag, kind, tests, violations):
    """test_falsify.py: the number of local Markov conditions and of those the data violate (0.05)."""
    g = parse_text(dag)
    assert len(local_markov_triples(g)) == tests
    frame = _data(kind, np.random.default_rng(7))[list(g.nodes)]
    result = falsify(g, CITester(load_data(frame, list(g.nodes)), "fisherz"), permutations=5, seed=0)
    assert (result.given_tests, result.given_violations) == (tests, violations)
    if tests == 0:
        assert result.verdict == "not evaluable"


def test_dowhy_categorical_chain_counts_one_condition():
    """test_given_correct_categorical_when_validating_graph: the chain X -> Z -> Y has one local Markov condition (DoWhy's N_TESTS 1)."""
    assert local_markov_triples(parse_text("X -> Z; Z -> Y")) == (("Y", "X", ("Z",)),)
