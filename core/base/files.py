"""Files causalcheck reads and writes: durable writes, run-folder locks, safe input, provenance.

An evaluation tool is only worth its results, so every result file goes through this module:

* :func:`atomic_write_text` / :func:`atomic_write_bytes` / :func:`atomic_write_json` write a
  temporary file in the destination's folder, ``fsync`` it, ``rename`` it over the
  destination and ``fsync`` the folder: a reader sees the old complete file or the new
  complete file, never a torn one — also on a full disk or after ``kill -9`` (the previous
  result survives a failed write).  A failed write raises :class:`WriteError` naming the file
  (``cannot write results/scores.json: No space left on device``; the command line exits 2).  New files get the usual ``0666 & ~umask`` permissions.
* :func:`append_line` appends one line to a JSON-lines log and ``fsync`` s it (resumable runs
  append one line per finished unit of work).
* :class:`RunLock` holds an exclusive lock on a run folder while it is written; a second
  writer gets :class:`RunLockedError` naming the holder.  The lock is an ``flock`` on
  ``<folder>/.causalcheck.lock``, released by the kernel when the holder exits, however it
  exits — a stale lock file never blocks a later run.
* No write or lock goes through a symbolic link: a result file, log or lock file that is a link
  (dangling or not), a hard link to another file, or not a regular file is refused with an
  :class:`~causalcheck.base.errors.InputFormatError` naming it (the command line exits 2), so a
  link planted in an output folder can neither truncate nor fill a file elsewhere.
* :func:`read_input_bytes` / :func:`read_input_text` read a file given by a user: only
  regular files (a FIFO or ``/dev/zero`` would block or never end), at most a stated size,
  UTF-8 (a BOM is dropped; :func:`decode_input_text` is that check on bytes already read), with an :class:`~causalcheck.base.errors.InputFormatError` naming the
  path and the reason for anything else.
* :class:`Provenance` is the record every run and result file carries: the causalcheck
  version, the command and its options, a timestamp, and the SHA-256 of every input read.
  The timestamp honours ``SOURCE_DATE_EPOCH`` (the reproducible-builds convention), so a
  rerun can be made byte-identical.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> path = atomic_write_text(folder / "result.txt", "complete\\n")
>>> path.read_text()
'complete\\n'
>>> with RunLock(folder, command="causalcheck doc"):
...     pass
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import hashlib
import json
import os
import stat
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.redaction import redact_json
from causalcheck.base.version import __version__

__all__ = [
    "DEFAULT_MAX_INPUT_BYTES",
    "LOCK_NAME",
    "Provenance",
    "RunLock",
    "RunLockedError",
    "SiblingLock",
    "WriteError",
    "append_line",
    "atomic_write_bytes",
    "atomic_write_json",
    "atomic_write_text",
    "could_be_path",
    "csv_numbered_rows",
    "csv_rows",
    "decode_input_text",
    "fsync_folder",
    "read_input_bytes",
    "read_input_text",
    "sha256_bytes",
    "sha256_file",
    "timestamp",
]

#: Largest input file read by default (bytes).  Real inputs are far smaller: the official
#: 220-item WhatIfBench result files are 16–20 MB.
DEFAULT_MAX_INPUT_BYTES = 512 * 1024 * 1024

#: Name of the lock file inside a locked run folder.
LOCK_NAME = ".causalcheck.lock"


class WriteError(CausalCheckError, OSError):
    """A result file could not be written (a full disk, no permission); the message names the file.

    Both a :class:`~causalcheck.base.errors.CausalCheckError` (the command line exits 2 with the
    message, as for every input or file it cannot use) and the :class:`OSError` it wraps (same
    ``errno``, ``strerror``, and ``filename`` = the file being written), so code that catches
    ``OSError`` keeps working.
    """

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"


def _write_error(exc: OSError, path: Path) -> WriteError:
    """*exc* (raised while writing *path*) as a :class:`WriteError` naming *path*."""
    return WriteError(exc.errno, exc.strerror or str(exc), str(path))


#: flags that keep an open from following a symbolic link or blocking on a FIFO (0 where unknown)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def _link_refused(path: Path) -> InputFormatError:
    """The error for an output or lock file that is a symbolic link: causalcheck never writes through one."""
    try:
        target = f" (to {os.readlink(path)!r})"
    except OSError:
        target = ""
    return InputFormatError(
        f"path={str(path)!r} is a symbolic link{target}; causalcheck does not write or lock through a link "
        "in its output: remove the link or write to another folder"
    )


def _refuse_link(path: Path) -> None:
    """Raise :func:`_link_refused` when *path* is a symbolic link (dangling or not)."""
    if path.is_symlink():
        raise _link_refused(path)


def _open_own(path: Path, flags: int) -> int:
    """Open (creating it) the regular file *path* of an output folder, never through a link.

    Refused with an :class:`~causalcheck.base.errors.InputFormatError` naming *path*: a symbolic
    link, anything but a regular file (a FIFO, a device) and a file with another name elsewhere (a
    hard link), since writing there would change a file that is not ours."""
    try:
        fd = os.open(path, flags | os.O_CREAT | _NOFOLLOW, 0o666)  # the umask applies
    except OSError as exc:
        if path.is_symlink():  # ELOOP (Linux), EMLINK (FreeBSD), EFTYPE: the link named, whatever the errno
            raise _link_refused(path) from None
        raise _write_error(exc, path) from exc
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
        os.close(fd)
        what = "a hard link to another file" if stat.S_ISREG(st.st_mode) else "not a regular file"
        raise InputFormatError(
            f"path={str(path)!r} is {what}; causalcheck writes only files of its own in its output: "
            "remove it or write to another folder"
        )
    return fd


class RunLockedError(CausalCheckError):
    """Another process is writing the run folder (the message names it).

    ``holder`` is what the holder wrote into the lock file (``"pid 12, started …, command: …"``),
    ``""`` when it wrote nothing yet; callers that name the holder read it, not the message.
    """

    def __init__(self, message: str, *, holder: str = "") -> None:
        super().__init__(message)
        self.holder = holder


# --------------------------------------------------------------------------- writes


def fsync_folder(folder: Path) -> None:
    """Make a rename in *folder* durable (best effort: not every file system supports it)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: str | Path, data: bytes) -> Path:
    """Replace *path* by *data* atomically and durably (temporary file, fsync, rename).

    The folder is created when missing.  On any failure (a full disk, a signal) the
    temporary file is removed and the previous content of *path*, if any, is untouched.
    """
    out = Path(path)
    _refuse_link(out)  # a rename would replace the link, not follow it; but the link is the user's
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(100):
            tmp = out.parent / f".{out.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
            except FileExistsError:
                continue
            break
        else:  # pragma: no cover - 100 random names all taken
            raise CausalCheckError(f"cannot create a temporary file next to {str(out)!r}")
    except WriteError:
        raise
    except OSError as exc:  # the folder cannot be made or written: name the file we were writing
        raise _write_error(exc, out) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, out)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):  # a full disk: "No space left" names no file
            raise _write_error(exc, out) from exc
        raise
    fsync_folder(out.parent)
    return out


