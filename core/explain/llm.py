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

**Per-answer calls** (``calls="per-answer"`` on both judges; ``--judge-calls per-answer``; off by
default, which follows the paper): one call judges all the edges of an answer asked for, as a JSON
list of numbered verdicts, and one call grades all of its criteria, as a JSON list of numbered
scores; every entry is checked as a one-call reply would be.  An edge or criterion the reply does
not answer usably (no entry, two entries, an unreadable verdict or score) — or all of them, when
the call fails after its re-ask — is judged again in its own call; only when that call fails too is
it degraded, as above.  These prompts are laid out answer-first: the system message, the question
and the answer come first and are the same characters in every call on one answer
(:func:`shared_prefix`), so a provider's prefix cache serves them; the task comes last.  The
paper's one-call-per-judgment prompts keep its layout (the claims or the criterion before the
answer): moving the answer changes what the judge reads first, so their verdicts — and every
cached or recorded call — would no longer be the paper's.

Failures never turn silently into normal scores: every fallback judgment carries
``degraded=True`` and the error text, so a result file shows which items to redo and a
resumed run redoes them.  Errors that must stop the run — ``--max-cost`` reached, a replay
cache miss (both :class:`~causalcheck.base.errors.BudgetExceededError`) — are not caught here.

The prompts are our own wording of the published protocol (prism-spec §3.2, §4.1, §4.3).
The command-line wiring (``--judge`` / ``--parser``, building the clients from the options)
is :mod:`causalcheck.explain.llm_cli`.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar

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
    "CRITERIA_BATCH_SCHEMA",
    "CRITERION_SCHEMA",
    "EDGE_BATCH_SCHEMA",
    "JUDGE_CALLS",
    "BatchReply",
    "JudgeCalls",
    "LLMCriterionJudge",
    "LLMEdgeJudge",
    "LLMParser",
    "band_score",
    "criteria_batch_messages",
    "criterion_messages",
    "criterion_one_messages",
    "edge_batch_messages",
    "edge_messages",
    "edge_one_messages",
    "extract_json_object",
    "parse_criteria_batch",
    "parse_criterion_reply",
    "parse_edge_batch",
    "parse_yes_no",
    "parser_messages",
    "reject_truncated",
    "shared_prefix",
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

_EDGE_CONDITIONS = """Say yes only if all of these hold:
- both claims are stated in the answer, word for word or as an unmistakable paraphrase;
- the answer itself links them, close together in the text, in exactly this direction
  (source claim -> target claim);
- the link has the stated kind and strength; for CAUSE, RESULT, CONSEQUENCE and CONDITION
  the answer must present a real dependency (one brings about or enables the other), not
  mere succession in time or a shared topic.

Say no when the link is only plausible, rests on background knowledge or on the question,
needs a gap filled in, is reversed, circular, vaguer or stronger than the text allows, is
partly contradicted, or when the two claims only appear separately. Fluency, length and
relevance earn nothing."""

_EDGE_USER = (
    """Decide whether an answer to a what-if question itself supports one directed link
between two of its claims.

"""
    + _EDGE_CONDITIONS
    + """

Question: {question}

Source claim: {source}
Target claim: {target}
Stated relation: {relation}

Answer:
{answer}

Is the link source -> target ({relation}) supported by the answer text? yes or no:"""
)

_CRITERION_SYSTEM = "Reply with a JSON object only."

_CRITERION_STANDARD = """Be demanding. Grade only what the answer says explicitly. A relevant but shallow answer
sits around 5. When torn between two bands, take the lower one. Keep these ceilings:
- the answer does not address the criterion: at most 4;
- a plausible conclusion with no mechanism behind it, or generic text: at most 5;
- a serious contradiction, drift away from the premise or a major factual error: at most 5;
- a central element the criterion asks for is missing, or the long-range reasoning it asks
  for is absent: at most 6;
- constraints or uncertainty the criterion mentions are ignored: at most 7.
Give 8 only to a clearly strong answer and 9-10 only to an exceptional one."""

_CRITERION_USER = (
    """Grade an answer to an open counterfactual question on ONE criterion of its
rubric. The criterion lists five score bands (1-2, 3-4, 5-6, 7-8, 9-10); pick the single
integer from 1 to 10 whose band describes the answer best.

"""
    + _CRITERION_STANDARD
    + """

Question: {question}

Criterion (JSON):
{criterion}

Answer:
{answer}

Return {{"score": <integer 1-10>, "reason": "<one or two sentences>"}}."""
)


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


