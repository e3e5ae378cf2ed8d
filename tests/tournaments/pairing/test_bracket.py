"""The bracket chart: which box feeds which, and the boxes filled from the pairings.

Player ids in these cases are 10 × seed (seed 1 is player 10, seed 8 player 80), so a
box can be read without a table of names.
"""

from __future__ import annotations

import pytest

from tournaments.pairing.bracket import Played, bracket_layout, fill_bracket, round_name


def shape(field: int) -> list[list[tuple]]:
    """Each round's boxes as (match number, top, bottom): seeds in round 1, feeding
    boxes (round, index) later."""
    return [
        [(m.number, *(m.seeds if m.feeders is None else m.feeders)) for m in matches]
        for matches in bracket_layout(field)
    ]


def test_eight_players_play_seven_numbered_matches_in_three_rounds():
    assert shape(8) == [
        [(1, 1, 8), (2, 4, 5), (3, 2, 7), (4, 3, 6)],
        [(5, (0, 0), (0, 1)), (6, (0, 2), (0, 3))],
        [(7, (1, 0), (1, 1))],
    ]


def test_six_players_give_the_two_top_seeds_a_bye_and_number_only_played_matches():
    # bracket of 8, order 1 8 4 5 2 7 3 6: seeds 7 and 8 are empty
    assert shape(6) == [
        [(None, 1, None), (1, 4, 5), (None, 2, None), (2, 3, 6)],
        [(3, (0, 0), (0, 1)), (4, (0, 2), (0, 3))],
        [(5, (1, 0), (1, 1))],
    ]
    assert [m.bye for m in bracket_layout(6)[0]] == [True, False, True, False]


def test_five_players_leave_one_first_round_match():
    assert shape(5) == [
        [(None, 1, None), (1, 4, 5), (None, 2, None), (None, 3, None)],
        [(2, (0, 0), (0, 1)), (3, (0, 2), (0, 3))],
        [(4, (1, 0), (1, 1))],
    ]


@pytest.mark.parametrize(("field", "rounds"), [(0, []), (1, []), (2, [[(1, 1, 2)]])])
def test_two_players_are_a_final_and_fewer_no_bracket(field, rounds):
    assert shape(field) == rounds


@pytest.mark.parametrize(
    ("field", "names"),
    [
        (2, ["Final"]),
        (4, ["Semi-finals", "Final"]),
        (5, ["Quarter-finals", "Semi-finals", "Final"]),
        (16, ["Round of 16", "Quarter-finals", "Semi-finals", "Final"]),
    ],
)
def test_rounds_are_named_from_the_final_back(field, names):
    total = len(bracket_layout(field))
    assert [round_name(r, total) for r in range(total)] == names


def seeds(n: int) -> list[int]:
    return [10 * s for s in range(1, n + 1)]


def slots(box) -> tuple:
    """(top, bottom) as player ids, or the words a slot waits with."""
    return tuple(s.player if s.player is not None else s.waiting for s in (box.top, box.bottom))


def test_winners_of_the_first_round_move_into_the_next_before_it_is_paired():
    first = [
        Played(10, 80, table=1, winner=10, games=(2, 0)),
        Played(40, 50, table=2, winner=50, games=(1, 2)),
        Played(20, 70, table=3, winner=70, games=(0, 2)),
        Played(30, 60, table=4),  # still playing
    ]
    chart = fill_bracket(8, seeds(8), [first])
    assert [slots(b) for b in chart[1]] == [(10, 50), (70, "winner of table 4")]
    assert slots(chart[2][0]) == ("winner of match 5", "winner of match 6")
    upset = chart[0][1]
    assert (upset.top.won, upset.bottom.won, upset.top.games, upset.bottom.games) == (
        False,
        True,
        1,
        2,
    )
    assert (upset.top.seed, upset.bottom.seed) == (4, 5)


def test_six_players_byes_go_through_at_once_and_wait_for_the_tables():
    first = [
        Played(10, None),
        Played(40, 50, table=1),
        Played(20, None),
        Played(30, 60, table=2, winner=60, games=(0, 2)),
    ]
    chart = fill_bracket(6, seeds(6), [first])
    assert slots(chart[0][0]) == (10, "bye") and chart[0][0].top.won
    assert chart[0][0].bottom.bye
    assert [slots(b) for b in chart[1]] == [(10, "winner of table 1"), (20, 60)]


