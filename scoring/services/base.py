"""What every write service shares: what a write did (`Outcome`), the match lock, the
state checks (who may act is ginclub.permissions'), idempotency keys and entries, and the
match's ledger chain. Services lock the match row first (on SQLite the IMMEDIATE
transaction is that lock), so everything below runs one writer per match at a time.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError
from django.db.models import Subquery
from django.utils.translation import gettext as _

from ginclub import ledger
from ginclub.errors import Conflict, ServiceError
from ginclub.permissions import Actor
from ginclub.prepared import Prepared
from ginclub.shapes import represent
from scoring import hooks
from scoring.models import Entry, Game, Hand, Match
from scoring.serializers import HandActionOutputSerializer
from scoring.services.recompute import GamesRead, games_and


@dataclass
class Outcome:
    """What a write service did: the hand it touched and the response to send."""

    hand: Hand | None
    response: dict[str, Any]
    replayed: bool = False
    entry: Entry | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def chain_of(match: Match) -> str:
    return f"match:{match.pk}"


def log(match: Match, action: str, actor: Actor, **change: Any) -> None:
    """One row on the match's ledger chain, inside the caller's transaction; `change`
    is the rest of ledger.append's keywords (hand, entry, reason, before, after). The
    chain's head is the one `under_lock` read, when it did (`match.ledger_head`)."""
    ledger.append(**_ledger_row(match, action, actor, change), head=ledger.head_of(match))


def log_each(matches: list[Match], action: str, actor: Actor, changes: list[dict]) -> None:
    """log() for many matches at once (ledger.append_each): `changes[i]` is match i's."""
    rows = [_ledger_row(m, action, actor, c) for m, c in zip(matches, changes, strict=True)]
    ledger.append_each(rows)


def _ledger_row(match: Match, action: str, actor: Actor, change: dict[str, Any]) -> dict:
    return {
        "chain": chain_of(match),
        "action": action,
        "actor": actor.label,
        "user": actor.user,
        "match": match,
        **change,
    }


def where_from(actor: Actor) -> dict[str, Any]:
    """The device and address a change came from, for a ledger row that has no entry
    (an organiser's decision): auditors see it next to who acted."""
    said = {"device": actor.device[:200], "ip": actor.ip}
    return {key: value for key, value in said.items() if value}


def snapshot(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "game": hand.game.number,
        "state": hand.state,
        "version": hand.version,
        "outcome": hand.outcome,
        "knocker": hand.knocker,
        "knocker_deadwood": hand.knocker_deadwood,
        "defender_deadwood": hand.defender_deadwood,
        "points": hand.points,
        "winner": hand.winner,
    }


def _locked_matches():
    """Matches to lock, read with their club, players and round clock (the play gate
    reads it: scoring.hooks.match_clock_related). The lock takes the rows of the match,
    its club and its players; the clock's, on the nullable side of the join, stay free."""
    return Match.objects.select_for_update(
        of=("self", "club", "player_a", "player_b")
    ).select_related("club", "player_a", "player_b", *hooks.match_clock_related())


# Every hand action starts with one of these two: prepared (ginclub.prepared), since
# building and compiling the joins took Django longer than the database took to answer.
_locked_match = Prepared(lambda match_id: _locked_matches().filter(pk=match_id), {"match_id": int})
_locked_match_of_hand = Prepared(
    lambda hand_id: _locked_matches().filter(games__hands__pk=hand_id), {"hand_id": int}
)


def lock_match(match_id: int) -> Match:
    found = _locked_match(match_id=int(match_id))
    if not found:
        raise ServiceError("not_found", _("No such match."), status=404)
    return found[0]


def lock_hand(hand_id: int) -> Match:
    """The hand's match, locked (found through the hand in the same query)."""
    found = _locked_match_of_hand(hand_id=int(hand_id))
    if not found:
        raise ServiceError("not_found", _("No such hand."), status=404)
    return found[0]


def hand_in(games: list[Game], hand_id: int) -> Hand:
    """The hand among the games `under_lock` read: the recompute that follows a change
    to it works from the same objects, so the hand is read once."""
    hand = next((h for game in games for h in game.hands.all() if h.pk == hand_id), None)
    if hand is None:  # hands are never deleted: cannot happen, but say so rather than fail
        raise ServiceError("not_found", _("No such hand."), status=404)
    return hand


def under_lock(match: Match, key: str) -> tuple[list[Game], int | None]:
    """What a hand action reads once it holds the match's lock, in one query: every game
    with its hands (recompute.games_and), the id of the entry already made with the
    idempotency key `key` (None for a new key), and the head of the match's ledger
    chain, kept on the match for `log` (`match.ledger_head`). Sent after the locking
    statement, never folded into it: on PostgreSQL that statement, after waiting for the
    lock, would still see the entries and ledger rows as they were before it waited.
    Refuses a missing or overlong key first."""
    check_key(key)
    games, read = games_and(match, _KEYED_AND_HEAD, key=key, chain=chain_of(match))
    match.ledger_head = ledger.Head.read(read)
    return games, read["keyed"]


