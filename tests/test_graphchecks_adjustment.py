"""Adjustment sets: validity, minimal, canonical and optimal sets, with the values DAGitty's and pgmpy's own tests expect."""

from __future__ import annotations

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.adjustment import adjustment_sets, is_adjustment_set
from causalcheck.graphs import Graph
from causalcheck.graphs.formats import parse_dagitty, parse_text


def _sets(result: object) -> list[str]:
    """The minimal sets as DAGitty's tests print them: each sorted and comma-joined, the list sorted."""
    return sorted(",".join(sorted(s)) for s in result.minimal)  # type: ignore[attr-defined]


M_BIAS = "dag { X [exposure] Y [outcome] A -> Z  B -> Z  A -> X  B -> Y }"

# --------------------------------------------------------------------------- DAGitty (jtextor/dagitty)


def test_m_bias_with_adjusted_nodes_dagitty_r() -> None:
    """r/tests/testthat/testAdjustments.R "M bias graph": [adjusted] A gives {A}; [adjusted] Z gives {A,Z}, {B,Z}."""
    assert _sets(adjustment_sets(parse_dagitty(M_BIAS))) == [""]
    assert _sets(adjustment_sets(parse_dagitty(M_BIAS.replace("A -> Z", "A [adjusted] A -> Z")))) == ["A"]
    assert _sets(adjustment_sets(parse_dagitty(M_BIAS.replace("A -> Z", "Z [adjusted] A -> Z")))) == ["A,Z", "B,Z"]


def test_m_bias_graph_of_the_js_tests() -> None:
    """test/test/adjustment-dags.js: TestGraphs.m_bias_graph with M adjusted gives {M, U1} and {M, U2}."""
    g = parse_text("U1 -> A; U1 -> M; U2 -> M; U2 -> B; A -> B")
    assert _sets(adjustment_sets(g, "A", "B", included=["M"])) == ["M,U1", "M,U2"]
    assert _sets(adjustment_sets(g, "A", "B", included=["A" if False else "U1"])) == ["U1"]


def test_collider_between_confounders_dagitty_js() -> None:
    """adjustment-dags.js: x <- a -> m <- b -> y gives {} alone and {a, m}, {b, m} when m must be in."""
    g = parse_dagitty("dag { x [exposure] y [outcome] x <- a -> m <- b -> y }")
    assert _sets(adjustment_sets(g)) == [""]
    assert _sets(adjustment_sets(g, included=["m"])) == ["a,m", "b,m"]


def test_mediation_dagitty_r() -> None:
    """testAdjustments.R "mediation": {} is valid, {m} is not."""
    g = parse_dagitty("dag { x [exposure] y [outcome] x -> m -> y -> S }")
    assert is_adjustment_set(g, []).valid
    check = is_adjustment_set(g, ["m"])
    assert not check.valid and "m lies on a causal path" in check.reason


def test_several_exposures_dagitty_r() -> None:
    """testAdjustments.R "pags": X1, X2, X3 on Y has two valid sets in all ({} and {V1}); {} is the minimal one."""
    g = parse_text("X1 -> V1 -> X2 -> Y; V1 -> X3")
    result = adjustment_sets(g, ["X1", "X2", "X3"], "Y")
    assert _sets(result) == [""]
    assert is_adjustment_set(g, ["V1"], ["X1", "X2", "X3"], "Y").valid


def test_two_exposures_two_outcomes_dagitty_js() -> None:
    """adjustment-dags.js: X1, X2 on Y1, Y2 gives {C} and {m, m2}."""
    g = parse_dagitty(
        "dag { X1 [exposure] X2 [exposure] Y1 [outcome] Y2 [outcome] C -> Y1 C -> m X1 -> X2 "
        "X1 -> Y2 -> Y1 X2 -> Y1 X1 -> m2 -> m -> X2 }"
    )
    assert _sets(adjustment_sets(g)) == ["C", "m,m2"]


def test_is_adjustment_set_dagitty_js() -> None:
    """adjustment-dags.js: z is valid in x <- z -> y; m is not in x <-> m <-> y, x -> y; Z is valid in Z -> a -> b -> c."""
    assert is_adjustment_set(parse_dagitty("dag { x [exposure] y [outcome] x <- z -> y }"), ["z"]).valid
    assert not is_adjustment_set(parse_dagitty("dag { x [exposure] y [outcome] x <-> m <-> y x -> y }"), ["m"]).valid
    assert is_adjustment_set(parse_text("Z -> a -> b -> c; Z -> a"), ["Z"], "a", "c").valid


