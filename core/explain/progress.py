"""Progress of long explain runs: items done / total and the model-call accounting so far.

A judged ``explain score`` run or an ``explain answer`` run over a whole benchmark takes
minutes; without a display the only sign of life is the retry log.  :class:`RunProgress`
shows how far the run is — items done out of the total (resumed items count as done) and,
when a model is involved, its calls, cache hits, retries, failures and cost so far — in one
of two forms:

* ``"bar"`` — a live `rich <https://rich.readthedocs.io>`_ progress bar on stderr, as
  ``lab run`` has.  The accounting column is re-read at every refresh (4 per second), so
  retries show up while an item is still being judged, not only when it ends.  Log lines
  written meanwhile (retries, "wrote …") appear above the bar.
* ``"log"`` — one plain line per ``every`` items (and one at the start and at the last item)
  on stderr, for logs and CI::

      causalcheck: explain score: 10/36 items, 0:00:42 elapsed; calls 130, cache hits 2, retries 3, failures 0, $0.0412

The accounting is read through the core's optional capability
:class:`~causalcheck.protocols.MeteredLLM` (a model with a ``meter``), by shape and never by
class; models that share one meter are counted once, models without one add nothing.

:func:`progress_mode` decides the form from the command-line options
(:func:`add_progress_arguments`): ``--quiet`` shows nothing; otherwise a terminal on stderr
gets the bar; when stderr is not a terminal, nothing is shown unless ``--progress`` asks for
the log lines (``--progress-every N``, default 10).  Progress never goes into a result file.

The run drivers take any :class:`ItemProgress` (``begin`` / ``describe`` / ``advance``):

>>> import io
>>> out = io.StringIO()
>>> p = RunProgress("log", title="explain answer", stream=out, every=2, clock=lambda: 0.0)
>>> p.begin(3, done=1)
>>> p.advance(); p.advance(); p.close()
>>> print(out.getvalue(), end="")
causalcheck: explain answer: 1/3 items (1 done before), 0:00:00 elapsed
causalcheck: explain answer: 3/3 items, 0:00:00 elapsed

rich is imported only when a bar is shown.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol, TextIO

from causalcheck.base.cmdline import positive_int
from causalcheck.base.errors import InputFormatError
from causalcheck.base.escape import raw_stream, terminal_text

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.protocols import LLM, Meter
    from rich.console import Console
    from rich.progress import Progress, TaskID

__all__ = [
    "DEFAULT_EVERY",
    "ItemProgress",
    "ProgressMode",
    "RunProgress",
    "add_progress_arguments",
    "format_accounting",
    "meter_totals",
    "progress_from_args",
    "progress_mode",
]

ProgressMode = Literal["bar", "log"]

#: Items between two log lines of ``--progress`` when stderr is not a terminal.
DEFAULT_EVERY = 10

_TOTAL_KEYS: tuple[str, ...] = ("calls", "cache_hits", "retries", "failures", "cost_usd")


class ItemProgress(Protocol):
    """What a run driver reports: the total once, a description per phase, each finished item."""

    def begin(self, total: int, done: int = 0) -> None:
        """The run has *total* items, *done* of them finished before it started."""

    def describe(self, text: str) -> None:
        """What is being done now (e.g. ``scoring demo-strong``)."""

    def advance(self, n: int = 1) -> None:
        """*n* more items are finished (answered, scored, failed or found done)."""


def _meters(models: Iterable[LLM]) -> list[Meter]:
    """The distinct meters of *models* (by identity), through the ``MeteredLLM`` capability."""
    # late: keeps causalcheck --help light
    from causalcheck.protocols import MeteredLLM

    seen: dict[int, Meter] = {}
    for m in models:
        if isinstance(m, MeteredLLM):
            meter = m.meter
            seen.setdefault(id(meter), meter)
    return list(seen.values())


def meter_totals(models: Iterable[LLM]) -> dict[str, float] | None:
    """Calls, cache hits, retries, failures and cost (``cost_usd``) summed over the distinct meters
    of *models*; ``None`` when none of them has a meter.

    A meter's summary may lack a key (a user's own meter): it counts as 0.
    """
    meters = _meters(models)
    if not meters:
        return None
    totals = dict.fromkeys(_TOTAL_KEYS, 0.0)
    for meter in meters:
        summary: Mapping[str, Any] = meter.summary()
        for key in _TOTAL_KEYS:
            value = summary.get(key, 0)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                totals[key] += float(value)
    return totals


def format_accounting(totals: Mapping[str, float] | None) -> str:
    """The accounting as shown by the progress display (``""`` without a meter).

    >>> format_accounting({"calls": 12, "cache_hits": 3, "retries": 1, "failures": 0, "cost_usd": 0.01234})
    'calls 12, cache hits 3, retries 1, failures 0, $0.0123'
    """
    if totals is None:
        return ""
    count = {k: int(totals.get(k, 0)) for k in ("calls", "cache_hits", "retries", "failures")}
    return (
        f"calls {count['calls']}, cache hits {count['cache_hits']}, retries {count['retries']}, "
        f"failures {count['failures']}, ${float(totals.get('cost_usd', 0.0)):.4f}"
    )


def _elapsed(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class RunProgress:
    """The progress display of one run (module docstring); an :class:`ItemProgress`.

    *mode*: ``"bar"`` (rich, on *console* — default: a console on stderr) or ``"log"`` (plain
    lines on *stream* — default: ``sys.stderr`` at the time of writing — one per *every* items).
    *models*: the models whose accounting is shown.  Use it as a context manager, or call
    :meth:`close` when the run ends; the bar's last state stays on the screen.
    """

    def __init__(
        self,
        mode: ProgressMode,
        *,
        title: str,
        models: Iterable[LLM] = (),
        console: Console | None = None,
        stream: TextIO | None = None,
        every: int = DEFAULT_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if mode not in ("bar", "log"):
            raise InputFormatError(f"mode={mode!r} must be 'bar' or 'log'")
        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise InputFormatError(f"every={every!r} must be a positive integer")
        self.mode: ProgressMode = mode
        self.title = title
        self.models = tuple(models)
        self.every = every
        self._console = console
        self._stream = stream
        self._clock = clock
        self._started = clock()
        self._total = 0
        self._done = 0
        self._begun = False
        self._logged = -1
        self._text = title
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    # ------------------------------------------------------------------ ItemProgress
    def begin(self, total: int, done: int = 0) -> None:
        self._total, self._done, self._begun = total, done, True
        self._started = self._clock()
        if self.mode == "bar":
            self._start_bar()
        else:
            self._log(note=f" ({done} done before)" if done else "")

    def describe(self, text: str) -> None:
        self._text = f"{self.title}: {text}"
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, description=terminal_text(self._text))

    def advance(self, n: int = 1) -> None:
        if n <= 0:
            return
        self._done += n
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self._done)
        elif self.mode == "log" and (self._done - self._logged >= self.every or self._done >= self._total):
            self._log()

    # ------------------------------------------------------------------ the end
    def close(self) -> None:
        """Stop the bar (its last state stays visible); in log mode, write the last state if it was not
        (nothing when the run never began, e.g. it stopped on bad input)."""
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        elif self.mode == "log" and self._begun and self._logged != self._done:
            self._log()

    def __enter__(self) -> RunProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def done(self) -> int:
        """Items finished so far (with those found done when the run began)."""
        return self._done

    def status(self, note: str = "") -> str:
        """The current state as one line (what the log mode writes after its prefix)."""
        line = f"{self._done}/{self._total} items{note}, {_elapsed(self._clock() - self._started)} elapsed"
        acct = format_accounting(meter_totals(self.models))
        return f"{line}; {acct}" if acct else line

    # ------------------------------------------------------------------ helpers
    def _log(self, note: str = "") -> None:
        stream = self._stream if self._stream is not None else sys.stderr
        print(f"causalcheck: {self._text}: {self.status(note)}", file=stream, flush=True)
        self._logged = self._done

    def _start_bar(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            ProgressColumn,
            Task,
            TextColumn,
            TimeElapsedColumn,
        )
        from rich.text import Text

        models = self.models

        class AccountingColumn(ProgressColumn):
            """The model-call accounting, read from the meters at every refresh."""

            def render(self, task: Task) -> Text:
                return Text(format_accounting(meter_totals(models)), style="dim")

        bar = Progress(
            TextColumn("{task.description}", markup=False),  # a model's name is text, not rich markup
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("items"),
            TimeElapsedColumn(),
            AccountingColumn(),
            console=self._console or Console(file=raw_stream(sys.stderr)),  # rich writes its own escapes
            transient=False,
            refresh_per_second=4,
        )
        self._task = bar.add_task(terminal_text(self._text), total=self._total, completed=self._done)
        bar.start()
        self._bar = bar


# ---------------------------------------------------------------------- command-line options
def add_progress_arguments(parser: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--quiet`` (exclusive) and ``--progress-every N``."""
    g = parser.add_argument_group("progress (stderr; never written to files)")
    x = g.add_mutually_exclusive_group()
    x.add_argument("--progress", action="store_true", help="also when stderr is not a terminal: one plain line per N items")
    x.add_argument("--quiet", action="store_true", help="no progress display")
    g.add_argument("--progress-every", type=positive_int, default=DEFAULT_EVERY, metavar="N", help=f"items per line of --progress off a terminal (default {DEFAULT_EVERY})")


def _is_terminal(stream: Any) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (OSError, ValueError):  # a closed or detached stream
        return False


def progress_mode(*, quiet: bool, forced: bool, stream: Any = None) -> ProgressMode | None:
    """``None`` with *quiet*; ``"bar"`` when *stream* (default stderr) is a terminal; else ``"log"``
    when *forced* (``--progress``), else ``None``.

    >>> import io
    >>> progress_mode(quiet=False, forced=False, stream=io.StringIO()), progress_mode(quiet=False, forced=True, stream=io.StringIO())
    (None, 'log')
    """
    if quiet:
        return None
    if _is_terminal(stream if stream is not None else sys.stderr):
        return "bar"
    return "log" if forced else None


def progress_from_args(args: argparse.Namespace, *, title: str, models: Iterable[LLM] = ()) -> RunProgress | None:
    """The display :func:`add_progress_arguments`' options ask for, or ``None``."""
    mode = progress_mode(quiet=bool(getattr(args, "quiet", False)), forced=bool(getattr(args, "progress", False)))
    if mode is None:
        return None
    return RunProgress(mode, title=title, models=models, every=int(getattr(args, "progress_every", DEFAULT_EVERY)))
