"""Signed checkpoints of the ledger's chain heads, kept outside the database, so a chain
whose tail was deleted (or that was rewritten whole) no longer ends where it did.

Terms:
    head         a chain's last row: [position, hash].
    checkpoint   {"format", "seq", "written_at", "rows", "heads": {chain: head},
                 "legacy": {chain: position}} with an Ed25519 seal (ginclub.seals) by
                 the server's signing key (ginclub.ledger_keys), in
                 `<ledger dir>/checkpoint.json`, replaced whole each time;
                 `checkpoints.log` beside it keeps one line per checkpoint.
    legacy       each chain's last row with a plain (legacy) hash, from before the
                 ledger had keys: none is written since, so the first checkpoint finds
                 them and every later one carries them on from the one before, never
                 from the database again (a chain re-hashed with the plain hash later
                 has legacy rows no checkpoint holds, however many checkpoints pass).
    note         the database's record of each checkpoint written (seq and digest,
                 scoring.LedgerCheckpoint): a checkpoint file swapped for an older one, or
                 deleted, no longer matches the last note.

Written by the worker (the `write_checkpoint` task) every LEDGER_CHECKPOINT_EVERY rows
(queued by ginclub.ledger.append when a row's id is a multiple of it) and when a round
closes, and at once by `manage.py checkpoint_ledger`. ginclub.ledger.verify holds every
chain against the last checkpoint (`last`).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django_tasks import task

from ginclub import ledger_keys, seals

logger = logging.getLogger(__name__)

FORMAT = "ginclub.ledger-checkpoint"
FILE = "checkpoint.json"
LOG = "checkpoints.log"
ROW_MODEL = "scoring.LedgerRow"
NOTE_MODEL = "scoring.LedgerCheckpoint"


def heads(chains: list[str] | None = None) -> dict[str, list]:
    """Every chain's (or these chains') head, from the database."""
    rows = apps.get_model(ROW_MODEL).objects
    if chains is not None:
        rows = rows.filter(chain__in=chains)
    last = (
        apps.get_model(ROW_MODEL)
        .objects.filter(chain=OuterRef("chain"))
        .order_by("-position")
        .values("position")[:1]
    )
    found = rows.filter(position=Subquery(last)).values_list("chain", "position", "hash")
    return {chain: [position, digest] for chain, position, digest in found}


def legacy_in_database(bounds: dict[str, list] | None = None) -> dict[str, int]:
    """Each chain's last legacy row's position, from the database; with `bounds` (an
    older checkpoint's heads) only the rows that checkpoint already held."""
    found: dict[str, int] = {}
    rows = apps.get_model(ROW_MODEL).objects.filter(key_id=ledger_keys.LEGACY)
    for chain, position in rows.values_list("chain", "position").iterator():
        if bounds is not None:
            if chain not in bounds or position > bounds[chain][0]:
                continue
        found[chain] = max(position, found.get(chain, 0))
    return found


def legacy_held(checkpoint: dict[str, Any]) -> dict[str, int]:
    """The legacy rows a checkpoint vouches for: its own list, or (a checkpoint written
    before it kept one) every row up to its heads."""
    if "legacy" in checkpoint:
        return checkpoint["legacy"]
    return {chain: head[0] for chain, head in checkpoint["heads"].items()}


def _legacy_for_next() -> dict[str, int]:
    """The legacy rows the next checkpoint vouches for: carried from the last checkpoint
    of this server's (an older one's too: the list never grows), else the database's."""
    previous = last().checkpoint
    if previous is None:
        return legacy_in_database()
    if "legacy" in previous:
        return previous["legacy"]
    return legacy_in_database(previous["heads"])


def write() -> dict[str, Any] | None:
    """Checkpoint every chain's head now: the signed file, its log line and the database's
    note. Returns the checkpoint, or None when another writer took this number first."""
    Note = apps.get_model(NOTE_MODEL)
    key = ledger_keys.signing_key()
    try:
        with transaction.atomic():
            previous = Note.objects.select_for_update().order_by("-seq").first()
            found = heads()
            checkpoint = seals.seal(
                {
                    "format": FORMAT,
                    "seq": (previous.seq + 1) if previous else 1,
                    "written_at": timezone.now().isoformat(),
                    "rows": sum(head[0] for head in found.values()),
                    "heads": found,
                    "legacy": _legacy_for_next(),
                },
                key,
            )
            note = Note.objects.create(
                seq=checkpoint["seq"],
                digest=seals.digest(checkpoint),
                rows=checkpoint["rows"],
                written_at=timezone.now(),
            )
            # Written before the commit: a note never points at a file that is not there.
            ledger_keys.replace_file(ledger_keys.ledger_dir() / FILE, seals.canonical(checkpoint))
    except IntegrityError:  # a concurrent writer took this seq: its checkpoint stands
        return None
    with open(ledger_keys.ledger_dir() / LOG, "a", encoding="utf-8") as log:
        log.write(f"{note.seq}\t{checkpoint['written_at']}\t{note.rows}\t{note.digest}\n")
    return checkpoint


@task()
def write_checkpoint() -> int:
    """The worker's task: write a checkpoint; its seq (0: another writer's stood)."""
    checkpoint = write()
    return checkpoint["seq"] if checkpoint else 0


def queue() -> None:
    """Ask the worker for a checkpoint (call it on commit). A queue that refuses is
    logged, not raised: the write that asked has committed and stands."""
    try:
        write_checkpoint.enqueue()
    except Exception:
        logger.exception("A ledger checkpoint could not be queued")


# ---------------------------------------------------------------------- reading


@dataclass(frozen=True)
class Last:
    """The last checkpoint as verify reads it: the checkpoint (None: none usable) and the
    problems found with the file itself."""

    checkpoint: dict[str, Any] | None
    problems: list[str]


def last() -> Last:
    """The checkpoint file, checked: sealed by this server's key, and the one the
    database's last note names."""
    note = apps.get_model(NOTE_MODEL).objects.order_by("-seq").first()
    path = ledger_keys.ledger_dir() / FILE
    if not path.exists():
        if note is None:
            return Last(None, [])
        return Last(
            None,
            [
                _("the checkpoint file is missing (the database notes checkpoint %(seq)s)")
                % {"seq": note.seq}
            ],
        )
    try:
        checkpoint = json.loads(path.read_bytes())
    except ValueError:
        return Last(None, [_("the checkpoint file is not JSON")])
    trusted = ledger_keys.signing_key().public_key()
    problem = seals.seal_problem(checkpoint, trusted)
    if problem or checkpoint.get("format") != FORMAT:
        return Last(
            None,
            [
                _("the checkpoint file is not this server's: %(problem)s")
                % {"problem": problem or FORMAT}
            ],
        )
    if note is not None and (note.seq, note.digest) != (
        checkpoint["seq"],
        seals.digest(checkpoint),
    ):
        return Last(
            checkpoint,
            [
                _(
                    "the checkpoint file holds checkpoint %(found)s, but the database's last "
                    "note is checkpoint %(seq)s: the file was swapped or rolled back"
                )
                % {"found": checkpoint["seq"], "seq": note.seq}
            ],
        )
    return Last(checkpoint, [])
