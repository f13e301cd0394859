"""The LLM lab agent: one model call per step, in the CausaLab record protocol.

Each step the model sees (causalab-spec §2.8, in our own words):

1. the record rules — reply with one JSON object whose keys come in the order ``memory``,
   ``thought``, ``past_data``, ``hypothesis``, ``experiment``, then the action fields;
2. ``Task:`` and the environment's task text (:attr:`TaskInfo.text`);
3. ``## Previous State`` — the last ``past_data``, ``hypothesis`` and ``memory`` it wrote
   (each cut to 4000 characters), so evidence and memory are carried forward;
4. ``History of actions`` — its own earlier action fields, oldest dropped first so the
   whole prompt stays within ``max_prompt_chars`` (16 384 by default);
5. ``Current Environment Observation`` — the environment's text (:attr:`Observation.text`).

The reply is read like the reference controller does: ``<think>`` blocks are removed, then
the first fenced ``json`` block, else the whole text, else the last balanced ``{…}`` is
decoded.  A reply that cannot be used — unreadable, cut at ``max_tokens`` (the client asks
again and never caches it), or JSON that is not a step record (:func:`step_record_problem`:
no ``action`` naming one of the task's actions) — becomes a ``WAIT`` record that keeps the
previous state, with the error as its thought, ``info["degraded"] = True`` and a warning on
the ``causalcheck.llm`` logger; the environment tells the model next step that its reply
could not be used.  Only non-empty ``past_data`` / ``hypothesis`` replace the carried state.

With ``verify=True`` the agent runs causalcheck's offline checker on the record
(:func:`causalcheck.checking.check_record`: cycles, equations using non-parents, coefficients
contradicting the recorded data, …) and, when it reports errors, asks the model once more
with the findings to correct the record; the corrected record is used if it parses, and
both checks are kept in ``info["verification"]``.  ``info["llm_calls"]`` lists the tokens,
finish reason and cache use of every call the step made; ``max_cost`` applies per episode.

Registered in the lab as ``--agent llm --model MODEL`` (agent options: ``base_url``,
``cache``, ``cache_mode``, ``temperature`` (0.1), ``max_tokens`` (4096), ``json_mode``,
``verify``, ``max_cost``, ``max_retries``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from causalcheck.base.aio import run_sync
from causalcheck.base.errors import BudgetExceededError, InputFormatError
from causalcheck.base.jsontext import controller_object
from causalcheck.base.redaction import redact
from causalcheck.checking import check_record
from causalcheck.lab.episode import AgentStep, LabAction
from causalcheck.parsing import parse_record
from causalcheck.protocols import LLM, LLMError, Request

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.lab.episode import Observation, TaskInfo

__all__ = [
    "LLMAgent",
    "carry_forward",
    "degraded_record",
    "extract_record",
    "make_llm_agent",
    "prompt_messages",
    "read_reply",
    "read_step",
    "render_prompt",
    "step_record_problem",
]

log = logging.getLogger("causalcheck.llm")

STATE_LIMIT = 4000
EMPTY_HYPOTHESIS: dict[str, Any] = {"edges": [], "freq_equation": "", "coefficients": {}}
_ACTION_KEYS = ("action", "arg1", "arg2", "chosen_dialog_option_int", "value")

_RULES = """You are a scientist agent in a causal-discovery lab. Every step, reply with exactly one
JSON object and nothing else. Write its keys in this order:

- "memory": a running summary of what you learned and plan (it is shown to you next step);
- "thought": your reasoning for this step;
- "past_data": the list of ALL evidence so far — copy the previous entries and append new ones,
  each as {"id": "<k>/<N>", "props": {<property>: number, ...}, "freq": number}; only record
  values the environment actually showed you, never predictions;
- "hypothesis": your current causal model, {"edges": [{"from": P, "to": Q}, ...],
  "freq_equation": "resonanceFreq = base + c_A*A + ...", "coefficients": {"base": number, "c_A": number}}.
  Only parents of the frequency appear in the equation; coefficient names are c_<property>;
  use null for values you do not know yet; reason from interventions rather than curve fitting;
- "experiment": the intervention you are making now, {"target_prop": P, "target_value": number},
  or {} when this step is not an intervention;
