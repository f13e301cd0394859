"""The plug-in boundary (issue 21, class 5): a plug-in that fails at import, in its factory or in a call, or returns
what its protocol does not allow, ends the command with exit 2 naming it and what it did — never exit 70, never a
silent exit 0 (``SystemExit(0)`` in ``act()`` ended ``lab run`` with exit 0 and no summary)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from causalcheck.base.boundary import PluginError, call_plugin, is_own, plugin_label
from causalcheck.cli import main

AGENTS = textwrap.dedent(
    """
    import os
    from causalcheck.lab.agents import make_agent

    MODE = os.environ.get("CC_BAD_MODE", "")
    if MODE == "import-value":
        raise ValueError("boom at import")
    if MODE == "import-syntax":
        exec("def (")
    if MODE == "import-exit":
        raise SystemExit(0)


    class Agent:
        def __init__(self, seed=0, **options):
            if MODE == "factory-exit":
                raise SystemExit(3)
            self.inner = make_agent("random", seed=seed)

        def reset(self, task):
            if MODE == "reset-raise":
                raise RuntimeError("reset boom")
            self.inner.reset(task)

        def act(self, observation):
            if MODE == "act-raise":
                raise RuntimeError("act boom")
            if MODE == "act-exit":
                raise SystemExit(0)
            if MODE == "act-str":
                return "go left"
            step = self.inner.act(observation)
            import dataclasses
            if MODE == "act-bad-action":
                return dataclasses.replace(step, action="zzz")
            if MODE == "act-bad-record":
                return dataclasses.replace(step, record=[1])
            if MODE == "act-unwritable-info":
                return dataclasses.replace(step, info={"x": object()})
            return step
    """
)

JUDGES = textwrap.dedent(
    """
    import os
    from causalcheck.explain.offline import OfflineCriterionJudge, OfflineEdgeJudge

    MODE = os.environ.get("CC_BAD_MODE", "")


    class Edge(OfflineEdgeJudge):
        def judge_edges(self, item, text, graph, wanted):
            if MODE == "edge-raise":
                raise RuntimeError("judge boom")
            if MODE == "edge-exit":
                raise SystemExit(0)
            if MODE == "edge-str":
                return "nope"
            if MODE == "edge-items":
                return ["x"] * len(wanted)
            return super().judge_edges(item, text, graph, wanted)


    class Criterion(OfflineCriterionJudge):
        def judge_criterion(self, item, text, criterion, index):
            if MODE == "criterion-none":
                return None
            return super().judge_criterion(item, text, criterion, index)
    """
)


@pytest.fixture
def plugin_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two plug-in modules on sys.path (fresh imports per test: a module is imported with the mode it is given)."""
    (tmp_path / "cc_bad_agents.py").write_text(AGENTS)
    (tmp_path / "cc_bad_judges.py").write_text(JUDGES)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("cc_bad_agents", "cc_bad_judges"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    return tmp_path


@pytest.mark.parametrize(
    "mode,needle",
    [
        ("", None),
        ("import-value", "importing module 'cc_bad_agents' raised ValueError: boom at import"),
        ("import-syntax", "importing module 'cc_bad_agents' raised SyntaxError"),
        ("import-exit", "importing module 'cc_bad_agents' raised SystemExit: 0"),
        ("factory-exit", "the factory cc_bad_agents:Agent raised SystemExit: 3"),
        ("reset-raise", "agent cc_bad_agents:Agent: reset() raised RuntimeError: reset boom"),
        ("act-raise", "agent cc_bad_agents:Agent: act() raised RuntimeError: act boom"),
        ("act-exit", "agent cc_bad_agents:Agent: act() raised SystemExit: 0 (a plug-in may not end the process)"),
        ("act-str", "agent cc_bad_agents:Agent: act() returned str 'go left'; expected AgentStep"),
        ("act-bad-action", "agent cc_bad_agents:Agent: act() returned a step that cannot be played: action='zzz' must be a LabAction"),
        ("act-bad-record", "act() returned a step that cannot be played: record=[1] must be a mapping"),  # the fuzz row found it
        ("act-unwritable-info", "act() returned a step that cannot be played: info cannot be written as JSON"),
    ],
)
def test_a_failing_agent_plugin_ends_lab_run_with_exit_2_naming_it(
    mode: str, needle: str | None, plugin_modules: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """lab run with a user's agent that fails in each way: exit 2 and the plug-in and its failure in the message."""
    monkeypatch.setenv("CC_BAD_MODE", mode)
    code = main(["lab", "run", "--suite", "mini", "--agent", "cc_bad_agents:Agent", "--out", str(plugin_modules / "out"), "--limit", "1", "--quiet"])
    err = capsys.readouterr().err
    if needle is None:
        assert code == 0, err
        return
    assert code == 2, err
    assert needle in err
    assert "internal error" not in err


@pytest.mark.parametrize(
    "mode,needle",
    [
        ("edge-raise", "edge judge cc_bad_judges:Edge: judge_edges() raised RuntimeError: judge boom"),
        ("edge-exit", "edge judge cc_bad_judges:Edge: judge_edges() raised SystemExit: 0"),
        ("edge-str", "edge judge cc_bad_judges:Edge: judge_edges() returned str 'nope'; expected a list of EdgeJudgment"),
        ("edge-items", "judge_edges() returned a list whose item 0 is str 'x'; expected EdgeJudgment"),
        ("criterion-none", "criterion judge cc_bad_judges:Criterion: judge_criterion() returned NoneType None; expected CriterionJudgment"),
    ],
)
def test_a_failing_judge_plugin_ends_explain_score_with_exit_2_naming_it(
    mode: str, needle: str, plugin_modules: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """explain score with a user's edge or criterion judge that raises, exits or returns the wrong type: exit 2, named."""
    monkeypatch.setenv("CC_BAD_MODE", mode)
    argv = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(plugin_modules / "out"), "--quiet"]
    code = main([*argv, "--edge-judge", "cc_bad_judges:Edge", "--criterion-judge", "cc_bad_judges:Criterion"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert needle in err


def test_causalchecks_own_objects_are_called_directly() -> None:
    """An object of causalcheck's own class is not wrapped: its exceptions are bugs and keep their type (exit 70)."""
    from causalcheck.explain.offline import OfflineEdgeJudge

    judge = OfflineEdgeJudge()
    assert is_own(judge) and plugin_label(judge) == "causalcheck.explain.offline:OfflineEdgeJudge"

    class Boom:
        def go(self) -> None:
            raise KeyError("x")

    Boom.__module__ = "causalcheck.fake"
    with pytest.raises(KeyError):
        call_plugin("agent", Boom(), "go")
    Boom.__module__ = "mypkg"
    with pytest.raises(PluginError, match=r"agent mypkg:.*Boom: go\(\) raised KeyError: 'x'"):
        call_plugin("agent", Boom(), "go")


def test_keyboard_interrupt_and_causalcheck_errors_cross_the_boundary_unchanged() -> None:
    """Ctrl-C still stops a run, and a documented refusal (a parser's CausalCheckError) keeps its type and text."""
    from causalcheck.base.errors import InputFormatError

    class Plugin:
        __module__ = "mypkg"

        def stop(self) -> None:
            raise KeyboardInterrupt

        def refuse(self) -> None:
            raise InputFormatError("cannot parse this answer")

    with pytest.raises(KeyboardInterrupt):
        call_plugin("parser", Plugin(), "stop")
    with pytest.raises(InputFormatError, match=r"^cannot parse this answer$"):
        call_plugin("parser", Plugin(), "refuse")


def test_a_long_plugin_message_is_cut() -> None:
    """A plug-in raising with a 10 000-character message: the error shows its start and the length, not all of it."""

    class Loud:
        __module__ = "mypkg"

        def act(self, observation: object) -> None:
            raise RuntimeError("x" * 10_000)

    with pytest.raises(PluginError) as caught:
        call_plugin("agent", Loud(), "act", None)
    assert len(str(caught.value)) < 500 and "(10000 chars)" in str(caught.value)
