"""Properties of the lab: interventions move only descendants, root shifts equal do(),
budgets hold under any action sequence, and seeds fully determine an episode."""

from __future__ import annotations

from typing import Any

from causalcheck import strategies as cs
from causalcheck.graph import FREQ
from causalcheck.lab.episode import Episode, EpisodeConfig, LabAction
from causalcheck.lab.runner import run_episode
from causalcheck.lab.suites import SuiteGraph, parse_suite_record
from hypothesis import given, settings
from hypothesis import strategies as st

graphs = cs.suite_records(min_nodes=3, max_nodes=9, family=None, freq_parent=None).map(parse_suite_record)
values = st.integers(-50, 150).map(float) | st.floats(-100, 200, allow_nan=False).map(lambda v: round(v, 2))


@settings(max_examples=60)
@given(graphs, st.integers(0, 50), st.data())
def test_an_intervention_changes_only_descendants(g: SuiteGraph, seed: int, data: Any) -> None:
    """After setting X, every node that moved is X or a descendant of X."""
    ep = Episode(g, EpisodeConfig(interventions=4))
    _, obs = ep.reset(seed)
    for _ in range(3):
        x = data.draw(st.sampled_from(g.scm.controllable_names))
        before = dict(obs.state)
        obs = ep.step(LabAction.intervene(x, data.draw(values)))
        moved = {n for n in before if obs.state[n] != before[n]}
        assert moved <= {x} | set(g.scm.graph.descendants(x))
        assert obs.state[x] == round(obs.response["requested_value"], 2)


@settings(max_examples=60)
@given(graphs, st.integers(0, 50), values)
def test_shift_on_a_root_equals_do(g: SuiteGraph, seed: int, v: float) -> None:
    """For a root node, shift and hard do() give the same state."""
    roots = [n for n in g.scm.graph.roots() if n != FREQ and n in g.scm.controllable_names]
    if not roots:
        return
    states = []
    for mode in ("shift", "do"):
        ep = Episode(g, EpisodeConfig(intervention_mode=mode))  # type: ignore[arg-type]
        ep.reset(seed)
        states.append(ep.step(LabAction.intervene(roots[0], v)).state)
    assert states[0] == states[1]


actions = st.one_of(
    st.builds(LabAction.intervene, st.sampled_from(["a", "b", "density", "moisture", "ph", FREQ]), values | st.text(max_size=3)),
    st.builds(LabAction.submit, values | st.just("x")),
    st.sampled_from([LabAction("open_reactor"), LabAction("wait"), LabAction("bogus")]),
)


@settings(max_examples=60)
@given(graphs, st.integers(0, 3), st.integers(0, 3), st.lists(actions, max_size=25))
def test_budgets_are_never_exceeded(g: SuiteGraph, budget: int, subs: int, seq: list[LabAction]) -> None:
    """No action sequence uses more interventions or submissions than budgeted, nor crashes."""
    ep = Episode(g, EpisodeConfig(interventions=budget, submissions=subs))
    ep.reset(1)
    for a in seq:
        if ep.done:
            break
        obs = ep.step(a)
        assert 0 <= obs.interventions_used <= budget and obs.interventions_left >= 0
        assert 0 <= obs.submissions_used <= subs
        if ep.locked:
            assert obs.interventions_used == ep.interventions_used


@settings(max_examples=25)
@given(graphs, st.integers(0, 10**6), st.sampled_from(["random", "planner", "observational"]))
def test_identical_seeds_give_identical_trajectories(g: SuiteGraph, seed: int, agent: str) -> None:
    """Two runs with the same graph, seed and agent write the same trajectory."""
    from causalcheck.lab.agents import make_agent

    runs = [run_episode(g, make_agent(agent, seed=seed), seed) for _ in range(2)]
    assert runs[0] == runs[1]


@settings(max_examples=200)
@given(
    graphs,
    st.integers(0, 60),
    st.floats(-1e6, 1e6).map(lambda x: round(x, 2)),
    st.one_of(st.floats(-1e18, 1e18), st.integers(-10**6, 10**6).map(lambda k: k / 1000 + 0.0005)),
)
def test_shift_base_is_the_originals_arithmetic(g: SuiteGraph, pick: int, base: float, target: float) -> None:
    """shift_base equals a transcription of the original: round(v) for roots, round(v − (x − b)) else."""
    scm = g.scm
    j = scm.controllable[pick % len(scm.controllable)]
    bases = [float((7 * i) % 100) for i in range(len(scm.nodes))]
    bases[j] = base
    vals = scm.evaluate_list(bases)
    x, b = vals[j], bases[j]
    original = round(target - (x - b), 2) if scm.graph.parents(scm.nodes[j]) else round(target, 2)
    assert scm.shift_base(bases, vals, j, target) == original
