"""A player's events, for their page in scoring (through scoring.hooks.player_events).

Terms:
    record      won, lost and drawn among the player's decided pairings of an event's
                published and closed rounds (byes counted apart); a pairing is decided as
                the standings decide it (tournaments.selectors.decided_winner).
    held back   results the organiser's hiding options keep from this viewer while the
                event runs (ginclub.permissions.held_back): the viewer sees no record of
                such an event until it ends.
Two queries, whatever the number of events or rounds.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Case, Q, When
from django.urls import reverse

from ginclub.permissions import Actor, held_back
from scoring.hooks import PlayerEvent, PlayerEvents
from tournaments.models import Pairing, Round, Tournament
from tournaments.selectors import PAIRING_FIELDS, decided_winner, tournaments_for


def player_events(player_id: int, actor: Actor) -> PlayerEvents:
    """The events of `player_id` that `actor` may open, newest first, with the player's
    record in each (not shown while the event holds results back from `actor`)."""
    events = list(
        tournaments_for(actor).filter(registrations__player_id=player_id).order_by("-date", "-pk")
    )
    rows = (
        Pairing.objects.filter(
            round__tournament__in=[e.pk for e in events],
            round__state__in=[Round.State.PUBLISHED, Round.State.CLOSED],
        )
        .filter(Q(player_a__player_id=player_id) | Q(player_b__player_id=player_id))
        .annotate(held=Case(When(held_back(actor, "round"), then=True), default=False))
        .values(*PAIRING_FIELDS, "round__tournament_id", "held", "player_a__player_id")
    )
    by_event: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        by_event[row["round__tournament_id"]].append(row)
    return PlayerEvents(
        tuple(_event_line(event, by_event[event.pk], player_id) for event in events)
    )


def _event_line(event: Tournament, rows: list[dict], player_id: int) -> PlayerEvent:
    counts = {"won": 0, "lost": 0, "drawn": 0, "byes": 0, "undecided": 0}
    for row in rows:
        counts[_outcome(row, player_id)] += 1
    return PlayerEvent(
        name=event.name,
        date=event.date,
        state=event.get_state_display(),
        path=reverse("tournaments:public", args=[event.slug]),
        match_ids=tuple(row["match_id"] for row in rows if row["match_id"]),
        record_shown=not any(row["held"] for row in rows),
        **counts,
    )


def _outcome(row: dict, player_id: int) -> str:
    if row["player_b_id"] is None:
        return "byes"
    seat = "A" if row["player_a__player_id"] == player_id else "B"
    winner = decided_winner(row)
    if winner is None:
        return "undecided"
    return "won" if winner == seat else "lost"
