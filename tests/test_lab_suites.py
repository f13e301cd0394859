"""Suite loading/validation and the seeded generator's shape statistics."""

from __future__ import annotations

import collections
import json
from pathlib import Path

import pytest
from causalcheck.base.errors import InputFormatError
from causalcheck.graph import FREQ
from causalcheck.lab.generator import SHAPE_TABLE, generate_suite, write_suite
from causalcheck.lab.suites import bundled_suites, load_suite, parse_suite_record

ONE = {
    "graph_id": "t_0",
    "description": "Causal graph with 3 nodes and 2 edges",
    "nodes": {
        "resonanceFreq": {"is_controllable": False, "computation": "base_freq + coeff_ph_freq * ph"},
        "ph": {"is_controllable": True},
        "density": {"is_controllable": True},
    },
    "edges": [{"from": "ph", "to": "resonanceFreq"}],
    "params": {"base_freq": 20.0, "coeff_ph_freq": 2},
    "budget": 8,
}


def _shape(record: dict[str, object] | object) -> tuple[int, int, int]:
    assert isinstance(record, dict)
    edges = [(e["from"], e["to"]) for e in record["edges"]]
    children = {b for _, b in edges}
    roots = sum(1 for n in record["nodes"] if n not in children)
    return len(edges), sum(1 for _, b in edges if b == FREQ), roots


def test_all_official_records_load(causalab_data: Path) -> None:
    """The 19 official files (950 records) load and compile."""
    files = sorted(causalab_data.glob("*.jsonl"))
    assert len(files) == 19
    total = sum(len(load_suite(f)) for f in files)
    assert total == 950


def test_variant_blocks_are_parsed(causalab_data: Path) -> None:
    """Hidden, golden, FreqParent and quadratic records expose their variant data."""
    hidden = load_suite(causalab_data / "4nodes_hidden_n2.jsonl").graphs[0].hidden
    assert hidden is not None and hidden.value_space == (-5.0, 0.0, 5.0) and len(hidden.affected_nodes) == 2
    assert load_suite(causalab_data / "4nodes_golden.jsonl").graphs[0].is_golden
    assert load_suite(causalab_data / "6nodes_freqparent.jsonl").graphs[0].frequency_can_be_parent
    quad = load_suite(causalab_data / "4nodes_quad_hard.jsonl").graphs[0]
    assert quad.family == "quadratic" and quad.scm.family == "quadratic"


def test_shape_table_matches_the_released_suites(causalab_data: Path) -> None:
    """The generator's embedded joint (edges, F in-degree, roots) table is the released data's."""
    for k, table in SHAPE_TABLE.items():
        lines = (causalab_data / f"{k}nodes.jsonl").read_text().splitlines()
        measured = collections.Counter(_shape(json.loads(line)) for line in lines)
        assert dict(measured) == table


def _marginal(shapes: list[tuple[int, int, int]], i: int) -> dict[int, float]:
    c = collections.Counter(s[i] for s in shapes)
    return {k: v / len(shapes) for k, v in c.items()}


def _tv(p: dict[int, float], q: dict[int, float]) -> float:
    return 0.5 * sum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in set(p) | set(q))


@pytest.mark.parametrize("k", [3, 4, 5, 6, 7])
def test_generator_matches_shape_statistics(k: int) -> None:
    """Edge count, frequency in-degree and root count follow the released distributions (TV < 0.07)."""
    records = generate_suite(k, 800, seed=k)
    shapes = [_shape(r) for r in records]
    ref = [s for s, c in SHAPE_TABLE[k].items() for _ in range(c)]
    for i in range(3):
        assert _tv(_marginal(shapes, i), _marginal(ref, i)) < 0.07, (k, i)
    assert set(shapes) <= set(SHAPE_TABLE[k])
    for r in records:
        assert len(r["nodes"]) == k and r["budget"] == 4 * (k - 1)
        assert not any(e["from"] == FREQ for e in r["edges"])
        assert r["description"] == f"Causal graph with {k} nodes and {len(r['edges'])} edges"


