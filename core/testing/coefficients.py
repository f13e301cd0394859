"""``check_coefficient_metric``: the properties of a coefficient ("weight") precision / recall / F1.

``fn(coefficients, config)`` scores a hypothesis' coefficients (``{"base": 25, "c_density": 2}``)
against a CausaLab suite record (the true graph and params), as
:func:`causalcheck.metrics.coefficient_prf` does; its output is a number or has ``.f1``.
The records are :func:`causalcheck.strategies.suite_records` (linear family), whose true
coefficient of each parent ``p`` of the frequency is the param ``coeff_<p>_freq``.

Properties: ``bounds`` (in [0, 1]); ``exact`` (the true values under ``c_<p>`` score 1);
``spellings`` (``coeff_<p>_freq`` and ``<p>`` keys score 1 as well, and — under the CausaLab
dialect — keys in another letter case); ``base-ignored`` (adding or changing ``base``
changes nothing); ``tolerance`` (errors within *tolerance* still count, an error well
beyond it does not); ``missing`` (dropping a coefficient lowers the score; none at all
scores 0); ``order`` (key order is irrelevant); ``reference`` (equals
:func:`~causalcheck.metrics.coefficient_prf` under the same tolerance and names).

>>> from causalcheck.metrics import coefficient_prf
>>> check_coefficient_metric(lambda c, cfg: coefficient_prf(c, cfg).f1, max_examples=10).properties[:2]
('bounds', 'exact')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from causalcheck.graph import FREQ
from causalcheck.graphs.names import NamePolicy, get_policy
from causalcheck.metrics import coefficient_prf
from causalcheck.testing import runner
from causalcheck.testing.extra import require_hypothesis
from causalcheck.testing.runner import Property, PropertyFailure, SuiteReport

__all__ = ["check_coefficient_metric"]

SUITE = "check_coefficient_metric"


def _truth(config: Mapping[str, Any]) -> dict[str, float]:
    """The generated record's true coefficients: ``coeff_<abbr>_freq`` for every parent of the frequency."""
    abbr = {"temperatureC": "temp"}
    out = {}
    for e in config["edges"]:
        if e["to"] == FREQ:
            p = e["from"]
            out[p] = float(config["params"][f"coeff_{abbr.get(p, p)}_freq"])
    return out


def _exact_of(cfg: Mapping[str, Any]) -> dict[str, float]:
    return {f"c_{p}": v for p, v in _truth(cfg).items()}


@dataclass(frozen=True)
class _Setup:
    """The rule under test with its convention; its methods are the properties."""

    fn: Callable[..., Any]
    value: Callable[[Any], Any] | None
    policy: NamePolicy
    tolerance: float
    reference: bool | Callable[..., Any]
    convention: str
    subject: str

    def show(self, coeffs: Mapping[str, Any], cfg: Mapping[str, Any]) -> str:
        return f"  convention: {self.convention}\n  coefficients: {dict(coeffs)!r}\n  true:     {_truth(cfg)!r} (edges {[(e['from'], e['to']) for e in cfg['edges']]})"

    def score(self, prop: str, coeffs: Mapping[str, Any], cfg: Mapping[str, Any]) -> float:
        out = runner.call(SUITE, prop, self.subject, self.fn, (dict(coeffs), cfg), self.show(coeffs, cfg))
        x = self.value(out) if self.value is not None else getattr(out, "f1", out)
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(float(x)):
            raise PropertyFailure(SUITE, prop, f"{self.show(coeffs, cfg)}\n  got:      {out!r}, not a finite number (pass value=)", self.subject)
        return float(x)

    def fail(self, prop: str, coeffs: Mapping[str, Any], cfg: Mapping[str, Any], got: str, expected: str) -> PropertyFailure:
        return PropertyFailure(SUITE, prop, f"{self.show(coeffs, cfg)}\n  got:      {got}\n  expected: {expected}", self.subject)

    # ------------------------------------------------------------------ the properties
    def bounds(self, case: tuple[dict[str, Any], dict[str, Any]]) -> None:
        cfg, coeffs = case
        x = self.score("bounds", coeffs, cfg)
        if not 0.0 <= x <= 1.0:
            raise self.fail("bounds", coeffs, cfg, f"{x!r}", "a value in [0, 1]")

    def exact(self, cfg: dict[str, Any]) -> None:
        coeffs = _exact_of(cfg)
        x = self.score("exact", coeffs, cfg)
        if x != 1.0:
            raise self.fail("exact", coeffs, cfg, f"{x!r}", "1.0 (every true coefficient, exactly)")

    def spellings(self, case: tuple[dict[str, Any], list[int]]) -> None:
        cfg, picks = case
        coeffs: dict[str, float] = {}
        for (p, v), k in zip(_truth(cfg).items(), picks, strict=False):
            key = [f"coeff_{p}_freq", f"coeff_{p}_frequency", p, f"c_{p}".upper(), f"C_{p}"][k % (5 if self.policy.merges else 3)]
            coeffs[key] = v
        if len(coeffs) < len(_truth(cfg)):
            return
        x = self.score("spellings", coeffs, cfg)
        if x != 1.0:
            raise self.fail("spellings", coeffs, cfg, f"{x!r}", "1.0 (each key is an accepted spelling)")

    def base_ignored(self, case: tuple[dict[str, Any], float]) -> None:
        cfg, b = case
        coeffs = _exact_of(cfg)
        with_base = {"base": b, **coeffs}
        a, c = self.score("base-ignored", coeffs, cfg), self.score("base-ignored", with_base, cfg)
        if a != c:
            raise self.fail("base-ignored", with_base, cfg, f"{c!r} with base, {a!r} without", "the same value: 'base' never counts")

    def within_tolerance(self, case: tuple[dict[str, Any], float, bool]) -> None:
        cfg, frac, far = case
        tolerance = self.tolerance
        coeffs = _exact_of(cfg)
        first = next(iter(coeffs))
        coeffs[first] += (10 * tolerance + 0.5) if far else frac * tolerance
        x = self.score("tolerance", coeffs, cfg)
        if far and x == 1.0:
            raise self.fail("tolerance", coeffs, cfg, f"{x!r}", f"less than 1: {first} is off by more than tolerance={tolerance:g}")
        if not far and x != 1.0:
            raise self.fail("tolerance", coeffs, cfg, f"{x!r}", f"1.0: {first} is within tolerance={tolerance:g}")

    def missing(self, cfg: dict[str, Any]) -> None:
        coeffs = _exact_of(cfg)
        first = next(iter(coeffs))
        fewer = {k: v for k, v in coeffs.items() if k != first}
        x = self.score("missing", fewer, cfg)
        if x >= 1.0:
            raise self.fail("missing", fewer, cfg, f"{x!r}", f"less than 1: {first} is missing")
        y = self.score("missing", {}, cfg)
        if y != 0.0:
            raise self.fail("missing", {}, cfg, f"{y!r}", "0.0: nothing predicted, something true")

    def order(self, case: tuple[dict[str, Any], dict[str, Any], Any]) -> None:
        cfg, coeffs, rnd = case
        items = list(coeffs.items())
        rnd.shuffle(items)
        a, b = self.score("order", coeffs, cfg), self.score("order", dict(items), cfg)
        if a != b:
            raise self.fail("order", dict(items), cfg, f"{b!r} reordered, {a!r} as given", "the same value")

    def agrees(self, case: tuple[dict[str, Any], dict[str, Any]]) -> None:
        cfg, coeffs = case
        reference = self.reference
        a = self.score("reference", coeffs, cfg)
        b = float(reference(dict(coeffs), cfg)) if callable(reference) else coefficient_prf(coeffs, cfg, self.tolerance, FREQ, names=self.policy).f1
        if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12):
            raise self.fail("reference", coeffs, cfg, f"fn = {a!r}, reference = {b!r}", "equal values")


