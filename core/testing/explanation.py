"""``check_explanation_scorer``: the properties of PRISM-style PM / RM / Final scorers.

Which signature *fn* has depends on *metric* (``convert=`` adapts the inputs to another one):

=========  =====================================  =============================================
metric     ``fn`` takes                           properties
=========  =====================================  =============================================
``pm``     ``(graph, scores)``: an                ``bounds``, ``no-causal-edge`` (PM 0),
           :class:`~causalcheck.explain.          ``all-supported`` (every causal edge
           explanation_graph.ExplanationGraph`    supported → 1), ``order`` (permuting edges with
           and one score per edge                 their scores), ``non-causal-ignored``,
                                                  ``monotone`` (adding a supported causal edge
                                                  never lowers PM, an unsupported one never
                                                  raises it), ``reference``
``rm``     ``(criterion_scores)``: ints 1..10     ``bounds``, ``order``, ``top`` (all 10 → 1),
                                                  ``constant`` (all s → s/10), ``reference``
``final``  ``(pm, rm)``                           ``bounds``, ``mean-of-parts`` ((PM+RM)/2),
                                                  ``monotone``
``answer`` ``(question, answer)`` → a score       ``bounds``, ``paraphrase`` (removing the causal
           (PM- or Final-like, end to end)        cues never raises the score), ``shuffle``
                                                  (shuffling the words inside each clause never
                                                  raises it), and with ``metric_of_answer="pm"``
                                                  ``no-causal-cue`` (an answer without a causal
                                                  cue scores 0)
=========  =====================================  =============================================

The reference (``reference=True``, the default for pm / rm / final) is causalcheck's
:mod:`causalcheck.explain.scoring` (May-2026 evaluator: PM over causal edges, 0 without
one; RM = mean/10; Final = mean); a callable with *fn*'s signature may be given instead.
PM's ``reference`` is compared on judge *verdicts* (edge scores 0 or 1, what a judge answers)
unless ``scores="graded"``: on a graded score such as 0.5 the May evaluator averages the raw
value while a rule that thresholds the verdict is just as faithful to the judge, so a graded
score decides nothing there (the other PM properties draw graded scores too).

>>> from causalcheck.explain.scoring import compute_rm
>>> check_explanation_scorer(lambda s: compute_rm(s)[0], "rm", max_examples=20).properties
('bounds', 'order', 'top', 'constant', 'reference')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from causalcheck.base.errors import InputFormatError, require_extra
from causalcheck.explain.explanation_graph import (
    CAUSAL_TYPES,
    ExplanationEdge,
    ExplanationGraph,
    ExplanationNode,
)
from causalcheck.explain.judges import EdgeJudgment
from causalcheck.explain.scoring import compute_final, compute_pm, compute_rm
from causalcheck.testing import runner
from causalcheck.testing.runner import Property, PropertyFailure, SuiteReport

__all__ = ["check_explanation_scorer"]

SUITE = "check_explanation_scorer"
Metric = Literal["pm", "rm", "final", "answer"]
_NON_CAUSAL = ("ELABORATION", "CONTRAST", "BACKGROUND", "EXAMPLE", "SEQUENCE")


def _num(x: Any) -> float | None:
    if isinstance(x, tuple) and x and isinstance(x[0], (int, float)):
        x = x[0]
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(float(x)):
        return None
    return float(x)


@dataclass(frozen=True)
class _Scorer:
    """The scorer under test with its convention: runs it on one input and words the failures."""

    fn: Callable[..., Any]
    convert: Callable[..., tuple[Any, ...]] | None
    value: Callable[[Any], Any] | None
    convention: str
    subject: str

    def run(self, prop: str, args: tuple[Any, ...], shown: str) -> float:
        real = self.convert(*args) if self.convert is not None else args
        text = f"  convention: {self.convention}\n{shown}"
        out = runner.call(SUITE, prop, self.subject, self.fn, real, text)
        x = _num(self.value(out) if self.value is not None else out)
        if x is None:
            raise PropertyFailure(SUITE, prop, f"{text}\n  got:      {out!r}, not a finite number (pass value=)", self.subject)
        return x

    def fail(self, prop: str, shown: str, got: str, expected: str) -> PropertyFailure:
        return PropertyFailure(SUITE, prop, f"  convention: {self.convention}\n{shown}\n  got:      {got}\n  expected: {expected}", self.subject)

    def reference_value(self, prop: str, reference: Callable[..., Any], args: tuple[Any, ...], shown: str) -> float:
        """*reference* on *args* as a number, or a failure showing an undefined value as ``undefined (None)`` and naming it."""
        raw = runner.call(SUITE, prop, self.subject, reference, args, f"  convention: {self.convention}\n{shown}\n  (in the reference)")
        b = _num(raw)
        if b is None:
            got = "undefined (None)" if raw is None else f"{raw!r}, not a finite number"
            raise self.fail(prop, shown, f"reference {runner.describe(reference)} = {got}", "a number from the reference on every example")
        return b

    def bounded(self, prop: str, x: float, shown: str) -> None:
        if not 0.0 <= x <= 1.0:
            raise self.fail(prop, shown, f"{x!r}", "a value in [0, 1]")


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


_CONVENTIONS = {
    "pm": "PM = mean edge score over the causal edges (CAUSE, CONDITION, RESULT, CONSEQUENCE), 0 without one; in [0, 1]",
    "rm": "RM = mean of the integer criterion scores (1..10) / 10; in [0, 1]",
    "final": "Final = (PM + RM) / 2; in [0, 1]",
    "answer": "a score in [0, 1]; removing causal cues or scrambling clauses never raises it",
}


def _show_graph(g: ExplanationGraph, scores: Sequence[float]) -> str:
    edges = [f"{e.source}->{e.target} {e.relation_type} score={s:g}" for e, s in zip(g.edges, scores, strict=True)]
    return f"  graph:    nodes {[n.id for n in g.nodes]}, edges [{', '.join(edges)}]"


def _pm_monotone(sc: _Scorer) -> Callable[[Any], None]:
    """PM's ``monotone`` check: one causal edge added with a verdict of 1 never lowers PM, with 0 never raises it."""
    show_graph = _show_graph

    def pm(prop: str, g: ExplanationGraph, scores: Sequence[float], extra: str = "") -> float:
        return sc.run(prop, (g, list(scores)), show_graph(g, scores) + extra)

    def p_mono(case: Any) -> None:
        jg, (src, dst, label, pos), supported = case
        nodes = jg.graph.nodes if len(jg.graph.nodes) > 1 else (*jg.graph.nodes, ExplanationNode("EDU2", "unit 2"))
        n = len(nodes)
        i, j = src % n, dst % n
        j = (j + 1) % n if i == j else j  # no self-loop: the generated graphs have none
        edge = ExplanationEdge(nodes[i].id, nodes[j].id, label)
        k = pos % (len(jg.graph.edges) + 1)
        verdict = 1.0 if supported else 0.0
        g2 = ExplanationGraph(nodes, (*jg.graph.edges[:k], edge, *jg.graph.edges[k:]))
        s2 = [*jg.scores[:k], verdict, *jg.scores[k:]]
        shown = show_graph(jg.graph, jg.scores) + f"\n  added:    {edge.source}->{edge.target} {label} score={verdict:g} ({'supported' if supported else 'unsupported'})"
        a, b = pm("monotone", jg.graph, jg.scores), pm("monotone", g2, s2, f"\n  added:    {edge.source}->{edge.target} {label} score={verdict:g}")
        if supported and b < a - 1e-12:
            raise sc.fail("monotone", shown, f"{a!r} before, {b!r} after", "no lower: a supported causal edge never lowers PM")
        if not supported and b > a + 1e-12:
            raise sc.fail("monotone", shown, f"{a!r} before, {b!r} after", "no higher: an unsupported causal edge never raises PM")

    return p_mono


