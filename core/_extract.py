"""Find the JSON object inside what a model actually wrote.

Models wrap their record in ``<think>…</think>`` blocks, Markdown code fences and prose.
:func:`candidates` yields the slices of the text worth decoding, most specific first, each
with its start offset (so error positions can be reported in the original text) and the
repairs it took to get there, following the order of the CausaLab controller
(causalab-spec §3.4): strip think blocks, prefer a fenced ``json`` block, else the whole
text, else the balanced top-level ``{…}`` objects (last one first).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Candidate", "balanced_objects", "candidates", "strip_think"]

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_THINK_OPEN = re.compile(r"<think>", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)(?:```|\Z)", re.DOTALL)


@dataclass(frozen=True)
class Candidate:
    """A slice ``text[start:start+len(body)]`` to decode, and the repairs that produced it."""

    body: str
    start: int
    repairs: tuple[str, ...]


def strip_think(text: str) -> tuple[str, list[str]]:
    """Blank out ``<think>…</think>`` blocks (keeping offsets); an unclosed tag alone is blanked."""
    repairs: list[str] = []

    def blank(m: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    out, n = _THINK.subn(blank, text)
    if n:
        repairs.append(f"removed {n} <think>…</think> block(s)")
    m = _THINK_OPEN.search(out)
    if m:  # unclosed: drop the tag; the balanced-object search skips the prose that follows
        out = out[: m.start()] + " " * len(m.group(0)) + out[m.end() :]
        repairs.append("removed an unclosed <think> tag")
    return out, repairs


def balanced_objects(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every balanced top-level ``{…}`` in *text* (strings respected)."""
    spans: list[tuple[int, int]] = []
    depth = 0
    start = -1
    in_str = False
    esc = False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            if depth > 0:
                in_str = True
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth > 0:
            depth -= 1
            if depth == 0:
                spans.append((start, i + 1))
    return spans


def candidates(text: str) -> Iterator[Candidate]:
    """Slices of *text* that may hold the record, in the order they should be tried."""
    cleaned, repairs = strip_think(text)
    fences = [m for m in _FENCE.finditer(cleaned) if "{" in m.group(2)]
    fences.sort(key=lambda m: 0 if m.group(1).lower() in ("json", "jsonc", "json5") else 1)
    for m in fences:
        yield Candidate(m.group(2), m.start(2), (*repairs, "took the record out of a ``` code fence"))
    stripped = cleaned.strip()
    if stripped:
        lead = len(cleaned) - len(cleaned.lstrip())
        yield Candidate(stripped, lead, tuple(repairs))
    spans = balanced_objects(cleaned)
    for s, e in reversed(spans):
        if cleaned[s:e].strip() == stripped:
            continue
        yield Candidate(cleaned[s:e], s, (*repairs, "ignored prose around the JSON object"))