def _properties(setup: _Setup) -> list[Property]:
    """The suite's properties on generated suite records and predictions (``reference`` unless turned off)."""
    # late: pulls hypothesis
    from causalcheck import strategies as cs
    from hypothesis import strategies as st

    records = cs.suite_records(max_nodes=5)

    def predictions(cfg: dict[str, Any]) -> Any:
        keys = [*_exact_of(cfg), "base", "c_other", *(f"coeff_{p}_freq" for p in _truth(cfg))]
        vals = st.one_of(st.integers(0, 4).map(float), st.none(), st.floats(-10, 10, allow_nan=False))
        return st.tuples(st.just(cfg), st.dictionaries(st.sampled_from(keys), vals, max_size=6))

    with_preds = records.flatmap(predictions)
    props = [
        Property("bounds", with_preds, setup.bounds),
        Property("exact", records, setup.exact),
        Property("spellings", st.tuples(records, st.lists(st.integers(0, 4), min_size=8, max_size=8)), setup.spellings),
        Property("base-ignored", st.tuples(records, st.floats(-100, 100, allow_nan=False)), setup.base_ignored),
        Property("tolerance", st.tuples(records, st.floats(0, 0.5), st.booleans()), setup.within_tolerance),
        Property("missing", records, setup.missing),
        Property("order", with_preds.flatmap(lambda c: st.tuples(st.just(c[0]), st.just(c[1]), st.randoms(use_true_random=False))), setup.order),
    ]
    if setup.reference is not False:
        props.append(Property("reference", with_preds, setup.agrees))
    return props


def check_coefficient_metric(
    fn: Callable[..., Any],
    *,
    tolerance: float = 1e-6,
    names: NamePolicy | str = "causalab",
    value: Callable[[Any], Any] | None = None,
    reference: bool | Callable[..., Any] = True,
    skip: Sequence[str] = (),
    profile: str | None = None,
    max_examples: int | None = None,
) -> SuiteReport:
    """Check *fn* (``fn(coefficients, config)``) against the properties above; see :func:`check_graph_metric` for the report."""
    require_hypothesis("causalcheck.strategies")  # what the suite draws with; before any check, as an import would
    pol = get_policy(names)
    convention = (
        f"coefficient F1: key c_<p>, coeff_<p>_freq, coeff_<p>_frequency or <p>{' (any letter case)' if pol.merges else ' (exact)'}; "
        f"correct within {tolerance:g}; 'base' never counts; no prediction scores 0; names {pol.name}"
    )
    setup = _Setup(fn, value, pol, tolerance, reference, convention, runner.describe(fn))
    return runner.run_suite(SUITE, _properties(setup), subject=setup.subject, profile=profile, max_examples=max_examples, skip=skip)
