"""Rubric generation: query-dependent rubrics in the official schema for new questions.

WhatIfBench grades every answer against a rubric written for its own question: five criteria,
each a name, a description and five behavioural score bands (``"1-2"`` … ``"9-10"``; see
:mod:`causalcheck.explain.data`).  The published rubrics were made by a model, one call per
item (prism-spec §1); ``causalcheck explain rubrics`` does the same for new questions::

    causalcheck explain rubrics --model openai/gpt-4o --benchmark questions.json --out bench.json

It reads a benchmark file with questions (rubrics absent, or present and to be replaced;
``--keep-existing`` keeps the items that already have one) and writes ``bench.json``: the same
items, each with a ``rubrics`` object in the published layout::

    {"rubric_title": "STEM_open_query_dependent_counterfactual_rubric", "question_focus": <question>,
     "task_type": "counterfactual_long_horizon_reasoning", "evaluation_mode": "query_dependent_criteria",
     "criteria": [<up to 5 × {"name", "criteria_description", "1-2", …, "9-10"}>],
     "aggregation": "mean_over_criteria_then_divide_by_10"}

and ``meta`` = ``{"task": "rubrics_generator", "model", "timestamp", "source_benchmark", "count",
"concurrency", "causalcheck": {provenance, "status": "complete" | "partial", "missing"}}``.
:func:`~causalcheck.explain.data.load_benchmark` reads it as a benchmark with rubrics (every
rubric is checked with the loader's own item parser before it is accepted).

**The call** (the published generator's protocol, our wording — :func:`rubric_messages`): a
system message asking for JSON only, and a user message that is itself a JSON document with
``instruction``, ``required_output`` (exactly five criteria), ``required_schema_per_criterion``,
``item`` (``question``, ``domain``, ``answer_type``, ``gold_answers`` = the first three human
answers) and ``constraints``; temperature 0.6, at most 4096 new tokens.

**Reading the reply** (:func:`parse_rubric_reply`): the first JSON value of the reply (in a code
fence if there is one); an array of criteria, or an object with ``criteria``; the aliases
``criterion_name`` → ``name`` and ``description`` → ``criteria_description``; a criterion without
a name, a description or any of the five bands (or with a non-text one) is dropped; at most five
are kept; a reply with none — non-JSON, cut off, wrong shape — is asked again, at most
:data:`RUBRIC_ATTEMPTS` = 3 replies per item (through a model client this is its re-asking of
rejected replies, which ``explain rubrics`` sets to 3), and a reply cut at ``max_tokens`` is never
accepted.  The published generator passes a legacy rubric form (``rubric_title`` +
``score_guidance``) through unchanged; we do not, since our loader could not score it.

**Resumable, atomic, locked** — with the journal machinery shared with ``explain answer``
(:class:`~causalcheck.explain.generation.Journal`, :class:`~causalcheck.explain.generation.AnswerFileLock`):
every finished item is appended (fsynced) to ``bench.jsonl`` next to the output, after one
provenance line per session; ``--resume`` keeps the items generated before (by the same
generator model — another one is refused — and for the same question text), redoes failed and
missing ones, and ``bench.json`` is rebuilt from the journal and rewritten atomically at the end
of every session (also one stopped by ``--max-cost``: ``status: "partial"``).  One writer per
output file (``.bench.json.lock``).

One module because ``explain rubrics`` is one command — the prompt, the reply parser, the
resumable journal, the benchmark it writes and its options — and nothing else uses these pieces.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from causalcheck.base.errors import BudgetExceededError, InputFormatError
from causalcheck.base.files import atomic_write_text
from causalcheck.explain import generation as gen
from causalcheck.explain.generation import GenerationSummary, Journal

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.base.files import Provenance
    from causalcheck.base.progress import ItemProgress
    from causalcheck.explain.data import Benchmark, WhatIfItem
    from causalcheck.protocols import LLM, Completion, Request

__all__ = [
    "MAX_CRITERIA",
    "RUBRIC_ATTEMPTS",
    "RubricReply",
    "RubricRunSummary",
    "add_rubric_arguments",
    "build_rubric",
    "first_json_value",
    "generate_rubrics",
    "parse_rubric_reply",
    "register",
    "rubric_benchmark",
    "rubric_messages",
    "run_rubrics",
]

T = TypeVar("T")

#: Replies read per item at most (prism-spec §1: 3 attempts).
RUBRIC_ATTEMPTS = 3
#: Criteria kept per rubric at most.
MAX_CRITERIA = 5
#: Human answers shown to the generator as examples (the first three, as published).
GOLD_ANSWERS = 3

# ---------------------------------------------------------------------- the prompt (our wording)
_SYSTEM = (
    "You write grading rubrics for open-ended counterfactual (what-if) questions. "
    "Reply with JSON only: no prose before or after it."
)

_SCHEMA_PER_CRITERION: Mapping[str, str] = {
    "name": "a short name of the criterion",
    "criteria_description": "what the criterion checks in an answer to this question",
    "1-2": "what an answer scoring 1-2 on this criterion does",
    "3-4": "what an answer scoring 3-4 does",
    "5-6": "what an answer scoring 5-6 does",
    "7-8": "what an answer scoring 7-8 does",
    "9-10": "what an answer scoring 9-10 does",
}

_CONSTRAINTS: tuple[str, ...] = (
    "Make every criterion specific to this question, its premise and its domain; no generic criteria of writing quality.",
    "Criterion 1 checks that the answer takes the premise (the counterfactual change) as given and stays anchored to it.",
    "Criteria 2 to 4 check the mechanisms and the long-range consequences this question turns on: causal fidelity under the "
    "premise, coverage of the mechanisms, and the coherence of the chain from the change to its later effects.",
    "Criterion 5 checks uncertainty calibration and contradiction control.",
    "Band descriptions are concise, describe what an answer does, and are clearly distinguishable from the neighbouring bands.",
    "The gold answers are examples of human answers, not the required conclusion.",
)
_OPEN = "The question is open: reward plausibility, depth of mechanism and coverage of downstream effects; there is no single correct endpoint."
_CLOSED = "The question is closed: reward reaching the correct endpoint, and the reasoning that leads to it."


def rubric_messages(item: WhatIfItem) -> list[dict[str, str]]:
    """The generator call's messages for *item* (module docstring).

    >>> from causalcheck.explain.data import load_benchmark
    >>> import json
    >>> doc = json.loads(rubric_messages(load_benchmark("demo").items[0])[1]["content"])
    >>> sorted(doc), sorted(doc["item"])
    (['constraints', 'instruction', 'item', 'required_output', 'required_schema_per_criterion'], ['answer_type', 'domain', 'gold_answers', 'question'])
    """
    kind = _CLOSED if item.answer_type.strip().lower() == "closed" else _OPEN
    document = {
        "instruction": (
            "Write the grading criteria for one counterfactual question, the way WritingBench writes query-dependent "
            "criteria, adapted to long-range counterfactual reasoning. A grader will score an answer from 1 to 10 on "
            "each criterion, choosing the band that describes the answer best."
        ),
        "required_output": "a JSON array of exactly 5 criterion objects, each with exactly the keys of required_schema_per_criterion",
        "required_schema_per_criterion": dict(_SCHEMA_PER_CRITERION),
        "item": {
            "question": item.question,
            "domain": item.domain,
            "answer_type": item.answer_type,
            "gold_answers": list(item.human_answers[:GOLD_ANSWERS]),
        },
        "constraints": [*_CONSTRAINTS, kind],
    }
    return [
        {"role": "system", "content": _SYSTEM},
        {"role": "user", "content": json.dumps(document, ensure_ascii=False, indent=2)},
    ]


# ---------------------------------------------------------------------- reading the reply
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL | re.IGNORECASE)
_OPENER = re.compile(r"[\[{]")


def _first_in(text: str) -> list[Any] | dict[str, Any] | None:
    # late: keeps causalcheck --help light
    from causalcheck.base import safejson

    for m in _OPENER.finditer(text):
        try:
            value, _ = safejson.raw_decode(text, m.start(), source="reply")
        except InputFormatError:
            continue
        if isinstance(value, (list, dict)):
            return value
    return None


def first_json_value(text: str) -> list[Any] | dict[str, Any]:
    """The first JSON array or object in *text*: in the first fenced block that holds one, else anywhere.

    :func:`causalcheck.base.jsontext.first_object`'s policy, extended to arrays; decoded with
    :func:`causalcheck.base.safejson.raw_decode` (bounded nesting, finite numbers).

    >>> first_json_value('Here: [{"name": "a"}] done')
    [{'name': 'a'}]
    >>> first_json_value('[{"name": "a"}, {"na')  # an array cut off: its first complete object
    {'name': 'a'}

    Raises :class:`ValueError` when there is none.
    """
    for m in _FENCE.finditer(text):
        found = _first_in(m.group(1))
        if found is not None:
            return found
    found = _first_in(text)
    if found is None:
        raise ValueError(f"reply={text[:80]!r} holds no complete JSON array or object")
    return found


def _criterion(obj: Any) -> dict[str, str] | None:
    """The criterion in the official key order, or ``None`` when a field is missing, empty or not text."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.data import BAND_KEYS

    if not isinstance(obj, Mapping):
        return None
    fields = {
        "name": obj.get("name", obj.get("criterion_name")),
        "criteria_description": obj.get("criteria_description", obj.get("description")),
        **{k: obj.get(k) for k in BAND_KEYS},
    }
    if not all(isinstance(v, str) and v.strip() for v in fields.values()):
        return None
    return {k: str(v).strip() for k, v in fields.items()}


