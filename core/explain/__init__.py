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
parsers are pluggable (the :mod:`causalcheck.protocols` :class:`AnswerParser`, :class:`EdgeJudge`
and :class:`CriterionJudge`); the offline ones (:mod:`.judges`) need no model or key.
:mod:`.run` scores whole answer files (resumable result files), :mod:`.cli` is the command
line on top of it.

Names are imported lazily, so ``import causalcheck.explain`` does not load spaCy.
"""

from __future__ import annotations

from causalcheck.lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "AnswerParser": "causalcheck.protocols",
    "CriterionJudge": "causalcheck.protocols",
    "CriterionJudgment": "causalcheck.explain.judges",
    "EdgeJudge": "causalcheck.protocols",
    "EdgeJudgment": "causalcheck.explain.judges",
    "ExplanationGraph": "causalcheck.explain.explanation_graph",
    "ItemResult": "causalcheck.explain.scoring",
    "OfflineCriterionJudge": "causalcheck.explain.judges",
    "OfflineEdgeJudge": "causalcheck.explain.judges",
    "OfflineParser": "causalcheck.explain.relations",
    "RSTRecord": "causalcheck.explain.rst",
    "WhatIfItem": "causalcheck.explain.data",
    "check_graph": "causalcheck.explain.explanation_graph",
    "graph_stats": "causalcheck.explain.explanation_graph",
    "heuristic_fallback": "causalcheck.explain.rst",
    "load_answer_sets": "causalcheck.explain.data",
    "load_answers": "causalcheck.explain.data",
    "load_benchmark": "causalcheck.explain.data",
    "parse_rst_output": "causalcheck.explain.rst",
    "project_to_graph": "causalcheck.explain.rst",
    "replay_file": "causalcheck.explain.replay",
    "score_item": "causalcheck.explain.scoring",
    "summarize": "causalcheck.explain.scoring",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, __all__)
