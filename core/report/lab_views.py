"""Lab views: agents side by side, recovery over the interaction steps, episodes drawn.

Built from ``lab score`` outputs (``scores.json``, :mod:`causalcheck.lab.score`):

* **per agent × suite** — task accuracy, edge / parent / coefficient F1, SHD, I-MEC size,
  formula error and unused interventions: means with percentile bootstrap 95% intervals
  (:func:`causalcheck.metrics.bootstrap_ci`, seeded);
* **recovery curves** — edge, parent and coefficient F1, SHD and I-MEC size per step, one
  line per agent, pooled over that agent's episodes with the lab scorer's convention (an
  episode that ended contributes its last values), with the number of episodes still
  running at each step;
* **task accuracy vs all-edge F1** — the published headline view: one point per agent and
  suite, with both intervals as whiskers;
* **budget** — unused interventions and submissions, premature stops (audit finding
  ``premature-stop``: failed with budget left) and ``budget-unused``;
* **episodes** — for a bounded selection per agent (:func:`select_episodes`: the lowest,
  median and highest final edge F1, and the episode with the most audit errors), the true
  graph beside the hypothesis at its first, middle and last hypothesis *change*, every
  edge marked correct / missing / extra / reversed (:func:`edge_status`, the same counts
  as the scorer's SHD), the evidence-audit findings and the interventions made.  Every
  other episode is a row of the episode table (final metrics only).

**Agent and model of an episode**: the episode's own ``agent`` / ``model`` fields when
``scores.json`` has them; else the ``agent`` (and ``model``) of the header line of its
source trajectory; else, for an official CausaLab run folder, the folder named
``<mode>_Causal_<model>`` gives the model and its parent folder the agent (e.g.
``react_simple-mem/obs_Causal_gpt-5-mini``); else ``unknown``.  Episodes group by
``agent`` + ``model``.

One module because every lab section of the report (agents side by side, curves, episodes drawn)
reads the same ``LabEpisode`` rows built here, and the sections are only rendered together.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from causalcheck.base import safejson
from causalcheck.base.errors import CausalCheckError
from causalcheck.episodes import (
    SCORE_NUMBERING,
    discover_episodes,
    load_episode,
    nonempty_hypothesis,
)
from causalcheck.graph import normalize_node
from causalcheck.metrics import MIN_BOOTSTRAP_N, bootstrap_ci, normalize_pairs
from causalcheck.report.document import FigureBlock, Section, Table, Text
from causalcheck.report.fields import field_list
from causalcheck.report.figures import (
    BarChart,
    DrawnEdge,
    GraphFigure,
    LineChart,
    ScatterChart,
    ScatterPoint,
    Series,
)
from causalcheck.report.layout import graph_panel, label_of, place
from causalcheck.report.text import counted

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.episodes import EpisodeRecord

__all__ = [
    "DEFAULT_EPISODES_PER_AGENT",
    "LabEpisode",
    "agent_of",
    "edge_status",
    "lab_episodes",
    "lab_sections",
    "locate",
    "running",
    "select_episodes",
]

#: Episodes drawn per agent (the others are summarised in the episode table).
DEFAULT_EPISODES_PER_AGENT = 4
#: Rows of the all-episodes table (beyond it, a note says how many were left out).
MAX_EPISODE_ROWS = 2000
_FREQ = "resonanceFreq"
_OFFICIAL = re.compile(r"^[A-Za-z0-9]+_Causal_(?P<model>.+)$")


@dataclass(frozen=True)
class LabEpisode:
    """One scored episode of a ``scores.json`` with its resolved agent and model."""

    data: Mapping[str, Any]
    agent: str
    model: str | None
    origin: str  # the scores input it came from

    @property
    def group(self) -> str:
        return self.agent if not self.model else f"{self.agent} ({self.model})"

    @property
    def final(self) -> Mapping[str, Any]:
        f = self.data.get("final")
        return f if isinstance(f, Mapping) else {}

    @property
    def steps(self) -> Sequence[Mapping[str, Any]]:
        s = self.data.get("steps")
        return [r for r in s if isinstance(r, Mapping)] if isinstance(s, list) else []

    @property
    def suite(self) -> str:
        return str(self.data.get("suite") or "?")

    @property
    def name(self) -> str:
        return f"{self.data.get('graph_id') or self.data.get('experiment_id') or '?'} seed {self.data.get('seed', '?')}"


def _header(path: Path) -> Mapping[str, Any] | None:
    """The header line of one of our trajectory files (first line), or None."""
    try:
        with path.open("r", encoding="utf-8") as fh:
            line = fh.readline(1 << 20)
        obj = safejson.loads(line, source=str(path))  # a lone surrogate in a header's agent name is refused here
    except (OSError, UnicodeDecodeError, CausalCheckError):
        return None
    return obj if isinstance(obj, dict) and obj.get("type") == "header" else None


def locate(source: str, origin: str = "") -> Path:
    """The episode source *source* as a path: as written, else relative to the folders above *origin*.

    ``lab score`` records sources as it was given them; a relative source is relative to the
    folder it ran in, which is usually an ancestor of the scores file's folder.
    """
    path = Path(source)
    if path.is_absolute() or path.exists() or not origin:
        return path
    for folder in Path(origin).resolve().parents:
        if (folder / path).exists():
            return folder / path
    return path


def agent_of(episode: Mapping[str, Any], origin: str = "") -> tuple[str, str | None]:
    """``(agent, model)`` of a ``scores.json`` episode (module docstring for the order of sources).

    >>> agent_of({"agent": "llm", "model": "openai/gpt-4o"})
    ('llm', 'openai/gpt-4o')
    >>> agent_of({"source": "runs/react_simple-mem/obs_Causal_gpt-5-mini/4nodes/t/4nodes_0/seed_1"})
    ('react_simple-mem', 'gpt-5-mini')
    >>> agent_of({})
    ('unknown', None)
    """
    agent, model = episode.get("agent"), episode.get("model")
    if isinstance(agent, str) and agent:
        return agent, model if isinstance(model, str) and model else None
    source = str(episode.get("source") or "")
    if source:
        path = locate(source, origin)
        if path.is_file():
            head = _header(path)
            if head is not None and isinstance(head.get("agent"), str):
                m = head.get("model")
                return str(head["agent"]), m if isinstance(m, str) and m else None
        parts = path.parts
        for i in range(len(parts) - 1, -1, -1):
            hit = _OFFICIAL.match(parts[i])
            if hit:
                return (parts[i - 1] if i > 0 else "unknown"), hit.group("model")
    return "unknown", None


def lab_episodes(inputs: Iterable[tuple[str, Mapping[str, Any]]]) -> list[LabEpisode]:
    """Every episode of the ``(path, scores.json)`` inputs, with agent and model resolved."""
    out: list[LabEpisode] = []
    for origin, data in inputs:
        for ep in field_list(data, "episodes"):
            if isinstance(ep, Mapping):
                agent, model = agent_of(ep, origin)
                out.append(LabEpisode(ep, agent, model, origin))
    return out


# ------------------------------------------------------------------------------ tables


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _ci_text(values: Sequence[float | None], resamples: int, seed: int, digits: int = 3) -> str:
    ci = bootstrap_ci(values, resamples=resamples, seed=seed)
    if ci.mean is None:
        return "–"
    text = f"{ci.mean:.{digits}f}" if abs(ci.mean) < 1000 else f"{ci.mean:.4g}"
    if ci.low is not None and ci.high is not None:
        text += f" [{ci.low:.{digits}f}, {ci.high:.{digits}f}]"
    return text


_TABLE_METRICS = (
    ("task accuracy", "task_accuracy"),
    ("edge F1", "edge_f1"),
    ("parent F1", "parent_f1"),
    ("coefficient F1", "coefficient_f1"),
    ("SHD", "shd"),
    ("I-MEC size", "imec_size"),
    ("formula error (Hz)", "formula_abs_error"),
    ("interventions unused", "interventions_unused"),
)


def _groups(episodes: Sequence[LabEpisode]) -> dict[str, list[LabEpisode]]:
    out: dict[str, list[LabEpisode]] = {}
    for ep in episodes:
        out.setdefault(ep.group, []).append(ep)
    return dict(sorted(out.items()))


def _cells(episodes: Sequence[LabEpisode]) -> dict[tuple[str, str], list[LabEpisode]]:
    """The episodes by ``(agent group, suite)``, in that order."""
    out: dict[tuple[str, str], list[LabEpisode]] = {}
    for ep in episodes:
        out.setdefault((ep.group, ep.suite), []).append(ep)
    return dict(sorted(out.items()))


def _summary_table(episodes: Sequence[LabEpisode], resamples: int, seed: int) -> Table:
    rows = []
    for (group, suite), members in _cells(episodes).items():
        row = [group, suite, str(len(members))]
        for _, key in _TABLE_METRICS:
            row.append(_ci_text([_num(m.final.get(key)) for m in members], resamples, seed))
        rows.append(row)
    return Table(
        ["agent (model)", "suite", "n", *[label for label, _ in _TABLE_METRICS]],
        rows,
        caption="Final metrics per agent and suite: mean [95% bootstrap interval]",
        numeric=frozenset(range(2, 3 + len(_TABLE_METRICS))),
    )


# ------------------------------------------------------------------------------ curves

_CURVES = (
    ("edge F1", "edge_f1", (0.0, 1.0)),
    ("parent F1", "parent_f1", (0.0, 1.0)),
    ("coefficient F1", "coefficient_f1", (0.0, 1.0)),
    ("SHD", "shd", None),
    ("I-MEC size", "imec_size", None),
)


def curves(members: Sequence[LabEpisode], key: str) -> tuple[tuple[float, float | None], ...]:
    """Mean of a per-step metric at each step over *members*, finished episodes carried forward.

    The lab scorer's convention (:func:`causalcheck.lab.score.step_curves`), pooled over suites.
    """
    runs = [ep.steps for ep in members if ep.steps]
    if not runs:
        return ()
    longest = max(len(r) for r in runs)
    out: list[tuple[float, float | None]] = []
    for k in range(longest):
        vals = [v for r in runs if (v := _num(r[min(k, len(r) - 1)].get(key))) is not None]
        out.append((float(k + 1), sum(vals) / len(vals) if vals else None))
    return tuple(out)


def running(members: Sequence[LabEpisode]) -> tuple[tuple[float, float | None], ...]:
    """Episodes still running at each step: at step *k*, those with *k* or more steps; the curve
    ends at 0 on the step after the longest episode's last one (every episode has ended).

    >>> from causalcheck.report.lab_views import LabEpisode
    >>> running([LabEpisode({"steps": [{}] * n}, "a", None, "") for n in (2, 3)])
    ((1.0, 2.0), (2.0, 2.0), (3.0, 1.0), (4.0, 0.0))
    """
    runs = [len(ep.steps) for ep in members if ep.steps]
    if not runs:
        return ()
    return tuple((float(k + 1), float(sum(1 for n in runs if n > k))) for k in range(max(runs) + 1))


def _curve_blocks(groups: Mapping[str, Sequence[LabEpisode]]) -> list[FigureBlock]:
    blocks = []
    names = ", ".join(groups)
    for label, key, y_range in _CURVES:
        series = tuple(Series(g, curves(m, key)) for g, m in groups.items())
        desc = f"{label} of the hypothesis in force after each step, mean over episodes, one line per agent ({names})."
        blocks.append(FigureBlock(LineChart(f"{label} over steps", desc, "step", label, series, y_range)))
    run = tuple(Series(g, running(m)) for g, m in groups.items())
    blocks.append(
        FigureBlock(
            LineChart("Episodes still running", f"Number of episodes still running at each step, per agent ({names}); "
                      "each line reaches 0 on the step after its longest episode ended.",
                      "step", "episodes", run, None, step=True, integer=True),
            "Curves pool every suite of an agent; an episode that ended contributes its last values to the curves above.",
        )
    )
    return blocks


#: Axis range of the headline view: [0, 1] with room, so a point at a bound is drawn whole.
_PADDED = (-0.05, 1.05)


def _headline(episodes: Sequence[LabEpisode], resamples: int, seed: int) -> FigureBlock:
    points = []
    for (group, suite), members in _cells(episodes).items():
        acc = bootstrap_ci([_num(m.final.get("task_accuracy")) for m in members], resamples=resamples, seed=seed)
        f1 = bootstrap_ci([_num(m.final.get("edge_f1")) for m in members], resamples=resamples, seed=seed)
        if acc.mean is None or f1.mean is None:
            continue
        points.append(
            ScatterPoint(
                f1.mean, acc.mean, f"{group}, {suite} (n={len(members)})", group,
                None if f1.low is None or f1.high is None else (f1.low, f1.high),
                None if acc.low is None or acc.high is None else (acc.low, acc.high),
            )
        )
    return FigureBlock(
        ScatterChart(
            "Task accuracy vs all-edge F1",
            "One point per agent and suite: the mean final all-edge F1 (x) against the mean task accuracy (y) of its "
            "episodes, whiskers are 95% bootstrap intervals.",
            "mean all-edge F1", "mean task accuracy", tuple(points), x_range=_PADDED, y_range=_PADDED,
        ),
        "Each point is the mean of one agent on one suite, not a single episode (the episode table lists those). "
        "An agent to the upper left often hits the reactor frequency without recovering the mechanism; one to the "
        "lower right often recovers the mechanism and still misses the frequency.",
    )


def _codes(ep: LabEpisode) -> list[Mapping[str, Any]]:
    audit = ep.data.get("audit")
    diags = (audit.get("findings") or audit.get("diagnostics")) if isinstance(audit, Mapping) else None  # "diagnostics": earlier versions
    return [d for d in diags if isinstance(d, Mapping)] if isinstance(diags, list) else []


def _budget(groups: Mapping[str, Sequence[LabEpisode]]) -> list[Any]:
    rows = []
    rates = []
    for g, members in groups.items():
        n = len(members)
        used = [_num(m.final.get("interventions_used")) for m in members]
        unused = [_num(m.final.get("interventions_unused")) for m in members]
        sub_unused = [_num(m.final.get("submissions_unused")) for m in members]
        premature = sum(1 for m in members if any(d.get("code") == "premature-stop" for d in _codes(m)))
        left = sum(1 for m in members if any(d.get("code") == "budget-unused" for d in _codes(m)))

        def mean(xs: Sequence[float | None]) -> str:
            v = [x for x in xs if x is not None]
            return f"{sum(v) / len(v):.2f}" if v else "–"

        rows.append([g, str(n), mean(used), mean(unused), mean(sub_unused), f"{premature} ({premature / n:.0%})", f"{left} ({left / n:.0%})"])
        rates.append((g, premature / n if n else 0.0))
    table = Table(
        ["agent (model)", "episodes", "interventions used", "interventions unused", "submissions unused",
         "premature stops", "succeeded with budget left"],
        rows,
        caption="Budget use (means per episode; premature stop = failed with interventions or submissions left)",
        numeric=frozenset(range(1, 7)),
    )
    fig = BarChart("Premature stopping", "Share of episodes per agent that failed with interventions or submissions left.",
                   "share of episodes", tuple(rates), (0.0, 1.0), percent=True)
    return [table, FigureBlock(fig)]


# ------------------------------------------------------------------------------ episodes


def edge_status(pred: Iterable[tuple[str, str]], true: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """Each edge of *pred* ∪ *true* → ``correct`` / ``extra`` / ``reversed`` / ``missing``.

    The counts equal :func:`causalcheck.metrics.shd_normalized` (a reversal counted once: the
    predicted edge is ``reversed`` and its true counterpart is not listed as missing).

    >>> sorted(edge_status({("b", "a"), ("a", "c")}, {("a", "b"), ("a", "c"), ("c", "d")}).items())
    [(('a', 'c'), 'correct'), (('b', 'a'), 'reversed'), (('c', 'd'), 'missing')]
    """
    p, t = frozenset(pred), frozenset(true)
    only_t, only_p = t - p, p - t
    out: dict[tuple[str, str], str] = {}
    for e in sorted(p):
        out[e] = "correct" if e in t else ("reversed" if (e[1], e[0]) in only_t else "extra")
    for a, b in sorted(only_t):
        if (b, a) not in only_p:
            out[(a, b)] = "missing"
    return out


def _changes(pairs_per_step: Sequence[tuple[int, frozenset[tuple[str, str]]]]) -> list[int]:
    """Indices into *pairs_per_step* where the edge set differs from the one before."""
    out: list[int] = []
    prev: frozenset[tuple[str, str]] | None = None
    for i, (_, pairs) in enumerate(pairs_per_step):
        if pairs != prev:
            out.append(i)
            prev = pairs
    return out


def select_episodes(members: Sequence[LabEpisode], limit: int) -> list[tuple[LabEpisode, str]]:
    """Up to *limit* episodes of one agent to draw, each with the reason it was chosen.

    In order: the lowest final edge F1, the highest, the median, the most audit errors
    (when any), then the next ones in input order.  Among episodes that tie, the first in
    input order is shown, and the reason says so: when every episode has the same final
    edge F1 there is no lowest or highest, and the reason says that they all tie.

    >>> from causalcheck.report.lab_views import LabEpisode
    >>> eps = [LabEpisode({"final": {"edge_f1": 1.0}}, "a", None, "") for _ in range(3)]
    >>> [why for _, why in select_episodes(eps, 2)]
    ['all 3 episodes tie at final edge F1 1; shown: the first in input order', 'next in input order']
    """
    if limit <= 0 or not members:
        return []
    f1 = [(-1.0 if (v := _num(m.final.get("edge_f1"))) is None else v, i) for i, m in enumerate(members)]
    order = sorted(f1)

    def shown(value: float) -> str:
        return "–" if value < 0 else _fmt(value)

    def named(value: float, word: str) -> tuple[int, str]:
        tied = [i for v, i in f1 if v == value]
        if len(tied) == 1:
            return tied[0], f"{word} final edge F1"
        return tied[0], f"{word} final edge F1 ({shown(value)}, shared by {len(tied)} episodes; the first of them in input order)"

    picks: list[tuple[int, str]]
    if len(members) == 1:
        picks = [(0, "the only episode of this agent")]
    elif order[0][0] == order[-1][0]:
        picks = [(order[0][1], f"all {len(members)} episodes tie at final edge F1 {shown(order[0][0])}; shown: the first in input order")]
    else:
        picks = [named(order[0][0], "lowest"), named(order[-1][0], "highest"), named(order[len(order) // 2][0], "median")]
    errors = [(-(_num(m.final.get("audit_errors")) or 0.0), i) for i, m in enumerate(members)]
    worst = min(errors)
    if worst[0] < 0:
        picks.append((worst[1], "most audit errors"))
    picks += [(i, "next in input order") for i in range(len(members))]
    out: list[tuple[LabEpisode, str]] = []
    seen: set[int] = set()
    for i, why in picks:
        if i not in seen:
            seen.add(i)
            out.append((members[i], why))
        if len(out) >= limit:
            break
    return out


def _fmt(v: Any, digits: int = 3) -> str:
    x = _num(v)
    if x is None:
        return "–" if v is None else str(v)
    return str(int(x)) if x == int(x) and abs(x) < 1e9 else f"{x:.{digits}f}"


def _episode_section(ep: LabEpisode, why: str) -> Section:
    f = ep.final
    sec = Section(f"{ep.group} · {ep.suite} · {ep.name}", collapsed=True, label=ep.name)
    acc = _num(f.get("task_accuracy"))
    ok = "no outcome" if acc is None else ("succeeded" if acc >= 1 else "failed")
    sec.blocks.append(
        Text(f"Chosen as: {why}. Task {ok}; final edge F1 {_fmt(f.get('edge_f1'))}, SHD {_fmt(f.get('shd'))} "
             f"(missing {_fmt(f.get('shd_missing'))}, extra {_fmt(f.get('shd_extra'))}, reversed {_fmt(f.get('shd_reversed'))}), "
             f"I-MEC {_fmt(f.get('imec_size'))} of MEC {_fmt(f.get('mec_size'))}; source {ep.data.get('source', '?')}.")
    )
    loaded, reason = _source_episode(ep)
    if loaded is not None and loaded.config is not None:
        sec.blocks.extend(_drawing(ep, loaded, loaded.config))
    else:
        sec.blocks.append(Text(f"No drawing: {reason or 'the source holds no true graph'}.", note=True))
        targets = [r.get("targets") for r in ep.steps if r.get("targets")]
        if targets:
            sec.blocks.append(Text(f"Intervention targets by the end: {targets[-1]}."))
    codes = _codes(ep)
    if codes:
        rows = [[str(d.get("severity", "")), str(d.get("code", "")), str(d.get("message", ""))] for d in codes]
        sec.blocks.append(Table(["severity", "finding", "message"], rows, caption="Evidence audit",
                                marked=frozenset(i for i, d in enumerate(codes) if d.get("severity") == "error")))
    else:
        sec.blocks.append(Text("Evidence audit: no findings (or the audit was not run).", note=True))
    return sec


def _source_episode(ep: LabEpisode) -> tuple[EpisodeRecord | None, str]:
    """The scored episode's source, read again (for its steps and true graph), or ``None`` and why not."""
    source = str(ep.data.get("source") or "")
    try:
        found = list(discover_episodes([locate(source, ep.origin)])) if source else []
        if found:
            return load_episode(*found[0]), ""
        return None, "the source is not available here"
    except (CausalCheckError, OSError) as exc:
        return None, f"the source could not be read ({str(exc).splitlines()[0][:160]})"


