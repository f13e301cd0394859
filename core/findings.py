"""Findings and reports: the one finding type and the one report type of every check.

Every check of causalcheck — the hypothesis checker (``causalcheck check`` on hypotheses,
records, trajectories and folders), the graph validator
(:func:`causalcheck.graphs.validate_graph`), the lab's evidence audit and the explanation
checks — reports a :class:`Finding`: a stable ``code`` from the one registry
:data:`causalcheck.base.codes.CODES` (which also fixes the severities it takes), a ``severity``,
a ``message`` for people that names the offending values, the ``elements`` it is about
(edges as ``"A -> B"``, node names, point ids, statements) and a ``certificate``: a plain
typed value (a frozen dataclass, one class per kind of evidence) whose ``to_dict()`` has one
documented shape per class.  Findings are returned, never raised.

:func:`causalcheck.check` returns one :class:`Report` for every input.  A report has a
``subject``, its ``own`` findings, ``meta`` figures, and ``parts``: a trajectory's report
holds one report per step, a folder's one report per checked file; ``findings`` is the
report's own findings followed by every part's, so a batch user reads one flat list in one
vocabulary.  A graph's report carries the validator's detailed result as its ``detail``
(independence tests, falsification, comparison, coverage, background knowledge).

``ok`` is true when no finding is an error — everywhere: warnings (suspicious, undetermined,
or a check that could not be completed) never make a report not ok.

The certificates of the checker's and the audit's findings are defined here, with their
``to_dict()`` shapes (the graph validator's live beside their computation in
:mod:`causalcheck.graphs`); a kind that is only a few figures uses :class:`Figures`:

=================================  ==========================================================================  =========================================
certificate                        ``to_dict()``                                                               findings
=================================  ==========================================================================  =========================================
:class:`CycleWitness`              ``{"cycle": [[a, b], ...]}`` (the cycle's edges in order)                    ``cycle``
:class:`ReferenceEdge`             ``{"reference_edge": [a, b]}``                                              ``contradicts-reference``
:class:`SyntaxPosition`            ``{"line": n, "column": n, "expected": [token, ...]}``                      ``equation-syntax``
:class:`Parents`                   ``{"parents": [node, ...]}``                                                ``non-parent-in-equation``
:class:`Undetermined`              ``{"reason": "missing" | "null" | "zero"}``                                 ``undetermined-coefficient``
:class:`DataConflict`              ``{"conflicting", "min_tolerance", "conflicting_min_tolerance",``           ``data-mismatch``
                                   ``"residuals": {id: r}, "tolerance"}``
:class:`FormRefuted`               ``{"conflicting", "min_tolerance", "conflicting_min_tolerance",``           ``equation-refuted``
                                   ``"best_fit": {name: value}}``
:class:`StepIndex`                 ``{"step": n, "index": i}``                                                 ``data-stop-agreeing``
:class:`EntryShownEarly`           ``{"step", "shown", "uncorrected"}``                                        ``prefilled-entry``
:class:`EntryValue`                ``{"step", "field", "written", "shown", "state", "uncorrected"}``           ``fabricated-entry``, ``altered-entry``
:class:`EntryUnmatched`            ``{"step", "uncorrected"}``                                                 ``fabricated-entry``
:class:`SolverEvidence`            ``{"solver": [finding, ...]}`` (the solver's own findings)                  ``hypothesis-contradicts-evidence``
:class:`Figures`                   the figures as given, e.g. ``{"max_abs_error": 3.2}``                       ``hypothesis-contradicts-evidence``, ``ci-summary``, ``coefficient-mismatch``
=================================  ==========================================================================  =========================================

Serialising is one mechanism, :func:`plain`: a certificate's fields in order (tuples as
lists, nested values by their own ``to_dict()``).  A finding has one wire format,
:meth:`Finding.to_dict` — ``{"code", "severity", "message", "elements", "certificate"}``
(``certificate`` is ``null`` without one) — wherever it is written: ``causalcheck check --json``,
``lab score``'s audit, explain result files, the validator's report.  :meth:`Report.to_dict` is a
report with its parts nested; :meth:`Report.to_json` is the flat record the files store
(``{"subject", "ok", "meta", "findings"}``, the findings of the report and of all its parts).
:func:`finding_records` reads the findings of a stored record — also of files written by
earlier causalcheck versions, which named them ``diagnostics`` and a certificate ``data``.

>>> f = Finding("cycle", "error", "a -> b -> a", ("a -> b", "b -> a"), CycleWitness((("a", "b"), ("b", "a"))))
>>> f.to_dict()["certificate"]
{'cycle': [['a', 'b'], ['b', 'a']]}
>>> finding_records({"findings": [f.to_dict()]}) == finding_records({"diagnostics": [{**f.to_dict(), "data": f.to_dict()["certificate"]}]})
True
>>> r = Report("step 1", (f,), kind="record")
>>> Report("run", parts=(r, Report("step 2", kind="record")), kind="trajectory").findings == (f,)
True
>>> Report("x", (Finding("unknown-node", "warning", "no such node", ("q",)),)).ok
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from causalcheck.base.codes import CODES, Severity

__all__ = [
    "CycleWitness",
    "DataConflict",
    "Dictable",
    "EntryShownEarly",
    "EntryUnmatched",
    "EntryValue",
    "Figures",
    "Finding",
    "FormRefuted",
    "Parents",
    "Plain",
    "ReferenceEdge",
    "Report",
    "ReportKind",
    "Severity",
    "SolverEvidence",
    "StepIndex",
    "SyntaxPosition",
    "Undetermined",
    "finding_records",
    "no_errors",
    "plain",
]

#: What a report is about: one hypothesis, one step record, a trajectory of steps, a folder of
#: inputs, a causal graph (the validator) or one lab episode's evidence audit.
ReportKind = Literal["hypothesis", "record", "trajectory", "folder", "graph", "audit"]


class Dictable(Protocol):
    """A value with a JSON-ready ``to_dict()`` (every certificate and report detail)."""

    def to_dict(self) -> Mapping[str, Any]: ...


def plain(value: Any) -> Any:
    """*value* as JSON-ready data: the one serialisation of findings, reports and certificates.

    A :class:`Plain` dataclass becomes a dict of its fields in order; any other object with
    ``to_dict()`` its ``to_dict()``; mappings dicts; tuples and lists lists; everything else is
    returned as it is.
    """
    if isinstance(value, Plain) and dataclasses.is_dataclass(value):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "to_dict") and not isinstance(value, type):
        return dict(value.to_dict())
    if isinstance(value, Mapping):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def finding_records(record: Any) -> list[dict[str, Any]]:
    """The findings of a stored report record (:meth:`Report.to_json`) in the one wire format
    (:meth:`Finding.to_dict`); a record of an earlier version (``diagnostics``, a certificate under
    ``data``, ``{}`` for none) is read into it.  Entries that are not objects are left out."""
    if not isinstance(record, Mapping):
        return []
    found = record.get("findings")
    if not isinstance(found, list):
        found = record.get("diagnostics")
    out: list[dict[str, Any]] = []
    for entry in found if isinstance(found, list) else ():
        if not isinstance(entry, Mapping):
            continue
        finding = {k: v for k, v in entry.items() if k != "data"}
        if "certificate" not in finding:
            legacy = entry.get("data")
            finding["certificate"] = legacy if legacy else None
        out.append(finding)
    return out


class Plain:
    """Mixin of frozen-dataclass certificates: ``to_dict()`` is :func:`plain` of the fields."""

    def to_dict(self) -> dict[str, Any]:
        """The fields in order, JSON-ready (see :func:`plain`)."""
        out: dict[str, Any] = plain(self)
        return out


@dataclass(frozen=True)
class Figures:
    """A certificate that is only figures: ``to_dict()`` is the mapping as given."""

    figures: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The figures (a copy)."""
        out: dict[str, Any] = plain(self.figures)
        return out


