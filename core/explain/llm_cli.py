"""``explain score --judge MODEL [--parser MODEL]``: the LLM judges at the command-line edge.

The LLM parser and judges themselves (:mod:`causalcheck.explain.llm`) take any
:class:`~causalcheck.protocols.LLM`; this module is where command-line options become model
clients — the one place in explain that builds adapters
(:func:`causalcheck.adapters.llm_run_from_args`: call cache, retries, concurrency, cost meter).
It is the built-in judge back-end ``llm`` (:class:`LLMJudges`, registered in :mod:`causalcheck.plugins`):

* :func:`add_cli_options` adds ``--judge``, ``--parser``,
  ``--judge-all-edges``, ``--judge-calls``, ``--parser-compat`` and the shared model-call options;
* :func:`judges_from_args` returns
  :class:`~causalcheck.explain.run.Judges` with the LLM components asked for (offline ones
  where no model was given), or ``None`` without ``--judge`` / ``--parser``; the run's call
  and cost accounting is logged when scoring is done, and its model clients
  (``Judges.models``) feed the progress display.

``--judge-calls per-answer`` (one call for an answer's edges, one for its criteria:
:mod:`causalcheck.explain.llm`) changes the judge's name in the results to
``<model> (per-answer calls)`` (:func:`judge_label`): the result files say which mode judged
them, and results of the two modes go to different files and are never resumed into each other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from causalcheck.base.errors import InputFormatError
from causalcheck.explain.run import Judges

if TYPE_CHECKING:  # pragma: no cover
    import argparse

    from causalcheck.explain.judges import AnswerParser
    from causalcheck.explain.llm import JudgeCalls, LLMCriterionJudge, LLMEdgeJudge, LLMParser
    from causalcheck.protocols import LLM, Meter

__all__ = ["LLMComponents", "LLMJudges", "add_cli_options", "judge_label", "judges_from_args", "make_llm_components"]

@dataclass(frozen=True)
class LLMComponents:
    """What ``explain score --judge/--parser MODEL`` plugs into the scorer.

    ``parser`` / ``edge_judge`` / ``criterion_judge`` are ``None`` where no model was asked
    for (the caller keeps its offline component); ``judge_edges`` is ``"causal"`` unless
    ``--judge-all-edges``; ``judge_calls`` is ``--judge-calls``; ``meter`` is the run's shared
    cost meter.
    """

    meter: Meter
    parser: LLMParser | None
    edge_judge: LLMEdgeJudge | None
    criterion_judge: LLMCriterionJudge | None
    judge_edges: Literal["causal", "all"]
    judge_model: str | None
    parser_model: str | None
    #: The model clients behind the components (their meters feed the progress display).
    models: tuple[LLM, ...] = ()
    judge_calls: JudgeCalls = "per-judgment"

    def accounting(self) -> dict[str, Any]:
        """Calls, cache hits, retries, tokens and cost so far (JSON-ready)."""
        return dict(self.meter.summary())


def add_cli_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--judge MODEL``, ``--parser MODEL``, ``--judge-all-edges``, ``--judge-calls``, ``--parser-compat`` and
    the shared model-call options (endpoint, cache, retries, concurrency, ``--max-cost``)."""
    # late: adapters are imported only where clients are built
    from causalcheck.adapters import add_llm_arguments

    g = parser.add_argument_group("LLM judges (optional; offline judges are the default)")
    g.add_argument("--judge", default=None, metavar="MODEL", help="LLM edge + criterion judge, e.g. openai/gpt-4o")
    g.add_argument("--parser", dest="parser_model", default=None, metavar="MODEL", help="LLM RST parser (default: the --judge model)")
    g.add_argument("--judge-all-edges", action="store_true", help="the same as --judge-edges all (with --judge the default is causal)")
    g.add_argument(
        "--judge-calls",
        choices=("per-judgment", "per-answer"),
        default="per-judgment",
        help="per-answer: one call for an answer's edges and one for its criteria, answer-first prompts "
        "(default per-judgment: one call per edge and per criterion, as the paper)",
    )
    g.add_argument("--parser-compat", choices=("full", "anchor"), default="full", help="anchor: drop span refs and ignore NS like the original parser")
    add_llm_arguments(parser)


