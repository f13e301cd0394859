"""Check: verify causal hypotheses, step records and whole agent trajectories, offline.

``causalcheck.check`` (this package's :func:`check`) accepts anything that holds hypotheses —
a path, text, a :class:`~causalcheck.records.Hypothesis`, a
:class:`~causalcheck.records.StepRecord`, a list of records, an
:class:`~causalcheck.episodes.EpisodeRecord`, a folder — or a causal graph — and returns one
:class:`~causalcheck.findings.Report`; a trajectory's report has one part per step, a
folder's one part per checked file.  A step is checked against its *own* ``past_data`` (the
evidence the agent wrote down); every finding is a :class:`~causalcheck.findings.Finding`
whose ``code`` is in the registry :data:`FINDING_CODES` (table below); ``report.ok`` is true
when no finding is an error.

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

from causalcheck.base.lazy import lazy_exports
from causalcheck.checking.codes import codes_table

__doc__ = (__doc__ or "") + codes_table() + "\n"

_EXPORTS: dict[str, tuple[str, ...]] = {
    "causalcheck.checking.api": ("check", "check_hypotheses"),
    "causalcheck.checking.codes": ("FINDING_CODES", "FindingCode", "codes_table"),
    "causalcheck.checking.examples": ("example_names", "example_path"),
    "causalcheck.checking.folder": ("FolderCheck", "check_folder", "check_input", "require_checked"),
    "causalcheck.checking.hypothesis": ("check_hypothesis", "check_record"),
    "causalcheck.checking.inputs": ("load_checkable",),
    "causalcheck.checking.report": ("render_text", "report_payload", "shown_reports"),
    "causalcheck.checking.trajectory": ("check_episode", "check_trajectory", "first_data_conflict"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover  (the same names for the type checker; aliases mark re-exports)
    from causalcheck.checking.api import check as check
    from causalcheck.checking.api import check_hypotheses as check_hypotheses
    from causalcheck.checking.codes import FINDING_CODES as FINDING_CODES
    from causalcheck.checking.codes import FindingCode as FindingCode
    from causalcheck.checking.codes import codes_table as codes_table
    from causalcheck.checking.examples import example_names as example_names
    from causalcheck.checking.examples import example_path as example_path
    from causalcheck.checking.folder import FolderCheck as FolderCheck
    from causalcheck.checking.folder import check_folder as check_folder
    from causalcheck.checking.folder import check_input as check_input
    from causalcheck.checking.folder import require_checked as require_checked
    from causalcheck.checking.hypothesis import check_hypothesis as check_hypothesis
    from causalcheck.checking.hypothesis import check_record as check_record
    from causalcheck.checking.inputs import load_checkable as load_checkable
    from causalcheck.checking.report import render_text as render_text
    from causalcheck.checking.report import report_payload as report_payload
    from causalcheck.checking.report import shown_reports as shown_reports
    from causalcheck.checking.trajectory import check_episode as check_episode
    from causalcheck.checking.trajectory import check_trajectory as check_trajectory
    from causalcheck.checking.trajectory import first_data_conflict as first_data_conflict