def _keyed_and_head(match_id: int, key: str, chain: str) -> dict[str, Subquery]:
    keyed = Entry.objects.filter(match_id=match_id, idempotency_key=key).values("pk")[:1]
    return {"keyed": Subquery(keyed), **ledger.head_reads(chain)}


_KEYED_AND_HEAD = GamesRead(_keyed_and_head, key=str, chain=str)


def require_open(match: Match) -> None:
    if match.state == Match.State.CLOSED:
        raise Conflict("match_closed", _("The match is closed; an organiser must reopen it first."))


def require_version(hand: Hand, version: int) -> None:
    if hand.version != version:
        raise Conflict(
            "stale_version",
            _(
                "Hand %(number)s has changed (now version %(now)s, you saw version "
                "%(seen)s); reload and try again."
            )
            % {"number": hand.number, "now": hand.version, "seen": version},
        )


def request_hash(kind: str, payload: dict[str, Any]) -> str:
    text = json.dumps([kind, payload], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def check_key(key: str) -> None:
    """Raises ServiceError (`invalid`) for a missing or overlong idempotency key."""
    if not key or len(key) > 80:
        raise ServiceError(
            "invalid",
            _("Every submission needs an idempotency key of 1 to 80 characters."),
            fields={"idempotency_key": _("required")},
        )


def replayed_outcome(actor: Actor, key_hash: str, keyed: int | None) -> Outcome | None:
    """The stored answer to a retry of this very request, or None for a new key (`keyed`:
    the id of the entry made with its key, as `under_lock` read it). Call it after the
    permission check: a replay goes only to the actor who made the entry.

    Raises Conflict (`idempotency_key_in_use`: another actor's key;
    `idempotency_conflict`: the same key for a different request)."""
    if keyed is None:
        return None
    entry = Entry.objects.select_related("hand").get(pk=keyed)
    if not made_by(entry, actor):
        # Said without naming whose it is: the key may have been overheard or guessed.
        raise Conflict(
            "idempotency_key_in_use",
            _("This idempotency key is already in use; send the request with a new key."),
            fields={"idempotency_key": _("already in use")},
        )
    if entry.request_hash != key_hash:
        raise Conflict(
            "idempotency_conflict",
            _("This idempotency key was already used for a different request."),
        )
    return Outcome(hand=entry.hand, response=entry.response, replayed=True, entry=entry)


def made_by(entry: Entry, actor: Actor) -> bool:
    """Whether `actor` made `entry`: the same player (seat) for a player's entry, the same
    signed-in user for an organiser's."""
    if entry.player_id is not None:
        return actor.player is not None and actor.player.pk == entry.player_id
    user = user_of(actor)
    return user is not None and entry.user_id == user.pk


def record_entry(
    match,
    actor: Actor,
    seat: str,
    kind: str,
    payload,
    key: str,
    key_hash: str,
    hand: Hand | None = None,
    response: dict[str, Any] | None = None,
) -> Entry:
    """The entry of this request. `response`: the answer, when it is known before the
    entry is written (`answer`: a change to a hand that exists), so that `done` need not
    write it after; otherwise `finish` writes it."""
    # No savepoint of its own: the refusal below rolls the caller's whole transaction
    # back (a savepoint would cost two statements on every hand action for a case that
    # cannot happen).
    try:
        return Entry.objects.create(
            match=match,
            hand=hand,
            kind=kind,
            seat=seat,
            player=actor.player,
            user=user_of(actor),
            device=actor.device[:200],
            ip=actor.ip,
            payload=payload,
            idempotency_key=key,
            request_hash=key_hash,
            response=response,
        )
    except IntegrityError:  # can't happen under the match lock; refuse rather than fork
        raise Conflict(
            "idempotency_conflict", _("This request is already being processed.")
        ) from None


def link_entry(entry: Entry, hand: Hand) -> None:
    entry.hand = hand
    entry.save(update_fields=["hand"])


def answer(hand: Hand, **extra: Any) -> dict[str, Any]:
    """The API's answer to a hand action (HandActionOutputSerializer), kept with the
    entry: a replayed idempotency key answers it again."""
    return represent(HandActionOutputSerializer, {"hand": hand, **extra})


def finish(entry: Entry, hand: Hand) -> Outcome:
    # The answer, written to the entry once the hand is: the entry's hand is written in
    # the same statement (a new hand's entry is made before the hand, which stands on it).
    extra = getattr(entry, "response_extra", None) or {}
    entry.response = answer(hand, **extra)
    entry.save(update_fields=["hand", "response"])
    return Outcome(hand=hand, response=entry.response, entry=entry)


def done(entry: Entry, hand: Hand) -> Outcome:
    """The outcome of an action whose entry was written with its answer already
    (record_entry's `response`, from `answer` before the entry)."""
    assert entry.response is not None, "the entry was written without its answer"
    return Outcome(hand=hand, response=entry.response, entry=entry)


def user_of(actor: Actor):
    user = actor.user
    return user if user is not None and user.is_authenticated else None
