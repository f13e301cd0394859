"""Intervention coverage over unknown members: I-MEC ranges against brute force, the seeded sampler, suggestions."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from _graphs import random_dag
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.coverage import class_members, intervention_coverage, sample_members
from causalcheck.graphchecks.kinds import cpdag_of
from causalcheck.graphs import Graph
from causalcheck.graphs.formats import parse_text
from causalcheck.solvers.equivalence import enumerate_equivalent_dags


def _brute_sizes(dag: Graph, targets: list[list[str]]) -> list[int]:
    """|I-MEC| of every member of dag's MEC, each counted by trying every orientation."""
    out = []
    for member in enumerate_equivalent_dags(dag):
        out.append(sum(1 for _ in enumerate_equivalent_dags(member, targets)))
    return out


def _random_cases(count: int, max_nodes: int, seed: int) -> list[tuple[Graph, list[list[str]]]]:
    rng = np.random.default_rng(seed)
    cases = []
    while len(cases) < count:
        n = int(rng.integers(3, max_nodes + 1))
        dag = random_dag(n, float(rng.uniform(0.2, 0.45)), rng)
        if len(dag.edges) > 12:
            continue
        k = int(rng.integers(0, 3))
        targets = [[str(v)] for v in rng.choice(dag.nodes, size=k, replace=False)]
        cases.append((dag, targets))
    return cases


def test_imec_range_over_cpdag_members_equals_brute_force():
    """Minimum, maximum and mean |I-MEC| over a CPDAG's members equal brute force (random CPDAGs, up to 8 nodes)."""
    for dag, targets in _random_cases(14, 8, seed=21):
        sizes = _brute_sizes(dag, targets)
        cov = intervention_coverage(cpdag_of(dag), targets, suggest=0)
        i = cov.interventional
        assert i.exact and i.members == len(sizes) == cov.observational.class_size
        assert (i.minimum, i.maximum) == (min(sizes), max(sizes))
        assert i.mean == pytest.approx(sum(sizes) / len(sizes))


@pytest.mark.slow
def test_imec_range_brute_force_many():
    """The brute-force cross-check on 60 more random CPDAGs of up to 8 nodes."""
    for dag, targets in _random_cases(60, 8, seed=22):
        sizes = _brute_sizes(dag, targets)
        i = intervention_coverage(cpdag_of(dag), targets, suggest=0).interventional
        assert (i.minimum, i.maximum, i.members) == (min(sizes), max(sizes), len(sizes))


def test_dag_coverage_is_exact_imec_size():
    """For a known DAG the figure is imec_size itself; intervening on the middle of a chain orients it."""
    cov = intervention_coverage(parse_text("a -> b -> c -> d"), ["c"])
    assert cov.observational.class_size == 4 and cov.interventional.minimum == cov.interventional.maximum == 2
    assert cov.suggestion is not None and cov.suggestion.worst == 1


def test_members_are_the_class():
    """class_members lists exactly the brute-force members of the CPDAG."""
    dag = parse_text("a -> b; b -> c; b -> d; c -> d; e -> d")
    cp = cpdag_of(dag)
    names = cp.nodes
    ours = {frozenset((names[a], names[b]) for a, b in m) for m in class_members(cp)}
    brute = {frozenset(m.directed_pairs) for m in enumerate_equivalent_dags(dag)}
    assert ours == brute


def test_sampler_is_uniform_seeded_and_returns_members():
    """Samples of K4's 24 orientations are members, pass a χ² uniformity test, and repeat with the seed."""
    from scipy.stats import chisquare

    k4 = parse_text("a -- b; a -- c; a -- d; b -- c; b -- d; c -- d")
    members = set(class_members(k4))
    assert len(members) == 24
    draws = sample_members(k4, 2400, seed=5)
    assert set(draws) <= members
    counts = Counter(draws)
    assert len(counts) == 24 and chisquare([counts[m] for m in members]).pvalue > 0.001
    assert sample_members(k4, 50, seed=5) == draws[:50]
    tree = parse_text("a -- b; b -- c; b -- d; x -> y <- z; y -> w")
    assert set(sample_members(tree, 200, seed=1)) == set(class_members(tree))


def test_large_class_is_estimated_with_samples_and_seed():
    """Above member_limit the figures are an estimate with the sample count and seed."""
    k5 = Graph.from_edges([(a, "--", b) for a, b in itertools.combinations("abcde", 2)])
    cov = intervention_coverage(k5, ["a"], member_limit=10, samples=400, seed=3)
    exact = intervention_coverage(k5, ["a"]).interventional
    i = cov.interventional
    assert not i.exact and i.samples == 400 and i.seed == 3 and i.class_size == 120 and exact.exact
    assert (i.minimum, i.maximum) == (exact.minimum, exact.maximum) == (4, 24)
    assert abs(i.mean - exact.mean) < 1.0
    assert "uniform samples" in cov.notes[0]


def test_suggestion_minimises_worst_case_by_brute_force():
    """The suggested node's worst case is the minimum over candidates of the brute-force maximum."""
    dag = parse_text("a -> b; b -> c; c -> d; b -> e; e -> f")
    cp = cpdag_of(dag)
    cov = intervention_coverage(cp, [], suggest=1)
    s = cov.suggestion
    assert s is not None and s.search == "exhaustive"
    best = {}
    for v in s.candidates:
        best[v] = max(_brute_sizes(dag, [[v]]))
    assert s.worst == min(best.values()) and best[s.targets[0]] == s.worst
    two = intervention_coverage(cp, [], suggest=2).suggestion
    assert two is not None and len(two.targets) == 2 and two.worst <= s.worst


def test_coverage_refuses_mags_and_unknown_targets():
    """MAGs/PAGs have no I-MEC here; unknown targets are named."""
    with pytest.raises(InputFormatError, match="DAGs and CPDAGs"):
        intervention_coverage(parse_text("a <-> b"), [])
    with pytest.raises(InputFormatError, match=r"\['zz'\]"):
        intervention_coverage(parse_text("a -> b"), ["zz"])
