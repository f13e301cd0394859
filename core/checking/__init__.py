"""Check: verify causal hypotheses, step records and whole agent trajectories, offline.

``causalcheck.check`` (this package's :func:`check`) accepts anything that holds hypotheses —
a path, text, a :class:`~causalcheck.records.Hypothesis`, a
:class:`~causalcheck.records.StepRecord`, a list of records, an
:class:`~causalcheck.episodes.Episode` — and returns one
:class:`~causalcheck.diagnostics.CheckReport`, or one per step for trajectories.  A step is
checked against its *own* ``past_data`` (the evidence the agent wrote down); every finding
is a :class:`~causalcheck.diagnostics.Diagnostic` whose ``code`` is in the registry
:data:`FINDING_CODES` (table below).

The package reads the way :mod:`causalcheck.lab` and :mod:`causalcheck.explain` do — data
in, stages, results out, command line last:

* data in — :mod:`~causalcheck.checking.inputs` (paths, ``example:<name>``, text, dicts;
  records are read by :mod:`causalcheck.episodes`);
* stages — :mod:`~causalcheck.checking.hypothesis` (every solver on one hypothesis, a record
  against its own evidence), :mod:`~causalcheck.checking.trajectory` (findings across
  steps), :mod:`~causalcheck.checking.examples` (the bundled examples);
* :mod:`~causalcheck.checking.api` — :func:`check`, the front door that dispatches on the input;
* :mod:`~causalcheck.checking.folder` — :func:`check_folder`, every checkable file of a folder;
* results out — :mod:`~causalcheck.checking.report` (text lines, the ``--json`` payload) and
  :mod:`~causalcheck.checking.codes` (the finding-code registry);
* :mod:`~causalcheck.checking.cli` — ``causalcheck check PATH``.

Names are imported lazily, so the command line's ``--help`` stays fast.

Finding codes (from :data:`FINDING_CODES`):

"""

from __future__ import annotations

from typing import TYPE_CHECKING

from causalcheck.checking.codes import codes_table
from causalcheck.lazy import lazy_exports

__doc__ = (__doc__ or "") + codes_table() + "\n"

_EXPORTS: dict[str, str] = {
    "FINDING_CODES": "causalcheck.checking.codes",
    "FindingCode": "causalcheck.checking.codes",
    "check": "causalcheck.checking.api",
    "check_hypotheses": "causalcheck.checking.api",
    "FolderCheck": "causalcheck.checking.folder",
    "check_episode": "causalcheck.checking.trajectory",
    "check_folder": "causalcheck.checking.folder",
    "check_hypothesis": "causalcheck.checking.hypothesis",
    "check_record": "causalcheck.checking.hypothesis",
    "check_trajectory": "causalcheck.checking.trajectory",
    "codes_table": "causalcheck.checking.codes",
    "example_names": "causalcheck.checking.examples",
    "example_path": "causalcheck.checking.examples",
    "first_data_conflict": "causalcheck.checking.trajectory",
    "load_checkable": "causalcheck.checking.inputs",
    "render_text": "causalcheck.checking.report",
    "report_payload": "causalcheck.checking.report",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)


if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.checking.api import check as check
    from causalcheck.checking.codes import FINDING_CODES as FINDING_CODES
    from causalcheck.checking.codes import FindingCode as FindingCode
    from causalcheck.checking.examples import example_names as example_names
    from causalcheck.checking.examples import example_path as example_path
    from causalcheck.checking.folder import FolderCheck as FolderCheck
    from causalcheck.checking.folder import check_folder as check_folder
    from causalcheck.checking.hypothesis import check_hypothesis as check_hypothesis
    from causalcheck.checking.hypothesis import check_record as check_record
    from causalcheck.checking.inputs import load_checkable as load_checkable
    from causalcheck.checking.report import render_text as render_text
    from causalcheck.checking.report import report_payload as report_payload
    from causalcheck.checking.trajectory import check_episode as check_episode
    from causalcheck.checking.trajectory import check_trajectory as check_trajectory
    from causalcheck.checking.trajectory import first_data_conflict as first_data_conflict
