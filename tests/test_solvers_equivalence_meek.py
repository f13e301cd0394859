"""``meek_closure``: Meek's rules as a function, with the rule per edge and the conflicts named."""

from __future__ import annotations

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graphs import Graph, MeekConflictError, meek_closure


def _pdag(directed: list[tuple[str, str]], undirected: list[tuple[str, str]]) -> Graph:
    return Graph.from_edges([(a, "->", b) for a, b in directed] + [(a, "--", b) for a, b in undirected])


def _edges(g: Graph) -> set[tuple[str, str]]:
    """pgmpy's edge set: a directed edge once, an undirected edge both ways."""
    out = set()
    for e in g.edges:
        out.add((e.u, e.v))
        if e.is_undirected:
            out.add((e.v, e.u))
    return out


# pgmpy/tests/test_base/test_PDAG.py (pgmpy 1.1.2), test_pdag_to_cpdag: (directed, undirected, apply_r4, expected edges)
PGMPY_CASES = [
    ([("A", "B")], [("B", "C")], True, {("A", "B"), ("B", "C")}),
    ([("A", "B")], [("B", "C"), ("C", "D")], True, {("A", "B"), ("B", "C"), ("C", "D")}),
    ([("A", "B"), ("D", "C"), ("D", "B")], [("B", "C")], True, {("A", "B"), ("D", "C"), ("D", "B"), ("B", "C")}),
    ([("A", "B"), ("B", "C")], [("A", "C")], True, {("A", "B"), ("B", "C"), ("A", "C")}),
    # Perković (2017)
    ([("V1", "X")], [("X", "V2"), ("V2", "Y"), ("X", "Y")], True, {("V1", "X"), ("X", "V2"), ("X", "Y"), ("V2", "Y"), ("Y", "V2")}),
    (
        [("Y", "X")], [("V1", "X"), ("X", "V2"), ("V2", "Y")], True,
        {("X", "V1"), ("Y", "X"), ("X", "V2"), ("V2", "X"), ("V2", "Y"), ("Y", "V2")},
    ),
    # Bang (2024)
    ([("B", "D"), ("C", "D")], [("A", "D"), ("A", "C")], True, {("B", "D"), ("D", "A"), ("C", "A"), ("C", "D")}),
    (
        [("A", "B"), ("C", "B")], [("D", "B"), ("D", "A"), ("D", "C")], True,
        {("A", "B"), ("C", "B"), ("D", "B"), ("D", "A"), ("A", "D"), ("D", "C"), ("C", "D")},
    ),
    (
        [("B", "D"), ("D", "A")], [("A", "C"), ("B", "C"), ("D", "C")], True,
        {("C", "A"), ("C", "B"), ("B", "C"), ("B", "D"), ("D", "A"), ("D", "C"), ("C", "D")},
    ),
    (
        [("B", "D"), ("D", "A")], [("A", "C"), ("B", "C"), ("D", "C")], False,
        {("A", "C"), ("C", "A"), ("C", "B"), ("B", "C"), ("B", "D"), ("D", "A"), ("D", "C"), ("C", "D")},
    ),
]


@pytest.mark.parametrize(("directed", "undirected", "rule4", "expected"), PGMPY_CASES)
def test_pgmpy_apply_meeks_rules_cases(directed, undirected, rule4, expected) -> None:
    """pgmpy's own expected closures (R1–R4, and R1–R3 where pgmpy's test leaves R4 out)."""
    assert _edges(meek_closure(_pdag(directed, undirected), rule4=rule4).graph) == expected


def test_pgmpy_conflict_case_is_named_and_left_undirected() -> None:
    """pgmpy's case A -> B -- C <- D leaves B -- C undirected; here it is a conflict, named, and strict=False gives pgmpy's graph."""
    g = _pdag([("A", "B"), ("D", "C")], [("B", "C")])
    with pytest.raises(MeekConflictError) as info:
        meek_closure(g)
    assert "'B -- C' is oriented both ways" in str(info.value)
    assert info.value.conflicts[0].edges == ("B -- C",)
    loose = meek_closure(g, strict=False)
    assert _edges(loose.graph) == {("A", "B"), ("D", "C"), ("B", "C"), ("C", "B")}  # pgmpy's expected value
    assert not loose.ok