@dataclass(frozen=True)
class CycleWitness(Plain):
    """The edges of one directed cycle, in order (each ends where the next starts)."""

    cycle: tuple[tuple[str, str], ...]

    @classmethod
    def of_nodes(cls, nodes: Iterable[str]) -> CycleWitness:
        """The cycle through *nodes* in order (the first repeated at the end, or not)."""
        seq = list(nodes)
        if len(seq) > 1 and seq[0] == seq[-1]:
            seq.pop()
        return cls(tuple((a, seq[(i + 1) % len(seq)]) for i, a in enumerate(seq)))


@dataclass(frozen=True)
class ReferenceEdge(Plain):
    """The reference edge ``(cause, effect)`` that a hypothesis edge reverses."""

    reference_edge: tuple[str, str]


@dataclass(frozen=True)
class SyntaxPosition(Plain):
    """Where an equation stops parsing (1-based line and column) and the tokens expected there."""

    line: int | None
    column: int | None
    expected: tuple[str, ...]


@dataclass(frozen=True)
class Parents(Plain):
    """The parents the graph gives the target (what an equation may use)."""

    parents: tuple[str, ...]


@dataclass(frozen=True)
class Undetermined(Plain):
    """Why a coefficient is undetermined: ``"missing"``, ``"null"`` or ``"zero"``."""

    reason: str


