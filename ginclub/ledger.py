"""The audit ledger: append one hash-chained row per state change, and verify chains.

Each match has its own chain ("match:<id>"); other subjects (a tournament, a club) get
theirs. A row's hash is a keyed MAC (HMAC-SHA256, ginclub.ledger_keys; the key's id is on
the row) of its content and the previous row's hash, so editing, deleting or reordering a
row behind the service's back breaks the chain from that row on, and nobody without the
key can re-hash the chain after it. Chain heads are checkpointed, signed, outside the
database (ginclub.checkpoints), so a deleted tail is found too. docs/audit.md has the
threat model. Callers
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
    value text      a function saying a whole stored value of one field (a list of a
                    round's pairs by registration id, the tables the time policy decided)
                    in words, with the players' names; None leaves it to the page.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext, pgettext
from django.utils.translation import gettext as _

from ginclub import checkpoints, ledger_keys
from ginclub.ledger_keys import LEGACY

GENESIS = "0" * 64
ROW_MODEL = "scoring.LedgerRow"


def _rows():
    """The ledger's rows (scoring's LedgerRow model, named by its label)."""
    return apps.get_model(ROW_MODEL)


def _digest(row: Any) -> str:
    """The row's MAC under its key; a legacy row's plain SHA-256 (as it was written).
    Raises ledger_keys.UnknownKey for a key this server does not hold."""
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
    if row.key_id == LEGACY:
        encoded = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(encoded.encode()).hexdigest()
    content["key_id"] = row.key_id  # a row cannot be passed off as another key's
    encoded = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
    return ledger_keys.mac(row.key_id, encoded.encode())


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
    head: Head | None = None,
) -> Any:
    """Append one row to `chain` and return it (a LedgerRow). Must run inside the
    caller's transaction. `head`: the chain's head as the caller read it under its lock
    (`head_reads`, folded into a read it makes anyway), moved on to the new row; without
    it the head is read here."""
    assert transaction.get_connection().in_atomic_block, "ledger rows are written with the change"
    if head is None:
        last = _rows().objects.filter(chain=chain).order_by("-position").first()
        known = (last.position, last.hash) if last else (0, GENESIS)
    else:
        known = (head.position, head.hash)
    row = _new_row(
        known,
        chain=chain,
        action=action,
        match=match,
        hand=hand,
        entry=entry,
        actor=actor,
        user=user,
        reason=reason,
        before=before,
        after=after,
    )
    row.save(force_insert=True)
    if head is not None:
        head.position, head.hash = row.position, row.hash
    _checkpoint_when_due([row])
    return row


@dataclass
class Head:
    """A chain's last position and hash (0 and GENESIS for an empty chain), as a caller
    holding the subject's lock read them; `append(head=...)` moves it on."""

    position: int
    hash: str

    @classmethod
    def read(cls, values: Mapping[str, Any]) -> Head:
        """The head from the values of `head_reads` (None for an empty chain)."""
        position = values["ledger_position"]
        return cls(position, values["ledger_hash"]) if position else cls(0, GENESIS)


def head_of(subject: Any) -> Head | None:
    """The head of its chain a caller keeps on the chain's subject (`subject.ledger_head`,
    a match: read under its lock with `head_reads`), or None where none was read. Every
    writer of that chain in the transaction passes it to `append`, which moves it on."""
    return getattr(subject, "ledger_head", None)


def head_reads(chain: str) -> dict[str, Subquery]:
    """The chain's head as two scalar subqueries (`ledger_position`, `ledger_hash`), to
    fold into a read the caller makes under the subject's lock anyway. On PostgreSQL only
    a statement sent after the lock was taken sees every row written before it: never
    fold them into the locking statement itself (after waiting for the lock, its
    subqueries still see the rows as they were when it began)."""
    last = _rows().objects.filter(chain=chain).order_by("-position")
    return {
        "ledger_position": Subquery(last.values("position")[:1]),
        "ledger_hash": Subquery(last.values("hash")[:1]),
    }


