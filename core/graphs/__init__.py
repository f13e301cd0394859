"""General causal graphs: edge marks, graph kinds with certificates, adapters, formats, metrics.

This subpackage is the validator for the output of any causal-discovery tool (causal-learn,
gCastle, lingam, pgmpy, DoWhy, a hand-written networkx graph):

* :mod:`~causalcheck.graphs.model` — :class:`Graph`, :class:`GraphEdge`, :class:`Mark`:
  ``->``, ``--``, ``<->``, ``o->``, ``o-o``, ``o--``; names kept exactly.
* :mod:`~causalcheck.graphs.names` — :class:`NamePolicy` dialects (:data:`EXACT`, :data:`CAUSALAB`).
* :mod:`~causalcheck.graphchecks.kinds` — DAG / CPDAG / MAG / PAG checks returning a
  :class:`Certificate` (the failing edge and rule), Dor–Tarsi extensions, CPDAGs.
* :mod:`~causalcheck.graphs.convert` — networkx, causal-learn, NumPy/pandas, pgmpy adapters.
* :mod:`~causalcheck.graphs.formats` / :mod:`~causalcheck.graphs.io` — text, dagitty, DOT, GML,
  causal-learn text, CSV edge lists and adjacency matrices, JSON; :func:`read_graph`,
  :func:`write_graph`.
* :mod:`~causalcheck.graphchecks.scores` — :func:`compare`: SHD (DAG and CPDAG), skeleton and
  arrowhead precision/recall/F1, SID and adjustment identification distances.
* :mod:`~causalcheck.graphchecks.validator` — :func:`validate_graph`: the graph against data
  (:mod:`~causalcheck.graphchecks.separation`, :mod:`~causalcheck.graphchecks.citests`,
  :mod:`~causalcheck.graphchecks.falsify`, :mod:`~causalcheck.graphchecks.structural`), a truth,
  interventions (:mod:`~causalcheck.graphchecks.coverage`) and background knowledge
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
    "causalcheck.graphchecks.coverage": ("intervention_coverage",),
    "causalcheck.graphs.data": ("load_data",),
    "causalcheck.graphchecks.falsify": ("falsify",),
    "causalcheck.graphchecks.globalfit": ("GlobalFit", "fisher_c"),
    "causalcheck.graphchecks.pag": ("pag_of",),
    "causalcheck.graphs.io": ("read_graph", "write_graph"),
    "causalcheck.graphchecks.kinds": (
        "Certificate", "check_cpdag", "check_dag", "check_mag", "check_pag", "consistent_extension",
        "cpdag_of", "validate",
    ),
    "causalcheck.graphs.model": ("EDGE_TOKENS", "Graph", "GraphEdge", "Mark"),
    "causalcheck.graphs.names": ("CAUSALAB", "EXACT", "NamePolicy"),
    "causalcheck.graphchecks.scores": ("Comparison", "Confusion", "compare"),
    "causalcheck.graphchecks.separation": (
        "CIStatement", "MarkovBlanket", "MinimalSeparator", "find_minimal_separator", "implied_independencies",
        "is_minimal_separator", "m_separated", "markov_blanket",
    ),
    "causalcheck.graphchecks.adjustment": ("AdjustmentCheck", "AdjustmentSets", "adjustment_sets", "is_adjustment_set"),
    "causalcheck.graphchecks.validator": ("Finding", "GraphValidation", "ValidationOptions", "validate_graph"),
    "causalcheck.solvers.equivalence": ("MeekClosure", "MeekConflictError", "meek_closure"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover  (the same names for the type checker; aliases mark re-exports)
    from causalcheck.graphchecks.adjustment import AdjustmentCheck as AdjustmentCheck
    from causalcheck.graphchecks.adjustment import AdjustmentSets as AdjustmentSets
    from causalcheck.graphchecks.adjustment import adjustment_sets as adjustment_sets
    from causalcheck.graphchecks.adjustment import is_adjustment_set as is_adjustment_set
    from causalcheck.graphchecks.coverage import intervention_coverage as intervention_coverage
    from causalcheck.graphchecks.falsify import falsify as falsify
    from causalcheck.graphchecks.globalfit import GlobalFit as GlobalFit
    from causalcheck.graphchecks.globalfit import fisher_c as fisher_c
    from causalcheck.graphchecks.kinds import Certificate as Certificate
    from causalcheck.graphchecks.kinds import check_cpdag as check_cpdag
    from causalcheck.graphchecks.kinds import check_dag as check_dag
    from causalcheck.graphchecks.kinds import check_mag as check_mag
    from causalcheck.graphchecks.kinds import check_pag as check_pag
    from causalcheck.graphchecks.kinds import consistent_extension as consistent_extension
    from causalcheck.graphchecks.kinds import cpdag_of as cpdag_of
    from causalcheck.graphchecks.kinds import validate as validate
    from causalcheck.graphchecks.pag import pag_of as pag_of
    from causalcheck.graphchecks.scores import Comparison as Comparison
    from causalcheck.graphchecks.scores import Confusion as Confusion
    from causalcheck.graphchecks.scores import compare as compare
    from causalcheck.graphchecks.separation import CIStatement as CIStatement
    from causalcheck.graphchecks.separation import MarkovBlanket as MarkovBlanket
    from causalcheck.graphchecks.separation import MinimalSeparator as MinimalSeparator
    from causalcheck.graphchecks.separation import find_minimal_separator as find_minimal_separator
    from causalcheck.graphchecks.separation import implied_independencies as implied_independencies
    from causalcheck.graphchecks.separation import is_minimal_separator as is_minimal_separator
    from causalcheck.graphchecks.separation import m_separated as m_separated
    from causalcheck.graphchecks.separation import markov_blanket as markov_blanket
    from causalcheck.graphchecks.validator import Finding as Finding
    from causalcheck.graphchecks.validator import GraphValidation as GraphValidation
    from causalcheck.graphchecks.validator import ValidationOptions as ValidationOptions
    from causalcheck.graphchecks.validator import validate_graph as validate_graph
    from causalcheck.graphs.background import Knowledge as Knowledge
    from causalcheck.graphs.background import check_knowledge as check_knowledge
    from causalcheck.graphs.background import read_knowledge as read_knowledge
    from causalcheck.graphs.codes import VALIDATOR_CODES as VALIDATOR_CODES
    from causalcheck.graphs.data import load_data as load_data
    from causalcheck.graphs.io import read_graph as read_graph
    from causalcheck.graphs.io import write_graph as write_graph
    from causalcheck.graphs.model import EDGE_TOKENS as EDGE_TOKENS
    from causalcheck.graphs.model import Graph as Graph
    from causalcheck.graphs.model import GraphEdge as GraphEdge
    from causalcheck.graphs.model import Mark as Mark
    from causalcheck.graphs.names import CAUSALAB as CAUSALAB
    from causalcheck.graphs.names import EXACT as EXACT
    from causalcheck.graphs.names import NamePolicy as NamePolicy
    from causalcheck.solvers.equivalence import MeekClosure as MeekClosure
    from causalcheck.solvers.equivalence import MeekConflictError as MeekConflictError
    from causalcheck.solvers.equivalence import meek_closure as meek_closure
