"""Planted bugs in scoring rules: each is caught by the suite a researcher would write, with a shrunk counterexample.

Every planted bug is a classic mistake in a rule a researcher writes themselves — an SHD, an edge,
parent, root, skeleton or arrowhead precision / recall / F1, SID, a coefficient F1, a PM, an RM, a
Final or an edge-list parser.  Each test runs the one :mod:`causalcheck.testing` call that rule's
author would write (no skips, no adapters beyond ``convert=``) on the buggy rule and asserts the
property that caught it, the message's convention and outputs, and a small (shrunk) counterexample.
The correct versions of the same rules — reference implementations written here, causalcheck's own
metrics and edge-list reader, causal-learn's SHD and confusions, gadjid's SID — pass the same calls.

Budgets: the planted bugs run at the derandomized ``ci`` profile with :data:`EXAMPLES` examples a
property (every bug is caught well inside it); the correct rules pass at :data:`FEW` in every run
and at the ``thorough`` profile in the fuzz run (``pytest -m fuzz``, ``CAUSALCHECK_FUZZ_SLOW_EXAMPLES``
caps it), as the other fuzz targets do (``tests/_fuzz.py``: ``SCALES``).
"""

from __future__ import annotations

import ast
import csv
import io
import math
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _fuzz import SCALES, SLOW_EXAMPLES
from causalcheck import metrics as M
from causalcheck.base.errors import InputFormatError
from causalcheck.explain.explanation_graph import CAUSAL_TYPES
from causalcheck.explain.judges import EdgeJudgment
from causalcheck.explain.scoring import compute_pm
from causalcheck.graphs.model import Graph, Mark
from causalcheck.testing import (
    PropertyFailure,
    check_coefficient_metric,
    check_edge_parser,
    check_explanation_scorer,
    check_graph_metric,
)
from causalcheck.testing.profiles import PROFILES

Pairs = list[tuple[str, str]]

#: examples a property in the default run: every planted bug is caught inside it (the ci profile's 50 is for users)
EXAMPLES = 10
#: examples a property of the correct rules in the default run: a smoke check; the fuzz run checks them at THOROUGH
FEW = 10
#: examples a property of the correct rules in the fuzz run: the thorough profile's, or the run's smaller sample
THOROUGH = min(SLOW_EXAMPLES, PROFILES["thorough"].max_examples)
DOCS = Path(__file__).resolve().parents[1] / "docs" / "testing.md"

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
Suite = Callable[[Callable[..., Any]], Any]


def shd_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "distance", reference="shd", max_examples=EXAMPLES)


def pdag_shd_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "distance", graphs="pdag", reference="causal-learn-shd", max_examples=EXAMPLES)


def f1_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "similarity", reference="edge-f1", max_examples=EXAMPLES)


def f1_kind_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "f1", reference="edge-f1", max_examples=EXAMPLES)


def parent_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "similarity", names="causalab", reference="parent-f1", max_examples=EXAMPLES)


def root_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "similarity", names="causalab", reference="root-f1", max_examples=EXAMPLES)


def skeleton_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "f1", reference="skeleton-f1", include=("self-loops", "duplicates"), refuses=InputFormatError, max_examples=EXAMPLES)


def skeleton_recall_suite(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "recall", reference="skeleton-recall", max_examples=EXAMPLES)


def arrowhead_suite(kind: str) -> Suite:
    def run(fn: Callable[..., Any]) -> Any:
        return check_graph_metric(fn, kind, graphs="cpdag", convert=lambda g: g, reference=f"arrowhead-{kind}", max_examples=EXAMPLES)  # type: ignore[arg-type]

    return run


def sid_suite(fn: Callable[..., Any]) -> Any:
    pytest.importorskip("gadjid")
    return check_graph_metric(fn, "distance", convert=lambda g: g, reference="sid", max_examples=EXAMPLES)


def record_coefficient_suite(fn: Callable[..., Any]) -> Any:
    return check_coefficient_metric(fn, max_examples=EXAMPLES)


def coefficient_suite(fn: Callable[..., Any]) -> Any:
    return check_coefficient_metric(fn, signature="dicts", max_examples=EXAMPLES)


