"""The fuzz harness shared by ``properties/test_fuzz_*.py`` and ``tests/test_fuzz_*.py``.

Outside stress tests found whole classes of crashes, hangs and silent partial results by
damaging real inputs; this module makes that a test.  It has four parts:

* **Mutations** (hypothesis strategies, so every input is seeded, shrinks and is printed when
  it fails): :func:`mutated_bytes` damages bytes (flip, overwrite, insert, delete,
  duplicate, truncate, splice; invalid UTF-8, NUL, BOM, CRLF, ``\\ud83c`` escapes, huge
  numbers, deep nesting — :data:`TOKENS`); :func:`mutated_json` damages decoded JSON (a
  field replaced by junk of another type — :data:`JUNK` —, keys and elements removed or
  duplicated, containers emptied, values nested deep); :func:`mutated_lines` removes,
  duplicates, swaps and cuts lines; :func:`mutated_tree` applies one of them to one file of a
  folder (or removes it, or puts a folder in its place) and names what it damaged.
* **The time bound**: every call runs under :func:`time_limit` — ``SIGPROF`` after
  :data:`CALL_LIMIT` seconds of the process's CPU time (a busy hang) or ``SIGALRM`` after
  :data:`WALL_FACTOR` times as long on the clock (a blocked one) raises :class:`CallTimeout` (a
  ``BaseException``, so the ``except Exception`` of the code under test cannot swallow it), and
  ``faulthandler`` kills the process with every thread's traceback after :data:`HARD_LIMIT`
  seconds (a hang in C code, where no signal handler runs).  The CPU clock keeps a loaded
  machine, which slows a call without hanging it, from failing a case.  A hang is the failure;
  nothing asserts a speed.
* **The CLI runner**: :func:`run_cli` calls ``causalcheck.cli.main(argv)`` in-process with
  stdout / stderr captured as the console script has them (UTF-8, ``strict`` / ``backslashreplace``)
  and :func:`check_cli` asserts the contract: the exit code is one the command documents,
  never 70, no ``Traceback (most recent call last)`` anywhere in the output, and the damaged
  input (one of the suspects: the damaged file, or a file an option makes unreadable) is
  named in the output when the command rejects or skips it.
* **The runner**: :func:`fuzz` runs a property on a strategy under the fuzz settings —
  derandomised and seeded per target (``zlib.crc32`` of its id, and of :data:`FUZZ_SEED` when
  ``CAUSALCHECK_FUZZ_SEED`` is set: the same examples on every machine for the same seed), no
  deadline (the time bound above replaces it), the ``@reproduce_failure`` blob printed — with
  :data:`DEFAULT_EXAMPLES` examples in the default run and :data:`SLOW_EXAMPLES` under
  ``pytest -m fuzz`` (the full-strength run).  CI runs ``-m fuzz`` with a smaller count and a
  seed that changes with every commit, so each submission tries new inputs.  A failure prints
  the exact input and a replay recipe (:func:`replay_note`).

>>> from hypothesis import find
>>> find(mutated_bytes(st.just(b'{"a": 1}')), lambda b: b.startswith(b"\\xef\\xbb\\xbf"))[:3]
b'\\xef\\xbb\\xbf'
"""

from __future__ import annotations

import contextlib
import copy
import faulthandler
import io
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import warnings
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, note, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning

#: CPU seconds one call (a parser call, one in-process CLI run) may take; longer is a hang
CALL_LIMIT = 10.0
#: a call may take this many times CALL_LIMIT on the clock (waiting for a loaded machine's cores); longer is a blocked hang
WALL_FACTOR = 4
#: seconds after which the whole process is killed with every thread's traceback (a hang in C code)
HARD_LIMIT = 60.0
#: examples per target in the default run (``CAUSALCHECK_FUZZ_EXAMPLES`` overrides)
DEFAULT_EXAMPLES = int(os.environ.get("CAUSALCHECK_FUZZ_EXAMPLES", "20"))
#: examples per target of the full-strength run (``pytest -m fuzz`` with no override)
FULL_EXAMPLES = 10_000
#: examples per target under ``pytest -m fuzz`` (``CAUSALCHECK_FUZZ_SLOW_EXAMPLES`` overrides; fewer is a sample, as in CI)
SLOW_EXAMPLES = int(os.environ.get("CAUSALCHECK_FUZZ_SLOW_EXAMPLES", str(FULL_EXAMPLES)))
#: the run's seed (``CAUSALCHECK_FUZZ_SEED``; CI sets the commit): mixed into every target's seed, so
#: another value draws other examples and the same value replays them; empty = the fixed per-target seeds
FUZZ_SEED = os.environ.get("CAUSALCHECK_FUZZ_SEED", "")


