"""``causalcheck check GRAPH --adjustment X Y --separator X Y --blanket X``, in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from causalcheck.cli import main

GRAPH = "dag {\n x [exposure]\n y [outcome]\n a -> x -> m -> y\n a -> b -> y\n x -> y\n}\n"


@pytest.fixture
def graph_file(tmp_path: Path) -> Path:
    """A DAGitty file with a confounder pair (a, b) and a mediator m."""
    path = tmp_path / "g.dagitty"
    path.write_text(GRAPH, encoding="utf-8")
    return path


def test_queries_print_a_section_after_the_validation(graph_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The text output ends with the answers of the three flags."""
    code = main(["check", str(graph_file), "--adjustment", "x", "y", "--separator", "a", "y", "--blanket", "x"])
    out = capsys.readouterr().out
    assert code == 0
    section = out[out.index("queries:"):]
    assert "minimal: {a}, {b}" in section and "optimal (O-set): {b}" in section
    assert "minimal separator of a and y: {x, b}" in section
    assert "Markov blanket of x: {y, a, m, b}" in section
    assert out.index("graph: 5 nodes") < out.index("queries:")


def test_queries_under_a_queries_key_in_json(graph_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json puts the answers under "queries", sets as lists; comma-separated sets are read as sets."""
    code = main(["check", str(graph_file), "--json", "--adjustment", "x", "y", "--separator", "a,b", "m", "--blanket", "m,b"])
    payload = json.loads(capsys.readouterr().out)
    assert code == 0
    queries = payload["queries"]
    assert queries["adjustment"]["minimal"] == [["a"], ["b"]] and queries["adjustment"]["identifiable"] is True
    assert queries["separator"] == {"x": ["a", "b"], "y": ["m"], "included": [], "separator": ["x"]}
    assert queries["blanket"]["of"] == ["m", "b"] and queries["blanket"]["blanket"] == ["x", "y", "a"]


def test_not_identifiable_is_an_answer_not_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """x -- y in a CPDAG: exit 0 and the reason in the section."""
    path = tmp_path / "g.dagitty"
    path.write_text("pdag { x -- y }\n", encoding="utf-8")
    assert main(["check", str(path), "--adjustment", "x", "y"]) == 0
    assert "not identifiable by adjustment (the graph is not amenable: the edge 'x -- y'" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("flags", "named"),
    [(["--adjustment", "X", "y"], "--adjustment X y"), (["--separator", "a", "yy"], "--separator a yy"), (["--blanket", "q"], "--blanket q")],
)
def test_unknown_node_is_an_input_error_naming_the_flag(
    graph_file: Path, capsys: pytest.CaptureFixture[str], flags: list[str], named: str
) -> None:
    """An unknown node: exit 2, the message names the flag and offers a close name where there is one."""
    assert main(["check", str(graph_file), *flags]) == 2
    err = capsys.readouterr().err
    assert named in err and "is not in the graph" in err
    if flags[1] == "X":
        assert "did you mean 'x'?" in err


@pytest.mark.parametrize("flag", [["--adjustment", "x", "y"], ["--separator", "x", "y"], ["--blanket", "x"]])
def test_a_query_flag_makes_any_file_a_graph_input(flag: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A graph query is never ignored: a file that is not a graph is refused as one (exit 2), not checked as records."""
    path = tmp_path / "records.json"
    path.write_text('{"hypothesis": "A -> B"}\n', encoding="utf-8")
    assert main(["check", str(path), *flag]) == 2
    assert "must be an object with 'edges'" in capsys.readouterr().err
