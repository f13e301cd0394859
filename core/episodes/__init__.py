"""Episodes: every file an agent run leaves behind, read into one typed model.

An *episode* is one agent's attempt at one task: a sequence of steps, each with the record
the agent wrote (memory, thought, ``past_data``, hypothesis, experiment, action —
causalab-spec §3) and what the environment did with it.  Runs reach us in many layouts —
one record wrapped in prose, JSONL, JSON arrays, the official CausaLab ``raw_io.jsonl`` (concatenated
pretty-printed JSON), ``*_tracking*.jsonl`` files and seed folders, and our own lab
trajectories (``causalcheck-trajectory/1``) — and this layer is the only code that reads
them.  Every reader produces the same value, an :class:`EpisodeRecord` of :class:`Step` s whose
records were parsed **once** by the tolerant record parser (:mod:`causalcheck.parsing`)
into :class:`~causalcheck.records.StepRecord` s, or :class:`Unparsed` markers carrying the
reason.  ``causalcheck check`` (:mod:`causalcheck.checking`), ``lab score``
(:mod:`causalcheck.lab.score`), the evidence audit and the lab runner's summaries all
consume that model; none of them looks into a raw dict.

Modules, in reading order:

* :mod:`~causalcheck.episodes.model` — the types (:class:`EpisodeRecord`, :class:`Step`,
  :class:`ShownState`, :class:`Unparsed`) and the step-numbering rule;
* :mod:`~causalcheck.episodes.reading` — one step's output → record (memoised per episode);
* :mod:`~causalcheck.episodes.files` — reading files and JSON streams, a folder's record file;
* :mod:`~causalcheck.episodes.config` — the true graph config: validation, F*, golden trace;
* :mod:`~causalcheck.episodes.trajectory` — our lab trajectories (with a fast path);
* :mod:`~causalcheck.episodes.official` — official CausaLab seed folders;
* :mod:`~causalcheck.episodes.recordfiles` — record files without an environment;
* :mod:`~causalcheck.episodes.loading` — the entry points below.

Public API: :func:`read_episode` / :func:`episode_from_text` (anything → an episode, what
``check`` reads), :func:`load_records` / :func:`records_from_text` (just the numbered
records), :func:`discover_episodes` / :func:`load_episode` (what ``lab score`` reads),
:func:`load_run_folder`, :func:`read_trajectory` / :func:`trajectory_episode`, and the JSON
helpers :func:`read_json_values` / :func:`causalcheck.base.jsontext.iter_json_values`.

>>> ep = episode_from_text('{"step": 1, "raw_output": "{\\\\"action\\\\": \\\\"WAIT\\\\"}"}')
>>> ep.kind, [(s.index, s.label, s.record.action.name) for s in ep.steps]
('records', [(0, 1, 'WAIT')])
"""

from __future__ import annotations

from causalcheck.episodes.config import check_config, golden_entries, true_target_frequency
from causalcheck.episodes.files import find_record_file, read_input, read_json_values, read_text
from causalcheck.episodes.loading import (
    OWN_OUTPUTS,
    Discovered,
    DiscoveredKind,
    discover_episodes,
    discover_inputs,
    episode_from_text,
    load_episode,
    load_records,
    numbered_record,
    read_episode,
    records_from_text,
)
from causalcheck.episodes.model import (
    CHECK_NUMBERING,
    EPISODE_WARNING_CODES,
    SCORE_NUMBERING,
    EpisodeKind,
    EpisodeRecord,
    InputFile,
    Numbering,
    ShownState,
    Step,
    Unparsed,
    nonempty_hypothesis,
)
from causalcheck.episodes.official import is_run_folder, load_run_folder
from causalcheck.episodes.reading import RecordReader
from causalcheck.episodes.trajectory import (
    Trajectory,
    read_trajectory,
    trajectory_episode,
    trajectory_from_text,
)

__all__ = [
    "CHECK_NUMBERING",
    "EPISODE_WARNING_CODES",
    "OWN_OUTPUTS",
    "SCORE_NUMBERING",
    "Discovered",
    "DiscoveredKind",
    "EpisodeKind",
    "EpisodeRecord",
    "InputFile",
    "Numbering",
    "RecordReader",
    "ShownState",
    "Step",
    "Trajectory",
    "Unparsed",
    "check_config",
    "discover_episodes",
    "discover_inputs",
    "episode_from_text",
    "find_record_file",
    "golden_entries",
    "is_run_folder",
    "load_episode",
    "load_records",
    "load_run_folder",
    "nonempty_hypothesis",
    "numbered_record",
    "read_episode",
    "read_input",
    "read_json_values",
    "read_text",
    "read_trajectory",
    "records_from_text",
    "trajectory_episode",
    "trajectory_from_text",
    "true_target_frequency",
]
