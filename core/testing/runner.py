"""Running a property suite: one hypothesis search per property, one readable failure.

A suite is a list of :class:`Property` values — a name, a strategy and a check that raises
:class:`PropertyFailure` with a message.  :func:`run_suite` runs each property under the
suite's hypothesis settings (:func:`causalcheck.testing.profiles.settings_for`); hypothesis
shrinks a failure to its smallest example and re-raises *that* example's
:class:`PropertyFailure`, so the message shows the shrunk counterexample.  An exception
raised by the function under test is turned into a :class:`PropertyFailure` too (naming
the property, the inputs and the exception).

A failure message is usable on its own::

    check_graph_metric: property 'reversal-cost' fails for my_shd (a distance)
      convention: a reversal costs 1, an addition or a removal 1; names exact; ...
      truth:    [('a', 'b')]
      estimate: [('b', 'a')]
      edit:     reverse a -> b to b -> a
      got:      fn(truth, estimate) = 2
      expected: 1

>>> from hypothesis import strategies as st
>>> def check(x: int) -> None:
...     if x > 10:
...         raise PropertyFailure("demo", "small", f"  x: {x}")
>>> run_suite("demo", [Property("small", st.integers(), check)], profile="ci")
Traceback (most recent call last):
...
causalcheck.testing.runner.PropertyFailure: demo: property 'small' fails
  x: 11
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from causalcheck.base.errors import InputFormatError
from causalcheck.testing.extra import require_hypothesis
from causalcheck.testing.profiles import default_profile, settings_for

__all__ = ["Property", "PropertyFailure", "SuiteReport", "call", "describe", "run_suite"]


class PropertyFailure(AssertionError):
    """A property of a suite does not hold; the message names the suite, the property and the shrunk inputs."""

    def __init__(self, suite: str, prop: str, details: str, subject: str = "") -> None:
        self.suite = suite
        self.property = prop
        self.details = details
        self.subject = subject
        #: the exception the rule under test raised, when that is the failure
        self.cause: BaseException | None = None
        who = f" for {subject}" if subject else ""
        super().__init__(f"{suite}: property {prop!r} fails{who}\n{details}")


@dataclass(frozen=True)
class Property:
    """One property: ``check(example)`` raises :class:`PropertyFailure` when it does not hold."""

    name: str
    strategy: Any
    check: Callable[[Any], None]
    doc: str = ""


@dataclass(frozen=True)
class SuiteReport:
    """What a suite ran: its properties, the profile and example budget, and the time taken."""

    suite: str
    subject: str
    properties: tuple[str, ...]
    profile: str
    max_examples: int
    seconds: float


def describe(fn: Callable[..., Any]) -> str:
    """A short name for a function under test (its qualified name)."""
    return str(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn))


def call(suite: str, prop: str, subject: str, fn: Callable[..., Any], args: Sequence[Any], shown: str) -> Any:
    """``fn(*args)``, or a :class:`PropertyFailure` naming the exception it raised and the inputs."""
    try:
        return fn(*args)
    except PropertyFailure:
        raise
    except Exception as exc:  # the function under test failed: report it as a property failure
        raise PropertyFailure(suite, prop, f"{shown}\n  raised:   {type(exc).__name__}: {exc}", subject) from exc


def _test_of(suite: str, prop: Property) -> Callable[[Any], None]:
    def body(example: Any) -> None:
        prop.check(example)

    body.__name__ = body.__qualname__ = f"{suite}__{prop.name.replace('-', '_')}"
    return body


def run_suite(
    suite: str,
    properties: Sequence[Property],
    *,
    subject: str = "",
    profile: str | None = None,
    max_examples: int | None = None,
    skip: Sequence[str] = (),
) -> SuiteReport:
    """Run every property not in *skip*; raise the first :class:`PropertyFailure` (shrunk)."""
    require_hypothesis(suite)
    from hypothesis import given

    prof = profile or default_profile()
    conf = settings_for(prof, max_examples)
    unknown = sorted(set(skip) - {p.name for p in properties})
    if unknown:
        raise InputFormatError(f"skip={unknown!r} names no property of {suite}; properties: {[p.name for p in properties]!r}")
    start = time.perf_counter()
    ran = []
    for prop in properties:
        if prop.name in skip:
            continue
        try:
            wrap = given(prop.strategy)
            run_property: Callable[[], None] = conf(wrap(_test_of(suite, prop)))  # type: ignore[no-untyped-call]  # given() returns an untyped decorator
            run_property()
        except PropertyFailure as exc:
            # the message already shows the shrunk example: raise it without hypothesis' notes and frames
            clean = PropertyFailure(exc.suite, exc.property, exc.details, exc.subject)
            clean.cause = exc.__cause__
            raise clean from None
        ran.append(prop.name)
    return SuiteReport(suite, subject, tuple(ran), prof, conf.max_examples, time.perf_counter() - start)
