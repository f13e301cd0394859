"""The one JSON-in-text module: the controller and first-object policies, and the stream decoder."""

from __future__ import annotations

import contextlib
import json

import pytest
from causalcheck.base.errors import DSLSyntaxError
from causalcheck.base.jsontext import (
    MAX_CANDIDATES,
    candidates,
    controller_object,
    first_object,
    iter_json_spans,
    iter_json_values,
)


def test_controller_policy_order() -> None:
    """Think blocks are blanked, json fences come first, then the whole text, then balanced objects last first."""
    text = '<think>{"draft": 1}</think>\n```python\n{"py": 1}\n```\n```json\n{"j": 1}\n```'
    bodies = [c.body.strip() for c in candidates(text)]
    assert bodies[:2] == ['{"j": 1}', '{"py": 1}']
    assert controller_object(text) == {"j": 1}
    assert controller_object('plan {"a": 1} then {"b": 2}') == {"b": 2}
    assert controller_object('{"a": 1} then {"b": 2') == {"a": 1}  # the last object is broken: the one before
    assert controller_object("no object") is None


def test_candidate_offsets_point_into_the_original_text() -> None:
    """Every candidate is the slice of the original text at its offset (think blocks keep their length)."""
    text = '<think>x</think> Here: {"a": [1, {"b": 2}]} done'
    found = list(candidates(text))
    assert len(found) == 2
    for cand in found:
        assert text[cand.start : cand.start + len(cand.body)] == cand.body


def test_first_object_policy() -> None:
    """The first object of the first fence that holds one, else the first complete object anywhere."""
    assert first_object('x {"a": {"b": 1}} y {"c": 2}') == {"a": {"b": 1}}
    assert first_object('{"outside": 1}\n```json\n{"inside": 1}\n```') == {"inside": 1}
    assert first_object('```\nno json\n``` then {"after": 1}') == {"after": 1}
    assert first_object('{"cut": ') is None


@pytest.mark.parametrize("text", ["", "   ", '{"a": [', "[" * 5000])
def test_policies_never_raise(text: str) -> None:
    """Broken, empty and deeply nested text gives None from both policies."""
    assert controller_object(text) is None or isinstance(controller_object(text), dict)
    assert first_object(text) is None


def test_stream_decoder_values_offsets_and_errors() -> None:
    """Concatenated pretty JSON decodes value by value with offsets; the first bad character raises with its position."""
    values = [{"a": 1}, [1, 2], "s"]
    text = json.dumps(values[0], indent=2) + "\n" + json.dumps(values[1]) + json.dumps(values[2])
    assert list(iter_json_values(text)) == values
    starts = [start for start, _ in iter_json_spans(text)]
    assert [text[s] for s in starts] == ["{", "[", '"'] and starts[0] == 0
    with pytest.raises(DSLSyntaxError) as info:
        list(iter_json_values('{"a": 1}\n{"b" 2}', source="f.jsonl"))
    assert (info.value.source, info.value.line, info.value.column) == ("f.jsonl", 2, 6)
    assert '":"' in info.value.expected and "^" in str(info.value)
    with pytest.raises(DSLSyntaxError, match="ends too early"):
        list(iter_json_values('{"a": [1, 2'))


# --------------------------------------------------------------------------- bounded work (class 3)
_N = 300_000
HOSTILE = {
    "unclosed fences": "```\n{" * (_N // 5),
    "json fences": '```json\n{"a\n' * (_N // 10),
    "unclosed think tags": "<think>" * (_N // 7) + '{"action": "WAIT"}',
    "think and brace": "<think>{" * (_N // 8),
    "open braces": "{" * _N,
    "brace pairs": "{}" * (_N // 2),
    "broken objects": "{x}" * (_N // 3),
    "brace quotes": '{"' * (_N // 2),
    "nested arrays": '{"a":[' * (_N // 6),
    "nested flat arrays": ('{"a":[' + "1," * 20) * (_N // 46),
    "blank lines": "\n" * _N + "{",
}


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_text_costs_linear_decoding_work(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """300 KB of unclosed fences, think tags, braces or quotes: at most a fixed number of linear passes.

    Every decode attempt is counted with the characters it may scan; the total stays within
    a small multiple of the text length (it grew with the square of the length before).
    """
    from causalcheck.base import safejson
    from causalcheck.base.errors import CausalCheckError
    from causalcheck.parsing import parse_hypothesis, parse_record

    text = HOSTILE[name]
    scanned = [0]
    real_loads, real_raw = safejson.loads, safejson.raw_decode

    def loads(body: str, **kw: object) -> object:
        scanned[0] += len(body)
        return real_loads(body, **kw)  # type: ignore[arg-type]

    def raw_decode(body: str, pos: int = 0, **kw: object) -> object:
        scanned[0] += len(body) - pos
        return real_raw(body, pos, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(safejson, "loads", loads)
    monkeypatch.setattr(safejson, "raw_decode", raw_decode)
    for fn in (parse_record, parse_hypothesis):
        with contextlib.suppress(CausalCheckError):
            fn(text)
    controller_object(text)
    first_object(text)
    assert scanned[0] <= 150 * len(text), (name, scanned[0], len(text))
    assert len(list(candidates(text))) <= MAX_CANDIDATES


def test_think_tags_are_paired_like_the_non_greedy_pattern() -> None:
    """The one-pass think stripper blanks exactly what ``<think>.*?</think>`` would, plus one unclosed tag."""
    import re

    from causalcheck.base.jsontext import strip_think

    rng = __import__("random").Random(5)
    pieces = ["<think>", "</think>", "<THINK>", "x", "{", "\n", " "]
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        expected = re.sub(r"<think>.*?</think>", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S | re.I)
        m = re.search(r"<think>", expected, flags=re.I)
        if m:
            expected = expected[: m.start()] + " " * 7 + expected[m.end() :]
        got, _ = strip_think(text)
        assert got == expected and len(got) == len(text), text
