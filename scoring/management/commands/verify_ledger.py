"""`manage.py verify_ledger [--chain match:12]`: check every hash chain of the ledger
against its keys and the last signed checkpoint, and replay every match's chain against
the hands, games and result tables (scoring.replay; docs/audit.md)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scoring import replay


class Command(BaseCommand):
    help = (
        "Verify the audit ledger: each chain's hashes, each chain against the last signed "
        "checkpoint, and each match's replay against the tables, naming every problem."
    )

    def add_arguments(self, parser):
        parser.add_argument("--chain", help="verify one chain only, e.g. match:12")

    def handle(self, *args, chain=None, **options):
        found = replay.verify_chain(chain) if chain else replay.verify()
        for problem in found.breaks:
            self.stderr.write(f"BROKEN {problem}")
        for difference in found.differences:
            self.stderr.write(f"DIFFERS {difference}")
        if found.legacy_rows:
            self.stdout.write(
                f"note: {found.legacy_rows} rows carry a plain (legacy) hash from before "
                "the ledger had keys"
            )
        if found.checkpoint is None:
            self.stdout.write("note: no checkpoint yet (run manage.py checkpoint_ledger)")
        if not found.ok:
            raise CommandError(
                f"{len(found.breaks)} chain(s) broken, {len(found.differences)} difference(s) "
                "between the ledger and the tables"
            )
        held = f"checkpoint {found.checkpoint['seq']}" if found.checkpoint else "no checkpoint"
        self.stdout.write(f"ledger OK: {found.rows} rows verified; held against {held}")
