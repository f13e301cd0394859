"""``causalcheck snapshot``: regression snapshots of a scoring command that is not Python.

Two subcommands:

``causalcheck snapshot corpus KIND --out DIR [--size N] [--seed S] [--format F]``
    writes the seeded corpus as files, one folder per case (``DIR/<case id>/``) with the
    input as ``input.json`` and in the files a scorer reads (:data:`FILES`), plus
    ``DIR/corpus.json`` (the corpus spec and the case ids).  Graphs are written in
    ``--format`` (any format of :func:`causalcheck.graphs.write_graph`; default ``text``).
    ``DIR`` is locked while it is written (:class:`causalcheck.base.files.RunLock`): a second
    writer exits 2 naming the holder.

``causalcheck snapshot check SNAPSHOT --command 'CMD {truth} {estimate}' [--kind K] [--size N] [--seed S] [--format F] [--update] [--timeout T]``
    runs ``CMD`` once per case — the placeholders (``{truth}``, ``{estimate}``, ``{answer}``,
    ``{question}``, ``{coefficients}``, ``{config}``, ``{graph}``, ``{scores}``,
    ``{trajectory}``, ``{input}``, ``{dir}``) become the paths of that case's files; the
    command is split like a shell line (``shlex``) but run without a shell — and records
    its output: the standard output, read as JSON when it is strict JSON (no ``NaN`` or
    ``Infinity``: :mod:`causalcheck.base.safejson`), else as stripped text;
    a non-zero exit status is recorded as ``{"exit": code, "stderr": last line}``.  When
    SNAPSHOT does not exist the corpus comes from ``--kind/--size/--seed`` and the outputs
    are recorded; when it exists, the inputs stored in it are used and every changed output
    is printed with its input.  ``--update`` rewrites the snapshot and prints the count and, per
changed case, its id and a short diff (``graph-pairs-003: 2 → 1``).  Outputs compare as
numbers where they are numbers (``1`` equals ``1.0``), within ``--tolerance`` (stored in the
snapshot), and an unchanged case keeps its recorded output, so the file's diff shows only real
changes.  Outputs that are *all* errors (every run exited non-zero: a wrong command or
placeholder) are refused — exit 2, the first error shown, nothing written; some errors are
recorded and counted.

Exit codes: 0 recorded or unchanged (or updated with ``--update``); 1 outputs changed;
2 bad arguments or an unreadable snapshot — also one holding no case (``cases: []``: nothing
would be compared), two cases with one id (both positions are named) or an id too long to
name a folder (255 bytes), or a snapshot another ``snapshot check`` is recording or updating
(a lock beside the file, ``.<name>.lock``, is held from the read to the write); messages quote
long values cut to 80 characters and their length.  The snapshot file is the one
:func:`causalcheck.testing.snapshots` writes (``causalcheck-snapshot/1``), with the command
and format stored beside the corpus spec.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from causalcheck.base.cmdline import add_command_group, positive_int, require_finite_nonnegative
from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.base.files import RunLock, SiblingLock, atomic_write_json, atomic_write_text
from causalcheck.base.shown import shown
from causalcheck.testing.snapshots import KINDS as SNAPSHOT_KINDS
from causalcheck.testing.snapshots import (
    Case,
    Change,
    Corpus,
    corpus,
    count_errors,
    read_snapshot,
    same_output,
    write_snapshot,
)

__all__ = ["FILES", "register", "run_command", "write_case_files"]

#: kind -> the files written for one case (placeholder name -> file name; ``{ext}`` is the graph format's suffix).
FILES: dict[str, dict[str, str]] = {
    "graph-pairs": {"truth": "truth.{ext}", "estimate": "estimate.{ext}"},
    "causalab-pairs": {"truth": "truth.{ext}", "estimate": "estimate.{ext}"},
    "pdag-pairs": {"truth": "truth.{ext}", "estimate": "estimate.{ext}"},
    "coefficients": {"coefficients": "coefficients.json", "config": "config.json"},
    "explanations": {"graph": "graph.json", "scores": "scores.json"},
    "criterion-scores": {"scores": "scores.json"},
    "answers": {"question": "question.txt", "answer": "answer.txt"},
    "trajectories": {"trajectory": "trajectory.jsonl"},
}

#: Longest file or folder name most file systems take (bytes); a case id names a folder.
_MAX_NAME_BYTES = 255

_SUFFIX = {"text": "txt", "dagitty": "dagitty", "dot": "dot", "gml": "gml", "causallearn": "txt", "edgelist": "csv", "adjacency": "csv", "json": "json"}


def write_case_files(kind: str, data: Any, folder: Path, graph_format: str = "text") -> dict[str, Path]:
    """Write one case's files into *folder*; returns placeholder name -> path (``input`` and ``dir`` included).

    An input that does not have the shape of *kind* (a damaged snapshot) raises
    :class:`~causalcheck.base.errors.InputFormatError` showing it."""
    if graph_format not in _SUFFIX:
        raise InputFormatError(f"format={shown(graph_format)} must be one of {sorted(_SUFFIX)!r}")
    folder.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {"input": folder / "input.json", "dir": folder}
    try:
        _write_case_files(kind, data, paths, folder, graph_format)
    except CausalCheckError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:  # a damaged input of a stored snapshot
        why = f"a missing key {shown(exc.args[0]) if exc.args else exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
        raise InputFormatError(f"input={shown(data, limit=200)} is not a {kind!r} case ({why}); the files are {sorted(FILES[kind])!r}") from None
    return paths


def _write_case_files(kind: str, data: Any, paths: dict[str, Path], folder: Path, graph_format: str) -> None:
    atomic_write_json(paths["input"], data)
    names = {k: v.format(ext=_SUFFIX[graph_format]) for k, v in FILES[kind].items()}
    if kind in ("graph-pairs", "causalab-pairs", "pdag-pairs"):
        # late: keeps causalcheck --help light
        from causalcheck.graphs.io import write_graph

        # late: keeps causalcheck --help light
        from causalcheck.graphs.model import Graph

        for side in ("truth", "estimate"):
            raw = data[side]
            g = Graph.from_dict(raw) if isinstance(raw, Mapping) else Graph.from_directed([tuple(e) for e in raw], data.get("nodes", ()))
            paths[side] = folder / names[side]
            atomic_write_text(paths[side], write_graph(g, format=graph_format))
    elif kind == "trajectories":
        paths["trajectory"] = folder / names["trajectory"]
        atomic_write_text(paths["trajectory"], "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in data["lines"]))
    elif kind == "answers":
        for key in ("question", "answer"):
            paths[key] = folder / names[key]
            atomic_write_text(paths[key], data[key])
    else:
        for key, fname in names.items():
            paths[key] = folder / fname
            atomic_write_json(paths[key], data[key])


def run_command(command: str, paths: Mapping[str, Path], timeout: float) -> Any:
    """Run *command* with the placeholders filled in; its output as a JSON value (see the module docstring)."""
    try:
        argv = [part.format_map({k: str(v) for k, v in paths.items()}) for part in shlex.split(command)]
    except (KeyError, ValueError, IndexError) as exc:
        raise InputFormatError(f"command={shown(command)} has an unknown placeholder or bad quoting: {exc}") from None
    if not argv:
        raise InputFormatError("command='' must name a program")
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except FileNotFoundError:
        raise InputFormatError(f"command={shown(command)}: program {shown(argv[0])} not found") from None
    except subprocess.TimeoutExpired:
        return {"exit": "timeout", "stderr": f"no answer within {timeout:g} s"}
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return {"exit": done.returncode, "stderr": lines[-1] if lines else ""}
    out = done.stdout.strip()
    # late: keeps causalcheck --help light
    from causalcheck.base import safejson

    try:  # strict JSON only: an output with NaN, Infinity or deep nesting is kept as its text
        return safejson.loads(out, source="command output")
    except InputFormatError:  # not JSON, or JSON beyond safejson's limits
        return out


def _case_folder(root: Path, case_id: Any) -> Path:
    """The folder of one case under *root*: its id, which must be a plain name (a stored id cannot write elsewhere)."""
    if not isinstance(case_id, str) or case_id in ("", ".", "..") or any(c in case_id for c in "/\\\0"):
        raise InputFormatError(f"id={shown(case_id)} must be a non-empty name without '/', '\\' or NUL (it names the case's folder)")
    if len(case_id.encode("utf-8", "surrogatepass")) > _MAX_NAME_BYTES:
        raise InputFormatError(f"id={shown(case_id)} is longer than {_MAX_NAME_BYTES} bytes, the longest folder name (it names the case's folder)")
    return root / case_id


def _cmd_corpus(args: argparse.Namespace) -> int:
    c = corpus(args.kind, size=args.size, seed=args.seed)
    out = Path(args.out)
    if args.format not in _SUFFIX:  # before the lock makes the folder
        raise InputFormatError(f"format={shown(args.format)} must be one of {sorted(_SUFFIX)!r}")
    with RunLock(out, command="causalcheck snapshot corpus"):  # one writer per --out, as every command's
        return _write_corpus(c, out, args.format)


def _write_corpus(c: Corpus, out: Path, graph_format: str) -> int:
    for case in c.cases:
        write_case_files(c.kind, case.input, out / case.id, graph_format)
    atomic_write_json(out / "corpus.json", {**c.spec, "format": graph_format, "cases": [case.id for case in c.cases], "files": FILES[c.kind]})
    print(f"wrote {len(c.cases)} {c.kind} cases to {out}")
    return 0


def _tolerance_key(tolerance: float) -> dict[str, float]:
    return {"tolerance": tolerance} if tolerance else {}


def _errors_note(errors: int) -> str:
    return f" ({errors} of them errors: exit statuses)" if errors else ""


def _cmd_check(args: argparse.Namespace) -> int:
    """``snapshot check``: one writer per snapshot file while it may be written (recorded or updated).

    The lock (``.<name>.lock`` beside the file) is held from the read to the write, so two
    updates at once cannot lose one: the second is refused, exit 2, naming the first."""
    path = Path(args.snapshot)
    if path.exists() and not args.update:
        return _check(args)
    with SiblingLock(path, "causalcheck snapshot check", named=f"snapshot {str(path)!r}",
                     advice="wait for it to finish, then run the check again"):
        return _check(args)


def _check(args: argparse.Namespace) -> int:
    """Long because: record, compare and update are one pass over the cases with one set of rows."""
    timeout = require_finite_nonnegative("--timeout", args.timeout)  # argparse's float takes nan and inf
    path = Path(args.snapshot)
    tolerance = require_finite_nonnegative("--tolerance", args.tolerance) if args.tolerance is not None else 0.0
    if path.exists():
        data = read_snapshot(path)
        if args.tolerance is None:  # the tolerance recorded with the snapshot, unless given again
            stored = data.get("tolerance", 0.0)
            tolerance = float(stored) if isinstance(stored, (int, float)) and not isinstance(stored, bool) and 0 <= stored < float("inf") else 0.0
        spec = data["corpus"]
        kind = str(spec["kind"])
        if args.kind and args.kind != kind:
            raise InputFormatError(f"{path} holds a {kind!r} corpus, not kind={args.kind!r}; use another snapshot file")
        fmt = str(data.get("graph_format", args.format or "text"))
        cases = [Case(c["id"], c["input"]) for c in data["cases"]]
        old = {c["id"]: c["output"] for c in data["cases"]}
    else:
        if not args.kind:
            raise InputFormatError(f"{path} does not exist yet: pass --kind (and --size, --seed) to record it")
        made = corpus(args.kind, size=args.size, seed=args.seed)
        spec, kind, fmt, cases, old = made.spec, made.kind, args.format or "text", list(made.cases), {}
    rows, changes = [], []
    with tempfile.TemporaryDirectory(prefix="causalcheck-snapshot-") as tmp:
        for case in cases:
            try:
                paths = write_case_files(kind, case.input, _case_folder(Path(tmp), case.id), fmt)
            except InputFormatError as exc:
                raise InputFormatError(f"{path}: case {shown(case.id)}: {exc}") from None
            out = run_command(args.command, paths, timeout)
            if path.exists() and (case.id not in old or not same_output(old[case.id], out, tolerance)):
                changes.append(Change(case.id, case.input, old.get(case.id), out))
            elif path.exists():  # unchanged: the output stays as recorded (1 is not rewritten as 1.0)
                out = old[case.id]
            rows.append({"id": case.id, "input": case.input, "output": out})
    if not path.exists():
        errors = count_errors(path, args.command, rows)
        write_snapshot(path, args.command, spec, rows, command=args.command, graph_format=fmt, **_tolerance_key(tolerance))
        print(f"recorded {len(rows)} outputs of {args.command!r} in {path}" + _errors_note(errors))
        return 0
    if not changes:
        print(f"{path}: all {len(rows)} outputs unchanged")
        return 0
    if args.update:
        errors = count_errors(path, args.command, rows)
        write_snapshot(path, args.command, spec, rows, command=args.command, graph_format=fmt, **_tolerance_key(tolerance))
        print(f"{path}: snapshot updated, {len(changes)} of {len(rows)} outputs changed{_errors_note(errors)}:")
        for ch in changes:
            print(ch.short(tolerance))
        return 0
    for ch in changes:
        print(ch.describe())
    print(f"{path}: {len(changes)} of {len(rows)} outputs changed (review them; --update rewrites the snapshot)", file=sys.stderr)
    return 1


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``causalcheck snapshot`` (``corpus`` and ``check``) to the top-level parser."""
    p, sub = add_command_group(
        subparsers,
        "snapshot",
        help="regression snapshots of a scoring command: write a seeded corpus, record and diff its outputs",
        description="Write a seeded corpus as files, run a scoring command on every case and diff its outputs with a recorded snapshot.",
        metavar="SUBCOMMAND",
    )
    c = sub.add_parser("corpus", help="write a seeded corpus as files, one folder per case")
    c.add_argument("kind", choices=SNAPSHOT_KINDS)
    c.add_argument("--out", required=True, help="folder to write the cases into")
    c.add_argument("--size", type=positive_int, default=40, help="number of cases (default 40)")
    c.add_argument("--seed", type=int, default=0, help="corpus seed (default 0)")
    c.add_argument("--format", default="text", help="graph file format (default text)")
    c.set_defaults(handler=_cmd_corpus)
    k = sub.add_parser("check", help="run a scoring command on every case and diff its outputs with SNAPSHOT")
    k.add_argument("snapshot", help="the snapshot file (created when missing)")
    k.add_argument("--command", required=True, help="command line with placeholders, e.g. 'my-shd {truth} {estimate}'")
    k.add_argument("--kind", choices=SNAPSHOT_KINDS, help="corpus kind (needed to record a new snapshot)")
    k.add_argument("--size", type=positive_int, default=40, help="number of cases of a new snapshot (default 40)")
    k.add_argument("--seed", type=int, default=0, help="corpus seed of a new snapshot (default 0)")
    k.add_argument("--format", default=None, help="graph file format of a new snapshot (default text)")
    k.add_argument("--timeout", type=float, default=60.0, help="seconds per command run (default 60)")
    k.add_argument(
        "--tolerance", type=float, default=None,
        help="numbers within this (absolute and relative) compare equal (default: the snapshot's, else 0; 1 and 1.0 are always equal)",
    )
    k.add_argument("--update", action="store_true", help="rewrite the snapshot with the new outputs")
    k.set_defaults(handler=_cmd_check)
    return p
