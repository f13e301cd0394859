"""Files and folders: reading text with useful messages, JSON streams, and a folder's record file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import (
    decode_input_text,
    read_input_bytes,
    read_input_text,
    sha256_bytes,
)
from causalcheck.base.jsontext import iter_json_values
from causalcheck.episodes.model import InputFile

__all__ = ["find_record_file", "read_input", "read_json_values", "read_json_values_input", "read_text"]


def read_text(path: str | Path) -> str:
    """The UTF-8 text of the user's file *path* (a BOM is dropped), through :func:`causalcheck.base.files.read_input_text`.

    Only regular files are read (a FIFO or ``/dev/zero`` would block or never end) and at
    most :data:`causalcheck.base.files.DEFAULT_MAX_INPUT_BYTES`; missing, binary, undecodable
    and unreadable files raise :class:`~causalcheck.base.errors.InputFormatError` naming the path.
    """
    p = Path(path)
    if p.is_dir():
        raise InputFormatError(f"path={str(p)!r} is a directory, expected a file")
    return read_input_text(p, what="input")


def read_input(path: str | Path) -> tuple[str, InputFile]:
    """:func:`read_text` of *path* and its manifest entry (path, SHA-256 and size of the bytes read)."""
    p = Path(path)
    if p.is_dir():
        raise InputFormatError(f"path={str(p)!r} is a directory, expected a file")
    data = read_input_bytes(p, what="input")
    return decode_input_text(data, p, expected="JSON or text"), InputFile(str(p), sha256_bytes(data), len(data))


def read_json_values(path: str | Path) -> list[Any]:
    """Every JSON value of a file of JSONL or concatenated (pretty-printed) JSON.

    Raises :class:`~causalcheck.base.errors.DSLSyntaxError` naming the file, line and column when
    the file is truncated or not JSON (the values before the problem are not returned: a
    damaged file is not scored), :class:`~causalcheck.base.errors.InputFormatError` when it cannot
    be read.
    """
    return list(iter_json_values(read_text(path), source=str(path)))


def read_json_values_input(path: str | Path) -> tuple[list[Any], InputFile]:
    """:func:`read_json_values` and the file's manifest entry."""
    text, info = read_input(path)
    return list(iter_json_values(text, source=str(path))), info


_DIR_PATTERNS = ("raw_io.jsonl", "*_tracking_simple.jsonl", "*_tracking.jsonl", "*.jsonl", "*.json")
_NOT_RECORDS = ("graph_config.json", "source_config.json", "run.json", "summary.json")


def find_record_file(folder: str | Path) -> Path:
    """The file of a run folder that holds its records (``raw_io.jsonl`` first: it has the model's own text).

    A causalcheck lab run folder keeps one trajectory per episode under ``episodes/``; it
    is accepted when it holds exactly one.
    """
    d = Path(folder)
    for pattern in _DIR_PATTERNS:
        for f in sorted(d.glob(pattern)):
            if f.is_file() and f.name not in _NOT_RECORDS:
                if pattern == "*.json" and f.name.endswith("_data.json"):
                    continue
                return f
    episodes = sorted((d / "episodes").glob("*.jsonl")) if (d / "episodes").is_dir() else []
    if len(episodes) == 1:
        return episodes[0]
    if episodes:
        shown = ", ".join(e.name for e in episodes[:3])
        raise InputFormatError(
            f"directory={str(d)!r} is a lab run with {len(episodes)} episode trajectories ({shown}, ...); "
            "read one of them (episodes/<file>.jsonl); 'causalcheck check DIR' (causalcheck.checking.check_folder) "
            "checks every one and 'causalcheck lab score' scores the whole run"
        )
    raise InputFormatError(
        f"directory={str(d)!r} holds no records: looked for {', '.join(_DIR_PATTERNS)} "
        "(an official run folder has raw_io.jsonl)"
    )
