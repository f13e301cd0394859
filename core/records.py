"""Typed values for hypotheses and the per-step records of a lab agent.

These mirror the CausaLab record format (causalab-spec §3): a step record has ``memory``,
``thought``, ``past_data`` (evidence entries), ``hypothesis`` (edges, a frequency equation and
coefficients), ``experiment`` and exactly one action form.  Parsing text into these values is
done by :mod:`causalcheck.parsing`; nothing here imports a parser or a solver.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from causalcheck.graph import FREQ, CausalGraph

__all__ = [
    "Action",
    "DataPoint",
    "Experiment",
    "Hypothesis",
    "Intervention",
    "StepRecord",
]

Number = float


@dataclass(frozen=True)
class Intervention:
    """``set target_prop to target_value`` on the manipulator crystal."""

    target_prop: str
    target_value: float


@dataclass(frozen=True)
class DataPoint:
    """One evidence entry: the non-frequency property values and the frequency seen together.

    ``props`` values are numbers, or ``None`` where the record had ``null`` or a non-numeric
    string (the raw string is kept in ``extras['raw_props']``).  ``freq`` is ``None`` when
    missing.  ``intervention`` is set for golden-trace entries and for entries the lab wrote.
    """

    id: str
    props: Mapping[str, float | None]
    freq: float | None
    intervention: Intervention | None = None
    extras: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def value(self, node: str) -> float | None:
        """The value of *node* (the frequency under :data:`~causalcheck.graph.FREQ`)."""
        if node == FREQ:
            return self.freq
        return self.props.get(node)


@dataclass(frozen=True)
class Experiment:
    """The planned intervention of a step; ``target_prop`` is ``None`` for ``{}``."""

    target_prop: str | None = None
    target_value: float | None = None
    extras: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def is_empty(self) -> bool:
        return self.target_prop is None and self.target_value is None


ActionKind = Literal["action", "dialog", "value", "none"]


@dataclass(frozen=True)
class Action:
    """The one action form of a record.

    * ``kind="action"``: ``name`` (e.g. ``TALK``, ``SUBMIT``) with ``arg1`` / ``arg2``;
    * ``kind="dialog"``: ``option`` is the 1-based ``chosen_dialog_option_int``;
    * ``kind="value"``: ``value`` is the number sent to a value-input dialog;
    * ``kind="none"``: the record had no action field.
    """

    kind: ActionKind = "none"
    name: str | None = None
    arg1: Any = None
    arg2: Any = None
    option: int | None = None
    value: float | None = None

    def __str__(self) -> str:
        if self.kind == "action":
            args = ", ".join(repr(a) for a in (self.arg1, self.arg2) if a is not None)
            return f"{self.name}({args})"
        if self.kind == "dialog":
            return f"choose option {self.option}"
        if self.kind == "value":
            return f"send value {self.value}"
        return "(no action)"


@dataclass(frozen=True)
class Hypothesis:
    """A causal hypothesis: a graph, an equation for the target, and named coefficients.

    ``equation`` is the equation text as written (``""`` when absent); its parsed form is
    produced by :func:`causalcheck.parsing.parse_equation`.  ``coefficients`` maps names such
    as ``base`` or ``c_density`` to numbers, or to ``None`` for undetermined values.
    """

    graph: CausalGraph = field(default_factory=CausalGraph)
    equation: str = ""
    coefficients: Mapping[str, float | None] = field(default_factory=dict)
    target: str = FREQ

    @property
    def is_empty(self) -> bool:
        """True for the default ``{"edges": [], "freq_equation": "", "coefficients": {}}``."""
        return not self.graph.edges and not self.equation.strip() and not self.coefficients

    def to_json(self) -> dict[str, Any]:
        """The CausaLab JSON form ``{"edges", "freq_equation", "coefficients"}``."""
        return {
            "edges": [{"from": e.source, "to": e.target} for e in self.graph.edges],
            "freq_equation": self.equation,
            "coefficients": dict(self.coefficients),
        }


@dataclass(frozen=True)
class StepRecord:
    """One agent step as written by the model.

    ``past_data`` / ``hypothesis`` / ``experiment`` are ``None`` when the key was absent (not
    the same as present-but-empty).  ``extras`` keeps unknown keys; ``warnings`` lists the
    drift the tolerant parser repaired (code fences, prose around the object, aliases, ...),
    each a :class:`~causalcheck.base.errors.Notice` with a code of ``causalcheck.parsing.REPAIR_CODES``.
    """

    memory: str | None = None
    thought: str | None = None
    past_data: tuple[DataPoint, ...] | None = None
    hypothesis: Hypothesis | None = None
    experiment: Experiment | None = None
    action: Action = field(default_factory=Action)
    extras: Mapping[str, Any] = field(default_factory=dict, compare=False)
    warnings: tuple[str, ...] = field(default=(), compare=False)
    step: int | None = field(default=None, compare=False)
