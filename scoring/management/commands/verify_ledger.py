"""`manage.py verify_ledger [--chain match:12]`: check every hash chain of the ledger
against its keys and the last signed checkpoint, and replay every match's chain against
the hands, games and result tables (scoring.replay; docs/audit.md)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scoring import replay
from scoring.models import Hand


class Command(BaseCommand):
    help = (
        "Verify the audit ledger: each chain's hashes, each chain against the last signed "
        "checkpoint, and each match's replay against the tables, naming every problem."
    )

    def add_arguments(self, parser):
        parser.add_argument("--chain", help="verify one chain only, e.g. match:12")
        parser.add_argument(
            "--without-checkpoint",
            action="store_true",
            help="do not hold the chains against the last checkpoint (a backup's copy, "
            "older than it by nature)",
        )

    def handle(self, *args, chain=None, without_checkpoint=False, **options):
        held = not without_checkpoint
        found = (
            replay.verify_chain(chain, checkpoint=held) if chain else replay.verify(checkpoint=held)
        )
        for problem in found.breaks:
            self.stderr.write(f"BROKEN {problem}")
        for difference in found.differences:
            self.stderr.write(f"DIFFERS {difference}")
        if found.legacy_rows:
            self.stdout.write(
                f"note: {found.legacy_rows} rows carry a plain (legacy) hash from before "
                "the ledger had keys"
            )
        if found.checkpoint is None and held:
            self.stdout.write("note: no checkpoint yet (run manage.py checkpoint_ledger)")
        if not found.ok:
            raise CommandError(
                f"{len(found.breaks)} chain(s) broken, {len(found.differences)} difference(s) "
                "between the ledger and the tables"
            )
        against = (
            f"held against checkpoint {found.checkpoint['seq']}"
            if found.checkpoint
            else "no checkpoint held against"
        )
        hands = Hand.objects.count()
        self.stdout.write(f"ledger OK: {found.rows} rows verified; {hands} hands; {against}")
