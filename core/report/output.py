"""Writing a report: one locked, atomic unit — the complete old report or the complete new one.

``report --out FILE`` (HTML) is one file, replaced atomically
(:func:`causalcheck.base.files.atomic_write_text`).  ``report --format md --out DIR`` is
``report.md`` plus its figures ``fig-NNN.png``: several files that belong together, so they
are replaced together.  :func:`write_report_folder`

1. checks that ``DIR`` holds nothing but a report's files (``report.md``, ``fig-NNN.png``):
   a folder holding anything else (results, notes — files this command did not write) is
   refused with an :class:`~causalcheck.base.errors.InputFormatError` naming them, never
   emptied;
2. writes every file into a staging folder beside ``DIR`` (``.DIR.tmp-<pid>-<hex>``, the same
   file system), ``fsync`` s each file and the folder;
3. swaps the staging folder and ``DIR`` in one ``renameat2(RENAME_EXCHANGE)`` (Linux; where
   the file system or C library lacks it: ``DIR`` → ``.DIR.old-<pid>-<hex>``, staging → ``DIR``),
   ``fsync`` s the parent folder, and removes the previous report.

A reader therefore sees the previous report whole or the new one whole, and no figure of an
older, longer report survives the swap.  A failure before the swap (a full disk, a crash)
leaves ``DIR`` untouched; the staging folder is removed, or — after ``kill -9`` — by the next
run, which also puts back a previous report left in ``.DIR.old-…`` by a crash between the
two renames of the fallback.

Every ``--out`` is locked while it is written (:class:`OutputLock`, a
:class:`causalcheck.base.files.RunLock` on ``.<name>.lock`` beside the output, so the lock
survives the swap): a second ``report`` on the same ``--out`` fails with
:class:`~causalcheck.base.files.RunLockedError` naming the holder (exit 2).
"""

from __future__ import annotations

import errno
import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.files import SiblingLock, fsync_folder

__all__ = ["OutputLock", "is_report_file", "write_report_folder"]

_OURS = re.compile(r"report\.md|fig-\d+\.png|\.(?:report\.md|fig-\d+\.png)\.\d+\.[0-9a-f]+\.tmp")
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_SHOWN = 5


def is_report_file(name: str) -> bool:
    """Whether a file named *name* in a Markdown report folder is one ``report`` writes.

    ``report.md``, the figures ``fig-NNN.png`` and temporary files an interrupted write of
    an earlier version left behind:

    >>> [is_report_file(n) for n in ("report.md", "fig-007.png", "scores.json", "notes.md")]
    [True, True, False, False]
    """
    return _OURS.fullmatch(name) is not None


class OutputLock(SiblingLock):
    """One writer per ``--out``: a :class:`~causalcheck.base.files.SiblingLock` (``.<name>.lock`` beside it, so it stays
    one file while a Markdown report folder is swapped); a second writer's error names ``--out`` and the holder."""

    def __init__(self, target: str | Path, command: str) -> None:
        self.target = _absolute(Path(target))
        super().__init__(self.target, command, named=f"--out {str(self.target)!r}", advice="wait for it to finish or write to another --out")


def _absolute(path: Path) -> Path:
    """*path* made absolute without resolving symbolic links (``.`` and ``..`` folded)."""
    return Path(os.path.normpath(os.path.abspath(path)))


def _foreign(folder: Path) -> list[str]:
    """Names in *folder* that a report does not write (sorted)."""
    return sorted(p.name for p in folder.iterdir() if not (is_report_file(p.name) and p.is_file() and not p.is_symlink()))


