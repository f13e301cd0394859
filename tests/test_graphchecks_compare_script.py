"""compare() above its in-process budget works from any way of running code, and still stops on Ctrl-C.

Its distances run in a worker process (:func:`causalcheck.base.interrupt.interruptible`); the
worker never imports the caller's ``__main__``, so a script without an
``if __name__ == "__main__":`` guard, ``python -c`` and a script read from standard input all
print their result, and the script runs once.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from causalcheck.base.interrupt import WorkerDied, interruptible
from causalcheck.graphchecks.scores import IN_PROCESS_COST

# Two random 100-node DAGs (a seeded numpy Generator, edge probability 0.4: about 2 000 edges
# each), compared at module level with no main guard.  ``cost`` is compare's estimate, printed
# so that the test can check the distances ran in the worker.
SCRIPT = textwrap.dedent(
    """\
    import numpy as np
    from causalcheck.graphs import compare
    from causalcheck.graphs.convert import from_matrix
    from causalcheck.graphchecks.scores import distance_cost

    print("script start")
    rng = np.random.default_rng(20240942)
    names = [f"x{i}" for i in range(100)]
    truth = np.tril(rng.random((100, 100)) < 0.4, k=-1).astype(int)
    estimate = np.tril(rng.random((100, 100)) < 0.4, k=-1).astype(int)
    r = compare(truth, estimate, convention="row_to_column", names=names)
    t = from_matrix(truth, convention="row_to_column", names=names)
    e = from_matrix(estimate, convention="row_to_column", names=names)
    print("cost", int(distance_cost(t, e)))
    print("result", r.shd, r.sid.count, r.parent_aid.count, r.ancestor_aid.count, r.oset_aid.count)
    """
)


def _run(how: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "compare_dags.py"
    script.write_text(SCRIPT, encoding="utf-8")
    command = {
        "script": ([sys.executable, str(script)], None),
        "-c": ([sys.executable, "-c", SCRIPT], None),
        "stdin": ([sys.executable, "-"], SCRIPT),
    }[how]
    return subprocess.run(command[0], input=command[1], capture_output=True, text=True, cwd=tmp_path, timeout=120, check=False)


@pytest.mark.parametrize("how", ["script", "-c", "stdin"])
def test_compare_at_module_level_without_a_main_guard_prints_the_result(how, tmp_path):
    """A script file, ``python -c`` and ``python - < script`` each print the result once, the distances computed in the worker."""
    done = _run(how, tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines.count("script start") == 1, done.stdout  # the worker never runs the caller's main module
    (cost,) = [int(line.split()[1]) for line in lines if line.startswith("cost ")]
    assert cost > IN_PROCESS_COST
    (result,) = [line for line in lines if line.startswith("result ")]
    assert all(int(x) > 0 for x in result.split()[1:])


def test_the_worker_answer_equals_an_in_process_compare(tmp_path):
    """The distances the script's worker computed equal the same distances computed in this process."""
    import numpy as np
    from causalcheck.graphs import compare

    rng = np.random.default_rng(20240942)
    names = [f"x{i}" for i in range(100)]
    truth = np.tril(rng.random((100, 100)) < 0.4, k=-1).astype(int)
    estimate = np.tril(rng.random((100, 100)) < 0.4, k=-1).astype(int)
    r = compare(truth, estimate, convention="row_to_column", names=names)
    assert r.sid is not None and r.parent_aid is not None and r.ancestor_aid is not None and r.oset_aid is not None
    want = f"result {r.shd} {r.sid.count} {r.parent_aid.count} {r.ancestor_aid.count} {r.oset_aid.count}"
    assert _run("script", tmp_path).stdout.splitlines()[-1] == want


def test_a_worker_print_goes_to_standard_error_not_into_the_answer(capfd):
    """What the callee prints reaches standard error; the answer comes back whole."""
    assert interruptible(print, "printed by the worker") is None
    out, err = capfd.readouterr()
    assert out == "" and "printed by the worker" in err


def test_a_function_of_main_is_refused_naming_it():
    """A callee defined in ``__main__`` cannot be imported by the worker: refused up front with its name."""

    def f() -> None: ...

    f.__module__ = "__main__"
    with pytest.raises(TypeError, match=r"fn=.*f.* is defined in __main__"):
        interruptible(f)


def test_a_worker_killed_by_a_signal_is_named():
    """A worker ended by a signal raises WorkerDied naming the function and the signal."""
    with pytest.raises(WorkerDied, match=r"'_kill_self'.*exit code -9 \(SIGKILL\)"):
        interruptible(_kill_self)


def _kill_self() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


LONG = textwrap.dedent(
    """\
    import random
    import sys
    from causalcheck.graphs import compare

    rng, pairs = random.Random(1), set()
    while len(pairs) < 6000:
        a, b = rng.randrange(1000), rng.randrange(1000)
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    text = "; ".join(f"v{i}" for i in range(1000)) + "; " + "; ".join(f"v{a} -> v{b}" for a, b in sorted(pairs))
    if sys.argv[1:2] == ["--write"]:
        open(sys.argv[2], "w", encoding="utf-8").write(text)
        sys.exit()
    print("computing", flush=True)
    compare(text, text)
    print("finished")
    """
)


@pytest.mark.parametrize(
    ("how", "sig", "to_group"),
    [("script", signal.SIGINT, True), ("cli", signal.SIGINT, False), ("cli", signal.SIGTERM, False)],
    ids=["script-ctrl-c", "cli-sigint", "cli-sigterm"],
)
def test_a_signal_in_a_long_compare_ends_it_at_once_and_leaves_no_worker(how, sig, to_group, tmp_path):
    """SIGINT to a script's process group (a terminal's Ctrl-C), SIGINT or SIGTERM to the command line, in a
    minute-long compare: the process ends within seconds (KeyboardInterrupt; exit 130 or 143) and no process is left."""
    script = tmp_path / "long_compare.py"
    script.write_text(LONG, encoding="utf-8")
    graph = tmp_path / "g.txt"
    if how == "script":
        command = [sys.executable, str(script)]
    else:
        subprocess.run([sys.executable, str(script), "--write", str(graph)], check=True, cwd=tmp_path, timeout=60)
        command = [sys.executable, "-m", "causalcheck", "compare", str(graph), str(graph), "--json"]
    env = {**os.environ, "CAUSALCHECK_COMPARE_COST_BUDGET": str(10**13)}
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=tmp_path,
        start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        if how == "script":
            assert proc.stdout is not None and proc.stdout.readline() == b"computing\n"
        time.sleep(3)  # the worker has started and runs gadjid
        sent = time.monotonic()
        if to_group:
            os.killpg(proc.pid, sig)
        else:
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
        proc.wait()
    assert time.monotonic() - sent < 10, err.decode()
    if how == "script":
        assert b"KeyboardInterrupt" in err and b"finished" not in out
    else:
        assert proc.returncode == (130 if sig == signal.SIGINT else 143) and out == b"", err.decode()
    assert _group_ends(proc.pid), "a process of the group (the worker shares its caller's) is still running"


def _group_ends(pgid: int, seconds: float = 5.0) -> bool:
    """Whether process group *pgid* has no process left within *seconds*."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False
