"""Typed access to fields of recorded JSON objects (result files, parser records).

A damaged result file can hold any JSON value in any field.  These helpers read one field
as the type the format prescribes and raise :class:`~causalcheck.base.errors.InputFormatError`
naming the field and showing the value otherwise — so a wrong type is reported as bad
input instead of surfacing later as a ``TypeError`` / ``AttributeError``.  ``None`` (or a
missing field) gives the stated default.

>>> as_integer(7.0, "score"), as_list(None, "edges"), as_text(None, "reason")
(7, [], '')
>>> as_integer(7.5, "criterion_evaluations[0].score")
Traceback (most recent call last):
...
causalcheck.base.errors.InputFormatError: criterion_evaluations[0].score=7.5 must be an integer

A number must also be in float range: an integer such as ``10**400`` (valid JSON) cannot be
used in the float arithmetic that scores are put through, so it is refused here too.

>>> as_number(10**400, "pm_score")
Traceback (most recent call last):
...
causalcheck.base.errors.InputFormatError: pm_score=100000000000000000000000000000000000000000000000000000000000 must be a finite number in float range
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from causalcheck.base.errors import InputFormatError

__all__ = ["as_integer", "as_list", "as_mapping", "as_number", "as_text"]


def as_number(value: Any, where: str, default: float | None = None) -> float:
    """A finite JSON number (``int`` or ``float``, not ``bool``); *default* for ``None`` when given."""
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputFormatError(f"{where}={value!r:.60} must be a number")
    return _finite(value, where)


def _finite(value: int | float, where: str) -> float:
    """*value* as a finite float; an input error naming *where* when it is infinite, NaN or beyond float range."""
    try:
        out = float(value)
    except OverflowError:  # an integer beyond float range (10**400)
        out = math.inf
    if not math.isfinite(out):
        raise InputFormatError(f"{where}={value!r:.60} must be a finite number in float range")
    return out


def as_integer(value: Any, where: str, default: int | None = None) -> int:
    """A JSON integer (a float with an integral value counts; ``bool`` does not)."""
    if value is None and default is not None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputFormatError(f"{where}={value!r:.60} must be an integer")
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        raise InputFormatError(f"{where}={value!r:.60} must be an integer")
    _finite(value, where)  # scores and counts meet float arithmetic later
    return int(value)


def as_list(value: Any, where: str) -> list[Any]:
    """A JSON array (``[]`` for ``None``)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputFormatError(f"{where}={value!r:.60} must be a list")
    return value


def as_mapping(value: Any, where: str) -> Mapping[str, Any]:
    """A JSON object (``{}`` for ``None``)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InputFormatError(f"{where}={value!r:.60} must be an object")
    return value


def as_text(value: Any, where: str, default: str = "") -> str:
    """A JSON string (*default* for ``None``)."""
    if value is None:
        return default
    if not isinstance(value, str):
        raise InputFormatError(f"{where}={value!r:.60} must be a string")
    return value
