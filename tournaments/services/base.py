"""Plumbing shared by the tournament services: locks, permission, the ledger, states.

Every tournament service locks the tournament row first (on SQLite the IMMEDIATE
transaction is that lock), so two organisers' clicks are taken one at a time and the
tournament's ledger chain ("tournament:<id>") never forks.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ginclub import ledger, permissions
from ginclub.errors import Conflict, NotFound
from ginclub.permissions import Actor
from tournaments.formats import planned_rounds, stage_of
from tournaments.models import Pairing, Registration, Round, Tournament

__all__ = [
    "lock_pairing",
    "lock_registration",
    "lock_round",
    "lock_tournament",
    "log",
    "planned_rounds",
    "require_state",
    "stage_of",
]


def lock_tournament(tournament_id: int, actor: Actor, *, run: bool = False) -> Tournament:
    """The tournament, locked, if `actor` organises its club (ginclub.permissions); with
    `run`, if it may run its rounds (its scorekeepers too: may_run_rounds). Raises
    NotFound (`not_found`) or Forbidden (`not_allowed`, `auditor_read_only`,
    `scorekeeper_not_allowed`)."""
    tournament = (
        Tournament.objects.select_for_update()
        .select_related("club")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        raise NotFound("not_found", _("No such tournament."))
    if run:
        permissions.require_run_rounds(actor, tournament)
    else:
        permissions.require_organiser(actor, tournament.club, _("manage its tournaments"))
    return tournament


def lock_round(round_id: int, actor: Actor) -> tuple[Tournament, Round]:
    """The round's tournament, locked, and the round, for whoever runs its rounds."""
    tournament_id = (
        Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise NotFound("not_found", _("No such round."))
    tournament = lock_tournament(tournament_id, actor, run=True)
    return tournament, Round.objects.get(pk=round_id)


def lock_pairing(pairing_id: int, actor: Actor) -> tuple[Tournament, Pairing]:
    """The table's tournament, locked, and its pairing, for whoever runs its rounds."""
    tournament_id = (
        Pairing.objects.filter(pk=pairing_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise NotFound("not_found", _("No such pairing."))
    tournament = lock_tournament(tournament_id, actor, run=True)
    pairing = Pairing.objects.select_related(
        "round", "match", "player_a__player", "player_b__player"
    ).get(pk=pairing_id)
    return tournament, pairing


def lock_registration(registration_id: int, actor: Actor) -> tuple[Tournament, Registration]:
    tournament_id = (
        Registration.objects.filter(pk=registration_id)
        .values_list("tournament_id", flat=True)
        .first()
    )
    if tournament_id is None:
        raise NotFound("not_found", _("No such registration."))
    tournament = lock_tournament(tournament_id, actor)
    return tournament, Registration.objects.select_related("player").get(pk=registration_id)


def log(
    tournament: Tournament,
    action: str,
    actor: Actor,
    *,
    reason: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
) -> None:
    """One row on the tournament's ledger chain, inside the caller's transaction."""
    ledger.append(
        chain=tournament.chain,
        action=action,
        actor=actor.label,
        user=actor.user,
        reason=reason,
        before=before,
        after=after,
    )


# ------------------------------------------------------------------------- rounds


ROUND_STATES = [Round.State.DRAFT, Round.State.PUBLISHED, Round.State.CLOSED]


def require_state(rnd: Round, state: str) -> None:
    """Raises Conflict (`not_<state>`). A round already past `state` is most often a
    second tap, or a second tab, doing what was done: said so, not as a contradiction."""
    if rnd.state == state:
        return
    words = {"number": rnd.number, "state": rnd.get_state_display()}
    if ROUND_STATES.index(rnd.state) > ROUND_STATES.index(state):
        # Translators: "Round 2 was published already, perhaps from another tab: ...".
        message = _(
            "Round %(number)s was %(state)s already, perhaps from another tab: nothing was changed."
        )
    else:
        # Translators: "Round 2 is published, not a draft." (the rounds' states).
        message = _("Round %(number)s is %(state)s, not %(wanted)s.")
        words["wanted"] = Round.State(state).label
    raise Conflict(f"not_{state}", message % words)
