"""The texts a lab agent reads: the task text and each observation's text (causalab-spec §2.2, §2.4, §2.6).

:class:`~causalcheck.lab.episode.Episode` computes the values; this module prints them as the
original environment does.  A value the original holds as a Python int (integer bases,
JSON-int coefficients, no float on the way) prints as ``39``, any other as a float (``50.0``);
prior records are Python dicts in evaluation order with the frequency in its place; the
manipulator block is ``Crystal Analysis:`` … ``Uses: u/N (Remaining: r)`` and the reactor
block ``Crystal properties (directly shown):`` … ``Usage: u/N submissions.``.

>>> show_number(39.0, True), show_number(39.0, False), show_number(114.25, True)
('39', '39.0', '114.25')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from causalcheck.graphs.model import depth_first

__all__ = [
    "REACTOR_KEY_ORDER",
    "children_first_order",
    "crystal_lines",
    "observation_text",
    "reactor_lines",
    "show_number",
    "task_text",
    "typed_number",
]

#: The reactor dialog lists these keys in this order (those present; causalab-spec §2.6).
REACTOR_KEY_ORDER = ("temperatureC", "moisture", "density", "quantumSize", "radiation", "pressure", "ph", "conductivity")


def typed_number(value: float, is_int: bool) -> int | float:
    """*value* with the Python type the original holds it in (ints stay ints)."""
    return int(value) if is_int and float(value).is_integer() else float(value)


def show_number(value: float, is_int: bool) -> str:
    """How the original prints a property value: ``39`` for an int, ``50.0`` / ``114.25`` for a float."""
    return repr(typed_number(value, is_int))


def children_first_order(nodes: Sequence[str], edges: Sequence[Any]) -> tuple[str, ...]:
    """The original's order while the hidden disturbance acts: a reversed depth-first post-order over children.

    Its manipulator recomputes the crystal in that order (nodes in config order, children in
    edge order) and lists it so; without a disturbance it lists the evaluation order.

    >>> from causalcheck.graph import Edge
    >>> children_first_order(["f", "a", "b"], [Edge("a", "f"), Edge("b", "a")])
    ('b', 'a', 'f')
    """
    index = {n: i for i, n in enumerate(nodes)}
    children: list[list[int]] = [[] for _ in nodes]
    for e in edges:
        children[index[e.source]].append(index[e.target])
    post, _ = depth_first(children)  # the SCM's graph is acyclic: the whole post-order
    return tuple(nodes[i] for i in reversed(post))


def task_text(task: Mapping[str, Any], records: Sequence[Mapping[str, int | float]]) -> str:
    """The task text of *task* (the fields of a :class:`~causalcheck.lab.episode.TaskInfo` but its
    text); *records* are the prior records as the original prints them (evaluation order, typed)."""
    b = task["budgets"]
    disp = task["display_names"]
    target = task["target"]
    lines = [
        "You are in a lab with two quantum crystals that share one hidden causal mechanism.",
        f"Properties: {', '.join(f'{p} ({disp.get(p, p)})' for p in task['properties'])}; "
        f"the target is {target} ({disp.get(target, target)}).",
        "Each property may be caused by others; the resonance frequency is not directly controllable.",
    ]
    if task["frequency_can_be_parent"]:
        lines.append("Note: the resonance frequency is not controllable, but it may cause other properties.")
    if task["equation_family"] == "quadratic":
        lines.append("Each parent acts through a quadratic term: c_P_1*P^2 + c_P_2*P.")
    else:
        lines.append("Mechanisms are linear: node = base + sum of c_parent * parent.")
    if task["hidden_disturbance"]:
        lines.append(
            "A hidden disturbance perturbs some properties of the manipulator crystal after each intervention; "
            "it is absent in the reactor phase."
        )
    lines += [
        "",
        "Phase 1 — Property Manipulator: set one controllable property of the manipulator crystal at a time "
        "(a shift: the property takes the value, its causes stay active) and read every property and the frequency.",
        f"Intervention budget: {b['interventions']} uses. Controllable: {', '.join(task['controllable'])}.",
        "Phase 2 — Crystal Reactor: opening the reactor locks the manipulator. The reactor crystal's properties are "
        f"shown; predict its resonance frequency. Tolerance: ±{b['tolerance_hz']} Hz; "
        f"{b['submissions']} submissions.",
        "",
        f"Prior measurement records ({len(task['prior_records'])}):",
    ]
    for k, shown in enumerate(records, 1):
        lines.append(f"- Observation {k}: {dict(shown)}")
    if task["bootstrap"]:
        lines.append("Provided golden intervention data:")
        for e in task["bootstrap"]:
            iv = e.get("intervention")
            if iv:
                lines.append(
                    f"- {e.get('id')}: intervene {iv['target_prop']} to {iv['target_value']}, observed props={dict(e['props'])}, freq={e['freq']}"
                )
            else:
                lines.append(f"- {e.get('id')}: observed props={dict(e['props'])}, freq={e['freq']}")
    s = task["structure"]
    if s is not None:
        lines.append("Known causal structure: " + ", ".join(f"{e['from']} -> {e['to']}" for e in s["edges"]))
        lines.append(f"Parents of {target}: {', '.join(s['frequency_parents'])}")
        if s["hidden_affected"]:
            lines.append(f"Hidden disturbance affects: {', '.join(s['hidden_affected'])}")
    lines += [
        "",
        "Each step output one JSON record with keys memory, thought, past_data, hypothesis, experiment and one action:",
        '{"action": "INTERVENE", "arg1": "<property>", "arg2": <number>} | {"action": "OPEN_REACTOR"} | '
        '{"action": "SET_FREQUENCY", "arg1": <number>} | {"action": "SUBMIT", "arg1": "done"}',
        'hypothesis = {"edges": [{"from": P, "to": Q}], "freq_equation": "resonanceFreq = base + c_A*A", '
        '"coefficients": {"base": number, "c_A": number}}',
    ]
    return "\n".join(lines)


def crystal_lines(
    state: Mapping[str, float], types: Mapping[str, bool], order: Sequence[str] | None, display: Mapping[str, str]
) -> str:
    """The manipulator block's "Crystal Analysis" heading, one line per node (display names, the
    original's number types; *order*, default the state's) and the rule beneath them."""
    names = state if order is None else order
    lines = ["Crystal Analysis:", *(f"  {display.get(n, n)}: {show_number(state[n], types.get(n, False))}" for n in names)]
    lines.append("  " + "\u2500" * 19)
    return "\n".join(lines)


def reactor_lines(props: Mapping[str, Any], reactor_types: Mapping[str, bool]) -> str:
    """The reactor block's heading and one line per property (keys in :data:`REACTOR_KEY_ORDER`, then any other)."""
    keys = [k for k in REACTOR_KEY_ORDER if k in props] + [k for k in props if k not in REACTOR_KEY_ORDER]
    return "\n".join(["Crystal properties (directly shown):", *(f"- {k}: {show_number(props[k], reactor_types.get(k, False))}" for k in keys)])


