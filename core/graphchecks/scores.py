"""``compare(truth, estimate)``: the structure-learning metrics, each with its convention.

Both arguments are anything :func:`~causalcheck.graphs.read_graph` accepts (a graph, a
file, a networkx / pgmpy / causal-learn object); both must have the same node names
(``nodes="union"`` adds the missing ones as isolated nodes).  No edge is ever dropped: an
edge with marks a metric cannot use makes that metric ``None`` with a note saying why.

**Basis.**  When the truth is a DAG and the estimate has undirected edges (PC's or GES's
CPDAG), the mark-level metrics compare the estimate with the CPDAG of the truth — what the
method could at best recover — and ``basis`` says ``"cpdag(truth)"``; pass
``basis="given"`` to compare with the DAG itself.  Skeleton figures and the adjustment
identification distances always use the graphs as given.

Metric conventions (*pair* = unordered node pair, *marks* = the two endpoint marks):

* ``shd`` — causal-learn's ``SHD``: the number of pairs whose edge differs in presence or in
  any mark (a reversed, missing, extra or re-marked edge each count 1).
* ``shd_double`` — as ``shd``, but a pair present in both graphs with *both* marks different
  (a reversal ``a -> b`` vs ``b -> a``) counts 2; equals CDT's ``SHD(double_for_anticausal=True)``
  on DAGs.
* ``cpdag_shd`` — ``shd`` between the CPDAG of the truth and the CPDAG of the estimate (a DAG's
  CPDAG; a CPDAG as is; a PDAG via its consistent extension).  ``None`` for MAGs and PAGs.
* ``skeleton`` — causal-learn's ``AdjacencyConfusion``: over pairs, TP adjacent in both, FP
  only in the estimate, FN only in the truth, TN in neither.
* ``arrowhead`` — causal-learn's ``ArrowConfusion``: over ordered pairs ``(i, j)``, an
  arrowhead at ``j`` on the edge ``i *-> j``; TP both graphs have it, FP only the estimate, FN
  only the truth (also where the estimate has no edge), TN the rest of the ``n²`` cells
  (diagonal included, as causal-learn counts).
* ``arrowhead_common`` — causal-learn's ``ArrowConfusion`` "CE" variants (``get_arrows_tp_ce``
  ...): as ``arrowhead``, restricted to the pairs adjacent in both graphs (an arrowhead of the
  estimate counts only where the truth has an edge, and one of the truth only where the
  estimate has one); TN the rest of the ``n²`` cells, as causal-learn counts.
* ``directed`` — directed edges ``a -> b`` as a set: TP in both, FP only in the estimate, FN
  only in the truth (a reversed edge is one FP and one FN).
* ``orientation`` — pgmpy's ``OrientationConfusionMatrix`` (``pgmpy.metrics``): over the
  ordered pairs ``(i, j)`` of every pair adjacent in both graphs (common adjacencies), "``i -> j``
  present" as a binary label: TP present in both, FP only in the estimate, FN only in the
  truth, TN in neither.  On two DAGs an edge oriented alike gives one TP and one TN, a reversed
  one an FP and an FN.  Undirected edges carry no ``->`` either way (a ``--`` in the estimate
  where the truth has ``->`` is one FN).  ``None``, with a note, when a graph has marks other than
  ``->`` and ``--`` (a MAG or PAG: use ``arrowhead_common``).  pgmpy reports an empty rate as
  0.0 (precision with no estimated orientation); here it is ``None``, as for every confusion.
* precision ``TP/(TP+FP)``, recall ``TP/(TP+FN)``, F1 their harmonic mean; ``None`` when the
  denominator is 0.
* ``sid`` — structural intervention distance (Peters & Bühlmann 2015) via ``gadjid.sid``:
  DAG truth and DAG estimate only.
* ``parent_aid``, ``ancestor_aid``, ``oset_aid`` — adjustment identification distances
  (Henckel, Würtzen & Weichwald 2024) via ``gadjid``: truth and estimate each a DAG or a
  CPDAG.  Each :class:`Distance` holds the count of mis-identified ordered pairs and
  gadjid's normalised value (count / ``n(n-1)``).  On fewer than 2 nodes (no ordered pair)
  all four are ``None`` with a note.

>>> c = compare("a -> b -> c", "a -> b <- c")
>>> c.shd, c.shd_double, c.skeleton.f1, c.directed.tp, c.sid.count
(1, 2, 1.0, 1, 3)
>>> c.orientation.tp, c.orientation.fp, c.orientation.fn, c.orientation.tn, c.arrowhead_common.fp
(1, 1, 1, 1, 1)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from causalcheck.base.errors import InputFormatError, Notice
from causalcheck.base.frames import frame, html_table
from causalcheck.base.interrupt import interruptible
from causalcheck.base.limits import COMPARE_COST_BUDGET
from causalcheck.graphchecks.kinds import check_cpdag, check_dag, consistent_extension, cpdag_of
from causalcheck.graphs.convert import is_matrix
from causalcheck.graphs.formats import NoWeights
from causalcheck.graphs.io import read_graph
from causalcheck.graphs.model import Graph, Mark

__all__ = ["IN_PROCESS_COST", "Comparison", "Confusion", "Distance", "compare", "confusion", "distance_cost", "gadjid_distances", "shd"]


@dataclass(frozen=True)
class Confusion:
    """Counts and rates of one confusion table (``None`` where a rate is 0/0)."""

    tp: int
    fp: int
    fn: int
    tn: int
    precision: float | None
    recall: float | None
    f1: float | None


def confusion(tp: int, fp: int, fn: int, tn: int) -> Confusion:
    """A :class:`Confusion` with precision, recall and F1 computed from the counts.

    >>> confusion(3, 1, 2, 0).precision, confusion(0, 0, 0, 5).f1
    (0.75, None)
    """
    p = tp / (tp + fp) if tp + fp else None
    r = tp / (tp + fn) if tp + fn else None
    f1 = None
    if p is not None and r is not None:
        f1 = 2 * p * r / (p + r) if p + r else 0.0
    return Confusion(tp, fp, fn, tn, p, r, f1)


@dataclass(frozen=True)
class Distance:
    """A gadjid distance: ``count`` mistakes, ``normalized`` = count / number of ordered pairs."""

    count: int
    normalized: float


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare` (see the module docstring for every convention)."""

    nodes: int
    truth_kind: str
    estimate_kind: str
    basis: str
    shd: int
    shd_double: int
    cpdag_shd: int | None
    skeleton: Confusion
    arrowhead: Confusion
    arrowhead_common: Confusion
    directed: Confusion
    orientation: Confusion | None
    sid: Distance | None
    parent_aid: Distance | None
    ancestor_aid: Distance | None
    oset_aid: Distance | None
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready nested dict (``None`` stays ``null``)."""
        out = asdict(self)
        out["notes"] = list(self.notes)
        return out

    def to_frame(self) -> Any:
        """One row of every figure as a ``pandas.DataFrame`` (nested ones as ``skeleton.f1``, ``sid.count``, ...; notes joined)."""
        return frame([self._row()], "Comparison.to_frame()")

    def _row(self) -> dict[str, Any]:
        row = self.to_dict()
        row["notes"] = "; ".join(self.notes)
        return row

    def _repr_html_(self) -> str:
        return html_table([self._row()], f"comparison over {self.nodes} nodes ({self.truth_kind} truth, {self.estimate_kind} estimate)")


def _marks(g: Graph) -> dict[frozenset[str], tuple[tuple[str, Mark], tuple[str, Mark]]]:
    return {e.pair: ((e.u, e.mark_u), (e.v, e.mark_v)) for e in g.edges}


def shd(truth: Graph, estimate: Graph, *, double: bool = False) -> int:
    """Structural Hamming distance over node pairs (causal-learn's ``SHD``; see the module docstring).

    >>> from causalcheck.graphs.formats import parse_text
    >>> ab, ba = parse_text("a -> b"), parse_text("b -> a")
    >>> shd(ab, ba), shd(ab, ba, double=True)
    (1, 2)
    """
    total = 0
    for pair in truth.skeleton | estimate.skeleton:
        a, b = sorted(pair)
        t, e = truth.edge(a, b), estimate.edge(a, b)
        if t is None or e is None:
            total += 1
            continue
        ta, tb = t.mark_at(a), t.mark_at(b)
        ea, eb = e.mark_at(a), e.mark_at(b)
        if (ta, tb) == (ea, eb):
            continue
        total += 2 if double and ta is not ea and tb is not eb else 1
    return total


def _skeleton(truth: Graph, estimate: Graph) -> Confusion:
    t, e = truth.skeleton, estimate.skeleton
    n = len(truth.nodes)
    tp = len(t & e)
    fp = len(e - t)
    fn = len(t - e)
    return confusion(tp, fp, fn, n * (n - 1) // 2 - tp - fp - fn)


def _arrowheads(g: Graph) -> set[tuple[str, str]]:
    out: set[tuple[str, str]] = set()
    for e in g.edges:
        if e.mark_v is Mark.ARROW:
            out.add((e.u, e.v))
        if e.mark_u is Mark.ARROW:
            out.add((e.v, e.u))
    return out


def _arrowhead(truth: Graph, estimate: Graph) -> Confusion:
    t, e = _arrowheads(truth), _arrowheads(estimate)
    n = len(truth.nodes)
    tp, fp, fn = len(t & e), len(e - t), len(t - e)
    return confusion(tp, fp, fn, n * n - tp - fp - fn)


def _arrowhead_common(truth: Graph, estimate: Graph) -> Confusion:
    """causal-learn's ``ArrowConfusion`` CE counts: arrowheads on pairs adjacent in both graphs."""
    common = truth.skeleton & estimate.skeleton
    t = {a for a in _arrowheads(truth) if frozenset(a) in common}
    e = {a for a in _arrowheads(estimate) if frozenset(a) in common}
    n = len(truth.nodes)
    tp, fp, fn = len(t & e), len(e - t), len(t - e)
    return confusion(tp, fp, fn, n * n - tp - fp - fn)


def _orientation(truth: Graph, estimate: Graph, notes: list[str]) -> Confusion | None:
    """pgmpy's ``OrientationConfusionMatrix`` over the common adjacencies (module docstring)."""
    for role, g in (("truth", truth), ("estimate", estimate)):
        bad = [str(e) for e in g.edges if not (e.is_directed or e.is_undirected)]
        if bad:
            notes.append(f"orientation not computed: the {role} has edges other than -> and -- ({bad[0]!r}); see arrowhead_common")
            return None
    common = truth.skeleton & estimate.skeleton
    t, e = truth.directed_pairs, estimate.directed_pairs
    tp = fp = fn = tn = 0
    for pair in common:
        a, b = sorted(pair)
        for cell in ((a, b), (b, a)):
            in_t, in_e = cell in t, cell in e
            tp += in_t and in_e
            fp += in_e and not in_t
            fn += in_t and not in_e
            tn += not (in_t or in_e)
    return confusion(tp, fp, fn, tn)


def _directed(truth: Graph, estimate: Graph) -> Confusion:
    t, e = truth.directed_pairs, estimate.directed_pairs
    n = len(truth.nodes)
    tp, fp, fn = len(t & e), len(e - t), len(t - e)
    return confusion(tp, fp, fn, n * (n - 1) - tp - fp - fn)


def _as_cpdag(g: Graph) -> tuple[Graph | None, str | None]:
    """The CPDAG a DAG / CPDAG / PDAG stands for, or ``(None, why not)``."""
    if g.kind == "DAG":
        dag = check_dag(g)
        return (cpdag_of(g), None) if dag.ok else (None, dag.reason)
    if g.kind == "PDAG":
        cert = check_cpdag(g)
        if cert.ok:
            return g, None
        ext = consistent_extension(g)
        if ext is None:
            return None, cert.reason
        return cpdag_of(ext), f"not a CPDAG ({cert.reason}); used the CPDAG of its consistent extension"
    return None, f"a {g.kind} has no CPDAG"


def _gadjid_matrix(g: Graph, order: tuple[str, ...]) -> Any:
    """*g* as gadjid's int8 adjacency matrix over *order*: a sparse CSR matrix (O(n + edges) memory)."""
    import numpy as np
    from scipy.sparse import csr_matrix

    _, idx = g.indexed(order)
    n = len(order)
    rows, cols, vals = [], [], []
    for i, j, mi, mj in idx:
        if mi is Mark.TAIL and mj is Mark.ARROW:
            rows.append(i)
            cols.append(j)
            vals.append(1)
        else:
            rows.append(min(i, j))
            cols.append(max(i, j))
            vals.append(2)
    return csr_matrix((np.asarray(vals, dtype=np.int8), (np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))), shape=(n, n))


