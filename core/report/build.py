"""Build a report: inputs → document → one HTML file, or Markdown with PNG figures.

:func:`build_report` reads the inputs (:mod:`causalcheck.report.inputs`), optionally runs
the checker on extra sources (``checks``), builds the Lab, Explain and Check sections (the
views of :mod:`causalcheck.report.lab_views`, :mod:`~causalcheck.report.explain_views`,
:mod:`~causalcheck.report.check_views`) and writes the result atomically
(:func:`causalcheck.base.files.atomic_write_text`): ``html`` → the single file *out*; ``md`` →
the folder *out* with ``report.md`` and ``fig-NNN.png``.  The header names every input
(path, SHA-256, bytes) and the causalcheck version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from causalcheck import __version__
from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import Provenance, atomic_write_bytes, atomic_write_text, timestamp
from causalcheck.checking.api import check_hypotheses as check
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
    """What was written: the main file, every file, and the counts of inputs by kind."""

    path: Path
    files: tuple[Path, ...]
    inputs: dict[str, int]
    bytes: int


def check_payload(source: str) -> dict[str, Any]:
    """``causalcheck check SOURCE --json`` as a value (a path, run folder or ``example:<name>``)."""
    return report_payload(check(source), source)


def build_document(paths: Sequence[str | Path], options: ReportOptions | None = None) -> tuple[Document, dict[str, int]]:
    """The report document for *paths* (and the checker run on each of ``options.checks``)."""
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
        Text(f"Built by causalcheck {__version__} on {prov.started or timestamp()} from {len(prov.inputs)} input file(s)"
             + (f" and {len(checks)} checked source(s)" if checks else "") + "."),
    ]
    if prov.inputs:
        header.append(Table(["input", "sha256", "bytes"], [[i["path"], i["sha256"], str(i["bytes"])] for i in prov.inputs],
                            caption="Inputs", numeric=frozenset({2})))
    if checks:
        header.append(Text("Checked sources: " + ", ".join(checks), note=True))
    counts = {"lab": len(inputs.lab), "explain": len(inputs.explain), "check": len(inputs.check)}
    return Document(opts.title, sections, header), counts


def build_report(
    paths: Sequence[str | Path],
    out: str | Path,
    *,
    fmt: Literal["html", "md"] = "html",
    options: ReportOptions | None = None,
) -> BuildResult:
    """Build the report of *paths* into *out* (a file for ``html``, a folder for ``md``)."""
    doc, counts = build_document(paths, options)
    target = Path(out)
    if fmt == "html":
        text = render_html(doc)
        atomic_write_text(target, text)
        size = len(text.encode("utf-8"))
        return BuildResult(target, (target,), counts, size)
    text, figures = render_markdown(doc)
    written = []
    size = 0
    for name, data in figures:
        written.append(atomic_write_bytes(target / name, data))
        size += len(data)
    main = atomic_write_text(target / "report.md", text)
    size += len(text.encode("utf-8"))
    return BuildResult(main, (main, *written), counts, size)
