"""Durable writes, run-folder locks, safe input reading and provenance (causalcheck.base.files)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import (
    LOCK_NAME,
    Provenance,
    RunLock,
    RunLockedError,
    append_line,
    atomic_write_json,
    atomic_write_text,
    csv_rows,
    read_input_bytes,
    read_input_text,
    sha256_bytes,
    timestamp,
)


def test_atomic_write_replaces_the_file_and_leaves_no_temporary(tmp_path):
    """The destination holds the new text and no temporary file is left behind."""
    p = tmp_path / "sub" / "r.json"
    atomic_write_text(p, "old\n")
    atomic_write_json(p, {"a": 1})
    assert p.read_text() == '{\n  "a": 1\n}\n'
    assert [x.name for x in p.parent.iterdir()] == ["r.json"]


def test_a_failed_write_keeps_the_previous_complete_file(tmp_path, disk_full):
    """A full disk during fsync leaves the old content intact and removes the temporary file."""
    p = tmp_path / "r.txt"
    atomic_write_text(p, "complete result\n")
    disk_full(everything=True)
    with pytest.raises(OSError):
        atomic_write_text(p, "new partial result\n")
    assert p.read_text() == "complete result\n"
    assert [x.name for x in tmp_path.iterdir()] == ["r.txt"]


def test_new_files_follow_the_umask(tmp_path):
    """Result files get 0666 & ~umask (0644 under umask 022), not mkstemp's 0600."""
    old = os.umask(0o022)
    try:
        p = atomic_write_text(tmp_path / "r.txt", "x")
    finally:
        os.umask(old)
    assert p.stat().st_mode & 0o777 == 0o644


def test_json_refuses_nan(tmp_path):
    """NaN is not JSON: refused before anything is written."""
    with pytest.raises(ValueError):
        atomic_write_json(tmp_path / "r.json", {"x": float("nan")})
    assert not (tmp_path / "r.json").exists()


def test_append_line_appends_and_refuses_newlines(tmp_path):
    """Each call adds exactly one line; a value with a newline would corrupt the log."""
    p = tmp_path / "log.jsonl"
    append_line(p, '{"a": 1}')
    append_line(p, '{"a": 2}')
    assert p.read_text().splitlines() == ['{"a": 1}', '{"a": 2}']
    with pytest.raises(InputFormatError):
        append_line(p, "a\nb")


_HOLDER = """
import sys, time
from causalcheck.base.files import RunLock
with RunLock(sys.argv[1], command="holder test"):
    print("locked", flush=True)
    time.sleep(60)
"""


