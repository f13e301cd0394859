"""The named limits: each size limit's refusal (exit 2, naming the limit and the input), the compute budgets' skip notes and findings, Ctrl-C during a long compare, the decompressed size of inspect logs."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.base.limits import LIMITS, Limit, LimitExceededError, limits_table
from causalcheck.cli import main
from causalcheck.episodes.inspect_logs import check_log_sizes, read_inspect_log
from causalcheck.graphs import compare, intervention_coverage, read_graph
from causalcheck.graphs.formats import parse_text

REPO = Path(__file__).resolve().parents[1]


def _chain(n: int) -> str:
    return "; ".join(f"v{i} -> v{i + 1}" for i in range(n - 1))


def test_every_limit_is_in_the_docs_table():
    """The limits table of docs/limits.md is the registry's, and every limit has its own environment variable."""
    page = (REPO / "docs" / "limits.md").read_text(encoding="utf-8")
    assert limits_table() in page
    assert len({x.env for x in LIMITS}) == len(LIMITS) == len({x.name for x in LIMITS})


def test_the_table_says_what_the_compare_budget_does(monkeypatch):
    """Over COMPARE_COST_BUDGET, compare still answers (SID / AID None, SHD computed): the table must not say the input is refused."""
    from causalcheck.base.limits import COMPARE_COST_BUDGET

    monkeypatch.setenv(COMPARE_COST_BUDGET.env, "1")
    chain = read_graph("a -> b; b -> c")
    result = compare(chain, chain)
    assert result.sid is None and result.shd == 0
    assert "refused" not in COMPARE_COST_BUDGET.over_it and "skipped" in COMPARE_COST_BUDGET.over_it


def test_an_environment_override_must_be_a_positive_integer(monkeypatch):
    """A limit's variable raises it; a value that is not a positive integer is refused naming the variable."""
    demo = Limit("MAX_DEMO", 10, "demo items", "items")
    monkeypatch.setenv("CAUSALCHECK_MAX_DEMO", "20")
    assert demo.value() == 20
    monkeypatch.setenv("CAUSALCHECK_MAX_DEMO", "-3")
    with pytest.raises(InputFormatError, match="CAUSALCHECK_MAX_DEMO='-3' must be a positive integer"):
        demo.value()


