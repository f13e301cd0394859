"""What every ``causalcheck`` command module shares: exit codes, option value types, running a handler.

Each command group (``check``, ``lab``, ``explain``, ``report``, ``compare``, ``snapshot``)
registers its own options on the top-level parser (:mod:`causalcheck.cli`); the pieces they
have in common live here, once:

* **value types** for ``add_argument(type=...)``: argparse calls them with the option's text and
  turns an :class:`argparse.ArgumentTypeError` into a usage error (exit 2) that shows the
  message after the option's name — every message here names the offending value, e.g.
  ``argument --workers: value='0' must be a positive integer``;
* :func:`require_finite_nonnegative` for a ``type=float`` option checked after parsing (argparse
  accepts ``inf`` and ``nan`` as floats);
* :func:`add_documented_command`: a sub-command whose ``--help`` description is its module
  docstring after the first paragraph, laid out as written;
* :func:`run_handler` / :func:`run_in_process`: a parsed command's handler with the command
  line's exit codes for our errors (:data:`EXIT_INPUT` for bad input, :data:`EXIT_LIMIT` for a
  stop on a limit), used by :func:`causalcheck.cli.main` and by the in-process entry points
  (``causalcheck.checking.cli.run``, ``causalcheck.graphchecks.cli.main_validate``, ...).

>>> positive_int("3"), nonnegative_int("0"), bounded_int(10, "LIMIT", 1)("10")
(3, 0, 10)
>>> positive_int("0")
Traceback (most recent call last):
  ...
argparse.ArgumentTypeError: value='0' must be a positive integer
>>> comma_choices(("json", "csv"), "--format")("CSV, json,csv")
('csv', 'json')
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from causalcheck.base.errors import BudgetExceededError, CausalCheckError, InputFormatError

__all__ = [
    "EXIT_INPUT",
    "EXIT_INTERNAL",
    "EXIT_LIMIT",
    "EXIT_OK",
    "EXIT_PROBLEMS",
    "add_command_group",
    "add_documented_command",
    "add_executor_arguments",
    "bounded_int",
    "comma_choices",
    "command_line_text",
    "executor_from_args",
    "nonnegative_int",
    "plain_help",
    "positive_int",
    "register_flag",
    "require_finite_nonnegative",
    "run_handler",
    "run_in_process",
]

#: Success / no problems.
EXIT_OK = 0
#: Problems found (``check``), some input failed (``lab score``, ``explain score``).
EXIT_PROBLEMS = 1
#: An input could not be read or parsed, or an option is invalid.
EXIT_INPUT = 2
#: The run stopped on a limit (budget, ``--max-cost``, a replay-cache miss).
EXIT_LIMIT = 3
#: A bug in causalcheck.
EXIT_INTERNAL = 70


# ---------------------------------------------------------------------- value types
def _integer(text: str, rule: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"value={text!r} must be {rule}") from None


def positive_int(text: str) -> int:
    """An integer >= 1 (``--workers``, ``--limit``, ``--size``, ...)."""
    value = _integer(text, "a positive integer")
    if value < 1:
        raise argparse.ArgumentTypeError(f"value={text!r} must be a positive integer")
    return value


def nonnegative_int(text: str) -> int:
    """An integer >= 0 (``--seed``, ``--bootstrap``, ...)."""
    value = _integer(text, "a non-negative integer")
    if value < 0:
        raise argparse.ArgumentTypeError(f"value={text!r} must be a non-negative integer")
    return value


def bounded_int(limit: int, name: str, low: int = 0) -> Callable[[str], int]:
    """The type of an integer in ``low..limit``; *name* is the limit's name in the message.

    >>> bounded_int(5, "MAX", 1)("6")
    Traceback (most recent call last):
      ...
    argparse.ArgumentTypeError: value='6' must be between 1 and MAX=5
    """

    def parse(text: str) -> int:
        value = _integer(text, "an integer")
        if not low <= value <= limit:
            raise argparse.ArgumentTypeError(f"value={text!r} must be between {low} and {name}={limit}")
        return value

    return parse


def comma_choices(choices: Sequence[str], option: str) -> Callable[[str], tuple[str, ...]]:
    """The type of a comma list of *choices* (case-insensitive, each once, in the order given; at least one).

    >>> comma_choices(("json", "csv"), "--format")("xml")
    Traceback (most recent call last):
      ...
    argparse.ArgumentTypeError: --format='xml' must be a comma list of json, csv
    """

    def parse(text: str) -> tuple[str, ...]:
        items = tuple(dict.fromkeys(t.strip().lower() for t in text.split(",") if t.strip()))
        if not items or any(t not in choices for t in items):
            raise argparse.ArgumentTypeError(f"{option}={text!r} must be a comma list of {', '.join(choices)}")
        return items

    return parse


def require_finite_nonnegative(option: str, value: float) -> float:
    """*value* when it is a finite number >= 0, else :class:`~causalcheck.base.errors.InputFormatError`.

    >>> require_finite_nonnegative("--tolerance", float("inf"))
    Traceback (most recent call last):
      ...
    causalcheck.base.errors.InputFormatError: --tolerance=inf must be a finite number >= 0
    """
    if not value >= 0 or value == float("inf"):
        raise InputFormatError(f"{option}={value!r} must be a finite number >= 0")
    return value


# ---------------------------------------------------------------------- commands
def plain_help(text: str) -> str:
    """*text* (reStructuredText of a docstring) as plain help text: ````code```` → ``code``,
    ``:func:`~a.b.name``` → ``name`` (``:role:`a.b``` → ``a.b``), ``**bold**`` → ``bold``.

    >>> plain_help("an official ``raw_io.jsonl``; see :func:`~causalcheck.checking.api.check`")
    'an official raw_io.jsonl; see check'
    """
    import re

    text = re.sub(r":[a-z]+(?::[a-z]+)?:`(~?)([^`]+)`", lambda m: m.group(2).rsplit(".", 1)[-1] if m.group(1) else m.group(2), text)
    text = re.sub(r"``([^`]+)``", r"\1", text)
    return re.sub(r"\*\*([^*]+)\*\*", r"\1", text)


def add_documented_command(subparsers: Any, name: str, *, help: str, doc: str | None) -> argparse.ArgumentParser:
    """Add the sub-command *name*; its ``--help`` description is *doc* (the command module's
    docstring) after the first paragraph, with the line breaks as written, as plain text (:func:`plain_help`)."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=help,
        description=plain_help(doc.split("\n\n", 1)[1]) if doc else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def add_command_group(subparsers: Any, name: str, *, help: str, description: str, metavar: str) -> tuple[argparse.ArgumentParser, Any]:
    """Add the command group *name* (``causalcheck NAME SUBCOMMAND``): its parser and its required
    sub-command set, whose choice lands in ``args.<name>_command``."""
    group: argparse.ArgumentParser = subparsers.add_parser(name, help=help, description=description)
    sub = group.add_subparsers(dest=f"{name}_command", metavar=metavar)
    sub.required = True
    return group, sub


