"""Model strings, provider adapters over HTTP, request validation, lazy imports."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from _fake_server import FakeServer
from causalcheck.adapters import (
    AnthropicLLM,
    LLMError,
    Message,
    OpenAICompatibleLLM,
    Request,
    ScriptedLLM,
    make_llm,
    parse_model_string,
    run_sync,
)
from causalcheck.base.errors import CausalCheckError, InputFormatError


def _req(text: str = "hello", **kw: object) -> Request:
    return Request.chat([{"role": "system", "content": "be brief"}, {"role": "user", "content": text}], **kw)


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("openai/gpt-4o", ("openai", "gpt-4o")),
        ("anthropic/claude-x", ("anthropic", "claude-x")),
        ("openrouter/meta-llama/llama-3-8b", ("openrouter", "meta-llama/llama-3-8b")),
        ("smollm2", ("openai", "smollm2")),
        ("Ollama/llama3", ("ollama", "llama3")),
    ],
)
def test_parse_model_string(spec: str, expected: tuple[str, str]) -> None:
    """Provider prefixes split off; a bare name means an OpenAI-compatible endpoint."""
    assert parse_model_string(spec) == expected


@pytest.mark.parametrize("spec", ["", "   ", "openai/", None])
def test_parse_model_string_rejects_bad_values(spec: object) -> None:
    """Empty or provider-only model strings are input errors that show the value."""
    with pytest.raises(InputFormatError, match="model="):
        parse_model_string(spec)  # type: ignore[arg-type]


def test_make_llm_uses_environment_base_url() -> None:
    """OPENAI_BASE_URL points an openai/ model at a local server without a key."""
    llm = make_llm("openai/smollm2", env={"OPENAI_BASE_URL": "http://127.0.0.1:8000/v1"})
    assert isinstance(llm, OpenAICompatibleLLM)
    assert (llm.provider, llm.model, llm.endpoint) == ("openai", "smollm2", "http://127.0.0.1:8000/v1")


def test_make_llm_ollama_and_vllm() -> None:
    """ollama/ defaults to the local Ollama port; vllm/ without a URL is an input error."""
    assert make_llm("ollama/llama3", env={}).endpoint == "http://127.0.0.1:11434/v1"
    with pytest.raises(InputFormatError, match="base-url"):
        make_llm("vllm/x", env={})


def test_make_llm_missing_keys_are_clear_errors() -> None:
    """Hosted providers without a key fail with a hint naming the variable."""
    with pytest.raises(LLMError, match="ANTHROPIC_API_KEY"):
        make_llm("anthropic/claude-x", env={})
    with pytest.raises(LLMError, match="OPENAI_API_KEY"):
        make_llm("openai/gpt-4o", env={})


def test_endpoint_hides_credentials() -> None:
    """User info and query strings never reach the endpoint (which is part of the cache key)."""
    llm = make_llm("openai/m", base_url="http://user:pw@127.0.0.1:9/v1/?key=abc", env={})
    assert llm.endpoint == "http://127.0.0.1:9/v1"
    assert "pw" not in repr(llm)


def test_request_validation() -> None:
    """Bad roles, temperatures and token limits are rejected with the offending value."""
    with pytest.raises(InputFormatError, match="role='robot'"):
        Message("robot", "x")  # type: ignore[arg-type]
    with pytest.raises(InputFormatError, match="temperature=3"):
        _req(temperature=3)
    with pytest.raises(InputFormatError, match="max_tokens=0"):
        _req(max_tokens=0)
    with pytest.raises(InputFormatError, match="role"):
        Request.chat([{"content": "x"}])
    assert issubclass(InputFormatError, CausalCheckError)


def test_openai_adapter_round_trip() -> None:
    """Text, usage, finish reason and the key travel as the API expects."""
    with FakeServer(lambda body: "the answer") as srv:
        llm = make_llm("openai/fake-model", base_url=srv.base_url, api_key="sk-test-abcdef123456", env={})
        out = run_sync(llm.complete(_req(temperature=0.6, max_tokens=50)))
    assert out.text == "the answer"
    assert out.finish_reason == "stop"
    assert (out.usage.input_tokens, out.usage.output_tokens) == (11, 5)
    body = srv.requests[0]
    assert body["model"] == "fake-model"
    assert body["temperature"] == 0.6 and body["max_tokens"] == 50
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert srv.auth_headers[0] == "Bearer sk-test-abcdef123456"


def test_openai_adapter_json_schema_form_for_local_servers() -> None:
    """A local server gets response_format json_object + schema (llama.cpp rejects json_schema)."""
    schema = {"type": "object", "properties": {"score": {"type": "integer"}}}
    with FakeServer() as srv:
        llm = make_llm("openai/m", base_url=srv.base_url, env={})
        out = run_sync(llm.complete(_req(json_schema=schema)))
    assert json.loads(out.text)["score"] == 7
    assert srv.requests[0]["response_format"] == {"type": "json_object", "schema": schema}


def test_openai_adapter_client_error_is_not_transient() -> None:
    """A 4xx other than 429 becomes a plain LLMError (no retry)."""
    from causalcheck.adapters import TransientLLMError

    with FakeServer(faults=lambda n, b: "500") as srv:
        llm = make_llm("openai/m", base_url=srv.base_url, env={})
        with pytest.raises(TransientLLMError) as info:
            run_sync(llm.complete(_req()))
    assert info.value.kind == "500"


def test_anthropic_adapter_round_trip() -> None:
    """System messages go to the top-level field; stop reasons map to the OpenAI vocabulary."""
    with FakeServer(lambda body: "claude says hi", faults=[None, "truncated"]) as srv:
        llm = AnthropicLLM("claude-x", api_key="sk-ant-test-0123456789", base_url=f"http://127.0.0.1:{srv.port}")
        first = run_sync(llm.complete(_req()))
        second = run_sync(llm.complete(_req()))
    assert first.text == "claude says hi" and first.finish_reason == "stop"
    assert second.finish_reason == "length"
    body = srv.requests[0]
    assert body["system"] == "be brief"
    assert [m["role"] for m in body["messages"]] == ["user"]
    assert srv.auth_headers[0] == "sk-ant-test-0123456789"


def test_scripted_llm_replays_and_runs_out() -> None:
    """The fake answers in order, records requests, and fails loudly when the script ends."""
    llm = ScriptedLLM(["a", "b"])
    assert [run_sync(llm.complete(_req(str(i)))).text for i in range(2)] == ["a", "b"]
    assert [c.messages[-1].content for c in llm.calls] == ["0", "1"]
    with pytest.raises(LLMError, match="ran out"):
        run_sync(llm.complete(_req()))


def test_import_is_lazy() -> None:
    """Importing the adapters does not import a provider SDK or numpy."""
    code = "import sys, causalcheck.adapters; print(sorted(m for m in ('openai', 'anthropic', 'numpy', 'httpx') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_public_names_resolve_and_the_protocol_is_the_cores() -> None:
    """Every name in ``causalcheck.adapters.__all__`` resolves; the protocol and its values are the core's own objects."""
    import causalcheck.adapters as adapters
    import causalcheck.protocols as protocols
    from causalcheck.base.aio import run_sync as core_run_sync

    for name in adapters.__all__:
        assert getattr(adapters, name) is not None, name
    for name in ("LLM", "Request", "Completion", "Message", "Usage", "LLMError", "TransientLLMError"):
        assert getattr(adapters, name) is getattr(protocols, name), name
    assert adapters.run_sync is core_run_sync
    for adapter in (ScriptedLLM(), OpenAICompatibleLLM("m", base_url="http://127.0.0.1:9/v1", api_key=None)):
        assert isinstance(adapter, protocols.LLM)
