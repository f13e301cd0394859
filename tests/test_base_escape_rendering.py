"""Every Markdown and CSV output built from hostile user strings, rendered as a reader would see it.

The names of a lab run (agent, model, suite, episode file), the answer model, answer texts and
ids of ``explain score`` and the ``--title`` of ``report`` are classic XSS payloads
(:data:`PAYLOADS`).  Each Markdown output we write — ``lab score``'s ``summary.md``, ``lab run``'s
``summary.md``, explain's ``<stem>.md`` and ``report --format md``'s ``report.md`` — is
rendered with a CommonMark renderer (markdown-it-py, a dependency of rich) and the HTML must
hold no element or attribute that came from user text; then headless Chromium loads that HTML
and no payload may run (each sets ``document.title`` when it runs; skipped without
``/usr/bin/chromium``).  The CSV outputs must quote formula-starting text cells and keep numbers.
"""

from __future__ import annotations

import csv
import html.parser
import io
import json
import subprocess
from pathlib import Path

import pytest
from causalcheck.cli import main
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

CHROMIUM = Path("/usr/bin/chromium")
_RUN = "document.title=String.fromCharCode(80,87,78,69,68)"  # the title becomes "PWNED" if it runs

#: Classic payloads: tags, event handlers, script URLs, autolinks, entities, table breakers.
PAYLOADS = (
    f"<script>{_RUN}</script>",
    f"<img src=x onerror={_RUN}>",
    f"[click](javascript:{_RUN})",
    f"<svg onload={_RUN}>",
    f"<div>\n<script>{_RUN}</script>\n</div>",
    "<javascript:alert(1)>",
    "<https://evil.example/x>",
    '<a href="javascript:alert(1)">x</a>',
    f"&lt;script&gt;{_RUN}&lt;/script&gt;",
    "&#60;img src=x onerror=alert(1)&#62;",
    "a | b\n|---|---|\n| <b>x</b> |",
    "![x](javascript:alert(1))",
    "[x]: javascript:alert(1)\n\n[x]",
    f"`x` <details open ontoggle={_RUN}>",
    '<iframe src="javascript:alert(1)"></iframe>',
    "# heading\n> quote **bold** _em_\n    code",
    '=HYPERLINK("http://evil.example","x")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+2)",
    "-1+2",
)

#: What a rendered output may contain: the elements our own Markdown makes, and their attributes.
_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6", "p", "table", "thead", "tbody", "tr", "th", "td", "em",
         "strong", "code", "blockquote", "img", "ul", "li", "br"}
_ATTRIBUTES = {("th", "style"), ("td", "style"), ("img", "src"), ("img", "alt")}


class _Elements(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))


