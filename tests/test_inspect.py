"""inspect_ai integration: the causalcheck/whatif and causalcheck/lab tasks under inspect's mockllm, offline.

Evaluations go through inspect's Python API with ``mockllm/model`` and outputs whose usage is
set (mockllm otherwise counts tokens with tiktoken, which downloads its data).  Each test
compares what inspect recorded with what causalcheck's own commands compute from the same
answers or trajectories.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

inspect_ai = pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install 'causalcheck[inspect]')")

from causalcheck.adapters import ScriptedLLM  # noqa: E402
from causalcheck.cli import main  # noqa: E402
from causalcheck.episodes import load_episode  # noqa: E402
from causalcheck.episodes.inspect_logs import (  # noqa: E402
    inspect_episode_refs,
    sample_trajectory,
)
from causalcheck.explain.data import load_answers, load_benchmark  # noqa: E402
from causalcheck.explain.llm import LLMCriterionJudge, LLMEdgeJudge  # noqa: E402
from causalcheck.explain.relations import OfflineParser  # noqa: E402
from causalcheck.explain.scoring import score_item  # noqa: E402
from causalcheck.lab.llm_agent import LLMAgent  # noqa: E402
from causalcheck.lab.runner import run_episode  # noqa: E402
from causalcheck.lab.score import score_paths  # noqa: E402
from causalcheck.lab.suites import load_suite  # noqa: E402
from causalcheck.lab.trajectory import write_trajectory  # noqa: E402
from causalcheck.protocols import Completion, LLMError, Request, Usage  # noqa: E402
from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.log import EvalLog, read_eval_log  # noqa: E402
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model  # noqa: E402

MOCK = "mockllm/model"


def _usage(prompt: str, reply: str) -> tuple[int, int]:
    """The usage ScriptedLLM reports, so both paths record the same numbers."""
    return len(prompt) // 4 + 1, len(reply) // 4 + 1


def _mock(reply_for: Callable[[str, str], str]) -> Any:
    """A mockllm model answering ``reply_for(system, user)``, with usage set (no tiktoken)."""

    def respond(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig) -> ModelOutput:
        system = next((m.text for m in messages if m.role == "system"), "")
        user = messages[-1].text
        reply = reply_for(system, user)
        out = ModelOutput.from_content(model=MOCK, content=reply)
        i, o = _usage("".join(m.text for m in messages), reply)
        out.usage = ModelUsage(input_tokens=i, output_tokens=o, total_tokens=i + o)
        return out

    return get_model(MOCK, custom_outputs=respond)


def _scripted(reply_for: Callable[[str, str], str]) -> ScriptedLLM:
    """The same replies as :func:`_mock`, for causalcheck's own code paths."""

    def respond(request: Request) -> Completion:
        system = next((m.content for m in request.messages if m.role == "system"), "")
        reply = reply_for(system, request.messages[-1].content)
        i, o = _usage("".join(m.content for m in request.messages), reply)
        return Completion(reply, Usage(i, o), "stop")

    return ScriptedLLM(respond)


def _eval(task: Any, model: Any, log_dir: Path, **kw: Any) -> EvalLog:
    [log] = inspect_eval(task, model=model, log_dir=str(log_dir), display="none", **kw)
    assert log.status == "success", log.error
    assert log.location
    return read_eval_log(log.location)


# ---------------------------------------------------------------------- whatif
BENCH = load_benchmark("demo")
STRONG = load_answers("demo", model="demo-strong")
WEAK = load_answers("demo", model="demo-weak")


def _answer(index: int) -> str:
    """Alternating strong and weak demo answers; item 5 gets an empty answer (a failed item)."""
    item = BENCH.items[index]
    if index == 5:
        return ""
    text = (STRONG if index % 2 == 0 else WEAK).get(item).text
    assert text is not None
    return text


def _answer_for(system: str, user: str) -> str:
    for i, item in enumerate(BENCH.items):
        if item.question in user:
            return _answer(i)
    raise AssertionError(f"unexpected prompt {user[:80]!r}")


@pytest.fixture(scope="module")
def whatif_log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """One causalcheck/whatif evaluation of the 12 demo questions."""
    from causalcheck.inspect import whatif

    return _eval(whatif(), _mock(_answer_for), tmp_path_factory.mktemp("whatif"))


