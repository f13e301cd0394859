"""Fuzz every command: damaged real inputs and drawn options give only documented exit codes, never 70,
never a traceback, the damaged input named when it is rejected, in bounded time.

Each row of :data:`TARGETS` builds one command line: the files it reads (real inputs from
``core/data``, causalcheck's own outputs, or the official anchors — those rows skip when the
anchors are absent — one of them damaged by the mutations of ``tests/_fuzz.py``) and options
drawn from their valid values and the edges around them.  ``causalcheck.cli.main`` runs
in-process (``tests/_fuzz.py::run_cli``) under the ``CALL_LIMIT`` time bound and
``check_cli`` asserts the contract.  A failure notes the files and the command line to replay
it by hand; rerunning the test replays it exactly (derandomised, seeded by the row's id).

Every command of ``causalcheck --help`` has a row, except (deliberately):

* ``explain answer`` / ``explain rubrics`` and ``lab run --agent llm`` — they ask a model; tests
  never touch the network (their inputs, the benchmark and the answer journal, have parser rows
  in ``test_fuzz_parsers.py``; the provider paths are tested against local fake servers);
* ``demo`` — it reads no input (bundled data only) and is run whole by CI (``causalcheck demo``).

A few true subprocess runs (:func:`test_the_console_script_keeps_the_contract`) prove that the
installed entry point keeps the same contract as the in-process runs.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import pytest
from _fuzz import (
    REMOVED,
    SCALES,
    Ctx,
    Outputs,
    Seed,
    Tree,
    check_cli,
    examples,
    fuzz,
    make_ctx,
    mutated,
    mutated_tree,
    mutated_zip,
    replay_note,
    run_cli,
    scratch,
)
from causalcheck import strategies as cs
from hypothesis import strategies as st

SUFFIX = {"text": ".txt", "json": ".json", "dagitty": ".dagitty", "edgelist": ".csv", "dot": ".dot", "gml": ".gml", "causallearn": ".txt", "adjacency": ".csv"}


@dataclass(frozen=True)
class Case:
    """One command line: the files under a fresh root, argv (``{root}`` stands for it), the documented
    exit codes, the damaged files and the codes on which they must be named."""

    files: Mapping[str, bytes | str]
    argv: tuple[str, ...]
    allowed: tuple[int, ...]
    damaged: tuple[str, ...] = ()
    named_on: tuple[int, ...] = (2,)
    outcomes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Target:
    """A fuzzed command: its id, its cases, and the anchor fixtures it needs."""

    id: str
    cases: Callable[[Ctx], st.SearchStrategy[Case]]
    anchors: tuple[str, ...] = ()
    #: an example's cost against the usual one: a sample below full strength gives it fewer (``_fuzz.examples``);
    #: set from the full-strength run of seed s34 (10 000 examples: report[result folder, md] 3 009 s, the two
    #: inspect-log rows 433-445 s, report 360 s, compare 242 s, the median target about 80 s)
    cost: int = 1


def _opts(*groups: Sequence[Sequence[str]]) -> st.SearchStrategy[list[str]]:
    """Options: from each group, nothing or one of its alternatives (each alternative a list of argv words)."""
    return st.tuples(*(st.one_of(st.just(()), st.sampled_from(list(g))) for g in groups)).map(lambda t: [w for alt in t for w in alt])


def _damaged(tree: Tree) -> tuple[str, ...]:
    """The damaged paths that exist as files (a removed file or a folder in its place has no name to show)."""
    return tuple(d for d in tree.damaged if isinstance(tree.files.get(d), bytes))


NUMBERS = ("0", "1", "-1", "1e-9", "5", "nan", "inf", "-inf", "1e400", "x", "", "9" * 30)


# --------------------------------------------------------------------------- check


def _record_seeds(c: Ctx) -> list[Seed]:
    steps = [json.loads(line) for line in c.seeds["trajectory.jsonl"].data.splitlines() if b'"record"' in line]
    out = [c.seeds[n] for n in ("record.txt", "trajectory.jsonl", "hypothesis.txt", "cyclic.txt")]
    out.append(c.outputs.trajectory)
    out += [Seed(f"step{i}.json", json.dumps(s["record"]).encode(), "json") for i, s in enumerate(steps[:2])]
    return out


CHECK_OPTS = (
    [["--json"]],
    [["-v"]],
    [["--strict"]],
    [["--tolerance", t] for t in NUMBERS],
)


@st.composite
def _check_file(draw: st.DrawFn, c: Ctx) -> Case:
    seed = draw(st.sampled_from(_record_seeds(c)))
    data = draw(mutated([seed]))
    return Case({seed.name: data}, ("check", f"{{root}}/{seed.name}", *draw(_opts(*CHECK_OPTS))), (0, 1, 2), (seed.name,))


@st.composite
def _check_folder(draw: st.DrawFn, c: Ctx) -> Case:
    recs = _record_seeds(c)
    files = {"a/episode.jsonl": c.outputs.trajectory, "b/trajectory.jsonl": c.seeds["trajectory.jsonl"], "b/step.json": recs[-1]}
    tree = draw(mutated_tree(files, extra=("c/x.jsonl", "a/y.json")))
    return Case(tree.files, ("check", "{root}", *draw(_opts(*CHECK_OPTS))), (0, 1, 2), _damaged(tree), (1, 2))


@st.composite
def _check_run_folder(draw: st.DrawFn, c: Ctx) -> Case:
    tree = draw(mutated_tree({f"seed_1/{k}": v for k, v in c.anchors["run"].items()}))
    return Case(tree.files, ("check", "{root}/seed_1", *draw(_opts(*CHECK_OPTS))), (0, 1, 2), _damaged(tree))


def _reference_seeds(c: Ctx) -> list[Seed]:
    suite_record = c.seeds["mini.jsonl"].values()[0]
    rec = c.seeds["record.txt"]
    return [
        Seed("graph_config.json", json.dumps(suite_record).encode(), "json"),
        Seed("edges.txt", b"density -> quantumSize\nresonanceFreq -> density\n# a comment\nmoisture -> resonanceFreq\n"),
        Seed("hypothesis.json", json.dumps({"edges": [{"from": "density", "to": "resonanceFreq"}, ["moisture", "density"]]}).encode(), "json"),
        Seed("hypothesis.txt", c.seeds["hypothesis.txt"].data),
        rec,
    ]


@st.composite
def _check_reference(draw: st.DrawFn, c: Ctx) -> Case:
    ref = draw(st.sampled_from(_reference_seeds(c)))
    files: dict[str, bytes | str] = {"record.txt": c.seeds["record.txt"].data, f"ref/{ref.name}": draw(mutated([ref]))}
    nodes = draw(st.one_of(st.none(), st.sampled_from(["density,moisture,quantumSize", "", ",", " , x", "resonanceFreq", "a" * 300]), st.text(max_size=20)))
    argv = ["check", "{root}/record.txt", "--reference", f"{{root}}/ref/{ref.name}"]
    if nodes is not None:
        argv += [f"--nodes={nodes}"]
    return Case(files, (*argv, *draw(_opts(*CHECK_OPTS[:2]))), (0, 1, 2), (ref.name,))


def _data_csv() -> Seed:
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.normal(size=40)
    b = 2 * a + rng.normal(size=40)
    c = b + rng.normal(size=40)
    return Seed("data.csv", ("a,b,c\n" + "".join(f"{x:.4f},{y:.4f},{z:.4f}\n" for x, y, z in zip(a, b, c, strict=True))).encode())


VALIDATE_SEEDS = {
    "graph.txt": Seed("graph.txt", b"a -> b\nb -> c\n"),
    "truth.txt": Seed("truth.txt", b"a -> b\nb -> c\na -> c\n"),
    "bk.txt": Seed("bk.txt", b"require a -> b\nforbid c -> a\ntier 1: a\ntier 2: b, c\n"),
}


@st.composite
def _check_graph(draw: st.DrawFn, c: Ctx) -> Case:
    seeds = {**VALIDATE_SEEDS, "data.csv": _data_csv()}
    which = draw(st.sampled_from(sorted(seeds)))
    files: dict[str, bytes | str] = {n: s.data for n, s in seeds.items()}
    files[which] = draw(mutated([seeds[which]]))
    opts = _opts(
        [["--truth", "{root}/truth.txt"]],
        [["--background", "{root}/bk.txt"]],
        [["--interventions", v] for v in ("a", "", "a,b", "zz", ",")],
        [["--ci-test", t] for t in ("fisherz", "chisq", "gsq")],
        [["--alpha", a] for a in ("0.05", "0", "1", "nan", "-1")],
        [["--correction", "bh"], ["--correction", "none"]],
        [["--suggest", k] for k in ("0", "2", "-1")],
        [["--drop-nan"]],
        [["--ignore-extra-columns"]],
        [["--graph-format", f] for f in ("text", "dagitty", "json")],
        [["--json"]],
    )
    argv = ("check", "{root}/graph.txt", "--data", "{root}/data.csv", "--permutations", "0", *draw(opts))
    return Case(files, argv, (0, 1, 2), (which, "graph.txt", "data.csv"))  # a damaged graph or data shows as their mismatch


@st.composite
def _check_examples(draw: st.DrawFn, c: Ctx) -> Case:
    name = draw(st.one_of(st.sampled_from(["record", "trajectory", "hypothesis", "cyclic", "nope", "", "../record", "RECORD"]), st.text(max_size=12)))
    argv = draw(st.sampled_from([("check", f"example:{name}"), ("check", "--list-examples")]))
    return Case({}, (*argv, *draw(_opts(*CHECK_OPTS))), (0, 1, 2))


# --------------------------------------------------------------------------- compare


@st.composite
def _compare(draw: st.DrawFn, c: Ctx) -> Case:
    fa, fb = draw(st.sampled_from(list(SUFFIX))), draw(st.sampled_from(list(SUFFIX)))
    ta, tb = draw(cs.graph_texts(fa)), draw(cs.graph_texts(fb))
    a, b = f"truth{SUFFIX[fa]}", f"estimate{SUFFIX[fb]}"
    files: dict[str, bytes | str] = {a: ta.text.encode("utf-8"), b: tb.text.encode("utf-8")}
    which = draw(st.sampled_from([a, b]))
    files[which] = draw(mutated([Seed(which, files[which])]))  # type: ignore[arg-type]
    opts = draw(_opts([["--json"]], [["--truth-format", fa], ["--truth-format", fb]], [["--estimate-format", fb], ["--estimate-format", "gml"]], [["--basis", "given"], ["--basis", "auto"]]))
    # a file read in a format it is not written in is a suspect too (the command stops at the first unreadable one)
    forced = {a: opts[opts.index("--truth-format") + 1] != fa if "--truth-format" in opts else False}
    forced[b] = opts[opts.index("--estimate-format") + 1] != fb if "--estimate-format" in opts else False
    suspects = (which, *(f for f, bad in forced.items() if bad and f != which))
    return Case(files, ("compare", f"{{root}}/{a}", f"{{root}}/{b}", *opts), (0, 2), suspects)


# --------------------------------------------------------------------------- lab

SCORE_OPTS = (
    [["--bootstrap", n] for n in ("0", "3", "-1", "x")],
    [["--no-audit"], ["--fast-audit"]],
    [["--format", f] for f in ("json", "csv", "md", "json,csv", "", "xml")],
    [["--coefficient-tolerance", t] for t in NUMBERS],
    [["--seed", s] for s in ("0", "-5", "99999999999999999999")],
)


@st.composite
def _lab_score(draw: st.DrawFn, c: Ctx) -> Case:
    files = {"run/episodes/000_a.jsonl": c.outputs.trajectory, "run/episodes/001_b.jsonl": c.outputs.trajectory}
    tree = draw(mutated_tree(files, extra=("run/episodes/002_c.jsonl", "run/summary.json")))
    out = draw(st.sampled_from([[], ["--out", "{root}/scores"]]))
    return Case(tree.files, ("lab", "score", "{root}/run", *out, *draw(_opts(*SCORE_OPTS))), (0, 1, 2), _damaged(tree), (1, 2))


@st.composite
def _lab_score_run_folder(draw: st.DrawFn, c: Ctx) -> Case:
    tree = draw(mutated_tree({f"exp/seed_1/{k}": v for k, v in c.anchors["run"].items()}))
    return Case(tree.files, ("lab", "score", "{root}/exp", "--bootstrap", "0", *draw(_opts(*SCORE_OPTS[1:]))), (0, 1, 2), _damaged(tree), (1, 2))


RUN_OPTS = (
    [["--agent", a] for a in ("random", "planner", "observational", "nope")],  # llm needs a model: tests never touch the network
    [["--interventions", n] for n in ("0", "1", "2", "-1", "x")],
    [["--prior-records", n] for n in ("0", "1", "3", "-2")],
    [["--submissions", n] for n in ("0", "1", "2")],
    [["--budget", b] for b in ("1o1i", "0o0i", "3o6i", "xoyi", "1o")],
    [["--do"], ["--no-hidden"], ["--anchor-ceiling"], ["--anchor-submissions"], ["--candidate-tool"], ["--oracle-chains"], ["--known-structure"]],
    [["--tolerance", t] for t in ("5", "0", "-1", "nan")],
    [["--max-steps", n] for n in ("1", "3", "0")],
    [["--graphs", g] for g in ("mini3nodes_0", "nope", ",")],
    [["--seed-start", s] for s in ("1", "0", "-3", str(2**128 - 1), str(10**150))],
    [["--agent-opt", o] for o in ("rounds=1", 'rounds="x"', "rounds=1.5", "rounds=0", "rounds=null", "seed=3", "verify=false",
                                  "verify=1", "alpha=0.1", "alpha=NaN", "alpha=-1", "alpha=2", "alpha=1e400", 'method="ges"',
                                  'method="x"', "colour=1", "x", "=1", "alpha=[1]")],
)


@st.composite
def _lab_run(draw: st.DrawFn, c: Ctx, suites: Sequence[Seed] | None = None) -> Case:
    seed = draw(st.sampled_from(list(suites or [c.seeds["mini.jsonl"]])))
    data = draw(mutated([seed]))
    opts = draw(_opts(*RUN_OPTS))
    if "--agent" not in opts:
        opts = ["--agent", "planner", *opts]
    if "--interventions" not in opts and "--budget" not in opts:
        opts += ["--interventions", "2"]  # small budgets: an episode is a few steps
    return Case({"suite.jsonl": data}, ("lab", "run", "--suite", "{root}/suite.jsonl", "--out", "{root}/out", "--limit", "1", "--quiet", *opts), (0, 2), ("suite.jsonl",))


@st.composite
def _lab_generate(draw: st.DrawFn, c: Ctx) -> Case:
    nodes = draw(st.sampled_from(["3", "4", "3,4", "7", "2", "51", "x", "", "4,4", "-1", "3.5", "20"]))
    opts = draw(
        _opts(
            [["--count", n] for n in ("0", "1", "2", "-1", "10001", "x")],
            [["--seed", s] for s in ("0", "7", "-1", "99999999999999999999999")],
            [["--family", "linear"], ["--family", "quadratic"]],
            [["--hidden", h] for h in ("0", "1", "2", "-1", "99")],
            [["--hidden-values", v] for v in ("-5,0,5", "nan", "1", "", "1e400,0", "a,b")],
            [["--freq-parent"]],
            [["--prefix", p] for p in ("g", "", "a/b", "\x7f", "é")],
        )
    )
    if "--count" not in opts:
        opts += ["--count", "2"]
    return Case({}, ("lab", "generate", "--nodes", nodes, "--out", "{root}/g.jsonl", *opts), (0, 2))


@st.composite
def _sweep(draw: st.DrawFn, c: Ctx) -> Case:
    """A grid of drawn values (agent options, budgets, seeds: every TOML kind), as drawn or damaged,
    run for real on one graph of the bundled mini suite with small budgets."""
    agent = draw(st.sampled_from(["planner", "random", "observational", "nope"]))
    value = st.sampled_from(["0", "1", "-1", "0.05", "1.5", "1e400", "nan", "inf", "true", '"x"', '"ges"', "1979-05-27T07:32:00Z", "[1]", "{ a = 1 }"])
    options = draw(st.dictionaries(st.sampled_from(["alpha", "rounds", "method", "verify", "seed", "colour"]), value, max_size=2))
    budget = draw(st.dictionaries(st.sampled_from(["tolerance", "interventions", "submissions", "max_steps", "freq_ceiling"]), value, max_size=2))
    seeds = draw(st.lists(st.sampled_from(["0", "1", "-1", str(2**128 - 1), str(2**128), '"a"']), min_size=1, max_size=2))
    text = f'suites = ["mini"]\nseeds = [{", ".join(seeds)}]\nlimit = 1\n\n[[agents]]\nname = "{agent}"\n'
    if options:
        text += "options = { " + ", ".join(f"{k} = {v}" for k, v in options.items()) + " }\n"
    text += '\n[[budgets]]\nlabel = "b"\ninterventions = 1\nsubmissions = 1\n' + "".join(f"{k} = {v}\n" for k, v in budget.items() if k not in ("interventions", "submissions"))
    grid = Seed("grid.toml", text.encode())
    damaged = draw(st.sampled_from(["", "grid.toml"]))  # a damaged suite file: the lab run rows
    files: dict[str, bytes | str] = {"grid.toml": draw(mutated([grid])) if damaged else grid.data}
    opts = draw(_opts([["--resume"]], [["--score"]], [["--workers", w] for w in ("1", "2", "0")]))
    return Case(files, ("sweep", "{root}/grid.toml", "--out", "{root}/out", "--quiet", *opts), (0, 1, 2), (damaged,) if damaged else ())


# --------------------------------------------------------------------------- explain

EXPLAIN_OPTS = (
    [["--model", m] for m in ("demo-strong", "demo-weak", "nobody")],
    [["--pm-mode", m] for m in ("causal", "all")],
    [["--judge-edges", m] for m in ("all", "causal")],
    [["--limit", n] for n in ("0", "1", "-1", "x")],
    [["--max-answer-chars", n] for n in ("0", "50", "200000", "-1")],
    [["--keep-injections"]],
    [["--timestamp", t] for t in ("20260101-000000", "yesterday", "")],
    [["--fresh"]],
)


@st.composite
def _explain_score(draw: st.DrawFn, c: Ctx, bench: Seed | None = None) -> Case:
    b, a = bench or c.seeds["benchmark.json"], c.seeds["answers.jsonl"]
    files: dict[str, bytes | str] = {"benchmark.json": b.data, "answers.jsonl": a.data}
    which = draw(st.sampled_from(["benchmark.json", "answers.jsonl"]))
    files[which] = draw(mutated([b if which == "benchmark.json" else a]))
    argv = ("explain", "score", "--benchmark", "{root}/benchmark.json", "--answers", "{root}/answers.jsonl", "--out", "{root}/out", "--quiet", *draw(_opts(*EXPLAIN_OPTS)))
    return Case(files, argv, (0, 1, 2), (which,), outcomes=("nothing could be scored",))


@st.composite
def _explain_replay(draw: st.DrawFn, c: Ctx, result: Seed | None = None) -> Case:
    seed = result or c.outputs.result
    opts = _opts([["--pm-mode", m] for m in ("auto", "causal", "all")], [["--no-parse-check"]], [["--out", "{root}/out"]])
    return Case({seed.name: draw(mutated([seed]))}, ("explain", "replay", f"{{root}}/{seed.name}", *draw(opts)), (0, 1, 2), (seed.name,))


@st.composite
def _explain_agree(draw: st.DrawFn, c: Ctx) -> Case:
    result = c.outputs.result
    items = result.values()[0]["items"]
    csv = "id,pm,rm,final\n" + "".join(f"{it['canonical_id']},{it['pm_score']},{it['rm_score']},{it['total_score']}\n" for it in items)
    seeds = {"a.json": result.data, "b.json": result.data, "human.csv": csv.encode()}
    b = draw(st.sampled_from(["b.json", "human.csv"]))
    which = draw(st.sampled_from(["a.json", b]))
    files: dict[str, bytes | str] = {"a.json": seeds["a.json"], b: seeds[b]}
    files[which] = draw(mutated([Seed(which, seeds[which], "json" if which.endswith(".json") else "text")]))
    opts = _opts([["--json"]], [["--bootstrap", n] for n in ("0", "5", "-1")], [["--seed", s] for s in ("0", "3")])
    argv = ("explain", "agree", "{root}/a.json", f"{{root}}/{b}", *draw(opts))
    if "--bootstrap" not in argv:
        argv = (*argv, "--bootstrap", "0")
    return Case(files, argv, (0, 1, 2), (which,))


# --------------------------------------------------------------------------- inspect logs


@st.composite
def _inspect_log(draw: st.DrawFn, c: Ctx, command: str) -> Case:
    seed = draw(st.sampled_from(c.anchors["logs"]))
    data = draw(mutated_zip(seed)) if seed.layout == "zip" else draw(mutated([seed]))
    name = seed.name
    if command == "explain":
        argv: tuple[str, ...] = ("explain", "score", "--benchmark", "demo", "--answers", f"{{root}}/{name}", "--out", "{root}/out", "--quiet")
        return Case({name: data}, argv, (0, 1, 2), (name,), outcomes=("nothing could be scored",))
    argv = ("lab", "score", f"{{root}}/{name}", "--bootstrap", "0", *draw(_opts(*SCORE_OPTS[1:3])))
    return Case({name: data}, argv, (0, 1, 2), (name,), (1, 2))


# --------------------------------------------------------------------------- plug-ins

#: What a drawn plug-in does at its drawn call: a Python statement (``{v}`` is the valid result).
PLUGIN_FAULTS = (
    "return {v}",
    "raise RuntimeError('boom')",
    "raise SystemExit(0)",
    "raise SystemExit(3)",
    "raise KeyError(None)",
    "raise RecursionError()",
    "raise MemoryError()",
    "raise GeneratorExit()",
    "return None",
    "return 'text'",
    "return [{v}]",
    "return 7",
    "import dataclasses; return dataclasses.replace({v}, action=None)",
    "import dataclasses; return dataclasses.replace({v}, record=[1])",
)

PLUGIN_MODULE = """
from causalcheck.lab.agents import make_agent
from causalcheck.explain.offline import OfflineCriterionJudge, OfflineEdgeJudge
{at_import}


