"""Round 1 of a Swiss at random (a reproducible draw) or by seed (issue 9, trap 10)."""

from __future__ import annotations

import pytest

from tournaments.pairing import PairingError, drawn_order, first_round
from tournaments.pairing.first_round import rating_order

IDS = [11, 12, 13, 14, 15, 16, 17, 18]


def pairs(result):
    return [(p.a, p.b) for p in result]


def test_the_same_draw_gives_the_same_order_whatever_order_the_players_come_in():
    assert drawn_order(IDS, 4711) == drawn_order(list(reversed(IDS)), 4711)
    assert sorted(drawn_order(IDS, 4711)) == IDS
    orders = {tuple(drawn_order(IDS, draw)) for draw in range(1, 21)}
    assert len(orders) > 15  # draws do differ


def test_a_random_round_pairs_the_drawn_order_and_names_the_draw():
    order = drawn_order(IDS, 99)
    result = first_round(IDS, method="random", draw=99)
    assert pairs(result) == [
        (order[0], order[1]),
        (order[2], order[3]),
        (order[4], order[5]),
        (order[6], order[7]),
    ]
    assert {p.reason for p in result} == {"round 1: random draw 99"}


def test_registration_neighbours_do_not_always_meet_at_random():
    neighbours = {(11, 12), (13, 14), (15, 16), (17, 18)}
    met = [
        set(pairs(first_round(IDS, method="random", draw=d))) == neighbours for d in range(1, 51)
    ]
    assert not all(met)


def test_an_odd_random_field_gives_the_bye_to_the_last_drawn():
    ids = IDS[:7]
    order = drawn_order(ids, 5)
    result = first_round(ids, method="random", draw=5)
    assert (result[-1].a, result[-1].b) == (order[-1], None)
    assert result[-1].reason == "bye: last in random draw 5"
    assert len(result) == 4


@pytest.mark.parametrize(
    ("ids", "expected"),
    [
        (IDS, [(11, 15), (12, 16), (13, 17), (14, 18)]),
        ([1, 2], [(1, 2)]),
        ([1, 2, 3, 4, 5], [(1, 3), (2, 4), (5, None)]),
    ],
)
def test_by_seed_the_top_half_meets_the_bottom_half_and_the_lowest_seed_sits_out(ids, expected):
    result = first_round(ids, method="seed")
    assert pairs(result) == expected
    assert result[0].reason == f"round 1 by seed: 1 v {len(ids) // 2 + 1}"
    if len(ids) % 2:
        assert result[-1].reason == "bye: lowest seed"


@pytest.mark.parametrize(
    ("ids", "method", "code"),
    [
        ([1], "random", "too_few_players"),
        ([1, 1], "seed", "duplicate_player"),
        ([1, 2], "alphabetical", "bad_method"),
    ],
)
def test_bad_input_is_named(ids, method, code):
    with pytest.raises(PairingError) as error:
        first_round(ids, method=method, draw=1)
    assert error.value.code == code


# By club rating (issue 12): ids in seed order; ratings of the rated ones.
# Seed order 11..18; ratings: 13 best (20.5), then 16 (12.0), 11 and 18 equal to two
# decimals (5.001 and 4.999 both show 5.00: seed order keeps 11 first), 14 (0.5); 12,
# 15, 17 unrated, after the rated in seed order.
# Rating order: 13, 16, 11, 18, 14, 12, 15, 17 -> halves [13 16 11 18] v [14 12 15 17].
RATINGS = {13: 20.5, 16: 12.0, 11: 5.001, 18: 4.999, 14: 0.5}


def test_rating_order_puts_the_rated_first_by_rating_then_the_unrated_in_seed_order():
    assert rating_order(IDS, RATINGS) == [13, 16, 11, 18, 14, 12, 15, 17]
    assert rating_order(IDS, {}) == IDS


def test_by_rating_the_top_half_meets_the_bottom_half_of_the_rating_order():
    result = first_round(IDS, method="rating", ratings=RATINGS)
    assert pairs(result) == [(13, 14), (16, 12), (11, 15), (18, 17)]
    assert result[0].reason == "round 1 by club rating: 1 (rated 20.50) v 5 (rated 0.50)"
    assert result[1].reason == "round 1 by club rating: 2 (rated 12.00) v 6 (unrated)"


def test_by_rating_an_odd_field_gives_the_bye_to_the_last_unrated():
    # Seven (17 left out): 13, 16, 11, 18, 14 rated, then 12, 15 -> the bye is 15's;
    # the six others: [13 16 11] v [18 14 12].
    result = first_round(IDS[:6] + [18], method="rating", ratings=RATINGS)
    assert pairs(result) == [(13, 18), (16, 14), (11, 12), (15, None)]
    assert result[-1].reason == "bye: last by club rating, 7 (unrated)"


def test_by_rating_with_everyone_rated_the_lowest_rating_sits_out():
    result = first_round([1, 2, 3], method="rating", ratings={1: 1.0, 2: 3.0, 3: 2.0})
    assert pairs(result) == [(2, 3), (1, None)]
    assert result[-1].reason == "bye: last by club rating, 3 (rated 1.00)"
