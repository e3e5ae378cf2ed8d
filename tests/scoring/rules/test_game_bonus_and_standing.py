"""Who gets the game bonus (`game_bonus_to`), and where a game in play stands
(`game_standing`): issue 22, findings 5 and 6 (docs/rules.md §7, §13).

Every expected figure is worked out by hand in the comments.
"""

from __future__ import annotations

import pytest

from scoring.rules import RulesError, game_standing, make_profile, score_game


def hands_of(*pairs):
    return [{"winner": winner, "points": points} for winner, points in pairs]


SCHOOL = make_profile("school")
SCHOOL_WINNER_ONLY = make_profile("school", {"game_bonus_to": "winner"})

# The worked example (docs/rules.md §7): A gins on hand 1 against 98 deadwood,
# 25 + 98 = 123; then B wins nine knocks of 2, 18 points.
WORKED = hands_of(("A", 123), *[("B", 2)] * 9)
# Both players reach 100 in ten hands: A 60 + 45 = 105, B 55 + 52 = 107, six dead hands.
BOTH_REACH = hands_of(("A", 60), ("B", 55), ("A", 45), ("B", 52), *[(None, 0)] * 6)

GAMES = [
    # (name, hands, profile, winner, totals, game bonuses)
    # A 123 + 25 box + 100 game = 248 (A reached 100); B 18 + 9 x 25 = 243, no bonus
    # (B has 18): A wins by 5.
    ("worked_each_reaching_min", WORKED, SCHOOL, "A", {"A": 248, "B": 243}, {"A": 100, "B": 0}),
    # Winner only: decided before the bonus, A 123 + 25 = 148 against B 243; B wins but
    # has 18 points, under 100, so no bonus: 243 to 148.
    ("worked_winner_only", WORKED, SCHOOL_WINNER_ONLY, "B", {"A": 148, "B": 243}, {"A": 0, "B": 0}),
    # A 105 + 2 x 25 + 100 = 255; B 107 + 2 x 25 + 100 = 257: the loser keeps the bonus.
    ("both_reach_each", BOTH_REACH, SCHOOL, "B", {"A": 255, "B": 257}, {"A": 100, "B": 100}),
    # Winner only: B 107 + 50 = 157 beats A 105 + 50 = 155 and alone gets the bonus: 257.
    (
        "both_reach_winner_only",
        BOTH_REACH,
        SCHOOL_WINNER_ONLY,
        "B",
        {"A": 155, "B": 257},
        {"A": 0, "B": 100},
    ),
]


@pytest.mark.parametrize(
    ("hands", "profile", "winner", "totals", "bonuses"),
    [row[1:] for row in GAMES],
    ids=[row[0] for row in GAMES],
)
def test_the_game_bonus_goes_to_whoever_the_profile_gives_it_and_the_totals_decide(
    hands, profile, winner, totals, bonuses
):
    result = score_game(hands, profile)
    assert result.finished
    assert (result.winner, result.totals, result.game_bonuses) == (winner, totals, bonuses)
    assert result.margin == totals[winner] - totals["B" if winner == "A" else "A"]
    assert result.game_bonus == bonuses[winner]


def test_the_school_profile_gives_the_bonus_to_each_player_who_reached_100():
    assert (SCHOOL.game_bonus_to, SCHOOL.game_bonus_min) == ("each_reaching_min", 100)
    assert make_profile("standard").game_bonus_to == "winner"


def test_each_reaching_min_without_game_bonus_min_is_refused():
    with pytest.raises(RulesError) as error:
        make_profile("standard", {"game_bonus_to": "each_reaching_min"})
    assert (error.value.code, error.value.field) == ("bad_option", "game_bonus_min")
    with pytest.raises(RulesError):
        make_profile("standard", {"game_bonus_to": "loser"})


STANDINGS = [
    # (name, hands, profile, totals)
    # Finding 5: A won 4 of 5 hands (knocks of 10), B one gin of 60. Hand points say B
    # 60-40; with boxes A 40 + 4 x 25 = 140, B 60 + 25 = 85, nobody at 100 yet.
    ("four_of_five_with_boxes", hands_of(("B", 60), *[("A", 10)] * 4), SCHOOL, {"A": 140, "B": 85}),
    # The worked example after six hands: A 123 + 25 + 100 (reached 100) = 248;
    # B 5 x 2 + 5 x 25 = 135.
    ("bonus_already_earned", WORKED[:6], SCHOOL, {"A": 248, "B": 135}),
    # Winner only: a winner's bonus is not earned before the end. A 148, B 135.
    ("winner_bonus_not_yet_earned", WORKED[:6], SCHOOL_WINNER_ONLY, {"A": 148, "B": 135}),
    # A game to a target stands on hand points alone, as before: A 80 + 95, B 45.
    (
        "to_a_target_hand_points",
        hands_of(("A", 80), ("B", 45), ("A", 95)),
        make_profile("tournament"),
        {"A": 175, "B": 45},
    ),
    # Standard values, game_hands 10, A won 2 hands and B none: no shutout counts and no
    # winner's bonus yet: A 30 + 2 x 25 = 80, B 0.
    (
        "no_shutout_in_play",
        hands_of(("A", 10), ("A", 20)),
        make_profile("standard", {"game_hands": 10}),
        {"A": 80, "B": 0},
    ),
]


@pytest.mark.parametrize(
    ("hands", "profile", "totals"),
    [row[1:] for row in STANDINGS],
    ids=[row[0] for row in STANDINGS],
)
def test_a_game_in_play_stands_on_the_totals_its_end_would_be_decided_on(hands, profile, totals):
    assert game_standing(hands, profile).totals == totals


def test_a_fixed_length_game_in_play_ranks_as_its_end_would_if_no_more_hands_scored():
    # Ten hands of which the last four are dead: the standing after six ranks the players
    # as the finished game does (same leader).
    for hands, profile in ((WORKED, SCHOOL), (BOTH_REACH, SCHOOL), (WORKED, SCHOOL_WINNER_ONLY)):
        played = hands[:6]
        finished = score_game([*played, *hands_of(*[(None, 0)] * 4)], profile)
        standing = game_standing(played, profile).totals
        assert max(standing, key=standing.get) == finished.winner
