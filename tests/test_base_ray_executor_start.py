"""``--executor ray`` before any task runs: an address nobody answers fails fast, naming it; a signal
during Ray's start is the command's own (exit 143 / 130 with the note) and leaves no Ray process behind.

No cluster is shared here (each test starts or fails to start its own); the tests need the [ray] extra.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from causalcheck.cli import main

pytest.importorskip("ray", reason="the [ray] extra is not installed: pip install 'causalcheck[ray]'")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_address_nobody_answers_fails_within_seconds_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--ray-address 127.0.0.1:<closed port>`: exit 2 at once (not after minutes of Ray's retries),
    naming the address and what to check."""
    address = f"127.0.0.1:{_free_port()}"
    start = time.monotonic()
    code = main(["lab", "run", "--suite", "mini", "--limit", "1", "--agent", "planner", "--executor", "ray",
                 "--ray-address", address, "--out", str(tmp_path / "run"), "--quiet"])  # fmt: skip
    assert code == 2 and time.monotonic() - start < 30
    err = capsys.readouterr().err
    assert f"cannot join the Ray cluster at --ray-address/RAY_ADDRESS='{address}': connection refused" in err


def _processes_marked(mark: str) -> list[str]:
    """Command lines of the live processes whose environment holds *mark* (what the child started)."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if mark.encode() in (proc / "environ").read_bytes():
                found.append((proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            continue
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc to find the processes Ray started")
@pytest.mark.parametrize(("sig", "code", "word"), [(signal.SIGTERM, 143, "terminated"), (signal.SIGINT, 130, "interrupted")])
@pytest.mark.parametrize("delay", [0.8, 2.0, 3.5])
def test_a_signal_during_rays_start_is_the_commands_and_stops_ray(tmp_path: Path, sig: int, code: int, word: str, delay: float) -> None:
    """SIGTERM / SIGINT while a local cluster starts (before, during and after Ray installs its own
    handler): the command's exit code and note, and none of Ray's processes (raylet, GCS, agents) left."""
    mark = f"CAUSALCHECK_TEST_MARK={uuid.uuid4().hex}"
    env = {**os.environ, mark.split("=")[0]: mark.split("=")[1]}
    proc = subprocess.Popen(
        [sys.executable, "-m", "causalcheck", "lab", "run", "--suite", "mini", "--limit", "2", "--agent", "planner",
         "--executor", "ray", "--workers", "1", "--out", str(tmp_path / "run"), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip
    time.sleep(delay)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip(f"the run finished within {delay} s: nothing to interrupt on this machine")
    assert proc.returncode == code, err[-2000:]
    assert f"causalcheck: {word}" in err
    deadline = time.monotonic() + 20
    while _processes_marked(mark.split("=")[1]) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert _processes_marked(mark.split("=")[1]) == []


_SIGTERM_TWICE = """
import os, signal, time
from causalcheck.base.interrupt import Terminated, terminate_as_interrupt
from causalcheck.base.ray_executor import RayExecutor

with terminate_as_interrupt():
    executor = RayExecutor(num_cpus=1)
    for when in ("started", "stopped"):
        if when == "started":
            executor.describe()
        else:
            executor.close()
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        except Terminated:
            print(f"Ray {when}: SIGTERM is the command's", flush=True)
"""


@pytest.mark.slow
def test_sigterm_stays_the_commands_after_ray_started_and_after_it_stopped() -> None:
    """Native code of Ray once took SIGTERM over (ending the process with no word, exit -15) from the
    start of its driver on, and left it at the system default after ``ray.shutdown``."""
    proc = subprocess.run([sys.executable, "-c", _SIGTERM_TWICE], capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == ["Ray started: SIGTERM is the command's", "Ray stopped: SIGTERM is the command's"]
