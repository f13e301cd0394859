"""Progress of explain answer / explain score: items done / total and the model-call accounting so far.

The rich bar is forced into a captured console; the plain log lines of --progress are read from stderr.
"""

from __future__ import annotations

import argparse
import io
import json
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from _fake_server import prism_responder
from causalcheck.adapters import (
    CostMeter,
    LLMClient,
    Prices,
    Request,
    RetryPolicy,
    ScriptedLLM,
    fault,
    run_sync,
)
from causalcheck.base.progress import RunProgress, progress_mode
from causalcheck.explain.answer import add_answer_arguments, generate_answers, run_answer
from causalcheck.explain.data import load_benchmark
from causalcheck.explain.progress import format_accounting, meter_totals, progress_from_args
from causalcheck.explain.run import offline_judges, score_answers
from rich.console import Console

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _accounting(models: Iterable[Any]) -> Callable[[], str]:
    """The explain commands' extra column: the model-call accounting of *models*."""
    metered = tuple(models)
    return lambda: format_accounting(meter_totals(metered))


def _console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, force_terminal=True, width=200, color_system=None), buf


def _text(buf: io.StringIO) -> str:
    """The console output without control codes, each redraw on its own line."""
    return _ANSI.sub("", buf.getvalue()).replace("\r", "\n")


async def _no_sleep(_: float) -> None:
    return None


def _client(llm: ScriptedLLM, meter: CostMeter | None = None) -> LLMClient:
    return LLMClient(llm, retry=RetryPolicy(base_delay=0.0), meter=meter or CostMeter(Prices.from_mapping({"fake/scripted": [1e6, 1e6]})), sleep=_no_sleep)


def _answer_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_answer_arguments(parser)
    return parser


def _answer_args(out: Path, *extra: str) -> argparse.Namespace:
    argv = ["--model", "openai/m", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", "demo", "--out", str(out),
            "--cache-mode", "off", "--retry-base-delay", "0", *extra]  # fmt: skip
    return _answer_parser().parse_args(argv)


def test_answer_bar_shows_items_and_accounting(tmp_path: Path) -> None:
    """A forced bar on explain answer ends at 3/3 items with the meter's calls, retries, failures and cost."""
    first = {"n": 0}

    def reply(req: Request) -> Any:
        first["n"] += 1
        return fault("500") if first["n"] == 1 else "An answer."

    llm = ScriptedLLM(reply)
    client = _client(llm)
    console, buf = _console()
    items = load_benchmark("demo").items[:3]
    with RunProgress("bar", title="explain answer", extra=_accounting((client,)), console=console) as progress:
        summary = run_sync(generate_answers(items, client, tmp_path / "a.jsonl", progress=progress))
    assert summary.answered == 3
    text = _text(buf)
    last = text.strip().splitlines()[-1]
    assert "explain answer" in last and "3/3" in last
    cost = client.meter.cost
    assert f"calls {len(llm.calls)}, cache hits 0, retries 1, failures 0, ${cost:.4f}" in last
    assert len(llm.calls) == 4 and cost > 0


def test_bar_reads_the_meter_at_render_time() -> None:
    """Retries made while an item is still running show without an advance: the column reads the meter live."""
    meter = CostMeter()
    client = _client(ScriptedLLM([]), meter)
    console, buf = _console()
    progress = RunProgress("bar", title="explain score", extra=_accounting((client,)), console=console)
    progress.begin(5, done=2)
    for _ in range(3):
        meter.record_retry("fake", "scripted")
    meter.record_failure("fake", "scripted")
    progress.close()
    last = _text(buf).strip().splitlines()[-1]
    assert "2/5" in last and "retries 3" in last and "failures 1" in last


def test_score_bar_with_llm_judges_counts_every_call(tmp_path: Path) -> None:
    """explain score with scripted LLM judges: the forced bar ends at 2/2 items and counts every judge call."""
    from causalcheck.explain.llm_cli import add_cli_options, judges_from_args, make_llm_components
    from causalcheck.explain.run import Judges

    parser = argparse.ArgumentParser()
    add_cli_options(parser)
    args = parser.parse_args(["--cache-mode", "off"])
    llm = ScriptedLLM(lambda r: prism_responder({"messages": [{"content": m.content} for m in r.messages]}))
    comp = make_llm_components(args, llm_override=llm)
    assert comp is not None and comp.parser is not None and comp.edge_judge is not None and comp.criterion_judge is not None
    judges = Judges(comp.parser, comp.edge_judge, comp.criterion_judge, "fake-judge", "fake-parser", models=comp.models)
    console, buf = _console()
    with RunProgress("bar", title="explain score", extra=_accounting(judges.models), console=console) as progress:
        [res] = score_answers("demo", "demo", tmp_path / "o", judges, model="demo-strong", limit=2, judge_edges="causal", progress=progress)
    assert res.summary.n_items == 2
    last = _text(buf).strip().splitlines()[-1]
    assert "scoring demo-strong" in last and "2/2" in last and f"calls {len(llm.calls)}," in last
    assert len(llm.calls) > 2
    assert judges_from_args(parser.parse_args([])) is None  # offline: no models to meter