def append_each(changes: Sequence[Mapping[str, Any]]) -> list[Any]:
    """append() to many chains at once, one row each (`changes`: append's keywords): the
    chains' last rows are read in one query and the new rows written in one, whatever
    their number (a round's tables starting together). Must run inside the caller's
    transaction."""
    assert transaction.get_connection().in_atomic_block, "ledger rows are written with the change"
    LedgerRow = _rows()
    chains = [change["chain"] for change in changes]
    assert len(set(chains)) == len(chains), "one row per chain"
    latest = LedgerRow.objects.filter(chain=OuterRef("chain")).order_by("-position")
    heads = {
        chain: (position, digest)
        for chain, position, digest in LedgerRow.objects.filter(
            chain__in=chains, position=Subquery(latest.values("position")[:1])
        ).values_list("chain", "position", "hash")
    }
    rows = LedgerRow.objects.bulk_create(
        [_new_row(heads.get(c["chain"], (0, GENESIS)), **c) for c in changes]
    )
    _checkpoint_when_due(rows)
    return rows


def _checkpoint_when_due(rows: Sequence[Any]) -> None:
    """Queue a checkpoint of the chain heads after the commit when one of `rows` is the
    LEDGER_CHECKPOINT_EVERY-th row written (by id)."""
    every = settings.LEDGER_CHECKPOINT_EVERY
    if any(row.pk is not None and row.pk % every == 0 for row in rows):
        transaction.on_commit(checkpoints.queue)


def _new_row(head: tuple[int, str], *, chain: str, actor: str, user=None, **values: Any) -> Any:
    """The row after `head` (the chain's last position and hash), hashed, not saved."""
    row = _rows()(
        chain=chain,
        position=head[0] + 1,
        actor=actor[:150],
        user=user if getattr(user, "is_authenticated", False) else None,
        created_at=timezone.now(),
        prev_hash=head[1],
        key_id=ledger_keys.ring().current,
        **values,
    )
    row.hash = _digest(row)
    return row


@dataclass(frozen=True)
class Break:
    chain: str
    position: int
    row_id: int | None
    problem: str

    def __str__(self) -> str:
        return f"{self.chain} row {self.position} (id {self.row_id}): {self.problem}"


Chains = str | Collection[str] | None


def _only(rows, chain: Chains):
    if chain is None:
        return rows
    return rows.filter(chain=chain) if isinstance(chain, str) else rows.filter(chain__in=chain)


def verify(chain: Chains = None, *, checkpoint: bool = True) -> list[Break]:
    """Walk every chain (or one, or these) and return the first row of each that does not
    fit, then every chain that does not reach its head in the last checkpoint (and what
    is wrong with the checkpoint itself, as breaks of the chain "checkpoint"). Without
    `checkpoint`, the chains alone (a backup's copy, older than the checkpoint)."""
    last = checkpoints.last() if checkpoint else checkpoints.Last(None, [])
    heads = _checkpointed(last, chain)
    # the legacy rows the checkpoint vouches for (None: no checkpoint to hold them to)
    legacy = checkpoints.legacy_held(last.checkpoint) if last.checkpoint else None
    at_heads: dict[str, tuple[int, str]] = {}  # chain: (row id, hash) at its head
    rows = _only(_rows().objects.order_by("chain", "position"), chain)
    breaks: list[Break] = []
    current, expected_prev, expected_pos, broken, keyed = None, GENESIS, 1, False, False
    for row in rows.iterator(chunk_size=2000):
        if row.chain != current:
            current, expected_prev, expected_pos, broken = row.chain, GENESIS, 1, False
            keyed = False
        if not broken:
            problem = _problem(row, expected_prev, expected_pos, keyed, legacy)
            if problem:
                breaks.append(Break(row.chain, row.position, row.pk, problem))
                broken = True
        if row.chain in heads and heads[row.chain][0] == row.position:
            at_heads[row.chain] = (row.pk, row.hash)
        expected_prev, expected_pos = row.hash, row.position + 1
        keyed = keyed or row.key_id != LEGACY
    return breaks + _against_checkpoint(last, heads, at_heads)


def legacy_rows(chain: Chains = None) -> int:
    """How many rows carry a plain hash (written before keys): anyone holding the
    database could rewrite those with their chain's tail, short of a checkpoint."""
    return _only(_rows().objects.filter(key_id=LEGACY), chain).count()


