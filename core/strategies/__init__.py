"""Hypothesis strategies for every value causalcheck defines and the shapes the field uses.

Property-based tests of a scoring rule need inputs that are *valid* (a DAG is acyclic, a
suite record compiles, a drifted record still parses) and that *shrink* (a failure is
reported on the smallest input that shows it).  The strategies here are the ones
causalcheck's own property tests use; each module's docstring lists what it draws:

* :mod:`~causalcheck.strategies.names` — node names, with the awkward ones (unicode, blanks,
  case variants) and CausaLab's frequency aliases;
* :mod:`~causalcheck.strategies.graphs` — DAGs (size, density, in-degree), PDAGs, CPDAGs,
  PAGs, and (truth, estimate) pairs with *k* edits that are reported;
* :mod:`~causalcheck.strategies.lab` — CausaLab SCM records (linear, quadratic, FreqParent,
  hidden disturbance), data sampled from them, hypotheses, step records clean or drifted,
  trajectories and official run folders written to a temporary path;
* :mod:`~causalcheck.strategies.explain` — explanation graphs, judged graphs, rubric
  scores, EDU sequences and what-if answers with known cue structure;
* :mod:`~causalcheck.strategies.texts` — graph texts in every supported format.

hypothesis is an optional extra: ``pip install 'causalcheck[testing]'``.  Without it,
importing this package raises :class:`causalcheck.base.errors.MissingExtraError` (an
``ImportError``) whose message is that one line.

>>> from hypothesis import given
>>> from causalcheck.testing import settings_for  # the kit's profile: derandomised, no too_slow health check
>>> @settings_for("ci", max_examples=25)
... @given(graph_pairs(dags(min_nodes=2, min_edges=1), reversed=1, added=0, removed=0))
... def test_one_reversal_is_one_edit(pair):
...     assert len(pair.edits) == 1 and pair.truth.skeleton == pair.estimate.skeleton
>>> test_one_reversal_is_one_edit()
"""

from __future__ import annotations

from causalcheck.base.errors import has_package, missing_extra

if not has_package("hypothesis"):  # raised here, not in a helper: the traceback is this line and the import
    raise missing_extra("causalcheck.strategies", "hypothesis")

from causalcheck.strategies.explain import (
    CUE_TEMPLATES,
    GeneratedAnswer,
    JudgedGraph,
    criterion_scores,
    edu_sequences,
    explanation_graphs,
    judged_graphs,
    whatif_answers,
)
from causalcheck.strategies.graphs import (
    Edit,
    GraphPair,
    apply_edit,
    cpdags,
    dags,
    edge_lists,
    graph_pairs,
    pags,
    pdags,
    with_duplicate,
    with_self_loop,
)
from causalcheck.strategies.lab import (
    DRIFTS,
    RecordSample,
    SCMSample,
    hypotheses,
    run_folders,
    scm_samples,
    step_records,
    suite_records,
    trajectories,
    trajectory_files,
)
from causalcheck.strategies.names import (
    AWKWARD_NAMES,
    CAUSALAB_PROPERTIES,
    FREQUENCY_SPELLINGS,
    confusables,
    distinct_under,
    frequency_aliases,
    identifiers,
    name_lists,
    node_names,
    spellings,
)
from causalcheck.strategies.texts import FORMAT_LIMITS, GraphText, any_graphs, graph_texts

__all__ = [
    "AWKWARD_NAMES",
    "CAUSALAB_PROPERTIES",
    "CUE_TEMPLATES",
    "DRIFTS",
    "FORMAT_LIMITS",
    "FREQUENCY_SPELLINGS",
    "Edit",
    "GeneratedAnswer",
    "GraphPair",
    "GraphText",
    "JudgedGraph",
    "RecordSample",
    "SCMSample",
    "any_graphs",
    "apply_edit",
    "confusables",
    "cpdags",
    "criterion_scores",
    "dags",
    "distinct_under",
    "edge_lists",
    "edu_sequences",
    "explanation_graphs",
    "frequency_aliases",
    "graph_pairs",
    "graph_texts",
    "hypotheses",
    "identifiers",
    "judged_graphs",
    "name_lists",
    "node_names",
    "pags",
    "pdags",
    "run_folders",
    "scm_samples",
    "spellings",
    "step_records",
    "suite_records",
    "trajectories",
    "trajectory_files",
    "whatif_answers",
    "with_duplicate",
    "with_self_loop",
]
