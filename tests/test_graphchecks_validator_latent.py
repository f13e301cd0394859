"""validate_graph / check() on a graph with ``[latent]`` nodes: no data column for them, only observed implications tested."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from causalcheck import check
from causalcheck.base.errors import InputFormatError
from causalcheck.graphchecks.cli import main_validate
from causalcheck.graphs import read_graph, validate_graph

#: u is unobserved: it confounds x and y, and x acts on y only through z (the front-door graph), then y -> w.
FRONT_DOOR = "dag { u [latent] u -> x  u -> y  x -> z -> y -> w }"


@pytest.fixture(scope="module")
def observed() -> pd.DataFrame:
    """2 000 samples of the front-door model; u is simulated and left out of the table."""
    rng = np.random.default_rng(1)
    n = 2000
    u = rng.normal(size=n)
    x = u + rng.normal(size=n)
    z = x + rng.normal(size=n)
    y = z + u + rng.normal(size=n)
    w = y + rng.normal(size=n)
    return pd.DataFrame({"x": x, "z": z, "y": y, "w": w})


def test_check_needs_no_column_for_a_latent_node(observed):
    report = check(read_graph(FRONT_DOOR), data=observed)
    assert report.ok, [f.message for f in report.findings]
    detail = report.detail
    assert detail.graph.latent == ("u",)
    assert detail.settings["latent"] == ["u"]
    assert set(detail.data.names) == {"x", "z", "y", "w"}
    tested = {str(r.statement) for r in detail.independence.results}
    assert tested and all("u" not in t.replace("|", " ").split() for t in tested)  # only observed implications


def test_a_wrong_latent_graph_is_rejected_by_its_observed_implications(observed):
    # u confounds x and z instead: the graph then says x ⫫ y | z, which the data reject (u -> y)
    report = validate_graph("dag { u [latent] u -> x  u -> z  x -> z -> y -> w }", data=observed)
    assert "ci-violated" in report.codes()
    assert any("x ⫫ y | z" in f.message for f in report.findings if f.code == "ci-violated")


def test_the_command_line_reads_latent_from_a_dagitty_file(observed, tmp_path):
    graph, data = tmp_path / "g.dagitty", tmp_path / "d.csv"
    graph.write_text(FRONT_DOOR, encoding="utf-8")
    observed.to_csv(data, index=False)
    assert main_validate([str(graph), "--data", str(data)]) == 0


def test_latent_nodes_on_a_graph_that_is_no_dag_are_refused(observed):
    with pytest.raises(InputFormatError, match=r"latent projection is defined here for DAGs only.*not supported"):
        validate_graph("pdag { u [latent] u -> x  x -- z  z -> y  y -> w }", data=observed)


def test_graphs_without_latent_nodes_report_as_before(observed):
    report = validate_graph("x -> z -> y -> w", data=observed)
    assert "latent" not in report.settings
