"""``explain score --edge-judge / --criterion-judge / --answer-parser NAME``: plug-in judges and parsers.

A *plug-in* is any object satisfying :class:`~causalcheck.explain.judges.EdgeJudge`,
:class:`~causalcheck.explain.judges.CriterionJudge` or :class:`~causalcheck.explain.judges.AnswerParser`,
named by an entry point (groups ``causalcheck.edge_judges``, ``causalcheck.criterion_judges``,
``causalcheck.parsers``; the offline ones are registered as ``offline``) or written as
``package.module:factory`` (:mod:`causalcheck.plugins`, which loads it, calls ``factory()``
and checks the result against the protocol).  Segmenter plug-ins go through ``--segmenter``
(:func:`causalcheck.explain.segment.get_segmenter`).

This module is the built-in judge back-end ``plugins`` (:class:`PluginJudges`, registered in
:mod:`causalcheck.plugins`), asked before the LLM one: :func:`add_cli_options` adds the three options, and
:func:`judges_from_args` — ``None`` unless one of them is given — takes the judges the other
back-ends (or the offline default) would build and replaces the named components
(:func:`with_plugins`), so a plug-in combines with ``--judge MODEL``
(``--judge openai/gpt-4o --criterion-judge mypkg:Strict`` judges edges with the model and
criteria with yours).  Result files are named after the components:
``judge_name`` is the edge judge's name, or ``<edge>+<criterion>`` when they differ.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from causalcheck.base.errors import InputFormatError
from causalcheck.explain.run import Judges, make_judges

if TYPE_CHECKING:  # pragma: no cover
    import argparse

__all__ = ["PluginJudges", "add_cli_options", "judges_from_args", "with_plugins"]


def add_cli_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--edge-judge``, ``--criterion-judge`` and ``--answer-parser`` (plug-in names)."""
    g = parser.add_argument_group("plug-ins (an entry-point name or package.module:factory; see causalcheck.plugins)")
    g.add_argument("--edge-judge", default=None, metavar="NAME", help="edge judge plug-in (default: offline, or the --judge model)")
    g.add_argument("--criterion-judge", default=None, metavar="NAME", help="criterion judge plug-in (default: offline, or the --judge model)")
    g.add_argument("--answer-parser", default=None, metavar="NAME", help="answer parser plug-in (default: offline with --segmenter, or the --parser model)")


def with_plugins(
    base: Judges,
    *,
    edge_judge: str | None = None,
    criterion_judge: str | None = None,
    answer_parser: str | None = None,
) -> Judges:
    """*base* with the named plug-ins in place of its components (names as in the module docstring)."""
    # late: keeps causalcheck --help light
    from causalcheck.plugins import create

    edge_name = criterion_name = base.judge_name
    out = base
    if edge_judge:
        # a plug-in edge judge is judged like the offline one: every edge unless --judge-edges says otherwise
        out = dataclasses.replace(out, edge_judge=create("edge_judge", edge_judge), judge_edges="all")
        edge_name = edge_judge
    if criterion_judge:
        out = dataclasses.replace(out, criterion_judge=create("criterion_judge", criterion_judge))
        criterion_name = criterion_judge
    if answer_parser:
        out = dataclasses.replace(out, parser=create("parser", answer_parser), parser_name=answer_parser)
    name = edge_name if edge_name == criterion_name else f"{edge_name}+{criterion_name}"
    notice = base.notice if not (edge_judge and criterion_judge) else None  # an offline judge still judges
    return dataclasses.replace(out, judge_name=name, notice=notice)


def judges_from_args(args: argparse.Namespace) -> Judges | None:
    """Judge factory for ``explain score`` (module docstring); ``None`` without a plug-in option."""
    edge = getattr(args, "edge_judge", None)
    criterion = getattr(args, "criterion_judge", None)
    parser = getattr(args, "answer_parser", None)
    if not (edge or criterion or parser):
        return None
    if parser and getattr(args, "parser_model", None):
        raise InputFormatError(f"--answer-parser={parser!r} and --parser={args.parser_model!r} both name a parser; give one")
    base = make_judges(args, skip=PluginJudges)  # what the other back-ends (or the offline ones) build
    return with_plugins(base, edge_judge=edge, criterion_judge=criterion, answer_parser=parser)


class PluginJudges:
    """The plug-in options as a judge back-end (:class:`~causalcheck.protocols.JudgeBackend`, registered as ``plugins``)."""

    def add_cli_options(self, parser: argparse.ArgumentParser) -> None:
        """:func:`add_cli_options`."""
        add_cli_options(parser)

    def judges_from_args(self, args: argparse.Namespace) -> Judges | None:
        """:func:`judges_from_args`."""
        return judges_from_args(args)
