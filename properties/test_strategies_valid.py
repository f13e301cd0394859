"""Every exported strategy draws only valid values: the project's own validator or parser accepts each one."""

from __future__ import annotations

import json
from pathlib import Path

from causalcheck import strategies as cs
from causalcheck.episodes import read_episode, read_trajectory
from causalcheck.explain.relations import OfflineParser
from causalcheck.explain.rst import project_to_graph
from causalcheck.graph import FREQ, is_freq_alias, normalize_node
from causalcheck.graphs import CAUSALAB, check_cpdag, check_dag, check_pag, read_graph
from causalcheck.graphs.model import Graph
from causalcheck.lab.suites import parse_suite_record
from causalcheck.parsing import format_hypothesis, parse_hypothesis, parse_record
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st


@given(cs.node_names("exact"))
def test_exact_names_are_graph_node_names(name: str) -> None:
    """Every exact-dialect name is a node name the general graph model accepts."""
    assert Graph((name,)).nodes == (name,)


@given(cs.node_names("causalab"))
def test_causalab_names_normalise_to_a_non_empty_name(name: str) -> None:
    """Every CausaLab-dialect name normalises to a non-empty node name."""
    assert normalize_node(name)


@given(cs.frequency_aliases())
def test_frequency_aliases_are_read_as_the_frequency(name: str) -> None:
    """Every generated alias is one CausaLab reads as resonanceFreq."""
    assert is_freq_alias(name) and normalize_node(name) == FREQ


@given(cs.name_lists("causalab", min_size=1, include_target=True))
def test_name_lists_stay_distinct_under_their_dialect(names: list[str]) -> None:
    """Names of one list never merge under the dialect; include_target puts the frequency in."""
    assert cs.distinct_under(CAUSALAB, names)
    assert FREQ in {normalize_node(n) for n in names}


@given(st.sampled_from(["a", "Density", "resonanceFreq", " x"]).flatmap(lambda n: st.tuples(st.just(n), cs.confusables(n))))
def test_confusables_differ_only_in_spelling(pair: tuple[str, str]) -> None:
    """A confusable is another string whose case-folded, trimmed form (or frequency alias) matches."""
    name, other = pair
    assert other != name
    assert other.strip().lower() == name.strip().lower() or (is_freq_alias(other) and is_freq_alias(name))


@given(cs.dags(max_in_degree=2, density=0.6))
def test_dags_are_dags_within_their_bounds(g: Graph) -> None:
    """dags() are acyclic (check_dag) and respect the in-degree bound."""
    assert check_dag(g), check_dag(g).reason
    assert all(len(g.parents(v)) <= 2 for v in g.nodes)


@given(cs.pdags())
def test_pdags_have_an_acyclic_directed_part(g: Graph) -> None:
    """pdags() have only -> and -- marks and no directed cycle."""
    assert g.kind in ("DAG", "PDAG")
    assert check_dag(g.with_edges(e for e in g.edges if e.is_directed))


@given(cs.cpdags())
def test_cpdags_pass_the_cpdag_check(g: Graph) -> None:
    """cpdags() pass check_cpdag."""
    assert check_cpdag(g), check_cpdag(g).reason


@given(cs.pags())
def test_pags_pass_the_pag_check(g: Graph) -> None:
    """pags() pass check_pag."""
    assert check_pag(g), check_pag(g).reason


@given(cs.graph_pairs(added=(0, 3), removed=(0, 3), reversed=(0, 3), acyclic=True))
def test_graph_pairs_report_exactly_their_edits(pair: cs.GraphPair) -> None:
    """Applying the reported edits to the truth gives the estimate; distinct pairs; acyclic stays a DAG."""
    est = pair.truth
    for e in pair.edits:
        est = cs.apply_edit(est, e)
    assert est == pair.estimate
    touched = [frozenset((e.before or e.after).pair) for e in pair.edits]  # type: ignore[union-attr]
    assert len(touched) == len(set(touched))
    assert check_dag(pair.estimate)


@settings(max_examples=50)
@given(cs.suite_records(family=None, freq_parent=None, hidden=None, max_nodes=7))
def test_suite_records_are_accepted_by_the_suite_reader(rec: dict[str, object]) -> None:
    """Every drawn SCM record passes parse_suite_record (and survives a JSON round trip)."""
    g = parse_suite_record(json.loads(json.dumps(rec)))
    assert FREQ in g.scm.nodes and g.scm.graph.parents(FREQ)


@settings(max_examples=30)
@given(cs.scm_samples())
def test_scm_samples_are_evaluations_of_their_scm(sample: cs.SCMSample) -> None:
    """Each sampled row is the SCM's own evaluation of the row's controllable values."""
    scm = parse_suite_record(sample.record).scm
    for row in sample.rows:
        bases = scm.bases_from_values([row[n] for n in scm.nodes])
        assert scm.evaluate(dict(zip(scm.nodes, bases, strict=True))) == row


@given(cs.hypotheses())
def test_hypotheses_round_trip_through_the_text_format(h: object) -> None:
    """parse_hypothesis(format_hypothesis(h)) gives back the graph and coefficients."""
    parsed = parse_hypothesis(format_hypothesis(h))  # type: ignore[arg-type]
    assert parsed.graph == h.graph and parsed.coefficients == h.coefficients  # type: ignore[attr-defined]