def distance_cost(truth: Graph, estimate: Graph) -> float:
    """The cost estimate of the gadjid distances: ``n·m²``, *m* the larger edge count of the two graphs.

    The optimal-adjustment AID dominates; its time, measured on random DAGs of 250 to 5 000
    nodes and average degree 2 to 75 (``tests/benchmarks/bench_limits.py``), stays below
    about 2.5 ns per unit of ``n·m²`` (sparse graphs are much faster than the bound).
    Compared with :data:`~causalcheck.base.limits.COMPARE_COST_BUDGET` before any distance starts.

    >>> from causalcheck.graphs.formats import parse_text
    >>> distance_cost(parse_text("a -> b; b -> c"), parse_text("a -> b"))
    12.0
    """
    m = max(len(truth.edges), len(estimate.edges))
    return float(len(truth.nodes) * m * m)


def _gadjid_kind(g: Graph) -> tuple[str | None, str | None]:
    """``("dag" | "cpdag", None)`` when gadjid can take *g*, else ``(None, why)``."""
    if g.kind == "DAG":
        cert = check_dag(g)
        return ("dag", None) if cert.ok else (None, cert.reason)
    if g.kind == "PDAG":
        cert = check_cpdag(g)
        return ("cpdag", None) if cert.ok else (None, f"gadjid needs a DAG or a valid CPDAG: {cert.reason}")
    return None, f"gadjid takes DAGs and CPDAGs, not a {g.kind}"


