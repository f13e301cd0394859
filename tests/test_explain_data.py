"""Loading WhatIfBench files and answers; segmentation offsets; graph statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.explain.data import (
    BAND_KEYS,
    bucket_of,
    load_answer_sets,
    load_answers,
    load_benchmark,
)
from causalcheck.explain.explanation_graph import (
    ExplanationEdge,
    ExplanationGraph,
    ExplanationNode,
    graph_stats,
)
from causalcheck.explain.segment import RuleSegmenter, get_segmenter

#: Our hand-written items in the official benchmark layout (tests/fixtures/whatif_format).
OWN_BENCHMARK = Path(__file__).resolve().parent / "fixtures" / "whatif_format" / "benchmark.json"


def test_official_benchmark_layout_loads() -> None:
    """A file in the official benchmark layout loads: meta as written, the domains' buckets, five criteria
    with the five band keys."""
    raw = json.loads(OWN_BENCHMARK.read_text(encoding="utf-8"))
    bench = load_benchmark(OWN_BENCHMARK)
    assert len(bench.items) == 7 and bench.meta == raw["meta"]
    first = bench.items[0]
    assert first.key == "fixture_hass_0001" and first.bucket == "HSS"
    assert [it.bucket for it in bench.items[1:]] == ["STEM", "Hybrid", "HSS", "STEM", "HSS", "Hybrid"]
    assert first.rubric is not None and len(first.rubric.criteria) == 5
    crit = first.rubric.criteria[0]
    assert crit.to_json() == first.raw["rubrics"]["criteria"][0]
    assert crit.band("9-10") == first.raw["rubrics"]["criteria"][0]["9-10"]
    assert list(crit.to_json())[2:] == list(BAND_KEYS)


def test_official_result_file_loads_as_benchmark_and_answers(own_llm_result: Path) -> None:
    """A judged result file reads as a benchmark (its 6 judged items) and as runner-format answers keyed by canonical_id."""
    bench = load_benchmark(own_llm_result)
    answers = load_answers(own_llm_result)
    assert len(bench.items) == 6
    assert answers.model == "fixture-writer"
    assert all(answers.get(it) is not None and answers.get(it).text for it in bench.items)  # type: ignore[union-attr]


def test_plain_jsonl_answers_join_on_id_or_canonical_id(tmp_path: Path) -> None:
    """JSONL {id, answer} lines join by canonical_id or numeric id; null answers keep their error."""
    bench = load_benchmark("demo")
    path = tmp_path / "a.jsonl"
    path.write_text(
        json.dumps({"id": bench.items[0].canonical_id, "answer": "x"}) + "\n"
        + json.dumps({"id": 2, "answer": None, "error": "timeout"}) + "\n",
        encoding="utf-8",
    )
    answers = load_answers(path)
    assert answers.get(bench.items[0]).text == "x"  # type: ignore[union-attr]
    second = answers.get(bench.items[1])
    assert second is not None and second.text is None and second.error == "timeout"
    assert answers.model == "a"



@pytest.mark.parametrize(
    "lines,match",
    [
        (['{"id": 1, "answer": "A"}', '{"id": 1, "answer": "B"}'], r"answer #1 repeats id '1' of model 'a' \(answer #0\) with a different answer"),
        (['{"id": 1, "answer": "A"}'] * 1500, r"answer #1 repeats id '1' of model 'a' \(answer #0\) with the same answer"),
        (['{"id": 2, "answer": "A", "model": "m"}', '{"canonical_id": "2", "answer": "A", "model": "m"}'], r"answer #1 repeats id '2' of model 'm'"),
        (['{"id": "' + "q" * 5000 + '", "answer": "A"}'] * 2, r"repeats id 'q{80}'…\(5000 chars\)"),
    ],
    ids=["different", "1500-copies", "id-and-canonical-id", "long-id"],
)
def test_an_id_answered_twice_for_one_model_is_refused_naming_both(tmp_path: Path, lines: list[str], match: str) -> None:
    """Two answers for one id of one model (different, or 1 500 identical copies) used to pass with the last one winning."""
    path = tmp_path / "a.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputFormatError, match=match):
        load_answer_sets(path)
    assert [s.model for s in load_answer_sets(_two_models(tmp_path))] == ["m1", "m2"]  # one id in two models is fine


def _two_models(tmp_path: Path) -> Path:
    path = tmp_path / "two.jsonl"
    path.write_text('{"id": 1, "answer": "A", "model": "m1"}\n{"id": 1, "answer": "B", "model": "m2"}\n')
    return path


def test_multi_model_answers_need_a_choice() -> None:
    """The demo answers hold three models; load_answers without model= says which exist."""
    assert len(load_answer_sets("demo")) == 3
    with pytest.raises(InputFormatError, match="demo-strong"):
        load_answers("demo")
    assert load_answers("demo", "demo-weak").model == "demo-weak"


@pytest.mark.parametrize(
    ("content", "match"),
    [
        ("{not json", "not valid JSON"),
        ('{"items": [{"id": true, "question": "q"}]}', "id=True"),
        ('{"items": [{"id": 1}]}', "question=None"),
        ('{"items": [{"id": 1, "question": "q"}, {"id": 1, "question": "r"}]}', "more than once"),
        ('{"items": [{"id": 1, "question": "q", "rubrics": {"criteria": 3}}]}', "criteria=3"),
    ],
)
def test_bad_benchmark_files_name_the_offending_value(tmp_path: Path, content: str, match: str) -> None:
    """Malformed benchmark files raise InputFormatError that shows the bad value."""
    path = tmp_path / "b.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputFormatError, match=match):
        load_benchmark(path)


def test_incomplete_criteria_are_dropped_like_the_original(tmp_path: Path) -> None:
    """A criterion missing a band is dropped, the others kept."""
    good = {"name": "n", "criteria_description": "d", **{k: k for k in BAND_KEYS}}
    bad = {"name": "m", "criteria_description": "d", "1-2": "x"}
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"items": [{"id": 1, "question": "q", "rubrics": {"criteria": [good, bad]}}]}), encoding="utf-8")
    (item,) = load_benchmark(path).items
    assert item.rubric is not None and [c.name for c in item.rubric.criteria] == ["n"]


def test_buckets() -> None:
    """HASS/HSS map to HSS, the hybrid flag or a HYBRID domain wins, unknown domains have none."""
    assert bucket_of("HASS", False) == "HSS" and bucket_of("STEM", True) == "Hybrid"
    assert bucket_of("HYBRID", False) == "Hybrid" and bucket_of("law", False) is None


def test_segment_offsets_point_into_the_original_text() -> None:
    """Every EDU's text is exactly text[start:end], in order, without overlaps, across newlines and odd spacing."""
    text = "If ice sank,   lakes would freeze solid\nbecause no lid forms.  Fish would die, so rivers empty; birds leave.\n\n- bullet point here"
    edus = RuleSegmenter().segment(text)
    assert [e.text for e in edus][:3] == ["If ice sank,", "lakes would freeze solid", "because no lid forms."]
    last = 0
    for e in edus:
        assert e.start is not None and e.end is not None
        assert text[e.start : e.end] == e.text and e.start >= last
        last = e.end
    assert RuleSegmenter().segment(text) == edus
    assert RuleSegmenter().segment("   ") == []


