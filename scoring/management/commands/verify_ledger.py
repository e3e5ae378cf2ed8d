"""`manage.py verify_ledger [--chain match:12]`: check every hash chain of the ledger."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ginclub import ledger
from scoring.models import Hand, LedgerRow


class Command(BaseCommand):
    help = "Verify the audit ledger's hash chains and name the first row that does not fit."

    def add_arguments(self, parser):
        parser.add_argument("--chain", help="verify one chain only, e.g. match:12")

    def handle(self, *args, chain=None, **options):
        breaks = ledger.verify(chain)
        rows = LedgerRow.objects.filter(chain=chain) if chain else LedgerRow.objects.all()
        if breaks:
            for problem in breaks:
                self.stderr.write(f"BROKEN {problem}")
            raise CommandError(f"{len(breaks)} chain(s) broken")
        self.stdout.write(f"ledger OK: {rows.count()} rows verified; {Hand.objects.count()} hands")
