"""TRL-style reward functions: called as TRL calls them, strings and chat completions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.rl.trl import hypothesis_reward, make_hypothesis_reward, whatif_reward

DATA = [{"id": "0/2", "props": {"a": 1.0}, "freq": 12.0}, {"id": "1/2", "props": {"a": 2.0}, "freq": 14.0}]
GOOD = {"hypothesis": {"edges": [{"from": "a", "to": "resonanceFreq"}], "freq_equation": "resonanceFreq = base + c_a*a", "coefficients": {"base": 10, "c_a": 2}}, "action": "SUBMIT"}
BAD = {**GOOD, "hypothesis": {**GOOD["hypothesis"], "coefficients": {"base": 10, "c_a": 3}}}


def test_hypothesis_reward_takes_trl_arguments_and_both_completion_forms() -> None:
    """prompts, completions (str or chat messages) and the dataset columns as keywords; one float each."""
    completions = [json.dumps(GOOD), [{"role": "assistant", "content": json.dumps(BAD)}], "no record here"]
    out = hypothesis_reward(prompts=["p"] * 3, completions=completions, data=[DATA] * 3, true_edges=[[["a", "resonanceFreq"]]] * 3)
    assert len(out) == 3 and all(isinstance(x, float) for x in out)
    assert out[0] > out[1] > out[2]  # consistent > refuted (same edges) > unreadable


def test_weights_that_make_every_reward_zero_are_refused_and_a_missing_column_is_named() -> None:
    """'paper' weighs only the reactor's success, which one completion cannot earn: refused, not 0.0
    for every completion; weights select the terms; a reward without its data column names it."""
    with pytest.raises(InputFormatError, match="every reward would be 0"):
        make_hypothesis_reward("paper")
    only_format = make_hypothesis_reward({k: 0.0 for k in ("edge_f1", "parent_f1", "coefficient_f1", "shd", "consistency")})
    assert only_format(prompts=["p"] * 2, completions=[json.dumps(BAD), "no record"], data=[json.dumps(DATA)] * 2) == [0.0, -0.2]
    with pytest.raises(InputFormatError, match="'data'"):
        hypothesis_reward(prompts=["p"], completions=["{}"])


@pytest.mark.parametrize(
    ("column", "value", "needle"),
    [
        ("config", "{not json", "column 'config', row 0: the text is not JSON"),
        ("config", [1, 2], "column 'config', row 0: [1, 2] is not a suite graph's record"),
        ("true_edges", [["a"]], "column 'true_edges', row 0: edge #0=['a'] is neither"),
        ("true_edges", "[[1, 2]]", "edge #0=[1, 2] is neither"),
        ("data", "[{", "column 'data', row 0: the text is not JSON"),
        ("data", {"a": 1}, "column 'data', row 0: {'a': 1} is not a list"),
    ],
)
def test_a_column_in_no_accepted_form_is_refused_naming_it(column: str, value: object, needle: str) -> None:
    """Never a silent misreading: the column, the row and the accepted forms are named."""
    kwargs = {"data": [DATA], column: [value]}
    with pytest.raises(InputFormatError, match="accepted: ") as info:
        hypothesis_reward(prompts=["p"], completions=[json.dumps(GOOD)], **kwargs)
    assert needle in str(info.value)


def test_whatif_reward_scores_answers_with_offline_prism() -> None:
    """A strong demo answer scores more than a weak one; an empty answer scores 0."""
    root = Path(__file__).resolve().parents[1] / "core" / "data"
    item = json.loads((root / "whatif_demo.json").read_text())["items"][0]
    answers = [json.loads(line) for line in (root / "whatif_demo_answers.jsonl").read_text().splitlines() if line.strip()]
    mine = {a["model"]: a["answer"] for a in answers if a["id"] == item["canonical_id"]}
    strong, weak = mine["demo-strong"], mine["demo-weak"]
    out = whatif_reward(prompts=[item["question"]] * 3, completions=[strong, [{"role": "assistant", "content": weak}], ""], item=[item] * 3)
    assert out[0] > out[1] >= 0.0 and out[2] == 0.0
    assert out == whatif_reward(prompts=[item["question"]] * 3, completions=[strong, weak, ""], item=[item] * 3)


def test_overflowing_coefficients_and_junk_terms_score_as_refuted_never_raise() -> None:
    """Coefficients of 1e308 (their evaluation overflows) and a term undefined everywhere: a float each,
    no higher than the refuted hypothesis; one such sample never ends a training run."""
    huge = {**GOOD, "hypothesis": {**GOOD["hypothesis"], "coefficients": {"base": 1e308, "c_a": 1e308}}}
    junk = {**BAD, "hypothesis": {**BAD["hypothesis"], "freq_equation": "resonanceFreq = base + c_a*a + k/(a - a)",
                                  "coefficients": {"base": 10, "c_a": 3, "k": 0}}}  # fmt: skip
    out = hypothesis_reward(prompts=["p"] * 4, completions=[json.dumps(r) for r in (GOOD, BAD, huge, junk)], data=[DATA] * 4)
    assert out[0] > out[1] and out[2] <= out[1] and out[3] <= out[1]


def test_completions_with_lone_surrogates_never_raise() -> None:
    """A lone surrogate in a completion: the hypothesis reward counts it as unreadable (as the env does),
    the what-if reward scores the answer with U+FFFD in its place; neither raises."""
    out = hypothesis_reward(prompts=["p"] * 2, completions=[json.dumps(GOOD), "\ud800" + json.dumps(GOOD)], data=[DATA] * 2)
    assert out[1] < out[0]
    assert out[1] == hypothesis_reward(prompts=["p"], completions=["no record here"], data=[DATA])[0]
    root = Path(__file__).resolve().parents[1] / "core" / "data"
    item = json.loads((root / "whatif_demo.json").read_text())["items"][0]
    [score] = whatif_reward(prompts=["q"], completions=[[{"role": "assistant", "content": "Smaller \udfff tides shrink habitats."}]], item=[item])
    assert 0.0 <= score <= 1.0
