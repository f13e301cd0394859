"""causalcheck report: inputs by content, the lab / explain / check views, HTML and Markdown output."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from causalcheck.base.files import sha256_file
from causalcheck.cli import main
from causalcheck.report.build import ReportOptions, build_report
from causalcheck.report.explain_views import explain_runs, marked_answer, select_items
from causalcheck.report.inputs import classify
from causalcheck.report.lab_views import agent_of, edge_status, select_episodes

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output folder of ``causalcheck demo`` (with its report.html)."""
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--out", str(out), "--quiet"]) == 0
    return out


def _html(demo: Path) -> str:
    return (demo / "report.html").read_text(encoding="utf-8")


def test_demo_report_is_self_contained(demo: Path) -> None:
    """One inline script that loads nothing; no stylesheet link, external image, font or URL other than the SVG namespace."""
    html = _html(demo)
    assert html.startswith("<!DOCTYPE html>")
    assert html.count("<script") == 1 and "<script>" in html  # inline: no src
    script = html[html.index("<script>"):html.index("</script>")]
    for loader in ("fetch(", "XMLHttpRequest", "import(", "src=", "WebSocket", "@import", "url("):
        assert loader not in script, loader
    assert "<link" not in html and "<img" not in html and "@font-face" not in html
    urls = set(re.findall(r"https?://[^\s\"'<>)]+", html))
    assert urls == {"http://www.w3.org/2000/svg"}


def test_every_svg_has_a_text_alternative(demo: Path) -> None:
    """Each <svg> is role=img, labelled by its own <title> and <desc>."""
    html = _html(demo)
    svgs = re.findall(r"<svg [^>]*>.*?</svg>", html, flags=re.S)
    assert len(svgs) >= 15
    for svg in svgs:
        fid = re.search(r'id="(f\d+)"', svg)
        assert fid is not None
        assert 'role="img"' in svg and f'aria-labelledby="{fid[1]}-t {fid[1]}-d"' in svg
        assert re.search(rf'<title id="{fid[1]}-t">[^<]+</title><desc id="{fid[1]}-d">[^<]+</desc>', svg)


def test_planner_and_random_are_separate_rows_and_curves(demo: Path) -> None:
    """The agent table has a planner and a random row; every recovery curve has both lines."""
    html = _html(demo)
    table = html[html.index("Final metrics per agent and suite"):]
    table = table[: table.index("</table>")]
    assert re.search(r"<tr><td>planner</td><td>mini</td><td class=\"n\">12</td>", table)
    assert re.search(r"<tr><td>random</td><td>mini</td><td class=\"n\">12</td>", table)
    for metric in ("edge F1", "parent F1", "coefficient F1", "SHD", "I-MEC size"):
        svg = html[html.index(f">{metric} over steps</title>"):]
        svg = svg[: svg.index("</svg>")]
        assert "<title>planner: " in svg and "<title>random: " in svg, metric


def test_report_names_every_input_with_its_hash(demo: Path) -> None:
    """The header lists every input file with its SHA-256, and the version."""
    from causalcheck import __version__

    html = _html(demo)
    assert f"causalcheck {__version__}" in html
    inputs = [demo / "lab-scores" / "scores.json", *sorted((demo / "explain").glob("*_metrics_offline.json"))]
    for p in inputs:
        assert f'<td>{p}</td><td class="hash">{sha256_file(p)}</td>' in html


def test_demo_report_draws_episodes_items_and_checks(demo: Path) -> None:
    """Episode drawings say which hypothesis changes they show; explain items mark EDUs; the check's cycle is drawn."""
    html = _html(demo)
    assert "(first change)" in html and "Chosen as: lowest final edge F1" in html
    assert 'class="edu a" title="EDU1"' in html
    assert "Per domain (×100; the paper&#x27;s Table 2 layout)" in html
    check = html[html.index('id="check"'):]
    assert re.search(r'marker-end="url\(#f\d+-a-cycle\)"', check)
    assert "in the conflicting set" in check