def _drawing(ep: LabEpisode, loaded: EpisodeRecord, config: Mapping[str, Any]) -> list[Any]:
    """The truth-and-hypothesis figure at the first, middle and last hypothesis change, its table, the interventions and submissions."""
    blocks: list[Any] = []
    f = ep.final
    truth = sorted(normalize_pairs(field_list(config, "edges")))
    names = list(config.get("nodes") or {}) if isinstance(config.get("nodes"), Mapping) else []
    nodes = [normalize_node(str(n)) for n in names]
    hyps: list[tuple[int, frozenset[tuple[str, str]]]] = []
    current: frozenset[tuple[str, str]] | None = None
    for st in loaded.steps:
        h = nonempty_hypothesis(st.record)
        if h is not None:
            current = frozenset(h.graph.pairs)
        if current is not None:
            hyps.append((st.number(SCORE_NUMBERING), current))
    changes = _changes(hyps)
    chosen: list[tuple[str, int]] = []
    if changes:  # a step that is both first and last (or middle and last) is named once, first > last > middle
        named: dict[int, str] = {}
        for label, idx in (("first", changes[0]), ("last", changes[-1]), ("middle", changes[len(changes) // 2])):
            named.setdefault(idx, label)
        chosen = [(label, idx) for idx, label in sorted(named.items())]
    extra_nodes = sorted({n for _, idx in chosen for e in hyps[idx][1] for n in e} - set(nodes))
    all_nodes = [*nodes, *extra_nodes]
    drawn_pairs = sorted({e for _, idx in chosen for e in hyps[idx][1]})
    positions = place(all_nodes, truth, {n: label_of(n) for n in all_nodes}, extra=drawn_pairs)
    styles = {n: ("target" if n == _FREQ else ("flagged" if n in extra_nodes else "plain")) for n in all_nodes}
    tips = {n: (f"{n} (not in the true graph)" if n in extra_nodes else n) for n in all_nodes}
    panels = [graph_panel("true graph", all_nodes, truth,
                          [DrawnEdge(a, b, "truth", f"{a} → {b}: true edge") for a, b in truth],
                          styles=styles, tooltips=tips, positions=positions)]
    step_rows = []
    rows_by_step = {int(_num(r.get("step")) or 0): r for r in ep.steps}
    for label, idx in chosen:
        number, pairs = hyps[idx]
        status = edge_status(pairs, truth)
        edges = [DrawnEdge(a, b, s, f"{a} → {b}: {s}") for (a, b), s in status.items()]
        counts = {k: sum(1 for s in status.values() if s == k) for k in ("correct", "missing", "extra", "reversed")}
        panels.append(graph_panel(f"step {number} ({label} change)", all_nodes, truth, edges,
                                  styles=styles, tooltips=tips, positions=positions))
        r = rows_by_step.get(number, {})
        step_rows.append([f"{number} ({label})", *(str(counts[k]) for k in ("correct", "missing", "extra", "reversed")),
                          _fmt(r.get("edge_f1")), _fmt(r.get("shd")), _fmt(r.get("imec_size"))])
    desc = (f"The true graph of {ep.name} ({counted(len(truth), 'edge')}) beside the agent's hypothesis at "
            + (", ".join(f"step {hyps[i][0]} ({lab} change)" for lab, i in chosen) or "no step (no hypothesis)")
            + "; hypothesis edges are marked correct, missing, extra or reversed.")
    blocks.append(FigureBlock(GraphFigure(f"Truth and hypothesis: {ep.name}", desc, tuple(panels)),
                              f"{counted(len(changes), 'hypothesis change')} in {counted(len(loaded.steps), 'step')}; drawn: "
                              + (", ".join(f"the {lab} change (step {hyps[i][0]})" for lab, i in chosen) or "none") + "."))
    if step_rows:
        blocks.append(Table(["step", "correct", "missing", "extra", "reversed", "edge F1", "SHD", "I-MEC"], step_rows,
                            numeric=frozenset(range(1, 8))))
    moves = [(st.number(SCORE_NUMBERING), st.intervention) for st in loaded.steps if st.intervention is not None]
    subs = [(st.number(SCORE_NUMBERING), st.submission) for st in loaded.steps if st.submission is not None]
    text = "; ".join(f"step {n}: set {t[0]} to {t[1]:g}" for n, t in moves) or "none"
    blocks.append(Text(f"Interventions ({len(moves)}): {text}."))
    if subs:
        target = _num(f.get("target_freq"))
        blocks.append(Text("Reactor submissions: " + "; ".join(f"step {n}: {v:g} Hz" for n, v in subs if v is not None)
                           + (f" (true F* = {target:g} Hz)." if target is not None else ".")))
    return blocks


def _episode_table(episodes: Sequence[LabEpisode]) -> list[Any]:
    rows = []
    for ep in episodes[:MAX_EPISODE_ROWS]:
        f = ep.final
        rows.append([ep.group, ep.suite, str(ep.data.get("graph_id") or ep.data.get("experiment_id") or "?"), str(ep.data.get("seed", "")),
                     _fmt(f.get("task_accuracy")), _fmt(f.get("edge_f1")), _fmt(f.get("parent_f1")), _fmt(f.get("shd")),
                     _fmt(f.get("imec_size")), _fmt(f.get("steps")), _fmt(f.get("interventions_used")), _fmt(f.get("audit_errors"))])
    out: list[Any] = [Table(["agent (model)", "suite", "graph", "seed", "task", "edge F1", "parent F1", "SHD", "I-MEC",
                             "steps", "interventions", "audit errors"], rows, caption="Every episode (final metrics)",
                            numeric=frozenset(range(4, 12)))]
    if len(episodes) > MAX_EPISODE_ROWS:
        out.append(Text(f"{counted(len(episodes) - MAX_EPISODE_ROWS, 'more episode')} are in the scores.json inputs.", note=True))
    return out


def lab_sections(
    inputs: Sequence[tuple[str, Mapping[str, Any]]], *, resamples: int = 1000, seed: int = 0,
    episodes_per_agent: int = DEFAULT_EPISODES_PER_AGENT,
) -> Section:
    """The "Lab" section of the report for the ``(path, scores.json)`` *inputs*."""
    episodes = lab_episodes(inputs)
    groups = _groups(episodes)
    sec = Section("Lab")
    n_fail = sum(len(field_list(d, "failures")) for _, d in inputs)
    sec.blocks.append(Text(f"{counted(len(episodes), 'scored episode')} of {counted(len(groups), 'agent')} from "
                           f"{counted(len(inputs), 'scores file')}"
                           + (f"; {counted(n_fail, 'episode')} could not be scored." if n_fail else ".")))
    overview = Section("Agents and suites", [_summary_table(episodes, resamples, seed)])
    if not resamples:
        overview.blocks.append(Text("No bootstrap intervals (--bootstrap 0).", note=True))
    elif any(len(members) < MIN_BOOTSTRAP_N for members in _cells(episodes).values()):
        overview.blocks.append(Text(f"Means of fewer than {MIN_BOOTSTRAP_N} episodes have no interval: too few to resample.", note=True))
    sec.children.append(overview)
    sec.children.append(Section("Recovery over steps", list(_curve_blocks(groups))))
    sec.children.append(Section("Task accuracy vs edge F1", [_headline(episodes, resamples, seed)]))
    sec.children.append(Section("Budget and stopping", _budget(groups)))
    drawn = Section("Episodes")
    drawn.blocks.append(Text(f"Drawn: up to {counted(episodes_per_agent, 'episode')} per agent — the lowest, highest and median final "
                             "edge F1 and the most audit errors; every episode is a row of the table below."))
    for group, members in groups.items():
        chosen = select_episodes(members, episodes_per_agent)
        if chosen:
            drawn.children.append(Section(group, [Text(f"{counted(len(chosen), 'episode')} of {len(members)} drawn.", note=True)],
                                          [_episode_section(ep, why) for ep, why in chosen]))
    drawn.blocks.extend(_episode_table(episodes))
    sec.children.append(drawn)
    if n_fail:
        rows = [[origin, str(f.get("source", "")), str(f.get("reason", "")).splitlines()[0] if f.get("reason") else ""]
                for origin, d in inputs for f in field_list(d, "failures") if isinstance(f, Mapping)]
        sec.children.append(Section("Not scored", [Table(["scores file", "episode", "reason"], rows)]))
    return sec
