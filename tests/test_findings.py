"""One finding, one report: causalcheck.findings, the ok rule and the certificates' shapes."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

import causalcheck
import numpy as np
import pytest
from _graphs import simulate
from causalcheck import findings as F
from causalcheck.checking import check, check_folder
from causalcheck.cli import main
from causalcheck.findings import Finding, Report
from causalcheck.graphs import read_graph, validate_graph

REPO = Path(__file__).resolve().parents[1]
PACKAGE_FOLDERS = ("core", "solvers", "adapters")
F_EQ = "resonanceFreq"


def _field_names(cls: ast.ClassDef) -> set[str]:
    """The annotated class-level names and the properties of a class body."""
    names = {n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    names |= {n.name for n in cls.body if isinstance(n, ast.FunctionDef) and any(
        isinstance(d, ast.Name) and d.id == "property" for d in n.decorator_list)}
    return names


def test_the_package_defines_one_finding_class():
    """Only causalcheck.findings.Finding has code, severity and message fields among the package's classes."""
    found = []
    for folder in PACKAGE_FOLDERS:
        for path in sorted((REPO / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and {"code", "severity", "message"} <= _field_names(node):
                    found.append(f"{path.relative_to(REPO)}:{node.name}")
    assert found == ["core/findings.py:Finding"]


def test_one_finding_class_and_no_deprecated_names():
    """graphs.Finding is the one Finding; the 0.1.0 aliases (Diagnostic, CheckReport, ValidationReport) are gone."""
    import importlib

    from causalcheck.graphs import Finding as GraphFinding

    assert Finding is causalcheck.Finding is GraphFinding and Report is causalcheck.Report
    for module, name in (("causalcheck", "Diagnostic"), ("causalcheck", "CheckReport"), ("causalcheck.findings", "Diagnostic"),
                         ("causalcheck.findings", "CheckReport"), ("causalcheck.graphs", "ValidationReport"),
                         ("causalcheck.graphchecks.validator", "ValidationReport")):  # fmt: skip
        assert not hasattr(importlib.import_module(module), name), f"{module}.{name}"


def _lab_run(tmp_path: Path) -> Path:
    from causalcheck.lab.runner import run_suite

    out = tmp_path / "run"
    run_suite("mini", "planner", out, seeds=(1,), limit=2, progress=False)
    return out


def _all_findings_are_the_one_class(report: Report) -> None:
    assert type(report) is Report and isinstance(report.ok, bool)
    assert all(type(f) is Finding for f in report.findings)
    for part in report.parts:
        _all_findings_are_the_one_class(part)
    json.dumps(report.to_dict())  # JSON-ready


def test_check_returns_one_report_class_for_every_input(tmp_path):
    """A record, a trajectory, a run folder, a networkx graph, a causal-learn graph and a graph file: one Report."""
    nx = pytest.importorskip("networkx")
    pytest.importorskip("causallearn")
    from causallearn.graph.GeneralGraph import GeneralGraph
    from causallearn.graph.GraphNode import GraphNode

    record = json.dumps({"past_data": [{"id": "0", "props": {"a": 1}, "freq": 3}],
                         "hypothesis": {"edges": [{"from": "a", "to": F_EQ}], "freq_equation": f"{F_EQ} = base + c_a*a",
                                        "coefficients": {"base": 1, "c_a": 1}}})
    nodes = [GraphNode("x"), GraphNode("y")]
    cl = GeneralGraph(nodes)
    cl.add_directed_edge(nodes[0], nodes[1])
    graph_file = tmp_path / "g.dot"
    graph_file.write_text("digraph { a -> b; b -> c; c -> a }\n", encoding="utf-8")
    run = _lab_run(tmp_path)
    reports = {
        "record": check(record),
        "trajectory": check("example:trajectory"),
        "run folder": check(run),
        "networkx": check(nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])),
        "causal-learn": check(cl, truth="y -> x"),
        "graph file": check(graph_file),
    }
    assert {name: type(r) for name, r in reports.items()} == dict.fromkeys(reports, Report)
    for r in reports.values():
        _all_findings_are_the_one_class(r)
    assert all(reports[name].findings for name in ("record", "trajectory", "networkx", "causal-learn", "graph file"))
    kinds = {name: r.kind for name, r in reports.items()}
    assert kinds == {"record": "record", "trajectory": "trajectory", "run folder": "folder", "networkx": "graph",
                     "causal-learn": "graph", "graph file": "graph"}
    assert reports["graph file"].subject == str(graph_file)
    folder = reports["run folder"]
    assert len(folder.parts) == 2 and all(p.kind == "trajectory" for p in folder.parts)
    assert folder.findings == tuple(f for p in folder.parts for f in p.findings)  # flattened, in order


