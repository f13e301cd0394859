"""Episodes: budgets, refusals, phase lock, reactor tolerance, seeding and the optional features."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from causalcheck.base.errors import BudgetExceededError, InputFormatError
from causalcheck.graph import FREQ
from causalcheck.lab.episode import Episode, EpisodeConfig, LabAction
from causalcheck.lab.suites import SuiteGraph, load_suite, parse_suite_record

CHAIN = {
    "graph_id": "chain3",
    "nodes": {
        "resonanceFreq": {"is_controllable": False, "computation": "base_freq + coeff_b_freq * b"},
        "b": {"is_controllable": True, "computation": "base_b + coeff_a_b * a"},
        "a": {"is_controllable": True},
    },
    "edges": [{"from": "a", "to": "b"}, {"from": "b", "to": "resonanceFreq"}],
    "params": {"base_freq": 10, "coeff_b_freq": 2, "coeff_a_b": 3},
    "budget": 2,
}


def _graph(**extra: object) -> SuiteGraph:
    return parse_suite_record({**json.loads(json.dumps(CHAIN)), **extra})


def test_same_seed_same_episode_other_seed_differs() -> None:
    """Crystal bases come from explicit seeds, not Python's salted hash()."""
    g = _graph()
    a, b, c = Episode(g), Episode(g), Episode(g)
    ta, oa = a.reset(3)
    tb, ob = b.reset(3)
    c.reset(4)
    assert oa.state == ob.state and a.target_freq == b.target_freq and ta.text == tb.text
    assert (a.manipulator_initial, a.reactor_props) != (c.manipulator_initial, c.reactor_props)


def test_refusals_never_crash_and_are_counted() -> None:
    """Unknown property, non-number, the frequency and a spent budget are refused observations."""
    ep = Episode(_graph())
    ep.reset(1)
    cases = [
        (LabAction.intervene("salinity", 3), "salinity"),
        (LabAction.intervene("a", "lots"), "'lots'"),
        (LabAction.intervene("a", float("nan")), "nan"),
        (LabAction.intervene(FREQ, 3), "not controllable"),
        (LabAction("teleport"), "teleport"),
    ]
    for action, needle in cases:
        obs = ep.step(action)
        assert obs.response["accepted"] is False and needle in obs.response["refused"]
        assert obs.interventions_used == 0
    ep.step(LabAction.intervene("a", 10))
    ep.step(LabAction.intervene("b", "20"))
    obs = ep.step(LabAction.intervene("a", 30))
    assert obs.response["accepted"] is False and "budget spent" in obs.response["refused"]
    assert obs.interventions_used == 2 and obs.interventions_left == 0 and obs.step == 8


@pytest.mark.parametrize("value", [float("nan"), float("inf"), "NaN", "Infinity", "-Infinity", True, False])
def test_nan_infinity_and_booleans_are_refused_without_spending_budget(value: object) -> None:
    """The original accepts NaN, Infinity and true as values and spends a use; we refuse them and spend nothing."""
    ep = Episode(_graph())
    ep.reset(1)
    obs = ep.step(LabAction.intervene("a", value))
    assert obs.response["accepted"] is False and "finite number" in obs.response["refused"]
    assert obs.interventions_used == 0 and obs.state == ep.manipulator_initial


def test_reactor_locks_manipulator_and_checks_tolerance_strictly() -> None:
    """Opening the reactor locks the machine; |f − F*| < 5 activates, exactly 5 does not."""
    ep = Episode(_graph())
    _, obs = ep.reset(1)
    assert obs.reactor_props is None
    obs = ep.step(LabAction("open_reactor"))
    assert obs.phase == "reactor" and obs.reactor_props == ep.reactor_props
    assert ep.step(LabAction.intervene("a", 1)).response["accepted"] is False
    obs = ep.step(LabAction.submit(ep.target_freq + 5.0))
    assert obs.response["reactor_feedback"] == "uncalibrated" and not obs.done
    obs = ep.step(LabAction.submit(ep.target_freq - 4.99))
    assert obs.success and obs.done and obs.reward == 1.0
    assert ep.summary()["reactor_abs_error_true"] == pytest.approx(4.99)
    with pytest.raises(BudgetExceededError, match="episode is over"):
        ep.step(LabAction("wait"))


