"""`manage.py rotate_ledger_key`: hash new ledger rows with a fresh MAC key; the old keys
stay in the key file so the rows they hashed keep verifying (ginclub.ledger_keys)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from ginclub import ledger_keys


class Command(BaseCommand):
    help = "Add a fresh ledger MAC key and hash new rows with it (old keys are kept)."

    def handle(self, *args, **options):
        try:
            key_id = ledger_keys.rotate()
        except ValueError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"new ledger rows are hashed with key {key_id}")