def test_llm_judges_expose_their_clients_once_per_meter() -> None:
    """--judge builds parser and judge clients on one shared meter: Judges.models has both, the totals count it once."""
    from causalcheck.explain.llm_cli import add_cli_options, judges_from_args

    parser = argparse.ArgumentParser()
    add_cli_options(parser)
    judges = judges_from_args(parser.parse_args(["--judge", "openai/j", "--base-url", "http://127.0.0.1:9/v1", "--cache-mode", "off"]))
    assert judges is not None and len(judges.models) == 2
    for m in judges.models:
        m.meter.record_attempt("openai", "j")  # type: ignore[attr-defined]
    assert meter_totals(judges.models) == {"calls": 2.0, "cache_hits": 0.0, "retries": 0.0, "failures": 0.0, "cost_usd": 0.0}
    assert offline_judges().models == ()


def test_meter_totals_by_shape() -> None:
    """A model without a meter adds nothing; a user meter lacking keys counts them as 0; no meter at all is None."""

    class Plain:
        provider, model, endpoint = "mine", "plain", ""

        async def complete(self, request: Request) -> Any:
            raise AssertionError("not called")

    class Mine(Plain):
        class _M:
            def summary(self) -> dict[str, Any]:
                return {"calls": 3, "cost_usd": 0.5}

        meter = _M()

    assert meter_totals([Plain()]) is None
    assert meter_totals([Plain(), Mine()]) == {"calls": 3.0, "cache_hits": 0.0, "retries": 0.0, "failures": 0.0, "cost_usd": 0.5}


def test_log_lines_every_n_items_off_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--progress off a terminal writes one stderr line at the start, per N items and at the last; never into the file."""
    out = tmp_path / "a.jsonl"
    assert run_answer(_answer_args(out, "--limit", "5", "--progress", "--progress-every", "2"), llm_override=ScriptedLLM(lambda r: "An answer.")) == 0
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.startswith("causalcheck: explain answer:")]
    assert [ln.split(": ")[2].split(",")[0] for ln in lines] == ["0/5 items", "2/5 items", "4/5 items", "5/5 items"]
    assert all("calls " in ln and "cache hits 0" in ln for ln in lines)
    assert all(isinstance(json.loads(line), dict) for line in out.read_text().splitlines())  # no progress in the file
    # resumed: the items done before are counted
    assert run_answer(_answer_args(out, "--limit", "6", "--progress", "--resume"), llm_override=ScriptedLLM(lambda r: "An answer.")) == 0
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("causalcheck: explain answer:")]
    assert lines[0].split(": ")[2].startswith("5/6 items (5 done before)") and lines[-1].split(": ")[2].startswith("6/6 items")


def test_no_progress_without_a_terminal_or_with_quiet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Off a terminal nothing is shown unless --progress; --quiet shows nothing; --progress with --quiet is a usage error."""
    assert run_answer(_answer_args(tmp_path / "a.jsonl", "--limit", "2"), llm_override=ScriptedLLM(lambda r: "An answer.")) == 0
    assert run_answer(_answer_args(tmp_path / "b.jsonl", "--limit", "2", "--quiet"), llm_override=ScriptedLLM(lambda r: "An answer.")) == 0
    assert "items," not in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        _answer_parser().parse_args(["--model", "m", "--benchmark", "demo", "--out", "x", "--progress", "--quiet"])
    assert exc.value.code == 2


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("quiet", "forced", "tty", "mode"),
    [(False, False, True, "bar"), (False, True, True, "bar"), (False, True, False, "log"), (False, False, False, None), (True, False, True, None)],
)
def test_progress_mode_decision(quiet: bool, forced: bool, tty: bool, mode: str | None) -> None:
    """A terminal gets the bar; off a terminal only --progress gives log lines; --quiet always wins."""
    assert progress_mode(quiet=quiet, forced=forced, stream=_Stream(tty)) == mode


