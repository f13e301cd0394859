"""Random graphs shared by the graph tests (seeded numpy Generators)."""

from __future__ import annotations

import itertools

import numpy as np
from causalcheck.graphs import Graph, GraphEdge


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
