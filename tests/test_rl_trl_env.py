"""The TRL environment adapter, driven the way TRL's GRPOTrainer drives an ``environment_factory``.

:class:`_Trainer` below is the environment part of ``GRPOTrainer`` in TRL v1.9.0,
``trl/trainer/grpo_trainer.py`` (the same file at main, 1.10.0.dev0, commit f2cd577), with the
model's generations scripted: ``__init__`` probes one instance (``inspect.getmembers(instance,
predicate=inspect.ismethod)``: ``reset`` required, ``get_reward`` wrapped into a reward function,
every other public method a tool); ``_generate_and_score_completions`` draws one pooled instance per
rollout, calls ``reset(**row)`` and appends its string to the prompt's last message;
``_tool_call_loop`` calls ``tool(**arguments)`` for each tool call, turns an exception into
``{"error": str(e)}`` and a result into a ``{"role": "tool", "name", "content": str(result)}``
message, and generates again until a turn has no tool call; ``_calculate_rewards`` calls each
reward function as ``f(prompts=, completions=, completion_ids=, **columns, trainer_state=,
log_extra=, log_metric=, environments=)``.  The tool schemas are checked against the rules of
transformers' ``get_json_schema`` (``src/transformers/utils/chat_template_utils.py``), which TRL
uses to show the tools to the model.
"""

from __future__ import annotations

import inspect
import json
import pickle
import re
import subprocess
import sys
import typing
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed: pip install 'causalcheck[rl]'")

from _rl import planner_replies
from causalcheck.base.errors import BudgetExceededError, InputFormatError
from causalcheck.lab.suites import load_suite
from causalcheck.rl.env import CausaLabEnv
from causalcheck.rl.trl_env import (
    TOOL_RULES,
    CausaLabTRLEnv,
    environment_factory,
    environment_reward,
    episode_rows,
)

MINI = load_suite("mini")
TOOLS = {"intervene", "open_reactor", "set_frequency", "submit"}