def test_progress_from_args_builds_the_asked_display(monkeypatch: pytest.MonkeyPatch) -> None:
    """The options become a RunProgress of the decided mode with --progress-every, or None."""
    import sys

    monkeypatch.setattr(sys, "stderr", _Stream(False))
    args = argparse.Namespace(quiet=False, progress=True, progress_every=7)
    built = progress_from_args(args, title="explain score")
    assert built is not None and (built.mode, built.every) == ("log", 7)
    assert progress_from_args(argparse.Namespace(quiet=False, progress=False, progress_every=7), title="t") is None


def test_bad_every_is_refused() -> None:
    """--progress-every must be a positive integer (argparse exit 2; a direct 0 is an input error)."""
    from causalcheck.base.errors import InputFormatError

    with pytest.raises(SystemExit):
        _answer_parser().parse_args(["--model", "m", "--benchmark", "demo", "--out", "x", "--progress-every", "0"])
    with pytest.raises(InputFormatError, match="every=0"):
        RunProgress("log", title="t", every=0)


def test_score_results_do_not_depend_on_progress(tmp_path: Path) -> None:
    """Scoring with a log display writes byte-identical result files to scoring without one."""
    judges = offline_judges()
    score_answers("demo", "demo", tmp_path / "plain", judges, limit=3, timestamp="20260101-000000")
    log = io.StringIO()
    with RunProgress("log", title="explain score", stream=log, every=2) as progress:
        score_answers("demo", "demo", tmp_path / "shown", judges, limit=3, timestamp="20260101-000000", progress=progress)
    assert "9/9 items" in log.getvalue()  # 3 items x 3 answer models
    files = sorted((tmp_path / "plain").glob("*_metrics_*"))
    assert len(files) == 12
    for f in files:
        assert f.read_bytes() == (tmp_path / "shown" / f.name).read_bytes(), f.name


def test_score_command_log_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`explain score --progress` off a terminal logs items × models with the model being scored; --quiet logs none."""
    from causalcheck.cli import main

    base = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--limit", "2"]
    assert main([*base, "--out", str(tmp_path / "a"), "--progress", "--progress-every", "3"]) == 0
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("causalcheck: explain score")]
    assert [ln.split(": ")[-1].split(",")[0] for ln in lines] == ["0/6 items", "3/6 items", "6/6 items"]
    assert "scoring demo-weak" in lines[1] and "calls" not in lines[1]  # offline judges: no model accounting
    assert main([*base, "--out", str(tmp_path / "b"), "--quiet"]) == 0
    assert "items," not in capsys.readouterr().err


def test_rubrics_command_log_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`explain rubrics --progress` reports its items and the generator's calls."""
    from causalcheck.explain.rubrics import add_rubric_arguments, run_rubrics

    criterion = {"name": "n", "criteria_description": "d", "1-2": "a", "3-4": "b", "5-6": "c", "7-8": "d", "9-10": "e"}
    parser = argparse.ArgumentParser()
    add_rubric_arguments(parser)
    argv = ["--model", "openai/gen", "--base-url", "http://127.0.0.1:9/v1", "--benchmark", "demo", "--out", str(tmp_path / "b.json"),
            "--cache-mode", "off", "--limit", "2", "--progress", "--progress-every", "1"]  # fmt: skip
    assert run_rubrics(parser.parse_args(argv), llm_override=ScriptedLLM(lambda r: json.dumps([criterion]))) == 0
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("causalcheck: explain rubrics")]
    assert [ln.split(": ")[2].split(",")[0] for ln in lines] == ["0/2 items", "1/2 items", "2/2 items"]
    assert "calls 2, cache hits 0, retries 0, failures 0" in lines[-1]


def test_a_run_that_never_began_logs_nothing() -> None:
    """A display closed before begin() (the run stopped on bad input) writes nothing; one stopped early writes its state."""
    out = io.StringIO()
    RunProgress("log", title="t", stream=out).close()
    assert out.getvalue() == ""
    with RunProgress("log", title="t", stream=out, every=10, clock=lambda: 0.0) as p:
        p.begin(30)
        p.advance(4)
    assert out.getvalue().splitlines() == ["causalcheck: t: 0/30 items, 0:00:00 elapsed", "causalcheck: t: 4/30 items, 0:00:00 elapsed"]