def test_five_players_a_pairing_with_its_seats_reversed_keeps_the_charts_sides():
    # the organiser fixed 5 v 4 rather than 4 v 5; the stored order is shuffled too
    first = [
        Played(30, None),
        Played(50, 40, table=1, winner=40, games=(1, 2)),
        Played(10, None),
        Played(20, None),
    ]
    chart = fill_bracket(5, seeds(5), [first])
    box = chart[0][1]
    assert slots(box) == (40, 50)
    assert (box.top.games, box.bottom.games, box.top.won) == (2, 1, True)
    assert [slots(b) for b in chart[1]] == [(10, 40), (20, 30)]


def test_a_hidden_result_leaves_its_winner_out_until_the_next_round_is_published():
    first = [Played(10, 20, table=1, winner=20, games=(0, 2), shown=False)]
    ((box,),) = fill_bracket(2, seeds(2), [first])
    assert (box.top.won, box.bottom.won, box.top.games, box.winner) == (False, False, None, None)

    semis = [
        Played(10, 40, table=1, winner=40, games=(0, 2), shown=False),
        Played(20, 30, table=2, winner=20, games=(2, 1), shown=False),
    ]
    assert slots(fill_bracket(4, seeds(4), [semis])[1][0]) == (
        "winner of table 1",
        "winner of table 2",
    )
    final = [Played(40, 20, table=1, shown=False)]  # published: the pairing says who won
    assert slots(fill_bracket(4, seeds(4), [semis, final])[1][0]) == (40, 20)


def test_before_the_bracket_is_seeded_every_slot_names_its_seed():
    chart = fill_bracket(4, [], [])
    assert [slots(b) for b in chart[0]] == [("seed 1", "seed 4"), ("seed 2", "seed 3")]
    assert slots(chart[1][0]) == ("winner of match 1", "winner of match 2")


def test_before_the_bracket_is_seeded_a_bye_box_feeds_its_top_seed():
    # six players: seeds 1 and 2 have byes (no match number); the semi-finals wait for
    # them by seed, and for the numbered matches by number
    chart = fill_bracket(6, [], [])
    assert [slots(b) for b in chart[1]] == [
        ("seed 1", "winner of match 1"),
        ("seed 2", "winner of match 2"),
    ]
    assert slots(chart[2][0]) == ("winner of match 3", "winner of match 4")


def test_a_top_cut_of_four_is_seeded_by_the_swiss_places_and_crowns_its_winner():
    swiss = [23, 7, 15, 4]  # Swiss places 1 to 4 (registration ids)
    semis = [
        Played(23, 4, table=1, winner=4, games=(1, 2)),
        Played(7, 15, table=2, winner=7, games=(2, 0)),
    ]
    final = [Played(4, 7, table=1, winner=7, games=(0, 2))]
    chart = fill_bracket(4, swiss, [semis, final])
    assert [(b.top.seed, b.bottom.seed) for b in chart[0]] == [(1, 4), (2, 3)]
    assert slots(chart[1][0]) == (4, 7)
    assert chart[1][0].winner == 7 and chart[1][0].top.seed is None


def test_a_top_cut_of_eight_with_a_walkover_in_the_quarter_finals():
    cut = seeds(8)
    quarters = [
        Played(10, 80, table=1, winner=10, games=(2, 0)),
        Played(40, 50, table=2, winner=40, games=(2, 1)),
        Played(20, None),  # 70 withdrew: 20 goes through
        Played(30, 60, table=3, winner=30, games=(2, 0)),
    ]
    semis = [Played(10, 40, table=1, winner=40, games=(0, 2)), Played(20, 30, table=2)]
    chart = fill_bracket(8, cut, [quarters, semis])
    assert slots(chart[0][2]) == (20, "bye") and chart[0][2].winner == 20
    assert [slots(b) for b in chart[1]] == [(10, 40), (20, 30)]
    assert slots(chart[2][0]) == (40, "winner of table 2")


def test_pairings_stored_out_of_order_land_in_the_box_their_players_came_from():
    first = [
        Played(30, 60, table=4, winner=30),
        Played(20, 70, table=3, winner=20),
        Played(40, 50, table=2, winner=40),
        Played(10, 80, table=1, winner=10),
    ]
    second = [Played(20, 30, table=2), Played(10, 40, table=1)]
    chart = fill_bracket(8, seeds(8), [first, second])
    assert [b.played.table for b in chart[0]] == [1, 2, 3, 4]
    assert [b.played.table for b in chart[1]] == [1, 2]