class _Trainer:
    """GRPOTrainer's environment loop (TRL v1.9.0 ``trl/trainer/grpo_trainer.py``), generations scripted."""

    def __init__(self, environment_factory: Callable[[], Any], reward_funcs: list[Callable[..., Any]] | None = None) -> None:
        # GRPOTrainer.__init__: probe one instance for reset, get_reward and the tool methods; it seeds the pool
        self.factory = environment_factory
        instance = environment_factory()
        has_reset = has_reward = False
        methods = []
        for member_name, member in inspect.getmembers(instance, predicate=inspect.ismethod):
            if member_name == "reset":
                has_reset = True
            elif member_name == "get_reward":
                has_reward = True
            elif not member_name.startswith("_"):
                methods.append(member)
        assert has_reset, "Each environment instance returned by `environment_factory` must define a callable `reset`."
        self.tools = methods
        self.pool = [instance]
        self.reward_funcs = list(reward_funcs or [])
        self.reward_func_names = [f.__name__ for f in self.reward_funcs]
        if has_reward:
            env_type = type(instance)

            def get_reward(environments: list[Any], _env_type: type = env_type, **kwargs: Any) -> list[float | None]:
                return [e.get_reward() if type(e) is _env_type else None for e in environments]

            self.reward_funcs.append(get_reward)
            self.reward_func_names.append(env_type.__name__)

    def generate_and_score(self, inputs: list[dict[str, Any]], model: Callable[[int, list[dict[str, Any]]], dict[str, Any]]) -> tuple[dict[str, list[Any]], list[Any], list[list[dict[str, Any]]]]:
        """One batch: per reward function its rewards, the environments and each rollout's completion messages."""
        prompts = [x.get("prompt", [{"role": "user", "content": ""}]) for x in inputs]
        # one reusable instance per rollout from the pool, more created only when the batch needs them
        environments = []
        for index in range(len(inputs)):
            if index == len(self.pool):
                self.pool.append(self.factory())
            environments.append(self.pool[index])
        tool_dicts = [
            {m.__name__: m for n, m in inspect.getmembers(env, predicate=inspect.ismethod) if n not in ("reset", "get_reward") and not n.startswith("_")}
            for env in environments
        ]
        for i, (prompt, environment, x) in enumerate(zip(prompts, environments, inputs, strict=True)):
            observation = environment.reset(**x)
            if observation is None:
                continue
            prompts[i] = [*prompt[:-1], {**prompt[-1], "content": prompt[-1]["content"] + observation}]
        completions = [[model(i, prompts[i])] for i in range(len(inputs))]
        self._tool_call_loop(prompts, completions, tool_dicts, model)
        # _calculate_rewards
        keys = [key for key in inputs[0] if key not in ["prompt", "completion", "completion_ids"]]
        reward_kwargs: dict[str, Any] = {key: [example[key] for example in inputs] for key in keys}
        reward_kwargs.update(trainer_state=None, log_extra=lambda *a, **k: None, log_metric=lambda *a, **k: None, environments=environments)
        rewards = {
            name: func(prompts=prompts, completions=completions, completion_ids=[[] for _ in inputs], **reward_kwargs)
            for func, name in zip(self.reward_funcs, self.reward_func_names, strict=True)
        }
        return rewards, environments, completions

    @staticmethod
    def _tool_call_loop(prompts: list[Any], completions: list[Any], tool_dicts: list[dict[str, Any]], model: Callable[..., dict[str, Any]]) -> None:
        tool_calls = [completion[0].get("tool_calls") for completion in completions]
        idxs_with_tool = [idx for idx, tool_call in enumerate(tool_calls) if tool_call]
        tool_calls = [tool_calls[idx] for idx in idxs_with_tool]
        while idxs_with_tool:
            for idx, idx_with_tool in enumerate(idxs_with_tool):
                prompt_completion_tool = prompts[idx_with_tool]
                prompt_completion_tool.append(completions[idx_with_tool][-1])
                results = []
                for tool_call in tool_calls[idx]:
                    function = tool_call["function"]
                    name = function["name"]
                    try:
                        if name not in tool_dicts[idx_with_tool]:
                            raise ValueError(f"Tool {name} not found.")
                        results.append((name, tool_dicts[idx_with_tool][name](**function["arguments"])))
                    except Exception as e:  # TRL feeds any tool failure back to the model
                        results.append((name, {"error": str(e)}))
                for name, result in results:
                    message = {"role": "tool", "name": name, "content": result if isinstance(result, list) else str(result)}
                    prompt_completion_tool.append(message)
                    completions[idx_with_tool].append(message)
            post = [model(i, prompts[i]) for i in idxs_with_tool]
            for idx_with_tool, message in zip(idxs_with_tool, post, strict=True):
                completions[idx_with_tool].append(message)
            calls = [message.get("tool_calls") for message in post]
            idxs_with_tool = [i for i, c in zip(idxs_with_tool, calls, strict=True) if c]
            tool_calls = [c for c in calls if c]


_ARGS = {"INTERVENE": ("intervene", {"arg1": "prop", "arg2": "value"}), "OPEN_REACTOR": ("open_reactor", {}),
         "SET_FREQUENCY": ("set_frequency", {"arg1": "frequency"}), "SUBMIT": ("submit", {"arg1": "message"})}  # fmt: skip


def _tool_call(reply: str) -> dict[str, Any]:
    """The tool call a model makes for the record *reply*: the action's tool, the record's fields as arguments."""
    record = json.loads(reply)
    name, args = _ARGS[record["action"]]
    arguments = {k: record[k] for k in ("memory", "thought", "past_data", "hypothesis", "experiment") if k in record}
    arguments.update({args[k]: record[k] for k in args if k in record})
    return {"type": "function", "function": {"name": name, "arguments": arguments}}


def _scripted(scripts: list[list[list[str]]]) -> Callable[[int, list[dict[str, Any]]], dict[str, Any]]:
    """A model: rollout *i* answers its turns with ``scripts[i]``, each turn a list of replies made tool calls,
    then a last turn of plain text (no tool call: the rollout ends)."""
    turns: list[Iterator[list[str]]] = [iter(s) for s in scripts]

    def model(i: int, messages: list[dict[str, Any]]) -> dict[str, Any]:
        replies = next(turns[i], None)
        if replies is None:
            return {"role": "assistant", "content": "I am done."}
        return {"role": "assistant", "content": "", "tool_calls": [_tool_call(r) for r in replies]}

    return model


