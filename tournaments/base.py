"""Plumbing shared by the tournament services: locks, permission, the ledger, stages.

Every tournament service locks the tournament row first (on SQLite the IMMEDIATE
transaction is that lock), so two organisers' clicks are taken one at a time and the
tournament's ledger chain ("tournament:<id>") never forks.
"""

from __future__ import annotations

import math
from typing import Any

from scoring import ledger
from ginclub.errors import Conflict, Forbidden, ServiceError
from scoring.services import Actor
from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.pairing import PairingError, bracket_size, round_robin


def lock_tournament(tournament_id: int, actor: Actor) -> Tournament:
    """The tournament, locked, if `actor` organises its club. Raises ServiceError
    (`not_found`, 404) or Forbidden (`not_allowed`)."""
    tournament = (
        Tournament.objects.select_for_update()
        .select_related("club")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None:
        raise ServiceError("not_found", "No such tournament.", status=404)
    require_organiser(actor, tournament)
    return tournament


def require_organiser(actor: Actor, tournament: Tournament) -> None:
    if not actor.organises(tournament.club):
        raise Forbidden("not_allowed", "Only the club's organisers manage its tournaments.")


def lock_round(round_id: int, actor: Actor) -> tuple[Tournament, Round]:
    tournament_id = (
        Round.objects.filter(pk=round_id).values_list("tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise ServiceError("not_found", "No such round.", status=404)
    tournament = lock_tournament(tournament_id, actor)
    return tournament, Round.objects.get(pk=round_id)


def lock_pairing(pairing_id: int, actor: Actor) -> tuple[Tournament, Pairing]:
    tournament_id = (
        Pairing.objects.filter(pk=pairing_id).values_list("round__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        raise ServiceError("not_found", "No such pairing.", status=404)
    tournament = lock_tournament(tournament_id, actor)
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
        raise ServiceError("not_found", "No such registration.", status=404)
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


def pairing_error(error: PairingError) -> ServiceError:
    return ServiceError(error.code, error.message)


# ------------------------------------------------------------------------ stages


def stage_of(tournament: Tournament, number: int) -> str:
    """The stage round `number` belongs to."""
    fmt = tournament.format
    if fmt == Tournament.Format.ROUND_ROBIN:
        return Round.Stage.ROUND_ROBIN
    if fmt == Tournament.Format.ELIMINATION:
        return Round.Stage.ELIMINATION
    if fmt == Tournament.Format.SWISS_CUT and number > tournament.rounds:
        return Round.Stage.ELIMINATION
    return Round.Stage.SWISS


def planned_rounds(tournament: Tournament, field: int) -> int:
    """How many rounds the event has for a field of `field` players (the roster once
    round 1 fixed it): Swiss rounds, plus log2(cut) for a top cut; n−1 (n when odd) for
    a round robin; log2 of the bracket for single elimination."""
    fmt = tournament.format
    if tournament.roster and fmt in (Tournament.Format.ROUND_ROBIN, Tournament.Format.ELIMINATION):
        field = len(tournament.roster)
    if fmt == Tournament.Format.SWISS:
        return tournament.rounds
    if fmt == Tournament.Format.SWISS_CUT:
        return tournament.rounds + int(math.log2(max(tournament.cut_size, 2)))
    if field < 2:
        return 0
    if fmt == Tournament.Format.ROUND_ROBIN:
        return len(round_robin(list(range(field))))
    return int(math.log2(bracket_size(field)))


# ----------------------------------------------------------------- rounds, results


def require_state(rnd: Round, state: str) -> None:
    if rnd.state != state:
        raise Conflict(
            f"not_{state}",
            f"Round {rnd.number} is {rnd.get_state_display()}, not {Round.State(state).label}.",
        )


RESULT_FIELDS = [
    "result_winner",
    "result_reason",
    "result_games_a",
    "result_games_b",
    "result_points_a",
    "result_points_b",
    "resolved_at",
]


def resolve(
    pairing: Pairing,
    winner: str,
    games: tuple[int, int],
    points: tuple[int, int],
    reason: str,
    when,
) -> None:
    pairing.result_winner, pairing.result_reason = winner, reason
    pairing.result_games_a, pairing.result_games_b = games
    pairing.result_points_a, pairing.result_points_b = points
    pairing.resolved_at = when