@dataclass(frozen=True)
class RubricReply:
    """What :func:`parse_rubric_reply` read: the criteria kept, how many were invalid, how many over five."""

    criteria: tuple[dict[str, str], ...]
    invalid: int = 0
    over_limit: int = 0


def parse_rubric_reply(text: str) -> RubricReply:
    """The criteria of a generator reply (module docstring); :class:`ValueError` when none is valid.

    >>> reply = parse_rubric_reply('{"criteria": [{"criterion_name": "Premise", "description": "d", '
    ...     '"1-2": "a", "3-4": "b", "5-6": "c", "7-8": "d", "9-10": "e"}, {"name": "half"}]}')
    >>> reply.criteria[0]["name"], reply.invalid
    ('Premise', 1)
    """
    value = first_json_value(text)
    raw = value.get("criteria") if isinstance(value, dict) else value
    if not isinstance(raw, list):
        raise ValueError(f"reply object={json.dumps(value)[:80]!r} must be an array of criteria or have a 'criteria' array")
    kept = [c for c in (_criterion(x) for x in raw) if c is not None]
    invalid = len(raw) - len(kept)
    if not kept:
        raise ValueError(f"reply has no valid criterion ({invalid} without a name, description or all five bands)")
    return RubricReply(tuple(kept[:MAX_CRITERIA]), invalid, max(0, len(kept) - MAX_CRITERIA))


