"""The PRISM parser text format, the official projection and the heuristic fallback.

Agreement with the original system's recorded parses is checked on the upstream result file
(``whatif_result``: skips without the anchors); everything else on our own parser outputs and
result files (tests/fixtures/whatif_format, ``own_llm_result``, ``own_result``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from causalcheck.base.errors import CausalCheckError, DSLSyntaxError
from causalcheck.explain.rst import (
    RSTRecord,
    heuristic_fallback,
    normalize_label,
    normalize_ref,
    parse_or_fallback,
    parse_rst_output,
    project_to_graph,
    render_rst,
)

TEXT = """EDUs:
EDU1: If the Moon vanished,
EDU2: tides would shrink.
EDU3: Coasts would change
EDU4: and fisheries would suffer.

RST ANALYSIS:
CONDITION(EDU1, EDU2): CONDITION [SN]
RESULT(EDU2, EDU3-4): RESULT
ELABORATION(EDU3, EDU4): ELABORATION [NN]

TREE STRUCTURE:
ROOT
  NUCLEUS: EDU2
"""


#: Our scripted parser's output for the axis-tilt answer (tests/fixtures/whatif_format): 14 relations,
#: three of them on wide spans (``EDU1-EDU3``, ``EDU11+12``, ``EDU15-EDU16``) that the original's parser drops.
WIDE = Path(__file__).resolve().parent / "fixtures" / "whatif_format" / "parser" / "fixture_stem_0002.txt"


def _result(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(("result", "n_parser"), [("own_llm_result", 4), ("whatif_result", 1)])
def test_anchor_parser_items_reproduce_recorded_rst_and_dag(result: str, n_parser: int, request: pytest.FixtureRequest) -> None:
    """parse_rst_output(compat='anchor') + project_to_graph reproduce parsed_rst and parsed_dag of every parser
    item: of the original system's file (its parser items: id 6) and of our LLM pipeline's."""
    items = [it for it in _result(request.getfixturevalue(result))["items"] if it["parsed_rst_source"] == "parser"]
    assert len(items) == n_parser
    for it in items:
        rec = parse_rst_output(it["parsed_rst_raw"], compat="anchor")
        assert rec.to_json() == it["parsed_rst"]
        assert project_to_graph(rec).to_json() == it["parsed_dag"]
        assert it["metrics"]["pm"]["graph"] == it["parsed_dag"]


def test_anchor_mode_drops_wide_span_lines_as_the_original() -> None:
    """Our 14-line analysis: the anchor keeps 11 and reports the 3 wide-span lines as dropped."""
    rec = parse_rst_output(WIDE.read_text(encoding="utf-8"), compat="anchor")
    assert len(rec.relations) == 11
    assert len(rec.dropped) == 3
    assert all(("EDU" in line and "-EDU" in line) or "+" in line for line in rec.dropped)


def test_full_mode_reads_wide_spans() -> None:
    """Full mode keeps all 14 relations, EDU1-EDU3 becoming the span EDU1-3."""
    rec = parse_rst_output(WIDE.read_text(encoding="utf-8"))
    assert len(rec.relations) == 14 and not rec.dropped
    assert rec.relations[3].source == "EDU1-3" and rec.relations[3].target == "EDU4-7"


@pytest.mark.parametrize(("result", "n_heuristic"), [("own_llm_result", 2), ("whatif_result", 8)])
def test_heuristic_items_reproduce_recorded_fallback(result: str, n_heuristic: int, request: pytest.FixtureRequest) -> None:
    """heuristic_fallback(answer, error) equals every recorded heuristic parsed_rst and parsed_dag: the original
    system's and our LLM pipeline's (a parser call that failed)."""
    items = [it for it in _result(request.getfixturevalue(result))["items"] if it["parsed_rst_source"] == "heuristic"]
    assert len(items) == n_heuristic
    for it in items:
        rec = heuristic_fallback(it["model_answer"], it["parsed_rst_error"], raw_output=it["parsed_rst_raw"])
        assert rec.to_json() == it["parsed_rst"]
        assert project_to_graph(rec).to_json() == it["parsed_dag"]


def test_recorded_rst_json_round_trips(own_llm_result: Path, own_result: Path) -> None:
    """RSTRecord.from_json(...).to_json() is the identity on recorded records (parser, heuristic and offline-parser items)."""
    items = [*_result(own_llm_result)["items"], *_result(own_result)["items"]]
    assert {it["parsed_rst_source"] for it in items} == {"parser", "heuristic", "offline"}
    for it in items:
        assert RSTRecord.from_json(it["parsed_rst"]).to_json() == it["parsed_rst"]


def test_missing_nuclearity_defaults_to_sn_and_span_expands_to_product() -> None:
    """A relation without a tag is SN; an unmatched span target expands to all its EDUs."""
    rec = parse_rst_output(TEXT)
    assert rec.relations[1].nuclearity == "SN"
    edges = [(e.source, e.target, e.relation_type) for e in project_to_graph(rec).edges]
    assert ("EDU2", "EDU3", "RESULT") in edges and ("EDU2", "EDU4", "RESULT") in edges
    assert edges[0] == ("EDU1", "EDU2", "CONDITION")


def test_nn_edge_runs_in_text_order_with_multinuclear_reason() -> None:
    """CONTRAST(EDU2, EDU1) [NN] projects EDU1 -> EDU2 with the multinuclear reason."""
    rec = parse_rst_output("EDUs:\nEDU1: a b c\nEDU2: d e f\nRST ANALYSIS:\nCONTRAST(EDU2, EDU1): CONTRAST [NN]\n")
    (edge,) = project_to_graph(rec).edges
    assert (edge.source, edge.target) == ("EDU1", "EDU2")
    assert edge.reason == "RST projection: multinuclear relation via CONTRAST"


def test_ns_is_honoured_only_in_full_mode() -> None:
    """With NS the second reference is the satellite in full mode; anchor mode keeps source -> target."""
    text = "EDUs:\nEDU1: a b c\nEDU2: d e f\nRST ANALYSIS:\nCAUSE(EDU1, EDU2): CAUSE [NS]\n"
    full = project_to_graph(parse_rst_output(text)).edges[0]
    anchor = project_to_graph(parse_rst_output(text, compat="anchor")).edges[0]
    assert (full.source, full.target) == ("EDU2", "EDU1")
    assert (anchor.source, anchor.target) == ("EDU1", "EDU2")


def test_promotion_through_node_span_and_self_loops_skipped() -> None:
    """A reference equal to a node's span resolves to its nucleus; self-loops and duplicate triples are skipped."""
    text = (
        "EDUs:\nEDU1: one two three\nEDU2: four five six\nEDU3: seven eight nine\n"
        "RST ANALYSIS:\nELABORATION(EDU2, EDU1): ELABORATION [SN]\n"
        "RESULT(EDU1-2, EDU3): RESULT [SN]\nRESULT(EDU1-2, EDU3): RESULT [SN]\n"
        "ELABORATION(EDU1, EDU1): ELABORATION\n"
    )
    edges = [(e.source, e.target, e.relation_type) for e in project_to_graph(parse_rst_output(text)).edges]
    assert edges == [("EDU2", "EDU1", "ELABORATION"), ("EDU1", "EDU3", "RESULT")]


