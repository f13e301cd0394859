"""causalcheck — measure and verify how language models reason about causes.

The public API is re-exported here and imported lazily, so ``import causalcheck`` stays
fast; heavy dependencies (z3, causal-learn, spaCy, provider SDKs) load only when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from causalcheck.base.lazy import lazy_exports
from causalcheck.base.version import __version__

_EXPORTS: dict[str, tuple[str, ...]] = {
    "causalcheck.checking": ("check", "check_hypothesis"),
    "causalcheck.base.codes": ("CODES", "FindingCode"),
    "causalcheck.base.errors": ("CausalCheckError", "DSLSyntaxError", "InputFormatError"),
    "causalcheck.findings": ("Finding", "Report"),
    "causalcheck.graph": ("CausalGraph", "Edge", "FREQ", "normalize_node"),
    "causalcheck.graphs.io": ("read_graph", "write_graph"),
    "causalcheck.graphchecks.kinds": ("Certificate",),
    "causalcheck.graphs.model": ("Graph", "GraphEdge", "Mark"),
    "causalcheck.graphs.names": ("NamePolicy",),
    "causalcheck.graphchecks.scores": ("Comparison", "compare"),
    "causalcheck.parsing": (
        "format_hypothesis", "parse_equation", "parse_hypothesis", "parse_record",
    ),
    "causalcheck.records": (
        "Action", "DataPoint", "Experiment", "Hypothesis", "Intervention", "StepRecord",
    ),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS, also=("__version__",))


if TYPE_CHECKING:  # pragma: no cover  (the same names for the type checker; aliases mark re-exports)
    from causalcheck.base.codes import CODES as CODES
    from causalcheck.base.codes import FindingCode as FindingCode
    from causalcheck.base.errors import CausalCheckError as CausalCheckError
    from causalcheck.base.errors import DSLSyntaxError as DSLSyntaxError
    from causalcheck.base.errors import InputFormatError as InputFormatError
    from causalcheck.checking import check as check
    from causalcheck.checking import check_hypothesis as check_hypothesis
    from causalcheck.findings import Finding as Finding
    from causalcheck.findings import Report as Report
    from causalcheck.graph import FREQ as FREQ
    from causalcheck.graph import CausalGraph as CausalGraph
    from causalcheck.graph import Edge as Edge
    from causalcheck.graph import normalize_node as normalize_node
    from causalcheck.graphchecks.kinds import Certificate as Certificate
    from causalcheck.graphchecks.scores import Comparison as Comparison
    from causalcheck.graphchecks.scores import compare as compare
    from causalcheck.graphs.io import read_graph as read_graph
    from causalcheck.graphs.io import write_graph as write_graph
    from causalcheck.graphs.model import Graph as Graph
    from causalcheck.graphs.model import GraphEdge as GraphEdge
    from causalcheck.graphs.model import Mark as Mark
    from causalcheck.graphs.names import NamePolicy as NamePolicy
    from causalcheck.parsing import format_hypothesis as format_hypothesis
    from causalcheck.parsing import parse_equation as parse_equation
    from causalcheck.parsing import parse_hypothesis as parse_hypothesis
    from causalcheck.parsing import parse_record as parse_record
    from causalcheck.records import Action as Action
    from causalcheck.records import DataPoint as DataPoint
    from causalcheck.records import Experiment as Experiment
    from causalcheck.records import Hypothesis as Hypothesis
    from causalcheck.records import Intervention as Intervention
    from causalcheck.records import StepRecord as StepRecord
