"""Calls from the table ("Organiser, please"): a player asks staff to come over.

Terms:
    call      one request for staff at a match's table, with its reason (a ruling, a
              dispute, a scoring question); open until staff resolve it. A match has at
              most one open call: a second tap, or the other player calling too, finds
              the one already waiting (and says so) instead of making another.
    taken     a member of staff (an organiser or a scorekeeper of the club) said they
              are on their way; the call stays open until resolved.
    waited    seconds from the call until staff took it (or resolved it untaken), kept
              on the match's ledger with each step.

Each step appends one row to the match's ledger chain, so the calls of a table and how
long each waited are read on its ledger like any other change.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ginclub import permissions
from ginclub.errors import Conflict, ServiceError
from ginclub.permissions import Actor
from scoring.models import TableCall
from scoring.services.base import lock_match, log

NOTE_MAX = 500


@dataclass(frozen=True)
class CallOutcome:
    call: TableCall
    created: bool  # False: the table's open call was already waiting


def call_staff(*, match_id: int, actor: Actor, reason: str) -> CallOutcome:
    """Call staff to the match's table for `reason` (TableCall.Reason). A match with an
    open call keeps that one (created False): no duplicate. Raises Forbidden,
    ServiceError (`invalid`, `not_found`)."""
    if reason not in TableCall.Reason.values:
        raise ServiceError(
            "invalid",
            _("Choose why you call: a ruling, a dispute or a scoring question."),
            fields={"reason": "one of " + ", ".join(TableCall.Reason.values)},
        )
    with transaction.atomic():
        match = lock_match(match_id)
        permissions.require_call_staff(actor, match)
        waiting = match.calls.filter(resolved_at=None).first()
        if waiting is not None:
            return CallOutcome(waiting, created=False)
        player = actor.player if permissions.plays_in(actor, match) else None
        try:
            with transaction.atomic():
                call = TableCall.objects.create(
                    match=match, reason=reason, player=player, called_at=timezone.now()
                )
        except IntegrityError:  # can't happen under the match's lock; a race elsewhere
            return CallOutcome(match.calls.get(resolved_at=None), created=False)
        log(
            match,
            "call_raised",
            actor,
            reason=reason,
            after={"call": call.pk, "reason": reason, "by": player.name if player else ""},
        )
    return CallOutcome(call, created=True)


def take_call(*, call_id: int, actor: Actor) -> TableCall:
    """Staff say they are on their way to the table. Taking a call one took already
    changes nothing. Raises Forbidden, Conflict (`call_resolved`, `call_taken`),
    ServiceError (`not_found`)."""
    with transaction.atomic():
        call, match = _lock_call(call_id, actor)
        if call.resolved_at is not None:
            raise _resolved(call, match)
        if call.taken_at is not None:
            if call.taken_by_id == actor.user.pk:
                return call
            raise Conflict(
                "call_taken",
                _("%(name)s has taken the call of table %(players)s already.")
                % {"name": call.taken_by.get_username(), "players": _players(match)},
            )
        call.taken_at = timezone.now()
        call.taken_by = actor.user
        call.save(update_fields=["taken_at", "taken_by"])
        log(
            match,
            "call_taken",
            actor,
            reason=call.reason,
            after={"call": call.pk, "waited_seconds": _seconds(call.called_at, call.taken_at)},
        )
    return call


def resolve_call(*, call_id: int, actor: Actor, note: str = "") -> TableCall:
    """Staff resolved the call (with an optional note of what they decided); a call
    nobody took is taken and resolved at once. Raises Forbidden, Conflict
    (`call_resolved`), ServiceError (`invalid`, `not_found`)."""
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ServiceError(
            "invalid",
            _("A note holds at most %(max)s characters.") % {"max": NOTE_MAX},
            fields={"note": f"at most {NOTE_MAX} characters"},
        )
    with transaction.atomic():
        call, match = _lock_call(call_id, actor)
        if call.resolved_at is not None:
            raise _resolved(call, match)
        now = timezone.now()
        if call.taken_at is None:
            call.taken_at, call.taken_by = now, actor.user
        call.resolved_at, call.resolved_by, call.note = now, actor.user, note
        call.save(update_fields=["taken_at", "taken_by", "resolved_at", "resolved_by", "note"])
        log(
            match,
            "call_resolved",
            actor,
            reason=note or call.reason,
            after={
                "call": call.pk,
                "waited_seconds": _seconds(call.called_at, call.taken_at),
                "open_seconds": _seconds(call.called_at, now),
                "note": note,
            },
        )
    return call


def _lock_call(call_id: int, actor: Actor) -> tuple[TableCall, object]:
    match_id = TableCall.objects.filter(pk=call_id).values_list("match_id", flat=True).first()
    if match_id is None:
        raise ServiceError("not_found", _("No such call."), status=404)
    match = lock_match(match_id)
    permissions.require_manage_match(actor, match)
    call = TableCall.objects.select_related("taken_by").get(pk=call_id)
    return call, match


def _resolved(call: TableCall, match) -> Conflict:
    return Conflict(
        "call_resolved",
        _("The call of %(players)s was resolved already.") % {"players": _players(match)},
    )


def _players(match) -> str:
    return _("%(a)s v %(b)s") % {"a": match.player_a.name, "b": match.player_b.name}


def _seconds(start, end) -> int:
    return max(0, int((end - start).total_seconds()))
