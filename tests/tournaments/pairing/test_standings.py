"""Standings on small events worked out by hand (the working is in the comments).

Every match is best of five; ``m(a, b, winner, games_a, games_b, points_a, points_b)``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import MatchRecord as m
from tournaments.pairing import PairingError, compute_standings


def table(standings):
    return [(s.rank, s.id, s.match_wins, s.head_to_head) for s in standings]


def close(value: float, exact: Fraction) -> bool:
    return value == pytest.approx(float(exact), abs=1e-12)


# Four-player round robin. 1 beat 2, 2 beat 3, 3 beat 1 (a cycle); all three beat 4.
CYCLE = [
    m(1, 2, 1, 3, 2, 760, 700),
    m(3, 4, 3, 3, 0, 780, 150),
    m(2, 3, 2, 3, 0, 800, 300),
    m(1, 4, 1, 3, 1, 770, 420),
    m(3, 1, 3, 3, 1, 790, 500),
    m(2, 4, 2, 3, 2, 760, 720),
]


def test_three_way_tie_is_not_split_by_head_to_head_and_game_win_pct_decides():
    # Match wins: 1, 2 and 3 have 2 each, 4 has 0. Three are tied, so head-to-head
    # does not apply (and the cycle could not settle it anyway).
    # Games won / played:
    #   1: 3+3+1 = 7 of 5+4+4 = 13 -> 0.538
    #   2: 2+3+3 = 8 of 5+3+5 = 13 -> 0.615
    #   3: 3+0+3 = 6 of 3+3+4 = 10 -> 0.600
    #   4: 0+1+2 = 3 of 3+4+5 = 12 -> 0.250
    # So 2, 3, 1, then 4.
    standings = compute_standings([1, 2, 3, 4], CYCLE)
    assert table(standings) == [(1, 2, 2, ""), (2, 3, 2, ""), (3, 1, 2, ""), (4, 4, 0, "")]
    by_id = {s.id: s for s in standings}
    assert close(by_id[2].game_win_pct, Fraction(8, 13))
    assert (by_id[3].games_won, by_id[3].games_played) == (6, 10)


def test_opponents_match_win_pct_floors_each_opponent_at_a_third():
    # Match-win %: 1, 2, 3 -> 2/3; 4 -> 0, floored to 1/3.
    # 1, 2 and 3 each met the two others (2/3 each) and 4 (1/3):
    #   (2/3 + 2/3 + 1/3) / 3 = 5/9  (without the floor it would be 4/9)
    # 4 met 1, 2, 3: (2/3 + 2/3 + 2/3) / 3 = 2/3.
    by_id = {s.id: s for s in compute_standings([1, 2, 3, 4], CYCLE)}
    for player in (1, 2, 3):
        assert close(by_id[player].opponents_match_win_pct, Fraction(5, 9))
    assert close(by_id[4].opponents_match_win_pct, Fraction(2, 3))


def test_margin_and_points_sum_over_matches():
    # 1: (760-700) + (770-420) + (500-790) = 60 + 350 - 290 = 120; points 2030
    # 2: (700-760) + (800-300) + (760-720) = -60 + 500 + 40 = 480; points 2260
    # 3: (780-150) + (300-800) + (790-500) = 630 - 500 + 290 = 420; points 1870
    # 4: (150-780) + (420-770) + (720-760) = -1020; points 1290 (margins sum to 0)
    by_id = {s.id: s for s in compute_standings([1, 2, 3, 4], CYCLE)}
    assert {p: (s.margin, s.points) for p, s in by_id.items()} == {
        1: (120, 2030),
        2: (480, 2260),
        3: (420, 1870),
        4: (-1020, 1290),
    }
    assert by_id[1].tiebreaks == {
        "head_to_head": 0.0,
        "game_win_pct": pytest.approx(7 / 13),
        "opponents_match_win_pct": pytest.approx(5 / 9),
        "margin": 120.0,
        "points": 2030.0,
    }


# Four-player round robin with two separate two-way ties:
# 1 beat 2 and 3, lost to 4 (2 wins); 2 beat 3 and 4 (2 wins);
# 3 beat 4 (1 win); 4 beat 1 (1 win).
TWO_PAIRS = [
    m(1, 2, 1, 3, 2, 760, 740),
    m(3, 4, 3, 3, 2, 760, 730),
    m(1, 3, 1, 3, 2, 770, 690),
    m(2, 4, 2, 3, 0, 780, 200),
    m(4, 1, 4, 3, 0, 790, 150),
    m(2, 3, 2, 3, 0, 800, 100),
]


def test_head_to_head_separates_exactly_two_tied_players_before_game_win_pct():
    # Games: 1: 3+3+0 = 6 of 13 (0.46); 2: 2+3+3 = 8 of 11 (0.73);
    #        3: 3+2+0 = 5 of 13 (0.38); 4: 2+0+3 = 5 of 11 (0.45).
    # 2 has the better game-win % but lost to 1; 4 likewise lost to 3. Head-to-head
    # comes first, so 1 is above 2 and 3 above 4.
    assert table(compute_standings([1, 2, 3, 4], TWO_PAIRS)) == [
        (1, 1, 2, "beat #2"),
        (2, 2, 2, "lost to #1"),
        (3, 3, 1, "beat #4"),
        (4, 4, 1, "lost to #3"),
    ]


def test_the_tie_break_order_is_the_tournaments():
    # With game-win % first, the pairs are split by it and head-to-head never runs.
    standings = compute_standings([1, 2, 3, 4], TWO_PAIRS, ["game_win_pct", "head_to_head"])
    assert table(standings) == [(1, 2, 2, ""), (2, 1, 2, ""), (3, 4, 1, ""), (4, 3, 1, "")]
    assert list(standings[0].tiebreaks) == ["game_win_pct", "head_to_head"]


# A six-player, three-round Swiss.
# R1: 1 beat 2, 3 beat 4, 5 beat 6.  R2: 1 beat 3, 5 beat 2, 4 beat 6.
# R3: 1 beat 5, 3 beat 6, 4 beat 2.
SWISS = [
    m(1, 2, 1, 3, 0, 750, 200),
    m(3, 4, 3, 3, 2, 760, 740),
    m(5, 6, 5, 3, 1, 770, 500),
    m(1, 3, 1, 3, 1, 760, 520),
    m(5, 2, 5, 3, 2, 780, 700),
    m(4, 6, 4, 3, 0, 800, 150),
    m(1, 5, 1, 3, 2, 740, 730),
    m(3, 6, 3, 3, 2, 760, 700),
    m(4, 2, 4, 3, 0, 790, 100),
]


def test_a_three_way_tie_ignores_head_to_head_even_between_two_of_them_who_met():
    # Wins: 1 -> 3; 3, 4, 5 -> 2; 2, 6 -> 0.
    # 3 beat 4, but three players are tied, so that does not count. Game-win %:
    #   4: 2+3+3 = 8 of 5+3+3 = 11 -> 0.727
    #   5: 3+3+2 = 8 of 4+5+5 = 14 -> 0.571
    #   3: 3+1+3 = 7 of 5+4+5 = 14 -> 0.500
    # 2 and 6 (0 wins) never met, so head-to-head cannot split them either:
    #   6: 1+0+2 = 3 of 4+3+5 = 12 -> 0.25;  2: 0+2+0 = 2 of 3+5+3 = 11 -> 0.18
    assert table(compute_standings(range(1, 7), SWISS)) == [
        (1, 1, 3, ""),
        (2, 4, 2, ""),
        (3, 5, 2, ""),
        (4, 3, 2, ""),
        (5, 6, 0, ""),
        (6, 2, 0, ""),
    ]


def test_opponents_match_win_pct_in_the_swiss_event():
    # Match-win %: 1 -> 1; 3, 4, 5 -> 2/3; 2, 6 -> 0, floored to 1/3.
    #   3 met 4, 1, 6: (2/3 + 1 + 1/3) / 3 = 2/3
    #   4 met 3, 6, 2: (2/3 + 1/3 + 1/3) / 3 = 4/9   (2/9 without the floor)
    #   5 met 6, 2, 1: (1/3 + 1/3 + 1) / 3 = 5/9     (1/3 without the floor)
    #   2 met 1, 5, 4: (1 + 2/3 + 2/3) / 3 = 7/9
    # Ordered by it alone, 3, 5, 4 and then 2 above 6 (6 met 5, 4, 3: 2/3).
    standings = compute_standings(range(1, 7), SWISS, ["opponents_match_win_pct"])
    assert [s.id for s in standings] == [1, 3, 5, 4, 2, 6]
    omw = {s.id: s.opponents_match_win_pct for s in standings}
    expected = {3: Fraction(2, 3), 4: Fraction(4, 9), 5: Fraction(5, 9), 2: Fraction(7, 9)}
    assert all(close(omw[p], value) for p, value in expected.items())


def test_byes_count_as_wins_with_the_organisers_score_and_are_not_opponents():
    # Three players. R1: 2 beat 3 3-1 (700-500), 1 has a bye scored 3-0, 250-0.
    # R2: 3 beat 1 3-2 (760-750), 2 has the same bye. R3: 1 v 2 unfinished: ignored.
    records = [
        m(2, 3, 2, 3, 1, 700, 500),
        m(1, None, 1, 3, 0, 250, 0),
        m(3, 1, 3, 3, 2, 760, 750),
        m(2, None, 2, 3, 0, 250, 0),
        m(1, 2, None, 1, 1, 300, 200),
    ]
    # Wins: 2 -> 2 (a win and a bye); 1 -> 1 (the bye); 3 -> 1. 1 and 3 are exactly
    # two tied players who met: 3 beat 1, so 3 is above.
    # 1: games 3+2 = 5 of 3+5 = 8; margin 250 + (750-760) = 240; points 1000;
    #    OMW: only 3 is a real opponent, 1 win of 2 -> 1/2.
    # 3: games 1+3 = 4 of 4+5 = 9; margin -200 + 10 = -190; points 1260;
    #    OMW: 2 (2 of 2 -> 1) and 1 (1/2) -> 3/4.
    standings = compute_standings([1, 2, 3], records)
    assert table(standings) == [(1, 2, 2, ""), (2, 3, 1, "beat #1"), (3, 1, 1, "lost to #3")]
    one = standings[2]
    assert (one.matches, one.games_won, one.games_played) == (2, 5, 8)
    assert (one.margin, one.points, one.opponents_match_win_pct) == (240, 1000, 0.5)
    assert standings[1].opponents_match_win_pct == 0.75
    assert standings[2].tiebreaks["head_to_head"] == -1.0


def test_full_ties_share_a_rank_and_are_listed_by_id():
    # 1 and 3 won identical matches against 2 and 4, who lost identically: 1 and 3 are
    # equal on everything (OMW 1/3 each, by the floor), never met; so are 2 and 4.
    records = [m(3, 4, 3, 3, 0, 750, 90), m(1, 2, 1, 3, 0, 750, 90)]
    assert table(compute_standings([4, 3, 2, 1], records)) == [
        (1, 1, 1, ""),
        (1, 3, 1, ""),
        (3, 2, 0, ""),
        (3, 4, 0, ""),
    ]


def test_head_to_head_does_not_separate_two_players_who_split_their_matches():
    # Double round robin of two: one match each, identical scores the other way round.
    records = [m(1, 2, 1, 3, 2, 700, 650), m(2, 1, 2, 3, 2, 700, 650)]
    assert table(compute_standings([1, 2], records)) == [(1, 1, 1, ""), (1, 2, 1, "")]


def test_players_without_matches_and_withdrawn_opponents_are_counted():
    # 9 withdrew after beating 1: not listed, but still 1's opponent (1 win of 1).
    # 1 and 2 have no wins and game-win % 0 (2 played no games); they never met.
    # OMW: 1 -> 1 (9's record), 2 -> 0 (no opponent), so 1 is above 2.
    standings = compute_standings([1, 2], [m(9, 1, 9, 3, 0, 750, 100)])
    assert [(s.rank, s.id, s.matches) for s in standings] == [(1, 1, 1), (2, 2, 0)]
    assert standings[0].opponents_match_win_pct == 1.0


@pytest.mark.parametrize(
    ("tiebreaks", "code"),
    [(["coin_toss"], "bad_tiebreak"), (["margin", "margin"], "bad_tiebreak")],
)
def test_bad_tiebreaks_raise_pairing_errors(tiebreaks, code):
    with pytest.raises(PairingError) as raised:
        compute_standings([1, 2], [], tiebreaks)
    assert raised.value.code == code


def test_a_player_listed_twice_raises_a_pairing_error():
    with pytest.raises(PairingError) as raised:
        compute_standings([1, 1], [])
    assert raised.value.code == "duplicate_player"


@st.composite
def events(draw):
    n = draw(st.integers(2, 8))
    records = []
    for a in range(1, n + 1):
        for b in range(a + 1, n + 1):
            if draw(st.booleans()):
                games = draw(st.sampled_from([(3, 0), (3, 1), (3, 2), (0, 3), (1, 3), (2, 3)]))
                points = draw(st.tuples(st.integers(0, 900), st.integers(0, 900)))
                winner = a if games[0] == 3 else b
                records.append(m(a, b, winner, *games, *points))
    return list(range(1, n + 1)), records


@settings(max_examples=200)
@given(events())
def test_ranks_follow_match_wins_and_are_shared_only_by_full_ties(event):
    ids, records = event
    standings = compute_standings(ids, records)
    assert sorted(s.id for s in standings) == ids
    for above, below in zip(standings, standings[1:], strict=False):
        assert above.match_wins >= below.match_wins
        key_above = (above.match_wins, above.tiebreaks, above.head_to_head)
        key_below = (below.match_wins, below.tiebreaks, below.head_to_head)
        assert (above.rank == below.rank) == (key_above == key_below)
        assert above.rank <= below.rank
    assert standings[0].rank == 1


def test_how_far_a_player_went_in_a_knockout_comes_before_match_wins():
    """Ada (3 wins) lost a semi-final; Ben (2 wins) lost the final; Cleo won it; Dev was
    not in the knockout and has 3 wins too: the knockout orders them first."""
    from tournaments.pairing import MatchRecord, compute_standings

    records = [
        MatchRecord(1, 5, 1, 2, 0, 0, 0),  # Ada's Swiss wins
        MatchRecord(1, 6, 1, 2, 0, 0, 0),
        MatchRecord(4, 5, 4, 2, 0, 0, 0),  # Dev's
        MatchRecord(4, 6, 4, 2, 0, 0, 0),
        MatchRecord(4, 2, 4, 2, 0, 0, 0),
        MatchRecord(1, 3, 1, 2, 0, 0, 0),
        MatchRecord(3, 1, 3, 2, 0, 0, 0),  # semi-finals: Cleo beats Ada, Ben beats Eve
        MatchRecord(2, 5, 2, 2, 0, 0, 0),
        MatchRecord(3, 2, 3, 2, 0, 0, 0),  # the final
    ]
    reached = {3: 1, 2: 2, 1: 4, 5: 4}
    lines = compute_standings([1, 2, 3, 4, 5, 6], records, reached=reached)
    assert [(line.id, line.reached) for line in lines] == [
        (3, 1), (2, 2), (1, 4), (5, 4), (4, 0), (6, 0),
    ]  # fmt: skip
    assert [line.rank for line in lines] == [1, 2, 3, 4, 5, 6]
    without = compute_standings([1, 2, 3, 4, 5, 6], records)
    assert {line.id for line in without[:2]} == {1, 4}  # match wins alone: Ada and Dev first
