"""A testing kit for scoring rules: property suites, regression snapshots, a pytest plugin.

Property-based regression testing of a scoring rule — your SHD, your edge F1, your PM —
in a few calls, with causalcheck's strategies (:mod:`causalcheck.strategies`) drawing the
inputs and causalcheck's own metrics as references:

* :func:`check_graph_metric` — distances, similarities, precisions, recalls and F1s of two
  graphs (bounds, identity, empty sets, symmetry, renaming, reordering, the name policy, what
  single edits do, self-loops / duplicates / isolated nodes ignored or refused, agreement with
  a reference under a stated convention — gadjid's SID among them);
* :func:`check_coefficient_metric` — coefficient ("weight") F1, precision or recall of a
  CausaLab hypothesis, or of plain ``{(cause, effect): weight}`` dicts;
* :func:`check_explanation_scorer` — PRISM-style PM, RM, Final and end-to-end answer scorers;
* :func:`check_parser_total` — a parser raises nothing but its documented error;
* :func:`check_round_trip` — ``parse(format(x)) == x`` and a stable printed text;
* :func:`check_edge_parser` — an edge parser keeps every edge and every name exactly (blanks,
  case, unicode, combining marks, right-to-left, emoji, NFC vs NFD, edge syntax in names);
* :func:`snapshot` / :func:`corpus` — record a rule's outputs on a seeded corpus and report
  every changed output with its input on later runs (``causalcheck snapshot`` does the same
  for a scoring command outside Python);
* :mod:`causalcheck.testing.plugin` — pytest fixtures (``causalcheck_graph``,
  ``named_causal_graph``) and the ``causalcheck_profile`` setting.

Each suite is one call that raises an ``AssertionError``
(:class:`~causalcheck.testing.runner.PropertyFailure`) naming the property and showing the
shrunk counterexample, both outputs and the convention; it runs under the hypothesis
settings of a profile (:mod:`causalcheck.testing.profiles`: ``ci`` 50 derandomized
examples per property, ``dev`` 200, ``thorough`` 2000).  The suites need the ``testing``
extra (hypothesis); importing this package does not.

>>> from causalcheck.metrics import edge_prf
>>> from causalcheck.testing import check_graph_metric
>>> report = check_graph_metric(lambda t, e: edge_prf(e, t, names="exact").f1, "similarity", reference="edge-f1", max_examples=10)
>>> report.suite, "reference" in report.properties
('check_graph_metric', True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from causalcheck.base.lazy import lazy_exports

_EXPORTS: dict[str, tuple[str, ...]] = {
    "causalcheck.testing.coefficients": ("check_coefficient_metric",),
    "causalcheck.testing.explanation": ("check_explanation_scorer",),
    "causalcheck.base.errors": ("MissingExtraError",),
    "causalcheck.testing.graph_metric": ("REFERENCES", "GraphMetricOptions", "check_graph_metric"),
    "causalcheck.testing.parsers": ("check_edge_parser", "check_parser_total", "check_round_trip"),
    "causalcheck.testing.profiles": ("PROFILES", "settings_for"),
    "causalcheck.testing.runner": ("PropertyFailure", "SuiteReport"),
    "causalcheck.testing.snapshots": (
        "Corpus", "KINDS", "SnapshotMismatch", "SnapshotReport", "corpus", "snapshot",
    ),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover  (the same names for the type checker; aliases mark re-exports)
    from causalcheck.base.errors import MissingExtraError as MissingExtraError
    from causalcheck.testing.coefficients import (
        check_coefficient_metric as check_coefficient_metric,
    )
    from causalcheck.testing.explanation import check_explanation_scorer as check_explanation_scorer
    from causalcheck.testing.graph_metric import REFERENCES as REFERENCES
    from causalcheck.testing.graph_metric import GraphMetricOptions as GraphMetricOptions
    from causalcheck.testing.graph_metric import check_graph_metric as check_graph_metric
    from causalcheck.testing.parsers import check_edge_parser as check_edge_parser
    from causalcheck.testing.parsers import check_parser_total as check_parser_total
    from causalcheck.testing.parsers import check_round_trip as check_round_trip
    from causalcheck.testing.profiles import PROFILES as PROFILES
    from causalcheck.testing.profiles import settings_for as settings_for
    from causalcheck.testing.runner import PropertyFailure as PropertyFailure
    from causalcheck.testing.runner import SuiteReport as SuiteReport
    from causalcheck.testing.snapshots import KINDS as KINDS
    from causalcheck.testing.snapshots import Corpus as Corpus
    from causalcheck.testing.snapshots import SnapshotMismatch as SnapshotMismatch
    from causalcheck.testing.snapshots import SnapshotReport as SnapshotReport
    from causalcheck.testing.snapshots import corpus as corpus
    from causalcheck.testing.snapshots import snapshot as snapshot