def explanation_suite(metric: str, **kw: Any) -> Suite:
    def run(fn: Callable[..., Any]) -> Any:
        return check_explanation_scorer(fn, metric, max_examples=EXAMPLES, **kw)  # type: ignore[arg-type]

    return run


def parser_suite(fn: Callable[..., Any]) -> Any:
    return check_edge_parser(fn, "edgelist", max_examples=EXAMPLES)


# ----------------------------------------------------------------------- planted bugs: SHD
def shd_reversal_counted_twice(t: Pairs, e: Pairs) -> int:
    """A reversal is one missing plus one extra edge (2), where the stated convention charges 1."""
    return len(set(t) - set(e)) + len(set(e) - set(t))


def shd_ignores_direction(t: Pairs, e: Pairs) -> int:
    """Compares skeletons only: a reversed edge costs nothing."""
    st, se = {frozenset(p) for p in t}, {frozenset(p) for p in e}
    return len(st ^ se)


def shd_positional(t: Pairs, e: Pairs) -> int:
    """Compares the edge lists position by position instead of as sets (order-dependent)."""
    return sum(1 for a, b in zip(t, e, strict=False) if a != b) + abs(len(t) - len(e))


def shd_merges_case(t: Pairs, e: Pairs) -> int:
    """Lower-cases node names: 'A' and 'a' become one node."""
    low = lambda ps: [(a.lower(), b.lower()) for a, b in ps]  # noqa: E731
    return M.shd(low(e), low(t), names="exact").total


def shd_drops_undirected(t: Any, e: Any) -> int:
    """causal-learn-style SHD that skips '--' edges (it reads directed pairs only)."""
    from causalcheck.graphchecks.scores import compare

    def directed(g: Graph) -> Graph:
        return g.with_edges(x for x in g.edges if x.is_directed)

    return compare(directed(t), directed(e), nodes="union", basis="given").shd


def shd_doubles_undirected(t: Graph, e: Graph) -> int:
    """An undirected edge read as two directed ones, then pairs compared."""
    def arcs(g: Graph) -> set[tuple[str, str]]:
        return {p for x in g.edges for p in ([(x.u, x.v)] if x.is_directed else [(x.u, x.v), (x.v, x.u)])}

    return len(arcs(t) ^ arcs(e))


# ----------------------------------------------------------------------- planted bugs: edge / parent / root / skeleton / arrowhead
def f1_empty_prediction_is_perfect(t: Pairs, e: Pairs) -> float:
    """An empty estimate scores 1 (the 'nothing predicted, nothing wrong' shortcut)."""
    if not e:
        return 1.0
    return M.edge_prf(e, t, names="exact").f1


def f1_trims_names(t: Pairs, e: Pairs) -> float:
    """Strips blanks from names under the exact dialect: ' a' becomes 'a'."""
    strip = lambda ps: [(a.strip(), b.strip()) for a, b in ps]  # noqa: E731
    return M.edge_prf(strip(e), strip(t), names="exact").f1


def f1_unordered_pairs(t: Pairs, e: Pairs) -> float:
    """Treats edges as unordered pairs: a reversed edge counts as correct."""
    return M.set_prf({frozenset(p) for p in e}, {frozenset(p) for p in t}).f1


def f1_arithmetic_mean(t: Pairs, e: Pairs) -> float:
    """Averages precision and recall arithmetically instead of harmonically."""
    r = M.edge_prf(e, t, names="exact")
    return (r.precision + r.recall) / 2


def parent_f1_all_edges(t: Pairs, e: Pairs) -> float:
    """Forgets to restrict to the edges into the target."""
    return M.edge_prf(e, t).f1


def parent_f1_literal_target(t: Pairs, e: Pairs) -> float:
    """Matches the target by its literal name, so 'freq' or 'Frequency' edges are not parent edges."""
    pick = lambda ps: {(a.strip(), b) for a, b in ps if b == "resonanceFreq"}  # noqa: E731
    return M.set_prf(pick(e), pick(t)).f1