def test_a_container_report_flattens_its_parts_and_counts_them_for_ok():
    """A trajectory's findings are its steps' in order; one error in one step makes the trajectory not ok."""
    report = check("example:trajectory")
    assert report.findings == tuple(f for step in report.parts for f in step.findings)
    assert report.codes() == tuple(f.code for f in report.findings)
    assert not report.ok and report.errors and all(f.severity == "error" for f in report.errors)
    assert [p.ok for p in report.parts] == [not p.errors for p in report.parts]


def test_ok_means_no_error_level_finding():
    """Warnings keep a report ok, an error does not, for hypotheses and graphs alike."""
    warned = check(f"a -> {F_EQ}\n{F_EQ} = base + c_a*a\nbase = 1\nc_a = null\n")
    assert warned.codes() == ("undetermined-coefficient",) and warned.warnings and warned.ok
    assert not check("a -> b\nb -> a").ok
    differing = check(read_graph("a -> b -> c"), truth="a -> b <- c")
    assert "truth-mark-differs" in differing.codes() and differing.ok


def test_warnings_never_make_a_correct_graph_on_good_data_not_ok():
    """The true chain on its own data is not falsifiable (a warning) and still ok, through check and validate_graph."""
    chain = read_graph("a -> b -> c -> d")
    data = simulate(chain, 500, np.random.default_rng(1))
    result = validate_graph(chain, data=data)
    assert "graph-not-falsifiable" in result.codes() and not result.errors
    assert result.ok and result.report.ok and check(chain, data=data).ok
    assert result.to_dict()["ok"] is True


def test_the_validator_and_the_checker_name_a_cycle_alike():
    """A directed cycle is `cycle` with the edges as elements and a CycleWitness in both worlds; it is a graph-invalid."""
    hypothesis = check("a -> b\nb -> c\nc -> a")
    graph = check(read_graph("a -> b -> c -> a"))
    (h,) = hypothesis.having("cycle")
    (g,) = graph.having("cycle")
    assert isinstance(h.certificate, F.CycleWitness) and isinstance(g.certificate, F.CycleWitness)
    assert set(h.elements) == set(g.elements) == {"a -> b", "b -> c", "c -> a"}
    assert set(h.certificate.cycle) == set(g.certificate.cycle)
    assert graph.having("graph-invalid") == (g,) and h.is_a("graph-invalid") and not h.is_a("ci-violated")
    other = check(read_graph("a -> b -- c"))  # not a CPDAG: still graph-invalid
    assert other.codes() == ("graph-invalid",)


def test_an_unregistered_code_or_severity_is_refused():
    """Finding checks code and severity against the registry (a bug of the emitting check: AssertionError)."""
    with pytest.raises(AssertionError, match="not registered"):
        Finding("made-up", "error", "x")
    with pytest.raises(AssertionError, match="severity='info'"):
        Finding("cycle", "info", "x")


