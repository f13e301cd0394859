"""The exception tree of causalcheck.

Every error that causalcheck raises on purpose derives from :class:`CausalCheckError`, so a
caller can catch one class.  Errors about text that could not be parsed also derive from
:class:`ValueError` (the builtin a Python user expects for bad input) and carry the location,
the tokens that would have been valid and a caret snippet, in the manner of lark's
``UnexpectedInput.get_context``.

Problems that do not stop a reading — a repair of the tolerant record parser, a sign that
steps were removed from a run — are :class:`Notice` values: their text, with a stable code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, final

__all__ = [
    "EXTRAS",
    "BudgetExceededError",
    "CausalCheckError",
    "DSLSyntaxError",
    "InputFormatError",
    "MissingExtraError",
    "Notice",
    "WorkerDied",
    "caret_snippet",
    "did_you_mean",
    "has_package",
    "install_hint",
    "keyword_hint",
    "missing_extra",
    "require_extra",
]


class CausalCheckError(Exception):
    """Root of every exception raised on purpose by causalcheck."""


class InputFormatError(CausalCheckError, ValueError):
    """A file or value has the wrong shape (missing key, wrong type, unreadable file)."""


class MissingExtraError(InputFormatError, ImportError):
    """An optional dependency is not installed (the message says how to install it): the one error for
    every missing extra, made by :func:`missing_extra`.  An :class:`ImportError` for code that imports
    an optional module, and an input error (exit 2 at the command line) for code that reads inputs."""


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``" (did you mean 'Z'?)"`` when one of *known* is *name* in another letter case or a close
    spelling of it (:func:`difflib.get_close_matches`, ratio ≥ 0.8), else ``""``: the one hint for a
    name that is not found, wherever names are matched.

    >>> did_you_mean("z", ["Z", "y"]), did_you_mean("presure", ["pressure", "radiation"]), did_you_mean("q", ["x"])
    (" (did you mean 'Z'?)", " (did you mean 'pressure'?)", '')
    """
    import difflib

    names = [k for k in known if isinstance(k, str)]
    folded = {k.casefold(): k for k in names}
    match = folded.get(name.casefold())
    if match is None or match == name:
        close = difflib.get_close_matches(name, names, n=1, cutoff=0.8)
        match = close[0] if close and close[0] != name else None
    return f" (did you mean {match!r}?)" if match is not None else ""


def keyword_hint(keyword: str, value: Any) -> str:
    """The one phrase a message uses to name an option by its Python keyword: ``pass keyword=value``.

    At the command line :func:`causalcheck.base.cmdline.command_line_text` rewrites the phrase to
    the flag that sets that keyword (``pass nan='drop'`` → ``use --drop-nan``), so a message is
    written once and reads right in both places.

    >>> keyword_hint("nan", "drop")
    "pass nan='drop'"
    """
    return f"pass {keyword}={value!r}"


class WorkerDied(CausalCheckError):
    """A worker process ended without an answer — killed, out of memory, a crash in native code —
    the one type for it: the answer an executor gives for such a job
    (:func:`causalcheck.base.pool.completed`, the Ray executor) and the error raised where a caller
    needs that answer (``lab run``, :func:`causalcheck.base.interrupt.interruptible`).  ``exitcode``
    is the process's (negative: the signal that ended it), ``detail`` what the executor knows beyond it."""

    def __init__(self, message: str = "", *, exitcode: int | None = None, detail: str = "") -> None:
        self.exitcode, self.detail = exitcode, detail
        super().__init__(message or f"the worker process ended without an answer ({self.how})")

    @property
    def how(self) -> str:
        """``exit code 3``, ``exit code -9 (SIGKILL)``, or the executor's *detail*."""
        if self.detail:
            return self.detail
        if self.exitcode is not None and self.exitcode < 0:
            import signal

            try:
                return f"exit code {self.exitcode} ({signal.Signals(-self.exitcode).name})"
            except ValueError:
                pass
        return f"exit code {self.exitcode}"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and (self.args, self.exitcode, self.detail) == (other.args, other.exitcode, other.detail)

    def __hash__(self) -> int:
        return hash((self.args, self.exitcode, self.detail))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_worker_died, (str(self), self.exitcode, self.detail))


def _worker_died(message: str, exitcode: int | None, detail: str) -> WorkerDied:
    return WorkerDied(message, exitcode=exitcode, detail=detail)


#: The extra of causalcheck that installs each optional package: the one table the install hints come from.
EXTRAS: Mapping[str, str] = MappingProxyType({
    "hypothesis": "testing",
    "inspect_ai": "inspect",
    "zipfile_zstd": "inspect",
    "gymnasium": "rl",
    "verifiers": "verifiers",
    "ray": "ray",
    "openai": "llm",
    "anthropic": "llm",
    "matplotlib": "plot",
})


