"""Every named limit of causalcheck: input sizes, decompressed sizes and compute budgets.

A small input must not buy unbounded work.  Each limit here has a **name** (what messages
and the README's *Limits* table call it), a **default**, the environment variable that
overrides it (``CAUSALCHECK_<NAME>``, a positive integer) and a line saying what it bounds.

* A **size limit** refuses its input: :meth:`Limit.check` raises :class:`LimitExceededError`
  (an :class:`~causalcheck.base.errors.InputFormatError`, exit 2) whose message names the
  limit, the input, the measured size and how to raise the limit.
* A **compute budget** bounds an expensive metric or enumeration: its cost is estimated
  before it starts, and above the budget the computation is skipped or sampled with a note
  (and a finding) that names the budget, the estimate and how to raise it
  (:meth:`Limit.over`, :meth:`Limit.skip_note`).

>>> MAX_GRAPH_NODES.name, MAX_GRAPH_NODES.env
('MAX_GRAPH_NODES', 'CAUSALCHECK_MAX_GRAPH_NODES')
>>> MAX_GRAPH_NODES.check(3, "graph file 'g.txt'")
>>> try:
...     Limit("MAX_DEMO", 10, "demo items", "items").check(11, "file 'x'")
... except LimitExceededError as exc:
...     print(exc)
file 'x': 11 items, over the limit MAX_DEMO=10 (demo items); raise it with CAUSALCHECK_MAX_DEMO=N
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from causalcheck.base.errors import InputFormatError

__all__ = [
    "COMPARE_COST_BUDGET",
    "COVERAGE_COST_BUDGET",
    "LIMITS",
    "MAX_DATA_CELLS",
    "MAX_EVAL_MEMBER_BYTES",
    "MAX_EVAL_TOTAL_BYTES",
    "MAX_GRAPH_EDGES",
    "MAX_GRAPH_NESTING",
    "MAX_GRAPH_NODES",
    "MAX_MAGNITUDE",
    "MAX_RL_ACTION_CHARS",
    "MAX_RL_OBSERVATION_CHARS",
    "MAX_SEED",
    "MAX_SWEEP_CELLS",
    "Limit",
    "LimitExceededError",
    "bounded_number",
    "check_graph_size",
    "check_seed",
    "check_table_size",
    "limits_table",
]


#: The largest seed of an episode, a run or a sweep: every file that records a seed must read back
#: (safejson refuses integers of more than 100 digits); 2**128 − 1 is far past 64-bit seeds.
MAX_SEED = 2**128 - 1


def check_seed(seed: object, what: str = "seed") -> int:
    """*seed* when it is an integer in ``[0, MAX_SEED]``; else an :class:`~causalcheck.base.errors.InputFormatError`.

    >>> check_seed(7)
    7
    >>> check_seed(10**50)
    Traceback (most recent call last):
    ...
    causalcheck.base.errors.InputFormatError: seed=100000000000000000000000000000000000000000000000000 is more than MAX_SEED=2**128-1 (a seed every result file can record and read back)
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InputFormatError(f"{what}={seed!r} must be a non-negative integer")
    if seed > MAX_SEED:
        raise InputFormatError(f"{what}={seed!r} is more than MAX_SEED=2**128-1 (a seed every result file can record and read back)")
    return seed


#: The largest magnitude of a score a statistic reads (``explain agree``, the agreement
#: statistics): far above any score's range, far below where sums of squares overflow a float.
MAX_MAGNITUDE = 1e12