SHAPES = [
    (F.CycleWitness((("a", "b"), ("b", "a"))), {"cycle": [["a", "b"], ["b", "a"]]}),
    (F.ReferenceEdge(("b", "a")), {"reference_edge": ["b", "a"]}),
    (F.SyntaxPosition(1, 7, ("NAME", "NUMBER")), {"line": 1, "column": 7, "expected": ["NAME", "NUMBER"]}),
    (F.Parents(("a", "b")), {"parents": ["a", "b"]}),
    (F.Undetermined("null"), {"reason": "null"}),
    (F.DataConflict(("0",), 2.5, 2.5, {"0": -2.5, "1": 0.0}, 0.01),
     {"conflicting": ["0"], "min_tolerance": 2.5, "conflicting_min_tolerance": 2.5, "residuals": {"0": -2.5, "1": 0.0},
      "tolerance": 0.01}),
    (F.FormRefuted(("0", "1"), 1.0, 1.0, {"base": 2.0}),
     {"conflicting": ["0", "1"], "min_tolerance": 1.0, "conflicting_min_tolerance": 1.0, "best_fit": {"base": 2.0}}),
    (F.StepIndex(5, 4), {"step": 5, "index": 4}),
    (F.EntryShownEarly(3, "step 4", True), {"step": 3, "shown": "step 4", "uncorrected": True}),
    (F.EntryValue(8, "resonanceFreq", 105.0, 155.0, "step 9", False),
     {"step": 8, "field": "resonanceFreq", "written": 105.0, "shown": 155.0, "state": "step 9", "uncorrected": False}),
    (F.EntryUnmatched(2, True), {"step": 2, "uncorrected": True}),
    (F.Figures({"max_abs_error": 3.5}), {"max_abs_error": 3.5}),
]


@pytest.mark.parametrize(("certificate", "shape"), SHAPES, ids=[type(c).__name__ for c, _ in SHAPES])
def test_each_certificate_has_its_documented_shape(certificate, shape):
    """to_dict() of every certificate kind is the shape the module table documents, and the finding carries it as is."""
    assert certificate.to_dict() == shape
    assert f":class:`{type(certificate).__name__}`" in (F.__doc__ or "")
    for key in shape:
        assert key in (F.__doc__ or "") or type(certificate) is F.Figures
    finding = Finding("cycle", "error", "m", (), certificate)
    assert finding.to_dict()["certificate"] == shape


def test_every_certificate_class_is_documented_and_tested():
    """The module's certificate classes are exactly those with a shape test above (and each is frozen)."""
    classes = {name for name in F.__all__ if dataclasses.is_dataclass(getattr(F, name))} - {"Finding", "Report"}
    assert classes == {type(c).__name__ for c, _ in SHAPES} | {"SolverEvidence"}
    assert all(getattr(F, name).__dataclass_params__.frozen for name in classes)


def test_solver_evidence_nests_findings_in_the_one_format():
    """SolverEvidence holds findings: to_dict() nests their to_dict()."""
    inner = Finding("data-mismatch", "error", "misses", ("0",), F.DataConflict(("0",), 1.0, 1.0, {"0": 1.0}, 0.01))
    outer = Finding("hypothesis-contradicts-evidence", "error", "contradicts", ("0",), F.SolverEvidence((inner,)))
    assert outer.to_dict()["certificate"] == {"solver": [inner.to_dict()]}
    assert inner.to_dict() == {"code": "data-mismatch", "severity": "error", "message": "misses", "elements": ["0"],
                               "certificate": {"conflicting": ["0"], "min_tolerance": 1.0, "conflicting_min_tolerance": 1.0,
                                               "residuals": {"0": 1.0}, "tolerance": 0.01}}


def test_the_stored_record_holds_findings_in_the_one_format():
    """Report.to_json is the flat record files store (subject, ok, meta, findings), each finding its to_dict()."""
    f = Finding("missing-equation", "warning", "no equation", ("resonanceFreq",))
    g = Finding("cycle", "error", "a -> b -> a", ("a -> b", "b -> a"), F.CycleWitness((("a", "b"), ("b", "a"))))
    r = Report("run", (f,), {"step": 1}, kind="trajectory", parts=(Report("step 2", (g,), kind="record"),))
    assert r.to_json() == {"subject": "run", "ok": False, "meta": {"step": 1}, "findings": [f.to_dict(), g.to_dict()]}
    assert f.to_dict() == {"code": "missing-equation", "severity": "warning", "message": "no equation", "elements": ["resonanceFreq"],
                           "certificate": None}
    assert not hasattr(f, "to_json") and not hasattr(f, "data") and not hasattr(r, "diagnostics")  # one wire format


