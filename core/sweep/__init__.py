"""Sweeps: a suite x agent x seed x budget grid from one TOML file, one ``lab run`` folder per cell.

``causalcheck sweep GRID.toml --out DIR [--executor ray] [--resume] [--score]`` (docs/sweep.md).
The grid is read and checked by :mod:`causalcheck.sweep.grid`, run by :mod:`causalcheck.sweep.run`;
on ``--executor ray`` each cell's episodes are Ray tasks (:mod:`causalcheck.base.ray_executor`,
the only module that imports Ray).
"""

from __future__ import annotations

from causalcheck.sweep.grid import Budget, Cell, Grid, GridAgent, load_grid, parse_grid
from causalcheck.sweep.run import SWEEP_FORMAT, SweepResult, run_sweep

__all__ = ["SWEEP_FORMAT", "Budget", "Cell", "Grid", "GridAgent", "SweepResult", "load_grid", "parse_grid", "run_sweep"]
