"""The public name of :mod:`causalcheck.base.errors`, which the README documents: the same objects.

``causalcheck.errors.InputFormatError is causalcheck.base.errors.InputFormatError``; causalcheck's
own code imports from :mod:`causalcheck.base.errors`.
"""

from __future__ import annotations

from causalcheck.base.errors import *  # noqa: F403  (the public names, exactly those of __all__)
from causalcheck.base.errors import __all__ as __all__
