"""The hidden structural causal model (SCM) of a CausaLab graph, its equations read once into polynomial form.

A CausaLab SCM is deterministic (causalab-spec §1.2): every node ``X`` has a structural
equation ``X = b_X + Σ_{P ∈ pa(X)} f_{P→X}(P)`` where ``f`` is ``c·P`` in linear suites and
``c2·P² + c1·P`` in quadratic ones.  For a *controllable* node the intercept ``b_X`` is a
property of the crystal (its "base"), not of the model: the identifier ``base_<X>`` in the
equation text stands for the crystal's current base.  The frequency node's intercept
``base_freq`` is a fixed constant.  Nodes are evaluated parents-first and every value is
rounded to 2 decimals (Python's ``round(x, 2)``) before its children read it.

Interventions (§2.4) are *shifts*: "set X to v" moves the crystal's base of X so that X
shows ``v`` but keeps listening to its parents.  The arithmetic is the original's: a root's
new base is ``round(v, 2)``; a node with parents gets ``round(v − (x − b_X), 2)`` (``x`` its
current noise-free value) — not ``round(b_X + (v − x), 2)``, which is the same number in
exact arithmetic but rounds differently on half-way inputs (``81.645``) and loses digits at
large magnitudes.  For a root this equals ``do(X = v)``.  A hard ``do(X = v)`` (which
freezes X) is available as an option.

The optional hidden disturbance (§1.6) adds ``w·h`` to the affected nodes, in topological
order, so descendants see the perturbed value; it is applied by the caller passing ``h``.

Compilation reads each ``computation`` with the equation grammar
(:func:`~causalcheck.equation.parse_equation`, names as written), expands it with
:meth:`~causalcheck.equation.Equation.polynomial` and folds the params in, giving
``const + base_coef·b_X + Σ coef·parent^power`` (:class:`NodeEquation`); monomials over
several parents (never in the released data) are kept as a general part.  That form is
written back as an expression tree (:meth:`NodeEquation.expr`) for display.  :meth:`SCM.evaluate_list`
evaluates that form node by node in topological order, in float arithmetic in the order written
(the environment's own), so every evaluation gives the same bits.

One module because the SCM is one compiled value: its node equations, their evaluation order and
the shift semantics are one simulator that must match CausaLab's step for step (golden traces in
``tests/test_lab_scm.py``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.equation import (
    BinOp,
    Equation,
    Expr,
    Monomial,
    Num,
    Sym,
    parse_equation,
)
from causalcheck.graph import FREQ, CausalGraph, Edge
from causalcheck.graphs.model import depth_first

__all__ = ["MAX_PARAM_MAGNITUDE", "SCM", "NodeEquation", "ParentTerm", "finite_number", "parse_computation"]

_BASE = "__crystal_base__"


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Equation:
    return parse_equation(text, raw_names=True, source="computation")


def parse_computation(text: str, *, source: str = "<equation>") -> Equation:
    """A node's ``computation`` string read with the equation grammar (names as written, memoised).

    Raises :class:`~causalcheck.base.errors.InputFormatError` naming *source* and the text when it
    is empty or does not parse.

    >>> parse_computation("base_b + coeff_a_b * (a ^ 2)").polynomial()
    {(('base_b', 1),): 1.0, (('a', 2), ('coeff_a_b', 1)): 1.0}
    """
    if not isinstance(text, str) or not text.strip():
        raise InputFormatError(f"{source}: computation={text!r} must be a non-empty expression")
    try:
        return _parse(text)
    except CausalCheckError as exc:
        detail = getattr(exc, "message", str(exc))
        raise InputFormatError(f"{source}: computation={text!r} is not an arithmetic expression ({detail})") from None


@dataclass(frozen=True)
class ParentTerm:
    """``coef * value(parent) ** power`` inside one structural equation."""

    coef: float
    parent: int
    power: int


@dataclass(frozen=True)
class NodeEquation:
    """The compiled equation of one node: ``const + base_coef·b_X + Σ terms``.

    ``general`` holds monomials over several parents (``((parent, power), ...), coef``) for
    equations that are not sums of single-parent terms.
    """

    node: int
    const: float
    base_coef: float
    terms: tuple[ParentTerm, ...]
    general: tuple[tuple[tuple[tuple[int, int], ...], float], ...] = ()

    def expr(self) -> Expr:
        """This equation as an expression tree over ``b`` (the crystal base) and ``v<j>`` (node j).

        The operations are those of :meth:`SCM.evaluate_list`, in its order:
        ``((const + base_coef·b) + coef·v^power) + …``; ``base_coef·b`` is left out when
        ``base_coef`` is 0 (a base of a non-controllable node is ignored) and written ``b``
        when it is 1 (``1.0 * b`` is ``b``, bit for bit).  ``const`` always starts the sum:
        ``0.0 + b`` turns a base of ``-0.0`` into ``0.0`` exactly like the loop does.

        >>> NodeEquation(2, 0.0, 1.0, (ParentTerm(-1.5, 0, 1), ParentTerm(0.25, 1, 2))).expr() == BinOp(
        ...     "+", BinOp("+", BinOp("+", Num(0.0), Sym("b")), BinOp("*", Num(-1.5), Sym("v0"))),
        ...     BinOp("*", Num(0.25), BinOp("^", Sym("v1"), Num(2.0))))
        True
        """
        e: Expr = Num(self.const)
        if self.base_coef != 0.0:
            base: Expr = Sym("b") if self.base_coef == 1.0 else BinOp("*", Num(self.base_coef), Sym("b"))
            e = BinOp("+", e, base)
        for t in self.terms:
            x: Expr = Sym(f"v{t.parent}") if t.power == 1 else BinOp("^", Sym(f"v{t.parent}"), Num(float(t.power)))
            e = BinOp("+", e, BinOp("*", Num(t.coef), x))
        for mono, c in self.general:
            prod: Expr = Num(c)
            for p, pw in mono:
                prod = BinOp("*", prod, BinOp("^", Sym(f"v{p}"), Num(float(pw))))
            e = BinOp("+", e, prod)
        return e


#: The largest magnitude of an SCM parameter: the official suites' parameters stay below 10³; a
#: parameter beyond this bound (e.g. 1e308) makes the mechanisms overflow to infinity.
MAX_PARAM_MAGNITUDE = 1e12


def finite_number(value: Any, what: str) -> float:
    """*value* as a float; an :class:`InputFormatError` naming *what* unless it is a finite JSON number.

    The one check of numbers in suite records and SCM configs (``True`` is not a number; an
    integer beyond float range such as ``10**400`` is not finite).
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputFormatError(f"{what}={value!r:.60} must be a number")
    try:
        f = float(value)
    except OverflowError:  # an integer beyond float range (10**400)
        f = float("inf")
    if not math.isfinite(f):
        raise InputFormatError(f"{what}={value!r:.60} must be a finite number")
    return f