@given(cs.step_records())
def test_clean_step_records_parse_without_repairs(rec: cs.RecordSample) -> None:
    """A clean record parses with no warning."""
    assert parse_record(rec.text).warnings == ()


@given(cs.step_records(drift=True))
def test_drifted_step_records_parse_to_the_clean_record(rec: cs.RecordSample) -> None:
    """Drifted text parses to the same record as the clean object, and the repairs are listed."""
    parsed = parse_record(rec.text)
    assert parsed == parse_record(json.dumps(rec.obj)), rec.drift
    assert parsed.warnings or set(rec.drift) <= {"indent"}


@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow])
@given(cs.trajectory_files())
def test_trajectory_files_are_read_by_the_episode_layer(path: Path) -> None:
    """Every written trajectory reads back, as a trajectory and as an episode."""
    traj = read_trajectory(path)
    ep = read_episode(path)
    assert ep.kind == "trajectory" and len(ep.steps) == len(traj.steps)


@settings(max_examples=15, suppress_health_check=[HealthCheck.too_slow])
@given(cs.run_folders())
def test_run_folders_are_read_as_official_runs(folder: Path) -> None:
    """Every written run folder reads as an episode with one parsed record per raw_io entry."""
    ep = read_episode(folder)
    raw = (folder / "raw_io.jsonl").read_text(encoding="utf-8")
    assert len(ep.steps) == raw.count('"step":')
    assert all(s.record is not None for s in ep.steps)


@given(cs.judged_graphs())
def test_judged_graphs_align_scores_with_edges(jg: cs.JudgedGraph) -> None:
    """One score in [0, 1] per edge; every edge joins two of the graph's EDUs."""
    ids = {n.id for n in jg.graph.nodes}
    assert len(jg.scores) == len(jg.graph.edges) and all(0.0 <= s <= 1.0 for s in jg.scores)
    assert all(e.source in ids and e.target in ids and e.source != e.target for e in jg.graph.edges)


@settings(max_examples=50)
@given(cs.whatif_answers())
def test_whatif_answers_have_the_cue_structure_they_claim(a: cs.GeneratedAnswer) -> None:
    """The offline parser finds exactly the generated causal links, and none in the paraphrase."""
    def links(text: str) -> set[tuple[int, int, str]]:
        rec = OfflineParser().parse(text)
        where = {}
        for edu in rec.edus:
            hits = [i for i, c in enumerate(a.clauses) if c.lower() in edu.text.lower()]
            where[edu.id] = hits[0] if len(hits) == 1 else None
        return {(where[e.source], where[e.target], e.relation_type) for e in project_to_graph(rec).edges if e.causal}

    assert links(a.text) == set(a.links)
    assert links(a.paraphrase) == set()


@settings(max_examples=40)
@given(cs.graph_texts())
def test_graph_texts_read_back_to_their_graph(t: cs.GraphText) -> None:
    """read_graph(text, format) is the drawn graph, for every format."""
    assert read_graph(t.text, format=t.format) == t.graph


@given(cs.explanation_graphs())
def test_explanation_graphs_pass_the_graph_checks(g: object) -> None:
    """check_graph reads every drawn explanation graph, and its JSON form is the official parsed_dag shape."""
    from causalcheck.explain.explanation_graph import check_graph

    check_graph(g)  # type: ignore[arg-type]
    data = g.to_json()  # type: ignore[attr-defined]
    assert set(data) >= {"nodes", "edges"} and all({"source", "target", "relation_type"} <= set(e) for e in data["edges"])


@given(cs.edu_sequences())
def test_edu_sequences_are_single_units_to_the_segmenter(edus: list[str]) -> None:
    """Each EDU text, written as a sentence, is one unit to the rule segmenter; subjects differ."""
    from causalcheck.explain.segment import RuleSegmenter

    for text in edus:
        units = RuleSegmenter().segment(text[:1].upper() + text[1:] + ".")
        assert len(units) == 1 and len(text.split()) >= 3
    assert len({" ".join(t.split()[:2]) for t in edus}) == len(edus)


@given(cs.criterion_scores())
def test_criterion_scores_are_rubric_scores(scores: list[int]) -> None:
    """Every criterion score is an integer 1..10 and compute_rm accepts the list."""
    from causalcheck.explain.scoring import compute_rm

    assert scores and all(isinstance(s, int) and 1 <= s <= 10 for s in scores)
    assert 0.1 <= compute_rm(scores)[0] <= 1.0


@given(cs.edge_lists(max_nodes=5))
def test_edge_lists_are_the_edges_of_a_dag(pairs: list[tuple[str, str]]) -> None:
    """edge_lists() give acyclic, self-loop-free (cause, effect) pairs."""
    assert check_dag(Graph.from_directed(pairs))


@given(st.sampled_from(["density", " moisture", "resonanceFreq", "freq"]).flatmap(lambda n: st.tuples(st.just(n), cs.spellings(n))))
def test_spellings_are_the_same_node_to_causalab(pair: tuple[str, str]) -> None:
    """Every spelling of a name is the same node under CausaLab's normalisation."""
    name, other = pair
    assert normalize_node(other) == normalize_node(name)


@given(cs.identifiers())
def test_identifiers_are_written_bare_by_the_text_format(name: str) -> None:
    """An identifier needs no quoting: the text format writes it as is and reads it back."""
    g = Graph((name,))
    assert read_graph(f"nodes: {name}", format="text") == g
