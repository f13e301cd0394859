"""causalcheck explain agree: two result files, or a result file and human scores, joined on the item key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from causalcheck.cli import main
from causalcheck.report.agree import agree_files, read_scores


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo set scored offline: three result files (strong, weak, paraphrase answers)."""
    out = tmp_path_factory.mktemp("explain")
    assert main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(out)]) == 0
    return out


def _items(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return list(json.loads(path.read_text(encoding="utf-8"))["items"])


def test_a_file_agrees_perfectly_with_itself(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """r = rho = 1 and MAE = 0 for PM, RM and Final (where defined); every edge verdict pairs with itself: kappa 1."""
    f = results / "demo-weak_metrics_offline.json"
    assert main(["explain", "agree", str(f), str(f), "--json", "--bootstrap", "50"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matched"] == 12 and out["only_in_a"] == [] and out["only_in_b"] == []
    for m in ("pm", "rm", "final"):
        d = out["metrics"][m]
        assert d["mae"]["value"] == 0.0
        for stat in ("pearson", "spearman"):
            assert d[stat]["value"] == pytest.approx(1.0)
    assert out["edges"]["kappa"]["value"] == pytest.approx(1.0)
    assert out["edges"]["precision"] == 1.0 and out["edges"]["recall"] == 1.0


def test_two_models_join_and_mae_matches_a_direct_computation(results: Path) -> None:
    """Strong vs weak answers: MAE of Final equals the mean absolute difference computed from the files."""
    a, b = results / "demo-strong_metrics_offline.json", results / "demo-weak_metrics_offline.json"
    r = agree_files(a, b, resamples=0)
    fa = {i["canonical_id"] or str(i["id"]): i["total_score"] for i in _items(a)}
    fb = {i["canonical_id"] or str(i["id"]): i["total_score"] for i in _items(b)}
    direct = sum(abs(fa[k] - fb[k]) for k in fa) / len(fa)
    assert r.metrics["final"]["mae"]["value"] == pytest.approx(direct)
    assert r.metrics["final"]["mae"]["low"] is None  # no bootstrap asked


def test_human_scores_csv_any_subset_and_unmatched_items(results: Path, tmp_path: Path) -> None:
    """A CSV with id and final only: Final is compared, PM/RM are not; unknown and missing ids are reported."""
    f = results / "demo-strong_metrics_offline.json"
    items = _items(f)
    lines = ["id,final"] + [f"{i['canonical_id']},{i['total_score'] * 0.5 + 0.1}" for i in items[:8]] + ["nobody,0.3"]
    csv = tmp_path / "human.csv"
    csv.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = agree_files(f, csv, resamples=100, seed=3)
    assert set(r.metrics) == {"final"}
    assert r.metrics["final"]["n"] == 8
    assert r.metrics["final"]["spearman"]["value"] == pytest.approx(1.0)  # a monotone transform
    assert r.only_b == ("nobody",) and len(r.only_a) == 4
    assert r.edges is None


def test_csv_ids_match_numeric_ids_too(results: Path, tmp_path: Path) -> None:
    """A CSV may name items by their numeric id instead of the canonical id."""
    f = results / "demo-strong_metrics_offline.json"
    items = _items(f)
    csv = tmp_path / "h.csv"
    csv.write_text("id,pm,rm\n" + "\n".join(f"{i['id']},{i['pm_score']},{i['rm_score']}" for i in items) + "\n", encoding="utf-8")
    r = agree_files(f, csv, resamples=0)
    assert len(r.matched) == len(items) and r.metrics["rm"]["mae"]["value"] == 0.0


@pytest.mark.parametrize(
    ("text", "needle"),
    [("", "is empty"), ("name,score\nx,1\n", "must have an 'id' column"), ("id,pm\na,high\n", "pm='high' must be a number"),
     ("id,pm\na,0.5\na,0.6\n", "appears twice"), ('{"hello": 1}', "is not an explain result file")],
)
def test_bad_score_files_exit_2(results: Path, tmp_path: Path, text: str, needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Bad CSV or JSON: exit 2 with a message naming the problem."""
    bad = tmp_path / "bad.csv"
    bad.write_text(text, encoding="utf-8")
    assert main(["explain", "agree", str(results / "demo-strong_metrics_offline.json"), str(bad)]) == 2
    assert needle in capsys.readouterr().err


@pytest.mark.parametrize("value", [1e308, -1e308, 1e13])
def test_scores_beyond_the_bounded_magnitude_are_named_and_left_out(
    results: Path, tmp_path: Path, value: float, capsys: pytest.CaptureFixture[str]
) -> None:
    """Scores of ±1e308 (their sums overflow) in a result file: those items are skipped with the reason,
    the rest agree as before; in a CSV: exit 2 naming the row."""
    f = results / "demo-weak_metrics_offline.json"
    doc = json.loads(f.read_text(encoding="utf-8"))
    for item in doc["items"][:6]:
        item["pm_score"] = value if doc["items"].index(item) % 2 else -value
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["explain", "agree", str(f), str(damaged), "--json", "--bootstrap", "20"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["matched"] == 6 and len(out["b"]["skipped"]) == 6
    assert "magnitude at most 1e+12" in out["b"]["skipped"][0]
    assert out["metrics"]["pm"]["mae"]["value"] == 0.0
    csv = tmp_path / "h.csv"
    csv.write_text(f"id,pm\n{doc['items'][0]['id']},{value}\n", encoding="utf-8")
    assert main(["explain", "agree", str(f), str(csv)]) == 2
    assert "h.csv:2: pm=" in capsys.readouterr().err


def test_a_result_file_that_scores_an_item_twice_is_refused(results: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A repeated item is not taken last-wins (which pairs the wrong scores): exit 2 naming the item."""
    f = results / "demo-weak_metrics_offline.json"
    doc = json.loads(f.read_text(encoding="utf-8"))
    doc["items"].append(dict(doc["items"][0], pm_score=0.0, rm_score=0.0, total_score=0.0))
    twice = tmp_path / "twice.json"
    twice.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["explain", "agree", str(f), str(twice)]) == 2
    key = doc["items"][0]["canonical_id"] or str(doc["items"][0]["id"])
    assert f"item {key!r} appears twice" in capsys.readouterr().err


def test_text_output_names_files_and_statistics(results: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The default output is a table with Pearson, Spearman and MAE rows and the edge line."""
    a, b = results / "demo-strong_metrics_offline.json", results / "demo-paraphrase_metrics_offline.json"
    assert main(["explain", "agree", str(a), str(b), "--bootstrap", "20"]) == 0
    out = capsys.readouterr().out
    assert str(a) in out and "Pearson r" in out and "MAE" in out and out.count("\n") > 6


def test_an_llm_judged_file_against_itself_and_against_offline_scoring(own_llm_result: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A judged file (our LLM pipeline's, scripted model) agrees with itself exactly; against our offline scoring of
    its answers the join is the shared items, the rest listed as only in the first file."""
    self_r = agree_files(own_llm_result, own_llm_result, resamples=100)
    for m in ("pm", "rm", "final"):
        assert self_r.metrics[m]["pearson"]["value"] == pytest.approx(1.0)
        assert self_r.metrics[m]["spearman"]["value"] == pytest.approx(1.0)
        assert self_r.metrics[m]["mae"]["value"] == 0.0
    # a benchmark without the bees item; its telegraph item has no answer in the file (it failed there)
    bench = json.loads((Path(__file__).resolve().parent / "fixtures" / "whatif_format" / "benchmark.json").read_text(encoding="utf-8"))
    bench["items"] = [it for it in bench["items"] if it["canonical_id"] != "fixture_hyb_0003"]
    subset = tmp_path / "benchmark.json"
    subset.write_text(json.dumps(bench), encoding="utf-8")
    out = tmp_path / "offline"
    # exit 1: the telegraph item is not answered and the bees answer matches no benchmark item
    assert main(["explain", "score", "--benchmark", str(subset), "--answers", str(own_llm_result), "--out", str(out)]) == 1
    capsys.readouterr()
    (offline,) = sorted(out.glob("*_metrics_offline.json"))
    r = agree_files(own_llm_result, offline, resamples=200)
    off = read_scores(offline)
    assert len(r.matched) == len(off.scores) == 5
    assert set(r.only_a) == set(read_scores(own_llm_result).scores) - set(off.scores) == {"fixture_hyb_0003"}
    for m in ("pm", "rm", "final"):
        d = r.metrics[m]
        assert d["n"] == len(r.matched)
        for stat in ("pearson", "spearman"):
            v = d[stat]
            assert v["value"] is None or (-1 <= v["low"] <= v["high"] <= 1)
        assert 0 <= d["mae"]["low"] <= d["mae"]["value"] <= d["mae"]["high"] <= 1
