"""Background knowledge — required and forbidden edges, tiers — checked against a graph.

A :class:`Knowledge` is a list of :class:`Rule`\\ s over node pairs:

==================  ==========================================================
rule                holds when the true DAG ...
==================  ==========================================================
``require a -> b``  has the edge ``a -> b`` (``a`` is a direct cause of ``b``)
``forbid a -> b``   does not have ``a -> b``
``require a -- b``  has an edge between ``a`` and ``b``, either way
``forbid a -- b``   has no edge between ``a`` and ``b``
tiers               has no edge from a later tier into an earlier one (and, with
                    ``forbid within tier k``, none inside tier ``k``)
==================  ==========================================================

Tiers are expanded into ``forbid`` rules, one per ordered pair, each remembering the tiers
it came from.  Sources (:func:`read_knowledge`): a :class:`Knowledge`; causal-learn's
``BackgroundKnowledge`` (its node rules, its regular-expression rules matched with
``re.match`` against the graph's node names as causal-learn does, its tiers and
``forbidden_within_tiers``); a JSON object ``{"require": [["a", "->", "b"], ...],
"forbid": [...], "tiers": [["a", "b"], ["c"]], "forbid_within_tiers": [1]}`` (``tiers``
may also map tier numbers to lists; a list gives tiers ``0, 1, ...``); or our text format
(``grammar/background.lark``)::

    require Age -> Income
    forbid  Income -> Age
    forbid  A -- B
    tier 1: Age, Sex
    tier 2: Income
    forbid within tier 2

**Checking** (:func:`check_knowledge`).  A DAG decides every rule.  A CPDAG or PDAG stands
for its members — the DAGs with its skeleton, its directed edges, acyclic and without a new
v-structure — so a rule on an undirected edge may hold in some members and not in others,
and *several* rules may be impossible together although each alone is possible (orienting
both ways around a triangle, or into a new v-structure).  The members are encoded for z3:
one Boolean per undirected edge (its orientation), integer ranks for acyclicity, one clause
per forbidden new v-structure, all hard; each rule is a *tracked* assertion
``literal ⇒ rule``.  When the rules cannot all hold, z3's unsat core names rules that
conflict; it is shrunk by deletion (as :mod:`causalcheck.solvers.acyclicity` does) to a
**minimal** set — drop any one rule and the rest are satisfiable by some member — reported,
set aside, and the search repeats until the remaining rules are satisfiable.  A rule that
the graph decides alone (its pair is non-adjacent or directed) is a minimal core of one by
itself and is reported without the solver.  On a MAG or a PAG the rules are read on the
marks, each on its own: ``a -> b`` there says ``a`` is an ancestor of ``b``, so a rule
forbidding ``a -> b`` fails on that edge, a rule requiring it fails on an arrowhead at ``a``
or a tail at ``b``; a circle allows either mark.

>>> from causalcheck.graphs.formats import parse_text
>>> k = parse_knowledge("require a -> b\\nrequire b -> c\\nrequire c -> a")
>>> check = check_knowledge(parse_text("a -- b; b -- c; a -- c"), k)
>>> [str(r) for r in check.conflicts[0].rules]
['require a -> b', 'require b -> c', 'require c -> a']
>>> print(check_knowledge(parse_text("b -> a"), parse_knowledge("tier 1: a\\ntier 2: b")).conflicts[0].reason)
the graph has 'b -> a'; tiers forbid b -> a (b in tier 2, a in tier 1)

One module because background knowledge is one feature around the one :class:`Knowledge` type:
its text / JSON formats, causal-learn's object, and the check with minimal conflicting sets (z3
cores).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from causalcheck.base import safejson
from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import could_be_path, read_input_text
from causalcheck.grammar.parsers import parser, syntax_error
from causalcheck.graphs.model import Graph, GraphEdge, Mark

__all__ = [
    "Conflict",
    "Knowledge",
    "KnowledgeCheck",
    "Rule",
    "RuleKind",
    "check_knowledge",
    "from_causallearn_knowledge",
    "parse_knowledge",
    "read_knowledge",
]

RuleKind = Literal["require", "forbid", "require-adjacent", "forbid-adjacent"]


@dataclass(frozen=True, order=True)
class Rule:
    """One rule on the pair ``(a, b)``; ``origin`` says where it came from (a line, a tier pair)."""

    kind: RuleKind
    a: str
    b: str
    origin: str = ""

    def __str__(self) -> str:
        token = "->" if self.kind in ("require", "forbid") else "--"
        verb = "require" if self.kind.startswith("require") else "forbid"
        if self.origin.startswith("tiers") or self.origin.startswith("within"):
            return f"{self.origin.split(':', 1)[0]} forbid {self.a} -> {self.b} ({self.origin.split(':', 1)[1].strip()})"
        return f"{verb} {self.a} {token} {self.b}"

    def to_dict(self) -> dict[str, str]:
        """``{"kind", "a", "b", "origin", "text"}``."""
        return {"kind": self.kind, "a": self.a, "b": self.b, "origin": self.origin, "text": str(self)}


@dataclass(frozen=True)
class Knowledge:
    """Rules (tiers already expanded) and the tiers they came from."""

    rules: tuple[Rule, ...] = ()
    tiers: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    forbid_within: frozenset[int] = frozenset()

    def expanded(self) -> tuple[Rule, ...]:
        """The explicit rules followed by one ``forbid`` per tier-ordered pair."""
        out = list(self.rules)
        for later, lnodes in sorted(self.tiers.items()):
            for earlier, enodes in sorted(self.tiers.items()):
                if earlier < later:
                    for b in lnodes:
                        for a in enodes:
                            out.append(Rule("forbid", b, a, f"tiers: {b} in tier {later}, {a} in tier {earlier}"))
            if later in self.forbid_within:
                for a in lnodes:
                    for b in lnodes:
                        if a != b:
                            out.append(Rule("forbid", a, b, f"within tier {later}: {a} and {b} both in tier {later}"))
        return tuple(dict.fromkeys(out))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form :func:`read_knowledge` reads back."""
        def token(r: Rule) -> list[str]:
            return [r.a, "->" if r.kind in ("require", "forbid") else "--", r.b]

        return {
            "require": [token(r) for r in self.rules if r.kind.startswith("require")],
            "forbid": [token(r) for r in self.rules if r.kind.startswith("forbid")],
            "tiers": {str(t): list(vs) for t, vs in sorted(self.tiers.items())},
            "forbid_within_tiers": sorted(self.forbid_within),
        }


