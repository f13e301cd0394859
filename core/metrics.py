"""Mechanism-recovery metrics of the lab, with CausaLab's conventions written down.

Every function here is pure (no solver, no LLM, no file access).  Inputs are edges as
``(cause, effect)`` pairs; duplicate edges collapse.

**Name policy.**  Every function that reads node names takes one keyword,
``names`` (a :class:`~causalcheck.graphs.names.NamePolicy` or its name), default
:data:`~causalcheck.graphs.names.CAUSALAB`: each endpoint goes through
:func:`causalcheck.graph.normalize_node` (trimmed; every spelling of the frequency becomes
``resonanceFreq``; other names stay **case-sensitive**; causalab-spec §4.1), the target of
:func:`parent_prf` / :func:`root_prf` / :func:`true_coefficients` defaults to
``resonanceFreq``, and coefficient and value look-ups fall back to a case-insensitive match
(the anchor's rule).  ``names="exact"`` (:data:`~causalcheck.graphs.names.EXACT`) keeps
every name as written — ``freq``, ``Frequency`` and ``resonanceFreq`` are three nodes,
``" a"`` is not ``"a"`` — looks keys up exactly, and has no default target: pass
``target=`` (a missing target is an error, never a silent ``resonanceFreq``).

>>> edge_prf([("freq", "x")], [("Frequency", "x")]).f1, edge_prf([("freq", "x")], [("Frequency", "x")], names="exact").f1
(1.0, 0.0)
>>> parent_prf([("a", "y")], [("a", "y")], names="exact", target="y").f1
1.0

Conventions (causalab-spec §4.2–4.6, `causalab_reeval/metrics.py` of the published scorer):

* **Set precision / recall / F1** (:func:`set_prf`): precision = |P∩T|/|P|, recall = |P∩T|/|T|;
  when P = ∅ precision is 1 if T = ∅ else 0; when T = ∅ recall is 1 if P = ∅ else 0;
  F1 = 2PR/(P+R), 0 when P+R = 0.  Used for all edges (:func:`edge_prf`), for the edges
  into the frequency (:func:`parent_prf`) and for root nodes (:func:`root_prf`).
* **SHD** (:func:`shd`): missing + extra + reversed, where a predicted edge pointing against a
  true one counts once as *reversed* (not as one missing plus one extra).  With
  ``double_count_reversal=True`` a reversal costs 2, the convention of cdt's
  ``SHD(double_for_anticausal=True)``.
* **Coefficient F1** (:func:`coefficient_prf`): see the function for the name lookup rules;
  tolerance 1e-6 absolute by default (the anchor's value); ``base`` is never counted.
* **Formula error** (:func:`formula_error`): the frequency equation is evaluated on the
  reactor crystal's properties with the hypothesis' own coefficients and compared with the
  **true** target frequency; the published scorer compares with the agent's own submission
  (a bug, §4.6).

Bounds: every precision, recall and F1 lies in [0, 1]; SHD is a non-negative integer,
symmetric in its two arguments (missing and extra swap).

One module because CausaLab's metrics share one set of conventions — the name policy, the
empty-set rules, the case-insensitive look-ups — written down once in this docstring and checked
together by :mod:`causalcheck.testing`.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.equation import CompiledExpr, parse_equation
from causalcheck.graph import FREQ, normalize_node
from causalcheck.graphs.model import reachable
from causalcheck.graphs.names import CAUSALAB, EXACT, NamePolicy, get_policy

__all__ = [
    "MIN_BOOTSTRAP_N",
    "PRF",
    "SHD",
    "BootstrapCI",
    "FormulaResult",
    "bootstrap_ci",
    "check_bootstrap",
    "coefficient_prf",
    "edge_prf",
    "formula_error",
    "formula_errors",
    "frequency_hit",
    "normalize_pairs",
    "parent_prf",
    "percentile_bounds",
    "resample_indices",
    "root_prf",
    "roots_normalized",
    "roots_upstream_of",
    "set_prf",
    "shd",
    "shd_normalized",
    "task_accuracy",
    "true_coefficients",
]

Pair = tuple[str, str]
#: What the ``names`` keyword takes: a policy, or its name (``"causalab"``, ``"exact"``).
Names = NamePolicy | str


def _normalizer(names: Names) -> tuple[NamePolicy, Callable[[str], str]]:
    """The policy and its mapping; the CausaLab one is the memoised :func:`normalize_node` itself."""
    pol = CAUSALAB if names is CAUSALAB else get_policy(names)
    if pol is CAUSALAB:
        return pol, normalize_node
    if pol is EXACT:
        return pol, _same
    return pol, pol.normalize


def _same(name: str) -> str:
    return name


def _target(target: str | None, pol: NamePolicy, norm: Callable[[str], str]) -> str:
    """The target node under *pol*: the given one (normalised), else the dialect's; none is an error."""
    if target is None:
        if pol.target is None:
            raise InputFormatError(
                f"target=None: names={pol.name!r} has no default target node; pass target=<the outcome node>"
            )
        return pol.target
    return norm(target)


