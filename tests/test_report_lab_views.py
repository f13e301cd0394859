"""Lab views: running-episode curves reach 0, the headline view says what its points are, ties are named."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from causalcheck.report.document import FigureBlock, Section, Text
from causalcheck.report.figures import LineChart, ScatterChart
from causalcheck.report.lab_views import LabEpisode, lab_sections, running, select_episodes
from causalcheck.report.svg import render


def _episode(agent: str, steps: int, f1: float, acc: float = 1.0, graph: str = "g") -> dict[str, Any]:
    return {"agent": agent, "suite": "mini", "graph_id": graph, "seed": steps,
            "final": {"edge_f1": f1, "task_accuracy": acc},
            "steps": [{"step": k + 1, "edge_f1": f1} for k in range(steps)]}


def _lab(episodes: Sequence[dict[str, Any]]) -> Section:
    return lab_sections([("scores.json", {"format": "causalcheck-scores/1", "episodes": list(episodes)})], resamples=0)


def _figures(sec: Section) -> list[Any]:
    out = [b.figure for b in sec.blocks if isinstance(b, FigureBlock)]
    for c in sec.children:
        out += _figures(c)
    return out


def _texts(sec: Section) -> list[str]:
    out = [b.text for b in sec.blocks if isinstance(b, Text)]
    for c in sec.children:
        out += _texts(c)
    return out


def test_episodes_still_running_reaches_zero_for_every_agent() -> None:
    """Each agent's curve ends at 0 on the step after its longest episode (not at the count still running at its last step)."""
    sec = _lab([_episode("planner", 3, 1.0), _episode("planner", 3, 1.0), _episode("planner", 3, 1.0),
                _episode("random", 5, 0.2), _episode("random", 2, 0.4)])
    chart = next(f for f in _figures(sec) if isinstance(f, LineChart) and f.title == "Episodes still running")
    ends = {s.name: s.points[-1] for s in chart.series}
    assert ends == {"planner": (4.0, 0.0), "random": (6.0, 0.0)}
    random = next(s for s in chart.series if s.name == "random")
    assert [y for _, y in random.points] == [2.0, 2.0, 1.0, 1.0, 1.0, 0.0]


def test_running_counts_the_episodes_that_reach_each_step() -> None:
    """At step k: the episodes with k or more steps; one step past the longest: 0; no episodes: no curve."""
    eps = [LabEpisode({"steps": [{}] * n}, "a", None, "") for n in (1, 4, 4)]
    assert running(eps) == ((1.0, 3.0), (2.0, 2.0), (3.0, 2.0), (4.0, 2.0), (5.0, 0.0))
    assert running([]) == ()


def test_the_headline_view_plots_means_and_says_so_with_room_at_the_bounds() -> None:
    """Caption and description speak of agent means; axes are padded past [0, 1], so the planner's (1, 1) is drawn whole."""
    sec = _lab([_episode("planner", 2, 1.0, 1.0), _episode("planner", 2, 1.0, 1.0),
                _episode("random", 2, 0.0, 0.0), _episode("random", 2, 0.5, 1.0)])
    block = next(b for c in sec.children for b in c.blocks if isinstance(b, FigureBlock) and isinstance(b.figure, ScatterChart))
    fig = block.figure
    assert isinstance(fig, ScatterChart)
    assert "mean" in fig.x_label and "mean" in fig.y_label and "not a single episode" in block.caption
    assert "cases" not in block.caption
    assert fig.x_range[0] < 0 < 1 < fig.x_range[1] and fig.y_range[0] < 0 < 1 < fig.y_range[1]
    assert {(p.x, p.y) for p in fig.points} == {(1.0, 1.0), (0.25, 0.5)}
    svg = render(fig, "f1")
    width = float(re.search(r'width="([\d.]+)"', svg)[1])  # type: ignore[index]
    ticks = re.findall(r'class="tick"[^>]*>([^<]+)<', svg)
    assert "1" in ticks and "0" in ticks and not {"1.2", "-0.2", "1.25", "-0.25"} & set(ticks)
    # the planner's marker (a circle of radius 5) lies inside the plot, right of x=0 and left of the right edge
    (cx, cy), *_ = [(float(a), float(b)) for a, b in re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="5"', svg)]
    assert cx + 5 < width - 14 - 4 and cy - 5 > 30 + 4


def test_ties_are_named_as_ties() -> None:
    """Every episode at one edge F1: no "lowest"; a tie at the lowest value: the count and which one is shown."""
    same = [LabEpisode({"final": {"edge_f1": 1.0}}, "a", None, "") for _ in range(4)]
    reasons = [why for _, why in select_episodes(same, 3)]
    assert reasons == ["all 4 episodes tie at final edge F1 1; shown: the first in input order",
                       "next in input order", "next in input order"]
    some = [LabEpisode({"final": {"edge_f1": f}}, "a", None, "") for f in (0.5, 0.2, 0.2, 0.9)]
    chosen = select_episodes(some, 3)
    assert [(some.index(ep), why) for ep, why in chosen] == [
        (1, "lowest final edge F1 (0.200, shared by 2 episodes; the first of them in input order)"),
        (3, "highest final edge F1"), (0, "median final edge F1")]
    assert [why for _, why in select_episodes(same[:1], 2)] == ["the only episode of this agent"]


def test_the_report_says_when_the_drawn_episode_is_one_of_a_tie() -> None:
    """An agent whose episodes all reach F1 1: the report's "Chosen as" names the tie, not a lowest F1."""
    texts = _texts(_lab([_episode("planner", 2, 1.0, graph=f"g{k}") for k in range(3)]))
    chosen = [t for t in texts if t.startswith("Chosen as:")]
    assert chosen and chosen[0].startswith("Chosen as: all 3 episodes tie at final edge F1 1; shown: the first in input order.")
    assert not any("lowest final edge F1" in t for t in chosen)
