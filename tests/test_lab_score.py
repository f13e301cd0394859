"""Re-scoring: the official sample run, our own trajectories, roll-ups, outputs, bad input, CLI."""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.episodes import (
    discover_episodes,
    load_run_folder,
    read_json_values,
    true_target_frequency,
)
from causalcheck.lab import score_cli
from causalcheck.lab.score import (
    rollup,
    score_episode,
    score_paths,
    summary_markdown,
    write_outputs,
)

PUBLISHED = {  # causalab-spec §7: the official offline re-evaluation of the sample run
    "task_accuracy": 0.0,
    "root_f1": 1.0,
    "edge_precision": 0.6667,
    "edge_recall": 0.6667,
    "edge_f1": 0.6667,
    "shd": 2,
    "shd_missing": 1,
    "shd_extra": 1,
    "shd_reversed": 0,
    "parent_f1": 0.5,
    "coefficient_f1": 0.0,
}


def _cli(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="causalcheck lab")
    score_cli.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return int(args.handler(args))


@pytest.fixture(scope="module")
def own_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two small runs of our lab on the bundled mini suite (planner and random agents)."""
    from causalcheck.lab.runner import run_suite

    root = tmp_path_factory.mktemp("runs")
    run_suite("mini", "planner", root / "planner", seeds=(1,), limit=3, progress=False)
    run_suite("mini", "random", root / "random", seeds=(1, 2), limit=2, progress=False)
    return root


def test_sample_run_final_metrics_equal_the_published_reevaluation(sample_run: Path) -> None:
    """Final metrics of the official sample equal the published numbers (rounded to 4 dp)."""
    ep = score_episode(load_run_folder(sample_run))
    got = {k: round(ep.final[k], 4) if isinstance(ep.final[k], float) else ep.final[k] for k in PUBLISHED}
    assert got == PUBLISHED


def test_sample_run_corrected_formula_error(sample_run: Path) -> None:
    """The formula error is measured against the true target 156 Hz (the anchor's is ~0.26)."""
    ep = score_episode(load_run_folder(sample_run))
    assert ep.final["target_freq"] == 156.0
    assert ep.final["formula_predicted"] == pytest.approx(99.2553, abs=1e-4)
    assert ep.final["formula_abs_error"] == pytest.approx(56.7447, abs=1e-4)
    assert ep.final["formula_hit"] == 0.0
    assert ep.final["submitted"] == pytest.approx(99.25531914893617)


def test_sample_run_per_step_hypotheses_and_imec(sample_run: Path) -> None:
    """Per step: empty hypothesis until step 5, the final graph from step 7; I-MEC 2 → 1 after density."""
    ep = score_episode(load_run_folder(sample_run))
    assert len(ep.steps) == 14
    assert [s.edge.f1 for s in ep.steps[:4]] == [0.0] * 4
    assert ep.steps[4].edge.recall == pytest.approx(1 / 3)
    assert all(round(s.edge.f1, 4) == 0.6667 for s in ep.steps[6:])
    assert [s.imec_size for s in ep.steps] == [2] * 5 + [1] * 9
    assert ep.steps[5].targets == ("density", "moisture")
    assert ep.final["mec_size"] == 2 and ep.final["imec_size"] == 1


def test_truth_metrics_follow_each_config(sample_run: Path, tmp_path: Path) -> None:
    """Episodes of two configs scored in turn (each config's metrics built once and reused) score as
    each does alone; a config with another edge list gives other edge metrics."""
    from causalcheck.lab import score as S

    other = tmp_path / "other" / "seed_1"
    shutil.copytree(sample_run, other)
    config = json.loads((other / "graph_config.json").read_text(encoding="utf-8"))
    config["edges"] = config["edges"][:1]
    (other / "graph_config.json").write_text(json.dumps(config), encoding="utf-8")
    alone = []
    for folder in (sample_run, other):
        S._TRUTHS.clear()
        alone.append(score_episode(load_run_folder(folder)).to_json())
    S._TRUTHS.clear()
    mixed = [score_episode(load_run_folder(folder)).to_json() for folder in (sample_run, other, sample_run, other)]
    assert mixed == alone + alone
    assert alone[0]["final"]["edge_recall"] != alone[1]["final"]["edge_recall"]
    assert len(S._TRUTHS) == 2


def test_sample_run_reading(sample_run: Path) -> None:
    """The reader finds 3 interventions, the reactor crystal, the budget and the outcome."""
    ep = load_run_folder(sample_run)
    assert [s.intervention for s in ep.steps if s.intervention] == [
        ("moisture", 50.0),
        ("density", 80.0),
        ("quantumSize", 100.0),
    ]
    assert ep.reactor_props == {"temperatureC": 25.0, "moisture": 34.0, "density": 97.0, "quantumSize": 114.0}
    assert ep.intervention_budget == 12 and ep.submissions_used == 1 and ep.success is False
    assert [s.label for s in ep.shown[:2]] == ["prior record 1", "prior record 2"]
    assert ep.experiment_id == "4nodes_0_53calls" and ep.suite == "4nodes"


def test_run_folder_without_tracking_uses_raw_io_prompts(sample_run: Path, tmp_path: Path) -> None:
    """Without the tracking file the observations come from the next prompt; metrics are unchanged."""
    folder = tmp_path / "exp" / "seed_1"
    shutil.copytree(sample_run, folder)
    for f in folder.glob("*_tracking*.jsonl"):
        f.unlink()
    ep = load_run_folder(folder)
    assert [s.intervention for s in ep.steps if s.intervention] == [
        ("moisture", 50.0),
        ("density", 80.0),
        ("quantumSize", 100.0),
    ]
    scored = score_episode(ep)
    assert scored.final["shd"] == 2 and scored.final["target_freq"] == 156.0


def test_true_target_is_recomputed_from_the_graph(sample_run: Path) -> None:
    """F* = base_freq + density + moisture = 25 + 97 + 34 = 156 for the sample's reactor crystal."""
    cfg = json.loads((sample_run / "graph_config.json").read_text())
    assert true_target_frequency(cfg, {"density": 97, "moisture": 34, "quantumSize": 114}) == 156.0
    assert true_target_frequency(cfg, {"density": 97}) is None


def test_bad_inputs_are_reported_per_episode_while_the_batch_is_scored(sample_run: Path, tmp_path: Path) -> None:
    """Missing path, truncated JSON, no graph config, unknown nodes: each reported, the rest scored."""
    good = tmp_path / "runs" / "good" / "seed_1"
    shutil.copytree(sample_run, good)
    no_cfg = tmp_path / "runs" / "nocfg" / "seed_1"
    shutil.copytree(sample_run, no_cfg)
    (no_cfg / "graph_config.json").unlink()
    trunc = tmp_path / "runs" / "trunc" / "seed_1"
    shutil.copytree(sample_run, trunc)
    for f in trunc.glob("*_tracking*.jsonl"):
        f.unlink()
    raw = (trunc / "raw_io.jsonl").read_text(encoding="utf-8")
    (trunc / "raw_io.jsonl").write_text(raw[: len(raw) // 2], encoding="utf-8")
    unknown = tmp_path / "runs" / "unknown" / "seed_1"
    shutil.copytree(sample_run, unknown)
    for f in [*unknown.glob("*_tracking*.jsonl"), unknown / "raw_io.jsonl"]:
        text = f.read_text(encoding="utf-8")
        f.write_text(text.replace('"from": "density"', '"from": "Densty"').replace('\\"from\\": \\"density\\"', '\\"from\\": \\"Densty\\"'), encoding="utf-8")

    report = score_paths([tmp_path / "runs", tmp_path / "does-not-exist"], resamples=0)
    reasons = {Path(f.source).parent.name if f.source.endswith("seed_1") else Path(f.source).name: f.reason for f in report.failures}
    assert set(reasons) == {"nocfg", "trunc", "does-not-exist"}
    assert "graph_config.json" in reasons["nocfg"]
    assert "truncated" in reasons["trunc"]
    assert "does not exist" in reasons["does-not-exist"]
    scored = {Path(e.source).parent.name: e for e in report.episodes}
    assert set(scored) == {"good", "unknown"}
    assert any("'Densty'" in w for w in scored["unknown"].warnings)
    assert scored["unknown"].final["edge_f1"] < scored["good"].final["edge_f1"]


def test_read_json_values_reads_concatenated_pretty_json(tmp_path: Path) -> None:
    """Pretty-printed objects back to back are read one by one; a truncated tail is an error naming file and line."""
    from causalcheck.base.errors import DSLSyntaxError

    p = tmp_path / "x.jsonl"
    p.write_text('{\n  "a": 1\n}\n{"b": [1,\n 2]}\n', encoding="utf-8")
    assert read_json_values(p) == [{"a": 1}, {"b": [1, 2]}]
    p.write_text('{"a": 1}\n{"b": [1,', encoding="utf-8")
    with pytest.raises(DSLSyntaxError, match="truncated") as info:
        read_json_values(p)
    assert info.value.source == str(p) and info.value.line == 2


def test_own_trajectories_are_discovered_and_scored(own_runs: Path) -> None:
    """Our runner's trajectories are found in nested folders and scored; the planner is perfect."""
    found = list(discover_episodes([own_runs]))
    assert len(found) == 7 and all(kind == "trajectory" for kind, _ in found)
    report = score_paths([own_runs], resamples=200, seed=1)
    assert not report.failures and len(report.episodes) == 7
    planner = [e for e in report.episodes if "planner" in e.source]
    assert all(e.final["edge_f1"] == 1.0 and e.final["shd"] == 0 for e in planner)
    assert all(e.final["formula_abs_error"] is not None for e in report.episodes)
    for e in report.episodes:
        assert e.final["steps"] == len(e.steps) > 0
        sizes = [s.imec_size for s in e.steps]
        assert all(a >= b for a, b in itertools.pairwise(sizes))  # evidence never enlarges the class
        assert e.final["imec_size"] == sizes[-1]


def test_rollups_are_deterministic_and_grouped(own_runs: Path) -> None:
    """Per-graph and per-suite groups, split by agent and model; same seed → identical intervals."""
    a = score_paths([own_runs], resamples=300, seed=7)
    b = score_paths([own_runs], resamples=300, seed=7)
    assert a.by_suite == b.by_suite and a.by_graph == b.by_graph
    assert [(row["suite"], row["agent"], row["model"]) for row in a.by_suite] == [("mini", "planner", ""), ("mini", "random", "")]
    assert [row["episodes"] for row in a.by_suite] == [3, 4]
    assert sum(row["episodes"] for row in a.by_graph) == 7
    planner = [e for e in a.episodes if e.agent == "planner"]
    assert a.by_suite[0]["edge_f1"]["mean"] == pytest.approx(sum(e.final["edge_f1"] for e in planner) / 3)
    assert {(r["suite"], r["agent"]) for r in a.by_step} == {("mini", "planner"), ("mini", "random")}
    assert rollup(a.episodes, "suite", resamples=300, seed=7) == a.by_suite
    with pytest.raises(Exception, match="'seed'"):
        rollup(a.episodes, "seed")


def test_outputs_json_csv_markdown(own_runs: Path, tmp_path: Path) -> None:
    """scores.json, episodes.csv, steps.csv, inputs.csv and summary.md are written and consistent."""
    report = score_paths([own_runs], resamples=50)
    paths, removed = write_outputs(report, tmp_path / "out")
    assert sorted(p.name for p in paths) == ["episodes.csv", "inputs.csv", "scores.json", "steps.csv", "summary.md"]
    assert removed == []
    data = json.loads((tmp_path / "out" / "scores.json").read_text())
    assert data["format"] == "causalcheck-scores/1" and len(data["episodes"]) == 7
    rows = list(csv.DictReader((tmp_path / "out" / "episodes.csv").read_text().splitlines()))
    assert len(rows) == 7 and {"edge_f1", "imec_size", "audit_errors"} <= set(rows[0])
    steps = list(csv.DictReader((tmp_path / "out" / "steps.csv").read_text().splitlines()))
    assert len(steps) == sum(len(e.steps) for e in report.episodes)
    md = (tmp_path / "out" / "summary.md").read_text()
    assert "| mini |" in md and md == summary_markdown(report)


def test_cli_exit_codes(sample_run: Path, own_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Exit 0 when all scored, 1 when some failed, 2 when none could be scored."""
    assert _cli(["score", str(own_runs), "--out", str(tmp_path / "o"), "--format", "md", "--bootstrap", "0"]) == 0
    assert (tmp_path / "o" / "summary.md").exists() and not (tmp_path / "o" / "scores.json").exists()
    assert _cli(["score", str(own_runs), str(tmp_path / "missing"), "--bootstrap", "0"]) == 1
    err = capsys.readouterr().err
    assert "not scored" in err and "missing" in err
    assert _cli(["score", str(tmp_path / "missing")]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert _cli(["score", str(empty)]) == 2
    with pytest.raises(SystemExit):
        _cli(["score", str(own_runs), "--format", "xml"])


def test_cli_prints_markdown_without_out(sample_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without --out the Markdown summary goes to stdout."""
    assert _cli(["score", str(sample_run), "--bootstrap", "0"]) == 0
    out = capsys.readouterr().out
    assert "| 4nodes | react_simple-mem | gpt-5-mini | 4nodes_0_53calls | 1 |" in out


def test_lab_score_through_the_main_cli(sample_run: Path, tmp_path: Path) -> None:
    """`causalcheck lab score` is reachable from the top-level command line."""
    from causalcheck.cli import main

    assert main(["lab", "score", str(sample_run), "--out", str(tmp_path), "--format", "json", "--fast-audit"]) == 0
    data = json.loads((tmp_path / "scores.json").read_text())
    assert data["episodes"][0]["final"]["shd"] == 2
    assert data["options"]["solver_checks"] is False


def test_raw_output_with_think_block_and_fence(sample_run: Path, tmp_path: Path) -> None:
    """Records wrapped in <think> blocks and code fences are recovered from raw_io outputs."""
    from causalcheck.episodes import read_json_values as stream

    folder = tmp_path / "exp" / "seed_1"
    shutil.copytree(sample_run, folder)
    for f in folder.glob("*_tracking*.jsonl"):
        f.unlink()
    items = stream(folder / "raw_io.jsonl")
    for item in items:
        item["raw_output"] = "<think>maybe {\"edges\": []}</think>\nHere it is:\n```json\n" + item["raw_output"] + "\n```"
    (folder / "raw_io.jsonl").write_text("\n".join(json.dumps(i, indent=2) for i in items), encoding="utf-8")
    ep = score_episode(load_run_folder(folder))
    assert ep.final["shd"] == 2 and round(ep.final["edge_f1"], 4) == 0.6667
    assert not any("no JSON object" in w for w in ep.warnings)


def test_step_curves_carry_finished_episodes_forward(own_runs: Path) -> None:
    """Per-step means: step 1 counts every episode; the last step averages every episode's final values."""
    report = score_paths([own_runs], resamples=0)
    rows = [r for r in report.by_step if r["suite"] == "mini" and r["agent"] == "random"]
    assert rows[0]["step"] == 1 and rows[0]["running"] == 4
    assert [r["step"] for r in rows] == list(range(1, len(rows) + 1))
    assert rows[-1]["running"] >= 1
    finals = [e.steps[-1].edge.f1 for e in report.episodes if e.agent == "random"]
    assert rows[-1]["edge_f1"] == pytest.approx(sum(finals) / len(finals))
    assert all(r["imec_size"] >= 1 for r in rows)
    assert "## Per step" in summary_markdown(report)


def test_partial_input_is_never_silent(own_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Empty, non-UTF-8 and header-less files fail (exit 1), a copy is counted and named, removed steps warn; all in the manifest."""
    run = tmp_path / "run"
    shutil.copytree(own_runs / "planner", run)
    eps = run / "episodes"
    names = sorted(p.name for p in eps.glob("*.jsonl"))
    shutil.copy(eps / names[0], eps / "zz_copy.jsonl")
    (eps / "empty.jsonl").write_text("")
    (eps / "latin1.jsonl").write_bytes(b"\xff\xfe not utf-8\n")
    lines = (eps / names[1]).read_text().splitlines()
    (eps / "headless.jsonl").write_text("\n".join(lines[1:]) + "\n")
    del lines[2]  # a step line removed
    (eps / names[1]).write_text("\n".join(lines) + "\n")
    (run / "notes.json").write_text('{"note": 1}')
    out = tmp_path / "scores"
    assert _cli(["score", str(run), "--out", str(out), "--bootstrap", "0"]) == 1
    err = capsys.readouterr().err
    for needle in ("not scored: " + str(eps / "empty.jsonl"), "latin1.jsonl: not UTF-8", "headless.jsonl: a trajectory without its header",
                   "warning: " + str(eps / "zz_copy.jsonl") + ": the same content as", "skipped: " + str(run / "notes.json"),
                   "step lines were removed"):
        assert needle in err, (needle, err)
    data = json.loads((out / "scores.json").read_text())
    status = {Path(i["path"]).name: i["status"] for i in data["provenance"]["inputs"]}
    assert status == {**{n: "scored" for n in names}, "zz_copy.jsonl": "scored", "empty.jsonl": "failed",
                      "latin1.jsonl": "failed", "headless.jsonl": "failed", "notes.json": "skipped"}
    assert len(data["episodes"]) == len(names) + 1  # the copy is counted, as the official re-evaluation counts it
    assert all(len(i["sha256"]) == 64 for i in data["provenance"]["inputs"] if i["status"] in ("scored", "duplicate"))
    assert data["provenance"]["command"] == "causalcheck lab score" and data["provenance"]["version"]
    removed = next(e for e in data["episodes"] if e["source"].endswith(names[1]))
    assert any("step lines were removed" in w for w in removed["warnings"])
    manifest = list(csv.DictReader((out / "inputs.csv").read_text().splitlines()))
    assert len(manifest) == len(status)


def test_official_steps_removed_are_a_warning(sample_run: Path, tmp_path: Path) -> None:
    """An official raw_io.jsonl with a step taken out scores with a warning naming the gap and the count mismatch."""
    from causalcheck.episodes import read_json_values as stream

    folder = tmp_path / "exp" / "seed_1"
    shutil.copytree(sample_run, folder)
    items = stream(folder / "raw_io.jsonl")
    del items[3]
    (folder / "raw_io.jsonl").write_text("\n".join(json.dumps(i, indent=2) for i in items), encoding="utf-8")
    ep = load_run_folder(folder)
    assert any("step=5, expected 4" in w for w in ep.warnings)
    assert any("13 steps but the tracking file has 14" in w for w in ep.warnings)


def test_rescoring_with_fewer_formats_removes_stale_results(own_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A second scoring into the same --out with --format md deletes the older JSON and CSVs and says so."""
    out = tmp_path / "o"
    assert _cli(["score", str(own_runs), "--out", str(out), "--bootstrap", "0"]) == 0
    assert _cli(["score", str(own_runs), "--out", str(out), "--bootstrap", "0", "--format", "md"]) == 0
    err = capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == ["summary.md"]
    assert "removed" in err and "scores.json" in err and "episodes.csv" in err


def test_lab_score_prints_the_lost_step_warnings_by_code_not_by_wording(own_runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A reworded steps-missing notice is still printed on its own line; another warning that mentions
    'step line' (a record key) is counted with the others of its code, not printed as a lost step."""
    from causalcheck.base.errors import Notice
    from causalcheck.episodes import trajectory

    run = tmp_path / "run"
    shutil.copytree(own_runs / "planner", run)
    path = sorted((run / "episodes").glob("*.jsonl"))[0]
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    step = next(i for i, line in enumerate(lines) if line.get("type") == "step")
    lines[step]["record"] = {"step line": 1}  # not a record: an unparsed-step warning whose text says 'step line'
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    monkeypatch.setattr(trajectory, "_step_warnings", lambda *_: [Notice("reworded: one step is gone", "steps-missing")])
    assert _cli(["score", str(run), "--out", str(tmp_path / "o"), "--bootstrap", "0"]) == 0
    printed = [line for line in capsys.readouterr().err.splitlines() if line.startswith("causalcheck: warning: ")]
    assert "causalcheck: warning: reworded: one step is gone" in printed
    assert [line for line in printed if "reworded" not in line] == [
        next(line for line in printed if line.startswith("causalcheck: warning: 1 episode(s) with unparsed-step"))
    ]
    scored = json.loads((tmp_path / "o" / "scores.json").read_text())["episodes"]
    assert any("not a step record" in w and "'step line'" in w for e in scored for w in e["warnings"])


def test_dropped_hypothesis_content_is_chosen_by_code_and_field(sample_run: Path) -> None:
    """score_episode lists the repairs that dropped hypothesis content whatever their wording, and no others."""
    import dataclasses

    from causalcheck.base.errors import Notice
    from causalcheck.episodes import nonempty_hypothesis
    from causalcheck.records import StepRecord

    ep = load_run_folder(sample_run)
    first = next(i for i, s in enumerate(ep.steps) if isinstance(s.record, StepRecord) and nonempty_hypothesis(s.record) is not None)
    notes = (
        Notice("reworded: edge 2 thrown away", "not-an-edge", "hypothesis"),  # dropped hypothesis content
        Notice("hypothesis.edges[0]='ignored -> b' is a string", "edge-as-string", "hypothesis"),  # not dropped
        Notice("hypothesis-like text; ignored", "past-data-not-a-list", "past_data"),  # dropped, but not the hypothesis
    )
    record = dataclasses.replace(ep.steps[first].record, warnings=notes)  # type: ignore[type-var]
    steps = (*ep.steps[:first], dataclasses.replace(ep.steps[first], record=record), *ep.steps[first + 1:])
    scored = score_episode(dataclasses.replace(ep, steps=steps), audit=False)
    lost = [w for w in scored.warnings if w.code == "hypothesis-content-dropped"]
    assert lost == [f"step {first + 1}: reworded: edge 2 thrown away"]


def test_identical_episodes_at_two_paths_are_both_counted_and_one_path_twice_once(own_runs: Path, tmp_path: Path) -> None:
    """Like the official re-evaluation, two episodes with identical content under different names count twice (named);
    one input reached twice counts once; merge_identical counts the copies once."""
    src = sorted((own_runs / "random" / "episodes").glob("*.jsonl"))[0]
    folder = tmp_path / "eps"
    folder.mkdir()
    shutil.copy(src, folder / "a.jsonl")
    shutil.copy(src, folder / "b.jsonl")
    report = score_paths([folder, folder / "a.jsonl"], resamples=0)
    assert len(report.episodes) == 2 and report.by_suite[0]["episodes"] == 2
    status = [(Path(i["path"]).name, i["status"], Path(i.get("identical_to") or i.get("duplicate_of") or "").name) for i in report.inputs]
    assert status == [("a.jsonl", "scored", ""), ("b.jsonl", "scored", "a.jsonl"), ("a.jsonl", "duplicate", "a.jsonl")]
    assert [Path(i["path"]).name for i in report.identical] == ["b.jsonl"]
    merged = score_paths([folder], resamples=0, merge_identical=True)
    assert len(merged.episodes) == 1 and [Path(d["path"]).name for d in merged.duplicates] == ["b.jsonl"]
    assert merged.options["merge_identical"] is True and "merge_identical" not in report.options


def test_two_identical_seed_folders_are_two_episodes_as_in_the_official_reevaluation(sample_run: Path, tmp_path: Path) -> None:
    """A run folder holding one official seed folder twice under different names scores two episodes (the official counts both)."""
    shutil.copytree(sample_run, tmp_path / "runs" / "seed_1")
    shutil.copytree(sample_run, tmp_path / "runs" / "seed_2")
    report = score_paths([tmp_path / "runs"], resamples=0)
    assert [Path(e.source).name for e in report.episodes] == ["seed_1", "seed_2"]
    assert report.episodes[0].final == report.episodes[1].final
    assert [Path(i["identical_to"]).name for i in report.identical] == ["seed_1"]


def _score_tree(sample_run: Path, own_runs: Path, root: Path) -> Path:
    """A tree with every kind of input: official seed folders (one twice), trajectories, a broken folder, a skipped file."""
    for name in ("seed_1", "seed_2", "seed_3"):
        shutil.copytree(sample_run, root / "official" / name)
    (root / "official" / "seed_3" / "graph_config.json").write_text("{", encoding="utf-8")
    shutil.copytree(own_runs, root / "own")
    (root / "notes.json").write_text('{"not": "an episode"}', encoding="utf-8")
    return root


def test_workers_write_the_same_bytes_as_one_process(sample_run: Path, own_runs: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """lab score --workers 2 and 3 write scores.json, the CSVs and summary.md byte for byte as --workers 1, exit code and stderr too
    (the clock pinned with SOURCE_DATE_EPOCH: the files name the time they were written, which may cross a second between runs)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1790000000")
    tree = _score_tree(sample_run, own_runs, tmp_path / "in")
    out = tmp_path / "out"
    seen = []
    for k in ("1", "2", "3"):
        code = _cli(["score", str(tree), str(tree / "own"), "--out", str(out), "--workers", k, "--bootstrap", "50"])
        _, err = capsys.readouterr()
        seen.append((code, err, {p.name: p.read_bytes() for p in sorted(out.iterdir()) if not p.name.startswith(".")}))
    assert seen[0][0] == 1 and "seed_3" in seen[0][1]  # the broken folder is named and the run exits non-zero
    assert len(seen[0][2]) == 5
    assert seen[1] == seen[0] and seen[2] == seen[0]


def test_a_worker_that_dies_fails_only_its_episode_named_as_a_bug(sample_run: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed while scoring one episode (os._exit) fails that episode as an internal error; the others are scored."""
    import os

    from causalcheck.lab import score as S

    for name in ("seed_1", "seed_2", "seed_3", "seed_4"):
        shutil.copytree(sample_run, tmp_path / "runs" / name)
    real = S.score_episode

    def dying(ep: Any, **options: Any) -> Any:
        if ep.source.endswith("seed_2"):
            os._exit(9)
        return real(ep, **options)

    monkeypatch.setattr(S, "score_episode", dying)
    report = score_paths([tmp_path / "runs"], resamples=0, workers=2)
    assert [Path(e.source).name for e in report.episodes] == ["seed_1", "seed_3", "seed_4"]
    assert report.internal_errors == 1
    (failure,) = report.failures
    assert Path(failure.source).name == "seed_2" and "exit code 9" in failure.reason and "internal error" in failure.reason


def test_workers_must_be_a_positive_integer(sample_run: Path) -> None:
    """score_paths(workers=0) is refused with the value shown."""
    with pytest.raises(InputFormatError, match="workers=0 must be a positive integer"):
        score_paths([sample_run], workers=0)


def test_rollup_intervals_equal_bootstrap_ci_of_each_group(own_runs: Path) -> None:
    """Each roll-up interval is exactly metrics.bootstrap_ci of the group's values (the resample indices are shared per length)."""
    from causalcheck import metrics as M
    from causalcheck.lab.score import ROLLUP_KEYS

    report = score_paths([own_runs, own_runs / "planner"], resamples=0)
    episodes = list(report.episodes) * 3  # groups of several lengths
    for row in rollup(episodes, "graph", resamples=200, seed=7):
        members = [e for e in episodes if (e.suite, e.agent, e.model, e.experiment_id)
                   == (row["suite"], row["agent"], row["model"], row["experiment_id"])]
        for metric in ROLLUP_KEYS:
            vals = [float(v) for v in (e.final.get(metric) for e in members) if isinstance(v, (int, float)) and not isinstance(v, bool)]
            assert row[metric] == M.bootstrap_ci(vals, resamples=200, seed=7).to_json()
