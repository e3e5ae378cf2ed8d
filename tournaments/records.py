"""A player's events, for their page in scoring (through scoring.hooks.player_events).

Terms:
    record      won, lost and drawn among the player's decided pairings of an event's
                published and closed rounds (byes counted apart); a pairing is decided as
                the standings decide it (tournaments.selectors.decided_winner).
    hidden      the organiser's hiding options hold back results from the public while
                an event runs (hide_last_rounds: the last rounds; hide_standings_during_round:
                the round being played). A viewer who does not organise the club sees no
                record of such an event, and none of the results of its matches held back,
                until it ends.
Two queries (and one per club the events belong to, asking whether the viewer organises
it), whatever the number of events or rounds.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Q
from django.urls import reverse

from ginclub.permissions import Actor
from scoring.hooks import PlayerEvent, PlayerEvents
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors import PAIRING_FIELDS, decided_winner, tournaments_for


def player_events(player_id: int, actor: Actor) -> PlayerEvents:
    """The events of `player_id` that `actor` may open, newest first, with the player's
    record in each, and the matches whose results `actor` may not see yet."""
    events = list(
        tournaments_for(actor).filter(registrations__player_id=player_id).order_by("-date", "-pk")
    )
    rows = (
        Pairing.objects.filter(
            round__tournament__in=[e.pk for e in events],
            round__state__in=[Round.State.PUBLISHED, Round.State.CLOSED],
        )
        .filter(Q(player_a__player_id=player_id) | Q(player_b__player_id=player_id))
        .values(*PAIRING_FIELDS, "round__tournament_id", "round__state", "player_a__player_id")
    )
    by_event: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        by_event[row["round__tournament_id"]].append(row)
    found, hidden = [], set()
    organised: dict[int, bool] = {}  # one question per club, not per event
    for event in events:
        if event.club_id not in organised:
            organised[event.club_id] = actor.organises(event.club)
        line, held_back = _event_line(event, by_event[event.pk], player_id, organised)
        found.append(line)
        hidden.update(held_back)
    return PlayerEvents(tuple(found), frozenset(hidden))


def _hides(event: Tournament, row: dict, organised: dict[int, bool]) -> bool:
    if event.state == Tournament.State.FINISHED or organised[event.club_id]:
        return False
    if event.hide_last_rounds:
        return True
    return event.hide_standings_during_round and row["round__state"] == Round.State.PUBLISHED


def _event_line(
    event: Tournament, rows: list[dict], player_id: int, organised: dict[int, bool]
) -> tuple[PlayerEvent, set[int]]:
    counts = {"won": 0, "lost": 0, "drawn": 0, "byes": 0, "undecided": 0}
    held_back = {
        row["match_id"] for row in rows if row["match_id"] and _hides(event, row, organised)
    }
    for row in rows:
        counts[_outcome(row, player_id)] += 1
    line = PlayerEvent(
        name=event.name,
        date=event.date,
        state=event.get_state_display(),
        path=reverse("tournaments:public", args=[event.slug]),
        match_ids=tuple(row["match_id"] for row in rows if row["match_id"]),
        record_shown=not any(_hides(event, row, organised) for row in rows),
        **counts,
    )
    return line, held_back


def _outcome(row: dict, player_id: int) -> str:
    if row["player_b_id"] is None:
        return "byes"
    seat = "A" if row["player_a__player_id"] == player_id else "B"
    winner = decided_winner(row)
    if winner is None:
        return "undecided"
    return "won" if winner == seat else "lost"