class Agent:
    def __init__(self, seed=0, **options):
        self.inner = make_agent("planner", seed=seed)
        self.calls = 0

    def reset(self, task):
        self.inner.reset(task)
        if {reset!r}:
            {fault_reset}

    def act(self, observation):
        v = self.inner.act(observation)
        self.calls += 1
        if self.calls == {at}:
            {fault}
        return v


class Edge(OfflineEdgeJudge):
    calls = 0

    def judge_edges(self, item, text, graph, wanted):
        v = super().judge_edges(item, text, graph, wanted)
        Edge.calls += 1
        if Edge.calls == {at}:
            {fault}
        return v


class Criterion(OfflineCriterionJudge):
    calls = 0

    def judge_criterion(self, item, text, criterion, index):
        v = super().judge_criterion(item, text, criterion, index)
        Criterion.calls += 1
        if Criterion.calls == {at}:
            {fault}
        return v
"""


@st.composite
def _plugin(draw: st.DrawFn, c: Ctx, command: str) -> Case:
    fault = draw(st.sampled_from(PLUGIN_FAULTS)).format(v="v")
    at_import = draw(st.sampled_from(["", "", "raise ValueError('at import')", "raise SystemExit(0)", "def broken(:"]))
    reset = draw(st.booleans()) and command == "lab"
    source = PLUGIN_MODULE.format(at_import=at_import, reset=reset, fault_reset=fault.replace("return v", "pass").replace("return ", "pass  # "), at=draw(st.integers(1, 4)), fault=fault)
    module = "cc_fuzz_plugin_" + hashlib.sha256(source.encode()).hexdigest()[:12]  # a fresh module per source: no stale import
    if command == "lab":
        argv: tuple[str, ...] = ("lab", "run", "--suite", "mini", "--agent", f"{module}:Agent", "--out", "{root}/out", "--limit", "1", "--interventions", "2", "--quiet")
    else:
        which = draw(st.sampled_from([["--edge-judge", f"{module}:Edge"], ["--criterion-judge", f"{module}:Criterion"]]))
        argv = ("explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong", "--limit", "3", "--out", "{root}/out", "--quiet", *which)
    return Case({f"{module}.py": source.encode()}, argv, (0, 1, 2), (module,))


# --------------------------------------------------------------------------- report, snapshot


@st.composite
def _report(draw: st.DrawFn, c: Ctx) -> Case:
    o = c.outputs
    seeds = {"scores.json": o.scores, "result.json": o.result, "check.json": o.check_report}
    names = draw(st.lists(st.sampled_from(sorted(seeds)), min_size=1, max_size=3, unique=True))
    which = draw(st.sampled_from(names))
    files: dict[str, bytes | str] = {f"inputs-folder/{n}": seeds[n].data for n in names}
    files[f"inputs-folder/{which}"] = draw(mutated([seeds[which]]))
    as_folder = draw(st.booleans())
    paths = ["{root}/inputs-folder"] if as_folder else [f"{{root}}/inputs-folder/{n}" for n in names]
    suspects = (which, "inputs-folder") if as_folder else (which,)  # a folder with nothing recognised is named itself
    opts = _opts(
        [["--format", "html"]],
        [["--episodes", n] for n in ("0", "1", "-1")],
        [["--items", n] for n in ("0", "2", "-1")],
        [["--title", t] for t in ("", "<script>", "é\x00")],
        [["--check", "example:record"], ["--check", "example:nope"]],
    )
    argv = ("report", *paths, "--out", "{root}/report.html", "--bootstrap", "0", *draw(opts))
    return Case(files, argv, (0, 1, 2), suspects, (1, 2))  # 1: a file of the folder could not be read (named)


#: an earlier Markdown report in ``--out`` (longer than most new ones), and a file a report does not write
_OLD_REPORT: dict[str, bytes | str] = {"out/report.md": b"# old\n", **{f"out/fig-{i:03d}.png": b"old" for i in range(1, 9)}}


@st.composite
def _report_result_folder(draw: st.DrawFn, c: Ctx) -> Case:
    """A result folder (lab scores, an explain result, check reports of hypotheses and of a graph) with one
    file damaged, reported into an --out that is new, holds an older Markdown report, or holds a foreign file.
    Markdown draws a PNG per figure (~0.3 s each), so its folder leaves out the lab scores (a dozen figures)
    to stay well inside CALL_LIMIT on a loaded machine; HTML reads them all (reading is the same for both)."""
    o = c.outputs
    graph_check = Seed("graph-check.json", json.dumps({"ok": False, "graph": {"kind": "DAG", "nodes": ["a", "b"], "edges": [["a", "->", "b"]]},
                                                       "kind": {"ok": True, "claim": "DAG"}, "findings": [
                                                           {"code": "truth-extra-edge", "severity": "warning", "message": "a -> b"}]}).encode(), "json")
    md = draw(st.booleans())
    seeds = {"results/explain/result.json": o.result, "results/check.json": o.check_report, "results/graph-check.json": graph_check}
    if not md:
        seeds["results/scores/scores.json"] = o.scores
    tree = draw(mutated_tree(seeds, extra=("results/notes.json", "results/explain/x.json")))
    files = dict(tree.files)
    out = draw(st.sampled_from(["new", "old", "foreign"]))
    if out != "new":
        files.update(_OLD_REPORT)
    if out == "foreign":
        files["out/notes.txt"] = b"mine"
    check = draw(_opts([["--check", "example:cyclic"], ["--check", "{root}/results/check.json"], ["--check", "{root}/results/graph-check.json"]]))
    fmt = ("--format", "md", "--out", "{root}/out") if md else ("--format", "html", "--out", "{root}/out/report.html")
    argv = ("report", "{root}/results", *fmt, "--bootstrap", "0", "--items", "1", "--episodes", "1", *check)
    return Case(files, argv, (0, 1, 2), (*_damaged(tree), "results", "out"), (1, 2))


_IDS = ("graph-pairs-000", "graph-pairs-001", "", "i" * 5000, "../up", "a/b", "名前", "\ud83c", ".")


@st.composite
def _snapshot_cases(draw: st.DrawFn, c: Ctx) -> Case:
    """A recorded snapshot whose case list is rebuilt: none, repeated ids, empty, huge, path-like or non-string ids."""
    doc = c.outputs.snapshot.values()[0]
    cases = doc["cases"]
    ids = draw(st.lists(st.one_of(st.sampled_from(_IDS), st.sampled_from([None, 5, ["x"]])), max_size=4))
    doc = {**doc, "cases": [{**cases[k % len(cases)], "id": i} for k, i in enumerate(ids)]}
    data = json.dumps(doc, ensure_ascii=False).encode("utf-8", "surrogatepass")
    opts = _opts([["--update"]], [["--kind", "graph-pairs"]])
    argv = ("snapshot", "check", "{root}/snapshot.json", "--command", "cat {truth}", *draw(opts))
    return Case({"snapshot.json": data}, argv, (0, 1, 2), ("snapshot.json",))


@st.composite
def _snapshot_check(draw: st.DrawFn, c: Ctx) -> Case:
    snap = c.outputs.snapshot
    opts = _opts([["--update"]], [["--timeout", t] for t in ("5", "0", "-1", "nan")], [["--kind", k] for k in ("graph-pairs", "answers")])
    argv = ("snapshot", "check", "{root}/snapshot.json", "--command", "cat {truth}", *draw(opts))
    return Case({"snapshot.json": draw(mutated([snap]))}, argv, (0, 1, 2), ("snapshot.json",))


@st.composite
def _snapshot_corpus(draw: st.DrawFn, c: Ctx) -> Case:
    kind = draw(st.sampled_from(["graph-pairs", "causalab-pairs", "pdag-pairs", "coefficients", "explanations", "criterion-scores", "answers", "trajectories", "nope"]))
    opts = _opts([["--size", n] for n in ("0", "1", "2", "-1", "x")], [["--seed", s] for s in ("0", "-1", "99999999999999999999")], [["--format", f] for f in (*SUFFIX, "xml", "")])
    argv = ("snapshot", "corpus", kind, "--out", "{root}/corpus", *draw(opts))
    if "--size" not in argv:
        argv = (*argv, "--size", "2")
    return Case({}, argv, (0, 2))


TARGETS: tuple[Target, ...] = (
    Target("check[file]", _check_file),
    Target("check[folder]", _check_folder),
    Target("check[run folder]", _check_run_folder, ("sample_run",)),
    Target("check --reference --nodes", _check_reference),
    Target("check GRAPH --data (validator)", _check_graph),
    Target("check example: / --list-examples", _check_examples),
    Target("compare", _compare, cost=3),
    Target("lab score", _lab_score),
    Target("lab score[run folder]", _lab_score_run_folder, ("sample_run",)),
    Target("lab run", _lab_run),
    Target("lab run[official suites]", lambda c: _lab_run(c, c.anchors["suites"]), ("causalab_data",)),
    Target("lab generate", _lab_generate),
    Target("lab suites", lambda c: st.just(Case({}, ("lab", "suites"), (0,)))),
    Target("explain score", _explain_score),
    Target("explain score[official benchmark]", lambda c: _explain_score(c, c.anchors["benchmark"]), ("whatif_benchmark",)),
    Target("explain replay", _explain_replay),
    Target("explain replay[official]", lambda c: _explain_replay(c, c.anchors["result"]), ("whatif_result",)),
    Target("explain agree", _explain_agree),
    Target("explain score[inspect log]", lambda c: _inspect_log(c, "explain"), ("inspect_logs",), cost=5),
    Target("lab score[inspect log]", lambda c: _inspect_log(c, "lab"), ("inspect_logs",), cost=5),
    Target("lab run --agent PLUGIN", lambda c: _plugin(c, "lab")),
    Target("explain score --edge-judge/--criterion-judge PLUGIN", lambda c: _plugin(c, "explain")),
    Target("report", _report, cost=4),
    Target("report[result folder, md]", _report_result_folder, cost=10),
    Target("sweep", _sweep, cost=3),
    Target("snapshot check", _snapshot_check),
    Target("snapshot check[cases]", _snapshot_cases),
    Target("snapshot corpus", _snapshot_corpus),
)


def run_case(case: Case) -> None:
    """Write the case's files under a fresh root, run its command line in-process and check the contract."""
    with scratch() as root:
        Tree(case.files, case.damaged).write(root)
        argv = [a.replace("{root}", str(root)) for a in case.argv]
        replay_note({k: v for k, v in case.files.items() if v != REMOVED}, [a.replace("{root}", ".") for a in case.argv])
        sys.path.insert(0, str(root))  # a plug-in row's module is a file under the root
        try:
            result = run_cli(argv)
        finally:
            sys.path.remove(str(root))
        check_cli(result, case.allowed, damaged=case.damaged, named_on=case.named_on, outcomes=case.outcomes)


