"""Benchmark: the graph adapters at 1 000 nodes, against the old path and the libraries' own conversions.

Graphs: a random sparse CPDAG-like PDAG over ``n`` nodes (each node gets 0–2 parents among
earlier nodes, seeded ``numpy.random.Generator``; every fifth edge undirected).  Timed
(best of ``--repeat`` runs, same process, same input):

* ``from_matrix(G, convention="causallearn")`` (ours) vs the old
  ``CausalGraph.from_causallearn_matrix`` path (a Python double loop over all n² cells; run on
  the directed part, the only part it could read) and vs causal-learn reading its own
  matrix (``GeneralGraph.get_graph_edges()``);
* ``from_causallearn(GeneralGraph)`` vs causal-learn's ``get_graph_edges()`` on the same object;
* ``from_networkx(DiGraph)`` vs ``networkx.to_numpy_array`` of the same graph;
* ``to_matrix`` / ``to_networkx`` vs ``networkx.from_numpy_array`` building the same graph;
* ``to_causallearn`` vs building the GeneralGraph edge by edge with ``add_edge`` (causal-learn's
  own way, which also pays an O(n²) set-up in ``GeneralGraph.__init__``);
* ``shd`` of two CPDAGs vs causal-learn's ``SHD`` on the same pair (its O(n²) loop over pairs).

Goal: reading adapters ≤ 30 ms at 1 000 nodes.  Ratios > 1 mean ours is faster.

Second part — the graph algorithms kept hand-written although networkx has them, each timed
against networkx on the same input in the same run (CPU time, best of ``--repeat`` rounds),
at the sizes their callers see: 10 nodes (a hypothesis), 60 (an explanation graph), 400 (a
large graph).  The networkx side includes building its graph from the values the caller
holds, because that is what replacing ours would cost; the one-off ``import networkx`` (timed
in a fresh interpreter) comes on top for the callers that otherwise never import it (a
hypothesis check, explain scoring).  Every algorithm whose ratio is not clearly above 1 was
replaced by networkx (explain's cycle replay and Kosaraju, coverage's components).

Usage: python tests/benchmarks/bench_graphs.py [--nodes N] [--repeat R] [--seed S] [--algorithms-only]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from causalcheck.graph import CausalGraph
from causalcheck.graphs import convert as gconv
from causalcheck.graphs.model import Edge, Graph, GraphEdge


def random_pdag(n: int, rng: np.random.Generator) -> Graph:
    names = [f"X{i + 1}" for i in range(n)]
    edges = []
    k = 0
    for j in range(1, n):
        for i in rng.choice(j, size=min(j, int(rng.integers(0, 3))), replace=False):
            k += 1
            a, b = names[int(i)], names[j]
            edges.append(GraphEdge.undirected(a, b) if k % 5 == 0 else GraphEdge.directed(a, b))
    return Graph(tuple(names), tuple(edges))


def best(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def row(label: str, ours: float, ref: float, ref_label: str) -> None:
    print(f"{label:<34} {ours * 1e3:9.3f} ms   {ref_label:<40} {ref * 1e3:9.3f} ms   ratio {ref / ours:7.1f}x")


def cpu_best(fn: Callable[[], Any], repeat: int, budget: float = 0.05) -> float:
    """Best CPU time per call of *fn* over *repeat* rounds of enough calls to take about *budget* seconds."""
    t0 = time.process_time()
    fn()
    once = max(time.process_time() - t0, 1e-6)
    calls = max(1, int(budget / once))
    times = []
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(calls):
            fn()
        times.append((time.process_time() - t0) / calls)
    return min(times)


def random_dag_pairs(n: int, rng: np.random.Generator) -> list[tuple[str, str]]:
    """*n* random edges ``lower -> higher`` over ``EDU0..EDU{n-1}`` (a DAG; repeats dropped)."""
    names = [f"EDU{i}" for i in range(n)]
    out = {}
    for _ in range(n):
        a, b = sorted(int(x) for x in rng.choice(n, size=2, replace=False))
        out[(names[a], names[b])] = None
    return list(out)


def algorithms(repeat: int, seed: int) -> None:
    """Print ours vs networkx for every hand-written graph algorithm that stays (see the module docstring)."""
    import subprocess
    import sys

    import networkx as nx

    code = "import time; t = time.perf_counter(); import networkx; print(time.perf_counter() - t)"
    imp = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    print(f"\nhand-written vs networkx (CPU time, best of {repeat}; networkx builds its graph in the timing)")
    print(f"one-off `import networkx` in a fresh interpreter: {imp * 1e3:.0f} ms")
    rng = np.random.default_rng(seed)

    def digraph(nodes: Any, pairs: Any) -> Any:
        g = nx.DiGraph()
        g.add_nodes_from(nodes)
        g.add_edges_from(pairs)
        return g

    for n in (10, 60, 400):
        algorithm_rows(random_dag_pairs(n, rng), n, repeat, digraph)


def algorithm_rows(pairs: list[tuple[str, str]], n: int, repeat: int, digraph: Callable[[Any, Any], Any]) -> None:
    """One block of :func:`algorithms`: every kept algorithm vs networkx on the DAG *pairs* over *n* nodes."""
    import networkx as nx
    from causalcheck.explain.explanation_graph import _dag_longest_path
    from causalcheck.graphs.model import connected_components, depth_first, reachable
    from causalcheck.solvers._meek import chordless_cycle, cyclic_remainder, directed_cycle
    from causalcheck.solvers.acyclicity import _components

    names = [f"EDU{i}" for i in range(n)]
    arcs = [Edge(a, b) for a, b in pairs]
    pos = {v: i for i, v in enumerate(names)}
    ints = [(pos[a], pos[b]) for a, b in pairs]
    succ: list[list[int]] = [[] for _ in names]
    parents: dict[str, list[str]] = {}
    for a, b in pairs:
        succ[pos[a]].append(pos[b])
        parents.setdefault(b, []).append(a)
    sink = names[-1]
    print(f"-- {n} nodes, {len(pairs)} edges")
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any], str]] = [
        ("reachable (ancestors)", lambda: reachable(parents.get(sink, ()), lambda v: parents.get(v, ())),
         lambda: nx.ancestors(digraph(names, pairs), sink), "networkx ancestors"),
        ("connected_components", lambda: connected_components(names, pairs),
         lambda: list(nx.connected_components(nx.Graph(pairs))), "networkx connected_components"),
        ("depth_first (post-order)", lambda: depth_first(succ),
         lambda: list(nx.dfs_postorder_nodes(digraph(range(n), ints))), "networkx dfs_postorder_nodes"),
        ("directed_cycle (acyclic)", lambda: directed_cycle(n, ints),
         lambda: nx.is_directed_acyclic_graph(digraph(range(n), ints)), "networkx is_directed_acyclic_graph"),
        ("cyclic_remainder (Kahn)", lambda: cyclic_remainder(n, ints),
         lambda: nx.is_directed_acyclic_graph(digraph(range(n), ints)), "networkx is_directed_acyclic_graph"),
        ("acyclicity SCCs (Tarjan)", lambda: _components(arcs),
         lambda: list(nx.strongly_connected_components(digraph((), pairs))), "networkx strongly_connected_components"),
        ("explain longest path (Kahn)", lambda: _dag_longest_path(pairs),
         lambda: nx.dag_longest_path_length(digraph((), pairs)), "networkx dag_longest_path_length"),
        ("chordless_cycle (chordal)", lambda: chordless_cycle(n, ints),
         lambda: next(nx.chordless_cycles(nx.Graph(ints)), None), "networkx chordless_cycles"),
    ]
    for label, ours_fn, ref_fn, ref_label in cases:
        row(label, cpu_best(ours_fn, repeat), cpu_best(ref_fn, repeat), ref_label)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--algorithms-only", action="store_true", help="only the hand-written vs networkx part")
    args = ap.parse_args()
    if args.algorithms_only:
        algorithms(args.repeat, args.seed)
        return
    import networkx as nx
    from causallearn.graph.Edge import Edge as ClEdge
    from causallearn.graph.Endpoint import Endpoint
    from causallearn.graph.GeneralGraph import GeneralGraph
    from causallearn.graph.GraphNode import GraphNode

    rng = np.random.default_rng(args.seed)
    g = random_pdag(args.nodes, rng)
    names = list(g.nodes)
    cl_matrix = gconv.to_matrix(g, convention="causallearn").astype(int)
    directed_only = Graph(g.nodes, tuple(e for e in g.edges if e.is_directed))
    cl_directed = gconv.to_matrix(directed_only, convention="causallearn").astype(int)
    cl_graph = gconv.to_causallearn(g)
    nxg = gconv.to_networkx(directed_only)
    amat = gconv.to_matrix(directed_only, convention="row_to_column")
    print(f"n = {args.nodes} nodes, {len(g.edges)} edges ({len(g.undirected_pairs)} undirected); best of {args.repeat}")
    print(f"{'ours':<34} {'':>12}   {'reference':<40}")

    ours = best(lambda: gconv.from_matrix(cl_matrix, names, convention="causallearn"), args.repeat)
    old = best(lambda: CausalGraph.from_pairs(
        [(names[i], names[j]) for i in range(len(names)) for j in range(len(names))
         if cl_directed[j][i] == 1 and cl_directed[i][j] == -1], names), 1)
    row("from_matrix(causallearn)", ours, old, "old from_causallearn_matrix (n² loop)")
    row("from_matrix(causallearn)", ours, best(cl_graph.get_graph_edges, args.repeat), "causal-learn get_graph_edges()")
    ours = best(lambda: gconv.from_causallearn(cl_graph), args.repeat)
    row("from_causallearn(GeneralGraph)", ours, best(cl_graph.get_graph_edges, args.repeat), "causal-learn get_graph_edges()")
    ours = best(lambda: gconv.from_networkx(nxg), args.repeat)
    row("from_networkx(DiGraph)", ours, best(lambda: nx.to_numpy_array(nxg), args.repeat), "networkx to_numpy_array")
    ours = best(lambda: gconv.from_matrix(amat, names, convention="row_to_column"), args.repeat)
    row("from_matrix(row_to_column)", ours, best(lambda: nx.from_numpy_array(amat, create_using=nx.DiGraph), args.repeat), "networkx from_numpy_array")
    ours = best(lambda: gconv.to_matrix(g, convention="causallearn"), args.repeat)
    row("to_matrix(causallearn)", ours, best(lambda: nx.to_numpy_array(nxg), args.repeat), "networkx to_numpy_array")
    ours = best(lambda: gconv.to_networkx(g), args.repeat)
    row("to_networkx", ours, best(lambda: nx.from_numpy_array(amat, create_using=nx.DiGraph), args.repeat), "networkx from_numpy_array")

    def cl_own() -> None:
        nodes = [GraphNode(n) for n in names]
        gg = GeneralGraph(nodes)
        pos = dict(zip(names, nodes, strict=True))
        for e in g.edges:
            m2 = Endpoint.ARROW if e.is_directed else Endpoint.TAIL
            gg.add_edge(ClEdge(pos[e.u], pos[e.v], Endpoint.TAIL, m2))

    ours = best(lambda: gconv.to_causallearn(g), 1)
    row("to_causallearn", ours, best(cl_own, 1), "causal-learn add_edge loop")

    from causalcheck.graphchecks.kinds import cpdag_of
    from causalcheck.graphchecks.scores import shd
    from causallearn.graph.SHD import SHD

    def as_dag(p: Graph) -> Graph:  # orient every edge along the node order (acyclic)
        pos = p.index
        return Graph(p.nodes, tuple(GraphEdge.directed(*sorted((e.u, e.v), key=pos.__getitem__)) for e in p.edges))

    dag, other = as_dag(g), as_dag(random_pdag(args.nodes, rng))
    a, b = cpdag_of(dag), cpdag_of(other)
    ca, cb = gconv.to_causallearn(a), gconv.to_causallearn(b)
    ours = best(lambda: shd(a, b), args.repeat)
    row("shd (CPDAGs)", ours, best(lambda: SHD(ca, cb).get_shd(), 1), "causal-learn SHD (same CPDAGs)")
    algorithms(args.repeat, args.seed)


if __name__ == "__main__":
    main()
