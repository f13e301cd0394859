"""Minimal separators and Markov blankets, with the values networkx's, DAGitty's and pgmpy's own tests expect."""

from __future__ import annotations

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.separation import (
    find_minimal_separator,
    is_minimal_separator,
    markov_blanket,
)
from causalcheck.graphs.formats import parse_dagitty, parse_text

# --------------------------------------------------------------------------- networkx (algorithms/tests/test_d_separation.py)

LARGE_COLLIDER = parse_text("A -> B; C -> B; B -> D; D -> E; B -> F; G -> E")
CHAIN_AND_FORK = parse_text("A -> B; B -> C; B -> D; D -> C")
COLLIDER_TREK = parse_text("A -> B; C -> B; C -> D")


def test_minimal_separators_networkx() -> None:
    """test_is_minimal_d_separator, cases 1-4 and the included/restricted arguments."""
    assert find_minimal_separator(LARGE_COLLIDER, "B", "E").nodes == ("D",)
    assert is_minimal_separator(LARGE_COLLIDER, "B", "E", ["D"])
    assert is_minimal_separator(LARGE_COLLIDER, ["A", "B"], ["G", "E"], ["D"])
    assert find_minimal_separator(CHAIN_AND_FORK, "A", "C").nodes == ("B",)
    assert is_minimal_separator(CHAIN_AND_FORK, "A", "C", ["B"])
    assert not is_minimal_separator(CHAIN_AND_FORK, "A", "C", ["B", "D"])
    assert find_minimal_separator(parse_text("A -> B"), "A", "B").nodes is None
    assert not find_minimal_separator(parse_text("A -> B; C -> A; C -> B"), "A", "B").found
    assert find_minimal_separator(COLLIDER_TREK, "A", "D", included=["B"]).nodes == ("B", "C")
    assert find_minimal_separator(COLLIDER_TREK, "A", "D", included=["B"], restricted=["B"]).nodes is None


def test_is_minimal_checks_separation_networkx() -> None:
    """test_is_minimal_d_separator_checks_dsep: neither {D} nor {} separates C and F."""
    g = parse_text("A -> B; A -> E; B -> C; B -> D; D -> C; D -> F; E -> D; E -> F")
    assert not is_minimal_separator(g, "C", "F", ["D"])
    assert not is_minimal_separator(g, "C", "F", [])


def test_invalid_arguments_networkx() -> None:
    """test_invalid_d_separation_args: x = y, included in x or y, an unknown node raise (InputFormatError here)."""
    collider = parse_text("a -> c; b -> c")
    for call in (
        lambda: find_minimal_separator(collider, "a", "a"),
        lambda: find_minimal_separator(collider, "a", "b", included=["a"]),
        lambda: is_minimal_separator(collider, "b", "a", [], included=["a"]),
        lambda: find_minimal_separator(collider, "a", "d"),
        lambda: find_minimal_separator(collider, "a", "b", included=["c"], restricted=[]),
    ):
        with pytest.raises(InputFormatError):
            call()


# --------------------------------------------------------------------------- DAGitty (test/test/separators.js)

ADMG = parse_dagitty(
    "dag { D [outcome] E [exposure] v1 v2 v3 v4 v5 v6 v7 D <-> v5 E -> v1 E -> v6 v1 -> D v2 -> D v2 -> E "
    "v3 -> E v3 <-> v4 v4 -> v6 v5 -> v4 v6 -> v7 v7 -> D }"
)


def _without(*nodes: str) -> list[str]:
    return [n for n in ADMG.nodes if n not in nodes]


def test_separators_in_a_mixed_graph_dagitty() -> None:
    """separators.js: findMinimalSeparator on the mixed graph with D <-> v5, every I/R variant the JS test asks."""
    cases = [
        (("E", "D", (), None), "v1 v2 v3 v4 v6"),
        (("D", "E", (), None), "v1 v2 v5 v7"),
        (("E", "D", ("v7",), None), "v1 v2 v3 v4 v7"),
        (("E", "D", ("v5",), None), "v1 v2 v5 v6"),
        (("E", "D", ("v5", "v7"), None), "v1 v2 v5 v7"),
        (("E", "D", (), _without("v7")), "v1 v2 v3 v4 v6"),
        (("E", "D", (), _without("v6")), "v1 v2 v3 v4 v7"),
        (("E", "D", (), _without("v4")), "v1 v2 v5 v6"),
        (("E", "D", (), _without("v4", "v6")), "v1 v2 v5 v7"),
        (("v4", "v2", (), None), ""),
        (("v4", "v2", ("D",), None), "D E v3 v5 v6"),
        (("v4", "v2", ("D", "v7"), None), "D E v3 v5 v7"),
        (("v4", "v2", ("D",), _without("v6")), "D E v3 v5 v7"),
    ]
    for (x, y, inc, res), expected in cases:
        found = find_minimal_separator(ADMG, x, y, included=inc, restricted=res)
        assert found.nodes is not None and " ".join(sorted(found.nodes)) == expected, (x, y, inc, res)
        assert is_minimal_separator(ADMG, x, y, found.nodes, included=inc, restricted=res)
    assert find_minimal_separator(ADMG, "E", "D", restricted=_without("v2")).nodes is None