def render(markdown: str) -> str:
    """*markdown* as HTML, by markdown-it-py's CommonMark renderer with GFM tables and strikethrough."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(markdown)


def foreign_elements(page: str) -> list[str]:
    """The elements and attributes of *page* that our Markdown never makes (user text turned markup)."""
    p = _Elements()
    p.feed(page)
    bad = [tag for tag, _ in p.found if tag not in _TAGS]
    for tag, attrs in p.found:
        bad += [f"{tag} {name}={value!r}" for name, value in attrs if (tag, name) not in _ATTRIBUTES]
        bad += [f"{tag} src={value!r}" for name, value in attrs if name == "src" and not str(value).startswith("fig-")]
        bad += [f"{tag} style={value!r}" for name, value in attrs if name == "style" and not str(value).startswith("text-align:")]
    return bad


def _write_run(run: Path, names: list[str]) -> None:
    """Copies of one episode of the bundled mini suite, named and labelled with *names*."""
    from causalcheck.lab.runner import run_suite

    plain = run.parent / "plain"
    run_suite("mini", "planner", plain, seeds=(1,), limit=1, progress=False)
    source = next((plain / "episodes").glob("*.jsonl"))
    header, *rest = source.read_text(encoding="utf-8").splitlines(keepends=True)
    (run / "episodes").mkdir(parents=True)
    for i, name in enumerate(names):
        head = json.loads(header)
        head.update(agent=name, agent_options={"model": names[(i + 1) % len(names)]}, suite=names[(i + 2) % len(names)])
        stem = "".join(c if c.isalnum() or c in "<>=+@-[]()&#;! " else "_" for c in name)[:40]
        (run / "episodes" / f"{i:03d}_{stem}.jsonl").write_text(json.dumps(head) + "\n" + "".join(rest), encoding="utf-8")


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every Markdown and CSV output, built from hostile names: lab score, explain score, report."""
    root = tmp_path_factory.mktemp("hostile")
    _write_run(root / "run", list(PAYLOADS))
    assert main(["lab", "score", str(root / "run"), "--out", str(root / "scores"), "--bootstrap", "0"]) == 0
    assert main(["lab", "score", str(root / "plain"), "--out", str(root / "plain-scores"), "--bootstrap", "0"]) == 0
    answers = root / "answers.jsonl"
    with answers.open("w", encoding="utf-8") as f:
        for k, item in enumerate(json.loads((Path(__file__).parents[1] / "core/data/whatif_demo.json").read_text(encoding="utf-8"))["items"][:3]):
            f.write(json.dumps({"id": item["id"], "model": PAYLOADS[1], "answer": " because ".join(PAYLOADS[k::3])}) + "\n")
        f.write(json.dumps({"id": PAYLOADS[0], "model": PAYLOADS[1], "answer": "x"}) + "\n")
    assert main(["explain", "score", "--benchmark", "demo", "--answers", str(answers), "--out", str(root / "explain"), "--timestamp", "20240101-000000", "--limit", "3"]) == 1  # 1: the payload id matches no item
    (explained,) = (root / "explain").glob("*.md")
    report = root / "report"
    assert main(["report", str(root / "scores" / "scores.json"), str(explained.with_suffix(".json")), "--format", "md",
                 "--title", PAYLOADS[0] + PAYLOADS[2], "--out", str(report)]) == 0
    return {"summary.md": root / "scores" / "summary.md", "explain.md": explained, "report.md": report / "report.md",
            "episodes.csv": root / "scores" / "episodes.csv", "steps.csv": root / "scores" / "steps.csv",
            "inputs.csv": root / "scores" / "inputs.csv", "plain-scores": root / "plain-scores"}


@pytest.mark.parametrize("name", ["summary.md", "explain.md", "report.md"])
def test_a_rendered_markdown_output_holds_no_element_from_user_text(outputs: dict[str, Path], name: str) -> None:
    """Rendered by CommonMark, no payload becomes an element, attribute, link or image; the text is there."""
    page = render(outputs[name].read_text(encoding="utf-8"))
    assert foreign_elements(page) == []
    assert "&lt;script&gt;" in page or "&lt;img src=x" in page  # the payloads are shown as text


def test_lab_run_summary_markdown_escapes_the_names() -> None:
    """``lab run``'s summary.md table: hostile suite, agent and model names stay text in their cells."""
    from causalcheck.lab.runner import summary_markdown

    rows = [{"suite": p, "agent": p, "model": q, "episodes": 1, "task_accuracy": 1.0, "edge_f1": 1.0, "shd": 0.0,
             "interventions_used": 2.0} for p, q in zip(PAYLOADS, reversed(PAYLOADS), strict=True)]
    page = render(summary_markdown({"rows": rows}))
    assert foreign_elements(page) == []
    assert page.count("<tr>") == len(rows) + 1  # no row broken by a | or a line break


