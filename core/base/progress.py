"""The one progress display of long commands: units done out of the total, on stderr.

``lab run``, ``lab score``, ``explain score``, ``explain answer`` and ``explain rubrics`` show how far
they are with a :class:`RunProgress`, in one of two forms:

* ``"bar"`` — a live `rich <https://rich.readthedocs.io>`_ progress bar on stderr (a terminal):
  description, bar, ``done/total`` units, elapsed time and an optional *extra* column (the explain
  commands' model-call accounting), re-read at every refresh (4 per second).  Log lines written
  meanwhile appear above the bar.
* ``"log"`` — plain lines on stderr, for logs and CI: one when the run begins, one per *every*
  units and/or at most every *every_seconds*, and one at the last unit::

      causalcheck: explain score: 10/36 items, 0:00:42 elapsed; calls 130, cache hits 2, retries 3, failures 0, $0.0412

:func:`progress_mode` decides the form from the command-line options (:func:`add_progress_arguments`):
``--quiet`` shows nothing; a terminal on stderr gets the bar; off a terminal nothing is shown unless
``--progress`` asks for the lines (``lab run`` writes them unasked).  Progress never goes into a
result file.  Run drivers report to any :class:`ItemProgress` (``begin`` / ``describe`` / ``advance``):

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
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, Protocol, TextIO

from causalcheck.base.cmdline import positive_int
from causalcheck.base.errors import InputFormatError
from causalcheck.base.escape import raw_stream, terminal_text

if TYPE_CHECKING:  # pragma: no cover
    from rich.console import Console
    from rich.progress import Progress, TaskID

__all__ = ["DEFAULT_EVERY", "ItemProgress", "ProgressMode", "RunProgress", "add_progress_arguments", "progress_mode"]

ProgressMode = Literal["bar", "log"]

#: Units between two log lines of ``--progress`` when stderr is not a terminal.
DEFAULT_EVERY = 10


class ItemProgress(Protocol):
    """What a run driver reports: the total once, a description per phase, each finished unit."""

    def begin(self, total: int, done: int = 0) -> None:
        """The run has *total* units, *done* of them finished before it started."""

    def describe(self, text: str) -> None:
        """What is being done now (e.g. ``scoring demo-strong``)."""

    def advance(self, n: int = 1) -> None:
        """*n* more units are finished (answered, scored, failed or found done)."""


def _elapsed(seconds: float) -> str:
    s = max(0, int(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


class RunProgress:
    """The progress display of one run (module docstring); an :class:`ItemProgress`.

    *mode*: ``"bar"`` (rich, on *console* — default: a console on stderr) or ``"log"`` (plain lines
    on *stream* — default: ``sys.stderr`` at the time of writing).  *unit*: what is counted
    (``items``, ``episodes``).  A log line is written every *every* units (``None``: not by count)
    and when *every_seconds* have passed since the last one (``None``: not by time).  *extra*: a
    text re-read at every line or refresh (``""``: nothing).  Use it as a context manager, or call
    :meth:`close` when the run ends; the bar's last state stays on the screen.
    """

    def __init__(
        self,
        mode: ProgressMode,
        *,
        title: str,
        unit: str = "items",
        every: int | None = DEFAULT_EVERY,
        every_seconds: float | None = None,
        extra: Callable[[], str] | None = None,
        console: Console | None = None,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if mode not in ("bar", "log"):
            raise InputFormatError(f"mode={mode!r} must be 'bar' or 'log'")
        if every is not None and (isinstance(every, bool) or not isinstance(every, int) or every < 1):
            raise InputFormatError(f"every={every!r} must be a positive integer")
        if every_seconds is not None and not every_seconds >= 0:
            raise InputFormatError(f"every_seconds={every_seconds!r} must be a number of seconds >= 0")
        self.mode: ProgressMode = mode
        self.title = title
        self.unit = unit
        self.every = every
        self.every_seconds = every_seconds
        self._extra = extra
        self._console = console
        self._stream = stream
        self._clock = clock
        self._started = clock()
        self._last_line = self._started
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
        elif self.mode == "log" and self._due():
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
        """Units finished so far (with those found done when the run began)."""
        return self._done

    def status(self, note: str = "") -> str:
        """The current state as one line (what the log mode writes after its prefix)."""
        line = f"{self._done}/{self._total} {self.unit}{note}, {_elapsed(self._clock() - self._started)} elapsed"
        extra = self._extra() if self._extra is not None else ""
        return f"{line}; {extra}" if extra else line

    # ------------------------------------------------------------------ helpers
    def _due(self) -> bool:
        if self._done >= self._total:
            return True
        if self.every is not None and self._done - self._logged >= self.every:
            return True
        return self.every_seconds is not None and self._clock() - self._last_line >= self.every_seconds

    def _log(self, note: str = "") -> None:
        stream = self._stream if self._stream is not None else sys.stderr
        print(f"causalcheck: {self._text}: {self.status(note)}", file=stream, flush=True)
        self._logged = self._done
        self._last_line = self._clock()

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

        extra = self._extra

        class ExtraColumn(ProgressColumn):
            """The run's extra text (the explain commands' model-call accounting), read at every refresh."""

            def render(self, task: Task) -> Text:
                return Text(extra() if extra is not None else "", style="dim")

        bar = Progress(
            TextColumn("{task.description}", markup=False),  # a model's name is text, not rich markup
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(self.unit),
            TimeElapsedColumn(),
            ExtraColumn(),
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
