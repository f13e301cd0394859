"""Differential of the lab environment against the original CausaLab environment.

For each of the 19 official suites, random intervention sequences (a seeded numpy
``Generator``: random controllable nodes, repeated nodes, target values that are half-way
decimals such as ``81.645``, negative, up to ±1e16 in magnitude, more interventions than the
budget) drive two environments from the same crystal state:

- ours: :class:`causalcheck.lab.episode.Episode` (shift interventions, the anchor's reactor
  ceiling ``freq_ceiling=10000`` and ``anchor_submissions=True``);
- the original: DiscoveryWorld's ``PropertyManipulator`` and ``CrystalReactor``, driven through
  their own dialog trees exactly as an agent's TALK actions reach them (``"Adjust <display
  name>"`` then the value; ``"Set frequency to a specific value"`` then the frequency), over
  the graph built by ``load_causal_graph_from_config`` and crystals filled by
  ``mkCrystalPropertiesCausal``.

Same state: the manipulator and reactor crystal bases of a case are integers in [0, 100]
drawn from the case's Generator (what the original's ``randint`` gives) or the suite's hard
presets; the original receives them as ``override_base_values`` (its own API), ours as the
record's ``quadratic_metadata`` presets (the suite format).  Same hidden draws: after each of
our interventions the original's crystal ``rng.choice`` returns the value our episode drew
(:attr:`Episode.hidden_value`).

Compared exactly (``==``) after every step: every observed value, whether the intervention
was accepted, the remaining budget, and the original's "Crystal Analysis" lines (values as
printed, their order, the ``Uses:`` line) against our observation text; per submission:
whether the reactor's check activated it.  Reported, not part of the verdict: whether the
original's next world ``tick`` — which truncates a reactor setting to ``int`` unless its
integer part is the target's, re-checks, and only then lets the task scorer look — would
deactivate the reactor again (causalab-spec §2.6: the effective window is [F−4, F+5) for an
integer F; our reactor checks ``|f − F| < 5`` once, with or without ``anchor_submissions``).

Not compared (deliberate differences, see the README): NaN / Infinity / ``true`` as values
(the original spends budget on them, we refuse them), and the random draws themselves
(ours are seeded numpy streams, the original's are Python's salted ``hash``).

Needs the original source (``CAUSALAB_SOURCE`` or ``--source``, a checkout of
CausaLab-Benchmark) and its pure-Python imports ``termcolor`` and ``pathfinding``; the only
stub is a two-method world object (a UUID generator and a no-op ``removeObject``), which the
values never touch.  Run: ``python tests/benchmarks/diff_original.py [--source DIR]
[--per-suite 30] [--seed 20260501]``; prints cases / identical and the first differences.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import importlib
import io
import json
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from causalcheck.lab.episode import Episode, EpisodeConfig, LabAction
from causalcheck.lab.suites import SuiteGraph, load_suite, official_data_dir, parse_suite_record

PER_SUITE = 30
SEED = 20260501
SUBMISSIONS = 3
CEILING = 10000.0


# ---------------------------------------------------------------------- the original
@dataclass
class Original:
    """The original's modules, imported from its source folder."""

    agent: ModuleType
    dialog: ModuleType
    objects: ModuleType
    reactor_lab: ModuleType
    uuid: ModuleType


def load_original(source: Path) -> Original:
    """Import the original environment's modules from *source* (its repository root)."""
    root = str(Path(source).resolve())
    if root not in sys.path:
        sys.path.insert(0, root)
    with contextlib.redirect_stdout(io.StringIO()):
        return Original(
            agent=importlib.import_module("discoveryworld.Agent"),
            dialog=importlib.import_module("discoveryworld.DialogTree"),
            objects=importlib.import_module("discoveryworld.objects"),
            reactor_lab=importlib.import_module("discoveryworld.scenarios.reactor_lab"),
            uuid=importlib.import_module("discoveryworld.UUIDGenerator"),
        )


class _World:
    """The two things the original's objects ask of a world when they are built and moved."""

    def __init__(self, uuid_module: ModuleType) -> None:
        self.uuidGenerator = uuid_module.UUIDGenerator(0)

    def removeObject(self, obj: object) -> None:  # the original's name
        return None


