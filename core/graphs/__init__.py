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
* :mod:`~causalcheck.graphs.validator` — :func:`validate_graph`: the graph against data
  (:mod:`~causalcheck.graphs.separation`, :mod:`~causalcheck.graphs.citests`,
  :mod:`~causalcheck.graphs.falsify`, :mod:`~causalcheck.graphs.structural`), a truth,
  interventions (:mod:`~causalcheck.graphs.coverage`) and background knowledge
  (:mod:`~causalcheck.graphs.background`); finding codes in :mod:`~causalcheck.graphs.codes`.

Names resolve lazily, so importing the package costs nothing until a name is used.

>>> from causalcheck.graphs import read_graph, compare
>>> compare(read_graph("a -> b -> c"), read_graph("a -> b <- c")).shd
1
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from causalcheck.base.lazy import lazy_exports

_EXPORTS: dict[str, tuple[str, ...]] = {
    "causalcheck.graphs.background": ("Knowledge", "check_knowledge", "read_knowledge"),
    "causalcheck.graphs.codes": ("VALIDATOR_CODES",),
    "causalcheck.graphs.coverage": ("intervention_coverage",),
    "causalcheck.graphs.data": ("load_data",),
    "causalcheck.graphs.falsify": ("falsify",),
    "causalcheck.graphs.io": ("read_graph", "write_graph"),
    "causalcheck.graphs.kinds": (
        "Certificate", "check_cpdag", "check_dag", "check_mag", "check_pag", "consistent_extension",
        "cpdag_of", "validate",
    ),
    "causalcheck.graphs.model": ("EDGE_TOKENS", "Graph", "GraphEdge", "Mark"),
    "causalcheck.graphs.names": ("CAUSALAB", "EXACT", "NamePolicy"),
    "causalcheck.graphs.scores": ("Comparison", "Confusion", "compare"),
    "causalcheck.graphs.separation": ("CIStatement", "implied_independencies", "m_separated"),
    "causalcheck.graphs.validator": ("Finding", "GraphValidation", "validate_graph"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover  (the same names for the type checker; aliases mark re-exports)
    from causalcheck.graphs.background import Knowledge as Knowledge
    from causalcheck.graphs.background import check_knowledge as check_knowledge
    from causalcheck.graphs.background import read_knowledge as read_knowledge
    from causalcheck.graphs.codes import VALIDATOR_CODES as VALIDATOR_CODES
    from causalcheck.graphs.coverage import intervention_coverage as intervention_coverage
    from causalcheck.graphs.data import load_data as load_data
    from causalcheck.graphs.falsify import falsify as falsify
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
    from causalcheck.graphs.separation import CIStatement as CIStatement
    from causalcheck.graphs.separation import implied_independencies as implied_independencies
    from causalcheck.graphs.separation import m_separated as m_separated
    from causalcheck.graphs.validator import Finding as Finding
    from causalcheck.graphs.validator import GraphValidation as GraphValidation
    from causalcheck.graphs.validator import validate_graph as validate_graph