def target_seed(target: str) -> int:
    """The hypothesis seed of *target*: ``crc32`` of its id, and of :data:`FUZZ_SEED` when one is set."""
    return zlib.crc32((f"{target}@{FUZZ_SEED}" if FUZZ_SEED else target).encode())
#: what must never appear in a command's output
TRACEBACK = "Traceback (most recent call last)"
#: the exit code of a bug in our code
EXIT_INTERNAL = 70

# --------------------------------------------------------------------------- mutations

#: byte strings a mutation inserts: the shapes that broke readers before
TOKENS: tuple[bytes, ...] = (
    b"\x00", b"\xef\xbb\xbf", b"\r\n", b"\r", b"\xff", b"\xfe\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
    b'"\\ud83c"', b"\\ud83c", b"\\udc00", b"9" * 400, b"-" + b"9" * 120, b"1e400", b"-1e400", b"1e-400", b"NaN",
    b"Infinity", b"-0", b"0.1e999999999", b"[" * 300, b"{" * 300, b'{"a":' * 150, b"]", b"}", b",", b":", b'"',
    b"\\", b"```", b"```json\n", b"<think>", b"</think>", b"null", b"true", b"[]", b"{}", b'""', b"->", b"<->",
    b"o-o", b"#", b"\n", b"\t", b" " * 500, b"EDU", b"EDU1-EDU99999999999", b"\n\n\n", b"\xe2\x80\xa8",
)  # fmt: skip

#: values a structure mutation puts in place of a field: every JSON type, the extremes, the shapes readers forget
JUNK: tuple[Any, ...] = (
    None, True, False, 0, -1, 1, 2.5, -0.0, 1e308, -1e308, 5e-324, 10**400, float("nan"), float("inf"), "", "x",
    " ", "\ud83c", "\x00", "9" * 400, "1e400", "NaN", "A -> B", "resonanceFreq", [], {}, [None], [1, "a"],
    {"from": 1}, {"": {}}, [[[[[]]]]],
)  # fmt: skip

_BYTE_OPS = ("flip", "overwrite", "insert-token", "insert-random", "delete", "duplicate", "truncate", "splice", "crlf", "bom", "repeat")


@st.composite
def mutated_bytes(draw: st.DrawFn, base: st.SearchStrategy[bytes], *, max_ops: int = 3) -> bytes:
    """*base*'s bytes damaged by 1..*max_ops* byte-level operations (:data:`TOKENS` among the insertions)."""
    data = bytearray(draw(base))
    for _ in range(draw(st.integers(1, max_ops))):
        op = draw(st.sampled_from(_BYTE_OPS))
        n = len(data)
        if op == "flip" and n:
            i = draw(st.integers(0, n - 1))
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "overwrite" and n:
            i = draw(st.integers(0, n - 1))
            data[i] = draw(st.integers(0, 255))
        elif op == "insert-token":
            i = draw(st.integers(0, n))
            data[i:i] = draw(st.sampled_from(TOKENS))
        elif op == "insert-random":
            i = draw(st.integers(0, n))
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif op in ("delete", "duplicate") and n:
            i = draw(st.integers(0, n - 1))
            j = draw(st.integers(i + 1, min(n, i + 1 + draw(st.sampled_from([1, 8, 64, 4096])))))
            if op == "delete":
                del data[i:j]
            else:
                data[j:j] = data[i:j]
        elif op == "truncate":
            del data[draw(st.integers(0, n)):]
        elif op == "splice":
            other = draw(base)
            i, k = draw(st.integers(0, n)), draw(st.integers(0, len(other)))
            data[i:] = other[k:]
        elif op == "crlf":
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
        elif op == "bom":
            data[0:0] = b"\xef\xbb\xbf"
        elif op == "repeat":
            data = data + data
    return bytes(data)


def _paths(value: Any, prefix: tuple[Any, ...] = (), out: list[tuple[Any, ...]] | None = None, limit: int = 4000) -> list[tuple[Any, ...]]:
    """Every path into *value* (dict keys, list indices; long lists: the first 6 and the last element)."""
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    out.append(prefix)
    if isinstance(value, dict):
        for k, v in value.items():
            _paths(v, (*prefix, k), out, limit)
    elif isinstance(value, list):
        idx = list(range(len(value)))
        for i in idx[:6] + idx[6:][-1:]:
            _paths(value[i], (*prefix, i), out, limit)
    return out


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        value = value[p]
    return value


def _deep(depth: int) -> Any:
    v: Any = []
    for _ in range(depth):
        v = [v]
    return v


_JSON_OPS = ("replace", "replace", "replace", "remove", "duplicate", "empty", "nest", "rename", "text")


