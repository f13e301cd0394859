"""The small named graphs of the causal-inference literature, as frozen values.

Tests, examples and property suites keep reaching for the same handful of graphs; they live
here once, under the names the field uses:

============================  ===========================================  ==========
name                          edges                                        MEC size
============================  ===========================================  ==========
``chain``                     A → B → C                                    3
``fork``                      A ← B → C (B is a common cause)               3
``collider``                  A → C ← B (a v-structure)                     1
``diamond``                   A → B → D ← C ← A                             3
``m_structure``               A → X ← B, A → C, B → D (M-bias; X collider)  4
``y_structure``               A → C ← B, C → D                              1
``instrument``                Z → X → Y, U → X, U → Y                       1
``confounded_triangle``       A → B → C, A → C (the complete DAG on 3)      6
``causalab_sample``           CausaLab graph ``4nodes_0`` (the official     2
                              sample run): density → resonanceFreq,
                              moisture → resonanceFreq, density →
                              quantumSize
============================  ===========================================  ==========

Node names are exactly as shown (single capital letters, or the CausaLab properties).
:func:`named_graph` returns one graph by name; :data:`NAMED_GRAPHS` maps every name to its
graph.

>>> from causalcheck.solvers.equivalence import mec_size
>>> {name: mec_size(g) for name, g in NAMED_GRAPHS.items()}["diamond"]
3
>>> sorted(named_graph("collider").pairs)
[('A', 'C'), ('B', 'C')]
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from causalcheck.base.errors import InputFormatError
from causalcheck.graph import CausalGraph

__all__ = ["NAMED_GRAPHS", "named_graph"]

_EDGES: dict[str, tuple[tuple[str, ...], tuple[tuple[str, str], ...]]] = {
    "chain": (("A", "B", "C"), (("A", "B"), ("B", "C"))),
    "fork": (("A", "B", "C"), (("B", "A"), ("B", "C"))),
    "collider": (("A", "B", "C"), (("A", "C"), ("B", "C"))),
    "diamond": (("A", "B", "C", "D"), (("A", "B"), ("A", "C"), ("B", "D"), ("C", "D"))),
    "m_structure": (("A", "B", "C", "D", "X"), (("A", "X"), ("B", "X"), ("A", "C"), ("B", "D"))),
    "y_structure": (("A", "B", "C", "D"), (("A", "C"), ("B", "C"), ("C", "D"))),
    "instrument": (("Z", "U", "X", "Y"), (("Z", "X"), ("X", "Y"), ("U", "X"), ("U", "Y"))),
    "confounded_triangle": (("A", "B", "C"), (("A", "B"), ("B", "C"), ("A", "C"))),
    "causalab_sample": (
        ("resonanceFreq", "quantumSize", "density", "moisture"),
        (("density", "resonanceFreq"), ("moisture", "resonanceFreq"), ("density", "quantumSize")),
    ),
}

#: Every named graph, by name (read-only).
NAMED_GRAPHS: Mapping[str, CausalGraph] = MappingProxyType(
    {name: CausalGraph.from_pairs(edges, nodes) for name, (nodes, edges) in _EDGES.items()}
)


def named_graph(name: str) -> CausalGraph:
    """The graph called *name* (see the module table)."""
    try:
        return NAMED_GRAPHS[name]
    except KeyError:
        raise InputFormatError(f"name={name!r} is not a named graph; known: {', '.join(NAMED_GRAPHS)}") from None