def test_extended_confounding_triangle_dagitty() -> None:
    """separators.js: in the back-door graph of the extended confounding triangle, {C, D}; with D barred, {C, E}."""
    backdoor = parse_text("C -> B; C -> A; D -> C; E -> C; D -> A; E -> B")  # A -> B removed
    assert find_minimal_separator(backdoor, "A", "B").nodes == ("C", "D")
    assert find_minimal_separator(backdoor, "A", "B", included=["D"]).nodes == ("C", "D")
    assert find_minimal_separator(backdoor, "A", "B", restricted=["C", "E"]).nodes == ("C", "E")


def test_separator_of_a_cpdag_is_that_of_its_class() -> None:
    """A CPDAG is answered on a member of its class; to_dict is JSON-ready."""
    found = find_minimal_separator(parse_text("a -- b -- c"), "a", "c")
    assert found.nodes == ("b",)
    assert found.to_dict() == {"x": ["a"], "y": ["c"], "included": [], "separator": ["b"]}


def test_directed_cycle_is_refused() -> None:
    """A directed cycle has no separation: an error naming the cycle."""
    with pytest.raises(InputFormatError, match="directed cycle"):
        find_minimal_separator(parse_text("a -> b -> c -> a; c -> d"), "a", "d")


# --------------------------------------------------------------------------- Markov blankets

FIG_2_9 = parse_text("W -> Y; X -> W; Z_1 -> X; Z_1 -> Z_3; Z_2 -> Y; Z_2 -> Z_3; Z_3 -> X; Z_3 -> Y")


def test_markov_blanket_dagitty_r() -> None:
    """r/tests/testthat/testMarkovBlanket.R: figure 2.9 of Pearl, Glymour & Jewell."""
    assert markov_blanket(FIG_2_9, []).nodes == ()
    assert sorted(markov_blanket(FIG_2_9, "Z_1").nodes) == ["X", "Z_2", "Z_3"]
    assert sorted(markov_blanket(FIG_2_9, "Y").nodes) == ["W", "Z_2", "Z_3"]
    assert sorted(markov_blanket(FIG_2_9, ["W", "Y"]).nodes) == ["X", "Z_2", "Z_3"]


def test_markov_blanket_pgmpy() -> None:
    """pgmpy tests/test_models/test_DiscreteBayesianNetwork.py test_markov_blanket and test_markov_blanket_G3."""
    g = parse_text("x -> y; z -> y; y -> w; y -> v; u -> w; s -> v; w -> t; w -> m; v -> n; v -> q")
    assert set(markov_blanket(g, "y").nodes) == {"s", "w", "x", "u", "z", "v"}
    g3 = parse_text(
        "Pop -> EC; Urb -> EC; GDP -> EC; EC -> FFEC; EC -> REC; EC -> EI; REC -> CO2; REC -> CH4; REC -> N2O; "
        "FFEC -> CO2; FFEC -> CH4; FFEC -> N2O"
    )
    assert set(markov_blanket(g3, "CH4").nodes) == {"FFEC", "REC"}


def test_markov_blanket_mixed_graph_pgmpy_admg() -> None:
    """pgmpy tests/test_base/test_ADMG.py test_get_markov_blanket: B's blanket holds A, C and E; with collider paths also D."""
    g = parse_text("A -> B; B -> C; D -> B; A <-> D; B <-> E")
    blanket = markov_blanket(g, "B")
    assert {"A", "C", "E"} <= set(blanket.nodes)
    assert blanket.nodes == ("A", "C", "D", "E")
    assert markov_blanket(g, "B", rule="directed").nodes == ("A", "C", "D")  # DAGitty's rule: no <-> edges
    assert markov_blanket(g, "C").nodes == ("B",)  # B -> C: B is no collider on a path from C
    assert markov_blanket(g, "E").nodes == ("A", "B", "D")  # E <-> B <- A: the district {B, E} and its parents
    assert markov_blanket(g, "E").to_dict() == {"of": ["E"], "blanket": ["A", "B", "D"], "rule": "collider"}


def test_markov_blanket_bad_input() -> None:
    """An unknown node names itself and a close name; an unknown rule is refused."""
    with pytest.raises(InputFormatError, match="did you mean 'Y'"):
        markov_blanket(FIG_2_9, "y")
    with pytest.raises(InputFormatError, match="rule"):
        markov_blanket(FIG_2_9, "Y", rule="district")  # type: ignore[arg-type]