def build_rubric(item: WhatIfItem, criteria: Sequence[Mapping[str, str]]) -> dict[str, Any]:
    """The ``rubrics`` object of *item* with *criteria*, checked with the benchmark loader
    (:func:`~causalcheck.explain.data.parse_item` must keep every criterion, else :class:`ValueError`)."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.data import criteria_of, parse_item

    rubric = {
        "rubric_title": f"{item.domain}_{item.answer_type}_query_dependent_counterfactual_rubric",
        "question_focus": item.question,
        "task_type": "counterfactual_long_horizon_reasoning",
        "evaluation_mode": "query_dependent_criteria",
        "criteria": [dict(c) for c in criteria],
        "aggregation": "mean_over_criteria_then_divide_by_10",
    }
    loaded = parse_item({**item.raw, "rubrics": rubric})
    if len(criteria_of(loaded)) != len(criteria):
        raise ValueError(f"rubric of {item.key!r}: the loader kept {len(criteria_of(loaded))} of {len(criteria)} criteria")
    return rubric


# ---------------------------------------------------------------------- the run
@dataclass(frozen=True, kw_only=True)
class RubricRunSummary(GenerationSummary):
    """What one run did: rubrics generated now, kept from the input, and the rest of a :class:`GenerationSummary`."""

    generated: int
    kept: int

    def counts(self) -> dict[str, int]:
        return {"generated": self.generated, "kept": self.kept}


def _rubric_ok(rec: Mapping[str, Any]) -> bool:
    rubric = rec.get("rubrics")
    return rec.get("status") == "ok" and isinstance(rubric, dict) and bool(rubric.get("criteria"))


def rubric_journal(out: str | Path) -> Journal:
    """The :class:`~causalcheck.explain.generation.Journal` of the output *out* (``X.json`` → ``X.jsonl``)."""
    path = Path(out)
    if path.suffix != ".json":
        raise InputFormatError(f"out={str(path)!r} must name a .json file (the benchmark with rubrics)")
    return Journal(path.with_suffix(".jsonl"), payload="rubrics", ok=_rubric_ok, what="rubric journal")


def _has_rubric(item: WhatIfItem) -> bool:
    # late: keeps causalcheck --help light
    from causalcheck.explain.data import criteria_of

    return bool(criteria_of(item))


def _record(item: WhatIfItem, model: str, completion: Completion | None, reply: RubricReply | None, rubric: Any, error: str | None) -> dict[str, Any]:
    return {
        "id": item.id,
        "canonical_id": item.canonical_id,
        "question": item.question,
        "model_name": model,
        "rubrics": rubric,
        "rubric_error": error,
        "status": "ok" if error is None else "failed",
        "invalid_criteria": reply.invalid if reply is not None else None,
        "criteria_over_limit": reply.over_limit if reply is not None else None,
        "finish_reason": completion.finish_reason if completion is not None else None,
        "usage": completion.usage.to_dict() if completion is not None else None,
    }


async def _ask(llm: LLM, request: Request, parse: Callable[[Completion], T]) -> tuple[Completion, T]:
    """``complete_parsed`` with at most :data:`RUBRIC_ATTEMPTS` replies: a model client re-asks by its own
    policy; a bare model is asked again here."""
    # late: keeps causalcheck --help light
    from causalcheck.protocols import LLMError, ParsingLLM, complete_parsed

    if isinstance(llm, ParsingLLM):
        return await llm.complete_parsed(request, parse)
    last: Exception | None = None
    for _ in range(RUBRIC_ATTEMPTS):
        try:
            return await complete_parsed(llm, request, parse)
        except BudgetExceededError:
            raise
        except (LLMError, ValueError) as exc:
            last = exc
    assert last is not None
    raise last


async def generate_rubrics(
    items: Sequence[WhatIfItem],
    llm: LLM,
    out: str | Path,
    *,
    model_name: str | None = None,
    temperature: float = gen.DEFAULT_TEMPERATURE,
    max_tokens: int = gen.DEFAULT_MAX_TOKENS,
    resume: bool = False,
    keep_existing: bool = False,
    provenance: Provenance | None = None,
    progress: ItemProgress | None = None,
) -> RubricRunSummary:
    """Generate the rubric of every item not yet done in the journal of *out* (module docstring).

    Writes the journal only; :func:`rubric_benchmark` builds the output document from it.  The
    caller holds the output's lock (:class:`~causalcheck.explain.generation.AnswerFileLock`;
    :func:`run_rubrics` does).
    """
    # late: keeps causalcheck --help light
    from causalcheck.explain.llm import reject_truncated

    # late: keeps causalcheck --help light
    from causalcheck.protocols import Request, meter_summary

    gen.check_sampling(temperature, max_tokens)
    name = model_name or f"{llm.provider}/{llm.model}"
    journal = rubric_journal(out)
    done = journal.start(resume=resume, provenance=provenance, fingerprint={"model_name": (name, None)})
    kept = [it for it in items if keep_existing and _has_rubric(it)]
    kept_keys = {it.key for it in kept}
    todo = [it for it in items if it.key not in kept_keys and not (it.key in done and done[it.key].get("question") == it.question)]

    async def ask(item: WhatIfItem) -> dict[str, Any]:
        req = Request.chat(rubric_messages(item), temperature=temperature, max_tokens=max_tokens)

        def parse(c: Completion) -> tuple[RubricReply, dict[str, Any]]:
            reply = parse_rubric_reply(reject_truncated(c).text)
            return reply, build_rubric(item, reply.criteria)

        comp, (reply, rubric) = await _ask(llm, req, parse)
        return _record(item, name, comp, reply, rubric, None)

    tally = await gen.generate_items(items, todo, ask, lambda item, reason: _record(item, name, None, None, None, reason), journal, progress)
    skipped = len(items) - len(todo) - len(kept)
    return RubricRunSummary(
        generated=tally.ok,
        kept=len(kept),
        failed=tally.failed,
        skipped=skipped,
        total=len(items),
        stopped=tally.stopped,
        accounting=meter_summary(llm),
        failures=tally.failures,
    )


def rubric_benchmark(
    bench: Benchmark,
    items: Sequence[WhatIfItem],
    out: str | Path,
    *,
    model_name: str,
    provenance: Provenance,
    keep_existing: bool = False,
    concurrency: int | None = None,
    failures: Sequence[tuple[str, str]] = (),
) -> dict[str, Any]:
    """The output document: *items* with the journal's rubrics (module docstring).

    An item without a generated rubric (failed, or not reached before a stop) is written without
    ``rubrics`` and listed in ``meta.causalcheck.missing`` with the reason.
    """
    done, _ = rubric_journal(out).read()
    reasons = dict(failures)
    out_items: list[dict[str, Any]] = []
    missing: list[dict[str, str]] = []
    for item in items:
        raw = dict(item.raw)
        rec = done.get(item.key)
        if keep_existing and _has_rubric(item):
            pass
        elif rec is not None and rec.get("question") == item.question:
            raw["rubrics"] = rec["rubrics"]
        else:
            raw.pop("rubrics", None)
            missing.append({"key": item.key, "error": reasons.get(item.key, "not generated yet; resume with --resume")})
        out_items.append(raw)
    started = provenance.started
    meta: dict[str, Any] = {
        "task": "rubrics_generator",
        "model": model_name,
        "timestamp": started.replace("-", "").replace(":", "").replace("T", "-").rstrip("Z")[:15],
        "source_benchmark": bench.source,
        "count": len(out_items),
        "concurrency": concurrency,
        "causalcheck": {**provenance.to_json(), "status": "partial" if missing else "complete", "missing": missing},
    }
    return {"meta": meta, "items": out_items}


# ---------------------------------------------------------------------- the command
def add_rubric_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``explain rubrics``."""
    parser.add_argument("--model", required=True, help="generator model string, e.g. openai/gpt-4o")
    parser.add_argument("--benchmark", required=True, help="WhatIfBench JSON file with the questions (or 'demo')")
    parser.add_argument("--out", required=True, help="the benchmark with rubrics (.json; its journal is the .jsonl beside it)")
    parser.add_argument("--resume", action="store_true", help="continue: keep the rubrics generated before, redo failed and missing items")
    parser.add_argument("--keep-existing", action="store_true", help="keep the rubrics the input already has (default: replace them)")
    gen.add_generation_arguments(parser, limit_help="only the first N items")


