"""The public name of :mod:`causalcheck.base.jsontext` (JSON in model text), which the README documents.

The same objects as :mod:`causalcheck.base.jsontext`; causalcheck's own code imports from there.
"""

from __future__ import annotations

from causalcheck.base.jsontext import *  # noqa: F403  (the public names, exactly those of __all__)
from causalcheck.base.jsontext import __all__ as __all__
