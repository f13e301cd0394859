"""causalcheck.report.plots: graphs, comparisons and score intervals drawn on matplotlib Axes (Agg backend)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from causalcheck.base.errors import InputFormatError, MissingExtraError, install_hint

matplotlib = pytest.importorskip("matplotlib", reason=f"matplotlib is not installed: {install_hint('matplotlib')}")
matplotlib.use("Agg", force=True)
import matplotlib.pyplot as plt  # noqa: E402
from causalcheck.graphchecks.validator import validate_graph  # noqa: E402
from causalcheck.graphs import compare, read_graph  # noqa: E402
from causalcheck.lab.score import ScoreReport  # noqa: E402
from causalcheck.metrics import bootstrap_ci  # noqa: E402
from causalcheck.report import plots  # noqa: E402
from causalcheck.report.check_views import graph_drawing  # noqa: E402
from causalcheck.report.figures import EDGE_STYLES, GraphFigure  # noqa: E402
from causalcheck.report.plots import plot_comparison, plot_graph, plot_scores  # noqa: E402

#: Every edge kind of the general model, one each (PAG marks).
MARKS = "a -> b; b o-> c; c <-> d; d o-o e; e o-- a; f -- a"


@pytest.fixture(autouse=True)
def _close_figures() -> Iterator[None]:
    yield
    plt.close("all")


def by_gid(ax: Any, prefix: str) -> dict[str, Any]:
    """The patches and texts of *ax* whose gid starts with *prefix*, by the rest of the gid."""
    return {a.get_gid()[len(prefix):]: a for a in [*ax.patches, *ax.texts] if (a.get_gid() or "").startswith(prefix)}


def heads(patch: Any) -> str:
    """The arrowheads of a drawn edge: ``-|>``, ``<|-|>`` or ``-``."""
    return {"CurveFilledB": "-|>", "CurveFilledA": "<|-", "CurveFilledAB": "<|-|>", "Curve": "-"}[type(patch.get_arrowstyle()).__name__]


def test_one_artist_per_node_and_the_marks_of_every_edge_kind() -> None:
    """Six nodes → six boxes; each edge drawn once with its arrowheads, each circle mark a circle at its end; one legend entry per edge kind."""
    ax = plot_graph(MARKS)
    assert sorted(by_gid(ax, "node:")) == ["a", "b", "c", "d", "e", "f"]
    edges = by_gid(ax, "edge:")
    assert {name: heads(p) for name, p in edges.items()} == {
        "a -> b": "-|>", "b o-> c": "-|>", "c <-> d": "<|-|>", "d o-o e": "-", "e o-- a": "-", "a -- f": "-",
    }
    assert sorted(by_gid(ax, "mark:")) == ["b o-> c@b", "d o-o e@d", "d o-o e@e", "e o-- a@e"]
    legend = [t.get_text() for leg in ax.figure.legends for t in leg.get_texts()]
    assert len(legend) == 5  # plain, partial, bidirected, circle, undirected
    assert any("(<->" in t for t in legend) and any("o->" in t for t in legend)


def test_the_layout_is_the_reports() -> None:
    """Node boxes sit where the HTML report's drawing of the same graph puts them."""
    g = read_graph(MARKS)
    block = graph_drawing("", g.to_dict(), [])
    assert block is not None and isinstance(block.figure, GraphFigure)
    expected = {n.id: (n.x, n.y) for n in block.figure.panels[0].nodes}
    boxes = by_gid(plot_graph(g), "node:")
    drawn = {n: (b.get_x() + b.get_width() / 2, b.get_y() + b.get_height() / 2) for n, b in boxes.items()}
    assert sorted(drawn) == sorted(expected)
    assert all(drawn[n] == pytest.approx(expected[n]) for n in expected)


def test_highlighted_edges_are_drawn_differently() -> None:
    """A band under each highlighted edge only, and the edge itself twice as wide."""
    plain = by_gid(plot_graph(MARKS), "edge:")
    ax = plot_graph(MARKS, highlight=["a -> b", ("d", "e")])
    assert sorted(by_gid(ax, "highlight:")) == ["a -> b", "d o-o e"]
    edges = by_gid(ax, "edge:")
    for name, patch in edges.items():
        factor = 2.0 if name in ("a -> b", "d o-o e") else 1.0
        assert patch.get_linewidth() == pytest.approx(factor * plain[name].get_linewidth())