def install_hint(package: str) -> str:
    """The command that installs *package*: its causalcheck extra, else the package itself.

    >>> install_hint("gymnasium"), install_hint("lingam")
    ("pip install 'causalcheck[rl]'", 'pip install lingam')
    """
    extra = EXTRAS.get(package)
    return f"pip install 'causalcheck[{extra}]'" if extra else f"pip install {package}"


def has_package(package: str) -> bool:
    """True when the optional *package* can be imported (a broken install or a ``None`` in
    ``sys.modules`` counts as missing)."""
    import importlib
    import importlib.util

    try:
        if importlib.util.find_spec(package) is None:
            return False
        importlib.import_module(package)
    except (ImportError, ValueError):
        return False
    return True


def require_extra(what: str, package: str) -> None:
    """Raise :func:`missing_extra` for *what* unless the optional *package* can be imported."""
    if not has_package(package):
        raise missing_extra(what, package)


def missing_extra(what: str, package: str, *, requirement: str | None = None) -> MissingExtraError:
    """The error for *what* (a module, an option, a model) needing the optional *package*.

    >>> print(missing_extra("causalcheck.rl.env", "gymnasium"))
    causalcheck.rl.env needs gymnasium, which is not installed: pip install 'causalcheck[rl]'
    """
    return MissingExtraError(f"{what} needs {requirement or package}, which is not installed: {install_hint(package)}")


class BudgetExceededError(CausalCheckError):
    """An action was requested after its budget was spent (API use; episodes refuse instead)."""


@final
class Notice(str):
    """A warning: its text (the ``str`` itself) and a stable ``code``; immutable.

    ``StepRecord.warnings`` (the parser's repairs) and ``Episode.warnings`` (what the readers
    could not read) hold notices.  A notice *is* its text, so printing, joining, sorting and
    JSON output show exactly the message, and callers that treat warnings as strings keep
    working; code that decides something reads :attr:`code` (and :attr:`field`), never the
    wording, which may change.  ``field`` is the part of the input the notice is about (for a
    record's repairs ``"hypothesis"``, ``"past_data"``, ``"experiment"``, ``"action"``,
    ``"memory"``, ``"thought"``), ``""`` when it is about the whole.  Text derived from a
    notice (``f"step 3: {notice}"``) is a plain string: wrap it in a new notice to keep a code.

    >>> n = Notice("past_data=None read as []", "past-data-null", "past_data")
    >>> n == "past_data=None read as []", n.code, n.field, str(n).upper()
    (True, 'past-data-null', 'past_data', 'PAST_DATA=NONE READ AS []')
    """

    code: str
    field: str

    def __new__(cls, text: str, code: str, field: str = "") -> Notice:
        self = str.__new__(cls, text)
        attributes = self.__dict__  # set past __setattr__, which refuses every change
        attributes["code"] = code
        attributes["field"] = field
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Notice is immutable: cannot set {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Notice, (str(self), self.code, self.field))


def caret_snippet(text: str, line: int, column: int, span: int = 40) -> str:
    """Return the offending line of *text* (trimmed to ``2*span`` characters) with a caret under *column*.

    *line* and *column* are 1-based, as in lark.

    >>> print(caret_snippet("a -> b\\nb => c", 2, 3))
    b => c
      ^
    """
    lines = text.splitlines() or [""]
    if line < 1 or line > len(lines):
        return ""
    src = lines[line - 1].expandtabs(1)
    col = max(column - 1, 0)
    start = max(col - span, 0)
    end = min(col + span, len(src))
    prefix = "..." if start > 0 else ""
    suffix = "..." if end < len(src) else ""
    shown = prefix + src[start:end] + suffix
    caret = " " * (len(prefix) + col - start) + "^"
    return f"{shown}\n{caret}"


class DSLSyntaxError(CausalCheckError, ValueError):
    """Text that does not follow one of causalcheck's grammars.

    Attributes:
        line, column: 1-based position of the first offending character.
        expected: the token names (or literal strings) that would have been accepted there.
        snippet: the offending line with a caret under the position.
        source: a file name or a short description of where the text came from.
    """

    def __init__(
        self,
        message: str,
        *,
        text: str = "",
        line: int = 1,
        column: int = 1,
        expected: Sequence[str] = (),
        source: str = "<string>",
        label: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.expected = tuple(sorted(set(expected)))
        self.source = source
        self.label = label
        self.snippet = caret_snippet(text, line, column) if text else ""
        super().__init__(self._render())

    def _render(self) -> str:
        head = f"{self.source}:{self.line}:{self.column}: {self.message}"
        if self.label:
            head += f" ({self.label})"
        parts = [head]
        if self.expected:
            shown = ", ".join(self.expected[:12])
            more = f" (+{len(self.expected) - 12} more)" if len(self.expected) > 12 else ""
            parts.append(f"expected one of: {shown}{more}")
        if self.snippet:
            parts.append(self.snippet)
        return "\n".join(parts)
