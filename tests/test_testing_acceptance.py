"""Issue 22's acceptance: a researcher's suite written with the kit only catches their planted bugs.

Each planted bug is a mistake a researcher made in their own SHD, skeleton F1, arrowhead precision / recall,
SID, coefficient recovery, PM or edge-list parser; the suite is the one call they would write (no skips, no
adapters beyond ``convert=``).  The correct versions of the same rules — reference implementations written
here, causalcheck's own metrics and edge-list reader, causal-learn's confusions via ``compare`` and gadjid's
SID — pass the same calls.
"""

from __future__ import annotations

import csv
import io
import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from causalcheck import metrics as M
from causalcheck.base.errors import InputFormatError
from causalcheck.explain.explanation_graph import CAUSAL_TYPES
from causalcheck.graphs.model import Graph, Mark
from causalcheck.testing import (
    PropertyFailure,
    check_coefficient_metric,
    check_edge_parser,
    check_explanation_scorer,
    check_graph_metric,
)

pytest.importorskip("hypothesis")

Pairs = list[tuple[str, str]]


#: every suite here runs at the derandomized ci profile, whatever the session's (the same shrunk examples everywhere)
pytestmark = pytest.mark.causalcheck_profile("ci")


# ----------------------------------------------------------------------- the researcher's correct rules
def prf(pred: set[Any], true: set[Any], which: str) -> float:
    """Precision / recall / F1 of two sets, with F1(∅, ∅) = 1 and 0 when exactly one side is empty."""
    hit = len(pred & true)
    p = hit / len(pred) if pred else (1.0 if not true else 0.0)
    r = hit / len(true) if true else (1.0 if not pred else 0.0)
    f = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return {"precision": p, "recall": r, "f1": f}[which]


def skeleton(pairs: Pairs) -> set[frozenset[str]]:
    """The adjacencies of an edge list; self-loops are no adjacency."""
    return {frozenset(p) for p in pairs if p[0] != p[1]}


def skeleton_f1(t: Pairs, e: Pairs) -> float:
    """Adjacency F1 of two edge lists."""
    return prf(skeleton(e), skeleton(t), "f1")


def skeleton_recall(t: Pairs, e: Pairs) -> float:
    """Adjacency recall of two edge lists."""
    return prf(skeleton(e), skeleton(t), "recall")


def skeleton_f1_refusing_loops(t: Pairs, e: Pairs) -> float:
    """Adjacency F1 that documents refusing self-loops with InputFormatError."""
    if any(a == b for a, b in [*t, *e]):
        raise InputFormatError("a self-loop is not an edge of a DAG")
    return skeleton_f1(t, e)


def arrowheads(g: Graph) -> set[tuple[str, str]]:
    """(i, j) for every edge with an arrowhead at j."""
    return {(x.other(n), n) for x in g.edges for n in (x.u, x.v) if x.mark_at(n) is Mark.ARROW}


def arrowhead_recall(t: Graph, e: Graph) -> float:
    """Share of the true arrowheads the estimate has."""
    return prf(arrowheads(e), arrowheads(t), "recall")


def arrowhead_precision(t: Graph, e: Graph) -> float:
    """Share of the estimated arrowheads that are true."""
    return prf(arrowheads(e), arrowheads(t), "precision")


def edge_recall(t: Pairs, e: Pairs) -> float:
    """causalcheck's directed-edge recall."""
    return M.edge_prf(e, t, names="exact").recall


def edge_precision(t: Pairs, e: Pairs) -> float:
    """causalcheck's directed-edge precision."""
    return M.edge_prf(e, t, names="exact").precision


def matrix(g: Graph, order: tuple[str, ...]) -> Any:
    """The adjacency matrix of a DAG, rows causes, in *order*."""
    import numpy as np

    a = np.zeros((len(order), len(order)), dtype=np.int8)
    for x in g.edges:
        a[order.index(x.u), order.index(x.v)] = 1
    return a


def sid(t: Graph, e: Graph) -> int:
    """gadjid's SID of the estimate against the truth."""
    import gadjid

    order = tuple(sorted(t.nodes))
    return int(gadjid.sid(matrix(t, order), matrix(e, order), edge_direction="from row to column")[1])


def coefficient_recall(est: dict[Any, Any], true: dict[Any, float]) -> float:
    """Share of the true edges whose weight is estimated within 1e-6."""
    hit = {k for k, v in true.items() if isinstance(est.get(k), (int, float)) and abs(est[k] - v) <= 1e-6}
    return len(hit) / len(true) if true else float(not est)


