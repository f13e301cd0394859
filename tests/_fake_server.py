"""A local HTTP server that speaks the OpenAI chat API (and Anthropic's) and misbehaves on purpose.

Used by the fault-injection tests: it binds 127.0.0.1 on a free port, answers
``POST /v1/chat/completions`` (and ``POST /v1/messages``) with a text chosen by a responder
function, and before that can inject, per request, one of:

* ``"429"`` — HTTP 429 with ``Retry-After: <retry_after>``;
* ``"500"`` / ``"503"`` — a server error;
* ``"reset"`` — close the socket with an RST before answering (connection reset by peer);
* ``"truncated"`` — the model text cut to half, with ``finish_reason="length"``;
* ``"badjson"`` — an HTTP 200 whose body is cut in the middle of the JSON;
* ``"timeout"`` — sleep ``hang`` seconds before answering (longer than the client timeout).

``faults`` is either a list consumed one per request (``None`` entries mean "behave") or a
function ``(request_number, body) -> fault | None``.  Every request body and the
``Authorization`` header seen are recorded.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Responder = Callable[[dict[str, Any]], str]
FaultPlan = Sequence[str | None] | Callable[[int, dict[str, Any]], str | None]


def default_responder(body: dict[str, Any]) -> str:
    """Echo a short deterministic answer: JSON when JSON was asked for, else 'yes'."""
    if body.get("response_format"):
        return json.dumps({"score": 7, "reason": "fake server verdict"})
    return "yes"


def prism_responder(body: dict[str, Any]) -> str:
    """Plausible PRISM replies: a causal chain over the first 3 sentences, 'yes' for edges, a JSON score."""
    import re

    user = body["messages"][-1]["content"]
    if "\nText:\n" in user:
        text = user.split("\nText:\n", 1)[1]
        parts = [p.strip() for p in re.split(r"(?<=[.!?])\s+", text) if p.strip()][:3]
        edus = "\n".join(f"EDU{i}: {p}" for i, p in enumerate(parts, 1))
        rels = "\n".join(f"RELATION(EDU{i}, EDU{i + 1}): CAUSE [SN]" for i in range(1, len(parts)))
        return f"EDUs:\n{edus}\nRST ANALYSIS:\n{rels}\nTREE STRUCTURE:\nROOT\n"
    if "Source claim:" in user:
        return "yes"
    return json.dumps({"score": 7, "reason": "fake"})


class FakeServer:
    """Context manager running the misbehaving server in a daemon thread."""

    def __init__(
        self,
        responder: Responder = default_responder,
        faults: FaultPlan = (),
        *,
        retry_after: float = 0.05,
        hang: float = 3.0,
    ) -> None:
        self.responder = responder
        self.faults = faults
        self.retry_after = retry_after
        self.hang = hang
        self.requests: list[dict[str, Any]] = []
        self.auth_headers: list[str] = []
        self.served: list[str] = []  # what each request got: "ok" or the fault name
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _fault_for(self, n: int, body: dict[str, Any]) -> str | None:
        if callable(self.faults):
            return self.faults(n, body)
        return self.faults[n] if n < len(self.faults) else None

    def __enter__(self) -> FakeServer:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
                return

            def setup(self) -> None:
                super().setup()
                # headers and body go out in two writes; without this, Nagle + delayed ACK add ~40 ms
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

            def handle(self) -> None:
                try:
                    super().handle()
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True

            def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    self.close_connection = True

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw.decode("utf-8"))
                except ValueError:
                    body = {}
                with outer._lock:
                    n = len(outer.requests)
                    outer.requests.append(body)
                    outer.auth_headers.append(self.headers.get("Authorization") or self.headers.get("x-api-key") or "")
                    fault = outer._fault_for(n, body)
                    outer.served.append(fault or "ok")
                anthropic = self.path.endswith("/messages")
                if fault == "429":
                    self._send(429, b'{"error": {"message": "rate limited"}}', {"Retry-After": f"{outer.retry_after:g}"})
                    return
                if fault in ("500", "503"):
                    self._send(int(fault), b'{"error": {"message": "server error"}}')
                    return
                if fault == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.connection.close()
                    self.close_connection = True
                    return
                if fault == "timeout":
                    time.sleep(outer.hang)
                text = outer.responder(body)
                finish = "stop"
                if fault == "truncated":
                    text, finish = text[: max(1, len(text) // 2)], "length"
                if anthropic:
                    payload = {
                        "id": "msg_fake",
                        "type": "message",
                        "role": "assistant",
                        "content": [{"type": "text", "text": text}],
                        "stop_reason": "max_tokens" if finish == "length" else "end_turn",
                        "usage": {"input_tokens": 11, "output_tokens": 5},
                    }
                else:
                    payload = {
                        "id": "chatcmpl-fake",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body.get("model", "fake"),
                        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
                        "usage": {"prompt_tokens": 11, "completion_tokens": 5, "total_tokens": 16},
                    }
                data = json.dumps(payload).encode("utf-8")
                if fault == "badjson":
                    data = data[: len(data) // 2]
                self._send(200, data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()


def serve_forever_main() -> None:  # pragma: no cover - used by subprocess tests
    """``python tests/_fake_server.py [delay] [prism]``: serve (slowly) and print the port, until killed."""
    import sys

    delay = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
    prism = len(sys.argv) > 2 and sys.argv[2] == "prism"

    def slow(body: dict[str, Any]) -> str:
        time.sleep(delay)
        if prism:
            return prism_responder(body)
        return "An answer about " + str(body.get("messages", [{}])[-1].get("content", ""))[-40:]

    with FakeServer(slow) as srv:
        print(srv.port, flush=True)
        while True:
            time.sleep(3600)


if __name__ == "__main__":  # pragma: no cover
    serve_forever_main()
