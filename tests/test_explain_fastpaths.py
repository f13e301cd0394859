"""The explain fast paths give exactly what the general code they replace gives (seeded random cases)."""

from __future__ import annotations

import random
import re

from causalcheck.explain import _cues
from causalcheck.explain import explanation_graph as explain_graph
from causalcheck.explain.relations import _tree_nodes
from causalcheck.explain.rst import Relation, build_tree_nodes


def test_the_cycle_check_fast_path_agrees_with_networkx() -> None:
    """_dag_longest_path is None exactly when networkx finds a cycle (the check's fast path decides correctly)."""
    import networkx as nx

    rnd = random.Random(1)
    found = 0
    for _ in range(1500):
        names = [f"EDU{i}" for i in range(rnd.randint(1, 9))]
        pairs = [(rnd.choice(names), rnd.choice(names)) for _ in range(rnd.randint(1, 18))]
        pairs = [(a, b) for a, b in pairs if a != b]
        if not pairs:
            continue
        g = nx.DiGraph(pairs)
        cyclic = not nx.is_directed_acyclic_graph(g)
        assert (explain_graph._dag_longest_path(pairs) is None) == cyclic
        if not cyclic:
            assert explain_graph._dag_longest_path(pairs) == nx.dag_longest_path_length(g)
        found += cyclic
    assert found > 100  # the cases include many cycles


def test_explanation_graph_ids_are_compared_exactly() -> None:
    """EDU ids are not CausaLab names: 'freq' and 'Frequency' are two nodes, not one frequency node."""
    from causalcheck.explain.explanation_graph import ExplanationGraph, check_graph

    edges = [("a", "b"), ("b", "a"), ("c", "freq"), ("Frequency", "c")]
    graph = ExplanationGraph.from_json(
        {
            "nodes": [{"id": n, "text": ""} for n in ("a", "b", "c", "freq", "Frequency")],
            "edges": [{"source": s, "target": t, "relation_type": "CAUSE"} for s, t in edges],
        }
    )
    found = [(d.code, d.elements) for d in check_graph(graph, merge_restated=False)]
    assert ("direction-contradiction", ("a -> b", "b -> a")) in found
    assert not any("resonanceFreq" in " ".join(elements) for _, elements in found)


def test_dag_longest_path_matches_condensation() -> None:
    rnd = random.Random(2)
    for _ in range(1500):
        names = [f"EDU{i}" for i in range(rnd.randint(1, 9))]
        pairs = [(rnd.choice(names), rnd.choice(names)) for _ in range(rnd.randint(1, 14))]
        pairs = [(a, b) for a, b in pairs if a != b and (rnd.random() < 0.3 or a < b)]
        fast = explain_graph._dag_longest_path(pairs)
        if fast is None:
            continue  # cyclic: _longest_path uses the condensation
        saved = explain_graph._dag_longest_path
        explain_graph._dag_longest_path = lambda p: None  # type: ignore[assignment]
        try:
            assert explain_graph._longest_path(names, pairs) == fast
        finally:
            explain_graph._dag_longest_path = saved


def test_tree_nodes_fast_path_matches_build_tree_nodes() -> None:
    rnd = random.Random(3)
    refs = ["EDU1", "EDU2", "EDU3", "EDU10", "EDU012", "EDU0", "EDU 4", "edu5", "EDU2-4", "node_1", "EDU\u0663"]
    for _ in range(1500):
        rels = [
            Relation(rnd.choice(refs), rnd.choice(refs), rnd.choice(["CAUSE", "RESULT", "CONTRAST"]), rnd.choice(["SN", "NS", "NN"]))
            for _ in range(rnd.randint(0, 6))
        ]
        if rnd.random() < 0.5:
            rels = [r for r in rels if r.source in refs[:6] and r.target in refs[:6]]
        assert _tree_nodes(rels) == build_tree_nodes(rels)


def _lead_cue_full_pattern(text: str) -> _cues.Cue | None:
    """table_cue as written before the per-word patterns: the one full alternation."""
    first = _cues._FIRST.match(text)
    if first is None or first.group(1).lower() not in _cues._FIRST_WORDS:
        return None
    m = _cues._LEAD.match(text)
    if not m:
        return None
    phrase = m.group(1).lower()
    if phrase == "since" and re.match(r"\s*\d", text[m.end() :]):
        return None
    return _cues._BY_PHRASE.get(phrase)


def test_lead_cue_per_word_patterns_match_the_full_alternation() -> None:
    rnd = random.Random(4)
    words = [w for c in _cues.CUES for w in c.phrase.split()] + ["and", "But", "AND", "x", "1900", "\u017fo", "tides", "_so"]
    seps = [" ", ", ", "  ", "\n", "-", "", ".", "\u2014", "_"]
    for _ in range(20000):
        text = rnd.choice(["", " ", "(", '"', "_"]) + "".join(rnd.choice(words) + rnd.choice(seps) for _ in range(rnd.randint(1, 4)))
        if rnd.random() < 0.3:
            text = text.upper()
        assert _cues.table_cue(text) == _lead_cue_full_pattern(text)
