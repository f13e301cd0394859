"""The command-line options shared by every command that calls a model (kept light to import)."""

from __future__ import annotations

import argparse

__all__ = ["add_llm_arguments"]

#: Same values as :data:`causalcheck.adapters.CACHE_MODES` (not imported, to keep ``--help`` fast).
_CACHE_MODES = ("rw", "ro", "off", "replay")


def add_llm_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the shared model options (endpoint, cache, retries, concurrency, cost) to *parser*."""
    g = parser.add_argument_group("model calls")
    g.add_argument("--base-url", default=None, help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (default: $OPENAI_BASE_URL)")
    g.add_argument("--cache", default=None, metavar="PATH", help="SQLite call cache (default: $CAUSALCHECK_CACHE or ~/.cache/causalcheck/llm-calls.sqlite)")
    g.add_argument("--cache-mode", default="rw", choices=_CACHE_MODES, help="rw: read+write; ro: read only; off; replay: cache only, a miss is an error")
    g.add_argument("--concurrency", type=int, default=4, help="calls in flight per provider (default 4)")
    g.add_argument("--max-retries", type=int, default=4, help="retries of a transient failure (default 4)")
    g.add_argument("--retry-base-delay", type=float, default=1.0, help="first backoff in seconds (doubles each retry)")
    g.add_argument("--retry-seed", type=int, default=0, help="seed of the backoff jitter")
    g.add_argument("--timeout", type=float, default=120.0, help="seconds per request (default 120)")
    g.add_argument("--max-cost", type=float, default=None, metavar="USD", help="stop cleanly (exit 3) once this much was spent")
    g.add_argument("--prices", default=None, metavar="FILE", help='JSON {"openai/gpt-4o": [in_usd_per_mtok, out_usd_per_mtok], …}')
