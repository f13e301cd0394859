"""The suite API of causalcheck.testing: parsers, round trips, messages, options and profiles."""

from __future__ import annotations

import json
from typing import Any

import pytest
from causalcheck import strategies as cs
from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.graphs.formats import FORMATS, format_text, parse_text
from causalcheck.metrics import edge_prf
from causalcheck.parsing import format_hypothesis, parse_hypothesis, parse_record
from causalcheck.testing import (
    PROFILES,
    PropertyFailure,
    check_edge_parser,
    check_graph_metric,
    check_parser_total,
    check_round_trip,
    settings_for,
)
from hypothesis import strategies as st


def test_a_parser_raising_another_exception_is_reported_with_its_input() -> None:
    """check_parser_total names the input and the exception type when a parser raises something undocumented."""
    def fragile(text: str) -> object:
        if "{" in text:
            return json.loads(text)  # json.JSONDecodeError is not a CausalCheckError
        raise InputFormatError(f"text={text!r} has no object")

    with pytest.raises(PropertyFailure) as info:
        check_parser_total(fragile, st.text(alphabet="{}a", max_size=5))
    msg = str(info.value)
    assert info.value.property == "total" and "input:    '{'" in msg and "JSONDecodeError" in msg
    assert "expected: a result or CausalCheckError" in msg


def test_an_error_without_a_message_fails_the_totality_check() -> None:
    """Raising the documented error with an empty message is not enough."""
    def mute(text: str) -> None:
        raise CausalCheckError("")

    with pytest.raises(PropertyFailure, match="empty message"):
        check_parser_total(mute, st.just("x"))


