"""The manual reads as a manual: no working-log prose (first person, "this stop", "next time") in
the docs or the README — working notes belong in the issue tracker, figures on the Performance page."""

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