@pytest.mark.parametrize(
    ("text", "edge", "rule", "witness"),
    [
        ("a -> b; b -- c", ("b", "c"), "R1", ("a",)),
        ("a -> b; b -> c; a -- c", ("a", "c"), "R2", ("b",)),
        ("c -> b; d -> b; a -- c; a -- d; a -- b", ("a", "b"), "R3", ("c", "d")),
        ("c -> d; d -> b; a -- c; a -- d; a -- b", ("a", "b"), "R4", ("c", "d")),
    ],
)
def test_each_rule_is_named_with_its_witness(text, edge, rule, witness) -> None:
    """The step that orients the edge names the rule and the nodes it reads."""
    closed = meek_closure(text)
    step = next(s for s in closed.steps if (s.edge.u, s.edge.v) == edge)
    assert (step.rule, step.witness) == (rule, witness)
    assert closed.rule_of(*edge) == rule


def test_rule4_off_leaves_the_r4_edge() -> None:
    """Without R4 (pgmpy's default) the R4 configuration stays undirected; with it, it is oriented."""
    text = "c -> d; d -> b; a -- c; a -- d; a -- b"
    assert meek_closure(text, rule4=False).graph.edge("a", "b").is_undirected
    assert meek_closure(text).graph.edge("a", "b").is_directed


def test_pgmpy_resolves_a_conflict_silently() -> None:
    """pgmpy's case A -> B -> C <- D, A -- C expects A -> C; R2 gives A -> C, R1 (from D) C -> A: no consistent
    extension (A -> C adds the v-structure A -> C <- D, C -> A closes a cycle).  pgmpy's R1 skips an orientation that
    would close a cycle or form a new collider, so it returns A -> C; here the conflict is named."""
    with pytest.raises(MeekConflictError, match="'A -- C' is oriented both ways: 'A -> C' by R2: A -> B -> C"):
        meek_closure(_pdag([("A", "B"), ("B", "C"), ("D", "C")], [("A", "C")]))


def test_cycle_closed_by_the_rules_is_a_conflict() -> None:
    """Orientations that close a directed cycle are reported with every edge of the cycle and the rule of each."""
    closed = meek_closure(
        "v0 -- v1; v0 -- v3; v0 -- v4; v5 -> v0; v1 -- v5; v3 -> v2; v2 -- v4; v2 -- v5; v3 -- v5; v4 -> v5", strict=False
    )
    cycle = [c for c in closed.conflicts if c.kind == "cycle"]
    assert cycle and set(cycle[0].edges) == {"v0 -> v3", "v3 -> v2", "v2 -> v4", "v4 -> v0"}
    assert "v3 -> v2 (given)" in cycle[0].reason and "v4 -> v0 (R2)" in cycle[0].reason


def test_pgmpy_r3_orients_an_unforced_edge() -> None:
    """pgmpy's R3 does not ask its two parents to be non-adjacent: here it orients v0 -> v3, which a consistent
    extension has the other way; R1–R3 here leave v0 -- v3 (found by the property test against pgmpy)."""
    g = Graph.from_edges(
        [("v1", "->", "v3"), ("v2", "->", "v4"), ("v0", "--", "v1"), ("v0", "--", "v2"), ("v0", "--", "v3"),
         ("v0", "--", "v4"), ("v1", "--", "v2"), ("v1", "--", "v4"), ("v3", "--", "v4")]
    )
    closed = meek_closure(g, rule4=False)
    assert closed.graph.edge("v0", "v3").is_undirected
    assert str(closed.graph.edge("v3", "v4")) == "v4 -> v3"
    # a consistent extension with v3 -> v0: same skeleton, the stated arrows, no new v-structure, acyclic
    ext = Graph.from_edges(
        [("v1", "->", "v3"), ("v2", "->", "v4"), ("v4", "->", "v3"), ("v3", "->", "v0"), ("v1", "->", "v0"),
         ("v4", "->", "v0"), ("v2", "->", "v0"), ("v2", "->", "v1"), ("v4", "->", "v1")]
    )
    from causalcheck.graphs import check_dag, consistent_extension

    assert check_dag(ext)
    assert consistent_extension(ext) == ext and ext.skeleton == g.skeleton


def test_bad_input_is_refused_naming_the_edge() -> None:
    """A mark Meek's rules do not read, or a stated directed cycle, raises naming it."""
    with pytest.raises(InputFormatError, match="'a <-> b' cannot occur in a PDAG"):
        meek_closure("a <-> b; b -- c")
    with pytest.raises(InputFormatError, match="form a cycle a -> b -> c -> a"):
        meek_closure("a -> b; b -> c; c -> a; c -- d")


def test_closure_keeps_attributes_and_to_dict() -> None:
    """Node attributes survive; to_dict lists the steps."""
    closed = meek_closure("dag { u [latent] u -> b  b -- c }")
    assert closed.graph.latent == ("u",)
    assert closed.to_dict()["steps"] == [{"edge": "b -> c", "rule": "R1", "witness": ["u"], "reason": "u -> b and u is not adjacent to c"}]
