"""The finding-code registry covers every code (and severity) the checks can emit, and documents them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import causalcheck.checking as checking
from causalcheck.checking import (
    FINDING_CODES,
    check,
    check_folder,
    check_hypothesis,
    check_record,
    check_trajectory,
    codes_table,
)
from causalcheck.episodes import Unparsed
from causalcheck.findings import Report
from causalcheck.parsing import parse_hypothesis, parse_record_obj
from causalcheck.records import DataPoint, Hypothesis

REPO = Path(__file__).resolve().parents[1]
F = "resonanceFreq"


def _h(edges: list[tuple[str, str]], eq: str = "", coeffs: dict[str, float | None] | None = None) -> Hypothesis:
    return parse_hypothesis({"edges": [{"from": a, "to": b} for a, b in edges], "freq_equation": eq, "coefficients": coeffs or {}})


def _p(i: str, freq: float | None, **props: float | None) -> DataPoint:
    return DataPoint(i, props, freq)


def _emitted(folder: Path) -> set[tuple[str, str]]:
    reports: list[Report] = []

    def add(result: Report) -> None:
        reports.append(result)

    add(check("A -> B\nB -> A"))  # cycle, direction-contradiction
    add(check(_h([("A", "B")]), reference=[("B", "A")]))  # contradicts-reference
    add(check_hypothesis(_h([("A", "C")]), nodes=["A"]))  # unknown-node
    add(check(_h([("A", F)])))  # missing-equation
    add(check(_h([("A", F)], f"{F} = base + *")))  # equation-syntax
    add(check(_h([("A", F)], "X = base + c_A*A", {"base": 1, "c_A": 1})))  # equation-target
    add(check(_h([("A", F)], f"{F} = base + c_A*A + {F}", {"base": 1, "c_A": 1})))  # self-reference
    add(check(_h([("A", F), ("B", F)], f"{F} = base + c_A*A + C", {"base": 1, "c_A": None})))  # non-parent, missing parent, undetermined
    add(check(_h([("A", F)], f"{F} = base + c_A*A", {"base": 1, "c_A": 1, "c_B": 2})))  # unused-coefficient (warning)
    add(check(_h([("A", F)], f"{F} = base + c_A*A", {"base": 1, "c_A": 1, "note": 2})))  # unused-coefficient (info)
    fit = _h([("A", F)], f"{F} = base + c_A*A", {"base": 1, "c_A": 1})
    add(check(fit, data=[_p("0", 2.0, A=1.0), _p("1", 3.0, A=None)]))  # data-skipped
    add(check(_h([("A", F)], f"{F} = base + c_A/A", {"base": 1, "c_A": 1}), data=[_p("0", 2.0, A=0.0), _p("1", 2.0, A=1.0)]))  # data-not-checked (warning)
    add(check(_h([("A", F)], f"{F} = base + c_A*c_A*A", {"base": 1, "c_A": None}), data=[_p("0", 2.0, A=1.0)]))  # data-not-checked (info)
    add(check(fit, data=[_p("0", 2.0, A=1.0), _p("1", 9.0, A=2.0), _p("2", 4.0, A=3.0)]))  # data-mismatch, equation-refuted
    drift = parse_record_obj({"Past Data": [], "hypothesis": {"edges": [{"from": "A"}]}})
    add(check_record(drift))  # record-drift (warning: an edge dropped)
    add(check_record(parse_record_obj({"Past Data": [], "hypothesis": {}})))  # record-drift (info)
    add(check_record(Unparsed("no JSON object found", step=1)))  # unparseable-record
    good = {"edges": [{"from": "A", "to": F}], "freq_equation": f"{F} = base + c_A*A", "coefficients": {"base": 1, "c_A": 1}}
    first = parse_record_obj({"past_data": [{"id": "0", "props": {"A": 1}, "freq": 2}], "hypothesis": good})
    second = parse_record_obj({"past_data": [{"id": "0", "props": {"A": 1}, "freq": 5}], "hypothesis": good})
    add(check_trajectory([first, second]))  # past-data-rewritten, data-stop-agreeing
    (folder / "broken.json").write_text('{"past_data": [', encoding="utf-8")
    (folder / "notes.md").write_text("not a record\n", encoding="utf-8")
    (folder / "record.json").write_text(json.dumps({"past_data": [], "hypothesis": good}), encoding="utf-8")
    add(check_folder(folder).report)  # input-unreadable, input-skipped
    return {(d.code, d.severity) for r in reports for d in r.findings}


def test_registry_equals_what_the_checks_emit(tmp_path: Path) -> None:
    """Every code the checks emit is registered with that severity, and every registered code and severity occurs."""
    seen = _emitted(tmp_path)
    assert {code for code, _ in seen} == set(FINDING_CODES)
    for code, severity in seen:
        assert severity in FINDING_CODES[code].severities, (code, severity)
    declared = {(c.code, s) for c in FINDING_CODES.values() for s in c.severities}
    assert declared == seen


def test_every_code_in_the_sources_is_registered() -> None:
    """A Finding code written anywhere in the checking package or the solvers is in the registry."""
    pattern = re.compile(r'Finding\(\s*(?:code=)?"([a-z]+(?:-[a-z]+)*)"')
    found = set()
    for folder in (REPO / "core" / "checking", REPO / "solvers"):
        for path in folder.glob("*.py"):
            found.update(pattern.findall(path.read_text(encoding="utf-8")))
    assert found and found <= set(FINDING_CODES)


def test_package_docs_show_the_registry() -> None:
    """The checking package's documentation ends with the table rendered from the registry."""
    assert checking.__doc__ is not None and checking.__doc__.rstrip().endswith(codes_table().rstrip())
    for code in FINDING_CODES:
        assert f"``{code}``" in checking.__doc__