#: Distances estimated above this cost (:func:`distance_cost`, about half a second) run in a
#: worker process that Ctrl-C can stop (:func:`~causalcheck.base.interrupt.interruptible`):
#: gadjid holds the GIL for its whole run.
IN_PROCESS_COST = 200_000_000


def gadjid_distances(t: Any, e: Any, dags: bool) -> dict[str, tuple[float, int]]:
    """gadjid's ``(normalised, count)`` of each AID (and SID when both are DAGs) for the matrices *t*, *e*."""
    import gadjid

    names = ("parent_aid", "ancestor_aid", "oset_aid", "sid") if dags else ("parent_aid", "ancestor_aid", "oset_aid")
    return {name: getattr(gadjid, name)(t, e, edge_direction="from row to column") for name in names}


def _call(fn: Any, *args: Any) -> Any:
    return fn(*args)


def _distances(truth: Graph, estimate: Graph, notes: list[str]) -> dict[str, Distance | None]:
    out: dict[str, Distance | None] = {"sid": None, "parent_aid": None, "ancestor_aid": None, "oset_aid": None}
    tk, twhy = _gadjid_kind(truth)
    ek, ewhy = _gadjid_kind(estimate)
    if tk is None or ek is None:
        notes.append(f"SID/AID not computed: {'truth' if tk is None else 'estimate'}: {twhy or ewhy}")
        return out
    if len(truth.nodes) < 2:  # no ordered pair to mis-identify; gadjid refuses (a Rust panic, a RuntimeError)
        notes.append(f"SID/AID not computed: they are defined on 2 or more nodes, the graphs have {len(truth.nodes)}")
        return out
    cost = distance_cost(truth, estimate)
    if COMPARE_COST_BUDGET.over(cost):
        notes.append(Notice(COMPARE_COST_BUDGET.skip_note(f"SID/AID on {len(truth.nodes)} nodes", cost), "truth-budget"))
        return out
    order = truth.nodes
    t, e = _gadjid_matrix(truth, order), _gadjid_matrix(estimate, order)
    dags = tk == "dag" and ek == "dag"
    run = interruptible if cost > IN_PROCESS_COST else _call
    for name, (norm, count) in run(gadjid_distances, t, e, dags).items():
        out[name] = Distance(int(count), float(norm))
    if not dags:
        notes.append("SID not computed: it is defined for two DAGs (use parent_aid, its CPDAG generalisation)")
    return out


