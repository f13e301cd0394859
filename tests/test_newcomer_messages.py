"""Messages and outputs a newcomer hit (issue 24, item 5): each says what happened, first, and no more."""

from __future__ import annotations

from pathlib import Path

import pytest
from causalcheck.cli import main


def test_lab_score_wrong_path_prints_the_reason_and_no_empty_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wrong path to lab score: exit 2, the path and reason on stderr, no empty Markdown report, no files."""
    missing = tmp_path / "no_such_run"
    out = tmp_path / "out"
    assert main(["lab", "score", str(missing)]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    assert f"not scored: {missing}" in cap.err and "does not exist" in cap.err
    assert "nothing scored" in cap.err and "no report written" in cap.err
    assert main(["lab", "score", str(missing), "--out", str(out)]) == 2
    assert not out.exists() or [p.name for p in out.iterdir() if not p.name.startswith(".")] == []
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["lab", "score", str(empty)]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and f"no episode found under the given paths ({empty})" in cap.err


def test_lab_run_off_a_terminal_writes_progress_lines_and_the_same_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """lab run off a terminal prints 'i/n episodes' lines on stderr; the episode files equal a quiet run's."""
    from causalcheck.lab import runner

    monkeypatch.setattr(runner, "PROGRESS_LINE_SECONDS", 0.0)
    runner.run_suite("mini", "planner", tmp_path / "quiet", limit=3, progress=False)
    assert capsys.readouterr().err == ""
    runner.run_suite("mini", "planner", tmp_path / "lines", limit=3)  # progress=None, stderr not a terminal
    err = capsys.readouterr().err
    assert [line.split(",")[0] for line in err.splitlines()] == [f"causalcheck: lab run: {i}/3 episodes" for i in (0, 1, 2, 3)]
    assert all(line.endswith(" elapsed") for line in err.splitlines())
    quiet = sorted((tmp_path / "quiet" / "episodes").iterdir())
    lines = sorted((tmp_path / "lines" / "episodes").iterdir())
    assert [p.name for p in quiet] == [p.name for p in lines]
    assert all(a.read_bytes() == b.read_bytes() for a, b in zip(quiet, lines, strict=True))


