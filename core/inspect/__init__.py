"""causalcheck inside inspect_ai: the ``causalcheck/whatif`` and ``causalcheck/lab`` tasks, their solvers and scorers.

Needs the optional extra: ``pip install 'causalcheck[inspect]'``; nothing else in causalcheck
imports this package, so without it causalcheck is unchanged.

* tasks (:mod:`~causalcheck.inspect.tasks`, found by ``inspect eval causalcheck/whatif`` and
  ``inspect eval causalcheck/lab`` through causalcheck's ``inspect_ai`` entry point):
  :func:`whatif`, :func:`lab`;
* for your own tasks: :func:`whatif_dataset`, :func:`prism_scorer` + :func:`prism_metrics`
  (:mod:`~causalcheck.inspect.whatif`); :func:`lab_dataset`, :func:`lab_agent` (a solver),
  :func:`lab_scorer` + :func:`lab_metrics`, :func:`episode_config` (:mod:`~causalcheck.inspect.lab`);
* offline models (:mod:`~causalcheck.inspect.providers`): ``causalcheck/planner``,
  ``causalcheck/random``, ``causalcheck/observational`` play the lab; ``causalcheck/replay``
  answers what-if items from a file; :func:`mark_item` names a sample's item for it;
* :class:`InspectLLM` (:mod:`~causalcheck.inspect.model`): an inspect model as causalcheck's
  ``LLM`` protocol, for any causalcheck component that takes a model.

This package is the home of the code that runs *inside* inspect_ai (the only one importing
inspect_ai at module level); the logs these tasks write are read back by ``causalcheck lab
score LOG`` and ``causalcheck explain score --answers LOG`` through the one log reader,
:mod:`causalcheck.episodes.inspect_logs` (reading layer; it imports inspect_ai only inside the
function that reads a log, and defines the sample-metadata keys the tasks write).
"""

from __future__ import annotations

from causalcheck.base.errors import missing_extra

try:
    import inspect_ai  # noqa: F401
except ImportError:  # pragma: no cover - exercised in a subprocess without the extra
    raise missing_extra("causalcheck.inspect", "inspect_ai") from None

from causalcheck.inspect.lab import episode_config, lab_agent, lab_dataset, lab_metrics, lab_scorer
from causalcheck.inspect.model import InspectLLM
from causalcheck.inspect.providers import mark_item
from causalcheck.inspect.tasks import lab, whatif
from causalcheck.inspect.whatif import prism_metrics, prism_scorer, whatif_dataset

__all__ = [
    "InspectLLM",
    "episode_config",
    "lab",
    "lab_agent",
    "lab_dataset",
    "lab_metrics",
    "lab_scorer",
    "mark_item",
    "prism_metrics",
    "prism_scorer",
    "whatif",
    "whatif_dataset",
]
