"""``causalcheck demo``: the main job on bundled data, offline, in one command.

It runs the three parts of causalcheck end to end on data shipped with the package:

1. **Lab** — the active planner and the random baseline on the bundled ``mini`` suite
   (``causalcheck lab run``), one trajectory per episode;
2. **Lab scoring** — per-step and final mechanism-recovery metrics with I-MEC sizes and the
   evidence audit (``causalcheck lab score``);
3. **Check** — the verifier on one planner trajectory and on the bundled example trajectory
   with format drift and fabricated evidence (``causalcheck check``);
4. **Explain** — the bundled WhatIfBench-format demo set scored with the offline parser and
   judges (``causalcheck explain score``).
5. **Report** — all of the above on one self-contained page, ``report.html`` (``causalcheck report``).

Each stage is the same code path as its own command — it is parsed and run by the very
command parsers ``causalcheck`` registered next to ``demo`` (so this module needs no import
of :mod:`causalcheck.cli`); rerunning the demo into the same folder resumes instead of
duplicating work.  The output folder is locked while the demo runs (a second demo into it
is refused, naming the holder), and every result file is written atomically by its stage.
No network and no API key are used.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from causalcheck.base.bundled import BUNDLED, bundled_path
from causalcheck.base.cmdline import plain_help
from causalcheck.base.files import RunLock

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    """Add ``causalcheck demo`` to the top-level subparsers *sub*.

    The stages are dispatched through ``sub.choices`` (command name → its parser) when the
    demo runs, i.e. through every command registered on *sub* by then.
    """
    p = sub.add_parser(
        "demo",
        help="run the main job on bundled data, offline (lab + scoring + check + explain)",
        description=plain_help(__doc__.split("\n\n")[0]) if __doc__ else None,
    )
    p.add_argument("--out", default="runs/demo", metavar="DIR", help="output folder (default runs/demo)")
    p.add_argument("--quiet", action="store_true", help="print only the final summary")
    p.set_defaults(handler=functools.partial(run, commands=sub.choices))


def register_data(sub: Any) -> None:
    """Add ``causalcheck data`` to the top-level subparsers *sub*: the bundled data by name."""
    p = sub.add_parser(
        "data",
        help="list the data shipped with causalcheck, or print the path of one (e.g. `data sample-run`)",
        description="Without NAME: every piece of bundled data with its license. With NAME: its path, for use in "
        "other commands, e.g. causalcheck lab score \"$(causalcheck data sample-run)\" --out runs/scores",
    )
    p.add_argument("name", nargs="?", metavar="NAME", help="bundled data name (see the list without NAME)")
    p.set_defaults(handler=run_data)


def run_data(args: argparse.Namespace) -> int:
    """``causalcheck data [NAME]``: list the bundled data, or print one path (exit 2 for an unknown name)."""
    if args.name:
        print(bundled_path(args.name))
        return 0
    for entry in BUNDLED.values():
        print(f"{entry.name}\t{entry.description}\t[{entry.license}]")
    return 0


def _stage(commands: Mapping[str, argparse.ArgumentParser], title: str, argv: Sequence[str], quiet: bool) -> int:
    print(f"\n== {title}: causalcheck {' '.join(argv)}", flush=True)
    args = commands[argv[0]].parse_args(list(argv[1:]))
    if quiet:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            code = int(args.handler(args) or 0)
    else:
        code = int(args.handler(args) or 0)
    print(f"-- {title}: exit {code}", flush=True)
    return code


def run(args: argparse.Namespace, *, commands: Mapping[str, argparse.ArgumentParser]) -> int:
    """Run every stage through *commands* (``causalcheck`` command name → its parser); exit 0
    when all of them ran (findings are results, not failures)."""
    with RunLock(args.out, command="causalcheck demo"):
        return _run_stages(args, commands)


def _run_stages(args: argparse.Namespace, commands: Mapping[str, argparse.ArgumentParser]) -> int:
    stage = functools.partial(_stage, commands)
    out = Path(args.out)
    quiet = bool(args.quiet)
    lab = out / "lab"
    codes: dict[str, int] = {}
    codes["lab run (planner)"] = stage(
        "lab run (planner)",
        ["lab", "run", "--suite", "mini", "--agent", "planner", "--seeds", "1", "--out", str(lab / "planner"), "--resume", "--quiet"],
        quiet,
    )
    codes["lab run (random)"] = stage(
        "lab run (random)",
        ["lab", "run", "--suite", "mini", "--agent", "random", "--seeds", "1", "--out", str(lab / "random"), "--resume", "--quiet"],
        quiet,
    )
    codes["lab score"] = stage(
        "lab score",
        ["lab", "score", str(lab / "planner"), str(lab / "random"), "--out", str(out / "lab-scores"), "--bootstrap", "200"],
        quiet,
    )
    trajectories = sorted((lab / "planner").rglob("*.jsonl"))
    trajectories = [t for t in trajectories if t.name != "summary.jsonl"]
    if trajectories:
        codes["check (planner trajectory)"] = stage(
            "check (planner trajectory)", ["check", str(trajectories[0])], quiet
        )
    codes["check (example with drift)"] = stage(
        "check (example with drift)", ["check", "example:trajectory"], quiet
    )
    codes["explain score"] = stage(
        "explain score",
        ["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(out / "explain"), "--timestamp", "20260101-000000"],
        quiet,
    )
    codes["report"] = stage(  # everything above on one page: plots, graph drawings, tables
        "report",
        ["report", str(out / "lab-scores" / "scores.json"), str(out / "explain"), "--check", "example:trajectory",
         "--bootstrap", "200", "--out", str(out / "report.html")],
        quiet,
    )
    print("\n== demo summary")
    failed = False
    for name, code in codes.items():
        # check: 1 = problems found in the checked hypotheses (a result); lab score: 1 = some
        # episodes could not be scored (a failure); everything else: non-zero = failure.
        ok = code == 0 or (name.startswith("check") and code == 1)
        failed |= not ok
        print(f"  {'ok ' if ok else 'FAIL'} {name} (exit {code})")
    print(f"  outputs in {out}/")
    print(f"  report: {out / 'report.html'}")
    return 2 if failed else 0