def test_the_record_parser_is_total_on_drifted_and_arbitrary_text() -> None:
    """parse_record raises nothing but CausalCheckError on drifted records and noise."""
    report = check_parser_total(parse_record, st.one_of(cs.step_records(drift=True).map(lambda r: r.text[: len(r.text) // 2]), st.text(max_size=60)))
    assert report.properties == ("total",)


def test_round_trips_of_causalcheck_formats_pass() -> None:
    """The text graph format and the hypothesis text format round-trip their values."""
    check_round_trip(parse_text, format_text, cs.any_graphs())
    check_round_trip(parse_hypothesis, format_hypothesis, cs.hypotheses(), equal=lambda a, b: a.graph == b.graph and a.coefficients == b.coefficients)


def test_a_lossy_printer_fails_the_round_trip_with_the_text() -> None:
    """A printer that drops undirected edges is caught: the value, the text and the parsed value are shown."""
    def lossy(g: object) -> str:
        return format_text(g.with_edges(e for e in g.edges if not e.is_undirected))  # type: ignore[attr-defined]

    with pytest.raises(PropertyFailure) as info:
        check_round_trip(parse_text, lossy, cs.pdags())
    msg = str(info.value)
    assert info.value.property == "round-trip" and "text:" in msg and "parsed:" in msg and "--" in msg


def test_every_graph_format_round_trips_its_graph_texts() -> None:
    """For each format, read(text) == graph and the reprinted text is the same (graph_texts as the strategy)."""
    for name, (parse, show) in FORMATS.items():
        if name in ("dot", "gml"):
            continue  # pydot / networkx parse slowly; properties/test_graphs_properties.py covers them
        check_round_trip(parse, show, cs.graph_texts(name).map(lambda t: t.graph), max_examples=20)


def test_skip_and_the_example_budget_are_honoured() -> None:
    """skip= leaves properties out; max_examples overrides the profile; an unknown property name is refused."""
    r = check_graph_metric(lambda t, e: edge_prf(e, t, names="exact"), "similarity", skip=["names", "renaming"], max_examples=5)
    assert "names" not in r.properties and "renaming" not in r.properties and r.max_examples == 5
    with pytest.raises(ValueError, match="skip=\\['nope'\\]"):
        check_graph_metric(lambda t, e: 0, skip=["nope"])


def test_one_options_value_checks_what_the_keywords_check() -> None:
    """check_graph_metric(options=GraphMetricOptions(...)) runs the suite the keywords run, fails the same way, and refuses both at once."""
    import dataclasses

    from causalcheck.testing import GraphMetricOptions

    opts = GraphMetricOptions(names="causalab", reference="edge-f1", skip=("renaming",), max_examples=5)
    good = lambda t, e: edge_prf(e, t)  # noqa: E731
    with_options = check_graph_metric(good, "similarity", options=opts)
    with_keywords = check_graph_metric(good, "similarity", names="causalab", reference="edge-f1", skip=("renaming",), max_examples=5)
    assert with_options.properties == with_keywords.properties and with_options.max_examples == 5
    messages = []
    for run in (lambda f: check_graph_metric(f, "distance", options=dataclasses.replace(opts, reference="shd", skip=())),
                lambda f: check_graph_metric(f, "distance", names="causalab", reference="shd", max_examples=5)):
        with pytest.raises(PropertyFailure) as info:
            run(lambda t, e: 2 * len(set(t) ^ set(e)))
        messages.append(str(info.value))
    assert messages[0] == messages[1]
    with pytest.raises(InputFormatError, match="either as options= or as keywords"):
        check_graph_metric(good, "similarity", options=opts, symmetric=False)


def test_the_keywords_are_the_options_fields_with_their_defaults() -> None:
    """check_graph_metric's keywords are GraphMetricOptions' fields — same names, order and defaults — each documented
    on the options value; an unknown keyword and a bad setting are refused by name before anything runs."""
    import dataclasses
    import inspect

    from causalcheck.testing import GraphMetricOptions

    fields = [(f.name, f.default) for f in dataclasses.fields(GraphMetricOptions)]
    params = list(inspect.signature(check_graph_metric).parameters.values())
    assert [p.name for p in params[:3]] == ["fn", "kind", "options"]
    assert [(p.name, p.default) for p in params[3:]] == fields and len(fields) == 22
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[2:])
    doc = inspect.getdoc(GraphMetricOptions) or ""
    assert [name for name, _ in fields if f"\n    {name}: " not in doc] == []  # each field under Attributes:
    with pytest.raises(InputFormatError, match=r"reversal_costs= is no setting.*'reversal_cost'"):
        check_graph_metric(lambda t, e: 0, "distance", reversal_costs=2)
    with pytest.raises(InputFormatError, match=r"graphs='dags' must be one of \['dag', 'pdag', 'cpdag', 'pag'\]"):
        check_graph_metric(lambda t, e: 0, "distance", graphs="dags")
    with pytest.raises(InputFormatError, match="include='self-loops' must be a sequence"):
        GraphMetricOptions(include="self-loops")


def test_bad_suite_arguments_are_refused_with_the_value() -> None:
    """kind, reference, scope and a missing target under exact names are checked before running."""
    with pytest.raises(ValueError, match="kind='size'"):
        check_graph_metric(lambda t, e: 0, "size")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="reference='shd2'"):
        check_graph_metric(lambda t, e: 0, reference="shd2")
    with pytest.raises(ValueError, match="needs target="):
        check_graph_metric(lambda t, e: 0, scope="parents")


def test_a_non_number_output_is_reported() -> None:
    """An output without a number is a failure that suggests value=."""
    with pytest.raises(PropertyFailure, match="pass value="):
        check_graph_metric(lambda t, e: "zero", "distance")


def test_profiles_set_the_hypothesis_budget() -> None:
    """ci is 50 derandomized examples, dev 200, thorough 2000; no database, no deadline."""
    assert {n: (p.max_examples, p.derandomize) for n, p in PROFILES.items()} == {"ci": (50, True), "dev": (200, False), "thorough": (2000, False)}
    s = settings_for("ci")
    assert s.max_examples == 50 and s.derandomize and s.database is None and s.deadline is None
    with pytest.raises(InputFormatError, match="profile='fast'"):
        settings_for("fast")


def test_the_offline_prism_pipeline_passes_the_answer_suite() -> None:
    """End to end, the offline parser + judges: paraphrase and clause scrambling never raise PM or Final; no cue, PM 0."""
    import dataclasses

    from causalcheck.explain.data import load_benchmark
    from causalcheck.explain.offline import OfflineCriterionJudge, OfflineEdgeJudge
    from causalcheck.explain.relations import OfflineParser
    from causalcheck.explain.scoring import score_item
    from causalcheck.testing import check_explanation_scorer

    item = load_benchmark("demo").items[0]

    def scored(q: str, a: str) -> object:
        return score_item(dataclasses.replace(item, question=q), a, OfflineParser(), OfflineEdgeJudge(), OfflineCriterionJudge())

    check_explanation_scorer(lambda q, a: scored(q, a).pm, "answer", metric_of_answer="pm")  # type: ignore[attr-defined]
    check_explanation_scorer(lambda q, a: scored(q, a).final, "answer")  # type: ignore[attr-defined]


@pytest.mark.parametrize("kind", ["pdag", "cpdag", "pag"])
def test_general_graph_kinds_are_drawn_and_edited(kind: str) -> None:
    """compare().shd (causal-learn's convention) passes on PDAGs, CPDAGs and PAGs; skeleton F1 ignores marks."""
    from causalcheck.graphchecks.scores import compare

    def shd_of(t: object, e: object) -> int:
        return compare(t, e, nodes="union", basis="given").shd  # type: ignore[arg-type]

    def skeleton_f1(t: object, e: object) -> float:
        f1 = compare(t, e, nodes="union", basis="given").skeleton.f1  # type: ignore[arg-type]
        if f1 is None:  # compare leaves an undefined rate None; the stated convention: 1 if both empty, else 0
            return 1.0 if not t.skeleton and not e.skeleton else 0.0  # type: ignore[attr-defined]
        return f1

    check_graph_metric(shd_of, "distance", graphs=kind, reference="causal-learn-shd", max_examples=10)  # type: ignore[arg-type]
    check_graph_metric(skeleton_f1, "similarity", graphs=kind, reference="skeleton-f1", max_examples=10)  # type: ignore[arg-type]


def test_the_edge_parser_suite_takes_a_users_writer_and_convert() -> None:
    """A custom line format (writer given) and an output of dicts read through convert= pass when names are kept."""
    def write(g: Any) -> str:
        return "".join(json.dumps([e.u, e.v], ensure_ascii=False) + "\n" for e in g.edges)

    def parse(text: str) -> list[dict[str, str]]:
        return [{"from": a, "to": b} for a, b in map(json.loads, text.splitlines())]

    report = check_edge_parser(parse, write, convert=lambda out: [(d["from"], d["to"]) for d in out], max_examples=20)
    assert "normalization" in report.properties and report.max_examples == 20


def test_the_edge_parser_suite_refuses_a_format_that_cannot_hold_every_name() -> None:
    """format='adjacency' (identifiers only) is refused naming the formats that hold any name."""
    with pytest.raises(InputFormatError, match=r"format='adjacency' must be a format that holds any name"):
        check_edge_parser(parse_text, "adjacency")


def test_an_edge_parser_output_that_is_not_edges_fails_with_the_output_shown() -> None:
    """A parser returning a number fails the first property, naming the output and asking for convert=."""
    with pytest.raises(PropertyFailure) as info:
        check_edge_parser(lambda text: 3, "text", max_examples=5)
    assert info.value.property == "structure" and "pass convert=" in str(info.value) and "parsed:   3" in str(info.value)


def test_an_edge_parser_that_reverses_edges_fails_structure() -> None:
    """Directions count: a parser reading effect -> cause fails 'structure' with the missing and extra edges."""
    def backwards(text: str) -> list[tuple[str, str]]:
        return [(e.v, e.u) for e in parse_text(text).edges]

    with pytest.raises(PropertyFailure) as info:
        check_edge_parser(backwards, "text", max_examples=20)
    assert info.value.property == "structure" and "missing:  [('a', 'b')]" in str(info.value), str(info.value)
