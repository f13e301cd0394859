"""causalcheck.report.output: a report is one locked, atomic unit (the whole old report or the whole new one)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.cli import main
from causalcheck.report import output
from causalcheck.report.output import OutputLock, write_report_folder


def _report(tag: str, figures: int) -> list[tuple[str, bytes]]:
    return [("report.md", f"# {tag}\n".encode()), *((f"fig-{i:03d}.png", f"{tag} figure {i}".encode()) for i in range(1, figures + 1))]


def _content(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _siblings(folder: Path) -> list[str]:
    """Everything beside the report folder but the lock file."""
    return sorted(p.name for p in folder.parent.iterdir() if p != folder and not p.name.endswith(".lock"))


def test_a_full_disk_after_any_number_of_files_leaves_the_old_report_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ENOSPC after k files, for every k: the previous report is byte-identical and complete, no staging left."""
    out = tmp_path / "report"
    write_report_folder(out, _report("old", 5))
    before = _content(out)
    new = _report("new", 8)
    real = output._write_file
    for k in range(len(new)):
        calls = {"n": 0}

        def failing(path: Path, data: bytes, calls: dict[str, int] = calls, k: int = k) -> None:
            if calls["n"] == k:
                raise OSError(errno.ENOSPC, "No space left on device", str(path))
            calls["n"] += 1
            real(path, data)

        monkeypatch.setattr(output, "_write_file", failing)
        with pytest.raises(CausalCheckError, match=r"cannot write .*No space left on device; the previous report is unchanged"):
            write_report_folder(out, new)
        assert _content(out) == before, k
        assert _siblings(out) == [], k
    monkeypatch.setattr(output, "_write_file", real)
    write_report_folder(out, new)
    assert _content(out) == dict(new)


def test_a_full_disk_through_the_command_exits_2_naming_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``report --format md`` on a full disk: exit 2, the message names --out and the file, the old report stays."""
    out = tmp_path / "md"
    assert main(["report", "--check", "example:cyclic", "--format", "md", "--out", str(out)]) == 0
    before = _content(out)
    assert len(before) == 2  # report.md and one figure

    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(output, "_write_file", full)
    capsys.readouterr()
    assert main(["report", "--check", "example:trajectory", "--format", "md", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--out {str(out)!r}: cannot write report.md: No space left on device" in err
    assert _content(out) == before and _siblings(out) == []


def test_a_full_disk_during_the_html_report_names_it_and_keeps_the_old_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """``report`` (html) on a full disk: exit 2 naming --out, the previous report.html byte-identical, no temporary file."""
    import os

    out = tmp_path / "r.html"
    out.write_text("previous", encoding="utf-8")
    real_fsync = os.fsync

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert main(["report", "--check", "example:cyclic", "--out", str(out)]) == 2
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert f"--out {str(out)!r}: cannot write the report: No space left on device" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "previous" and sorted(p.name for p in tmp_path.iterdir()) == [".r.html.lock", "r.html"]


def test_a_shorter_report_leaves_no_figure_of_the_longer_one(tmp_path: Path) -> None:
    """A report with fewer figures replaces the whole folder: no fig-NNN.png of the previous report lingers."""
    out = tmp_path / "r"
    write_report_folder(out, _report("long", 9))
    written = write_report_folder(out, _report("short", 2))
    assert sorted(p.name for p in out.iterdir()) == ["fig-001.png", "fig-002.png", "report.md"]
    assert [p.name for p in written] == ["report.md", "fig-001.png", "fig-002.png"]
    assert (out / "fig-001.png").read_bytes() == b"short figure 1" and _siblings(out) == []


def test_a_shorter_report_through_the_command_leaves_no_leftovers(tmp_path: Path) -> None:
    """report --format md with 4 figures, then with 1: the folder holds exactly the second report."""
    out = tmp_path / "md"
    assert main(["report", "--check", "example:cyclic", "--check", "example:trajectory", "--format", "md", "--out", str(out)]) == 0
    assert len(list(out.glob("fig-*.png"))) == 4
    assert main(["report", "--check", "example:cyclic", "--format", "md", "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["fig-001.png", "report.md"] and _siblings(out) == []


def test_the_swap_works_without_an_atomic_exchange(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where renameat2(RENAME_EXCHANGE) is missing, two renames replace the folder: same result, nothing left over."""
    monkeypatch.setattr(output, "_exchange", lambda a, b: False)
    out = tmp_path / "r"
    write_report_folder(out, _report("a", 3))
    write_report_folder(out, _report("b", 1))
    assert _content(out) == dict(_report("b", 1)) and _siblings(out) == []