- then the action fields of exactly one action, as listed in the task.
"""


def _cut(text: str, limit: int = STATE_LIMIT) -> str:
    return text if len(text) <= limit else text[:limit]


def extract_record(text: str) -> dict[str, Any]:
    """The JSON record in a model reply (see the module docstring); raises :class:`ValueError`.

    The controller's order of :func:`causalcheck.base.jsontext.controller_object`.

    >>> extract_record('<think>hm</think> ```json\\n{"action": "OPEN_REACTOR"}\\n```')
    {'action': 'OPEN_REACTOR'}
    """
    obj = controller_object(text)
    if obj is None:
        raise ValueError(f"reply={text[:80]!r} holds no JSON record")
    return obj


def step_record_problem(record: Mapping[str, Any]) -> str | None:
    """Why a decoded reply is not a step record (``None`` when it is one).

    A step record names one of the task's actions in a string ``action`` field
    (``INTERVENE``, ``OPEN_REACTOR``, ``SET_FREQUENCY``, ``SUBMIT`` or their aliases); JSON of any
    other shape — ``{"score": 7}``, ``{"action": 3}``, ``{"action": "DANCE"}`` — is not, and the
    step is *degraded* instead of silently becoming a ``WAIT``.

    >>> step_record_problem({"action": "OPEN_REACTOR"}) is None, step_record_problem({"answer": 42})
    (True, "reply is JSON but not a step record: no 'action' field (keys: ['answer'])")
    """
    return _step_action(record)[1]


def _step_action(record: Mapping[str, Any]) -> tuple[LabAction | None, str | None]:
    """The action of a step record, or ``None`` and :func:`step_record_problem`'s reason."""
    name = record.get("action")
    if not isinstance(name, str):
        if name is None:
            return None, f"reply is JSON but not a step record: no 'action' field (keys: {sorted(record)[:8]!r})"
        return None, f"reply is JSON but not a step record: action={name!r:.40} must be a string"
    action = LabAction.from_record(record)
    if action.kind == "wait":
        return None, f"reply is JSON but not a step record: action={name!r:.40} is not one of the task's actions"
    return action, None


def prompt_messages(
    task_text: str,
    observation_text: str,
    memory: str,
    past_data: Any,
    hypothesis: Any,
    actions: Sequence[Mapping[str, Any]],
    max_prompt_chars: int,
) -> list[dict[str, str]]:
    """The system and user messages of one step (the module docstring's five parts).

    The one place the prompt is built: :meth:`LLMAgent.prompt` and the Gymnasium environment
    (:mod:`causalcheck.rl.env`) both call it, so a policy trained there sees what the agent sees.
    """
    return render_prompt(
        task_text,
        observation_text,
        json.dumps(past_data, ensure_ascii=False),
        json.dumps(hypothesis, ensure_ascii=False),
        memory,
        [json.dumps(a, ensure_ascii=False) for a in actions],
        max_prompt_chars,
    )


def render_prompt(
    task_text: str,
    observation_text: str,
    past_data_json: str,
    hypothesis_json: str,
    memory: str,
    history_json: Sequence[str],
    max_prompt_chars: int,
    head_cache: list[tuple[str, str, str, str, str] | None] | None = None,
) -> list[dict[str, str]]:
    """:func:`prompt_messages` from the JSON texts of the state and of each past action
    (``json.dumps(..., ensure_ascii=False)``), for a caller that keeps them between steps.

    *head_cache*, a one-item list the caller owns (``[None]`` at first), keeps the last head (the
    task and state part) with the four texts it was built from, compared by identity: a caller
    that passes the same text objects again (the environment) gets the head without building it.
    """
    kept = head_cache[0] if head_cache is not None else None
    if kept is not None and kept[0] is task_text and kept[1] is past_data_json and kept[2] is hypothesis_json and kept[3] is memory:
        head = kept[4]
    else:
        state = (
            "## Previous State\n"
            f"past_data: {_cut(past_data_json)}\n"
            f"hypothesis: {_cut(hypothesis_json)}\n"
            f"memory: {_cut(memory)}"
        )
        head = f"Task:\n{task_text}\n\n{state}\n\n"
        if head_cache is not None:
            head_cache[0] = (task_text, past_data_json, hypothesis_json, memory, head)
    tail = f"\n\nCurrent Environment Observation:\n{observation_text}\n\nYour JSON record:"
    budget = max_prompt_chars - len(_RULES) - len(head) - len(tail)
    history = history_json if isinstance(history_json, list) else list(history_json)
    used = sum(map(len, history)) + len(history)  # each line and its newline
    drop = 0
    while drop < len(history) and used + 40 > budget:
        used -= len(history[drop]) + 1  # oldest first
        drop += 1
    if drop:
        history = history[drop:]
    hist = "History of actions (oldest first):\n" + ("\n".join(history) if history else "(none yet)")
    return [
        {"role": "system", "content": _RULES},
        {"role": "user", "content": head + hist + tail},
    ]