def test_a_validation_highlights_the_edges_of_its_findings() -> None:
    """A graph with a cycle: its three edges drawn in the report's cycle style, each on a band."""
    r = validate_graph("a -> b; b -> c; c -> a; c -> d")
    ax = plot_graph(r)
    assert sorted(by_gid(ax, "highlight:")) == ["a -> b", "b -> c", "c -> a"]
    cycle = matplotlib.colors.to_rgba(EDGE_STYLES["cycle"].color)
    assert {n for n, p in by_gid(ax, "edge:").items() if p.get_edgecolor() == cycle} == {"a -> b", "b -> c", "c -> a"}


@pytest.mark.parametrize("bad, named", [("b -> a", "'b -> a'"), (("a", "zz"), "'zz'"), (("a", "c"), "'a' and 'c'"), (3.5, "3.5")])
def test_a_highlight_that_is_not_an_edge_of_the_graph_is_an_error_naming_it(bad: Any, named: str) -> None:
    with pytest.raises(InputFormatError, match=named):
        plot_graph("a -> b; b -> c", highlight=[bad])


def test_a_graph_without_nodes_is_an_error() -> None:
    with pytest.raises(InputFormatError, match="no nodes"):
        plot_graph(read_graph(""))


def test_a_networkx_graph_is_drawn() -> None:
    """Anything read_graph reads: a networkx DiGraph's nodes and edges."""
    nx = pytest.importorskip("networkx")
    ax = plot_graph(nx.DiGraph([("x", "y"), ("y", "z")]))
    assert sorted(by_gid(ax, "node:")) == ["x", "y", "z"] and sorted(by_gid(ax, "edge:")) == ["x -> y", "y -> z"]


def test_the_same_graph_gives_the_same_drawing() -> None:
    """Deterministic: two drawings of one graph are the same SVG bytes."""
    def svg() -> bytes:
        buf = io.BytesIO()
        with matplotlib.rc_context({"svg.hashsalt": "causalcheck"}):
            plot_graph(MARKS, highlight=["a -> b"]).figure.savefig(buf, format="svg", metadata={"Date": None})
        return buf.getvalue()

    assert svg() == svg()


COLORS = {k: matplotlib.colors.to_rgba(EDGE_STYLES[k].color) for k in ("correct", "missing", "extra", "reversed")}
COLORS["marks-differ"] = matplotlib.colors.to_rgba(plots.MARKS_DIFFER.color)


@pytest.mark.parametrize("truth, estimate", [
    ("a -> b; b -> c; c -> d", "a -> b; c -> b; b -> d"),  # two DAGs: a reversal, an extra, a missing edge
    ("a -> b; b -> c; a -> c", "a -- b; b -- c"),  # a DAG and a CPDAG: compared with the truth's CPDAG
    ("a o-> b; b <-> c; c -- d", "a -> b; b o-o c; d -- c"),  # PAG marks
    ("x -> y", "x -> y"),  # equal
])
def test_comparison_marks_equal_the_comparison_counts(truth: str, estimate: str) -> None:
    """Missing = skeleton FN, extra = skeleton FP, every mark but correct = SHD (compare's figures)."""
    c = compare(truth, estimate)
    fig = plot_comparison(truth, estimate, c)
    left, right = fig.axes
    colors = [p.get_edgecolor() for p in by_gid(right, "edge:").values()]
    counts = {k: colors.count(v) for k, v in COLORS.items()}
    assert counts["missing"] == c.skeleton.fn and counts["extra"] == c.skeleton.fp
    assert counts["missing"] + counts["extra"] + counts["reversed"] + counts["marks-differ"] == c.shd
    assert counts["correct"] + counts["missing"] + counts["extra"] + counts["reversed"] + counts["marks-differ"] == len(colors)
    assert len(by_gid(left, "node:")) == len(by_gid(right, "node:")) == c.nodes
    assert fig.legends and len(fig.legends[0].get_texts()) >= 1


def test_comparison_of_two_dags_marks_each_difference() -> None:
    """a→b→c→d against a→b, c→b, b→d: one correct, one reversed, one extra, one missing."""
    fig = plot_comparison("a -> b; b -> c; c -> d", "a -> b; c -> b; b -> d")
    right = fig.axes[1]
    status = {n: next(k for k, v in COLORS.items() if v == p.get_edgecolor()) for n, p in by_gid(right, "edge:").items()}
    assert status == {"a -> b": "correct", "c -> b": "reversed", "b -> d": "extra", "c -> d": "missing"}
    # both panels share one layout
    assert {n: b.get_x() for n, b in by_gid(fig.axes[0], "node:").items()} == {n: b.get_x() for n, b in by_gid(right, "node:").items()}


