"""`manage.py backup PATH [--check]`: a consistent copy of the whole database, while it runs.

SQLite: the online backup API copies the file page by page under SQLite's own locking, so
writers are never blocked for long and the copy is never half-written. PostgreSQL:
`pg_dump --format=custom` (a consistent snapshot). With `--check` the copy is restored
into a scratch database and its ledger verified there, so a backup is known good the day
it is made, not the day it is needed. Restore with `manage.py restore PATH`.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring import backups


class Command(BaseCommand):
    help = "Back up the database to PATH (and, with --check, restore a copy and verify it)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--check", action="store_true", help="restore into a scratch database and verify"
        )

    def handle(self, *args, path: Path, check: bool, **options):
        try:
            backups.back_up(path)
            self.stdout.write(f"backup written: {path} ({path.stat().st_size:,} bytes)")
            if check:
                report = backups.check(path)
                self.stdout.write(f"restored copy verified: {report}")
        except backups.BackupError as error:
            raise CommandError(str(error)) from None
