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

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from causalcheck.base.errors import InputFormatError, require_extra
from causalcheck.testing.profiles import default_profile, settings_for

__all__ = ["Property", "PropertyFailure", "SuiteReport", "call", "describe", "hermetic_hypothesis", "run_suite"]


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


@contextlib.contextmanager
def hermetic_hypothesis() -> Iterator[None]:
    """Hypothesis as the kit runs a suite: generation that depends only on the suite and the profile, and no files.

    Two things in hypothesis depend on the process rather than the test, and both are switched off
    while a suite runs, then restored:

    * **local constants** — hypothesis mixes literal constants from every *local* module loaded
      (its source read with ``ast``; an editable install makes causalcheck's own modules local)
      into generation, so the examples a derandomised suite draws depended on which other modules
      were imported and how causalcheck was installed: a suite could fail alone and pass inside the
      whole run.  The provider's constant pool is empty during a suite (hypothesis' global constants
      stay), and its cache is cleared on entry and exit so nothing crosses to the user's own tests;
    * **storage** — hypothesis caches its Unicode tables under ``.hypothesis/`` in the working folder
      (the kit already uses no example database); during a suite its home is a temporary folder,
      removed afterwards.

    Both are hypothesis internals (``hypothesis.internal.conjecture.providers``,
    ``hypothesis.configuration``); where a future hypothesis lacks them the suite still runs, and
    ``tests/test_testing_determinism.py`` says which guarantee was lost.
    """
    import tempfile

    from hypothesis import configuration

    providers: Any = None
    with contextlib.suppress(ImportError):  # a hypothesis without the provider module: nothing to switch off
        from hypothesis.internal.conjecture import providers
    home_name = "_" + "_hypothesis_home_directory"  # a module global of hypothesis.configuration
    saved_home = getattr(configuration, home_name, None)
    saved_get = getattr(providers, "_get_local_constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    pool: Any = getattr(providers, "_local_constants", None)
    with tempfile.TemporaryDirectory(prefix="causalcheck-hypothesis-") as home:
        configuration.set_hypothesis_home_dir(home)
        if saved_get is not None and pool is not None:
            empty = type(pool)()
            providers._get_local_constants = lambda: empty
        if isinstance(cache, dict):
            cache.clear()
        try:
            yield
        finally:
            if saved_get is not None:
                providers._get_local_constants = saved_get
            if isinstance(cache, dict):
                cache.clear()
            configuration.set_hypothesis_home_dir(saved_home)


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
    require_extra(suite, "hypothesis")
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
            with hermetic_hypothesis():
                run_property()
        except PropertyFailure as exc:
            # the message already shows the shrunk example: raise it without hypothesis' notes and frames
            clean = PropertyFailure(exc.suite, exc.property, exc.details, exc.subject)
            clean.cause = exc.__cause__
            raise clean from None
        ran.append(prop.name)
    return SuiteReport(suite, subject, tuple(ran), prof, conf.max_examples, time.perf_counter() - start)
