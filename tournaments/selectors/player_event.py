"""One player's event, as their own phone shows it (reads): the table they sit at now,
their results round by round, their next opponent once the next round is published,
the round clock and their standing.

Terms:
    latest round  the newest published (or closed) round; drafts are never shown.
    now           the player's pairing in the latest round while that round is played.
    hidden        results of the rounds after `hidden_after` (the organiser's
                  hide_last_rounds, as on the public pairings page) show no winner and
                  no score; the standing comes from the public standings, hidden as they
                  are (hide_standings_during_round, hide_last_rounds).
    out           knocked out of a bracket (lost an elimination match), or not in the
                  latest round (withdrawn, not checked in, not in the top cut).

Six queries, whatever the number of rounds: the rounds, the player's pairings, and the
public standings (three), plus the field size when the event plans its rounds by it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.models import Pairing, Registration, Round, Tournament
from tournaments.selectors.clock import Clock, clock
from tournaments.selectors.events import rounds_planned
from tournaments.selectors.standings import StandingRow, StandingsView, standings


@dataclass(frozen=True)
class MyRound:
    number: int
    stage: str
    table: int | None
    opponent: str | None  # None: a bye
    pairing: int
    outcome: str  # "won", "lost", "drawn", "playing", "bye", "hidden"
    games: tuple[int, int] | None = None  # mine, theirs
    points: tuple[int, int] | None = None
    decided: bool = False  # the table is over (said even when its result is hidden)

    @property
    def has_table(self) -> bool:
        return self.opponent is not None and self.table is not None


@dataclass(frozen=True)
class MyEvent:
    tournament: Tournament
    registration: Registration
    rounds: list[MyRound]  # oldest first
    latest: Round | None
    now: MyRound | None  # in the latest round, while it is played
    clock: Clock | None
    next_round: int | None  # the round whose pairing is still to come
    out: str  # why the player has no table now ("" when they have one)
    standing: StandingRow | None
    standings: StandingsView

    @property
    def field(self) -> int:
        return len(self.standings.rows)


def my_event(
    tournament: Tournament, registration: Registration, *, hidden_after: int | None
) -> MyEvent:
    """`registration` (of `tournament`) as their own page shows it."""
    rounds = list(tournament.round_set.exclude(state=Round.State.DRAFT).order_by("number"))
    latest = rounds[-1] if rounds else None
    mine = [_my_round(p, registration.pk, hidden_after) for p in _pairings(registration)]
    in_latest = next((r for r in mine if latest and r.number == latest.number), None)
    playing = latest is not None and latest.state == Round.State.PUBLISHED
    shown = standings(tournament, public=True)
    return MyEvent(
        tournament=tournament,
        registration=registration,
        rounds=mine,
        latest=latest,
        now=in_latest if playing else None,
        clock=clock(latest) if playing else None,
        next_round=_next_round(tournament, registration, latest, in_latest, mine),
        out=_out(registration, latest, in_latest, mine),
        standing=next((row for row in shown.rows if row.registration_id == registration.pk), None),
        standings=shown,
    )


def _pairings(registration: Registration) -> list[Pairing]:
    return list(
        Pairing.objects.filter(
            Q(player_a=registration) | Q(player_b=registration),
            round__state__in=[Round.State.PUBLISHED, Round.State.CLOSED],
        )
        .select_related("round", "player_a__player", "player_b__player", "match")
        .order_by("round__number")
    )


def _my_round(p: Pairing, me: int, hidden_after: int | None) -> MyRound:
    seat = "A" if p.player_a_id == me else "B"
    other = p.player_b if seat == "A" else p.player_a
    base = dict(
        number=p.round.number,
        stage=p.round.stage,
        table=p.table,
        opponent=other.player.name if other is not None else None,
        pairing=p.pk,
    )
    if p.is_bye:
        return MyRound(**base, outcome="bye", decided=True)
    m = p.match
    games = (m.games_won_a, m.games_won_b) if m else (0, 0)
    points = (m.points_a, m.points_b) if m else (0, 0)
    winner = m.winner if m else ""
    decided = m is not None and m.state != m.State.IN_PROGRESS
    if hidden_after is not None and p.round.number > hidden_after:
        return MyRound(**base, outcome="hidden", decided=decided)
    if seat == "B":
        games, points = games[::-1], points[::-1]
    if not decided:
        outcome = "playing"
    elif not winner:
        outcome = "drawn"
    else:
        outcome = "won" if winner == seat else "lost"
    return MyRound(**base, outcome=outcome, games=games, points=points, decided=decided)


def _knocked_out(mine: list[MyRound]) -> MyRound | None:
    return next(
        (r for r in mine if r.stage == Round.Stage.ELIMINATION and r.outcome == "lost"), None
    )


def _out(
    registration: Registration, latest: Round | None, in_latest: MyRound | None, mine: list
) -> str:
    lost = _knocked_out(mine)
    if lost is not None:
        return _("Out of the bracket: lost to %(opponent)s in round %(number)s.") % {
            "opponent": lost.opponent,
            "number": lost.number,
        }
    if latest is None or in_latest is not None:
        return ""
    if registration.withdrawn:
        return _("Withdrawn: no more tables in this event.")
    return _("Not paired in round %(number)s.") % {"number": latest.number}


def _next_round(
    tournament: Tournament,
    registration: Registration,
    latest: Round | None,
    in_latest: MyRound | None,
    mine: list[MyRound],
) -> int | None:
    """The round whose opponent is still to come, when the player plays on: the next
    one once their table of the latest round is decided (or round 1 before any)."""
    if tournament.state == Tournament.State.FINISHED or registration.withdrawn:
        return None
    if _knocked_out(mine) is not None:
        return None
    if latest is None:
        return 1
    if in_latest is not None and not in_latest.decided:
        return None
    if latest.number >= rounds_planned(tournament):
        return None
    return latest.number + 1