def coefficient_f1(est: dict[Any, Any], true: dict[Any, float], ok: Callable[[float, float], bool] | None = None) -> float:
    """F1 of the estimated weights: an edge counts when in both and within 1e-6 of the true weight."""
    close = ok or (lambda a, b: abs(a - b) <= 1e-6)
    good = {k for k, v in est.items() if k in true and isinstance(v, (int, float)) and close(v, true[k])}
    return prf(good | {("wrong", k) for k in est if k not in good}, set(true), "f1")


def pm_verdicts(g: Any, s: list[float]) -> float:
    """PM over causal edges from yes/no verdicts: a judge score of 0.5 or more is a yes."""
    causal = [1.0 if x >= 0.5 else 0.0 for x, edge in zip(s, g.edges, strict=True) if edge.relation_type in CAUSAL_TYPES]
    return sum(causal) / len(causal) if causal else 0.0


def read_edges(text: str) -> Pairs:
    """The researcher's reader of an edge-list CSV (header source,target,edge): the csv module, names as written."""
    rows = list(csv.reader(io.StringIO(text)))
    return [(r[0], r[1]) for r in rows[1:] if len(r) > 1 and r[1]]


def causalcheck_edges(text: str) -> Any:
    """causalcheck's own edge-list reader."""
    from causalcheck.graphs.io import read_graph

    return read_graph(text, format="edgelist")


# ----------------------------------------------------------------------- the suites the researcher writes
def shd_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "distance", reference="shd")


def pdag_shd_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "distance", graphs="pdag", reference="causal-learn-shd")


def f1_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "f1", reference="edge-f1")


def skeleton_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "f1", reference="skeleton-f1", include=("self-loops", "duplicates"), refuses=InputFormatError)


def skeleton_recall_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "recall", reference="skeleton-recall")


def arrowhead_suite(kind: str) -> Callable[[Callable[..., Any]], Any]:
    def run(fn: Callable[..., Any]) -> Any:
        return check_graph_metric(fn, kind, graphs="cpdag", convert=lambda g: g, reference=f"arrowhead-{kind}")  # type: ignore[arg-type]

    return run


def sid_suite(fn: Callable[..., Any]) -> Any:
    pytest.importorskip("gadjid")
    return check_graph_metric(fn, "distance", convert=lambda g: g, reference="sid")


def coefficient_suite(fn: Callable[..., Any]) -> Any:
    return check_coefficient_metric(fn, signature="dicts")


def pm_suite(fn: Callable[..., Any]) -> Any:
    return check_explanation_scorer(fn, "pm")


def parser_suite(fn: Callable[..., Any]) -> Any:
    return check_edge_parser(fn, "edgelist")


# ----------------------------------------------------------------------- planted bugs
def shd_reversal_twice(t: Pairs, e: Pairs) -> int:
    """A reversal is a missing plus an extra edge."""
    return len(set(t) ^ set(e))


def shd_casefolded(t: Pairs, e: Pairs) -> int:
    """Names casefolded before comparing."""
    fold = lambda ps: [(a.casefold(), b.casefold()) for a, b in ps]  # noqa: E731
    return M.shd(fold(e), fold(t), names="exact").total


def f1_trimmed(t: Pairs, e: Pairs) -> float:
    """Names trimmed before comparing."""
    trim = lambda ps: [(a.strip(), b.strip()) for a, b in ps]  # noqa: E731
    return M.edge_prf(trim(e), trim(t), names="exact").f1


def f1_empty_is_perfect(t: Pairs, e: Pairs) -> float:
    """An empty estimate scores 1."""
    return 1.0 if not e else M.edge_prf(e, t, names="exact").f1


def shd_doubles_undirected(t: Graph, e: Graph) -> int:
    """An undirected edge read as two directed ones, then pairs compared."""
    def arcs(g: Graph) -> set[tuple[str, str]]:
        return {p for x in g.edges for p in ([(x.u, x.v)] if x.is_directed else [(x.u, x.v), (x.v, x.u)])}

    return len(arcs(t) ^ arcs(e))


def shd_ignores_undirected(t: Graph, e: Graph) -> int:
    """Undirected edges skipped: only directed edges compared."""
    def arcs(g: Graph) -> set[tuple[str, str]]:
        return {(x.u, x.v) for x in g.edges if x.is_directed}

    pairs_t, pairs_e = arcs(t), arcs(e)
    flipped = {(a, b) for a, b in pairs_t - pairs_e if (b, a) in pairs_e}
    return len(pairs_t ^ pairs_e) - len(flipped)


