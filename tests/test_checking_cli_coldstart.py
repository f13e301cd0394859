"""``causalcheck check GRAPH --data ...`` dispatches the graph before the folder checker loads (cold start)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

#: Modules of the record path (the folder checker, the record parser, the episode readers): a
#: graph's validation needs none of them.
RECORD_PATH = ("causalcheck.checking.folder", "causalcheck.checking.api", "causalcheck.parsing", "causalcheck.episodes")


def _loaded_after(argv: list[str]) -> tuple[int, list[str]]:
    """The exit code of ``causalcheck *argv*`` run in a fresh interpreter and which of RECORD_PATH it loaded."""
    code = (
        "import json, sys\nfrom causalcheck.cli import main\n"
        f"rc = main({argv!r})\n"
        f"print(rc, json.dumps([m for m in {RECORD_PATH!r} if m in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    rc, loaded = out.stdout.strip().splitlines()[-1].split(" ", 1)
    return int(rc), json.loads(loaded)


def test_graph_with_data_loads_no_record_reader(tmp_path: Path) -> None:
    """``check g.txt --data d.csv`` validates the graph without importing the record path; a records file still uses it."""
    graph = tmp_path / "g.txt"
    graph.write_text("A -> B\nB -> C\n", encoding="utf-8")
    data = tmp_path / "d.csv"
    rows = [f"{i % 7},{(i % 7) * 2 + i % 3},{(i % 5) + ((i % 7) * 2 + i % 3)}" for i in range(60)]
    data.write_text("A,B,C\n" + "\n".join(rows) + "\n", encoding="utf-8")
    rc, loaded = _loaded_after(["check", str(graph), "--data", str(data), "--json"])
    assert rc in (0, 1) and loaded == []
    record = tmp_path / "r.json"
    record.write_text('{"hypothesis": {"edges": [{"from": "A", "to": "B"}], "freq_equation": "", "coefficients": {}}}',
                      encoding="utf-8")
    rc, loaded = _loaded_after(["check", str(record), "--json"])
    assert "causalcheck.checking.folder" in loaded  # the oracle: the same probe sees the record path when it is used
