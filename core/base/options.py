"""Options values: a long list of settings defined once, as a frozen dataclass, with keywords as a thin front.

A function with many settings (``validate_graph``, ``check_graph_metric``) takes them as one
options value — a frozen dataclass whose fields hold each setting's name, default, type and
meaning, checked when the value is made — or as keywords, one per field, which make that value.
:func:`options_of` is the one way a call's value is made; :func:`with_option_keywords` gives the
front the signature ``help()`` and editors show (its fixed parameters, then every field as a keyword).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Opts:
...     alpha: float = 0.05
...     seed: int = 0
>>> options_of(Opts, None, {"alpha": 0.1}, what="run").alpha
0.1
>>> options_of(Opts, None, {"alhpa": 0.1}, what="run")
Traceback (most recent call last):
...
causalcheck.base.errors.InputFormatError: run: alhpa= is no setting (did you mean 'alpha'?); the settings are ['alpha', 'seed']
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from causalcheck.base.errors import InputFormatError, did_you_mean

__all__ = ["option_names", "options_of", "with_option_keywords"]

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def option_names(cls: type) -> tuple[str, ...]:
    """The settings of options class *cls*, in order: its fields."""
    return tuple(f.name for f in dataclasses.fields(cls))


def options_of(cls: type[T], options: T | None, keywords: Mapping[str, Any], *, what: str) -> T:
    """The options of one call of *what*: *options*, or the value its *keywords* make (not both).

    An unknown keyword, an *options* of another type, or both given, is an
    :class:`~causalcheck.base.errors.InputFormatError` naming it; the value's own checks run when it is made.
    """
    names = option_names(cls)
    unknown = sorted(set(keywords) - set(names))
    if unknown:
        hint = did_you_mean(unknown[0], names) if len(unknown) == 1 else ""
        raise InputFormatError(f"{what}: {', '.join(k + '=' for k in unknown)} is no setting{hint}; the settings are {list(names)!r}")
    if options is None:
        return cls(**keywords)
    if not isinstance(options, cls):
        raise InputFormatError(f"options={options!r} must be a {cls.__name__} value")
    if keywords:
        raise InputFormatError(f"{what}: give the settings either as options= or as keywords, not both (keywords {sorted(keywords)!r})")
    return options


def with_option_keywords(front: F, cls: type) -> F:
    """*front* (which takes ``**keywords``) with the signature that lists every field of *cls* as a keyword."""
    signature = inspect.signature(front)
    fixed = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    settings = [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default, annotation=f.type) for f in dataclasses.fields(cls)]
    front.__signature__ = signature.replace(parameters=[*fixed, *settings])  # type: ignore[attr-defined]
    return front