@st.composite
def mutated_value(draw: st.DrawFn, value: Any, *, max_ops: int = 2) -> Any:
    """A deep copy of the decoded JSON *value* damaged by 1..*max_ops* structure-level operations."""
    v = json.loads(json.dumps(value))
    holder = [v]  # so the root itself can be replaced
    for _ in range(draw(st.integers(1, max_ops))):
        paths = [(0, *p) for p in _paths(holder[0])]
        path = draw(st.sampled_from(paths))
        parent, key = _at(holder, path[:-1]), path[-1]
        op = draw(st.sampled_from(_JSON_OPS))
        cur = parent[key]
        if op == "replace":
            parent[key] = copy.deepcopy(draw(st.sampled_from(JUNK)))  # a later operation must not change JUNK itself
        elif op == "text":
            parent[key] = draw(st.text(max_size=12))
        elif op == "remove" and len(path) > 1:
            del parent[key]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(key, json.loads(json.dumps(cur)))
        elif op == "duplicate" and isinstance(cur, list) and cur:
            cur.append(json.loads(json.dumps(cur[draw(st.integers(0, len(cur) - 1))])))
        elif op == "empty":
            parent[key] = type(cur)() if isinstance(cur, (list, dict, str)) else []
        elif op == "nest":
            parent[key] = [_deep(draw(st.sampled_from([50, 99, 101, 200]))), cur]
        elif op == "rename" and isinstance(parent, dict):
            del parent[key]
            parent[draw(st.sampled_from([key.upper(), f" {key}", key.replace("_", " "), "", key + "\ud83c"]))] = cur
    return holder[0]


def dumps(value: Any, *, indent: int | None = None, ascii: bool = True) -> str:
    """JSON text of a (mutated) value: ``NaN`` / ``Infinity`` and 400-digit integers as Python writes them."""
    return json.dumps(value, indent=indent, ensure_ascii=ascii)


@dataclass(frozen=True)
class Seed:
    """One real input: its file name, its bytes and how it is laid out (``json``, ``jsonl``, ``concat``, ``text``)."""

    name: str
    data: bytes
    layout: str = "text"

    @classmethod
    def from_file(cls, path: Path, layout: str | None = None, name: str | None = None) -> Seed:
        """A seed read from *path* (layout from the suffix when not given)."""
        lay = layout or {".json": "json", ".jsonl": "jsonl"}.get(path.suffix, "text")
        return cls(name or path.name, path.read_bytes(), lay)

    def values(self) -> list[Any]:
        """The JSON values of a ``json`` / ``jsonl`` / ``concat`` seed."""
        text = self.data.decode("utf-8")
        if self.layout == "json":
            return [json.loads(text)]
        if self.layout == "jsonl":
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        dec, out, i = json.JSONDecoder(), [], 0
        while True:
            while i < len(text) and text[i].isspace():
                i += 1
            if i >= len(text):
                return out
            obj, i = dec.raw_decode(text, i)
            out.append(obj)


@st.composite
def mutated_json(draw: st.DrawFn, seed_: Seed) -> bytes:
    """*seed_*'s values with one of them damaged at the structure level, written back in its layout."""
    values = seed_.values()
    k = draw(st.integers(0, len(values) - 1))
    values[k] = draw(mutated_value(values[k]))
    if draw(st.booleans()) and len(values) > 1:  # a whole value removed or duplicated (a step, an episode)
        j = draw(st.integers(0, len(values) - 1))
        values.insert(j, values[j]) if draw(st.booleans()) else values.pop(j)
    ascii = draw(st.booleans())
    if seed_.layout == "json":
        text = dumps(values[0] if values else None, indent=draw(st.sampled_from([None, 2])), ascii=ascii)
    elif seed_.layout == "jsonl":
        text = "".join(dumps(v, ascii=ascii) + "\n" for v in values)
    else:
        text = "".join(dumps(v, indent=2, ascii=ascii) + "\n" for v in values)
    return text.encode("utf-8", "surrogatepass")


@st.composite
def mutated_lines(draw: st.DrawFn, base: st.SearchStrategy[bytes]) -> bytes:
    """*base*'s lines with one removed, duplicated, swapped with another, cut in the middle, or a blank / junk line added."""
    lines = draw(base).split(b"\n")
    i = draw(st.integers(0, len(lines) - 1))
    op = draw(st.sampled_from(["remove", "duplicate", "swap", "cut", "blank", "junk"]))
    if op == "remove":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[i])
    elif op == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "cut":
        lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
    elif op == "blank":
        lines.insert(i, b"")
    else:
        lines.insert(i, draw(st.sampled_from([b"{}", b"[]", b"null", b"42", b'"x"', b"{", b'{"type": "step"}'])))
    return b"\n".join(lines)