@pytest.mark.parametrize("slow", SCALES)
@pytest.mark.parametrize("target", TARGETS, ids=[t.id for t in TARGETS])
def test_command_keeps_its_contract_on_damaged_input(target: Target, slow: bool, request: pytest.FixtureRequest, outputs: Outputs) -> None:
    """A few damaged inputs per command (SLOW_EXAMPLES at scale): documented exit codes, never 70, no traceback, the damaged file named, no hang."""
    fuzz(target.id, target.cases(make_ctx(target.anchors, request.getfixturevalue, outputs)), run_case, examples(slow, target.cost))


@pytest.mark.parametrize(
    "argv,allowed",
    [
        (["compare", "{root}/t.txt", "{root}/e.txt"], (2,)),
        (["check", "{root}/t.txt"], (0, 1, 2)),
        (["snapshot", "check", "{root}/s.json", "--command", "cat {truth}"], (2,)),
    ],
    ids=["compare", "check", "snapshot check"],
)
def test_the_console_script_keeps_the_contract(argv: list[str], allowed: tuple[int, ...]) -> None:
    """The installed ``causalcheck`` script on damaged files: a documented exit code, no traceback (a real process)."""
    import subprocess
    import sys

    with scratch() as root:
        (root / "t.txt").write_bytes(b'a -> "\\q"\x00\xff')
        (root / "e.txt").write_bytes(b"nodes: a\n")
        (root / "s.json").write_bytes(b'{"format": "causalcheck-snapshot/1", "corpus": {"kind": "graph-pairs"}, "cases": [{"id": 5, "input": {}, "output": 1}]}')
        cmd = [sys.executable, "-m", "causalcheck", *(a.replace("{root}", str(root)) for a in argv)]
        done = subprocess.run(cmd, capture_output=True, timeout=120, check=False)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode in allowed and done.returncode != 70, (done.returncode, err)
    assert "Traceback (most recent call last)" not in err + done.stdout.decode("utf-8", "replace")


def test_a_costly_target_gets_fewer_examples_only_in_a_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """Full strength and the default run give every target the same count; a smaller sample divides by the cost, never below the default run's."""
    import _fuzz

    monkeypatch.setattr(_fuzz, "SLOW_EXAMPLES", _fuzz.FULL_EXAMPLES)
    assert examples(True, 10) == examples(True) == _fuzz.FULL_EXAMPLES
    assert examples(False, 10) == examples(False) == _fuzz.DEFAULT_EXAMPLES
    monkeypatch.setattr(_fuzz, "SLOW_EXAMPLES", 150)
    assert (examples(True), examples(True, 3), examples(True, 100)) == (150, 50, _fuzz.DEFAULT_EXAMPLES)
    monkeypatch.setattr(_fuzz, "SLOW_EXAMPLES", 5)  # a sample smaller than the default run stays that small
    assert examples(True, 10) == 5
    assert {t.id: t.cost for t in TARGETS if t.cost > 1}["report[result folder, md]"] == 10