def test_a_file_that_is_no_input_is_an_error_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Exit 2 and the path in the message; an existing report is left untouched."""
    odd = tmp_path / "odd.json"
    odd.write_text('{"hello": 1}', encoding="utf-8")
    out = tmp_path / "report.html"
    out.write_text("previous", encoding="utf-8")
    assert main(["report", str(odd), "--out", str(out)]) == 2
    assert str(odd) in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == "previous"
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["report", str(empty), "--out", str(out)]) == 2
    assert "holding no lab scores.json" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "missing.json"), "--out", str(out)]) == 2
    assert main(["report", "--out", str(out)]) == 2
    assert "at least one PATH" in capsys.readouterr().err


def test_inputs_are_detected_by_content_not_name(demo: Path, tmp_path: Path) -> None:
    """A renamed scores file and a renamed check report are still read as what they are."""
    renamed = tmp_path / "whatever.json"
    renamed.write_bytes((demo / "lab-scores" / "scores.json").read_bytes())
    check = tmp_path / "c.json"
    out = subprocess.run([sys.executable, "-m", "causalcheck", "check", "example:cyclic", "--json"],
                         capture_output=True, text=True, check=False)
    check.write_text(out.stdout, encoding="utf-8")
    assert classify(json.loads(out.stdout)) == "check"
    result = build_report([renamed, check], tmp_path / "r.html", options=ReportOptions(resamples=0))
    assert result.inputs == {"lab": 1, "explain": 0, "check": 1}


def test_markdown_report_writes_pngs_with_alt_text(demo: Path, tmp_path: Path) -> None:
    """``--format md``: report.md references PNG files that exist, each with a non-empty alt text."""
    out = tmp_path / "md"
    assert main(["report", str(demo / "explain" / "demo-strong_metrics_offline.json"), "--check", "example:cyclic",
                 "--format", "md", "--out", str(out), "--items", "1"]) == 0
    text = (out / "report.md").read_text(encoding="utf-8")
    images = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", text)
    assert len(images) >= 4
    for alt, name in images:
        assert len(alt) > 10
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| domain |" in text or "| domain" in text


def test_help_and_import_stay_light() -> None:
    """Building the parser (with report and explain agree) loads no matplotlib, networkx or numpy."""
    code = ("import sys, causalcheck.cli as c; c.build_parser();"
            "print([m for m in ('matplotlib', 'networkx', 'numpy') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_pipelines_do_not_import_the_report() -> None:
    """No module of lab, explain, checking, episodes or graphs imports causalcheck.report (``explain agree`` is registered by
    the command registry, which names its commands' targets as text, loaded only when the command runs)."""
    offenders = []
    for folder in ("lab", "explain", "checking", "episodes", "graphs"):
        for path in sorted((REPO / "core" / folder).glob("*.py")):
            if "causalcheck.report" in path.read_text(encoding="utf-8"):
                offenders.append(str(path))
    for path in sorted((REPO / "core").glob("*.py")):
        if path.name not in ("cli.py", "demo.py", "plugins.py") and "causalcheck.report" in path.read_text(encoding="utf-8"):
            offenders.append(str(path))
    assert offenders == []


@pytest.mark.parametrize("seed", range(30))
def test_edge_status_counts_equal_the_scorer_shd(seed: int) -> None:
    """missing + extra + reversed of edge_status equal metrics.shd_normalized on random graph pairs."""
    import numpy as np
    from _graphs import random_dag
    from causalcheck.metrics import shd_normalized

    rng = np.random.default_rng(seed)
    truth = frozenset(random_dag(5, 0.4, rng).directed_pairs)
    pred = frozenset((b, a) if rng.random() < 0.3 else (a, b) for a, b in random_dag(5, 0.4, rng).directed_pairs)
    status = edge_status(pred, truth)
    s = shd_normalized(pred, truth)
    counts = {k: sum(1 for v in status.values() if v == k) for k in ("missing", "extra", "reversed", "correct")}
    assert (counts["missing"], counts["extra"], counts["reversed"]) == (s.missing, s.extra, s.reversed)
    assert counts["correct"] == len(pred & truth)


def test_agent_comes_from_fields_then_header_then_folder(tmp_path: Path) -> None:
    """agent/model fields win; else the trajectory header; else the official folder name; else unknown."""
    traj = tmp_path / "t.jsonl"
    traj.write_text(json.dumps({"type": "header", "agent": "random"}) + "\n", encoding="utf-8")
    assert agent_of({"agent": "planner", "source": str(traj)}) == ("planner", None)
    assert agent_of({"source": str(traj)}) == ("random", None)
    assert agent_of({"source": str(tmp_path / "react" / "obs_Causal_gpt-4o" / "4nodes" / "seed_1")}) == ("react", "gpt-4o")
    assert agent_of({"source": str(tmp_path / "nowhere")}) == ("unknown", None)


def test_episode_selection_is_bounded_and_explained() -> None:
    """At most N episodes, lowest / highest / median edge F1 first, each with its reason."""
    from causalcheck.report.lab_views import LabEpisode

    eps = [LabEpisode({"final": {"edge_f1": f, "audit_errors": e}}, "a", None, "x") for f, e in
           [(0.5, 0), (0.1, 0), (0.9, 3), (0.7, 0), (0.3, 1)]]
    chosen = select_episodes(eps, 3)
    assert [(c[0].final["edge_f1"], c[1]) for c in chosen] == [
        (0.1, "lowest final edge F1"), (0.9, "highest final edge F1"), (0.5, "median final edge F1")]
    assert len(select_episodes(eps, 10)) == 5
    assert select_episodes(eps, 0) == []


def test_answer_marking_escapes_html() -> None:
    """Text inside and outside EDUs is escaped; a planted tag never reaches the page as markup."""
    m = marked_answer('x <script>alert(1)</script> "y"', [("EDU1", 2, 29)])
    assert "<script>" not in m.html and "&lt;script&gt;" in m.html
    assert m.html.count("<sup>EDU1</sup>") == 1


def _without_causalcheck(result: Path, into: Path) -> Path:
    """*result* as the original tool writes it: the ``causalcheck`` objects (ours) removed from meta and items."""
    data = json.loads(result.read_text(encoding="utf-8"))
    data.get("meta", {}).pop("causalcheck", None)
    for item in data["items"]:
        item.pop("causalcheck", None)
    path = into / result.name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_official_result_file_gets_derived_statistics(own_result: Path, tmp_path: Path) -> None:
    """A result file in the official format without causalcheck objects: node counts and longest paths are derived per item."""
    path = _without_causalcheck(own_result, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    (run,) = explain_runs([(str(path), data)])
    assert run.label == data["meta"]["answer_model"] and len(run.items) == len(data["items"])
    for item, obj in zip(run.items, data["items"], strict=True):
        assert item.derived and item.stats is not None and item.stats.nodes == len(obj["parsed_dag"]["nodes"])
        assert 0 <= item.stats.longest_path <= len(obj["parsed_dag"]["edges"])
    assert select_items([run], 3)


def test_report_of_official_files(own_result: Path, sample_run: Path, tmp_path: Path) -> None:
    """A result file in the official format (no causalcheck objects) and the official sample run's scores make one report."""
    scores = tmp_path / "scores"
    assert main(["lab", "score", str(sample_run), "--out", str(scores), "--bootstrap", "0"]) == 0
    out = tmp_path / "r.html"
    assert main(["report", str(scores), str(_without_causalcheck(own_result, tmp_path)), "--out", str(out)]) == 0
    html = out.read_text(encoding="utf-8")
    assert "react_simple-mem (gpt-5-mini)" in html  # agent and model from the official folder names
    assert "derived by the report" in html


def test_malformed_fields_never_crash_the_report(tmp_path: Path) -> None:
    """Inputs of the right kind whose fields have wrong types or impossible values still build (html and md)."""
    lab = {"episodes": [{"final": "x", "steps": 3, "audit": [], "source": 5}, {},
                        {"final": {"edge_f1": "a", "task_accuracy": True}, "steps": [{"step": "x"}, 4],
                         "audit": {"diagnostics": [1, {"code": 3}]}}], "by_suite": []}
    explain = {"meta": {"answer_model": 5}, "summary": {}, "failures": [3, {"id": 2}], "items": [
        {}, {"pm_score": "x", "parsed_dag": {"nodes": [{"id": 1}], "edges": [3]},
             "metrics": {"pm": {"edges": [None]}, "rm": {"criterion_evaluations": [1]}},
             "causalcheck": {"stats": {"nodes": "a"}, "edu_offsets": [[1, 2]]}},
        {"id": 7, "model_answer": "abc <b>", "causalcheck": {"edu_offsets": [["E", 5, 1], ["F", 0, 2]], "stats": {}},
         "parsed_dag": {"nodes": [{"id": "E", "text": "ab"}], "edges": [{"source": "E", "target": "Q", "relation_type": "CAUSE"}]}}]}
    check = {"source": "x", "kind": "single", "reports": [
        1, {"meta": {"hypothesis": "a -> b\nb -> a"}, "diagnostics": [{"code": "cycle", "elements": ["a -> b", 3]},
                                                                     {"code": "data-mismatch", "data": {"residuals": {"p": "x"}}}]},
        {"meta": {"hypothesis": "((("}, "diagnostics": [{"code": "cycle"}]}]}
    paths = []
    for name, obj in (("s.json", lab), ("e.json", explain), ("c.json", check)):
        (tmp_path / name).write_text(json.dumps(obj), encoding="utf-8")
        paths.append(str(tmp_path / name))
    assert main(["report", *paths, "--out", str(tmp_path / "r.html")]) == 0
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "c &lt;b&gt;" in html and "<b>" not in html
    assert main(["report", *paths, "--format", "md", "--out", str(tmp_path / "md")]) == 0


def test_relative_sources_resolve_from_the_scores_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Scores written with relative sources in one folder still find their trajectories from another."""
    monkeypatch.chdir(tmp_path)
    assert main(["lab", "run", "--suite", "mini", "--agent", "random", "--seeds", "1", "--out", "runs/r", "--quiet"]) == 0
    assert main(["lab", "score", "runs/r", "--out", "runs/scores", "--bootstrap", "0"]) == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["report", "../runs/scores", "--out", "r.html", "--bootstrap", "0"]) == 0
    html = (elsewhere / "r.html").read_text(encoding="utf-8")
    assert "<td>random</td><td>mini</td>" in html and "unknown" not in html
    assert "Truth and hypothesis" in html


def test_svgs_are_well_formed_xml_with_page_unique_ids(demo: Path) -> None:
    """Every inline SVG parses as XML; no id appears twice on the page."""
    import xml.etree.ElementTree as ET

    html = _html(demo)
    for svg in re.findall(r"<svg [^>]*>.*?</svg>", html, flags=re.S):
        ET.fromstring(svg)
    ids = re.findall(r'\sid="([^"]+)"', html)
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("seed", range(10))
def test_layered_layout_points_every_edge_down(seed: int) -> None:
    """A DAG's edges all go from a higher row to a lower one; no two nodes share a position."""
    import numpy as np
    from _graphs import random_dag
    from causalcheck.report.layout import place

    g = random_dag(9, 0.35, np.random.default_rng(seed))
    pos, w, h = place(list(g.nodes), sorted(g.directed_pairs))
    assert all(pos[a][1] < pos[b][1] for a, b in g.directed_pairs)
    assert len({pos[n] for n in g.nodes}) == len(g.nodes)
    assert all(0 < x < w and 0 < y < h for x, y in pos.values())


@pytest.mark.parametrize("n", [6, 80])
def test_cyclic_layouts_place_every_node_apart(n: int) -> None:
    """Small cyclic graphs (Kamada-Kawai) and big ones (layered condensation) give distinct positions."""
    from causalcheck.report.layout import MAX_ROW, MAX_SPRING, place

    nodes = [f"N{i}" for i in range(n)]
    edges = [(nodes[i], nodes[(i + 1) % n]) for i in range(n)]
    pos, _, _ = place(nodes, edges)
    assert len({(round(x), round(y)) for x, y in pos.values()}) == n
    rows = {y for _, y in pos.values()}
    if n > MAX_SPRING:  # the whole cycle is one layer of the condensation, wrapped into rows of MAX_ROW
        assert len(rows) == -(-n // MAX_ROW)
    else:
        assert len(rows) > 1