def make_llm_components(args: argparse.Namespace, *, llm_override: LLM | None = None) -> LLMComponents | None:
    """Build the LLM parser and judges from :func:`add_cli_options`' options; ``None`` without ``--judge``/``--parser``.

    ``llm_override`` replaces every model (tests pass a :class:`~causalcheck.adapters.ScriptedLLM`).
    """
    # late: adapters are imported only where clients are built
    from causalcheck.adapters import llm_run_from_args, setup_llm_logging

    # late: keeps causalcheck --help light
    from causalcheck.explain.llm import LLMCriterionJudge, LLMEdgeJudge, LLMParser

    judge = getattr(args, "judge", None)
    parser_model = getattr(args, "parser_model", None) or judge
    given = getattr(args, "judge_calls", "per-judgment") or "per-judgment"
    calls: JudgeCalls = "per-answer" if given == "per-answer" else "per-judgment"
    if given != calls:
        raise InputFormatError(f"--judge-calls {given!r} must be per-judgment or per-answer")
    if calls != "per-judgment" and not judge and llm_override is None:
        raise InputFormatError(f"--judge-calls {calls} needs --judge MODEL (it sets how the model judges are called)")
    if not judge and not parser_model and llm_override is None:
        return None
    setup_llm_logging()
    run = llm_run_from_args(args)
    parser = edge = crit = None
    clients: list[LLM] = []
    if parser_model or llm_override is not None:
        parser_client = run.client(llm_override or parser_model)  # type: ignore[arg-type,unused-ignore]
        parser = LLMParser(parser_client, compat=getattr(args, "parser_compat", "full"))
        clients.append(parser_client)
    if judge or llm_override is not None:
        client = run.client(llm_override or judge)  # type: ignore[arg-type,unused-ignore]
        edge, crit = LLMEdgeJudge(client, calls=calls), LLMCriterionJudge(client, calls=calls)
        clients.append(client)
    return LLMComponents(
        meter=run.meter,
        parser=parser,
        edge_judge=edge,
        criterion_judge=crit,
        judge_edges="all" if getattr(args, "judge_all_edges", False) else "causal",
        judge_model=judge,
        parser_model=parser_model,
        models=tuple(clients),
        judge_calls=calls,
    )


def judge_label(model: str, calls: str = "per-judgment") -> str:
    """The judge's name in result files: *model*, or ``<model> (per-answer calls)`` for per-answer judging.

    >>> judge_label("openai/gpt-4o"), judge_label("openai/gpt-4o", "per-answer")
    ('openai/gpt-4o', 'openai/gpt-4o (per-answer calls)')
    """
    return model if calls == "per-judgment" else f"{model} ({calls} calls)"


def _log_accounting(components: LLMComponents) -> None:
    import logging

    summary = components.accounting()
    logging.getLogger("causalcheck.llm").info(
        "model calls: %d sent, %d from cache, %d retries, $%.4f; per model: %s",
        summary["calls"],
        summary["cache_hits"],
        summary["retries"],
        summary["cost_usd"],
        json.dumps(summary["models"], sort_keys=True),
    )


def judges_from_args(args: argparse.Namespace) -> Judges | None:
    """Judge factory for ``explain score`` (see the module docstring).

    The judges' default edge-judging mode (used without ``--judge-edges``) is ``causal`` with
    an LLM edge judge, ``all`` offline; ``--judge-all-edges`` sets ``--judge-edges all``.
    """
    if getattr(args, "judge_all_edges", False):
        if getattr(args, "judge_edges", None) == "causal":
            raise InputFormatError("--judge-all-edges means --judge-edges all; it contradicts --judge-edges causal: give one")
        args.judge_edges = "all"
    components = make_llm_components(args)
    if components is None:
        return None
    # late: keeps causalcheck --help light
    from causalcheck.explain.offline import OFFLINE_NOTICE, OfflineCriterionJudge, OfflineEdgeJudge

    parser: AnswerParser
    parser_name = components.parser_model or ""
    if components.parser is not None:
        parser = components.parser
    else:
        # late: keeps causalcheck --help light
        from causalcheck.explain.relations import OfflineParser

        # late: keeps causalcheck --help light
        from causalcheck.explain.segment import get_segmenter

        segmenter = get_segmenter(getattr(args, "segmenter", "rules") or "rules")
        parser, parser_name = OfflineParser(segmenter), f"offline-{segmenter.name}"
    return Judges(
        parser=parser,
        edge_judge=components.edge_judge or OfflineEdgeJudge(),
        criterion_judge=components.criterion_judge or OfflineCriterionJudge(),
        judge_name=judge_label(components.judge_model, components.judge_calls) if components.judge_model else "offline",
        parser_name=parser_name,
        on_done=lambda: _log_accounting(components),
        judge_edges="causal" if components.edge_judge is not None else "all",
        models=components.models,
        notice=None if components.edge_judge is not None and components.criterion_judge is not None else OFFLINE_NOTICE,
    )


class LLMJudges:
    """The LLM judges as a judge back-end (:class:`~causalcheck.protocols.JudgeBackend`, registered as ``llm``)."""

    def add_cli_options(self, parser: argparse.ArgumentParser) -> None:
        """:func:`add_cli_options`."""
        add_cli_options(parser)

    def judges_from_args(self, args: argparse.Namespace) -> Judges | None:
        """:func:`judges_from_args`."""
        return judges_from_args(args)
