"""Start-up cost: ``import causalcheck``, ``causalcheck --help`` and ``import causalcheck.inspect``.

Each command runs in a fresh interpreter (wall and CPU time), many times, interleaved with the same commands on a
*reference* checkout (``--before PATH``: another checkout of causalcheck, e.g. a ``git worktree``
of the commit before a change), which is laid out as the installed namespace in a temporary
link tree and put first on ``PYTHONPATH``.  Printed: the median wall time of each command, the
bare interpreter's (``python -c pass``), and after/before ratios of the time above the bare
interpreter.  Asserts nothing.

Run: ``python tests/benchmarks/bench_import.py [--before PATH] [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tomllib

COMMANDS = {
    "import causalcheck": ["-c", "import causalcheck"],
    "causalcheck --help": ["-m", "causalcheck", "--help"],
    "causalcheck lab run --help": ["-m", "causalcheck", "lab", "run", "--help"],
    # issue 23's row: a 5-node DAG and n = 2 000 rows (written by main() into a temporary folder)
    "check GRAPH --data CSV": ["-m", "causalcheck", "check", "{tmp}/g.dot", "--data", "{tmp}/d.csv"],
    # and its library form: the first causalcheck.check(graph, data=...) in a process (goal <= 0.5 s)
    "first causalcheck.check()": ["-c", "import causalcheck; causalcheck.check('{tmp}/g.dot', data='{tmp}/d.csv')"],
}


def link_tree(checkout: Path, into: Path) -> Path:
    """Lay *checkout* out as the installed ``causalcheck`` namespace (symlinks, as .ci/typecheck does)."""
    mapping: dict[str, str] = tomllib.loads((checkout / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    for package in sorted(mapping, key=lambda p: p.count(".")):
        source = checkout / mapping[package]
        target = into.joinpath(*package.split("."))
        target.mkdir(parents=True, exist_ok=True)
        for entry in sorted(source.iterdir()):
            if entry.name == "__pycache__" or (target / entry.name).exists() or f"{package}.{entry.name}" in mapping:
                continue
            os.symlink(entry, target / entry.name)
    return into


def medians_ms(args: list[str], envs: dict[str, dict[str, str]], runs: int) -> dict[str, float]:
    """Median wall time of ``python ARGS`` per environment, the environments interleaved run by run.

    Also, under ``"<label> cpu"``, the median CPU time (user + system) of the child: on a shared
    machine the wall time carries the other processes' load, the CPU time much less of it.
    """
    times: dict[str, list[float]] = {label: [] for label in envs}
    cpu: dict[str, list[float]] = {label: [] for label in envs}
    for env in envs.values():  # untimed: writes the bytecode caches, as installing a package does
        subprocess.run([sys.executable, *args], env=env, capture_output=True)
    for _ in range(runs):
        for label, env in envs.items():
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            done = subprocess.run([sys.executable, *args], env=env, capture_output=True)
            wall = time.perf_counter() - t0
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            ok = done.returncode in (0, 1)  # check exits 1 when it reports problems
            times[label].append(wall if ok else float("nan"))
            cpu[label].append((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime) if ok else float("nan"))
    out = {label: 1000 * statistics.median(ts) for label, ts in times.items()}
    out.update({f"{label} cpu": 1000 * statistics.median(ts) for label, ts in cpu.items()})
    return out


def _write_check_inputs(folder: Path) -> None:
    """A 5-node DOT DAG and 2 000 rows of its linear-Gaussian data (seeded) for ``check GRAPH --data``."""
    import numpy as np

    rng = np.random.default_rng(0)
    a = rng.normal(size=2000)
    b = a + rng.normal(size=2000)
    c = b + rng.normal(size=2000)
    d = a + rng.normal(size=2000)
    e = c + d + rng.normal(size=2000)
    rows = "".join(",".join(f"{v:.6f}" for v in r) + "\n" for r in zip(a, b, c, d, e, strict=True))
    (folder / "d.csv").write_text("A,B,C,D,E\n" + rows, encoding="utf-8")
    (folder / "g.dot").write_text("digraph { A -> B; B -> C; A -> D; C -> E; D -> E; }\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, help="a reference checkout to compare with")
    ap.add_argument("--runs", type=int, default=21)
    args = ap.parse_args()
    # both sides with bytecode caches (an installed package has them): PYTHONDONTWRITEBYTECODE would
    # make every run recompile every module, a cost no user pays after the first run
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    commands = dict(COMMANDS)
    try:
        import inspect_ai  # noqa: F401

        commands["import causalcheck.inspect"] = ["-c", "import causalcheck.inspect"]
    except ImportError:
        pass
    with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as data_dir:
        _write_check_inputs(Path(data_dir))
        commands = {name: [a.replace("{tmp}", data_dir) for a in cmd] for name, cmd in commands.items()}
        envs = {"after": env}
        if args.before is not None:
            envs["before"] = {**env, "PYTHONPATH": str(link_tree(args.before.resolve(), Path(tmp)))}
        bare = medians_ms(["-c", "pass"], {"after": env}, args.runs)["after"]
        print(f"python -c pass: {bare:.1f} ms (median of {args.runs})")
        for name, cmd in commands.items():
            row = medians_ms(cmd, envs, args.runs)  # nan: the reference has no such module
            line = f"{name:<28} " + "  ".join(f"{label} {ms:7.1f} ms" for label, ms in row.items())
            if "before" in row and row["before"] == row["before"]:
                ratio = (row["after"] - bare) / max(row["before"] - bare, 1e-9)
                line += f"  after/before (above bare python) {ratio:.2f}"
            print(line)


if __name__ == "__main__":
    main()
