"""What ``check`` was given, told from the file's content: a graph file is a graph, a record a record, and both at once a named refusal."""

from __future__ import annotations

import json

import causalcheck
import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.checking.cli import run
from causalcheck.checking.inputs import graph_file_format, load_checkable

#: The README's JSON graph format (Graph.to_dict).
GRAPH_JSON = {"nodes": ["a", "b", "c"], "edges": [["a", "->", "b"], ["b", "->", "c"], ["c", "->", "a"]]}


def _run(capsys, *argv):
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_check_of_a_json_graph_validates_it_as_a_graph(tmp_path, capsys):
    """`check graph.json` in the JSON graph format is validated (its cycle found), not read as a record with a node '->'."""
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(GRAPH_JSON), encoding="utf-8")
    code, out, _ = _run(capsys, path)
    assert code == 1 and "cycle" in out and "'->'" not in out and '"->" :' not in out
    assert graph_file_format(path) == "json"
    assert "cycle" in causalcheck.check(str(path)).codes()


def test_check_json_names_an_edge_to_an_undeclared_node(tmp_path, capsys):
    """A JSON graph whose edge names a node outside its 'nodes' exits 2 naming the file, the edge and the node."""
    path = tmp_path / "graph.json"
    path.write_text(json.dumps({"nodes": ["a", "b"], "edges": [["a", "->", "b"], ["b", "->", "zz"]]}), encoding="utf-8")
    for argv in ([path], [path, "--graph-format", "json"]):
        code, _, err = _run(capsys, *argv)
        assert code == 2 and "graph.json" in err and "'zz'" in err and "not in 'nodes'" in err


@pytest.mark.parametrize(
    "obj",
    [
        {"edges": [["a", "->", "b"]], "action": "TALK"},
        {"edges": [["a", "->", "b"]], "freq_equation": "y = x"},
        {"edges": [["a", "->", "b"], {"from": "a", "to": "b"}]},
    ],
)
def test_a_json_that_is_both_a_graph_and_a_record_is_refused_as_ambiguous(tmp_path, capsys, obj):
    """Graph edge triples beside record keys or record edges: exit 2 naming the file and both readings."""
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(obj), encoding="utf-8")
    code, _, err = _run(capsys, path)
    assert code == 2 and "mixed.json" in err and "ambiguous" in err and '"from"' in err


def test_records_and_hypotheses_are_still_records(tmp_path):
    """A record JSON and a hypothesis text are no graph files: check reads them as before."""
    record = tmp_path / "r.json"
    record.write_text(json.dumps({"hypothesis": {"edges": [{"from": "A", "to": "B"}]}, "action": "TALK"}), encoding="utf-8")
    hypothesis = tmp_path / "h.txt"
    hypothesis.write_text("A -> B\n", encoding="utf-8")
    assert graph_file_format(record) is None and graph_file_format(hypothesis) is None
    records, hyp, _ = load_checkable(str(record))
    assert records is not None and hyp is None


def test_load_checkable_refuses_a_graph_json_naming_it(tmp_path):
    """Where only records are read (a folder's files), a JSON graph is refused with the file named, never read as a record."""
    path = tmp_path / "graph.json"
    path.write_text(json.dumps(GRAPH_JSON), encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"graph\.json: is a causal graph in the JSON graph format"):
        load_checkable(str(path))


def test_a_dot_file_named_txt_is_a_graph(tmp_path, capsys):
    """A .txt holding DOT is validated as the DOT graph it is."""
    path = tmp_path / "g.txt"
    path.write_text("digraph { a -> b; b -> c }\n", encoding="utf-8")
    assert graph_file_format(path) == "dot"
    code, out, _ = _run(capsys, path)
    assert code == 0 and "3 nodes, 2 edges" in out
