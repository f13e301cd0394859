"""The manual reads as a manual: no working-log prose (first person, "this stop", "next time") in
the docs or the README — working notes belong in the issue tracker, figures on the Performance page —
and no page outside the Reference section of the site's navigation (``mkdocs.yml``) longer than
:data:`MAX_WORDS` words: long pages are split into tutorials, how-to guides, reference and explanations."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = sorted([*(REPO / "docs").glob("*.md"), REPO / "README.md"])

#: Phrases of a working log, not of a manual.
WORKING_LOG = re.compile(
    r"\bI (?:tried|measured|also|found|think|believe|kept|checked|ran|did|have|will|could|would|wrote|used|saw|noticed)\b"
    r"|\b(?:this|previous|last|next) (?:stop|session)\b|\bnext time\b|\bwe tried\b|\bTODO\b|\bFIXME\b|\bXXX\b",
)


#: The longest a page outside the Reference section may be, in words as ``wc -w`` counts them.
MAX_WORDS = 2500

_NAV_ENTRY = re.compile(r"^(?P<indent> *)- (?:(?P<title>[^:]+|\"[^\"]*\"):)?\s*(?P<page>\S+\.md)?\s*$")


def nav_sections(mkdocs_yml: str) -> dict[str, list[str]]:
    """The pages of each top-level section of the ``nav:`` of *mkdocs_yml* (a page at the top level is its own section)."""
    lines = mkdocs_yml.split("\nnav:\n", 1)[1].splitlines()
    sections: dict[str, list[str]] = {}
    current = ""
    for line in lines:
        if line and not line.startswith(" "):
            break  # the next top-level key
        m = _NAV_ENTRY.match(line)
        if not m:
            continue
        title = (m.group("title") or "").strip().strip('"')
        if len(m.group("indent")) == 2:
            current = title
        if m.group("page"):
            sections.setdefault(current, []).append(m.group("page"))
    return sections


def long_pages(sections: dict[str, list[str]], docs: Path, limit: int = MAX_WORDS) -> list[tuple[str, int]]:
    """``(page, words)`` of every page outside the Reference section with more than *limit* words."""
    return [
        (page, words)
        for section, pages in sections.items() if section != "Reference"
        for page in pages
        if (words := len((docs / page).read_text(encoding="utf-8").split())) > limit
    ]


def _prose(text: str) -> str:
    """*text* without fenced code blocks and inline code (examples may print anything)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_no_page_reads_like_a_working_log(page: Path) -> None:
    found = [(n, m.group()) for n, line in enumerate(_prose(page.read_text(encoding="utf-8")).splitlines(), 1) for m in WORKING_LOG.finditer(line)]
    assert not found, f"{page.name}: working-log prose {found[:5]}"


def test_the_check_catches_working_log_prose() -> None:
    assert WORKING_LOG.search("I also tried keeping the memo") and WORKING_LOG.search("in the previous stop's run")
    assert not WORKING_LOG.search("A reset costs 98 µs; see the Performance page.")


def test_no_page_outside_the_reference_is_over_the_word_limit() -> None:
    """Every page the navigation lists outside Reference has at most MAX_WORDS words; split a longer one."""
    sections = nav_sections((REPO / "mkdocs.yml").read_text(encoding="utf-8"))
    assert {"Tutorials", "How-to guides", "Reference", "Explanations"} <= set(sections)
    assert long_pages(sections, REPO / "docs") == []


def test_the_word_limit_check_reads_the_nav_and_catches_a_long_page(tmp_path: Path) -> None:
    """The nav reader finds each section's pages; a long page fails outside Reference and passes inside it."""
    nav = (
        "site_name: x\nnav:\n  - Home: index.md\n  - Tutorials:\n      - One: long.md\n"
        "  - Reference:\n      - Big: big.md\n      - API:\n          - a: api/a.md\nplugins: []\n"
    )
    sections = nav_sections(nav)
    assert sections == {"Home": ["index.md"], "Tutorials": ["long.md"], "Reference": ["big.md", "api/a.md"]}
    for name, words in (("index.md", 10), ("long.md", 30), ("big.md", 30)):
        (tmp_path / name).write_text("word " * words, encoding="utf-8")
    assert long_pages(sections | {"Reference": ["big.md"]}, tmp_path, limit=20) == [("long.md", 30)]
