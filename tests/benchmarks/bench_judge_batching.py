"""Per-answer judge calls (``--judge-calls per-answer``) against one call per judgment, on recorded answers.

For each answer set it scores every item twice through a scripted fake model that answers each
judgment the same way in both modes (``judge_fake`` of ``tests/test_explain_llm_batching.py``) and
prints, per mode: model calls (parser / edge / criterion), prompt characters, the characters of
each call that repeat the start of an earlier call on the same answer (what a provider's prefix
cache can serve; counted from the first character up to the first difference, system message
then user message) and the rest; then the agreement of the two modes — per-edge and
per-criterion verdicts, PM, RM, Final per item and the summary means — once with the fake
answering both modes alike, and once with its per-answer replies noisy (each edge verdict
flipped and each criterion score moved by one with probability ``--noise``, an entry left out
with half that), so the table is seen to move.

Answer sets:

* ``official test2`` — the WhatIfBench result file ``gpt-5.5_metrics_gpt-5.5.json`` (9 items,
  recorded gpt-5.5 parser output, edge verdicts and criterion scores; needs ``../shared/anchors``);
* ``own fixtures`` — causalcheck's hand-written items in that format
  (``tests/fixtures/whatif_format``: recorded parser replies and judge script ``judge.json``).

``--server`` sends every call over HTTP to the local fake server (``tests/_fake_server.py``,
OpenAI protocol) instead of the in-process scripted model; the figures are the same.

Run: ``python tests/benchmarks/bench_judge_batching.py [--noise 0.1] [--server]``.  Prints; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from causalcheck.adapters import LLMRun, RetryPolicy, ScriptedLLM, fault, make_llm  # noqa: E402
from causalcheck.explain.data import WhatIfItem, load_answers, load_benchmark, parse_item  # noqa: E402
from causalcheck.explain.llm import LLMCriterionJudge, LLMEdgeJudge, LLMParser  # noqa: E402
from causalcheck.explain.result_schema import ResultItem  # noqa: E402
from causalcheck.explain.scoring import score_item  # noqa: E402
from test_explain_llm_batching import judge_fake  # noqa: E402

OFFICIAL = HERE.parents[2] / "shared" / "anchors" / "whatifbench" / "code" / "result" / "test2" / "gpt-5.5_metrics_gpt-5.5.json"
OWN = HERE.parent / "fixtures" / "whatif_format"
MODES = ("per-judgment", "per-answer")


@dataclass
class AnswerSet:
    """Items and answers, and the recorded judgments the fake plays back."""

    name: str
    items: list[tuple[WhatIfItem, str]]
    edge: Callable[[str, str, str, str], str]
    criterion: Callable[[str, dict[str, Any]], dict[str, Any] | None]
    parse: Callable[[str], str | BaseException]


def official_set() -> AnswerSet | None:
    if not OFFICIAL.exists():
        return None
    raw = json.loads(OFFICIAL.read_text(encoding="utf-8"))["items"]
    edges: dict[tuple[str, str, str, str], str] = {}
    crits: dict[tuple[str, str], dict[str, Any]] = {}
    parsed: dict[str, str | None] = {}
    for it in raw:
        parsed[it["model_answer"]] = it["parsed_rst_raw"] if it["parsed_rst_source"] == "parser" else None
        text = {n["id"]: n["text"] for n in it["parsed_dag"]["nodes"]}
        for e, j in zip(it["parsed_dag"]["edges"], it["metrics"]["pm"]["edges"], strict=True):
            edges[(it["question"], text[e["source"]], text[e["target"]], e["relation_type"])] = j["raw"]["raw"]
        for c in it["metrics"]["rm"]["criterion_evaluations"]:
            crits[(it["question"], c["name"])] = dict(c["raw"])

    def parse(answer: str) -> str | BaseException:
        reply = parsed.get(answer)
        return fault("connection") if reply is None else reply

    return AnswerSet(
        "official test2 (gpt-5.5 answers and judgments)",
        [(parse_item(it), it["model_answer"]) for it in raw],
        lambda q, s, t, r: edges[(q, s, t, r)],
        lambda q, c: crits[(q, c["name"])],
        parse,
    )


def own_set() -> AnswerSet:
    bench = load_benchmark(OWN / "benchmark.json")
    answers = load_answers(OWN / "answers.json")
    script = json.loads((OWN / "judge.json").read_text(encoding="utf-8"))
    by_question = {it.question: it for it in bench.items}
    key_of_answer = {a.text: a.key for a in answers.answers.values() if a.text}

    def edge(q: str, s: str, t: str, r: str) -> str:
        verdicts = script["edges"].get(by_question[q].key, {})
        return "" if s in verdicts.get("fail", ()) else "no" if s in verdicts.get("no", ()) else "yes"

    def criterion(q: str, c: dict[str, Any]) -> dict[str, Any]:
        item = by_question[q]
        names = [k.name for k in item.rubric.criteria]  # type: ignore[union-attr]
        score = script["criteria"][item.key][names.index(c["name"])]
        return {"score": score, "reason": f"scripted: {score} for {c['name']}"}

    def parse(answer: str) -> str | BaseException:
        reply = OWN / "parser" / f"{key_of_answer[answer]}.txt"
        return reply.read_text(encoding="utf-8") if reply.exists() else fault("connection")

    items = [(it, a.text) for it in bench.items if (a := answers.get(it)) is not None and a.text]
    return AnswerSet("own fixtures (tests/fixtures/whatif_format)", items, edge, criterion, parse)


@dataclass
class Run:
    """One scoring of an answer set in one mode: results and the prompts of each item's calls."""

    results: list[ResultItem] = field(default_factory=list)
    prompts: list[list[tuple[str, str]]] = field(default_factory=list)  # per item: (system, user) of every call


