"""``check_graph_metric``: the properties every graph distance, similarity, precision, recall or F1 must have.

``fn(truth, estimate)`` is the rule under test.  By default it receives each graph as a
list of ``(cause, effect)`` pairs (DAGs) — ``convert=`` turns a
:class:`causalcheck.graphs.Graph` into whatever it takes instead (and is the identity for
non-DAG kinds unless given).  Its output is a number, or an object with ``.f1`` or
``.total`` (``value=`` extracts anything else).

Properties (names for ``skip=``), each on generated graphs and (truth, estimate) pairs with
known edits (:func:`causalcheck.strategies.graph_pairs`):

``bounds``
    similarity in [0, 1], distance ≥ 0, always a finite number;
``identity``
    ``fn(g, g)`` is perfect (1, or 0 for a distance);
``empty``
    the empty-set convention: nothing to measure on either side gives *empty* (default
    1 / 0, CausaLab's); something true but nothing estimated (or the reverse) is 0 for a
    similarity;
``symmetry``
    ``fn(t, e) == fn(e, t)`` (unless ``symmetric=False``);
``renaming``
    renaming nodes consistently in both graphs (to awkward names of the dialect) changes nothing;
``reordering``
    shuffling the order of edges and nodes changes nothing;
``names``
    the name policy: under ``"exact"`` a node respelled by case, blanks or a frequency
    alias is a *different* node (scores like a fresh name); under ``"causalab"`` it is the
    *same* node (scores like the original);
``single-edit``
    one edit that changes what the metric measures (its *scope*) makes the score imperfect,
    one that does not leaves it perfect; for a distance over all edges the cost is
    *costs* — a reversal ``reversal_cost``, an addition, a removal or a mark change 1.  A
    precision stays perfect while everything estimated is true (a removal), a recall while
    everything true is estimated (an addition), each with set_prf's empty-set rules;
    ``edits=`` states the rule per edit instead (``{"add": "perfect", "reverse": "imperfect"}``);
``edits-add-up``
    a distance over all edges charges k edits on distinct node pairs the sum of their costs;
``reference``
    ``fn`` equals *reference* (a callable taking what ``fn`` takes, or a name in
    :data:`REFERENCES`: causalcheck's implementation under the stated convention); an
    undefined reference value (``None``) is a failure shown as ``undefined (None)``;
``new-node`` (with ``nodes="union"``)
    an estimated edge to a node the truth lacks counts as one addition;
``self-loops`` / ``duplicates`` / ``isolated`` (with ``include=``)
    a self-loop, a repeated edge or an isolated node added to the input leaves the score
    unchanged, or *fn* refuses it with an exception named in ``refuses=``.

>>> from causalcheck.metrics import shd
>>> check_graph_metric(lambda t, e: shd(e, t, names="exact").total, "distance", reference="shd", max_examples=20).properties[:3]
('bounds', 'identity', 'empty')

One module because it is one suite, :func:`check_graph_metric`, and its reference
implementations and set-up exist only for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from causalcheck import metrics
from causalcheck.base.errors import InputFormatError, require_extra
from causalcheck.base.options import option_names, options_of, with_option_keywords
from causalcheck.graphchecks.scores import compare
from causalcheck.graphs.model import Graph, GraphEdge, Mark
from causalcheck.graphs.names import NamePolicy, apply_policy, get_policy
from causalcheck.metrics import roots_normalized, set_prf, shd
from causalcheck.testing import runner
from causalcheck.testing.runner import Property, PropertyFailure, SuiteReport

__all__ = ["KINDS", "QUIRKS", "REFERENCES", "GraphMetricOptions", "check_graph_metric"]

Kind = Literal["distance", "similarity", "precision", "recall", "f1", "other"]
KINDS: tuple[str, ...] = ("distance", "similarity", "precision", "recall", "f1", "other")
#: What one single edit must do to the score: stay perfect, become imperfect, anything, or cost a number.
EditRule = Literal["perfect", "imperfect", "any"] | float
#: Input quirks a suite can add to what *fn* receives (``include=``): each must be ignored or refused.
QUIRKS: tuple[str, ...] = ("self-loops", "duplicates", "isolated")
#: The kinds of graphs a suite draws (``graphs=``), what a rule can measure (``scope=``) and the single edits (``edits=``).
GRAPH_KINDS: tuple[str, ...] = ("dag", "pdag", "cpdag", "pag")
SCOPES: tuple[str, ...] = ("edges", "skeleton", "arrowheads", "parents", "roots")
EDIT_OPS: tuple[str, ...] = ("add", "remove", "reverse", "change")
SUITE = "check_graph_metric"
_FRESH = "\u27e8fresh node\u27e9"


def _pairs(g: Graph) -> list[tuple[str, str]]:
    return [(e.u, e.v) for e in g.edges if e.is_directed]


def _ref_shd(double: bool) -> Callable[[Graph, Graph, NamePolicy, str | None], float]:
    def ref(t: Graph, e: Graph, pol: NamePolicy, target: str | None) -> float:
        return float(shd(_pairs(e), _pairs(t), names=pol, double_count_reversal=double).total)

    return ref


def _ref_prf(which: str) -> Callable[[Graph, Graph, NamePolicy, str | None], float]:
    def ref(t: Graph, e: Graph, pol: NamePolicy, target: str | None) -> float:
        if which == "edge":
            return metrics.edge_prf(_pairs(e), _pairs(t), names=pol).f1
        fn = metrics.parent_prf if which == "parent" else metrics.root_prf
        return fn(_pairs(e), _pairs(t), target, names=pol).f1

    return ref


def _ref_compare(field: str) -> Callable[[Graph, Graph, NamePolicy, str | None], float | None]:
    def ref(t: Graph, e: Graph, pol: NamePolicy, target: str | None) -> float | None:
        tt, ee = apply_policy(t, pol), apply_policy(e, pol)
        if field == "shd":
            return float(compare(tt, ee, nodes="union", basis="given").shd)
        if field == "sid":
            sid = compare(tt, ee.with_nodes(tt.nodes), nodes="union", basis="given").sid
            return None if sid is None else float(sid.count)
        scope, which = field.split("-")
        got = set_prf(_arrowheads(ee), _arrowheads(tt)) if scope == "arrowhead" else set_prf(ee.skeleton, tt.skeleton)
        return float(getattr(got, which))

    return ref


def _ref_edge(which: str) -> Callable[[Graph, Graph, NamePolicy, str | None], float]:
    def ref(t: Graph, e: Graph, pol: NamePolicy, target: str | None) -> float:
        return float(getattr(metrics.edge_prf(_pairs(e), _pairs(t), names=pol), which))

    return ref


def _arrowheads(g: Graph) -> frozenset[tuple[str, str]]:
    """The arrowhead cells of *g*: ``(i, j)`` for every edge ``i *-> j`` (causal-learn's ArrowConfusion)."""
    return frozenset((x.other(n), n) for x in g.edges for n in (x.u, x.v) if x.mark_at(n) is Mark.ARROW)


Ref = Callable[[Graph, Graph, NamePolicy, str | None], "float | None"]

#: Named reference implementations: name -> (rule, what it measures, the convention in words).
REFERENCES: dict[str, tuple[Ref, str, str]] = {
    "shd": (_ref_shd(False), "edges", "causalcheck.metrics.shd: missing + extra + reversed, a reversal counted once"),
    "shd-double": (_ref_shd(True), "edges", "causalcheck.metrics.shd(double_count_reversal=True): a reversal costs 2"),
    "edge-f1": (_ref_prf("edge"), "edges", "causalcheck.metrics.edge_prf: directed-edge F1, F1(∅, ∅) = 1"),
    "edge-precision": (_ref_edge("precision"), "edges", "causalcheck.metrics.edge_prf(...).precision: directed edges, P(∅, T) = 0, P(∅, ∅) = 1"),
    "edge-recall": (_ref_edge("recall"), "edges", "causalcheck.metrics.edge_prf(...).recall: directed edges, R(E, ∅) = 0, R(∅, ∅) = 1"),
    "parent-f1": (_ref_prf("parent"), "parents", "causalcheck.metrics.parent_prf: F1 of the edges into the target"),
    "root-f1": (_ref_prf("root"), "roots", "causalcheck.metrics.root_prf: F1 of the parentless ancestors of the target"),
    "causal-learn-shd": (_ref_compare("shd"), "edges", "causalcheck.graphs.compare(...).shd = causal-learn's SHD: pairs whose edge differs in presence or a mark"),
    "skeleton-f1": (_ref_compare("skeleton-f1"), "skeleton", "F1 of the adjacencies (causal-learn's AdjacencyConfusion) with the set_prf empty-set rules: F1(∅, ∅) = 1, F1(T, ∅) = 0"),
    "skeleton-precision": (_ref_compare("skeleton-precision"), "skeleton", "precision of the adjacencies (AdjacencyConfusion) with the set_prf empty-set rules"),
    "skeleton-recall": (_ref_compare("skeleton-recall"), "skeleton", "recall of the adjacencies (AdjacencyConfusion) with the set_prf empty-set rules"),
    "arrowhead-f1": (_ref_compare("arrowhead-f1"), "arrowheads", "F1 of the arrowhead cells i *-> j (causal-learn's ArrowConfusion) with the set_prf empty-set rules"),
    "arrowhead-precision": (_ref_compare("arrowhead-precision"), "arrowheads", "precision of the arrowhead cells i *-> j (ArrowConfusion) with the set_prf empty-set rules"),
    "arrowhead-recall": (_ref_compare("arrowhead-recall"), "arrowheads", "recall of the arrowhead cells i *-> j (ArrowConfusion) with the set_prf empty-set rules"),
    "sid": (_ref_compare("sid"), "edges", "causalcheck.graphs.compare(...).sid.count = gadjid.sid: ordered pairs whose interventional distribution the estimate's parent adjustment gets wrong (DAGs)"),
}

#: Defaults a named reference brings (the caller's explicit keywords win): SID is asymmetric, defined on DAGs only,
#: and single edits have no fixed cost — an addition that keeps the estimate a DAG supergraph of the truth costs 0
#: (Peters & Bühlmann 2015, a parent set of a supergraph is a valid adjustment set), a reversal at least 1.
_REFERENCE_DEFAULTS: dict[str, dict[str, Any]] = {
    "sid": {"symmetric": False, "acyclic": True, "edits": {"add": "perfect", "remove": "any", "reverse": "imperfect", "change": "any"}},
}


def _number(out: Any, value: Callable[[Any], Any] | None) -> float | None:
    x = value(out) if value is not None else out
    if value is None and not isinstance(x, (int, float)):
        for attr in ("f1", "total"):
            if hasattr(x, attr):
                x = getattr(x, attr)
                break
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return None
    return float(x)


@dataclass(frozen=True)
class GraphMetricOptions:
    """Every setting of :func:`check_graph_metric`: its name, default, check and meaning, defined once here.

    ``check_graph_metric(fn, kind, names="causalab", graphs="cpdag")`` is
    ``check_graph_metric(fn, kind, options=GraphMetricOptions(names="causalab", graphs="cpdag"))``:
    the keywords of :func:`check_graph_metric` are these fields (its signature is derived from
    them), so the suites of several metrics can share one value (vary it with
    :func:`dataclasses.replace`).  A value is checked when it is made: a wrong setting raises
    :class:`~causalcheck.base.errors.InputFormatError` naming it, before anything runs.

    >>> GraphMetricOptions(names="causalab").reversal_cost
    1
    >>> GraphMetricOptions(include=("loops",))
    Traceback (most recent call last):
    ...
    causalcheck.base.errors.InputFormatError: include=['loops'] must name quirks among ['self-loops', 'duplicates', 'isolated']

    Attributes:
        convert: Graph -> the argument *fn* takes (default: ``(cause, effect)`` pairs for
            DAGs, the Graph itself otherwise).
        value: *fn*'s output -> the number to check (default: the number, ``.f1``, ``.total``).
        reference: a callable with *fn*'s signature, or a name in :data:`REFERENCES`.
        graphs: the kind of graphs drawn, ``"dag"``, ``"pdag"``, ``"cpdag"`` or ``"pag"`` (edits
            follow: reversals for DAGs, ``--`` for PDAGs, ...).
        names: the name policy *fn* follows (``"exact"`` or ``"causalab"``).
        target: the outcome node for ``scope="parents"/"roots"`` (default: the policy's).
        scope: what *fn* measures — ``"edges"``, ``"skeleton"``, ``"arrowheads"``, ``"parents"``,
            ``"roots"`` or a function of a Graph (default: the reference's, else ``"edges"``).
        reversal_cost: what a distance charges for one reversal (2 for CDT's double count).
        costs: the cost of each edit (``add``, ``remove``, ``reverse``, ``change``) for a
            distance over all edges (default: ``reversal_cost`` and 1).
        empty: the score when neither graph has anything in scope (default: 1 / 0).
        symmetric: check ``fn(t, e) == fn(e, t)`` (default: yes, except for precision, recall and SID).
        estimate_first: *fn* takes ``(estimate, truth)`` (as :mod:`causalcheck.metrics` does).
        max_nodes: the most nodes a drawn graph has.
        skip: property names not to check.
        profile: the hypothesis profile (:mod:`causalcheck.testing.profiles`; default: the session's).
        max_examples: examples per property, overriding the profile's.
        acyclic: draw only acyclic estimates (additions follow a topological order, no reversal closes a
            cycle), for metrics defined on DAGs only such as SID (default: yes for ``reference="sid"``).
        edits: what one edit must do, by op (``add``, ``remove``, ``reverse``, ``change``): ``"perfect"``,
            ``"imperfect"``, ``"any"`` or a cost; ops not named follow the kind (``reference="sid"`` brings
            add perfect, reverse imperfect, remove any).
        include: input quirks to add to what *fn* receives, one property each: ``"self-loops"`` (an
            ``(a, a)`` pair), ``"duplicates"`` (an edge listed twice) — both on lists of pairs — and
            ``"isolated"`` (a node without edges, in both graphs); each must leave the score unchanged
            or be refused with an exception in *refuses*.
        refuses: the exception class(es) *fn* documents raising on such input (e.g.
            ``(InputFormatError, ValueError)``): raising one of them is a pass.
        properties: your own properties, ``{name: check(truth, estimate, score)}`` run on drawn
            pairs; ``score(t, e)`` calls *fn* through *convert*; ``check`` fails by returning False
            or raising ``AssertionError``.
        nodes: ``"same"`` (default: both graphs always share one node set) or ``"union"`` (*fn* also
            takes graphs over different nodes: a ``new-node`` property adds an estimated edge to a
            node the truth lacks, judged as an addition — cost 1 for a distance).
    """

    convert: Callable[[Graph], Any] | None = None
    value: Callable[[Any], Any] | None = None
    reference: str | Callable[..., Any] | None = None
    graphs: Literal["dag", "pdag", "cpdag", "pag"] = "dag"
    names: NamePolicy | str = "exact"
    target: str | None = None
    scope: str | Callable[[Graph], Any] | None = None
    reversal_cost: float = 1
    costs: Mapping[str, float] | None = None
    empty: float | None = None
    symmetric: bool | None = None
    estimate_first: bool = False
    max_nodes: int = 6
    skip: Sequence[str] = ()
    profile: str | None = None
    max_examples: int | None = None
    acyclic: bool | None = None
    edits: Mapping[str, EditRule] | None = None
    include: Sequence[str] = ()
    refuses: type[BaseException] | tuple[type[BaseException], ...] = ()
    properties: Mapping[str, Callable[..., Any]] | None = None
    nodes: Literal["same", "union"] = "same"

    def __post_init__(self) -> None:
        """Check the settings that need no rule under test (the kind's are checked by :func:`check_graph_metric`)."""
        if self.graphs not in GRAPH_KINDS:
            raise InputFormatError(f"graphs={self.graphs!r} must be one of {list(GRAPH_KINDS)!r}")
        if self.nodes not in ("same", "union"):
            raise InputFormatError(f"nodes={self.nodes!r} must be 'same' or 'union'")
        if isinstance(self.include, str):
            raise InputFormatError(f"include={self.include!r} must be a sequence of quirk names, e.g. ({self.include!r},)")
        bad = sorted(set(self.include) - set(QUIRKS))
        if bad:
            raise InputFormatError(f"include={bad!r} must name quirks among {list(QUIRKS)!r}")
        if isinstance(self.reference, str) and self.reference not in REFERENCES:
            raise InputFormatError(f"reference={self.reference!r} must be a callable or one of {sorted(REFERENCES)!r}")
        if isinstance(self.scope, str) and self.scope not in SCOPES:
            raise InputFormatError(f"scope={self.scope!r} must be 'edges', 'skeleton', 'arrowheads', 'parents', 'roots' or a function")
        if self.edits is not None:
            wrong = {k: v for k, v in self.edits.items() if k not in EDIT_OPS or not _is_edit_rule(v)}
            if wrong:
                raise InputFormatError(f"edits={wrong!r}: keys are add / remove / reverse / change, values 'perfect', 'imperfect', 'any' or a cost")
        _errors(self.refuses)

    @classmethod
    def of(cls, options: GraphMetricOptions | None, keywords: Mapping[str, Any]) -> GraphMetricOptions:
        """The options of one :func:`check_graph_metric` call: *options*, or the value its *keywords* make (not both)."""
        return options_of(cls, options, keywords, what="check_graph_metric")

    def reference_default(self, field: str, fallback: bool) -> bool:
        """*field* (``symmetric`` or ``acyclic``) as given, else as the named reference brings it, else *fallback*."""
        given = getattr(self, field)
        if given is not None:
            return bool(given)
        defaults = _REFERENCE_DEFAULTS.get(self.reference, {}) if isinstance(self.reference, str) else {}
        return bool(defaults.get(field, fallback))


#: The settings of :func:`check_graph_metric`, in order: the fields of :class:`GraphMetricOptions`.
OPTION_NAMES: tuple[str, ...] = option_names(GraphMetricOptions)


@dataclass(frozen=True)
class _Setup:
    """The rule under test with its resolved convention; its methods are the properties."""

    fn: Callable[..., Any]
    kind: Kind
    convert: Callable[[Graph], Any]
    value: Callable[[Any], Any] | None
    policy: NamePolicy
    target: str | None
    scope: str | Callable[[Graph], Any]
    empty: float
    costs: Mapping[str, float]
    estimate_first: bool
    convention: str
    subject: str
    reference: str | Callable[..., Any] | None = None
    ref_fn: Callable[[Graph, Graph], float | None] | None = None
    edits: Mapping[str, EditRule] | None = None
    refuses: tuple[type[BaseException], ...] = ()

    @property
    def perfect(self) -> float:
        return 0.0 if self.kind == "distance" else 1.0

    @property
    def bounded(self) -> bool:
        """A score in [0, 1] with 1 perfect: a similarity, precision, recall or F1."""
        return self.kind in ("similarity", "precision", "recall", "f1")

    @property
    def costs_all_edges(self) -> bool:
        """A distance over all edges: its single edits have stated costs that add up."""
        if self.edits is not None:
            return all(isinstance(v, (int, float)) for v in self.edits.values())
        return self.kind == "distance" and self.scope == "edges"

    @property
    def reference_name(self) -> str:
        ref = self.reference
        return ref if isinstance(ref, str) else runner.describe(ref) if ref is not None else ""

    def edit_rule(self, op: str, t: Graph, e: Graph) -> EditRule:
        """What one *op* from *t* to *e* must do to the score: ``edits=``, else the cost, else by the kind."""
        if self.edits is not None and op in self.edits:
            return self.edits[op]
        if self.costs_all_edges:
            return self.costs[op]
        return "perfect" if self.perfect_on(self.measured(t), self.measured(e)) else "imperfect"

    def perfect_on(self, tm: frozenset[Any], em: frozenset[Any]) -> bool:
        """Whether the kind scores measured sets *tm* (truth) and *em* (estimate) perfectly (set_prf's empty rules).

        Precision is perfect when everything estimated is true (and something is estimated, unless nothing is
        true); recall when everything true is estimated (likewise); a distance, similarity or F1 when both agree.
        """
        if self.kind == "precision":
            return em <= tm and (bool(em) or not tm)
        if self.kind == "recall":
            return tm <= em and (bool(tm) or not em)
        return tm == em

    def show(self, g: Graph) -> str:
        shown = self.convert(g)
        return repr(shown) if isinstance(shown, (list, tuple, Graph)) else repr(g)

    def inputs(self, t: Graph, e: Graph, extra: str = "") -> str:
        lines = [f"  convention: {self.convention}", f"  truth:    {self.show(t)}", f"  estimate: {self.show(e)}"]
        if extra:
            lines.append(extra)
        return "\n".join(lines)

    def score(self, prop: str, t: Graph, e: Graph, extra: str = "") -> float:
        args = (self.convert(e), self.convert(t)) if self.estimate_first else (self.convert(t), self.convert(e))
        shown = self.inputs(t, e, extra)
        out = runner.call(SUITE, prop, self.subject, self.fn, args, shown)
        x = _number(out, self.value)
        if x is None or not math.isfinite(x):
            raise PropertyFailure(SUITE, prop, f"{shown}\n  got:      {out!r}, not a finite number (pass value= to extract one)", self.subject)
        return x

    def fail(self, prop: str, t: Graph, e: Graph, got: str, expected: str, extra: str = "") -> PropertyFailure:
        return PropertyFailure(SUITE, prop, f"{self.inputs(t, e, extra)}\n  got:      {got}\n  expected: {expected}", self.subject)

    def measured(self, g: Graph) -> frozenset[Any]:
        """What the metric measures in *g* (its scope), names mapped by the policy."""
        pol = self.policy
        mapping = {n: pol(n) for n in g.nodes}
        edges = [x.renamed(mapping) for x in g.edges]
        if callable(self.scope):
            return frozenset(self.scope(g))
        if self.scope == "edges":
            return frozenset(edges)
        if self.scope == "skeleton":
            return frozenset(x.pair for x in edges)
        if self.scope == "arrowheads":
            return _arrowheads(Graph(tuple(mapping.values()), tuple(edges)))
        directed = {(x.u, x.v) for x in edges if x.is_directed}
        tgt = self.target
        if self.scope == "parents":
            return frozenset(p for p in directed if p[1] == tgt)

        return roots_normalized(directed, tgt or "")

    # ------------------------------------------------------------------ the properties
    def bounds(self, p: Any) -> None:
        x = self.score("bounds", p.truth, p.estimate)
        ok = 0.0 <= x <= 1.0 if self.bounded else x >= 0.0
        if not ok:
            raise self.fail("bounds", p.truth, p.estimate, f"{x!r}", "a value in [0, 1]" if self.bounded else "a value >= 0")

    def identity(self, g: Graph) -> None:
        if not self.measured(g):
            return
        x = self.score("identity", g, g)
        if not _close(x, self.perfect):
            raise self.fail("identity", g, g, f"fn(g, g) = {x!r}", f"{self.perfect:g} (a graph compared with itself)")

    def empty_sets(self, p: Any) -> None:
        t, e = p.truth, p.estimate
        empty_t, empty_e = t.with_edges(()), e.with_edges(())
        x = self.score("empty", empty_t, empty_e)
        if not self.measured(empty_t) and not self.measured(empty_e) and not _close(x, self.empty):
            raise self.fail("empty", empty_t, empty_e, f"{x!r}", f"{self.empty:g} (nothing in scope on either side)")
        if self.bounded:
            for tt, ee, what in ((t, empty_e, "nothing estimated"), (empty_t, e, "nothing true")):
                if self.measured(tt) != self.measured(ee) and (not self.measured(tt) or not self.measured(ee)):
                    y = self.score("empty", tt, ee)
                    if not _close(y, 0.0):
                        raise self.fail("empty", tt, ee, f"{y!r}", f"0 ({what}, while the other side has something)")

    def symmetry(self, p: Any) -> None:
        a = self.score("symmetry", p.truth, p.estimate)
        b = self.score("symmetry", p.estimate, p.truth)
        if not _close(a, b):
            raise self.fail("symmetry", p.truth, p.estimate, f"fn(truth, estimate) = {a!r}, fn(estimate, truth) = {b!r}", "equal values")

    def renaming(self, case: tuple[Any, list[str]]) -> None:
        p, new = case
        mapping = dict(zip(p.truth.nodes, new, strict=False))
        t2, e2 = p.truth.renamed(mapping), p.estimate.renamed(mapping)
        a = self.score("renaming", p.truth, p.estimate)
        b = self.score("renaming", t2, e2, f"  renamed:  {mapping!r}\n  renamed truth:    {self.show(t2)}\n  renamed estimate: {self.show(e2)}")
        if not _close(a, b):
            raise self.fail("renaming", p.truth, p.estimate, f"{a!r} before, {b!r} after renaming {mapping!r}", "the same value")

    def reordering(self, case: tuple[Any, Any]) -> None:
        p, rnd = case

        def shuffled(g: Graph) -> Graph:
            nodes, edges = list(g.nodes), list(g.edges)
            rnd.shuffle(nodes)
            rnd.shuffle(edges)
            return Graph(tuple(nodes), tuple(edges))

        t2, e2 = shuffled(p.truth), shuffled(p.estimate)
        a = self.score("reordering", p.truth, p.estimate)
        b = self.score("reordering", t2, e2, f"  reordered truth:    {self.show(t2)}\n  reordered estimate: {self.show(e2)}")
        if not _close(a, b):
            raise self.fail("reordering", p.truth, p.estimate, f"{a!r} before, {b!r} after reordering the edges", "the same value")

    def name_policy(self, case: tuple[Any, str, str]) -> None:
        p, node, spelling = case
        if spelling in p.estimate.nodes or spelling == _FRESH:
            return
        pol = self.policy
        # both graphs keep one node set (the old name stays as an isolated node): some rules need that
        truth = p.truth.with_nodes((*p.truth.nodes, spelling))
        respelled = Graph((*p.estimate.renamed({node: spelling}).nodes, node), p.estimate.renamed({node: spelling}).edges)
        what = f"  respelled: {node!r} -> {spelling!r} in the estimate"
        b = self.score("names", truth, respelled, what)
        if pol.merges:
            a = self.score("names", p.truth, p.estimate)
            if not _close(a, b):
                raise self.fail("names", truth, respelled, f"{b!r}, but {a!r} with {node!r} as written", f"{a!r}: under {pol.name!r} {spelling!r} is the node {pol(node)!r}", what)
        else:
            fresh = Graph((*p.estimate.renamed({node: _FRESH}).nodes, node), p.estimate.renamed({node: _FRESH}).edges)
            a = self.score("names", p.truth.with_nodes((*p.truth.nodes, _FRESH)), fresh)
            if not _close(a, b):
                raise self.fail("names", truth, respelled, f"{b!r}, but {a!r} with a fresh name instead", f"{a!r}: under 'exact' {spelling!r} and {node!r} are different nodes", what)

    def single_edit(self, p: Any) -> None:
        ed = p.edits[0]
        x = self.score("single-edit", p.truth, p.estimate, f"  edit:     {ed}")
        rule = self.edit_rule(ed.op, p.truth, p.estimate)
        why = "" if self.edits is None or ed.op not in self.edits else f" (edits={{{ed.op!r}: {rule!r}}})"
        if isinstance(rule, (int, float)):
            if not _close(x, rule):
                raise self.fail("single-edit", p.truth, p.estimate, f"{x!r}", f"{rule:g} (the cost of one {ed.op})", f"  edit:     {ed}")
        elif rule == "imperfect" and _close(x, self.perfect):
            what = why or f": the {ed.op} changes what {'a ' + self.kind if self.kind != 'distance' else 'the metric'} measures"
            raise self.fail("single-edit", p.truth, p.estimate, f"{x!r}", f"an imperfect score{what}", f"  edit:     {ed}")
        elif rule == "perfect" and not _close(x, self.perfect):
            what = why or (f": the {ed.op} changes nothing the metric measures" if self.kind not in ("precision", "recall") else f": the {ed.op} loses nothing a {self.kind} counts")
            raise self.fail("single-edit", p.truth, p.estimate, f"{x!r}", f"{self.perfect:g}{what}", f"  edit:     {ed}")

    def new_node(self, case: tuple[Graph, int, bool]) -> None:
        """``nodes="union"``: an estimated edge to a node the truth lacks is one addition, judged as single edits are."""
        g, k, out = case
        node = g.nodes[k % len(g.nodes)]
        fresh = f"new{k}"
        if fresh in g.nodes:
            return
        edge = GraphEdge.directed(node, fresh) if out else GraphEdge.directed(fresh, node)
        est = Graph((*g.nodes, fresh), (*g.edges, edge))
        what = f"  edit:     add {edge} (the truth has no node {fresh!r})"
        x = self.score("new-node", g, est, what)
        rule = self.edit_rule("add", g, est)
        if isinstance(rule, (int, float)):
            if not _close(x, rule):
                raise self.fail("new-node", g, est, f"{x!r}", f"{rule:g} (the cost of one add; nodes='union')", what)
        elif rule == "imperfect" and _close(x, self.perfect):
            raise self.fail("new-node", g, est, f"{x!r}", "an imperfect score: the estimate has an edge the truth lacks", what)
        elif rule == "perfect" and not _close(x, self.perfect):
            raise self.fail("new-node", g, est, f"{x!r}", f"{self.perfect:g}: the added edge loses nothing a {self.kind} counts", what)

    def edits_add_up(self, p: Any) -> None:
        x = self.score("edits-add-up", p.truth, p.estimate, f"  edits:    {'; '.join(map(str, p.edits)) or 'none'}")
        want = sum(float(self.edits[e.op]) if self.edits is not None and e.op in self.edits else self.costs[e.op] for e in p.edits)
        if not _close(x, want):
            raise self.fail("edits-add-up", p.truth, p.estimate, f"{x!r}", f"{want:g} = the sum of the edit costs", f"  edits:    {'; '.join(map(str, p.edits))}")

    def agrees(self, p: Any) -> None:
        a = self.score("reference", p.truth, p.estimate)
        if self.ref_fn is not None:
            b = self.ref_fn(p.truth, p.estimate)
            raw: Any = b
        else:
            conv, reference = self.convert, self.reference
            args = (conv(p.estimate), conv(p.truth)) if self.estimate_first else (conv(p.truth), conv(p.estimate))
            assert callable(reference)
            raw = runner.call(SUITE, "reference", self.subject, reference, args, self.inputs(p.truth, p.estimate) + "\n  (in the reference)")
            b = _number(raw, self.value)
        name = self.reference_name
        if b is None or not math.isfinite(b):
            shown = "undefined (None)" if raw is None else f"{raw!r}, not a finite number"
            raise self.fail("reference", p.truth, p.estimate, f"fn = {a!r}, reference {name} = {shown}", f"a reference {name} defined on every example (or skip 'reference' here)")
        if not _close(a, b):
            raise self.fail("reference", p.truth, p.estimate, f"fn = {a!r}, reference {name} = {b!r}", "equal values")

    def quirk(self, case: tuple[Any, str, str, int, int]) -> None:
        """An input quirk (self-loop, duplicate edge, isolated node) is ignored (same score) or refused (``refuses=``)."""
        p, quirk, side, k, pos = case
        t, e = self.convert(p.truth), self.convert(p.estimate)
        nodes = list(p.truth.nodes)
        node = nodes[k % len(nodes)]
        if quirk == "isolated":
            fresh = f"isolated{k}"
            t2, e2 = self.convert(p.truth.with_nodes((*p.truth.nodes, fresh))), self.convert(p.estimate.with_nodes((*p.estimate.nodes, fresh)))
            what = f"  added:    the isolated node {fresh!r} to both graphs"
        else:
            t2, e2 = t, e
            if side in ("truth", "both"):
                t2 = _with_quirk(t, quirk, node, pos)
            if side in ("estimate", "both"):
                e2 = _with_quirk(e, quirk, node, pos)
            what = f"  added:    {'a self-loop ' + repr((node, node)) if quirk == 'self-loops' else 'a repeat of an edge'} to the {side if side != 'both' else 'truth and the estimate'}"
        if (t2, e2) == (t, e):
            return
        shown = f"  convention: {self.convention}\n  truth:    {t2!r}\n  estimate: {e2!r}\n{what}"
        a = self.score(quirk, p.truth, p.estimate)
        try:
            out = self.fn(*((e2, t2) if self.estimate_first else (t2, e2)))
        except self.refuses:
            return
        except Exception as exc:  # the function under test failed: report it as a property failure
            refused = f"; refuses={tuple(r.__name__ for r in self.refuses)!r}" if self.refuses else " (refuses= names the errors a metric documents)"
            raise PropertyFailure(SUITE, quirk, f"{shown}\n  raised:   {type(exc).__name__}: {exc}{refused}", self.subject) from exc
        b = _number(out, self.value)
        if b is None or not _close(a, b):
            raise PropertyFailure(SUITE, quirk, f"{shown}\n  got:      {out!r}, but {a!r} without it\n  expected: {a!r}: a {quirk.rstrip('s')} is no edge to measure (ignore it, or refuse it with an error in refuses=)", self.subject)

    def user_property(self, name: str, check: Callable[..., Any]) -> Callable[[Any], None]:
        """A property of the caller's own: ``check(truth, estimate, score)`` returns False or raises AssertionError when it fails."""

        def run(p: Any) -> None:
            def score(t: Graph, e: Graph) -> float:
                return self.score(name, t, e)

            try:
                ok = check(p.truth, p.estimate, score)
            except PropertyFailure:
                raise
            except AssertionError as exc:
                raise self.fail(name, p.truth, p.estimate, f"AssertionError: {exc}", f"the property {name!r} holds") from exc
            if ok is False:
                raise self.fail(name, p.truth, p.estimate, "False", f"the property {name!r} holds")

        return run


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _with_quirk(value: Any, quirk: str, node: str, pos: int) -> Any:
    """*value* (a list of ``(cause, effect)`` pairs) with a self-loop on *node* or a repeated edge inserted at *pos*."""
    # late: pulls hypothesis
    from causalcheck.strategies.graphs import (
        with_duplicate,
        with_self_loop,
    )

    if not isinstance(value, (list, tuple)) or not all(isinstance(x, tuple) and len(x) == 2 for x in value):
        raise PropertyFailure(SUITE, quirk, f"  include={quirk!r} adds to lists of (cause, effect) pairs; convert= gives {type(value).__name__} values")
    return with_self_loop(list(value), node, pos) if quirk == "self-loops" else with_duplicate(list(value), pos)


def _setup(fn: Callable[..., Any], kind: Kind, o: GraphMetricOptions) -> _Setup:
    """Resolve the options: the name policy and target, the reference, scope, costs, empty value and convention text."""
    if kind not in KINDS:
        raise InputFormatError(f"kind={kind!r} must be one of {list(KINDS)!r}")
    if kind == "other" and not o.properties and o.reference is None:
        raise InputFormatError("kind='other' checks only what holds for every metric: give properties= (your own) or reference=")
    pol = get_policy(o.names)
    tgt = pol(o.target) if o.target is not None else pol.target
    reference = o.reference
    ref_fn: Callable[[Graph, Graph], float | None] | None = None
    ref_text = ""
    ref_scope = "edges"
    if isinstance(reference, str):
        named, ref_scope, ref_text = REFERENCES[reference]

        def ref_fn(t: Graph, e: Graph) -> float | None:
            return named(t, e, pol, tgt)

    the_scope: str | Callable[[Graph], Any] = o.scope or ref_scope
    defaults = _REFERENCE_DEFAULTS.get(reference, {}) if isinstance(reference, str) else {}
    edits = o.edits if o.edits is not None else defaults.get("edits")
    if the_scope in ("parents", "roots") and tgt is None:
        raise InputFormatError(f"scope={the_scope!r} needs target= under names={pol.name!r}")
    conv = o.convert or (_pairs if o.graphs == "dag" else (lambda g: g))
    cost = dict(o.costs) if o.costs is not None else {"add": 1.0, "remove": 1.0, "reverse": float(o.reversal_cost), "change": 1.0}
    empty_value = o.empty if o.empty is not None else (0.0 if kind == "distance" else 1.0)
    parts = [_KIND_TEXT[kind]]
    if edits is not None:
        parts.append("single edits " + ", ".join(f"{k} {v if isinstance(v, str) else format(v, 'g')}" for k, v in edits.items()))
    elif kind == "distance" and the_scope == "edges":
        parts.append(f"edit costs {', '.join(f'{k} {v:g}' for k, v in cost.items())}")
    parts.append(f"measures {the_scope if isinstance(the_scope, str) else runner.describe(the_scope)}")
    parts.append(f"empty scope on both sides scores {empty_value:g}")
    parts.append(f"names {pol.name}" + (f" (target {tgt!r})" if tgt else ""))
    if ref_text or callable(reference):
        parts.append(f"reference {ref_text or runner.describe(reference)}")  # type: ignore[arg-type]
    if o.include:
        parts.append(f"{', '.join(o.include)} ignored" + (f" or refused ({', '.join(r.__name__ for r in _errors(o.refuses))})" if o.refuses else ""))
    return _Setup(
        fn, kind, conv, o.value, pol, tgt, the_scope, empty_value, cost, o.estimate_first, "; ".join(parts), runner.describe(fn),
        reference, ref_fn, edits, _errors(o.refuses),
    )


_KIND_TEXT = {
    "distance": "a distance (0 is perfect)",
    "similarity": "a similarity in [0, 1] (1 is perfect)",
    "f1": "an F1 in [0, 1] (1 is perfect)",
    "precision": "a precision in [0, 1]: 1 when everything estimated is true",
    "recall": "a recall in [0, 1]: 1 when everything true is estimated",
    "other": "a score with the properties given",
}


def _is_edit_rule(rule: Any) -> bool:
    """An ``edits=`` value: ``"perfect"``, ``"imperfect"``, ``"any"`` or a cost (a number, not a bool)."""
    return rule in ("perfect", "imperfect", "any") or (isinstance(rule, (int, float)) and not isinstance(rule, bool))


def _errors(refuses: type[BaseException] | tuple[type[BaseException], ...]) -> tuple[type[BaseException], ...]:
    out = refuses if isinstance(refuses, tuple) else (refuses,)
    if not all(isinstance(r, type) and issubclass(r, BaseException) for r in out):
        raise InputFormatError(f"refuses={refuses!r} must be an exception class or a tuple of them")
    return out


@dataclass(frozen=True)
class _Strategies:
    """What the properties draw: graphs, (truth, estimate) pairs, one-edit pairs, renamings and respellings."""

    truth: Any
    pairs: Any
    one_edit: Any
    renamed: Any
    respelled: Any


def _strategies(setup: _Setup, graphs: str, max_nodes: int, acyclic: bool = False) -> _Strategies:
    """The strategies of the suite for *graphs* of at most *max_nodes* nodes, names drawn under the setup's policy."""
    # late: pulls hypothesis
    from causalcheck import strategies as cs
    from hypothesis import strategies as st

    pol, tgt = setup.policy, setup.target
    names_st = cs.name_lists(pol, min_size=2, max_size=max_nodes, include_target=tgt is not None and pol.merges, awkward="pool")
    if tgt is not None and not pol.merges:
        names_st = cs.name_lists(pol, min_size=1, max_size=max_nodes - 1, awkward="pool").filter(lambda ns: tgt not in ns).flatmap(
            lambda ns: st.permutations([*ns, tgt])
        )
    base = cs.dags(names=names_st)
    truth_st: Any = {"dag": base, "pdag": cs.pdags(names=names_st), "cpdag": cs.cpdags(names=names_st), "pag": cs.pags(names=names_st)}[graphs]
    tokens = {"dag": ("->",), "pdag": ("->", "--"), "cpdag": ("->", "--"), "pag": ("o->", "o-o", "->", "<->")}[graphs]
    changed = (0, 0) if graphs == "dag" else (0, 2)
    pairs_st = cs.graph_pairs(truth_st, added=(0, 3), removed=(0, 3), reversed=(0, 3), changed=changed, tokens=tokens, acyclic=acyclic)
    ops = {"dag": ["add", "remove", "reverse"], "pag": ["add", "remove", "change"]}.get(graphs, ["add", "remove", "reverse", "change"])
    truth_with_edges = truth_st.filter(lambda g: len(g.edges) > 0)
    by_op = {
        op: cs.graph_pairs(
            truth_st if op == "add" else truth_with_edges,
            added=int(op == "add"),
            removed=int(op == "remove"),
            reversed=int(op == "reverse"),
            changed=int(op == "change"),
            tokens=tokens,
            acyclic=acyclic,
        ).filter(lambda p: len(p.edits) == 1)
        for op in ops
    }

    @st.composite
    def one_edit_st(draw: st.DrawFn) -> Any:
        return draw(by_op[draw(st.sampled_from(ops))])

    return _Strategies(truth_st, pairs_st, one_edit_st(), _renamings(setup, pairs_st), _respellings(setup, pairs_st))


def _respellings(setup: _Setup, pairs_st: Any) -> Any:
    """``(pair, node, spelling)``: a node of the estimate and another spelling of it (the same node or a confusable)."""
    # late: pulls hypothesis
    from causalcheck import strategies as cs
    from hypothesis import strategies as st

    pol, tgt = setup.policy, setup.target
    pads = st.sampled_from([(" ", ""), ("", " "), ("  ", ""), ("\t", ""), ("", "\n")])
    with_edges = pairs_st.filter(lambda p: len(p.estimate.edges) > 0)
    spellings_of_target = st.sampled_from(cs.FREQUENCY_SPELLINGS)

    @st.composite
    def respell_case_st(draw: st.DrawFn) -> tuple[Any, str, str]:
        p = draw(with_edges)
        node = draw(st.sampled_from([n for e in p.estimate.edges for n in (e.u, e.v)]))
        if pol.merges:  # another spelling of the same node
            if tgt is not None and pol(node) == tgt:
                return p, node, draw(spellings_of_target)
            left, right = draw(pads)
            return p, node, left + pol(node) + right
        how = draw(st.integers(0, 2))  # a confusable: padded, case-flipped, or another frequency alias
        if how == 1 and node.swapcase() != node:
            return p, node, node.swapcase()
        if how == 2 and pol(node) == node and node in cs.FREQUENCY_SPELLINGS:
            return p, node, draw(spellings_of_target)
        left, right = draw(pads)
        return p, node, left + node + right

    return respell_case_st()


def _renamings(setup: _Setup, pairs_st: Any) -> Any:
    """``(pair, new names)``: new names for the truth's nodes, a permutation of a pool that stays distinct under the policy."""
    # late: pulls hypothesis
    from causalcheck import strategies as cs
    from hypothesis import strategies as st

    pol, tgt = setup.policy, setup.target
    # new names: a permutation of a pool that stays distinct under the policy (cheap to draw and shrink)
    if pol.merges:
        pool = [*cs.CAUSALAB_PROPERTIES, "Density", "MOISTURE", "x1", "ph2"]
    else:
        pool = [n for n in cs.AWKWARD_NAMES if n != tgt]
    pool = [n for n in dict.fromkeys(pool) if tgt is None or pol(n) != tgt]

    @st.composite
    def renamed_st(draw: st.DrawFn) -> tuple[Any, list[str]]:
        p = draw(pairs_st)
        order = draw(st.permutations(pool))
        fresh = iter(order)
        names = [n if tgt is not None and pol(n) == tgt else next(fresh) for n in p.truth.nodes]
        if pol.merges:  # padded spellings of the new names: still the same node to the dialect
            names = [n if tgt is not None and pol(n) == tgt else (" " + n if draw(st.booleans()) else n) for n in names]
        return p, names

    return renamed_st()


def _properties(setup: _Setup, draws: _Strategies, o: GraphMetricOptions) -> list[Property]:
    """The suite's properties in their order (those of the kind; ``edits-add-up`` for distances over all edges,
    one per ``include=`` quirk, ``reference`` when given, then the caller's ``properties=``)."""
    from hypothesis import strategies as st

    props = []
    if setup.kind != "other":
        props += [
            Property("bounds", draws.pairs, setup.bounds),
            Property("identity", draws.truth, setup.identity),
            Property("empty", draws.pairs, setup.empty_sets),
        ]
    props += [
        Property("symmetry", draws.pairs, setup.symmetry),
        Property("renaming", draws.renamed, setup.renaming),
        Property("reordering", st.tuples(draws.pairs, st.randoms(use_true_random=False)), setup.reordering),
        Property("names", draws.respelled, setup.name_policy),
    ]
    if setup.kind != "other":
        props.append(Property("single-edit", draws.one_edit, setup.single_edit))
        if o.nodes == "union":
            props.append(Property("new-node", st.tuples(draws.truth, st.integers(0, 7), st.booleans()), setup.new_node))
    if setup.kind != "other" and setup.costs_all_edges:
        props.append(Property("edits-add-up", draws.pairs, setup.edits_add_up))
    sides = st.sampled_from(["estimate", "truth", "both"])
    for quirk in o.include:
        case = st.tuples(draws.pairs, st.just(quirk), sides, st.integers(0, 7), st.integers(0, 7))
        props.append(Property(quirk, case, setup.quirk))
    if setup.reference is not None:
        props.append(Property("reference", draws.pairs, setup.agrees))
    for name, check in (o.properties or {}).items():
        props.append(Property(name, draws.pairs, setup.user_property(name, check)))
    return props


def check_graph_metric(fn: Callable[..., Any], kind: Kind = "distance", *, options: GraphMetricOptions | None = None, **keywords: Any) -> SuiteReport:
    """Check *fn* (``fn(truth, estimate)``) against every property of the module docstring.

    Raises :class:`~causalcheck.testing.runner.PropertyFailure` (an ``AssertionError``) for the
    first property that fails, with the shrunk counterexample, both outputs and the
    convention; returns a :class:`~causalcheck.testing.runner.SuiteReport` otherwise.

    Args:
        kind: ``"distance"`` (0 is perfect), ``"similarity"`` / ``"f1"`` (1 is perfect, bounded by 1),
            ``"precision"`` / ``"recall"`` (in [0, 1]; single edits judged on the measured sets: precision
            stays 1 while everything estimated is true, recall while everything true is estimated;
            not symmetric), or ``"other"`` (only renaming, reordering, names, symmetry, ``reference``
            and your ``properties=``).
        options: every setting as one :class:`GraphMetricOptions` value (then give no keywords).
        **keywords: the settings one by one, by name: the fields of :class:`GraphMetricOptions`,
            whose defaults and meanings hold for them (``names="causalab"``, ``reference="shd"``, ...).
    """
    require_extra("causalcheck.strategies", "hypothesis")  # what the suite draws with; before any check, as an import would
    o = GraphMetricOptions.of(options, keywords)
    setup = _setup(fn, kind, o)
    props = _properties(setup, _strategies(setup, o.graphs, o.max_nodes, o.reference_default("acyclic", False)), o)
    skipped = [*o.skip, *([] if o.reference_default("symmetric", kind not in ("precision", "recall")) else ["symmetry"])]
    return runner.run_suite(SUITE, props, subject=setup.subject, profile=o.profile, max_examples=o.max_examples, skip=skipped)


with_option_keywords(check_graph_metric, GraphMetricOptions)  # the keywords derived from the options value