def test_submissions_budget_ends_the_episode() -> None:
    """Three wrong submissions end the episode without success; a bad number is refused."""
    ep = Episode(_graph(), EpisodeConfig(submissions=3))
    ep.reset(1)
    assert ep.step(LabAction.submit("soon")).response["accepted"] is False
    for _ in range(3):
        obs = ep.step(LabAction.submit(-50))
    assert obs.done and not obs.success and ep.summary()["done_reason"] == "submissions-exhausted"
    assert ep.submitted == [0.0, 0.0, 0.0]


def test_anchor_ceiling_is_optional() -> None:
    """The anchor clamps at 10 000 Hz; by default we do not."""
    ep = Episode(_graph(), EpisodeConfig(freq_ceiling=10000))
    ep.reset(1)
    assert ep.step(LabAction.submit(12345)).response["submitted"] == 10000
    ep2 = Episode(_graph())
    ep2.reset(1)
    assert ep2.step(LabAction.submit(12345)).response["submitted"] == 12345


def test_anchor_submissions_cannot_activate_on_the_last_submission() -> None:
    """With anchor_submissions the 3rd correct submission fails (count before check); by default it succeeds."""
    for anchor, success in ((True, False), (False, True)):
        ep = Episode(_graph(), EpisodeConfig(anchor_submissions=anchor))
        ep.reset(1)
        ep.step(LabAction.submit(-50))
        ep.step(LabAction.submit(-50))
        obs = ep.step(LabAction.submit(ep.target_freq))
        assert obs.success is success and obs.done and ep.submissions_used == 3
    ep = Episode(_graph(), EpisodeConfig(anchor_submissions=True))
    ep.reset(1)
    ep.step(LabAction.submit(-50))
    assert ep.step(LabAction.submit(ep.target_freq)).success  # the 2nd can still activate
    assert "anchor_submissions" not in EpisodeConfig().to_json()
    assert EpisodeConfig(**EpisodeConfig(anchor_submissions=True).to_json()).anchor_submissions


def test_shift_versus_hard_do() -> None:
    """Under shifts a set child keeps following its parent; under do() it is frozen."""
    for mode, expected_follow in (("shift", True), ("do", False)):
        ep = Episode(_graph(budget=4), EpisodeConfig(intervention_mode=mode))
        ep.reset(1)
        ep.step(LabAction.intervene("b", 50))
        obs = ep.step(LabAction.intervene("a", ep.manipulator_initial["a"] + 10))
        assert (obs.state["b"] == 80.0) is expected_follow
        assert obs.state["b"] == (80.0 if expected_follow else 50.0)


def test_hidden_disturbance_is_seeded_and_spares_the_reactor(causalab_data: Path) -> None:
    """h is redrawn after every intervention from the episode seed; prior records and F* are clean."""
    g = load_suite(causalab_data / "4nodes_hidden_vrange_pm50.jsonl").graphs[0]
    clean = Episode(g, EpisodeConfig(hidden=False))
    runs = []
    for _ in range(2):
        ep = Episode(g)
        ep.reset(9)
        seen = [ep.step(LabAction.intervene(g.scm.controllable_names[0], 40 + k)).state for k in range(6)]
        runs.append(seen)
    clean.reset(9)
    assert runs[0] == runs[1]
    assert ep.target_freq == clean.target_freq and ep.prior == clean.prior
    assert g.hidden is not None
    affected = g.hidden.affected_nodes[0]
    # the affected node is off its noise-free value by ±50 in some steps, never by anything else
    offsets = []
    for k, s in enumerate(runs[0]):
        c = clean.step(LabAction.intervene(g.scm.controllable_names[0], 40 + k)).state
        offsets.append(round(s[affected] - c[affected], 2))
    assert set(offsets) <= {-50.0, 0.0, 50.0} and set(offsets) != {0.0}