def _role(role: str, source: Any) -> str:
    """*role* (``truth`` / ``estimate``) with the file it was read from, when it was read from a path."""
    return f"{role} {os.fspath(source)!r}" if isinstance(source, os.PathLike) else role


def _read_inputs(
    truth: Any,
    estimate: Any,
    formats: tuple[str | None, str | None],
    *,
    convention: str | None,
    names: Sequence[str] | None,
    threshold: float | None,
    symmetric: str | None = None,
) -> tuple[Graph, Graph]:
    """*truth* and *estimate* read with :func:`read_graph`; the matrix options reach the sides they apply to."""
    given = {k: v for k, v in (("convention", convention), ("names", names)) if v is not None}
    if given and not (is_matrix(truth) or is_matrix(estimate)):
        raise InputFormatError(
            f"{', '.join(f'{k}={v!r}' for k, v in given.items())} apply to an array-like truth or estimate "
            f"(a NumPy array, a DataFrame, nested lists); got a {type(truth).__name__} and a {type(estimate).__name__}"
        )
    weighted: list[bool] = []

    def read(source: Any, fmt: str | None) -> Graph:
        options: dict[str, Any] = {"convention": convention, "names": names} if is_matrix(source) else {}
        if symmetric is not None:
            options["symmetric"] = symmetric
        if threshold is not None:
            try:
                graph = read_graph(source, fmt, threshold=threshold, **options)
                weighted.append(True)
                return graph
            except NoWeights:
                pass
        return read_graph(source, fmt, **options)

    t = read(truth, formats[0])
    e = read(estimate, formats[1])
    if threshold is not None and not weighted:
        raise NoWeights(
            f"threshold={threshold!r} applies to a weighted truth or estimate (a matrix, an adjacency CSV, "
            "an edge-list CSV with a weight column); neither has weights"
        )
    return t, e


