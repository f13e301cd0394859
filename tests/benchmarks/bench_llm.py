"""Throughput of the LLM plumbing, with ratios against a reference.

* client overhead — calls/s through LLMClient (cache off / cold rw / warm rw) against calling the
  scripted model directly (the reference);
* concurrency — 20 ms-latency fake model, concurrency 8 against concurrency 1 (ideal ratio 8);
* HTTP adapter — the OpenAI SDK against the local fake server, against the scripted model (the
  server runs in the same process and shares its GIL, so this bounds adapter + server cost);
* judge calls — model calls to score the official test2 file with causal-only edge judging against
  the original's all-edge judging (needs ../shared/anchors; skipped otherwise).

Run: ``python tests/benchmarks/bench_llm.py [--quick]``.  Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from causalcheck.adapters import (  # noqa: E402
    LLMClient,
    LLMRun,
    ProviderLimits,
    Request,
    RetryPolicy,
    ScriptedLLM,
    make_llm,
    run_sync,
)


def _reqs(n: int) -> list[Request]:
    return [Request.chat([{"role": "user", "content": f"question {i}"}], max_tokens=16) for i in range(n)]


def _rate(n: int, seconds: float) -> float:
    return n / seconds if seconds > 0 else float("inf")


async def _drive(llm: Any, reqs: list[Request]) -> float:
    t0 = time.perf_counter()
    await asyncio.gather(*(llm.complete(r) for r in reqs))
    return time.perf_counter() - t0


def bench_client(n: int) -> None:
    reqs = _reqs(n)
    raw = run_sync(_drive(ScriptedLLM(lambda r: "ok"), reqs))
    rows = [("scripted model, direct (reference)", raw)]
    rows.append(("LLMClient, cache off", run_sync(_drive(LLMClient(ScriptedLLM(lambda r: "ok")), reqs))))
    with tempfile.TemporaryDirectory() as d:
        run = LLMRun.create(cache_path=Path(d) / "c.sqlite")
        client = run.client(ScriptedLLM(lambda r: "ok"))
        rows.append(("LLMClient, cache rw cold", run_sync(_drive(client, reqs))))
        warm = LLMRun.create(cache_path=Path(d) / "c.sqlite").client(ScriptedLLM([]))
        rows.append(("LLMClient, cache rw warm (0 calls)", run_sync(_drive(warm, reqs))))
    print(f"\n== client overhead ({n} calls)")
    for name, secs in rows:
        print(f"{name:<38} {_rate(n, secs):>10.0f} calls/s   ratio to reference {raw / secs:6.3f}")


def bench_concurrency(n: int) -> None:
    times = {}
    for k in (1, 8):
        client = LLMClient(ScriptedLLM(lambda r: "ok", delay=0.02), limits=ProviderLimits(k))
        times[k] = run_sync(_drive(client, _reqs(n)))
    print(f"\n== concurrency ({n} calls, 20 ms each)")
    print(f"concurrency 1: {_rate(n, times[1]):7.1f} calls/s; concurrency 8: {_rate(n, times[8]):7.1f} calls/s; "
          f"speed-up {times[1] / times[8]:.2f} (ideal 8)")  # fmt: skip


def bench_http(n: int) -> None:
    from _fake_server import FakeServer

    reqs = _reqs(n)
    raw = run_sync(_drive(ScriptedLLM(lambda r: "yes"), reqs))
    with FakeServer() as srv:
        client = LLMClient(make_llm("openai/fake", base_url=srv.base_url, env={}), limits=ProviderLimits(8))
        secs = run_sync(_drive(client, reqs))
    print(f"\n== HTTP adapter ({n} calls to the local fake server, concurrency 8)")
    print(f"openai SDK over HTTP: {_rate(n, secs):7.1f} calls/s; scripted model: {_rate(n, raw):9.0f} calls/s; "
          f"ratio {raw / secs:.4f}")  # fmt: skip


def bench_judge_calls() -> None:
    shared = HERE.parents[2] / "shared" / "anchors" / "whatifbench" / "code" / "result" / "test2" / "gpt-5.5_metrics_gpt-5.5.json"
    if not shared.exists():
        print("\n== judge calls: skipped (anchors not available)")
        return
    from causalcheck.explain.data import parse_item
    from causalcheck.explain.llm import LLMCriterionJudge, LLMEdgeJudge, LLMParser
    from causalcheck.explain.scoring import score_item
    from test_llm_prism import recorded_responder

    items = json.loads(shared.read_text(encoding="utf-8"))["items"]
    out = {}
    for mode in ("all", "causal"):
        run = LLMRun.create(cache_mode="off", retry=RetryPolicy(max_attempts=1, base_delay=0.0))
        client = run.client(ScriptedLLM(recorded_responder(items)))
        t0 = time.perf_counter()
        finals = [
            score_item(parse_item(it), it["model_answer"], LLMParser(client, compat="anchor"), LLMEdgeJudge(client),
                       LLMCriterionJudge(client), judge_edges=mode, strip_injections=False).final  # type: ignore[arg-type]
            for it in items
        ]  # fmt: skip
        out[mode] = (run.meter.calls, time.perf_counter() - t0, finals)
    print(f"\n== judge calls on the official test2 file ({len(items)} items)")
    for mode, (calls, secs, _) in out.items():
        print(f"judge_edges={mode:<7} {calls:4d} model calls  ({secs:.2f} s with the scripted model)")
    print(f"calls ratio causal/all = {out['causal'][0] / out['all'][0]:.3f}; identical totals: {out['causal'][2] == out['all'][2]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="fewer calls")
    args = ap.parse_args()
    n = 300 if args.quick else 3000
    bench_client(n)
    bench_concurrency(80 if args.quick else 400)
    bench_http(60 if args.quick else 300)
    bench_judge_calls()


if __name__ == "__main__":
    main()
