"""compare(): pgmpy's orientation confusion and causal-learn's common-edge arrowhead confusion, with their own cases."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from causalcheck.graphs import Graph, compare

# pgmpy/tests/test_metrics/test_orientation_confusion_matrix.py (pgmpy 1.1.2), from Petersen (2025), arXiv:2412.10039
TRUE = Graph.from_edges(
    [(a, "->", b) for a, b in [("x1", "x2"), ("x1", "x4"), ("x1", "x5"), ("x2", "x5"), ("x2", "x3"), ("x2", "x4"), ("x4", "x5"), ("x5", "x3")]]
)
EST = Graph.from_edges(
    [(a, "->", b) for a, b in [("x1", "x2"), ("x1", "x3"), ("x1", "x4"), ("x1", "x5"), ("x3", "x2"), ("x4", "x2"), ("x5", "x3")]]
)


def test_pgmpy_confusion_matrix_values() -> None:
    """pgmpy's TP=4, FP=2, FN=2, TN=4 and every rate 2/3."""
    c = compare(TRUE, EST).orientation
    assert (c.tp, c.fp, c.fn, c.tn) == (4, 2, 2, 4)
    assert c.precision == c.recall == c.f1 == pytest.approx(2 / 3)


def test_pgmpy_perfect_match_and_empty_estimate() -> None:
    """Perfect: precision = recall = 1, no FP / FN; empty estimate: all zero counts, rates None (pgmpy: 0.0)."""
    c = compare(TRUE, TRUE).orientation
    assert (c.precision, c.recall, c.fp, c.fn) == (1.0, 1.0, 0, 0)
    empty = compare(TRUE, Graph.from_edges([], TRUE.nodes)).orientation
    assert (empty.tp, empty.fp, empty.fn, empty.tn) == (0, 0, 0, 0)
    assert empty.precision is None and empty.recall is None


def test_undirected_estimate_edge_counts_as_missing_orientation() -> None:
    """A -- where the truth has -> is one FN (and one TN); the CPDAG basis applies as for 'directed'."""
    c = compare("a -> b; c -> b", "a -- b; c -> b", basis="given").orientation
    assert (c.tp, c.fp, c.fn, c.tn) == (1, 0, 1, 2)


def test_mag_marks_give_none_with_a_note() -> None:
    """A graph with <-> has no orientation confusion: None, and the note names the edge."""
    r = compare("a -> b; b -> c", "a <-> b; b -> c")
    assert r.orientation is None
    assert any("orientation not computed" in n and "'a <-> b'" in n for n in r.notes)
    assert (r.arrowhead_common.tp, r.arrowhead_common.fp, r.arrowhead_common.fn) == (2, 1, 0)


def test_arrowhead_common_leaves_out_pairs_adjacent_in_one_graph() -> None:
    """An extra estimated edge's arrowhead is an FP of 'arrowhead' but not of 'arrowhead_common' (causal-learn's CE)."""
    r = compare("a -> b; c", "a -> b; b -> c")
    assert (r.arrowhead.tp, r.arrowhead.fp) == (1, 1)
    assert (r.arrowhead_common.tp, r.arrowhead_common.fp, r.arrowhead_common.fn, r.arrowhead_common.tn) == (1, 0, 0, 8)


def test_compare_command_prints_and_writes_the_rows(tmp_path) -> None:
    """The compare table has the 'arrow (CE)' and 'orientation' rows; --json has both fields."""
    t, e = tmp_path / "t.txt", tmp_path / "e.txt"
    t.write_text("a -> b -> c\n")
    e.write_text("a -> b <- c\n")
    out = subprocess.run([sys.executable, "-m", "causalcheck", "compare", str(t), str(e)], capture_output=True, text=True, check=True).stdout
    assert "arrow (CE)      1    1    1   0.500" in out and "orientation     1    1    1   0.500" in out
    js = subprocess.run([sys.executable, "-m", "causalcheck", "compare", str(t), str(e), "--json"], capture_output=True, text=True, check=True).stdout
    data = json.loads(js)
    assert data["orientation"]["tn"] == 1 and data["arrowhead_common"]["fp"] == 1
