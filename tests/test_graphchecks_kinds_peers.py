"""dagitty's own graph-validation and chordality cases, ported: each case is a graph and the verdict dagitty's tests expect.

Source (values only): jtextor/dagitty at 7a65777 (GPL-2), ``test/test/graph-validation.js``
(``GraphAnalyzer.validate``) and ``test/test/graph-analysis.js`` (``GraphAnalyzer.isChordal``).

Conventions: dagitty's ``pdag`` is valid when it is acyclic (some DAG extends it); causalcheck's
:func:`~causalcheck.graphs.validate` asks more of a PDAG — that it be a CPDAG — and
:func:`~causalcheck.graphs.consistent_extension` answers dagitty's question, so the ``pdag`` cases
use it.  An undirected graph is a CPDAG exactly when it is chordal (its one chain component must
be), so :func:`~causalcheck.graphs.check_cpdag` answers ``isChordal``.
"""

from __future__ import annotations

import pytest
from causalcheck.graphs import check_cpdag, check_dag, consistent_extension
from causalcheck.graphs.formats import parse_dagitty


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        pytest.param("dag { x -> y -> z }", True, id="dag-chain"),
        pytest.param("dag{ x -> y -> z -> x } ", False, id="dag-cycle"),
        pytest.param("dag { x -- y -> z -> x }", False, id="dag-with-undirected-edge"),
    ],
)
def test_dagitty_validate_dag(text, valid):
    """graph-validation.js: a 'dag' is valid when every edge is directed and there is no directed cycle."""
    assert check_dag(parse_dagitty(text)).ok is valid


@pytest.mark.parametrize(
    ("text", "valid"),
    [pytest.param("pdag { x -> y -> z }", True, id="pdag-all-directed"), pytest.param("pdag { x -- y -> z }", True, id="pdag-mixed")],
)
def test_dagitty_validate_pdag(text, valid):
    """graph-validation.js: a 'pdag' is valid when a DAG extends it (dagitty does not ask for a CPDAG)."""
    assert (consistent_extension(parse_dagitty(text)) is not None) is valid


K5 = "graph { " + " ".join(f"{a} -- {b}" for i, a in enumerate("abcde") for b in "abcde"[i + 1 :]) + " }"


@pytest.mark.parametrize(
    ("text", "chordal"),
    [
        pytest.param("graph { t -- x \n x -- y \n y -- t }", True, id="chordal-triangle"),
        pytest.param("graph { A -- E \n A -- Z \n B -- D \n B -- Z \n D -- Z \n E -- Z \n }", True, id="chordal-2"),
        pytest.param("graph { A -- B \n A -- E \n A -- Z \n B -- D \n B -- Z \n D -- Z \n E -- Z \n }", True, id="chordal-3"),
        pytest.param("graph { A -- B \n A -- E \n A -- Z \n B -- D \n B -- E \n B -- Z \n D -- Z \n E -- Z }", True, id="chordal-4"),
        pytest.param(K5, True, id="chordal-K5"),
        pytest.param("graph {a -- b \n a -- x \n b -- y \n x -- y}", False, id="not-chordal-square"),
        pytest.param("graph {A -- E \n A -- Z \n B -- Z \n B -- D \n D -- E}", False, id="not-chordal-pentagon"),
        pytest.param("graph {A -- E \n B -- D \n B -- Z \n B -- A \n D -- Z \n E -- Z }", False, id="not-chordal-4"),
    ],
)
def test_dagitty_is_chordal(text, chordal):
    """graph-analysis.js isChordal: an undirected graph is a CPDAG exactly when it is chordal; a chordless cycle is named."""
    cert = check_cpdag(parse_dagitty(text))
    assert cert.ok is chordal
    if not chordal:
        assert "chord" in cert.reason
