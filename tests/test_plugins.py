"""Plug-ins: agents, judges, parsers and segmenters from module paths and entry points, checked against the protocols."""

from __future__ import annotations

import json
import re
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from causalcheck import plugins
from causalcheck.cli import main
from causalcheck.lab.agents import AGENTS, make_agent
from causalcheck.plugins import BUILTINS, GROUPS, PluginError, Registry, create, protocol_problems

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

REPO = Path(__file__).resolve().parents[1]

PLUGIN_MODULE = '''
from causalcheck.explain.judges import CriterionJudgment, EdgeJudgment
from causalcheck.explain.segment import RuleSegmenter


class AlwaysYes:
    def judge_edges(self, item, answer, graph, edges):
        return [EdgeJudgment(1.0, "yes", "plug-in") for _ in edges]


class Fives:
    def judge_criterion(self, item, answer, criterion, index):
        return CriterionJudgment(5, "plug-in")


class Lines(RuleSegmenter):
    name = "lines"


class Half:
    def __init__(self, seed=0): ...
    def reset(self, task): ...


class Rude:
    def __init__(self, seed=0): ...
    def reset(self): ...
    async def act(self, observation): ...


class NoJudge:
    def judge_edges(self, item, answer): ...


def broken(seed=0):
    raise RuntimeError("the model file is missing")
'''


def _readme_agent() -> str:
    """The custom-agent example of docs/plugins.md, exactly as printed there."""
    text = (REPO / "docs" / "plugins.md").read_text(encoding="utf-8")
    found = re.search(r"```python\n(# my_agents\.py.*?)```", text, re.DOTALL)
    assert found, "docs/plugins.md has no my_agents.py example"
    return found.group(1)


@pytest.fixture
def plugin_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path holding my_agents.py (the README snippet) and cc_plugins.py; entry points re-read."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "my_agents.py").write_text(_readme_agent(), encoding="utf-8")
    (folder / "cc_plugins.py").write_text(PLUGIN_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))
    plugins.clear_cache()
    yield folder
    for name in ("my_agents", "cc_plugins"):
        sys.modules.pop(name, None)
    plugins.clear_cache()


def _distribution(folder: Path, name: str, entry_points: str) -> None:
    """An installed distribution (just its metadata) declaring *entry_points*, found through sys.path."""
    info = folder / f"{name}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(textwrap.dedent(entry_points), encoding="utf-8")
    plugins.clear_cache()


# ---------------------------------------------------------------------- the registry
def test_builtins_are_registered_as_entry_points_in_pyproject() -> None:
    """pyproject.toml declares exactly BUILTINS in the plug-in groups, and the installed metadata has them."""
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    for kind, group in GROUPS.items():
        assert declared[group] == BUILTINS[kind], group
        assert {k: v for k, v in plugins.registered(kind).items() if k in BUILTINS[kind]} == BUILTINS[kind]
    from importlib.metadata import entry_points

    installed = {ep.name: ep.value for ep in entry_points(group="causalcheck.agents") if ep.dist is not None and ep.dist.name == "causalcheck"}
    assert installed == BUILTINS["agent"]
    assert declared["inspect_ai"] == {"causalcheck": "causalcheck.inspect.tasks"}


def test_agents_mapping_is_the_registry() -> None:
    """AGENTS lists the registered agents, maps them to their factories and accepts module:factory names."""
    assert isinstance(AGENTS, Registry)
    assert sorted(AGENTS) == ["llm", "observational", "planner", "random"] and len(AGENTS) == 4
    assert AGENTS["planner"] == "causalcheck.lab.planner:PlannerAgent"
    assert "mypkg.agents:make" in AGENTS and "no_such_agent" not in AGENTS
    with pytest.raises(KeyError):
        AGENTS["no_such_agent"]