def test_a_crash_between_the_two_renames_is_recovered_by_the_next_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A previous report left in .DIR.old-… (kill -9 mid-swap) is put back; a stale staging folder is removed."""
    out = tmp_path / "r"
    write_report_folder(out, _report("a", 2))
    before = _content(out)
    out.rename(tmp_path / ".r.old-1-abcd0123")
    (tmp_path / ".r.tmp-2-abcd0123").mkdir()
    (tmp_path / ".r.tmp-2-abcd0123" / "fig-001.png").write_bytes(b"half")

    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(output, "_write_file", full)
    with pytest.raises(CausalCheckError):
        write_report_folder(out, _report("b", 4))
    assert _content(out) == before and _siblings(out) == []


def test_a_folder_with_files_a_report_does_not_write_is_refused_not_emptied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--out holding other files (scores.json, notes): exit 2 naming them; nothing is deleted or written."""
    out = tmp_path / "results"
    out.mkdir()
    (out / "scores.json").write_text("{}", encoding="utf-8")
    (out / "report.md").write_text("old", encoding="utf-8")
    assert main(["report", "--check", "example:cyclic", "--format", "md", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "holds files a report does not write ('scores.json')" in err
    assert _content(out) == {"report.md": b"old", "scores.json": b"{}"}
    with pytest.raises(InputFormatError, match="exists and is not a folder"):
        write_report_folder(out / "scores.json", _report("x", 0))
    link = tmp_path / "link"
    link.symlink_to(out)
    with pytest.raises(InputFormatError, match="is a symbolic link"):
        write_report_folder(link, _report("x", 0))
    assert _content(out) == {"report.md": b"old", "scores.json": b"{}"}


def test_the_current_folder_is_never_a_report_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--out . (or a folder above the current one) would be swapped away: refused."""
    monkeypatch.chdir(tmp_path)
    for given in (".", str(tmp_path.parent)):
        with pytest.raises(InputFormatError, match="current folder or above it"):
            write_report_folder(given, _report("x", 1))


def test_a_locked_out_refuses_a_second_report_naming_the_holder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """While --out is locked, report (html and md) exits 2 with RunLockedError naming the holder; the old output stays."""
    html, md = tmp_path / "r.html", tmp_path / "md"
    html.write_text("previous", encoding="utf-8")
    for target, fmt in ((html, "html"), (md, "md")):
        with OutputLock(target, command="causalcheck report (holder test)"):
            assert main(["report", "--check", "example:cyclic", "--format", fmt, "--out", str(target)]) == 2
        err = capsys.readouterr().err
        assert f"--out {str(target)!r} is being written by another causalcheck process" in err
        assert "causalcheck report (holder test)" in err
    assert html.read_text(encoding="utf-8") == "previous" and not md.exists()
    assert main(["report", "--check", "example:cyclic", "--format", "md", "--out", str(md)]) == 0  # released


def test_a_figure_that_fails_to_draw_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A figure whose drawing raises (a damaged input) is closed all the same: 25 failures leave no open
    figure (matplotlib's 'more than 20 figures' warning used to end `report` with exit 70)."""
    from causalcheck.report import figures as fg
    from causalcheck.report import png

    plt = png._pyplot()

    def fails(plt_: object, spec: object) -> bytes:
        plt.subplots()
        raise ValueError("damaged")

    monkeypatch.setattr(png, "_graph", fails)
    spec = fg.GraphFigure.__new__(fg.GraphFigure)
    for _ in range(25):
        with pytest.raises(ValueError, match="damaged"):
            png.render_png(spec)
    assert plt.get_fignums() == []


def test_a_name_the_font_cannot_draw_is_not_an_error() -> None:
    """A series and title in characters DejaVu Sans lacks ('\u06c1', found by the full fuzz: its "Glyph missing"
    warning ended `report --format md` with exit 70 where warnings are errors) still draw a PNG."""
    import warnings

    from causalcheck.report import figures as fg
    from causalcheck.report import png

    spec = fg.LineChart("\u06c1 \U0001f600", "d", "step", "F1", (fg.Series("\u06c1\u0ec0\U000e0041", ((0.0, 0.5), (1.0, 0.7))),))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        data = png.render_png(spec)
    assert data.startswith(b"\x89PNG")