def mutated(seeds: Sequence[Seed]) -> st.SearchStrategy[bytes]:
    """One of *seeds* damaged at the byte, structure or line level (structure only for JSON seeds)."""
    if not seeds:
        raise ValueError("mutated() needs at least one seed")
    raw = st.sampled_from([s.data for s in seeds])
    families = [mutated_bytes(raw), mutated_lines(raw)]
    json_seeds = [s for s in seeds if s.layout != "text"]
    if json_seeds:
        families.append(st.sampled_from(json_seeds).flatmap(mutated_json))
        families.append(st.sampled_from(json_seeds).flatmap(mutated_json))  # weighted: structure damage reaches deeper
    return st.one_of(*families)


def as_text(data: bytes) -> str:
    """Bytes as a reader of text sees them after decoding (invalid UTF-8 replaced: the str APIs get only str)."""
    return data.decode("utf-8", "replace")


def texts(seeds: Sequence[Seed], *generated: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """Text inputs for a str parser: mutated *seeds*, and *generated* strategies' texts as drawn and mutated."""
    parts: list[st.SearchStrategy[str]] = []
    if seeds:
        parts.append(mutated(seeds).map(as_text))
    for g in generated:
        parts.append(g)
        parts.append(mutated_bytes(g.map(lambda s: s.encode("utf-8", "surrogatepass"))).map(as_text))
    return st.one_of(*parts)


# --------------------------------------------------------------------------- files and folders

#: a mutation of a folder: the file replaced by a folder of the same name
DIRECTORY = "<directory>"
#: a mutation of a folder: the file removed
REMOVED = "<removed>"


@dataclass(frozen=True)
class Tree:
    """A folder's files (relative path -> bytes, or :data:`DIRECTORY` / :data:`REMOVED`) and the paths damaged."""

    files: Mapping[str, bytes | str]
    damaged: tuple[str, ...]

    def write(self, root: Path) -> Path:
        """Write the folder under *root* and return *root*."""
        for rel, data in self.files.items():
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            if data == DIRECTORY:
                p.mkdir(exist_ok=True)
            elif isinstance(data, bytes):
                p.write_bytes(data)
        return root


@st.composite
def mutated_tree(draw: st.DrawFn, files: Mapping[str, Seed], *, extra: Sequence[str] = ()) -> Tree:
    """*files* (relative path -> seed) with one file damaged (:func:`mutated`), removed, replaced by a folder,
    emptied or copied (an episode twice); *extra* names paths a junk file may be added at."""
    out: dict[str, bytes | str] = {rel: s.data for rel, s in files.items()}
    rel = draw(st.sampled_from(sorted(files)))
    op = draw(st.sampled_from(["mutate"] * 6 + ["remove", "directory", "empty", "copy", "junk"]))
    if op == "mutate":
        out[rel] = draw(mutated([files[rel]]))
    elif op == "remove":
        out[rel] = REMOVED
    elif op == "directory":
        out[rel] = DIRECTORY
    elif op == "empty":
        out[rel] = b""
    elif op == "copy":
        stem, dot, suffix = rel.rpartition(".")
        rel = f"{stem}-copy.{suffix}" if dot else rel + "-copy"
        out[rel] = files[draw(st.sampled_from(sorted(files)))].data
    else:
        rel = draw(st.sampled_from([*extra, "junk.json", "junk.jsonl"]))
        out[rel] = draw(mutated(list(files.values())))
    return Tree(out, (rel,))


@contextlib.contextmanager
def scratch(prefix: str = "fuzz-") -> Iterator[Path]:
    """A fresh folder for one example, removed afterwards (10 000 examples leave nothing behind)."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    finally:
        for p in [path, *path.rglob("*")]:  # an example may have made a file unreadable
            with contextlib.suppress(OSError):
                p.chmod(0o700 if p.is_dir() else 0o600)
        shutil.rmtree(path, ignore_errors=True)


# --------------------------------------------------------------------------- the time bound


class CallTimeout(BaseException):
    """A call ran longer than its limit (a ``BaseException``: the code under test cannot catch it as an error)."""


@contextlib.contextmanager
def time_limit(what: str, seconds: float = CALL_LIMIT) -> Iterator[None]:
    """Raise :class:`CallTimeout` naming *what* when the block uses more than *seconds* of CPU time
    or runs :data:`WALL_FACTOR` × *seconds* on the clock; kill the process with every thread's
    traceback after :data:`HARD_LIMIT` (a hang where no signal handler runs)."""
    wall = WALL_FACTOR * seconds

    def on_cpu(signum: int, frame: Any) -> None:
        raise CallTimeout(f"{what} used more than CALL_LIMIT={seconds} s of CPU time (a hang)")

    def on_wall(signum: int, frame: Any) -> None:
        raise CallTimeout(f"{what} ran longer than {wall:g} s on the clock (WALL_FACTOR × CALL_LIMIT: a blocked hang)")

    old_cpu, old_wall = signal.signal(signal.SIGPROF, on_cpu), signal.signal(signal.SIGALRM, on_wall)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, wall)
    faulthandler.dump_traceback_later(max(HARD_LIMIT, 1.5 * wall), exit=True, file=sys.__stderr__ or 2)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, old_cpu)
        signal.signal(signal.SIGALRM, old_wall)
        faulthandler.cancel_dump_traceback_later()


def bounded(fn: Callable[[Any], Any], what: str | None = None, seconds: float = CALL_LIMIT) -> Callable[[Any], Any]:
    """*fn* under :func:`time_limit`; a timeout becomes an ``AssertionError`` that shows the input."""
    name = what or getattr(fn, "__qualname__", repr(fn))

    def call(x: Any) -> Any:
        try:
            with time_limit(name, seconds):
                return fn(x)
        except CallTimeout as exc:
            raise AssertionError(f"{exc}\n  input: {x!r}") from None

    call.__qualname__ = call.__name__ = f"bounded({name})"
    return call


# --------------------------------------------------------------------------- the CLI contract


@dataclass(frozen=True)
class CliResult:
    """One in-process run of the command line."""

    argv: tuple[str, ...]
    code: int
    out: str
    err: str

    @property
    def output(self) -> str:
        """stdout and stderr together."""
        return self.out + "\n" + self.err


_PARSER: dict[str | None, Any] = {}


def _cached_parser(build: Callable[..., Any]) -> Callable[..., Any]:
    def cached(only: str | None = None) -> Any:  # one parser per command word (causalcheck.cli builds only the one given)
        if only not in _PARSER:
            _PARSER[only] = build(only=only)
        return _PARSER[only]

    return cached


def _stream(errors: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors=errors, newline="\n", write_through=True)


def run_cli(argv: Sequence[str], seconds: float = CALL_LIMIT) -> CliResult:
    """``causalcheck ARGV`` in-process under the time bound, with the console script's streams
    (UTF-8; stdout ``strict`` — a lone surrogate printed is a crash, as on a terminal —, stderr
    ``backslashreplace``); an argparse exit is its exit code."""
    import causalcheck.cli as cli

    out, err = _stream("strict"), _stream("backslashreplace")
    original = cli.build_parser
    cli.build_parser = _cached_parser(original)  # the same parser every call: ~10 ms saved per run, nothing else changes
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), time_limit("causalcheck " + " ".join(argv), seconds):
            try:
                code = cli.main(list(argv))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except CallTimeout as exc:
        raise AssertionError(str(exc)) from None
    finally:
        cli.build_parser = original
    out.flush()
    err.flush()
    return CliResult(tuple(argv), int(code), out.buffer.getvalue().decode("utf-8", "replace"), err.buffer.getvalue().decode("utf-8", "replace"))  # type: ignore[attr-defined]


def check_cli(
    result: CliResult, allowed: Sequence[int], *, damaged: Sequence[str] = (), named_on: Sequence[int] = (2,), outcomes: Sequence[str] = ()
) -> None:
    """The CLI contract: exit code in *allowed* and never 70, no traceback in the output, and one of
    *damaged* (the suspects: file names) named in the output when the exit code is in *named_on*
    (a command stops at the first input it cannot read, so it names that one) — unless the output
    holds one of *outcomes*, a documented result of read inputs (``explain score``'s "nothing could
    be scored", where every failed item is named instead)."""
    shown = f"  argv:   {' '.join(result.argv)}\n  exit:   {result.code}\n  stdout: {result.out[-2000:]!r}\n  stderr: {result.err[-2000:]!r}"
    assert result.code != EXIT_INTERNAL, f"exit 70 (a bug in causalcheck)\n{shown}"
    assert result.code in allowed, f"exit {result.code} is not among the documented {sorted(allowed)}\n{shown}"
    assert TRACEBACK not in result.output, f"a traceback in the output\n{shown}"
    assert_strict_json(result)
    if result.code in named_on and not _names_an_option(result) and not any(o in result.output for o in outcomes):
        named = [d for d in damaged if Path(d).name in result.output]
        assert named or not damaged, f"exit {result.code} names none of the damaged input(s) {list(damaged)}\n{shown}"


def assert_strict_json(result: CliResult) -> None:
    """A ``--json`` run that printed one JSON document printed strict JSON: no bare ``NaN`` / ``Infinity`` token."""
    if "--json" not in result.argv or not result.out.strip():
        return

    def refuse(token: str) -> None:
        raise AssertionError(f"the --json output holds the bare token {token} (not JSON)\n  argv: {' '.join(result.argv)}")

    with contextlib.suppress(ValueError):  # not one JSON document (a folder's lines, a message): nothing to scan
        json.loads(result.out, parse_constant=refuse)


def _names_an_option(result: CliResult) -> bool:
    """True when the output names one of the options given: the command refused an option, not an input."""
    flags = {a.split("=", 1)[0] for a in result.argv if a.startswith("--")}
    names = {f[2:].replace("-", "_") + "=" for f in flags}  # agent='nope', graphs=[...] name the option too
    given = [v for a, v in zip(result.argv, result.argv[1:], strict=False) if a.startswith("--") and not v.startswith("--")]
    values = {f"={v!r}" for v in given} | {f"={v.partition(':')[2]!r}" for v in given if ":" in v}  # budget tag='xoyi'; name='nope' of example:nope
    values |= {repr(part) for v in given for part in v.split(",") if len(part) >= 2}  # target(s) ['zz'] of --interventions zz
    return any(f in result.err for f in flags | names | values)


def replay_note(files: Mapping[str, bytes | str], argv: Sequence[str]) -> None:
    """Record (hypothesis ``note``) how to replay a failing example by hand: the files and the command."""
    lines = ["replay: in an empty folder run"]
    lines.append("  python - <<'EOF'\n  from pathlib import Path")
    for rel, data in files.items():
        if data == DIRECTORY:
            lines.append(f"  Path({rel!r}).mkdir(parents=True, exist_ok=True)")
        elif isinstance(data, bytes):
            lines.append(f"  Path({rel!r}).parent.mkdir(parents=True, exist_ok=True); Path({rel!r}).write_bytes({data!r})")
    lines.append("  EOF")
    lines.append("  causalcheck " + " ".join(argv))
    note("\n".join(lines))


# --------------------------------------------------------------------------- the runner


def fuzz_settings(max_examples: int) -> settings:
    """The fuzz profile: derandomised, no deadline (the time bound replaces it), no database, the replay blob printed."""
    return settings(
        max_examples=max_examples,
        derandomize=True,
        deadline=None,
        database=None,
        print_blob=True,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
    )


def fuzz(target: str, strategy: st.SearchStrategy[Any], prop: Callable[[Any], None], max_examples: int) -> None:
    """Run *prop* on *max_examples* examples of *strategy*, seeded by *target* (replay: rerun the test)."""

    def example(x: Any) -> None:
        prop(x)

    example.__name__ = example.__qualname__ = "fuzz_" + re.sub(r"\W+", "_", target).strip("_")
    run = seed(target_seed(target))(fuzz_settings(max_examples)(given(strategy)(example)))
    with warnings.catch_warnings():  # a damaged 60 kB file is a large repr: printed in full all the same
        warnings.filterwarnings("ignore", "Generating overly large repr", HypothesisWarning)
        run()


def examples(slow: bool, cost: int = 1) -> int:
    """The example count of a run (default or ``-m fuzz``) for a target whose examples cost *cost* times the usual.

    The full-strength run (:data:`SLOW_EXAMPLES` at least :data:`FULL_EXAMPLES`) and the default run
    give every target the same count.  A smaller ``-m fuzz`` sample (CI's 150) gives a costly target
    ``SLOW_EXAMPLES // cost``, never fewer than :data:`DEFAULT_EXAMPLES`: the sample then spends about
    as long on each target instead of most of its time on one (``report[result folder, md]`` writes a
    whole report with figures per example)."""
    if not slow:
        return DEFAULT_EXAMPLES
    if SLOW_EXAMPLES >= FULL_EXAMPLES or cost <= 1:
        return SLOW_EXAMPLES
    return max(min(DEFAULT_EXAMPLES, SLOW_EXAMPLES), SLOW_EXAMPLES // cost)


#: The two scales of a fuzz test, as a ``slow`` parameter: a few examples in the default run,
#: SLOW_EXAMPLES in the ``-m fuzz`` run (``@pytest.mark.parametrize("slow", SCALES)``).
SCALES = (pytest.param(False, id="few"), pytest.param(True, id="at-scale", marks=pytest.mark.fuzz))


def is_root() -> bool:
    """True when permissions do not stop this process (root reads a file of mode 000)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


# --------------------------------------------------------------------------- seeds: the real inputs

DATA = Path(__file__).resolve().parents[1] / "core" / "data"


def _lines(path: Path, n: int) -> bytes:
    return b"".join(path.read_bytes().splitlines(keepends=True)[:n])


def _concat(values: Sequence[Any]) -> bytes:
    return "".join(json.dumps(v, indent=2) + "\n" for v in values).encode("utf-8")


def bundled_seeds() -> dict[str, Seed]:
    """The bundled real inputs (``core/data``), sliced small enough for 10 000 runs."""
    ex = DATA / "examples"
    bench = json.loads((DATA / "whatif_demo.json").read_text(encoding="utf-8"))
    keep = [it["canonical_id"] for it in bench["items"][:2]]
    bench = {**bench, "meta": {**bench["meta"], "count": 2}, "items": bench["items"][:2]}
    answers = [
        line for line in (DATA / "whatif_demo_answers.jsonl").read_bytes().splitlines(keepends=True)
        if json.loads(line)["id"] in keep and json.loads(line).get("model") in ("demo-strong", "demo-weak")
    ]  # fmt: skip
    return {
        "record.txt": Seed.from_file(ex / "record.txt"),
        "trajectory.jsonl": Seed.from_file(ex / "trajectory.jsonl"),
        "hypothesis.txt": Seed.from_file(ex / "hypothesis.txt"),
        "cyclic.txt": Seed.from_file(ex / "cyclic.txt"),
        "mini.jsonl": Seed("mini.jsonl", _lines(DATA / "suites" / "mini.jsonl", 2), "jsonl"),
        "benchmark.json": Seed("benchmark.json", json.dumps(bench, indent=1).encode("utf-8"), "json"),
        "answers.jsonl": Seed("answers.jsonl", b"".join(answers), "jsonl"),
    }


def official_run_seeds(sample_run: Path, steps: int = 2) -> dict[str, Seed]:
    """The official sample run folder's files, ``raw_io`` and tracking cut to the first *steps* steps."""
    from causalcheck.episodes import read_json_values

    tracking = next(sample_run.glob("*_tracking*.jsonl"))
    return {
        "graph_config.json": Seed.from_file(sample_run / "graph_config.json"),
        "raw_io.jsonl": Seed("raw_io.jsonl", _concat(read_json_values(sample_run / "raw_io.jsonl")[:steps]), "concat"),
        tracking.name: Seed(tracking.name, _concat(read_json_values(tracking)[:steps]), "concat"),
        "source_config.json": Seed.from_file(sample_run / "source_config.json"),
        next(sample_run.glob("*_complete.txt")).name: Seed.from_file(next(sample_run.glob("*_complete.txt"))),
    }


def official_suite_seeds(data_dir: Path, names: Sequence[str] = ("4nodes", "4nodes_quad_hard", "4nodes_hidden_n1", "6nodes_freqparent", "4nodes_golden")) -> list[Seed]:
    """The first record of some official suite files (linear, quadratic, hidden, FreqParent, golden)."""
    return [Seed(f"{n}.jsonl", _lines(data_dir / f"{n}.jsonl", 1), "jsonl") for n in names if (data_dir / f"{n}.jsonl").exists()]


def result_slice(path: Path, items: int = 2) -> Seed:
    """An explain result file cut to its first *items* items (summary and failures kept as recorded)."""
    obj = json.loads(path.read_text(encoding="utf-8"))
    obj["items"] = obj.get("items", [])[:items]
    return Seed(path.name, json.dumps(obj, indent=1).encode("utf-8"), "json")


@dataclass(frozen=True)
class Outputs:
    """What causalcheck itself writes, made once per session from bundled data: the seeds of the commands
    that read causalcheck's own outputs (``lab score``, ``report``, ``explain replay`` / ``agree``, ``snapshot check``)."""

    root: Path
    trajectory: Seed
    scores: Seed
    result: Seed
    check_report: Seed
    snapshot: Seed


@dataclass(frozen=True)
class Ctx:
    """What a fuzz row's strategy is built from: the bundled seeds, causalcheck's outputs, the anchors' seeds."""

    seeds: dict[str, Seed]
    outputs: Outputs
    anchors: dict[str, Any]


def make_ctx(anchor_fixtures: Sequence[str], fixture: Callable[[str], Any], outputs: Outputs) -> Ctx:
    """The :class:`Ctx` of a row that reads the anchor fixtures *anchor_fixtures*.

    *fixture* gives a fixture's value by name (``request.getfixturevalue``: it skips the test
    cleanly when the anchors are absent); each anchor is kept under its fixture name and, for
    the ones rows draw from, its seeds: ``run`` (the sample run's files), ``result``,
    ``benchmark`` (explain files cut small) and ``suites`` (official suite records).
    """
    anchors: dict[str, Any] = {}
    for name in anchor_fixtures:
        path = Path(fixture(name))
        anchors[name] = path
        if name == "sample_run":
            anchors["run"] = official_run_seeds(path)
        elif name == "whatif_result":
            anchors["result"] = result_slice(path)
        elif name == "whatif_benchmark":
            anchors["benchmark"] = result_slice(path)
        elif name == "causalab_data":
            anchors["suites"] = official_suite_seeds(path)
        elif name == "inspect_logs":
            anchors["logs"] = [Seed.from_file(path / "whatif.eval", "zip"), Seed.from_file(path / "whatif.json")]
    return Ctx(bundled_seeds(), outputs, anchors)


def make_inspect_logs(root: Path) -> Path:
    """Write ``whatif.eval`` and ``whatif.json`` into *root*: inspect's mock model answering three demo questions
    of the causalcheck/whatif task with the demo's strong answers (no network; about 3 s)."""
    from causalcheck.explain.data import load_answers
    from causalcheck.inspect import whatif
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import ModelOutput, ModelUsage, get_model

    strong = load_answers("demo", model="demo-strong")

    def respond(messages: Any, tools: Any, tool_choice: Any, config: Any) -> ModelOutput:
        text = next((a.text for a in strong.answers.values() if a.text), "")
        out = ModelOutput.from_content(model="mockllm/model", content=text)
        out.usage = ModelUsage(input_tokens=10, output_tokens=10, total_tokens=20)  # set: no tokenizer download
        return out

    model = get_model("mockllm/model", custom_outputs=respond)
    for fmt in ("eval", "json"):
        [log] = inspect_eval(whatif(), model=model, log_dir=str(root / fmt), display="none", limit=3, log_format=fmt)
        assert log.status == "success" and log.location, log.error
        Path(log.location).replace(root / f"whatif.{fmt}")
    return root


@st.composite
def mutated_zip(draw: st.DrawFn, seed: Seed) -> bytes:
    """A zip *seed* (an inspect ``.eval`` log) damaged: its bytes as a whole, or one JSON member's content (re-zipped,
    so the damage reaches the reader behind the zip), or a member removed or made huge when inflated."""
    import zipfile

    with zipfile.ZipFile(io.BytesIO(seed.data)) as z:
        members = {i.filename: z.read(i) for i in z.infolist()}
    how = draw(st.sampled_from(["bytes", "member", "member", "drop", "inflate"]))
    if how == "bytes":
        return draw(mutated_bytes(st.just(seed.data)))
    name = draw(st.sampled_from(sorted(members)))
    if how == "drop":
        del members[name]
    elif how == "inflate":
        members[name] = members[name][:1] + b" " * draw(st.sampled_from([10**6, 3 * 10**7]))
    else:
        layout = "json" if name.endswith(".json") else "text"
        members[name] = draw(mutated([Seed(name, members[name], layout)]))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in members.items():
            z.writestr(n, data)
    return buf.getvalue()


def make_outputs(root: Path) -> Outputs:
    """Run the commands that make :class:`Outputs` into *root* (about 5 s)."""
    seeds = bundled_seeds()
    (root / "benchmark.json").write_bytes(seeds["benchmark.json"].data)
    (root / "answers.jsonl").write_bytes(seeds["answers.jsonl"].data)
    steps = [
        ["lab", "run", "--suite", "mini", "--agent", "planner", "--limit", "1", "--out", str(root / "lab"), "--quiet"],
        ["lab", "score", str(root / "lab"), "--out", str(root / "scores"), "--bootstrap", "0", "--format", "json"],
        ["explain", "score", "--benchmark", str(root / "benchmark.json"), "--answers", str(root / "answers.jsonl"),
         "--model", "demo-strong", "--out", str(root / "explain"), "--quiet", "--timestamp", "20260101-000000"],
        ["snapshot", "check", str(root / "snapshot.json"), "--kind", "graph-pairs", "--size", "3", "--command", "cat {truth}"],
    ]  # fmt: skip
    for argv in steps:
        res = run_cli(argv, seconds=120)
        assert res.code == 0, res
    check = run_cli(["check", "--json", "example:trajectory"])
    assert check.code == 1, check
    (root / "check.json").write_text(check.out, encoding="utf-8")
    (traj,) = (root / "lab" / "episodes").glob("*.jsonl")
    return Outputs(
        root,
        Seed.from_file(traj, "jsonl", name="episode.jsonl"),
        Seed.from_file(root / "scores" / "scores.json"),
        result_slice(root / "explain" / "demo-strong_metrics_offline.json"),
        Seed.from_file(root / "check.json"),
        Seed.from_file(root / "snapshot.json"),
    )