def _pm_properties(sc: _Scorer, reference: bool | Callable[..., Any], graded: bool = False) -> list[Property]:
    """``bounds``, ``no-causal-edge``, ``all-supported``, ``order``, ``non-causal-ignored``, ``monotone`` (and ``reference``) of a PM scorer."""
    # late: pulls hypothesis
    from causalcheck import strategies as cs
    from hypothesis import strategies as st

    show_graph = _show_graph

    def pm(prop: str, g: ExplanationGraph, scores: Sequence[float], extra: str = "") -> float:
        return sc.run(prop, (g, list(scores)), show_graph(g, scores) + extra)

    def p_bounds(jg: Any) -> None:
        sc.bounded("bounds", pm("bounds", jg.graph, jg.scores), show_graph(jg.graph, jg.scores))

    def p_none(jg: Any) -> None:
        g = ExplanationGraph(jg.graph.nodes, tuple(ExplanationEdge(e.source, e.target, _NON_CAUSAL[i % len(_NON_CAUSAL)]) for i, e in enumerate(jg.graph.edges)))
        x = pm("no-causal-edge", g, jg.scores)
        if x != 0.0:
            raise sc.fail("no-causal-edge", show_graph(g, jg.scores), f"{x!r}", "0.0 (no causal edge)")

    def p_all(jg: Any) -> None:
        g = jg.graph
        if not any(e.relation_type in CAUSAL_TYPES for e in g.edges):
            return
        scores = [1.0 if e.relation_type in CAUSAL_TYPES else s for e, s in zip(g.edges, jg.scores, strict=True)]
        x = pm("all-supported", g, scores)
        if not _close(x, 1.0):
            raise sc.fail("all-supported", show_graph(g, scores), f"{x!r}", "1.0 (every causal edge supported)")

    def p_order(case: Any) -> None:
        jg, rnd = case
        order = list(range(len(jg.graph.edges)))
        rnd.shuffle(order)
        g2 = ExplanationGraph(jg.graph.nodes, tuple(jg.graph.edges[i] for i in order))
        s2 = [jg.scores[i] for i in order]
        a, b = pm("order", jg.graph, jg.scores), pm("order", g2, s2, "\n" + show_graph(g2, s2).replace("graph:", "permuted:"))
        if not _close(a, b):
            raise sc.fail("order", show_graph(jg.graph, jg.scores) + "\n" + show_graph(g2, s2).replace("graph:", "permuted:"), f"{a!r} before, {b!r} after permuting the edges with their scores", "the same value")

    def p_noncausal(case: Any) -> None:
        jg, flips = case
        s2 = [(1.0 - s if f else s) if e.relation_type not in CAUSAL_TYPES else s for e, s, f in zip(jg.graph.edges, jg.scores, flips, strict=True)]
        a, b = pm("non-causal-ignored", jg.graph, jg.scores), pm("non-causal-ignored", jg.graph, s2)
        if not _close(a, b):
            raise sc.fail("non-causal-ignored", show_graph(jg.graph, jg.scores) + f"\n  changed scores of non-causal edges: {s2}", f"{a!r} before, {b!r} after", "the same value: PM reads causal edges only")

    def p_ref(jg: Any) -> None:
        a = pm("reference", jg.graph, jg.scores)
        if callable(reference):
            b = sc.reference_value("reference", reference, (jg.graph, list(jg.scores)), show_graph(jg.graph, jg.scores))
            name = runner.describe(reference)
        else:
            b = compute_pm(jg.graph, [EdgeJudgment(s) for s in jg.scores])
            name = "causalcheck.explain.scoring.compute_pm"
        if not _close(a, b):
            raise sc.fail("reference", show_graph(jg.graph, jg.scores), f"fn = {a!r}, reference {name} = {b!r}", "equal values")

    graphs = cs.judged_graphs()
    # verdicts: what a judge answers (supported 1 / not 0); a graded 0.5 is no verdict (module docstring)
    verdicts = graphs if graded else graphs.map(lambda jg: type(jg)(jg.graph, tuple(1.0 if s >= 0.5 else 0.0 for s in jg.scores)))
    added = st.tuples(st.integers(0, 7), st.integers(0, 7), st.sampled_from(sorted(CAUSAL_TYPES)), st.integers(0, 15))
    props = [
        Property("bounds", graphs, p_bounds),
        Property("no-causal-edge", graphs, p_none),
        Property("all-supported", graphs, p_all),
        Property("order", st.tuples(graphs, st.randoms(use_true_random=False)), p_order),
        Property("non-causal-ignored", graphs.flatmap(lambda jg: st.tuples(st.just(jg), st.lists(st.booleans(), min_size=len(jg.scores), max_size=len(jg.scores)))), p_noncausal),
        Property("monotone", st.tuples(graphs, added, st.booleans()), _pm_monotone(sc)),
    ]
    if reference is not False:
        props.append(Property("reference", verdicts, p_ref))
    return props


