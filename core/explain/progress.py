"""Progress of long explain runs: the display of :mod:`causalcheck.base.progress`, with the model-call accounting.

A judged ``explain score`` run or an ``explain answer`` run over a whole benchmark takes
minutes; without a display the only sign of life is the retry log.  These commands show the
one progress display of causalcheck (:class:`~causalcheck.base.progress.RunProgress`: a bar on a
terminal, ``--progress`` lines off one) with, when a model is involved, its calls, cache hits,
retries, failures and cost so far as the extra column::

      causalcheck: explain score: 10/36 items, 0:00:42 elapsed; calls 130, cache hits 2, retries 3, failures 0, $0.0412

The accounting is read through the core's optional capability
:class:`~causalcheck.protocols.MeteredLLM` (a model with a ``meter``), by shape and never by
class; models that share one meter are counted once, models without one add nothing.  The
accounting is re-read at every refresh of the bar, so retries show up while an item is still
being judged, not only when it ends.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from causalcheck.base.progress import DEFAULT_EVERY, RunProgress, progress_mode

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.protocols import LLM, Meter

__all__ = ["format_accounting", "meter_totals", "progress_from_args"]

_TOTAL_KEYS: tuple[str, ...] = ("calls", "cache_hits", "retries", "failures", "cost_usd")


def _meters(models: Iterable[LLM]) -> list[Meter]:
    """The distinct meters of *models* (by identity), through the ``MeteredLLM`` capability."""
    # late: keeps causalcheck --help light
    from causalcheck.protocols import MeteredLLM

    seen: dict[int, Meter] = {}
    for m in models:
        if isinstance(m, MeteredLLM):
            meter = m.meter
            seen.setdefault(id(meter), meter)
    return list(seen.values())


def meter_totals(models: Iterable[LLM]) -> dict[str, float] | None:
    """Calls, cache hits, retries, failures and cost (``cost_usd``) summed over the distinct meters
    of *models*; ``None`` when none of them has a meter.

    A meter's summary may lack a key (a user's own meter): it counts as 0.
    """
    meters = _meters(models)
    if not meters:
        return None
    totals = dict.fromkeys(_TOTAL_KEYS, 0.0)
    for meter in meters:
        summary: Mapping[str, Any] = meter.summary()
        for key in _TOTAL_KEYS:
            value = summary.get(key, 0)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                totals[key] += float(value)
    return totals


def format_accounting(totals: Mapping[str, float] | None) -> str:
    """The accounting as shown by the progress display (``""`` without a meter).

    >>> format_accounting({"calls": 12, "cache_hits": 3, "retries": 1, "failures": 0, "cost_usd": 0.01234})
    'calls 12, cache hits 3, retries 1, failures 0, $0.0123'
    """
    if totals is None:
        return ""
    count = {k: int(totals.get(k, 0)) for k in ("calls", "cache_hits", "retries", "failures")}
    return (
        f"calls {count['calls']}, cache hits {count['cache_hits']}, retries {count['retries']}, "
        f"failures {count['failures']}, ${float(totals.get('cost_usd', 0.0)):.4f}"
    )


def progress_from_args(args: argparse.Namespace, *, title: str, models: Iterable[LLM] = ()) -> RunProgress | None:
    """The display :func:`add_progress_arguments`' options ask for, or ``None``."""
    mode = progress_mode(quiet=bool(getattr(args, "quiet", False)), forced=bool(getattr(args, "progress", False)))
    if mode is None:
        return None
    metered = tuple(models)
    return RunProgress(
        mode,
        title=title,
        every=int(getattr(args, "progress_every", DEFAULT_EVERY)),
        extra=lambda: format_accounting(meter_totals(metered)),
    )
