"""Calls into code that is not causalcheck's: a plug-in's failure is bad input, named, never a crash or an exit.

A plug-in (an agent, judge, parser or segmenter of :mod:`causalcheck.plugins`, or any object a user
hands the library in their place) is input to causalcheck like a file is: when it raises, returns
something its protocol does not allow, or calls ``sys.exit`` inside a step, the command stops with a
:class:`PluginError` (exit code 2) that names the plug-in, the call and what it did — not an internal
error (exit 70, reserved for causalcheck's own bugs) and not a silent exit 0 with no summary.
:func:`call_plugin` is that boundary; every pipeline calls plug-in methods through it.

* An object whose class is defined inside causalcheck is called directly: its failures are ours.
* :class:`~causalcheck.base.errors.CausalCheckError` passes through unchanged — protocols document
  it as the way to refuse an input (an answer parser's refusal makes the scorer fall back).
* ``KeyboardInterrupt`` passes through (Ctrl-C still stops a run); every other exception, including
  ``SystemExit`` and ``GeneratorExit``, becomes a :class:`PluginError` chained to the original.
* *returns* checks the value: a type the result must be an instance of, or ``(list, T)`` for a
  list (or tuple) of ``T``.

>>> class Rude:                     # a user's agent (doctest classes live in this module)
...     __module__ = "mypkg.agents"
...     def act(self, observation):
...         raise SystemExit(0)
>>> call_plugin("agent", Rude(), "act", None)
Traceback (most recent call last):
...
causalcheck.base.boundary.PluginError: agent mypkg.agents:Rude: act() raised SystemExit: 0 (a plug-in may not end the process)
>>> class Chatty:
...     __module__ = "mypkg.agents"
...     def act(self, observation):
...         return "go left"
>>> call_plugin("agent", Chatty(), "act", None, returns=int)
Traceback (most recent call last):
...
causalcheck.base.boundary.PluginError: agent mypkg.agents:Chatty: act() returned str 'go left'; expected int
"""

from __future__ import annotations

from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.shown import cut, shown

__all__ = ["PluginError", "call_plugin", "is_own", "plugin_label"]


class PluginError(InputFormatError):
    """A plug-in that cannot be found or loaded, does not satisfy its protocol, or failed in a call."""


def is_own(obj: object) -> bool:
    """True when *obj*'s class is defined in causalcheck (its failures are causalcheck's bugs)."""
    module = getattr(type(obj), "__module__", "") or ""
    return module == "causalcheck" or module.startswith("causalcheck.")


def plugin_label(obj: object) -> str:
    """``module:Class`` of *obj* (what a message calls the plug-in)."""
    cls = type(obj)
    return f"{getattr(cls, '__module__', '?')}:{getattr(cls, '__qualname__', cls.__name__)}"


def _type_name(expected: type | tuple[type, ...]) -> str:
    if isinstance(expected, tuple):
        return " or ".join(t.__name__ for t in expected)
    return expected.__name__


def _check_result(kind: str, obj: object, method: str, value: Any, returns: Any) -> None:
    where = f"{kind} {plugin_label(obj)}: {method}()"
    if isinstance(returns, tuple) and len(returns) == 2 and returns[0] is list:
        item = returns[1]
        if not isinstance(value, list | tuple):
            raise PluginError(f"{where} returned {type(value).__name__} {shown(value)}; expected a list of {_type_name(item)}")
        for k, v in enumerate(value):
            if not isinstance(v, item):
                raise PluginError(f"{where} returned a list whose item {k} is {type(v).__name__} {shown(v)}; expected {_type_name(item)}")
    elif not isinstance(value, returns):
        raise PluginError(f"{where} returned {type(value).__name__} {shown(value)}; expected {_type_name(returns)}")


def call_plugin(kind: str, obj: object, method: str, *args: Any, returns: Any = None) -> Any:
    """``obj.method(*args)`` across the plug-in boundary (module docstring); *returns* checks the result."""
    fn = getattr(obj, method)
    if is_own(obj):
        return fn(*args)
    try:
        value = fn(*args)
    except (CausalCheckError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # SystemExit too: a plug-in ends its call, not the process
        extra = " (a plug-in may not end the process)" if isinstance(exc, SystemExit) else ""
        raise PluginError(f"{kind} {plugin_label(obj)}: {method}() raised {type(exc).__name__}: {cut(str(exc), limit=300)}{extra}") from exc
    if returns is not None:
        _check_result(kind, obj, method, value, returns)
    return value