def test_golden_suites_default_to_zero_interventions(causalab_data: Path) -> None:
    """Golden runs get the trace in the task and no intervention budget (anchor scripts)."""
    g = load_suite(causalab_data / "4nodes_golden.jsonl").graphs[0]
    task, obs = Episode(g).reset(1)
    assert obs.interventions_left == 0 and len(task.bootstrap) == 8
    assert "intervene density to 77.0" in task.text


def test_budget_grid_tags() -> None:
    """'3o6i' means 3 prior records and 6 interventions; nonsense tags are errors."""
    cfg = EpisodeConfig.from_tag("3o6i")
    assert (cfg.prior_records, cfg.interventions) == (3, 6)
    task, obs = Episode(_graph(), cfg).reset(2)
    assert len(task.prior_records) == 3 and obs.interventions_left == 6
    with pytest.raises(InputFormatError, match="'6i3o'"):
        EpisodeConfig.from_tag("6i3o")
    with pytest.raises(InputFormatError, match="submissions=-1"):
        EpisodeConfig(submissions=-1)


def test_oracle_chains_candidates_and_known_structure() -> None:
    """Oracle chains follow changed descendants; the tool filters graphs; the ablation shows edges."""
    g = _graph(budget=4)
    other = parse_suite_record(
        {**json.loads(json.dumps(CHAIN)), "graph_id": "fork",
         "nodes": {**CHAIN["nodes"], "resonanceFreq": {"is_controllable": False, "computation": "base_freq + coeff_b_freq * b + coeff_a_freq * a"},
                   "b": {"is_controllable": True}},
         "edges": [{"from": "b", "to": "resonanceFreq"}, {"from": "a", "to": "resonanceFreq"}],
         "params": {"base_freq": 10, "coeff_b_freq": 2, "coeff_a_freq": 1}}
    )
    cfg = EpisodeConfig(oracle_chains=True, candidate_tool=True, known_structure=True)
    ep = Episode(g, cfg, candidates=[g.scm.graph, other.scm.graph])
    task, obs = ep.reset(1)
    assert obs.candidates is not None and len(obs.candidates) == 2
    assert "a -> b" in task.text and task.structure is not None
    obs = ep.step(LabAction.intervene("a", ep.manipulator_initial["a"] + 7))
    assert obs.oracle_chains == (("a", "b", "resonanceFreq"),)
    assert obs.candidates == ((("a", "b"), ("b", "resonanceFreq")),)
    assert "Oracle chain: a -> b -> resonanceFreq" in obs.text


def test_action_from_record_forms() -> None:
    """Record action fields map onto the action vocabulary; unknown ones become a wait."""
    assert LabAction.from_record({"action": "INTERVENE", "arg1": "a", "arg2": 4}) == LabAction("intervene", "a", 4)
    assert LabAction.from_record({"action": "SET_FREQUENCY", "arg1": 9}).kind == "submit_frequency"
    assert LabAction.from_record({"action": "SUBMIT"}).kind == "finish"
    assert LabAction.from_record({"chosen_dialog_option_int": 2}).kind == "wait"
    assert LabAction.from_record({"action": "DANCE"}).text == "unknown action='DANCE'"


def test_step_before_reset_and_step_limit() -> None:
    """Stepping before reset is an error; endless waiting stops at max_steps."""
    ep = Episode(_graph(), EpisodeConfig(max_steps=3))
    with pytest.raises(BudgetExceededError):
        ep.step(LabAction("wait"))
    ep.reset(0)
    for _ in range(3):
        obs = ep.step(LabAction("wait"))
    assert obs.done and ep.done_reason == "step-limit"


