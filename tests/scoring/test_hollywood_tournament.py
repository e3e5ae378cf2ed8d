"""Hollywood gin in a tournament (issue 8): tables play the three games at once, the
standings count the match (games won, points), and the time policy still decides an
unfinished Hollywood table."""

from __future__ import annotations

import pytest

from scoring.models import Match
from tests.tournaments.helpers import actor, new_event, pairs_of, play_hand
from tournaments import selectors, services

pytestmark = pytest.mark.django_db

# Target 50 keeps matches short. Seat A knocks 55 - 5 = 50 each time (first win: game 1
# only, ends it; second: game 2 only, as game 1 is over, ends it; third: game 3, ends
# it). Each game: A 50 + 100 + 25, B won no hand: shutout doubled, 350 to 0.
# The match: A wins 3-0, 1,050 to 0.
HOLLYWOOD_50 = {"game_target": 50}


def event(club, organiser):
    return new_event(
        club,
        organiser,
        players=2,
        rounds=1,
        profile="hollywood",
        overrides=dict(HOLLYWOOD_50),
        bye_games=3,
    )


def test_a_hollywood_tournament_match_counts_in_the_standings(club, organiser):
    tournament = event(club, organiser)
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    assert pairs_of(rnd) == [("P01", "P02")]
    match = rnd.pairings.get().match
    assert match.rules["hollywood"] and match.games.count() == 3
    for number in (1, 2, 3):
        play_hand(match, organiser, game=1, number=number, winner="A", kd=5, dd=55)
    match.refresh_from_db()
    assert (match.state, match.winner, match.games_won_a, match.games_won_b) == (
        Match.State.FINISHED,
        "A",
        3,
        0,
    )
    assert (match.points_a, match.points_b) == (1050, 0)
    services.close_round(round_id=rnd.pk, actor=actor(organiser))
    rows = {row.name: row.standing for row in selectors.standings(tournament).rows}
    assert (rows["P01"].match_wins, rows["P01"].games_won, rows["P01"].points) == (1, 3, 1050)
    assert (rows["P02"].match_wins, rows["P02"].games_won, rows["P02"].games_played) == (0, 0, 3)


def test_time_policy_decides_an_unfinished_hollywood_table(club, organiser):
    # Hand 1: A 50 ends game 1 (350-0). Hand 2: B knocks 25 - 5 = 20: B's first win,
    # game 1 is over, so it scores in game 2 (B 20); time was called before it (it is the
    # hand in play). The policy: A has won more
    # games (1 to 0), so A wins; points: the match points (350-0) plus the current game's
    # hand points (game 2: 0-20) = 350-20.
    tournament = event(club, organiser)
    rnd = services.draft_round(tournament_id=tournament.pk, actor=actor(organiser))
    services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    match = rnd.pairings.get().match
    play_hand(match, organiser, game=1, number=1, winner="A", kd=5, dd=55)
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser))
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    play_hand(match, organiser, game=1, number=2, winner="B", kd=5, dd=25)  # the hand in play
    match.refresh_from_db()
    assert match.state == Match.State.IN_PROGRESS
    assert list(match.games.order_by("number").values_list("hand_points_a", "hand_points_b")) == [
        (50, 0),
        (0, 20),
        (0, 0),
    ]
    services.apply_time_policy(round_id=rnd.pk, actor=actor(organiser))
    pairing = rnd.pairings.get()
    assert (pairing.match.winner, pairing.match.games_won_a, pairing.match.games_won_b) == (
        "A",
        1,
        0,
    )
    assert (pairing.match.points_a, pairing.match.points_b) == (350, 20)
    services.close_round(round_id=rnd.pk, actor=actor(organiser))
