"""General causal graphs: edge marks, graph kinds with certificates, adapters, formats, metrics.

This subpackage is the validator for the output of any causal-discovery tool (causal-learn,
gCastle, lingam, pgmpy, DoWhy, a hand-written networkx graph):

* :mod:`~causalcheck.graphs.model` — :class:`Graph`, :class:`GraphEdge`, :class:`Mark`:
  ``->``, ``--``, ``<->``, ``o->``, ``o-o``, ``o--``; names kept exactly.
* :mod:`~causalcheck.graphs.names` — :class:`NamePolicy` dialects (:data:`EXACT`, :data:`CAUSALAB`).
* :mod:`~causalcheck.graphs.kinds` — DAG / CPDAG / MAG / PAG checks returning a
  :class:`Certificate` (the failing edge and rule), Dor–Tarsi extensions, CPDAGs.
* :mod:`~causalcheck.graphs.convert` — networkx, causal-learn, NumPy/pandas, pgmpy adapters.
* :mod:`~causalcheck.graphs.formats` / :mod:`~causalcheck.graphs.io` — text, dagitty, DOT, GML,
  causal-learn text, CSV edge lists and adjacency matrices, JSON; :func:`read_graph`,
  :func:`write_graph`.
* :mod:`~causalcheck.graphs.scores` — :func:`compare`: SHD (DAG and CPDAG), skeleton and
  arrowhead precision/recall/F1, SID and adjustment identification distances.

Names resolve lazily, so importing the package costs nothing until a name is used.

>>> from causalcheck.graphs import read_graph, compare
>>> compare(read_graph("a -> b -> c"), read_graph("a -> b <- c")).shd
1
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS: dict[str, str] = {
    "CAUSALAB": "causalcheck.graphs.names",
    "Certificate": "causalcheck.graphs.kinds",
    "Comparison": "causalcheck.graphs.scores",
    "Confusion": "causalcheck.graphs.scores",
    "EDGE_TOKENS": "causalcheck.graphs.model",
    "EXACT": "causalcheck.graphs.names",
    "Graph": "causalcheck.graphs.model",
    "GraphEdge": "causalcheck.graphs.model",
    "Mark": "causalcheck.graphs.model",
    "NamePolicy": "causalcheck.graphs.names",
    "check_cpdag": "causalcheck.graphs.kinds",
    "check_dag": "causalcheck.graphs.kinds",
    "check_mag": "causalcheck.graphs.kinds",
    "check_pag": "causalcheck.graphs.kinds",
    "compare": "causalcheck.graphs.scores",
    "consistent_extension": "causalcheck.graphs.kinds",
    "cpdag_of": "causalcheck.graphs.kinds",
    "read_graph": "causalcheck.graphs.io",
    "validate": "causalcheck.graphs.kinds",
    "write_graph": "causalcheck.graphs.io",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'causalcheck.graphs' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:  # pragma: no cover  (redundant aliases mark re-exports)
    from causalcheck.graphs.io import read_graph as read_graph
    from causalcheck.graphs.io import write_graph as write_graph
    from causalcheck.graphs.kinds import Certificate as Certificate
    from causalcheck.graphs.kinds import check_cpdag as check_cpdag
    from causalcheck.graphs.kinds import check_dag as check_dag
    from causalcheck.graphs.kinds import check_mag as check_mag
    from causalcheck.graphs.kinds import check_pag as check_pag
    from causalcheck.graphs.kinds import consistent_extension as consistent_extension
    from causalcheck.graphs.kinds import cpdag_of as cpdag_of
    from causalcheck.graphs.kinds import validate as validate
    from causalcheck.graphs.model import EDGE_TOKENS as EDGE_TOKENS
    from causalcheck.graphs.model import Graph as Graph
    from causalcheck.graphs.model import GraphEdge as GraphEdge
    from causalcheck.graphs.model import Mark as Mark
    from causalcheck.graphs.names import CAUSALAB as CAUSALAB
    from causalcheck.graphs.names import EXACT as EXACT
    from causalcheck.graphs.names import NamePolicy as NamePolicy
    from causalcheck.graphs.scores import Comparison as Comparison
    from causalcheck.graphs.scores import Confusion as Confusion
    from causalcheck.graphs.scores import compare as compare
