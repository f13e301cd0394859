"""The ``causalcheck`` command line.

Each command group lives in its own module and registers itself here; handlers import their
heavy dependencies lazily so ``causalcheck --help`` stays fast.

Exit codes: 0 = success / no problems, 1 = problems found (``check``), 2 = input could not be
read or parsed, 3 = the run stopped on a limit (budget, cost), 70 = internal error (a bug:
please report it with ``--debug`` output), 130 = interrupted (SIGINT), 143 = terminated
(SIGTERM during ``lab run``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from causalcheck.base.cmdline import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_LIMIT,
    EXIT_OK,
    EXIT_PROBLEMS,
    run_handler,
)
from causalcheck.base.escape import terminal_streams
from causalcheck.base.interrupt import terminate_as_interrupt
from causalcheck.base.version import __version__
from causalcheck.plugins import BUILTINS, in_order, load_factory, registered

__all__ = ["EXIT_INPUT", "EXIT_INTERNAL", "EXIT_LIMIT", "EXIT_OK", "EXIT_PROBLEMS", "build_parser", "main"]


#: Commands that run the others through the parser (``demo`` dispatches its stages by name).
_NEEDS_ALL = frozenset({"demo"})


def _register(sub: Any, name: str) -> None:
    """Add command *name* (kind ``command`` of the plug-in registry, :mod:`causalcheck.plugins`): only the
    module of that command is imported (``causalcheck check ...`` loads no lab, explain or report code)."""
    load_factory("command", name)(sub)


def _commands() -> list[str]:
    """Every command in ``--help`` order: causalcheck's own, then those other packages register."""
    return in_order("command", builtins_first=True)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full argument parser (used by ``main`` and by the docs tests); *only*: that command alone."""
    parser = argparse.ArgumentParser(
        prog="causalcheck",
        description="Measure and verify causal reasoning: check hypotheses, run the lab, score explanations.",
    )
    parser.add_argument("--version", action="version", version=f"causalcheck {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks for internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in [only] if only is not None and only not in _NEEDS_ALL else _commands():
        _register(sub, name)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The command word of *argv* when the options before it are only ``--debug`` (a registered command)."""
    for word in argv:
        if word == "--debug":
            continue
        if word in BUILTINS["command"]:  # causalcheck's own: no entry point is read
            return word
        return word if not word.startswith("-") and word in registered("command") else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code.  What it writes to stdout and stderr
    shows control characters as escapes (:func:`causalcheck.base.escape.terminal_streams`): a name
    holding an ANSI escape or a carriage return cannot restyle or overwrite the terminal."""
    with terminal_streams():
        code = _main(argv)
    if argv is None:  # the command line itself (not a caller's in-process main([...])
        _leave_native_runtimes(code)
    return code


def _leave_native_runtimes(code: int) -> None:
    """End the process now, with *code*, when a runtime with native threads was started in it (Ray:
    :func:`causalcheck.base.ray_executor.started_in_this_process`): the interpreter's teardown can
    crash in those threads after the command has finished and reported, turning 130 into -11."""
    executor = sys.modules.get("causalcheck.base.ray_executor")
    if executor is None or not executor.started_in_this_process():
        return
    import contextlib
    import logging
    import os

    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe or stream: nothing more can be said on it
            stream.flush()
    os._exit(code)


def _main(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(only=_command(words))
    args = parser.parse_args(words)
    try:
        with terminate_as_interrupt():  # SIGTERM stops a command as Ctrl-C does (143 instead of 130)
            code = run_handler(args.handler, args)  # our errors: EXIT_LIMIT / EXIT_INPUT with the message
    except KeyboardInterrupt as exc:  # Ctrl-C (130), or SIGTERM (143)
        terminated = type(exc).__name__ == "Terminated"
        note = f"; {exc}" if str(exc) else ""  # a command's own account of what it left (lab run: resumable or not)
        print(f"causalcheck: {'terminated' if terminated else 'interrupted'}{note}", file=sys.stderr)
        return 143 if terminated else 130
    except BrokenPipeError:
        return EXIT_OK
    except UnicodeDecodeError as exc:
        print(f"causalcheck: error: an input file is not UTF-8 text: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except OSError as exc:  # unreadable input, an output path that is a file, a full disk, ...
        where = f" ({exc.filename!s})" if getattr(exc, "filename", None) else ""
        print(f"causalcheck: error: cannot read or write a file{where}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INPUT
    except (SystemExit, GeneratorExit):
        raise
    except BaseException as exc:  # a bug, not bad input; BaseException: native code's panics (pyo3's PanicException)
        if getattr(args, "debug", False):
            raise
        print(
            f"causalcheck: internal error: {type(exc).__name__}: {exc}\n"
            "(this is a bug; re-run with --debug for the traceback and report it)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
