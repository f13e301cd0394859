"""The explain pipeline's plug-in protocols and the judgments they return, by their explain names.

They are defined in :mod:`causalcheck.protocols`, with every other protocol, below the pipelines
and the plug-in registry (:mod:`causalcheck.plugins`): an :class:`EdgeJudge` judges graph edges
(:class:`EdgeJudgment`), a :class:`CriterionJudge` a rubric criterion (:class:`CriterionJudgment`),
an :class:`AnswerParser` turns an answer into an RST record and a :class:`Segmenter` splits it into
EDUs.  Anything that has their methods plugs into
:func:`causalcheck.explain.scoring.score_item`: the offline judges of
:mod:`causalcheck.explain.offline`, the LLM-backed ones of :mod:`causalcheck.explain.llm`, or
recorded judgments replayed from a result file.
"""

from __future__ import annotations

from causalcheck.protocols import (
    AnswerParser,
    CriterionJudge,
    CriterionJudgment,
    EdgeJudge,
    EdgeJudgment,
    Segmenter,
)

__all__ = [
    "AnswerParser",
    "CriterionJudge",
    "CriterionJudgment",
    "EdgeJudge",
    "EdgeJudgment",
    "Segmenter",
]