def _rm_properties(sc: _Scorer, reference: bool | Callable[..., Any]) -> list[Property]:
    """``bounds``, ``order``, ``top``, ``constant`` (and ``reference``) of an RM scorer."""
    # late: pulls hypothesis
    from causalcheck import strategies as cs
    from hypothesis import strategies as st

    def rm(prop: str, scores: Sequence[int]) -> float:
        return sc.run(prop, (list(scores),), f"  criterion scores: {list(scores)}")

    def r_bounds(s: list[int]) -> None:
        sc.bounded("bounds", rm("bounds", s), f"  criterion scores: {s}")

    def r_order(case: Any) -> None:
        s, rnd = case
        s2 = list(s)
        rnd.shuffle(s2)
        a, b = rm("order", s), rm("order", s2)
        if not _close(a, b):
            raise sc.fail("order", f"  criterion scores: {s}\n  permuted: {s2}", f"{a!r} before, {b!r} after", "the same value")

    def r_top(n: int) -> None:
        x = rm("top", [10] * n)
        if not _close(x, 1.0):
            raise sc.fail("top", f"  criterion scores: {[10] * n}", f"{x!r}", "1.0 (every criterion at the top band, 10)")

    def r_const(case: tuple[int, int]) -> None:
        s, n = case
        x = rm("constant", [s] * n)
        if not _close(x, s / 10):
            raise sc.fail("constant", f"  criterion scores: {[s] * n}", f"{x!r}", f"{s / 10!r} (= {s}/10)")

    def r_ref(s: list[int]) -> None:
        a = rm("reference", s)
        shown = f"  criterion scores: {s}"
        b = sc.reference_value("reference", reference, (list(s),), shown) if callable(reference) else compute_rm(s)[0]
        name = runner.describe(reference) if callable(reference) else "causalcheck.explain.scoring.compute_rm"
        if not _close(a, b):
            raise sc.fail("reference", shown, f"fn = {a!r}, reference {name} = {b!r}", "equal values")

    scores = cs.criterion_scores()
    props = [
        Property("bounds", scores, r_bounds),
        Property("order", st.tuples(scores, st.randoms(use_true_random=False)), r_order),
        Property("top", st.integers(1, 8), r_top),
        Property("constant", st.tuples(st.integers(1, 10), st.integers(1, 8)), r_const),
    ]
    if reference is not False:
        props.append(Property("reference", scores, r_ref))
    return props


