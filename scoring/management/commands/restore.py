"""`manage.py restore PATH --yes`: put a backup made by `manage.py backup` back in place of
the current database, then verify the ledger. Stop the app servers first."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring import backups


class Command(BaseCommand):
    help = "Replace the database with a backup made by `manage.py backup`, then verify it."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--yes", action="store_true", help="yes, replace the database")

    def handle(self, *args, path: Path, yes: bool, **options):
        if not yes:
            raise CommandError("This replaces every row of the database: add --yes to go on.")
        try:
            report = backups.restore(path)
        except backups.BackupError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"restored from {path}; {report}")
