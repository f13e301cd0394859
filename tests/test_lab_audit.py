"""Evidence audit: recorded data versus what the environment showed, and when."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from causalcheck.episodes import EpisodeRecord, ShownState, Step, load_run_folder
from causalcheck.findings import EntryValue, Figures, SolverEvidence
from causalcheck.lab.audit import Entry, audit_episode
from causalcheck.parsing import parse_record_obj

CONFIG = {
    "graph_id": "t_0",
    "nodes": {"resonanceFreq": {"computation": "base_freq + coeff_a_freq * a"}, "a": {}, "b": {}},
    "edges": [{"from": "a", "to": "resonanceFreq"}],
    "params": {"base_freq": 10.0, "coeff_a_freq": 2},
    "budget": 4,
}
PRIOR = ShownState({"a": 1.0, "b": 5.0}, 12.0, "prior record 1", 0)
AFTER_1 = ShownState({"a": 20.0, "b": 5.0}, 50.0, "manipulator after step 1", 1)


def _entry(eid: str, a: float, b: float, freq: float, **extra: Any) -> dict[str, Any]:
    return {"id": eid, "props": {"a": a, "b": b}, "freq": freq, **extra}


def _episode(records: list[dict[str, Any]], *, success: bool | None = True, interventions: int = 1) -> EpisodeRecord:
    steps = tuple(
        Step(i, i, parse_record_obj(rec) if rec else None, intervention=("a", 20.0) if i == 0 and interventions else None)
        for i, rec in enumerate(records)
    )
    return EpisodeRecord(
        source="synthetic", kind="trajectory", suite="t", graph_id="t_0", experiment_id="t_0", seed="1",
        config=CONFIG, steps=steps, shown=(PRIOR, AFTER_1), success=success,
        intervention_budget=4, submission_budget=3, submissions_used=1,
    )


def _codes(ep: EpisodeRecord) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for d in audit_episode(ep).findings:
        out.setdefault(d.code, []).extend(d.elements)
    return out


def test_sample_run_flags_the_fabricated_entry(sample_run: Path) -> None:
    """Entry 4/12 (freq 105 written before the manipulator showed 155) is flagged as fabricated."""
    report = audit_episode(load_run_folder(sample_run))
    fabricated = [d for d in report.findings if d.code == "fabricated-entry"]
    assert [d.elements for d in fabricated] == [("4/12",)]
    d = fabricated[0]
    assert d.severity == "error"
    assert d.certificate == EntryValue(8, "resonanceFreq", 105.0, 155.0, d.certificate.state, uncorrected=True)  # type: ignore[union-attr]
    assert "105.0" in d.message and "155.0" in d.message


def test_sample_run_contradiction_and_premature_stop(sample_run: Path) -> None:
    """The final equation misses the agent's own entry 1/12; 9/12 interventions and 2/3 submissions were unused."""
    report = audit_episode(load_run_folder(sample_run))
    codes = report.codes()
    assert "hypothesis-contradicts-evidence" in codes
    assert "premature-stop" in codes
    assert report.meta["interventions_unused"] == 9 and report.meta["submissions_unused"] == 2
    assert {d.code for d in report.findings if d.severity == "error"} == {
        "fabricated-entry",
        "hypothesis-contradicts-evidence",
    }


def test_sample_run_contradiction_comes_from_the_core_solver(sample_run: Path) -> None:
    """With solver checks the finding carries the core's data-mismatch / equation-refuted details."""
    ep = load_run_folder(sample_run)
    full = next(d for d in audit_episode(ep).findings if d.code == "hypothesis-contradicts-evidence")
    assert isinstance(full.certificate, SolverEvidence)
    assert {s.code for s in full.certificate.solver} == {"data-mismatch", "equation-refuted"}
    assert {s["code"] for s in full.to_dict()["certificate"]["solver"]} == {"data-mismatch", "equation-refuted"}
    assert "1/12" in full.elements
    fast = next(
        d for d in audit_episode(ep, solver_checks=False).findings if d.code == "hypothesis-contradicts-evidence"
    )
    assert fast.elements == ("1/12",) and isinstance(fast.certificate, Figures) and "max_abs_error" in fast.certificate.figures


def test_faithful_copies_raise_nothing() -> None:
    """Entries equal to states shown before they were written are clean (int vs float does not matter)."""
    rec0 = {"past_data": [_entry("0/4", 1, 5, 12)]}
    rec1 = {"past_data": [_entry("0/4", 1, 5, 12), _entry("1/4", 20.0, 5.0, 50.0)]}
    assert _codes(_episode([rec0, rec1])) == {"budget-unused": []}


