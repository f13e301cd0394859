"""``causalcheck sweep GRID.toml --out DIR``: run a suite x agent x seed x budget grid.

Each cell of the grid (docs/sweep.md; ``causalcheck data sweep-example`` prints the path of a commented example) is one
``lab run`` into its own folder under DIR; ``DIR/sweep.json`` lists the cells, their folders and
status.  ``--executor ray`` runs every cell's episodes as Ray tasks (a local cluster, or the one at
``--ray-address`` / ``$RAY_ADDRESS``) with the same files; ``--resume`` finishes an interrupted
sweep; ``--score`` also scores each cell (``lab score`` into ``<cell>/score``).

Exit codes: 0 every cell done, 1 some cell failed (named on stderr and in sweep.json), 2 the grid
file or an option is invalid (the message names the file, key and value), 130 interrupted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from causalcheck.base.cmdline import (
    add_documented_command,
    add_executor_arguments,
    executor_from_args,
    positive_int,
)

__all__ = ["register"]


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``sweep`` to the top-level *subparsers*."""
    p = add_documented_command(subparsers, "sweep", help="run a suite x agent x seed x budget grid (one lab run per cell)",
                               doc=__doc__)
    p.add_argument("grid", metavar="GRID.toml", help="the grid file (docs/sweep.md)")
    p.add_argument("--out", required=True, metavar="DIR", help="sweep folder: sweep.json and one folder per cell")
    p.add_argument("--workers", type=positive_int, default=1, metavar="K", help="parallel episodes (processes, or the CPUs of a local Ray cluster)")
    add_executor_arguments(p, what="episodes")
    p.add_argument("--resume", action="store_true", help="finish an interrupted sweep in DIR (the same grid)")
    p.add_argument("--score", action="store_true", help="also score each cell (lab score into <cell>/score)")
    p.add_argument("--quiet", action="store_true", help="no line per cell on stderr")
    p.set_defaults(handler=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Handler of ``causalcheck sweep``."""
    # late: keeps causalcheck --help light
    from causalcheck.sweep.grid import load_grid

    # late: keeps causalcheck --help light
    from causalcheck.sweep.run import progress_log, run_sweep

    grid = load_grid(args.grid)
    executor = executor_from_args(args)
    options = {"grid": args.grid, "out": args.out, "workers": args.workers, "resume": args.resume, "score": args.score}
    try:
        result = run_sweep(grid, args.out, executor=executor, workers=args.workers, resume=args.resume, score=args.score,
                           options=options, log=(lambda s: None) if args.quiet else progress_log)
    except KeyboardInterrupt as exc:  # the top level prints the note and exits 130 / 143
        raise type(exc)(_interrupted_note(Path(args.out))) from None
    finally:
        executor.close()
    for cell in result.failed:
        print(f"causalcheck: sweep: cell {cell['folder']} failed: {cell.get('error', cell.get('status'))}", file=sys.stderr)
    if result.failed:
        print(f"causalcheck: sweep: {len(result.failed)} of {len(result.cells)} cell(s) failed (see sweep.json); "
              "fix the cause and rerun with --resume", file=sys.stderr)
        return 1
    print(f"{len(result.cells)} cell(s) done in {args.out}")
    return 0


def _interrupted_note(out: Path) -> str:
    return f"the finished cells and episodes are in {out} (sweep.json); rerun with --resume (the same grid) to run the rest"
