"""Writing seat summaries (counted by scoring.stats.summaries) from the stored hands and
games.

Every hand action keeps its match's summaries current (scoring.services.recompute calls
`write_match_summaries` after each recompute, from the games and hands it holds);
`rebuild_summaries` rebuilds them all, or a club's, for data written behind the
services' back (a bulk load, a restored dump from before the summaries) or to check them.
"""

from __future__ import annotations

from django.db import transaction

from scoring.models import Game, Hand, Match, SeatSummary
from scoring.stats.summaries import HAND_ROW, SEATS, seat_tallies

CHUNK = 500  # matches a pass: a few reads and one insert each


def write_summaries(match_ids: list[int], models=None) -> int:
    """Rewrite both seat summaries of these matches from their stored hands and games
    (three reads, a delete and an insert per call; call it with a few hundred matches at
    a time). `models` is (Match, Game, Hand, SeatSummary), the historical ones in a
    migration. Called inside the caller's transaction: by scoring.services.recompute
    after every recompute, by `rebuild_summaries` and by migration 0006. Returns how many
    summaries it wrote."""
    match_model, game_model, hand_model, summary_model = models or (Match, Game, Hand, SeatSummary)
    hands: dict[int, list[tuple]] = {pk: [] for pk in match_ids}
    rows = hand_model.objects.filter(state="confirmed", game__match_id__in=match_ids).values_list(
        "game__match_id", *HAND_ROW
    )
    for match_id, *row in rows.order_by():
        hands[match_id].append(row)
    games: dict[int, list[tuple]] = {pk: [] for pk in match_ids}
    finished = game_model.objects.filter(state="finished", match_id__in=match_ids)
    for match_id, *row in finished.order_by().values_list("match_id", "winner", "breakdown"):
        games[match_id].append(row)
    summaries = []
    players = match_model.objects.filter(pk__in=match_ids).values_list(
        "pk", "player_a_id", "player_b_id"
    )
    for match_id, *seated in players:
        tallies = seat_tallies(hands[match_id], games[match_id])
        for seat, player_id in zip(SEATS, seated, strict=True):
            summaries.append(
                summary_model(
                    match_id=match_id, seat=seat, player_id=player_id,
                    **tallies[seat].as_fields(),
                )
            )  # fmt: skip
    summary_model.objects.filter(match_id__in=match_ids).delete()
    summary_model.objects.bulk_create(summaries)
    return len(summaries)


def write_match_summaries(match: Match, games: list[Game]) -> None:
    """Both seat summaries of `match` from its games as a recompute just left them
    (`games`: every game of the match still stored, each with its hands prefetched): the
    same counts `write_summaries` reads back, without reading them, written in one
    statement over the match's two rows (an upsert: the rows stay, their counts move)."""
    hands = [
        tuple(getattr(hand, name) for name in HAND_ROW)
        for game in games
        for hand in game.hands.all()
        if hand.state == Hand.State.CONFIRMED
    ]
    finished = [
        (game.winner, game.breakdown)
        for game in games
        if game.pk is not None and game.state == Game.State.FINISHED
    ]
    tallies = seat_tallies(hands, finished)
    rows = [
        SeatSummary(match_id=match.pk, seat=seat, player_id=player_id, **tallies[seat].as_fields())
        for seat, player_id in zip(SEATS, (match.player_a_id, match.player_b_id), strict=True)
    ]
    SeatSummary.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["match", "seat"],
        update_fields=["player", *tallies["A"].as_fields()],
    )


def rebuild_summaries(*, club_id: int | None = None) -> int:
    """Rewrite the seat summaries of every match (of the club `club_id` if given), each
    pass of CHUNK matches in its own transaction with their rows locked as a hand action
    locks its match, so a hand entered meanwhile is never overwritten by a stale count.
    Returns how many summaries were written. Raises nothing a user could fix."""
    matches = Match.objects.order_by("pk")
    if club_id is not None:
        matches = matches.filter(club_id=club_id)
    ids = list(matches.values_list("pk", flat=True))
    written = 0
    for first in range(0, len(ids), CHUNK):
        chunk = ids[first : first + CHUNK]
        with transaction.atomic():
            list(Match.objects.select_for_update().filter(pk__in=chunk).values_list("pk"))
            written += write_summaries(chunk)
    return written