def root_f1_all_parentless_nodes(t: Pairs, e: Pairs) -> float:
    """Takes every parentless node with a child as a root, not only the ancestors of the target."""
    def roots(ps: Pairs) -> set[str]:
        ps = [(a.strip(), b.strip()) for a, b in ps]
        children = {b for _, b in ps}
        return {a for a, _ in ps if a not in children}

    return M.set_prf(roots(e), roots(t)).f1


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


# ----------------------------------------------------------------------- planted bugs: SID
def sid_symmetric(t: Graph, e: Graph) -> int:
    """SID made symmetric: the larger of both directions."""
    return max(sid(t, e), sid(e, t))


def sid_transposed(t: Graph, e: Graph) -> int:
    """Matrices read column to row: both graphs transposed."""
    import gadjid

    order = tuple(sorted(t.nodes))
    return int(gadjid.sid(matrix(t, order).T.copy(), matrix(e, order).T.copy(), edge_direction="from row to column")[1])


# ----------------------------------------------------------------------- planted bugs: coefficients
def coefficient_f1_counts_base(c: dict[str, Any], cfg: dict[str, Any]) -> float:
    """Counts 'base' as a predicted coefficient (precision drops when the intercept is given)."""
    r = M.coefficient_prf(c, cfg)
    n_pred = r.n_pred + (1 if "base" in c else 0)
    p = r.correct / n_pred if n_pred else (1.0 if r.n_true == 0 else 0.0)
    return 0.0 if p + r.recall == 0 else 2 * p * r.recall / (p + r.recall)


def coefficient_f1_exact_equality(c: dict[str, Any], cfg: dict[str, Any]) -> float:
    """No tolerance: a coefficient is correct only when equal to the last bit."""
    return M.coefficient_prf(c, cfg, tolerance=0.0).f1


def coefficient_f1_case_sensitive(c: dict[str, Any], cfg: dict[str, Any]) -> float:
    """Looks keys up case-sensitively, so 'C_density' is not found under the CausaLab rule."""
    return M.coefficient_prf(c, cfg, names="exact", target="resonanceFreq").f1


def coefficient_sign_ignored(est: dict[Any, Any], true: dict[Any, float]) -> float:
    """Compares absolute values."""
    return coefficient_f1(est, true, lambda a, b: abs(abs(a) - abs(b)) <= 1e-6)


def coefficient_one_sided(est: dict[Any, Any], true: dict[Any, float]) -> float:
    """Tolerance on one side only: any underestimate counts."""
    return coefficient_f1(est, true, lambda a, b: a - b <= 1e-6)


def coefficient_estimate_relative(est: dict[Any, Any], true: dict[Any, float]) -> float:
    """Tolerance relative to the estimate's size."""
    return coefficient_f1(est, true, lambda a, b: abs(a - b) <= 1e-6 * max(1.0, abs(a)))


# ----------------------------------------------------------------------- planted bugs: PM, RM, Final, answers
def pm_over_all_edges(g: Any, s: list[float]) -> float:
    """Averages every edge's score, causal or not (the April evaluator's rule, under the May convention)."""
    return compute_pm(g, [EdgeJudgment(x) for x in s], "all")


def pm_without_causal_edges_is_one(g: Any, s: list[float]) -> float:
    """Returns 1 when there is no causal edge ('nothing to refute')."""
    causal = [x for e, x in zip(g.edges, s, strict=True) if e.relation_type in CAUSAL_TYPES]
    return sum(causal) / len(causal) if causal else 1.0


def pm_misaligned_scores(g: Any, s: list[float]) -> float:
    """Pairs the scores with the edges sorted by source, not in their given order."""
    order = sorted(range(len(g.edges)), key=lambda i: (g.edges[i].source, g.edges[i].target))
    causal = [s[k] for i, k in zip(range(len(g.edges)), order, strict=True) if g.edges[i].relation_type in CAUSAL_TYPES]
    return math.fsum(causal) / len(causal) if causal else 0.0


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


def rm_band_off_by_one(scores: list[int]) -> float:
    """Reads the 1..10 scale as 0..9 (score - 1): the top band scores 0.9."""
    return sum(x - 1 for x in scores) / len(scores) / 10