def _param(value: Any, what: str) -> float:
    f = finite_number(value, what)
    if abs(f) > MAX_PARAM_MAGNITUDE:
        raise InputFormatError(f"{what}={value!r} is beyond MAX_PARAM_MAGNITUDE={MAX_PARAM_MAGNITUDE:g} (the mechanisms would overflow)")
    return f


def _node_polynomial(
    name: str, spec: Any, index: Mapping[str, int], params: Mapping[str, float], source: str
) -> tuple[bool, str, dict[Monomial, float]]:
    """``(controllable, display name, polynomial)`` of one node of a suite record; params folded into the coefficients."""
    if not isinstance(spec, Mapping):
        raise InputFormatError(f"{source}: nodes[{name!r}]={spec!r} must be an object")
    ctrl = spec.get("is_controllable", name != FREQ)
    if not isinstance(ctrl, bool):
        raise InputFormatError(f"{source}: nodes[{name!r}].is_controllable={ctrl!r} must be true or false")
    if ctrl and name == FREQ:
        raise InputFormatError(f"{source}: nodes[{name!r}].is_controllable=True but the frequency cannot be controlled")
    shown = str(spec.get("display_name", name))
    comp = spec.get("computation")
    if comp is None:
        if not ctrl:
            raise InputFormatError(f"{source}: nodes[{name!r}] is not controllable and has no computation")
        return ctrl, shown, {((_BASE, 1),): 1.0}
    where = f"{source}: nodes[{name!r}].computation"
    raw = parse_computation(comp, source=where).polynomial(what=where)
    poly: dict[Monomial, float] = {}
    for mono, coef in raw.items():
        new: list[tuple[str, int]] = []
        c = coef
        for ident, p in mono:
            if ctrl and ident in (f"base_{name}", "base"):
                new.append((_BASE, p))
            elif ident in index:
                new.append((ident, p))
            elif ident in params:
                c *= params[ident] ** p
            else:
                raise InputFormatError(
                    f"{source}: nodes[{name!r}].computation uses identifier={ident!r} that is neither a node nor a param"
                )
        key = tuple(sorted(new))
        poly[key] = poly.get(key, 0.0) + c
    return ctrl, shown, poly


