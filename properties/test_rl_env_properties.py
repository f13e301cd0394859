"""The Gymnasium lab environment never crashes on a reply, and every reward term stays in its range."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed: pip install 'causalcheck[rl]'")

from causalcheck.rl.env import CausaLabEnv
from causalcheck.rl.rewards import TERMS
from hypothesis import given, settings
from hypothesis import strategies as st

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
_RECORDS = st.fixed_dictionaries(
    {"action": st.sampled_from(["INTERVENE", "OPEN_REACTOR", "SET_FREQUENCY", "SUBMIT", "WAIT", "DANCE"])},
    optional={
        "arg1": st.sampled_from(["pressure", "moisture", "nope", "12.5"]) | _JSON,
        "arg2": st.integers(-100, 200) | _JSON,
        "hypothesis": _JSON | st.just({"edges": [{"from": "pressure", "to": "resonanceFreq"}], "freq_equation": "resonanceFreq = base + c_pressure*pressure", "coefficients": {"base": None, "c_pressure": 1}})
        | st.builds(  # coefficients of any magnitude (1e308 overflows), terms undefined on every point
            lambda base, c, junk: {"edges": [{"from": "pressure", "to": "resonanceFreq"}],
                                   "freq_equation": f"resonanceFreq = base + c_pressure*pressure{junk}",
                                   "coefficients": {"base": base, "c_pressure": c, "k": 1}},
            st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([1e308, -1e308, 5e-324]),
            st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([1e308, -1e308]),
            st.sampled_from(["", " + k/(pressure - pressure)", " + k*pressure^400", " + (pressure - pressure)^(0 - 1)"]),
        ),
        "past_data": _JSON,
        "memory": _JSON,
    },
)
#: any code point, lone surrogates included (a provider's JSON "\\ud800" decodes to one)
_ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=40)
_REPLIES = (
    st.text(max_size=60)
    | _ANY_TEXT
    | _RECORDS.map(json.dumps)
    | _JSON.map(json.dumps)
    | st.tuples(_ANY_TEXT, _RECORDS.map(json.dumps)).map("".join)
)

_ENV: dict[str, Any] = {}


def _env() -> CausaLabEnv:
    if "env" not in _ENV:
        _ENV["env"] = CausaLabEnv("mini", graph=0)
    return _ENV["env"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.lists(_REPLIES, min_size=1, max_size=12))
def test_any_replies_play_without_crashing_and_keep_terms_in_range(seed: int, replies: list[str]) -> None:
    """Arbitrary text and JSON replies: each step returns a string prompt, in-range terms and JSON info."""
    env = _env()
    obs, _ = env.reset(seed=seed)
    for reply in replies:
        obs, reward, terminated, truncated, info = env.step(reply)
        assert isinstance(obs, str) and env.observation_space.contains(obs)
        terms = info["reward_terms"]
        assert all(TERMS[k][0] <= v <= TERMS[k][1] for k, v in terms.items())
        assert reward == pytest.approx(env.weights.combine(terms))
        json.dumps(info, allow_nan=False, ensure_ascii=False).encode("utf-8")  # valid UTF-8: a writer can hold it
        obs.encode("utf-8")
        if terminated or truncated:
            break
    header, steps = env.trajectory
    json.dumps([header, *steps], allow_nan=False, ensure_ascii=False).encode("utf-8")


_SCALARS = (
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats() | st.text()
    | st.sampled_from(["\u2028", "é", '"', "\\", "\x00", "\ud800"])
)


@given(st.dictionaries(st.text(max_size=8) | st.integers(0, 3), _SCALARS | _JSON, max_size=5))
def test_the_history_line_of_action_fields_is_json_dumps(fields: dict[Any, Any]) -> None:
    """The prompt's history line of a step's action fields is exactly ``json.dumps(fields, ensure_ascii=False)``
    (the flat fast path and its fallback: non-finite floats, nested values, non-string keys)."""
    from causalcheck.rl.env import _fields_json

    assert _fields_json(fields) == json.dumps(fields, ensure_ascii=False)