def _rule(verb: str, a: str, token: str, b: str, origin: str) -> Rule:
    if token == "<-":
        a, b, token = b, a, "->"
    if token not in ("->", "--"):
        raise InputFormatError(f"{origin}: edge token={token!r} must be '->', '<-' or '--'")
    if a == b:
        raise InputFormatError(f"{origin}: a rule between {a!r} and itself")
    if token == "->":
        kind: RuleKind = "require" if verb == "require" else "forbid"
    else:
        kind = "require-adjacent" if verb == "require" else "forbid-adjacent"
    return Rule(kind, a, b, origin)


def parse_knowledge(text: str, *, source: str = "<string>") -> Knowledge:
    """Our text format (see the module docstring); syntax errors are :class:`DSLSyntaxError`."""
    from lark import Tree
    from lark.exceptions import UnexpectedInput

    try:
        tree = parser("background").parse(text)
    except UnexpectedInput as exc:
        raise syntax_error(exc, text, grammar="background", source=source, what="bad background rule") from None
    rules: list[Rule] = []
    tiers: dict[int, list[str]] = {}
    within: set[int] = set()

    def name(node: Any) -> str:  # a quoted name is a JSON string: control characters, bad escapes, lone surrogates refused
        tok = str(node.children[0])
        return str(safejson.loads(tok, source=f"{source}: quoted name {tok[:60]!r}")) if tok.startswith('"') else tok

    for stmt in tree.children:
        if not isinstance(stmt, Tree):  # pragma: no cover - the grammar yields only trees here
            continue
        if stmt.data in ("require", "forbid"):
            a, tok, b = stmt.children
            line = getattr(tok, "line", "?")
            rules.append(_rule(str(stmt.data), name(a), str(tok), name(b), f"{source}:{line}"))
        elif stmt.data == "tier":
            number = int(str(stmt.children[0]))
            for node in stmt.children[1:]:
                v = name(node)
                for t, vs in tiers.items():
                    if v in vs and t != number:
                        raise InputFormatError(f"{source}: node {v!r} is in tier {t} and tier {number}")
                tiers.setdefault(number, [])
                if v not in tiers[number]:
                    tiers[number].append(v)
        else:
            within.add(int(str(stmt.children[0])))
    return Knowledge(tuple(rules), {t: tuple(vs) for t, vs in tiers.items()}, frozenset(within))