def skeleton_counts_self_loops(t: Pairs, e: Pairs) -> float:
    """A self-loop (a, a) becomes the adjacency {a}."""
    return prf({frozenset(p) for p in e}, {frozenset(p) for p in t}, "f1")


def skeleton_recall_reversal_is_miss(t: Pairs, e: Pairs) -> float:
    """Adjacencies compared as ordered pairs: a reversed edge is a miss."""
    return prf(set(e), set(t), "recall")


def arrowheads_from_undirected(g: Graph) -> set[tuple[str, str]]:
    """Reads an arrowhead at v from an undirected u -- v too."""
    return {(x.u, x.v) if x.is_undirected else (x.other(n), n) for x in g.edges for n in (x.u, x.v) if x.is_undirected or x.mark_at(n) is Mark.ARROW}


def arrowhead_precision_reads_undirected(t: Graph, e: Graph) -> float:
    """Arrowhead precision that reads arrowheads from undirected edges."""
    return prf(arrowheads_from_undirected(e), arrowheads_from_undirected(t), "precision")


def arrowhead_recall_reads_undirected(t: Graph, e: Graph) -> float:
    """Arrowhead recall that reads arrowheads from undirected edges."""
    return prf(arrowheads_from_undirected(e), arrowheads_from_undirected(t), "recall")


def sid_symmetric(t: Graph, e: Graph) -> int:
    """SID made symmetric: the larger of both directions."""
    return max(sid(t, e), sid(e, t))


def sid_transposed(t: Graph, e: Graph) -> int:
    """Matrices read column to row: both graphs transposed."""
    import gadjid

    order = tuple(sorted(t.nodes))
    return int(gadjid.sid(matrix(t, order).T.copy(), matrix(e, order).T.copy(), edge_direction="from row to column")[1])


def coefficient_sign_ignored(est: dict[Any, Any], true: dict[Any, float]) -> float:
    """Compares absolute values."""
    return coefficient_f1(est, true, lambda a, b: abs(abs(a) - abs(b)) <= 1e-6)


def coefficient_one_sided(est: dict[Any, Any], true: dict[Any, float]) -> float:
    """Tolerance on one side only: any underestimate counts."""
    return coefficient_f1(est, true, lambda a, b: a - b <= 1e-6)


def coefficient_estimate_relative(est: dict[Any, Any], true: dict[Any, float]) -> float:
    """Tolerance relative to the estimate's size."""
    return coefficient_f1(est, true, lambda a, b: abs(a - b) <= 1e-6 * max(1.0, abs(a)))


def pm_grows_with_edges(g: Any, s: list[float]) -> float:
    """A bonus per causal edge, supported or not."""
    causal = [x for x, edge in zip(s, g.edges, strict=True) if edge.relation_type in CAUSAL_TYPES]
    return min(1.0, sum(causal) / len(causal) + 0.05 * len(causal)) if causal else 0.0


def pm_first_verdict_weighted(g: Any, s: list[float]) -> float:
    """Weights the edges by position: not monotone in supported edges."""
    causal = [x for x, edge in zip(s, g.edges, strict=True) if edge.relation_type in CAUSAL_TYPES]
    if not causal:
        return 0.0
    w = [1.0 / (i + 1) for i in range(len(causal))]
    return math.fsum(x * k for x, k in zip(causal, w, strict=True)) / math.fsum(w)


def edges_trimmed(text: str) -> Pairs:
    """Strips the blanks around every cell."""
    return [(a.strip(), b.strip()) for a, b in read_edges(text)]


def edges_lowercased(text: str) -> Pairs:
    """Lower-cases names "to be safe"."""
    return [(a.lower(), b.lower()) for a, b in read_edges(text)]


def edges_ascii_only(text: str) -> Pairs:
    """Reads the file as ASCII: fails on the first non-ASCII name."""
    return read_edges(text.encode("ascii").decode("ascii"))


def edges_nfc(text: str) -> Pairs:
    """Normalises names to NFC: two spellings of é become one node."""
    return read_edges(unicodedata.normalize("NFC", text))


def edges_split_on_commas(text: str) -> Pairs:
    """Splits rows on commas by hand: a quoted name with a comma or a quote breaks."""
    rows = [line.split(",") for line in text.splitlines()[1:]]
    return [(r[0], r[1]) for r in rows if len(r) > 1 and r[1]]


@dataclass(frozen=True)
class Planted:
    """A planted bug, the suite that must catch it, and the properties allowed to."""

    rule: Callable[..., Any]
    suite: Callable[[Callable[..., Any]], Any]
    caught_by: tuple[str, ...]


