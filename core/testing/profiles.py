"""How many examples a property suite runs: the profiles ``ci``, ``dev`` and ``thorough``.

=============  ============  ============  =========================================  ===========================
profile        max_examples  derandomize   for                                        costs per suite (2 cores)
=============  ============  ============  =========================================  ===========================
``ci``         50            yes           every run: the same examples on every      0.1–1.7 s (≤ 10 s)
                                           machine
``dev``        200           no            local work: new examples each run          about 4× ci
``thorough``   2000          no            the full-strength run (``-m fuzz``)        about 40× ci
                                           and before a release
=============  ============  ============  =========================================  ===========================

The cost grows linearly with ``max_examples`` (generation dominates: drawing the graph pairs
and their edits is most of a suite's time).  ``tests/benchmarks/bench_testing.py`` prints, per
suite, the kit's time next to the same properties written as plain ``@given`` tests (measured
in one run): a passing suite runs at 0.95–1.25× their time, a failing one faster (the kit stops
at the first failing property and shrinks one failure).

Every suite of :mod:`causalcheck.testing` runs under :func:`settings_for` its ``profile``
(default: :func:`default_profile`), with ``deadline=None`` (scoring rules may be slow),
no example database (a suite writes nothing to disk), ``report_multiple_bugs=False`` (one
failure, the smallest) and the ``too_slow`` health check off.  The default profile is the
``causalcheck_profile`` pytest setting (see :mod:`causalcheck.testing.plugin`), else the
environment variable ``CAUSALCHECK_PROFILE``, else ``ci``.  Nothing here imports hypothesis
until :func:`settings_for` is called.

>>> PROFILES["ci"].max_examples, PROFILES["thorough"].derandomize
(50, False)
>>> settings_for("ci", max_examples=7).max_examples
7
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from causalcheck.base.errors import InputFormatError

if TYPE_CHECKING:  # pragma: no cover
    from hypothesis import settings

__all__ = [
    "PROFILES",
    "Profile",
    "default_profile",
    "note_snapshot_update",
    "register_hypothesis_profiles",
    "set_default_profile",
    "set_update_snapshots",
    "settings_for",
    "take_snapshot_updates",
    "update_snapshots_requested",
    "using_profile",
]


@dataclass(frozen=True)
class Profile:
    """A named example budget."""

    name: str
    max_examples: int
    derandomize: bool


#: The profiles by name.
PROFILES: dict[str, Profile] = {
    "ci": Profile("ci", 50, True),
    "dev": Profile("dev", 200, False),
    "thorough": Profile("thorough", 2000, False),
}

_DEFAULT: list[str] = []
_UPDATE: list[bool] = []
_UPDATED: list[str] = []


def _check(name: str) -> str:
    if name not in PROFILES:
        raise InputFormatError(f"profile={name!r} must be one of {sorted(PROFILES)!r}")
    return name


def set_default_profile(name: str | None) -> None:
    """Make *name* the profile suites use when they are given none (None: back to the environment / ``ci``)."""
    _DEFAULT.clear()
    if name is not None:
        _DEFAULT.append(_check(name))


@contextlib.contextmanager
def using_profile(name: str) -> Iterator[str]:
    """Make *name* the default profile inside the block, then restore exactly what was in force before.

    >>> with using_profile("dev"):
    ...     default_profile()
    'dev'
    """
    saved = list(_DEFAULT)
    set_default_profile(name)
    try:
        yield name
    finally:
        _DEFAULT[:] = saved


def set_update_snapshots(flag: bool | None) -> None:
    """Ask :func:`causalcheck.testing.snapshot` to rewrite changed snapshots (the plugin's ``--causalcheck-update-snapshots``)."""
    _UPDATE[:] = [] if flag is None else [bool(flag)]


def update_snapshots_requested() -> bool:
    """True when :func:`set_update_snapshots` asked for updates in this process."""
    return bool(_UPDATE and _UPDATE[0])


def note_snapshot_update(summary: str) -> None:
    """Keep the summary of a snapshot update for :func:`take_snapshot_updates` (the plugin lists them after the run)."""
    _UPDATED.append(summary)


def take_snapshot_updates() -> list[str]:
    """The summaries noted since the last call, oldest first (and forget them)."""
    out = list(_UPDATED)
    _UPDATED.clear()
    return out


def default_profile() -> str:
    """The profile in force: :func:`set_default_profile`'s, else ``$CAUSALCHECK_PROFILE``, else ``ci``."""
    if _DEFAULT:
        return _DEFAULT[0]
    return _check(os.environ.get("CAUSALCHECK_PROFILE") or "ci")


def settings_for(profile: str | None = None, max_examples: int | None = None) -> settings:
    """hypothesis settings of *profile* (default :func:`default_profile`), *max_examples* overriding its count."""
    from hypothesis import HealthCheck, Phase, settings

    prof = PROFILES[_check(profile or default_profile())]
    if max_examples is not None and (isinstance(max_examples, bool) or not isinstance(max_examples, int) or max_examples < 1):
        raise InputFormatError(f"max_examples={max_examples!r} must be a positive integer")
    return settings(
        max_examples=max_examples or prof.max_examples,
        derandomize=prof.derandomize,
        deadline=None,
        database=None,
        report_multiple_bugs=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
        print_blob=False,
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
    )


def register_hypothesis_profiles() -> None:
    """Register ``causalcheck-ci`` / ``causalcheck-dev`` / ``causalcheck-thorough`` with hypothesis
    (``settings.load_profile("causalcheck-ci")`` then makes plain ``@given`` tests follow them)."""
    from hypothesis import settings

    for name in PROFILES:
        settings.register_profile(f"causalcheck-{name}", settings_for(name))