def _from_json(data: Mapping[str, Any], source: str) -> Knowledge:
    allowed = {"require", "forbid", "tiers", "forbid_within_tiers"}
    extra = sorted(set(data) - allowed)
    if extra:
        raise InputFormatError(f"{source}: unknown background key(s) {extra!r}; allowed: {sorted(allowed)!r}")
    rules = []
    for verb in ("require", "forbid"):
        items = data.get(verb, [])
        if not isinstance(items, list):
            raise InputFormatError(f"{source}: {verb!r} must be a list of [a, '->', b] triples")
        for k, item in enumerate(items):
            if isinstance(item, list | tuple) and len(item) == 2:
                item = [item[0], "->", item[1]]
            if not (isinstance(item, list | tuple) and len(item) == 3 and all(isinstance(x, str) for x in item)):
                raise InputFormatError(f"{source}: {verb}[{k}]={item!r} must be [a, '->', b] (or [a, b])")
            rules.append(_rule(verb, item[0], item[1], item[2], f"{source}: {verb}[{k}]"))
    raw = data.get("tiers", {})
    tiers: dict[int, tuple[str, ...]] = {}
    pairs: Iterable[tuple[Any, Any]] = enumerate(raw) if isinstance(raw, list) else raw.items() if isinstance(raw, Mapping) else ()
    if not isinstance(raw, list | Mapping):
        raise InputFormatError(f"{source}: 'tiers' must be a list of node lists or an object tier -> nodes")
    for t, vs in pairs:
        try:
            number = int(t)
        except (TypeError, ValueError):
            raise InputFormatError(f"{source}: tier {t!r} must be an integer") from None
        if not isinstance(vs, list) or not all(isinstance(v, str) for v in vs):
            raise InputFormatError(f"{source}: tier {t!r} must list node names; got {vs!r}")
        tiers[number] = tuple(vs)
    within = data.get("forbid_within_tiers", [])
    if not isinstance(within, list) or not all(isinstance(t, int) for t in within):
        raise InputFormatError(f"{source}: 'forbid_within_tiers' must be a list of tier numbers; got {within!r}")
    return Knowledge(tuple(rules), tiers, frozenset(within))


def from_causallearn_knowledge(bk: Any, nodes: Sequence[str]) -> Knowledge:
    """causal-learn's ``BackgroundKnowledge``; pattern rules are matched against *nodes*."""
    def nm(node: Any) -> str:
        return str(node.get_name())

    rules = [Rule("require", nm(a), nm(b), "causal-learn required") for a, b in sorted(bk.required_rules_specs, key=lambda p: (nm(p[0]), nm(p[1])))]
    rules += [Rule("forbid", nm(a), nm(b), "causal-learn forbidden") for a, b in sorted(bk.forbidden_rules_specs, key=lambda p: (nm(p[0]), nm(p[1])))]
    for kind, specs in (("require", bk.required_pattern_rules_specs), ("forbid", bk.forbidden_pattern_rules_specs)):
        for pa, pb in sorted(specs):
            for a in nodes:
                for b in nodes:
                    if a != b and re.match(pa, a) and re.match(pb, b):
                        rules.append(Rule(kind, a, b, f"causal-learn pattern {pa!r} -> {pb!r}"))  # type: ignore[arg-type]
    tiers = {int(t): tuple(sorted(nm(v) for v in vs)) for t, vs in bk.tier_map.items()}
    return Knowledge(tuple(dict.fromkeys(rules)), tiers, frozenset(int(t) for t in bk.forbidden_within_tiers))