def rm_integer_division(scores: list[int]) -> float:
    """Integer division of the mean: 7.5 becomes 7."""
    return (sum(scores) // len(scores)) / 10


def final_weighted(pm: float, rm: float) -> float:
    """Weights PM 0.6 and RM 0.4 instead of the mean of the parts."""
    return 0.6 * pm + 0.4 * rm


def pm_rewards_length(question: str, answer: str) -> float:
    """An end-to-end PM that credits words per causal claim: longer explanations score higher, cues or not."""
    return min(1.0, len(answer.split()) / 60)


# ----------------------------------------------------------------------- planted bugs: edge-list parsers
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


# ----------------------------------------------------------------------- the catalogue
@dataclass(frozen=True)
class Bug:
    """A planted bug, the suite that must catch it, the properties allowed to, and a text the message must show."""

    rule: Callable[..., Any]
    suite: Suite
    caught_by: tuple[str, ...]
    shows: str = ""


PLANTED: list[Bug] = [
    Bug(shd_reversal_counted_twice, shd_suite, ("single-edit",), "expected: 1 (the cost of one reverse)"),
    Bug(shd_ignores_direction, shd_suite, ("single-edit",), "(the cost of one reverse)"),
    Bug(shd_positional, shd_suite, ("reordering", "edits-add-up")),
    Bug(shd_merges_case, shd_suite, ("renaming",), "after renaming"),
    Bug(shd_drops_undirected, pdag_shd_suite, ("single-edit",), "--"),
    Bug(shd_doubles_undirected, pdag_shd_suite, ("single-edit", "edits-add-up")),
    Bug(f1_empty_prediction_is_perfect, f1_kind_suite, ("empty",), "nothing estimated"),
    Bug(f1_trims_names, f1_suite, ("names", "renaming"), "'a"),
    Bug(f1_unordered_pairs, f1_suite, ("single-edit",), "reverse"),
    Bug(f1_arithmetic_mean, f1_suite, ("reference",), "reference edge-f1 = "),
    Bug(parent_f1_all_edges, parent_suite, ("single-edit",), "changes nothing the metric measures"),
    Bug(parent_f1_literal_target, parent_suite, ("empty",), "nothing estimated"),
    Bug(root_f1_all_parentless_nodes, root_suite, ("names", "single-edit"), "resonanceFreq"),
    Bug(skeleton_counts_self_loops, skeleton_suite, ("self-loops",), "a self-loop"),
    Bug(skeleton_recall_reversal_is_miss, skeleton_recall_suite, ("single-edit",)),
    Bug(arrowhead_precision_reads_undirected, arrowhead_suite("precision"), ("single-edit", "reference", "renaming")),
    Bug(arrowhead_recall_reads_undirected, arrowhead_suite("recall"), ("single-edit", "reference", "renaming")),
    Bug(sid_symmetric, sid_suite, ("single-edit", "reference")),
    Bug(sid_transposed, sid_suite, ("reference",), "reference sid = "),
    Bug(coefficient_f1_counts_base, record_coefficient_suite, ("base-ignored",), "'base' never counts"),
    Bug(coefficient_f1_exact_equality, record_coefficient_suite, ("tolerance",), "is within tolerance"),
    Bug(coefficient_f1_case_sensitive, record_coefficient_suite, ("spellings",), "accepted spelling"),
    Bug(coefficient_sign_ignored, coefficient_suite, ("sign",)),
    Bug(coefficient_one_sided, coefficient_suite, ("tolerance",)),
    Bug(coefficient_estimate_relative, coefficient_suite, ("tolerance",)),
    Bug(pm_over_all_edges, explanation_suite("pm"), ("no-causal-edge",), "0.0 (no causal edge)"),
    Bug(pm_without_causal_edges_is_one, explanation_suite("pm"), ("no-causal-edge",), "got:      1.0"),
    Bug(pm_misaligned_scores, explanation_suite("pm"), ("all-supported", "order"), "score="),
    Bug(pm_grows_with_edges, explanation_suite("pm"), ("monotone",)),
    Bug(pm_first_verdict_weighted, explanation_suite("pm"), ("monotone", "order", "reference")),
    Bug(rm_band_off_by_one, explanation_suite("rm"), ("top",), "1.0 (every criterion at the top band, 10)"),
    Bug(rm_integer_division, explanation_suite("rm"), ("reference",), "criterion scores: [1, 2]"),
    Bug(final_weighted, explanation_suite("final"), ("mean-of-parts",), "(= (PM + RM) / 2)"),
    Bug(pm_rewards_length, explanation_suite("answer", metric_of_answer="pm"), ("no-causal-cue", "paraphrase"), "answer:"),
    Bug(edges_trimmed, parser_suite, ("blanks",), "(trimmed)"),
    Bug(edges_lowercased, parser_suite, ("case",)),
    Bug(edges_ascii_only, parser_suite, ("unicode",), "raised:   UnicodeEncodeError"),
    Bug(edges_nfc, parser_suite, ("combining", "normalization")),
    Bug(edges_split_on_commas, parser_suite, ("syntax",)),
]


def _literal_sizes(message: str) -> list[int]:
    """Sizes of the truth / estimate lists shown in a failure message (for the shrinking check)."""
    sizes = []
    for label in ("truth:", "estimate:"):
        m = re.search(rf"^  {label}\s+(\[.*\])$", message, re.M)
        if m:
            sizes.append(len(ast.literal_eval(m.group(1))))
    return sizes


@pytest.mark.parametrize("bug", PLANTED, ids=lambda b: b.rule.__name__)
def test_every_planted_bug_is_caught_with_a_shrunk_counterexample(bug: Bug) -> None:
    """The researcher's suite raises on the buggy rule, naming the property, the rule, the convention, its output and a small example."""
    with pytest.raises(PropertyFailure) as info:
        bug.suite(bug.rule)
    message = str(info.value)
    assert info.value.property in bug.caught_by, message
    assert f"property {info.value.property!r} fails for {bug.rule.__name__}" in message
    assert "convention:" in message and any(f"{what}:" in message for what in ("got", "raised", "parsed")), message  # the rule's output
    assert bug.shows in message, message
    assert all(n <= 3 for n in _literal_sizes(message)), message  # shrunk: at most 3 edges per graph


def test_the_catalogue_covers_every_rule_family() -> None:
    """Planted bugs in every family a researcher writes, each rule planted once (no duplicates)."""
    names = [b.rule.__name__ for b in PLANTED]
    assert len(names) == len(set(names)) and len({b.rule for b in PLANTED}) == len(PLANTED)
    families = ("shd_", "f1_", "parent_f1", "root_f1", "skeleton_", "arrowhead_", "sid_", "coefficient_", "pm_", "rm_", "final_", "edges_")
    for family in families:
        assert any(n.startswith(family) for n in names), family


def test_the_docs_count_the_planted_bugs() -> None:
    """docs/testing.md's "N planted classic bugs" is the number planted here."""
    m = re.search(r"(\d+) planted classic bugs", DOCS.read_text(encoding="utf-8"))
    assert m and int(m.group(1)) == len(PLANTED)


def test_a_changed_name_is_explained_in_the_parser_message() -> None:
    """The edge-parser failure shows the text, the edges missing and extra, and how a name changed."""
    with pytest.raises(PropertyFailure) as info:
        parser_suite(edges_trimmed)
    msg = str(info.value)
    assert "text:" in msg and "missing:" in msg and "extra:" in msg and "(trimmed)" in msg, msg


# ----------------------------------------------------------------------- correct rules pass
def cl_arrowhead(which: str) -> Callable[[Graph, Graph], float]:
    """causal-learn's ArrowConfusion (through compare, where it is defined) as an arrowhead precision or recall."""
    def rule(t: Graph, e: Graph) -> float:
        from causalcheck.graphchecks.scores import compare

        got = getattr(compare(t, e.with_nodes(t.nodes), nodes="union", basis="given").arrowhead, which)
        return prf(arrowheads(e), arrowheads(t), which) if got is None else float(got)

    rule.__name__ = f"causal_learn_arrowhead_{which}"
    return rule


def cl_shd(t: Any, e: Any) -> int:
    """causal-learn's own SHD on GeneralGraphs (every differing pair costs 1)."""
    from causallearn.graph.SHD import SHD

    return SHD(t, e).get_shd()


def to_causallearn(g: Graph) -> Any:
    """A Graph as causal-learn's GeneralGraph, nodes sorted."""
    from causalcheck.graphs.convert import to_causallearn

    return to_causallearn(g.with_nodes(sorted(g.nodes)))


#: correct rules, the call that checks them (taking the rule and the example budget), and the profile of the fuzz run
CORRECT: list[tuple[Callable[..., Any], Callable[[Callable[..., Any], int, str], Any]]] = [
    (skeleton_f1, lambda fn, n, p: check_graph_metric(fn, "f1", reference="skeleton-f1", include=("self-loops", "duplicates"), refuses=InputFormatError, max_examples=n, profile=p)),
    (skeleton_f1_refusing_loops, lambda fn, n, p: check_graph_metric(fn, "f1", reference="skeleton-f1", include=("self-loops", "duplicates"), refuses=InputFormatError, max_examples=n, profile=p)),
    (skeleton_recall, lambda fn, n, p: check_graph_metric(fn, "recall", reference="skeleton-recall", max_examples=n, profile=p)),
    (edge_recall, lambda fn, n, p: check_graph_metric(fn, "recall", reference="edge-recall", max_examples=n, profile=p)),
    (edge_precision, lambda fn, n, p: check_graph_metric(fn, "precision", reference="edge-precision", max_examples=n, profile=p)),
    (arrowhead_recall, lambda fn, n, p: check_graph_metric(fn, "recall", graphs="cpdag", convert=lambda g: g, reference="arrowhead-recall", max_examples=n, profile=p)),
    (arrowhead_precision, lambda fn, n, p: check_graph_metric(fn, "precision", graphs="cpdag", convert=lambda g: g, reference="arrowhead-precision", max_examples=n, profile=p)),
    (cl_arrowhead("recall"), lambda fn, n, p: check_graph_metric(fn, "recall", graphs="cpdag", convert=lambda g: g, reference="arrowhead-recall", max_examples=n, profile=p)),
    (cl_arrowhead("precision"), lambda fn, n, p: check_graph_metric(fn, "precision", graphs="cpdag", convert=lambda g: g, reference="arrowhead-precision", max_examples=n, profile=p)),
    (cl_shd, lambda fn, n, p: check_graph_metric(fn, "distance", graphs="pdag", convert=to_causallearn, reference="causal-learn-shd", max_examples=n, profile=p)),
    (sid, lambda fn, n, p: check_graph_metric(fn, "distance", convert=lambda g: g, reference="sid", max_examples=n, profile=p)),
    (coefficient_f1, lambda fn, n, p: check_coefficient_metric(fn, signature="dicts", max_examples=n, profile=p)),
    (coefficient_recall, lambda fn, n, p: check_coefficient_metric(fn, signature="dicts", kind="recall", max_examples=n, profile=p)),
    (pm_verdicts, lambda fn, n, p: check_explanation_scorer(fn, "pm", max_examples=n, profile=p)),
    (read_edges, lambda fn, n, p: check_edge_parser(fn, "edgelist", max_examples=n, profile=p)),
    (causalcheck_edges, lambda fn, n, p: check_edge_parser(fn, "edgelist", max_examples=n, profile=p)),
]


@pytest.mark.parametrize("slow", SCALES)
@pytest.mark.parametrize(("rule", "suite"), CORRECT, ids=[rule.__name__ for rule, _ in CORRECT])
def test_the_correct_rules_pass_the_same_suites(rule: Callable[..., Any], suite: Callable[..., Any], slow: bool) -> None:
    """Correct SHD / precision / recall / F1 / SID / coefficient / PM rules and edge-list readers raise nothing: no false alarms."""
    if rule is sid:
        pytest.importorskip("gadjid")
    report = suite(rule, THOROUGH if slow else FEW, "thorough" if slow else "ci")
    assert report.properties and report.max_examples == (THOROUGH if slow else FEW)


# ----------------------------------------------------------------------- what the messages and options say
def test_an_undefined_reference_is_shown_as_undefined_and_named() -> None:
    """A reference returning None fails with 'undefined (None)' and the reference's own name, never nan."""
    def my_reference(t: Pairs, e: Pairs) -> float | None:
        return None if not e else M.edge_prf(e, t, names="exact").recall

    with pytest.raises(PropertyFailure) as info:
        check_graph_metric(edge_recall, "recall", reference=my_reference, max_examples=EXAMPLES)
    msg = str(info.value)
    assert info.value.property == "reference" and "my_reference = undefined (None)" in msg and "nan" not in msg


def test_an_undefined_explanation_reference_is_shown_as_undefined() -> None:
    """A PM reference returning None fails as 'undefined (None)' with the reference's name, not a TypeError."""
    def no_value(g: Any, s: list[float]) -> None:
        return None

    with pytest.raises(PropertyFailure) as info:
        check_explanation_scorer(pm_verdicts, "pm", reference=no_value, max_examples=10)
    assert info.value.property == "reference" and "no_value = undefined (None)" in str(info.value)


def test_a_custom_coefficient_reference_is_named_in_the_message() -> None:
    """The coefficient suite names the custom reference it compared with, not 'coefficient_prf'."""
    def my_recall_reference(est: dict[Any, Any], true: dict[Any, float]) -> float:
        return 0.5

    with pytest.raises(PropertyFailure) as info:
        check_coefficient_metric(coefficient_recall, signature="dicts", kind="recall", reference=my_recall_reference, max_examples=EXAMPLES)
    msg = str(info.value)
    assert "my_recall_reference = 0.5" in msg and "coefficient_prf" not in msg


def test_a_user_property_runs_on_other_kinds() -> None:
    """kind='other' runs the caller's own property and reports its failure with the pair."""
    def nonneg(t: Graph, e: Graph, score: Callable[[Graph, Graph], float]) -> bool:
        return score(t, e) >= 0

    report = check_graph_metric(lambda t, e: float(len(t) - len(e)) ** 2, "other", properties={"non-negative": nonneg}, max_examples=EXAMPLES)
    assert "non-negative" in report.properties and "single-edit" not in report.properties
    with pytest.raises(PropertyFailure) as info:
        check_graph_metric(lambda t, e: float(len(t) - len(e)), "other", symmetric=False, properties={"non-negative": nonneg}, max_examples=EXAMPLES)
    assert info.value.property == "non-negative"


def test_quirk_options_are_checked() -> None:
    """include= names only known quirks, refuses= only exception classes, edits= only known rules."""
    with pytest.raises(InputFormatError, match="include"):
        check_graph_metric(skeleton_f1, "f1", include=("loops",))
    with pytest.raises(InputFormatError, match="refuses"):
        check_graph_metric(skeleton_f1, "f1", include=("self-loops",), refuses="ValueError")  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="edits"):
        check_graph_metric(skeleton_f1, "f1", edits={"add": "better"})  # type: ignore[dict-item]


def test_nodes_union_draws_an_estimate_with_a_node_the_truth_lacks() -> None:
    """nodes='union' adds a new-node property: causalcheck's SHD and edge recall pass it, a rule that drops such edges fails."""
    def shd_drops_foreign_nodes(t: Pairs, e: Pairs) -> int:
        known = {n for p in t for n in p}
        return M.shd([p for p in e if p[0] in known and p[1] in known], t, names="exact").total

    report = check_graph_metric(lambda t, e: M.shd(e, t, names="exact"), "distance", reference="shd", nodes="union", max_examples=EXAMPLES)
    assert "new-node" in report.properties
    check_graph_metric(edge_recall, "recall", reference="edge-recall", nodes="union", max_examples=EXAMPLES)
    with pytest.raises(PropertyFailure) as info:
        check_graph_metric(shd_drops_foreign_nodes, "distance", symmetric=False, nodes="union", max_examples=EXAMPLES)
    assert info.value.property in ("single-edit", "new-node"), str(info.value)
