"""Answer generation: ask a model every question of a WhatIfBench file.

``causalcheck explain answer --model MODEL --benchmark PATH --out FILE`` sends each item's
``question`` (with its domain and answer type, as the published runner does; never the
``original_question``) at temperature 0.6 with at most 4096 new tokens, and appends one
JSON line per finished item to FILE::

    {"id": 6, "canonical_id": "…", "question": "…", "domain": "HASS", "model_name": "openai/gpt-4o",
     "strategy": "standard", "model_answer": "…" | null, "model_answer_error": null | "…",
     "status": "ok" | "failed", "finish_reason": "stop", "usage": {"input_tokens": 61, "output_tokens": 812}}

The file is read by ``explain score --answers FILE`` like the official runner JSON.

**Strategies** (``--strategy``, :data:`STRATEGIES`; WhatIfBench Appendix F): ``standard`` is the
published runner's prompt (prism-spec §2); ``causalcot`` asks for a CausalCoT-style causal chain
of thought (after CLadder, Jin et al. 2023: the intervention, the causal graph, the mechanisms,
then the answer); ``coin`` for CoIn-style counterfactual inference (after CounterBench, Chen et
al. 2025: extract the facts, the change and the causal relations, then derive consequences one at
a time, checking each and backtracking on a contradiction); ``short`` / ``long`` for an answer
of at most 150 / at least 800 words.  Every wording except ``standard``'s is our own
(:func:`answer_messages`).  An answer made with another strategy than ``standard`` is recorded
under the model name ``<model>+<strategy>``, so its scores are kept apart from the standard ones.

Each session first appends one provenance line ``{"causalcheck_run": {...}}`` (version,
command, options — the strategy among them —, time, the benchmark's SHA-256), which readers of
answer files skip.

Resuming (``--resume``): the options are checked, then the file is compacted — the provenance
lines and the last ``ok`` line of every item are kept, failed lines and a line torn by a killed
process are dropped (atomic rewrite) — then only the items without an ``ok`` line are asked, so
a run killed at any moment and resumed loses nothing and duplicates nothing.  A resume with
another strategy than the kept answers' is refused before anything is rewritten.  One process
writes a given answer file at a time (:class:`AnswerFileLock`).  A reply cut at
``max_tokens`` is asked again and never stored.  Calls go through the call cache, so a warm re-run
makes zero calls, and an answer that was received just before a kill is not paid twice.

The journal machinery — :class:`~causalcheck.explain.generation.Journal` (provenance lines,
compaction, resume fingerprint), :class:`~causalcheck.explain.generation.AnswerFileLock` and the
concurrent per-item loop — lives in :mod:`causalcheck.explain.generation`, shared with ``explain
rubrics`` (:mod:`causalcheck.explain.rubrics`); both names are importable from here as well.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.base.cmdline import run_in_process
from causalcheck.base.errors import InputFormatError
from causalcheck.explain.generation import (
    DEFAULT_MAX_TOKENS,
    DEFAULT_TEMPERATURE,
    AnswerFileLock,
    GenerationSummary,
    Journal,
    add_generation_arguments,
    check_sampling,
    finish_generation,
    generate_items,
    load_items,
    register_generation_command,
    run_with_progress,
    start_generation,
)

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.base.files import Provenance
    from causalcheck.base.progress import ItemProgress
    from causalcheck.explain.data import WhatIfItem
    from causalcheck.protocols import LLM, Completion

__all__ = [
    "STRATEGIES",
    "AnswerFileLock",
    "AnswerRunSummary",
    "Journal",
    "add_answer_arguments",
    "answer_messages",
    "answer_model_name",
    "generate_answers",
    "read_answer_journal",
    "register",
    "run_answer",
]

#: The answer-generation strategies of ``--strategy`` (module docstring).
STRATEGIES: tuple[str, ...] = ("standard", "causalcot", "coin", "short", "long")

# ---------------------------------------------------------------------- prompts
# standard: the published runner's prompt (prism-spec §2), in our words; unchanged since the first
# version, so earlier answers and their cache entries stay valid.
_SYSTEM = (
    "You answer counterfactual what-if questions. Give a direct, coherent answer in prose; "
    "use bullet lists only where they clearly help."
)
_STANDARD_ASK = "Answer the question carefully and directly."

# The other strategies: our own wording (the WhatIfBench paper names them, Appendix F, but its
# prompt texts are not available to us).  Each is (system message, the request after the question).
_STRATEGY_PROMPTS: Mapping[str, tuple[str, str]] = {
    # after CausalCoT (CLadder, Jin et al. 2023), adapted from formal queries to open questions
    "causalcot": (
        "You answer counterfactual what-if questions by reasoning about causes step by step "
        "before you conclude.",
        "Work through these steps in order and label each one.\n"
        "Step 1 - Intervention: state exactly what the question changes, from when on, and what it "
        "leaves as it was.\n"
        "Step 2 - Causal graph: name the main factors involved and the direct cause -> effect links "
        "between them that matter here.\n"
        "Step 3 - Mechanisms: follow the change along those links one step at a time: what it alters "
        "first, what that alters next, including feedback loops and effects that pull in opposite "
        "directions.\n"
        "Step 4 - Answer: state what would most likely happen as a result, and how certain that is.",
    ),
    # our interpretation of CoIn (CounterBench, Chen et al. 2025): extraction, then iterative
    # reasoning with backtracking
    "coin": (
        "You answer counterfactual what-if questions by building the counterfactual world one "
        "checked step at a time.",
        "Proceed in two phases.\n"
        "Phase 1 - Extract: list the facts of the actual world that matter for the question, the "
        "counterfactual change it asks about, and the causal relations that connect the change to "
        "what follows from it.\n"
        "Phase 2 - Reason iteratively: derive the consequences of the change one at a time, each "
        "from the change or from consequences already derived. After each one, check it against the "
        "premise, the facts of Phase 1 and the earlier steps. If it contradicts any of them, go back "
        "to the step where the reasoning went wrong, say so, and continue from a corrected step.\n"
        "Finish with a section 'Answer:' that states the counterfactual outcome in a few sentences, "
        "with its main uncertainties.",
    ),
    "short": (
        _SYSTEM,
        "Answer the question carefully and directly in at most 150 words: the central causal chain "
        "and its outcome, nothing else.",
    ),
    "long": (
        _SYSTEM,
        "Answer the question carefully and in depth, in at least 800 words: trace the immediate, "
        "medium-term and long-term consequences, the mechanisms behind each, the main alternatives "
        "and how uncertain they are.",
    ),
}


def _check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise InputFormatError(f"strategy={strategy!r} must be one of {list(STRATEGIES)!r}")


def answer_messages(item: WhatIfItem, strategy: str = "standard") -> list[dict[str, str]]:
    """The messages sent for *item* (domain, answer type and the short question) with *strategy*.

    >>> from causalcheck.explain.data import load_benchmark
    >>> item = load_benchmark("demo").items[0]
    >>> answer_messages(item)[1]["content"].splitlines()[:2]
    ['Question domain: STEM', 'Question type: open']
    >>> answer_messages(item, "causalcot")[1]["content"].count("Step ")
    4
    """
    _check_strategy(strategy)
    system, ask = (_SYSTEM, _STANDARD_ASK) if strategy == "standard" else _STRATEGY_PROMPTS[strategy]
    user = f"Question domain: {item.domain}\nQuestion type: {item.answer_type}\n\n{item.question}\n\n{ask}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def answer_model_name(model: str, strategy: str = "standard") -> str:
    """The answer model recorded in the file: *model*, or ``<model>+<strategy>`` for another strategy.

    >>> answer_model_name("openai/gpt-4o"), answer_model_name("openai/gpt-4o", "coin")
    ('openai/gpt-4o', 'openai/gpt-4o+coin')
    """
    _check_strategy(strategy)
    return model if strategy == "standard" else f"{model}+{strategy}"


@dataclass(frozen=True, kw_only=True)
class AnswerRunSummary(GenerationSummary):
    """What one run did: items answered now, and the rest of a :class:`GenerationSummary`."""

    answered: int

    def counts(self) -> dict[str, int]:
        return {"answered": self.answered}


# ---------------------------------------------------------------------- the journal
def _answer_ok(rec: Mapping[str, Any]) -> bool:
    answer = rec.get("model_answer")
    return rec.get("status") == "ok" and isinstance(answer, str) and bool(answer.strip())


def answer_journal(path: str | Path) -> Journal:
    """The :class:`Journal` of an answer file."""
    return Journal(path, payload="model_answer", ok=_answer_ok, what="answer file --out")


def read_answer_journal(path: Path) -> tuple[dict[str, dict[str, Any]], int]:
    """``({key: last ok record}, lines dropped)`` from an answer file; torn and failed lines are dropped
    (:meth:`Journal.read`)."""
    return answer_journal(path).read()


def _record(item: WhatIfItem, model: str, strategy: str, completion: Completion | None, error: str | None) -> dict[str, Any]:
    return {
        "id": item.id,
        "canonical_id": item.canonical_id,
        "question": item.question,
        "domain": item.domain,
        "model_name": model,
        "strategy": strategy,
        "model_answer": completion.text if completion is not None else None,
        "model_answer_error": error,
        "status": "ok" if completion is not None else "failed",
        "finish_reason": completion.finish_reason if completion is not None else None,
        "usage": completion.usage.to_dict() if completion is not None else None,
    }


def _accept(c: Completion) -> None:
    """An answer must be complete and non-empty: a reply cut at ``max_tokens`` is asked again, never stored."""
    # late: keeps causalcheck --help light
    from causalcheck.explain.llm import reject_truncated

    reject_truncated(c)
    if not c.text.strip():
        raise ValueError(f"empty answer (finish_reason={c.finish_reason!r})")


async def generate_answers(
    items: Sequence[WhatIfItem],
    llm: LLM,
    out: str | Path,
    *,
    model_name: str | None = None,
    temperature: float = DEFAULT_TEMPERATURE,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    resume: bool = False,
    provenance: Provenance | None = None,
    strategy: str = "standard",
    progress: ItemProgress | None = None,
) -> AnswerRunSummary:
    """Answer every item not yet answered in *out* (see the module docstring).

    The caller holds the file's lock (:class:`AnswerFileLock`; :func:`run_answer` does).
    *provenance*, when given, is appended first as this session's run header line.  A resume
    whose kept answers were made with another *strategy* is refused.  *progress* hears of the
    total and of every finished item (:mod:`causalcheck.explain.progress`).
    """
    # late: keeps causalcheck --help light
    from causalcheck.protocols import Request, complete_parsed, meter_summary

    check_sampling(temperature, max_tokens)
    _check_strategy(strategy)
    journal = answer_journal(out)
    done = journal.start(resume=resume, provenance=provenance, fingerprint={"strategy": (strategy, "standard")})
    name = model_name or f"{llm.provider}/{llm.model}"
    todo = [it for it in items if it.key not in done]

    async def ask(item: WhatIfItem) -> dict[str, Any]:
        req = Request.chat(answer_messages(item, strategy), temperature=temperature, max_tokens=max_tokens)
        comp, _ = await complete_parsed(llm, req, _accept)
        return _record(item, name, strategy, comp, None)

    tally = await generate_items(items, todo, ask, lambda item, reason: _record(item, name, strategy, None, reason), journal, progress)
    return AnswerRunSummary(
        answered=tally.ok,
        failed=tally.failed,
        skipped=len(items) - len(todo),
        total=len(items),
        stopped=tally.stopped,
        accounting=meter_summary(llm),
        failures=tally.failures,
    )


def add_answer_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``explain answer``."""
    parser.add_argument("--model", required=True, help="model string, e.g. openai/gpt-4o or anthropic/claude-…")
    parser.add_argument("--benchmark", required=True, help="WhatIfBench JSON file (or 'demo')")
    parser.add_argument("--out", required=True, help="answer file (JSON lines, appended as items finish)")
    parser.add_argument("--resume", action="store_true", help="continue FILE: keep its answers, redo failed and missing items")
    parser.add_argument("--strategy", choices=STRATEGIES, default="standard", help="answer prompt: standard (default, the published runner's), causalcot, coin, short, long")
    add_generation_arguments(parser, limit_help="answer only the first N items")