def _final_properties(sc: _Scorer, reference: bool | Callable[..., Any]) -> list[Property]:
    """``bounds``, ``mean-of-parts`` and ``monotone`` of a Final scorer."""
    from hypothesis import strategies as st

    unit = st.one_of(st.sampled_from([0.0, 0.5, 1.0]), st.floats(0.0, 1.0, allow_nan=False))

    def fin(prop: str, p: float, r: float) -> float:
        return sc.run(prop, (p, r), f"  pm: {p!r}\n  rm: {r!r}")

    def f_bounds(c: tuple[float, float]) -> None:
        sc.bounded("bounds", fin("bounds", *c), f"  pm: {c[0]!r}\n  rm: {c[1]!r}")

    def f_mean(c: tuple[float, float]) -> None:
        x = fin("mean-of-parts", *c)
        shown = f"  pm: {c[0]!r}\n  rm: {c[1]!r}"
        want = sc.reference_value("mean-of-parts", reference, c, shown) if callable(reference) else compute_final(*c)
        if not _close(x, want):
            name = f"reference {runner.describe(reference)}" if callable(reference) else "= (PM + RM) / 2"
            raise sc.fail("mean-of-parts", shown, f"{x!r}", f"{want!r} ({name})")

    def f_mono(c: tuple[float, float, float]) -> None:
        p, r, d = c
        lo, hi = fin("monotone", p * (1 - d), r), fin("monotone", p, r)
        if lo > hi + 1e-12:
            raise sc.fail("monotone", f"  pm: {p * (1 - d)!r} then {p!r}\n  rm: {r!r}", f"{lo!r} then {hi!r}", "a higher PM never lowers Final")

    return [
        Property("bounds", st.tuples(unit, unit), f_bounds),
        Property("mean-of-parts", st.tuples(unit, unit), f_mean),
        Property("monotone", st.tuples(unit, unit, unit), f_mono),
    ]


