"""Graph kinds with certificates: DAG, CPDAG (Meek R1–R4, chordality, Dor–Tarsi), MAG, PAG."""

from __future__ import annotations

import numpy as np
import pytest
from _graphs import random_dag
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.kinds import (
    check_cpdag,
    check_dag,
    check_mag,
    check_pag,
    consistent_extension,
    cpdag_of,
    validate,
)
from causalcheck.graphs import Graph, GraphEdge
from causalcheck.graphs.formats import parse_text


def test_dag_cycle_is_named():
    """check_dag names the cycle, in order, and the first edge on it."""
    c = check_dag(parse_text("a -> b -> c -> a; c -> d"))
    assert not c and c.rule == "cycle" and c.witness == ("a", "b", "c", "a")
    assert str(c.edge) == "a -> b"
    assert check_dag(parse_text("a -> b -> c"))


def test_dag_refuses_other_marks():
    """An undirected edge is not a DAG edge: the certificate names it."""
    c = check_dag(parse_text("a -> b -- c"))
    assert c.rule == "marks" and str(c.edge) == "b -- c"


@pytest.mark.parametrize(
    ("text", "rule", "edge", "witness"),
    [
        ("a -> b -- c", "R1", "b -- c", ("a", "b", "c")),
        ("a -> b -> c; a -- c", "R2", "a -- c", ("a", "b", "c")),
        ("c -- a -- d; c -> b <- d; a -- b", "R3", "a -- b", ("c", "a", "d", "b")),
        ("c -- a; c -> d -> b; a -- b; a -- d", "R4", "a -- b", ("c", "a", "d", "b")),
    ],
)
def test_cpdag_meek_rule_certificates(text, rule, edge, witness):
    """An undirected edge that Meek's rule Rk orients is named with the rule and its configuration."""
    c = check_cpdag(parse_text(text))
    assert not c
    assert c.rule == rule
    assert str(c.edge) == edge
    assert c.witness == witness
    assert f"Meek's rule {rule}" in c.reason


def test_cpdag_chordality_certificate():
    """A chordless undirected 4-cycle is named."""
    c = check_cpdag(parse_text("a -- b -- c -- d -- a"))
    assert c.rule == "chordality" and set(c.witness) == {"a", "b", "c", "d"} and len(c.witness) == 4


def test_cpdag_unprotected_and_compelled():
    """A lone directed edge is unprotected; an undirected v-structure edge is compelled."""
    c = check_cpdag(parse_text("a -> b"))
    assert c.rule == "unprotected" and str(c.edge) == "a -> b"
    c = check_cpdag(parse_text("a -- c; b -> c"))
    assert not c and c.rule in ("compelled", "R1", "unprotected")
    c = check_cpdag(parse_text("a -- c -- b"))
    assert c  # a chain of undirected edges is the CPDAG of a -> c -> b
    c = check_cpdag(parse_text("a -> b; c -> b; b -- d; a -- c"))
    assert not c


def test_cpdag_directed_cycle_and_marks():
    """A directed cycle or a bidirected edge is not in a CPDAG."""
    assert check_cpdag(parse_text("a -> b -> c -> a")).rule == "cycle"
    assert check_cpdag(parse_text("a <-> b")).rule == "marks"


def test_cpdag_of_matches_causallearn_dag2cpdag():
    """cpdag_of equals causal-learn's dag2cpdag on random DAGs, and every result passes check_cpdag."""
    from causalcheck.graphs.convert import from_causallearn, to_causallearn
    from causallearn.utils.DAG2CPDAG import dag2cpdag

    rng = np.random.default_rng(7)
    for _ in range(60):
        dag = random_dag(int(rng.integers(2, 8)), 0.4, rng)
        ours = cpdag_of(dag)
        assert ours == from_causallearn(dag2cpdag(to_causallearn(dag)))
        cert = check_cpdag(ours)
        assert cert, cert.reason
        assert cert.extension is not None and cpdag_of(cert.extension) == ours


