"""Reading fields of decoded JSON that may be missing or of the wrong type, without branching.

The report reads files written by many versions of many tools; a field can be absent,
``null`` or of another type.  These helpers give the value when it has the expected shape
and an empty one otherwise, so a view never crashes on a file it does not fully understand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["field_list", "field_map"]


def field_map(obj: Any, key: str) -> Mapping[str, Any]:
    """``obj[key]`` when *obj* is a mapping and that value is one, else an empty mapping.

    >>> field_map({"meta": {"a": 1}}, "meta"), field_map({"meta": 3}, "meta"), field_map(None, "meta")
    ({'a': 1}, {}, {})
    """
    value = obj.get(key) if isinstance(obj, Mapping) else None
    return value if isinstance(value, Mapping) else {}


def field_list(obj: Any, key: str) -> list[Any]:
    """``obj[key]`` when *obj* is a mapping and that value is a list, else an empty list."""
    value = obj.get(key) if isinstance(obj, Mapping) else None
    return value if isinstance(value, list) else []
