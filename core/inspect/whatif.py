"""WhatIfBench in inspect: the items as samples, answer generation, and the PRISM scorer.

* :func:`whatif_dataset` — one sample per item of a WhatIfBench file (``"demo"``: the bundled
  12-question set): id = the item key, input = the messages ``causalcheck explain answer``
  sends (:func:`causalcheck.explain.answer.answer_messages`: domain, answer type, the short
  question), metadata = the item's JSON object (:data:`~causalcheck.episodes.inspect_logs.ITEM_KEY`),
  its bucket and its position;
* :func:`prism_scorer` — PM, RM and Final of the sample's output text with
  :func:`causalcheck.explain.scoring.score_item`: the offline parser and judges by default;
  a model for the parser and/or the judges when the inspect model roles ``parser`` /
  ``judge`` are bound (``--model-role judge=openai/gpt-4o``); plug-ins by name
  (:mod:`causalcheck.plugins`) as in ``explain score``.  The score's value is
  ``{"pm", "rm", "final"}``; its metadata holds the status, bucket, degraded flag, failure
  modes and the full result row (the official item object: EDUs, graph, every judgment) —
  the line ``explain score`` writes to its JSONL;
* :func:`prism_metrics` — the per-domain table of ``explain score`` (means over the scored
  items, failed ones left out) as inspect metrics ``pm_stem``, ``rm_stem``, ``final_stem``, …,
  ``final_overall``, plus the counts ``scored``, ``failed`` and ``degraded``.

The scorer works on any task whose samples carry a WhatIfBench item under ``whatif_item``
in their metadata, whatever produced the answer.  Scoring runs in a worker thread (the
judges are synchronous; an LLM judge's calls go back to inspect's loop, see
:mod:`causalcheck.inspect.model`).
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.episodes.inspect_logs import ITEM_KEY
from causalcheck.explain.answer import answer_messages
from causalcheck.explain.data import load_benchmark, parse_item
from causalcheck.explain.llm import LLMCriterionJudge, LLMEdgeJudge, LLMParser
from causalcheck.explain.plugin_judges import with_plugins
from causalcheck.explain.result_schema import ResultItem, decode_row, encode_row
from causalcheck.explain.run import Judges, offline_judges
from causalcheck.explain.scoring import JudgeEdges, PMMode, score_item, summarize
from causalcheck.inspect.model import InspectLLM, run_in_thread
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, model_roles
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

__all__ = ["ITEM_KEY", "JUDGE_OPTIONS", "prism_judges", "prism_metrics", "prism_scorer", "whatif_dataset"]

_OFFLINE_LOCK = threading.Lock()  # the offline parser's spaCy pipeline is shared: one answer at a time


def whatif_dataset(benchmark: str = "demo", limit: int | None = None) -> MemoryDataset:
    """The items of a WhatIfBench file as inspect samples (module docstring)."""
    bench = load_benchmark(benchmark)
    items = bench.items[:limit] if limit else bench.items
    samples = []
    for index, item in enumerate(items):
        messages: list[ChatMessage] = []
        for m in answer_messages(item):
            messages.append(ChatMessageSystem(content=m["content"]) if m["role"] == "system" else ChatMessageUser(content=m["content"]))
        samples.append(
            Sample(
                input=messages,
                id=item.key,
                metadata={ITEM_KEY: dict(item.raw), "bucket": item.bucket, "domain": item.domain, "index": index},
            )
        )
    return MemoryDataset(samples, name=f"whatif:{bench.source}")


#: The judge options of :func:`prism_scorer` that :func:`prism_judges` reads, with their defaults.
JUDGE_OPTIONS: Mapping[str, str | None] = MappingProxyType({
    "segmenter": "rules",
    "judge_role": "judge",
    "parser_role": "parser",
    "parser_compat": "full",
    "edge_judge": None,
    "criterion_judge": None,
    "answer_parser": None,
})


def _bound(role: str | None) -> bool:
    return bool(role) and role in model_roles()


def prism_judges(options: Mapping[str, Any]) -> tuple[Judges, tuple[InspectLLM, ...]]:
    """The parser and judges for one sample (call inside a scorer) and the inspect models they use.

    *options* are :func:`prism_scorer`'s judge options (``segmenter``, ``judge_role``,
    ``parser_role``, ``parser_compat``, ``edge_judge``, ``criterion_judge``, ``answer_parser``);
    a missing one takes :func:`prism_scorer`'s default (:data:`JUDGE_OPTIONS`).
    """
    o = {**JUDGE_OPTIONS, **options}
    segmenter, judge_role, parser_role = o["segmenter"], o["judge_role"], o["parser_role"]
    judges = offline_judges(segmenter)
    models: list[InspectLLM] = []
    if _bound(parser_role):
        llm = InspectLLM(role=parser_role)
        models.append(llm)
        parser = LLMParser(llm, compat="anchor" if o["parser_compat"] == "anchor" else "full")
        judges = dataclasses.replace(judges, parser=parser, parser_name=str(llm.inspect_model))
    if _bound(judge_role):
        llm = InspectLLM(role=judge_role)
        models.append(llm)
        judges = dataclasses.replace(
            judges,
            edge_judge=LLMEdgeJudge(llm),
            criterion_judge=LLMCriterionJudge(llm),
            judge_name=str(llm.inspect_model),
            judge_edges="causal",
        )
    judges = with_plugins(judges, edge_judge=o["edge_judge"], criterion_judge=o["criterion_judge"], answer_parser=o["answer_parser"])
    return judges, tuple(models)


@metric
def prism_metrics() -> Metric:
    """Per-domain means of PM, RM and Final over the scored items (module docstring)."""

    def compute(scores: list[SampleScore]) -> Value:
        ordered = sorted(
            enumerate(scores),
            key=lambda pair: (int((pair[1].sample_metadata or {}).get("index", pair[0])), pair[0]),
        )
        rows = []
        for _, s in ordered:
            meta = s.score.metadata or {}
            raw = meta.get("row")
            if isinstance(raw, Mapping):
                rows.append(decode_row(raw))
        summary = summarize(rows)
        out: dict[str, float | int | None] = {}
        for row in summary.rows:
            name = row.bucket.lower()
            out[f"pm_{name}"], out[f"rm_{name}"], out[f"final_{name}"] = row.pm, row.rm, row.final
        out.update(scored=summary.n_items, failed=summary.n_failed, degraded=summary.n_degraded)
        return out  # None entries (empty buckets) are dropped by inspect

    return compute


@scorer(metrics=[prism_metrics()])
def prism_scorer(
    segmenter: str = "rules",
    pm_mode: str = "causal",
    judge_edges: str | None = None,
    judge_role: str | None = "judge",
    parser_role: str | None = "parser",
    parser_compat: str = "full",
    edge_judge: str | None = None,
    criterion_judge: str | None = None,
    answer_parser: str | None = None,
    max_chars: int = 200_000,
    strip_injections: bool = True,
) -> Scorer:
    """PRISM PM / RM / Final of the sample's output (module docstring); options as ``explain score``'s.

    ``judge_edges=None`` judges only the causal edges with a model edge judge, every edge
    otherwise (and always with ``pm_mode="all"``).
    """
    if pm_mode not in ("causal", "all"):
        raise InputFormatError(f"pm_mode={pm_mode!r} must be 'causal' or 'all'")
    if judge_edges not in (None, "causal", "all"):
        raise InputFormatError(f"judge_edges={judge_edges!r} must be 'causal', 'all' or None")
    mode: PMMode = "all" if pm_mode == "all" else "causal"
    judge_options = {name: value for name, value in locals().items() if name in JUDGE_OPTIONS}

    async def score(state: TaskState, target: Target) -> Score:
        raw = state.metadata.get(ITEM_KEY)
        if not isinstance(raw, Mapping):
            return Score(value=math.nan, explanation=f"the sample has no WhatIfBench item in metadata[{ITEM_KEY!r}]")
        item = parse_item(raw)
        judges, models = prism_judges(judge_options)
        edges: JudgeEdges = "all" if judge_edges == "all" or mode == "all" else ("causal" if judge_edges == "causal" else judges.judge_edges)
        answer = state.output.completion if state.output is not None else ""

        def run() -> ResultItem:
            return score_item(
                item,
                answer,
                judges.parser,
                judges.edge_judge,
                judges.criterion_judge,
                pm_mode=mode,
                judge_edges=edges,
                max_chars=max_chars,
                strip_injections=strip_injections,
            )

        if models:
            result = await run_in_thread(run, models=models)
        else:

            def locked() -> ResultItem:
                with _OFFLINE_LOCK:
                    return run()

            result = await run_in_thread(locked)
        return _score_of(result, answer, judges.judge_name, judges.parser_name, judges.notice)

    return score


def _score_of(row: ResultItem, answer: str, judge_name: str, parser_name: str, notice: str | None = None) -> Score:
    """The inspect ``Score`` of one scored item: PM / RM / Final, the failure modes as explanation, its resume line in metadata."""
    explanation = row.error or (", ".join(row.failure_modes) if row.failure_modes else "no failure mode")
    return Score(
        value={"pm": row.pm, "rm": row.rm, "final": row.final},
        answer=answer,
        explanation=explanation,
        metadata={
            "status": row.status,
            "bucket": row.bucket,
            "degraded": row.degraded,
            "failure_modes": list(row.failure_modes),
            "error": row.error,
            "judge": judge_name,
            "parser": parser_name,
            **({"notice": notice} if notice else {}),
            "row": encode_row(row),
        },
    )