class _FedRng:
    """Stands in for the crystal's ``random.Random``: ``choice`` returns the draw it is fed."""

    def __init__(self) -> None:
        self.next: float | None = None

    def choice(self, seq: Sequence[Any]) -> Any:
        value = self.next
        self.next = None
        matches = [v for v in seq if float(v) == value]
        if not matches:
            raise AssertionError(f"fed hidden value={value!r} is not in value_space={list(seq)!r}")
        return matches[0]


class _Talker:
    name = "differential"


class OriginalLab:
    """One episode of the original environment, driven through its dialog trees."""

    def __init__(
        self,
        orig: Original,
        record: Mapping[str, Any],
        manipulator_bases: Mapping[str, Any],
        reactor_bases: Mapping[str, Any],
        budget: int,
    ) -> None:
        self.orig = orig
        self.talker = _Talker()
        with contextlib.redirect_stdout(io.StringIO()):
            import random

            world = _World(orig.uuid)
            rl = orig.reactor_lab
            self.graph = rl.load_causal_graph_from_config(copy.deepcopy(dict(record)), random.Random(0))
            self.crystal = rl.mkCrystalPropertiesCausal(
                orig.objects.QuantumCrystal(world), random.Random(1), self.graph, dict(manipulator_bases)
            )
            self.rng = _FedRng()
            self.crystal.rng = self.rng
            self.target_crystal = rl.mkCrystalPropertiesCausal(
                orig.objects.QuantumCrystal(world), random.Random(2), self.graph, dict(reactor_bases)
            )
            self.reactor = orig.agent.CrystalReactor(world)
            self.reactor.setReactorNum(1)
            self.reactor.attributes["resonanceFreq"] = 0.0
            self.reactor.attributes["maxSubmissions"] = SUBMISSIONS
            self.reactor.addObject(self.target_crystal)
            self.manipulator = orig.agent.PropertyManipulator(world)
            self.manipulator.attributes["causalGraph"] = self.graph
            self.manipulator.attributes["maxUses"] = budget
            self.manipulator.attributes["reactor"] = self.reactor
            orig.dialog.DialogMaker().mkDialogPropertyManipulator(self.manipulator)
            self.manipulator.addObject(self.crystal)
        self.prop = {n: self.graph.node_property_mapping.get(n, n) for n in self.graph.nodes}
        self.display = {n: self.graph.node_display_names.get(n, self.prop[n]) for n in self.graph.nodes}

    def values(self) -> dict[str, Any]:
        """The manipulator crystal's value of every node."""
        return {n: self.crystal.attributes[p] for n, p in self.prop.items()}

    @property
    def remaining(self) -> int:
        a = self.manipulator.attributes
        return int(a["maxUses"]) - int(a.get("usageCount", 0))

    def _say(self, tree: Any, thing: object) -> None:
        tree.say(thingToSay=thing, agentEngaging=self.talker)

    def intervene(self, node: str, value: float, hidden: float) -> bool:
        """Set *node* to *value* (the next hidden draw is *hidden*); True when the machine counted it."""
        used = self.manipulator.attributes.get("usageCount", 0)
        self.rng.next = hidden
        tree = self.manipulator.dialogTree
        with contextlib.redirect_stdout(io.StringIO()):
            tree.reset()
            self.manipulator.enteringDialogWith(self.talker)
            if tree.currentNodeName == "rootNode":
                self._say(tree, f"Adjust {self.display[node]}")
                self._say(tree, value)
            else:  # locked or spent: the dialog offers no adjustment; the machine refuses too
                self.manipulator.adjustProperty(self.prop[node], value, is_absolute=True)
            tree.endDialog()
        self.rng.next = None
        return bool(self.manipulator.attributes.get("usageCount", 0) != used)

    def status_lines(self) -> list[str]:
        """The value lines and the ``Uses:`` line of the manipulator's last "Crystal Analysis"."""
        msg = str(self.manipulator.attributes.get("statusMessage", ""))
        if not msg.startswith("Crystal Analysis:"):
            return []
        return [line for line in msg.splitlines()[1:] if "\u2500" not in line]

    def open_reactor(self) -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            self.reactor.enteringDialogWith(self.talker)

    def submit(self, freq: float) -> tuple[bool, bool]:
        """Submit *freq*; returns (activated now, still activated after the next tick's re-check)."""
        tree = self.reactor.dialogTree
        with contextlib.redirect_stdout(io.StringIO()):
            tree.reset()
            self._say(tree, "Set frequency to a specific value")
            self._say(tree, freq)
            tree.endDialog()
            now = bool(self.reactor.attributes["isActivated"])
            self.reactor.checkResonanceFreq()
            later = bool(self.reactor.attributes["isActivated"])
        return now, later

    @property
    def target(self) -> float:
        return float(self.target_crystal.attributes["resonanceFreq"])


