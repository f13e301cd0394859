"""The episode layer: one model for check, lab score, the audit and the runner; edge spellings; numbering."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.checking import check, check_episode
from causalcheck.episodes import (
    CHECK_NUMBERING,
    SCORE_NUMBERING,
    EpisodeRecord,
    Step,
    Unparsed,
    discover_episodes,
    episode_from_text,
    load_episode,
    load_records,
    read_episode,
)
from causalcheck.lab.audit import audit_episode
from causalcheck.lab.runner import graph_metrics, summarize_folder
from causalcheck.lab.score import score_episode
from causalcheck.lab.trajectory import write_trajectory
from causalcheck.parsing import parse_record_obj


@pytest.fixture(scope="module")
def planner_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A planner run on three graphs of the bundled mini suite."""
    from causalcheck.lab.runner import run_suite

    out = tmp_path_factory.mktemp("planner")
    run_suite("mini", "planner", out, seeds=(1,), limit=3, progress=False)
    return out


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def _rewrite_edges(path: Path, out: Path, spell: Any) -> Path:
    """A copy of a trajectory whose every hypothesis edge is written with *spell(source, target)*."""
    lines = _lines(path)
    for line in lines:
        hyp = line.get("record", {}).get("hypothesis") if line["type"] == "step" else None
        if isinstance(hyp, dict):
            hyp["edges"] = [spell(e["from"], e["to"]) for e in hyp["edges"]]
    header, *steps, summary = lines
    return write_trajectory(out, header, steps, summary)


SPELLINGS = {
    "from/to": lambda a, b: {"from": a, "to": b},
    "source/target": lambda a, b: {"source": a, "target": b},
    "cause/effect": lambda a, b: {"cause": a, "effect": b},
    "list": lambda a, b: [a, b],
    "arrow string": lambda a, b: f"{a} -> {b}",
}


def test_check_and_score_read_the_same_episode(planner_run: Path) -> None:
    """A trajectory file gives the same steps, hypotheses and findings through check and through lab score."""
    for path in sorted((planner_run / "episodes").glob("*.jsonl")):
        scored = load_episode("trajectory", path)  # what lab score reads
        checked = read_episode(path)  # what check reads
        assert checked == scored and checked.kind == "trajectory"
        records = load_records(path)
        assert [r.hypothesis for r in records] == [s.parsed.hypothesis for s in scored.steps if s.parsed]
        report = check(path)
        reports = report.parts
        assert report.kind == "trajectory" and len(reports) == len(scored.steps)
        assert reports == check_episode(scored).parts
        score = score_episode(scored)
        assert [s.step for s in score.steps] == [s.number(SCORE_NUMBERING) for s in scored.steps]
        assert [r.meta["step"] for r in reports] == [s.number(CHECK_NUMBERING) for s in scored.steps]


def test_edge_spellings_score_identically(planner_run: Path, tmp_path: Path) -> None:
    """Edges written from/to, source/target, cause/effect, as lists or as 'A -> B' strings give identical
    scores, audits, runner metrics and check findings (before the episode layer, lab score dropped every
    spelling but from/to while check read them all)."""
    for path in sorted((planner_run / "episodes").glob("*.jsonl")):
        results = {}
        for name, spell in SPELLINGS.items():
            variant = _rewrite_edges(path, tmp_path / name.replace("/", "_") / path.name, spell)
            ep = load_episode("trajectory", variant)
            score = score_episode(ep)
            truth = sorted((e["from"], e["to"]) for e in ep.require_config()["edges"])
            reports = check(variant).parts
            findings = [[(d.code, d.message) for d in r.findings if d.code != "record-drift"] for r in reports]
            hypotheses = [r.meta.get("hypothesis") for r in reports]
            results[name] = (
                score.final,
                [s.row() for s in score.steps],
                score.warnings,
                audit_episode(ep).to_json()["findings"],
                graph_metrics(ep, truth),
                findings,
                hypotheses,
            )
        baseline = results["from/to"]
        assert baseline[0]["edge_f1"] == 1.0  # the planner recovers the graph: edges are really scored
        for name, got in results.items():
            assert got == baseline, name


