"""The named graphs of the field (causalcheck.graphchecks.named) and their fixtures."""

from __future__ import annotations

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.named import NAMED_GRAPHS, named_graph
from causalcheck.solvers.acyclicity import find_cycle_core
from causalcheck.solvers.equivalence import enumerate_equivalent_dags, mec_size


def test_every_named_graph_is_a_dag_whose_mec_size_matches_brute_force(named):
    """Each named graph is acyclic; its MEC size equals brute-force enumeration."""
    _name, g = named
    assert find_cycle_core(g) is None
    assert mec_size(g) == len(list(enumerate_equivalent_dags(g)))


def test_the_fixtures_are_the_catalogue_values(chain, collider, causalab_sample):
    """A fixture named like a graph returns that graph."""
    assert chain is NAMED_GRAPHS["chain"] and collider is named_graph("collider")
    assert sorted(causalab_sample.pairs) == [
        ("density", "quantumSize"),
        ("density", "resonanceFreq"),
        ("moisture", "resonanceFreq"),
    ]


def test_unknown_name_lists_the_known_ones():
    """A typo names the catalogue."""
    with pytest.raises(InputFormatError, match="chain"):
        named_graph("chian")