@contextmanager
def _model(reply: Callable[[str], str | BaseException], seen: list[tuple[str, str]], server: bool) -> Iterator[Any]:
    if not server:

        def respond(req: Any) -> str | BaseException:
            seen.append((req.messages[0].content if len(req.messages) > 1 else "", req.messages[-1].content))
            return reply(req.messages[-1].content)

        yield ScriptedLLM(respond)
        return
    from _fake_server import FakeServer

    def body_reply(body: dict[str, Any]) -> str:
        msgs = body["messages"]
        seen.append((msgs[0]["content"] if len(msgs) > 1 else "", msgs[-1]["content"]))
        out = reply(msgs[-1]["content"])
        return out if isinstance(out, str) else ""  # an empty reply: the client retries, then the call fails

    with FakeServer(body_reply) as srv:
        yield make_llm("openai/fake", base_url=srv.base_url, env={"OPENAI_API_KEY": "sk-fake"})


def score_set(aset: AnswerSet, calls: str, judge_edges: str, noise: float, server: bool) -> Run:
    seen: list[tuple[str, str]] = []
    run = Run()
    reply = judge_fake(aset.edge, aset.criterion, aset.parse, noise=noise if calls == "per-answer" else 0.0)
    with _model(reply, seen, server) as llm:
        client = LLMRun.create(cache_mode="off", retry=RetryPolicy(max_attempts=2, base_delay=0.0)).client(llm)
        parser = LLMParser(client, compat="anchor")
        edge, crit = LLMEdgeJudge(client, calls=calls), LLMCriterionJudge(client, calls=calls)  # type: ignore[arg-type]
        for item, answer in aset.items:
            start = len(seen)
            run.results.append(score_item(item, answer, parser, edge, crit, judge_edges=judge_edges, strip_injections=False))  # type: ignore[arg-type]
            run.prompts.append(seen[start:])
    return run


