"""Every example of the README and of the docs site (``docs/**/*.md``) runs as printed.

The convention (documented on ``docs/index.md`` and ``docs/development.md``):

* every fenced ````` ```bash ````` and ````` ```python ````` block is run; other languages
  (``text``, ``json``, …) are illustrative;
* the line above a block may mark it: ``<!-- not-run: REASON -->`` (never run; the reason is
  required: an API key, a server, a file of your own), ``<!-- slow -->`` (run only with
  ``pytest -m slow``), ``<!-- needs: MODULE -->`` (skipped, naming the module, when it is not
  installed); several marks may share the line;
* a bash block runs line by line (a trailing ``\\`` joins lines; comment lines are skipped),
  with ``bash -c`` in the page's own empty temporary folder — no ``shared/`` folder, no
  ``CAUSALCHECK_SHARED`` — where ``causalcheck`` and ``python`` are the interpreter running the
  tests; a line must exit 0 unless its comment says ``exit N``;
* a python block runs with that interpreter in the same folder: as a doctest when it starts with
  ``>>>``, under pytest when it defines ``test_`` functions, else as a script; a block whose
  first line is a comment naming a file (``# my_agents.py …``) is also saved under that name,
  for the blocks after it;
* the blocks of one page run in order in one folder, so a block may use what an earlier one
  wrote.

A slow variant installs the wheel (built by ``tests/_wheel.py``, as ``tests/test_base_bundled.py``'s) into a
fresh venv and runs every page's examples, slow ones included, with that install.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import venv
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
RUN_LANGS = {"bash", "python"}
LINE_TIMEOUT = 300

_FENCE = re.compile(r"^```(\w*)\s*$")
_MARK = re.compile(r"<!--\s*(not-run|slow|needs)\s*(?::\s*(.*?))?\s*-->")
_EXIT = re.compile(r"\s#.*\bexit (\d+)")
_FILE_COMMENT = re.compile(r"#\s*([\w.-]+\.py)\b")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page: where it starts, its language, its text and its marks."""

    page: Path
    line: int
    lang: str
    text: str
    not_run: str | None
    slow: bool
    needs: tuple[str, ...]

    @property
    def where(self) -> str:
        page = self.page.relative_to(REPO) if self.page.is_relative_to(REPO) else self.page
        return f"{page}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of *page*, with the marks on the line above each (blank lines skipped)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m or not m.group(1):
            i += 1
            continue
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        marks = _MARK.findall(lines[j]) if j >= 0 else []
        end = next(k for k in range(i + 1, len(lines)) if lines[k].strip() == "```")
        not_run = next((arg for kind, arg in marks if kind == "not-run"), None)
        if any(kind == "not-run" for kind, _ in marks):
            assert not_run, f"{page}:{i + 1}: <!-- not-run: REASON --> needs a reason"
        found.append(Block(
            page, i + 1, m.group(1), "\n".join(lines[i + 1:end]) + "\n", not_run,
            any(kind == "slow" for kind, _ in marks),
            tuple(arg for kind, arg in marks if kind == "needs" and arg),
        ))
        i = end + 1
    return found


def commands(text: str) -> list[tuple[str, int]]:
    """The logical lines of a bash block (continuations joined, comment lines skipped) and their expected exit codes."""
    out: list[tuple[str, int]] = []
    pending = ""
    for raw in text.splitlines():
        if not pending and (not raw.strip() or raw.lstrip().startswith("#")):
            continue
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        line = pending + raw
        pending = ""
        m = _EXIT.search(line)
        out.append((line, int(m.group(1)) if m else 0))
    assert not pending, f"a bash block ends in a continuation: {pending!r}"
    return out