@dataclass(frozen=True)
class PRF:
    """Precision, recall and F1 with the counts they came from."""

    precision: float
    recall: float
    f1: float
    correct: int
    n_pred: int
    n_true: int

    def to_json(self) -> dict[str, Any]:
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "correct": self.correct,
            "n_pred": self.n_pred,
            "n_true": self.n_true,
        }


@dataclass(frozen=True)
class SHD:
    """Structural Hamming distance and its breakdown (``total`` follows the chosen convention)."""

    total: int
    missing: int
    extra: int
    reversed: int

    def to_json(self) -> dict[str, int]:
        return {"total": self.total, "missing": self.missing, "extra": self.extra, "reversed": self.reversed}


def _prf(correct: int, n_pred: int, n_true: int) -> PRF:
    precision = (1.0 if n_true == 0 else 0.0) if n_pred == 0 else correct / n_pred
    recall = (1.0 if n_pred == 0 else 0.0) if n_true == 0 else correct / n_true
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return PRF(precision, recall, f1, correct, n_pred, n_true)


def set_prf(pred: Iterable[Any], true: Iterable[Any]) -> PRF:
    """Precision / recall / F1 of the set *pred* against the set *true* (empty-set rules above).

    >>> set_prf({"a", "b"}, {"a"}).precision, set_prf(set(), set()).f1
    (0.5, 1.0)
    """
    p, t = set(pred), set(true)
    return _prf(len(p & t), len(p), len(t))


def _pair(item: Any, norm: Callable[[str], str] = normalize_node) -> Pair:
    if type(item) is tuple and len(item) == 2 and type(item[0]) is str and type(item[1]) is str:
        return (norm(item[0]), norm(item[1]))
    if type(item) is dict and "from" in item and "to" in item:
        a, b = item["from"], item["to"]
        if type(a) is str and type(b) is str:
            return (norm(a), norm(b))
    if isinstance(item, Mapping):
        if "from" not in item or "to" not in item:
            raise InputFormatError(f"edge {item!r} must have 'from' and 'to'")
        a, b = item["from"], item["to"]
    elif hasattr(item, "source") and hasattr(item, "target"):
        a, b = item.source, item.target
    else:
        try:
            a, b = item
        except (TypeError, ValueError):
            raise InputFormatError(f"edge {item!r} must be a (cause, effect) pair") from None
    if not isinstance(a, str) or not isinstance(b, str):
        raise InputFormatError(f"edge {item!r} must name its nodes with strings")
    return (norm(a), norm(b))


def normalize_pairs(pairs: Iterable[Any], *, names: Names = CAUSALAB) -> frozenset[Pair]:
    """Edges as a set of ``(cause, effect)`` pairs, names mapped by the *names* policy.

    Accepts pairs, :class:`~causalcheck.graph.Edge` objects or CausaLab ``{"from", "to"}`` dicts.

    >>> sorted(normalize_pairs([(" a", "freq")])), sorted(normalize_pairs([(" a", "freq")], names="exact"))
    ([('a', 'resonanceFreq')], [(' a', 'freq')])
    """
    _, norm = _normalizer(names)
    return frozenset(_pair(item, norm) for item in pairs)


def edge_prf(pred_pairs: Iterable[Any], true_pairs: Iterable[Any], *, names: Names = CAUSALAB) -> PRF:
    """All-edge directed precision / recall / F1 (a reversed edge is one FP and one FN)."""
    return set_prf(normalize_pairs(pred_pairs, names=names), normalize_pairs(true_pairs, names=names))