def _gym(graph: str, seed: int, replies: list[str], **kwargs: Any) -> tuple[float, CausaLabEnv, list[str]]:
    """The Gymnasium env's return for *replies* (prompt mode), the env and its observation texts."""
    env = CausaLabEnv("mini", graph, **kwargs)
    env.reset(seed=seed)
    total, texts = 0.0, []
    for reply in replies:
        _, reward, terminated, truncated, _ = env.step(reply)
        total += reward
        texts.append(env.observation.text)
        if terminated or truncated:
            break
    return total, env, texts


@pytest.mark.parametrize("rewards", ["dense", "paper"])
def test_rollouts_driven_as_trl_drives_them_earn_the_gymnasium_return(rewards: str) -> None:
    """A batch of rollouts (a GRPO group of two on one row, one of them starting with two refused actions;
    one making two tool calls a turn; one calling a tool after the episode ended; one submitting at once) and
    a second batch on the reused instances: the environment's reward (get_reward) and environment_reward equal the Gymnasium
    return of the same replies; the tool messages are the episode's observations, the trajectory is the
    Gymnasium env's."""
    trainer = _Trainer(environment_factory("mini", rewards=rewards), reward_funcs=[environment_reward])
    assert {t.__name__ for t in trainer.tools} == TOOLS
    assert trainer.reward_func_names == ["environment_reward", "CausaLabTRLEnv"]
    batches = [
        [("mini3nodes_0", 3, "one"), ("mini3nodes_0", 3, "refused first"), (MINI.graphs[4].graph_id, 11, "pairs")],
        [(MINI.graphs[9].graph_id, 0, "one"), (MINI.graphs[2].graph_id, 5, "after-end"), (MINI.graphs[4].graph_id, 11, "quits")],
    ]
    seen: list[float] = []
    for batch in batches:
        rows = [r for g, s, _ in batch for r in episode_rows("mini", graphs=[g], seeds=[s])]
        scripts, expected = [], []
        for graph_id, seed, how in batch:
            replies = planner_replies(next(g for g in MINI.graphs if g.graph_id == graph_id), seed)
            if how == "quits":
                replies = [json.dumps({"action": "SUBMIT", "arg1": "done"})]
            if how == "refused first":
                replies = [json.dumps({"action": "INTERVENE", "arg1": "nope", "arg2": 3}), json.dumps({"action": "INTERVENE", "arg1": "pressure", "arg2": "x"}), *replies]
            expected.append(_gym(graph_id, seed, replies, rewards=rewards))
            turns = [replies[k : k + 2] for k in range(0, len(replies), 2)] if how == "pairs" else [[r] for r in replies]
            scripts.append([*turns, ['{"action": "SUBMIT"}']] if how == "after-end" else turns)
        rewards_by_func, environments, completions = trainer.generate_and_score(rows, _scripted(scripts))
        returns = [total for total, _, _ in expected]
        seen += returns
        assert rewards_by_func["CausaLabTRLEnv"] == pytest.approx(returns, abs=1e-12)
        assert rewards_by_func["environment_reward"] == rewards_by_func["CausaLabTRLEnv"]
        for env, completion, (_, gym, texts), (_, _, how) in zip(environments, completions, expected, batch, strict=True):
            assert env.env.trajectory == gym.trajectory and env.done
            tool_messages = [m["content"] for m in completion if m["role"] == "tool"]
            if how == "after-end":
                assert tool_messages[:-1] == texts and "the episode is over" in tool_messages[-1] and "error" in tool_messages[-1]
            else:
                assert tool_messages == texts
            assert completion[-1] == {"role": "assistant", "content": "I am done."}
    assert len(set(seen)) > 1


