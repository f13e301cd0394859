"""Checks of general graphs, built on the solvers: what :mod:`causalcheck.graphs` holds is checked here.

The graph values, names, conversions, file formats, background knowledge and data tables live in
:mod:`causalcheck.graphs`, below :mod:`causalcheck.solvers`; the checks that need the solvers live
in this package, above them:

* :mod:`~causalcheck.graphchecks.kinds` — what kind of graph the marks make (DAG, CPDAG, MAG, PAG),
  with certificates;
* :mod:`~causalcheck.graphchecks.separation` — d- and m-separation, implied independencies, minimal
  separators and Markov blankets;
* :mod:`~causalcheck.graphchecks.adjustment` — adjustment sets for an exposure and an outcome;
* :mod:`~causalcheck.graphchecks.citests` and :mod:`~causalcheck.graphchecks.falsify` — conditional
  independence tests and the permutation test of a graph against data;
* :mod:`~causalcheck.graphchecks.structural` — structural-equation fits;
* :mod:`~causalcheck.graphchecks.coverage` — interventional Markov equivalence and the next
  intervention;
* :mod:`~causalcheck.graphchecks.scores` — ``compare``: SHD, confusions, SID / AID;
* :mod:`~causalcheck.graphchecks.validator` — ``validate_graph``, all of them in one report;
* :mod:`~causalcheck.graphchecks.named` — the small named graphs of the literature;
* :mod:`~causalcheck.graphchecks.cli` — ``causalcheck check GRAPH`` and ``compare``.

Their public names are exported by the front door :mod:`causalcheck.graphs` (``from causalcheck.graphs
import validate_graph, compare``), which loads these modules when a name is first used.
"""

from __future__ import annotations

__all__: list[str] = []