@dataclass(frozen=True)
class DataConflict(Plain):
    """Stated coefficients that miss recorded points: the conflicting ids (a minimal set when some
    coefficients are free), the smallest tolerance accepting all points and the conflicting ones,
    each point's residual (predicted − recorded) and the tolerance used."""

    conflicting: tuple[str, ...]
    min_tolerance: float
    conflicting_min_tolerance: float
    residuals: Mapping[str, float]
    tolerance: float


@dataclass(frozen=True)
class FormRefuted(Plain):
    """No coefficients fit the points: a minimal conflicting set, the best fit's tolerances and values."""

    conflicting: tuple[str, ...]
    min_tolerance: float
    conflicting_min_tolerance: float
    best_fit: Mapping[str, float]


@dataclass(frozen=True)
class StepIndex(Plain):
    """A step of a trajectory: its number as shown (``None`` when unnumbered) and its 0-based index."""

    step: int | None
    index: int


@dataclass(frozen=True)
class EntryShownEarly(Plain):
    """A right ``past_data`` entry written at *step* before the state *shown* was displayed.

    ``uncorrected``: the entry is still so in the final record (``None`` until the audit has
    read every step; the audit's report always says ``True`` or ``False``).
    """

    step: int
    shown: str
    uncorrected: bool | None = None


@dataclass(frozen=True)
class EntryValue(Plain):
    """An entry whose *field* was *written* as one value where the environment showed another
    (the displayed *state* named), at *step*; ``uncorrected`` as in :class:`EntryShownEarly`."""

    step: int
    field: str
    written: float | None
    shown: float | None
    state: str
    uncorrected: bool | None = None


@dataclass(frozen=True)
class EntryUnmatched(Plain):
    """An entry, written at *step*, that matches no displayed state; ``uncorrected`` as above."""

    step: int
    uncorrected: bool | None = None


@dataclass(frozen=True)
class SolverEvidence(Plain):
    """The exact solver's findings behind a verdict (``data-mismatch`` / ``equation-refuted``)."""

    solver: tuple[Finding, ...]


