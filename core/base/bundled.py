"""The data shipped inside the package, by name: what ``causalcheck data`` lists and prints.

Everything a user's command needs comes from the installed package, never from a folder beside
a checkout.  Two kinds of data are bundled:

* causalcheck's own small examples (the ``mini`` suite, the what-if demo set, the ``check``
  examples), written for this project;
* the official CausaLab release data (Apache-2.0, unchanged, with its license and a notice in
  ``causalcheck/data/causalab/``): the 19 released suites (950 SCMs) and the recorded sample run.

>>> sorted(BUNDLED)[:3]
['causalab-notice', 'causalab-suites', 'examples']
>>> bundled_path("sample-run").name
'seed_1'
>>> len(official_suite_files())
19
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from causalcheck.base.errors import InputFormatError

__all__ = [
    "BUNDLED",
    "CAUSALAB_DATA",
    "Bundled",
    "bundled_path",
    "data_root",
    "official_suite_files",
]

#: The official release's folder, relative to the package's ``data/`` folder (upstream's own paths).
CAUSALAB_DATA = "causalab"
_SUITES = "causalab/release/causalab_dataset/data"
_SAMPLE_RUN = (
    "causalab/examples/sample_runs/react_simple-mem/obs_Causal_gpt-5-mini/4nodes/"
    "20260223-2134_dsl_right/4nodes_0_53calls/seed_1"
)


@dataclass(frozen=True)
class Bundled:
    """One named piece of bundled data: its path inside ``causalcheck/data`` and what it is."""

    name: str
    relative: str
    description: str
    license: str


BUNDLED: dict[str, Bundled] = {
    b.name: b
    for b in (
        Bundled("causalab-suites", _SUITES, "the 19 official CausaLab suites (950 SCMs), `lab run --suite NAME`", "Apache-2.0 (CausaLab)"),
        Bundled("sample-run", _SAMPLE_RUN, "the official recorded run folder (gpt-5-mini, graph 4nodes_0, seed 1)", "Apache-2.0 (CausaLab)"),
        Bundled("causalab-notice", "causalab/NOTICE.md", "where the CausaLab data comes from and its license terms", "Apache-2.0 (CausaLab)"),
        Bundled("mini-suite", "suites/mini.jsonl", "causalcheck's small suite: 12 graphs of 3-5 nodes", "causalcheck's"),
        Bundled("whatif-demo", "whatif_demo.json", "the what-if demo items (`explain score demo`)", "causalcheck's"),
        Bundled("whatif-demo-answers", "whatif_demo_answers.jsonl", "answers to the demo items", "causalcheck's"),
        Bundled("examples", "examples", "the `check example:<name>` inputs", "causalcheck's"),
        Bundled("sweep-example", "examples/sweep.toml", "a commented sweep grid (`sweep GRID.toml`)", "causalcheck's"),
    )
}


def data_root() -> Path:
    """The package's ``data/`` folder (as a real path: the package is installed as files)."""
    return Path(str(resources.files("causalcheck") / "data"))


def bundled_path(name: str) -> Path:
    """The path of bundled data *name* (a key of :data:`BUNDLED`); a bad name or a damaged install is an InputFormatError."""
    entry = BUNDLED.get(name)
    if entry is None:
        raise InputFormatError(f"bundled data name={name!r} is not known; known: {', '.join(sorted(BUNDLED))}")
    path = data_root() / entry.relative
    if not path.exists():
        raise InputFormatError(f"bundled data {name!r} is missing from this installation ({path}): reinstall causalcheck")
    return path


def official_suite_files() -> list[Path]:
    """The official CausaLab suite files, sorted by name (empty only when the installation is damaged)."""
    folder = data_root() / _SUITES
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []
