"""The hidden structural causal model (SCM) of a CausaLab graph, compiled for speed.

A CausaLab SCM is deterministic (causalab-spec §1.2): every node ``X`` has a structural
equation ``X = b_X + Σ_{P ∈ pa(X)} f_{P→X}(P)`` where ``f`` is ``c·P`` in linear suites and
``c2·P² + c1·P`` in quadratic ones.  For a *controllable* node the intercept ``b_X`` is a
property of the crystal (its "base"), not of the model: the identifier ``base_<X>`` in the
equation text stands for the crystal's current base.  The frequency node's intercept
``base_freq`` is a fixed constant.  Nodes are evaluated parents-first and every value is
rounded to 2 decimals (Python's ``round(x, 2)``) before its children read it.

Interventions (§2.4) are *shifts*: "set X to v" moves the crystal's base of X by
``v − x`` (``x`` the current noise-free value), so X shows ``v`` but keeps listening to its
parents.  For a root this equals ``do(X = v)``.  A hard ``do(X = v)`` (which freezes X) is
available as an option.

The optional hidden disturbance (§1.6) adds ``w·h`` to the affected nodes, in topological
order, so descendants see the perturbed value; it is applied by the caller passing ``h``.

Compilation turns each equation into a list of ``(coefficient, parent index, power)`` terms
(by walking the Python AST of the expression — no ``eval``), so one evaluation is a short
loop over arrays.  Equations that are not sums of single-parent monomials (never in the
released data) fall back to a general polynomial evaluation.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from causalcheck.errors import InputFormatError
from causalcheck.graph import FREQ, CausalGraph, Edge

__all__ = ["SCM", "NodeEquation", "Term", "parse_polynomial"]

#: A monomial is a sorted tuple of ``(identifier, power)`` pairs; ``()`` is the constant.
Monomial = tuple[tuple[str, int], ...]

_BASE = "__crystal_base__"


def _mono_mul(a: Monomial, b: Monomial) -> Monomial:
    powers: dict[str, int] = {}
    for name, p in (*a, *b):
        powers[name] = powers.get(name, 0) + p
    return tuple(sorted(powers.items()))


def _poly_add(a: dict[Monomial, float], b: dict[Monomial, float], sign: float = 1.0) -> dict[Monomial, float]:
    out = dict(a)
    for m, c in b.items():
        out[m] = out.get(m, 0.0) + sign * c
    return {m: c for m, c in out.items() if c != 0.0}


def _poly_mul(a: dict[Monomial, float], b: dict[Monomial, float]) -> dict[Monomial, float]:
    out: dict[Monomial, float] = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            m = _mono_mul(ma, mb)
            out[m] = out.get(m, 0.0) + ca * cb
    return {m: c for m, c in out.items() if c != 0.0}


def parse_polynomial(text: str, *, source: str = "<equation>") -> dict[Monomial, float]:
    """Parse an arithmetic expression (``+ - * /``, ``^`` or ``**`` with integer powers) into a polynomial.

    >>> parse_polynomial("b + 2 * x ^ 2 - x")
    {(('b', 1),): 1.0, (('x', 2),): 2.0, (('x', 1),): -1.0}
    """
    if not isinstance(text, str) or not text.strip():
        raise InputFormatError(f"{source}: computation={text!r} must be a non-empty expression")
    try:
        tree = ast.parse(text.replace("^", "**"), mode="eval")
    except SyntaxError as exc:
        raise InputFormatError(f"{source}: computation={text!r} is not an arithmetic expression ({exc.msg})") from None

    def walk(node: ast.AST) -> dict[Monomial, float]:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return {(): float(node.value)} if node.value != 0 else {}
        if isinstance(node, ast.Name):
            return {((node.id, 1),): 1.0}
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            inner = walk(node.operand)
            return {m: -c for m, c in inner.items()} if isinstance(node.op, ast.USub) else inner
        if isinstance(node, ast.BinOp):
            left, right = walk(node.left), walk(node.right)
            if isinstance(node.op, ast.Add):
                return _poly_add(left, right)
            if isinstance(node.op, ast.Sub):
                return _poly_add(left, right, -1.0)
            if isinstance(node.op, ast.Mult):
                return _poly_mul(left, right)
            if isinstance(node.op, ast.Div):
                if set(right) - {()} or not right:
                    raise InputFormatError(f"{source}: computation={text!r} divides by a variable or zero")
                return {m: c / right[()] for m, c in left.items()}
            if isinstance(node.op, ast.Pow):
                exp = right.get((), 0.0) if set(right) <= {()} else None
                if exp is None or exp != int(exp) or exp < 0 or exp > 8:
                    raise InputFormatError(f"{source}: computation={text!r} has a power that is not a small non-negative integer")
                out: dict[Monomial, float] = {(): 1.0}
                for _ in range(int(exp)):
                    out = _poly_mul(out, left)
                return out
        raise InputFormatError(f"{source}: computation={text!r} uses an unsupported construct {type(node).__name__}")

    return walk(tree)


@dataclass(frozen=True)
class Term:
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
    terms: tuple[Term, ...]
    general: tuple[tuple[tuple[tuple[int, int], ...], float], ...] = ()


def _num(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputFormatError(f"{what}={value!r} must be a number")
    f = float(value)
    if f != f or f in (float("inf"), float("-inf")):
        raise InputFormatError(f"{what}={value!r} must be a finite number")
    return f


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
        params = {str(k): _num(v, f"{source}: params[{k!r}]") for k, v in params_obj.items()}
        names = tuple(str(n) for n in nodes_obj)
        index = {n: i for i, n in enumerate(names)}
        if FREQ not in index:
            raise InputFormatError(f"{source}: nodes={list(names)!r} must include {FREQ!r}")
        polys: list[dict[Monomial, float]] = []
        controllable: list[int] = []
        display: list[str] = []
        for i, name in enumerate(names):
            spec = nodes_obj[name]
            if not isinstance(spec, Mapping):
                raise InputFormatError(f"{source}: nodes[{name!r}]={spec!r} must be an object")
            ctrl = spec.get("is_controllable", name != FREQ)
            if not isinstance(ctrl, bool):
                raise InputFormatError(f"{source}: nodes[{name!r}].is_controllable={ctrl!r} must be true or false")
            if ctrl and name == FREQ:
                raise InputFormatError(f"{source}: nodes[{name!r}].is_controllable=True but the frequency cannot be controlled")
            display.append(str(spec.get("display_name", name)))
            comp = spec.get("computation")
            if comp is None:
                if not ctrl:
                    raise InputFormatError(f"{source}: nodes[{name!r}] is not controllable and has no computation")
                poly: dict[Monomial, float] = {((_BASE, 1),): 1.0}
            else:
                raw = parse_polynomial(comp, source=f"{source}: nodes[{name!r}].computation")
                poly = {}
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
            if ctrl:
                controllable.append(i)
            polys.append(poly)
        # edges: from config; the equations must use exactly the declared parents
        edges_obj = config.get("edges", [])
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
        graph = CausalGraph(names, tuple(edges))
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
        order = _dfs_order(parents_by_eq, source, names)
        equations = []
        degree = 1
        for i, poly in enumerate(polys):
            const = 0.0
            base_coef = 0.0
            terms: list[Term] = []
            general: list[tuple[tuple[tuple[int, int], ...], float]] = []
            for mono, coef in poly.items():
                if not mono:
                    const += coef
                elif mono == ((_BASE, 1),):
                    base_coef += coef
                elif len(mono) == 1 and mono[0][0] != _BASE:
                    terms.append(Term(coef, index[mono[0][0]], mono[0][1]))
                    degree = max(degree, mono[0][1])
                else:
                    if any(n == _BASE for n, _ in mono):
                        raise InputFormatError(f"{source}: nodes[{names[i]!r}].computation must use its base additively")
                    general.append((tuple((index[n], p) for n, p in mono), coef))
                    degree = max(degree, 3)
            equations.append(NodeEquation(i, const, base_coef, tuple(terms), tuple(general)))
        family = "linear" if degree == 1 else "quadratic" if degree == 2 else "polynomial"
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

    # ------------------------------------------------------------------ compiled fast paths
    def _expr(self, i: int, vals: str, bases: str) -> str:
        """Python source of node *i*'s rounded value (same operation order as :meth:`evaluate_list`)."""
        eq = self.equations[i]
        src = f"({eq.const!r} + {eq.base_coef!r} * {bases}[{i}])"
        for t in eq.terms:
            x = f"{vals}[{t.parent}]" if t.power == 1 else f"{vals}[{t.parent}] ** {t.power}"
            src = f"({src} + {t.coef!r} * {x})"
        for mono, c in eq.general:
            prod = f"{c!r}"
            for p, pw in mono:
                prod = f"({prod} * {vals}[{p}] ** {pw})"
            src = f"({src} + {prod})"
        return f"round({src}, 2)"

    def _compile(self) -> tuple[Any, tuple[Any, ...]]:
        cached = self.__dict__.get("_compiled")
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        # The generated source contains only float reprs and integer indices produced above,
        # never text from the input file, so exec() here cannot run foreign code.
        n = len(self.nodes)
        lines = ["def evaluate(b):", f"    v = [0.0] * {n}"]
        lines += [f"    v[{i}] = {self._expr(i, 'v', 'b')}" for i in self.order]
        lines.append("    return v")
        shifts = []
        for j in range(n):
            desc = self.descendants(j)
            body = [f"def shift_{j}(b, v, target):", f"    b[{j}] = round(b[{j}] + (target - v[{j}]), 2)"]
            body += [f"    v[{i}] = {self._expr(i, 'v', 'b')}" for i in self.order if i == j or i in desc]
            shifts.append("\n".join(body))
        namespace: dict[str, Any] = {}
        exec("\n".join(lines) + "\n\n" + "\n\n".join(shifts), {"round": round}, namespace)
        compiled = (namespace["evaluate"], tuple(namespace[f"shift_{j}"] for j in range(n)))
        object.__setattr__(self, "_compiled", compiled)
        return compiled

    def shift_inplace(self, bases: list[float], values: list[float], node: int, target: float) -> None:
        """Shift *node* to *target* and update the noise-free *values* of its descendants in place.

        Equivalent to ``bases[node] = shift_base(...)`` followed by ``evaluate_list(bases)``
        (for shift interventions without pinned nodes), but touches only the descendants.
        """
        self._compile()[1][node](bases, values, target)

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
        if fixed is None and not noisy:
            return list(self._compile()[0](bases))
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
            base_list[idx[name]] = _num(value, f"base[{name!r}]")
        vals = self.evaluate_list(base_list, **kwargs)
        return {self.nodes[i]: vals[i] for i in self.order}

    def shift_base(self, bases: Sequence[float], values: Sequence[float], node: int, target: float) -> float:
        """The new crystal base of *node* so its noise-free value becomes *target* (2-dp rounded)."""
        return round(bases[node] + (target - values[node]), 2)

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
    state = [0] * len(parents)  # 0 new, 1 on stack, 2 done
    out: list[int] = []
    for start in range(len(parents)):
        if state[start]:
            continue
        stack: list[tuple[int, int]] = [(start, 0)]
        state[start] = 1
        while stack:
            node, k = stack[-1]
            if k < len(parents[node]):
                stack[-1] = (node, k + 1)
                p = parents[node][k]
                if state[p] == 1:
                    raise InputFormatError(f"{source}: the equations are cyclic through node={names[p]!r}")
                if state[p] == 0:
                    state[p] = 1
                    stack.append((p, 0))
            else:
                stack.pop()
                state[node] = 2
                out.append(node)
    return tuple(out)