def test_short_clauses_are_not_cut() -> None:
    """A cut that would leave fewer than three words on a side is not made."""
    assert len(RuleSegmenter().segment("Prices rise, so wages rise.")) == 1


def test_parser_segmenter_without_pipeline_says_how_to_install() -> None:
    """Selecting an English pipeline that is not installed raises InputFormatError with the install hint."""
    seg = get_segmenter("parser:en_core_web_sm")
    assert seg.name == "parser:en_core_web_sm"
    with pytest.raises(InputFormatError, match="spacy download en_core_web_sm"):
        seg.segment("Tides shrink because the Moon is gone.")
    with pytest.raises(InputFormatError, match="segmenter="):
        get_segmenter("parser:bad name!")


def _graph(pairs: list[tuple[str, str, str]], n: int) -> ExplanationGraph:
    nodes = tuple(ExplanationNode(f"EDU{i}", f"unit {i}") for i in range(1, n + 1))
    return ExplanationGraph(nodes, tuple(ExplanationEdge(a, b, t) for a, b, t in pairs))


def test_graph_stats_path_and_components() -> None:
    """Longest causal path counts edges; components count isolated EDUs; a cycle does not loop forever."""
    chain = _graph([("EDU1", "EDU2", "CAUSE"), ("EDU2", "EDU3", "RESULT"), ("EDU4", "EDU5", "CONTRAST")], 6)
    stats = graph_stats(chain)
    assert (stats.nodes, stats.edges, stats.causal_edges) == (6, 3, 2)
    assert stats.longest_path == 2 and stats.components == 3 and stats.largest_component == 3
    cyc = _graph([("EDU1", "EDU2", "CAUSE"), ("EDU2", "EDU1", "CAUSE"), ("EDU2", "EDU3", "RESULT")], 3)
    assert graph_stats(cyc).longest_path == 1


def test_parser_segmenter_cuts_at_parse_clauses() -> None:
    """With a (stand-in) dependency parser, a cut is added at the left edge of an adverbial clause."""
    import spacy
    from causalcheck.explain.segment import ParserSegmenter
    from spacy.language import Language

    @Language.component("cc_fake_parser")
    def fake_parser(doc):  # type: ignore[no-untyped-def]
        for tok in doc:
            tok.is_sent_start = tok.i == 0
        # "The harbour floods when storms arrive": 'arrive' heads an advcl starting at 'when'
        verb = next(t for t in doc if t.text == "floods")
        for tok in doc:
            if tok.i != verb.i:
                tok.head = verb
        arrive = next(t for t in doc if t.text == "arrive")
        arrive.dep_ = "advcl"
        for t in doc:
            if t.text in ("when", "storms"):
                t.head = arrive
        return doc

    nlp = spacy.blank("en")
    nlp.add_pipe("cc_fake_parser", name="parser")
    seg = ParserSegmenter("fake", nlp=nlp)
    text = "The old harbour floods quickly when winter storms arrive"
    assert [e.text for e in seg.segment(text)] == ["The old harbour floods quickly", "when winter storms arrive"]
    assert [e.text for e in RuleSegmenter().segment(text)] == [text]
    with pytest.raises(InputFormatError, match="no 'parser' pipe"):
        ParserSegmenter("x", nlp=spacy.blank("en"))


def test_package_exports_resolve_lazily() -> None:
    """Every name in causalcheck.explain.__all__ resolves, and the list is sorted."""
    import causalcheck.explain as explain

    assert explain.__all__ == sorted(explain.__all__)
    for name in explain.__all__:
        assert getattr(explain, name) is not None
    with pytest.raises(AttributeError):
        explain.no_such_name  # noqa: B018
