"""The name-policy keyword of causalcheck.metrics (issue 10 item 2): CausaLab by default, exact on request."""

from __future__ import annotations

import pytest
from causalcheck import metrics as M
from causalcheck.base.errors import InputFormatError
from causalcheck.graphs import CAUSALAB, EXACT

CONFIG = {
    "edges": [{"from": "density", "to": "resonanceFreq"}, {"from": " moisture", "to": "Frequency"}],
    "params": {"coeff_density_freq": 2, "c_moisture": 1},
    "nodes": {"resonanceFreq": {"computation": "base_freq + coeff_density_freq * density"}},
}


def test_freq_spellings_are_three_nodes_under_exact_and_one_under_causalab() -> None:
    """freq, Frequency and resonanceFreq: one node to CausaLab, three under names='exact' (nothing trimmed)."""
    pred, true = [("freq", "x"), (" a", "b")], [("Frequency", "x"), ("a", "b")]
    assert M.edge_prf(pred, true).f1 == 1.0
    assert M.edge_prf(pred, true, names=EXACT).f1 == 0.0
    assert M.edge_prf(pred, true, names="causalab") == M.edge_prf(pred, true, names=CAUSALAB) == M.edge_prf(pred, true)
    assert M.shd(pred, true, names="exact").total == 4 and M.shd(pred, true).total == 0


def test_exact_names_need_an_explicit_target() -> None:
    """parent_prf / root_prf / roots_upstream_of / true_coefficients under EXACT refuse a missing target."""
    for fn in (M.parent_prf, M.root_prf):
        with pytest.raises(InputFormatError, match="pass target="):
            fn([("a", "b")], [("a", "b")], names="exact")
    with pytest.raises(InputFormatError, match="pass target="):
        M.roots_upstream_of([("a", "b")], names="exact")
    with pytest.raises(InputFormatError, match="pass target="):
        M.true_coefficients(CONFIG, names="exact")
    assert M.parent_prf([("a", "y")], [("a", "y"), ("b", "z")], "y", names="exact").f1 == 1.0
    assert M.root_prf([("a", "b"), ("b", "y")], [("a", "y")], target="y", names="exact").f1 == 1.0


def test_the_causalab_target_default_is_unchanged() -> None:
    """Without names= the target is resonanceFreq, reached through any alias, as before."""
    assert M.parent_prf([("density", "freq")], [("density", "resonanceFreq")]).f1 == 1.0
    assert M.roots_upstream_of([("a", "b"), ("b", "Frequency")]) == {"a"}


def test_coefficients_under_exact_names_match_keys_exactly() -> None:
    """CausaLab reads 'C_density' case-insensitively and trims ' moisture'; EXACT does neither."""
    assert M.true_coefficients(CONFIG) == {"density": 2.0, "moisture": 1.0}
    assert M.true_coefficients(CONFIG, "resonanceFreq", names="exact") == {"density": 2.0}
    assert M.coefficient_prf({"C_density": 2}, CONFIG).correct == 1
    assert M.coefficient_prf({"C_density": 2}, CONFIG, target="resonanceFreq", names="exact").correct == 0
    assert M.coefficient_prf({"c_density": 2}, CONFIG, target="resonanceFreq", names="exact").correct == 1


def test_formula_lookups_follow_the_policy() -> None:
    """A value named in another letter case is found under CausaLab, not under EXACT."""
    assert M.formula_error("f = 2*Density", {"density": 3.0}, 6.0).abs_error == 0.0
    assert M.formula_error("f = 2*Density", {"density": 3.0}, 6.0, names="exact").reason == "no value for ['Density']"


def test_an_unknown_policy_name_is_refused() -> None:
    """names='lower' is not a policy: the error lists the known ones."""
    with pytest.raises(InputFormatError, match="'causalab', 'exact'"):
        M.edge_prf([], [], names="lower")