@pytest.fixture(scope="module")
def answers_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same answers as a plain JSONL answers file."""
    path = tmp_path_factory.mktemp("answers") / "answers.jsonl"
    lines = [json.dumps({"id": it.key, "answer": _answer(i), "model": MOCK}) for i, it in enumerate(BENCH.items)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_whatif_generates_with_the_papers_settings_and_our_prompt(whatif_log: EvalLog) -> None:
    """Every item is asked with explain answer's messages at temperature 0.6 and 4096 tokens."""
    from causalcheck.explain.answer import answer_messages

    assert log_config(whatif_log) == (0.6, 4096)
    assert whatif_log.samples is not None and len(whatif_log.samples) == len(BENCH.items)
    by_key = BENCH.by_key()
    assert sorted(str(s.id) for s in whatif_log.samples) == sorted(by_key)
    for sample in whatif_log.samples:
        item = by_key[str(sample.id)]
        assert isinstance(sample.input, list)
        assert [(m.role, m.text) for m in sample.input] == [(m["role"], m["content"]) for m in answer_messages(item)]


def log_config(log: EvalLog) -> tuple[float | None, int | None]:
    """The generate settings the task ran with."""
    return log.plan.config.temperature, log.plan.config.max_tokens


def test_offline_prism_scores_equal_explain_score(whatif_log: EvalLog, answers_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Per item PM/RM/Final and the per-domain metrics in the log equal `explain score` on the same answers."""
    assert main(["explain", "score", "--benchmark", "demo", "--answers", str(answers_file), "--out", str(tmp_path)]) == 1  # item 5 has an empty answer: exit 1, listed
    capsys.readouterr()
    rows = {r["key"]: r for r in map(json.loads, (tmp_path / "mockllm_model_metrics_offline.jsonl").read_text().splitlines())}
    assert whatif_log.samples is not None
    for sample in whatif_log.samples:
        assert sample.scores is not None
        score = sample.scores["prism_scorer"]
        row = rows[str(sample.id)]
        assert score.metadata is not None and score.metadata["status"] == row["status"]
        assert score.value == {"pm": row["pm"], "rm": row["rm"], "final": row["final"]}
        assert score.metadata["row"]["official"] == row["official"]
    assert rows[BENCH.items[5].key]["status"] == "failed"
    payload = json.loads((tmp_path / "mockllm_model_metrics_offline.json").read_text())
    assert whatif_log.results is not None
    metrics = {k: m.value for k, m in whatif_log.results.scores[0].metrics.items()}
    assert metrics["scored"] == payload["summary"]["n_items"] == 11 and metrics["failed"] == 1
    assert metrics["pm_overall"] == payload["summary"]["pm_mean"]
    assert metrics["rm_overall"] == payload["summary"]["rm_mean"]
    assert metrics["final_overall"] == payload["summary"]["total_mean"]
    md = (tmp_path / "mockllm_model_metrics_offline.md").read_text()
    for bucket in ("stem", "hss", "hybrid"):
        final = metrics[f"final_{bucket}"]
        assert f"{100 * final:.2f}" in md


def test_explain_score_reads_the_inspect_log(whatif_log: EvalLog, answers_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`explain score --answers LOG` scores the log's answers exactly like the same answers in a JSONL file."""
    assert whatif_log.location
    a, b = tmp_path / "from_log", tmp_path / "from_file"
    assert main(["explain", "score", "--benchmark", "demo", "--answers", whatif_log.location, "--out", str(a)]) == 1
    assert main(["explain", "score", "--benchmark", "demo", "--answers", str(answers_file), "--out", str(b)]) == 1
    capsys.readouterr()
    name = "mockllm_model_metrics_offline.jsonl"
    assert (a / name).read_text() == (b / name).read_text()
    # and re-scored offline with other options
    c = tmp_path / "all_edges"
    assert main(["explain", "score", "--benchmark", "demo", "--answers", whatif_log.location, "--out", str(c), "--pm-mode", "all"]) == 1
    assert "Overall" in capsys.readouterr().out
    inputs = json.loads((a / name.replace(".jsonl", ".json")).read_text())["meta"]["causalcheck"]["inputs"]
    assert [Path(i["path"]).name for i in inputs] == ["whatif_demo.json", Path(whatif_log.location).name]  # the log was missing
    assert all(len(i["sha256"]) == 64 for i in inputs)


def _judge_reply(system: str, user: str) -> str:
    """A deterministic model judge: criterion JSON for rubric prompts, yes/no by edge text otherwise."""
    if '"criteria_description"' in user:
        return json.dumps({"score": 3 + len(user) % 7, "reason": "scripted"})
    return "yes" if len(user) % 3 else "no"


def test_llm_judge_through_a_model_role_equals_the_same_judge_on_our_adapter(tmp_path: Path) -> None:
    """With the `judge` role bound, edges and criteria are judged by that model, as LLMEdgeJudge/LLMCriterionJudge do."""
    from causalcheck.inspect import whatif

    log = _eval(whatif(limit=3), _mock(_answer_for), tmp_path, model_roles={"judge": _mock(_judge_reply)})
    judge = _scripted(_judge_reply)
    assert log.samples is not None and len(log.samples) == 3
    index = {it.key: i for i, it in enumerate(BENCH.items)}
    for sample in log.samples:
        i = index[str(sample.id)]
        item = BENCH.items[i]
        expected = score_item(item, _answer(i), OfflineParser(), LLMEdgeJudge(judge), LLMCriterionJudge(judge), judge_edges="causal")
        assert sample.scores is not None
        score = sample.scores["prism_scorer"]
        assert score.value == {"pm": expected.pm, "rm": expected.rm, "final": expected.final}
        assert score.metadata is not None and score.metadata["judge"] == MOCK
        roles = {e.role for e in sample.events if e.event == "model"}
        assert "judge" in roles  # the judge's calls are ModelEvents of the sample, under the role


class FixedCriterion:
    """A criterion-judge plug-in for the test below: every criterion gets 7."""

    def judge_criterion(self, item: Any, answer: str, criterion: Any, index: int) -> Any:
        from causalcheck.explain.judges import CriterionJudgment

        return CriterionJudgment(7, "fixed")


def test_whatif_takes_plugins_by_name(tmp_path: Path) -> None:
    """-T criterion_judge=package.module:factory replaces the criterion judge only; the result names it."""
    from causalcheck.inspect import whatif

    log = _eval(whatif(limit=2, criterion_judge=f"{__name__}:FixedCriterion"), _mock(_answer_for), tmp_path)
    assert log.samples is not None
    for sample in log.samples:
        assert sample.scores is not None
        score = sample.scores["prism_scorer"]
        assert isinstance(score.value, dict) and score.value["rm"] == 0.7
        assert score.metadata is not None and score.metadata["judge"] == f"offline+{__name__}:FixedCriterion"


# ---------------------------------------------------------------------- lab
SUITE = load_suite("mini")
GRAPHS = SUITE.graphs[:3]


def _lab_reply(system: str, user: str) -> str:
    """A scripted scientist: intervene on the first controllable node, open the reactor, guess, submit."""
    history = user.split("History of actions (oldest first):\n", 1)[1].split("\n\n", 1)[0]
    step = 0 if history.startswith("(none yet)") else len(history.splitlines())
    graph = next(g for g in GRAPHS if _task_text(g) in user)
    prop = str(graph.scm.controllable[0])
    parents = sorted(a for a, b in graph.scm.graph.pairs if b == "resonanceFreq")[:1]
    hyp = {
        "edges": [{"from": p, "to": "resonanceFreq"} for p in parents],
        "freq_equation": "resonanceFreq = base + " + " + ".join(f"c_{p}*{p}" for p in parents),
        "coefficients": {"base": 1.0, **{f"c_{p}": 2.0 for p in parents}},
    }
    record: dict[str, Any] = {"memory": f"step {step}", "thought": "t", "past_data": [], "hypothesis": hyp if step else {}, "experiment": {}}
    actions = [
        {"action": "INTERVENE", "arg1": prop, "arg2": 50},
        {"action": "OPEN_REACTOR"},
        {"action": "SET_FREQUENCY", "arg1": 400 + 7 * step},
    ]
    record.update(actions[step] if step < len(actions) else {"action": "SUBMIT"})
    return json.dumps(record)


_TEXTS: dict[str, str] = {}


def _task_text(graph: Any) -> str:
    """The task text the episode of *graph* (seed 1) shows."""
    if graph.graph_id not in _TEXTS:
        from causalcheck.lab.episode import Episode, EpisodeConfig

        _TEXTS[graph.graph_id] = Episode(graph, EpisodeConfig()).reset(1)[0].text
    return _TEXTS[graph.graph_id]


@pytest.fixture(scope="module")
def lab_log(tmp_path_factory: pytest.TempPathFactory) -> EvalLog:
    """causalcheck/lab on the first three mini graphs."""
    from causalcheck.inspect import lab

    return _eval(lab(suite="mini", limit=3), _mock(_lab_reply), tmp_path_factory.mktemp("lab"))


def test_lab_episode_is_the_llm_agent_episode(lab_log: EvalLog) -> None:
    """The trajectory inspect kept is exactly what run_episode + LLMAgent give with the same replies."""
    assert lab_log.samples is not None and len(lab_log.samples) == 3
    for sample, graph in zip(sorted(lab_log.samples, key=lambda s: str(s.id)), sorted(GRAPHS, key=lambda g: g.graph_id), strict=True):
        assert sample.id == f"{graph.graph_id}_s1" and sample.input == _task_text(graph)
        traj = sample_trajectory(sample.metadata)
        assert traj is not None
        header, steps, summary = run_episode(graph, LLMAgent(_scripted(_lab_reply), seed=1), 1, suite_name="mini", agent_name="llm")
        assert {k: v for k, v in traj.header.items() if k not in ("model", "agent_options")} == header
        assert traj.header["model"] == MOCK and traj.header["agent_options"]["temperature"] == 0.1
        assert list(traj.steps) == steps and traj.summary == summary


def test_each_step_is_an_event_in_the_transcript(lab_log: EvalLog) -> None:
    """Every step adds an InfoEvent with its record and hypothesis right after its ModelEvent."""
    assert lab_log.samples is not None
    sample = lab_log.samples[0]
    traj = sample_trajectory(sample.metadata)
    assert traj is not None
    kinds = [e.event for e in sample.events if e.event in ("model", "info")]
    assert kinds == ["model", "info"] * len(traj.steps)
    infos = [e for e in sample.events if e.event == "info"]
    for event, line in zip(infos, traj.steps, strict=True):
        assert event.source == "causalcheck/lab"
        assert isinstance(event.data, dict)
        assert event.data["record"] == line["record"] and event.data["hypothesis"] == line["record"].get("hypothesis")
        assert event.data["action"] == line["action"]


def test_lab_metrics_equal_lab_score_on_the_same_trajectories(lab_log: EvalLog, tmp_path: Path) -> None:
    """Per-sample scores and their means equal `lab score` on the trajectories written as files, and on the log itself."""
    assert lab_log.samples is not None and lab_log.location
    folder = tmp_path / "episodes"
    for i, sample in enumerate(sorted(lab_log.samples, key=lambda s: int(s.metadata["graph_index"]))):
        traj = sample_trajectory(sample.metadata)
        assert traj is not None
        write_trajectory(folder / f"{i:03d}_{sample.id}.jsonl", traj.header, traj.steps, traj.summary)
    files = score_paths([folder])
    from_log = score_paths([lab_log.location])
    assert not files.failures and not from_log.failures
    by_graph = {e.graph_id: e for e in files.episodes}
    assert sorted(e.graph_id for e in from_log.episodes) == sorted(by_graph)
    for e in from_log.episodes:
        assert e.final == by_graph[e.graph_id].final and e.steps == by_graph[e.graph_id].steps
        assert e.source.startswith(f"{lab_log.location}#{e.graph_id}_s1@1")
    keys = ("task_accuracy", "edge_f1", "parent_f1", "root_f1", "coefficient_f1", "shd", "imec_size")
    for sample in lab_log.samples:
        assert sample.scores is not None
        value = sample.scores["lab_scorer"].value
        assert isinstance(value, dict)
        assert value == {k: by_graph[str(sample.metadata["graph_id"])].final[k] for k in keys}
    assert lab_log.results is not None
    metrics = {k: m.value for k, m in lab_log.results.scores[0].metrics.items()}
    [suite_row] = files.by_suite
    for k in keys:
        assert metrics[k] == pytest.approx(suite_row[k]["mean"], rel=1e-12, abs=1e-12)
    assert metrics["episodes"] == 3


def test_lab_score_cli_on_the_log_and_discovery_in_a_folder(lab_log: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`causalcheck lab score LOG` and `lab score LOGDIR` find every lab sample; a whatif log is no lab episode."""
    assert lab_log.location
    log = Path(lab_log.location)
    refs = inspect_episode_refs(log)
    assert len(refs) == 3 and all(load_episode("inspect", r).suite == "mini" for r in refs)
    assert main(["lab", "score", str(log), "--out", str(tmp_path / "a"), "--bootstrap", "0"]) == 0
    assert main(["lab", "score", str(log.parent), "--out", str(tmp_path / "b"), "--bootstrap", "0"]) == 0
    capsys.readouterr()
    a = json.loads((tmp_path / "a" / "scores.json").read_text())
    b = json.loads((tmp_path / "b" / "scores.json").read_text())
    assert len(a["episodes"]) == 3 and a["episodes"] == b["episodes"]


def test_lab_score_reports_a_log_without_lab_samples(whatif_log: EvalLog, tmp_path: Path) -> None:
    """A whatif log given to lab score is one failure with the reason, not a crash."""
    assert whatif_log.location
    report = score_paths([whatif_log.location])
    assert not report.episodes
    [failure] = report.failures
    assert "holds no causalcheck lab sample" in failure.reason


def test_a_damaged_log_is_a_failure_with_its_reason(tmp_path: Path) -> None:
    """A .eval file that is not a readable log is reported by lab score and refused by explain score (exit 2)."""
    bad = tmp_path / "broken.eval"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    [failure] = score_paths([bad]).failures
    assert "cannot be read as an inspect log" in failure.reason
    assert main(["explain", "score", "--benchmark", "demo", "--answers", str(bad), "--out", str(tmp_path / "o")]) == 2


def test_lab_scorer_leaves_a_sample_without_trajectory_unscored(tmp_path: Path) -> None:
    """lab_scorer on a solver that kept no trajectory gives NaN (inspect counts it as unscored)."""
    from causalcheck.inspect import lab_dataset, lab_scorer
    from inspect_ai import Task
    from inspect_ai.solver import generate

    task = Task(dataset=lab_dataset("mini", limit=1), solver=generate(), scorer=lab_scorer())
    log = _eval(task, _mock(lambda s, u: "no record"), tmp_path)
    assert log.samples is not None and log.samples[0].scores is not None
    value = log.samples[0].scores["lab_scorer"].value
    assert isinstance(value, float) and math.isnan(value)
    assert log.results is not None and log.results.scores[0].unscored_samples == 1


_BY_NAME = """
import sys
from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
def respond(messages, tools, tool_choice, config):
    out = ModelOutput.from_content(model="mockllm/model", content='{"action": "SUBMIT"}')
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return out
[log] = eval(sys.argv[1], task_args={"limit": 1, **({"suite": "mini"} if sys.argv[1].endswith("lab") else {})},
             model=get_model("mockllm/model", custom_outputs=respond), log_dir=sys.argv[2], display="none")
print(log.status, log.eval.task, len(log.samples))
"""


@pytest.mark.parametrize("name", ["causalcheck/whatif", "causalcheck/lab"])
def test_tasks_are_found_by_their_registry_names(name: str, tmp_path: Path) -> None:
    """inspect resolves `causalcheck/whatif` and `causalcheck/lab` through causalcheck's entry point, as `inspect eval` does;
    the log it writes with its defaults (a zstd `.eval` zip) is scored by causalcheck in a fresh process, where
    inspect_ai has not been imported before the log is opened."""
    logs = tmp_path / "logs"
    out = subprocess.run([sys.executable, "-c", _BY_NAME, name, str(logs)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["success", name, "1"]
    [log] = logs.glob("*.eval")
    if name.endswith("lab"):
        argv = ["lab", "score", str(logs), "--out", str(tmp_path / "scores")]
    else:
        argv = ["explain", "score", "--benchmark", "demo", "--answers", str(log), "--out", str(tmp_path / "explain"), "--quiet"]
    scored = subprocess.run([sys.executable, "-m", "causalcheck", *argv], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert scored.returncode in (0, 1), scored.stderr[-2000:]  # 1: the one-sample run leaves items unanswered
    assert "cannot be read" not in scored.stderr and "compression method" not in scored.stderr, scored.stderr[-2000:]


def test_token_limit_stops_the_episode(tmp_path: Path) -> None:
    """The agent's calls count against the sample's token limit: the episode stops there, as a limit."""
    from causalcheck.inspect import lab

    log = _eval(lab(suite="mini", limit=1), _mock(_lab_reply), tmp_path, token_limit=2500)
    assert log.samples is not None
    sample = log.samples[0]
    assert sample.limit is not None and sample.limit.type == "token"
    calls = [e for e in sample.events if e.event == "model"]
    assert 1 <= len(calls) < 5


def test_a_cancelled_sample_stops_its_episode(tmp_path: Path) -> None:
    """A time limit cancels the sample; the worker thread makes at most the call in flight, then stops."""
    import time

    import anyio
    from causalcheck.inspect import lab

    calls: list[float] = []

    async def slow(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig) -> ModelOutput:
        calls.append(time.monotonic())
        await anyio.sleep(0.4)
        system = next((m.text for m in messages if m.role == "system"), "")
        out = ModelOutput.from_content(model=MOCK, content=_lab_reply(system, messages[-1].text))
        out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return out

    log = _eval(lab(suite="mini", limit=1, max_steps=40), get_model(MOCK, custom_outputs=slow), tmp_path, time_limit=1)
    assert log.samples is not None and log.samples[0].limit is not None and log.samples[0].limit.type == "time"
    made = len(calls)
    time.sleep(1.5)
    assert made >= 1 and len(calls) <= made + 1


# ---------------------------------------------------------------------- the adapter
def test_inspect_llm_maps_requests_and_replies(tmp_path: Path) -> None:
    """InspectLLM keeps roles, text and sampling settings; a length stop is "length"; a reported error is an LLMError."""
    from causalcheck.inspect import InspectLLM
    from inspect_ai import Task
    from inspect_ai.dataset import Sample
    from inspect_ai.scorer import Score, Target, mean, scorer
    from inspect_ai.solver import Generate, TaskState, solver

    seen: list[tuple[list[tuple[str, str]], GenerateConfig]] = []

    def respond(messages: list[ChatMessage], tools: Any, tool_choice: Any, config: GenerateConfig) -> ModelOutput:
        seen.append(([(m.role, m.text) for m in messages], config))
        last = messages[-1].text
        out = ModelOutput.from_content(MOCK, "cut", stop_reason="max_tokens") if last == "long" else ModelOutput.from_content(MOCK, "ok")
        if last == "refuse":
            out = ModelOutput.from_content(MOCK, "", error="refused")
        out.usage = ModelUsage(input_tokens=3, output_tokens=1, total_tokens=4)
        return out

    results: dict[str, Any] = {}

    @solver
    def probe() -> Any:
        async def solve(state: TaskState, generate: Generate) -> TaskState:
            llm = InspectLLM()
            results["names"] = (llm.provider, llm.model)
            req = Request.chat([{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}], temperature=0.3, max_tokens=7, seed=5)
            results["ok"] = await llm.complete(req)
            results["long"] = await llm.complete(Request.chat([{"role": "user", "content": "long"}]))
            try:
                await llm.complete(Request.chat([{"role": "user", "content": "refuse"}]))
            except LLMError as exc:
                results["error"] = str(exc)
            schema = {"type": "object", "properties": {"score": {"type": "integer"}}}
            await llm.complete(Request.chat([{"role": "user", "content": "plain"}], json_schema=schema))
            await InspectLLM(response_schemas=True).complete(Request.chat([{"role": "user", "content": "schema"}], json_schema=schema))
            return state

        return solve

    @scorer(metrics=[mean()])
    def nothing() -> Any:
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=1.0)

        return score

    _eval(Task(dataset=[Sample(input="x", id="1")], solver=probe(), scorer=nothing()), get_model(MOCK, custom_outputs=respond), tmp_path)
    assert results["names"] == ("mockllm", "model")
    assert results["ok"] == Completion("ok", Usage(3, 1), "stop")
    assert results["long"].finish_reason == "length"
    assert "refused" in results["error"]
    messages, config = seen[0]
    assert messages == [("system", "s"), ("user", "hi")]
    assert (config.temperature, config.max_tokens, config.seed) == (0.3, 7, 5)
    plain, with_schema = seen[-2][1], seen[-1][1]
    assert plain.response_schema is None  # left to the prompt by default (llama.cpp rejects the json_schema form)
    assert with_schema.response_schema is not None and with_schema.response_schema.json_schema.type == "object"


def test_inspect_is_imported_only_by_the_inspect_package_and_the_log_readers() -> None:
    """inspect_ai is imported at module level only in causalcheck.inspect; elsewhere only inside the log reader's functions."""
    import ast

    repo = Path(__file__).resolve().parents[1]
    found: list[str] = []
    for folder in ("core", "adapters", "solvers", "grammar"):
        for path in sorted((repo / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            functions = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(f)}
            types = {
                id(n)
                for f in ast.walk(tree)
                if isinstance(f, ast.If) and isinstance(f.test, ast.Name) and f.test.id == "TYPE_CHECKING"
                for n in ast.walk(f)
            }
            for node in ast.walk(tree):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                if any(n == "inspect_ai" or n.startswith("inspect_ai.") for n in names):
                    where = "function" if id(node) in functions else "types" if id(node) in types else "module"
                    found.append(f"{path.relative_to(repo).as_posix()}:{where}")
    outside = sorted({f for f in found if not f.startswith("core/inspect/")})
    assert outside == ["core/episodes/inspect_logs.py:function", "core/episodes/inspect_logs.py:types"]
    assert "core/inspect/model.py:module" in found


def test_inspect_llm_needs_inspects_loop() -> None:
    """Created outside a solver or scorer, InspectLLM says where it belongs."""
    from causalcheck.base.errors import CausalCheckError
    from causalcheck.inspect import InspectLLM

    with pytest.raises(CausalCheckError, match="inside an inspect solver or scorer"):
        InspectLLM(get_model(MOCK))


# ---------------------------------------------------------------------- imports
def test_without_inspect_the_package_gives_an_install_hint() -> None:
    """`import causalcheck.inspect` without inspect_ai fails with a one-line install hint."""
    code = "import sys; sys.modules['inspect_ai'] = None\ntry:\n import causalcheck.inspect\nexcept ImportError as e:\n print(e)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "causalcheck.inspect needs inspect_ai, which is not installed: pip install 'causalcheck[inspect]'"


def test_causalcheck_and_its_help_import_no_inspect() -> None:
    """`import causalcheck`, building the CLI parser and running an offline command never import inspect_ai."""
    code = (
        "import sys, causalcheck, causalcheck.cli as c; c.build_parser();"
        "from causalcheck.lab.agents import make_agent; make_agent('planner');"
        "print('inspect_ai' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_task_parameters_reach_the_scorer_and_the_episode_config() -> None:
    """Every whatif task parameter but the dataset's is a prism_scorer option, and every lab-run flag is a lab task parameter."""
    import inspect as pyinspect

    from causalcheck.inspect import tasks
    from causalcheck.inspect.whatif import JUDGE_OPTIONS, prism_scorer
    from causalcheck.lab.episode import EPISODE_FLAGS

    whatif_params = set(pyinspect.signature(tasks.whatif).parameters) - {"benchmark", "limit"}
    scorer_params = pyinspect.signature(prism_scorer).parameters
    assert whatif_params <= set(scorer_params)
    assert {name: scorer_params[name].default for name in JUDGE_OPTIONS} == dict(JUDGE_OPTIONS)
    lab_params = pyinspect.signature(tasks.lab).parameters
    assert set(EPISODE_FLAGS) <= set(lab_params)
    assert all(lab_params[name].default == default for name, default in EPISODE_FLAGS.items() if default is not None)


def test_episode_config_refuses_unknown_flags_and_unbounded_budgets() -> None:
    """-T interventions=10**9 is refused like lab run's --interventions (no loop bounded by an unchecked number)."""
    from causalcheck.base.errors import InputFormatError
    from causalcheck.inspect.lab import episode_config

    assert episode_config(budget="3o6i", do=True).intervention_mode == "do"
    with pytest.raises(InputFormatError, match=r"unknown flag.*'budgett'"):
        episode_config(budgett="3o6i")
    with pytest.raises(InputFormatError, match="interventions=1000000000 is more than MAX_RUN_BUDGET=10000"):
        episode_config(interventions=10**9)
    with pytest.raises(InputFormatError, match="prior_records=5000"):
        episode_config(budget="5000o1i")


def test_lab_score_of_a_log_names_the_model(lab_log: EvalLog, capsys: pytest.CaptureFixture[str]) -> None:
    """`lab score LOG` shows the log's model in the model column, not '–' (the trajectory header's 'model')."""
    assert lab_log.location
    assert main(["lab", "score", str(lab_log.location), "--bootstrap", "0", "--fast-audit"]) == 0
    out = capsys.readouterr().out
    assert f"| mini | llm | {MOCK} | 3 |" in out
    assert all(e.model == MOCK for e in score_paths([lab_log.location], resamples=0).episodes)