def test_runner_summary_reads_every_edge_spelling(planner_run: Path, tmp_path: Path) -> None:
    """The run summary recomputed from source/target trajectories equals the one of from/to trajectories."""
    for path in sorted((planner_run / "episodes").glob("*.jsonl")):
        _rewrite_edges(path, tmp_path / "episodes" / path.name, SPELLINGS["source/target"])
    assert summarize_folder(tmp_path) == summarize_folder(planner_run)
    assert summarize_folder(tmp_path)["rows"][0]["edge_f1"] == 1.0


def test_step_numbering_is_one_decision() -> None:
    """index is 0-based; label is the file's own; check and lab score both show the position from 1."""
    lines = [
        {"type": "header", "format": "causalcheck-trajectory/1"},
        {"type": "step", "step": 0, "record": {"action": "WAIT"}},
        {"type": "step", "step": 1, "record": "no record here"},
        {"type": "summary"},
    ]
    ep = episode_from_text("\n".join(json.dumps(x) for x in lines), source="t.jsonl")
    assert ep.kind == "trajectory"
    assert [(s.index, s.label) for s in ep.steps] == [(0, 0), (1, 1)]
    assert [s.number(CHECK_NUMBERING) for s in ep.steps] == [1, 2]
    assert [s.number(SCORE_NUMBERING) for s in ep.steps] == [1, 2]
    assert isinstance(ep.steps[1].record, Unparsed) and "no JSON object" in ep.steps[1].record.reason
    raw_io = episode_from_text(json.dumps({"step": 7, "raw_output": '{"action": "WAIT"}'}))
    assert raw_io.kind == "records" and raw_io.steps[0].label == 7 and raw_io.steps[0].number(CHECK_NUMBERING) == 1
    assert Step(index=3).number(CHECK_NUMBERING) == 4  # no label: the position from 1


def test_final_hypothesis_is_the_last_nonempty_one() -> None:
    """EpisodeRecord.final skips empty hypotheses and unparsed steps."""
    full = parse_record_obj({"hypothesis": {"edges": [{"from": "a", "to": "resonanceFreq"}]}})
    empty = parse_record_obj({"hypothesis": {"edges": [], "freq_equation": " ", "coefficients": {}}})
    ep = EpisodeRecord("x", "records", (Step(0, None, full), Step(1, None, empty), Step(2, None, Unparsed("bad"))))
    final = ep.final()
    assert final is not None and final[0].index == 0 and final[1].graph.pairs == {("a", "resonanceFreq")}
    assert EpisodeRecord("x", "records", ()).final() is None


def test_records_without_an_environment_cannot_be_scored(tmp_path: Path) -> None:
    """A record file has no true graph: scoring it is an InputFormatError saying so; a bad header config too."""
    ep = episode_from_text(json.dumps({"action": "WAIT"}), source="r.json")
    with pytest.raises(InputFormatError, match="no true graph config"):
        score_episode(ep)
    lines = [{"type": "header", "config": {"edges": "a->b"}}, {"type": "step", "record": {"action": "WAIT"}}, {"type": "summary"}]
    bad = episode_from_text("\n".join(json.dumps(x) for x in lines), source="t.jsonl")
    with pytest.raises(InputFormatError, match=r"t\.jsonl: header: graph config edges="):
        score_episode(bad)


def test_unfinished_trajectory_is_read_as_records(tmp_path: Path) -> None:
    """check reads the step lines of a trajectory without a summary; lab score refuses it."""
    path = tmp_path / "t.jsonl"
    path.write_text(
        json.dumps({"type": "header", "format": "causalcheck-trajectory/1"}) + "\n"
        + json.dumps({"type": "step", "step": 0, "record": {"action": "WAIT"}}) + "\n",
        encoding="utf-8",
    )
    assert read_episode(path).kind == "records" and len(load_records(path)) == 1
    assert list(discover_episodes([tmp_path])) == [("trajectory", path)]
    with pytest.raises(InputFormatError, match="no summary line"):
        load_episode("trajectory", path)


def test_strict_reading_raises_the_parse_error(tmp_path: Path) -> None:
    """With strict=True the first unparseable step raises the parser's own error."""
    from causalcheck.base.errors import DSLSyntaxError

    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps({"step": 1, "raw_output": "{\"action\": "}) + "\n", encoding="utf-8")
    (rec,) = load_records(path)
    assert isinstance(rec, Unparsed) and rec.step == 1
    with pytest.raises(DSLSyntaxError):
        load_records(path, strict=True)
