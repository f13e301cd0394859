"""A catalogue of planted bugs in scoring rules: each is caught by its suite, with a shrunk counterexample.

Every entry is a classic mistake in an SHD, an edge / parent / root F1, a coefficient F1, a
PM or an RM.  The test runs the matching :mod:`causalcheck.testing` suite on the buggy rule
and asserts the property that caught it, and that the message shows a small counterexample
(the shrunk one) with the convention.  The correct implementations pass the same suites:
causal-learn's SHD under its own convention here, causalcheck's metrics and PRISM scoring
in ``properties/test_metrics_properties.py`` and ``properties/test_explain_properties.py``.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from causalcheck import metrics as M
from causalcheck.explain.explanation_graph import CAUSAL_TYPES
from causalcheck.explain.judges import EdgeJudgment
from causalcheck.explain.scoring import compute_pm
from causalcheck.testing import (
    PropertyFailure,
    check_coefficient_metric,
    check_explanation_scorer,
    check_graph_metric,
)

Pairs = list[tuple[str, str]]


#: every suite here runs at the derandomized ci profile, whatever the session's (the same shrunk examples everywhere)
pytestmark = pytest.mark.causalcheck_profile("ci")


# ----------------------------------------------------------------------- planted bugs
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
    from causalcheck.graphs.model import Graph

    def directed(g: Graph) -> Graph:
        return g.with_edges(x for x in g.edges if x.is_directed)

    from causalcheck.graphchecks.scores import compare

    return compare(directed(t), directed(e), nodes="union", basis="given").shd


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


def rm_band_off_by_one(scores: list[int]) -> float:
    """Reads the 1..10 scale as 0..9 (score - 1): the top band scores 0.9."""
    return sum(x - 1 for x in scores) / len(scores) / 10


def rm_integer_division(scores: list[int]) -> float:
    """Integer division of the mean: 7.5 becomes 7."""
    return (sum(scores) // len(scores)) / 10


def pm_rewards_length(question: str, answer: str) -> float:
    """An end-to-end PM that credits words per causal claim: longer explanations score higher, cues or not."""
    return min(1.0, len(answer.split()) / 60)


def final_weighted(pm: float, rm: float) -> float:
    """Weights PM 0.6 and RM 0.4 instead of the mean of the parts."""
    return 0.6 * pm + 0.4 * rm


# ----------------------------------------------------------------------- the catalogue
@dataclass(frozen=True)
class Bug:
    """A planted bug, the suite call that must catch it, and the property expected to fail."""

    rule: Callable[..., Any]
    run: Callable[[Callable[..., Any]], Any]
    caught_by: str | tuple[str, ...]
    shows: str = ""

    @property
    def properties(self) -> tuple[str, ...]:
        return (self.caught_by,) if isinstance(self.caught_by, str) else self.caught_by


def _shd(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "distance", reference="shd")


def _f1(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "similarity", reference="edge-f1")


def _parent(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "similarity", names="causalab", reference="parent-f1")


def _root(fn: Callable[..., Any]) -> Any:
    return check_graph_metric(fn, "similarity", names="causalab", reference="root-f1")


CATALOGUE: list[Bug] = [
    Bug(shd_reversal_counted_twice, _shd, "single-edit", "expected: 1 (the cost of one reverse)"),
    Bug(shd_ignores_direction, _shd, "single-edit", "(the cost of one reverse)"),
    Bug(shd_positional, _shd, "reordering"),
    Bug(shd_merges_case, _shd, "renaming", "after renaming"),
    Bug(shd_drops_undirected, lambda fn: check_graph_metric(fn, "distance", graphs="pdag", reference="causal-learn-shd"), "single-edit", "--"),
    Bug(f1_empty_prediction_is_perfect, _f1, "empty", "nothing estimated"),
    Bug(f1_trims_names, _f1, ("names", "renaming"), "'a"),
    Bug(f1_unordered_pairs, _f1, "single-edit", "reverse"),
    Bug(f1_arithmetic_mean, _f1, "reference", "reference edge-f1 = "),
    Bug(parent_f1_all_edges, _parent, "single-edit", "changes nothing the metric measures"),
    Bug(parent_f1_literal_target, _parent, "empty", "nothing estimated"),
    Bug(root_f1_all_parentless_nodes, _root, "names", "is the node 'resonanceFreq'"),
    Bug(coefficient_f1_counts_base, check_coefficient_metric, "base-ignored", "'base' never counts"),
    Bug(coefficient_f1_exact_equality, check_coefficient_metric, "tolerance", "is within tolerance"),
    Bug(coefficient_f1_case_sensitive, check_coefficient_metric, "spellings", "accepted spelling"),
    Bug(pm_over_all_edges, lambda fn: check_explanation_scorer(fn, "pm"), "no-causal-edge", "0.0 (no causal edge)"),
    Bug(pm_without_causal_edges_is_one, lambda fn: check_explanation_scorer(fn, "pm"), "no-causal-edge", "got:      1.0"),
    Bug(pm_misaligned_scores, lambda fn: check_explanation_scorer(fn, "pm"), "all-supported", "every causal edge supported"),
    Bug(rm_band_off_by_one, lambda fn: check_explanation_scorer(fn, "rm"), "top", "1.0 (every criterion at the top band, 10)"),
    Bug(rm_integer_division, lambda fn: check_explanation_scorer(fn, "rm"), "reference", "criterion scores: [1, 2]"),
    Bug(final_weighted, lambda fn: check_explanation_scorer(fn, "final"), "mean-of-parts", "(= (PM + RM) / 2)"),
    Bug(pm_rewards_length, lambda fn: check_explanation_scorer(fn, "answer", metric_of_answer="pm"), ("no-causal-cue", "paraphrase"), "answer:"),
]


def _literal_sizes(message: str) -> list[int]:
    """Sizes of the truth / estimate lists shown in a failure message (for the shrinking check)."""
    sizes = []
    for label in ("truth:", "estimate:"):
        m = re.search(rf"^  {label}\s+(\[.*\])$", message, re.M)
        if m:
            sizes.append(len(ast.literal_eval(m.group(1))))
    return sizes


@pytest.mark.parametrize("bug", CATALOGUE, ids=lambda b: b.rule.__name__)
def test_every_planted_bug_is_caught_with_a_shrunk_counterexample(bug: Bug) -> None:
    """The matching suite raises on the buggy rule, naming the property, the convention and a small example."""
    with pytest.raises(PropertyFailure) as info:
        bug.run(bug.rule)
    message = str(info.value)
    assert info.value.property in bug.properties, message
    assert f"property {info.value.property!r} fails for {bug.rule.__name__}" in message
    assert "convention:" in message and ("got:" in message or "raised:" in message)
    assert bug.shows in message, message
    assert all(n <= 3 for n in _literal_sizes(message)), message  # shrunk: at most 3 edges per graph


def test_the_catalogue_covers_every_rule_family() -> None:
    """At least 12 planted bugs, across SHD, edge / parent / root / coefficient F1, PM and RM."""
    names = [b.rule.__name__ for b in CATALOGUE]
    assert len(names) >= 12
    for family in ("shd_", "f1_", "parent_f1", "root_f1", "coefficient_f1", "pm_", "rm_"):
        assert any(n.startswith(family) for n in names), family


def test_the_readme_counts_the_catalogue() -> None:
    """docs/testing.md's "N planted classic bugs" is the size of this catalogue."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "docs" / "testing.md").read_text(encoding="utf-8")
    m = re.search(r"(\d+) planted classic bugs", readme)
    assert m and int(m.group(1)) == len(CATALOGUE)


def test_the_reversal_bug_is_shown_on_the_smallest_graph() -> None:
    """The shrunk counterexample of the double-counted reversal is one edge, reversed."""
    with pytest.raises(PropertyFailure) as info:
        _shd(shd_reversal_counted_twice)
    msg = str(info.value)
    assert _literal_sizes(msg) == [1, 1]
    assert "got:      2.0" in msg and "edit:     reverse" in msg


# ----------------------------------------------------------------------- correct rules pass
def test_causal_learn_shd_passes_under_its_convention() -> None:
    """causal-learn's own SHD on GeneralGraphs passes the distance suite on PDAGs (every differing pair costs 1)."""
    from causalcheck.graphs.convert import to_causallearn
    from causallearn.graph.SHD import SHD

    def cl_shd(t: Any, e: Any) -> int:
        return SHD(t, e).get_shd()

    def convert(g: Any) -> Any:
        return to_causallearn(g.with_nodes(sorted(g.nodes)))

    check_graph_metric(cl_shd, "distance", graphs="pdag", convert=convert, reference="causal-learn-shd")
