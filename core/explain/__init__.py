"""Explain: what-if answers → EDUs → causal graph → Process Metric, Rubric Metric and Final.

This is the WhatIfBench / PRISM evaluation (see ``prism-spec``).  An answer to an open
counterfactual question is cut into elementary discourse units (:mod:`.segment`), linked
by discourse relations (:mod:`.relations`, or an LLM parser writing the PRISM text format
read by :mod:`.rst`), projected onto an explanation graph (:mod:`.explanation_graph`) and judged:

* **PM** — the share of the graph's causal edges (CAUSE, CONDITION, RESULT, CONSEQUENCE)
  that the answer text explicitly supports (0 without causal edges);
* **RM** — the mean 1–10 score over the item's five query-dependent rubric criteria, / 10;
* **Final** — their mean.

:mod:`.scoring` computes them for one item and summarises a run (per-domain table,
failure modes), :mod:`.report` writes result files in the official layout, and
:mod:`.replay` re-scores official result files from their recorded judgments.  Judges and
parsers are pluggable (the protocols :class:`AnswerParser`, :class:`EdgeJudge`, :class:`CriterionJudge`
and :class:`Segmenter` of :mod:`.judges`); the offline ones (:mod:`.judges`) need no model or key.
:mod:`.run` scores whole answer files (resumable result files), :mod:`.cli` is the command
line on top of it.

Names are imported lazily, so ``import causalcheck.explain`` does not load spaCy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from causalcheck.base.lazy import lazy_exports

_EXPORTS: dict[str, tuple[str, ...]] = {
    "causalcheck.explain.data": (
        "WhatIfItem", "load_answer_sets", "load_answers", "load_benchmark",
    ),
    "causalcheck.explain.explanation_graph": ("ExplanationGraph", "check_graph", "graph_stats"),
    "causalcheck.explain.judges": (
        "AnswerParser", "CriterionJudge", "CriterionJudgment", "EdgeJudge", "EdgeJudgment", "Segmenter",
    ),
    "causalcheck.explain.offline": ("OfflineCriterionJudge", "OfflineEdgeJudge"),
    "causalcheck.explain.relations": ("OfflineParser",),
    "causalcheck.explain.replay": ("replay_file",),
    "causalcheck.explain.result_schema": ("ResultItem",),
    "causalcheck.explain.rst": (
        "RSTRecord", "heuristic_fallback", "parse_rst_output", "project_to_graph",
    ),
    "causalcheck.explain.scoring": ("score_item", "summarize"),
}

__getattr__, __dir__, __all__ = lazy_exports(__name__, _EXPORTS)


if TYPE_CHECKING:  # pragma: no cover  (the same names for the type checker; aliases mark re-exports)
    from causalcheck.explain.data import WhatIfItem as WhatIfItem
    from causalcheck.explain.data import load_answer_sets as load_answer_sets
    from causalcheck.explain.data import load_answers as load_answers
    from causalcheck.explain.data import load_benchmark as load_benchmark
    from causalcheck.explain.explanation_graph import ExplanationGraph as ExplanationGraph
    from causalcheck.explain.explanation_graph import check_graph as check_graph
    from causalcheck.explain.explanation_graph import graph_stats as graph_stats
    from causalcheck.explain.judges import AnswerParser as AnswerParser
    from causalcheck.explain.judges import CriterionJudge as CriterionJudge
    from causalcheck.explain.judges import CriterionJudgment as CriterionJudgment
    from causalcheck.explain.judges import EdgeJudge as EdgeJudge
    from causalcheck.explain.judges import EdgeJudgment as EdgeJudgment
    from causalcheck.explain.judges import Segmenter as Segmenter
    from causalcheck.explain.offline import OfflineCriterionJudge as OfflineCriterionJudge
    from causalcheck.explain.offline import OfflineEdgeJudge as OfflineEdgeJudge
    from causalcheck.explain.relations import OfflineParser as OfflineParser
    from causalcheck.explain.replay import replay_file as replay_file
    from causalcheck.explain.result_schema import ResultItem as ResultItem
    from causalcheck.explain.rst import RSTRecord as RSTRecord
    from causalcheck.explain.rst import heuristic_fallback as heuristic_fallback
    from causalcheck.explain.rst import parse_rst_output as parse_rst_output
    from causalcheck.explain.rst import project_to_graph as project_to_graph
    from causalcheck.explain.scoring import score_item as score_item
    from causalcheck.explain.scoring import summarize as summarize
