"""Build a report: inputs → document → one HTML file, or Markdown with PNG figures.

:func:`build_report` reads the inputs (:mod:`causalcheck.report.inputs`), optionally runs
the checker on extra sources (``checks``), builds the Lab, Explain and Check sections (the
views of :mod:`causalcheck.report.lab_views`, :mod:`~causalcheck.report.explain_views`,
:mod:`~causalcheck.report.check_views`) and writes the result atomically
under a lock on *out* (:class:`causalcheck.report.output.OutputLock`): ``html`` → the single
file *out* (:func:`causalcheck.base.files.atomic_write_text`); ``md`` → the folder *out* with
``report.md`` and ``fig-NNN.png``, replaced as one unit
(:func:`causalcheck.report.output.write_report_folder`: the complete previous report or the
complete new one, never a mix, no stale figure).  The header names every input (path,
SHA-256, bytes) and the causalcheck version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.files import Provenance, atomic_write_text, timestamp
from causalcheck.base.version import __version__
from causalcheck.checking.api import check
from causalcheck.checking.report import report_payload
from causalcheck.report.check_views import check_sections
from causalcheck.report.document import (
    Block,
    Document,
    Section,
    Table,
    Text,
    render_html,
    render_markdown,
)
from causalcheck.report.explain_views import explain_sections
from causalcheck.report.inputs import Inputs, load_inputs
from causalcheck.report.lab_views import lab_sections
from causalcheck.report.output import OutputLock, write_report_folder
from causalcheck.report.text import counted

__all__ = ["BuildResult", "ReportOptions", "build_document", "build_report", "check_payload"]


@dataclass(frozen=True)
class ReportOptions:
    """What a report shows: extra sources to check, bootstrap resamples and seed, how many
    episodes per agent and explain items to show in detail, and the title."""

    checks: Sequence[str] = ()
    resamples: int = 1000
    seed: int = 0
    episodes_per_agent: int = 4
    items: int = 6
    title: str = "causalcheck report"


@dataclass(frozen=True)
class BuildResult:
    """What was written: the main file, every file, the counts of inputs by kind, the size, and
    the files found in input folders that could not be read (``(path, reason)``: the report
    says it is partial)."""

    path: Path
    files: tuple[Path, ...]
    inputs: dict[str, int]
    bytes: int
    unreadable: tuple[tuple[str, str], ...] = ()

    @property
    def partial(self) -> bool:
        """Whether some input could not be read (each is named in the report and in :attr:`unreadable`)."""
        return bool(self.unreadable)


def check_payload(source: str) -> dict[str, Any]:
    """``causalcheck check SOURCE --json`` as a value (a path, run folder, graph file or ``example:<name>``).

    SOURCE goes through :func:`causalcheck.check`'s dispatch: a graph file (DOT, GML, dagitty,
    CSV, ...) is read as a graph and validated, never parsed as a hypothesis record."""
    try:
        report = check(source)
    except CausalCheckError as exc:
        raise InputFormatError(f"--check {source!r}: {exc}") from None
    payload = report_payload(report, source)
    if report.kind == "graph":
        payload["checked"] = "graph"
        graph = getattr(report.detail, "graph", None)  # the validator's GraphValidation: the graph it checked
        if graph is not None:
            payload["graph"] = graph.to_dict()
    return payload


def build_document(paths: Sequence[str | Path], options: ReportOptions | None = None) -> tuple[Document, dict[str, int]]:
    """The report document for *paths* (and the checker run on each of ``options.checks``).

    The counts are by kind (``lab``, ``explain``, ``check``); files found in input folders that
    could not be read are named in the header, which says the report is partial."""
    doc, counts, _ = _document(paths, options)
    return doc, counts


def _document(paths: Sequence[str | Path], options: ReportOptions | None) -> tuple[Document, dict[str, int], Inputs]:
    opts = options or ReportOptions()
    checks, resamples, seed, episodes_per_agent, items = opts.checks, opts.resamples, opts.seed, opts.episodes_per_agent, opts.items
    prov = Provenance("causalcheck report", {"bootstrap": resamples, "seed": seed, "episodes": episodes_per_agent, "items": items})
    inputs = load_inputs(list(paths), provenance=prov) if paths else None
    if inputs is None:
        if not checks:
            raise InputFormatError("report needs at least one PATH or --check SOURCE")

        inputs = Inputs(provenance=prov)
    for source in checks:
        inputs.check.append((f"check {source}", check_payload(source)))
        if Path(source).is_file():
            prov.add_input(source)
    sections: list[Section] = []
    if inputs.lab:
        sections.append(lab_sections(inputs.lab, resamples=resamples, seed=seed, episodes_per_agent=episodes_per_agent))
    if inputs.explain:
        sections.append(explain_sections(inputs.explain, items=items))
    if inputs.check:
        sections.append(check_sections(inputs.check))
    header: list[Block] = [
        Text(f"Built by causalcheck {__version__} on {prov.started or timestamp()} from {counted(len(prov.inputs), 'input file')}"
             + (f" and {counted(len(checks), 'checked source')}" if checks else "") + "."),
    ]
    if inputs.unreadable:
        header.append(Text(f"This report is partial: {counted(len(inputs.unreadable), 'input file')} could not be read and "
                           f"{'is' if len(inputs.unreadable) == 1 else 'are'} not "
                           "shown (listed below)."))
        header.append(Table(["input not read", "reason"], [[path, reason] for path, reason in inputs.unreadable],
                            caption="Inputs that could not be read", marked=frozenset(range(len(inputs.unreadable)))))
    if prov.inputs:
        header.append(Table(["input", "sha256", "bytes"], [[i["path"], i["sha256"], str(i["bytes"])] for i in prov.inputs],
                            caption="Inputs", numeric=frozenset({2}), mono=frozenset({1})))
    if checks:
        header.append(Text("Checked sources: " + ", ".join(checks), note=True))
    counts = {"lab": len(inputs.lab), "explain": len(inputs.explain), "check": len(inputs.check)}
    return Document(opts.title, sections, header), counts, inputs


def build_report(
    paths: Sequence[str | Path],
    out: str | Path,
    *,
    fmt: Literal["html", "md"] = "html",
    options: ReportOptions | None = None,
) -> BuildResult:
    """Build the report of *paths* into *out* (a file for ``html``, a folder for ``md``), locked and atomic."""
    target = Path(out)
    with OutputLock(target, command=f"causalcheck report --format {fmt}"):
        doc, counts, inputs = _document(paths, options)
        unreadable = tuple(inputs.unreadable)
        if fmt == "html":
            text = render_html(doc)
            try:
                atomic_write_text(target, text)
            except OSError as exc:  # a full disk: name the output (the previous report is untouched)
                raise CausalCheckError(f"--out {str(target)!r}: cannot write the report: {exc.strerror or exc}; "
                                       "the previous report is unchanged") from None
            size = len(text.encode("utf-8"))
            return BuildResult(target, (target,), counts, size, unreadable)
        text, figures = render_markdown(doc)
        files = [("report.md", text.encode("utf-8")), *figures]
        written = write_report_folder(target, files)
    return BuildResult(written[0], written, counts, sum(len(data) for _, data in files), unreadable)