def test_the_first_prompt_is_the_rules_and_the_episodes_first_observation() -> None:
    """A row of episode_rows is the tool rules as system message and an empty user message, to which TRL
    appends reset()'s string: the Gymnasium env's first observation of that graph and seed."""
    (row,) = episode_rows("mini", graphs=["mini3nodes_0"], seeds=[3])
    assert row["prompt"] == [{"role": "system", "content": TOOL_RULES}, {"role": "user", "content": ""}]
    assert (row["graph_id"], row["seed"]) == ("mini3nodes_0", 3)
    env = environment_factory("mini")()
    assert env.reset(**row) == CausaLabEnv("mini", "mini3nodes_0").reset(seed=3)[0]
    assert env.get_reward() == 0.0 and not env.done
    rows = episode_rows("mini", seeds=[0, 1])
    assert len(rows) == 2 * len(MINI.graphs) and len({(r["graph_id"], r["seed"]) for r in rows}) == len(rows)


def test_an_episode_left_unfinished_scores_the_steps_it_played() -> None:
    """The model may stop calling tools before the episode ends: get_reward is the return so far."""
    replies = planner_replies(MINI.graphs[0], 3)
    env = environment_factory("mini", rewards="dense")()
    env.reset(graph_id=MINI.graphs[0].graph_id, seed=3)
    for reply in replies[:2]:
        call = _tool_call(reply)["function"]
        getattr(env, call["name"])(**call["arguments"])
    total, _, _ = _gym(MINI.graphs[0].graph_id, 3, replies[:2])
    assert env.get_reward() == pytest.approx(total) and not env.done and env.steps == 2


def test_a_refused_or_unreadable_action_pays_the_gymnasium_penalty() -> None:
    """A tool call the episode refuses (a property that does not exist, a value that is no number) is
    the Gymnasium step of the same record: refused, with the format penalty, the observation saying why."""
    env = environment_factory("mini")()
    env.reset(graph_id="mini3nodes_0", seed=0)
    obs = env.intervene(prop="nope", value=3.0)
    assert "Refused: unknown property='nope'" in obs and env.last_info["reward_terms"]["format"] == -1.0
    obs = env.set_frequency(frequency="high")  # type: ignore[arg-type]  (a model may send any JSON)
    assert "must be a finite number" in obs
    total, _, _ = _gym("mini3nodes_0", 0, ['{"action": "INTERVENE", "arg1": "nope", "arg2": 3.0}', '{"action": "SET_FREQUENCY", "arg1": "high"}'])
    assert env.get_reward() == pytest.approx(total) and total < 0


def _json_schema(func: Callable[..., Any]) -> dict[str, Any]:
    """The schema transformers' ``get_json_schema`` makes of *func*, raising where it raises."""
    doc = inspect.getdoc(func)
    assert doc, f"{func.__name__} has no docstring"
    description = re.search(r"^(.*?)[\n\s]*(Args:|Returns:|Raises:|\Z)", doc, re.DOTALL)
    block = re.search(r"\n\s*Args:\n\s*(.*?)[\n\s]*(Returns:|Raises:|\Z)", doc, re.DOTALL)
    assert description and block, f"{func.__name__}: no description or no Args: block"
    lines = "\n".join(line for line in block.group(1).strip().split("\n") if line.strip())
    described = dict(re.findall(r"(?:^|\n)\s*(\w+):\s*(.*?)\s*(?=\n\s*\w+:|\Z)", lines, re.DOTALL))

    def parse(hint: Any) -> dict[str, Any]:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is None:
            return {int: {"type": "integer"}, float: {"type": "number"}, str: {"type": "string"}, bool: {"type": "boolean"}, Any: {}}.get(hint, {"type": "object"})
        if origin is typing.Union:  # not types.UnionType: transformers raises TypeHintParsingException on `X | None`
            subtypes = [parse(t) for t in args if t is not type(None)]
            out = dict(subtypes[0]) if len(subtypes) == 1 else {"anyOf": subtypes}
            if type(None) in args:
                out["nullable"] = True
            return out
        if origin is list:
            return {"type": "array", "items": parse(args[0])} if args else {"type": "array"}
        if origin is dict:
            return {"type": "object", "additionalProperties": parse(args[1])} if len(args) == 2 else {"type": "object"}
        raise AssertionError(f"{func.__name__}: transformers cannot parse the type hint {hint!r}")

    hints = typing.get_type_hints(func)
    hints.pop("return", None)
    signature = inspect.signature(func)
    properties = {}
    for name, param in signature.parameters.items():
        assert param.annotation is not inspect.Parameter.empty and name in hints, f"{func.__name__}: {name} has no type hint"
        assert name in described, f"{func.__name__}: the docstring does not describe {name}"
        properties[name] = {**parse(hints[name]), "description": re.sub(r"\s*\n+\s*", " ", described[name].strip())}
    required = [n for n, p in signature.parameters.items() if p.default is inspect.Parameter.empty]
    return {"name": func.__name__, "description": description.group(1).strip(), "required": required, "properties": properties}


