"""What a tournament's format makes of its rounds: the stage of round N and how many
rounds the event has. Plain reads of a tournament's settings, shared by the services
and the selectors (so neither imports the other for them)."""

from __future__ import annotations

import math

from tournaments.models import Round, Tournament
from tournaments.pairing import bracket_size, round_robin


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
