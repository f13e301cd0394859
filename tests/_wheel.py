"""Building causalcheck's wheel from this checkout, for the slow tests that install or inspect it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def build_wheel(out_dir: Path) -> Path:
    """``pip wheel --no-deps`` of this checkout into *out_dir*; returns the wheel's path.

    The build runs in pip's isolated build environment (setuptools from the package registry, as
    ``pip install`` of the README does)."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out_dir), str(REPO)], check=True)
    (wheel,) = out_dir.glob("causalcheck-*.whl")
    return wheel
