"""The true graph config of an episode: validation, F*, the golden trace, the suite name."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.graph import FREQ, normalize_node
from causalcheck.parsing import parse_record_obj
from causalcheck.records import DataPoint

__all__ = ["check_config", "golden_entries", "suite_of", "true_target_frequency"]


def check_config(config: Any, where: str) -> Mapping[str, Any]:
    """*config* when it is a usable true-graph config (an object whose ``edges`` are ``{from, to}`` and whose ``params``, if given, are an object)."""
    if not isinstance(config, Mapping):
        raise InputFormatError(f"{where}: graph config={str(config)[:60]!r} must be a JSON object")
    edges = config.get("edges")
    if not isinstance(edges, list) or not all(
        isinstance(e, Mapping) and isinstance(e.get("from"), str) and isinstance(e.get("to"), str) for e in edges
    ):
        raise InputFormatError(f"{where}: graph config edges={str(edges)[:80]!r} must be a list of {{'from', 'to'}} objects")
    params = config.get("params")
    if params is not None and not isinstance(params, Mapping):  # the scorer reads the true coefficients from it
        raise InputFormatError(f"{where}: graph config params={str(params)[:80]!r} must be an object")
    nodes = config.get("nodes")
    names = [*(nodes if isinstance(nodes, Mapping) else ()), *(e["from"] for e in edges), *(e["to"] for e in edges)]
    for name in names:  # the graph of the scorer refuses them later, without naming this file
        if not isinstance(name, str) or not name.strip():
            raise InputFormatError(f"{where}: graph config node name {str(name)[:80]!r} must be a non-empty string")
    return config


def true_target_frequency(config: Mapping[str, Any], props: Mapping[str, float]) -> float | None:
    """F* recomputed from the frequency's ``computation`` with the shown parent values.

    ``None`` when the config has no frequency computation or a needed value is missing.
    Rounded to 2 decimals like the simulator.
    """
    # late: keeps check API light
    from causalcheck.metrics import formula_error

    nodes = config.get("nodes")
    if not isinstance(nodes, Mapping):
        return None
    comp = None
    for key, spec in nodes.items():
        if normalize_node(str(key)) == FREQ and isinstance(spec, Mapping):
            comp = spec.get("computation")
    params = config.get("params")
    if not isinstance(comp, str) or not isinstance(params, Mapping):
        return None
    result = formula_error(comp, props, 0.0, params)
    return None if result.predicted is None else round(result.predicted, 2)


def suite_of(graph_id: str) -> str:
    """The suite name of a graph id (``4nodes_0`` → ``4nodes``)."""
    return re.sub(r"_\d+$", "", graph_id) or graph_id


def golden_entries(config: Mapping[str, Any] | None) -> tuple[DataPoint, ...]:
    """The suite's golden trace (``bootstrap_past_data``) as parsed data points (``()`` without one)."""
    boot = config.get("bootstrap_past_data") if config is not None else None
    if not isinstance(boot, list):
        return ()
    try:
        return parse_record_obj({"past_data": boot}, source="bootstrap_past_data").past_data or ()
    except CausalCheckError:  # pragma: no cover - a list of entries always parses
        return ()