def test_a_comparison_of_other_graphs_is_an_error() -> None:
    with pytest.raises(InputFormatError, match="describes other graphs"):
        plot_comparison("a -> b; b -> c", "a -> b; c -> b", compare("a -> b; b -> c", "a -> b; b -> c"))
    with pytest.raises(InputFormatError, match="comparison="):
        plot_comparison("a -> b", "a -> b", {"shd": 0})  # type: ignore[arg-type]


def points(ax: Any) -> list[tuple[float, float | None, float | None]]:
    """``(mean, low, high)`` of every point of a score plot, top to bottom."""
    out = []
    for container in ax.containers:
        line, _, bars = container.lines
        mean = float(line.get_xdata()[0])
        if bars:
            (x0, _), (x1, _) = bars[0].get_segments()[0]
            out.append((mean, float(x0), float(x1)))
        else:
            out.append((mean, None, None))
    return out


def lab_row(agent: str, values: list[float]) -> dict[str, Any]:
    return {"suite": "mini", "agent": agent, "model": "", "episodes": len(values), "edge_f1": bootstrap_ci(values).to_json(),
            "shd": bootstrap_ci([3.0] * len(values)).to_json()}


def test_lab_scores_one_point_per_agent_with_its_interval() -> None:
    """A ScoreReport's per-suite rows: one point per agent at its mean, the whisker its bootstrap interval."""
    planner, rand = [1.0, 0.8, 0.9, 1.0, 0.7, 0.9], [0.2, 0.5, 0.1, 0.4, 0.3, 0.0]
    report = ScoreReport(episodes=(), by_suite=(lab_row("planner", planner), lab_row("random", rand)))
    ax = plot_scores(report)
    want = [bootstrap_ci(v) for v in (planner, rand)]
    assert points(ax) == [pytest.approx((w.mean, w.low, w.high)) for w in want]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["planner (n=6)", "random (n=6)"]
    assert [c.lines[0].get_gid() for c in ax.containers] == ["score:planner", "score:random"]


def explain_file(model: str, finals: list[float]) -> dict[str, Any]:
    items = [{"id": i, "question": "q", "domain": "STEM", "model_answer": "a", "pm_score": f, "rm_score": f, "total_score": f}
             for i, f in enumerate(finals)]
    return {"meta": {"answer_model": model, "judge_model": "offline"}, "items": items, "summary": {}}


def test_explain_results_one_point_per_answer_model(tmp_path: Path) -> None:
    """Result files in a folder: per answer model the mean Final with bootstrap_ci(seed 0, 1000 resamples)."""
    strong, weak = [0.9, 0.8, 0.95, 0.7, 0.85], [0.3, 0.1, 0.4]
    for name, finals in (("strong", strong), ("weak", weak)):
        (tmp_path / f"{name}_metrics_offline.json").write_text(json.dumps(explain_file(name, finals)), encoding="utf-8")
    ax = plot_scores(tmp_path)
    s = bootstrap_ci(strong)
    assert points(ax) == [pytest.approx((s.mean, s.low, s.high)), (pytest.approx(sum(weak) / 3), None, None)]  # 3 < 5 values: no interval


@pytest.mark.parametrize("source, metric, named", [
    (ScoreReport(episodes=(), by_suite=(lab_row("planner", [1.0] * 5),)), "edge_f", "did you mean 'edge_f1'"),
    (explain_file("m", [0.5] * 5), "Final", "did you mean 'final'"),
    (42, None, "source=42"),
    ({"hello": 1}, None, "neither lab scores"),
])
def test_a_bad_score_source_or_metric_is_an_error_naming_it(source: Any, metric: str | None, named: str) -> None:
    with pytest.raises(InputFormatError, match=named):
        plot_scores(source, metric)


def test_front_door_and_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    """causalcheck.report names the functions; without matplotlib each says how to install the [plot] extra."""
    import causalcheck.report as report

    assert report.plot_graph is plot_graph and report.plot_scores is plot_scores
    monkeypatch.setitem(__import__("sys").modules, "matplotlib.pyplot", None)
    with pytest.raises(MissingExtraError, match=r"causalcheck\[plot\]"):
        plot_graph("a -> b")
