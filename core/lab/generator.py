"""A seeded generator of CausaLab-style suites (the snapshot has none, causalab-spec §1.4, §8.13).

Shape statistics.  For 3–7 nodes the generator draws the triple (edge count m, in-degree d
of the frequency, number of root nodes r) from the *joint* empirical distribution measured
on the 50 graphs of each released suite (:data:`SHAPE_TABLE`, counts out of 50), then
builds a random DAG with exactly that shape:

1. order the k−1 properties at random; the first r are the roots;
2. every later property gets one parent among the properties before it;
3. the frequency (a sink) gets d distinct parents;
4. the remaining m − d − (k−1−r) edges are drawn uniformly among the free forward pairs
   whose child is not a root.

For larger graphs (up to 50 nodes, for scaling studies) m is uniform on
[k−1, min(k(k−1)/2, 2k)], d uniform on 1..min(5, k−1), r ∈ {1, 2, 3} with weights
0.5/0.3/0.2 — the ranges the released suites span.

Parameters follow §1.3: linear coefficients uniform in {1, 2, 3}, ``base_freq`` an integer
in 15..25, ``base_<root>`` = 20.0 and ``base_<other>`` in 15..25 (both unused at run time).
The quadratic family follows §1.5 (``coeff2`` in {0.008, 0.012, 0.016}, a vertex ``v`` in
[35.24, 64.89], ``coeff1 = −2·coeff2·v``, integer presets in [0, 100] in
``quadratic_metadata``).  Hidden variants (§1.6) choose the affected nodes as a prefix of a
random order that puts the frequency's parents first.  FreqParent variants (§1.7) let the
frequency sit anywhere in the order, so it may have children.

Everything comes from one ``numpy.random.default_rng(seed)``: the same arguments give the
same file byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import atomic_write_text
from causalcheck.graph import FREQ

__all__ = [
    "FREQ_DISPLAY",
    "MAX_COUNT",
    "MAX_SIZES",
    "PROPERTY_POOL",
    "SHAPE_TABLE",
    "generate_graph",
    "generate_suite",
    "graph_record",
    "hidden_variable",
    "linear_term",
    "mechanism_terms",
    "node_spec",
    "quadratic_metadata",
    "quadratic_term",
    "write_suite",
]

#: Most graphs per node count one ``lab generate`` writes (the released suites have 50).
MAX_COUNT = 10_000
#: Most node counts in one ``--nodes`` list.
MAX_SIZES = 48

#: (node key, display name, abbreviation used in parameter names); causalab-spec §1.1.
PROPERTY_POOL: tuple[tuple[str, str, str], ...] = (
    ("temperatureC", "Temperature (°C)", "temp"),
    ("moisture", "Moisture", "moisture"),
    ("density", "Density", "density"),
    ("quantumSize", "Quantum Size", "quantumSize"),
    ("radiation", "Radiation", "radiation"),
    ("pressure", "Pressure", "pressure"),
    ("ph", "pH", "ph"),
    ("conductivity", "Conductivity", "conductivity"),
)

#: k → {(edges, in-degree of the frequency, roots): count of graphs out of 50} in the released suites.
SHAPE_TABLE: dict[int, dict[tuple[int, int, int], int]] = {
    3: {(2, 1, 1): 14, (2, 2, 2): 8, (3, 2, 1): 28},
    4: {(3, 1, 1): 3, (3, 1, 2): 3, (3, 2, 2): 3, (4, 1, 1): 3, (4, 2, 1): 8, (4, 2, 2): 3, (4, 3, 2): 1,
        (5, 2, 1): 6, (5, 3, 1): 7, (5, 3, 2): 3, (6, 3, 1): 10},
    5: {(4, 2, 2): 6, (5, 1, 1): 1, (5, 1, 2): 1, (5, 2, 2): 4, (5, 3, 2): 1, (6, 1, 1): 1, (6, 2, 1): 3,
        (6, 2, 2): 1, (6, 3, 1): 1, (7, 2, 1): 2, (7, 2, 2): 1, (7, 3, 1): 4, (7, 4, 1): 1, (8, 3, 1): 3,
        (8, 4, 1): 1, (8, 4, 2): 1, (9, 3, 1): 4, (9, 4, 1): 3, (9, 4, 2): 1, (10, 4, 1): 10},
    6: {(5, 1, 1): 1, (5, 2, 2): 2, (5, 2, 3): 1, (6, 1, 2): 1, (6, 2, 1): 1, (6, 2, 2): 1, (6, 3, 2): 1,
        (7, 1, 1): 1, (7, 2, 1): 4, (7, 2, 2): 1, (7, 3, 1): 1, (7, 4, 2): 2, (8, 1, 1): 1, (8, 2, 1): 2,
        (8, 2, 2): 2, (8, 3, 1): 2, (8, 4, 2): 2, (9, 2, 1): 2, (9, 3, 1): 1, (10, 1, 1): 1, (10, 1, 2): 1,
        (10, 2, 2): 1, (10, 3, 1): 1, (10, 4, 2): 1, (11, 3, 1): 2, (11, 3, 2): 1, (11, 4, 1): 3,
        (11, 4, 2): 1, (12, 3, 1): 2, (12, 4, 1): 6, (12, 5, 1): 1},
    7: {(6, 1, 2): 1, (6, 2, 3): 1, (7, 1, 2): 1, (7, 2, 3): 1, (7, 3, 2): 1, (7, 3, 3): 1, (8, 1, 1): 2,
        (8, 1, 2): 1, (8, 2, 1): 1, (8, 2, 2): 2, (8, 2, 3): 1, (8, 3, 2): 2, (9, 2, 2): 2, (9, 3, 2): 1,
        (10, 1, 1): 2, (10, 2, 1): 1, (10, 2, 2): 2, (10, 3, 2): 3, (11, 2, 1): 1, (11, 2, 2): 1,
        (11, 3, 1): 1, (11, 3, 2): 1, (11, 3, 3): 1, (11, 4, 1): 1, (12, 2, 1): 2, (12, 3, 2): 2,
        (12, 4, 1): 3, (12, 4, 2): 1, (12, 5, 2): 1, (13, 2, 1): 1, (13, 3, 1): 2, (13, 3, 2): 1,
        (13, 4, 1): 1, (13, 4, 2): 1, (14, 3, 1): 2, (14, 4, 1): 1},
}

_UNIFORM = {"type": "uniform", "min": 15.0, "max": 45.0}
#: The frequency node's display name in a record.
FREQ_DISPLAY = "Resonance Frequency (Hz)"


def _properties(k: int) -> list[tuple[str, str, str]]:
    pool = list(PROPERTY_POOL)
    extra = [(f"property{i:02d}", f"Property {i}", f"property{i:02d}") for i in range(len(pool) + 1, k)]
    return pool + extra


def _shape(rng: Any, k: int) -> tuple[int, int, int]:
    if k in SHAPE_TABLE:
        items = sorted(SHAPE_TABLE[k].items())
        weights = [c for _, c in items]
        total = sum(weights)
        pick = int(rng.choice(len(items), p=[w / total for w in weights]))
        return items[pick][0]
    hi = min(k * (k - 1) // 2, 2 * k)
    m = int(rng.integers(k - 1, hi + 1))
    d = int(rng.integers(1, min(5, k - 1) + 1))
    r = int(rng.choice([1, 2, 3], p=[0.5, 0.3, 0.2]))
    return m, d, min(r, k - 1)


def _edges(rng: Any, names: list[str], m: int, d: int, r: int, freq_parent: bool) -> list[tuple[str, str]] | None:
    order = [names[i] for i in rng.permutation(len(names))]
    edges: list[tuple[str, str]] = []
    for j in range(r, len(order)):
        edges.append((order[int(rng.integers(0, j))], order[j]))
    # frequency
    if freq_parent:
        pos = int(rng.integers(max(d, 1), len(order) + 1))
        pool = order[:pos]
    else:
        pos = len(order)
        pool = order
    if d > len(pool):
        return None
    for i in sorted(rng.choice(len(pool), size=d, replace=False).tolist()):
        edges.append((pool[i], FREQ))
    full = [*order[:pos], FREQ, *order[pos:]]
    roots = set(order[:r])
    taken = set(edges)
    free = [
        (full[i], full[j])
        for i in range(len(full))
        for j in range(i + 1, len(full))
        if full[j] not in roots and (full[i], full[j]) not in taken and full[j] != FREQ
    ]
    need = m - len(edges)
    if need < 0 or need > len(free):
        return None
    for i in sorted(rng.choice(len(free), size=need, replace=False).tolist()):
        edges.append(free[i])
    return edges


# ---------------------------------------------------------------------- record building blocks
def linear_term(params: dict[str, Any], key: str, parent: str, coefficient: int) -> str:
    """The term ``coeff_<key> * parent`` of a linear mechanism; records *coefficient* in *params*."""
    params[f"coeff_{key}"] = coefficient
    return f"coeff_{key} * {parent}"


def quadratic_term(
    params: dict[str, Any], axes: dict[str, float], key: str, parent: str, child: str, curvature: float, vertex: float
) -> str:
    """The term ``c2·P² + c1·P`` of CausaLab's hard quadratic mechanism with its vertex at *vertex*.

    Records ``coeff2_<key>`` (*curvature*), ``coeff1_<key>`` (``-2·c2·vertex``) in *params* and
    the vertex under ``"parent->child"`` in *axes* (the record's ``edge_axis_by_name``).
    """
    params[f"coeff2_{key}"] = curvature
    params[f"coeff1_{key}"] = round(-2 * curvature * vertex, 6)
    axes[f"{parent}->{child}"] = vertex
    return f"coeff2_{key} * ({parent} ^ 2) + coeff1_{key} * {parent}"


def mechanism_terms(
    family: str,
    abbr: Callable[[str], str],
    params: dict[str, Any],
    axes: dict[str, float],
    coefficient: Callable[[], int],
    curve: Callable[[], tuple[float, float]],
) -> Callable[[str, str], str]:
    """``term(parent, child)``: the term of one edge's mechanism, drawn when it is asked for.

    Its key is ``<abbr(parent)>_<abbr(child)>``; a ``"linear"`` *family* draws the coefficient
    from *coefficient*, the quadratic one ``(curvature, vertex)`` from *curve*
    (:func:`linear_term`, :func:`quadratic_term`).
    """

    def term(parent: str, child: str) -> str:
        key = f"{abbr(parent)}_{abbr(child)}"
        if family == "linear":
            return linear_term(params, key, parent, coefficient())
        curvature, vertex = curve()
        return quadratic_term(params, axes, key, parent, child, curvature, vertex)

    return term


def node_spec(name: str, display: str, computation: str | None, *, controllable: bool = True) -> dict[str, Any]:
    """A record's node entry (uniform crystal base 15..45); *computation* ``None`` for a root."""
    spec: dict[str, Any] = {
        "is_controllable": controllable,
        "observable": True,
        "property_name": name,
        "display_name": display,
        "base_value": dict(_UNIFORM),
    }
    if computation is not None:
        spec["computation"] = computation
    return spec


def graph_record(
    graph_id: str, nodes: dict[str, Any], edges: Sequence[tuple[str, str]], params: dict[str, Any]
) -> dict[str, Any]:
    """A suite record's common fields: id, description, nodes, edges, parameters, budget ``4·(k-1)``."""
    k = len(nodes)
    return {
        "graph_id": graph_id,
        "description": f"Causal graph with {k} nodes and {len(edges)} edges",
        "nodes": nodes,
        "edges": [{"from": a, "to": b} for a, b in edges],
        "params": params,
        "budget": 4 * (k - 1),
    }


def quadratic_metadata(
    order: Sequence[str],
    axes: Mapping[str, float],
    observation_presets: Sequence[dict[str, int]],
    property_manipulator: dict[str, int],
    reactor: dict[str, int],
) -> dict[str, Any]:
    """A quadratic record's ``quadratic_metadata``: node order, vertex axes and the crystal presets."""
    return {
        "controllable_node_order": list(order),
        "edge_axis_by_name": axes,
        "observation_presets": list(observation_presets),
        "property_manipulator": property_manipulator,
        "reactor": reactor,
    }


def hidden_variable(affected: Sequence[str], values: Sequence[float]) -> dict[str, Any]:
    """A record's ``hidden_variable``: the unobserved ``h`` (one of *values*) added to the *affected* nodes."""
    return {
        "enabled": True,
        "name": "h",
        "observable": False,
        "is_controllable": False,
        "initial_value": 0,
        "value_space": [float(v) for v in values],
        "edge_weight": 1,
        "affected_nodes": list(affected),
        "edges": [{"from": "h", "to": a, "weight": 1} for a in affected],
    }


def _make_quadratic(record: dict[str, Any], rng: Any, ctrl: list[str], axes: Mapping[str, float]) -> None:
    """Mark *record* as the hard quadratic family and add its ``quadratic_metadata`` (presets drawn from *rng*)."""
    record["description"] += " with hard quadratic parent-child mechanisms"
    record["equation_family"] = "quadratic"
    record["quadratic_mode"] = "hard"

    def preset() -> dict[str, int]:
        return {n: int(rng.integers(0, 101)) for n in ctrl}

    record["quadratic_metadata"] = quadratic_metadata(ctrl, axes, [preset(), preset()], preset(), preset())


def _add_hidden_variable(
    record: dict[str, Any], rng: Any, names: list[str], freq_parents: list[str], hidden: int, hidden_values: Sequence[float]
) -> None:
    """Add a hidden variable affecting *hidden* nodes, the frequency's parents first (each group in a drawn order)."""
    fp = [n for n in names if n in freq_parents]
    rest = [n for n in names if n not in freq_parents]
    fp = [fp[i] for i in rng.permutation(len(fp))]
    rest = [rest[i] for i in rng.permutation(len(rest))]
    affected = (fp + rest)[:hidden]
    record["description"] += " with hidden variable"
    record["hidden_variable"] = hidden_variable(affected, hidden_values)


def generate_graph(
    rng: Any,
    k: int,
    graph_id: str,
    *,
    family: str = "linear",
    hidden: int = 0,
    hidden_values: Sequence[float] = (-5.0, 0.0, 5.0),
    freq_parent: bool = False,
) -> dict[str, Any]:
    """One suite record with k nodes (the frequency included), drawn from *rng*."""
    if isinstance(k, bool) or not isinstance(k, int) or not 3 <= k <= 50:
        raise InputFormatError(f"nodes={k!r} must be an integer in 3..50")
    if family not in ("linear", "quadratic"):
        raise InputFormatError(f"family={family!r} must be 'linear' or 'quadratic'")
    if not 0 <= hidden <= k - 1:
        raise InputFormatError(f"hidden={hidden!r} must be between 0 and {k - 1}")
    props = _properties(k)
    chosen = [props[i] for i in sorted(rng.choice(len(props), size=k - 1, replace=False).tolist())]
    abbr = {p: a for p, _, a in chosen}
    abbr[FREQ] = "freq"
    names = [p for p, _, _ in chosen]
    edges: list[tuple[str, str]] | None = None
    for _ in range(1000):
        m, d, r = _shape(rng, k)
        edges = _edges(rng, names, m, d, r, freq_parent)
        if edges is not None:
            break
    if edges is None:  # pragma: no cover - the shapes above are all feasible
        raise InputFormatError(f"could not draw a graph with nodes={k!r}")
    parents: dict[str, list[str]] = {n: [] for n in [FREQ, *names]}
    for a, b in edges:
        parents[b].append(a)
    params: dict[str, float] = {}
    axes: dict[str, float] = {}

    term = mechanism_terms(
        family,
        abbr.__getitem__,
        params,
        axes,
        lambda: int(rng.integers(1, 4)),
        lambda: (float(rng.choice([0.008, 0.012, 0.016])), round(float(rng.uniform(35.24, 64.89)), 2)),
    )

    nodes: dict[str, Any] = {}
    freq_terms = [term(p, FREQ) for p in parents[FREQ]]
    nodes[FREQ] = node_spec(FREQ, FREQ_DISPLAY, " + ".join(["base_freq", *freq_terms]), controllable=False)
    params["base_freq"] = float(rng.integers(15, 26)) if family == "linear" else round(float(rng.uniform(35, 190)), 6)
    display = {p: disp for p, disp, _ in chosen}
    for n in [names[i] for i in rng.permutation(len(names))]:
        computation = None
        if parents[n]:
            computation = " + ".join([f"base_{n}", *(term(p, n) for p in parents[n])])
            params[f"base_{n}"] = float(rng.integers(15, 26))
        else:
            params[f"base_{n}"] = 20.0
        nodes[n] = node_spec(n, display[n], computation)
    record = graph_record(graph_id, nodes, edges, params)
    if freq_parent:
        record = {"graph_id": graph_id, "description": record["description"], "equation_family": "linear",
                  "frequency_can_be_parent": True, **{k2: v for k2, v in record.items() if k2 not in ("graph_id", "description")}}
    if family == "quadratic":
        _make_quadratic(record, rng, [n for n in nodes if n != FREQ], axes)
    if hidden:
        _add_hidden_variable(record, rng, names, parents[FREQ], hidden, hidden_values)
    return record


def generate_suite(
    nodes: int | Sequence[int],
    count: int,
    seed: int,
    *,
    prefix: str | None = None,
    family: str = "linear",
    hidden: int = 0,
    hidden_values: Sequence[float] = (-5.0, 0.0, 5.0),
    freq_parent: bool = False,
) -> list[dict[str, Any]]:
    """*count* records per node count in *nodes*, all drawn from ``default_rng(seed)``."""
    import math

    import numpy as np

    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        raise InputFormatError(f"count={count!r} must be an integer in 1..MAX_COUNT={MAX_COUNT}")
    bad = [v for v in hidden_values if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v) or abs(v) > 1e6]
    if bad or not hidden_values:
        raise InputFormatError(f"hidden_values={list(hidden_values)!r} must be a non-empty list of finite numbers within ±1e6")
    sizes = [nodes] if isinstance(nodes, int) else list(nodes)
    if len(sizes) > MAX_SIZES:
        raise InputFormatError(f"nodes={sizes!r:.80} lists more than MAX_SIZES={MAX_SIZES} node counts")
    rng = np.random.default_rng(seed)
    out = []
    for k in sizes:
        for i in range(count):
            gid = f"{prefix or f'gen{k}nodes'}_{i}" if len(sizes) == 1 else f"{prefix or 'gen'}{k}nodes_{i}"
            out.append(
                generate_graph(rng, k, gid, family=family, hidden=hidden, hidden_values=hidden_values, freq_parent=freq_parent)
            )
    return out


def write_suite(records: Sequence[dict[str, Any]], path: str | Path) -> Path:
    """Write records as JSONL (the official file layout: one compact object per line)."""
    p = Path(path)
    atomic_write_text(p, "".join(json.dumps(r, ensure_ascii=False, allow_nan=False) + "\n" for r in records))
    return p
