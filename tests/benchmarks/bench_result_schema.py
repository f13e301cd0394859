"""Benchmark: decoding an explain result file — safejson + the dataclass schema vs msgspec.

Input (built, not timed): the bundled demo benchmark scored offline (``explain score
--benchmark demo --answers demo``: 3 answer models × 12 items), its 36 scored items repeated
under new ids into one result file of ``--items`` items (default 1,800, about 30 MB) — the
layout and the sizes of a real run.

Timed in the same run, best of ``--repeats``, each from the file's bytes to typed items:

* **ours** — :func:`causalcheck.base.safejson.loads` (the safe-input limits) then
  :func:`causalcheck.explain.result_schema.decode_file`; printed split into the two parts;
* **msgspec typed, no limits** — ``msgspec.json.decode(data, type=File)`` into
  ``msgspec.Struct`` types mirroring the schema (unknown keys are dropped, so this is not
  lossless, and none of safejson's limits holds);
* **msgspec with the limits** — ``msgspec.json.decode`` to Python values,
  :func:`causalcheck.base.safejson.check_value` (the same limits as safejson), then
  ``msgspec.convert`` into the Structs.

Printed: each time and the ratios to ours.  msgspec is optional (``pip install msgspec``);
without it only our figures are printed.  Also checked (not timed): ``encode_item`` of
every decoded item gives the item back.

Usage: python tests/benchmarks/bench_result_schema.py [--items N] [--repeats N] [--quick]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from causalcheck.base import safejson
from causalcheck.cli import main
from causalcheck.explain.result_schema import decode_file, encode_item


def build_file(root: Path, n_items: int) -> bytes:
    """A result file of *n_items* items, from the demo's scored items under new ids."""
    out = root / "scored"
    if main(["explain", "score", "--benchmark", "demo", "--answers", "demo", "--out", str(out),
             "--timestamp", "20260101-000000", "--quiet"]) != 0:  # fmt: skip
        raise SystemExit("explain score of the demo failed")
    files = sorted(out.glob("*_metrics_offline.json"))
    pool = [it for f in files for it in json.loads(f.read_text(encoding="utf-8"))["items"]]
    payload = json.loads(files[0].read_text(encoding="utf-8"))
    items = []
    for i in range(n_items):
        it = dict(pool[i % len(pool)])
        it["id"] = i + 1
        it["canonical_id"] = f"bench_{i:05d}_{it.get('canonical_id')}"
        items.append(it)
    payload["items"], payload["failures"] = items, []
    return (json.dumps(payload, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _best(fn: Callable[[], Any], repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


try:  # optional: only for the comparison
    import msgspec
except ImportError:  # pragma: no cover
    msgspec = None

if msgspec is not None:
    # msgspec Structs mirroring causalcheck.explain.result_schema (module level: msgspec
    # resolves the string annotations of ``from __future__ import annotations`` here)
    class Stats(msgspec.Struct):
        nodes: int = 0
        edges: int = 0
        causal_edges: int = 0
        longest_path: int = 0
        components: int = 0
        largest_component: int = 0

    class Additions(msgspec.Struct):
        pm_mode: str | None = None
        stats: Stats | None = None
        diagnostics: list[dict[str, Any]] | None = None
        failure_modes: list[str] | None = None
        degraded: bool | None = None
        degraded_reasons: list[str] | None = None
        warnings: list[str] | None = None
        premise_overlap: float | None = None
        edu_offsets: list[tuple[str, int | None, int | None]] | None = None

    class Metrics(msgspec.Struct):
        pm: dict[str, Any] = msgspec.field(default_factory=dict)
        rm: dict[str, Any] = msgspec.field(default_factory=dict)
        om: Any = None
        degraded: bool | None = None
        degraded_reasons: list[str] | None = None

    class Item(msgspec.Struct):
        id: int | str | None = None
        canonical_id: str | None = None
        question: str = ""
        domain: str = ""
        answer_type: str = ""
        human_answers: list[str] = msgspec.field(default_factory=list)
        is_counterfactual: bool | None = None
        original_question: str = ""
        subcategory: str = ""
        is_hybrid: bool = False
        rubrics: dict[str, Any] | None = None
        model_answer: str = ""
        pm_score: float | None = None
        rm_score: float | None = None
        om_score: float | None = None
        total_score: float | None = None
        parsed_rst_raw: str = ""
        parsed_rst: dict[str, Any] = msgspec.field(default_factory=dict)
        parsed_rst_source: str = ""
        parsed_rst_error: str | None = None
        parsed_dag: dict[str, Any] = msgspec.field(default_factory=dict)
        parsed_dag_source: str = ""
        parsed_dag_error: str | None = None
        metrics: Metrics = msgspec.field(default_factory=Metrics)
        causalcheck: Additions | None = None

    class File(msgspec.Struct):
        meta: dict[str, Any] = msgspec.field(default_factory=dict)
        state: dict[str, Any] = msgspec.field(default_factory=dict)
        summary: dict[str, Any] = msgspec.field(default_factory=dict)
        items: list[Item] = msgspec.field(default_factory=list)
        failures: list[dict[str, Any]] = msgspec.field(default_factory=list)


def run(n_items: int, repeats: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        data = build_file(Path(tmp), n_items)
    text = data.decode("utf-8")
    value = safejson.loads(text, source="bench")
    decoded = decode_file(value)
    assert not decoded.skipped and len(decoded.items) == n_items
    assert all(encode_item(it) == obj for it, obj in zip(decoded.items, value["items"], strict=True))
    t_loads = _best(lambda: safejson.loads(text, source="bench"), repeats)
    t_schema = _best(lambda: decode_file(value), repeats)
    t_ours = _best(lambda: decode_file(safejson.loads(data.decode("utf-8"), source="bench")), repeats)
    print(f"result file: {n_items} items, {len(data) / 1e6:.1f} MB; best of {repeats}")
    print(f"ours: safejson.loads + decode_file          {t_ours:8.3f} s  "
          f"(safejson.loads {t_loads:.3f} s, decode_file {t_schema:.3f} s)")  # fmt: skip
    if msgspec is None:
        print("msgspec is not installed: no comparison (pip install msgspec)")
        return

    t_typed = _best(lambda: msgspec.json.decode(data, type=File), repeats)

    def with_limits() -> Any:
        obj = msgspec.json.decode(data)
        safejson.check_value(obj, source="bench")
        return msgspec.convert(obj, File)

    with_limits()
    t_limits = _best(with_limits, repeats)
    print(f"msgspec typed, no limits                    {t_typed:8.3f} s  ratio to ours {t_typed / t_ours:.2f}")
    print(f"msgspec + safejson.check_value + convert    {t_limits:8.3f} s  ratio to ours {t_limits / t_ours:.2f}")


def _main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--items", type=int, default=1800)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--quick", action="store_true", help="300 items, 2 repeats")
    args = ap.parse_args()
    if args.quick:
        args.items, args.repeats = 300, 2
    run(args.items, args.repeats)


if __name__ == "__main__":
    _main()
