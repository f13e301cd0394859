"""causalcheck.strategies: the optional extra's install hint, and minimal examples (the strategies shrink)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from causalcheck import strategies as cs
from causalcheck.graph import FREQ
from causalcheck.graphchecks.kinds import check_dag
from hypothesis import find, settings
from hypothesis import strategies as st

QUIET = settings(database=None, max_examples=2000, derandomize=True)

_NO_HYPOTHESIS = "import sys; sys.modules['hypothesis'] = None\n"


def test_without_hypothesis_the_import_is_a_one_line_install_hint() -> None:
    """Importing causalcheck.strategies with hypothesis unimportable raises an ImportError whose message is the hint, not chained."""
    code = _NO_HYPOTHESIS + "import causalcheck.strategies"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 1
    last = out.stderr.strip().splitlines()[-1]
    assert last == (
        "causalcheck.base.errors.MissingExtraError: causalcheck.strategies needs hypothesis, "
        "which is not installed: pip install 'causalcheck[testing]'"
    )
    assert "During handling" not in out.stderr and "direct cause" not in out.stderr
    assert out.stderr.count('  File "') == 2  # the importing line and the raise in causalcheck/strategies/__init__.py


def test_the_install_hint_is_an_import_error_a_caller_can_catch() -> None:
    """The error is an ImportError (and a CausalCheckError) with a one-line message; the suites say the same."""
    code = _NO_HYPOTHESIS + (
        "import json\n"
        "from causalcheck.base.errors import CausalCheckError\n"
        "try:\n    import causalcheck.strategies\nexcept ImportError as e:\n    a = (str(e), isinstance(e, CausalCheckError))\n"
        "from causalcheck.testing import check_graph_metric\n"
        "try:\n    check_graph_metric(lambda t, e: 0)\nexcept ImportError as e:\n    b = str(e)\n"
        "print(json.dumps([a[0], a[1], b]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    hint, is_ours, suite = json.loads(out.stdout)
    assert "\n" not in hint and hint.endswith("pip install 'causalcheck[testing]'") and is_ours
    assert suite.endswith("pip install 'causalcheck[testing]'")


def test_the_plugin_and_import_causalcheck_do_not_need_hypothesis() -> None:
    """import causalcheck, causalcheck.testing and the pytest plugin work (and stay light) without hypothesis."""
    code = _NO_HYPOTHESIS + (
        "import causalcheck, causalcheck.testing, causalcheck.testing.plugin, causalcheck.testing.profiles\n"
        "print(sorted(m for m in sys.modules if m.startswith('hypothesis') and sys.modules[m] is not None))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ----------------------------------------------------------------------- shrinking
def test_dags_shrink_to_the_smallest_graph_with_the_property() -> None:
    """The minimal DAG with two edges has three nodes and plain names."""
    g = find(cs.dags(), lambda g: len(g.edges) >= 2, settings=QUIET)
    assert len(g.nodes) == 3 and len(g.edges) == 2 and check_dag(g)


def test_graph_pairs_shrink_to_one_edit_on_one_edge() -> None:
    """The minimal pair with a reversal is a one-edge graph and its reverse."""
    p = find(cs.graph_pairs(), lambda p: p.count("reverse") >= 1, settings=QUIET)
    assert len(p.truth.edges) == 1 and len(p.edits) == 1 and p.edits[0].op == "reverse"


def test_names_shrink_to_short_simple_names() -> None:
    """A minimal case-variant pair of generated names is one letter each (the awkward-name pool aside)."""
    fresh = settings(settings.get_profile("default"), database=None, max_examples=2000, derandomize=True)
    names = find(cs.name_lists(min_size=2, awkward=False), lambda ns: any(a != b and a.lower() == b.lower() for a in ns for b in ns), settings=fresh)
    assert len(names) == 2 and all(len(n) == 1 for n in names) and names[0].lower() == names[1].lower()


def test_suite_records_shrink_to_three_nodes() -> None:
    """The minimal quadratic record has three nodes and one edge into the frequency."""
    rec = find(cs.suite_records(family="quadratic"), lambda r: True, settings=QUIET)
    assert len(rec["nodes"]) == 3 and [e["to"] for e in rec["edges"]] == [FREQ]
    assert rec["equation_family"] == "quadratic"


def test_step_records_shrink_to_the_smallest_drift() -> None:
    """The minimal record with a fence and a think block is an empty record wrapped in both."""
    rec = find(cs.step_records(drift=True), lambda r: {"fence", "think"} <= set(r.drift), settings=QUIET)
    assert rec.text.startswith("<think>") and "```json" in rec.text
    assert rec.obj["past_data"] == [] and rec.obj["hypothesis"]["edges"] == []


def test_whatif_answers_shrink_to_one_link() -> None:
    """The minimal answer with a CAUSE link is two clauses joined by 'because'."""
    a = find(cs.whatif_answers(), lambda a: any(label == "CAUSE" for _, _, label in a.links), settings=QUIET)
    assert len(a.clauses) == 2 and " because " in a.text


def test_graph_texts_shrink_to_a_one_node_graph() -> None:
    """The minimal graph text of any format holds one node and no edge."""
    t = find(cs.graph_texts(), lambda t: True, settings=QUIET)
    assert len(t.graph.nodes) == 1 and not t.graph.edges


def test_judged_graphs_shrink_to_one_causal_edge() -> None:
    """The minimal judged graph with a supported causal edge has two EDUs and that edge."""
    jg = find(cs.judged_graphs(), lambda jg: any(e.causal and s == 1.0 for e, s in zip(jg.graph.edges, jg.scores, strict=True)), settings=QUIET)
    assert len(jg.graph.nodes) == 2 and len(jg.graph.edges) == 1


def test_frequency_aliases_include_generated_spellings() -> None:
    """Beyond the fixed list, generated spellings (separators, case, padding) appear."""
    alias = find(cs.frequency_aliases(), lambda a: a not in cs.FREQUENCY_SPELLINGS, settings=QUIET)
    assert alias not in cs.FREQUENCY_SPELLINGS


def test_a_conditional_sentence_is_segmented_anywhere_in_an_answer() -> None:
    """'If A, B.' gives a CONDITION edge also when it is not the answer's first sentence (a '^' in the opener
    pattern used to anchor it at the start of the whole answer)."""
    from causalcheck.explain.relations import OfflineParser
    from causalcheck.explain.rst import project_to_graph

    text = "Tides fall. If coastal farms shrink sharply, crop yields would fall sharply."
    edges = project_to_graph(OfflineParser().parse(text)).edges
    assert [e.relation_type for e in edges] == ["CONDITION"]


def test_read_graph_of_empty_text_is_the_empty_graph() -> None:
    """read_graph('') reads the empty text as the empty graph (it used to open the path '.' and raise IsADirectoryError)."""
    from causalcheck.graphs import Graph, read_graph

    assert read_graph("", format="text") == Graph((), ()) == read_graph("  \n")


def test_step_record_drift_names_are_validated() -> None:
    """Asking for an unknown drift is a ValueError naming the known ones."""
    with pytest.raises(ValueError, match="fence"):
        find(cs.step_records(drift=["bogus"]), lambda r: True, settings=QUIET)


def test_strategies_respect_explicit_name_strategies() -> None:
    """dags(names=...) uses exactly the given names."""
    g = find(cs.dags(names=st.just(["x", "y"])), lambda g: len(g.edges) == 1, settings=QUIET)
    assert g.nodes == ("x", "y")


def test_edge_lists_include_self_loops_duplicates_and_dags_isolated_nodes_when_asked() -> None:
    """edge_lists(self_loops=, duplicates=) and dags(isolated=) put those quirks in; by default there are none."""
    loops = find(cs.edge_lists(self_loops=1, min_nodes=2), lambda ps: True, settings=QUIET)
    assert sum(1 for a, b in loops if a == b) == 1
    twice = find(cs.edge_lists(duplicates=1, min_edges=1, min_nodes=2), lambda ps: True, settings=QUIET)
    assert len(twice) == len(set(twice)) + 1
    plain = find(cs.edge_lists(min_edges=1, min_nodes=2), lambda ps: True, settings=QUIET)
    assert len(plain) == len(set(plain)) and all(a != b for a, b in plain)
    g = find(cs.dags(isolated=2), lambda g: True, settings=QUIET)
    assert [n for n in g.nodes if not g.parents(n) and not g.children(n)][-2:] == ["isolated0", "isolated1"]
    assert cs.with_self_loop([("a", "b")], "b", 0) == [("b", "b"), ("a", "b")]
    assert cs.with_duplicate([("a", "b"), ("b", "c")], 1) == [("a", "b"), ("b", "c"), ("b", "c")]
