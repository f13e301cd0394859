"""Background knowledge: the text/JSON formats, causal-learn's object, and minimal conflicting sets (z3 cores)."""

from __future__ import annotations

import itertools

import pytest
from causalcheck.base.errors import DSLSyntaxError, InputFormatError
from causalcheck.graphs.background import (
    Knowledge,
    Rule,
    check_knowledge,
    parse_knowledge,
    read_knowledge,
)
from causalcheck.graphs.formats import parse_text


def test_text_format_rules_and_tiers():
    """require/forbid with -> / <- / --, tiers and forbid-within expand into rules."""
    k = parse_knowledge('require a -> b\nforbid c <- d  # d -> c\nforbid a -- c; require "x y" -- b\ntier 1: a, b\ntier 2: c\nforbid within tier 1\n')
    assert [str(r) for r in k.rules] == ["require a -> b", "forbid d -> c", "forbid a -- c", "require x y -- b"]
    expanded = {(r.a, r.b) for r in k.expanded() if r.origin.startswith(("tiers", "within"))}
    assert expanded == {("c", "a"), ("c", "b"), ("a", "b"), ("b", "a")}


def test_text_syntax_error_has_position():
    """A bad line is a DSLSyntaxError with its line and column."""
    with pytest.raises(DSLSyntaxError) as info:
        parse_knowledge("require a -> b\nrequire a => b\n", source="bk.txt")
    assert info.value.line == 2 and info.value.column == 11 and "bk.txt" in str(info.value)
    with pytest.raises(InputFormatError, match="tier 1 and tier 2"):
        parse_knowledge("tier 1: a\ntier 2: a")


def test_json_and_file_sources(tmp_path):
    """JSON objects (tiers as a list or a mapping) and files of either format read the same knowledge."""
    data = {"require": [["a", "->", "b"]], "forbid": [["c", "d"]], "tiers": [["a"], ["b", "c"]], "forbid_within_tiers": [1]}
    k = read_knowledge(data)
    assert [str(r) for r in k.rules] == ["require a -> b", "forbid c -> d"] and k.tiers == {0: ("a",), 1: ("b", "c")}
    assert read_knowledge(k.to_dict()).expanded() == k.expanded()
    text = tmp_path / "bk.txt"
    text.write_text("require a -> b\n", encoding="utf-8")
    assert read_knowledge(text).rules == (Rule("require", "a", "b", f"{text}:1"),)
    js = tmp_path / "bk.json"
    js.write_text('{"forbid": [["a", "--", "b"]]}', encoding="utf-8")
    assert read_knowledge(js).rules[0].kind == "forbid-adjacent"
    with pytest.raises(InputFormatError, match="unknown background key"):
        read_knowledge({"required": []})
    with pytest.raises(InputFormatError, match="cannot read background"):
        read_knowledge(42)


def test_causallearn_background_knowledge():
    """causal-learn's BackgroundKnowledge: node rules, regex patterns (re.match), tiers and forbidden-within."""
    from causallearn.graph.GraphNode import GraphNode
    from causallearn.utils.PCUtils.BackgroundKnowledge import BackgroundKnowledge

    nodes = {n: GraphNode(n) for n in ("X1", "X2", "X3", "Y")}
    bk = BackgroundKnowledge()
    bk.add_required_by_node(nodes["X1"], nodes["X2"])
    bk.add_forbidden_by_pattern("X", "Y")
    bk.add_node_to_tier(nodes["Y"], 0)
    bk.add_node_to_tier(nodes["X3"], 1)
    k = read_knowledge(bk, ["X1", "X2", "X3", "Y"])
    rules = {(r.kind, r.a, r.b) for r in k.expanded()}
    assert ("require", "X1", "X2") in rules and {("forbid", f"X{i}", "Y") for i in (1, 2, 3)} <= rules
    assert ("forbid", "X3", "Y") in rules
    check = check_knowledge(parse_text("X1 -> X2 -> Y; X3 -> X2"), bk)
    assert [str(c.rules[0]) for c in check.conflicts] == ["forbid X2 -> Y"]
    # causal-learn's own reading agrees on every pair
    g = parse_text("X1 -> X2 -> Y; X3 -> X2")
    for a, b in itertools.permutations(nodes, 2):
        broken = any(c.rules[0].a == a and c.rules[0].b == b for c in check.conflicts)
        assert broken == (g.edge(a, b) is not None and (a, b) in g.directed_pairs and bk.is_forbidden(nodes[a], nodes[b]))


def test_dag_violations_name_edge_and_rule():
    """On a DAG every broken rule is its own finding: the edge (or its absence) and the rule."""
    k = parse_knowledge("require a -> b\nforbid b -> c\nrequire c -- d\nforbid a -- c\ntier 1: c\ntier 2: d")
    check = check_knowledge(parse_text("b -> a; b -> c; d -> c; nodes: x"), k)
    assert [c.reason for c in check.conflicts] == [
        "the graph has 'b -> a'; require a -> b",
        "the graph has 'b -> c'; forbid b -> c",
        "the graph has 'd -> c'; tiers forbid d -> c (d in tier 2, c in tier 1)",
    ] and check.method == "graph"
    # require c -- d holds (d -> c is an edge); forbid a -- c holds (no edge)


def _satisfiable(graph_text: str, rules: list[Rule]) -> bool:
    return check_knowledge(parse_text(graph_text), Knowledge(tuple(rules))).ok


def test_cpdag_core_is_minimal():
    """Rules that are each possible on a CPDAG but not together form one core; any proper subset is satisfiable."""
    cpdag = "a -- b; b -- c; c -- d; a -- c; b -- d"
    rules = parse_knowledge("require a -> b\nrequire b -> c\nrequire c -> a\nforbid d -> c\nrequire b -> d").rules
    check = check_knowledge(parse_text(cpdag), Knowledge(rules))
    assert check.method == "z3" and len(check.conflicts) == 1
    core = list(check.conflicts[0].rules)
    assert {str(r) for r in core} == {"require a -> b", "require b -> c", "require c -> a"}
    assert not _satisfiable(cpdag, core)
    for drop in range(len(core)):
        assert _satisfiable(cpdag, core[:drop] + core[drop + 1 :])


def test_new_v_structure_and_contradictory_rules():
    """On a -- b -- c requiring a -> b and c -> b makes a new v-structure; require and forbid of one edge clash."""
    check = check_knowledge(parse_text("a -- b -- c"), parse_knowledge("require a -> b\nrequire c -> b"))
    assert len(check.conflicts) == 1 and len(check.conflicts[0].rules) == 2 and "v-structure" in check.conflicts[0].reason
    check = check_knowledge(parse_text("a -- b"), parse_knowledge("require a -> b\nforbid a -> b\nrequire b -> a"))
    cores = sorted(sorted(str(r) for r in c.rules) for c in check.conflicts)
    assert cores == [["forbid a -> b", "require a -> b"]] or cores == [["require a -> b", "require b -> a"]]
    assert check_knowledge(parse_text("a -- b"), parse_knowledge("require a -> b")).ok


def test_mag_rules_read_on_marks_and_unknown_nodes():
    """On a MAG: an arrowhead at a breaks 'require a -> b'; a circle allows either; unknown nodes are set aside."""
    k = parse_knowledge("require a -> b\nrequire c -> d\nforbid e -> f\nrequire q -> a")
    check = check_knowledge(parse_text("a <-> b; c o-> d; e -> f"), k)
    assert [str(c.rules[0]) for c in check.conflicts] == ["require a -> b", "forbid e -> f"]
    assert check.method == "marks" and [str(r) for r in check.unknown] == ["require q -> a"]