def parent_prf(
    pred_pairs: Iterable[Any], true_pairs: Iterable[Any], target: str | None = None, *, names: Names = CAUSALAB
) -> PRF:
    """P / R / F1 restricted to edges whose effect is *target*.

    *target* defaults to the policy's target (the frequency under CAUSALAB); under EXACT it
    must be given.
    """
    pol, norm = _normalizer(names)
    tgt = _target(target, pol, norm)
    pred = {p for p in normalize_pairs(pred_pairs, names=pol) if p[1] == tgt}
    true = {p for p in normalize_pairs(true_pairs, names=pol) if p[1] == tgt}
    return set_prf(pred, true)


def shd(
    pred_pairs: Iterable[Any],
    true_pairs: Iterable[Any],
    *,
    double_count_reversal: bool = False,
    names: Names = CAUSALAB,
) -> SHD:
    """Directed structural Hamming distance with its missing / extra / reversed breakdown.

    correct = P∩T; a true edge ``(a, b)`` not predicted whose reverse ``(b, a)`` is predicted
    (and not true) is *reversed*; the other unmatched true edges are *missing*, the other
    unmatched predicted edges *extra*.  ``total = missing + extra + reversed`` (or
    ``+ 2·reversed`` with *double_count_reversal*).

    >>> shd([("b", "a"), ("c", "a")], [("a", "b")])
    SHD(total=2, missing=0, extra=1, reversed=1)
    """
    return shd_normalized(
        normalize_pairs(pred_pairs, names=names),
        normalize_pairs(true_pairs, names=names),
        double_count_reversal=double_count_reversal,
    )


def shd_normalized(
    pred: frozenset[Pair], true: frozenset[Pair], *, double_count_reversal: bool = False
) -> SHD:
    """:func:`shd` of pair sets that are already normalised (:func:`normalize_pairs`): no copying.

    For callers that score many hypotheses against one truth (the lab scorer).

    >>> shd_normalized(frozenset({("b", "a")}), frozenset({("a", "b"), ("a", "c")}))
    SHD(total=2, missing=1, extra=0, reversed=1)
    """
    p, t = pred, true
    only_t, only_p = t - p, p - t
    rev = sum(1 for a, b in only_t if (b, a) in only_p)
    missing = len(only_t) - rev
    extra = len(only_p) - rev
    total = missing + extra + (2 * rev if double_count_reversal else rev)
    return SHD(total, missing, extra, rev)


def roots_upstream_of(pairs: Iterable[Any], target: str | None = None, *, names: Names = CAUSALAB) -> frozenset[str]:
    """Nodes without parents that have a directed path to *target* (CausaLab's "root nodes").

    *target* defaults to the policy's target (under EXACT it must be given).
    """
    pol, norm = _normalizer(names)
    return roots_normalized(normalize_pairs(pairs, names=pol), _target(target, pol, norm))


def roots_normalized(edges: Iterable[Pair], target: str = FREQ) -> frozenset[str]:
    """:func:`roots_upstream_of` for already normalised pairs and target: no copying.

    >>> sorted(roots_normalized({("a", "b"), ("b", "resonanceFreq"), ("c", "d")}))
    ['a']
    """
    tgt = target
    parents: dict[str, set[str]] = {}
    for a, b in edges:
        parents.setdefault(b, set()).add(a)
    seen = reachable(parents.get(tgt, ()), lambda n: parents.get(n, ()))
    return frozenset(v for v in seen if not parents.get(v) and v != tgt)


def root_prf(
    pred_pairs: Iterable[Any], true_pairs: Iterable[Any], target: str | None = None, *, names: Names = CAUSALAB
) -> PRF:
    """Root-node P / R / F1: parentless ancestors of *target* in each graph (spec §4.5).

    *target* defaults to the policy's target (under EXACT it must be given).
    """
    pol, norm = _normalizer(names)
    tgt = _target(target, pol, norm)
    return set_prf(roots_upstream_of(pred_pairs, tgt, names=pol), roots_upstream_of(true_pairs, tgt, names=pol))


# --------------------------------------------------------------------------- coefficients


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    f = float(value)
    return f if math.isfinite(f) else None