def test_generated_suites_load_and_are_reproducible(tmp_path: Path) -> None:
    """Generated files validate; the same seed writes the same bytes; a new seed does not."""
    a = write_suite(generate_suite([4, 12, 50], 3, seed=5), tmp_path / "a.jsonl")
    b = write_suite(generate_suite([4, 12, 50], 3, seed=5), tmp_path / "b.jsonl")
    c = write_suite(generate_suite([4, 12, 50], 3, seed=6), tmp_path / "c.jsonl")
    assert a.read_bytes() == b.read_bytes() != c.read_bytes()
    suite = load_suite(a)
    assert [len(g.scm.nodes) for g in suite] == [4, 4, 4, 12, 12, 12, 50, 50, 50]
    for g in suite:
        k = len(g.scm.nodes)
        assert k - 1 <= len(g.scm.graph.edges) <= min(k * (k - 1) // 2, 2 * k)


def test_generator_variants(tmp_path: Path) -> None:
    """Quadratic, hidden and FreqParent generation produce loadable variant records."""
    quad = load_suite(write_suite(generate_suite(4, 5, seed=1, family="quadratic", hidden=2), tmp_path / "q.jsonl"))
    assert all(g.family == "quadratic" and g.hidden and len(g.hidden.affected_nodes) == 2 for g in quad)
    fp = load_suite(write_suite(generate_suite(6, 40, seed=1, freq_parent=True), tmp_path / "f.jsonl"))
    assert any(g.scm.graph.children(FREQ) for g in fp)


def test_bundled_suite_is_listed_and_loads() -> None:
    """The bundled mini suite needs no download."""
    assert "mini" in bundled_suites()
    suite = load_suite("mini")
    assert 8 <= len(suite) <= 15
    assert {len(g.scm.nodes) for g in suite} == {3, 4, 5}


def test_malformed_line_names_file_and_line(tmp_path: Path) -> None:
    """A broken JSON line is reported as file:line."""
    p = tmp_path / "bad.jsonl"
    p.write_text(json.dumps(ONE) + "\n" + '{"graph_id": "x", "nodes": \n')
    with pytest.raises(InputFormatError, match=r"bad\.jsonl:2:"):
        load_suite(p)


@pytest.mark.parametrize(
    ("patch", "needle"),
    [
        ({"params": {"base_freq": "20", "coeff_ph_freq": 2}}, "'20'"),
        ({"edges": [{"from": "ph", "to": "resonanceFreq"}, {"from": "salinity", "to": "ph"}]}, "'salinity'"),
        ({"budget": -1}, "budget=-1"),
        ({"graph_id": 7}, "graph_id=7"),
        ({"hidden_variable": {"affected_nodes": ["nope"]}}, "'nope'"),
        ({"bootstrap_past_data": [{"id": "0", "props": {"ph": "high"}, "freq": 3}]}, "'high'"),
        ({"bootstrap_past_data": [{"id": "0", "props": {"acidity": 1}, "freq": 3}]}, "'acidity'"),
    ],
)
def test_bad_records_raise_clear_errors(tmp_path: Path, patch: dict[str, object], needle: str) -> None:
    """Non-numeric values, unknown properties and bad fields name the offending value and line."""
    p = tmp_path / "s.jsonl"
    p.write_text(json.dumps({**ONE, **patch}) + "\n")
    with pytest.raises(InputFormatError) as err:
        load_suite(p)
    assert needle in str(err.value) and "s.jsonl:1" in str(err.value)


def test_record_must_be_an_object() -> None:
    """A JSON array line is not a record."""
    with pytest.raises(InputFormatError, match="must be a JSON object"):
        parse_suite_record([1, 2])


def test_unknown_suite_name_lists_known_ones() -> None:
    """An unknown name says what exists."""
    with pytest.raises(InputFormatError, match="'mini'"):
        load_suite("no-such-suite")