PLANTED = [
    Planted(shd_reversal_twice, shd_suite, ("single-edit",)),
    Planted(shd_casefolded, shd_suite, ("renaming", "names")),
    Planted(f1_trimmed, f1_suite, ("renaming", "names")),
    Planted(f1_empty_is_perfect, f1_suite, ("empty",)),
    Planted(shd_doubles_undirected, lambda fn: check_graph_metric(fn, "distance", graphs="pdag", convert=lambda g: g, reference="causal-learn-shd"), ("single-edit", "edits-add-up")),
    Planted(shd_ignores_undirected, lambda fn: check_graph_metric(fn, "distance", graphs="pdag", convert=lambda g: g, reference="causal-learn-shd"), ("single-edit",)),
    Planted(skeleton_counts_self_loops, skeleton_suite, ("self-loops",)),
    Planted(skeleton_recall_reversal_is_miss, skeleton_recall_suite, ("single-edit",)),
    Planted(arrowhead_precision_reads_undirected, arrowhead_suite("precision"), ("single-edit", "reference", "renaming")),
    Planted(arrowhead_recall_reads_undirected, arrowhead_suite("recall"), ("single-edit", "reference", "renaming")),
    Planted(sid_symmetric, sid_suite, ("single-edit", "reference")),
    Planted(sid_transposed, sid_suite, ("reference",)),
    Planted(coefficient_sign_ignored, coefficient_suite, ("sign",)),
    Planted(coefficient_one_sided, coefficient_suite, ("tolerance",)),
    Planted(coefficient_estimate_relative, coefficient_suite, ("tolerance",)),
    Planted(pm_grows_with_edges, pm_suite, ("monotone",)),
    Planted(pm_first_verdict_weighted, pm_suite, ("monotone", "order", "reference")),
    Planted(edges_trimmed, parser_suite, ("blanks",)),
    Planted(edges_lowercased, parser_suite, ("case",)),
    Planted(edges_ascii_only, parser_suite, ("unicode",)),
    Planted(edges_nfc, parser_suite, ("combining", "normalization")),
    Planted(edges_split_on_commas, parser_suite, ("syntax",)),
]


@pytest.mark.parametrize("bug", PLANTED, ids=lambda b: b.rule.__name__)
def test_each_planted_bug_is_caught_by_the_researchers_suite(bug: Planted) -> None:
    """The kit-only suite raises on the buggy rule, naming a property that the bug breaks."""
    with pytest.raises(PropertyFailure) as info:
        bug.suite(bug.rule)
    assert info.value.property in bug.caught_by, str(info.value)
    assert "convention:" in str(info.value)


def test_a_changed_name_is_explained_in_the_parser_message() -> None:
    """The edge-parser failure shows the text, the edges missing and extra, and how a name changed."""
    with pytest.raises(PropertyFailure) as info:
        parser_suite(edges_trimmed)
    msg = str(info.value)
    assert "text:" in msg and "missing:" in msg and "extra:" in msg and "(trimmed)" in msg, msg
    with pytest.raises(PropertyFailure) as info:
        parser_suite(edges_ascii_only)
    assert "raised:   UnicodeEncodeError" in str(info.value)


CORRECT = [
    (skeleton_f1, skeleton_suite),
    (skeleton_f1_refusing_loops, skeleton_suite),
    (skeleton_recall, skeleton_recall_suite),
    (edge_recall, lambda fn: check_graph_metric(fn, "recall", reference="edge-recall")),
    (edge_precision, lambda fn: check_graph_metric(fn, "precision", reference="edge-precision")),
    (arrowhead_recall, arrowhead_suite("recall")),
    (arrowhead_precision, arrowhead_suite("precision")),
    (sid, sid_suite),
    (coefficient_f1, coefficient_suite),
    (coefficient_recall, lambda fn: check_coefficient_metric(fn, signature="dicts", kind="recall")),
    (pm_verdicts, pm_suite),
    (read_edges, parser_suite),
    (causalcheck_edges, parser_suite),
]


@pytest.mark.parametrize(("rule", "suite"), CORRECT, ids=lambda x: getattr(x, "__name__", "suite"))
def test_the_correct_rules_pass_the_same_suites(rule: Callable[..., Any], suite: Callable[[Callable[..., Any]], Any]) -> None:
    """Correct precision / recall / F1 / SID / coefficient / PM rules raise nothing: no false alarms."""
    report = suite(rule)
    assert report.properties