def read_reply(text: str, finish_reason: str | None = None) -> tuple[dict[str, Any] | None, str | None]:
    """The step record of a reply, or ``None`` and why it cannot be used (the module docstring's reading).

    *finish_reason* ``"length"`` adds "(cut at max_tokens)" to the reason of an unreadable reply.

    >>> read_reply('{"action": "OPEN_REACTOR"}')
    ({'action': 'OPEN_REACTOR'}, None)
    >>> read_reply('{"score": 7}')[1]
    "reply is JSON but not a step record: no 'action' field (keys: ['score'])"
    """
    record, _, error = read_step(text, finish_reason)
    return record, error


def read_step(text: str, finish_reason: str | None = None) -> tuple[dict[str, Any] | None, LabAction | None, str | None]:
    """:func:`read_reply` with the record's :class:`LabAction` (``LabAction.from_record(record)``), read once."""
    try:
        record = extract_record(text)
    except (ValueError, RecursionError) as exc:  # RecursionError: a reply nested beyond any record
        suffix = " (cut at max_tokens)" if finish_reason == "length" else ""
        return None, None, f"{str(exc)[:300]}{suffix}"
    action, problem = _step_action(record)
    if action is None:
        return None, None, problem
    return record, action, None


def degraded_record(error: str | None, memory: str, past_data: Any, hypothesis: Any) -> tuple[dict[str, Any], LabAction]:
    """The ``WAIT`` record and action of a step whose reply could not be used (the previous state kept)."""
    record = {
        "memory": memory,
        "thought": f"(no usable reply: {error})",
        "past_data": past_data,
        "hypothesis": hypothesis,
        "experiment": {},
        "action": "WAIT",
    }
    # the agent's own wait, built directly: read back from "WAIT" it would reach the
    # model next step as "unknown action='WAIT'"
    action = LabAction("wait", text=f"Your previous reply could not be used ({_cut(str(error), 300)}); the step was spent waiting.")
    return record, action


def carry_forward(record: Mapping[str, Any], memory: str, past_data: Any, hypothesis: Any) -> tuple[str, Any, Any, dict[str, Any]]:
    """The state carried to the next prompt after *record*, and the record's action fields.

    Only a string ``memory`` and non-empty ``past_data`` / ``hypothesis`` replace the carried ones.
    """
    if isinstance(record.get("memory"), str):
        memory = record["memory"]
    pd = record.get("past_data")
    if isinstance(pd, list) and pd:
        past_data = pd
    hyp = record.get("hypothesis")
    if isinstance(hyp, dict) and hyp:
        hypothesis = hyp
    action_fields = {k: record[k] for k in _ACTION_KEYS if k in record}
    return memory, past_data, hypothesis, action_fields or {"action": "WAIT"}


class LLMAgent:
    """A lab :class:`~causalcheck.lab.agents.Agent` driven by a chat model (module docstring)."""

    name = "llm"

    def __init__(
        self,
        llm: LLM,
        *,
        seed: int = 0,
        temperature: float = 0.1,
        max_tokens: int = 4096,
        json_mode: bool = True,
        verify: bool = False,
        max_prompt_chars: int = 16384,
    ) -> None:
        if max_prompt_chars < 1000:
            raise InputFormatError(f"max_prompt_chars={max_prompt_chars!r} must be at least 1000")
        self.llm = llm
        self.seed = seed
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.json_mode = json_mode
        self.verify = verify
        self.max_prompt_chars = max_prompt_chars
        self.reset(None)

    # -------------------------------------------------------------- state
    def reset(self, task: TaskInfo | None) -> None:
        self.task = task
        self.memory = ""
        self.past_data: list[Any] = []
        self.hypothesis: dict[str, Any] = dict(EMPTY_HYPOTHESIS)
        self.actions: list[dict[str, Any]] = []
        self._calls: list[dict[str, Any]] = []
        #: Steps of this episode whose reply could not be used (each is a degraded ``WAIT``).
        self.degraded_steps = 0

    def prompt(self, observation_text: str) -> list[dict[str, str]]:
        """The messages of the next call (also used by tests to inspect what the model sees)."""
        return prompt_messages(
            getattr(self.task, "text", "") or "", observation_text, self.memory, self.past_data, self.hypothesis,
            self.actions, self.max_prompt_chars,
        )

    # -------------------------------------------------------------- model calls
    def _ask(self, messages: list[dict[str, str]]) -> tuple[dict[str, Any] | None, str | None]:
        req = Request.chat(
            messages, temperature=self.temperature, max_tokens=self.max_tokens, json_mode=self.json_mode, seed=self.seed
        )
        try:
            comp = run_sync(self.llm.complete(req))
        except BudgetExceededError:
            raise
        except LLMError as exc:
            return None, redact(str(exc))[:500]
        self._calls.append(
            {**comp.usage.to_dict(), "finish_reason": comp.finish_reason, "cached": comp.cached}
        )
        return read_reply(comp.text, comp.finish_reason)

    def _verify(self, record: Mapping[str, Any]) -> list[str]:
        try:
            report = check_record(parse_record(dict(record)))
        except (InputFormatError, ValueError) as exc:
            return [f"the record could not be read: {exc}"]
        return [d.message for d in report.errors]

    def act(self, observation: Observation) -> AgentStep:
        obs_text = getattr(observation, "text", "") or ""
        messages = self.prompt(obs_text)
        self._calls = []
        record, error = self._ask(messages)
        info: dict[str, Any] = {}
        if record is not None and self.verify:
            problems = self._verify(record)
            check: dict[str, Any] = {"problems": problems, "revised": False}
            if problems:
                fix = [
                    *messages,
                    {"role": "assistant", "content": json.dumps(record, ensure_ascii=False)},
                    {
                        "role": "user",
                        "content": "An offline consistency check of your record found:\n- "
                        + "\n- ".join(problems)
                        + "\nReturn the corrected JSON record (same keys, same action unless the action itself was wrong).",
                    },
                ]
                revised, _ = self._ask(fix)
                if revised is not None:
                    check["revised"] = True
                    check["problems_after"] = self._verify(revised)
                    record = revised
            info["verification"] = check
        fallback: LabAction | None = None
        if record is None:
            record, fallback = degraded_record(error, self.memory, self.past_data, self.hypothesis)
            info.update(degraded=True, error=error)
            self.degraded_steps += 1
            log.warning("llm agent step %d: no usable reply, waiting instead: %s", len(self.actions) + 1, _cut(str(error), 200))
        self.memory, self.past_data, self.hypothesis, action_fields = carry_forward(
            record, self.memory, self.past_data, self.hypothesis
        )
        info["llm_calls"] = self._calls  # tokens, finish reason and cache use of this step's calls
        self.actions.append(action_fields)
        return AgentStep(record=record, action=fallback or LabAction.from_record(record), info=info)


