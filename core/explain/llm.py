"""PRISM with a model: the LLM parser, the yes/no edge judge and the per-criterion judge.

These implement the protocols of :mod:`causalcheck.explain.judges`, so
:func:`causalcheck.explain.scoring.score_item` runs the same pipeline whether the judgments
come from the offline judges or from a model.  Each component takes any
:class:`~causalcheck.protocols.LLM` — normally an :class:`~causalcheck.adapters.LLMClient`,
which adds the call cache, retries and cost accounting — and calls it at temperature 0.
A model with the :class:`~causalcheck.protocols.ParsingLLM` capability (the client has it)
is asked again when its reply cannot be read; a plain model is asked once.

* :class:`LLMParser` asks for the PRISM text format (``EDUs:`` / ``RST ANALYSIS:`` /
  ``TREE STRUCTURE:``) and reads it with :func:`~causalcheck.explain.rst.parse_rst_output`
  (``compat="full"`` by default: span references ``EDU5-EDU11`` and ``EDU2+3`` are kept and
  ``NS`` is honoured; ``compat="anchor"`` drops them as the published parser does).  An
  output without EDUs is re-asked once; when the model still fails, :meth:`LLMParser.parse`
  raises and the scorer uses the heuristic graph and marks the item *degraded*.
* :class:`LLMEdgeJudge` asks, per edge, whether the answer itself states that the source
  claim stands in the labelled relation to the target claim; a reply starting with "yes" is
  1.0, "no" 0.0, anything else is re-asked once and then recorded as a degraded 0.0.  The
  edges of one item are judged concurrently (the client's per-provider limit applies).
* :class:`LLMCriterionJudge` asks for one integer 1–10 following the criterion's five bands,
  as JSON ``{"score", "reason"}``; the score is rounded and clamped to 1..10.  A reply
  without a usable score is re-asked once and then recorded as a degraded score of 1 (the
  original's fallback), with the error.

Failures never turn silently into normal scores: every fallback judgment carries
``degraded=True`` and the error text, so a result file shows which items to redo and a
resumed run redoes them.  Errors that must stop the run — ``--max-cost`` reached, a replay
cache miss (both :class:`~causalcheck.base.errors.BudgetExceededError`) — are not caught here.

The prompts are our own wording of the published protocol (prism-spec §3.2, §4.1, §4.3).
The command-line wiring (``--judge`` / ``--parser``, building the clients from the options)
is :mod:`causalcheck.explain.llm_cli`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Coroutine, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from causalcheck.base.aio import run_sync
from causalcheck.base.errors import BudgetExceededError, InputFormatError
from causalcheck.base.jsontext import first_object
from causalcheck.base.redaction import redact
from causalcheck.explain.data import criteria_of
from causalcheck.explain.judges import CriterionJudgment, EdgeJudgment
from causalcheck.explain.rst import RELATION_LABELS, Compat, parse_rst_output, project_to_graph
from causalcheck.protocols import LLM, Completion, LLMError, Request, complete_parsed

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.explain.data import Criterion, WhatIfItem
    from causalcheck.explain.explanation_graph import ExplanationGraph
    from causalcheck.explain.rst import RSTRecord

__all__ = [
    "CRITERION_SCHEMA",
    "LLMCriterionJudge",
    "LLMEdgeJudge",
    "LLMParser",
    "criterion_messages",
    "edge_messages",
    "extract_json_object",
    "parse_criterion_reply",
    "parse_yes_no",
    "parser_messages",
    "reject_truncated",
]

T = TypeVar("T")

CRITERION_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "score": {"type": "integer", "minimum": 1, "maximum": 10},
        "reason": {"type": "string"},
    },
    "required": ["score", "reason"],
}

# ------------------------------------------------------------------ prompts (our wording)
_PARSER_SYSTEM = "Write only the three sections asked for, with no other text."

_PARSER_USER = """You are a discourse analyst using Rhetorical Structure Theory (RST).
Break the text below into elementary discourse units (EDUs), decide for every link which
unit carries the main point (nucleus) and which one supports it (satellite), name the
relation, and sketch the resulting tree.