def test_check_cpdag_iff_cpdag_of_extension_on_random_pdags():
    """On random PDAGs, check_cpdag passes exactly when the PDAG is the CPDAG of some DAG (brute force)."""
    rng = np.random.default_rng(11)
    for _ in range(80):
        dag = random_dag(int(rng.integers(3, 6)), 0.6, rng)
        edges = [e if rng.random() < 0.5 else GraphEdge.undirected(e.u, e.v) for e in dag.edges]
        g = dag.with_edges(edges)
        # brute force: g is a CPDAG iff some orientation of its undirected edges is a DAG whose CPDAG is g
        und = [e for e in g.edges if e.is_undirected]
        fixed = [e for e in g.edges if e.is_directed]
        truth = False
        for mask in range(1 << len(und)):
            oriented = fixed + [
                GraphEdge.directed(e.u, e.v) if mask >> k & 1 else GraphEdge.directed(e.v, e.u) for k, e in enumerate(und)
            ]
            cand = g.with_edges(oriented)
            if check_dag(cand) and cpdag_of(cand) == g:
                truth = True
                break
        cert = check_cpdag(g)
        assert bool(cert) == truth, (str(g), cert.reason)
        if not cert:
            assert cert.rule is not None and cert.reason


def test_consistent_extension():
    """Dor–Tarsi: an extension keeps directed edges and adds no v-structure; none for a chordless cycle."""
    ext = consistent_extension(parse_text("a -> b -- c; c -- d"))
    assert ext is not None and check_dag(ext)
    assert ("a", "b") in ext.directed_pairs and ("b", "c") in ext.directed_pairs and ("c", "d") in ext.directed_pairs
    assert consistent_extension(parse_text("a -- b -- c -- d -- a")) is None
    assert consistent_extension(parse_text("a -> b -- c; d -> c")) is None  # b -> c <- d and c -> b <- a both new v-structures
    with pytest.raises(InputFormatError, match="cannot occur"):
        consistent_extension(parse_text("a <-> b"))


def test_cpdag_of_needs_dag():
    """cpdag_of refuses a cycle with the cycle named."""
    with pytest.raises(InputFormatError, match="a -> b -> c -> a"):
        cpdag_of(Graph.from_directed([("a", "b"), ("b", "c"), ("c", "a")]))


def test_mag_certificates():
    """MAG: almost directed cycle, arrowhead on an undirected edge, inducing path — each named."""
    c = check_mag(parse_text("a -> b -> c; a <-> c"))
    assert c.rule == "almost-directed cycle" and c.witness == ("a", "c")
    c = check_mag(parse_text("a -- b; c -> a"))
    assert c.rule == "undirected edge" and c.witness == ("a", "c")
    c = check_mag(parse_text("a <-> b <-> c <-> d; b -> d; c -> a"))
    assert c.rule == "inducing path" and c.witness == ("a", "b", "c", "d")
    assert check_mag(parse_text("a -> b <-> c; d -- e"))
    assert check_mag(parse_text("a o-> b")).rule == "marks"


def test_pag_checks_and_validate_dispatch():
    """PAG marks pass unless a cycle or an arrowhead on '--' is present; validate picks by kind."""
    assert check_pag(parse_text("a o-> b <-o c; c o-o d"))
    assert check_pag(parse_text("a -> b -> c -> a; c o-o d")).rule == "cycle"
    assert validate(parse_text("a -> b")).claim == "DAG"
    assert validate(parse_text("a -- b")).claim == "CPDAG"
    assert validate(parse_text("a <-> b")).claim == "MAG"
    assert validate(parse_text("a o-o b")).claim == "PAG"


def test_certificate_to_dict():
    """A certificate serialises its edge as [left, token, right]."""
    d = check_cpdag(parse_text("a -> b -- c")).to_dict()
    assert d["edge"] == ["b", "--", "c"] and d["rule"] == "R1" and d["ok"] is False