def run_rubrics(args: argparse.Namespace, *, llm_override: LLM | None = None) -> int:
    """Handler of ``explain rubrics``; prints a JSON summary, returns the exit code.

    0 every item has a rubric; 1 some failed (each named on stderr, in the summary and in
    ``meta.causalcheck.missing``); 2 none could be made, or bad input; 3 stopped on
    ``--max-cost`` (the output is written, ``status: "partial"``).  The command-line edge: the
    model client is built from the options here, with :data:`RUBRIC_ATTEMPTS` replies per item;
    *llm_override* replaces the model behind it (tests pass a scripted fake).
    """
    import dataclasses

    # late: adapters are imported only where clients are built
    from causalcheck.adapters import llm_run_from_args

    # late: keeps causalcheck --help light
    from causalcheck.explain.data import DEMO

    gen.start_generation(args)
    out = Path(args.out)
    rubric_journal(out)  # the name is checked before anything is read
    if str(args.benchmark) != DEMO and out.resolve() == Path(args.benchmark).resolve():
        raise InputFormatError(f"out={str(out)!r} is the --benchmark file; write the rubrics to another file")
    provenance, bench, items = gen.load_items(args, "explain rubrics", keep_existing=args.keep_existing)
    run = llm_run_from_args(args)
    run = dataclasses.replace(run, retry=dataclasses.replace(run.retry, max_invalid=RUBRIC_ATTEMPTS))
    client = run.client(llm_override or args.model)
    with gen.AnswerFileLock(out, command="causalcheck explain rubrics"):
        if out.exists() and not args.resume:
            raise InputFormatError(f"out={str(out)!r} exists; pass --resume to continue it or choose another file")
        summary = gen.run_with_progress(
            args,
            "explain rubrics",
            client,
            lambda progress: generate_rubrics(
                items,
                client,
                out,
                model_name=args.model,
                temperature=args.temperature,
                max_tokens=args.max_tokens,
                resume=args.resume,
                keep_existing=args.keep_existing,
                provenance=provenance,
                progress=progress,
            ),
        )
        doc = rubric_benchmark(
            bench,
            items,
            out,
            model_name=args.model,
            provenance=provenance,
            keep_existing=args.keep_existing,
            concurrency=getattr(args, "concurrency", None),
            failures=summary.failures,
        )
        atomic_write_text(out, json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    return gen.finish_generation(summary, nothing="no rubric could be generated", extra={"out": str(out)})


def register(explain_sub: Any) -> argparse.ArgumentParser:
    """Add the ``rubrics`` command to the ``explain`` sub-command group."""
    return gen.register_generation_command(
        explain_sub,
        "rubrics",
        help="generate question-level rubrics (official 5-criterion schema) with a model (resumable)",
        description="Generate a rubric per question with a model: one call per item, JSON only, temperature 0.6.",
        add_arguments=add_rubric_arguments,
        handler=run_rubrics,
    )