# ------------------------------------------------------------------ answer-first prompts (per-answer calls)
# Every call on one answer starts with the same characters — the system message, the question
# and the answer — and only the task after the separator differs, so a provider's prefix cache
# serves the answer once per answer, not once per judgment.
_SHARED_SYSTEM = "You grade one answer to a what-if question. Do the task stated after the answer and reply in exactly the format it asks for."

_SHARED_PREFIX = """Question: {question}

Answer:
{answer}

--- Task ---
"""

_EDGE_ONE_TASK = (
    """Decide whether the answer above itself supports one directed link between two of its claims.

"""
    + _EDGE_CONDITIONS
    + """

Source claim: {source}
Target claim: {target}
Stated relation: {relation}

Is the link source -> target ({relation}) supported by the answer text? Reply with one word, yes or no. When unsure, reply no:"""
)

_EDGE_BATCH_TASK = (
    """Decide, for each numbered directed link below between two claims of the answer above,
whether the answer itself supports it. Judge every link on its own.

"""
    + _EDGE_CONDITIONS
    + """

Links:
{links}

Reply with a JSON object only: {{"verdicts": [{{"edge": <link number>, "verdict": "yes" or "no"}}, ...]}}
with exactly one entry per link, in link order. When unsure about a link, say no."""
)

_CRITERION_ONE_TASK = (
    """Grade the answer above on ONE criterion of its rubric. The criterion lists five score bands
(1-2, 3-4, 5-6, 7-8, 9-10); pick the single integer from 1 to 10 whose band describes the answer best.

"""
    + _CRITERION_STANDARD
    + """

Criterion (JSON):
{criterion}

Return {{"score": <integer 1-10>, "reason": "<one or two sentences>"}}."""
)

_CRITERIA_BATCH_TASK = (
    """Grade the answer above on EACH numbered criterion of its rubric below, separately. Every
criterion lists five score bands (1-2, 3-4, 5-6, 7-8, 9-10); for each, pick the single integer
from 1 to 10 whose band describes the answer best, judging it as if it were the only criterion.

"""
    + _CRITERION_STANDARD
    + """

Criteria:
{criteria}

Return a JSON object only: {{"scores": [{{"criterion": <criterion number>, "score": <integer 1-10>,
"reason": "<one or two sentences>"}}, ...]}} with exactly one entry per criterion, in criterion order."""
)

EDGE_BATCH_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "verdicts": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"edge": {"type": "integer", "minimum": 1}, "verdict": {"type": "string", "enum": ["yes", "no"]}},
                "required": ["edge", "verdict"],
            },
        }
    },
    "required": ["verdicts"],
}

CRITERIA_BATCH_SCHEMA: Mapping[str, Any] = {
    "type": "object",
    "properties": {
        "scores": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "criterion": {"type": "integer", "minimum": 1},
                    "score": {"type": "integer", "minimum": 1, "maximum": 10},
                    "reason": {"type": "string"},
                },
                "required": ["criterion", "score", "reason"],
            },
        }
    },
    "required": ["scores"],
}


def shared_prefix(question: str, answer: str) -> list[dict[str, str]]:
    """The messages every per-answer call on *answer* starts with (the user message continues after them).

    >>> shared_prefix("What if?", "Then so.")[1]["content"].endswith("--- Task ---\\n")
    True
    """
    return [{"role": "system", "content": _SHARED_SYSTEM}, {"role": "user", "content": _SHARED_PREFIX.format(question=question, answer=answer)}]


def _answer_first(question: str, answer: str, task: str) -> list[dict[str, str]]:
    system, user = shared_prefix(question, answer)
    return [system, {"role": "user", "content": user["content"] + task}]


def edge_one_messages(question: str, answer: str, source: str, target: str, relation: str) -> list[dict[str, str]]:
    """The answer-first messages for one edge (a per-answer call's fallback; reply yes or no)."""
    return _answer_first(question, answer, _EDGE_ONE_TASK.format(source=source, target=target, relation=relation))


def edge_batch_messages(question: str, answer: str, links: Sequence[tuple[str, str, str]]) -> list[dict[str, str]]:
    """The answer-first messages judging every ``(source, target, relation)`` of *links* in one call (numbered from 1)."""
    shown = "\n".join(f"Link {i}\nSource claim: {s}\nTarget claim: {t}\nStated relation: {r}\n" for i, (s, t, r) in enumerate(links, 1))
    return _answer_first(question, answer, _EDGE_BATCH_TASK.format(links=shown.rstrip("\n")))


