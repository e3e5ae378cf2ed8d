"""The background worker through a real PostgreSQL outage: a throwaway cluster of the
test's own (never the suite's database) is stopped under a running `run_worker`
process and started again; a task queued after the restart is run by the same process.

Waits poll with generous timeouts and assert no duration: a busy machine is slower,
not wrong.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from benchmarks.front import free_port

REPO = Path(__file__).resolve().parents[2]
PG_BIN = Path("/usr/lib/postgresql/15/bin")
PATIENCE = 120.0  # seconds any one wait may take before the test gives up


def wait_for(what: str, done: Callable[[], bool]) -> None:
    deadline = time.monotonic() + PATIENCE
    while not done():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.2)


class Cluster:
    """A PostgreSQL cluster in `where`, run as the postgres user when we are root."""

    def __init__(self, where: Path) -> None:
        self.data, self.port = where / "data", free_port()
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_postgres:
            shutil.chown(where, "postgres")
        self.pg(["initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres"])

    def pg(self, command: list[str], *, check: bool = True) -> None:
        program = [str(PG_BIN / command[0]), *command[1:]]
        subprocess.run([*self.as_postgres, *program], check=check, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1"
        self.pg(["pg_ctl", "-D", str(self.data), "-o", options, "-w", "-l", "/dev/null", "start"])

    def stop(self) -> None:
        self.pg(["pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop"])

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=PATIENCE,
    )


ENQUEUE = (
    "from tournaments.services.season_ladders import refresh_ladders; "
    "print(refresh_ladders.enqueue([]).id)"
)
STATUS = (
    "import sys; from django_tasks_db.models import DBTaskResult; "
    "print(DBTaskResult.objects.get(id=sys.argv[-1]).status)"
)


def enqueue(env: dict[str, str]) -> str | None:
    """A task queued in the cluster; None while the database does not answer yet."""
    result = manage("shell", "-c", ENQUEUE, env=env)
    return result.stdout.strip().splitlines()[-1] if result.returncode == 0 else None


def status_is(env: dict[str, str], task_id: str, wanted: str) -> bool:
    probe = STATUS.replace("sys.argv[-1]", repr(task_id))
    result = manage("shell", "-c", probe, env=env)
    return result.returncode == 0 and result.stdout.strip().endswith(wanted)


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    if connection.vendor != "postgresql":
        pytest.skip("the outage is a PostgreSQL one (the suite runs on SQLite here)")
    if not (PG_BIN / "initdb").exists():
        pytest.skip(f"no initdb in {PG_BIN} to make a throwaway cluster")
    # Not pytest's tmp_path: its parent is private to us, and the cluster runs as postgres.
    where = Path(tempfile.mkdtemp(prefix="ginclub-outage-"))
    try:
        pg = Cluster(where)
        pg.start()
        yield pg
        pg.pg(["pg_ctl", "-D", str(pg.data), "-m", "immediate", "stop"], check=False)
    finally:
        shutil.rmtree(where, ignore_errors=True)


def test_the_worker_outlives_a_postgresql_restart_and_runs_what_is_queued_after(cluster, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.update(DJANGO_DEBUG="1", DATABASE_URL=cluster.url, DJANGO_CONN_MAX_AGE="0")
    env["DJANGO_LEDGER_DIR"] = str(settings.LEDGER_DIR)  # a tmp dir (tests/conftest.py)
    assert manage("migrate", "--noinput", "-v0", env=env).returncode == 0
    log = tmp_path / "worker.log"
    with log.open("w") as out:
        worker = subprocess.Popen(
            [sys.executable, "manage.py", "run_worker", "--no-reload", "--interval=0.2"],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        before = enqueue(env)
        assert before is not None
        wait_for("the first task to run", lambda: status_is(env, before, "SUCCESSFUL"))

        cluster.stop()
        wait_for("the worker to see the outage", lambda: "went away" in log.read_text())
        assert worker.poll() is None, log.read_text()
        cluster.start()

        after: list[str] = []
        wait_for(
            "the database to take a task", lambda: after.append(enqueue(env) or "") or after[-1]
        )
        ran = lambda: status_is(env, after[-1], "SUCCESSFUL")  # noqa: E731
        wait_for("the task queued after the restart to run", ran)
        assert worker.poll() is None, log.read_text()
        assert "answers again" in log.read_text()
    finally:
        worker.terminate()
        worker.wait(timeout=PATIENCE)
