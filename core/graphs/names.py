"""Name dialects: how node names written by a user map onto the names a graph uses.

A general graph keeps its names *exactly*: ``"Freq"`` and ``"frequency"`` are two nodes,
``" a"`` is not ``"a"``.  CausaLab's benchmark is a dialect with its own rules — names are
trimmed, every spelling of the frequency (``freq``, ``Resonance_Freq``, ``frequency``, ...)
is the node ``resonanceFreq``, and that node is the target.  A :class:`NamePolicy` makes
that choice explicit and is what every reader, adapter and metric here accepts:

* :data:`EXACT` — names as given; no target.
* :data:`CAUSALAB` — :func:`normalize_node`; target :data:`FREQ` (``resonanceFreq``).  The
  CausaLab name rules (:func:`normalize_node`, :func:`is_freq_alias`, :data:`FREQ`) are
  defined here, with their dialect, and re-exported by :mod:`causalcheck.graph`.

A policy is also a plain callable ``str -> str``, so code that takes a normaliser (for
instance :mod:`causalcheck.metrics`) can accept a policy unchanged.  Applying a policy to a
graph (:func:`apply_policy`) refuses to merge two distinct nodes silently unless the policy
says merging is intended (``merges=True``, as CausaLab's aliases are).

>>> EXACT("  Freq "), CAUSALAB("  Freq "), CAUSALAB.target
('  Freq ', 'resonanceFreq', 'resonanceFreq')
>>> EXACT.collisions(["Freq", "frequency"]), CAUSALAB.collisions(["Freq", "frequency", "x"])
({}, {'resonanceFreq': ('Freq', 'frequency')})
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from causalcheck.base.errors import InputFormatError

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.graphs.model import Graph

__all__ = ["CAUSALAB", "EXACT", "FREQ", "NamePolicy", "apply_policy", "get_policy", "is_freq_alias", "normalize_node"]


def _identity(name: str) -> str:
    return name


#: Canonical name of the CausaLab target node.
FREQ = "resonanceFreq"
_FREQ_ALIASES = frozenset({"freq", "resonancefreq", "frequency", "resonancefrequency"})
_STRIP = re.compile(r"[\s_\-]+")


# Both are pure functions of a string that run for every node name of every record, edge and
# step, so they are memoised here, once (bounded; the cached function pickles by name).
@functools.lru_cache(maxsize=16384)
def is_freq_alias(name: str) -> bool:
    """True when *name* is one of the spellings the official scorer accepts for the frequency (memoised)."""
    return _STRIP.sub("", name.strip()).lower() in _FREQ_ALIASES


@functools.lru_cache(maxsize=16384)
def normalize_node(name: str) -> str:
    """Trim *name* and map every frequency alias to :data:`FREQ`; other names keep their case (memoised).

    >>> normalize_node(" Resonance_Freq "), normalize_node("density")
    ('resonanceFreq', 'density')
    """
    trimmed = name.strip()
    return FREQ if is_freq_alias(trimmed) else trimmed


@dataclass(frozen=True)
class NamePolicy:
    """A named rule that maps written node names to graph node names.

    Attributes:
        name: how the policy is called on the command line and in results (``"exact"``).
        normalize: the mapping itself (must be deterministic and idempotent).
        target: the dialect's outcome node, if it has one (CausaLab: ``resonanceFreq``).
        merges: True when the dialect *means* several spellings to be one node.
    """

    name: str
    normalize: Callable[[str], str]
    target: str | None = None
    merges: bool = False

    def __call__(self, name: str) -> str:
        return self.normalize(name)

    def collisions(self, names: Iterable[str]) -> dict[str, tuple[str, ...]]:
        """Distinct *names* that this policy maps onto one name (``{result: (names...)}``)."""
        groups: dict[str, dict[str, None]] = {}
        for n in names:
            groups.setdefault(self.normalize(n), {})[n] = None
        return {k: tuple(v) for k, v in groups.items() if len(v) > 1}


#: Names kept exactly as written (the default everywhere in :mod:`causalcheck.graphs`).
EXACT = NamePolicy("exact", _identity)
#: CausaLab's dialect: trimmed names, frequency aliases -> ``resonanceFreq`` (the target).
CAUSALAB = NamePolicy("causalab", normalize_node, target=FREQ, merges=True)

_POLICIES = {p.name: p for p in (EXACT, CAUSALAB)}


def get_policy(policy: NamePolicy | str | None) -> NamePolicy:
    """A policy by value or by name (``"exact"``, ``"causalab"``); None means :data:`EXACT`."""
    if policy is None:
        return EXACT
    if isinstance(policy, NamePolicy):
        return policy
    if isinstance(policy, str) and policy in _POLICIES:
        return _POLICIES[policy]
    raise InputFormatError(f"names={policy!r} must be a NamePolicy or one of {sorted(_POLICIES)!r}")


def apply_policy(graph: Graph, policy: NamePolicy | str | None) -> Graph:
    """*graph* with its node names passed through *policy*.

    Distinct nodes that the policy maps onto one name raise unless ``policy.merges``; a
    merge that would put two different edges between one pair raises either way (the graph
    model refuses it, naming both edges).
    """
    pol = get_policy(policy)
    if pol is EXACT:
        return graph
    mapping = {n: pol(n) for n in graph.nodes}
    clashes = pol.collisions(graph.nodes)
    if clashes and not pol.merges:
        raise InputFormatError(f"name policy {pol.name!r} would merge nodes {clashes!r}")
    return graph.renamed(mapping, merge=True)
