"""Reward functions with TRL's ``reward_funcs`` signature, for single-turn tasks.

TRL's trainers (``GRPOTrainer(reward_funcs=[...])``) call each reward function as
``func(prompts=..., completions=..., **columns)`` with one list entry per completion: a
completion is a string (standard datasets) or a list of chat messages
(``[{"role": "assistant", "content": ...}]``, conversational datasets), and every other
dataset column is passed as a keyword of the same name.  Each function returns one float
per completion.  TRL itself is not needed (nor imported) here.

* :func:`hypothesis_reward` — the completion is a step record (or a bare hypothesis) in the
  lab's JSON form; column ``data`` (each row: the list of data points ``{"id", "props",
  "freq"}`` shown in the prompt, or its JSON text) and optionally ``true_edges`` (each row:
  ``[[from, to], ...]``) and ``config`` (the suite graph's config, for coefficient F1).
  Reward = the weighted :mod:`causalcheck.rl.rewards` terms ``format`` (the record does not
  parse), ``consistency`` (the data refute the hypothesis: z3 / exact arithmetic) and, with a
  truth, ``edge_f1``, ``parent_f1``, ``coefficient_f1`` and ``shd``.
* :func:`whatif_reward` — the completion answers a PRISM what-if question; column ``item``
  (each row: the benchmark item object — ``id``, ``question``, ``domain``, ``rubric``).
  Reward = the item's Final score ``(PM + RM) / 2`` with the offline parser and judges
  (``explain score --judge offline``); an answer that fails (empty, too long) scores 0.  The
  offline judges' limits hold for it (:data:`causalcheck.explain.offline.OFFLINE_NOTICE`): they
  cannot tell a reversed causal link from a correct one.

:func:`make_hypothesis_reward` builds the first with other weights.

A completion holding a lone surrogate (:mod:`causalcheck.base.surrogates`) is not text: the
hypothesis reward counts it as a record that does not parse (``format``), as the Gymnasium
environment does; the what-if reward scores the answer with each lone surrogate replaced by U+FFFD.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.surrogates import has_lone_surrogates, scrub
from causalcheck.graph import FREQ
from causalcheck.lab.llm_agent import extract_record
from causalcheck.parsing import parse_record_obj
from causalcheck.records import DataPoint
from causalcheck.rl.rewards import RewardWeights, consistency_term, mechanism_terms, reward_weights

__all__ = ["completion_text", "hypothesis_reward", "make_hypothesis_reward", "whatif_reward"]

RewardFunc = Callable[..., list[float]]


def completion_text(completion: Any) -> str:
    """The text of one TRL completion: a string, or the last message of a list of chat messages.

    Lone surrogates are returned as they are (:func:`causalcheck.base.surrogates.scrub` makes it text).

    >>> completion_text([{"role": "assistant", "content": "hi"}])
    'hi'
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, Sequence) and completion:
        last = completion[-1]
        if isinstance(last, Mapping) and isinstance(last.get("content"), str):
            return str(last["content"])
    raise InputFormatError(f"completion={completion!r:.80} must be a string or a list of chat messages")


def _column(kwargs: Mapping[str, Any], name: str, n: int, *, required: bool) -> list[Any]:
    col = kwargs.get(name)
    if col is None:
        if required:
            raise InputFormatError(f"reward function needs the dataset column {name!r} (one value per completion)")
        return [None] * n
    if not isinstance(col, Sequence) or isinstance(col, str) or len(col) != n:
        raise InputFormatError(f"column {name!r} must be a list of {n} values (one per completion), got {col!r:.80}")
    return list(col)


def _points(row: Any) -> list[DataPoint]:
    if isinstance(row, str):
        row = json.loads(row)
    if not isinstance(row, Sequence):
        raise InputFormatError(f"data={row!r:.80} must be a list of data points")
    out = []
    for k, p in enumerate(row):
        if not isinstance(p, Mapping) or not isinstance(p.get("props"), Mapping):
            raise InputFormatError(f"data point #{k}={p!r:.80} must be an object with 'props' and 'freq'")
        out.append(DataPoint(str(p.get("id", k)), {str(a): v for a, v in p["props"].items() if a != FREQ}, p.get("freq")))
    return out


def make_hypothesis_reward(weights: str | RewardWeights | Mapping[str, float] | None = "dense", *, tolerance: float = 0.01) -> RewardFunc:
    """A TRL reward function scoring hypothesis records (module docstring) with *weights*."""
    w = reward_weights(weights)

    def hypothesis_reward(prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float]:
        n = len(completions)
        data = _column(kwargs, "data", n, required=True)
        truths = _column(kwargs, "true_edges", n, required=False)
        configs = _column(kwargs, "config", n, required=False)
        out: list[float] = []
        for completion, row, truth, config in zip(completions, data, truths, configs, strict=True):
            terms: dict[str, float] = {}
            text = completion_text(completion)
            try:
                rec = parse_record_obj(extract_record(text))
                hyp = None if has_lone_surrogates(text) else rec.hypothesis
            except (CausalCheckError, ValueError, RecursionError):
                hyp = None
            if hyp is None or hyp.is_empty:
                terms["format"] = -1.0
            else:
                terms["format"] = 0.0
                terms["consistency"], _ = consistency_term(hyp, _points(row), tolerance)
            if truth is not None:
                pairs = [(str(a), str(b)) for a, b in truth]
                nodes = len({x for pair in pairs for x in pair} | set(hyp.graph.nodes if hyp else ()))
                mech, _ = mechanism_terms(
                    hyp.graph.pairs if hyp else (), dict(hyp.coefficients) if hyp else {}, pairs,
                    config if isinstance(config, Mapping) else None, nodes=nodes,
                )
                terms.update(mech)
            out.append(w.combine(terms))
        return out

    return hypothesis_reward


#: :func:`make_hypothesis_reward` with the ``dense`` weights.
hypothesis_reward = make_hypothesis_reward()

_JUDGES: list[Any] = []


def whatif_reward(prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float]:
    """The offline PRISM Final score of each what-if answer (module docstring); column ``item``."""
    # late: the explain pipeline's offline judges load their word lists once
    from causalcheck.explain.data import parse_item

    # late: the explain pipeline's offline judges load their word lists once
    from causalcheck.explain.run import offline_judges

    # late: the explain pipeline's offline judges load their word lists once
    from causalcheck.explain.scoring import score_item

    n = len(completions)
    items = _column(kwargs, "item", n, required=True)
    if not _JUDGES:
        _JUDGES.append(offline_judges())
    judges = _JUDGES[0]
    out: list[float] = []
    for k, (completion, raw) in enumerate(zip(completions, items, strict=True)):
        item = parse_item(json.loads(raw) if isinstance(raw, str) else raw, k)
        result = score_item(item, scrub(completion_text(completion)), judges.parser, judges.edge_judge, judges.criterion_judge)
        out.append(result.final if result.status == "ok" else 0.0)
    return out
