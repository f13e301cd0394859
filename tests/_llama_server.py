"""Start llama.cpp's own OpenAI-compatible HTTP server in this process, through xllamacpp's prebuilt wheel.

Used by ``tests/test_server.py`` as ``python tests/_llama_server.py MODEL.gguf PORT ALIAS N_CTX THREADS``:
the server listens on 127.0.0.1 only and serves until the process is terminated.  (xllamacpp ships
llama.cpp compiled for the CPU as a wheel, so a fresh machine installs it in seconds instead of building
llama-cpp-python from source.)
"""

from __future__ import annotations

import signal
import sys
import threading


def main(argv: list[str]) -> int:
    """Serve *model* on 127.0.0.1:*port* under *alias* until SIGTERM / SIGINT."""
    import xllamacpp

    model, port, alias, n_ctx, threads = argv
    params = xllamacpp.CommonParams()
    params.model.path = model
    params.hostnames = ["127.0.0.1"]
    params.port = int(port)
    params.n_ctx = int(n_ctx)
    params.model_alias = {alias}
    params.cpuparams.n_threads = int(threads)
    params.cpuparams_batch.n_threads = int(threads)
    server = xllamacpp.Server(params)
    print(f"_llama_server: listening on {server.listening_address}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