def _config_graph(edges_obj: Any, names: tuple[str, ...], index: Mapping[str, int], source: str) -> CausalGraph:
    """The graph of a suite record's ``edges`` (every end a declared node)."""
    if not isinstance(edges_obj, list):
        raise InputFormatError(f"{source}: edges={edges_obj!r} must be a list")
    edges: list[Edge] = []
    for e in edges_obj:
        if not isinstance(e, Mapping) or not isinstance(e.get("from"), str) or not isinstance(e.get("to"), str):
            raise InputFormatError(f"{source}: edge={e!r} must be {{'from': str, 'to': str}}")
        for end in (e["from"], e["to"]):
            if end not in index:
                raise InputFormatError(f"{source}: edge={e!r} names unknown node={end!r}")
        edges.append(Edge(e["from"], e["to"]))
    return CausalGraph(names, tuple(edges))


def _equation_parents(
    polys: Sequence[Mapping[Monomial, float]], graph: CausalGraph, names: tuple[str, ...], index: Mapping[str, int], source: str
) -> list[list[int]]:
    """The parents of each node in the order its equation names them; the equations must use exactly the declared parents."""
    parents_by_eq: list[list[int]] = []
    for i, poly in enumerate(polys):
        used = sorted({index[n] for m in poly for n, _ in m if n != _BASE}, key=lambda j: j)
        declared = {index[p] for p in graph.parents(names[i])}
        if set(used) != declared:
            raise InputFormatError(
                f"{source}: nodes[{names[i]!r}].computation uses parents {sorted(names[j] for j in used)!r} "
                f"but edges declare {sorted(names[j] for j in declared)!r}"
            )
        # keep parents in the order they appear in the equation text
        seen: list[int] = []
        for m in poly:
            for n, _ in m:
                if n != _BASE and index[n] not in seen:
                    seen.append(index[n])
        parents_by_eq.append(seen)
    return parents_by_eq


def _equations(
    polys: Sequence[Mapping[Monomial, float]], names: tuple[str, ...], index: Mapping[str, int], source: str
) -> tuple[list[NodeEquation], str]:
    """The compiled equation of every node, and the family (``linear``, ``quadratic``, ``polynomial``) of the highest degree."""
    equations = []
    degree = 1
    for i, poly in enumerate(polys):
        const = 0.0
        base_coef = 0.0
        terms: list[ParentTerm] = []
        general: list[tuple[tuple[tuple[int, int], ...], float]] = []
        for mono, coef in poly.items():
            if not mono:
                const += coef
            elif mono == ((_BASE, 1),):
                base_coef += coef
            elif len(mono) == 1 and mono[0][0] != _BASE:
                terms.append(ParentTerm(coef, index[mono[0][0]], mono[0][1]))
                degree = max(degree, mono[0][1])
            else:
                if any(n == _BASE for n, _ in mono):
                    raise InputFormatError(f"{source}: nodes[{names[i]!r}].computation must use its base additively")
                general.append((tuple((index[n], p) for n, p in mono), coef))
                degree = max(degree, 3)
        equations.append(NodeEquation(i, const, base_coef, tuple(terms), tuple(general)))
    return equations, "linear" if degree == 1 else "quadratic" if degree == 2 else "polynomial"