def test_every_tool_has_the_schema_trl_shows_the_model() -> None:
    """Each tool has a description, a type hint transformers can read and a description for every argument;
    the action's own arguments are required, the record's fields optional."""
    env = environment_factory("mini")()
    schemas = {t: _json_schema(getattr(env, t)) for t in sorted(TOOLS)}
    record = ["memory", "thought", "past_data", "hypothesis", "experiment"]
    assert schemas["intervene"]["required"] == ["prop", "value"]
    assert schemas["set_frequency"]["required"] == ["frequency"]
    assert schemas["open_reactor"]["required"] == schemas["submit"]["required"] == []
    for schema in schemas.values():
        assert all(schema["properties"][f]["nullable"] for f in record) and schema["description"]
    assert schemas["intervene"]["properties"]["value"]["type"] == "number"
    assert schemas["intervene"]["properties"]["hypothesis"]["type"] == "object"
    assert schemas["intervene"]["properties"]["past_data"]["type"] == "array"


def test_the_factory_checks_its_options_at_once_and_pickles() -> None:
    """Options are checked when the factory is made, not at TRL's first rollout; the factory pickles (for
    TRL's async trainer, which sends it to another process) and every call makes a fresh environment."""
    with pytest.raises(InputFormatError, match="'colour'"):
        environment_factory("mini", colour=1)
    with pytest.raises(InputFormatError, match="'fast'"):
        environment_factory("mini", rewards="fast")
    factory = pickle.loads(pickle.dumps(environment_factory("mini", budget="1o2i")))
    first, second = factory(), factory()
    assert isinstance(first, CausaLabTRLEnv) and first is not second and first.env is not second.env
    assert first.env.config.interventions == 2 and first.env.observation_mode == "chat"


def test_bad_rows_and_calls_are_refused_naming_them() -> None:
    """A row's seed or graph that is not one and environment_reward without TRL's environments are input
    errors naming the value; a tool call before reset or after the episode is over is the environment's
    budget error (TRL shows the model a tool's error)."""
    env = environment_factory("mini")()
    with pytest.raises(BudgetExceededError, match="before reset"):
        env.open_reactor()
    with pytest.raises(InputFormatError, match="seed='x'"):
        env.reset(seed="x")
    with pytest.raises(InputFormatError, match="'zz'"):
        env.reset(graph_id="zz", seed=0)
    env.reset(graph_id="mini3nodes_0", seed=0, prompt=[], other_column=1)  # TRL passes every column
    env.submit()
    with pytest.raises(BudgetExceededError, match="the episode is over"):
        env.open_reactor()
    with pytest.raises(InputFormatError, match="environments"):
        environment_reward(prompts=["p"], completions=["c"])
    assert environment_reward(environments=[env, object()]) == [env.get_reward(), None]
    with pytest.raises(InputFormatError, match="graphs"):
        episode_rows("mini", graphs=["zz"])
    with pytest.raises(InputFormatError, match="seed"):
        episode_rows("mini", seeds=[-1])


def test_importing_the_adapter_imports_no_trl() -> None:
    """The adapter needs no TRL: importing it loads neither trl nor torch."""
    code = "import sys, causalcheck.rl.trl_env; print(sorted(m for m in ('trl', 'torch', 'transformers') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
