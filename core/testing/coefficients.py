"""``check_coefficient_metric``: the properties of a coefficient ("weight") precision / recall / F1.

Two signatures (``signature=``):

``"record"`` (default)
    ``fn(coefficients, config)`` scores a hypothesis' coefficients (``{"base": 25, "c_density": 2}``)
    against a CausaLab suite record (the true graph and params), as
    :func:`causalcheck.metrics.coefficient_prf` does.  The records are
    :func:`causalcheck.strategies.suite_records` (linear family) whose true coefficient of each
    parent ``p`` of the frequency, the param ``coeff_<p>_freq``, the suite redraws: negative,
    zero, fractional and large values as well as CausaLab's 1..3;
``"dicts"``
    ``fn(estimated, true)`` on plain ``{(cause, effect): weight}`` dicts (the edges of a drawn
    DAG, weights negative, zero or positive); an edge is recovered when it is in both dicts and
    ``|estimated − true| ≤ tolerance``.

The output is a number or has ``.f1`` (``.precision`` / ``.recall`` for those kinds; ``value=``
extracts anything else).  *kind* (``"f1"``, ``"precision"``, ``"recall"``) says what it is: the
reference and the properties follow it.

Properties: ``bounds`` (in [0, 1]); ``exact`` (the true values score 1); ``spellings`` (record
only: ``coeff_<p>_freq`` and ``<p>`` keys score 1 as well, and — under the CausaLab dialect —
keys in another letter case); ``base-ignored`` (record only: adding or changing ``base``
changes nothing); ``tolerance`` (an error within *tolerance* either way still counts, one
beyond it either way — 1.5 to 4 tolerances off, on truths of any sign and size — does not);
``sign`` (a non-zero coefficient with its sign flipped is wrong); ``missing`` (dropping a
coefficient lowers recall and F1 and leaves precision 1; none at all scores 0); ``extra``
(dicts only: an estimated edge that is not true lowers precision and F1 and leaves recall 1);
``order`` (key order is irrelevant); ``reference`` (equals
:func:`~causalcheck.metrics.coefficient_prf` — or the set rule above for dicts — of the same
kind, tolerance and names, or your callable).

>>> from causalcheck.metrics import coefficient_prf
>>> check_coefficient_metric(lambda c, cfg: coefficient_prf(c, cfg).f1, max_examples=10).properties[:2]
('bounds', 'exact')
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from causalcheck.base.errors import InputFormatError, require_extra
from causalcheck.graph import FREQ
from causalcheck.graphs.names import NamePolicy, get_policy
from causalcheck.metrics import coefficient_prf, set_prf
from causalcheck.testing import runner
from causalcheck.testing.runner import Property, PropertyFailure, SuiteReport

__all__ = ["check_coefficient_metric"]

SUITE = "check_coefficient_metric"
Kind = Literal["f1", "precision", "recall"]
Signature = Literal["record", "dicts"]
#: True coefficients the suite draws: CausaLab's 1..3, zero, negative, fractional and large values.
_SPECIAL = (1.0, 2.0, 3.0, 0.0, -1.0, -2.5, 0.5, -0.25, 40.0, -75.0)


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


def _redrawn(cfg: Mapping[str, Any], values: Sequence[float]) -> dict[str, Any]:
    """*cfg* with the true coefficient params of the frequency's parents set to *values* (in edge order, cycled)."""
    abbr = {"temperatureC": "temp"}
    params = dict(cfg["params"])
    parents = [e["from"] for e in cfg["edges"] if e["to"] == FREQ]
    for i, p in enumerate(parents):
        params[f"coeff_{abbr.get(p, p)}_freq"] = values[i % len(values)]
    return {**cfg, "params": params}


def _is_number(x: Any) -> bool:
    return not isinstance(x, bool) and isinstance(x, (int, float)) and math.isfinite(float(x))


def _dict_prf(est: Mapping[Any, Any], true: Mapping[Any, float], tolerance: float) -> Any:
    """The set rule on ``{edge: weight}`` dicts: an edge is recovered when in both within *tolerance* (set_prf's empty rules)."""
    pred = {k if k in true and _is_number(v) and abs(float(v) - true[k]) <= tolerance else ("\u27e8wrong\u27e9", k) for k, v in est.items()}
    return set_prf(pred, set(true))