def run_answer(args: argparse.Namespace, *, llm_override: LLM | None = None) -> int:
    """Handler of ``explain answer``; prints a JSON summary, returns the exit code (3 when stopped by --max-cost).

    The command-line edge: the model client (cache, retries, ``--max-cost``) is built from the
    options here (:func:`causalcheck.adapters.llm_run_from_args`); *llm_override* replaces the
    model behind it (tests pass a scripted fake).
    """
    # late: adapters are imported only where clients are built
    from causalcheck.adapters import llm_run_from_args

    start_generation(args)
    strategy = getattr(args, "strategy", "standard")
    provenance, _, items = load_items(args, "explain answer", strategy=strategy)
    client = llm_run_from_args(args).client(llm_override or args.model)
    out = Path(args.out)
    with AnswerFileLock(out, command="causalcheck explain answer"):
        summary = run_with_progress(
            args,
            "explain answer",
            client,
            lambda progress: generate_answers(
                items,
                client,
                out,
                model_name=answer_model_name(args.model, strategy),
                temperature=args.temperature,
                max_tokens=args.max_tokens,
                resume=args.resume,
                provenance=provenance,
                strategy=strategy,
                progress=progress,
            ),
        )
    return finish_generation(summary, nothing="no item could be answered")


def register(explain_sub: Any) -> argparse.ArgumentParser:
    """Add the ``answer`` command to the ``explain`` sub-command group."""
    return register_generation_command(
        explain_sub,
        "answer",
        help="ask a model every benchmark question (resumable)",
        description="Generate answers with a model: temperature 0.6, 4096 tokens by default; one JSON line per item.",
        add_arguments=add_answer_arguments,
        handler=run_answer,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m causalcheck.explain.answer …``: the same command without the CLI dispatcher."""
    parser = argparse.ArgumentParser(prog="causalcheck explain answer")
    add_answer_arguments(parser)
    return run_in_process(parser, argv, run_answer)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
