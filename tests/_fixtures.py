"""Fixtures shared by tests/ and properties/ (both conftest.py files import them).

Where the reference data are (the CausaLab files are package data; the WhatIfBench fixtures skip
cleanly when ../shared is absent, saying so: in tests/ they serve only the replay comparisons with the
recorded upstream files), result files in the WhatIfBench format of our own (``own_result``, ``own_llm_result``:
never skip), and short aliases of the named-graph fixtures of the causalcheck pytest plugin.
"""

from __future__ import annotations

import errno
import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from causalcheck.base.bundled import bundled_path
from causalcheck.graphchecks.named import NAMED_GRAPHS

REPO = Path(__file__).resolve().parents[1]
# the CausaLab release data ships inside the package (Apache-2.0): these fixtures never skip
CAUSALAB_DATA = bundled_path("causalab-suites")
SAMPLE_RUN = bundled_path("sample-run")
# WhatIfBench's files carry no license: they stay outside the package, test fixtures only
SHARED = Path(os.environ.get("CAUSALCHECK_SHARED", REPO.parent / "shared"))
ANCHORS = SHARED / "anchors"
WHATIFBENCH = ANCHORS / "whatifbench" / "code"
WHATIF_BENCHMARK = WHATIFBENCH / "data" / "benchmark_candidates_with_rubrics_10.json"
WHATIF_RESULT = WHATIFBENCH / "result" / "test2" / "gpt-5.5_metrics_gpt-5.5.json"
# our own hand-written files in the WhatIfBench layout (tests/fixtures/whatif_format/README.md): never skip
WHATIF_FORMAT = REPO / "tests" / "fixtures" / "whatif_format"
OWN_BENCHMARK = WHATIF_FORMAT / "benchmark.json"
OWN_ANSWERS = WHATIF_FORMAT / "answers.json"


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"WhatIfBench reference files not available at {path} (they carry no license and are not shipped; set CAUSALCHECK_SHARED)")
    return path


def _anchor_fixture(name: str, path: Path, doc: str):  # type: ignore[no-untyped-def]
    def fixture() -> Path:
        return _need(path)

    fixture.__doc__ = doc + " (skips when the anchors are absent)."
    return pytest.fixture(name=name)(fixture)


@pytest.fixture(name="causalab_data")
def fixture_causalab_data() -> Path:
    """Folder of the 19 official CausaLab suite files (package data)."""
    return CAUSALAB_DATA


@pytest.fixture(name="sample_run")
def fixture_sample_run() -> Path:
    """The official recorded gpt-5-mini run folder, graph 4nodes_0, seed 1 (package data)."""
    return SAMPLE_RUN


@pytest.fixture(name="own_result", scope="session")
def fixture_own_result(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A judged result file in the official WhatIfBench format, written by ``explain score`` of the bundled
    demo (offline judges): for the tests that need such a file, not the original's numbers (never skips)."""
    from causalcheck.cli import main

    out = tmp_path_factory.mktemp("own-result")
    code = main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(out), "--quiet",
                 "--timestamp", "20260101-000000"])
    assert code == 0, code
    return sorted(out.glob("*_metrics_offline.json"))[0]


_QUESTION = re.compile(r"^Question: (.*)$", re.MULTILINE)
_SOURCE_CLAIM = re.compile(r"^Source claim: (.*)$", re.MULTILINE)


def scripted_prism_model(folder: Path = WHATIF_FORMAT) -> Callable[[Any], Any]:
    """The responder of a ScriptedLLM playing PRISM's parser and judges on *folder*'s items
    (what it replies: ``judge.json``'s ``about``)."""
    from causalcheck.adapters import fault
    from causalcheck.explain.data import load_answers, load_benchmark

    bench = load_benchmark(folder / "benchmark.json")
    answers = load_answers(folder / "answers.json")
    script = json.loads((folder / "judge.json").read_text(encoding="utf-8"))
    key_of_answer = {a.text: a.key for a in answers.answers.values() if a.text}
    item_of_question = {it.question: it for it in bench.items}

    def respond(req: Any) -> Any:
        user = req.messages[-1].content
        if "\nText:\n" in user:  # the parser call: the answer follows "Text:"
            key = key_of_answer[user.split("\nText:\n", 1)[1]]
            reply = folder / "parser" / f"{key}.txt"
            return reply.read_text(encoding="utf-8") if reply.exists() else fault("connection")
        item = item_of_question[_QUESTION.search(user).group(1)]  # type: ignore[union-attr]
        if "Source claim:" in user:
            verdicts = script["edges"].get(item.key, {})
            source = _SOURCE_CLAIM.search(user).group(1)  # type: ignore[union-attr]
            if source in verdicts.get("fail", ()):
                return fault("connection")
            return "no" if source in verdicts.get("no", ()) else "yes"
        criterion = json.loads(user.split("Criterion (JSON):\n", 1)[1].split("\n\nAnswer:\n", 1)[0])
        names = [c.name for c in item.rubric.criteria]  # type: ignore[union-attr]
        score = script["criteria"][item.key][names.index(criterion["name"])]
        return json.dumps({"score": score, "reason": f"scripted: {score} for {criterion['name']}"})

    return respond


