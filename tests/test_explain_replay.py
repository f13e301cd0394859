"""Replaying a judged result file reproduces its numbers exactly.

The comparison with the original system is the one test on the recorded upstream file
(``whatif_result``: skips without the anchors); the rest run on our own LLM pipeline's result
file (``own_llm_result``: parser and heuristic items, a failed edge call) and on offline results.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from causalcheck.cli import main
from causalcheck.explain.replay import replay_file, replay_payload

OWN_HEURISTIC, OWN_PARSER, OWN_CLEAN = "fixture_hass_0001", "fixture_stem_0002", "fixture_hyb_0003"


@pytest.mark.parametrize(("result", "n_items"), [("own_llm_result", 6), ("whatif_result", 9)])
def test_replay_reproduces_every_item_and_the_summary_exactly(result: str, n_items: int, request: pytest.FixtureRequest) -> None:
    """Per-item PM, RM, Final and the summary means equal the recorded floats (causal PM); the upstream
    file (the original system's numbers) and our LLM pipeline's file."""
    path: Path = request.getfixturevalue(result)
    report = replay_file(path)
    assert report.pm_mode == "causal"
    recorded = json.loads(path.read_text(encoding="utf-8"))
    assert len(report.items) == len(recorded["items"]) == n_items
    for rep, item in zip(report.items, recorded["items"], strict=True):
        assert rep.replayed == (item["pm_score"], item["rm_score"], item["total_score"])
        assert rep.parse_match is True
    summary = recorded["summary"]
    for key in ("pm_mean", "rm_mean", "total_mean", "n_items"):
        assert report.summary_replayed[key] == summary[key]
    assert report.ok


def test_replay_flags_recorded_failures_as_degraded(own_llm_result: Path) -> None:
    """Heuristic items (parser connection reset) and edge errors are degraded, never silent zeros."""
    report = replay_file(own_llm_result)
    by_key = {i.key: i.result for i in report.items}
    first = by_key[OWN_HEURISTIC]
    assert first.degraded
    assert any("heuristic" in r for r in first.degraded_reasons)
    assert any("Connection reset" in r and "edge #1" in r for r in first.degraded_reasons)
    assert not by_key[OWN_CLEAN].degraded


def test_all_edge_mode_differs_on_a_causal_pm_file(own_llm_result: Path) -> None:
    """The all-edge PM does not reproduce a file scored with the causal PM whose heuristic item had 'yes'
    edges (its causal PM is 0: a SEQUENCE chain has no causal edge)."""
    report = replay_file(own_llm_result, pm_mode="all")
    assert not report.summary_match
    assert report.items[0].key == OWN_HEURISTIC and report.items[0].recorded[0] == 0.0
    assert report.items[0].replayed[0] > 0


def test_tampered_score_is_detected(own_llm_result: Path) -> None:
    """Changing one recorded edge verdict breaks the match for that item and the summary."""
    payload = json.loads(own_llm_result.read_text(encoding="utf-8"))
    item = next(i for i in payload["items"] if i["canonical_id"] == OWN_PARSER)
    causal = next(k for k, e in enumerate(item["metrics"]["pm"]["graph"]["edges"]) if e["relation_type"] == "RESULT")
    item["metrics"]["pm"]["edges"][causal]["score"] = 1.0 - item["metrics"]["pm"]["edges"][causal]["score"]
    report = replay_payload(payload)
    assert not report.ok
    assert [i.match for i in report.items].count(False) == 1


def test_cli_replay_exit_code_and_outputs(own_llm_result: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`explain replay FILE --out DIR` exits 0 and writes a result file with the same summary (exit 1 while
    the file records a failed item, naming it)."""
    recorded = json.loads(own_llm_result.read_text(encoding="utf-8"))
    assert main(["explain", "replay", str(own_llm_result)]) == 1
    assert "item 'fixture_hass_0004' failed in the recorded run" in capsys.readouterr().err
    path = tmp_path / own_llm_result.name
    path.write_text(json.dumps({**recorded, "failures": []}), encoding="utf-8")
    code = main(["explain", "replay", str(path), "--out", str(tmp_path / "out")])
    assert code == 0
    assert "matches the recorded summary" in capsys.readouterr().out
    written = json.loads((tmp_path / "out" / f"{own_llm_result.stem}_replay.json").read_text(encoding="utf-8"))
    assert written["summary"] == recorded["summary"]
    assert [i["total_score"] for i in written["items"]] == [i["total_score"] for i in recorded["items"]]


def test_replay_rejects_non_result_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An item that is not a judged result item is listed as not replayable with the reason; nothing replayed -> exit 2."""
    bad = tmp_path / "x.json"
    bad.write_text('{"items": [{"id": 1, "question": "q"}]}', encoding="utf-8")
    report = replay_file(bad)
    assert not report.items and not report.ok
    assert report.unreplayed[0]["key"] == "1" and "metrics.pm" in report.unreplayed[0]["error"]
    assert main(["explain", "replay", str(bad)]) == 2
    assert "item '1' could not be replayed" in capsys.readouterr().err
    assert main(["explain", "replay", str(tmp_path / "missing.json")]) == 2


def test_replay_of_an_offline_result_file(tmp_path: Path) -> None:
    """A result file written by `explain score` replays to the same numbers and graphs."""
    assert main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong", "--out", str(tmp_path)]) == 0
    report = replay_file(tmp_path / "demo-strong_metrics_offline.json")
    assert report.ok and len(report.items) == 12
    assert all(i.parse_match is True and i.source == "offline" for i in report.items)


@pytest.mark.parametrize(
    ("path", "value", "match"),
    [
        (("metrics", "rm", "criterion_evaluations", 0, "score"), "seven", "must be an integer"),
        (("parsed_rst", "tree"), "x", "parsed_rst.tree='x' must be an object"),
        (("parsed_rst", "edus"), 5, "parsed_rst.edus=5 must be a list"),
        (("pm_score",), None, "pm_score=None"),
        (("metrics", "pm", "graph"), 5, "parsed_dag=5"),
    ],
)
def test_replay_of_corrupt_records_lists_the_item_and_replays_the_rest(own_llm_result: Path, path: tuple, value: object, match: str) -> None:
    """A corrupted recorded value makes that item unreplayable with a message naming it; the other items are replayed."""
    payload = json.loads(own_llm_result.read_text(encoding="utf-8"))
    target = payload["items"][0]
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    report = replay_payload(payload)
    assert len(report.items) == len(payload["items"]) - 1 and not report.ok
    [bad] = report.unreplayed
    assert bad["key"] == payload["items"][0]["canonical_id"] and re.search(match, bad["error"])


_WRONG_TYPES: list[object] = [None, True, 7.5, "x", [], {"a": 1}, 10**60]


def _paths(obj: object, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:2]):
            out += _paths(v, (*prefix, i))
    return out


def test_every_field_of_a_damaged_result_file_can_have_the_wrong_type(own_llm_result: Path, own_result: Path) -> None:
    """Replacing any field of a recorded item (or the file) by a value of another type never raises anything
    but InputFormatError; the damaged item is listed as unreplayable (wrong-typed fields crashed replay with exit 70)."""
    import copy

    from causalcheck.base.errors import CausalCheckError

    payload = json.loads(own_llm_result.read_text(encoding="utf-8"))
    offline = json.loads(own_result.read_text(encoding="utf-8"))["items"][0]
    by_source = {i["parsed_rst_source"]: i for i in [*payload["items"], offline]}
    assert sorted(by_source) == ["heuristic", "offline", "parser"]
    crashes = []
    for item in by_source.values():  # a heuristic, a parser and an offline-parser item
        for path in _paths(item):
            for value in _WRONG_TYPES:
                damaged = copy.deepcopy(item)
                target = damaged
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = value
                try:
                    replay_payload({"meta": payload["meta"], "state": {}, "items": [damaged]})
                except CausalCheckError:
                    pass
                except Exception as exc:
                    crashes.append((path, value, f"{type(exc).__name__}: {exc}"))
    for key in ("meta", "state", "summary", "failures", "items"):
        for value in _WRONG_TYPES:
            top = {**payload, "items": payload["items"][:1], key: value}
            try:
                replay_payload(top)
            except CausalCheckError:
                pass
            except Exception as exc:
                crashes.append(((key,), value, f"{type(exc).__name__}: {exc}"))
    assert crashes == []


def test_a_float_where_an_integer_is_recorded_is_refused_not_truncated(own_llm_result: Path) -> None:
    """A criterion score of 7.5 is reported as not an integer (it was silently truncated to 7); 7.0 reads as 7."""
    payload = json.loads(own_llm_result.read_text(encoding="utf-8"))
    item = payload["items"][0]
    item["metrics"]["rm"]["criterion_evaluations"][0]["score"] = 7.5
    report = replay_payload({"items": [item], "state": {}})
    assert "must be an integer" in report.unreplayed[0]["error"]
    scores = item["metrics"]["rm"]["criterion_evaluations"]
    scores[0]["score"] = float(item["metrics"]["rm"]["criterion_scores"][0])
    assert replay_payload({"items": [item], "state": {}}).items[0].match


def test_our_result_files_record_pm_mode_and_replay_with_it(tmp_path):
    """A result scored with --pm-mode all records it in meta; replay 'auto' then uses it and matches."""
    import json

    from causalcheck.cli import main
    from causalcheck.explain.replay import replay_file

    out = tmp_path / "o"
    args = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-weak", "--out", str(out), "--pm-mode", "all"]
    assert main(args) == 0
    [path] = sorted(out.glob("*_metrics_*.json"))
    payload = json.loads(path.read_text())
    assert payload["meta"]["pm_mode"] == "all"
    assert "PM over all edges" in path.with_suffix(".md").read_text()
    report = replay_file(path)
    assert report.pm_mode == "all" and report.summary_match


def test_summary_means_are_the_released_evaluators_correctly_rounded_means(tmp_path: Path) -> None:
    """A file whose recorded summary is the released evaluator's (fsum / n) replays with a matching summary,
    on RM values where a left-to-right sum gives another last digit (upstream's 12-item gpt-5.4 file: 0.6183333333333333)."""
    import math
    import random

    assert main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--model", "demo-strong", "--out", str(tmp_path)]) == 0
    path = tmp_path / "demo-strong_metrics_offline.json"
    payload = json.loads(path.read_text(encoding="utf-8"))
    rng = random.Random(3)
    for _attempt in range(200):  # criterion scores whose RM values a left-to-right sum rounds differently
        for item in payload["items"]:
            evals = item["metrics"]["rm"]["criterion_evaluations"]
            ints = [rng.randint(4, 9) for _ in evals]
            for ev, v in zip(evals, ints, strict=True):
                ev["score"] = v
            raw = sum(ints) / len(ints)
            item["metrics"]["rm"].update(score=min(1.0, raw / 10), raw_score_10=raw, criterion_scores=ints)
            item["rm_score"] = item["metrics"]["rm"]["score"]
            item["total_score"] = (item["pm_score"] + item["rm_score"]) / 2
        rms = [i["rm_score"] for i in payload["items"]]
        if sum(rms) / len(rms) != math.fsum(rms) / len(rms):
            break
    else:
        pytest.fail("no discriminating RM values found")
    for key, field in (("pm_mean", "pm_score"), ("rm_mean", "rm_score"), ("total_mean", "total_score")):
        values = [i[field] for i in payload["items"]]
        payload["summary"][key] = math.fsum(values) / len(values)
    payload["meta"].pop("causalcheck", None)
    path.write_text(json.dumps(payload), encoding="utf-8")
    report = replay_file(path)
    assert all(i.match for i in report.items)
    assert report.summary_replayed["rm_mean"] == payload["summary"]["rm_mean"] != sum(rms) / len(rms)
    assert report.summary_match and report.ok