def _start_holder(folder):
    proc = subprocess.Popen([sys.executable, "-c", _HOLDER, str(folder)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "locked"
    return proc


def test_a_second_writer_is_refused_and_told_who_holds_the_lock(tmp_path):
    """While another process holds the folder, RunLock raises and names the holder."""
    proc = _start_holder(tmp_path)
    try:
        with pytest.raises(RunLockedError) as info, RunLock(tmp_path):
            pass
        assert f"pid {proc.pid}" in str(info.value) and "holder test" in str(info.value)
    finally:
        proc.kill()
        proc.communicate()


def test_the_lock_error_carries_its_holder_as_a_value(tmp_path):
    """RunLockedError.holder is the holder's own note, also when the folder name holds ' (' and the command ');'."""
    folder = tmp_path / "runs (copy); b"
    proc = subprocess.Popen([sys.executable, "-c", _HOLDER.replace("holder test", "holder (x); y"), str(folder)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
        with pytest.raises(RunLockedError) as info, RunLock(folder):
            pass
        assert info.value.holder.startswith(f"pid {proc.pid}, started ") and info.value.holder.endswith("command: holder (x); y")
        assert f"process ({info.value.holder}); wait" in str(info.value)
    finally:
        proc.kill()
        proc.communicate()


def test_the_lock_dies_with_its_holder(tmp_path):
    """After kill -9 of the holder the folder can be locked again (no stale lock)."""
    proc = _start_holder(tmp_path)
    os.kill(proc.pid, signal.SIGKILL)
    proc.communicate()
    assert (tmp_path / LOCK_NAME).exists()
    with RunLock(tmp_path):
        pass


def test_lock_on_a_path_that_is_a_file(tmp_path):
    """--out naming an existing file is bad input, not an internal error."""
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(InputFormatError), RunLock(f):
        pass


def test_reading_refuses_fifos_and_devices(tmp_path):
    """A FIFO and /dev/zero are refused at once instead of blocking or reading forever."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(InputFormatError, match="not a regular file"):
        read_input_bytes(fifo)
    with pytest.raises(InputFormatError, match="not a regular file"):
        read_input_bytes("/dev/zero")
    assert time.monotonic() - start < 5


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"a\x00b", "binary"), (b"\xff\xfe\xfa", "not UTF-8"), (b"x" * 101, "limit is 100")],
)
def test_reading_names_the_problem(tmp_path, content, message):
    """Binary, non-UTF-8 and oversized files give a message naming the path and the reason."""
    p = tmp_path / "in.json"
    p.write_bytes(content)
    with pytest.raises(InputFormatError, match=message) as info:
        read_input_text(p, max_bytes=100)
    assert str(p) in str(info.value)


def test_reading_missing_paths_and_folders(tmp_path):
    """A missing path and a folder are named in the error."""
    with pytest.raises(InputFormatError, match="does not exist"):
        read_input_text(tmp_path / "nope")
    with pytest.raises(InputFormatError, match="is a folder"):
        read_input_text(tmp_path)


def test_reading_drops_a_bom(tmp_path):
    """A UTF-8 byte-order mark is not part of the text."""
    p = tmp_path / "bom.txt"
    p.write_bytes("\ufeff{}".encode())
    assert read_input_text(p) == "{}"


def test_provenance_records_inputs_once_with_hashes(tmp_path, monkeypatch):
    """Inputs are listed once each with their SHA-256; SOURCE_DATE_EPOCH fixes the time."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    p = tmp_path / "a.txt"
    p.write_bytes(b"abc")
    prov = Provenance("causalcheck test", {"x": 1})
    prov.add_input(p)
    prov.add_input(p)
    doc = prov.to_json()
    assert doc["started"] == "1970-01-01T00:00:00Z" == timestamp()
    assert doc["inputs"] == [{"path": str(p), "sha256": sha256_bytes(b"abc"), "bytes": 3}]
    assert doc["tool"] == "causalcheck" and doc["version"] and doc["options"] == {"x": 1}


def test_bad_source_date_epoch_is_input_error(monkeypatch):
    """A malformed SOURCE_DATE_EPOCH is reported, not a crash."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(InputFormatError, match="SOURCE_DATE_EPOCH"):
        timestamp()


def test_csv_cut_inside_a_quoted_field_is_refused_naming_the_line():
    """A CSV that ends inside quotes (a truncated file) or has text after a closing quote is an input error with its line."""
    with pytest.raises(InputFormatError, match=r"x\.csv:3: .*quoted field in the row from line 3 is never closed"):
        csv_rows('a,b\n1,2\n"3,4\n5,6\n', source="x.csv")
    with pytest.raises(InputFormatError, match=r"x\.csv:2: .*',' expected after '\"'"):
        csv_rows('a,b\n"1"2,3\n', source="x.csv")
    assert csv_rows('a,b\n"1\n2",3\n', source="x.csv") == [["a", "b"], ["1\n2", "3"]]


def test_a_full_disk_names_the_file_being_written(tmp_path, monkeypatch, capsys):
    """ENOSPC during an atomic write or an append is a WriteError naming the file (still an OSError); the CLI exits 2 with it."""
    import errno

    from causalcheck.base.files import WriteError
    from causalcheck.cli import main

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    (tmp_path / "old.json").write_text("{}\n")
    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(WriteError, match=r"cannot write .*old\.json: No space left on device") as info:
        atomic_write_text(tmp_path / "old.json", "new")
    assert isinstance(info.value, OSError) and info.value.errno == errno.ENOSPC
    assert (tmp_path / "old.json").read_text() == "{}\n" and [p.name for p in tmp_path.iterdir()] == ["old.json"]
    with pytest.raises(WriteError, match=r"log\.jsonl: No space left"):
        append_line(tmp_path / "log.jsonl", "{}")
    out = tmp_path / "scores"
    code = main(["lab", "generate", "--nodes", "3", "--count", "2", "--seed", "0", "--out", str(out / "suite.jsonl")])
    assert code == 2 and "suite.jsonl: No space left on device" in capsys.readouterr().err


# --------------------------------------------------------------------------- links in an output folder


def _users_file(tmp_path):
    """A file of the user's, outside any output folder, that no command may change."""
    precious = tmp_path / "users" / "thesis.tex"
    precious.parent.mkdir()
    precious.write_text("years of work\n")
    return precious


def test_a_lock_file_that_is_a_link_is_refused_and_its_target_untouched(tmp_path):
    """A `.causalcheck.lock` symlink to a user's file: exit-2 error naming the link; the file keeps its bytes."""
    precious = _users_file(tmp_path)
    out = tmp_path / "run"
    out.mkdir()
    (out / LOCK_NAME).symlink_to(precious)
    with pytest.raises(InputFormatError, match=r"\.causalcheck\.lock.* is a symbolic link .*thesis\.tex"):
        RunLock(out).acquire()
    assert precious.read_text() == "years of work\n"


def test_a_sibling_lock_that_is_a_dangling_link_creates_nothing(tmp_path):
    """`.<name>.lock` beside a report, dangling: refused, and no file appears where it points."""
    from causalcheck.base.files import SiblingLock

    target = tmp_path / "elsewhere" / "created.txt"
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / ".report.lock").symlink_to(target)
    with pytest.raises(InputFormatError, match="is a symbolic link"):
        SiblingLock(tmp_path / "report", "causalcheck report", named="report", advice="wait").__enter__()
    assert not target.exists()


@pytest.mark.parametrize("kind", ["hard link", "fifo"])
def test_a_lock_file_that_is_not_our_own_regular_file_is_refused(tmp_path, kind):
    """A hard link to a user's file would be truncated, a FIFO would block: both refused, naming the path."""
    precious = _users_file(tmp_path)
    out = tmp_path / "run"
    out.mkdir()
    if kind == "hard link":
        os.link(precious, out / LOCK_NAME)
        expected = "hard link to another file"
    else:
        os.mkfifo(out / LOCK_NAME)
        expected = "not a regular file"
    with pytest.raises(InputFormatError, match=expected):
        RunLock(out).acquire()
    assert precious.read_text() == "years of work\n"


def test_results_and_logs_are_never_written_through_a_link(tmp_path):
    """atomic writes and appended logs refuse a link (dangling or not) and leave both ends as they were."""
    precious = _users_file(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "scores.json").symlink_to(precious)
    (out / "log.jsonl").symlink_to(tmp_path / "users" / "new.jsonl")  # dangling
    with pytest.raises(InputFormatError, match=r"scores\.json.* is a symbolic link"):
        atomic_write_json(out / "scores.json", {"a": 1})
    with pytest.raises(InputFormatError, match=r"log\.jsonl.* is a symbolic link"):
        append_line(out / "log.jsonl", "{}")
    assert precious.read_text() == "years of work\n"
    assert (out / "scores.json").is_symlink() and not (tmp_path / "users" / "new.jsonl").exists()
    assert sorted(p.name for p in out.iterdir()) == ["log.jsonl", "scores.json"]  # no temporary left


def test_provenance_records_urls_without_their_credentials():
    """A base URL with user info or a key in its query is recorded with both redacted."""
    prov = Provenance("causalcheck lab run", options={"agent_options": {"base_url": "http://me:PASS123@h:80/v1?api-key=KEY99&x=1"}})
    shown = str(prov.to_json())
    assert "PASS123" not in shown and "KEY99" not in shown
    assert "http://[REDACTED]@h:80/v1?api-key=[REDACTED]&x=1" in shown