@pytest.fixture(name="own_llm_result", scope="session")
def fixture_own_llm_result(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A judged result file in the official WhatIfBench format written by our LLM pipeline (PRISM parser with
    ``compat="anchor"``, every edge judged, PM over the causal ones) through a scripted model on our own
    hand-written items (tests/fixtures/whatif_format): four parser items, two heuristic items (their parser
    call failed; so did the first one's edge #1 call), an unanswered item under ``failures``; for the tests that need such
    a file, not the original's numbers (never skips)."""
    from causalcheck.adapters import LLMRun, RetryPolicy, ScriptedLLM
    from causalcheck.explain.llm import LLMCriterionJudge, LLMEdgeJudge, LLMParser
    from causalcheck.explain.run import Judges, score_answers

    run = LLMRun.create(cache_mode="off", retry=RetryPolicy(max_attempts=2, base_delay=0.0))
    client = run.client(ScriptedLLM(scripted_prism_model(), model="scripted"))
    judges = Judges(LLMParser(client, compat="anchor"), LLMEdgeJudge(client), LLMCriterionJudge(client), "scripted", "scripted")
    out = tmp_path_factory.mktemp("own-llm-result")
    score_answers(str(OWN_BENCHMARK), str(OWN_ANSWERS), out, judges, judge_edges="all", strip_injections=False, timestamp="20260101-000000")
    return out / "fixture-writer_metrics_scripted.json"


fixture_whatif_benchmark = _anchor_fixture("whatif_benchmark", WHATIF_BENCHMARK, "The 10-item official WhatIfBench file")
fixture_whatif_result = _anchor_fixture("whatif_result", WHATIF_RESULT, "The official judged result file (gpt-5.5 answers, gpt-5.5 judge)")


@pytest.fixture
def disk_full(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Call it to fill the disk: from then on ``os.fsync`` raises ENOSPC.

    ``disk_full()`` fails only the flush of temporary files (names ending in ``.tmp``: an
    atomic write's new content), ``disk_full(everything=True)`` every flush.
    """

    def fill(everything: bool = False) -> None:
        real = os.fsync

        def fsync(fd: int) -> None:
            if everything or os.readlink(f"/proc/self/fd/{fd}").endswith(".tmp"):
                raise OSError(errno.ENOSPC, "No space left on device")
            real(fd)

        monkeypatch.setattr(os, "fsync", fsync)

    return fill


# --------------------------------------------------------------------------- named graphs
# The field's small graphs (chain, fork, collider, diamond, ...) live once in
# causalcheck.graphchecks.named and reach tests through the causalcheck pytest plugin
# (causalcheck.testing.plugin: the factory `causalcheck_graph` and the parametrized
# `named_causal_graph`); the short names below are this project's aliases of those fixtures.


def _named_fixture(name: str):  # type: ignore[no-untyped-def]
    def fixture(causalcheck_graph):  # type: ignore[no-untyped-def]
        return causalcheck_graph(name)

    fixture.__doc__ = f"The named graph {name!r} (the plugin's causalcheck_graph({name!r}))."
    return pytest.fixture(name=name)(fixture)


for _name in NAMED_GRAPHS:
    globals()[f"fixture_{_name}"] = _named_fixture(_name)


@pytest.fixture
def named(named_causal_graph):
    """Each named graph in turn, as ``(name, graph)`` (the plugin's named_causal_graph)."""
    return named_causal_graph