@dataclass(frozen=True, eq=False)
class SCM:
    """A compiled CausaLab SCM.

    Attributes:
        nodes: node names in config order (the frequency node first in official files).
        order: indices of ``nodes`` in evaluation order (depth-first, parents before
            children, the order the anchor prints records in).
        controllable: indices of the agent-adjustable nodes, in config order.
        freq: index of the frequency node.
        equations: one :class:`NodeEquation` per node, indexed like ``nodes``.
        graph: the true graph (edges as in the config).
        family: ``"linear"``, ``"quadratic"`` or ``"polynomial"``.
    """

    nodes: tuple[str, ...]
    order: tuple[int, ...]
    controllable: tuple[int, ...]
    freq: int
    equations: tuple[NodeEquation, ...]
    graph: CausalGraph
    family: str
    display_names: tuple[str, ...]

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_config(cls, config: Mapping[str, Any], *, source: str = "<config>") -> SCM:
        """Compile the ``nodes`` / ``edges`` / ``params`` of an official suite record."""
        nodes_obj = config.get("nodes")
        if not isinstance(nodes_obj, Mapping) or not nodes_obj:
            raise InputFormatError(f"{source}: nodes={nodes_obj!r} must be a non-empty object")
        params_obj = config.get("params", {})
        if not isinstance(params_obj, Mapping):
            raise InputFormatError(f"{source}: params={params_obj!r} must be an object")
        params = {str(k): _param(v, f"{source}: params[{k!r}]") for k, v in params_obj.items()}
        names = tuple(str(n) for n in nodes_obj)
        index = {n: i for i, n in enumerate(names)}
        if FREQ not in index:
            raise InputFormatError(f"{source}: nodes={list(names)!r} must include {FREQ!r}")
        polys: list[dict[Monomial, float]] = []
        controllable: list[int] = []
        display: list[str] = []
        for i, name in enumerate(names):
            ctrl, shown, poly = _node_polynomial(name, nodes_obj[name], index, params, source)
            display.append(shown)
            if ctrl:
                controllable.append(i)
            polys.append(poly)
        graph = _config_graph(config.get("edges", []), names, index, source)
        order = _dfs_order(_equation_parents(polys, graph, names, index, source), source, names)
        equations, family = _equations(polys, names, index, source)
        return cls(
            names,
            order,
            tuple(controllable),
            index[FREQ],
            tuple(equations),
            graph,
            family,
            tuple(display),
        )

    # ------------------------------------------------------------------ views
    @property
    def index(self) -> dict[str, int]:
        """Node name → index in :attr:`nodes`."""
        return {n: i for i, n in enumerate(self.nodes)}

    @property
    def controllable_names(self) -> tuple[str, ...]:
        return tuple(self.nodes[i] for i in self.controllable)

    @property
    def order_names(self) -> tuple[str, ...]:
        return tuple(self.nodes[i] for i in self.order)

    def bases_from_values(self, values: Sequence[float]) -> list[float]:
        """The crystal bases that reproduce a full noise-free state *values* (indexed like nodes).

        For a controllable node ``b_X = x − Σ f(parents)`` (2-dp rounded); entries of other
        nodes are 0.
        """
        bases = [0.0] * len(self.nodes)
        for i in self.controllable:
            eq = self.equations[i]
            rest = 0.0
            for t in eq.terms:
                rest += t.coef * values[t.parent] ** t.power
            for mono, c in eq.general:
                prod = c
                for p, pw in mono:
                    prod *= values[p] ** pw
                rest += prod
            bases[i] = round((values[i] - eq.const - rest) / (eq.base_coef or 1.0), 2)
        return bases

    # ------------------------------------------------------------------ evaluation
    def evaluate_list(
        self,
        bases: Sequence[float],
        *,
        h: float = 0.0,
        affected: frozenset[int] = frozenset(),
        weight: float = 1.0,
        fixed: Mapping[int, float] | None = None,
    ) -> list[float]:
        """Values of all nodes (indexed like :attr:`nodes`) for crystal *bases*.

        *bases* is indexed like :attr:`nodes` (entries of non-controllable nodes are ignored).
        ``fixed`` pins nodes to values (hard ``do()``); ``h``·``weight`` is added to the
        nodes in ``affected`` after they are computed (hidden disturbance).
        """
        noisy = h != 0.0 and bool(affected)
        vals = [0.0] * len(self.nodes)
        eqs = self.equations
        for i in self.order:
            if fixed is not None and i in fixed:
                v = fixed[i]
            else:
                eq = eqs[i]
                v = eq.const + eq.base_coef * bases[i]
                for t in eq.terms:
                    v += t.coef * (vals[t.parent] if t.power == 1 else vals[t.parent] ** t.power)
                for mono, c in eq.general:
                    prod = c
                    for p, pw in mono:
                        prod *= vals[p] ** pw
                    v += prod
                v = round(v, 2)
            if noisy and i in affected:
                v = round(v + weight * h, 2)
            vals[i] = v
        return vals

    def evaluate(self, bases: Mapping[str, float], **kwargs: Any) -> dict[str, float]:
        """Like :meth:`evaluate_list` with bases and result keyed by name, in evaluation order."""
        idx = self.index
        base_list = [0.0] * len(self.nodes)
        for name, value in bases.items():
            if name not in idx:
                raise InputFormatError(f"base for unknown node={name!r}; nodes are {list(self.nodes)!r}")
            base_list[idx[name]] = finite_number(value, f"base[{name!r}]")
        vals = self.evaluate_list(base_list, **kwargs)
        return {self.nodes[i]: vals[i] for i in self.order}

    def has_parents(self, node: int) -> bool:
        """True when *node*'s equation reads another node (a "hybrid"; otherwise a root)."""
        eq = self.equations[node]
        return bool(eq.terms or eq.general)

    def shift_base(self, bases: Sequence[float], values: Sequence[float], node: int, target: float) -> float:
        """The new crystal base of *node* so its noise-free value becomes *target* (2-dp rounded).

        The original's arithmetic: ``round(target, 2)`` for a root,
        ``round(target − (x − b), 2)`` for a node with parents (see the module docstring).
        """
        if self.has_parents(node):
            return round(target - (values[node] - bases[node]), 2)
        return round(target, 2)

    def descendants(self, node: int) -> frozenset[int]:
        """Indices of the nodes reachable from *node*."""
        idx = self.index
        return frozenset(idx[n] for n in self.graph.descendants(self.nodes[node]))

    def to_json(self) -> dict[str, Any]:
        """A small JSON summary (names, evaluation order, family)."""
        return {
            "nodes": list(self.nodes),
            "order": list(self.order_names),
            "controllable": list(self.controllable_names),
            "family": self.family,
            "edges": [{"from": e.source, "to": e.target} for e in self.graph.edges],
        }


def _dfs_order(parents: list[list[int]], source: str, names: tuple[str, ...]) -> tuple[int, ...]:
    """Depth-first post-order over config order (parents first); raises on a cycle."""
    order, cycle = depth_first(parents)
    if cycle:
        raise InputFormatError(f"{source}: the equations are cyclic through node={names[cycle[0]]!r}")
    return tuple(order)