def _sample_prompts(sample_run: Path) -> list[str]:
    """The raw prompts of the official sample run (raw_io.jsonl is concatenated pretty-printed JSON)."""
    text = (sample_run / "raw_io.jsonl").read_text(encoding="utf-8")
    dec, i, out = json.JSONDecoder(), 0, []
    while i < len(text):
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        obj, i = dec.raw_decode(text, i)
        raw = obj["raw_input"]
        out.append(raw if isinstance(raw, str) else json.dumps(raw, ensure_ascii=False))
    return out


def _unescape(prompt: str) -> str:
    """The prompt with the JSON escapes of its embedded UI text undone (``\\n``, ``\\u2500``)."""
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), prompt.replace("\\n", "\n"))


def _block(prompt: str, start: str, end: str) -> list[str]:
    """The lines of the first block of *prompt* from the line *start* to the line containing *end*."""
    lines = _unescape(prompt).splitlines()
    first = next(k for k, line in enumerate(lines) if line.strip() == start)
    last = next(k for k in range(first, len(lines)) if end in lines[k])
    return lines[first : last + 1]


def test_texts_print_like_the_original(sample_run: Path) -> None:
    """Prior records, the manipulator block and the reactor block read as in the official sample prompts.

    The sample crystal (4nodes_0; manipulator density 39, moisture 86, quantumSize base 70;
    reactor 97, 34, base 17) is put in through crystal presets; after "moisture to 50" the
    values are the sample's ``Moisture: 50.0`` / ``Resonance Frequency (Hz): 114.0``.
    """
    config = json.loads((sample_run / "graph_config.json").read_text(encoding="utf-8"))
    config["quadratic_metadata"] = {
        "property_manipulator": {"density": 39, "moisture": 86, "quantumSize": 70},
        "reactor": {"density": 97, "moisture": 34, "quantumSize": 17},
    }
    ep = Episode(parse_suite_record(config), EpisodeConfig(interventions=12))
    task, obs0 = ep.reset(1)
    prompts = _sample_prompts(sample_run)
    theirs = [line for line in _unescape(prompts[0]).splitlines() if line.startswith("- Observation")]
    ours = [line for line in task.text.splitlines() if line.startswith("- Observation")]
    assert ours == theirs == [
        "- Observation 1: {'density': 14, 'moisture': 3, 'resonanceFreq': 42.0, 'quantumSize': 95}",
        "- Observation 2: {'density': 35, 'moisture': 31, 'resonanceFreq': 91.0, 'quantumSize': 129}",
    ]
    manipulator = [p for p in prompts if "Crystal Analysis:" in p]
    assert _block(obs0.text, "Crystal Analysis:", "Uses:") == _block(manipulator[0], "Crystal Analysis:", "Uses:")
    obs = ep.step(LabAction.intervene("moisture", 50))
    after = next(p for p in manipulator if "Moisture: 50.0" in p)
    assert _block(obs.text, "Crystal Analysis:", "Uses:") == _block(after, "Crystal Analysis:", "Uses:")
    obs = ep.step(LabAction("open_reactor"))
    reactor = next(p for p in prompts if "Crystal properties (directly shown):" in p)
    theirs_r = [line for line in _block(reactor, "Crystal properties (directly shown):", "quantumSize") if "temperatureC" not in line]
    assert _block(obs.text, "Crystal properties (directly shown):", "quantumSize") == theirs_r  # no distractor here
    assert "Usage: 0/3 submissions." in obs.text.splitlines() and "Usage: 0/3 submissions." in _unescape(reactor)


def test_wait_is_a_known_action_not_an_unknown_one():
    """{"action": "WAIT"} (the record format's no-op) waits without an 'unknown action' message."""
    from causalcheck.lab.episode import LabAction

    assert LabAction.from_record({"action": "WAIT"}) == LabAction("wait")
    assert LabAction.from_record({"action": "wait"}) == LabAction("wait")
    assert "unknown action" in (LabAction.from_record({"action": "DANCE"}).text or "")


