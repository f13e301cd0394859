"""The lab's verifiers harnesses: how the model's context is built each turn, and a scripted policy.

verifiers leaves a conversation's context to the harness: its ``resume`` relaunches the
harness's program on the conversation so far plus the new user turn.  The lab's prompt already
carries the episode's history in compact form (the previous state and the past actions, within
``max_prompt_chars``), so resending the conversation repeats it every turn.  A task whose data
names ``user_turn="fresh"`` (:data:`FRESH`, the lab's default) is therefore played by a
:class:`LabHarness`: each resumed turn starts a new context, the system prompt and the new user
turn alone, which is what ``lab run --agent llm`` sends the model each step.  The trace then
holds one branch per turn, and its assistant messages are the replies in order, so the rubric
reads them as from any other trace.  Other tasks are resumed on the conversation, as by any
verifiers harness.

* :class:`CausaLabChatHarness` (id ``causalcheck-lab``, the taskset's own harness and so the
  player's default) — verifiers' tool-less chat program (the ``null`` harness), which calls the
  model through the rollout's interception server.
* :class:`ScriptedHarness` (id :data:`HARNESS_ID`) — plays fixed replies in-process: no model,
  no program.  It answers turn *k* of a rollout with ``replies[k]``, committing each turn to the
  trace as verifiers' interception does (:func:`verifiers.v1.graph.prepare_turn`), so the trace
  is the conversation a model would have had; when the replies run out it answers nothing, which
  ends the exchange.  For tests, smoke runs of an environment without a model, and replaying
  recorded replies.  Turns it commits bypass the interception server, so the seat's token and
  turn limits and the task's ``@vf.intercept`` / ``@vf.stop`` hooks do not see them.

Both are loaded by id once :mod:`causalcheck.rl.verifiers_env` is imported (the chat harness
through the top-level module ``causalcheck_lab``, which verifiers imports for the id).
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

try:
    import verifiers.v1 as vf
    from pydantic import Field
    from verifiers.v1 import graph
    from verifiers.v1.harnesses.null import NullHarness, NullHarnessConfig
except ImportError:  # pragma: no cover - exercised only without the extra
    from causalcheck.base.errors import missing_extra

    raise missing_extra("causalcheck.rl.verifiers_harness", "verifiers", requirement="verifiers>=0.4") from None

__all__ = ["CausaLabChatHarness", "LabHarness", "ScriptedHarness", "ScriptedHarnessConfig"]

#: The verifiers harness id of the scripted policy (``--env.player.harness.id causalcheck-scripted``).
HARNESS_ID = "causalcheck-scripted"
#: The ``user_turn`` of a task whose turns each start a new context.
FRESH: Final = "fresh"

ConfigT = TypeVar("ConfigT")


def starts_fresh(data: Any) -> bool:
    """Whether the task of *data* plays each turn in a new context (its ``user_turn`` is :data:`FRESH`)."""
    return getattr(data, "user_turn", None) == FRESH


class LabHarness(vf.Harness[ConfigT]):
    """A harness that resumes a fresh-context task on the new turn alone (module docstring)."""

    async def resume(
        self, ctx: Any, trace: vf.Trace, runtime: Any, endpoint: str, secret: str, mcp_urls: dict[str, str],
        data: vf.TaskData, messages: list[Any], tool_interception_url: str | None = None,
    ) -> vf.ProgramResult:
        if not starts_fresh(data):
            return await super().resume(ctx, trace, runtime, endpoint, secret, mcp_urls, data, messages, tool_interception_url)
        kwargs = {"tool_interception_url": tool_interception_url} if self.SUPPORTS_TOOL_INTERCEPTION else {}
        turn = data.model_copy(update={"prompt": list(messages)})
        return await self.launch(ctx, trace, runtime, endpoint, secret, mcp_urls, turn, **kwargs)


class CausaLabChatHarness(LabHarness[NullHarnessConfig], NullHarness):
    """verifiers' tool-less chat program with the lab's context (module docstring)."""


class ScriptedHarnessConfig(vf.HarnessConfig):
    """The replies, in order (turn *k* gets ``replies[k]``)."""

    id: str = HARNESS_ID
    replies: list[str] = Field(default_factory=list)


class ScriptedHarness(LabHarness[ScriptedHarnessConfig]):
    """Answers each turn from :attr:`ScriptedHarnessConfig.replies` (module docstring)."""

    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True  # resume() relaunches on the conversation so far, or on the new turn alone
    EXECUTES_CODE = False
    NEEDS_CONTAINER = False

    async def launch(
        self, ctx: Any, trace: vf.Trace, runtime: Any, endpoint: str, secret: str, mcp_urls: dict[str, str], data: vf.TaskData,
    ) -> vf.ProgramResult:
        turn = trace.num_turns
        if turn >= len(self.config.replies):
            return vf.ProgramResult(exit_code=0, stdout="", stderr="")  # no reply: the exchange ends
        system, prompt = self.resolve_prompt(data)
        messages: list[Any] = [] if system is None else [vf.SystemMessage(content=system)]
        if isinstance(prompt, str):
            messages.append(vf.UserMessage(content=prompt))
        elif prompt is not None:
            messages.extend(prompt)
        reply = vf.AssistantMessage(content=self.config.replies[turn])
        response = vf.Response(id=f"scripted-{turn}", created=0, model=ctx.model, message=reply, finish_reason="stop")
        graph.prepare_turn(trace, messages).commit(response)
        return vf.ProgramResult(exit_code=0, stdout="", stderr="")
