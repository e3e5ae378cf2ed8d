"""`manage.py verify_archive FILE [--public-key signing-key.pub]`: check a signed
tournament archive on any machine, without the database (ginclub.seals; the procedure is
in docs/audit.md). Fails naming each part or ledger row changed after signing."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from ginclub import seals


class Command(BaseCommand):
    help = "Check a signed tournament archive's seal, parts and ledger rows (no database)."
    requires_system_checks: list = []  # runs where there is no database at all

    def add_arguments(self, parser):
        parser.add_argument("file", help="the archive (.json) to check")
        parser.add_argument(
            "--public-key",
            help="the server's public key (signing-key.pub); without it the key inside the "
            "archive is used and its fingerprint printed, to compare with the one you hold",
        )

    def handle(self, *args, file, public_key=None, **options):
        try:
            with open(file, encoding="utf-8") as handle:
                archive = json.load(handle)
            trusted = None
            if public_key:
                with open(public_key, "rb") as handle:
                    trusted = seals.load_public(handle.read())
        except (OSError, ValueError) as error:
            raise CommandError(f"cannot read it: {error}") from None
        problems = seals.archive_problems(archive, trusted)
        for problem in problems:
            self.stderr.write(f"CHANGED {problem}")
        if problems:
            raise CommandError(f"{file}: {len(problems)} problem(s); the archive is not as signed")
        fingerprint = archive[seals.SEAL]["fingerprint"]
        trust = "the trusted key" if trusted else "key"
        self.stdout.write(
            f"archive OK: {len(archive[seals.LEDGER]['rows'])} ledger rows, signed by "
            f"{trust} {fingerprint}"
        )