def test_causal_learn_arrowhead_confusion_passes_as_precision_and_recall() -> None:
    """causal-learn's ArrowConfusion (through compare, where it is defined) passes the arrowhead suites."""
    from causalcheck.graphchecks.scores import compare

    def cl(which: str) -> Callable[[Graph, Graph], float]:
        def rule(t: Graph, e: Graph) -> float:
            got = getattr(compare(t, e.with_nodes(t.nodes), nodes="union", basis="given").arrowhead, which)
            return prf(arrowheads(e), arrowheads(t), which) if got is None else float(got)

        return rule

    arrowhead_suite("recall")(cl("recall"))
    arrowhead_suite("precision")(cl("precision"))


def test_an_undefined_reference_is_shown_as_undefined_and_named() -> None:
    """A reference returning None fails with 'undefined (None)' and the reference's own name, never nan."""
    def my_reference(t: Pairs, e: Pairs) -> float | None:
        return None if not e else M.edge_prf(e, t, names="exact").recall

    with pytest.raises(PropertyFailure) as info:
        check_graph_metric(edge_recall, "recall", reference=my_reference)
    msg = str(info.value)
    assert info.value.property == "reference" and "my_reference = undefined (None)" in msg and "nan" not in msg


def test_a_custom_coefficient_reference_is_named_in_the_message() -> None:
    """The coefficient suite names the custom reference it compared with, not 'coefficient_prf'."""
    def my_recall_reference(est: dict[Any, Any], true: dict[Any, float]) -> float:
        return 0.5

    with pytest.raises(PropertyFailure) as info:
        check_coefficient_metric(coefficient_recall, signature="dicts", kind="recall", reference=my_recall_reference)
    msg = str(info.value)
    assert "my_recall_reference = 0.5" in msg and "coefficient_prf" not in msg


def test_a_user_property_runs_on_other_kinds() -> None:
    """kind='other' runs the caller's own property and reports its failure with the pair."""
    def nonneg(t: Graph, e: Graph, score: Callable[[Graph, Graph], float]) -> bool:
        return score(t, e) >= 0

    report = check_graph_metric(lambda t, e: float(len(t) - len(e)) ** 2, "other", properties={"non-negative": nonneg}, max_examples=20)
    assert "non-negative" in report.properties and "single-edit" not in report.properties
    with pytest.raises(PropertyFailure) as info:
        check_graph_metric(lambda t, e: float(len(t) - len(e)), "other", symmetric=False, properties={"non-negative": nonneg}, max_examples=20)
    assert info.value.property == "non-negative"


def test_quirk_options_are_checked() -> None:
    """include= names only known quirks, refuses= only exception classes, edits= only known rules."""
    with pytest.raises(InputFormatError, match="include"):
        check_graph_metric(skeleton_f1, "f1", include=("loops",))
    with pytest.raises(InputFormatError, match="refuses"):
        check_graph_metric(skeleton_f1, "f1", include=("self-loops",), refuses="ValueError")  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="edits"):
        check_graph_metric(skeleton_f1, "f1", edits={"add": "better"})  # type: ignore[dict-item]


def test_the_readme_counts_the_planted_bugs() -> None:
    """docs/testing.md's "catch N more" is the number of planted bugs here."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "docs" / "testing.md").read_text(encoding="utf-8")
    m = re.search(r"kit-only suites\s+catch (\d+) more", readme)
    assert m and int(m.group(1)) == len(PLANTED)


def test_nodes_union_draws_an_estimate_with_a_node_the_truth_lacks() -> None:
    """nodes='union' adds a new-node property: causalcheck's SHD and edge recall pass it, a rule that drops such edges fails."""
    def shd_drops_foreign_nodes(t: Pairs, e: Pairs) -> int:
        known = {n for p in t for n in p}
        return M.shd([p for p in e if p[0] in known and p[1] in known], t, names="exact").total

    report = check_graph_metric(lambda t, e: M.shd(e, t, names="exact"), "distance", reference="shd", nodes="union")
    assert "new-node" in report.properties
    check_graph_metric(edge_recall, "recall", reference="edge-recall", nodes="union")
    with pytest.raises(PropertyFailure) as info:
        check_graph_metric(shd_drops_foreign_nodes, "distance", symmetric=False, nodes="union")
    assert info.value.property in ("single-edit", "new-node"), str(info.value)


def test_an_undefined_explanation_reference_is_shown_as_undefined() -> None:
    """A PM reference returning None fails as 'undefined (None)' with the reference's name, not a TypeError."""
    def no_value(g: Any, s: list[float]) -> None:
        return None

    with pytest.raises(PropertyFailure) as info:
        check_explanation_scorer(pm_verdicts, "pm", reference=no_value, max_examples=10)
    assert info.value.property == "reference" and "no_value = undefined (None)" in str(info.value)
