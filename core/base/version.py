"""The version of causalcheck (``causalcheck.__version__``; the same as ``pyproject.toml``'s, a test keeps them equal).

It lives here, at the bottom of the layers, so that every module that records it (provenance,
reports, the command line) imports it without importing the package front door.

>>> __version__.count(".")
2
"""

from __future__ import annotations

__all__ = ["__version__"]

__version__ = "0.1.0"