def test_altered_copy_of_a_shown_state() -> None:
    """Copying a shown state with a changed value is 'altered-entry'."""
    rec1 = {"past_data": [_entry("0/4", 1, 5, 13)]}
    assert _codes(_episode([{}, rec1]))["altered-entry"] == ["0/4"]


def test_prefilled_but_correct_entry_is_a_warning() -> None:
    """Writing the right values before they were displayed is 'prefilled-entry' (warning)."""
    rec0 = {"past_data": [_entry("1/4", 20, 5, 50)]}
    ep = _episode([rec0])
    diags = audit_episode(ep).findings
    assert [(d.code, d.severity) for d in diags if d.code == "prefilled-entry"] == [("prefilled-entry", "warning")]


def test_invented_entry_matching_nothing_is_fabricated() -> None:
    """An entry that matches no shown state at all is fabricated."""
    rec = {"past_data": [_entry("7/4", 70, 70, 150)]}
    assert _codes(_episode([{}, rec]))["fabricated-entry"] == ["7/4"]


def test_corrected_entries_are_reported_as_corrected() -> None:
    """A wrong entry fixed in a later record is reported with uncorrected = False."""
    recs = [{}, {"past_data": [_entry("1/4", 20, 5, 49)]}, {"past_data": [_entry("1/4", 20, 5, 50)]}]
    diags = audit_episode(_episode(recs)).findings
    assert not [d for d in diags if d.code in ("altered-entry", "fabricated-entry")]


def test_recorded_intervention_that_never_happened() -> None:
    """An entry claiming an intervention that was not executed is flagged."""
    rec = {"past_data": [_entry("1/4", 20, 5, 50, intervention={"target_prop": "b", "target_value": 9})]}
    assert _codes(_episode([{}, rec]))["intervention-never-made"] == ["1/4"]
    ok = {"past_data": [_entry("1/4", 20, 5, 50, intervention={"target_prop": "a", "target_value": 20})]}
    assert "intervention-never-made" not in _codes(_episode([{}, ok]))


def test_hypothesis_that_contradicts_the_agents_data() -> None:
    """A final equation that misses the agent's own entries is an error; a fitting one is not."""
    data = [_entry("0/4", 1, 5, 12), _entry("1/4", 20, 5, 50)]
    wrong = {"past_data": data, "hypothesis": {"edges": [{"from": "a", "to": "resonanceFreq"}],
             "freq_equation": "resonanceFreq = base + c_a*a", "coefficients": {"base": 0, "c_a": 2}}}
    right = {**wrong, "hypothesis": {**wrong["hypothesis"], "coefficients": {"base": 10, "c_a": 2}}}
    assert _codes(_episode([{}, wrong]))["hypothesis-contradicts-evidence"] == ["0/4", "1/4"]
    assert "hypothesis-contradicts-evidence" not in _codes(_episode([{}, right]))
    undetermined = {**wrong, "hypothesis": {**wrong["hypothesis"], "coefficients": {"base": None, "c_a": 2}}}
    assert "hypothesis-undetermined" in _codes(_episode([{}, undetermined]))


def test_budget_left_is_premature_only_for_failed_episodes() -> None:
    """Unused budget is a warning when the episode failed, info when it succeeded."""
    assert "premature-stop" in _codes(_episode([{}], success=False))
    assert "budget-unused" in _codes(_episode([{}], success=True))
    report = audit_episode(_episode([{}], success=False))
    assert report.meta["interventions_unused"] == 3 and report.meta["submissions_unused"] == 2


def test_entries_come_from_the_parsed_record() -> None:
    """past_data given as a JSON string, with string numbers and nulls, is read by the parser; junk is skipped."""
    rec = parse_record_obj({"past_data": '[{"id": "0/2", "props": {"a": "1.5", "b": null}, "freq": 3}, 7]'})
    entries = [Entry.of(p) for p in rec.past_data or ()]
    assert len(entries) == 1
    assert entries[0].props == {"a": 1.5} and entries[0].freq == 3.0
    assert Entry.of(entries[0].point()) == entries[0]


def test_a_step_without_records_is_skipped() -> None:
    """Steps with no record, or a record without past_data, leave the evidence of earlier steps in force."""
    data = {"past_data": [_entry("0/4", 1, 5, 13)]}
    assert _codes(_episode([data, {}, {"action": "WAIT"}]))["altered-entry"] == ["0/4"]
