"""The HTML page as a place to browse: sidebar, collapsible sections, sortable tables, totals, readable numbers."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from causalcheck.report.document import (
    Document,
    Section,
    Table,
    Text,
    prose_html,
    render_html,
    render_markdown,
)
from causalcheck.report.explain_views import explain_sections
from causalcheck.report.page import SCRIPT
from causalcheck.report.text import INDEPENDENT, readable


def _doc() -> Document:
    episode = Section("planner · mini · g1 seed 1", [Text("Chosen as: x.")], collapsed=True, label="mini · g1 seed 1")
    agents = Section("Episodes", [], [Section("planner", [], [episode])])
    table = Table(["domain", "n", "Final"], [["STEM", "3", "50.00"], ["HSS", "2", "70.00"], ["Overall", "5", "58.00"]],
                  numeric=frozenset({1, 2}), totals=frozenset({2}))
    return Document("T", [Section("Lab", [table], [agents])])


def test_every_section_is_a_details_element_and_the_sidebar_links_to_each() -> None:
    """Sections are <details> (open unless collapsed); the sidebar links to every anchor, nested, with the short label."""
    html = render_html(_doc())
    assert '<section id="lab" class="l2"><details open><summary><h2>Lab</h2></summary>' in html
    assert '<section id="planner-mini-g1-seed-1" class="l5"><details><summary><h5>' in html  # collapsed: starts closed
    nav = html[html.index('<nav class="side"'):html.index("</nav>")]
    for anchor in ("lab", "episodes", "planner", "planner-mini-g1-seed-1"):
        assert f'href="#{anchor}"' in nav and f'id="{anchor}"' in html, anchor
    assert '>mini · g1 seed 1</a>' in nav and 'title="planner · mini · g1 seed 1"' in nav
    # nested as the sections are: the episode's link sits inside the agent's list item
    planner = nav[nav.index('href="#planner"'):]
    assert planner.index('href="#planner-mini-g1-seed-1"') < planner.index("</li>")


def test_a_long_list_in_the_sidebar_starts_closed() -> None:
    """More than eight sub-sections: the sidebar folds them into a closed <details> with their count."""
    many = Section("Items in detail", [], [Section(f"item {k}") for k in range(9)])
    nav = render_html(Document("T", [Section("Explain", [], [many])]))
    assert '<li><details><summary><a href="#items-in-detail" title="Items in detail">Items in detail</a> (9)</summary>' in nav


def test_a_total_row_is_styled_as_a_total_not_as_a_problem() -> None:
    """The Overall row gets class "total" (bold, ruled), never the "mark" of an error row."""
    html = render_html(_doc())
    assert '<tr class="total"><td>Overall</td>' in html and 'class="mark"' not in html
    css = html[html.index("<style>"):html.index("</style>")]
    assert "tr.total td{" in css and "tr.mark td{background:#fde7e7" in css
    md, _ = render_markdown(_doc())
    assert "| **Overall** | **5** | **58.00** |" in md


def test_the_explain_domain_table_marks_overall_as_its_total() -> None:
    """PRISM's per-domain table: Overall is a total row, STEM / HSS / Hybrid plain rows."""
    item = {"id": 1, "bucket": "STEM", "pm_score": 0.5, "rm_score": 0.5, "total_score": 0.5, "model_answer": "a",
            "parsed_dag": {"nodes": [], "edges": []}, "metrics": {"pm": {}, "rm": {}}}
    sec = explain_sections([("r.json", {"meta": {"answer_model": "m"}, "items": [item], "summary": {}})], items=0)
    table = next(b for c in sec.children for b in c.blocks if isinstance(b, Table) and b.caption.startswith("Per domain"))
    assert [table.rows[i][0] for i in table.totals] == ["Overall"] and not table.marked


def test_long_decimals_read_short_with_the_exact_value_in_a_tooltip() -> None:
    """An audit message's 249.978944 shows as 249.98 with title="249.978944"; the report's own numbers are untouched."""
    msg = "predicted 249.978944, recorded 261 (off by 11.021056); tolerance 0.5 and 0.125"
    html = render_html(Document("T", [Section("S", [Text(msg), Table(["m"], [[msg]])])]))
    assert html.count('<span class="num" title="249.978944">249.98</span>') == 2
    assert '<span class="num" title="11.021056">11.02</span>' in html
    assert "0.5 and 0.125" in html and "249.978944," not in html.replace('title="249.978944"', "")
    md, _ = render_markdown(Document("T", [Section("S", [Text(msg)])]))
    assert "predicted 249.98, recorded 261 (off by 11.02)" in md


def test_the_independence_sign_is_written_with_glyphs_common_fonts_have() -> None:
    """``⫫`` (missing from DejaVu, Liberation, Arial) becomes ``⊥⊥`` in HTML and Markdown, the sign kept in a tooltip."""
    html = prose_html("a ⫫ b | c")
    assert "⫫" not in html and f'<span class="indep" title="independent of">{INDEPENDENT}</span>' in html
    assert INDEPENDENT == "\u22a5\u22a5" and readable("x ⫫ y") == "x ⊥⊥ y"
    page = render_html(Document("T", [Section("S", [Table(["finding"], [["a ⫫ b"]])])]))
    assert "⫫" not in page and "⊥⊥" in page


def test_the_page_is_well_formed_with_one_inline_script_and_no_outside_resource() -> None:
    """The body parses as XML (every element closed); the one script loads nothing and sorts on a click."""
    html = render_html(_doc())
    body = html[html.index("<body>"):html.index("</html>")]
    ET.fromstring(re.sub(r"<script>.*?</script>", "", body, flags=re.S).replace("<details open>", "<details>"))
    assert html.count("<script>") == 1 and SCRIPT in html
    for loader in ("fetch(", "XMLHttpRequest", "import(", ".src", "WebSocket", "http"):
        assert loader not in SCRIPT, loader
    assert "addEventListener('click'" in SCRIPT and "aria-sort" in SCRIPT


def test_the_same_document_renders_to_the_same_bytes() -> None:
    """Rendering is deterministic (anchors, ids, script)."""
    assert render_html(_doc()) == render_html(_doc())
