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


_CHAT: dict[str, CausaLabEnv] = {}


def _pair() -> tuple[CausaLabEnv, CausaLabEnv]:
    if not _CHAT:
        _CHAT["prompt"] = CausaLabEnv("mini")
        _CHAT["chat"] = CausaLabEnv("mini", observation="chat")
    return _CHAT["prompt"], _CHAT["chat"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.lists(_REPLIES, min_size=1, max_size=12))
def test_chat_mode_plays_the_same_episode_as_prompt_mode(seed: int, replies: list[str]) -> None:
    """The same replies in both observation modes: the same rewards, terminations, infos (the messages
    aside) and trajectory; each chat observation is the environment's observation text, and the
    conversation is the system message, the first prompt and one reply / user-turn pair per step."""
    penv, cenv = _pair()
    pobs, pinfo = penv.reset(seed=seed)
    cobs, cinfo = cenv.reset(seed=seed)
    assert cobs == pobs and cinfo == pinfo
    head = pinfo["messages"]
    for k, reply in enumerate(replies, 1):
        pobs, preward, pterm, ptrunc, pinfo = penv.step(reply)
        cobs, creward, cterm, ctrunc, cinfo = cenv.step(reply)
        assert (creward, cterm, ctrunc) == (preward, pterm, ptrunc)
        assert {n: v for n, v in cinfo.items() if n != "messages"} == {n: v for n, v in pinfo.items() if n != "messages"}
        assert cobs == cenv.observation.text and cobs in pobs
        messages = cinfo["messages"]
        assert len(messages) == 2 + 2 * k and messages[:2] == head
        assert [m["role"] for m in messages[2:]] == ["assistant", "user"] * k and messages[-1]["content"] == cobs
        json.dumps(cinfo, ensure_ascii=False).encode("utf-8")
        if pterm or ptrunc:
            break
    assert cenv.trajectory == penv.trajectory


_FLAGS = [{}, {"do": True}, {"interventions": 1, "submissions": 1}, {"submissions": 0}, {"budget": "1o2i", "known_structure": True}]
_LISTING: dict[int, CausaLabEnv] = {}


def _listing(k: int) -> CausaLabEnv:
    if k not in _LISTING:
        _LISTING[k] = CausaLabEnv("mini", valid_actions=True, **_FLAGS[k])
    return _LISTING[k]


_NUMBERS = st.integers(-(10**6), 10**6) | st.floats(allow_nan=False, allow_infinity=False)


def _fill(data: st.DataObject, form: dict[str, Any]) -> dict[str, Any]:
    """An action of the listed *form*: each argument drawn from what the form allows."""
    fields: dict[str, Any] = {"action": form["action"]}
    for arg in ("arg1", "arg2"):
        allowed = form.get(arg)
        if allowed is None:
            continue
        fields[arg] = data.draw(st.sampled_from(allowed["enum"]) if "enum" in allowed else _NUMBERS, label=arg)
    return fields


@settings(max_examples=60, deadline=None)
@given(st.integers(0, len(_FLAGS) - 1), st.integers(0, 2**31 - 1), st.data())
def test_every_action_listed_as_valid_is_accepted(k: int, seed: int, data: st.DataObject) -> None:
    """Playing any action of info["valid_actions"], with any argument it allows, is never refused nor
    degraded (no format penalty), whatever the options and the state; a finished episode lists none."""
    env = _listing(k)
    _, info = env.reset(seed=seed)
    for _ in range(12):
        forms = info["valid_actions"]
        assert forms and forms[-1] == {"action": "SUBMIT"}
        fields = _fill(data, data.draw(st.sampled_from(forms), label="form"))
        _, _, terminated, truncated, info = env.step(json.dumps(fields))
        assert not info["refused"] and not info.get("degraded"), (fields, info.get("refused"), info.get("error"))
        assert info["reward_terms"]["format"] == 0.0
        if terminated or truncated:
            assert info["valid_actions"] == []
            break