# ---------------------------------------------------------------------- cases
@dataclass
class Case:
    """One random intervention sequence over one suite graph."""

    suite: str
    index: int
    graph: SuiteGraph
    manipulator: dict[str, Any]
    reactor: dict[str, Any]
    steps: list[tuple[str, float]]
    offsets: list[float]
    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.suite}#{self.index} ({self.graph.graph_id})"


def _value(rng: Any) -> float:
    """A target value: integer, 2-dp, half-way 3-dp (…5), negative, or of large magnitude."""
    kind = int(rng.integers(0, 6))
    if kind == 0:
        return float(rng.integers(-100, 201))
    if kind == 1:
        return float(f"{int(rng.integers(-300, 301))}.{int(rng.integers(0, 100)):02d}")
    if kind == 2:  # half-way inputs such as 81.645: round() sees the binary neighbour
        return float(f"{int(rng.integers(-300, 301))}.{int(rng.integers(0, 100)):02d}5")
    if kind == 3:
        return -float(f"{int(rng.integers(0, 10**4))}.{int(rng.integers(0, 1000)):03d}")
    if kind == 4:  # large magnitudes, up to 1e16
        sign = 1.0 if rng.integers(0, 2) else -1.0
        return sign * float(10 ** rng.uniform(5, 16)) + float(f"0.{int(rng.integers(0, 1000)):03d}")
    return float(f"{int(rng.integers(0, 10))}.{int(rng.integers(0, 10000)):04d}5")


#: Submission offsets from the target: hits, the ±5 Hz border, misses, below 0, above the ceiling.
_OFFSETS = (0.0, 4.99, -4.99, 4.6, -4.6, 5.0, -5.0, 5.01, 3.0, -0.3, 250.0, -1e6, 1e6)


def make_cases(suites: Sequence[str], per_suite: int = PER_SUITE, seed: int = SEED) -> list[Case]:
    """*per_suite* cases for each suite (seeded; the same on every machine)."""
    import numpy as np

    cases: list[Case] = []
    for s_index, name in enumerate(suites):
        suite = load_suite(name)
        rng = np.random.default_rng([seed, s_index])
        for k in range(per_suite):
            g = suite.graphs[int(rng.integers(0, len(suite.graphs)))]
            scm = g.scm
            meta = g.quadratic_metadata if isinstance(g.quadratic_metadata, Mapping) else {}
            if g.config.get("quadratic_mode") == "hard" and "property_manipulator" in meta and "reactor" in meta:
                man, rea = dict(meta["property_manipulator"]), dict(meta["reactor"])
            else:
                man = {n: int(rng.integers(0, 101)) for n in scm.controllable_names}
                rea = {n: int(rng.integers(0, 101)) for n in scm.controllable_names}
            ctrl = list(scm.controllable_names)
            steps: list[tuple[str, float]] = []
            for _ in range(int(rng.integers(1, g.budget + 3))):
                repeat = steps and rng.random() < 0.3
                node = steps[-1][0] if repeat else ctrl[int(rng.integers(0, len(ctrl)))]
                steps.append((node, _value(rng)))
            offsets = [float(_OFFSETS[int(i)]) for i in rng.integers(0, len(_OFFSETS), SUBMISSIONS + 1)]
            cases.append(Case(name, k, g, man, rea, steps, offsets))
    return cases


def _ours(case: Case) -> Episode:
    record = copy.deepcopy(dict(case.graph.config))
    meta = dict(record.get("quadratic_metadata") or {})
    meta["property_manipulator"] = case.manipulator
    meta["reactor"] = case.reactor
    record["quadratic_metadata"] = meta
    graph = parse_suite_record(record, where=case.name)
    config = EpisodeConfig(
        prior_records=0,
        interventions=case.graph.budget,
        submissions=SUBMISSIONS,
        freq_ceiling=CEILING,
        anchor_submissions=True,
    )
    return Episode(graph, config)


