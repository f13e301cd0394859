"""Compare two result folders file by file: which JSON fields differ, whether other files are equal."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _walk(a: Any, b: Any, where: str, out: set[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted({*a, *b}):
            _walk(a.get(key), b.get(key), f"{where}.{key}" if where else key, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for x, y in zip(a, b, strict=True):
            _walk(x, y, where, out)
    elif a != b:
        out.add(where)


def folder_differences(left: Path, right: Path) -> dict[str, set[str]]:
    """``{relative file: fields that differ}`` for every file of either folder (the lock files aside).

    JSON files are compared field by field (a dotted path, list positions dropped); other files byte
    for byte with timestamps masked, a difference named ``"<bytes>"``; a file in one folder only
    is named ``"<missing>"``.  Files that are equal are not listed.
    """
    names = {p.relative_to(left) for p in left.rglob("*") if p.is_file()} | {p.relative_to(right) for p in right.rglob("*") if p.is_file()}
    found: dict[str, set[str]] = {}
    for rel in sorted(names):
        if rel.name == ".causalcheck.lock":
            continue
        a, b = left / rel, right / rel
        if not a.is_file() or not b.is_file():
            found[str(rel)] = {"<missing>"}
            continue
        if rel.suffix == ".json":
            diff: set[str] = set()
            _walk(json.loads(a.read_text()), json.loads(b.read_text()), "", diff)
        else:
            diff = set() if _STAMP.sub(b"T", a.read_bytes()) == _STAMP.sub(b"T", b.read_bytes()) else {"<bytes>"}
        if diff:
            found[str(rel)] = diff
    return found