Prefer these relation names: {labels}.

Reply with exactly these three sections and nothing before, between or after them:

EDUs:
one unit per line, numbered in text order, as `EDU1: <text of the unit>`

RST ANALYSIS:
one relation per line, as `RELATION(EDU_source, EDU_target): RELATION_TYPE [NUCLEARITY]`.
For an asymmetric relation the source is the satellite (the supporting unit) and the target
is the nucleus (the unit it supports). NUCLEARITY is SN (satellite first), NS (nucleus first)
or NN (a multinuclear relation between equals).

TREE STRUCTURE:
a compact indented tree whose lines are labelled ROOT, NUCLEUS, SATELLITE or MULTINUCLEAR.

Text:
{text}"""

_EDGE_SYSTEM = "Reply with one word, yes or no. When unsure, reply no."

_EDGE_USER = """Decide whether an answer to a what-if question itself supports one directed link
between two of its claims.

Say yes only if all of these hold:
- both claims are stated in the answer, word for word or as an unmistakable paraphrase;
- the answer itself links them, close together in the text, in exactly this direction
  (source claim -> target claim);
- the link has the stated kind and strength; for CAUSE, RESULT, CONSEQUENCE and CONDITION
  the answer must present a real dependency (one brings about or enables the other), not
  mere succession in time or a shared topic.

Say no when the link is only plausible, rests on background knowledge or on the question,
needs a gap filled in, is reversed, circular, vaguer or stronger than the text allows, is
partly contradicted, or when the two claims only appear separately. Fluency, length and
relevance earn nothing.

Question: {question}

Source claim: {source}
Target claim: {target}
Stated relation: {relation}

Answer:
{answer}

Is the link source -> target ({relation}) supported by the answer text? yes or no:"""

_CRITERION_SYSTEM = "Reply with a JSON object only."

_CRITERION_USER = """Grade an answer to an open counterfactual question on ONE criterion of its
rubric. The criterion lists five score bands (1-2, 3-4, 5-6, 7-8, 9-10); pick the single
integer from 1 to 10 whose band describes the answer best.

Be demanding. Grade only what the answer says explicitly. A relevant but shallow answer
sits around 5. When torn between two bands, take the lower one. Keep these ceilings:
- the answer does not address the criterion: at most 4;
- a plausible conclusion with no mechanism behind it, or generic text: at most 5;
- a serious contradiction, drift away from the premise or a major factual error: at most 5;
- a central element the criterion asks for is missing, or the long-range reasoning it asks
  for is absent: at most 6;
- constraints or uncertainty the criterion mentions are ignored: at most 7.
Give 8 only to a clearly strong answer and 9-10 only to an exceptional one.

Question: {question}

Criterion (JSON):
{criterion}

Answer:
{answer}

Return {{"score": <integer 1-10>, "reason": "<one or two sentences>"}}."""


def parser_messages(answer: str) -> list[dict[str, str]]:
    """The parser call's messages for *answer* (the question is not shown, as in PRISM)."""
    return [
        {"role": "system", "content": _PARSER_SYSTEM},
        {"role": "user", "content": _PARSER_USER.format(labels=", ".join(RELATION_LABELS), text=answer)},
    ]


def edge_messages(question: str, answer: str, source: str, target: str, relation: str) -> list[dict[str, str]]:
    """The edge judge's messages for one directed edge."""
    user = _EDGE_USER.format(question=question, source=source, target=target, relation=relation, answer=answer)
    return [{"role": "system", "content": _EDGE_SYSTEM}, {"role": "user", "content": user}]


def criterion_messages(question: str, answer: str, criterion: Mapping[str, Any]) -> list[dict[str, str]]:
    """The criterion judge's messages; *criterion* is the official criterion object."""
    crit = json.dumps(dict(criterion), ensure_ascii=False, indent=2)
    user = _CRITERION_USER.format(question=question, criterion=crit, answer=answer)
    return [{"role": "system", "content": _CRITERION_SYSTEM}, {"role": "user", "content": user}]


# ------------------------------------------------------------------ reply parsing
_LEAD = re.compile(r"^[\s*_`\"'(\[]+")


