"""Backing up and restoring the whole database, on SQLite and PostgreSQL alike.

    back_up(path)   a consistent copy while the service runs: SQLite's online backup
                    API, or pg_dump's custom format
    check(path)     restore the copy into a scratch database and verify its ledger there
    restore(path)   replace the current database with the copy, then verify the ledger

The ledger's hash chains make a restore checkable: every match and tournament chain must
verify on the restored copy exactly as on the original.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

from ginclub import ledger
from scoring.models import Hand, LedgerRow


class BackupError(Exception):
    """A backup or restore that could not be made or did not verify."""


def back_up(path: Path) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        target = sqlite3.connect(path)
        try:
            connection.connection.backup(target)
        finally:
            target.close()
    elif connection.vendor == "postgresql":
        _pg("pg_dump", "--format=custom", "--no-owner", f"--file={path}", _dbname())
    else:  # pragma: no cover - the project runs on these two only
        raise BackupError(f"no backup for {connection.vendor}")


def check(path: Path) -> str:
    """Restore `path` into a scratch database, verify it there; a one-line report."""
    if connection.vendor == "sqlite":
        with tempfile.TemporaryDirectory() as scratch:
            copy = Path(scratch) / "restored.sqlite3"
            source = sqlite3.connect(path)
            target = sqlite3.connect(copy)
            try:
                source.backup(target)
            finally:
                source.close()
                target.close()
            return _verified(str(copy))
    name = f"{connection.settings_dict['NAME']}_check_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE DATABASE "{name}"')
    try:
        _pg("pg_restore", "--no-owner", f"--dbname={name}", str(path), database=name)
        return _verified(name)
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


def restore(path: Path) -> str:
    """Replace the current database with the backup at `path`; verify; a report."""
    if not Path(path).exists():
        raise BackupError(f"no backup at {path}")
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        source = sqlite3.connect(path)
        try:
            source.backup(connection.connection)
        finally:
            source.close()
    else:
        _pg(
            "pg_restore",
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            f"--dbname={_dbname()}",
            str(path),
        )
    return _report()


def _verified(database: str) -> str:
    """Verify a restored copy in a process of its own, configured for that copy alone,
    exactly as the service would open it."""
    env = dict(os.environ)
    # the server's ledger keys, wherever the copy lies (they are not in the database)
    env["DJANGO_LEDGER_DIR"], env["DJANGO_LEDGER_KEYS"] = (
        str(settings.LEDGER_DIR),
        settings.LEDGER_KEYS,
    )
    if connection.vendor == "sqlite":
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = database
    else:
        env["DATABASE_URL"] = _url(database)
    result = subprocess.run(
        # A backup is older than the last checkpoint by nature: its chains and replay only.
        [
            sys.executable,
            str(settings.BASE_DIR / "manage.py"),
            "verify_ledger",
            "--without-checkpoint",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if result.returncode != 0:
        raise BackupError(f"the restored ledger does not verify: {result.stderr.strip()[:500]}")
    return result.stdout.strip()


def _report() -> str:
    breaks = ledger.verify(checkpoint=False)  # the checkpoint may be newer than the backup
    if breaks:
        raise BackupError(f"the restored ledger does not verify: {breaks[0]}")
    return f"ledger OK: {LedgerRow.objects.count()} rows verified; {Hand.objects.count()} hands"


def _url(name: str) -> str:
    s = connection.settings_dict
    auth = s.get("USER") or ""
    if s.get("PASSWORD"):
        auth += f":{quote(s['PASSWORD'], safe='')}"
    host = f"{s.get('HOST') or 'localhost'}:{s.get('PORT') or 5432}"
    return f"postgres://{auth}@{host}/{name}" if auth else f"postgres://{host}/{name}"


def _dbname() -> str:
    return connection.settings_dict["NAME"]


def _pg(program: str, *args: str, database: str | None = None) -> None:
    settings = connection.settings_dict
    env = dict(os.environ)
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = settings["PASSWORD"]
    command = [program]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            command.append(f"{flag}={settings[key]}")
    result = subprocess.run(
        [*command, *args], env=env, capture_output=True, text=True, timeout=3600
    )
    if result.returncode != 0:
        raise BackupError(f"{program} failed: {result.stderr.strip()[:500]}")