def observation_text(
    obs: Mapping[str, Any],
    types: Mapping[str, bool],
    reactor_types: Mapping[str, bool],
    order: Sequence[str] | None,
    display: Mapping[str, str],
) -> str:
    """The text of *obs* (the fields of an :class:`~causalcheck.lab.episode.Observation` but its text),
    with the original's blocks, line formats and number types.

    The manipulator block is the original's "Crystal Analysis" (display names in evaluation
    order, a rule, ``Uses: u/N (Remaining: r)``); the reactor block is its "Crystal properties
    (directly shown)" and ``Usage: u/N submissions.``.  *types* and *reactor_types* say which
    values the original holds as ints; *order* (``None``: the state's, the evaluation order) is
    the order of the crystal lines; *display* maps a node to its display name.
    """
    lines = [f"Step {obs['step']} — phase: {obs['phase']}"]
    resp = obs["response"]
    if resp:
        if resp.get("accepted") is False:
            lines.append(f"Refused: {resp.get('refused')}")
        elif resp.get("message"):
            lines.append(str(resp["message"]))
    lines.append(crystal_lines(obs["state"], types, order, display))
    used, left = obs["interventions_used"], obs["interventions_left"]
    lines.append(f"  Uses: {used}/{used + left} (Remaining: {left})")
    for chain in obs["oracle_chains"]:
        lines.append("Oracle chain: " + " -> ".join(chain))
    candidates = obs["candidates"]
    if candidates is not None:
        lines.append(f"Candidate graphs consistent with your interventions ({len(candidates)} shown):")
        for g in candidates:
            lines.append("  " + ("; ".join(f"{a} -> {b}" for a, b in g) or "(no edges)"))
    if obs["reactor_props"] is not None:
        lines.append(reactor_lines(obs["reactor_props"], reactor_types))
        lines.append(f"Usage: {obs['submissions_used']}/{obs['submissions_used'] + obs['submissions_left']} submissions.")
    if obs["done"]:
        lines.append("The episode is over." + (" The reactor is activated." if obs["success"] else ""))
    return "\n".join(lines)
