"""The typed episode: what every reader of :mod:`causalcheck.episodes` produces.

An :class:`EpisodeRecord` is one agent's run through one task, whatever file it came from.  Its
:class:`Step` s hold the agent's record, parsed **once** by the tolerant record parser into a
:class:`~causalcheck.records.StepRecord` — or, when the model output holds no record, an
:class:`Unparsed` marker that carries the reason — plus what the environment did with it
(the intervention it executed, the value submitted to the reactor).  Around the steps the
episode keeps what the scorer and the evidence audit need: the true graph config, every
state the environment *showed* and from which step on (:class:`ShownState`), the golden
trace entries of the suite, the reactor crystal, the outcome and the budgets.

Files without an environment (one record, JSONL of records, ``raw_io.jsonl`` alone) give an
episode of ``kind="records"``: steps only, no config.

**Step numbering.**  A step has two numbers, kept apart on purpose:

* :attr:`Step.index` — its 0-based position in the episode (the only number code relies on);
* :attr:`Step.label` — what the file called the step (``raw_io`` counts from 1, the
  trajectory format's own ``step`` field from 0, JSONL records may have none: ``None``).

:meth:`Step.number` turns them into the number people see.  Every output counts steps from
1 — the official ``raw_io`` numbering and ``lab score``'s: the two constants
:data:`CHECK_NUMBERING` (``causalcheck check``) and :data:`SCORE_NUMBERING` (``lab score`` and
the audit) are both ``"position"``, the single switch for that convention.  The trajectory
files keep their own 0-based ``step`` field (that is their format); a reader that finds
labels with gaps warns (steps were removed) instead of renumbering silently.

>>> s = Step(index=0, label=0)
>>> s.number(CHECK_NUMBERING), s.number(SCORE_NUMBERING)
(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from causalcheck.base.errors import CausalCheckError, InputFormatError, Notice
from causalcheck.records import DataPoint, Hypothesis, StepRecord

__all__ = [
    "CHECK_NUMBERING",
    "EPISODE_WARNING_CODES",
    "SCORE_NUMBERING",
    "EpisodeKind",
    "EpisodeRecord",
    "InputFile",
    "Numbering",
    "ShownState",
    "Step",
    "Unparsed",
    "nonempty_hypothesis",
    "step_gap_notices",
]

#: How a step number is shown: ``"file"`` — the file's own label (the position counted from
#: 1 when the file has none); ``"position"`` — the position counted from 1.
Numbering = Literal["file", "position"]

#: The step numbers ``causalcheck check`` prints (and ``StepRecord.step`` of :func:`~causalcheck.episodes.load_records`).
CHECK_NUMBERING: Numbering = "position"
#: The step numbers ``causalcheck lab score`` and the evidence audit print.
SCORE_NUMBERING: Numbering = "position"

#: ``"official"`` — a CausaLab seed folder; ``"trajectory"`` — one of our lab trajectories;
#: ``"records"`` — records without an environment (a record file, JSONL, ``raw_io.jsonl``, ...).
EpisodeKind = Literal["official", "trajectory", "records"]

#: The codes of :attr:`EpisodeRecord.warnings` (:class:`~causalcheck.base.errors.Notice` values) → meaning.
#: ``lab score`` prints the ``steps-missing`` ones; callers decide by code, never by wording.
EPISODE_WARNING_CODES: Mapping[str, str] = MappingProxyType({
    "steps-missing": "the step numbers or counts show that steps were removed, added or reordered",
    "unreadable-file": "an optional file of the run folder (``*_data.json``, ``source_config.json``) could not be read",
    "prior-record-skipped": "a prior-record line of the task text is too long or not a dict, and was skipped",
    "accuracy-unknown": "the task accuracy is unknown (no ``*_complete.txt``, or one that is not 0 or 1)",
})


@dataclass(frozen=True)
class InputFile:
    """One file read to build an episode: its path, SHA-256 and size (the manifest's entries)."""

    path: str
    sha256: str
    bytes: int

    def to_json(self) -> dict[str, object]:
        return {"path": self.path, "sha256": self.sha256, "bytes": self.bytes}


@dataclass(frozen=True)
class Unparsed:
    """A step whose model output could not be read as a record (the controller would ``WAIT``).

    ``reason`` is the parser's message (it names the position); ``error`` is the exception
    itself, for callers that must fail on it; ``step`` mirrors :attr:`StepRecord.step`.
    """

    reason: str
    error: CausalCheckError | None = field(default=None, compare=False, repr=False)
    step: int | None = field(default=None, compare=False)

    @property
    def summary(self) -> str:
        """The first line of the reason."""
        return self.reason.splitlines()[0] if self.reason else "unparseable record"


@dataclass(frozen=True)
class ShownState:
    """Values the environment displayed together (one crystal state or one prior record).

    ``visible_from`` is the first step index whose record could use it (``0`` = before the
    first step; a state shown in answer to step ``s`` has ``visible_from = s + 1``).
    """

    props: Mapping[str, float]
    freq: float | None
    label: str
    visible_from: int


@dataclass(frozen=True)
class Step:
    """One agent step: its record and what the environment did with it.

    ``record`` is the parsed record, an :class:`Unparsed` marker, or ``None`` when the source
    has no output for the step at all.  ``intervention`` is ``(node, value)`` of an
    intervention the environment *executed* in answer to this step; ``submission`` a value
    the reactor accepted.  Numbering: see the module docstring.
    """

    index: int
    label: int | None = None
    record: StepRecord | Unparsed | None = None
    intervention: tuple[str, float] | None = None
    submission: float | None = None

    def number(self, numbering: Numbering = SCORE_NUMBERING) -> int:
        """The step number people see, in the given style (module docstring)."""
        if numbering == "file" and self.label is not None:
            return self.label
        return self.index + 1

    @property
    def parsed(self) -> StepRecord | None:
        """The record when it was parsed, else ``None``."""
        return self.record if isinstance(self.record, StepRecord) else None

    @property
    def hypothesis(self) -> Hypothesis | None:
        """The record's hypothesis when it is non-empty (:func:`nonempty_hypothesis`)."""
        return nonempty_hypothesis(self.record)

    @property
    def past_data(self) -> tuple[DataPoint, ...] | None:
        """The record's ``past_data`` (``None`` when the record has none or was not parsed)."""
        rec = self.parsed
        return None if rec is None else rec.past_data


def nonempty_hypothesis(record: StepRecord | Unparsed | None) -> Hypothesis | None:
    """The hypothesis of *record* when it has edges, an equation or coefficients.

    This is CausaLab's "predicted graph" rule (causalab-spec §4.1): the scorer, the audit and
    the runner all take the last step for which this is not ``None``.
    """
    if not isinstance(record, StepRecord):
        return None
    h = record.hypothesis
    return None if h is None or h.is_empty else h


@dataclass(frozen=True)
class EpisodeRecord:
    """One episode from any supported source (see the module docstring).

    ``config`` is the true graph config (the official suite record), ``None`` for
    ``kind="records"`` or when the source's config is unusable (``config_error`` then says
    why; :meth:`require_config` raises it); ``golden`` the suite's golden trace entries
    (``bootstrap_past_data``), parsed; ``shown`` every state the environment displayed, in
    order; ``reactor_props`` / ``target_freq`` the reactor crystal and its true frequency F*;
    ``success`` the task outcome (``None`` when unknown); budgets, ``submissions_used`` and
    ``interventions_used`` as far as the source counts them (the executed interventions are
    also on the steps).  ``warnings`` are problems of the source that did not stop the
    reading (notices with the codes of :data:`EPISODE_WARNING_CODES`); ``extras`` holds source details (our trajectories: ``agent``, ``done_reason``).
    ``agent`` and ``model`` identify who produced the episode (our trajectories: the
    header's ``agent`` and its agent options' ``model``, else the header's ``model``, else an
    inspect log's model; official runs: the run folder's
    ``source_config.json`` and path); ``inputs`` lists the files read, with their hashes.
    """

    source: str
    kind: EpisodeKind
    steps: tuple[Step, ...]
    config: Mapping[str, Any] | None = None
    suite: str = ""
    graph_id: str = ""
    experiment_id: str = ""
    seed: str = ""
    golden: tuple[DataPoint, ...] = ()
    shown: tuple[ShownState, ...] = ()
    reactor_props: Mapping[str, float] | None = None
    target_freq: float | None = None
    success: bool | None = None
    intervention_budget: int | None = None
    submission_budget: int | None = None
    submissions_used: int | None = None
    interventions_used: int | None = None
    warnings: tuple[Notice, ...] = ()
    extras: Mapping[str, Any] = field(default_factory=dict)
    config_error: str | None = field(default=None, compare=False, repr=False)
    agent: str = ""
    model: str = ""
    inputs: tuple[InputFile, ...] = field(default=(), compare=False, repr=False)

    @property
    def content_key(self) -> str:
        """SHA-256 over the hashes of the files read (names ignored): equal for a copy of the episode."""
        import hashlib

        h = hashlib.sha256()
        for f in sorted(self.inputs, key=lambda i: i.sha256):
            h.update(f.sha256.encode("ascii"))
        return h.hexdigest()

    @property
    def records(self) -> list[StepRecord | Unparsed | None]:
        """The step records in step order."""
        return [s.record for s in self.steps]

    def require_config(self) -> Mapping[str, Any]:
        """The true graph config; raises :class:`~causalcheck.base.errors.InputFormatError` without a usable one.

        ``config_error`` holds the reader's message when the source had an unusable config.
        """
        if self.config is not None:
            return self.config
        if self.config_error:
            raise InputFormatError(self.config_error)
        raise InputFormatError(
            f"{self.source}: holds records only, no true graph config (score a lab trajectory or an official run folder)"
        )

    def final(self) -> tuple[Step, Hypothesis] | None:
        """The last step with a non-empty hypothesis and that hypothesis (the predicted graph)."""
        for step in reversed(self.steps):
            h = step.hypothesis
            if h is not None:
                return step, h
        return None


def step_gap_notices(
    labels: Sequence[Any], first: int, *, entry: Callable[[int], str], missing: Callable[[Any], str], why: str
) -> list[Notice]:
    """``steps-missing`` notices for step labels that are not integers or break the count
    ``first, first + 1, …`` — both readers' sign that steps were removed or reordered.

    *entry* names the n-th entry (from 1), *missing* says what a non-integer label lacks, *why*
    explains the count.  A wrong integer label restarts the count from itself, so one removed
    step is reported once.

    >>> [str(n) for n in step_gap_notices([1, 2, 4, 5, None], 1, entry="entry {}".format,
    ...     missing=lambda label: "no integer 'step'", why="(counted from 1)")]
    ['entry 3 has step=4, expected 3 (counted from 1)', "entry 5 has no integer 'step'"]
    """
    out: list[Notice] = []
    expected = first
    for i, label in enumerate(labels):
        if type(label) is not int:
            out.append(Notice(f"{entry(i + 1)} has {missing(label)}", "steps-missing"))
        elif label != expected:
            out.append(Notice(f"{entry(i + 1)} has step={label}, expected {expected} {why}", "steps-missing"))
            expected = label
        expected += 1
    return out