_PIECES = st.sampled_from([*PAYLOADS, *"<>&[]()!|*_`~#-+=.:\\\n ", "javascript:", "a", "1.", "&amp;", "\x1b[31m"])
_HOSTILE = st.lists(_PIECES, max_size=8).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=_HOSTILE, texts=st.lists(_HOSTILE, min_size=1, max_size=4), answer=_HOSTILE)
def test_any_report_document_of_hostile_texts_renders_with_no_foreign_element(title: str, texts: list[str], answer: str) -> None:
    """render_markdown of titles, paragraphs, notes, table captions / headers / cells and an EDU-marked answer: no element from the text."""
    from causalcheck.report.document import Document, Section, Table, Text, render_markdown
    from causalcheck.report.explain_views import marked_answer

    table = Table(columns=texts, rows=[texts, list(reversed(texts))], caption=title, marked=frozenset({1}))
    spans = [(texts[0][:8] or "EDU1", 0, min(len(answer), 5))] if answer else []
    doc = Document(title, [Section(title, [Text(t) for t in texts] + [Text(title, note=True), table, marked_answer(answer, spans)],
                                   children=[Section(texts[-1])])])
    markdown, _ = render_markdown(doc)
    page = render(markdown)
    assert foreign_elements(page) == []
    assert page.count("<tr>") == 3  # the header and two rows: no cell broke its row


def test_the_markdown_renderer_check_sees_raw_html() -> None:
    """The check can fail: the payloads written raw give foreign elements (as every output did before)."""
    assert foreign_elements(render("\n\n".join(PAYLOADS[:5]))) != []


def _chromium_title(page: Path, tmp_path: Path) -> str:
    out = subprocess.run([str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--disable-background-networking", f"--user-data-dir={tmp_path / 'profile'}",
                          "--virtual-time-budget=3000", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    start = out.stdout.find("<title>")
    return out.stdout[start + 7 : out.stdout.find("</title>", start)]


@pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is absent (apt-get install -y chromium)")
def test_no_payload_runs_in_chromium(outputs: dict[str, Path], tmp_path: Path) -> None:
    """Headless Chromium loads every rendered output: no script runs (the title stays), and raw payloads do run."""
    pages = {name: render(outputs[name].read_text(encoding="utf-8")) for name in ("summary.md", "explain.md", "report.md")}
    pages["raw (control)"] = "\n".join(PAYLOADS[:2])
    titles = {}
    for name, body in pages.items():
        path = tmp_path / f"{name}.html"
        path.write_text(f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>safe</title></head><body>{body}</body></html>", encoding="utf-8")
        titles[name] = _chromium_title(path, tmp_path)
    assert titles == {"summary.md": "safe", "explain.md": "safe", "report.md": "safe", "raw (control)": "PWNED"}


def _rows(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))


@pytest.mark.parametrize("name", ["episodes.csv", "steps.csv"])
def test_csv_text_cells_that_start_like_a_formula_are_quoted_and_numbers_stay_numbers(outputs: dict[str, Path], name: str) -> None:
    """Name cells starting with = + - @ get a leading ' (only those); every metric cell is the plain run's, byte for byte."""
    rows, plain = _rows(outputs[name]), _rows(outputs["plain-scores"] / name)
    expected = {("'" + p if p.startswith(("=", "+", "-", "@")) else p) for p in PAYLOADS}
    for key in ("agent", "model", "suite"):
        if key in rows[0]:
            assert {row[key] for row in rows} == expected
    numeric = [k for k in plain[0] if k not in ("source", "suite", "agent", "model")]
    assert len(rows) == len(PAYLOADS) * len(plain)
    assert [[row[k] for k in numeric] for row in rows] == [[row[k] for k in numeric] for row in plain] * len(PAYLOADS)


def test_the_inputs_csv_quotes_a_formula_starting_file_name(outputs: dict[str, Path]) -> None:
    """inputs.csv: a path is text; one that starts like a formula gets the leading ' like any other cell."""
    from causalcheck.base.escape import csv_row

    assert csv_row({"path": "=1+2", "bytes": 12})["path"] == "'=1+2"
    assert all(not row["path"].startswith(("=", "+", "-", "@")) for row in _rows(outputs["inputs.csv"]))
