"""Falsify a DAG against data with node permutations, as DoWhy's ``falsify_graph`` defines it.

Eulig, Mastakouri, Blöbaum, Hardt & Janzing (2023), "Toward falsifying causal graphs using a
permutation-based test" (``dowhy.gcm.falsify.falsify_graph``).  The test statistic is the
number of violated local Markov conditions: for every parental triple ``(X, Y, Pa(X))`` of
the DAG (:func:`~causalcheck.graphchecks.separation.local_markov_triples`) the CI test of
``X ⫫ Y | Pa(X)`` is run and counts as a violation when ``p <= significance_ci``.  The
null distribution comes from random *node permutations* of the graph — the same structure
with the variables relabelled (the identity may be drawn, as in DoWhy):

* ``p_lmc`` — the share of permuted graphs whose violation fraction is **at most** the
  given graph's (permuted graphs have the same number of triples, so: at most as many
  violations).  A good graph is better than almost every permutation, so ``p_lmc`` is small.
* ``p_tpa`` — the share of permuted graphs *as informative as the given one*: every
  parental triple of the permuted graph is a d-separation of the given graph (DoWhy's
  ``validate_tpa``; no data involved — these permutations imply the given graph's
  independencies, e.g. they lie in its Markov equivalence class).

The verdict, with ``α = significance_level``: **falsified** when ``p_lmc > α > p_tpa``;
otherwise **not falsifiable** when ``p_tpa > α`` (too many permutations are as informative:
the data cannot tell the graph from random relabellings); otherwise **not falsified**.
**Not evaluable** when the graph implies no independence (no triple).  DoWhy's defaults are
kept: ``α = significance_ci = 0.05``, ``⌊1/α⌋ = 20`` permutations.

What is faster here than in DoWhy (same definitions, same verdicts): the CI tests are
cached by *(unordered pair, conditioning set)* across the given graph and all permutations;
a permuted graph's tests stop as soon as it is decided whether it has at most as many
violations as the given graph (already-cached statements first), so ``p_lmc`` stays exact
while its violation count becomes a bound (``exact_counts=True`` runs every test); the
d-separations of ``p_tpa`` are one breadth-first search per *(node, parent set)*, cached; the
Fisher-z submatrices of the statements a permuted graph asks are inverted ahead in one stack per
size, in blocks of :data:`PREFETCH_BLOCK` statements that double while its tests go on
(:meth:`~causalcheck.graphchecks.citests.CITester.prefetch`: the same figures, and a statement enters
the cache and ``tests_run`` only when it is asked).
The permutations come from a seeded ``numpy.random.Generator`` (or all ``n!`` of them with
``permutations="all"``, at most :data:`MAX_ALL_NODES` nodes).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from causalcheck.base.errors import InputFormatError
from causalcheck.base.gcpace import fewer_collections
from causalcheck.graphchecks.citests import CITester, Key
from causalcheck.graphchecks.separation import Separator, local_markov_triples
from causalcheck.graphs.model import Graph

__all__ = ["MAX_ALL_NODES", "PREFETCH_BLOCK", "Falsification", "Verdict", "falsify", "permutation_verdict"]

Verdict = Literal["falsified", "not falsified", "not falsifiable", "not evaluable"]

#: ``permutations="all"`` enumerates ``n!`` relabellings; refused above this many nodes.
MAX_ALL_NODES = 8
#: A permuted graph's Fisher-z statements are computed ahead in blocks of this many, doubling: most
#: permutations are decided after a few hundred of their thousands of statements.
PREFETCH_BLOCK = 128


@dataclass(frozen=True)
class Falsification:
    """The verdict and the figures behind it (see the module docstring).

    ``permuted_violations[k]`` is exact when ``exact_counts`` is True; otherwise it is the
    count when the permutation was decided (``permuted_at_most_given[k]`` is always exact).
    """

    verdict: Verdict
    significance_level: float
    significance_ci: float
    permutations: int
    seed: int | None
    test: str
    given_violations: int
    given_tests: int
    p_lmc: float
    p_tpa: float
    permuted_in_class: int
    permuted_violations: tuple[int, ...]
    permuted_at_most_given: tuple[bool, ...]
    exact_counts: bool
    tests_run: int
    statements: int

    @property
    def falsified(self) -> bool:
        """True for the verdict ``"falsified"``."""
        return self.verdict == "falsified"

    def summary(self) -> str:
        """One sentence with the figures, in the manner of DoWhy's report."""
        if self.verdict == "not evaluable":
            return "the graph implies no independence: the permutation test cannot be evaluated"
        return (
            f"{self.verdict}: the graph violates {self.given_violations}/{self.given_tests} local Markov conditions "
            f"(CI level {self.significance_ci}); {self.p_lmc:.0%} of {self.permutations} permuted graphs violate at most as many "
            f"(p_lmc={self.p_lmc:.3f}); {self.permuted_in_class}/{self.permutations} permutations are as informative "
            f"(p_tpa={self.p_tpa:.3f}); significance level {self.significance_level}"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict (the sentence under ``"summary"``)."""
        return {
            "verdict": self.verdict,
            "significance_level": self.significance_level,
            "significance_ci": self.significance_ci,
            "permutations": self.permutations,
            "seed": self.seed,
            "test": self.test,
            "given_violations": self.given_violations,
            "given_tests": self.given_tests,
            "p_lmc": self.p_lmc,
            "p_tpa": self.p_tpa,
            "permuted_in_class": self.permuted_in_class,
            "permuted_violations": list(self.permuted_violations),
            "permuted_at_most_given": list(self.permuted_at_most_given),
            "exact_counts": self.exact_counts,
            "tests_run": self.tests_run,
            "statements": self.statements,
            "summary": self.summary(),
        }


def permutation_verdict(p_lmc: float, p_tpa: float, significance_level: float, given_tests: int) -> Verdict:
    """DoWhy's ``EvaluationResult`` rule.

    >>> permutation_verdict(0.4, 0.0, 0.05, 10), permutation_verdict(0.0, 0.0, 0.05, 10)
    ('falsified', 'not falsified')
    >>> permutation_verdict(0.0, 0.3, 0.05, 10), permutation_verdict(0.0, 0.0, 0.05, 0)
    ('not falsifiable', 'not evaluable')
    """
    if given_tests == 0:
        return "not evaluable"
    if p_lmc > significance_level > p_tpa:
        return "falsified"
    if significance_level < p_tpa:
        return "not falsifiable"
    return "not falsified"


def _structure(dag: Graph) -> tuple[list[tuple[int, ...]], list[tuple[int, int]]]:
    """Parents of every node and the parental triples ``(node, other)`` over indices."""
    pos = dag.index
    parents = [tuple(sorted(pos[p] for p in dag.parents(v))) for v in dag.nodes]
    triples = [(pos[x], pos[y]) for x, y, _ in local_markov_triples(dag)]
    return parents, triples


def _orders(n: int, permutations: int | str, seed: int | None) -> list[tuple[int, ...]]:
    import numpy as np

    if permutations == "all":
        if n > MAX_ALL_NODES:
            raise InputFormatError(f"permutations='all' enumerates {n}! relabellings; allowed up to {MAX_ALL_NODES} nodes")
        return list(itertools.permutations(range(n)))
    if not isinstance(permutations, int) or isinstance(permutations, bool) or permutations < 1:
        raise InputFormatError(f"permutations={permutations!r} must be a positive integer or 'all'")
    rng = np.random.default_rng(seed)
    return [tuple(int(v) for v in rng.permutation(n)) for _ in range(permutations)]


def _violations(
    tester: CITester, mapped: list[tuple[int, int, tuple[int, ...]]], keys: list[Key], given: int, level: float, exact_counts: bool
) -> int:
    """The violated local Markov conditions *mapped* of a permuted graph (their cache *keys* beside them),
    cached tests first; unless *exact_counts*, the count when it is decided whether it is at most *given*."""
    total = len(mapped)
    v = fetched = 0
    block = total if exact_counts else PREFETCH_BLOCK
    if not exact_counts:  # cached first (a stable partition), so the blocks start after them
        known = tester.known(keys)
        order = [i for i, c in enumerate(known) if c] + [i for i, c in enumerate(known) if not c]
        mapped, keys = [mapped[i] for i in order], [keys[i] for i in order]
        fetched = known.count(True)
    for k, key in enumerate(keys):
        if k == fetched:  # the next block's p-values in one batch; blocks double, as a long run needs more
            tester.prefetch(mapped[k : k + block])
            fetched, block = k + block, 2 * block
        v += tester.pvalue_of(key) <= level
        if not exact_counts and (v > given or v + (total - k - 1) <= given):
            break
    return v


def _mapped(perm: Sequence[int], triples: Sequence[tuple[int, int]], parents: Sequence[Sequence[int]]) -> tuple[list[tuple[int, int, tuple[int, ...]]], list[Key]]:
    """The statements ``(perm[x], perm[y], perm[Pa(x)])`` of the relabelled graph and their cache keys
    (:meth:`CITester.key`), one conditioning set per node shared by its statements."""
    moved = [tuple(perm[p] for p in pa) for pa in parents]
    sets = [frozenset(m) for m in moved]
    mapped, keys = [], []
    for x, y in triples:
        a, b, z = perm[x], perm[y], sets[x]
        mapped.append((a, b, moved[x]))
        keys.append((a, b, z) if a < b else (b, a, z))
    return mapped, keys


@fewer_collections()  # tens of thousands of statement tuples a permutation: see causalcheck.base.gcpace
def falsify(
    dag: Graph,
    tester: CITester,
    *,
    significance_level: float = 0.05,
    significance_ci: float = 0.05,
    permutations: int | str | None = None,
    seed: int | None = 0,
    exact_counts: bool = False,
    orders: Sequence[Sequence[int]] | None = None,
) -> Falsification:
    """Run the permutation test of the DAG *dag* on the data behind *tester*.

    *tester*'s columns must be *dag*'s nodes in order.  ``permutations=None`` runs
    ``⌊1/significance_level⌋``; *orders* (for cross-checks) gives the relabellings
    explicitly: ``orders[k][i]`` is the variable placed at node ``i``.
    """
    for name, value in (("significance_level", significance_level), ("significance_ci", significance_ci)):
        if not 0 < value < 1:
            raise InputFormatError(f"{name}={value!r} must be between 0 and 1")
    if tuple(tester.table.names) != tuple(dag.nodes):
        raise InputFormatError(f"the data columns {list(tester.table.names)!r} must be the DAG's nodes {list(dag.nodes)!r}")
    n = len(dag.nodes)
    parents, triples = _structure(dag)
    if orders is None:
        count = int(1 / significance_level) if permutations is None else permutations
        perms = _orders(n, count, seed)
    else:
        perms = [tuple(o) for o in orders]
        if any(sorted(o) != list(range(n)) for o in perms):
            raise InputFormatError(f"orders must be permutations of 0..{n - 1}")
    level = significance_ci
    tester.prefetch([(x, y, parents[x]) for x, y in triples])
    given = sum(tester.pvalue(x, y, parents[x]) <= level for x, y in triples)
    total = len(triples)

    sep = Separator(dag)
    reach_cache: dict[tuple[int, frozenset[int]], set[int]] = {}
    in_class = 0
    counts: list[int] = []
    at_most: list[bool] = []
    for perm in perms:
        # as informative as the given graph: every permuted triple a d-separation of the given DAG
        informative = True
        for x, y in triples:
            px = perm[x]
            z = frozenset(perm[p] for p in parents[x])
            key = (px, z)
            reach = reach_cache.get(key)
            if reach is None:
                reach = reach_cache[key] = sep.connected(px, z)
            if perm[y] in reach:
                informative = False
                break
        in_class += informative
        v = _violations(tester, *_mapped(perm, triples, parents), given, level, exact_counts)
        counts.append(v)
        at_most.append(v <= given)
    m = len(perms)
    p_lmc = sum(at_most) / m if m else 0.0
    p_tpa = in_class / m if m else 0.0
    return Falsification(
        verdict=permutation_verdict(p_lmc, p_tpa, significance_level, total),
        significance_level=significance_level,
        significance_ci=significance_ci,
        permutations=m,
        seed=seed if orders is None and permutations != "all" else None,
        test=tester.test,
        given_violations=int(given),
        given_tests=total,
        p_lmc=p_lmc,
        p_tpa=p_tpa,
        permuted_in_class=in_class,
        permuted_violations=tuple(int(c) for c in counts),
        permuted_at_most_given=tuple(at_most),
        exact_counts=exact_counts,
        tests_run=tester.tests_run,
        statements=total * (m + 1),
    )