def make_llm_agent(
    seed: int = 0,
    *,
    model: str | None = None,
    llm: LLM | None = None,
    base_url: str | None = None,
    cache: str | None = None,
    cache_mode: str = "rw",
    temperature: float = 0.1,
    max_tokens: int = 4096,
    json_mode: bool = True,
    verify: bool = False,
    max_cost: float | None = None,
    max_retries: int = 4,
    timeout: float = 120.0,
) -> LLMAgent:
    """Factory for the lab registry: ``make_agent("llm", seed=s, options={"model": "openai/gpt-4o", ...})``.

    The options edge of the agent: the model client (call cache, retries, ``max_cost``) is
    built here from the agent options; :class:`LLMAgent` itself takes any
    :class:`~causalcheck.protocols.LLM`.
    """
    # late: adapters are imported only where clients are built
    from causalcheck.adapters import LLMRun, RetryPolicy, setup_llm_logging

    if llm is None and not model:
        raise InputFormatError("agent 'llm' needs a model: pass --model MODEL (e.g. openai/gpt-4o)")
    if cache_mode not in ("rw", "ro", "off", "replay"):
        raise InputFormatError(f"cache_mode={cache_mode!r} must be one of rw, ro, off, replay")
    if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not 0 <= temperature <= 2:
        raise InputFormatError(f"temperature={temperature!r} must be a number in [0, 2]")
    for name, value in (("max_tokens", max_tokens), ("max_retries", max_retries)):
        if isinstance(value, bool) or not isinstance(value, int) or value < (1 if name == "max_tokens" else 0):
            raise InputFormatError(f"{name}={value!r} must be a {'positive' if name == 'max_tokens' else 'non-negative'} integer")
    for name, flag in (("json_mode", json_mode), ("verify", verify)):
        if not isinstance(flag, bool):
            raise InputFormatError(f"{name}={flag!r} must be true or false")
    if max_cost is not None and (isinstance(max_cost, bool) or not isinstance(max_cost, (int, float)) or max_cost < 0):
        raise InputFormatError(f"max_cost={max_cost!r} must be a non-negative number")
    setup_llm_logging()
    run = LLMRun.create(
        cache_path=cache,
        cache_mode=cache_mode,  # type: ignore[arg-type,unused-ignore]
        retry=RetryPolicy(max_attempts=int(max_retries) + 1, seed=seed, timeout=float(timeout)),
        max_cost=max_cost,
        base_url=base_url,
    )
    client = run.client(llm if llm is not None else str(model))
    return LLMAgent(client, seed=seed, temperature=temperature, max_tokens=max_tokens, json_mode=json_mode, verify=verify)