@dataclass(frozen=True)
class _Setup:
    """The rule under test with its convention and signature; its methods are the properties.

    A *case* is ``(truth, estimate)``: under ``"record"`` a suite record and a coefficients dict, under
    ``"dicts"`` two ``{(cause, effect): weight}`` dicts.  ``values(truth)`` are the true weights by key
    and ``estimate_of`` turns weights by key into what *fn* takes as its estimate.
    """

    fn: Callable[..., Any]
    value: Callable[[Any], Any] | None
    policy: NamePolicy
    tolerance: float
    reference: bool | Callable[..., Any]
    convention: str
    subject: str
    kind: Kind = "f1"
    signature: Signature = "record"

    def values(self, truth: Mapping[Any, Any]) -> dict[Any, float]:
        return _truth(truth) if self.signature == "record" else dict(truth)

    def estimate_of(self, weights: Mapping[Any, Any]) -> dict[Any, Any]:
        return {f"c_{p}": v for p, v in weights.items()} if self.signature == "record" else dict(weights)

    def show(self, coeffs: Mapping[Any, Any], truth: Mapping[Any, Any]) -> str:
        if self.signature == "dicts":
            return f"  convention: {self.convention}\n  estimated: {dict(coeffs)!r}\n  true:      {dict(truth)!r}"
        return f"  convention: {self.convention}\n  coefficients: {dict(coeffs)!r}\n  true:     {_truth(truth)!r} (edges {[(e['from'], e['to']) for e in truth['edges']]})"

    def score(self, prop: str, coeffs: Mapping[Any, Any], truth: Mapping[Any, Any]) -> float:
        out = runner.call(SUITE, prop, self.subject, self.fn, (dict(coeffs), truth), self.show(coeffs, truth))
        x = self.value(out) if self.value is not None else getattr(out, self.kind, out)
        if not _is_number(x):
            raise PropertyFailure(SUITE, prop, f"{self.show(coeffs, truth)}\n  got:      {out!r}, not a finite number (pass value=)", self.subject)
        return float(x)

    def fail(self, prop: str, coeffs: Mapping[Any, Any], truth: Mapping[Any, Any], got: str, expected: str) -> PropertyFailure:
        return PropertyFailure(SUITE, prop, f"{self.show(coeffs, truth)}\n  got:      {got}\n  expected: {expected}", self.subject)

    def expect(self, prop: str, coeffs: Mapping[Any, Any], truth: Mapping[Any, Any], perfect: bool, why: str) -> None:
        x = self.score(prop, coeffs, truth)
        if perfect and x != 1.0:
            raise self.fail(prop, coeffs, truth, f"{x!r}", f"1.0: {why}")
        if not perfect and x >= 1.0:
            raise self.fail(prop, coeffs, truth, f"{x!r}", f"less than 1: {why}")

    # ------------------------------------------------------------------ the properties
    def bounds(self, case: tuple[Any, dict[Any, Any]]) -> None:
        truth, coeffs = case
        x = self.score("bounds", coeffs, truth)
        if not 0.0 <= x <= 1.0:
            raise self.fail("bounds", coeffs, truth, f"{x!r}", "a value in [0, 1]")

    def exact(self, truth: Any) -> None:
        self.expect("exact", self.estimate_of(self.values(truth)), truth, True, "every true coefficient, exactly")

    def spellings(self, case: tuple[dict[str, Any], list[int]]) -> None:
        cfg, picks = case
        coeffs: dict[str, float] = {}
        for (p, v), k in zip(_truth(cfg).items(), picks, strict=False):
            key = [f"coeff_{p}_freq", f"coeff_{p}_frequency", p, f"c_{p}".upper(), f"C_{p}"][k % (5 if self.policy.merges else 3)]
            coeffs[key] = v
        if len(coeffs) < len(_truth(cfg)):
            return
        self.expect("spellings", coeffs, cfg, True, "each key is an accepted spelling")

    def base_ignored(self, case: tuple[dict[str, Any], float]) -> None:
        cfg, b = case
        coeffs = self.estimate_of(self.values(cfg))
        with_base = {"base": b, **coeffs}
        a, c = self.score("base-ignored", coeffs, cfg), self.score("base-ignored", with_base, cfg)
        if a != c:
            raise self.fail("base-ignored", with_base, cfg, f"{c!r} with base, {a!r} without", "the same value: 'base' never counts")

    def within_tolerance(self, case: tuple[Any, int, float, bool, bool]) -> None:
        truth, k, frac, far, down = case
        weights = self.values(truth)
        key = list(weights)[k % len(weights)]
        tol = self.tolerance
        off = (1.5 + 2.5 * frac) * tol if far else 0.9 * frac * tol
        if far and tol == 0:
            off = 1e-3
        weights[key] = weights[key] - off if down else weights[key] + off
        coeffs = self.estimate_of(weights)
        if far and abs(weights[key] - self.values(truth)[key]) <= tol:
            return  # rounding at this magnitude brought it back within tolerance
        what = f"{key!r} is off by {'-' if down else '+'}{off:g}: it is {'beyond' if far else 'within'} tolerance={tol:g} of the true value"
        self.expect("tolerance", coeffs, truth, not far, what)

    def sign(self, case: tuple[Any, int]) -> None:
        truth, k = case
        weights = self.values(truth)
        nonzero = [key for key, v in weights.items() if abs(v) > self.tolerance]
        if not nonzero:
            return
        key = nonzero[k % len(nonzero)]
        weights[key] = -weights[key]
        self.expect("sign", self.estimate_of(weights), truth, False, f"{key!r} has the wrong sign")

    def missing(self, case: tuple[Any, int]) -> None:
        truth, k = case
        weights = self.values(truth)
        key = list(weights)[k % len(weights)]
        fewer = self.estimate_of({p: v for p, v in weights.items() if p != key})
        if self.kind == "precision":
            self.expect("missing", fewer, truth, bool(fewer), f"{key!r} is missing, and precision counts only what is estimated" if fewer else "nothing estimated, something true")
        else:
            self.expect("missing", fewer, truth, False, f"{key!r} is missing")
        y = self.score("missing", {}, truth)
        if y != 0.0:
            raise self.fail("missing", {}, truth, f"{y!r}", "0.0: nothing predicted, something true")

    def extra(self, case: tuple[Any, float]) -> None:
        truth, w = case
        coeffs = self.estimate_of(self.values(truth))
        if self.signature == "record":
            key: Any = "c_other"
        else:
            nodes = sorted({n for e in truth for n in e})
            free = [(a, b) for a in nodes for b in nodes if a != b and (a, b) not in truth]
            if not free:
                return
            key = free[0]
        coeffs[key] = w
        what = f"{key!r} is estimated but not true"
        self.expect("extra", coeffs, truth, self.kind == "recall", what + (", and recall counts only what is true" if self.kind == "recall" else ""))

    def order(self, case: tuple[Any, dict[Any, Any], Any]) -> None:
        truth, coeffs, rnd = case
        items = list(coeffs.items())
        rnd.shuffle(items)
        a, b = self.score("order", coeffs, truth), self.score("order", dict(items), truth)
        if a != b:
            raise self.fail("order", dict(items), truth, f"{b!r} reordered, {a!r} as given", "the same value")

    def agrees(self, case: tuple[Any, dict[Any, Any]]) -> None:
        truth, coeffs = case
        reference = self.reference
        a = self.score("reference", coeffs, truth)
        if callable(reference):
            raw = runner.call(SUITE, "reference", self.subject, reference, (dict(coeffs), truth), self.show(coeffs, truth) + "\n  (in the reference)")
            b: Any = self.value(raw) if self.value is not None else getattr(raw, self.kind, raw)
        elif self.signature == "dicts":
            b = getattr(_dict_prf(coeffs, truth, self.tolerance), self.kind)
        else:
            b = getattr(coefficient_prf(coeffs, truth, self.tolerance, FREQ, names=self.policy), self.kind)
        name = _reference_name(self)
        if not _is_number(b):
            shown = "undefined (None)" if b is None else f"{b!r}, not a finite number"
            raise self.fail("reference", coeffs, truth, f"fn = {a!r}, reference {name} = {shown}", f"a reference {name} defined on every example")
        if not math.isclose(a, float(b), rel_tol=1e-9, abs_tol=1e-12):
            raise self.fail("reference", coeffs, truth, f"fn = {a!r}, reference {name} = {b!r}", "equal values")


