"""`make run` keeps the background worker running (issue 24): bin/respawn starts it again
whenever it exits, and stops it with itself."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESPAWN = ROOT / "bin" / "respawn"


def wait_for(condition, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_command_that_exits_is_started_again_and_stops_with_the_loop(tmp_path):
    runs, pids = tmp_path / "runs", tmp_path / "pids"
    # Each run notes itself; the first three exit at once (a crash), the fourth stays.
    command = (
        f"echo run >> {runs}; echo $$ >> {pids}; "
        f'[ "$(wc -l < {runs})" -ge 4 ] && exec sleep 600; exit 3'
    )
    loop = subprocess.Popen(
        [RESPAWN, "The errand", "0.1", "sh", "-c", command],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for(lambda: runs.exists() and len(runs.read_text().split()) >= 4)
        last = int(pids.read_text().split()[-1])
        wait_for(lambda: alive(last))
        loop.send_signal(signal.SIGTERM)
        assert loop.wait(timeout=20) == 0
    finally:
        if loop.poll() is None:
            loop.kill()
    said = loop.stderr.read()
    assert said.count("The errand stopped (status 3); starting it again in 0.1 s.") == 3
    wait_for(lambda: not alive(last))  # the command stopped with the loop
    assert len(runs.read_text().split()) == 4  # and nothing started after


def test_make_run_keeps_the_worker_under_respawn():
    recipe = (ROOT / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert 'bin/respawn "The background worker" 2 $(PY) manage.py run_worker' in recipe
