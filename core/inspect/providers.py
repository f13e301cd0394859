"""Offline inspect models: ``causalcheck/<agent>`` plays the lab, ``causalcheck/replay`` answers from a file.

Registered with inspect's model registry when inspect loads causalcheck's entry point, so
both tasks complete offline, with scores, without a key, a server or tiktoken's data::

    inspect eval causalcheck/lab -T suite=mini --model causalcheck/planner
    inspect eval causalcheck/lab -T suite=4nodes -T limit=2 --model causalcheck/random
    inspect eval causalcheck/whatif --model causalcheck/replay -M answers=demo
    inspect eval causalcheck/whatif --model causalcheck/replay -M answers=my_answers.jsonl -M answer_model=NAME

* **Built-in lab agents** — ``causalcheck/planner``, ``causalcheck/random``,
  ``causalcheck/observational``: ``causalcheck/lab``'s solver plays the episode with that agent
  (``lab run --agent NAME``, seeded by the sample's seed) instead of prompting a model, so the
  trajectory and its scores are those of ``lab run``.  Asked for a completion by any other
  solver, the model refuses with an error naming the task that can use it.
* **Replay** — ``causalcheck/replay`` answers each ``causalcheck/whatif`` sample with the answer
  recorded for its item in ``-M answers=FILE`` (any answers file ``explain score --answers``
  reads; ``demo`` for the bundled ones).  A file holding several answering models needs
  ``-M answer_model=NAME``; ``answers=demo`` replays ``demo-strong`` unless told otherwise.  The
  item is found by the keys that ``causalcheck/whatif``'s solver puts in the sample's store
  (:func:`mark_item`: the sample id, then the item's ``canonical_id`` and ``id``, as
  ``explain score`` matches answers to items, so a file keyed by numeric ids replays too); an
  item with no answer in the file, or no answer text, is an error of
  that sample (inspect reports it) — nothing is invented.

Usage is counted in whitespace-separated words (there is no tokenizer offline), and never with
tiktoken, which would download its data.
"""

from __future__ import annotations

from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.episodes.inspect_logs import ITEM_KEY
from causalcheck.explain.data import DEMO, AnswerSet, load_answer_sets
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolChoice, ToolInfo
from inspect_ai.util import store

__all__ = ["AGENT_MODELS", "ITEM_KEYS_STORE_KEY", "ITEM_STORE_KEY", "REPLAY", "CausalcheckModels", "agent_model_name", "mark_item"]

#: The built-in lab agents that run as ``causalcheck/<name>``.
AGENT_MODELS = ("observational", "planner", "random")
REPLAY = "replay"
#: The sample-store key under which ``causalcheck/whatif`` names the sample's item for the replay model.
ITEM_STORE_KEY = "causalcheck:item"
#: The sample-store key of every key the item's answer may be filed under (sample id, canonical id, id).
ITEM_KEYS_STORE_KEY = "causalcheck:item_keys"
#: The answer set ``answers=demo`` replays unless ``answer_model=`` says otherwise.
DEMO_ANSWER_MODEL = "demo-strong"


def _words(text: str) -> int:
    return len(text.split())


def _choose(sets: tuple[AnswerSet, ...], answers: str, answer_model: str | None) -> AnswerSet:
    names = [s.model for s in sets]
    if answer_model is None and str(answers) == DEMO:
        answer_model = DEMO_ANSWER_MODEL
    if answer_model is not None:
        for s in sets:
            if s.model == answer_model:
                return s
        raise InputFormatError(f"causalcheck/replay: answer_model={answer_model!r} is not in answers={answers!r}; it holds {names!r}")
    if len(sets) > 1:
        raise InputFormatError(f"causalcheck/replay: answers={answers!r} holds the answers of {names!r}: pick one with -M answer_model=NAME")
    return sets[0]


class CausalcheckModels(ModelAPI):
    """The offline models ``causalcheck/planner|random|observational|replay`` (module docstring)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),  # noqa: B008 - inspect's own signature
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        known = (*AGENT_MODELS, REPLAY)
        if model_name not in known:
            raise ValueError(f"causalcheck/{model_name}: model name={model_name!r} is not one of {', '.join(known)}")
        unknown = sorted(set(model_args) - ({"answers", "answer_model"} if model_name == REPLAY else set()))
        if unknown:
            raise ValueError(f"causalcheck/{model_name}: unknown model argument(s) {unknown!r}")
        self.answer_set: AnswerSet | None = None
        if model_name == REPLAY:
            answers = str(model_args.get("answers", DEMO))
            answer_model = model_args.get("answer_model")
            self.answer_set = _choose(load_answer_sets(answers), answers, None if answer_model is None else str(answer_model))

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """Replay the sample's recorded answer (``replay``); the agent models answer no prompts."""
        if self.answer_set is None:
            raise RuntimeError(
                f"causalcheck/{self.model_name} is a built-in lab agent: it plays causalcheck/lab episodes "
                "(inspect eval causalcheck/lab --model causalcheck/" + self.model_name + ") and answers no prompts"
            )
        key = store().get(ITEM_STORE_KEY)
        if key is None:
            raise RuntimeError(
                "causalcheck/replay answers causalcheck/whatif samples: their solver names the item "
                "(add causalcheck.inspect.mark_item() before generate() in your own task)"
            )
        keys = store().get(ITEM_KEYS_STORE_KEY) or [key]
        answer = next((self.answer_set.answers[k] for k in map(str, keys) if k in self.answer_set.answers), None)
        if answer is None or answer.text is None:
            why = "has no answer" if answer is None else f"recorded no answer text ({answer.error or 'no reason given'})"
            raise RuntimeError(f"causalcheck/replay: item {key!r} {why} in {self.answer_set.source!r} (model {self.answer_set.model!r})")
        prompt_words = sum(_words(m.text) for m in input)
        out = ModelOutput.from_content(model=f"causalcheck/replay:{self.answer_set.model}", content=answer.text)
        out.usage = ModelUsage(input_tokens=prompt_words, output_tokens=_words(answer.text), total_tokens=prompt_words + _words(answer.text))
        return out


#: inspect's registration of :class:`CausalcheckModels` as the model API ``causalcheck`` (done on import).
causalcheck_models = modelapi(name="causalcheck")(CausalcheckModels)


def agent_model_name(model: Any) -> str | None:
    """The built-in agent an inspect ``Model`` stands for (``causalcheck/planner`` → ``"planner"``), else ``None``."""
    api = getattr(model, "api", None)
    if isinstance(api, CausalcheckModels) and api.model_name in AGENT_MODELS:
        return str(api.model_name)
    return None


@solver
def mark_item() -> Solver:
    """Put the sample's item key (its id) in the sample's store, for ``causalcheck/replay``, with the
    item's ``canonical_id`` and ``id`` (from the sample's metadata) that an answer may be filed under."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        store().set(ITEM_STORE_KEY, str(state.sample_id))
        raw = (state.metadata or {}).get(ITEM_KEY)
        keys = [str(state.sample_id)]
        if isinstance(raw, dict):
            keys += [str(raw[k]) for k in ("canonical_id", "id") if raw.get(k) not in (None, "")]
        store().set(ITEM_KEYS_STORE_KEY, list(dict.fromkeys(keys)))
        return state

    return solve