def test_finding_records_read_files_of_earlier_versions():
    """Stored records of earlier versions (diagnostics, a certificate under data, {} for none) read into the one format."""
    g = Finding("cycle", "error", "a -> b -> a", ("a -> b",), F.CycleWitness((("a", "b"), ("b", "a"))))
    h = Finding("missing-equation", "warning", "no equation", ("x",))
    old = {"subject": "s", "diagnostics": [{**{k: v for k, v in g.to_dict().items() if k != "certificate"}, "data": g.to_dict()["certificate"]},
                                           {**{k: v for k, v in h.to_dict().items() if k != "certificate"}, "data": {}}, "junk"]}
    assert F.finding_records(old) == [g.to_dict(), h.to_dict()]
    assert F.finding_records(Report("s", (g, h)).to_json()) == [g.to_dict(), h.to_dict()]
    assert F.finding_records(None) == [] and F.finding_records({"findings": 3}) == []


def test_a_folder_report_names_what_it_could_not_read(tmp_path):
    """A folder's report has a part per checked file and an input-unreadable error per unreadable one."""
    good = {"past_data": [], "hypothesis": {"edges": [{"from": "a", "to": F_EQ}]}}
    (tmp_path / "a.json").write_text(json.dumps(good), encoding="utf-8")
    (tmp_path / "b.json").write_text(json.dumps(good), encoding="utf-8")
    (tmp_path / "broken.json").write_text('{"past_data": [', encoding="utf-8")
    report = check(tmp_path)
    assert report.kind == "folder" and [p.subject for p in report.parts] == [str(tmp_path / "a.json"), str(tmp_path / "b.json")]
    assert [f.code for f in report.own] == ["input-unreadable"] and not report.ok
    assert report == check_folder(tmp_path).report
    assert [u["path"] for u in report.meta["inputs"]] == [str(tmp_path / n) for n in ("a.json", "b.json", "broken.json")]


def test_named_fix_the_json_ok_field_and_exit_code_of_a_warning_only_check(tmp_path, capsys):
    """fix: `check --json` of a hypothesis with only warnings says ok: true and exits 0 (it said false / 1)."""
    path = tmp_path / "h.txt"
    path.write_text(f"a -> {F_EQ}\n{F_EQ} = base + c_a*a\nbase = 1\nc_a = null\n", encoding="utf-8")
    assert main(["check", str(path), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is True and payload["summary"]["with_problems"] == 1
    assert payload["reports"][0]["ok"] is True and payload["reports"][0]["findings"][0]["severity"] == "warning"


def test_named_fix_a_graph_with_only_warnings_exits_zero(tmp_path, capsys):
    """fix: `check GRAPH --truth T` that differs from the truth only by warnings exits 0 with ok: true (it was 1)."""
    graph, truth = tmp_path / "g.txt", tmp_path / "t.txt"
    graph.write_text("a -> b -> c\n", encoding="utf-8")
    truth.write_text("a -> b <- c\n", encoding="utf-8")
    assert main(["check", str(graph), "--truth", str(truth), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True and "truth-mark-differs" in [f["code"] for f in out["findings"]]


def test_named_fix_the_validator_reports_a_cycle_as_cycle(tmp_path, capsys):
    """fix: a cyclic graph file is a `cycle` error (its edges, the cycle certificate), no longer `graph-invalid`."""
    dot = tmp_path / "g.dot"
    dot.write_text("digraph { a -> b; b -> c; c -> a }\n", encoding="utf-8")
    assert main(["check", str(dot), "--json"]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert finding["code"] == "cycle" and finding["elements"] == ["a -> b", "b -> c", "c -> a"]
    assert finding["certificate"] == {"cycle": [["a", "b"], ["b", "c"], ["c", "a"]]}


def test_the_readme_documents_every_code():
    """The validator table of docs/graphs.md is the registry's, and docs/check.md names every checker code."""
    from causalcheck.base.codes import CHECK_STAGES, VALIDATOR_STAGES, codes_in, codes_table

    assert codes_table(VALIDATOR_STAGES) in (REPO / "docs" / "graphs.md").read_text(encoding="utf-8")
    check_page = (REPO / "docs" / "check.md").read_text(encoding="utf-8")
    check_section = check_page[check_page.index("<!-- BEGIN check"):check_page.index("<!-- END check")]
    assert [c for c in codes_in(CHECK_STAGES) if f"`{c}`" not in check_section] == []
    assert "`ok` means \"no error-level finding\"" in check_section