def atomic_write_text(path: str | Path, text: str) -> Path:
    """:func:`atomic_write_bytes` of *text* encoded as UTF-8."""
    return atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | Path, value: Any, *, indent: int | None = 2) -> Path:
    """Write *value* as JSON (UTF-8, ``ensure_ascii=False``, a final newline) atomically.

    ``NaN`` / ``Infinity`` are refused (they are not JSON).
    """
    text = json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)
    return atomic_write_text(path, text + "\n")


def append_line(path: str | Path, line: str) -> None:
    """Append *line* (a newline is added) to *path* and fsync it: a finished unit of work survives a crash."""
    if "\n" in line:
        raise InputFormatError(f"line={line[:60]!r} must not contain a newline")
    p = Path(path)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _write_error(exc, p) from exc
    fd = _open_own(p, os.O_WRONLY | os.O_APPEND)
    try:
        with os.fdopen(fd, "ab") as fh:
            fh.write((line + "\n").encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:  # a full disk: name the log being appended to
        raise _write_error(exc, p) from exc


# --------------------------------------------------------------------------- locks


class RunLock:
    """An exclusive lock on a run folder, held while the folder is written.

    Use as a context manager.  Entering creates the folder if needed and takes an ``flock``
    on ``<folder>/.causalcheck.lock``; when another process holds it, :class:`RunLockedError`
    names that process (its pid, command and start time, which the holder writes into the
    lock file).  The kernel drops the lock when the holder exits, also on ``kill -9``.
    """

    def __init__(self, folder: str | Path, *, command: str = "causalcheck") -> None:
        self.folder = Path(folder)
        self.command = command
        self._fd: int | None = None

    @property
    def path(self) -> Path:
        return self.folder / LOCK_NAME

    def acquire(self) -> None:
        import fcntl

        if self._fd is not None:
            raise CausalCheckError(f"the lock on {str(self.folder)!r} is already held by this object")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise InputFormatError(f"--out {str(self.folder)!r} exists and is not a folder") from None
        fd = _open_own(self.path, os.O_RDWR)  # never a link: the lock file is truncated below
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = ""
            try:
                holder = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip()
            finally:
                os.close(fd)
            shown = f" ({holder})" if holder else ""
            raise RunLockedError(
                f"folder={str(self.folder)!r} is being written by another causalcheck process{shown}; "
                "wait for it to finish or write to another folder",
                holder=holder,
            ) from None
        except BaseException:
            os.close(fd)
            raise
        info = f"pid {os.getpid()}, started {timestamp()}, command: {self.command}"
        os.ftruncate(fd, 0)
        os.pwrite(fd, info.encode("utf-8"), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is None:
            return
        import fcntl

        fd, self._fd = self._fd, None
        with contextlib.suppress(OSError):  # best effort: the holder note is informational
            os.ftruncate(fd, 0)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


# --------------------------------------------------------------------------- reads


class SiblingLock:
    """One writer per output file or folder *path*: a :class:`RunLock` on ``.<name>.lock`` beside it.

    The lock file lives in the parent folder, so it stays one file while the output itself is
    replaced (a report folder swapped, an answer file compacted); a second writer gets
    :class:`RunLockedError` saying "*named* is being written by another causalcheck process
    (holder); *advice*".
    """

    def __init__(self, path: Path, command: str, *, named: str, advice: str) -> None:
        lock_name = f".{path.name}.lock"

        class _Lock(RunLock):
            @property
            def path(self) -> Path:
                return self.folder / lock_name

        self._lock = _Lock(path.parent, command=command)
        self._named, self._advice = named, advice

    def __enter__(self) -> SiblingLock:
        try:
            self._lock.acquire()
        except RunLockedError as exc:
            raise RunLockedError(
                f"{self._named} is being written by another causalcheck process ({exc.holder or 'another process'}); {self._advice}",
                holder=exc.holder,
            ) from None
        return self

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


def read_input_bytes(path: str | Path, *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES, what: str = "input") -> bytes:
    """The bytes of a regular file given by a user, with a clear error for anything else.

    Refuses, with an :class:`~causalcheck.base.errors.InputFormatError` naming *path*: a missing
    path, a folder, anything that is not a regular file (a FIFO, a device such as
    ``/dev/zero``, a socket — reading them would block or never end), a file larger than
    *max_bytes*, and a file that cannot be read.
    """
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise InputFormatError(f"{what} path={str(p)!r} does not exist") from None
    except OSError as exc:
        raise InputFormatError(f"{what} path={str(p)!r} cannot be read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputFormatError(f"{what} path={str(p)!r} is a folder, expected a file")
    if not stat.S_ISREG(st.st_mode):
        raise InputFormatError(
            f"{what} path={str(p)!r} is not a regular file (a pipe, device or socket); "
            "causalcheck reads files only, so that a read can neither block nor run forever"
        )
    if st.st_size > max_bytes:
        raise InputFormatError(f"{what} path={str(p)!r} has {st.st_size} bytes; the limit is {max_bytes}")
    try:
        with p.open("rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise InputFormatError(f"{what} path={str(p)!r} cannot be read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:  # grew while we read it
        raise InputFormatError(f"{what} path={str(p)!r} has more than {max_bytes} bytes; the limit is {max_bytes}")
    return data


def could_be_path(text: str, *, is_file: bool = False) -> bool:
    """Whether the string *text* names an existing path (a regular file with *is_file*).

    A text given where a path or a text is accepted is probed with this: a string that cannot
    be a path (empty, a NUL, a line break, longer than the system allows) is ``False``
    without asking the file system, and any :class:`OSError` from the probe is ``False``
    too — a text is never refused for not being a file name.

    >>> could_be_path("x" * 300), could_be_path("a\\nb"), could_be_path("\\x00")
    (False, False, False)
    >>> import tempfile
    >>> could_be_path(tempfile.gettempdir()), could_be_path(tempfile.gettempdir(), is_file=True)
    (True, False)
    """
    if not text or any(c in text for c in "\x00\n\r") or len(text) > 4096:
        return False
    try:
        st = os.stat(text)
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(st.st_mode) if is_file else True


def csv_rows(text: str, *, source: str, delimiter: str = ",") -> list[list[str]]:
    """The rows of the CSV *text* read from *source*; a text the csv module refuses is an input error.

    Line breaks are read as the csv module documents (``newline=""``): ``\\n``, ``\\r\\n``
    and a lone ``\\r`` end a row, and a quoted field may hold any of them.  A
    :class:`csv.Error` (a field beyond the size limit, ...) becomes an
    :class:`~causalcheck.base.errors.InputFormatError` naming *source* and the line:

    >>> csv_rows("a,b\\r1,2\\n", source="x.csv")
    [['a', 'b'], ['1', '2']]
    >>> csv_rows('a\\n"' + "x" * 200_000 + '"\\n', source="x.csv")
    Traceback (most recent call last):
    causalcheck.base.errors.InputFormatError: x.csv:2: the CSV does not parse: field larger than field limit (131072)
    """
    return [row for _, row in csv_numbered_rows(text, source=source, delimiter=delimiter)]


def csv_numbered_rows(text: str, *, source: str, delimiter: str = ",") -> list[tuple[int, list[str]]]:
    """:func:`csv_rows` with the line each row starts on (1-based; a quoted field may span lines).

    The csv module reads strictly: a quoted field that is never closed (a file cut inside
    quotes) or a closing quote followed by more text is refused, naming the line, never
    read as a field that swallows the rest of the file.

    >>> csv_numbered_rows('a\\n\\n"x\\ny"\\nz\\n', source="x.csv")
    [(1, ['a']), (2, []), (3, ['x\\ny']), (5, ['z'])]
    >>> csv_numbered_rows('a,b\\n"c,d\\n', source="x.csv")
    Traceback (most recent call last):
    causalcheck.base.errors.InputFormatError: x.csv:2: the CSV does not parse: a quoted field in the row from line 2 is never closed (the file ends inside quotes: is it cut short?)
    """
    import csv
    import io

    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    out: list[tuple[int, list[str]]] = []
    start = 1
    try:
        for row in reader:
            out.append((start, row))
            start = reader.line_num + 1
    except csv.Error as exc:
        if str(exc) == "unexpected end of data":  # strict mode: end of text inside a quoted field
            raise InputFormatError(
                f"{source}:{start}: the CSV does not parse: a quoted field in the row from line {start} is never closed "
                "(the file ends inside quotes: is it cut short?)"
            ) from None
        raise InputFormatError(f"{source}:{reader.line_num}: the CSV does not parse: {exc}") from None
    return out


def read_input_text(path: str | Path, *, max_bytes: int = DEFAULT_MAX_INPUT_BYTES, what: str = "input") -> str:
    """:func:`read_input_bytes` decoded as UTF-8 (a BOM is dropped); binary or non-UTF-8 files are refused."""
    return decode_input_text(read_input_bytes(path, max_bytes=max_bytes, what=what), path, what=what)


def decode_input_text(data: bytes, path: str | Path, *, what: str = "input", expected: str = "text") -> str:
    """UTF-8 text of the bytes of the user's file *path* (a BOM is dropped).

    Binary (NUL bytes in the first 8 KiB) or non-UTF-8 bytes are refused with an
    :class:`~causalcheck.base.errors.InputFormatError` naming *what*, *path* and what was *expected*:

    >>> decode_input_text(b"\\xef\\xbb\\xbfhi", "a.txt")
    'hi'
    >>> decode_input_text(b"\\xff", "a.txt", expected="JSON or text")
    Traceback (most recent call last):
    causalcheck.base.errors.InputFormatError: input path='a.txt' is not UTF-8 text (byte 0xff at offset 0); expected JSON or text
    """
    if b"\x00" in data[:8192]:
        raise InputFormatError(f"{what} path={str(path)!r} looks binary (it contains NUL bytes); expected {expected}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFormatError(
            f"{what} path={str(path)!r} is not UTF-8 text (byte {data[exc.start]:#04x} at offset {exc.start}); "
            f"expected {expected}"
        ) from None


def sha256_bytes(data: bytes) -> str:
    """Hex SHA-256 of *data*."""
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str | Path) -> str:
    """Hex SHA-256 of the file at *path* (read in chunks)."""
    h = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# --------------------------------------------------------------------------- provenance


def timestamp() -> str:
    """Now as an ISO-8601 UTC timestamp (``2026-12-01T08:49:02Z``); ``SOURCE_DATE_EPOCH`` overrides it."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        try:
            moment = _dt.datetime.fromtimestamp(int(epoch), tz=_dt.timezone.utc)
        except (ValueError, OverflowError, OSError):
            raise InputFormatError(f"SOURCE_DATE_EPOCH={epoch!r} must be whole seconds since 1970") from None
    else:
        moment = _dt.datetime.now(tz=_dt.timezone.utc)
    return moment.replace(microsecond=0).isoformat().replace("+00:00", "Z")


@dataclass
class Provenance:
    """What produced a result: tool version, command, options, time, and every input read.

    ``inputs`` lists ``{"path", "sha256", "bytes"}`` per file, in the order they were
    added; a file added twice is listed once.  ``to_json()`` is what result files embed
    (under ``"provenance"``).
    """

    command: str
    options: Mapping[str, Any] = field(default_factory=dict)
    started: str = field(default_factory=timestamp)
    inputs: list[dict[str, Any]] = field(default_factory=list)

    def add_input(self, path: str | Path, *, data: bytes | None = None) -> str:
        """Record one input file (hashing *data* when given, else the file); returns its hash."""
        shown = str(path)
        for item in self.inputs:
            if item["path"] == shown:
                return str(item["sha256"])
        if data is None:
            digest = sha256_file(path)
            size = Path(path).stat().st_size
        else:
            digest, size = sha256_bytes(data), len(data)
        self.inputs.append({"path": shown, "sha256": digest, "bytes": size})
        return digest

    def add_inputs(self, paths: Iterable[str | Path]) -> None:
        for p in paths:
            self.add_input(p)

    def to_json(self) -> dict[str, Any]:
        return {
            "tool": "causalcheck",
            "version": __version__,
            "command": self.command,
            "options": redact_json(dict(self.options)),  # no URL credentials in any result file
            "started": self.started,
            "inputs": [dict(i) for i in self.inputs],
        }