def test_a_graph_over_the_node_limit_exits_2_naming_the_limit_and_the_file(tmp_path, monkeypatch, capsys):
    """check and compare refuse a graph over MAX_GRAPH_NODES with exit 2, the file, its size and the variable."""
    monkeypatch.setenv("CAUSALCHECK_MAX_GRAPH_NODES", "50")
    g = tmp_path / "big.dagitty"
    g.write_text("dag { " + " ".join(f"v{i} -> v{i + 1}" for i in range(59)) + " }", encoding="utf-8")
    for argv in (["check", str(g)], ["compare", str(g), str(g)]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "big.dagitty" in err and "60 nodes" in err and "MAX_GRAPH_NODES=50" in err and "CAUSALCHECK_MAX_GRAPH_NODES" in err


def test_a_graph_object_over_the_edge_limit_is_refused(monkeypatch):
    """read_graph applies MAX_GRAPH_EDGES to graph objects too (the API path of compare)."""
    monkeypatch.setenv("CAUSALCHECK_MAX_GRAPH_EDGES", "5")
    with pytest.raises(LimitExceededError, match=r"9 edges, over the limit MAX_GRAPH_EDGES=5"):
        read_graph(parse_text(_chain(10)))


def test_a_data_table_over_the_cell_limit_exits_2_before_parsing(tmp_path, monkeypatch, capsys):
    """check --data refuses a CSV over MAX_DATA_CELLS, naming the file, rows x columns and the variable."""
    monkeypatch.setenv("CAUSALCHECK_MAX_DATA_CELLS", "100")
    g = tmp_path / "g.dagitty"
    g.write_text("dag { a -> b }", encoding="utf-8")
    data = tmp_path / "data.csv"
    data.write_text("a,b\n" + "".join(f"{i},{i * 2}\n" for i in range(80)), encoding="utf-8")
    assert main(["check", str(g), "--data", str(data)]) == 2
    err = capsys.readouterr().err
    assert "data.csv" in err and "80 rows x 2 columns" in err and "MAX_DATA_CELLS=100" in err


def test_compare_over_the_budget_skips_the_distances_and_keeps_shd(monkeypatch):
    """Over COMPARE_COST_BUDGET, SID/AID are None with a note naming the budget; SHD and F1 are computed."""
    monkeypatch.setenv("CAUSALCHECK_COMPARE_COST_BUDGET", "10")
    c = compare("a -> b -> c", "a -> b <- c")
    assert c.sid is None and c.oset_aid is None and c.shd == 1 and c.skeleton.f1 == 1.0
    (note,) = [n for n in c.notes if "COMPARE_COST_BUDGET" in n]
    assert "estimated cost 12 operations" in note and "CAUSALCHECK_COMPARE_COST_BUDGET" in note
    monkeypatch.delenv("CAUSALCHECK_COMPARE_COST_BUDGET")
    assert compare("a -> b -> c", "a -> b <- c").sid is not None


def test_compare_of_a_long_chain_does_not_allocate_a_dense_matrix():
    """A 20 000-node chain compares in linear memory (a dense n x n matrix was a MemoryError at 1e5 nodes)."""
    g = parse_text(_chain(20_000))
    c = compare(g, g)
    assert c.shd == 0 and c.sid is None and any("COMPARE_COST_BUDGET" in n for n in c.notes)


def test_coverage_of_a_complete_graph_is_sampled_within_the_budget():
    """check --interventions on a complete 20-node graph samples fewer members and says so (it took 18 s)."""
    k20 = parse_text("; ".join(f"v{a} -- v{b}" for a, b in itertools.combinations(range(20), 2)))
    start = time.perf_counter()
    cov = intervention_coverage(k20, [])
    assert time.perf_counter() - start < 30  # generous: the figure is about 2 s; before, 18 s
    assert cov.interventional.samples is not None and cov.interventional.samples < 200
    assert any(getattr(n, "code", "") == "coverage-budget" and "COVERAGE_COST_BUDGET" in n for n in cov.notes)


def test_coverage_of_a_tree_scores_the_suggestion_over_part_of_the_members():
    """A 200-node undirected tree keeps exact figures; its suggestion is scored over a subset (it took 37 s)."""
    tree = parse_text("; ".join(f"v{(i - 1) // 2} -- v{i}" for i in range(1, 200)))
    cov = intervention_coverage(tree, [])
    assert cov.interventional.exact and cov.interventional.members == 200
    assert cov.suggestion is not None
    assert any("scored over" in n and "of the 200 members" in n for n in cov.notes)


def test_coverage_over_the_budget_even_when_sampled_is_a_finding(tmp_path, capsys):
    """A complete 25-node graph is over the budget at the fewest samples: check reports coverage-budget, exit 0."""
    g = tmp_path / "k25.dagitty"
    g.write_text("pdag { " + " ".join(f"v{a} -- v{b}" for a, b in itertools.combinations(range(25), 2)) + " }", encoding="utf-8")
    assert main(["check", str(g), "--interventions", "", "--json"]) == 0
    findings = json.loads(capsys.readouterr().out)["findings"]
    (skip,) = [f for f in findings if f["code"] == "coverage-budget"]
    assert "COVERAGE_COST_BUDGET" in skip["message"] and "CAUSALCHECK_COVERAGE_COST_BUDGET" in skip["message"]


def _dense_dags(tmp_path: Path, n: int, m: int) -> tuple[Path, Path]:
    import random

    paths = []
    for seed in (1, 2):
        rng, pairs = random.Random(seed), set()
        while len(pairs) < m:
            a, b = rng.randrange(n), rng.randrange(n)
            if a != b:
                pairs.add((min(a, b), max(a, b)))
        p = tmp_path / f"g{seed}.txt"
        p.write_text("; ".join(f"v{i}" for i in range(n)) + "; " + "; ".join(f"v{a} -> v{b}" for a, b in sorted(pairs)), encoding="utf-8")
        paths.append(p)
    return paths[0], paths[1]


def test_ctrl_c_ends_a_long_compare_at_once_with_exit_130(tmp_path):
    """SIGINT 3 s into a compare whose distances take a minute ends it within a few seconds, exit 130, no output."""
    truth, estimate = _dense_dags(tmp_path, 1000, 6000)
    env = {**os.environ, "CAUSALCHECK_COMPARE_COST_BUDGET": str(10**13)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "causalcheck", "compare", str(truth), str(estimate), "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    time.sleep(3)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
        proc.wait()  # reaped here even when communicate timed out (else a ResourceWarning fails a later test)
    assert proc.returncode == 130, err.decode()
    assert time.monotonic() - sent < 10 and out == b"" and b"interrupted" in err


def _eval_zip(path: Path, member_bytes: int) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("header.json", json.dumps({"version": 2, "status": "success"}))
        z.writestr("samples/1_epoch_1.json", b" " * member_bytes)
    return path


def test_an_eval_member_that_inflates_past_the_limit_is_refused_naming_file_and_member(tmp_path, monkeypatch):
    """A small .eval whose sample inflates past MAX_EVAL_MEMBER_BYTES is refused while streaming (it ran 400 s)."""
    monkeypatch.setenv("CAUSALCHECK_MAX_EVAL_MEMBER_BYTES", str(2 << 20))
    bomb = _eval_zip(tmp_path / "bomb.eval", 8 << 20)
    assert bomb.stat().st_size < 100_000
    for read in (check_log_sizes, read_inspect_log):
        with pytest.raises(LimitExceededError) as info:
            read(bomb)
        msg = str(info.value)
        assert "bomb.eval" in msg and "samples/1_epoch_1.json" in msg and "MAX_EVAL_MEMBER_BYTES=2097152" in msg


def test_an_eval_log_over_the_total_limit_is_refused(tmp_path, monkeypatch):
    """The decompressed total of a .eval is bounded by MAX_EVAL_TOTAL_BYTES; a log under both limits passes the check."""
    log = _eval_zip(tmp_path / "log.eval", 3 << 20)
    check_log_sizes(log)
    monkeypatch.setenv("CAUSALCHECK_MAX_EVAL_TOTAL_BYTES", str(1 << 20))
    with pytest.raises(LimitExceededError, match=r"log\.eval.*MAX_EVAL_TOTAL_BYTES=1048576"):
        check_log_sizes(log)
