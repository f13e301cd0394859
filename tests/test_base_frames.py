"""Notebook views: to_frame() gives the rows a result already writes, _repr_html_ an escaped table."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from causalcheck.base.errors import MissingExtraError
from causalcheck.base.frames import frame, html_table
from causalcheck.graphs import compare, read_graph

pandas = pytest.importorskip("pandas", reason="pandas is not installed: pip install pandas")


def test_a_graph_and_a_comparison_show_as_tables_and_frames() -> None:
    g = read_graph('dag { u [latent] "<b>" [exposure] u -> "<b>" u -> y "<b>" -> y }', format="dagitty")
    html = g._repr_html_()
    assert "&lt;b&gt;" in html and "<b>" not in html and "DAG: 3 node(s), 3 edge(s)" in html
    c = compare(g, read_graph('dag { u -> "<b>" "<b>" -> y }', format="dagitty"))
    row = c.to_frame().iloc[0]
    assert row["shd"] == c.shd and row["skeleton.f1"] == c.skeleton.f1 and row["sid.count"] == (c.sid.count if c.sid else None)
    assert "comparison over 3 nodes" in c._repr_html_()


def test_a_lab_score_report_gives_each_table_as_its_csv_and_its_intervals_as_columns(tmp_path: Path) -> None:
    from causalcheck.cli import main
    from causalcheck.lab.score import score_paths

    assert main(["lab", "run", "--agent", "planner", "--suite", "mini", "--out", str(tmp_path / "runs"), "--quiet"]) == 0
    report = score_paths([tmp_path / "runs"], resamples=50)
    episodes = report.to_frame()
    assert len(episodes) == len(report.episodes) and set(episodes["agent"]) == {"planner"}
    suites = report.to_frame("suites")
    assert {"edge_f1", "edge_f1.low", "edge_f1.high", "edge_f1.n"} <= set(suites.columns)
    assert len(report.to_frame("steps")) == sum(len(ep.steps) for ep in report.episodes)
    assert "lab scores: 12 episode(s)" in report._repr_html_()
    with pytest.raises(Exception, match="table='nope'"):
        report.to_frame("nope")


def test_a_validator_report_and_an_explain_summary_give_their_rows() -> None:
    from causalcheck.explain import (
        OfflineCriterionJudge,
        OfflineEdgeJudge,
        OfflineParser,
        load_answers,
        load_benchmark,
        score_item,
        summarize,
    )
    from causalcheck.graphs import validate_graph

    report = validate_graph(read_graph("a -> b; b -> c", format="text"))
    findings = report.to_frame()
    assert list(findings.columns) == ["code", "severity", "stage", "message", "elements"] and len(findings) == len(report.findings)
    items = load_benchmark("demo").items[:3]
    answers = load_answers("demo", "demo-strong").answers
    results = [score_item(it, answers[it.key].text or "", OfflineParser(), OfflineEdgeJudge(), OfflineCriterionJudge()) for it in items]
    summary = summarize(results)
    assert len(summary.to_frame()) == len(summary.rows) and "Final" in summary._repr_html_()


def test_without_pandas_to_frame_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingExtraError, match="pip install"):
        frame([{"a": 1}], "Test.to_frame()")


def test_an_html_table_shows_at_most_its_row_limit_and_escapes_every_cell() -> None:
    from causalcheck.base.frames import HTML_MAX_ROWS

    html = html_table([{"x": f"<{k}>"} for k in range(HTML_MAX_ROWS + 3)], "<cap>")
    assert html.count("<tr>") == HTML_MAX_ROWS + 1 and "3 more rows" in html and "&lt;cap&gt;" in html
