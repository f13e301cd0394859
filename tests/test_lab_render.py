"""The texts a lab agent reads: number types, the crystal and reactor blocks, the observation text."""

from __future__ import annotations

from causalcheck.lab.render import (
    REACTOR_KEY_ORDER,
    crystal_lines,
    observation_text,
    reactor_lines,
    show_number,
)

OBS = {
    "step": 2,
    "phase": "reactor",
    "state": {"b": 3.0, "a": 1.5, "resonanceFreq": 16.0},
    "interventions_used": 1,
    "interventions_left": 1,
    "submissions_used": 0,
    "submissions_left": 3,
    "reactor_props": {"b": 4.0, "density": 7.0, "moisture": 2.0},
    "response": {"accepted": False, "refused": "the Property Manipulator is locked after the reactor was opened"},
    "done": False,
    "success": False,
    "reward": 0.0,
    "oracle_chains": (("a", "b", "resonanceFreq"),),
    "candidates": ((("a", "b"),), ()),
}


def test_numbers_print_with_the_type_the_original_holds_them_in() -> None:
    """An int-held integral value prints without a point; a float-held one, or a fraction, as Python's float repr."""
    assert [show_number(39.0, True), show_number(39.0, False), show_number(114.25, True), show_number(-0.0, True)] == ["39", "39.0", "114.25", "0"]


def test_the_crystal_block_follows_the_given_order_and_display_names() -> None:
    """Lines in the state's order unless an order is given; display names where known, a rule beneath."""
    state = {"a": 1.0, "b": 2.5}
    assert crystal_lines(state, {"a": True}, None, {"a": "Alpha"}) == "Crystal Analysis:\n  Alpha: 1\n  b: 2.5\n  " + "\u2500" * 19
    assert crystal_lines(state, {}, ("b", "a"), {}).splitlines()[1:3] == ["  b: 2.5", "  a: 1.0"]


def test_the_reactor_block_lists_its_known_keys_first() -> None:
    """The reactor dialog's keys in REACTOR_KEY_ORDER, then any other key in the crystal's order."""
    text = reactor_lines({"zeta": 1.0, "moisture": 2.0, "temperatureC": 25.0}, {"moisture": True})
    assert REACTOR_KEY_ORDER[:2] == ("temperatureC", "moisture")
    assert text.splitlines() == ["Crystal properties (directly shown):", "- temperatureC: 25.0", "- moisture: 2", "- zeta: 1.0"]


def test_the_observation_text_has_every_block_in_order() -> None:
    """Header, the refusal, the crystal, uses, oracle chains, candidates, the reactor and its usage."""
    text = observation_text(OBS, {"b": True}, {"density": True}, None, {"resonanceFreq": "Resonance Frequency (Hz)"})
    assert text.splitlines() == [
        "Step 2 — phase: reactor",
        "Refused: the Property Manipulator is locked after the reactor was opened",
        "Crystal Analysis:",
        "  b: 3",
        "  a: 1.5",
        "  Resonance Frequency (Hz): 16.0",
        "  " + "\u2500" * 19,
        "  Uses: 1/2 (Remaining: 1)",
        "Oracle chain: a -> b -> resonanceFreq",
        "Candidate graphs consistent with your interventions (2 shown):",
        "  a -> b",
        "  (no edges)",
        "Crystal properties (directly shown):",
        "- moisture: 2.0",
        "- density: 7",
        "- b: 4.0",
        "Usage: 0/3 submissions.",
    ]
    done = observation_text({**OBS, "response": {"accepted": True, "message": "ok"}, "done": True, "success": True}, {}, {}, None, {})
    assert done.splitlines()[1] == "ok" and done.endswith("The episode is over. The reactor is activated.")
