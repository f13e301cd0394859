"""A verifiers harness that plays fixed replies in-process: a scripted policy, no model, no program.

verifiers' harnesses launch a chat program that reaches the model through the rollout's
interception server.  :class:`ScriptedHarness` (id :data:`HARNESS_ID`) runs its loop in the
host process instead and answers turn *k* of a rollout with ``replies[k]``, committing each turn
to the trace as verifiers' interception does (:func:`verifiers.v1.graph.prepare_turn`), so the
trace is the conversation a model would have had.  When the replies run out it answers nothing,
which ends the exchange.  For tests, smoke runs of an environment without a model, and replaying
recorded replies.  Loaded by id once :mod:`causalcheck.rl.verifiers_env` is imported.

Turns it commits bypass the interception server, so the seat's token and turn limits and the
task's ``@vf.intercept`` / ``@vf.stop`` hooks do not see them.
"""

from __future__ import annotations

from typing import Any

try:
    import verifiers.v1 as vf
    from pydantic import Field
    from verifiers.v1 import graph
except ImportError:  # pragma: no cover - exercised only without the extra
    from causalcheck.base.errors import missing_extra

    raise missing_extra("causalcheck.rl.verifiers_harness", "verifiers", requirement="verifiers>=0.4") from None

__all__ = ["ScriptedHarness", "ScriptedHarnessConfig"]

#: The verifiers harness id (``--env.player.harness.id causalcheck-scripted``).
HARNESS_ID = "causalcheck-scripted"


class ScriptedHarnessConfig(vf.HarnessConfig):
    """The replies, in order (turn *k* gets ``replies[k]``)."""

    id: str = HARNESS_ID
    replies: list[str] = Field(default_factory=list)


class ScriptedHarness(vf.Harness[ScriptedHarnessConfig]):
    """Answers each turn from :attr:`ScriptedHarnessConfig.replies` (module docstring)."""

    APPENDS_SYSTEM_PROMPT = True
    SUPPORTS_RESUME = True  # the default resume() relaunches on the conversation so far
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