def tool_dir(folder: Path, python: str, bindir: Path) -> dict[str, str]:
    """An environment whose ``causalcheck`` and ``python`` are *python*'s, with no CAUSALCHECK_SHARED."""
    tools = folder / ".tools"
    tools.mkdir()
    for name, target in (("causalcheck", f'exec "{python}" -m causalcheck "$@"'), ("python", f'exec "{python}" "$@"')):
        script = tools / name
        script.write_text(f"#!/bin/sh\n{target}\n", encoding="utf-8")
        script.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "CAUSALCHECK_SHARED" and not k.startswith("PYTEST")}
    env["PATH"] = os.pathsep.join([str(tools), str(bindir), env.get("PATH", "")])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_block(block: Block, folder: Path, env: dict[str, str], python: str) -> None:
    """Run one block in *folder*; an unexpected exit fails with the command and its output."""

    def run(argv: list[str], shown: str, want: int = 0) -> None:
        done = subprocess.run(argv, cwd=folder, env=env, capture_output=True, text=True, timeout=LINE_TIMEOUT)
        assert done.returncode == want, (
            f"{block.where}: `{shown}` exited {done.returncode}, the page says {want}\n"
            f"--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
        )

    if block.lang == "bash":
        for line, want in commands(block.text):
            run(["bash", "-c", line], line, want)
        return
    first = block.text.splitlines()[0] if block.text.strip() else ""
    named = _FILE_COMMENT.match(first)
    if named:
        (folder / named.group(1)).write_text(block.text, encoding="utf-8")
    script = folder / f".block_{block.line}.py"
    if block.text.lstrip().startswith(">>>"):
        script = script.with_suffix(".txt")
        script.write_text(block.text, encoding="utf-8")
        run([python, "-m", "doctest", "-o", "NORMALIZE_WHITESPACE", script.name], "doctest of the block")
    elif re.search(r"^def test_", block.text, re.M):
        script = folder / f"test_block_{block.line}.py"
        script.write_text(block.text, encoding="utf-8")
        run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", script.name], "pytest on the block")
    else:
        script.write_text(block.text, encoding="utf-8")
        run([python, script.name], "python on the block")


#: the extra that installs a module a block may need (any other module: pip install MODULE)
_EXTRA_OF = {"inspect_ai": "inspect", "gymnasium": "rl", "verifiers": "verifiers", "ray": "ray", "mkdocs": "docs"}


def install_hint(modules: list[str]) -> str:
    """The pip command that installs *modules*: a causalcheck extra where one provides it."""
    names = sorted({f"'causalcheck[{_EXTRA_OF[m]}]'" if m in _EXTRA_OF else m for m in modules})
    return "pip install " + " ".join(names)


def run_page(
    page: Path, folder: Path, *, slow: bool, python: str = sys.executable, bindir: Path | None = None,
    skipped: list[str] | None = None,
) -> int:
    """Run the runnable blocks of *page* in order (the slow ones too when *slow*); returns how many ran.

    A block whose ``needs`` module *python* cannot import is left out and named in *skipped*."""
    env = tool_dir(folder, python, bindir or Path(python).parent)
    ran = 0
    for block in blocks(page):
        if block.lang not in RUN_LANGS or block.not_run is not None or (block.slow and not slow):
            continue
        missing = [m for m in block.needs if subprocess.run([python, "-c", f"import {m}"], capture_output=True).returncode]
        if missing:
            if skipped is not None:
                skipped.append(f"{block.where} needs {', '.join(missing)}: {install_hint(missing)}")
            continue
        run_block(block, folder, env, python)
        ran += 1
    return ran


def run_page_or_skip(page: Path, folder: Path, *, slow: bool) -> None:
    """Run the page's blocks; a page all of whose blocks need a missing module skips, naming it."""
    skipped: list[str] = []
    if run_page(page, folder, slow=slow, skipped=skipped) == 0:
        assert skipped, f"{page}: no block ran"
        pytest.skip("; ".join(skipped))


def _ids(pages: list[Path]) -> list[str]:
    return [str(p.relative_to(REPO)) for p in pages]


def _has(page: Path, *, slow: bool) -> bool:
    return any(b.lang in RUN_LANGS and b.not_run is None and b.slow == slow for b in blocks(page))


FAST_PAGES = [p for p in PAGES if _has(p, slow=False)]
SLOW_PAGES = [p for p in PAGES if _has(p, slow=True)]