def parse_yes_no(text: str) -> float:
    """1.0 for a reply starting with "yes", 0.0 for "no" (case, whitespace and markdown ignored).

    >>> parse_yes_no("Yes."), parse_yes_no("**no** — the link is implied")
    (1.0, 0.0)

    Raises :class:`ValueError` for anything else.
    """
    s = _LEAD.sub("", text.strip().lower())
    if s.startswith("yes"):
        return 1.0
    if s.startswith("no"):
        return 0.0
    raise ValueError(f"reply={text[:80]!r} must start with yes or no")


def extract_json_object(text: str) -> dict[str, Any]:
    """The first JSON object in *text*: inside a ``` fence if there is one, else anywhere.

    The first-object policy of :func:`causalcheck.base.jsontext.first_object`.

    >>> extract_json_object('Sure! {"score": 7, "reason": "ok"} hope that helps')
    {'score': 7, 'reason': 'ok'}

    Decoded with :func:`causalcheck.base.safejson.raw_decode` (no unbounded nesting, no huge or
    non-finite numbers).  Raises :class:`ValueError` when there is none (e.g. JSON cut off at
    ``max_tokens``).
    """
    obj = first_object(text)
    if obj is None:
        raise ValueError(f"reply={text[:80]!r} holds no complete JSON object")
    return obj


def reject_truncated(completion: Completion) -> Completion:
    """*completion* itself, unless it was cut at ``max_tokens`` (``finish_reason == "length"``):
    then :class:`ValueError`, so the reply is asked again and never cached.

    >>> reject_truncated(Completion('{"score": 7, "rea', finish_reason="length"))
    Traceback (most recent call last):
    ...
    ValueError: reply cut at max_tokens (finish_reason='length'): '{"score": 7, "rea'
    """
    if completion.finish_reason == "length":
        raise ValueError(f"reply cut at max_tokens (finish_reason='length'): {completion.text[-60:]!r}")
    return completion


def parse_criterion_reply(text: str) -> tuple[int, str, dict[str, Any]]:
    """``(score 1..10, reason, parsed object)`` from a criterion judge's reply.

    The score is ``round(clamp(float(score), 1, 10))``.  Raises :class:`ValueError` when the
    reply has no JSON object or its ``score`` is not a number.
    """
    obj = extract_json_object(text)
    raw = obj.get("score")
    if isinstance(raw, bool):
        raise ValueError(f"score={raw!r} must be a number")
    try:
        value = float(raw)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"score={raw!r:.40} must be a number from 1 to 10") from None
    if value != value:
        raise ValueError(f"score={raw!r} must be a number from 1 to 10")
    score = round(min(max(value, 1.0), 10.0))
    reason = obj.get("reason")
    return score, reason if isinstance(reason, str) else "", obj


# ------------------------------------------------------------------ components
def _run(coro: Coroutine[Any, Any, T]) -> T:
    return run_sync(coro)


def _request(messages: list[dict[str, str]], **params: Any) -> Request:
    return Request.chat(messages, **params)


def _failure_text(exc: BaseException) -> str:
    return redact(str(exc))[:500]


class LLMParser:
    """:class:`~causalcheck.explain.judges.AnswerParser` backed by a model (see the module docstring)."""

    def __init__(self, llm: LLM, *, compat: Compat = "full", max_tokens: int = 4096) -> None:
        if compat not in ("full", "anchor"):
            raise InputFormatError(f"compat={compat!r} must be 'full' or 'anchor'")
        self.llm = llm
        self.compat: Compat = compat
        self.max_tokens = max_tokens

    async def aparse(self, answer: str) -> RSTRecord:
        req = _request(parser_messages(answer), temperature=0.0, max_tokens=self.max_tokens)

        def read(c: Completion) -> RSTRecord:
            reject_truncated(c)
            record = parse_rst_output(c.text, compat=self.compat)
            project_to_graph(record)  # a ProjectionLimitError (a ValueError) makes the client ask again
            return record

        _, record = await complete_parsed(self.llm, req, read)
        return record

    def parse(self, answer: str) -> RSTRecord:
        """The RST record of *answer*; raises :class:`~causalcheck.base.errors.CausalCheckError` on failure."""
        return _run(self.aparse(answer))