def test_self_promoting_reference_does_not_recurse_forever() -> None:
    """A node whose child is its own span resolves to nothing instead of recursing."""
    text = "EDUs:\nEDU1: a b c\nEDU2: d e f\nEDU3: g h i\nRST ANALYSIS:\nRESULT(EDU1-3, EDU2): RESULT [SN]\nCAUSE(EDU3, EDU1-3): CAUSE [SN]\n"
    graph = project_to_graph(parse_rst_output(text))
    assert all(e.source != e.target for e in graph.edges)


def test_partial_records_for_edus_without_relations() -> None:
    """EDUs without relations give a flat SEQUENCE chain (partial); one EDU gives no nodes."""
    two = parse_rst_output("EDUs:\nEDU1: a\nEDU2: b\n")
    assert two.source == "partial" and two.error == "Recovered flat tree from EDUs without explicit relations"
    assert [(e.source, e.target, e.relation_type) for e in project_to_graph(two).edges] == [("EDU1", "EDU2", "SEQUENCE")]
    one = parse_rst_output("EDUs:\nEDU1: a\n")
    assert one.error == "RST output contained a single EDU and no explicit relations" and not one.tree_nodes


@pytest.mark.parametrize(("text", "message"), [("", "Empty parser output"), ("no units here\nat all", "Could not extract EDUs from parser output")])
def test_unparseable_output_raises_dsl_error_and_falls_back(text: str, message: str) -> None:
    """Empty text and text without EDUs raise DSLSyntaxError; parse_or_fallback records the message."""
    with pytest.raises(DSLSyntaxError) as info:
        parse_rst_output(text)
    assert info.value.message == message and info.value.line == 1
    rec = parse_or_fallback(text, "First. Second! Third?")
    assert rec.source == "heuristic" and rec.error == message and len(rec.edus) == 3


def test_heuristic_fallback_keeps_first_eight_pieces_and_quirks() -> None:
    """Split needs whitespace after . ! ?; at most 8 EDUs; 'W. Bush' splits after 'W.'."""
    answer = " ".join(f"Sentence {i}." for i in range(12)) + ' He said “x.” Then George W. Bush'
    rec = heuristic_fallback(answer)
    assert len(rec.edus) == 8 and rec.edus[0].text == "Sentence 0."
    quirk = heuristic_fallback("a “conquest.”Medieval b. George W. Bush won")
    assert [e.text for e in quirk.edus] == ["a “conquest.”Medieval b.", "George W.", "Bush won"]


def test_label_and_ref_normalisation() -> None:
    """Labels become UPPER_SNAKE; refs lose inner spaces."""
    assert normalize_label("cause/effect") == "CAUSE_EFFECT"
    assert normalize_ref("edu 4 - 7") == "EDU4-7"


def test_render_then_parse_round_trips_relations() -> None:
    """render_rst writes text that parse_rst_output reads back to the same EDUs and relations."""
    rec = parse_rst_output(TEXT)
    again = parse_rst_output(render_rst(rec))
    assert again.edus == rec.edus and again.relations == rec.relations


def test_bad_compat_is_rejected() -> None:
    """compat must be 'full' or 'anchor'."""
    with pytest.raises(CausalCheckError, match="compat='loose'"):
        parse_rst_output(TEXT, compat="loose")  # type: ignore[arg-type]