def add_executor_arguments(parser: argparse.ArgumentParser, *, what: str) -> None:
    """``--executor {local,ray}`` and ``--ray-address ADDR`` (:func:`executor_from_args`); *what* names the jobs."""
    # late: the pool is stdlib only, but only the commands that run jobs need it
    from causalcheck.base.pool import EXECUTORS

    parser.add_argument("--executor", choices=EXECUTORS, default="local",
                        help=f"where the {what} run: local (this machine, --workers processes; default) or ray "
                             "(Ray tasks; needs the [ray] extra; the same files)")
    parser.add_argument("--ray-address", metavar="ADDR",
                        help="Ray cluster to join with --executor ray (default: $RAY_ADDRESS, else a local cluster "
                             "of --workers CPUs when K > 1, else of every core)")


def executor_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~causalcheck.base.pool.Executor` of ``--executor`` / ``--ray-address`` / ``--workers``."""
    # late: the executors are needed only by the commands that run jobs
    from causalcheck.base.executors import make_executor

    workers = int(getattr(args, "workers", 1) or 1)
    if args.executor == "ray":  # a local Ray cluster of --workers CPUs, or of every core when it is not raised
        return make_executor("ray", workers if workers > 1 else 0, address=args.ray_address)
    return make_executor(args.executor, workers, address=args.ray_address)


#: (keyword, value's repr or None for any value) -> the flag that sets it, filled by the command modules.
_FLAGS: dict[tuple[str, str | None], str] = {}
#: The phrase of :func:`causalcheck.base.errors.keyword_hint`: ``pass keyword=value``.
_HINT = re.compile(r"\bpass (?P<keyword>[A-Za-z_]\w*)=(?P<value>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[\w.+-]+)")


def register_flag(keyword: str, flag: str, value: Any = ...) -> None:
    """Say that *flag* sets the Python keyword *keyword* (to *value*; without one, to the value
    written after the flag): :func:`command_line_text` then names the flag in messages."""
    _FLAGS[(keyword, None if value is ... else repr(value))] = flag


def command_line_text(message: str) -> str:
    """*message* with each ``pass keyword=value`` (:func:`~causalcheck.base.errors.keyword_hint`)
    whose keyword has a flag (:func:`register_flag`) written as that flag.

    >>> register_flag("nan", "--drop-nan", "drop"); register_flag("ci_test", "--ci-test")
    >>> command_line_text("3 rows hold NaN; pass nan='drop' to drop them, or pass ci_test='kci'")
    '3 rows hold NaN; use --drop-nan to drop them, or use --ci-test kci'
    """

    def flag(m: re.Match[str]) -> str:
        keyword, value = m.group("keyword"), m.group("value")
        exact = _FLAGS.get((keyword, value))
        if exact is not None:
            return f"use {exact}"
        any_value = _FLAGS.get((keyword, None))
        if any_value is not None:
            shown = value[1:-1] if value[:1] in "'\"" else value
            return f"use {any_value} {shown}"
        return m.group()

    return _HINT.sub(flag, message)


def run_handler(handler: Callable[[argparse.Namespace], int | None], args: argparse.Namespace) -> int:
    """``handler(args)``'s exit code; our errors are reported on stderr and mapped to the command
    line's exit codes: a stop on a limit (:class:`~causalcheck.base.errors.BudgetExceededError`) to
    :data:`EXIT_LIMIT`, any other :class:`~causalcheck.base.errors.CausalCheckError` to :data:`EXIT_INPUT`.
    Other exceptions propagate."""
    try:
        return int(handler(args) or 0)
    except BudgetExceededError as exc:  # --max-cost reached, or a replay-cache miss: stopped on a limit
        print(f"causalcheck: stopped: {command_line_text(str(exc))}", file=sys.stderr)
        return EXIT_LIMIT
    except CausalCheckError as exc:
        print(f"causalcheck: error: {command_line_text(str(exc))}", file=sys.stderr)
        return EXIT_INPUT


def run_in_process(
    parser: argparse.ArgumentParser,
    argv: Sequence[str] | None,
    handler: Callable[[argparse.Namespace], int | None] | None = None,
) -> int:
    """Parse *argv* with *parser* and run *handler* (default: the ``handler`` the parser sets) through
    :func:`run_handler` — a command in-process, with the command line's exit codes (for tests and
    scripts; a usage error exits through argparse's ``SystemExit(2)``)."""
    args = parser.parse_args(None if argv is None else list(argv))
    return run_handler(handler or args.handler, args)