def _crystal_lines(text: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index("Crystal Analysis:") + 1
    out = []
    for line in lines[start:]:
        if "\u2500" in line:
            continue
        out.append(line)
        if line.strip().startswith("Uses:"):
            break
    return out


def run_case(orig: Original, case: Case) -> Case:
    """Drive both environments through *case*; fills ``case.differences`` and ``case.notes``."""
    ep = _ours(case)
    _, obs = ep.reset(0)
    lab = OriginalLab(orig, case.graph.config, case.manipulator, case.reactor, case.graph.budget)
    diff = case.differences

    def compare(where: str, ours: Mapping[str, float]) -> None:
        theirs = lab.values()
        for n in ours:
            if ours[n] != theirs[n]:
                diff.append(f"{where}: {n} ours={ours[n]!r} original={theirs[n]!r}")

    compare("initial state", obs.state)
    if ep.target_freq != lab.target:
        diff.append(f"reactor target ours={ep.target_freq!r} original={lab.target!r}")
    for k, (node, value) in enumerate(case.steps, 1):
        obs = ep.step(LabAction.intervene(node, value))
        accepted = bool(obs.response.get("accepted"))
        theirs_ok = lab.intervene(node, value, ep.hidden_value)
        where = f"step {k} set {node}={value!r}"
        if accepted != theirs_ok:
            diff.append(f"{where}: accepted ours={accepted} original={theirs_ok}")
        compare(where, obs.state)
        if obs.interventions_left != lab.remaining:
            diff.append(f"{where}: remaining ours={obs.interventions_left} original={lab.remaining}")
        if theirs_ok and lab.status_lines() != _crystal_lines(obs.text):
            diff.append(f"{where}: text ours={_crystal_lines(obs.text)!r} original={lab.status_lines()!r}")
    ep.step(LabAction("open_reactor"))
    lab.open_reactor()
    for k, off in enumerate(case.offsets, 1):
        if ep.done:
            break
        freq = round(ep.target_freq + off, 2)
        obs = ep.step(LabAction.submit(freq))
        now, later = lab.submit(freq)
        if obs.success != now:
            diff.append(f"submission {k} f={freq!r} (target {ep.target_freq!r}): activated ours={obs.success} original={now}")
        if now and not later:
            case.notes.append(f"submission {k} f={freq!r}: the original's next tick deactivates the reactor")
        if now:
            break
    if not ep.done:  # a locked machine refuses, in both
        node = case.graph.scm.controllable_names[0]
        obs = ep.step(LabAction.intervene(node, 1.0))
        if lab.intervene(node, 1.0, ep.hidden_value) or obs.response.get("accepted"):
            diff.append("after the reactor was opened: an intervention was accepted")
    return case


def official_suites() -> list[str]:
    """The official suite names (the files of the anchors' data folder), sorted."""
    data = official_data_dir()
    return [] if data is None else sorted(p.stem for p in data.glob("*.jsonl"))


def run(source: Path, per_suite: int = PER_SUITE, seed: int = SEED) -> list[Case]:
    """All cases of the differential, run."""
    orig = load_original(source)
    return [run_case(orig, c) for c in make_cases(official_suites(), per_suite, seed)]


def summary(cases: Sequence[Case], show: int = 10) -> str:
    """Cases / identical, then the first differences (and the reported-only notes)."""
    differing = [c for c in cases if c.differences]
    noted = [c for c in cases if c.notes]
    lines = [
        f"cases: {len(cases)}",
        f"identical: {len(cases) - len(differing)}",
        f"differing: {len(differing)}",
    ]
    for c in differing[:show]:
        lines.append(f"  {c.name}: " + "; ".join(c.differences[:3]))
    lines.append(f"reported only (the original's next tick deactivates the reactor): {len(noted)} cases")
    for c in noted[:show]:
        lines.append(f"  {c.name}: " + "; ".join(c.notes[:2]))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--source", default=os.environ.get("CAUSALAB_SOURCE"), help="the original's source folder")
    ap.add_argument("--per-suite", type=int, default=PER_SUITE)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--json", action="store_true", help="print every differing case as JSON lines too")
    args = ap.parse_args(argv)
    if not args.source or not Path(args.source, "discoveryworld").is_dir():
        print("the original source is needed: --source DIR or CAUSALAB_SOURCE=DIR", file=sys.stderr)
        return 2
    if not official_suites():
        print("the official suites are missing from this installation (reinstall causalcheck)", file=sys.stderr)
        return 2
    cases = run(Path(args.source), args.per_suite, args.seed)
    print(summary(cases, args.show))
    if args.json:
        for c in cases:
            if c.differences:
                print(json.dumps({"case": c.name, "differences": c.differences}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
