"""``check_parser_total`` and ``check_round_trip``: parsers that never crash, printers that round-trip.

* :func:`check_parser_total` — ``parse`` either returns or raises the documented *error*
  (default :class:`~causalcheck.base.errors.CausalCheckError`) on every example of *strategy*;
  anything else (a ``KeyError``, a ``RecursionError``, ...) fails with the input and the
  exception.  An error message must name something: an empty message fails too.
* :func:`check_round_trip` — ``parse(format(x)) == x`` for every example, and the printed
  text is stable: ``format(parse(format(x))) == format(x)``.

>>> from hypothesis import strategies as st
>>> from causalcheck.graphs.formats import parse_text
>>> check_parser_total(parse_text, st.text(max_size=20), max_examples=20).properties
('total',)
>>> from causalcheck import strategies as cs
>>> from causalcheck.graphs.formats import format_text, parse_text
>>> check_round_trip(parse_text, format_text, cs.dags(), max_examples=20).properties
('round-trip', 'stable-text')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from causalcheck.base.errors import CausalCheckError
from causalcheck.testing.runner import Property, PropertyFailure, SuiteReport, describe, run_suite

__all__ = ["check_parser_total", "check_round_trip"]


def check_parser_total(
    parse: Callable[[Any], Any],
    strategy: Any,
    *,
    error: type[BaseException] | tuple[type[BaseException], ...] = CausalCheckError,
    profile: str | None = None,
    max_examples: int | None = None,
) -> SuiteReport:
    """Check that *parse* raises nothing but *error* (with a message) on *strategy*'s examples."""
    suite = "check_parser_total"
    subject = describe(parse)
    names = error.__name__ if isinstance(error, type) else " or ".join(e.__name__ for e in error)

    def total(text: Any) -> None:
        try:
            parse(text)
        except error as exc:
            if not str(exc).strip():
                raise PropertyFailure(suite, "total", f"  input:    {text!r}\n  raised:   {type(exc).__name__} with an empty message", subject) from exc
        except Exception as exc:
            raise PropertyFailure(
                suite, "total", f"  input:    {text!r}\n  raised:   {type(exc).__name__}: {exc}\n  expected: a result or {names}", subject
            ) from exc

    return run_suite(suite, [Property("total", strategy, total)], subject=subject, profile=profile, max_examples=max_examples)


def check_round_trip(
    parse: Callable[[Any], Any],
    format: Callable[[Any], Any],
    strategy: Any,
    *,
    equal: Callable[[Any, Any], bool] | None = None,
    stable: bool = True,
    skip: Sequence[str] = (),
    profile: str | None = None,
    max_examples: int | None = None,
) -> SuiteReport:
    """Check ``parse(format(x)) == x`` (or ``equal(x, parsed)``) and, with *stable*, a stable printed text."""
    suite = "check_round_trip"
    subject = f"{describe(parse)} / {describe(format)}"
    same = equal or (lambda a, b: a == b)

    def printed(prop: str, x: Any) -> tuple[Any, Any]:
        try:
            text = format(x)
            back = parse(text)
        except Exception as exc:
            raise PropertyFailure(suite, prop, f"  value:    {x!r}\n  raised:   {type(exc).__name__}: {exc}", subject) from exc
        return text, back

    def round_trip(x: Any) -> None:
        text, back = printed("round-trip", x)
        if not same(x, back):
            raise PropertyFailure(suite, "round-trip", f"  value:    {x!r}\n  text:     {text!r}\n  parsed:   {back!r}\n  expected: the value itself", subject)

    def stable_text(x: Any) -> None:
        text, back = printed("stable-text", x)
        again = format(back)
        if again != text:
            raise PropertyFailure(suite, "stable-text", f"  value:    {x!r}\n  text:     {text!r}\n  reprinted: {again!r}\n  expected: the same text", subject)

    props = [Property("round-trip", strategy, round_trip)]
    if stable:
        props.append(Property("stable-text", strategy, stable_text))
    return run_suite(suite, props, subject=subject, profile=profile, max_examples=max_examples, skip=skip)
