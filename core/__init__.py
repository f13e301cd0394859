"""causalcheck — measure and verify how language models reason about causes.

The public API is re-exported here and imported lazily, so ``import causalcheck`` stays
fast; heavy dependencies (z3, causal-learn, spaCy, provider SDKs) load only when used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from causalcheck.lazy import lazy_exports

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "CODES": "causalcheck.codes",
    "Action": "causalcheck.records",
    "CausalCheckError": "causalcheck.errors",
    "CausalGraph": "causalcheck.graph",
    "Certificate": "causalcheck.graphs.kinds",
    "CheckReport": "causalcheck.diagnostics",
    "Comparison": "causalcheck.graphs.scores",
    "DSLSyntaxError": "causalcheck.errors",
    "DataPoint": "causalcheck.records",
    "Diagnostic": "causalcheck.diagnostics",
    "Edge": "causalcheck.graph",
    "Experiment": "causalcheck.records",
    "FindingCode": "causalcheck.codes",
    "FREQ": "causalcheck.graph",
    "Graph": "causalcheck.graphs.model",
    "GraphEdge": "causalcheck.graphs.model",
    "Hypothesis": "causalcheck.records",
    "InputFormatError": "causalcheck.errors",
    "Intervention": "causalcheck.records",
    "Mark": "causalcheck.graphs.model",
    "NamePolicy": "causalcheck.graphs.names",
    "StepRecord": "causalcheck.records",
    "check": "causalcheck.checking",
    "check_hypothesis": "causalcheck.checking",
    "compare": "causalcheck.graphs.scores",
    "format_hypothesis": "causalcheck.parsing",
    "normalize_node": "causalcheck.graph",
    "parse_equation": "causalcheck.parsing",
    "parse_hypothesis": "causalcheck.parsing",
    "parse_record": "causalcheck.parsing",
    "read_graph": "causalcheck.graphs.io",
    "write_graph": "causalcheck.graphs.io",
}

__all__ = sorted([*_EXPORTS, "__version__"])


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)


if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.checking import check, check_hypothesis
    from causalcheck.codes import CODES, FindingCode
    from causalcheck.diagnostics import CheckReport, Diagnostic
    from causalcheck.errors import CausalCheckError, DSLSyntaxError, InputFormatError
    from causalcheck.graph import FREQ, CausalGraph, Edge, normalize_node
    from causalcheck.graphs.io import read_graph, write_graph
    from causalcheck.graphs.kinds import Certificate
    from causalcheck.graphs.model import Graph, GraphEdge, Mark
    from causalcheck.graphs.names import NamePolicy
    from causalcheck.graphs.scores import Comparison, compare
    from causalcheck.parsing import (
        format_hypothesis,
        parse_equation,
        parse_hypothesis,
        parse_record,
    )
    from causalcheck.records import (
        Action,
        DataPoint,
        Experiment,
        Hypothesis,
        Intervention,
        StepRecord,
    )