def read_knowledge(source: Any, nodes: Sequence[str] = ()) -> Knowledge:
    """A :class:`Knowledge` from any source in the module docstring (*nodes* for causal-learn patterns)."""
    if isinstance(source, Knowledge):
        return source
    if (type(source).__module__ or "").startswith("causallearn.") and hasattr(source, "required_rules_specs"):
        return from_causallearn_knowledge(source, nodes)
    if isinstance(source, Mapping):
        return _from_json(source, "background")
    if isinstance(source, str | os.PathLike):
        text = os.fspath(source)
        name = "<string>"
        if isinstance(source, os.PathLike) or could_be_path(text, is_file=True):
            name = text
            text = read_input_text(text, what="background file")
        if text.lstrip().startswith("{"):
            try:
                data = safejson.loads(text, source=name)
            except safejson.JSONSyntaxError as exc:
                raise InputFormatError(f"{name}:{exc.line}:{exc.column}: background JSON does not parse: {exc.msg}") from None
            if not isinstance(data, dict):
                raise InputFormatError(f"{name}: background JSON must be an object")
            return _from_json(data, name)
        return parse_knowledge(text, source=name)
    raise InputFormatError(
        f"cannot read background knowledge from a {type(source).__module__}.{type(source).__name__}: pass a path, "
        "a text, a JSON object, a causal-learn BackgroundKnowledge or a Knowledge"
    )