def test_protocol_problems_name_what_is_wrong() -> None:
    """Missing methods, uncallable signatures, async where sync is called and missing attributes are each named."""

    class Seg:
        def segment(self, text: str) -> list[object]:
            return []

    assert protocol_problems(Seg(), "segmenter") == ["missing attribute name"]

    class Judge:
        judge_edges = 3

    assert protocol_problems(Judge(), "edge_judge") == ["judge_edges is a int, not a method judge_edges(item, answer, graph, edges)"]
    assert protocol_problems(make_agent("planner"), "agent") == []


def test_unknown_names_list_the_registered_ones() -> None:
    """An unknown name names the kind's registered plug-ins and the module:factory form."""
    with pytest.raises(PluginError, match=r"edge_judge='strict' is unknown; registered edge judges: \['offline'\]"):
        create("edge_judge", "strict")
    with pytest.raises(PluginError, match="cannot be imported"):
        create("parser", "no_such_module_xyz:Parser")
    with pytest.raises(PluginError, match=r"causalcheck\.explain\.judges:Nope does not exist"):
        create("edge_judge", "causalcheck.explain.judges:Nope")


# ---------------------------------------------------------------------- agents in lab run
def test_custom_agent_from_a_module_path_runs_in_lab_run(plugin_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's Sweep agent, named my_agents:Sweep, plays every mini episode; options reach the factory."""
    out = tmp_path / "sweep"
    argv = ["lab", "run", "--suite", "mini", "--agent", "my_agents:Sweep", "--agent-opt", "value=20", "--out", str(out)]
    assert main(argv) == 0
    assert "my_agents:Sweep" in capsys.readouterr().out
    files = sorted((out / "episodes").glob("*.jsonl"))
    assert len(files) == 12
    first = [json.loads(line) for line in files[0].read_text().splitlines()]
    assert first[0]["agent"] == "my_agents:Sweep"
    steps = [line for line in first if line["type"] == "step"]
    assert (steps[0]["action"]["kind"], steps[0]["action"]["value"]) == ("intervene", 20.0)
    assert json.loads((out / "run.json").read_text())["agent_options"] == {"value": 20}


def test_custom_agent_from_an_entry_point_runs_in_lab_run(plugin_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An installed package registering `sweep` in causalcheck.agents makes --agent sweep work."""
    _distribution(plugin_path, "cc_sweep", "[causalcheck.agents]\nsweep = my_agents:Sweep\n")
    assert "sweep" in AGENTS and AGENTS["sweep"] == "my_agents:Sweep"
    out = tmp_path / "ep"
    assert main(["lab", "run", "--suite", "mini", "--agent", "sweep", "--limit", "2", "--out", str(out), "--quiet"]) == 0
    assert len(list((out / "episodes").glob("*.jsonl"))) == 2
    capsys.readouterr()


@pytest.mark.parametrize(
    ("agent", "message"),
    [
        ("cc_plugins:Half", "agent='cc_plugins:Half' made a Half that does not satisfy the Agent protocol (causalcheck.protocols.Agent): missing method act(observation)"),
        ("cc_plugins:Rude", "reset() cannot be called as reset(task): too many positional arguments; act() is a coroutine function; the Agent protocol calls it synchronously"),
        ("cc_plugins:broken", "agent='cc_plugins:broken': the factory cc_plugins:broken raised RuntimeError: the model file is missing"),
        ("cc_plugins:Missing", "agent='cc_plugins:Missing': cc_plugins:Missing does not exist (no attribute 'Missing')"),
        ("no_such_pkg.agents:make", "agent='no_such_pkg.agents:make': module 'no_such_pkg.agents' cannot be imported"),
        ("oracle", "agent='oracle' is unknown; registered agents: ['llm', 'observational', 'planner', 'random']"),
    ],
)
def test_a_bad_agent_exits_2_saying_what_is_wrong(agent: str, message: str, plugin_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A factory that cannot be loaded or returns no Agent stops lab run with exit 2 before any folder is made."""
    out = tmp_path / "bad"
    assert main(["lab", "run", "--suite", "mini", "--agent", agent, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert not out.exists()


def test_a_name_registered_twice_is_ambiguous(plugin_path: Path) -> None:
    """Two packages registering one name for different factories: the name is refused with both targets."""
    _distribution(plugin_path, "cc_one", "[causalcheck.edge_judges]\nyes = cc_plugins:AlwaysYes\n")
    _distribution(plugin_path, "cc_two", "[causalcheck.edge_judges]\nyes = cc_plugins:NoJudge\n")
    with pytest.raises(PluginError, match="registered more than once: 'cc_plugins:AlwaysYes' \\(cc_one\\), 'cc_plugins:NoJudge' \\(cc_two\\)"):
        create("edge_judge", "yes")
    assert "yes" not in plugins.registered("edge_judge")
    assert type(create("edge_judge", "cc_plugins:AlwaysYes")).__name__ == "AlwaysYes"  # the target itself still works


# ---------------------------------------------------------------------- explain score
def _meta(folder: Path, stem: str) -> dict[str, object]:
    return dict(json.loads((folder / f"{stem}.json").read_text(encoding="utf-8"))["meta"])


def test_explain_plugins_from_module_paths(plugin_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--edge-judge / --criterion-judge / --segmenter plug-ins score every item; result files are named after them."""
    out = tmp_path / "ex"
    argv = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong", "--out", str(out),
            "--edge-judge", "cc_plugins:AlwaysYes", "--criterion-judge", "cc_plugins:Fives", "--segmenter", "cc_plugins:Lines"]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    stem = "demo-strong_metrics_cc_plugins_AlwaysYes_cc_plugins_Fives"
    payload = json.loads((out / f"{stem}.json").read_text(encoding="utf-8"))
    assert (payload["meta"]["judge_model"], payload["meta"]["parser_model"]) == ("cc_plugins:AlwaysYes+cc_plugins:Fives", "offline-lines")
    for item in payload["items"]:
        assert item["rm_score"] == 0.5
        assert item["pm_score"] in (0.0, 1.0)
    assert any(item["pm_score"] == 1.0 for item in payload["items"])


def test_explain_plugins_from_entry_points_combine_with_the_offline_rest(plugin_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Registered names work like module paths; the parts not named stay offline."""
    _distribution(plugin_path, "cc_judges", "[causalcheck.criterion_judges]\nfives = cc_plugins:Fives\n[causalcheck.parsers]\nmine = causalcheck.explain.relations:OfflineParser\n")
    out = tmp_path / "ep"
    argv = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-weak", "--limit", "2", "--out", str(out),
            "--criterion-judge", "fives", "--answer-parser", "mine"]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    meta = _meta(out, "demo-weak_metrics_offline_fives")
    assert (meta["judge_model"], meta["parser_model"]) == ("offline+fives", "mine")


@pytest.mark.parametrize(
    ("option", "name", "message"),
    [
        ("--edge-judge", "cc_plugins:NoJudge", "judge_edges() cannot be called as judge_edges(item, answer, graph, edges)"),
        ("--criterion-judge", "cc_plugins:AlwaysYes", "missing method judge_criterion(item, answer, criterion, index)"),
        ("--segmenter", "cc_plugins:Fives", "does not satisfy the Segmenter protocol (causalcheck.protocols.Segmenter): missing attribute name; missing method segment(text)"),
        ("--answer-parser", "cc_plugins:Nothing", "cc_plugins:Nothing does not exist"),
    ],
)
def test_a_bad_explain_plugin_exits_2(option: str, name: str, message: str, plugin_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A judge, segmenter or parser plug-in that does not fit its protocol is an input error naming the problem."""
    argv = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(tmp_path / "o"), option, name]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err, err


def test_answer_parser_and_parser_model_conflict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--answer-parser and --parser MODEL both name the parser: refused with exit 2."""
    argv = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(tmp_path), "--answer-parser", "offline", "--parser", "openai/x"]
    assert main(argv) == 2
    assert "both name a parser" in capsys.readouterr().err


# ---------------------------------------------------------------------- every kind through the one registry
MORE_PLUGINS = '''
import asyncio

from causalcheck.protocols import Completion


def add_hello(subparsers):
    p = subparsers.add_parser("hello", help="say hello (a command of another package)")
    p.add_argument("--name", default="world")
    p.set_defaults(handler=lambda args: print(f"hello {args.name}") or 0)


class Echo:
    provider, endpoint = "echo", ""

    def __init__(self, model, *, base_url=None, api_key=None, timeout=120.0, env=None):
        self.model = model

    async def complete(self, request):
        return Completion(request.messages[-1].content)


def not_a_model(model, **options):
    return "a string"
'''


def test_a_command_of_another_package_joins_the_command_line(plugin_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A package that registers ``causalcheck.commands`` adds ``causalcheck NAME``, listed after causalcheck's own."""
    (plugin_path / "cc_more.py").write_text(MORE_PLUGINS, encoding="utf-8")
    _distribution(plugin_path, "cc_more", "[causalcheck.commands]\nhello = cc_more:add_hello\n")
    assert main(["hello", "--name", "you"]) == 0
    assert capsys.readouterr().out == "hello you\n"
    assert plugins.in_order("command", builtins_first=True) == [*BUILTINS["command"], "hello"]
    sys.modules.pop("cc_more", None)


def test_an_llm_provider_of_another_package_serves_its_model_strings(plugin_path: Path) -> None:
    """``name/model`` finds a registered provider; what its factory makes is checked against the LLM protocol."""
    from causalcheck.adapters import make_llm, parse_model_string

    (plugin_path / "cc_more.py").write_text(MORE_PLUGINS, encoding="utf-8")
    _distribution(plugin_path, "cc_more", "[causalcheck.llm_providers]\necho = cc_more:Echo\nbroken = cc_more:not_a_model\n")
    assert parse_model_string("echo/tiny") == ("echo", "tiny")
    assert parse_model_string("unknown/tiny") == ("openai", "unknown/tiny")  # not a provider: a model path
    llm = make_llm("echo/tiny")
    assert (type(llm).__name__, llm.model) == ("Echo", "tiny")
    with pytest.raises(PluginError, match=r"llm_provider='broken' made a str that does not satisfy the LLM protocol"):
        make_llm("broken/x")
    sys.modules.pop("cc_more", None)


def test_register_adds_a_plug_in_to_this_process_only() -> None:
    """register() is looked up like an entry point; unregister() takes it back; a command is never created."""

    class Seg:
        name = "mine"

        def segment(self, text: str) -> list[object]:
            return []

    plugins.register("segmenter", "mine", Seg)
    try:
        assert isinstance(create("segmenter", "mine"), Seg)
        assert "mine" in plugins.registered("segmenter")
    finally:
        plugins.unregister("segmenter", "mine")
    assert "mine" not in plugins.registered("segmenter")
    with pytest.raises(PluginError):
        create("segmenter", "mine")
    with pytest.raises(plugins.InputFormatError, match="registered, not created"):
        create("command", "check")


def test_no_module_keeps_a_registry_of_its_own() -> None:
    """The one registry: no other module of causalcheck names plug-in targets (``causalcheck.x:y``) or reads entry points."""
    target = re.compile(r"""["']causalcheck(\.\w+)+:\w+["']""")
    found = []
    for folder in ("core", "adapters", "solvers", "grammar"):
        for path in sorted((REPO / folder).rglob("*.py")):
            if path == REPO / "core" / "plugins.py":
                continue
            text = path.read_text(encoding="utf-8")
            if "entry_points(" in text or any(m.group(0) for m in target.finditer(text) if "gymnasium" not in text[max(0, m.start() - 80):m.start()]):
                found.append(str(path.relative_to(REPO)))
    assert found == []
    from causalcheck.explain import run

    assert not any(hasattr(run, name) for name in ("ARGUMENT_HOOKS", "JUDGE_FACTORIES", "BUILTIN_ARGUMENT_HOOKS", "BUILTIN_JUDGE_FACTORIES"))
