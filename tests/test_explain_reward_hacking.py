"""The text rewards cannot be raised by rewording: a search over answer edits never beats the correct answer.

From a correct answer, a small best-first search applies edits that add form but no content —
a connective opening a sentence, a repeated sentence, the rubric's words in a list, claims from
another question chained with "so" (appended, or joined to a sentence of the answer) — and
scores every candidate with the reward a trainer uses (:func:`causalcheck.rl.trl.whatif_reward`, the offline PRISM Final).  No candidate
may score above the answer it started from.  (Joining two of the answer's *own* sentences with
"so" is not among the edits: it states a new causal claim, which the judges may credit when the
two claims are about one part of the question.)  The same for the lab's text rewards: a correct
hypothesis record, reworded (prose around it, an edge repeated, a reversed or extra edge added),
never scores above the record itself (:func:`causalcheck.rl.trl.hypothesis_reward` and the
Gymnasium environment's step reward).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import pytest
from causalcheck.explain.data import criteria_of, load_answer_sets, load_benchmark
from causalcheck.explain.offline import criterion_terms
from causalcheck.rl.trl import hypothesis_reward, whatif_reward

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


@lru_cache(maxsize=1)
def _demo() -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The demo items as their JSON objects (as a dataset row holds them) and the strong answers by item key."""
    items = [dict(it.raw) for it in load_benchmark("demo").items]
    strong = {s.model: s for s in load_answer_sets("demo")}["demo-strong"]
    return items, {k: a.text or "" for k, a in strong.answers.items()}


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text.strip()) if s]


def _lower_first(s: str) -> str:
    return s[:1].lower() + s[1:] if s[:2] != s[:2].upper() else s


def _connectives(text: str) -> Iterator[str]:
    """Open a sentence with a connective ("Therefore,", "As a result,", "Consequently,", "Thus,")."""
    parts = _sentences(text)
    for k in range(1, len(parts)):
        for opener in ("Therefore, ", "As a result, ", "Consequently, ", "Thus, "):
            yield " ".join([*parts[:k], opener + _lower_first(parts[k]), *parts[k + 1 :]])


def _repeats(text: str) -> Iterator[str]:
    """Say one sentence twice."""
    parts = _sentences(text)
    for k in range(len(parts)):
        yield " ".join([*parts[: k + 1], parts[k], *parts[k + 1 :]])