class LLMEdgeJudge:
    """:class:`~causalcheck.explain.judges.EdgeJudge` asking a model yes/no per edge."""

    def __init__(self, llm: LLM, *, max_tokens: int = 1024) -> None:
        self.llm = llm
        self.max_tokens = max_tokens

    async def ajudge(self, question: str, answer: str, source: str, target: str, relation: str) -> EdgeJudgment:
        req = _request(edge_messages(question, answer, source, target, relation), temperature=0.0, max_tokens=self.max_tokens)
        try:
            _, score = await complete_parsed(self.llm, req, lambda c: parse_yes_no(reject_truncated(c).text))
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            return EdgeJudgment(score=0.0, raw="", error=_failure_text(exc), degraded=True)
        return EdgeJudgment(score=score, raw="yes" if score == 1.0 else "no")

    async def ajudge_edges(self, item: WhatIfItem, answer: str, graph: ExplanationGraph, edges: Sequence[int]) -> list[EdgeJudgment]:
        import asyncio

        text = graph.text_of
        jobs = []
        for i in edges:
            e = graph.edges[i]
            jobs.append(self.ajudge(item.question, answer, text.get(e.source, ""), text.get(e.target, ""), e.relation_type))
        return list(await asyncio.gather(*jobs))

    def judge_edges(self, item: WhatIfItem, answer: str, graph: ExplanationGraph, edges: Sequence[int]) -> list[EdgeJudgment]:
        """One judgment per index in *edges*, in order."""
        return _run(self.ajudge_edges(item, answer, graph, edges))


class LLMCriterionJudge:
    """:class:`~causalcheck.explain.judges.CriterionJudge` asking a model for a 1–10 band score."""

    def __init__(self, llm: LLM, *, max_tokens: int = 4096, use_schema: bool = True) -> None:
        self.llm = llm
        self.max_tokens = max_tokens
        self.use_schema = use_schema
        self._memo_key: tuple[str, str] | None = None
        self._memo: dict[str, CriterionJudgment] = {}

    async def ajudge(self, question: str, answer: str, criterion: Mapping[str, Any]) -> CriterionJudgment:
        req = _request(
            criterion_messages(question, answer, criterion),
            temperature=0.0,
            max_tokens=self.max_tokens,
            json_schema=CRITERION_SCHEMA if self.use_schema else None,
        )
        try:
            _, parsed = await complete_parsed(self.llm, req, lambda c: parse_criterion_reply(reject_truncated(c).text))
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            err = _failure_text(exc)
            return CriterionJudgment(score=1, reason="", raw={"score": 1, "reason": "", "error": err}, error=err, degraded=True)
        score, reason, obj = parsed
        return CriterionJudgment(score=score, reason=reason, raw=obj)

    async def _all(self, question: str, answer: str, criteria: Sequence[Mapping[str, Any]]) -> list[CriterionJudgment]:
        import asyncio

        return list(await asyncio.gather(*(self.ajudge(question, answer, c) for c in criteria)))

    def judge_criterion(self, item: WhatIfItem, answer: str, criterion: Criterion, index: int) -> CriterionJudgment:
        """The verdict for criterion number *index* (1-based).

        The scorer asks for the criteria one by one; the first request judges all criteria of
        the item concurrently and keeps the verdicts for the following requests (same
        results as asking one at a time, in a fifth of the wall time for five criteria).
        """
        wanted = criterion.to_json()
        key = (item.question, answer)
        if self._memo_key != key:
            crits = [c.to_json() for c in criteria_of(item)]
            if wanted not in crits:
                crits = [wanted]
            self._memo = dict(zip((json.dumps(c, sort_keys=True) for c in crits), _run(self._all(item.question, answer, crits)), strict=True))
            self._memo_key = key
        hit = self._memo.pop(json.dumps(wanted, sort_keys=True), None)
        if hit is not None:
            return hit
        return _run(self.ajudge(item.question, answer, wanted))
