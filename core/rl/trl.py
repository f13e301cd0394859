"""Reward functions with TRL's ``reward_funcs`` signature, for single-turn tasks.

TRL's trainers (``GRPOTrainer(reward_funcs=[...])``) call each reward function as
``func(prompts=..., completions=..., **columns)`` with one list entry per completion: a
completion is a string (standard datasets) or a list of chat messages
(``[{"role": "assistant", "content": ...}]``, conversational datasets), and every other
dataset column is passed as a keyword of the same name.  Each function returns one float
per completion.  TRL itself is not needed (nor imported) here.

* :func:`hypothesis_reward` — the completion is a step record (or a bare hypothesis) in the
  lab's JSON form; column ``data`` (each row: the list of data points ``{"id", "props",
  "freq"}`` shown in the prompt) and optionally ``true_edges`` (each row: ``[[cause, effect],
  ...]`` or the suite's ``[{"from": ..., "to": ...}, ...]``) and ``config`` (the suite graph's
  record: it gives ``coefficient_f1``, and the truth when ``true_edges`` is absent); each row may
  also be the JSON text of its value (:data:`COLUMN_FORMS`; anything else is an input error
  naming the column and row).  Reward = the weighted :mod:`causalcheck.rl.rewards` terms
  ``format`` (the record does not parse), ``consistency`` (the data refute the hypothesis: z3 /
  exact arithmetic) and, with a truth, ``edge_f1``, ``parent_f1``, ``shd`` and, with a config,
  ``coefficient_f1`` — so without a config a perfect hypothesis scores the dense maximum less
  ``coefficient_f1``'s weight (0.75 instead of 1.0).
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

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from causalcheck.base import safejson
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


#: The forms each dataset column is read in (every one of them; anything else is refused naming the column).
COLUMN_FORMS: Mapping[str, str] = {
    "data": "a list of data points {\"id\", \"props\", \"freq\"}, or its JSON text",
    "true_edges": "a list of [cause, effect] pairs or of {\"from\": cause, \"to\": effect} records (the suite's form), or its JSON text",
    "config": "the suite graph's record (an object with 'nodes', 'edges' and 'params'), or its JSON text",
    "item": "a what-if item object (id, question, domain, rubric), or its JSON text",
}


def _refused(column: str, row: int, why: str) -> InputFormatError:
    return InputFormatError(f"column {column!r}, row {row}: {why}; accepted: {COLUMN_FORMS[column]}")


def _decoded(value: Any, column: str, row: int) -> Any:
    """*value* with JSON text decoded (strictly: :mod:`causalcheck.base.safejson`)."""
    if isinstance(value, str):
        try:
            return safejson.loads(value, source=f"column {column!r} row {row}")
        except InputFormatError as exc:
            raise _refused(column, row, f"the text is not JSON ({exc})") from None
    return value


def _is_list(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _points(value: Any, row: int) -> list[DataPoint]:
    """The ``data`` of one row."""
    points = _decoded(value, "data", row)
    if not _is_list(points):
        raise _refused("data", row, f"{points!r:.80} is not a list")
    out = []
    for k, p in enumerate(points):
        if not isinstance(p, Mapping) or not isinstance(p.get("props"), Mapping):
            raise _refused("data", row, f"data point #{k}={p!r:.80} is not an object with 'props' and 'freq'")
        out.append(DataPoint(str(p.get("id", k)), {str(a): v for a, v in p["props"].items() if a != FREQ}, p.get("freq")))
    return out


def _edges(value: Any, column: str, row: int) -> list[tuple[str, str]]:
    """Edges as ``(cause, effect)`` pairs, from pairs or from the suite's ``{"from", "to"}`` records."""
    edges = _decoded(value, column, row)
    if not _is_list(edges):
        raise _refused(column, row, f"{edges!r:.80} is not a list of edges")
    out = []
    for k, e in enumerate(edges):
        if isinstance(e, Mapping) and {"from", "to"} <= set(e):
            out.append((str(e["from"]), str(e["to"])))
        elif _is_list(e) and len(e) == 2 and all(isinstance(x, str) for x in e):
            out.append((str(e[0]), str(e[1])))
        else:
            raise _refused(column, row, f"edge #{k}={e!r:.80} is neither a [cause, effect] pair nor a {{from, to}} record")
    return out


def _config(value: Any, row: int) -> Mapping[str, Any] | None:
    """The suite graph's record of one row (``None`` when the column is absent)."""
    if value is None:
        return None
    config = _decoded(value, "config", row)
    if not isinstance(config, Mapping) or not _is_list(config.get("edges")) or not isinstance(config.get("nodes"), Mapping):
        raise _refused("config", row, f"{config!r:.80} is not a suite graph's record")
    return config


def make_hypothesis_reward(weights: str | RewardWeights | Mapping[str, float] | None = "dense", *, tolerance: float = 0.01) -> RewardFunc:
    """A TRL reward function scoring hypothesis records (module docstring) with *weights*.

    Weights that give every term this reward computes a weight of 0 (the ``"paper"`` preset weighs
    only the reactor's success, which one completion cannot earn) are refused: each reward would be 0.
    """
    w = reward_weights(weights)
    used = ("format", "consistency", "edge_f1", "parent_f1", "coefficient_f1", "shd")
    if not any(getattr(w, term) for term in used):
        raise InputFormatError(
            f"weights={weights!r} give 0 to every term of the hypothesis reward ({', '.join(used)}): every reward "
            "would be 0 ('paper' weighs only the reactor's success, which one completion cannot earn); use 'dense' "
            "or a mapping of weights"
        )

    def hypothesis_reward(prompts: Sequence[Any], completions: Sequence[Any], **kwargs: Any) -> list[float]:
        n = len(completions)
        # every row of every column read (or refused naming it) before any is scored
        data = [_points(v, k) for k, v in enumerate(_column(kwargs, "data", n, required=True))]
        configs = [_config(v, k) for k, v in enumerate(_column(kwargs, "config", n, required=False))]
        truths = [
            _edges(v, "true_edges", k) if v is not None else (_edges(c["edges"], "config", k) if c is not None else None)
            for k, (v, c) in enumerate(zip(_column(kwargs, "true_edges", n, required=False), configs, strict=True))
        ]
        out: list[float] = []
        for completion, points, truth, config in zip(completions, data, truths, configs, strict=True):
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
                terms["consistency"], _ = consistency_term(hyp, points, tolerance)
            if truth is not None:
                nodes = len({x for pair in truth for x in pair} | set(hyp.graph.nodes if hyp else ()))
                mech, _ = mechanism_terms(
                    hyp.graph.pairs if hyp else (), dict(hyp.coefficients) if hyp else {}, truth, config, nodes=nodes,
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
    parsed = [parse_item(_decoded(raw, "item", k), k) for k, raw in enumerate(items)]
    for completion, item in zip(completions, parsed, strict=True):
        result = score_item(item, scrub(completion_text(completion)), judges.parser, judges.edge_judge, judges.criterion_judge)
        out.append(result.final if result.status == "ok" else 0.0)
    return out