@dataclass(frozen=True)
class Finding:
    """One finding of a check (see the module docstring); returned, never raised.

    Attributes:
        code: a stable machine-readable identifier registered in :data:`causalcheck.base.codes.CODES`,
            e.g. ``"cycle"``, ``"ci-violated"``.
        severity: ``"error"`` (the hypothesis or graph is wrong, inconsistent or contradicted by
            the data), ``"warning"`` (suspicious, undetermined, or a check could not be
            completed), ``"info"`` (figures and notes); one the registry allows for the code.
        message: a sentence for people that names the offending values.
        elements: the offending elements, e.g. edges as ``"A -> B"`` strings or node names.
        certificate: the evidence behind the finding, a typed value with ``to_dict()``, or ``None``.

    An unregistered code or severity is a bug of the emitting check: ``AssertionError``.
    """

    code: str
    severity: Severity
    message: str
    elements: tuple[str, ...] = ()
    certificate: Dictable | None = None

    def __post_init__(self) -> None:
        entry = CODES.get(self.code)
        if entry is None or self.severity not in entry.severities:
            raise AssertionError(f"finding code={self.code!r} with severity={self.severity!r} is not registered")
        if not isinstance(self.elements, tuple):
            object.__setattr__(self, "elements", tuple(self.elements))

    def is_a(self, code: str) -> bool:
        """True when the finding has *code* or refines it (``cycle`` is a ``graph-invalid``)."""
        return self.code == code or code in CODES[self.code].refines

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: code, severity, message, elements, certificate (its ``to_dict()`` or ``None``)."""
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "elements": list(self.elements),
            "certificate": None if self.certificate is None else plain(self.certificate),
        }



def no_errors(findings: Iterable[Finding]) -> bool:
    """The meaning of ``ok`` everywhere: no finding has severity ``error``."""
    return not any(f.severity == "error" for f in findings)


@dataclass(frozen=True)
class Report:
    """What one check found about one subject (see the module docstring).

    Attributes:
        subject: what was checked, e.g. ``"hypothesis"``, ``"step 3"``, a path.
        own: the findings about the subject itself, in order.
        meta: figures about the subject (for a record: the hypothesis text, the edge count, ...).
        kind: what the subject is (:data:`ReportKind`).
        parts: the reports of the subject's parts (a trajectory's steps, a folder's inputs).
        detail: the check's detailed result when it has one (a graph's
            :class:`~causalcheck.graphchecks.validator.GraphValidation`), else ``None``.
    """

    subject: str
    own: tuple[Finding, ...] = ()
    meta: Mapping[str, Any] = field(default_factory=dict)
    kind: ReportKind = "hypothesis"
    parts: tuple[Report, ...] = ()
    detail: Dictable | None = None

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The report's own findings, then every part's (flattened, in order)."""
        if not self.parts:
            return self.own
        return self.own + tuple(f for p in self.parts for f in p.findings)

    @property
    def ok(self) -> bool:
        """True when no finding (own or of a part) has severity ``error``; warnings keep a report ok."""
        return no_errors(self.findings)

    @property
    def errors(self) -> tuple[Finding, ...]:
        """The findings of severity ``error``."""
        return tuple(f for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> tuple[Finding, ...]:
        """The findings of severity ``warning``."""
        return tuple(f for f in self.findings if f.severity == "warning")

    def codes(self) -> tuple[str, ...]:
        """Every finding's code, in order."""
        return tuple(f.code for f in self.findings)

    def having(self, code: str) -> tuple[Finding, ...]:
        """The findings with *code* or a code refining it (:meth:`Finding.is_a`)."""
        return tuple(f for f in self.findings if f.is_a(code))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict; with a :attr:`detail`, the detail's ``to_dict()`` (which lists the findings).

        Otherwise ``{"subject", "kind", "ok", "meta", "findings": [own findings], "parts": [reports]}``.
        """
        if self.detail is not None:
            return dict(self.detail.to_dict())
        return {
            "subject": self.subject,
            "kind": self.kind,
            "ok": self.ok,
            "meta": plain(self.meta),
            "findings": [f.to_dict() for f in self.own],
            "parts": [p.to_dict() for p in self.parts],
        }

    def to_json(self) -> dict[str, Any]:
        """The flat record files store (``causalcheck check --json``, ``lab score``'s audit):
        ``{"subject", "ok", "meta", "findings"}`` with every finding of the report and its parts
        (:attr:`findings`), each :meth:`Finding.to_dict`."""
        return {
            "subject": self.subject,
            "ok": self.ok,
            "meta": dict(self.meta),
            "findings": [f.to_dict() for f in self.findings],
        }