def _answer_properties(sc: _Scorer, metric_of_answer: Literal["pm", "final"]) -> list[Property]:
    """``bounds``, ``paraphrase``, ``shuffle`` (and for a PM-like score ``no-causal-cue``) of an end-to-end answer scorer."""
    # late: pulls hypothesis
    from causalcheck import strategies as cs
    from hypothesis import strategies as st

    answers = cs.whatif_answers()

    def ans(prop: str, q: str, a: str) -> float:
        return sc.run(prop, (q, a), f"  question: {q!r}\n  answer:   {a!r}")

    def a_bounds(a: Any) -> None:
        sc.bounded("bounds", ans("bounds", a.question, a.text), f"  answer: {a.text!r}")

    def a_para(a: Any) -> None:
        x, y = ans("paraphrase", a.question, a.text), ans("paraphrase", a.question, a.paraphrase)
        if y > x + 1e-12:
            raise sc.fail("paraphrase", f"  question: {a.question!r}\n  answer:     {a.text!r}\n  paraphrase: {a.paraphrase!r}", f"{x!r} for the answer, {y!r} for the paraphrase without causal cues", "the paraphrase scores no higher")

    def a_shuffle(case: Any) -> None:
        a, rnd = case
        scrambled = a.text
        for clause in a.clauses:
            words = clause.split()
            rnd.shuffle(words)
            scrambled = scrambled.replace(clause, " ".join(words)).replace(clause[:1].upper() + clause[1:], " ".join(words).capitalize())
        x, y = ans("shuffle", a.question, a.text), ans("shuffle", a.question, scrambled)
        if y > x + 1e-12:
            raise sc.fail("shuffle", f"  question: {a.question!r}\n  answer:    {a.text!r}\n  scrambled: {scrambled!r}", f"{x!r} for the answer, {y!r} scrambled", "the scrambled answer scores no higher")

    def a_nocue(a: Any) -> None:
        y = ans("no-causal-cue", a.question, a.paraphrase)
        if y != 0.0:
            raise sc.fail("no-causal-cue", f"  answer: {a.paraphrase!r}", f"{y!r}", "0.0 (no causal cue, so no causal edge)")

    props = [
        Property("bounds", answers, a_bounds),
        Property("paraphrase", answers, a_para),
        Property("shuffle", st.tuples(answers, st.randoms(use_true_random=False)), a_shuffle),
    ]
    if metric_of_answer == "pm":
        props.append(Property("no-causal-cue", answers, a_nocue))
    return props


def check_explanation_scorer(
    fn: Callable[..., Any],
    metric: Metric = "pm",
    *,
    convert: Callable[..., tuple[Any, ...]] | None = None,
    value: Callable[[Any], Any] | None = None,
    reference: bool | Callable[..., Any] = True,
    metric_of_answer: Literal["pm", "final"] = "final",
    scores: Literal["verdicts", "graded"] = "verdicts",
    skip: Sequence[str] = (),
    profile: str | None = None,
    max_examples: int | None = None,
) -> SuiteReport:
    """Check a PM / RM / Final / end-to-end answer scorer (module docstring for the properties).

    *convert* maps the suite's inputs (``(graph, scores)``, ``(criterion_scores,)``,
    ``(pm, rm)`` or ``(question, answer)``) to *fn*'s arguments as a tuple; *value* maps
    *fn*'s output to a number (default: the number itself, or the first item of a tuple —
    :func:`~causalcheck.explain.scoring.compute_rm` returns ``(rm, raw)``).  *scores* (PM only):
    ``"verdicts"`` compares with the reference on judge verdicts (0 / 1), ``"graded"`` on any
    score in [0, 1] too (for a PM that averages graded judge scores as the May evaluator does).
    """
    require_extra("causalcheck.strategies", "hypothesis")  # what the suite draws with; before any check, as an import would
    if metric not in ("pm", "rm", "final", "answer"):
        raise InputFormatError(f"metric={metric!r} must be 'pm', 'rm', 'final' or 'answer'")
    convention = _CONVENTIONS[metric]
    if metric == "answer" and metric_of_answer == "pm":
        convention += "; an answer without a causal cue scores 0 (PM)"
    sc = _Scorer(fn, convert, value, convention, runner.describe(fn))
    if scores not in ("verdicts", "graded"):
        raise InputFormatError(f"scores={scores!r} must be 'verdicts' or 'graded'")
    if metric == "pm":
        props = _pm_properties(sc, reference, scores == "graded")
    elif metric == "rm":
        props = _rm_properties(sc, reference)
    elif metric == "final":
        props = _final_properties(sc, reference)
    else:
        props = _answer_properties(sc, metric_of_answer)
    return runner.run_suite(SUITE, props, subject=sc.subject, profile=profile, max_examples=max_examples, skip=skip)
