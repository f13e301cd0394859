"""Fuzz every parser: damaged real inputs and generated texts either parse or raise causalcheck's error, in bounded time.

Each row of :data:`TARGETS` is one parser with its inputs — real files from ``core/data``,
what causalcheck itself writes, or the official anchors (those rows skip when the anchors are
absent), damaged by the mutations of ``tests/_fuzz.py``, and the exported
``causalcheck.strategies`` texts, as drawn and damaged.  The property is
:func:`causalcheck.testing.check_parser_total` (a result, or a ``CausalCheckError`` with a
message; anything else fails with the input), each call under the ``CALL_LIMIT`` time bound.
The default run draws ``DEFAULT_EXAMPLES`` examples per row, ``pytest -m fuzz``
``SLOW_EXAMPLES``; the same examples on every machine for the same ``CAUSALCHECK_FUZZ_SEED``
(derandomised; CI sets it to the commit, so each submission draws new ones).
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _fuzz import (
    SCALES,
    Ctx,
    Outputs,
    Seed,
    Tree,
    bounded,
    examples,
    make_ctx,
    mutated,
    mutated_tree,
    mutated_value,
    scratch,
    texts,
)
from causalcheck import strategies as cs
from causalcheck.base.errors import CausalCheckError
from causalcheck.testing import check_parser_total
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning

FORMATS = ("text", "json", "dagitty", "edgelist", "dot", "gml", "causallearn", "adjacency")


@dataclass(frozen=True)
class Target:
    """A fuzzed parser: its id, the call on one example, its inputs, and the anchor fixtures it needs."""

    id: str
    call: Callable[[Any], Any]
    inputs: Callable[[Ctx], st.SearchStrategy[Any]]
    anchors: tuple[str, ...] = ()
    error: type[BaseException] | tuple[type[BaseException], ...] = CausalCheckError


# --------------------------------------------------------------------------- calls


def _in_file(name: str, fn: Callable[[Path], Any]) -> Callable[[bytes], Any]:
    """A parser of files: the damaged bytes written as *name* in a fresh folder, then *fn(path)*."""

    def call(data: bytes) -> Any:
        with scratch() as d:
            (d / name).write_bytes(data)
            return fn(d / name)

    call.__qualname__ = getattr(fn, "__qualname__", name)
    return call


def _in_tree(fn: Callable[[Path], Any], sub: str = "") -> Callable[[Tree], Any]:
    """A reader of folders: the damaged tree written to a fresh folder, then *fn(folder / sub)*."""

    def call(tree: Tree) -> Any:
        with scratch() as d:
            return fn(tree.write(d) / sub if sub else tree.write(d))

    call.__qualname__ = getattr(fn, "__qualname__", "tree")
    return call


def _jsontext(text: str) -> None:
    from causalcheck.base.jsontext import controller_object, first_object, iter_json_values

    controller_object(text)
    first_object(text)
    list(iter_json_values(text))


def _episode_from_text(text: str) -> None:
    from causalcheck.episodes import episode_from_text

    episode_from_text(text, source="fuzz.jsonl")
    episode_from_text(text, source="fuzz.jsonl", strict=True)


def _read_episode(path: Path) -> None:
    from causalcheck.episodes import read_episode

    read_episode(path)


def _discover_and_load(folder: Path) -> None:
    from causalcheck.episodes import discover_episodes, load_episode

    for kind, path in discover_episodes([folder]):
        load_episode(kind, path)


def _read_graph(fmt: str | None) -> Callable[[str], Any]:
    from causalcheck.graphs import read_graph

    def call(text: str) -> Any:
        return read_graph(text, format=fmt)

    call.__qualname__ = f"read_graph(format={fmt!r})"
    return call


def _knowledge(x: Any) -> Any:
    from causalcheck.graphs.background import parse_knowledge, read_knowledge

    return parse_knowledge(x) if isinstance(x, str) else read_knowledge(x)


def _rst(text: str) -> None:
    from causalcheck.explain.rst import parse_rst_output, project_to_graph

    for compat in ("full", "anchor"):
        project_to_graph(parse_rst_output(text, compat=compat))


def _replay(payload: Any) -> None:
    from causalcheck.explain.replay import replay_payload

    replay_payload(payload)


def _suite_record(obj: Any) -> None:
    from causalcheck.lab.suites import parse_suite_record

    parse_suite_record(obj, where="fuzz.jsonl:1")


def _load_suite(path: Path) -> None:
    from causalcheck.lab.suites import load_suite

    load_suite(path)


def _parse_hypothesis(x: Any) -> Any:
    from causalcheck.parsing import parse_hypothesis

    return parse_hypothesis(x, source="fuzz.txt")


def _parse_record(text: str) -> Any:
    from causalcheck.parsing import parse_record

    return parse_record(text, source="fuzz.json")


def _parse_equation(text: str) -> Any:
    from causalcheck.equation import parse_equation

    return parse_equation(text)


def _safejson(text: str) -> Any:
    from causalcheck.base.safejson import loads

    return loads(text, source="fuzz.json")


def _load_benchmark(path: Path) -> Any:
    from causalcheck.explain.data import load_benchmark

    return load_benchmark(path)


def _load_answers(path: Path) -> Any:
    from causalcheck.explain.data import load_answer_sets

    return load_answer_sets(path)


def _read_snapshot(path: Path) -> Any:
    from causalcheck.testing.snapshots import read_snapshot

    return read_snapshot(path)


def _load_data(path: Path) -> Any:
    from causalcheck.graphs.data import load_data

    for nan, extra in (("error", "error"), ("drop", "ignore")):
        load_data(path, ["a", "b", "c"], nan=nan, extra_columns=extra)  # type: ignore[arg-type]


def _read_scores(path: Path) -> Any:
    from causalcheck.report.agree import read_scores

    return read_scores(path)


def _load_grid(path: Path) -> Any:
    from causalcheck.sweep.grid import load_grid

    return load_grid(path)


def _sweep_grid() -> Seed:
    """The bundled example grid (``causalcheck/data/examples/sweep.toml``): what ``causalcheck sweep`` reads."""
    from causalcheck.base.bundled import bundled_path

    return Seed("sweep.toml", (bundled_path("examples") / "sweep.toml").read_bytes())


#: TOML values of every kind a grid may hold where a number, string or boolean is expected
_TOML_VALUES = st.sampled_from([
    "0", "1", "-1", "0.05", "1.5", "2", "1e400", "-1e400", "nan", "inf", "-inf", "1e308", "3" * 60, "true", "false",
    '"x"', '"pc"', '"ges"', '""', "1979-05-27T07:32:00Z", "1979-05-27", "07:32:00", "[]", "[1, 2]", "{}", "{ a = 1 }",
])


@st.composite
def _grid_values(draw: st.DrawFn) -> str:
    """A grid whose agent options, budget settings and seeds take drawn TOML values of any kind."""
    agent = draw(st.sampled_from(["planner", "random", "observational"]))
    options = draw(st.dictionaries(st.sampled_from(["alpha", "rounds", "method", "verify", "seed", "colour"]), _TOML_VALUES, max_size=3))
    budget = draw(st.dictionaries(
        st.sampled_from(["tolerance", "interventions", "submissions", "prior_records", "max_steps", "freq_ceiling", "intervention_mode"]),
        _TOML_VALUES, max_size=3,
    ))  # fmt: skip
    seeds = draw(st.lists(st.sampled_from(["0", "1", "-1", str(2**128 - 1), str(2**128), "1.5", '"a"']), min_size=1, max_size=3))
    text = f'suites = ["mini"]\nseeds = [{", ".join(seeds)}]\nlimit = 1\n\n[[agents]]\nname = "{agent}"\n'
    if options:
        text += "options = { " + ", ".join(f"{k} = {v}" for k, v in options.items()) + " }\n"
    if budget:
        text += '\n[[budgets]]\nlabel = "b"\n' + "".join(f"{k} = {v}\n" for k, v in budget.items())
    return text


def _load_grid_text(text: str) -> Any:
    with scratch() as root:
        (root / "grid.toml").write_text(text, encoding="utf-8")
        return _load_grid(root / "grid.toml")


def _call_cache(texts: tuple[str, str]) -> str:
    """A call through the client and the cache of a message and a reply of any code points (lone surrogates
    included): answered with valid text, served back the same from the cache."""
    import tempfile

    from causalcheck.adapters import (
        CallCache,
        LLMClient,
        Request,
        RetryPolicy,
        ScriptedLLM,
        run_sync,
    )

    message, reply = texts
    with tempfile.TemporaryDirectory() as tmp:
        cache = CallCache(Path(tmp) / "c.sqlite")
        request = Request.chat([{"role": "user", "content": message}])
        first = run_sync(LLMClient(ScriptedLLM([reply]), cache=cache, retry=RetryPolicy(base_delay=0, max_attempts=1)).complete(request))
        first.text.encode("utf-8")
        again = run_sync(LLMClient(ScriptedLLM([reply]), cache=cache, retry=RetryPolicy(base_delay=0, max_attempts=1)).complete(request))
        assert again.text == first.text
        cache.close()
    return first.text


def _read_answer_journal(path: Path) -> Any:
    from causalcheck.explain.answer import read_answer_journal

    return read_answer_journal(path)


def _load_inputs(folder: Path) -> Any:
    from causalcheck.report.inputs import load_inputs

    return load_inputs([folder])


def _judge_reply(text: str) -> None:
    from causalcheck.explain.llm import parse_criterion_reply, parse_yes_no
    from causalcheck.explain.rubrics import parse_rubric_reply

    for parse in (parse_yes_no, parse_criterion_reply, parse_rubric_reply):
        try:
            parse(text)
        except ValueError as exc:  # the documented refusal of each (CausalCheckError is a ValueError too)
            assert str(exc).strip(), f"{parse.__name__} raised ValueError with an empty message"


# --------------------------------------------------------------------------- inputs


def _values(seed: Seed) -> st.SearchStrategy[Any]:
    """Structure-damaged values of *seed* (each of its JSON values in turn)."""
    return st.sampled_from(seed.values()).flatmap(mutated_value)


def _equations(c: Ctx) -> st.SearchStrategy[str]:
    found = [json.loads(line)["nodes"][n].get("computation", "") for line in c.seeds["mini.jsonl"].data.splitlines() for n in json.loads(line)["nodes"]]
    found += ["resonanceFreq = base + c_density*density + c_moisture*moisture^2", "x = -(a ** -b) / (c - c) + 1e308*1e308"]
    eqs = [Seed(f"eq{i}.txt", e.encode()) for i, e in enumerate(found) if e]
    return texts(eqs, cs.hypotheses().map(lambda h: h.equation).filter(bool))


def _records(c: Ctx) -> list[Seed]:
    steps = [json.loads(line) for line in c.seeds["trajectory.jsonl"].data.splitlines() if b'"step"' in line]
    return [c.seeds["record.txt"], *(Seed(f"step{i}.json", json.dumps(s["record"]).encode(), "json") for i, s in enumerate(steps) if "record" in s)]


def _hypothesis_objects(c: Ctx) -> list[Any]:
    """The hypothesis objects of the bundled records (what ``parse_hypothesis`` gets as a dict)."""
    values = [s.values()[0] for s in _records(c) if s.layout == "json"]
    return [v["hypothesis"] for v in values if isinstance(v, dict) and isinstance(v.get("hypothesis"), dict)]


def _rst_texts(c: Ctx) -> st.SearchStrategy[str]:
    items = c.outputs.result.values()[0]["items"]
    raws = [Seed(f"rst{i}.txt", it["parsed_rst_raw"].encode()) for i, it in enumerate(items) if it.get("parsed_rst_raw")]
    if "whatif_result" in c.anchors:
        official = json.loads(Path(c.anchors["whatif_result"]).read_text(encoding="utf-8"))["items"]
        raws += [Seed(f"official{i}.txt", it["parsed_rst_raw"].encode()) for i, it in enumerate(official[:4]) if it.get("parsed_rst_raw")]
    return texts(raws)


_KNOWLEDGE = [
    Seed("bk.txt", b'require a -> b\nforbid c <- d  # d -> c\nforbid a -- c; require "x y" -- b\ntier 1: a, b\ntier 2: c\nforbid within tier 1\n'),
    Seed("bk.json", b'{"require": [["a", "->", "b"]], "forbid": [["c", "d"], ["a", "--", "b"]], "tiers": [["a"], ["b", "c"]], "forbid_within_tiers": [1]}', "json"),
    Seed("tiers.json", b'{"tiers": {"1": ["Age", "Sex"], "2": ["Income"]}}', "json"),
]


#: model replies the judge and rubric parsers read (a yes/no verdict, a criterion score, a rubric)
_REPLIES = [
    Seed("yes.txt", b"**Yes.** The link is stated."),
    Seed("criterion.json", b'```json\n{"score": 7, "reason": "covers the premise"}\n```', "text"),
    Seed(
        "rubric.json",
        b'{"criteria": [{"criterion_name": "Premise", "description": "d", "1-2": "a", "3-4": "b", "5-6": "c", "7-8": "d", "9-10": "e"}]}',
        "json",
    ),
]


def data_csv() -> Seed:
    """A small observational CSV of a -> b -> c (seeded): what ``check GRAPH --data`` reads."""
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.normal(size=40)
    b = 2 * a + rng.normal(size=40)
    c = b + rng.normal(size=40)
    rows = "".join(f"{x:.4f},{y:.4f},{z:.4f}\n" for x, y, z in zip(a, b, c, strict=True))
    return Seed("data.csv", ("a,b,c\n" + rows).encode())


def _human_csv(c: Ctx) -> Seed:
    items = c.outputs.result.values()[0]["items"]
    csv = "id,pm,rm,final\n" + "".join(f"{it['canonical_id']},{it['pm_score']},{it['rm_score']},{it['total_score']}\n" for it in items)
    return Seed("human.csv", csv.encode())


def _tree(files: dict[str, Seed], extra: tuple[str, ...] = ()) -> st.SearchStrategy[Tree]:
    return mutated_tree(files, extra=extra)


TARGETS: tuple[Target, ...] = (
    Target("parse_record", _parse_record, lambda c: texts(_records(c), cs.step_records(drift=True).map(lambda r: r.text))),
    Target(
        "parse_hypothesis",
        _parse_hypothesis,
        lambda c: st.one_of(
            texts([c.seeds["hypothesis.txt"], c.seeds["cyclic.txt"]], cs.hypotheses().map(_format_hypothesis)),
            st.sampled_from(_hypothesis_objects(c)).flatmap(mutated_value),
        ),
    ),
    Target("parse_equation", _parse_equation, _equations),
    Target("safejson.loads", _safejson, lambda c: texts([s for s in c.seeds.values() if s.layout != "text"] + [c.outputs.scores, c.outputs.check_report])),
    Target("jsontext", _jsontext, lambda c: texts([*_records(c), c.seeds["trajectory.jsonl"]], cs.step_records(drift=True).map(lambda r: r.text))),
    Target("episode_from_text", _episode_from_text, lambda c: texts([c.seeds["trajectory.jsonl"], c.outputs.trajectory, c.seeds["record.txt"]])),
    Target("read_episode[file]", _in_tree(_read_episode, "episode.jsonl"), lambda c: _tree({"episode.jsonl": c.outputs.trajectory})),
    Target("read_episode[run folder]", _in_tree(_read_episode), lambda c: _tree(c.anchors["run"]), ("sample_run",)),
    Target(
        "discover+load_episode",
        _in_tree(_discover_and_load),
        lambda c: _tree({"a/episode.jsonl": c.outputs.trajectory, "b/trajectory.jsonl": c.seeds["trajectory.jsonl"], "c/record.json": _records(c)[1]}, ("a/x.jsonl",)),
    ),
    Target(
        "discover+load_episode[run folder]",
        _in_tree(_discover_and_load),
        lambda c: _tree({f"exp/seed_1/{k}": v for k, v in c.anchors["run"].items()} | {"episode.jsonl": c.outputs.trajectory}),
        ("sample_run",),
    ),
    *(
        Target(f"read_graph[{fmt}]", _read_graph(fmt), lambda c, fmt=fmt: texts([], cs.graph_texts(fmt).map(lambda t: t.text)))
        for fmt in FORMATS
    ),
    Target("read_graph[auto]", _read_graph(None), lambda c: texts([], st.sampled_from(FORMATS).flatmap(cs.graph_texts).map(lambda t: t.text))),
    Target("background knowledge", _knowledge, lambda c: st.one_of(texts(_KNOWLEDGE), st.sampled_from([s for s in _KNOWLEDGE if s.layout == "json"]).flatmap(_values))),
    Target("explain rst", _rst, _rst_texts),
    Target("load_benchmark", _in_file("benchmark.json", _load_benchmark), lambda c: mutated([c.seeds["benchmark.json"]])),
    Target("load_benchmark[official]", _in_file("benchmark.json", _load_benchmark), lambda c: mutated([c.anchors["benchmark"]]), ("whatif_benchmark",)),
    Target("load_answer_sets", _in_file("answers.jsonl", _load_answers), lambda c: mutated([c.seeds["answers.jsonl"], c.outputs.result])),
    Target("replay_payload", _replay, lambda c: _values(c.outputs.result)),
    Target("replay_payload[official]", _replay, lambda c: _values(c.anchors["result"]), ("whatif_result",)),
    Target("parse_suite_record", _suite_record, lambda c: _values(c.seeds["mini.jsonl"])),
    Target("load_suite", _in_file("suite.jsonl", _load_suite), lambda c: mutated([c.seeds["mini.jsonl"]])),
    Target("load_suite[official]", _in_file("suite.jsonl", _load_suite), lambda c: mutated(c.anchors["suites"]), ("causalab_data",)),
    Target("read_snapshot", _in_file("snapshot.json", _read_snapshot), lambda c: mutated([c.outputs.snapshot])),
    Target("load_data[csv]", _in_file("data.csv", _load_data), lambda c: mutated([data_csv()])),
    Target("read_scores[result]", _in_file("result.json", _read_scores), lambda c: mutated([c.outputs.result])),
    Target("read_scores[human csv]", _in_file("human.csv", _read_scores), lambda c: mutated([_human_csv(c)])),
    Target("read_answer_journal", _in_file("answers.jsonl", _read_answer_journal), lambda c: mutated([c.seeds["answers.jsonl"]])),
    Target("sweep load_grid", _in_file("grid.toml", _load_grid), lambda c: mutated([_sweep_grid()])),
    Target("sweep grid values", _load_grid_text, lambda c: _grid_values()),
    Target(
        "call cache (any code points)",
        _call_cache,
        lambda c: st.tuples(*[st.text(st.characters(exclude_categories=()), max_size=30)] * 2),
    ),
    Target(
        "report load_inputs",
        _in_tree(_load_inputs),
        lambda c: _tree({"scores.json": c.outputs.scores, "r/result.json": c.outputs.result, "check.json": c.outputs.check_report}, ("x.json",)),
    ),
    Target("judge and rubric replies", _judge_reply, lambda c: texts(_REPLIES, st.text(max_size=40))),
)


def _format_hypothesis(h: Any) -> str:
    from causalcheck.parsing import format_hypothesis

    return format_hypothesis(h)


@pytest.mark.parametrize("slow", SCALES)
@pytest.mark.parametrize("target", TARGETS, ids=[t.id for t in TARGETS])
def test_parser_is_total_on_damaged_input(target: Target, slow: bool, request: pytest.FixtureRequest, outputs: Outputs) -> None:
    """A few damaged inputs per parser (SLOW_EXAMPLES at scale): a result or causalcheck's error, never another exception or a hang."""
    strategy = target.inputs(make_ctx(target.anchors, request.getfixturevalue, outputs))
    with warnings.catch_warnings():  # a damaged 60 kB file is a large repr: printed in full all the same
        warnings.filterwarnings("ignore", "Generating overly large repr", HypothesisWarning)
        check_parser_total(bounded(target.call, target.id), strategy, error=target.error, max_examples=examples(slow))
