"""`manage.py checkpoint_ledger`: sign every chain's head now, outside the database
(ginclub.checkpoints). The worker also does it every LEDGER_CHECKPOINT_EVERY rows and on
every round close."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ginclub import checkpoints, ledger_keys


class Command(BaseCommand):
    help = "Write a signed checkpoint of every ledger chain's head to the ledger directory."

    def handle(self, *args, **options):
        ledger_keys.ring()  # the MAC key file too, on a new deployment (check --deploy)
        checkpoint = checkpoints.write()
        if checkpoint is None:
            raise CommandError("Another checkpoint was being written at the same time; run again.")
        path = ledger_keys.ledger_dir() / checkpoints.FILE
        self.stdout.write(
            f"checkpoint {checkpoint['seq']} written to {path}: {len(checkpoint['heads'])} "
            f"chains, {checkpoint['rows']} rows; signed by key {checkpoint['seal']['fingerprint']}"
        )
