"""``causalcheck.jsontext``: Compatibility name, kept for users' scripts; the module is :mod:`causalcheck.base.jsontext` (former name kept).

The README documents ``causalcheck.jsontext`` as public, so its names are re-exported here: the
same objects (``causalcheck.jsontext.X is causalcheck.base.jsontext.X``).  causalcheck's own code imports from
:mod:`causalcheck.base.jsontext`.
"""

from __future__ import annotations

from causalcheck.base.jsontext import (
    MAX_CANDIDATES,
    MAX_OBJECT_STARTS,
    Candidate,
    balanced_objects,
    candidates,
    controller_object,
    first_object,
    iter_json_spans,
    iter_json_values,
    strip_think,
)

__all__ = [
    "MAX_CANDIDATES",
    "MAX_OBJECT_STARTS",
    "Candidate",
    "balanced_objects",
    "candidates",
    "controller_object",
    "first_object",
    "iter_json_spans",
    "iter_json_values",
    "strip_think",
]
