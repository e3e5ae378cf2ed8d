"""Time called on a fixed-length game (issue 22, finding 5; docs/rules.md §7, §13): the
time policy ranks the game in play as §7 decides a fixed-length game, on totals with
boxes and the game bonuses earned so far, not on hand points, and records those totals."""

from __future__ import annotations

import pytest

from scoring.models import Match
from tests.tournaments.helpers import actor, new_event, play_hand
from tournaments import services

pytestmark = pytest.mark.django_db


def school_table(club, organiser, overrides=None):
    event = new_event(
        club,
        organiser,
        players=["Ada", "Ben"],
        profile="school",
        overrides=overrides or {},
        bye_games=1,
    )
    rnd = services.draft_round(tournament_id=event.pk, actor=actor(organiser))
    rnd = services.publish_round(round_id=rnd.pk, actor=actor(organiser))
    return rnd, rnd.pairings.select_related("match").get()


def play_then_apply_the_policy(rnd, pairing, organiser, hands):
    """`hands` (winner, points) are knocks; time is called before the last one, the hand
    in play."""
    match = pairing.match
    *before, in_play = hands
    for number, (winner, points) in enumerate(before, start=1):
        play_hand(match, organiser, game=1, number=number, winner=winner, kd=5, dd=5 + points)
    services.start_round_timer(round_id=rnd.pk, actor=actor(organiser))
    services.call_time(round_id=rnd.pk, actor=actor(organiser))
    winner, points = in_play
    play_hand(match, organiser, game=1, number=len(hands), winner=winner, kd=5, dd=5 + points)
    match.refresh_from_db()
    assert match.state == Match.State.IN_PROGRESS  # of the 10 hands: the game goes on
    services.apply_time_policy(round_id=rnd.pk, actor=actor(organiser))
    pairing.refresh_from_db()
    return pairing


def test_time_policy_gives_a_school_game_to_the_leader_on_totals_with_boxes(club, organiser):
    # Ben (B) scores 60 on hand 1, Ada (A) wins the next four knocks of 10. Hand points:
    # Ben 60, Ada 40. With boxes: Ada 40 + 4 x 25 = 140, Ben 60 + 25 = 85; nobody has
    # reached 100, so no game bonus yet. §7 ranks Ada first, so Ada wins, 140 to 85.
    rnd, pairing = school_table(club, organiser)
    pairing = play_then_apply_the_policy(
        rnd, pairing, organiser, [("B", 60), ("A", 10), ("A", 10), ("A", 10), ("A", 10)]
    )
    assert (pairing.match.decided_by, pairing.match.winner) == ("time", "A")
    assert (pairing.match.points_a, pairing.match.points_b) == (140, 85)
    assert pairing.match.decision_reason == (
        "time was called with games level and Ada led game 1 140–85"
    )


# Ada two knocks of 55 (she reached 100), then Ben four of 30 (he reached 100 too).
EARNED = [("A", 55), ("A", 55), ("B", 30), ("B", 30), ("B", 30), ("B", 30)]
BONUS_CASES = [
    # (name, overrides, winner, points A, points B)
    # The school rules: each bonus is earned on reaching 100. Ada 110 + 2 x 25 + 100 =
    # 260; Ben 120 + 4 x 25 + 100 = 320.
    ("each_reaching_min", {}, "B", 260, 320),
    # Winner only: nobody's bonus is earned before the end. Ada 160, Ben 220.
    ("winner_only", {"game_bonus_to": "winner"}, "B", 160, 220),
]


@pytest.mark.parametrize(
    ("overrides", "winner", "points_a", "points_b"),
    [row[1:] for row in BONUS_CASES],
    ids=[row[0] for row in BONUS_CASES],
)
def test_time_policy_records_the_school_game_totals_with_the_bonuses_earned(
    club, organiser, overrides, winner, points_a, points_b
):
    rnd, pairing = school_table(club, organiser, overrides)
    pairing = play_then_apply_the_policy(rnd, pairing, organiser, EARNED)
    assert (pairing.match.winner, pairing.match.points_a, pairing.match.points_b) == (
        winner,
        points_a,
        points_b,
    )
