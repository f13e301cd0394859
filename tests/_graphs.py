"""Random graphs shared by the graph tests (seeded numpy Generators)."""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
from causalcheck.graphs import Graph, GraphEdge
from causalcheck.graphs.convert import to_networkx


def random_dag(n: int, p: float, rng: np.random.Generator) -> Graph:
    """A DAG over X1..Xn: each forward pair (in a shuffled order) is an edge with probability p."""
    names = [f"X{i + 1}" for i in range(n)]
    order = rng.permutation(n)
    edges = [
        GraphEdge.directed(names[order[i]], names[order[j]])
        for i, j in itertools.combinations(range(n), 2)
        if rng.random() < p
    ]
    return Graph(tuple(names), tuple(edges))


def simulate(g: Graph, n: int, rng: np.random.Generator, weight: float = 0.8, signed: bool = True) -> dict[str, np.ndarray]:
    """Linear-Gaussian data from the DAG g (unit noise, weights ±weight, or +weight when not signed)."""
    order = list(nx.topological_sort(to_networkx(g)))
    out: dict[str, np.ndarray] = {}
    for v in order:
        x = rng.normal(size=n)
        for p in g.parents(v):
            x = x + weight * (1 if not signed or rng.random() < 0.5 else -1) * out[p]
        out[v] = x
    return {v: out[v] for v in g.nodes}


def simulate_varied(g: Graph, n: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Linear-Gaussian data from the DAG g (unit noise, each weight ±U(0.5, 1.5): the benchmarks' data)."""
    out: dict[str, np.ndarray] = {}
    for v in nx.topological_sort(to_networkx(g)):
        x = rng.normal(size=n)
        for p in g.parents(v):
            x = x + rng.choice([-1, 1]) * rng.uniform(0.5, 1.5) * out[p]
        out[v] = x
    return {v: out[v] for v in g.nodes}


def simulate_categorical(g: Graph, n: int, rng: np.random.Generator, levels: int = 3) -> dict[str, np.ndarray]:
    """Categorical data from the DAG g as a discrete Bayesian network: each node's labels ``"l0".."l{levels-1}"``,
    one Dirichlet(1) distribution per configuration of its parents (the Markov property holds exactly)."""
    codes: dict[str, np.ndarray] = {}
    for v in nx.topological_sort(to_networkx(g)):
        parents = list(g.parents(v))
        config = np.zeros(n, dtype=int)
        for p in parents:
            config = config * levels + codes[p]
        table = rng.dirichlet(np.ones(levels), size=levels ** len(parents))
        u = rng.random(n)[:, None]
        codes[v] = (u > np.cumsum(table[config], axis=1)).sum(axis=1).clip(max=levels - 1)
    labels = np.array([f"l{k}" for k in range(levels)])
    return {v: labels[codes[v]] for v in g.nodes}