def compare(
    truth: Any,
    estimate: Any,
    *,
    basis: Literal["auto", "given"] = "auto",
    nodes: Literal["same", "union"] = "same",
    truth_format: str | None = None,
    estimate_format: str | None = None,
    convention: str | None = None,
    names: Sequence[str] | None = None,
    threshold: float | None = None,
    symmetric: str | None = None,
) -> Comparison:
    """Score *estimate* against *truth* (see the module docstring for every metric's convention).

    *convention* and *names* read an array-like input (a NumPy array, a pandas DataFrame,
    nested lists: lingam's ``adjacency_matrix_`` with ``convention="lingam"``) as
    :func:`~causalcheck.graphs.read_graph` does, and reach only an array-like *truth* or
    *estimate*; *threshold* reaches every weighted one (a matrix, an adjacency CSV, an edge
    list with a weight column).  Each raises when no input is of its kind.  *symmetric* is
    :func:`~causalcheck.graphs.read_graph`'s, for both (``"undirected"`` reads a pair written
    both ways in DOT or GML as one undirected edge).
    """
    if basis not in ("auto", "given"):
        raise InputFormatError(f"basis={basis!r} must be 'auto' or 'given'")
    if nodes not in ("same", "union"):
        raise InputFormatError(f"nodes={nodes!r} must be 'same' or 'union'")
    t, e = _read_inputs(truth, estimate, (truth_format, estimate_format), convention=convention, names=names, threshold=threshold, symmetric=symmetric)
    ts, es = set(t.nodes), set(e.nodes)
    if ts != es:
        if nodes == "same":
            raise InputFormatError(
                f"{_role('truth', truth)} and {_role('estimate', estimate)} have different nodes: only in truth {sorted(ts - es)!r}, "
                f"only in estimate {sorted(es - ts)!r} (pass nodes='union' to add missing nodes as isolated)"
            )
        t = t.with_nodes([*t.nodes, *(n for n in e.nodes if n not in ts)])
        e = e.with_nodes([*t.nodes])
    notes: list[str] = []
    reference = t
    basis_name = "truth"
    if basis == "auto" and t.kind == "DAG" and e.kind == "PDAG" and check_dag(t).ok:
        reference = cpdag_of(t)
        basis_name = "cpdag(truth)"
    cpdag_shd: int | None = None
    tc, twhy = _as_cpdag(t)
    ec, ewhy = _as_cpdag(e)
    if tc is not None and ec is not None:
        cpdag_shd = shd(tc, ec)
        if ewhy:
            notes.append(f"cpdag_shd: estimate {ewhy}")
    else:
        notes.append(f"cpdag_shd not computed: {'truth' if tc is None else 'estimate'}: {twhy or ewhy}")
    dist = _distances(t, e, notes)
    orientation = _orientation(reference, e, notes)
    return Comparison(
        nodes=len(t.nodes),
        truth_kind=t.kind,
        estimate_kind=e.kind,
        basis=basis_name,
        shd=shd(reference, e),
        shd_double=shd(reference, e, double=True),
        cpdag_shd=cpdag_shd,
        skeleton=_skeleton(t, e),
        arrowhead=_arrowhead(reference, e),
        directed=_directed(reference, e),
        sid=dist["sid"],
        parent_aid=dist["parent_aid"],
        ancestor_aid=dist["ancestor_aid"],
        oset_aid=dist["oset_aid"],
        notes=tuple(notes),
        arrowhead_common=_arrowhead_common(reference, e),
        orientation=orientation,
    )