def _common(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def prompt_figures(run: Run) -> dict[str, int]:
    out = {"parser": 0, "edge": 0, "criterion": 0, "chars": 0, "prefix": 0}
    for calls in run.prompts:
        texts: list[str] = []
        for system, user in calls:
            kind = "parser" if "\nText:\n" in user else "edge" if "Source claim:" in user else "criterion"
            out[kind] += 1
            text = system + user
            out["chars"] += len(text)
            out["prefix"] += max((_common(text, t) for t in texts), default=0)
            texts.append(text)
    return out


def _judge_chars(run: Run) -> tuple[int, int]:
    """Prompt and repeated-prefix characters of the judge calls only (parser calls left out)."""
    judge = Run(prompts=[[c for c in calls if "\nText:\n" not in c[1]] for calls in run.prompts])
    f = prompt_figures(judge)
    return f["chars"], f["prefix"]


def agreement(a: Run, b: Run) -> dict[str, str]:
    edges = [(x.score, y.score) for ra, rb in zip(a.results, b.results, strict=True)
             for x, y in zip(ra.edge_judgments, rb.edge_judgments, strict=True) if x is not None and y is not None]  # fmt: skip
    crits = [(x.score, y.score) for ra, rb in zip(a.results, b.results, strict=True)
             for x, y in zip(ra.criterion_judgments, rb.criterion_judgments, strict=True)]  # fmt: skip
    out = {
        "edge verdicts equal": f"{sum(x == y for x, y in edges)} / {len(edges)}",
        "criterion scores equal": f"{sum(x == y for x, y in crits)} / {len(crits)} (mean |diff| {statistics.fmean(abs(x - y) for x, y in crits) if crits else 0:.2f})",
    }
    for name in ("pm", "rm", "final"):
        diffs = [abs(getattr(ra, name) - getattr(rb, name)) for ra, rb in zip(a.results, b.results, strict=True)]
        ma, mb = (statistics.fmean(getattr(r, name) for r in run.results) for run in (a, b))
        out[name.upper() if name != "final" else "Final"] = (
            f"items equal {sum(d == 0 for d in diffs)} / {len(diffs)}, max |diff| {max(diffs):.4f}; mean {ma:.4f} vs {mb:.4f}"
        )
    degraded = [sum(r.degraded for r in run.results) for run in (a, b)]
    out["degraded items"] = f"{degraded[0]} vs {degraded[1]}"
    return out


def report(aset: AnswerSet, judge_edges: str, noise: float, server: bool) -> None:
    runs = {mode: score_set(aset, mode, judge_edges, 0.0, server) for mode in MODES}
    print(f"\n== {aset.name}: {len(aset.items)} answers, judge_edges={judge_edges}")
    print(f"{'mode':<14}{'parser':>7}{'edge':>6}{'crit':>6}{'judge calls':>13}{'prompt chars':>14}{'repeated prefix':>17}{'rest':>10}"
          f"{'judge chars':>13}{'judge prefix':>14}")  # fmt: skip
    figs = {}
    for mode, run in runs.items():
        f = prompt_figures(run)
        jc, jp = _judge_chars(run)
        figs[mode] = (f, jc, jp)
        print(f"{mode:<14}{f['parser']:>7}{f['edge']:>6}{f['criterion']:>6}{f['edge'] + f['criterion']:>13}{f['chars']:>14,}{f['prefix']:>17,}"
              f"{f['chars'] - f['prefix']:>10,}{jc:>13,}{jp:>14,}")  # fmt: skip
    (fa, jca, jpa), (fb, jcb, jpb) = figs["per-judgment"], figs["per-answer"]
    ja, jb = fa["edge"] + fa["criterion"], fb["edge"] + fb["criterion"]
    print(f"ratio per-judgment / per-answer: judge calls {ja / jb:.2f}x, judge prompt chars {jca / jcb:.2f}x, "
          f"judge chars not served from a prefix {(jca - jpa) / max(1, jcb - jpb):.2f}x")  # fmt: skip
    noisy = score_set(aset, "per-answer", judge_edges, noise, server)
    tables = {"same verdicts in both modes": agreement(runs["per-judgment"], runs["per-answer"]),
              f"per-answer replies with noise {noise}": agreement(runs["per-judgment"], noisy)}  # fmt: skip
    extra = prompt_figures(noisy)
    for title, table in tables.items():
        print(f"-- agreement, per-judgment vs per-answer ({title})")
        for k, v in table.items():
            print(f"   {k:<24}{v}")
    print(f"   (noisy run: {extra['edge']} edge calls, {extra['criterion']} criterion calls — the entries it left out were asked alone)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--noise", type=float, default=0.1, help="chance a per-answer verdict is changed in the noisy run")
    ap.add_argument("--server", action="store_true", help="calls over HTTP to the local fake server")
    args = ap.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "sk-fake")
    logging.getLogger("causalcheck.llm").setLevel(logging.ERROR)  # the recorded failures' retries are expected
    sets = [s for s in (official_set(), own_set()) if s is not None]
    if official_set() is None:
        print("(official test2 file not found under ../shared/anchors: skipped)")
    for aset in sets:
        for judge_edges in ("causal", "all"):
            report(aset, judge_edges, args.noise, args.server)


if __name__ == "__main__":
    main()
