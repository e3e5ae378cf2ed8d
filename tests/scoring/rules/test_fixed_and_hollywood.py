"""Fixed-length games (issue 8, finding 3) and Hollywood scoring, in the pure engine.

Every expected figure is worked out by hand in the comments (docs/rules.md §7, §8a, §10).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import RulesError, make_profile, score_game, score_hollywood


def hands_of(*pairs):
    return [{"winner": winner, "points": points} for winner, points in pairs]


# The finding: ten hands, no lay-offs (the seeds' school rules). A wins one gin for 50,
# B wins nine knocks of 5.
FINDING_3 = hands_of(("A", 50), *[("B", 5)] * 9)


def test_finding_3_a_fixed_length_game_is_won_on_totals_with_boxes():
    # Old engine (winner on hand points, 50 > 45): A 50 + 100 + 25 = 175, B 45 + 225 = 270,
    # "winner" A with margin -95. Any fixed-length profile must give the game to B.
    # Standard values with game_hands 10: A 50 + 1 box x 25 = 75;
    # B 45 + 9 boxes x 25 = 270 before the game bonus, so B wins: 270 + 100 = 370.
    result = score_game(FINDING_3, make_profile("standard", {"game_hands": 10}))
    assert (result.winner, result.totals, result.margin) == ("B", {"A": 75, "B": 370}, 295)
    assert result.margin >= 0


def test_finding_3_under_the_school_profile():
    # School rules: the game bonus only for a winner who reached 100 points; B has 45, so
    # none. A: 50 + 25 = 75. B: 45 + 225 = 270. Margin 270 - 75 = 195. No shutout (A won
    # a hand, and the school profile plays none anyway).
    result = score_game(FINDING_3, make_profile("school"))
    assert result.finished
    assert (result.winner, result.totals, result.margin) == ("B", {"A": 75, "B": 270}, 195)
    assert (result.game_bonus, result.box_bonus) == (0, {"A": 25, "B": 225})
    assert "no game bonus: 45 points, under 100" in result.explanation


def test_school_game_bonus_for_a_winner_who_reached_100():
    # A 60, B 10, A 45, B 5, then six dead hands: ten hands (dead hands count by default).
    # A: 105 points, 2 boxes = 50: 155 before the bonus; B: 15 + 50 = 65. A wins and has
    # reached 100: + 100 game bonus = 255. Margin 255 - 65 = 190.
    hands = hands_of(("A", 60), ("B", 10), ("A", 45), ("B", 5), *[(None, 0)] * 6)
    result = score_game(hands, make_profile("school"))
    assert (result.winner, result.totals, result.margin) == ("A", {"A": 255, "B": 65}, 190)
    assert result.game_bonus == 100


def test_school_game_is_ten_hands_no_more():
    profile = make_profile("school")
    assert not score_game(FINDING_3[:9], profile).finished
    with pytest.raises(RulesError) as error:
        score_game([*FINDING_3, {"winner": "A", "points": 5}], profile)
    assert error.value.code == "game_over"


def test_level_with_boxes_goes_to_more_hands_won():
    # game_hands 3: A 50, B 15, B 10. A 50 + 25 = 75; B 25 + 2 x 25 = 75: level.
    # B won two hands to A's one: B wins, 75 + 100 = 175; A 75; margin 100.
    result = score_game(
        hands_of(("A", 50), ("B", 15), ("B", 10)), make_profile("standard", {"game_hands": 3})
    )
    assert (result.winner, result.totals, result.margin) == ("B", {"A": 75, "B": 175}, 100)
    assert "more hands won" in result.explanation


def test_level_with_boxes_and_hands_goes_to_the_winner_of_the_last_hand():
    # game_hands 2: A 20, B 20. Both 20 + 25 = 45, one hand each; B won the last hand:
    # B 45 + 100 = 145, A 45, margin 100.
    result = score_game(hands_of(("A", 20), ("B", 20)), make_profile("standard", {"game_hands": 2}))
    assert (result.winner, result.totals, result.margin) == ("B", {"A": 45, "B": 145}, 100)


def test_a_fixed_length_game_of_dead_hands_only_is_drawn():
    result = score_game(hands_of((None, 0), (None, 0)), make_profile("standard", {"game_hands": 2}))
    assert (result.finished, result.winner, result.totals, result.margin) == (
        True,
        None,
        {"A": 0, "B": 0},
        0,
    )


def test_dead_hands_count_option():
    hands = hands_of(("A", 10), (None, 0), (None, 0), ("B", 20), ("A", 5))
    # Dead hands count (default): three hands, the game ends at hand 3 with A 10, B 0:
    # a shutout, (10 + 100 + 25) x 2 = 270; a fourth hand is refused.
    counting = make_profile("standard", {"game_hands": 3})
    result = score_game(hands[:3], counting)
    assert (result.winner, result.totals, result.shutout) == ("A", {"A": 270, "B": 0}, True)
    with pytest.raises(RulesError):
        score_game(hands, counting)
    # dead_hands_count off: the three hands are the three won ones, so the game ends at
    # hand 5. A 15 + 2 x 25 = 65 beats B 20 + 25 = 45: A 65 + 100 = 165, B 45.
    not_counting = make_profile("standard", {"game_hands": 3, "dead_hands_count": False})
    assert not score_game(hands[:4], not_counting).finished
    result = score_game(hands, not_counting)
    assert (result.winner, result.totals, result.margin) == ("A", {"A": 165, "B": 45}, 120)


def test_game_bonus_min_in_a_game_to_a_target():
    # Target 100, game bonus only from 150: A 60, B 30, A 50. A 110 < 150, no bonus:
    # A 110 + 2 x 25 = 160; B 30 + 25 = 55; margin 105.
    profile = make_profile("standard", {"game_bonus_min": 150})
    result = score_game(hands_of(("A", 60), ("B", 30), ("A", 50)), profile)
    assert (result.winner, result.totals, result.game_bonus) == ("A", {"A": 160, "B": 55}, 0)


@given(
    st.lists(
        st.tuples(st.sampled_from(["A", "B", None]), st.integers(0, 120)), min_size=1, max_size=12
    ),
    st.integers(1, 12),
    st.booleans(),
    st.sampled_from(["double", "double_points", "bonus", "none"]),
    st.sampled_from([None, 1, 50, 100, 500]),
)
def test_a_fixed_length_game_never_has_a_negative_margin(hands, length, dead, shutout, minimum):
    hands = [(w, p if w else 0) for w, p in hands][:length]
    profile = make_profile(
        "standard",
        {
            "game_hands": length,
            "dead_hands_count": dead,
            "shutout": shutout,
            "game_bonus_min": minimum,
        },
    )
    result = score_game(hands_of(*hands), profile)
    if not result.finished:
        return
    assert result.margin >= 0
    if result.winner:
        loser = "B" if result.winner == "A" else "A"
        assert result.totals[result.winner] >= result.totals[loser]
        assert result.margin == result.totals[result.winner] - result.totals[loser]
    else:
        assert result.totals["A"] == result.totals["B"]


# -------------------------------------------------------------------------- Hollywood

HOLLYWOOD = make_profile("hollywood")


def test_hollywood_first_win_game_1_second_games_1_2_third_all_three():
    # The sample sheet of ginrummy.cards/variations/hollywood-gin (target 100):
    # A 18, B 12, A 25, B 30, A 15, A 22, B 20 gives
    # A: G1 18+25+15+22 = 80, G2 25+15+22 = 62, G3 15+22 = 37;
    # B: G1 12+30+20 = 62, G2 30+20 = 50, G3 20.
    hands = hands_of(("A", 18), ("B", 12), ("A", 25), ("B", 30), ("A", 15), ("A", 22), ("B", 20))
    result = score_hollywood(hands, HOLLYWOOD)
    assert [g.hand_points for g in result.games] == [
        {"A": 80, "B": 62},
        {"A": 62, "B": 50},
        {"A": 37, "B": 20},
    ]
    assert result.scored_in == ((1,), (1,), (1, 2), (1, 2), (1, 2, 3), (1, 2, 3), (1, 2, 3))
    assert not result.finished and result.ended_at == (None, None, None)


# A whole Hollywood match, standard values (target 100, game bonus 100, box 25, shutout
# double). Hand by hand (game: A-B hand points after the hand):
#  1 A 40  first A win   -> G1 40-0
#  2 A 30  second        -> G1 70-0, G2 30-0
#  3 B 25  first B win   -> G1 70-25
#  4 A 35  third         -> G1 105-25 (game 1 ends), G2 65-0, G3 35-0
#  5 B 40  B has won in no open game: its lowest, G2 -> G2 65-40
#  6 dead                -> nothing
#  7 B 30  G2 (won there) and G3 (first there) -> G2 65-70, G3 35-30
#  8 A 40  G2, G3        -> G2 105-70 (game 2 ends), G3 75-30
#  9 B 35  G3            -> G3 75-65
# 10 B 40  G3            -> G3 75-105 (game 3 ends)
# Game 1: A 105 + 100 + 3 boxes (hands 1, 2, 4) x 25 = 280; B 25 + 25 = 50.
# Game 2: A 105 + 100 + 3 boxes (2, 4, 8) = 280; B 70 + 2 boxes (5, 7) = 120.
# Game 3: B 105 + 100 + 3 boxes (7, 9, 10) = 280; A 75 + 2 boxes (4, 8) = 125.
# Match: A won two games, B one: A wins. A 280 + 280 + 125 = 685, B 50 + 120 + 280 = 450,
# margin 235.
MATCH = hands_of(
    ("A", 40),
    ("A", 30),
    ("B", 25),
    ("A", 35),
    ("B", 40),
    (None, 0),
    ("B", 30),
    ("A", 40),
    ("B", 35),
    ("B", 40),
)


def test_a_whole_hollywood_match_worked_by_hand():
    result = score_hollywood(MATCH, HOLLYWOOD)
    assert result.ended_at == (4, 8, 10)
    assert result.scored_in == ((1,), (1, 2), (1,), (1, 2, 3), (2,), (), (2, 3), (2, 3), (3,), (3,))
    assert [(g.winner, g.totals, g.margin) for g in result.games] == [
        ("A", {"A": 280, "B": 50}, 230),
        ("A", {"A": 280, "B": 120}, 160),
        ("B", {"A": 125, "B": 280}, 155),
    ]
    assert [g.hands_won for g in result.games] == [
        {"A": 3, "B": 1},
        {"A": 3, "B": 2},
        {"A": 2, "B": 3},
    ]
    match = result.match
    assert (match.finished, match.winner, match.games_won) == (True, "A", {"A": 2, "B": 1})
    assert (match.totals, match.margin) == ({"A": 685, "B": 450}, 235)


def test_before_the_last_game_ends_the_match_is_open():
    result = score_hollywood(MATCH[:9], HOLLYWOOD)
    assert [g.finished for g in result.games] == [True, True, False]
    assert not result.finished and result.match.winner is None
    assert result.match.games_won == {"A": 2, "B": 0}


def test_no_hand_after_the_three_games():
    with pytest.raises(RulesError) as error:
        score_hollywood([*MATCH, {"winner": "A", "points": 10}], HOLLYWOOD)
    assert error.value.code == "game_over"
    assert "after all three games ended at hand 10" in error.value.message


def test_hollywood_shutout_and_a_shut_out_player_starts_in_the_next_game():
    # A 40, 40, 40: game 1 ends at hand 3 with A 120, B no hand: shutout, doubled:
    # (120 + 100 + 3 x 25) x 2 = 590 to 0. Game 2 has A 80, game 3 A 40.
    # B then wins 30: game 1 is over and B has won in no open game, so it scores in the
    # lowest open one, game 2 (Hoyle: "his next score is entered as the first score in
    # the next game in progress"), not in game 3.
    hands = hands_of(("A", 40), ("A", 40), ("A", 40), ("B", 30))
    result = score_hollywood(hands, HOLLYWOOD)
    first = result.games[0]
    assert (first.winner, first.totals, first.shutout) == ("A", {"A": 590, "B": 0}, True)
    assert result.scored_in[3] == (2,)
    assert result.games[1].hand_points == {"A": 80, "B": 30}
    assert result.games[2].hand_points == {"A": 40, "B": 0}


def test_several_games_can_end_on_one_hand():
    # A 60, B 10, A 60, A 60: G1 reaches A 120 at A's second win (hand 3) and ends;
    # hand 4 (A's third win) scores in G2 (60 + 60 = 120, ends) and G3 (60).
    hands = hands_of(("A", 60), ("B", 10), ("A", 60), ("A", 60))
    result = score_hollywood(hands, HOLLYWOOD)
    assert result.ended_at == (3, 4, None)
    assert result.scored_in == ((1,), (1,), (1, 2), (2, 3))
    # One hand can end two games: A 100 on its second win ends G1 (100 + 100) and G2 (100).
    result = score_hollywood(hands_of(("A", 5), ("A", 100)), HOLLYWOOD)
    assert result.ended_at == (2, 2, None)


def test_hollywood_target_and_options_come_from_the_profile():
    # Target 150 (one of the published variants): A 100, A 60 -> G1 160 ends at hand 2.
    profile = make_profile("hollywood", {"game_target": 150})
    assert score_hollywood(hands_of(("A", 100), ("A", 60)), profile).ended_at == (2, None, None)
    with pytest.raises(RulesError) as error:
        make_profile("hollywood", {"game_hands": 10})
    assert error.value.field == "game_hands"