def test_ctrl_c_before_any_episode_does_not_suggest_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C before the first episode: exit 130, 'nothing to resume'; after some episodes: their count and --resume."""
    from causalcheck.lab import runner

    real = runner.run_suite

    def interrupted_at_once(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_suite", interrupted_at_once)
    argv = ["lab", "run", "--suite", "mini", "--agent", "planner", "--out", str(tmp_path / "run"), "--quiet"]
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "nothing to resume" in err and "--resume" not in err

    def interrupted_after_two(*args: object, **kwargs: object) -> None:
        real(*args, **{**kwargs, "limit": 2})  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "run_suite", interrupted_after_two)
    assert main(argv) == 130
    err = capsys.readouterr().err
    assert "2 finished episode(s)" in err and "--resume" in err


def test_explain_score_names_the_expected_answer_key_and_where_the_model_name_came_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record with "response" instead of "answer": the reason names 'answer' and the keys found; the file-named model is said."""
    from causalcheck.explain.data import load_answer_sets

    answers = tmp_path / "my_answers.jsonl"
    answers.write_text('{"id": "demo_stem_01", "response": "Because X causes Y."}\n')
    (aset,) = load_answer_sets(answers)
    assert aset.model == "my_answers" and aset.model_from == "file name"
    err = aset.answers["demo_stem_01"].error or ""
    assert "no 'answer' field" in err and "'model_answer'" in err and "['response']" in err
    main(["explain", "score", "--benchmark", "demo", "--answers", str(answers), "--out", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err
    assert "item 'demo_stem_01' failed: missing answer:" in err and "no 'answer' field" in err
    assert "model name 'my_answers' is the answers file's name" in err
    named = tmp_path / "named.jsonl"
    named.write_text('{"id": "demo_stem_01", "answer": "A.", "model": "m1"}\n')
    assert load_answer_sets(named)[0].model_from == "record"


def _help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main([*argv, "--help"])
    return " ".join(capsys.readouterr().out.split())  # argparse wraps lines: compare words


def test_judge_edges_options_state_one_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--judge-edges and --judge-all-edges tell the same default; together with 'causal' they are refused (exit 2)."""
    text = _help_of(["explain", "score"], capsys)
    assert "(default: all with the offline judges, causal with --judge" in text
    assert "--judge-all-edges the same as --judge-edges all (with --judge the default is causal)" in text
    assert "judge every edge (default" not in text and "(default: only the causal edges" not in text
    argv = ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(tmp_path / "o"), "--quiet"]
    assert main([*argv, "--judge-edges", "causal", "--judge-all-edges"]) == 2
    assert "contradicts --judge-edges causal" in capsys.readouterr().err


@pytest.fixture
def fork_with_data(tmp_path: Path) -> tuple[Path, Path]:
    """A -> B, B -> C, B -> D and 500 rows of linear-Gaussian data from it (seed 0)."""
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.normal(size=500)
    b = a + rng.normal(size=500)
    c, d = b + rng.normal(size=500), b + rng.normal(size=500)
    data = tmp_path / "d.csv"
    np.savetxt(data, np.c_[a, b, c, d], delimiter=",", header="A,B,C,D", comments="", fmt="%.5f")
    graph = tmp_path / "g.txt"
    graph.write_text("A -> B\nB -> C\nB -> D\n")
    return graph, data


def test_check_identified_by_the_interventions_suggests_none(
    fork_with_data: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """check --interventions B (I-MEC size 1): says identified and suggests no further intervention; C still gets one."""
    graph, data = fork_with_data
    assert main(["check", str(graph), "--data", str(data), "--interventions", "B", "--permutations", "0"]) == 0
    out = capsys.readouterr().out
    assert "I-MEC size 1 (exact)" in out and "identified: no further intervention is needed" in out
    assert "intervention-suggestion" not in out
    assert main(["check", str(graph), "--data", str(data), "--interventions", "C", "--permutations", "0"]) == 0
    assert "intervention-suggestion: next intervene on" in capsys.readouterr().out


def test_check_explains_local_markov_count_beside_implied_independencies(
    fork_with_data: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """'3 implied independencies tested' beside '0/4 local Markov conditions': the text says why the counts differ."""
    graph, data = fork_with_data
    main(["check", str(graph), "--data", str(data)])
    out = capsys.readouterr().out
    assert "3 implied independencies (local basis) tested" in out
    assert "violates 0/4 local Markov conditions" in out
    assert "the 4 conditions are DoWhy's count, X ⫫ Y | Pa(X) from each side of a pair: 3 distinct implied independencies" in out


def test_no_help_text_shows_rest_markup() -> None:
    """No --help of any command shows reST markup (``code``, :func:`x`, **bold**)."""
    import argparse
    import re

    from causalcheck.cli import build_parser

    found: list[str] = []

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        text = parser.format_help()
        found.extend(f"{name}: {text[max(0, m.start() - 30):m.end() + 30]!r}" for m in re.finditer(r"``|:[a-z]+:`|\*\*", text))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, subparser in action.choices.items():
                    walk(subparser, f"{name} {sub}")

    walk(build_parser(), "causalcheck")
    assert found == []


def test_no_bootstrap_interval_below_the_named_minimum(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Fewer than MIN_BOOTSTRAP_N values: the mean alone (n = 2 used to get an 'interval'); lab score's summary says why."""
    from causalcheck.metrics import MIN_BOOTSTRAP_N, bootstrap_ci
    from causalcheck.report.agreement import bootstrap, mae

    assert MIN_BOOTSTRAP_N == 5
    two = bootstrap_ci([0.0, 1.0], resamples=200)
    assert (two.mean, two.low, two.high, two.n) == (0.5, None, None, 2)
    few = [0.1, 0.4, 0.2, 0.9]
    assert bootstrap_ci(few, resamples=200).low is None
    enough = bootstrap_ci([*few, 0.5], resamples=200)
    assert enough.low is not None and enough.high is not None and enough.low <= enough.mean <= enough.high
    assert bootstrap(mae, few, [0.0, 0.5, 0.2, 0.3], resamples=200).low is None
    from causalcheck.lab.runner import run_suite

    run_suite("mini", "planner", tmp_path / "run", seeds=(1, 2), limit=1, progress=False)
    assert main(["lab", "score", str(tmp_path / "run"), "--bootstrap", "100", "--fast-audit"]) == 0
    out = capsys.readouterr().out
    assert "| mini | planner | – | 2 |" in out and " [" not in out.split("## Per suite", 1)[1].split("## Per graph")[0]
    assert "a mean of fewer than 5 values (column n) has no interval: too few to resample" in out


def test_explain_score_of_a_subset_counts_unanswered_items_apart_and_items_selects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Answers for 2 demo items: the other 10 are 'not answered' (exit 1, not failures); --items selects the 2 (exit 0)."""
    import json

    from causalcheck.explain.data import load_answer_sets, load_benchmark

    keys = [it.key for it in load_benchmark("demo").items]
    demo = {a.model: a for a in load_answer_sets("demo")}["demo-strong"]
    answers = tmp_path / "two.jsonl"
    answers.write_text("".join(json.dumps({"id": k, "answer": demo.answers[k].text, "model": "m"}) + "\n" for k in keys[:2]))
    argv = ["explain", "score", "--benchmark", "demo", "--answers", str(answers), "--quiet"]
    assert main([*argv, "--out", str(tmp_path / "all")]) == 1
    cap = capsys.readouterr()
    assert "10 item(s) not answered" in cap.out and "failed" not in cap.out + cap.err
    assert f"10 benchmark item(s) have no answer in {answers}" in cap.err and "--items" in cap.err
    assert main([*argv, "--out", str(tmp_path / "comma"), "--items", f"{keys[0]},{keys[1]}"]) == 0
    assert main([*argv, "--out", str(tmp_path / "repeated"), "--items", keys[1], "--items", keys[0]]) == 0
    one = json.loads((tmp_path / "comma" / "m_metrics_offline.json").read_text())
    assert [i["canonical_id"] for i in one["items"]] == keys[:2] and one["failures"] == []
    capsys.readouterr()
    assert main([*argv, "--out", str(tmp_path / "bad"), "--items", "no_such_item"]) == 2
    assert "items=['no_such_item'] are not items of benchmark" in capsys.readouterr().err


def test_explain_items_lists_the_demo_item_ids(capsys: pytest.CaptureFixture[str]) -> None:
    """`explain items` (default: demo) prints one line per item: key, domain, question."""
    from causalcheck.explain.data import load_benchmark

    assert main(["explain", "items"]) == 0
    lines = capsys.readouterr().out.splitlines()
    bench = load_benchmark("demo")
    assert [line.split("\t")[0] for line in lines] == [it.key for it in bench.items]
    assert lines[0] == f"{bench.items[0].key}\t{bench.items[0].domain}\t{bench.items[0].question}"


def test_an_empty_node_name_in_graph_config_names_the_file(sample_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A graph_config.json with a node named '' is refused naming graph_config.json (the full fuzz found
    the message naming only the folder: the graph model refused the name later, without the file)."""
    import json
    import shutil

    from causalcheck.cli import main

    run = tmp_path / "exp" / "seed_1"
    shutil.copytree(sample_run, run)
    cfg = json.loads((run / "graph_config.json").read_text(encoding="utf-8"))
    last = list(cfg["nodes"])[-1]
    cfg["nodes"][""] = cfg["nodes"].pop(last)
    (run / "graph_config.json").write_text(json.dumps(cfg), encoding="utf-8")
    assert main(["lab", "score", str(tmp_path / "exp"), "--bootstrap", "0", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "graph_config.json" in err and "node name ''" in err


def test_lab_score_progress_returns_the_carriage_and_out_prints_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The progress bar's own control sequences reach the terminal as they are (not as shown escapes
    like a literal ``\\u000d``), and ``lab score --out`` prints the per-suite table after the files it wrote."""
    import io
    import sys

    from causalcheck.base.escape import terminal_streams
    from causalcheck.base.progress import RunProgress
    from causalcheck.lab.score_cli import _Progress

    raw = io.StringIO()
    raw.isatty = lambda: True  # type: ignore[method-assign]
    saved = sys.stderr
    sys.stderr = raw
    try:
        with terminal_streams(), RunProgress("bar", title="lab score", unit="episodes", every=None) as bar:
            report = _Progress(bar)
            report(1, 3)
            report(3, 3)
    finally:
        sys.stderr = saved
    shown = raw.getvalue()
    assert "3/3" in shown and "lab score" in shown and "episodes" in shown
    assert "\\u000d" not in shown and "\\x1b" not in shown

    runs, out = tmp_path / "runs", tmp_path / "out"
    assert main(["lab", "run", "--agent", "planner", "--suite", "mini", "--graphs", "mini3nodes_0", "--out", str(runs), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["lab", "score", str(runs), "--out", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0].endswith("scores.json") and any(line.startswith("| mini | planner |") for line in printed)


def test_lab_score_counts_a_hypothesis_node_not_in_the_graph_on_stderr_and_in_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A step record naming 'Pressure' for 'pressure' is scored as a wrong node, and said so: on
    stderr (counted, with the 'did you mean'), in summary.md's Warnings."""
    import json

    runs, out, typo = tmp_path / "runs", tmp_path / "out", tmp_path / "typo"
    assert main(["lab", "run", "--agent", "planner", "--suite", "mini", "--graphs", "mini3nodes_0", "--out", str(runs), "--quiet"]) == 0
    typo.mkdir()
    for path in (runs / "episodes").glob("*.jsonl"):
        lines = []
        for line in path.read_text(encoding="utf-8").splitlines():
            d = json.loads(line)
            for e in ((d.get("record") or {}).get("hypothesis") or {}).get("edges") or []:
                if e.get("to") == "pressure":
                    e["to"] = "Pressure"
            lines.append(json.dumps(d))
        (typo / path.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["lab", "score", str(typo), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "1 episode(s) with unknown-nodes" in err and "'Pressure' (did you mean 'pressure'?)" in err
    summary = (out / "summary.md").read_text(encoding="utf-8")
    assert "## Warnings" in summary and "did you mean 'pressure'?" in summary


def test_check_data_messages_name_flags_at_the_command_line_and_keywords_in_python(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same refusal says --ignore-extra-columns at the command line and extra_columns='ignore' in
    Python; a node 'z' against a column 'Z' gets a 'did you mean'; a negative --permutations is a usage
    error of that flag; a 3-node graph's falsification note says three nodes are too few."""
    import numpy as np
    from causalcheck.base.errors import InputFormatError
    from causalcheck.graphs import validate_graph

    rng = np.random.default_rng(0)
    a = rng.normal(size=300)
    b = a + rng.normal(size=300)
    c = b + rng.normal(size=300)
    data = tmp_path / "d.csv"
    data.write_text("a,b,c,x\n" + "".join(f"{p},{q},{r},1\n" for p, q, r in zip(a, b, c, strict=True)), encoding="utf-8")
    graph = tmp_path / "g.txt"
    graph.write_text("a -> b\nb -> c\n", encoding="utf-8")
    assert main(["check", str(graph), "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert "use --ignore-extra-columns" in err and "extra_columns=" not in err
    with pytest.raises(InputFormatError, match="pass extra_columns='ignore'"):
        validate_graph(graph, data=data)
    upper = tmp_path / "u.txt"
    upper.write_text("a -> b\nb -> Z\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"'Z': did you mean 'c'\?|nodes without a column \['Z'\]"):
        validate_graph(upper, data=data, extra_columns="ignore")
    lower = tmp_path / "l.txt"
    lower.write_text("a -> b\nb -> C\n", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"'C': did you mean 'c'\?"):
        validate_graph(lower, data=data, extra_columns="ignore")
    with pytest.raises(SystemExit):
        main(["check", str(graph), "--data", str(data), "--permutations", "-3"])
    assert "argument --permutations" in capsys.readouterr().err
    assert main(["check", str(graph), "--data", str(data), "--ignore-extra-columns"]) in (0, 1)
    assert "this test cannot falsify any graph of so few nodes" in capsys.readouterr().out