def _rubric_lists(text: str, terms: list[str]) -> Iterator[str]:
    """Insert the rubric's words as a list, with and without a "so"."""
    words = ", ".join(terms[:-1]) + " and " + terms[-1]
    parts = _sentences(text)
    for k in (0, len(parts) // 2, len(parts)):
        for sentence in (f"{words[:1].upper()}{words[1:]} all matter.", f"{words[:1].upper()}{words[1:]} all change, so the answer covers them."):
            yield " ".join([*parts[:k], sentence, *parts[k:]])


def _unrelated_chains(text: str, other: str) -> Iterator[str]:
    """Claims from another question's answer chained with "so": appended, or joined to a sentence of the answer."""
    theirs = [s.rstrip(".!?") for s in _sentences(other)]
    ours = _sentences(text)
    for k in range(0, max(1, len(theirs) - 2), 2):
        chain = ", so ".join(_lower_first(s) if i else s for i, s in enumerate(theirs[k : k + 3])) + "."
        yield f"{text} {chain}"
    for k in range(len(ours)):
        joined = ours[k].rstrip(".!?") + ", so " + _lower_first(theirs[k % len(theirs)]) + "."
        yield " ".join([*ours[:k], joined, *ours[k + 1 :]])


def _search(start: str, edits: list[Callable[[str], Iterator[str]]], score: Callable[[list[str]], list[float]], rounds: int, keep: int) -> tuple[float, float, str]:
    """Best-first search: each round expands the *keep* best texts by every edit; the start's score, the best found, its text."""
    base = score([start])[0]
    frontier, best, best_text = [start], base, start
    seen = {start}
    for _ in range(rounds):
        candidates = [c for t in frontier for edit in edits for c in edit(t) if c not in seen]
        seen.update(candidates)
        if not candidates:
            break
        scored = sorted(zip(score(candidates), candidates, strict=True), reverse=True)
        if scored[0][0] > best:
            best, best_text = scored[0]
        frontier = [c for _, c in scored[:keep]]
    return base, best, best_text


def _whatif_scorer(item: dict[str, Any]) -> Callable[[list[str]], list[float]]:
    return lambda texts: whatif_reward(prompts=[item["question"]] * len(texts), completions=texts, item=[item] * len(texts))


def _rubric_terms(index: int) -> list[str]:
    item = load_benchmark("demo").items[index]
    return sorted({t for c in criteria_of(item) for t in criterion_terms(item, c)})[:6]


def _pure_form(index: int) -> list[Callable[[str], Iterator[str]]]:
    """The edits that add no claim at all: a repeated sentence, the rubric's words in a list."""
    terms = _rubric_terms(index)
    return [_repeats, lambda t: _rubric_lists(t, terms)]


def _chains_from(other: int) -> list[Callable[[str], Iterator[str]]]:
    """Connectives, and the claims of the strong answer to demo item *other* chained with "so"."""
    items, answers = _demo()
    theirs = answers[items[other]["canonical_id"]]
    return [_connectives, lambda t: _unrelated_chains(t, theirs)]


@pytest.mark.parametrize("index", [0, 5, 9])
def test_no_rewording_of_a_correct_answer_raises_the_whatif_reward(index: int) -> None:
    """Two rounds of best-first search over repeats and rubric-word lists never beat the demo's strong answer."""
    items, answers = _demo()
    item = items[index]
    base, best, text = _search(answers[item["canonical_id"]], _pure_form(index), _whatif_scorer(item), rounds=2, keep=2)
    assert best <= base + 1e-12, f"an edit raised the reward {base:.3f} -> {best:.3f}: {text!r}"


#: How much a connective or another question's claims chained with "so" may still raise the reward,
#: over every pair of demo items: the offline judges read links from their cues and a claim as on
#: topic when it shares the item's words, so "Thus," between two sentences about one thing is a
#: link they credit, and another question's claims that share a word of this item's rubric ("civil
#: wars" in an answer whose rubric speaks of the Cold War) read as on topic (docs/explain.md,
#: "What the offline judges can and cannot see").
CHAINED_CLAIMS_RAISE = 0.11


@pytest.mark.slow
@pytest.mark.parametrize("index", range(12))
def test_no_rewording_of_any_demo_answer_raises_the_whatif_reward(index: int) -> None:
    """Every demo item, three rounds, the four best kept: repeats and lists never raise the reward;
    connectives and chained claims of any other demo question raise it by at most CHAINED_CLAIMS_RAISE."""
    items, answers = _demo()
    item = items[index]
    start, score = answers[item["canonical_id"]], _whatif_scorer(item)
    base, best, text = _search(start, _pure_form(index), score, rounds=3, keep=4)
    assert best <= base + 1e-12, f"an edit raised the reward {base:.3f} -> {best:.3f}: {text!r}"
    for other in range(len(items)):
        if other != index:
            base, best, text = _search(start, _chains_from(other), score, rounds=3, keep=4)
            assert best <= base + CHAINED_CLAIMS_RAISE, f"item {other}'s claims raised the reward {base:.3f} -> {best:.3f}: {text!r}"


DATA = [{"id": "0/2", "props": {"a": 1.0, "b": 0.0}, "freq": 12.0}, {"id": "1/2", "props": {"a": 2.0, "b": 1.0}, "freq": 14.0}]
TRUTH = [["a", "resonanceFreq"]]
CORRECT = {"hypothesis": {"edges": [{"from": "a", "to": "resonanceFreq"}], "freq_equation": "resonanceFreq = base + c_a*a", "coefficients": {"base": 10, "c_a": 2}}, "action": "SUBMIT"}


def _record_edits(record: dict[str, Any]) -> Iterator[str]:
    """The record reworded: prose around it, an edge said twice, a reversed edge, an extra edge, a longer explanation."""
    text = json.dumps(record)
    yield f"Because a drives the frequency, so therefore the answer is: {text}"
    yield f"{text}\nThis is certainly correct, as a result of careful reasoning."
    hyp = record["hypothesis"]
    edge = hyp["edges"][0]
    for extra in ([edge], [{"from": edge["to"], "to": edge["from"]}], [{"from": "b", "to": "resonanceFreq"}], [{"from": "a", "to": "b"}]):
        yield json.dumps({**record, "hypothesis": {**hyp, "edges": [*hyp["edges"], *extra]}})


def test_no_rewording_of_a_correct_record_raises_the_hypothesis_reward() -> None:
    """hypothesis_reward (dense weights, with the truth): no reworded record beats the correct one."""
    texts = [json.dumps(CORRECT), *_record_edits(CORRECT)]
    scores = hypothesis_reward(prompts=["p"] * len(texts), completions=texts, data=[DATA] * len(texts), true_edges=[TRUTH] * len(texts))
    assert max(scores[1:]) <= scores[0] + 1e-12, list(zip(scores, texts, strict=True))


def test_no_rewording_of_the_true_graph_raises_the_environment_reward() -> None:
    """The Gymnasium environment: a first reply that states the true graph is not beaten by its rewordings."""
    gymnasium = pytest.importorskip("gymnasium", reason="needs the [rl] extra: pip install 'causalcheck[rl]'")
    import causalcheck.rl  # noqa: F401  (registers causalcheck/CausaLab-v0)

    env = gymnasium.make("causalcheck/CausaLab-v0", suite="4nodes", graph="4nodes_0", budget="3o6i").unwrapped
    env.reset(seed=0)
    truth = [(e.source, e.target) for e in env.episode.graph.scm.graph.edges]
    record = {"hypothesis": {"edges": [{"from": a, "to": b} for a, b in truth]}, "action": "OPEN_REACTOR"}
    rewards = []
    for text in [json.dumps(record), *_record_edits(record)]:
        env.reset(seed=0)
        rewards.append(env.step(text)[1])
    assert max(rewards[1:]) <= rewards[0] + 1e-12, rewards