# --------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class Conflict:
    """A minimal set of rules that no member of the graph's class satisfies together."""

    rules: tuple[Rule, ...]
    edges: tuple[str, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {"rules": [r.to_dict() for r in self.rules], "edges": list(self.edges), "reason": self.reason}


@dataclass(frozen=True)
class KnowledgeCheck:
    """The outcome: conflicts (a single broken rule is a conflict of one), unknown-node rules, rule count."""

    conflicts: tuple[Conflict, ...]
    unknown: tuple[Rule, ...]
    rules_checked: int
    method: str

    @property
    def ok(self) -> bool:
        """True when every rule can hold."""
        return not self.conflicts

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict."""
        return {
            "ok": self.ok,
            "conflicts": [c.to_dict() for c in self.conflicts],
            "unknown": [r.to_dict() for r in self.unknown],
            "rules_checked": self.rules_checked,
            "method": self.method,
        }


def _state_text(e: GraphEdge | None, a: str, b: str) -> str:
    return f"no edge between {a!r} and {b!r}" if e is None else f"{str(e)!r}"


def _fixed_truth(rule: Rule, e: GraphEdge | None) -> bool | None:
    """The rule's truth on a DAG/PDAG pair, or None when it depends on an undirected edge."""
    if e is None:
        return rule.kind in ("forbid", "forbid-adjacent")
    if rule.kind == "require-adjacent":
        return True
    if rule.kind == "forbid-adjacent":
        return False
    if e.is_undirected:
        return None
    forward = e.u == rule.a and e.v == rule.b
    return forward if rule.kind == "require" else not forward


def _mark_truth(rule: Rule, e: GraphEdge | None) -> bool:
    """The rule read on MAG/PAG marks (circles allow either mark)."""
    if rule.kind == "require-adjacent":
        return e is not None
    if rule.kind == "forbid-adjacent":
        return e is None
    if e is None:
        return rule.kind == "forbid"
    at_a, at_b = e.mark_at(rule.a), e.mark_at(rule.b)
    if rule.kind == "require":
        return at_a is not Mark.ARROW and at_b is not Mark.TAIL
    return not (at_a is Mark.TAIL and at_b is Mark.ARROW)


def _why(rule: Rule, e: GraphEdge | None) -> str:
    return f"the graph has {_state_text(e, rule.a, rule.b)}; {rule}"


def check_knowledge(graph: Graph, knowledge: Knowledge | Any) -> KnowledgeCheck:
    """Check *knowledge* (anything :func:`read_knowledge` reads) against *graph* (see the module docstring)."""
    k = read_knowledge(knowledge, graph.nodes)
    rules = k.expanded()
    known = set(graph.nodes)
    unknown = tuple(r for r in rules if r.a not in known or r.b not in known)
    active = [r for r in rules if r.a in known and r.b in known]
    conflicts: list[Conflict] = []
    if graph.kind in ("MAG", "PAG"):
        for r in active:
            e = graph.edge(r.a, r.b)
            if not _mark_truth(r, e):
                conflicts.append(Conflict((r,), (str(e),) if e else (), _why(r, e)))
        return KnowledgeCheck(tuple(conflicts), unknown, len(active), "marks")
    variable: list[Rule] = []
    for r in active:
        e = graph.edge(r.a, r.b)
        truth = _fixed_truth(r, e)
        if truth is None:
            variable.append(r)
        elif not truth:
            conflicts.append(Conflict((r,), (str(e),) if e else (), _why(r, e)))
    method = "graph"
    if variable:
        method = "z3"
        conflicts += _z3_conflicts(graph, variable)
    return KnowledgeCheck(tuple(conflicts), unknown, len(active), method)


def _z3_conflicts(graph: Graph, rules: list[Rule]) -> list[Conflict]:
    import z3

    ctx = z3.Context()
    pos = graph.index
    names = graph.nodes
    orient: dict[frozenset[str], Any] = {}  # True: e.u -> e.v
    und = [e for e in graph.edges if e.is_undirected]
    for k, e in enumerate(und):
        orient[e.pair] = z3.Bool(f"o{k}", ctx)
    true, false = z3.BoolVal(True, ctx), z3.BoolVal(False, ctx)

    def into(a: str, b: str) -> Any:
        """Expression: the member has a -> b."""
        e = graph.edge(a, b)
        if e is None:
            return false
        if e.is_directed:
            return true if (e.u, e.v) == (a, b) else false
        o = orient[e.pair]
        return o if (e.u, e.v) == (a, b) else z3.Not(o)

    solver = z3.Solver(ctx=ctx)
    rank = [z3.Int(f"r{i}", ctx) for i in range(len(names))]
    for e in graph.edges:
        for a, b in ((e.u, e.v), (e.v, e.u)):
            cond = into(a, b)
            if not z3.is_false(cond):
                solver.add(z3.Implies(cond, rank[pos[a]] < rank[pos[b]]))
    for c in names:  # no new v-structure a -> c <- b with a, b non-adjacent
        adj = graph.adjacent(c)
        for i, a in enumerate(adj):
            for b in adj[i + 1 :]:
                if graph.has_edge(a, b):
                    continue
                ea, eb = graph.edge(a, c), graph.edge(b, c)
                assert ea is not None and eb is not None
                if ea.is_directed and eb.is_directed:
                    continue  # both fixed: a v-structure of the graph itself (or not a collider at all)
                solver.add(z3.Not(z3.And(into(a, c), into(b, c))))
    lits = [z3.Bool(f"rule{k}", ctx) for k in range(len(rules))]
    for lit, r in zip(lits, rules, strict=True):
        if r.kind == "require":
            body = into(r.a, r.b)
        elif r.kind == "forbid":
            body = z3.Not(into(r.a, r.b))
        else:  # adjacency rules are fixed by the skeleton and never reach here
            body = true  # pragma: no cover
        solver.add(z3.Implies(lit, body))
    if solver.check() == z3.unsat:
        return [Conflict((), (), "the PDAG has no member (no consistent extension): no rule can be checked")]
    active = list(range(len(rules)))
    out: list[Conflict] = []
    while active and solver.check(*[lits[i] for i in active]) == z3.unsat:
        core_ids = {str(c) for c in solver.unsat_core()}
        kept = [i for i in active if f"rule{i}" in core_ids]
        i = 0
        while i < len(kept):  # deletion-based minimisation
            trial = kept[:i] + kept[i + 1 :]
            if trial and solver.check(*[lits[j] for j in trial]) == z3.unsat:
                shrunk = {str(c) for c in solver.unsat_core()}
                kept = [j for j in trial if f"rule{j}" in shrunk]
            else:
                i += 1
        core = tuple(rules[i] for i in kept)
        edges = tuple(dict.fromkeys(str(graph.edge(r.a, r.b)) for r in core))
        if len(core) == 1:
            reason = f"no member of the class satisfies {core[0]}: orienting {edges[0]!r} that way forces a cycle or a new v-structure"
        else:
            reason = (
                f"no member of the class satisfies {'; '.join(str(r) for r in core)} together "
                f"(drop any one and the rest can hold): they orient {', '.join(repr(x) for x in edges)} "
                "into a cycle or a new v-structure"
            )
        out.append(Conflict(core, edges, reason))
        drop = set(kept)
        active = [i for i in active if i not in drop]
    return out
