"""Run an agent over a suite: one trajectory file per episode, then a summary.

Layout of an output folder::

    run.json                 what was run (suite, agent, seeds, episode config) — resume checks it —
                             and its provenance (version, command, options, time, suite SHA-256)
    episodes/<nnn>_<graph_id>_s<seed>.jsonl   one trajectory per episode (see trajectory.py)
    summary.json, summary.md per suite, agent and model: task accuracy, all-edge F1, SHD,
                             interventions; summary.json lists every episode file with its SHA-256
    .causalcheck.lock        held while the folder is written (a second writer is refused)

Episodes are independent units: each is written atomically (temporary file, fsync, rename:
:mod:`causalcheck.base.files`) when it finishes, so an interrupted run leaves only complete
files, and ``resume=True`` runs exactly the missing ones — nothing is lost or duplicated.
Episodes run in worker processes with ``workers > 1`` (:func:`causalcheck.base.pool.completed`:
prompt stop on SIGINT/SIGTERM, no orphans, a dead worker names its episode); every episode depends only on (graph, seed,
agent, config), so results are identical for any worker count.  The summary is recomputed
from the files after the work, and only when every episode is done.

Metric conventions: all-edge F1 and SHD (a reversed edge counts once, as CausaLab does) are
:func:`causalcheck.metrics.edge_prf` / :func:`causalcheck.metrics.shd` on the last
non-empty hypothesis of the episode (:meth:`causalcheck.episodes.EpisodeRecord.final`: the records
are read by the episode layer, so every edge spelling its parser accepts counts); task
accuracy is the share of episodes whose reactor was activated.  The folder summary is
recomputed from the episode files with the same functions.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from causalcheck.base import safejson
from causalcheck.base.boundary import PluginError, call_plugin, is_own, plugin_label
from causalcheck.base.errors import CausalCheckError, InputFormatError, WorkerDied
from causalcheck.base.escape import markdown_cell, markdown_text
from causalcheck.base.files import Provenance, RunLock, atomic_write_text
from causalcheck.base.interrupt import terminate_as_interrupt
from causalcheck.base.limits import check_seed
from causalcheck.base.pool import Executor, LocalExecutor, completed
from causalcheck.base.progress import RunProgress
from causalcheck.base.redaction import redact_json
from causalcheck.episodes import (
    EpisodeRecord,
    Trajectory,
    load_episode,
    read_trajectory,
    trajectory_episode,
)
from causalcheck.lab.episode import AgentStep, Episode, EpisodeConfig, Observation
from causalcheck.lab.suites import Suite, SuiteGraph, load_suite
from causalcheck.lab.trajectory import TRAJECTORY_FORMAT, trajectory_text, write_trajectory
from causalcheck.metrics import edge_prf, normalize_pairs, parent_prf, shd

__all__ = ["RunSpec", "check_agent_options", "episode_filename", "graph_metrics", "run_episode", "run_suite", "summarize_folder"]


@dataclass(frozen=True)
class RunSpec:
    """Everything that determines a run's results."""

    suite: str
    agent: str
    seeds: tuple[int, ...]
    config: EpisodeConfig
    agent_options: Mapping[str, Any]
    graphs: tuple[str, ...] = ()
    suite_sha256: str = ""  # the suite file's text: --resume refuses an edited suite

    def to_json(self) -> dict[str, Any]:
        return {
            "suite": self.suite,
            "suite_sha256": self.suite_sha256,
            "agent": self.agent,
            "seeds": list(self.seeds),
            "config": self.config.to_json(),
            "agent_options": redact_json(dict(self.agent_options)),  # no URL credentials in run.json
            "graphs": list(self.graphs),
        }


def episode_filename(index: int, graph_id: str, seed: int) -> str:
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in graph_id)
    return f"{index:03d}_{safe}_s{seed}.jsonl"


def graph_metrics(ep: EpisodeRecord, true_pairs: Any) -> dict[str, Any]:
    """All-edge F1, frequency-parent F1 and SHD of the episode's final hypothesis against *true_pairs*."""
    final = ep.final()
    pred = sorted(final[1].graph.pairs) if final is not None else []
    return {
        "edge_f1": edge_prf(pred, true_pairs).f1,
        "parent_f1": parent_prf(pred, true_pairs).f1,
        "shd": shd(pred, true_pairs).total,
    }