FORK_HIDDEN = {
    "graph_id": "fork_hidden",
    "nodes": {
        "resonanceFreq": {"is_controllable": False, "computation": "base_freq + coeff_a_freq * a + coeff_b_freq * b"},
        "a": {"is_controllable": True},
        "b": {"is_controllable": True},
    },
    "edges": [{"from": "a", "to": "resonanceFreq"}, {"from": "b", "to": "resonanceFreq"}],
    "params": {"base_freq": 10, "coeff_a_freq": 2, "coeff_b_freq": 3},
    "budget": 2,
    "quadratic_metadata": {"property_manipulator": {"a": 4, "b": 7}, "reactor": {"a": 1, "b": 1}},
}


@pytest.mark.parametrize(
    ("draw", "lines"),
    [
        (0.0, ["  a: 5.0", "  b: 7", "  resonanceFreq: 41.0"]),  # w·h == 0: the crystal as computed
        (3.0, ["  b: 10.0", "  a: 5.0", "  resonanceFreq: 50.0"]),  # float(w)·float(h) added, children-first order
    ],
)
def test_hidden_draw_prints_types_and_order_like_the_original(draw: float, lines: list[str]) -> None:
    """A zero hidden draw keeps ints and the evaluation order; a non-zero one turns affected nodes float, listed children-first.

    Found by tests/benchmarks/diff_original.py (the original's "Crystal Analysis" lines).
    """
    hidden = {"value_space": [draw], "edge_weight": 1, "affected_nodes": ["b"], "initial_value": 0}
    ep = Episode(parse_suite_record({**FORK_HIDDEN, "hidden_variable": hidden}))
    ep.reset(0)
    text = ep.step(LabAction.intervene("a", 5)).text.splitlines()
    start = text.index("Crystal Analysis:") + 1
    assert text[start : start + 3] == lines
    assert ep.hidden_value == draw


def test_lab_run_flags_and_the_episode_share_one_reading_and_one_bound() -> None:
    """EpisodeConfig.from_flags is lab run's reading of its flags; the CLI's parser bounds are the episode's own."""
    from causalcheck.lab import cli, episode

    assert (cli.MAX_PRIOR_RECORDS, cli.MAX_RUN_BUDGET) == (episode.MAX_PRIOR_RECORDS, episode.MAX_RUN_BUDGET)
    cfg = EpisodeConfig.from_flags({"budget": "3o6i", "do": True, "hidden": False, "anchor_ceiling": True, "other": 1})
    assert (cfg.prior_records, cfg.interventions, cfg.intervention_mode, cfg.hidden) == (3, 6, "do", False)
    assert cfg.freq_ceiling == episode.ANCHOR_FREQ_CEILING
    assert EpisodeConfig.from_flags({}) == EpisodeConfig()
    with pytest.raises(InputFormatError, match="max_steps=10000000 is more than"):
        EpisodeConfig(max_steps=10**7)


def test_the_reference_simulator_has_no_construction_bypass_memo_or_generated_code() -> None:
    """lab/episode.py builds its values through their constructors and keeps no memo between steps or
    episodes; lab/seeding.py draws with NumPy itself (no generated code): the simulator reads plainly."""
    import ast

    from causalcheck.lab import episode, seeding

    for module in (episode, seeding):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert not attributes & {"__new__", "__dict__", "__setattr__"}, module.__name__
        assert not names & {"exec", "eval", "compile"}, module.__name__
        assert not [n for n in ast.walk(tree) if isinstance(n, ast.Compare) and any(isinstance(o, ast.Is) for o in n.ops)
                    and not all(isinstance(c, ast.Constant) and c.value is None for c in n.comparators)], module.__name__
    # no state kept from one episode to the next: a reset after other seeds gives the first reset's episode
    ep, fresh = Episode(_graph(), EpisodeConfig(prior_records=3)), Episode(_graph(), EpisodeConfig(prior_records=3))
    ep.reset(5)
    ep.step(LabAction.intervene("a", 7))
    ep.reset(6)
    task, obs = ep.reset(5)
    assert (task, obs) == fresh.reset(5) and ep.prior == fresh.prior
