"""The offline inspect models: causalcheck/<agent> plays the lab as `lab run`, causalcheck/replay answers from a file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

inspect_ai = pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install 'causalcheck[inspect]')")

from causalcheck.cli import main  # noqa: E402
from causalcheck.episodes.inspect_logs import sample_trajectory  # noqa: E402
from causalcheck.lab.agents import make_agent  # noqa: E402
from causalcheck.lab.runner import run_episode  # noqa: E402
from causalcheck.lab.suites import load_suite  # noqa: E402
from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.log import EvalLog, read_eval_log  # noqa: E402
from inspect_ai.model import get_model  # noqa: E402


def _eval(task: Any, model: str, log_dir: Path, **model_args: Any) -> EvalLog:
    [log] = inspect_eval(task, model=get_model(model, **model_args), log_dir=str(log_dir), display="none")
    assert log.location
    return read_eval_log(log.location)


@pytest.mark.parametrize("agent", ["planner", "random", "observational"])
def test_a_builtin_agent_model_plays_the_lab_run_episode(agent: str, tmp_path: Path) -> None:
    """`--model causalcheck/AGENT` gives exactly the trajectory of run_episode with that agent (lab run --agent AGENT)."""
    from causalcheck.inspect import lab

    log = _eval(lab(suite="mini", limit=2), f"causalcheck/{agent}", tmp_path)
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 2
    graphs = {g.graph_id: g for g in load_suite("mini").graphs}
    for sample in log.samples:
        traj = sample_trajectory(sample.metadata)
        assert traj is not None
        graph = graphs[str(sample.metadata["graph_id"])]
        header, steps, summary = run_episode(graph, make_agent(agent, seed=1), 1, suite_name="mini", agent_name=agent)
        assert {k: v for k, v in traj.header.items() if k != "model"} == header
        assert traj.header["model"] == f"causalcheck/{agent}"
        assert list(traj.steps) == steps and traj.summary == summary
        assert sample.scores is not None and "task_accuracy" in sample.scores["lab_scorer"].value


def test_replay_of_the_demo_answers_scores_as_explain_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--model causalcheck/replay -M answers=demo` replays demo-strong; its PRISM scores equal `explain score`'s."""
    from causalcheck.inspect import whatif

    log = _eval(whatif(), "causalcheck/replay", tmp_path / "logs", answers="demo")
    assert log.status == "success", log.error
    assert log.results is not None
    metrics = {k: m.value for k, m in log.results.scores[0].metrics.items()}
    assert metrics["scored"] == 12 and metrics["failed"] == 0
    out = tmp_path / "explain"
    assert main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong", "--out", str(out)]) == 0
    capsys.readouterr()
    [result] = out.glob("*_metrics_*.json")
    summary = json.loads(result.read_text(encoding="utf-8"))["summary"]
    assert summary["n_items"] == 12
    assert metrics["final_overall"] == pytest.approx(summary["total_mean"], abs=1e-12)
    assert metrics["pm_overall"] == pytest.approx(summary["pm_mean"], abs=1e-12)
    assert metrics["rm_overall"] == pytest.approx(summary["rm_mean"], abs=1e-12)


def test_replay_refuses_a_multi_model_file_without_answer_model(tmp_path: Path) -> None:
    """A file of several answering models needs -M answer_model; an unknown one is named with the choices."""
    answers = tmp_path / "a.jsonl"
    answers.write_text('{"id": "1", "answer": "x", "model": "m1"}\n{"id": "1", "answer": "y", "model": "m2"}\n', encoding="utf-8")
    with pytest.raises(Exception, match=r"holds the answers of \['m1', 'm2'\].*answer_model"):
        get_model("causalcheck/replay", answers=str(answers))
    with pytest.raises(Exception, match=r"answer_model='m3' is not in"):
        get_model("causalcheck/replay", answers=str(answers), answer_model="m3")


def test_an_unknown_offline_model_is_refused_with_the_known_names() -> None:
    """`causalcheck/oracle` names the valid models."""
    with pytest.raises(Exception, match=r"'oracle' is not one of observational, planner, random, replay"):
        get_model("causalcheck/oracle")


def test_replay_marks_a_missing_answer_as_the_samples_error(tmp_path: Path) -> None:
    """An item without an answer in the file is that sample's error, naming the item; nothing is invented."""
    from causalcheck.inspect import whatif

    answers = tmp_path / "one.jsonl"
    answers.write_text('{"id": "demo_stem_01", "answer": "The tides would weaken."}\n', encoding="utf-8")
    [log] = inspect_eval(whatif(limit=2), model=get_model("causalcheck/replay", answers=str(answers)), log_dir=str(tmp_path), display="none", fail_on_error=False)
    assert log.samples is not None
    errors = [s.error.message for s in log.samples if s.error is not None]
    assert errors and all("has no answer" in e for e in errors)


def test_replay_finds_answers_filed_under_the_items_numeric_ids(tmp_path: Path) -> None:
    """An answers file keyed by the items' numeric `id` (not `canonical_id`) replays every sample, as
    `explain score` matches it."""
    from causalcheck.inspect import whatif

    bench = json.loads((Path(__file__).resolve().parents[1] / "core" / "data" / "whatif_demo.json").read_text())
    answers = tmp_path / "numeric.jsonl"
    answers.write_text("".join(json.dumps({"id": it["id"], "answer": f"Answer {it['id']}: the tides would weaken."}) + "\n"
                               for it in bench["items"][:3]), encoding="utf-8")  # fmt: skip
    [log] = inspect_eval(whatif(limit=3), model=get_model("causalcheck/replay", answers=str(answers)), log_dir=str(tmp_path),
                         display="none", fail_on_error=False)  # fmt: skip
    assert log.status == "success" and log.samples is not None
    assert [s.error for s in log.samples] == [None] * 3
    assert [s.output.completion for s in log.samples] == [f"Answer {it['id']}: the tides would weaken." for it in bench["items"][:3]]


def test_an_agent_model_answers_no_prompt(tmp_path: Path) -> None:
    """causalcheck/planner used for what-if answers fails the sample with a message naming causalcheck/lab."""
    from causalcheck.inspect import whatif

    [log] = inspect_eval(whatif(limit=1), model=get_model("causalcheck/planner"), log_dir=str(tmp_path), display="none")
    assert log.status == "error" and log.error is not None and "causalcheck/lab" in log.error.message


@pytest.mark.slow
def test_the_two_offline_commands_complete_with_scores_and_no_tiktoken(tmp_path: Path) -> None:
    """`inspect eval causalcheck/lab --model causalcheck/planner` and `... whatif --model causalcheck/replay -M answers=demo`
    exit 0 with scores, with an empty tiktoken cache (nothing to download)."""
    env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path / "tiktoken"), "INSPECT_LOG_DIR": str(tmp_path / "logs")}
    inspect_cli = [sys.executable, "-m", "inspect_ai"]
    for argv in (
        ["eval", "causalcheck/lab", "-T", "suite=mini", "-T", "limit=2", "--model", "causalcheck/planner"],
        ["eval", "causalcheck/whatif", "--model", "causalcheck/replay", "-M", "answers=demo"],
    ):
        run = subprocess.run([*inspect_cli, *argv, "--display", "plain"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    logs = sorted((tmp_path / "logs").glob("*.eval"))
    assert len(logs) == 2
    for path in logs:
        log = read_eval_log(str(path))
        assert log.status == "success" and log.results is not None and log.results.scores
    assert not (tmp_path / "tiktoken").exists() or not any((tmp_path / "tiktoken").iterdir())