def bounded_number(value: object, what: str) -> float:
    """*value* as a float when it is a finite number of magnitude at most :data:`MAX_MAGNITUDE`.

    Anything else — a non-number, ``nan``, ``inf``, ``1e308`` — raises an
    :class:`~causalcheck.base.errors.InputFormatError` naming *what* and the value.

    >>> bounded_number(0.5, "pm")
    0.5
    >>> bounded_number(1e308, "pm")
    Traceback (most recent call last):
    ...
    causalcheck.base.errors.InputFormatError: pm=1e+308 must be a finite number of magnitude at most 1e+12
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputFormatError(f"{what}={value!r} must be a number")
    try:
        number = float(value)
    except OverflowError:  # an int beyond the float range
        number = float("inf")
    if not (abs(number) <= MAX_MAGNITUDE):  # nan fails every comparison
        shown = value if isinstance(value, float) else number
        raise InputFormatError(f"{what}={shown!r} must be a finite number of magnitude at most {MAX_MAGNITUDE:g}")
    return number


class LimitExceededError(InputFormatError):
    """An input is larger than a named size limit (exit 2; the message says how to raise it)."""


@dataclass(frozen=True)
class Limit:
    """One named limit: its name, default, what it bounds, the unit it is measured in and what happens over it."""

    name: str
    default: int
    bounds: str
    unit: str
    over_it: str = "input refused, exit 2"

    @property
    def env(self) -> str:
        """The environment variable that overrides the default."""
        return f"CAUSALCHECK_{self.name}"

    def value(self) -> int:
        """The limit in force: ``$CAUSALCHECK_<NAME>`` when set (a positive integer), else the default."""
        raw = os.environ.get(self.env)
        if raw is None or not raw.strip():
            return self.default
        try:
            value = int(raw.strip().replace("_", ""))
        except ValueError:
            value = 0
        if value < 1:
            raise InputFormatError(f"{self.env}={raw!r} must be a positive integer ({self.name}: {self.bounds})")
        return value

    def how_to_raise(self) -> str:
        """The sentence that says how to raise the limit."""
        return f"raise it with {self.env}=N"

    def message(self, measured: float, where: str) -> str:
        """The refusal: the input, its measured size, the limit and how to raise it."""
        shown = f"{measured:.3g}" if isinstance(measured, float) else str(measured)
        return f"{where}: {shown} {self.unit}, over the limit {self.name}={self.value()} ({self.bounds}); {self.how_to_raise()}"

    def check(self, measured: int, where: str) -> None:
        """Raise :class:`LimitExceededError` when *measured* is over the limit (*where* names the input)."""
        if measured > self.value():
            raise LimitExceededError(self.message(measured, where))

    def over(self, estimate: float) -> bool:
        """True when the cost *estimate* is over this budget."""
        return estimate > self.value()

    def skip_note(self, what: str, estimate: float, action: str = "not computed") -> str:
        """The note of a computation *what* skipped (or sampled: *action*) because its estimate is over the budget."""
        return (
            f"{what} {action}: estimated cost {estimate:.3g} {self.unit}, over the budget "
            f"{self.name}={self.value()} ({self.bounds}); {self.how_to_raise()}"
        )


MAX_GRAPH_NODES = Limit("MAX_GRAPH_NODES", 20_000, "nodes of a graph read by read_graph", "nodes")
MAX_GRAPH_EDGES = Limit("MAX_GRAPH_EDGES", 200_000, "edges of a graph read by read_graph", "edges")
MAX_GRAPH_NESTING = Limit("MAX_GRAPH_NESTING", 100, "nesting depth of subgraphs { ... } in a DOT graph and of groups { ... } in a DAGitty graph", "levels")
MAX_DATA_CELLS = Limit("MAX_DATA_CELLS", 10_000_000, "cells (rows x columns) of a data table", "cells")
MAX_EVAL_MEMBER_BYTES = Limit(
    "MAX_EVAL_MEMBER_BYTES", 64 * 1024 * 1024, "decompressed bytes of one member (sample) of an inspect .eval log", "bytes"
)
MAX_EVAL_TOTAL_BYTES = Limit("MAX_EVAL_TOTAL_BYTES", 512 * 1024 * 1024, "decompressed bytes of an inspect .eval log in total", "bytes")
COMPARE_COST_BUDGET = Limit(
    "COMPARE_COST_BUDGET",
    2_000_000_000,
    "the SID / AID distances of compare, estimated nodes x edges^2 (up to about 2.5 ns each)",
    "operations",
    "SID / AID skipped (None, with a note naming the budget); SHD and the confusion figures still computed",
)
COVERAGE_COST_BUDGET = Limit(
    "COVERAGE_COST_BUDGET",
    600_000,
    "I-MEC figures and the intervention suggestion of check --interventions, each estimated evaluations x (nodes + edges) (about 5 us each)",
    "operations",
    "fewer samples / members scored, else skipped; coverage-budget warning",
)
MAX_SWEEP_CELLS = Limit("MAX_SWEEP_CELLS", 10_000, "cells of a sweep grid (suites x agents x seeds x budgets)", "cells")

MAX_RL_OBSERVATION_CHARS = Limit(
    "MAX_RL_OBSERVATION_CHARS", 4_000_000, "characters of a prompt the Gymnasium lab environment returns (its observation space)",
    "characters", "the episode is refused at reset / step",
)
MAX_RL_ACTION_CHARS = Limit(
    "MAX_RL_ACTION_CHARS", 1_000_000, "characters of a reply the Gymnasium lab environment reads (its action space)",
    "characters", "the reply is not read; a degraded WAIT step",
)

#: Every limit, in the order of the table of docs/limits.md.
LIMITS: tuple[Limit, ...] = (
    MAX_GRAPH_NODES,
    MAX_GRAPH_EDGES,
    MAX_GRAPH_NESTING,
    MAX_DATA_CELLS,
    MAX_EVAL_MEMBER_BYTES,
    MAX_EVAL_TOTAL_BYTES,
    COMPARE_COST_BUDGET,
    COVERAGE_COST_BUDGET,
    MAX_RL_OBSERVATION_CHARS,
    MAX_RL_ACTION_CHARS,
    MAX_SWEEP_CELLS,
)


def check_graph_size(nodes: int, edges: int, where: str) -> None:
    """Refuse a graph over :data:`MAX_GRAPH_NODES` or :data:`MAX_GRAPH_EDGES` (*where* names it)."""
    MAX_GRAPH_NODES.check(nodes, where)
    MAX_GRAPH_EDGES.check(edges, where)


def check_table_size(rows: int, columns: int, where: str) -> None:
    """Refuse a data table of more than :data:`MAX_DATA_CELLS` cells (*where* names it)."""
    if rows * columns > MAX_DATA_CELLS.value():
        raise LimitExceededError(MAX_DATA_CELLS.message(rows * columns, f"{where} ({rows} rows x {columns} columns)"))


def limits_table() -> str:
    """The Markdown table of :data:`LIMITS` (name, default, what it bounds, override, what happens over it)."""
    rows = ["| limit | default | bounds | override | over the limit |", "|---|---|---|---|---|"]
    rows += [f"| `{x.name}` | {x.default:_} {x.unit} | {x.bounds} | `{x.env}=N` | {x.over_it} |" for x in LIMITS]
    return "\n".join(rows)