def _final_as_written(ep: EpisodeRecord, steps: Sequence[Mapping[str, Any]]) -> Any:
    """The final hypothesis as the agent wrote it (its JSON form when it was written as text)."""
    final = ep.final()
    if final is None:
        return {"edges": [], "freq_equation": "", "coefficients": {}}
    step, hyp = final
    written = steps[step.index].get("record")
    raw = written.get("hypothesis") if isinstance(written, Mapping) else None
    return dict(raw) if isinstance(raw, Mapping) else hyp.to_json()


def _agent_step(ep: Episode, out: AgentStep, agent: Any) -> Observation:
    """The episode's next observation after *out*; an action the episode refuses names the agent that chose it."""
    if not is_own(agent) and (problems := out.problems()):
        raise PluginError(f"agent {plugin_label(agent)}: act() returned a step that cannot be played: {'; '.join(problems)}")
    try:
        return ep.step(out.action)
    except CausalCheckError as exc:
        if is_own(agent):
            raise
        raise PluginError(f"agent {plugin_label(agent)}: act() chose an action the episode refuses: {exc}") from exc


def run_episode(
    graph: SuiteGraph,
    agent: Any,
    seed: int,
    *,
    config: EpisodeConfig | None = None,
    suite_name: str = "",
    agent_name: str = "",
    candidates: Sequence[Any] = (),
    model: str | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """Play one episode; returns the trajectory's header, step lines and summary.

    *model* (the agent's ``model`` option) is recorded in the header as
    ``agent_options.model``, so scores are grouped by model.
    """
    cfg = config or EpisodeConfig()
    ep = Episode(graph, cfg, candidates=candidates)
    task, obs = ep.reset(seed)
    call_plugin("agent", agent, "reset", task)
    header = {
        "format": TRAJECTORY_FORMAT,
        "suite": suite_name,
        "graph_id": graph.graph_id,
        "seed": seed,
        "agent": agent_name,
        "config": dict(graph.config),
        "budgets": ep.budgets(),
        "reactor": {"props": dict(ep.reactor_props), "target_freq": ep.target_freq},
        "manipulator_initial": dict(ep.manipulator_initial),
        "prior_records": list(ep.prior),
        "options": cfg.to_json(),
        "task_text": task.text,
    }
    if model:
        header["agent_options"] = {"model": model}
    steps: list[dict[str, Any]] = []
    while not obs.done:
        out = call_plugin("agent", agent, "act", obs, returns=AgentStep)
        before = obs
        obs = _agent_step(ep, out, agent)
        line = {
            "step": len(steps),
            "observation": before.to_json(),
            "record": dict(out.record),
            "action": out.action.to_json(),
            "response": dict(obs.response),
        }
        if out.info:
            line["info"] = dict(out.info)
        steps.append(line)
    played = trajectory_episode(Trajectory(header, tuple(steps), {}), source=graph.graph_id)
    summary = {
        **ep.summary(),
        "final_hypothesis": _final_as_written(played, steps),
        **graph_metrics(played, sorted(graph.scm.graph.pairs)),
    }
    return header, steps, summary


# ---------------------------------------------------------------------- workers
_CACHE: dict[str, Suite] = {}


def _suite(name: str, *, fresh: bool = False) -> Suite:
    """The suite *name* (a path or a suite name), read once per process; *fresh* reads it again
    (a run reads its suite as it is now: an edited file is what ``--resume`` must see)."""
    if fresh or name not in _CACHE:
        _CACHE[name] = load_suite(name)
    return _CACHE[name]


def _work(job: tuple[str, int, int, str, str, Mapping[str, Any], Mapping[str, Any], str]) -> str:
    """A local worker's job: play one episode of a suite (loaded here, by name or path) and write its file."""
    suite_ref, index, seed, agent_name, suite_name, cfg_json, options, path = job
    suite = _suite(suite_ref)
    cfg = EpisodeConfig(**cfg_json)
    cands = [g.scm.graph for g in suite.graphs] if cfg.candidate_tool else []
    header, steps, summary = _play(suite.graphs[index], cands, seed, agent_name, suite_name, cfg, options)
    write_trajectory(path, header, steps, summary)
    return path


def _remote_work(job: tuple[SuiteGraph, Sequence[Any], int, str, str, Mapping[str, Any], Mapping[str, Any], str]) -> str:
    """A job for an executor whose workers do not see the output folder (Ray): everything it needs
    travels with it (the graph, the candidates), and the trajectory's text comes back to be written here."""
    graph, cands, seed, agent_name, suite_name, cfg_json, options, _ = job
    return trajectory_text(*_play(graph, cands, seed, agent_name, suite_name, EpisodeConfig(**cfg_json), options))


def _play(
    graph: SuiteGraph, cands: Sequence[Any], seed: int, agent_name: str, suite_name: str, cfg: EpisodeConfig,
    options: Mapping[str, Any],
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    # late: pulls numpy
    from causalcheck.lab.agents import make_agent

    agent = make_agent(agent_name, seed=seed, options=options)
    model = options.get("model")
    return run_episode(
        graph, agent, seed, config=cfg, suite_name=suite_name, agent_name=agent_name, candidates=cands,
        model=model if isinstance(model, str) else None,
    )


def check_agent_options(agent: str, options: Mapping[str, Any]) -> None:
    """Build *agent* once with *options*, before any episode or file: an option of the wrong type or
    out of range is an input error naming it and its value (not a failure in the middle of a run)."""
    # late: pulls numpy
    from causalcheck.lab.agents import make_agent

    built = make_agent(agent, seed=0, options=options)
    close = getattr(built, "close", None)
    if callable(close):
        close()


def _check_manifest(out: Path, spec: RunSpec, resume: bool, provenance: Mapping[str, Any]) -> None:
    """Refuse a folder that holds another run (or episodes without ``--resume``); write ``run.json``."""
    manifest = out / "run.json"
    existing = sorted((out / "episodes").glob("*.jsonl")) if (out / "episodes").is_dir() else []
    if manifest.exists():
        try:
            old = safejson.load_file(manifest, what="run manifest")
        except InputFormatError as exc:
            raise InputFormatError(f"{exc}; the folder's run.json is damaged: use a fresh --out folder") from None
        if not isinstance(old, dict):
            raise InputFormatError(f"run manifest {str(manifest)!r} must be a JSON object; use a fresh --out folder")
        if not resume and existing:
            raise InputFormatError(f"out={str(out)!r} already holds {len(existing)} episodes; pass --resume or a new folder")
        old_spec = {k: v for k, v in old.items() if k != "provenance"}
        new_spec = spec.to_json()
        if "suite_sha256" not in old_spec:  # written before runs recorded it: nothing to compare
            new_spec.pop("suite_sha256")
        if resume and old_spec.get("suite") == spec.suite and old_spec.get("suite_sha256", spec.suite_sha256) != spec.suite_sha256:
            raise InputFormatError(
                f"out={str(out)!r}: suite {spec.suite!r} changed since the run started (its text's sha256 was "
                f"{str(old_spec.get('suite_sha256'))[:12]}…, now {spec.suite_sha256[:12]}…); resume needs the same suite: "
                "restore the file or write to a fresh --out"
            )
        if resume and old_spec != new_spec:
            differs = sorted(k for k in {*old_spec, *new_spec} if old_spec.get(k) != new_spec.get(k))
            raise InputFormatError(
                f"out={str(out)!r} was started with a different run ({', '.join(differs) or 'run.json'} differ); "
                "resume needs the same arguments"
            )
    elif existing and not resume:
        raise InputFormatError(f"out={str(out)!r} already holds episode files; pass --resume or a new folder")
    atomic_write_text(manifest, json.dumps({**spec.to_json(), "provenance": dict(provenance)}, indent=2) + "\n")


def _remove_temporaries(out: Path) -> list[Path]:
    """Delete the hidden temporary files of writes that a kill interrupted (we hold the folder's lock)."""
    gone: list[Path] = []
    for folder in (out, out / "episodes"):
        if folder.is_dir():
            for tmp in folder.glob(".*.tmp"):
                tmp.unlink(missing_ok=True)
                gone.append(tmp)
    return gone


def run_suite(
    suite: str,
    agent: str,
    out_dir: str | Path,
    *,
    seeds: Sequence[int] = (1,),
    config: EpisodeConfig | None = None,
    agent_options: Mapping[str, Any] | None = None,
    workers: int = 1,
    resume: bool = False,
    graphs: Sequence[str] = (),
    limit: int | None = None,
    progress: bool | None = None,
    on_episode: Callable[[str], None] | None = None,
    command: str = "causalcheck lab run",
    options: Mapping[str, Any] | None = None,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Run *agent* on every (graph, seed) of *suite*, write the files, return the summary.

    The output folder is locked for the whole run (:class:`causalcheck.base.files.RunLock`: a
    second writer gets :class:`~causalcheck.base.files.RunLockedError` naming the holder).
    SIGTERM stops the run like SIGINT (:class:`~causalcheck.base.interrupt.Terminated`); episodes in flight are
    abandoned, finished ones stay, ``resume=True`` runs the rest.  *command* and *options*
    go into the provenance of ``run.json`` and ``summary.json``.  *progress*: ``None`` draws a
    bar on a terminal and, off one, writes a line on stderr at the start, at most every
    :data:`PROGRESS_LINE_SECONDS` and at the end; ``True`` always the bar; ``False`` nothing.
    *executor* (default: :class:`~causalcheck.base.pool.LocalExecutor` of *workers*) runs the
    episodes; the files are the same whichever runs them, and the provenance names it
    (``options.executor``).
    """
    # late: pulls numpy
    from causalcheck.lab.agents import AGENTS

    if agent not in AGENTS:
        raise InputFormatError(f"agent={agent!r} is unknown; registered agents: {sorted(AGENTS)!r}")
    for s in seeds:
        check_seed(s)
    check_agent_options(agent, agent_options or {})
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputFormatError(f"workers={workers!r} must be a positive integer")
    cfg = config or EpisodeConfig()
    loaded = _suite(suite, fresh=True)
    spec = RunSpec(loaded.name, agent, tuple(int(s) for s in seeds), cfg, dict(agent_options or {}), tuple(graphs), loaded.sha256)
    out = Path(out_dir)
    runner: Executor = executor if executor is not None else LocalExecutor(workers)
    prov = Provenance(command, dict(options) if options is not None else {"suite": suite, "agent": agent, "resume": resume})
    if loaded.path and Path(loaded.path).is_file():
        prov.add_input(loaded.path)
    with RunLock(out, command=command), terminate_as_interrupt():
        _remove_temporaries(out)
        prov.options = {**prov.options, "executor": runner.describe()}
        _check_manifest(out, spec, resume, prov.to_json())
        chosen = [(i, g) for i, g in enumerate(loaded.graphs) if not graphs or g.graph_id in graphs]
        if graphs:
            missing = sorted(set(graphs) - {g.graph_id for _, g in chosen})
            if missing:
                raise InputFormatError(f"graphs={missing!r} are not in suite {loaded.name!r}")
        if limit is not None:
            chosen = chosen[:limit]
        jobs = _jobs(suite, loaded, chosen, spec, out, runner.shares_files)
        # None: a bar on a terminal, else a plain line now and then (a log or CI is not left silent)
        show: bool | str = ("bar" if sys.stderr.isatty() else "lines") if progress is None else progress
        try:
            _execute(jobs, runner, show, on_episode)
        finally:
            _remove_temporaries(out)
        summary = summarize_folder(out)
        files = sorted((out / "episodes").glob("*.jsonl"))
        prov.add_inputs(files)
        atomic_write_text(out / "summary.json", json.dumps({**summary, "provenance": prov.to_json()}, indent=2) + "\n")
        atomic_write_text(out / "summary.md", summary_markdown(summary) + _provenance_line(prov.to_json()))
    return summary


def _jobs(suite: str, loaded: Suite, chosen: Sequence[tuple[int, SuiteGraph]], spec: RunSpec, out: Path, local: bool) -> list[Any]:
    """The episodes still to run (a damaged episode file is deleted and run again): for *local* workers
    the suite's name, else everything the episode needs (the graph, the candidates)."""
    jobs: list[Any] = []
    cfg = spec.config
    for i, g in chosen:
        for seed in spec.seeds:
            path = out / "episodes" / episode_filename(i, g.graph_id, seed)
            if path.exists():
                try:
                    read_trajectory(path)
                    continue
                except InputFormatError:
                    path.unlink()
            if local:
                jobs.append((suite, i, seed, spec.agent, loaded.name, cfg.to_json(), dict(spec.agent_options), str(path)))
            else:
                cands = [x.scm.graph for x in loaded.graphs] if cfg.candidate_tool else []
                jobs.append((g, cands, seed, spec.agent, loaded.name, cfg.to_json(), dict(spec.agent_options), str(path)))
    return jobs


def _provenance_line(prov: Mapping[str, Any]) -> str:
    return (
        f"\nWritten by causalcheck {markdown_text(str(prov.get('version')))} ({markdown_text(str(prov.get('command')))}) "
        f"at {markdown_text(str(prov.get('started')))}; "
        f"{len(prov.get('inputs') or [])} input file(s) with their SHA-256 in summary.json.\n"
    )


PROGRESS_LINE_SECONDS = 5.0
"""Off a terminal, ``lab run`` writes a progress line on stderr at most this often (and at the start and end)."""


def _execute(jobs: list[Any], runner: Executor, show: bool | str, on_episode: Callable[[str], None] | None) -> None:
    from contextlib import ExitStack, closing

    with ExitStack() as stack:
        progress: RunProgress | None = None
        if show and jobs:  # the one progress display: lines every PROGRESS_LINE_SECONDS off a terminal, else a bar
            lines = show == "lines"
            progress = stack.enter_context(RunProgress("log" if lines else "bar", title="lab run", unit="episodes", every=None,
                                                       every_seconds=PROGRESS_LINE_SECONDS if lines else None))
            progress.begin(len(jobs))

        def done(path: str) -> None:
            if progress is not None:
                progress.advance()
            if on_episode:
                on_episode(path)

        work: Callable[[Any], str] = _work if runner.shares_files else _remote_work
        stream = stack.enter_context(closing(completed(work, jobs, 1, executor=runner)))
        for index, answer in stream:
            path = str(jobs[index][-1])
            if isinstance(answer, WorkerDied):
                raise WorkerDied(
                    f"the worker process running episode {Path(path).name} ended without an answer "
                    f"({answer.how}); finished episodes are on disk, rerun with --resume",
                    exitcode=answer.exitcode,
                    detail=answer.detail,
                )
            if not runner.shares_files:
                atomic_write_text(Path(path), answer)
            done(path)


def _mean(xs: Sequence[float]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def summarize_folder(out_dir: str | Path) -> dict[str, Any]:
    """Per-suite, per-agent (and per-model, when set) means over every episode file in *out_dir*/episodes.

    Each file is read by the episode layer; its metrics are recomputed from the final
    hypothesis (:func:`graph_metrics`), the counts are the environment's.
    """
    groups: dict[tuple[str, str, str], list[tuple[EpisodeRecord, dict[str, Any]]]] = {}
    for path in sorted((Path(out_dir) / "episodes").glob("*.jsonl")):
        ep = load_episode("trajectory", path)
        true = sorted(normalize_pairs(ep.require_config()["edges"]))
        key = (ep.suite, ep.agent, ep.model)
        groups.setdefault(key, []).append((ep, graph_metrics(ep, true)))
    rows = []
    for (suite, agent, model), items in sorted(groups.items()):
        rows.append(
            {
                "suite": suite,
                "agent": agent,
                **({"model": model} if model else {}),
                "episodes": len(items),
                "task_accuracy": _mean([1.0 if ep.success else 0.0 for ep, _ in items]),
                "edge_f1": _mean([float(m["edge_f1"]) for _, m in items]),
                "shd": _mean([float(m["shd"]) for _, m in items]),
                "interventions_used": _mean([float(ep.interventions_used or 0) for ep, _ in items]),
                "submissions_used": _mean([float(ep.submissions_used or 0) for ep, _ in items]),
            }
        )
    return {"rows": rows}


def summary_markdown(summary: Mapping[str, Any]) -> str:
    """The summary as a Markdown table."""
    lines = [
        "| suite | agent | episodes | task accuracy | all-edge F1 | SHD | interventions used |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in summary.get("rows", []):
        agent = markdown_cell(f"{r['agent']} ({r['model']})" if r.get("model") else str(r["agent"]))
        lines.append(
            f"| {markdown_cell(str(r['suite']))} | {agent} | {r['episodes']} | {r['task_accuracy']:.3f} | {r['edge_f1']:.3f} "
            f"| {r['shd']:.2f} | {r['interventions_used']:.2f} |"
        )
    return "\n".join(lines) + "\n"