def _config_edges(config: Mapping[str, Any], names: NamePolicy) -> list[Pair]:
    edges = config.get("edges")
    if not isinstance(edges, list):
        raise InputFormatError(f"graph config edges={edges!r} must be a list of {{'from', 'to'}} objects")
    return sorted(normalize_pairs(edges, names=names))


def true_coefficients(
    config: Mapping[str, Any], target: str | None = None, *, names: Names = CAUSALAB
) -> dict[str, float]:
    """The true coefficient of every parent of *target* in a CausaLab graph config.

    Lookup (anchor rule): the first numeric param among ``coeff_<p>_freq``,
    ``coeff_<p>_frequency``, ``c_<p>``, ``<p>``; otherwise the param ``<name>`` written as
    ``<name> * <p>`` or ``<p> * <name>`` in the target's ``computation`` (this finds
    ``coeff_temp_freq`` for ``temperatureC`` and, in quadratic suites, the linear-term
    ``coeff1_*`` only).  Parents with no findable coefficient are left out.  *target*
    defaults to the policy's target (the frequency under CAUSALAB; under EXACT it must be
    given).
    """
    pol, norm = _normalizer(names)
    params = config.get("params") or {}
    if not isinstance(params, Mapping):
        raise InputFormatError(f"graph config params={params!r} must be an object")
    nodes = config.get("nodes") or {}
    tgt = _target(target, pol, norm)
    computation = ""
    if isinstance(nodes, Mapping):
        for key, spec in nodes.items():
            if norm(str(key)) == tgt and isinstance(spec, Mapping):
                computation = str(spec.get("computation") or "")
    out: dict[str, float] = {}
    for a, b in _config_edges(config, pol):
        if b != tgt:
            continue
        found: float | None = None
        for name in (f"coeff_{a}_freq", f"coeff_{a}_frequency", f"c_{a}", a):
            found = _number(params.get(name))
            if found is not None:
                break
        if found is None and computation:
            esc = re.escape(a)
            for pattern in (rf"([A-Za-z_]\w*)\s*\*\s*{esc}(?![\w])", rf"(?<![\w]){esc}\s*\*\s*([A-Za-z_]\w*)"):
                for m in re.finditer(pattern, computation):
                    found = _number(params.get(m.group(1)))
                    if found is not None:
                        break
                if found is not None:
                    break
        if found is not None:
            out[a] = found
    return out


def coefficient_prf(
    pred_coeffs: Mapping[str, Any] | None,
    true_config: Mapping[str, Any],
    tolerance: float = 1e-6,
    target: str | None = None,
    *,
    truth: Mapping[str, float] | None = None,
    names: Names = CAUSALAB,
) -> PRF:
    """Coefficient ("weight") P / R / F1 of a hypothesis' ``coefficients`` (spec §4.4).

    For each true parent ``p`` the predicted value is the first key among ``c_<p>``,
    ``coeff_<p>_freq``, ``coeff_<p>_frequency``, ``<p>`` (exact name first, then
    case-insensitive — a spelling merge, so only under a policy that merges, as CAUSALAB
    does) holding a number; it is correct iff ``|pred − true| ≤ tolerance``.
    ``n_pred = max(#matched keys, #keys starting with "c_" or "coeff_")``, ``n_true`` = number
    of true coefficients; ``base`` never counts.  Empty-set rules as in :func:`set_prf`.
    *truth* may pass :func:`true_coefficients` of *true_config* precomputed (a batch speed-up).
    Under ``names="exact"`` keys match exactly (no case-insensitive fallback) and *target*
    must be given.
    """
    if tolerance < 0 or not math.isfinite(tolerance):
        raise InputFormatError(f"tolerance={tolerance!r} must be a finite number >= 0")
    pol, _ = _normalizer(names)
    coeffs: Mapping[str, Any] = pred_coeffs or {}
    if truth is None:
        truth = true_coefficients(true_config, target, names=pol)
    lower: dict[str, str] = {}
    if pol.merges:
        for name_k in coeffs:
            lower.setdefault(str(name_k).lower(), name_k)
    matched: set[str] = set()
    correct = 0
    for parent, value in truth.items():
        for name in (f"c_{parent}", f"coeff_{parent}_freq", f"coeff_{parent}_frequency", parent):
            key: str | None = name if name in coeffs else lower.get(name.lower())
            if key is None:
                continue
            guess = _number(coeffs[key])
            if guess is None:
                continue
            matched.add(key)
            if abs(guess - value) <= tolerance:
                correct += 1
            break
    named = sum(1 for k in coeffs if str(k).startswith(("c_", "coeff_")))
    return _prf(correct, max(len(matched), named), len(truth))