def _problem(
    row: Any, expected_prev: str, expected_pos: int, keyed: bool, legacy: dict[str, int] | None
) -> str:
    if row.position != expected_pos:
        return _("position %(position)s where %(expected)s was expected (a row is missing)") % {
            "position": row.position,
            "expected": expected_pos,
        }
    if row.prev_hash != expected_prev:
        return _("its previous hash does not match the row before it")
    if keyed and row.key_id == LEGACY:
        return _("it has a plain (legacy) hash after keyed rows (the chain was re-hashed)")
    if row.key_id == LEGACY and legacy is not None and row.position > legacy.get(row.chain, 0):
        return _(
            "it has a plain (legacy) hash, but the checkpoints hold no legacy row here: it "
            "was written after the ledger had keys (the chain was re-hashed)"
        )
    try:
        if _digest(row) != row.hash:
            return _("its content does not match its hash (the row was edited)")
    except ledger_keys.UnknownKey:
        return _("it was hashed with key %(key)s, which this server does not hold") % {
            "key": row.key_id
        }
    return ""


CHECKPOINT = "checkpoint"


def _checkpointed(last: checkpoints.Last, chain: Chains) -> dict[str, list]:
    """The last checkpoint's heads of the chains verified."""
    if last.checkpoint is None:
        return {}
    chosen = {chain} if isinstance(chain, str) else chain
    heads = last.checkpoint["heads"]
    return {name: head for name, head in heads.items() if chosen is None or name in chosen}


def _against_checkpoint(
    last: checkpoints.Last, heads: dict[str, list], at_heads: dict[str, tuple[int, str]]
) -> list[Break]:
    """Each chain held against the last checkpoint: its row at the checkpointed head must
    still be there with the same hash. The checkpoint file's own problems come first, as
    breaks of the chain "checkpoint"."""
    breaks = [Break(CHECKPOINT, 0, None, problem) for problem in last.problems]
    if last.checkpoint is None:
        return breaks
    taken = _("the checkpoint of %(time)s") % {"time": last.checkpoint["written_at"]}
    for name, (position, digest) in sorted(heads.items()):
        row_id, found_hash = at_heads.get(name, (None, None))
        if row_id is None:
            problem = _(
                "%(checkpoint)s has it end at row %(position)s, which is gone (its tail was "
                "deleted)"
            )
        elif found_hash != digest:
            problem = _("%(checkpoint)s has a different row %(position)s (the chain was rewritten)")
        else:
            continue
        values = {"checkpoint": taken, "position": position}
        breaks.append(Break(name, position, row_id, problem % values))
    return breaks


# ------------------------------------------------------------------- what rows say

_action_labels: dict[str, str] = {}
FieldText = Callable[[str], str]
_field_text: dict[str, FieldText] = {}
ValueText = Callable[[Any], "str | None"]
_value_text: dict[str, ValueText] = {}


def register_actions(labels: Mapping[str, str]) -> None:
    """Label the actions an app writes: {action: gettext_noop msgid}."""
    _action_labels.update(labels)


def action_label(action: str) -> str:
    """`hand_corrected` → `Hand corrected`, in the reader's language where labelled."""
    said = _action_labels.get(str(action))
    return gettext(said) if said else str(action).replace("_", " ").capitalize()


def actor_label(actor: str) -> str:
    """Who acted, as a row stores it (Actor.label: `player Ada`, `user olga`,
    `anonymous`), in the reader's language; the name stays as stored."""
    kind, _space, name = str(actor).partition(" ")
    if kind == "player" and name:
        # Translators: who acted on the ledger ("By player Ada"): a player at a table.
        return gettext("player %(name)s") % {"name": name}
    if kind == "user" and name:
        # Translators: who acted on the ledger ("By user olga"): a logged-in user.
        return gettext("user %(name)s") % {"name": name}
    if actor == "anonymous":
        return pgettext("ledger actor", "anonymous")
    return str(actor)


def register_field_text(field: str, word: FieldText) -> None:
    """`word(value)` says a string value of `field` on the ledger in the reader's
    language (as written when it is not the app's)."""
    _field_text[field] = word


def field_text(field: str, value: Any) -> str | None:
    """The registered words for a stored value of `field` (None: none registered)."""
    word = _field_text.get(field)
    return word(value) if word is not None and isinstance(value, str) else None


def register_value_text(field: str, word: ValueText) -> None:
    """`word(value)` says a whole stored value of `field` (any JSON value) in the
    reader's language, or None when it cannot."""
    _value_text[field] = word


def value_text(field: str, value: Any) -> str | None:
    """The registered words for a whole stored value of `field` (None: none)."""
    word = _value_text.get(field)
    return word(value) if word is not None else None
