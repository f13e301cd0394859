"""Does the equation agree with the graph, and are its coefficients determined?

In a structural causal model the equation of a node is a function of exactly its parents.
So for a hypothesis with target ``T`` (the CausaLab frequency):

* every variable on the right-hand side must be a parent of ``T`` in the edge list
  (``non-parent-in-equation``), and every parent of ``T`` must appear in the equation
  (``parent-missing-from-equation``); ``T`` must not appear on its own right-hand side;
* every coefficient the equation uses must have a non-zero number in ``coefficients``;
  a missing name, ``null`` or ``0`` (``base`` may be 0) leaves the mechanism
  **undetermined** (``undetermined-coefficient``, a warning: the hypothesis is incomplete
  rather than wrong); coefficients the equation never uses are reported as
  ``unused-coefficient``;
* an equation that does not parse is ``equation-syntax`` (with the caret message), and one
  whose left-hand side names another node is ``equation-target``.

The equation is parsed with the hypothesis' coefficient names and graph nodes as hints
(see :mod:`causalcheck.equation`).
"""

from __future__ import annotations

from functools import lru_cache

from causalcheck.base.errors import DSLSyntaxError
from causalcheck.equation import Equation, is_coefficient_name, parse_equation
from causalcheck.findings import Finding, Parents, SyntaxPosition, Undetermined
from causalcheck.records import Hypothesis

__all__ = ["equation_consistency", "hypothesis_equation"]

_INTERCEPTS = ("base", "intercept", "bias", "offset", "const")


def hypothesis_equation(h: Hypothesis) -> Equation:
    """The parsed equation of *h* (names sorted with its coefficients and nodes as hints).

    Parses are memoised (the equation is immutable and every check needs it).  Raises
    :class:`~causalcheck.base.errors.DSLSyntaxError` when the text does not parse.
    """
    return _parse(h.equation, tuple(h.coefficients), h.graph.nodes)


@lru_cache(maxsize=1024)
def _parse(text: str, coefficients: tuple[str, ...], nodes: tuple[str, ...]) -> Equation:
    return parse_equation(text, coefficients=coefficients, nodes=nodes, source="freq_equation")


def _is_intercept(name: str) -> bool:
    return name.split("_", 1)[0] in _INTERCEPTS


def equation_consistency(h: Hypothesis) -> tuple[Finding, ...]:
    """Findings comparing ``h.equation`` with ``h.graph`` and ``h.coefficients``; never raises."""
    out: list[Finding] = []
    target = h.target
    parents = h.graph.parents(target)
    if not h.equation.strip():
        if parents:
            out.append(
                Finding(
                    "missing-equation",
                    "warning",
                    f"{target} has parents {', '.join(parents)} but the hypothesis gives no equation for it",
                    elements=(target,),
                )
            )
        return tuple(out)
    try:
        eq = hypothesis_equation(h)
    except DSLSyntaxError as exc:
        return (
            Finding(
                "equation-syntax",
                "error",
                f"the equation {h.equation!r} does not parse: {exc}",
                elements=(h.equation,),
                certificate=SyntaxPosition(exc.line, exc.column, tuple(exc.expected)),
            ),
        )
    if eq.target is not None and eq.target != target:
        out.append(
            Finding(
                "equation-target",
                "warning",
                f"the equation defines {eq.target!r}, but the hypothesis target is {target!r}",
                elements=(eq.target,),
            )
        )
    variables = eq.variables
    if target in variables:
        out.append(
            Finding(
                "self-reference",
                "error",
                f"the equation for {target} uses {target} itself on the right-hand side",
                elements=(target,),
            )
        )
    non_parents = tuple(v for v in variables if v not in parents and v != target)
    if non_parents:
        listed = ", ".join(non_parents)
        out.append(
            Finding(
                "non-parent-in-equation",
                "error",
                f"the equation uses {listed}, but the edges give {target} no edge from "
                f"{'it' if len(non_parents) == 1 else 'them'} "
                f"(parents of {target}: {', '.join(parents) or 'none'}); add the edge(s) or drop the term(s)",
                elements=non_parents,
                certificate=Parents(tuple(parents)),
            )
        )
    missing = tuple(p for p in parents if p not in variables)
    if missing:
        out.append(
            Finding(
                "parent-missing-from-equation",
                "error",
                f"{', '.join(f'{p} -> {target}' for p in missing)} is in the edges, but the equation does not use "
                f"{', '.join(missing)}",
                elements=tuple(f"{p} -> {target}" for p in missing),
            )
        )
    for name in eq.coefficient_names:
        if name not in h.coefficients:
            reason, text = "missing", f"coefficient {name!r} is used by the equation but has no value in coefficients"
        elif h.coefficients[name] is None:
            reason, text = "null", f"coefficient {name!r} is null (undetermined)"
        elif h.coefficients[name] == 0 and not _is_intercept(name):
            reason, text = "zero", f"coefficient {name!r} is 0, which removes its term (a parent with no effect is not a parent)"
        else:
            continue
        out.append(
            Finding("undetermined-coefficient", "warning", text, elements=(name,), certificate=Undetermined(reason))
        )
    used = set(eq.coefficient_names) | set(variables)
    unused = tuple(n for n in h.coefficients if n not in used)
    if unused:
        kinds = ", ".join(unused)
        out.append(
            Finding(
                "unused-coefficient",
                "warning" if any(is_coefficient_name(n) for n in unused) else "info",
                f"coefficients {kinds} are not used by the equation",
                elements=unused,
            )
        )
    return tuple(out)
