"""The permutation test's batched Fisher-z p-values (``CITester.prefetch``) change nothing observable.

Each case runs :func:`falsify` twice on the same data — once as it runs, once with the prefetch
switched off (every statement computed one by one, as before it existed) — and compares the
result, the tester's cache and ``tests_run`` exactly; the batched p-values are compared bit for
bit with :func:`fisherz_pvalue`, on data with collinear columns and too few rows too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from _graphs import random_dag, simulate
from causalcheck.graphchecks.citests import (
    CITester,
    _fisherz_from_inverse,
    fisherz_inverses,
    fisherz_pvalue,
)
from causalcheck.graphchecks.falsify import falsify
from causalcheck.graphs.data import load_data


def _case(seed: int) -> tuple[object, object, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 10))
    rows = int(rng.choice([8, 14, 60, 500]))
    truth = random_dag(n, float(rng.uniform(0.2, 0.7)), rng)
    data = simulate(truth, rows, rng)
    values = np.column_stack([data[v] for v in truth.nodes])
    if seed % 4 == 0:  # an exact linear dependence: singular submatrices
        values[:, 0] = 2.0 * values[:, 1]
    g = truth if seed % 2 else random_dag(n, 0.4, rng)
    return g, truth, values


def _table(seed: int) -> tuple[Any, Any]:
    """The graph of :func:`_case` and its data as a table."""
    g, _, values = _case(seed)
    return g, load_data({v: values[:, i] for i, v in enumerate(g.nodes)}, g.nodes)


@contextlib.contextmanager
def _tester(table: Any, prefetch: bool, monkeypatch: pytest.MonkeyPatch) -> Iterator[CITester]:
    """A Fisher-z tester of *table*; without *prefetch*, one whose ``prefetch`` does nothing."""
    with monkeypatch.context() as m:
        if not prefetch:
            m.setattr(CITester, "prefetch", lambda self, statements: None)
        yield CITester(table, "fisherz")


@pytest.mark.parametrize("seed", range(40))
def test_prefetch_leaves_the_permutation_test_unchanged(seed, monkeypatch):
    g, table = _table(seed)
    runs = []
    for prefetch in (True, False):
        with _tester(table, prefetch, monkeypatch) as tester:
            result = falsify(g, tester, permutations=int(1 + seed % 23), seed=seed, exact_counts=seed % 3 == 0)
            undecided = tester.undecidable_tested()
            runs.append((repr(result.to_dict()), repr(tester._cache), tester.tests_run, undecided))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("seed", range(20))
def test_batched_fisherz_pvalues_are_bitwise_the_single_ones(seed):
    rng = np.random.default_rng(seed)
    _, _, values = _case(seed)
    corr = np.corrcoef(values.T)
    p, rows = values.shape[1], values.shape[0]
    by_size: dict[int, list] = {}
    for _ in range(30):
        x, y = (int(v) for v in rng.choice(p, 2, replace=False))
        rest = [v for v in range(p) if v not in (x, y)]
        z = sorted(int(v) for v in rng.choice(rest, int(rng.integers(0, len(rest) + 1)), replace=False))
        x, y = min(x, y), max(x, y)  # CITester's key order, which both paths invert in
        by_size.setdefault(len(z) + 2, []).append(((x, y, frozenset(z)), [x, y, *z]))
    batched = {}
    for key, inv in fisherz_inverses(corr, by_size).items():
        with contextlib.suppress(ValueError, ArithmeticError):  # too few rows: the one-by-one path raises too
            batched[key] = _fisherz_from_inverse(inv, rows, len(key[2]))
    for group in by_size.values():
        for key, var in group:
            try:
                single = fisherz_pvalue(corr, rows, var[0], var[1], var[2:])
            except (ValueError, ArithmeticError):
                assert key not in batched  # the one-by-one path raises; the batch leaves it to that path
                continue
            if key in batched:  # absent only when its size's stack held a singular matrix
                assert repr(batched[key]) == repr(single)


@pytest.mark.parametrize("seed", range(0, 40, 3))
def test_prefetch_in_small_blocks_leaves_the_permutation_test_unchanged(seed, monkeypatch):
    """Blocks of 1 and 3 statements (doubling) — many blocks per permuted graph — give what the one-by-one path gives."""
    g, _, values = _case(seed)
    table = load_data({v: values[:, i] for i, v in enumerate(g.nodes)}, g.nodes)
    runs = []
    for block in (1, 3, None):
        with monkeypatch.context() as m:
            if block is None:
                m.setattr(CITester, "prefetch", lambda self, statements: None)
            else:
                m.setattr("causalcheck.graphchecks.falsify.PREFETCH_BLOCK", block)
            tester = CITester(table, "fisherz")
            result = falsify(g, tester, permutations=int(1 + seed % 23), seed=seed, exact_counts=seed % 2 == 0)
            runs.append((repr(result.to_dict()), repr(tester._cache), tester.tests_run, tester.undecidable_tested()))
    assert runs[0] == runs[2] and runs[1] == runs[2]


@pytest.mark.parametrize("seed", range(0, 40, 2))
def test_certificates_read_the_prefetched_inverses_bit_for_bit(seed, monkeypatch):
    """A certificate from a prefetched inverse equals the one computed without any prefetch (statistic, r, p)."""
    g, table = _table(seed)
    n = len(g.nodes)
    asked = [(x, y, [z for z in range(n) if z not in (x, y)][: seed % 3]) for x in range(n) for y in range(n) if x != y]
    runs = []
    for prefetch in (True, False):
        with _tester(table, prefetch, monkeypatch) as tester:
            tester.prefetch(asked)
            runs.append(repr([tester.certificate(x, y, z) for x, y, z in asked]))
            if prefetch and seed % 4:  # no collinear columns: every stack inverted, the certificates read them
                assert len(tester._inverses) == len(tester._cache)
    assert runs[0] == runs[1]