def _refuse_foreign(target: Path) -> None:
    if target.is_symlink():
        raise InputFormatError(f"--out {str(target)!r} is a symbolic link; a Markdown report replaces its folder whole, "
                               "so name the folder itself")
    if target.exists() and not target.is_dir():
        raise InputFormatError(f"--out {str(target)!r} exists and is not a folder; a Markdown report is a folder")
    cwd = _absolute(Path.cwd())
    if target == cwd or target in cwd.parents or target.parent == target:
        raise InputFormatError(f"--out {str(target)!r} is the current folder or above it; name a folder for the report")
    if not target.exists():
        return
    foreign = _foreign(target)
    if foreign:
        shown = ", ".join(repr(n) for n in foreign[:_SHOWN]) + (f" and {len(foreign) - _SHOWN} more" if len(foreign) > _SHOWN else "")
        raise InputFormatError(
            f"--out {str(target)!r} holds files a report does not write ({shown}); a Markdown report replaces its "
            "whole folder, so it is written only to a new folder or one holding a report (report.md, fig-NNN.png)"
        )


def _stale(target: Path) -> list[Path]:
    """Staging and previous-report folders of *target* left by an interrupted run (newest last)."""
    pattern = re.compile(re.escape(f".{target.name}.") + r"(tmp|old)-\d+-[0-9a-f]+")
    found = [p for p in target.parent.iterdir() if pattern.fullmatch(p.name) and p.is_dir() and not p.is_symlink()]
    return sorted(found, key=lambda p: p.stat().st_mtime_ns)


def _recover(target: Path) -> None:
    """Under the lock: put back a previous report a crash left aside, remove stale staging folders."""
    stale = _stale(target)
    if not target.exists():
        old = [p for p in stale if ".old-" in p.name and not _foreign(p)]
        if old:
            os.rename(old[-1], target)
            stale.remove(old[-1])
    for p in stale:
        if not _foreign(p):  # only folders holding nothing but report files are ours to remove
            shutil.rmtree(p, ignore_errors=True)


def _write_file(path: Path, data: bytes) -> None:
    """Write one new file of the staging folder and fsync it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def _exchange(a: Path, b: Path) -> bool:
    """Swap the folders *a* and *b* atomically (``renameat2(RENAME_EXCHANGE)``); False when unsupported."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _swap(staging: Path, target: Path) -> Path:
    """Put *staging* at *target*; returns the folder now holding the previous report (to remove)."""
    if not target.exists():
        os.rename(staging, target)
        return staging  # no longer exists: nothing to remove
    if _exchange(staging, target):
        return staging
    old = target.parent / f".{target.name}.old-{os.getpid()}-{os.urandom(4).hex()}"
    os.rename(target, old)
    try:
        os.rename(staging, target)
    except BaseException:
        os.rename(old, target)
        raise
    return old


def write_report_folder(target: str | Path, files: Sequence[tuple[str, bytes]]) -> tuple[Path, ...]:
    """Replace the report folder *target* by *files* (``(name, bytes)``) as one unit (module docstring).

    The caller holds :class:`OutputLock` on *target*.  Returns the paths written, in order.
    A write that fails (a full disk) raises :class:`~causalcheck.base.errors.CausalCheckError`
    naming the file and saying that the previous report is unchanged.
    """
    out = _absolute(Path(target))
    given = Path(target)
    _refuse_foreign(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    _recover(out)
    _refuse_foreign(out)  # a report put back by _recover is checked too
    staging = out.parent / f".{out.name}.tmp-{os.getpid()}-{os.urandom(4).hex()}"
    os.mkdir(staging)
    try:
        for name, data in files:
            if not is_report_file(name):
                raise CausalCheckError(f"report file name={name!r} is not one a report writes (a bug)")
            try:
                _write_file(staging / name, data)
            except OSError as exc:
                raise CausalCheckError(
                    f"--out {str(given)!r}: cannot write {name}: {exc.strerror or exc}; the previous report is unchanged"
                ) from None
        fsync_folder(staging)
        previous = _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    fsync_folder(out.parent)
    if previous.exists():
        shutil.rmtree(previous, ignore_errors=True)
    return tuple(given / name for name, _ in files)