@pytest.mark.parametrize("page", FAST_PAGES, ids=_ids(FAST_PAGES))
def test_the_examples_of_a_page_run(page: Path, tmp_path: Path) -> None:
    """Every runnable, not-slow block of the page exits as the page says, in an empty folder."""
    run_page_or_skip(page, tmp_path, slow=False)


@pytest.mark.slow
@pytest.mark.parametrize("page", SLOW_PAGES, ids=_ids(SLOW_PAGES))
def test_the_slow_examples_of_a_page_run(page: Path, tmp_path: Path) -> None:
    """The page's blocks, slow ones included, run in order in an empty folder."""
    run_page_or_skip(page, tmp_path, slow=True)


def test_every_page_is_checked_and_every_skip_has_a_reason() -> None:
    """The README and the docs pages hold runnable examples, and no runnable-language block is silently left out."""
    assert (REPO / "README.md") in FAST_PAGES
    assert len(PAGES) >= 15
    for page in PAGES:
        for block in blocks(page):
            if block.lang in RUN_LANGS and block.not_run is not None:
                assert len(block.not_run) >= 8, f"{block.where}: the not-run reason {block.not_run!r} says nothing"


def test_the_block_reader_follows_the_convention(tmp_path: Path) -> None:
    """Marks, exit codes, continuations and languages are read as the convention says; a failing line fails."""
    page = tmp_path / "page.md"
    page.write_text(
        "text\n\n<!-- not-run: needs an API key -->\n```bash\nfalse\n```\n\n<!-- slow --> <!-- needs: nosuchmodule -->\n"
        "```bash\ntrue\n```\n\n```bash\n# a comment\nprintf 'a\\n' \\\n  > a.txt\nfalse   # exit 1: says so\n```\n\n"
        "```text\nnot run\n```\n",
        encoding="utf-8",
    )
    found = blocks(page)
    skipped: list[str] = []
    (tmp_path / "all").mkdir()
    assert run_page(page, tmp_path / "all", slow=True, skipped=skipped) == 1  # the slow block needs a missing module
    assert skipped == [f"{page}:9 needs nosuchmodule: pip install nosuchmodule"]
    assert [(b.lang, b.not_run, b.slow, b.needs) for b in found] == [
        ("bash", "needs an API key", False, ()),
        ("bash", None, True, ("nosuchmodule",)),
        ("bash", None, False, ()),
        ("text", None, False, ()),
    ]
    assert commands(found[2].text) == [("printf 'a\\n'    > a.txt", 0), ("false   # exit 1: says so", 1)]
    assert run_page(page, tmp_path, slow=False) == 1 and (tmp_path / "a.txt").read_text() == "a\n"
    bad = tmp_path / "bad.md"
    bad.write_text("```bash\ncausalcheck check example:trajectory\n```\n", encoding="utf-8")
    (tmp_path / "bad").mkdir()
    with pytest.raises(AssertionError, match="exited 1, the page says 0"):
        run_page(bad, tmp_path / "bad", slow=False)


@pytest.mark.slow
def test_every_example_runs_from_the_built_wheel(tmp_path: Path) -> None:
    """Every page's examples, slow ones included, run with the wheel installed in a fresh venv (no checkout on the path)."""
    # the one wheel-building helper (tests/test_base_bundled.py uses it too)
    from _wheel import build_wheel

    (tmp_path / "wheel").mkdir()
    wheel = build_wheel(tmp_path / "wheel")
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    python = env_dir / "bin" / "python"
    # the testing extra and pytest: docs/testing.md's example is a test file; --no-compile: pip's byte-compiling
    # of every module of every dependency (sympy, scipy, spaCy, ...) is much of an install's time, and the
    # examples import only some of them (compiled on first import, as for a user)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-compile", f"{wheel}[testing]", "pytest"], check=True, timeout=1800)
    ran = 0
    for i, page in enumerate(PAGES):
        folder = tmp_path / f"page{i}"
        folder.mkdir()
        ran += run_page(page, folder, slow=True, python=str(python), bindir=env_dir / "bin")
    assert ran >= len(FAST_PAGES)