def test_thoemmes_dagitty_js() -> None:
    """adjustment-dags.js "Thoemmes": no set with s2 adjusted; {} without (latent e0, e1, e3, e4)."""
    g = parse_dagitty(
        "dag { e0 [latent] e1 [latent] e3 [latent] e4 [latent] s2 [adjusted] x [exposure] y [outcome] "
        "e0 -> x e1 -> s1 e2 -> s2 e2 -> y e3 -> s3 e4 -> y s1 -> s2 s1 -> z s2 -> s3 s2 -> z2 s3 -> y "
        "x -> y x -> s1 y -> z3 }"
    )
    result = adjustment_sets(g)
    assert _sets(result) == [] and not result.identifiable
    assert result.given is not None and not result.given.valid
    assert _sets(adjustment_sets(g, included=[])) == [""]


POLZER_NODES = ["ToothLoss", "Mortality", "Periodontitis", "Caries", "Diabetes", "Obesity", "Hypertension", "Psychosocial", "Age", "Sex", "Alcohol", "Smoking", "Sport", "Lipids"]  # fmt: skip
POLZER_MATRIX = """\
0 1 0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0 0 0
1 0 0 0 0 0 0 0 0 0 0 0 0 0
1 0 0 0 0 0 0 0 0 0 0 0 0 0
0 1 1 0 0 0 1 0 0 0 0 0 0 1
0 1 1 0 1 0 1 0 0 0 0 0 0 1
0 1 0 0 0 0 0 0 0 0 0 0 0 0
1 1 1 1 1 1 1 0 0 0 1 1 1 1
1 1 1 1 1 1 1 1 0 0 1 1 1 1
1 1 1 1 1 1 1 1 0 0 1 1 1 1
1 1 0 0 1 1 1 0 0 0 0 1 0 1
1 1 1 0 1 1 1 0 0 0 0 0 1 0
0 1 1 0 1 1 1 0 0 0 0 0 0 1
0 1 0 0 0 0 0 0 0 0 0 0 0 0"""


def test_polzer_dagitty_js() -> None:
    """adjustment-dags.js "Polzer et al., 2012" (gui/js/example-dags.js): the two minimal sets for ToothLoss -> Mortality."""
    rows = [line.split() for line in POLZER_MATRIX.splitlines()]
    pairs = [(POLZER_NODES[i], POLZER_NODES[j]) for i, row in enumerate(rows) for j, v in enumerate(row) if v == "1"]
    g = Graph.from_directed(pairs, POLZER_NODES)
    assert _sets(adjustment_sets(g, "ToothLoss", "Mortality")) == [
        "Age,Alcohol,Diabetes,Obesity,Psychosocial,Sex,Smoking,Sport",
        "Age,Alcohol,Periodontitis,Psychosocial,Sex,Smoking",
    ]


def test_pdag_mag_pag_dagitty_js() -> None:
    """test/test/adjustment-other.js: a PDAG gives {F}; mag X -> Y none, I -> X -> Y {}; pag i <-o x -> y none."""
    pdag = parse_dagitty("pdag { X [exposure] Y [outcome] X -> W -> Y ; F -> W -- Z ; X <- F -> Z }")
    assert _sets(adjustment_sets(pdag)) == ["F"]
    invisible = adjustment_sets(parse_dagitty("mag { X [exposure] Y [outcome] X -> Y }"))
    assert not invisible.identifiable and "not visible" in invisible.reason
    assert _sets(adjustment_sets(parse_dagitty("mag { X [exposure] Y [outcome] I -> X -> Y }"))) == [""]
    assert not adjustment_sets(parse_dagitty("pag { i <-@ x -> y x [exposure] y [outcome] }")).identifiable


def test_pags_not_amenable_dagitty_r() -> None:
    """testAdjustments.R "pags": o-o paths out of the exposure make isAdjustmentSet false."""
    for text in ("pag { 1 @-@ 2 @-@ 3 @-@ 4 2 @-@ 4 2 [exposure] 4 [outcome] }", "pag { u @-@ x @-@ y x [exposure] y [outcome] }"):
        check = is_adjustment_set(parse_dagitty(text), [])
        assert not check.valid and "not identifiable" in check.reason


# --------------------------------------------------------------------------- pgmpy (pgmpy/tests)

GAME5 = [("A", "X"), ("A", "B"), ("C", "B"), ("C", "Y"), ("X", "Y"), ("B", "X")]