def criterion_one_messages(question: str, answer: str, criterion: Mapping[str, Any]) -> list[dict[str, str]]:
    """The answer-first messages for one criterion (a per-answer call's fallback; reply ``{"score", "reason"}``)."""
    crit = json.dumps(dict(criterion), ensure_ascii=False, indent=2)
    return _answer_first(question, answer, _CRITERION_ONE_TASK.format(criterion=crit))


def criteria_batch_messages(question: str, answer: str, criteria: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The answer-first messages grading every criterion of *criteria* in one call (numbered from 1)."""
    shown = "\n".join(f"Criterion {i} (JSON):\n{json.dumps(dict(c), ensure_ascii=False, indent=2)}\n" for i, c in enumerate(criteria, 1))
    return _answer_first(question, answer, _CRITERIA_BATCH_TASK.format(criteria=shown.rstrip("\n")))


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
    score = band_score(obj.get("score"))
    reason = obj.get("reason")
    return score, reason if isinstance(reason, str) else "", obj


def band_score(raw: Any) -> int:
    """A criterion score as the original reads it: ``round(clamp(float(raw), 1, 10))``.

    >>> band_score(7.6), band_score("12"), band_score(0)
    (8, 10, 1)

    Raises :class:`ValueError` for a boolean, a non-number or NaN.
    """
    if isinstance(raw, bool):
        raise ValueError(f"score={raw!r} must be a number")
    try:
        value = float(raw)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"score={raw!r:.40} must be a number from 1 to 10") from None
    if value != value:
        raise ValueError(f"score={raw!r} must be a number from 1 to 10")
    return round(min(max(value, 1.0), 10.0))


@dataclass(frozen=True)
class BatchReply:
    """What a per-answer reply said: ``values`` by 1-based number, ``problems`` for the numbers it
    did not answer usably (missing, given twice, or with an unusable value), each with the reason."""

    values: Mapping[int, Any]
    problems: Mapping[int, str]


def _batch_entries(text: str, key: str, number: str, count: int, read: Callable[[Mapping[str, Any]], Any]) -> BatchReply:
    obj = extract_json_object(text)
    entries = obj.get(key)
    if not isinstance(entries, list):
        raise ValueError(f"reply={text[:80]!r} has no {key!r} list")
    seen: dict[int, list[Any]] = {}
    bad: dict[int, str] = {}
    for entry in entries:
        n = entry.get(number) if isinstance(entry, Mapping) else None
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= count:
            continue  # no usable number: it cannot be matched to a judgment
        try:
            seen.setdefault(n, []).append(read(entry))
        except ValueError as exc:
            seen.setdefault(n, []).append(None)
            bad[n] = str(exc)
    values: dict[int, Any] = {}
    problems: dict[int, str] = {}
    for n in range(1, count + 1):
        got = seen.get(n, [])
        if not got:
            problems[n] = f"the reply has no entry for {number} {n}"
        elif len(got) > 1:
            problems[n] = f"the reply answers {number} {n} {len(got)} times"
        elif n in bad:
            problems[n] = f"the reply's entry for {number} {n} is unusable: {bad[n]}"
        else:
            values[n] = got[0]
    if count and not values:
        raise ValueError(f"reply={text[:80]!r} answers none of the {count} {number}s usably ({problems[1]})")
    return BatchReply(values, problems)


def parse_edge_batch(text: str, count: int) -> BatchReply:
    """The verdicts of a per-answer edge reply ``{"verdicts": [{"edge": n, "verdict": "yes"|"no"}, ...]}``.

    Entries are matched to the *count* edges by their number (1-based), not by position; a
    ``verdict`` is read like a one-call reply (:func:`parse_yes_no`).  An edge with no entry,
    with two entries, or with an unreadable verdict is listed in ``problems``; an entry without
    a number from 1 to *count* is ignored.  Raises :class:`ValueError` (the reply is asked again)
    when there is no ``verdicts`` list or no edge is answered usably.

    >>> r = parse_edge_batch('{"verdicts": [{"edge": 1, "verdict": "yes"}, {"edge": 3, "verdict": "No"}]}', 3)
    >>> dict(r.values), dict(r.problems)
    ({1: 1.0, 3: 0.0}, {2: 'the reply has no entry for edge 2'})
    """
    return _batch_entries(text, "verdicts", "edge", count, lambda e: parse_yes_no(str(e.get("verdict", ""))))


def parse_criteria_batch(text: str, count: int) -> BatchReply:
    """The scores of a per-answer criteria reply ``{"scores": [{"criterion": n, "score": s, "reason": r}, ...]}``.

    The rules of :func:`parse_edge_batch`; a score is read like a one-call reply
    (:func:`band_score`); each value is ``(score, reason, entry)``.
    """

    def read(entry: Mapping[str, Any]) -> tuple[int, str, dict[str, Any]]:
        reason = entry.get("reason")
        return band_score(entry.get("score")), reason if isinstance(reason, str) else "", dict(entry)

    return _batch_entries(text, "scores", "criterion", count, read)


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


#: How the judges call the model: ``"per-judgment"`` — one call per edge and one per criterion,
#: the paper's prompts (the default); ``"per-answer"`` — one call for all of an answer's edges
#: and one for all of its criteria, answer-first prompts.
JudgeCalls = Literal["per-judgment", "per-answer"]
JUDGE_CALLS: tuple[JudgeCalls, ...] = ("per-judgment", "per-answer")


def _check_calls(calls: str) -> JudgeCalls:
    if calls not in JUDGE_CALLS:
        raise InputFormatError(f"calls={calls!r} must be one of {list(JUDGE_CALLS)!r}")
    return calls


def _fallback_note(problem: str) -> str:
    return f"judged in its own call: {problem}"


class LLMEdgeJudge:
    """:class:`~causalcheck.explain.judges.EdgeJudge` asking a model yes/no per edge.

    ``calls="per-answer"`` judges all the edges asked for in one call (:func:`edge_batch_messages`,
    reply read by :func:`parse_edge_batch`); an edge the reply leaves unanswered (missing, given
    twice, unreadable — or every edge, when the call fails) is judged in its own answer-first call
    (:func:`edge_one_messages`) and its verdict's ``rationale`` says why; only when that call fails
    too is the verdict a degraded 0.0, its ``error`` naming both failures.
    """

    def __init__(self, llm: LLM, *, max_tokens: int = 1024, calls: JudgeCalls = "per-judgment", use_schema: bool = True) -> None:
        self.llm = llm
        self.max_tokens = max_tokens
        self.calls: JudgeCalls = _check_calls(calls)
        self.use_schema = use_schema

    async def _ask(self, messages: list[dict[str, str]], note: str = "") -> EdgeJudgment:
        req = _request(messages, temperature=0.0, max_tokens=self.max_tokens)
        try:
            _, score = await complete_parsed(self.llm, req, lambda c: parse_yes_no(reject_truncated(c).text))
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            err = _failure_text(exc)
            return EdgeJudgment(score=0.0, raw="", error=f"{note}; own call failed: {err}" if note else err, degraded=True)
        return EdgeJudgment(score=score, raw="yes" if score == 1.0 else "no", rationale=_fallback_note(note) if note else "")

    async def ajudge(self, question: str, answer: str, source: str, target: str, relation: str) -> EdgeJudgment:
        """One edge in one call, with the paper's prompt (:func:`edge_messages`)."""
        return await self._ask(edge_messages(question, answer, source, target, relation))

    async def _abatch(self, question: str, answer: str, links: list[tuple[str, str, str]]) -> list[EdgeJudgment]:
        if len(links) == 1:
            return [await self._ask(edge_one_messages(question, answer, *links[0]))]
        req = _request(
            edge_batch_messages(question, answer, links),
            temperature=0.0,
            max_tokens=self.max_tokens + 32 * len(links),
            json_schema=EDGE_BATCH_SCHEMA if self.use_schema else None,
        )
        try:
            _, reply = await complete_parsed(self.llm, req, lambda c: parse_edge_batch(reject_truncated(c).text, len(links)))
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            err = f"the batched call failed: {_failure_text(exc)}"
            reply = BatchReply({}, {n: err for n in range(1, len(links) + 1)})
        missing = sorted(reply.problems)
        redone = await asyncio.gather(*(self._ask(edge_one_messages(question, answer, *links[n - 1]), reply.problems[n]) for n in missing))
        out = dict(zip(missing, redone, strict=True))
        for n, score in reply.values.items():
            out[n] = EdgeJudgment(score=score, raw="yes" if score == 1.0 else "no")
        return [out[n] for n in range(1, len(links) + 1)]

    async def ajudge_edges(self, item: WhatIfItem, answer: str, graph: ExplanationGraph, edges: Sequence[int]) -> list[EdgeJudgment]:
        text = graph.text_of
        links = [(text.get(graph.edges[i].source, ""), text.get(graph.edges[i].target, ""), graph.edges[i].relation_type) for i in edges]
        if not links:
            return []
        if self.calls == "per-answer":
            return await self._abatch(item.question, answer, links)
        return list(await asyncio.gather(*(self.ajudge(item.question, answer, *link) for link in links)))

    def judge_edges(self, item: WhatIfItem, answer: str, graph: ExplanationGraph, edges: Sequence[int]) -> list[EdgeJudgment]:
        """One judgment per index in *edges*, in order."""
        return _run(self.ajudge_edges(item, answer, graph, edges))


class LLMCriterionJudge:
    """:class:`~causalcheck.explain.judges.CriterionJudge` asking a model for a 1–10 band score.

    ``calls="per-answer"`` grades all criteria of an answer in one call
    (:func:`criteria_batch_messages`, reply read by :func:`parse_criteria_batch`); a criterion the
    reply leaves unanswered (missing, given twice, unusable score — or every criterion, when the call
    fails) is graded in its own answer-first call (:func:`criterion_one_messages`), its ``raw``
    recording why under ``"fallback"``; only when that call fails too is it the degraded score 1.
    """

    def __init__(self, llm: LLM, *, max_tokens: int = 4096, use_schema: bool = True, calls: JudgeCalls = "per-judgment") -> None:
        self.llm = llm
        self.max_tokens = max_tokens
        self.use_schema = use_schema
        self.calls: JudgeCalls = _check_calls(calls)
        self._memo_key: tuple[str, str] | None = None
        self._memo: dict[str, CriterionJudgment] = {}

    async def _ask(self, messages: list[dict[str, str]], note: str = "") -> CriterionJudgment:
        req = _request(messages, temperature=0.0, max_tokens=self.max_tokens, json_schema=CRITERION_SCHEMA if self.use_schema else None)
        try:
            _, parsed = await complete_parsed(self.llm, req, lambda c: parse_criterion_reply(reject_truncated(c).text))
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            err = f"{note}; own call failed: {_failure_text(exc)}" if note else _failure_text(exc)
            return CriterionJudgment(score=1, reason="", raw={"score": 1, "reason": "", "error": err}, error=err, degraded=True)
        score, reason, obj = parsed
        return CriterionJudgment(score=score, reason=reason, raw={**obj, "fallback": _fallback_note(note)} if note else obj)

    async def ajudge(self, question: str, answer: str, criterion: Mapping[str, Any]) -> CriterionJudgment:
        """One criterion in one call: the paper's prompt (:func:`criterion_messages`), or answer-first with ``calls="per-answer"``."""
        if self.calls == "per-answer":
            return await self._ask(criterion_one_messages(question, answer, criterion))
        return await self._ask(criterion_messages(question, answer, criterion))

    async def _abatch(self, question: str, answer: str, criteria: Sequence[Mapping[str, Any]]) -> list[CriterionJudgment]:
        req = _request(
            criteria_batch_messages(question, answer, criteria),
            temperature=0.0,
            max_tokens=self.max_tokens + 256 * len(criteria),
            json_schema=CRITERIA_BATCH_SCHEMA if self.use_schema else None,
        )
        try:
            _, reply = await complete_parsed(self.llm, req, lambda c: parse_criteria_batch(reject_truncated(c).text, len(criteria)))
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            err = f"the batched call failed: {_failure_text(exc)}"
            reply = BatchReply({}, {n: err for n in range(1, len(criteria) + 1)})
        missing = sorted(reply.problems)
        redone = await asyncio.gather(*(self._ask(criterion_one_messages(question, answer, criteria[n - 1]), reply.problems[n]) for n in missing))
        out = dict(zip(missing, redone, strict=True))
        for n, (score, reason, entry) in reply.values.items():
            out[n] = CriterionJudgment(score=score, reason=reason, raw=entry)
        return [out[n] for n in range(1, len(criteria) + 1)]

    async def _all(self, question: str, answer: str, criteria: Sequence[Mapping[str, Any]]) -> list[CriterionJudgment]:
        if self.calls == "per-answer" and len(criteria) > 1:
            return await self._abatch(question, answer, criteria)
        return list(await asyncio.gather(*(self.ajudge(question, answer, c) for c in criteria)))

    def judge_criterion(self, item: WhatIfItem, answer: str, criterion: Criterion, index: int) -> CriterionJudgment:
        """The verdict for criterion number *index* (1-based).

        The scorer asks for the criteria one by one; the first request judges all criteria of
        the item — concurrently, one call each, or in one call with ``calls="per-answer"`` — and
        keeps the verdicts for the following requests (same results as asking one at a time, in
        a fifth of the wall time for five criteria).
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