# --------------------------------------------------------------------------- task + formula


def frequency_hit(value: float | None, target: float, tolerance: float = 5.0) -> bool:
    """True when ``|value − target| ≤ tolerance`` (the scorer's formula check; ``None`` misses)."""
    return value is not None and math.isfinite(value) and abs(value - target) <= tolerance


def task_accuracy(outcomes: Iterable[bool | int | None]) -> float | None:
    """Share of successful episodes (``None`` entries are skipped; ``None`` when none remain)."""
    vals = [1.0 if bool(o) else 0.0 for o in outcomes if o is not None]
    return sum(vals) / len(vals) if vals else None


@dataclass(frozen=True)
class FormulaResult:
    """The frequency an equation predicts for the reactor crystal and its error.

    ``predicted`` / ``abs_error`` / ``hit`` are ``None`` when the equation could not be
    evaluated; ``reason`` then says why.
    """

    predicted: float | None
    target: float
    abs_error: float | None
    hit: bool | None
    names: tuple[str, ...] = ()
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The fields in order (``names`` as a list)."""
        return {**asdict(self), "names": list(self.names)}


@functools.lru_cache(maxsize=1024)
def _prepare(equation: str) -> CompiledExpr | str:
    """The compiled right-hand side (names as written), or why it cannot be used (memoised)."""
    text = equation.split("=", 1)[1] if "=" in equation else equation
    if not text.strip():
        return "empty equation"
    try:
        compiled = parse_equation(text, raw_names=True).compiled
    except CausalCheckError:
        return f"equation {equation!r} does not parse"
    assert compiled is not None
    return compiled


def formula_error(
    equation: str,
    values: Mapping[str, float],
    target: float,
    coefficients: Mapping[str, Any] | None = None,
    tolerance: float = 5.0,
    *,
    names: Names = CAUSALAB,
) -> FormulaResult:
    """Evaluate a frequency equation on the reactor crystal and compare with the TRUE target.

    The right-hand side (text after the first ``=``) is read with the equation grammar
    (:mod:`causalcheck.equation`): numbers, ``+ - * /``, ``**`` or ``^`` (power, as in the
    SCM files; the published scorer rejects ``^``), parentheses and names; it is evaluated
    with float arithmetic in Python's order (:func:`~causalcheck.equation.compile_expr`).
    A name takes its value from *coefficients* (numeric entries of the hypothesis), else
    from *values* (the reactor crystal's properties); exact name first, then
    case-insensitive (only the exact name under ``names="exact"``).  ``hit`` is
    ``|predicted − target| ≤ tolerance``.
    """
    return formula_errors(equation, [(values, target)], coefficients, tolerance, names=names)[0]


def _lookup(name: str, src: Mapping[str, Any], fold_case: bool = True) -> float | None:
    """*name*'s numeric value in *src*: exact key first, then (with *fold_case*) case-insensitive."""
    value = _number(src.get(name))
    if value is None and fold_case:
        low = name.lower()
        for key, raw in src.items():
            if str(key).lower() == low and _number(raw) is not None:
                return _number(raw)
    return value


def formula_errors(
    equation: str,
    rows: Sequence[tuple[Mapping[str, float], float]],
    coefficients: Mapping[str, Any] | None = None,
    tolerance: float = 5.0,
    *,
    names: Names = CAUSALAB,
) -> list[FormulaResult]:
    """:func:`formula_error` for several ``(values, target)`` rows with one equation and one
    set of coefficients (the names found in *coefficients* are looked up once)."""
    fold = _normalizer(names)[0].merges
    compiled = _prepare(equation)
    if isinstance(compiled, str):
        return [FormulaResult(None, target, None, None, (), compiled) for _, target in rows]
    used = tuple(sorted(s.name for s in compiled.symbols))
    coeffs = coefficients or {}
    fixed = {s.name: _lookup(s.name, coeffs, fold) for s in compiled.symbols}
    return [_evaluate(equation, compiled, used, fixed, values, target, tolerance, fold) for values, target in rows]


def _evaluate(
    equation: str,
    compiled: CompiledExpr,
    names: tuple[str, ...],
    fixed: Mapping[str, float | None],
    values: Mapping[str, float],
    target: float,
    tolerance: float,
    fold_case: bool = True,
) -> FormulaResult:
    args: list[float] = []
    missing: list[str] = []
    for s in compiled.symbols:
        found = fixed[s.name]
        if found is None:
            found = _lookup(s.name, values, fold_case)
        if found is None:
            missing.append(s.name)
        else:
            args.append(found)
    if missing:
        return FormulaResult(None, target, None, None, names, f"no value for {sorted(missing)!r}")
    try:
        value = compiled.function(*args)
    except (ZeroDivisionError, OverflowError) as exc:
        return FormulaResult(None, target, None, None, names, f"cannot evaluate {equation!r}: {exc}")
    if not isinstance(value, float):
        return FormulaResult(None, target, None, None, names, f"equation {equation!r} is not real here")
    predicted = value
    if not math.isfinite(predicted):
        return FormulaResult(None, target, None, None, names, f"equation {equation!r} is not finite here")
    err = abs(predicted - target)
    return FormulaResult(predicted, target, err, err <= tolerance, names, None)


# --------------------------------------------------------------------------- aggregation


MIN_BOOTSTRAP_N = 5
"""The fewest values a bootstrap interval is given for.  Resampling *n* values gives at most
C(2n-1, n) distinct means — 3 for n = 2, 35 for n = 4, 126 for n = 5 — so below this the
"95% interval" is a handful of points (for n = 2: the two values and their mean), not an
interval; the mean is given alone and the outputs say why."""


@dataclass(frozen=True)
class BootstrapCI:
    """Mean of the values and a percentile bootstrap interval (``None`` bounds when n < :data:`MIN_BOOTSTRAP_N`)."""

    mean: float | None
    low: float | None
    high: float | None
    n: int

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def bootstrap_ci(
    values: Sequence[float | None], *, resamples: int = 1000, seed: int = 0, level: float = 0.95
) -> BootstrapCI:
    """Percentile bootstrap CI of the mean with a seeded ``numpy.random.Generator``.

    ``None`` values are skipped.  Same values + seed → identical interval.  With
    ``resamples == 0`` or fewer than :data:`MIN_BOOTSTRAP_N` values only the mean is given.
    """
    check_bootstrap(resamples, level)
    xs = [float(v) for v in values if v is not None]
    if not xs:
        return BootstrapCI(None, None, None, 0)
    mean = sum(xs) / len(xs)
    if resamples == 0 or len(xs) < MIN_BOOTSTRAP_N:
        return BootstrapCI(mean, None, None, len(xs))
    import numpy as np

    means = np.asarray(xs, dtype=float)[resample_indices(len(xs), resamples, seed)].mean(axis=1)
    low, high = percentile_bounds(means, level)
    return BootstrapCI(mean, low, high, len(xs))


def check_bootstrap(resamples: object, level: float) -> None:
    """Refuse a *resamples* that is not a non-negative integer or a *level* outside (0, 1)."""
    if not isinstance(resamples, int) or isinstance(resamples, bool) or resamples < 0:
        raise InputFormatError(f"resamples={resamples!r} must be a non-negative integer")
    if not 0 < level < 1:
        raise InputFormatError(f"level={level!r} must be between 0 and 1")


@functools.lru_cache(maxsize=4)
def resample_indices(n: int, resamples: int, seed: int) -> Any:
    """The ``(resamples, n)`` indices every bootstrap here draws: ``default_rng(seed).integers(0, n, ...)``
    (read-only; the last few kept, since many intervals of one scoring share their length)."""
    import numpy as np

    idx = np.random.default_rng(seed).integers(0, n, size=(resamples, n))
    idx.flags.writeable = False
    return idx


def percentile_bounds(samples: Any, level: float) -> tuple[float, float]:
    """The ``(1 − level) / 2`` and ``(1 + level) / 2`` quantiles of the bootstrap *samples*."""
    import numpy as np

    alpha = (1 - level) / 2
    low, high = np.quantile(np.asarray(samples, dtype=float), [alpha, 1 - alpha])
    return float(low), float(high)
