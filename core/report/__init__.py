"""Reports: results people look at and compare — HTML with inline SVG, or Markdown with PNG.

``causalcheck report PATH... --out report.html`` turns lab scores, explain result files and
check reports into one self-contained page: per-agent tables with bootstrap intervals,
recovery curves over the interaction steps, the task-accuracy-vs-edge-F1 view, budget use,
true graph beside hypothesis drawings; PRISM's per-domain table across answer models,
failure modes, topology distributions, answers with their EDUs and graphs; check findings
with the cycle or conflicting set drawn.  ``causalcheck explain agree A B`` measures how two
scorers agree (Pearson, Spearman, MAE, Cohen's κ on edge verdicts, bootstrap intervals).

Modules, in reading order:

* :mod:`~causalcheck.report.inputs` — inputs found by content, provenance;
* :mod:`~causalcheck.report.figures` — figure specifications and styles;
* :mod:`~causalcheck.report.text` — counts in words, drawn text widths;
* :mod:`~causalcheck.report.layout` — graph layouts (networkx, no Graphviz);
* :mod:`~causalcheck.report.svg` / :mod:`~causalcheck.report.png` — renderers (own SVG
  writer; matplotlib Agg for PNG);
* :mod:`~causalcheck.report.document` — sections, tables, HTML and Markdown output;
* :mod:`~causalcheck.report.page` — the HTML page's style sheet and its small inline script
  (sidebar, collapsible sections, sortable tables);
* :mod:`~causalcheck.report.lab_views`, :mod:`~causalcheck.report.explain_views`,
  :mod:`~causalcheck.report.check_views` — what is shown;
* :mod:`~causalcheck.report.build` — :func:`build_report`; :mod:`~causalcheck.report.cli`;
* :mod:`~causalcheck.report.agreement` — the statistics; :mod:`~causalcheck.report.agree`
  — ``explain agree``;
* :mod:`~causalcheck.report.plots` — the same drawings on matplotlib Axes for notebooks
  (:func:`plot_graph`, :func:`plot_comparison`, :func:`plot_scores`; the ``[plot]`` extra).

The pipelines (lab, explain, check) never import this package; it reads their outputs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from causalcheck.base.lazy import lazy_exports

_EXPORTS: dict[str, tuple[str, ...]] = {
    "causalcheck.report.agree": ("agree_files",),
    "causalcheck.report.build": ("ReportOptions", "build_document", "build_report"),
    "causalcheck.report.inputs": ("classify", "load_inputs"),
    "causalcheck.report.plots": ("plot_comparison", "plot_graph", "plot_scores"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover  (the same names for the type checker; aliases mark re-exports)
    from causalcheck.report.agree import agree_files as agree_files
    from causalcheck.report.build import ReportOptions as ReportOptions
    from causalcheck.report.build import build_document as build_document
    from causalcheck.report.build import build_report as build_report
    from causalcheck.report.inputs import classify as classify
    from causalcheck.report.inputs import load_inputs as load_inputs
    from causalcheck.report.plots import plot_comparison as plot_comparison
    from causalcheck.report.plots import plot_graph as plot_graph
    from causalcheck.report.plots import plot_scores as plot_scores
