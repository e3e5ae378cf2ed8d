"""The audit ledger: append one hash-chained row per state change, and verify chains.

Each match has its own chain ("match:<id>"); other subjects (a tournament, a club) get
theirs. A row's hash covers its content and the previous row's hash, so editing, deleting
or reordering a row behind the service's back breaks the chain from that row on. Callers
append inside the transaction that makes the change, holding the lock on the subject
(the match row), so positions are taken one at a time; the unique (chain, position)
constraint refuses a fork if two writers ever raced anyway.

This is the shared core's write layer for the audit trail: both apps' services append
through it, and it imports neither app. The rows live in scoring's LedgerRow model,
reached by its label (`scoring.LedgerRow`). What a row's action and its stored values
say to a reader is each app's own: an app registers, from its AppConfig.ready(),

    action labels   {action: label}, the label a gettext_noop msgid ("Hand corrected");
                    an action nobody labelled reads as itself with spaces, capitalised.
    field text      a function saying a stored string value of one field in the
                    reader's language (a pairing's stored reason), where the app that
                    wrote it knows how; otherwise the value is shown as written.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

GENESIS = "0" * 64
ROW_MODEL = "scoring.LedgerRow"


def _rows():
    """The ledger's rows (scoring's LedgerRow model, named by its label)."""
    return apps.get_model(ROW_MODEL)


def _digest(row: Any) -> str:
    content = {
        "chain": row.chain,
        "position": row.position,
        "action": row.action,
        "match": row.match_id,
        "hand": row.hand_id,
        "entry": row.entry_id,
        "actor": row.actor,
        "user": row.user_id,
        "reason": row.reason,
        "before": row.before,
        "after": row.after,
        "created_at": row.created_at.isoformat(timespec="microseconds"),
        "prev_hash": row.prev_hash,
    }
    encoded = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(encoded.encode()).hexdigest()


def append(
    *,
    chain: str,
    action: str,
    actor: str,
    user=None,
    match=None,
    hand=None,
    entry=None,
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> Any:
    """Append one row to `chain` and return it (a LedgerRow). Must run inside the
    caller's transaction."""
    assert transaction.get_connection().in_atomic_block, "ledger rows are written with the change"
    LedgerRow = _rows()
    last = LedgerRow.objects.filter(chain=chain).order_by("-position").first()
    row = LedgerRow(
        chain=chain,
        position=(last.position + 1) if last else 1,
        action=action,
        match=match,
        hand=hand,
        entry=entry,
        actor=actor[:150],
        user=user if getattr(user, "is_authenticated", False) else None,
        reason=reason,
        before=before,
        after=after,
        created_at=timezone.now(),
        prev_hash=last.hash if last else GENESIS,
    )
    row.hash = _digest(row)
    row.save(force_insert=True)
    return row


@dataclass(frozen=True)
class Break:
    chain: str
    position: int
    row_id: int | None
    problem: str

    def __str__(self) -> str:
        return f"{self.chain} row {self.position} (id {self.row_id}): {self.problem}"


def verify(chain: str | None = None) -> list[Break]:
    """Walk every chain (or one) and return the first row of each that does not fit."""
    rows = _rows().objects.order_by("chain", "position")
    if chain is not None:
        rows = rows.filter(chain=chain)
    breaks: list[Break] = []
    current, expected_prev, expected_pos, broken = None, GENESIS, 1, False
    for row in rows.iterator(chunk_size=2000):
        if row.chain != current:
            current, expected_prev, expected_pos, broken = row.chain, GENESIS, 1, False
        if not broken:
            problem = _problem(row, expected_prev, expected_pos)
            if problem:
                breaks.append(Break(row.chain, row.position, row.pk, problem))
                broken = True
        expected_prev, expected_pos = row.hash, row.position + 1
    return breaks


def verify_chains(chains: list[str]) -> dict[str, Break | None]:
    """{chain: its first row that does not verify, or None}, for the pages and the API
    that show a verification (a match's ledger, a tournament's audit). The one place
    they ask the verifier: when the verifier changes, it changes here."""
    found: dict[str, Break | None] = dict.fromkeys(chains)
    for chain in chains:
        breaks = verify(chain=chain)
        found[chain] = breaks[0] if breaks else None
    return found


def _problem(row: Any, expected_prev: str, expected_pos: int) -> str:
    if row.position != expected_pos:
        return _("position %(position)s where %(expected)s was expected (a row is missing)") % {
            "position": row.position,
            "expected": expected_pos,
        }
    if row.prev_hash != expected_prev:
        return _("its previous hash does not match the row before it")
    if _digest(row) != row.hash:
        return _("its content does not match its hash (the row was edited)")
    return ""


# ------------------------------------------------------------------- what rows say

_action_labels: dict[str, str] = {}
FieldText = Callable[[str], str]
_field_text: dict[str, FieldText] = {}


def register_actions(labels: Mapping[str, str]) -> None:
    """Label the actions an app writes: {action: gettext_noop msgid}."""
    _action_labels.update(labels)


def action_label(action: str) -> str:
    """`hand_corrected` → `Hand corrected`, in the reader's language where labelled."""
    said = _action_labels.get(str(action))
    return gettext(said) if said else str(action).replace("_", " ").capitalize()


def register_field_text(field: str, word: FieldText) -> None:
    """`word(value)` says a string value of `field` on the ledger in the reader's
    language (as written when it is not the app's)."""
    _field_text[field] = word


def field_text(field: str, value: Any) -> str | None:
    """The registered words for a stored value of `field` (None: none registered)."""
    word = _field_text.get(field)
    return word(value) if word is not None and isinstance(value, str) else None