def _reference_name(setup: _Setup) -> str:
    if callable(setup.reference):
        return runner.describe(setup.reference)
    if setup.signature == "dicts":
        return f"the dict {setup.kind} (an edge in both within tolerance)"
    return f"causalcheck.metrics.coefficient_prf(...).{setup.kind}"


def _weights() -> Any:
    from hypothesis import strategies as st

    return st.one_of(st.sampled_from(_SPECIAL), st.floats(-100, 100, allow_nan=False, allow_infinity=False))


def _truths(signature: Signature) -> Any:
    """What the suite draws as the truth: redrawn suite records, or weighted DAG edges as a dict."""
    # late: pulls hypothesis
    from causalcheck import strategies as cs
    from hypothesis import strategies as st

    if signature == "record":
        return st.tuples(cs.suite_records(max_nodes=5), st.lists(_weights(), min_size=1, max_size=4)).map(lambda c: _redrawn(*c))

    def weighted(g: Any) -> Any:
        return st.lists(_weights(), min_size=len(g.edges), max_size=len(g.edges)).map(lambda ws: {(e.u, e.v): w for e, w in zip(g.edges, ws, strict=True)})

    return cs.dags(min_nodes=2, max_nodes=5, min_edges=1).flatmap(weighted)


def _properties(setup: _Setup) -> list[Property]:
    """The suite's properties on generated truths and estimates (``reference`` unless turned off)."""
    from hypothesis import strategies as st

    truths = _truths(setup.signature)
    tol = setup.tolerance

    def estimates(truth: Any) -> Any:
        true = setup.values(truth)
        if setup.signature == "record":
            keys: list[Any] = [*(f"c_{p}" for p in true), "base", "c_other", *(f"coeff_{p}_freq" for p in true)]
        else:
            nodes = sorted({n for e in true for n in e})
            keys = [*true, *((a, b) for a in nodes for b in nodes if a != b and (a, b) not in true)]
        near = [v + d for v in true.values() for d in (0.0, 0.5 * tol, -0.5 * tol, 2 * tol, -2 * tol)] + [-v for v in true.values()]
        vals = st.one_of(st.sampled_from(near), st.integers(0, 4).map(float), st.none(), st.floats(-10, 10, allow_nan=False))
        return st.tuples(st.just(truth), st.dictionaries(st.sampled_from(keys), vals, max_size=6))

    with_preds = truths.flatmap(estimates)
    index = st.integers(0, 5)
    props = [
        Property("bounds", with_preds, setup.bounds),
        Property("exact", truths, setup.exact),
    ]
    if setup.signature == "record":
        props += [
            Property("spellings", st.tuples(truths, st.lists(st.integers(0, 4), min_size=8, max_size=8)), setup.spellings),
            Property("base-ignored", st.tuples(truths, st.floats(-100, 100, allow_nan=False)), setup.base_ignored),
        ]
    props += [
        Property("tolerance", st.tuples(truths, index, st.floats(0, 1), st.booleans(), st.booleans()), setup.within_tolerance),
        Property("sign", st.tuples(truths, index), setup.sign),
        Property("missing", st.tuples(truths, index), setup.missing),
        Property("extra", st.tuples(truths, _weights()), setup.extra),
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
    kind: Kind = "f1",
    signature: Signature = "record",
    skip: Sequence[str] = (),
    profile: str | None = None,
    max_examples: int | None = None,
) -> SuiteReport:
    """Check *fn* against the properties above; see :func:`check_graph_metric` for the report.

    *signature* ``"record"``: ``fn(coefficients, config)`` (CausaLab keys and records);
    ``"dicts"``: ``fn(estimated, true)`` on ``{(cause, effect): weight}`` dicts.  *kind* is what
    *fn* computes (``"f1"``, ``"precision"`` or ``"recall"``): the reference and the
    ``missing`` / ``extra`` expectations follow it.  *tolerance* is absolute: an estimate is
    correct iff ``|estimated − true| ≤ tolerance``.  *reference*: True (causalcheck's rule of
    the kind), False (none) or a callable with *fn*'s signature.
    """
    require_extra("causalcheck.strategies", "hypothesis")  # what the suite draws with; before any check, as an import would
    if kind not in ("f1", "precision", "recall"):
        raise InputFormatError(f"kind={kind!r} must be 'f1', 'precision' or 'recall'")
    if signature not in ("record", "dicts"):
        raise InputFormatError(f"signature={signature!r} must be 'record' (fn(coefficients, config)) or 'dicts' (fn(estimated, true))")
    if not (_is_number(tolerance) and tolerance >= 0):
        raise InputFormatError(f"tolerance={tolerance!r} must be a finite number >= 0")
    pol = get_policy(names)
    what = {"f1": "F1", "precision": "precision", "recall": "recall"}[kind]
    if signature == "record":
        convention = (
            f"coefficient {what}: key c_<p>, coeff_<p>_freq, coeff_<p>_frequency or <p>{' (any letter case)' if pol.merges else ' (exact)'}; "
            f"correct within {tolerance:g} either way; 'base' never counts; no prediction scores 0; names {pol.name}"
        )
    else:
        convention = f"coefficient {what} on {{(cause, effect): weight}} dicts: an edge in both, within {tolerance:g} either way, is recovered; no estimate scores 0"
    setup = _Setup(fn, value, pol, tolerance, reference, convention, runner.describe(fn), kind, signature)
    convention += f"; reference {_reference_name(setup)}" if reference is not False else ""
    setup = _Setup(fn, value, pol, tolerance, reference, convention, runner.describe(fn), kind, signature)
    return runner.run_suite(SUITE, _properties(setup), subject=setup.subject, profile=profile, max_examples=max_examples, skip=skip)