def test_book_of_why_games_pgmpy() -> None:
    """pgmpy/tests/test_identification/test_adjustment.py TestBackdoorPaths: games 1-6 of The Book of Why."""
    games = {
        1: ([("X", "A"), ("A", "Y"), ("A", "B")], [""]),
        2: ([("X", "E"), ("E", "Y"), ("A", "B"), ("A", "X"), ("B", "C"), ("D", "B"), ("D", "E")], [""]),
        3: ([("X", "Y"), ("X", "A"), ("B", "A"), ("B", "Y"), ("B", "X")], ["B"]),
        4: ([("A", "X"), ("A", "B"), ("C", "B"), ("C", "Y"), ("X", "Y")], [""]),
        5: (GAME5, ["A,B", "C"]),
    }
    for number, (pairs, expected) in games.items():
        assert _sets(adjustment_sets(Graph.from_directed(pairs), "X", "Y")) == expected, number
    game6 = [("X", "F"), ("C", "X"), ("A", "C"), ("A", "D"), ("B", "D"), ("B", "E"), ("D", "X"), ("D", "Y"), ("E", "Y"), ("F", "Y")]
    sets = adjustment_sets(Graph.from_directed(game6), "X", "Y").minimal
    assert sets and all("D" in s and set(s) & {"A", "B", "C", "E"} for s in sets)


def test_game5_all_valid_sets_pgmpy() -> None:
    """test_adjustment.py test_game5_bn: exactly five valid sets, {C}, {A,B}, {A,C}, {B,C}, {A,B,C}."""
    g = Graph.from_directed(GAME5)
    subsets = [(), ("A",), ("B",), ("C",), ("A", "B"), ("A", "C"), ("B", "C"), ("A", "B", "C")]
    valid = {",".join(z) for z in subsets if is_adjustment_set(g, z, "X", "Y").valid}
    assert valid == {"C", "A,B", "A,C", "B,C", "A,B,C"}


def test_backdoor_validation_pgmpy() -> None:
    """pgmpy/tests/test_inference/test_CausalInference.py test_backdoor_validation."""
    assert is_adjustment_set(Graph.from_directed(GAME5), ["C"], "X", "Y", criterion="backdoor").valid
    assert is_adjustment_set(parse_text("X -> Y; Z1 -> X; Z1 -> Y"), ["Z1"], "X", "Y", criterion="backdoor").valid
    assert is_adjustment_set(parse_text("X -> Y; Z1 -> X; Z1 -> Z2 -> Y"), ["Z1", "Z2"], "X", "Y", criterion="backdoor").valid


def test_uai_2014_example_pgmpy() -> None:
    """test_adjustment.py test_is_valid_adjustment_set (van der Zander et al., UAI 2014): {z1, z2} valid, {z1} not.

    pgmpy also calls {z2} valid: its check pairs exposures and outcomes in order (``zip(X, Y)``:
    x1 with y1, x2 with y2) instead of testing every pair, and misses the open path
    x1 -> z1 -> z2 <- y2 that conditioning on the collider z2 opens.  The criterion refuses it.
    """
    g = parse_text("x1 -> y1; x1 -> z1 -> z2 -> x2; y2 -> z2")
    both = (["x1", "x2"], ["y1", "y2"])
    assert is_adjustment_set(g, ["z1", "z2"], *both).valid
    assert is_adjustment_set(g, ["z1", "z2"], "x1", "y1").valid
    assert not is_adjustment_set(g, ["z1"], *both).valid
    check = is_adjustment_set(g, ["z2"], *both)
    assert not check.valid and "from x1 to y2" in check.reason


def test_minimal_sets_with_latents_pgmpy() -> None:
    """test_adjustment.py test_get_minimal_adjustment_set: {Z}; M graph {}; latent Z none; Simpson machine {Z1} or {Z3}."""
    assert _sets(adjustment_sets(parse_text("X -> Y; Z -> X; Z -> Y"), "X", "Y")) == ["Z"]
    assert _sets(adjustment_sets(parse_text("X -> Y; Z1 -> X; Z1 -> Z3; Z2 -> Z3; Z2 -> Y"), "X", "Y")) == [""]
    hidden = parse_dagitty("dag { Z [latent] X -> Y Z -> X Z -> Y }")
    result = adjustment_sets(hidden, "X", "Y")
    assert not result.identifiable and result.minimal == () and result.canonical is None
    simpson = parse_dagitty("dag { U [latent] X -> Y Z1 -> U U -> X Z1 -> Z3 Z3 -> Y U -> Z2 Z3 -> Z2 }")
    assert _sets(adjustment_sets(simpson, "X", "Y")) == ["Z1", "Z3"]
    assert not is_adjustment_set(simpson, ["U"], "X", "Y").valid


