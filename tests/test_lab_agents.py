"""Offline agents: the registry, the record format they emit, and what each achieves."""

from __future__ import annotations

from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graph import FREQ
from causalcheck.lab.agents import AGENTS, OFFLINE_AGENTS, Agent, make_agent
from causalcheck.lab.planner import Evidence, solve_mechanisms
from causalcheck.lab.runner import run_episode
from causalcheck.lab.suites import load_suite

RECORD_KEYS = ["memory", "thought", "past_data", "hypothesis", "experiment"]


def test_registry_and_unknown_agent() -> None:
    """Every offline agent builds an Agent; llm needs a model; an unknown name lists the known ones."""
    assert set(OFFLINE_AGENTS) < set(AGENTS) and "llm" in AGENTS
    for name in OFFLINE_AGENTS:
        assert isinstance(make_agent(name, seed=1), Agent)
    with pytest.raises(InputFormatError, match="model"):
        make_agent("llm", seed=1)
    with pytest.raises(InputFormatError, match="'planner'"):
        make_agent("oracle")
    with pytest.raises(InputFormatError, match=r"option temperature=0\.2 is not one it takes; its options: rounds, seed, verify"):
        make_agent("planner", options={"temperature": 0.2})


@pytest.mark.parametrize("name", OFFLINE_AGENTS)
def test_records_follow_the_causalab_format(name: str) -> None:
    """Each step record has the §3 keys in order and parses with the tolerant record parser."""
    from causalcheck.parsing import parse_record_obj

    g = load_suite("mini").graphs[6]
    _, steps, summary = run_episode(g, make_agent(name, seed=2), 2)
    assert steps and summary["steps"] == len(steps)
    for line in steps:
        rec = line["record"]
        assert list(rec)[:5] == RECORD_KEYS
        assert "action" in rec
        parsed = parse_record_obj(rec)
        assert parsed.hypothesis is not None
    final = steps[-1]["record"]["hypothesis"]
    assert final["freq_equation"].startswith(f"{FREQ} = base")
    for entry in steps[-1]["record"]["past_data"]:
        assert set(entry) >= {"id", "props", "freq"}


def test_planner_solves_the_bundled_suite_exactly() -> None:
    """On every mini graph the planner recovers the true edges and activates the reactor."""
    for g in load_suite("mini"):
        _, steps, summary = run_episode(g, make_agent("planner", seed=1), 1)
        assert summary["success"] and summary["edge_f1"] == 1.0, g.graph_id
        assert summary["interventions_used"] <= len(g.scm.controllable) + 1
        assert "I-MEC size" in steps[-1]["record"]["memory"]


def test_planner_reports_imec_of_its_hypothesis() -> None:
    """The step info carries the I-MEC size from the shared equivalence solver (1 once all are set)."""
    g = load_suite("mini").graphs[8]
    _, steps, _ = run_episode(g, make_agent("planner"), 1)
    sizes = [s["info"]["imec_size"] for s in steps if "info" in s]
    assert sizes[-1] == 1


def test_planner_uses_golden_traces_without_interventions(causalab_data: Path) -> None:
    """With a golden trace and zero budget the planner still recovers 4nodes_golden_0."""
    g = load_suite(causalab_data / "4nodes_golden.jsonl").graphs[0]
    _, _, summary = run_episode(g, make_agent("planner"), 1)
    assert summary["interventions_used"] == 0 and summary["success"] and summary["edge_f1"] == 1.0


def test_planner_fits_quadratic_mechanisms(causalab_data: Path) -> None:
    """Hard-quadratic graphs are solved with c2·P² + c1·P terms."""
    g = load_suite(causalab_data / "4nodes_quad_hard.jsonl").graphs[0]
    _, _, summary = run_episode(g, make_agent("planner"), 1)
    assert summary["success"]
    assert "c_density_1*density^2" in summary["final_hypothesis"]["freq_equation"]


def test_solver_prefers_the_sparsest_consistent_parents() -> None:
    """Two interventions on a chain a→b→F give b's parent a and F's parent b only."""
    ev = Evidence(("a", "b", FREQ))
    s0 = {"a": 1.0, "b": 5.0, FREQ: 20.0}
    s1 = {"a": 11.0, "b": 35.0, FREQ: 80.0}
    s2 = {"a": 11.0, "b": 40.0, FREQ: 90.0}
    ev.add_sequence([(None, s0), ("a", s1), ("b", s2)])
    mech = solve_mechanisms(ev)
    assert mech.parents == {"a": (), "b": ("a",), FREQ: ("b",)}
    assert mech.coefs[FREQ]["b"] == (2.0,) and mech.base_freq == 10.0


def test_observational_agent_never_intervenes_and_random_agent_stays_in_budget() -> None:
    """The observational agent uses no budget; the random agent never exceeds it."""
    for g in load_suite("mini").graphs[:6]:
        _, _, s = run_episode(g, make_agent("observational"), 1)
        assert s["interventions_used"] == 0
        _, steps, s = run_episode(g, make_agent("random", seed=3), 1)
        assert s["interventions_used"] <= g.budget
        assert all(line["response"].get("accepted", True) for line in steps)


@pytest.mark.parametrize("method", ["pc", "ges"])
def test_observational_search_runs_on_golden_data(causalab_data: Path, method: str) -> None:
    """With the golden trace (11 recorded states) the causal-learn search proposes edges into F."""
    g = load_suite(causalab_data / "4nodes_golden.jsonl").graphs[0]
    _, _, summary = run_episode(g, make_agent("observational", options={"method": method}), 1)
    edges = summary["final_hypothesis"]["edges"]
    assert summary["interventions_used"] == 0
    assert any(e["to"] == FREQ for e in edges)
    assert summary["edge_f1"] > 0.0
