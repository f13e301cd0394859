"""``check_graph_metric``: the properties every graph distance or similarity must have.

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
    *costs* — a reversal ``reversal_cost``, an addition, a removal or a mark change 1;
``edits-add-up``
    a distance over all edges charges k edits on distinct node pairs the sum of their costs;
``reference``
    ``fn`` equals *reference* (a callable taking what ``fn`` takes, or a name in
    :data:`REFERENCES`: causalcheck's implementation under the stated convention).

>>> from causalcheck.metrics import shd
>>> check_graph_metric(lambda t, e: shd(e, t, names="exact").total, "distance", reference="shd", max_examples=20).properties[:3]
('bounds', 'identity', 'empty')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from causalcheck.errors import InputFormatError
from causalcheck.graphs.model import Graph
from causalcheck.graphs.names import NamePolicy, get_policy
from causalcheck.testing import runner
from causalcheck.testing.runner import Property, PropertyFailure, SuiteReport

__all__ = ["REFERENCES", "check_graph_metric"]

Kind = Literal["distance", "similarity"]
SUITE = "check_graph_metric"
_FRESH = "\u27e8fresh node\u27e9"


def _pairs(g: Graph) -> list[tuple[str, str]]:
    return [(e.u, e.v) for e in g.edges if e.is_directed]


def _ref_shd(double: bool) -> Callable[[Graph, Graph, NamePolicy, str | None], float]:
    def ref(t: Graph, e: Graph, pol: NamePolicy, target: str | None) -> float:
        from causalcheck.metrics import shd

        return float(shd(_pairs(e), _pairs(t), names=pol, double_count_reversal=double).total)

    return ref


def _ref_prf(which: str) -> Callable[[Graph, Graph, NamePolicy, str | None], float]:
    def ref(t: Graph, e: Graph, pol: NamePolicy, target: str | None) -> float:
        from causalcheck import metrics

        if which == "edge":
            return metrics.edge_prf(_pairs(e), _pairs(t), names=pol).f1
        fn = metrics.parent_prf if which == "parent" else metrics.root_prf
        return fn(_pairs(e), _pairs(t), target, names=pol).f1

    return ref


def _ref_compare(field: str) -> Callable[[Graph, Graph, NamePolicy, str | None], float]:
    def ref(t: Graph, e: Graph, pol: NamePolicy, target: str | None) -> float:
        from causalcheck.graphs.names import apply_policy
        from causalcheck.graphs.scores import compare

        tt, ee = apply_policy(t, pol), apply_policy(e, pol)
        if field == "shd":
            return float(compare(tt, ee, nodes="union", basis="given").shd)
        from causalcheck.metrics import set_prf

        return set_prf(ee.skeleton, tt.skeleton).f1

    return ref


#: Named reference implementations: name -> (rule, what it measures, the convention in words).
REFERENCES: dict[str, tuple[Callable[[Graph, Graph, NamePolicy, str | None], float], str, str]] = {
    "shd": (_ref_shd(False), "edges", "causalcheck.metrics.shd: missing + extra + reversed, a reversal counted once"),
    "shd-double": (_ref_shd(True), "edges", "causalcheck.metrics.shd(double_count_reversal=True): a reversal costs 2"),
    "edge-f1": (_ref_prf("edge"), "edges", "causalcheck.metrics.edge_prf: directed-edge F1, F1(∅, ∅) = 1"),
    "parent-f1": (_ref_prf("parent"), "parents", "causalcheck.metrics.parent_prf: F1 of the edges into the target"),
    "root-f1": (_ref_prf("root"), "roots", "causalcheck.metrics.root_prf: F1 of the parentless ancestors of the target"),
    "causal-learn-shd": (_ref_compare("shd"), "edges", "causalcheck.graphs.compare(...).shd = causal-learn's SHD: pairs whose edge differs in presence or a mark"),
    "skeleton-f1": (_ref_compare("skeleton"), "skeleton", "F1 of the adjacencies (causal-learn's AdjacencyConfusion) with the set_prf empty-set rules: F1(∅, ∅) = 1, F1(T, ∅) = 0"),
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
class _Setup:
    fn: Callable[..., Any]
    kind: Kind
    convert: Callable[[Graph], Any]
    value: Callable[[Any], Any] | None
    policy: NamePolicy
    target: str | None
    scope: str | Callable[[Graph], Any]
    empty: float
    costs: Mapping[str, float] | None
    estimate_first: bool
    convention: str
    subject: str

    @property
    def perfect(self) -> float:
        return 1.0 if self.kind == "similarity" else 0.0

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
        directed = {(x.u, x.v) for x in edges if x.is_directed}
        tgt = self.target
        if self.scope == "parents":
            return frozenset(p for p in directed if p[1] == tgt)
        from causalcheck.metrics import roots_normalized

        return roots_normalized(directed, tgt or "")


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def check_graph_metric(
    fn: Callable[..., Any],
    kind: Kind = "distance",
    *,
    convert: Callable[[Graph], Any] | None = None,
    value: Callable[[Any], Any] | None = None,
    reference: str | Callable[..., Any] | None = None,
    graphs: Literal["dag", "pdag", "cpdag", "pag"] = "dag",
    names: NamePolicy | str = "exact",
    target: str | None = None,
    scope: str | Callable[[Graph], Any] | None = None,
    reversal_cost: float = 1,
    costs: Mapping[str, float] | None = None,
    empty: float | None = None,
    symmetric: bool = True,
    estimate_first: bool = False,
    max_nodes: int = 6,
    skip: Sequence[str] = (),
    profile: str | None = None,
    max_examples: int | None = None,
) -> SuiteReport:
    """Check *fn* (``fn(truth, estimate)``) against every property of the module docstring.

    Raises :class:`~causalcheck.testing.runner.PropertyFailure` (an ``AssertionError``) for the
    first property that fails, with the shrunk counterexample, both outputs and the
    convention; returns a :class:`~causalcheck.testing.runner.SuiteReport` otherwise.

    Args:
        kind: ``"distance"`` (0 is perfect) or ``"similarity"`` (1 is perfect, bounded by 1).
        convert: Graph -> the argument *fn* takes (default: ``(cause, effect)`` pairs for
            DAGs, the Graph itself otherwise).
        value: *fn*'s output -> the number to check (default: the number, ``.f1``, ``.total``).
        reference: a callable with *fn*'s signature, or a name in :data:`REFERENCES`.
        graphs: the kind of graphs drawn (edits follow: reversals for DAGs, ``--`` for PDAGs, ...).
        names: the name policy *fn* follows (``"exact"`` or ``"causalab"``).
        target: the outcome node for ``scope="parents"/"roots"`` (default: the policy's).
        scope: what *fn* measures — ``"edges"``, ``"skeleton"``, ``"parents"``, ``"roots"`` or
            a function of a Graph (default: the reference's, else ``"edges"``).
        reversal_cost: what a distance charges for one reversal (2 for CDT's double count).
        costs: the cost of each edit (``add``, ``remove``, ``reverse``, ``change``) for a
            distance over all edges (default: ``reversal_cost`` and 1).
        empty: the score when neither graph has anything in scope (default: 1 / 0).
        symmetric: check ``fn(t, e) == fn(e, t)``.
        estimate_first: *fn* takes ``(estimate, truth)`` (as :mod:`causalcheck.metrics` does).
        skip: property names not to check.
        profile / max_examples: the hypothesis budget (:mod:`causalcheck.testing.profiles`).
    """
    from causalcheck import strategies as cs
    from hypothesis import strategies as st

    if kind not in ("distance", "similarity"):
        raise InputFormatError(f"kind={kind!r} must be 'distance' or 'similarity'")
    pol = get_policy(names)
    tgt = pol(target) if target is not None else pol.target
    ref_fn: Callable[[Graph, Graph], float] | None = None
    ref_text = ""
    ref_scope = "edges"
    if isinstance(reference, str):
        if reference not in REFERENCES:
            raise InputFormatError(f"reference={reference!r} must be a callable or one of {sorted(REFERENCES)!r}")
        named, ref_scope, ref_text = REFERENCES[reference]

        def ref_fn(t: Graph, e: Graph) -> float:
            return named(t, e, pol, tgt)

    the_scope: str | Callable[[Graph], Any] = scope or ref_scope
    if isinstance(the_scope, str) and the_scope not in ("edges", "skeleton", "parents", "roots"):
        raise InputFormatError(f"scope={the_scope!r} must be 'edges', 'skeleton', 'parents', 'roots' or a function")
    if the_scope in ("parents", "roots") and tgt is None:
        raise InputFormatError(f"scope={the_scope!r} needs target= under names={pol.name!r}")
    conv = convert or (_pairs if graphs == "dag" else (lambda g: g))
    cost = dict(costs) if costs is not None else {"add": 1.0, "remove": 1.0, "reverse": float(reversal_cost), "change": 1.0}
    empty_value = empty if empty is not None else (1.0 if kind == "similarity" else 0.0)
    parts = [f"{'a distance (0 is perfect)' if kind == 'distance' else 'a similarity in [0, 1] (1 is perfect)'}"]
    if kind == "distance" and the_scope == "edges":
        parts.append(f"edit costs {', '.join(f'{k} {v:g}' for k, v in cost.items())}")
    parts.append(f"measures {the_scope if isinstance(the_scope, str) else runner.describe(the_scope)}")
    parts.append(f"empty scope on both sides scores {empty_value:g}")
    parts.append(f"names {pol.name}" + (f" (target {tgt!r})" if tgt else ""))
    if ref_text or callable(reference):
        parts.append(f"reference {ref_text or runner.describe(reference)}")  # type: ignore[arg-type]
    setup = _Setup(fn, kind, conv, value, pol, tgt, the_scope, empty_value, cost, estimate_first, "; ".join(parts), runner.describe(fn))

    # ------------------------------------------------------------------ strategies
    names_st = cs.name_lists(pol, min_size=2, max_size=max_nodes, include_target=tgt is not None and pol.merges, awkward="pool")
    if tgt is not None and not pol.merges:
        names_st = cs.name_lists(pol, min_size=1, max_size=max_nodes - 1, awkward="pool").filter(lambda ns: tgt not in ns).flatmap(
            lambda ns: st.permutations([*ns, tgt])
        )
    base = cs.dags(names=names_st)
    truth_st: Any = {"dag": base, "pdag": cs.pdags(names=names_st), "cpdag": cs.cpdags(names=names_st), "pag": cs.pags(names=names_st)}[graphs]
    tokens = {"dag": ("->",), "pdag": ("->", "--"), "cpdag": ("->", "--"), "pag": ("o->", "o-o", "->", "<->")}[graphs]
    changed = (0, 0) if graphs == "dag" else (0, 2)
    pairs_st = cs.graph_pairs(truth_st, added=(0, 3), removed=(0, 3), reversed=(0, 3), changed=changed, tokens=tokens)
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
        ).filter(lambda p: len(p.edits) == 1)
        for op in ops
    }

    @st.composite
    def one_edit_st(draw: st.DrawFn) -> Any:
        return draw(by_op[draw(st.sampled_from(ops))])

    one_edit = one_edit_st()

    def relabel(draw_names: list[str], g: Graph) -> dict[str, str]:
        mapping = {}
        for old, new in zip(g.nodes, draw_names, strict=False):
            mapping[old] = new
        return mapping

    # ------------------------------------------------------------------ checks
    def bounds(p: Any) -> None:
        x = setup.score("bounds", p.truth, p.estimate)
        ok = 0.0 <= x <= 1.0 if kind == "similarity" else x >= 0.0
        if not ok:
            raise setup.fail("bounds", p.truth, p.estimate, f"{x!r}", "a value in [0, 1]" if kind == "similarity" else "a value >= 0")

    def identity(g: Graph) -> None:
        if not setup.measured(g):
            return
        x = setup.score("identity", g, g)
        if not _close(x, setup.perfect):
            raise setup.fail("identity", g, g, f"fn(g, g) = {x!r}", f"{setup.perfect:g} (a graph compared with itself)")

    def empty_sets(p: Any) -> None:
        t, e = p.truth, p.estimate
        empty_t, empty_e = t.with_edges(()), e.with_edges(())
        x = setup.score("empty", empty_t, empty_e)
        if not setup.measured(empty_t) and not setup.measured(empty_e) and not _close(x, empty_value):
            raise setup.fail("empty", empty_t, empty_e, f"{x!r}", f"{empty_value:g} (nothing in scope on either side)")
        if kind == "similarity":
            for tt, ee, what in ((t, empty_e, "nothing estimated"), (empty_t, e, "nothing true")):
                if setup.measured(tt) != setup.measured(ee) and (not setup.measured(tt) or not setup.measured(ee)):
                    y = setup.score("empty", tt, ee)
                    if not _close(y, 0.0):
                        raise setup.fail("empty", tt, ee, f"{y!r}", f"0 ({what}, while the other side has something)")

    def symmetry(p: Any) -> None:
        a = setup.score("symmetry", p.truth, p.estimate)
        b = setup.score("symmetry", p.estimate, p.truth)
        if not _close(a, b):
            raise setup.fail("symmetry", p.truth, p.estimate, f"fn(truth, estimate) = {a!r}, fn(estimate, truth) = {b!r}", "equal values")

    def renaming(case: tuple[Any, list[str]]) -> None:
        p, new = case
        mapping = relabel(new, p.truth)
        t2, e2 = p.truth.renamed(mapping), p.estimate.renamed(mapping)
        a = setup.score("renaming", p.truth, p.estimate)
        b = setup.score("renaming", t2, e2, f"  renamed:  {mapping!r}\n  renamed truth:    {setup.show(t2)}\n  renamed estimate: {setup.show(e2)}")
        if not _close(a, b):
            raise setup.fail("renaming", p.truth, p.estimate, f"{a!r} before, {b!r} after renaming {mapping!r}", "the same value")

    def reordering(case: tuple[Any, Any]) -> None:
        p, rnd = case
        def shuffled(g: Graph) -> Graph:
            nodes, edges = list(g.nodes), list(g.edges)
            rnd.shuffle(nodes)
            rnd.shuffle(edges)
            return Graph(tuple(nodes), tuple(edges))
        t2, e2 = shuffled(p.truth), shuffled(p.estimate)
        a = setup.score("reordering", p.truth, p.estimate)
        b = setup.score("reordering", t2, e2, f"  reordered truth:    {setup.show(t2)}\n  reordered estimate: {setup.show(e2)}")
        if not _close(a, b):
            raise setup.fail("reordering", p.truth, p.estimate, f"{a!r} before, {b!r} after reordering the edges", "the same value")

    def name_policy(case: tuple[Any, str, str]) -> None:
        p, node, spelling = case
        if spelling in p.estimate.nodes or spelling == _FRESH:
            return
        # both graphs keep one node set (the old name stays as an isolated node): some rules need that
        truth = p.truth.with_nodes((*p.truth.nodes, spelling))
        respelled = Graph((*p.estimate.renamed({node: spelling}).nodes, node), p.estimate.renamed({node: spelling}).edges)
        what = f"  respelled: {node!r} -> {spelling!r} in the estimate"
        b = setup.score("names", truth, respelled, what)
        if pol.merges:
            a = setup.score("names", p.truth, p.estimate)
            if not _close(a, b):
                raise setup.fail("names", truth, respelled, f"{b!r}, but {a!r} with {node!r} as written", f"{a!r}: under {pol.name!r} {spelling!r} is the node {pol(node)!r}", what)
        else:
            fresh = Graph((*p.estimate.renamed({node: _FRESH}).nodes, node), p.estimate.renamed({node: _FRESH}).edges)
            a = setup.score("names", p.truth.with_nodes((*p.truth.nodes, _FRESH)), fresh)
            if not _close(a, b):
                raise setup.fail("names", truth, respelled, f"{b!r}, but {a!r} with a fresh name instead", f"{a!r}: under 'exact' {spelling!r} and {node!r} are different nodes", what)

    def single_edit(p: Any) -> None:
        ed = p.edits[0]
        x = setup.score("single-edit", p.truth, p.estimate, f"  edit:     {ed}")
        relevant = setup.measured(p.truth) != setup.measured(p.estimate)
        if kind == "distance" and the_scope == "edges":
            want = cost[ed.op]
            if not _close(x, want):
                raise setup.fail("single-edit", p.truth, p.estimate, f"{x!r}", f"{want:g} (the cost of one {ed.op})", f"  edit:     {ed}")
        elif relevant and _close(x, setup.perfect):
            raise setup.fail("single-edit", p.truth, p.estimate, f"{x!r}", f"an imperfect score: the {ed.op} changes what the metric measures", f"  edit:     {ed}")
        elif not relevant and not _close(x, setup.perfect):
            raise setup.fail("single-edit", p.truth, p.estimate, f"{x!r}", f"{setup.perfect:g}: the {ed.op} changes nothing the metric measures", f"  edit:     {ed}")

    def edits_add_up(p: Any) -> None:
        x = setup.score("edits-add-up", p.truth, p.estimate, f"  edits:    {'; '.join(map(str, p.edits)) or 'none'}")
        want = sum(cost[e.op] for e in p.edits)
        if not _close(x, want):
            raise setup.fail("edits-add-up", p.truth, p.estimate, f"{x!r}", f"{want:g} = the sum of the edit costs", f"  edits:    {'; '.join(map(str, p.edits))}")

    def agrees(p: Any) -> None:
        a = setup.score("reference", p.truth, p.estimate)
        if ref_fn is not None:
            b = ref_fn(p.truth, p.estimate)
        else:
            args = (conv(p.estimate), conv(p.truth)) if estimate_first else (conv(p.truth), conv(p.estimate))
            assert callable(reference)
            b_num = _number(reference(*args), value)
            b = float("nan") if b_num is None else b_num
        if not _close(a, b):
            raise setup.fail("reference", p.truth, p.estimate, f"fn = {a!r}, reference = {b!r}", "equal values")

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

    respell_case = respell_case_st()
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

    props = [
        Property("bounds", pairs_st, bounds),
        Property("identity", truth_st, identity),
        Property("empty", pairs_st, empty_sets),
        Property("symmetry", pairs_st, symmetry),
        Property("renaming", renamed_st(), renaming),
        Property("reordering", st.tuples(pairs_st, st.randoms(use_true_random=False)), reordering),
        Property("names", respell_case, name_policy),
        Property("single-edit", one_edit, single_edit),
    ]
    if kind == "distance" and the_scope == "edges":
        props.append(Property("edits-add-up", pairs_st, edits_add_up))
    if reference is not None:
        props.append(Property("reference", pairs_st, agrees))
    skipped = [*skip, *([] if symmetric else ["symmetry"])]
    return runner.run_suite(SUITE, props, subject=setup.subject, profile=profile, max_examples=max_examples, skip=skipped)