# --------------------------------------------------------------------------- our own conventions


def test_backdoor_differs_from_adjustment_on_a_descendant_off_the_causal_path() -> None:
    """X -> W with W no ancestor of Y: {W, Z} is an adjustment set but not a back-door set (W descends from X)."""
    g = parse_text("Z -> X -> Y; Z -> Y; X -> W")
    assert is_adjustment_set(g, ["W", "Z"], "X", "Y").valid
    check = is_adjustment_set(g, ["W", "Z"], "X", "Y", criterion="backdoor")
    assert not check.valid and "descendant of the exposure" in check.reason


def test_optimal_set_is_the_parents_of_the_causal_nodes() -> None:
    """Henckel et al.: O = Pa(cn) \\ Forb; a precision variable of Y is in it, an instrument is not."""
    g = parse_text("I -> X -> M -> Y; C -> X; C -> Y; P -> Y")
    result = adjustment_sets(g, "X", "Y")
    assert result.optimal == ("C", "P")
    assert result.minimal == (("C",),)
    assert result.canonical == ("I", "C", "P")


def test_optimal_set_undefined_where_y_does_not_descend_from_x() -> None:
    """With no causal path the O-set is undefined (the reason says so); the minimal sets are still listed."""
    result = adjustment_sets(parse_text("a -> x; a -> y"), "x", "y")
    assert result.optimal is None and "descendant" in result.optimal_reason
    assert result.minimal == (("a",),)


def test_cpdag_not_amenable_is_a_typed_result() -> None:
    """x -- y in a CPDAG: not identifiable, said in the result (no exception), naming the edge."""
    result = adjustment_sets(parse_text("x -- y"), "x", "y")
    assert not result.identifiable and "'x -- y'" in result.reason
    assert result.to_dict()["identifiable"] is False


def test_defaults_from_attributes_and_to_dict() -> None:
    """Exposure, outcome and included nodes come from the graph's attributes; to_dict is JSON-ready."""
    g = parse_dagitty("dag { x [exposure] y [outcome] z [adjusted] z -> x -> y z -> y }")
    result = adjustment_sets(g)
    assert result.given is not None and result.given.valid
    assert result.to_dict()["minimal"] == [["z"]] and result.to_dict()["given"]["valid"] is True  # type: ignore[index]


def test_bad_input_names_the_value() -> None:
    """Unknown nodes, missing exposure, overlapping sides and back-door on a non-DAG raise InputFormatError."""
    g = parse_text("x -> y; z -> x")
    with pytest.raises(InputFormatError, match=r"'Z' is not in the graph \(did you mean 'z'\?\)"):
        adjustment_sets(g, "x", "Z")
    with pytest.raises(InputFormatError, match="no exposure"):
        adjustment_sets(g)
    with pytest.raises(InputFormatError, match="disjoint"):
        adjustment_sets(g, "x", "x")
    with pytest.raises(InputFormatError, match="needs a DAG"):
        adjustment_sets(parse_text("x -- y"), "x", "y", criterion="backdoor")
    with pytest.raises(InputFormatError, match="criterion"):
        adjustment_sets(g, "x", "y", criterion="frontdoor")  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="selection"):
        adjustment_sets(parse_text("x -> y; y <-> w; w -- v"), "x", "y")


def test_limit_truncates_the_list() -> None:
    """limit caps the minimal sets listed and says so."""
    g = Graph.from_directed(GAME5)
    full = adjustment_sets(g, "X", "Y")
    cut = adjustment_sets(g, "X", "Y", limit=1)
    assert len(full.minimal) > 1 and len(cut.minimal) == 1 and cut.truncated and not full.truncated


def test_pag_with_a_visible_edge_is_identifiable() -> None:
    """A PAG: x -> y is visible through w o-> x (w not adjacent to y); the possible confounder z must be adjusted for."""
    result = adjustment_sets(parse_text("z o-> x; w o-> x; x -> y; z o-> y"), "x", "y")
    assert result.identifiable and result.minimal == (("z",),) and result.optimal is None and "PAG" in result.optimal_reason
    invisible = adjustment_sets(parse_text("z o-> x; x -> y; z o-> y"), "x", "y")
    assert not invisible.identifiable and "not visible" in invisible.reason
