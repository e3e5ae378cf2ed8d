"""Seeded single-elimination brackets."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    PairingError,
    bracket_order,
    bracket_size,
    elimination_round,
    next_elimination_round,
)


@pytest.mark.parametrize(
    ("n", "size"), [(1, 1), (2, 2), (3, 4), (4, 4), (5, 8), (8, 8), (9, 16), (33, 64)]
)
def test_bracket_size_is_the_next_power_of_two(n, size):
    assert bracket_size(n) == size


def test_eight_seeds_meet_one_v_eight_four_v_five_two_v_seven_three_v_six():
    seeds = [11, 12, 13, 14, 15, 16, 17, 18]  # seed k is player 10 + k
    assert [(p.a, p.b, p.reason) for p in elimination_round(seeds)] == [
        (11, 18, "seed 1 v seed 8"),
        (14, 15, "seed 4 v seed 5"),
        (12, 17, "seed 2 v seed 7"),
        (13, 16, "seed 3 v seed 6"),
    ]


def test_sixteen_seeds_follow_the_standard_bracket_order():
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize("n", [3, 5, 6, 7, 12, 20])
def test_byes_go_to_the_top_seeds_when_the_field_is_not_a_power_of_two(n):
    seeds = [100 + k for k in range(1, n + 1)]
    pairs = elimination_round(seeds)
    byes = [p for p in pairs if p.b is None]
    assert [p.a for p in byes] and sorted(p.a for p in byes) == seeds[: bracket_size(n) - n]
    assert {p.reason for p in byes} == {f"bye for seed {p.a - 100}" for p in byes}
    seated = [p.a for p in pairs] + [p.b for p in pairs if p.b is not None]
    assert sorted(seated) == seeds


def test_six_players_give_byes_to_seeds_one_and_two():
    pairs = elimination_round([1, 2, 3, 4, 5, 6])
    assert [(p.a, p.b) for p in pairs] == [(1, None), (4, 5), (2, None), (3, 6)]


def test_the_next_round_pairs_adjacent_winners():
    pairs = next_elimination_round([1, 5, 2, 3], [1, 2, 3, 4], round=1)
    assert [(p.a, p.b, p.reason) for p in pairs] == [
        (1, 5, "winners of tables 1 and 2 of round 1"),
        (2, 3, "winners of tables 3 and 4 of round 1"),
    ]


def test_the_next_round_names_the_tables_as_the_bracket_does_byes_included():
    """Six players: seeds 1 and 2 had byes, tables 1 and 2 were played in round 1. The
    reasons name the tables (the bracket chart says "winner of table 2"), not places in
    the round ("matches 1 and 2", which no page numbered)."""
    pairs = next_elimination_round([1, 5, 2, 3], [None, 1, None, 2], round=1)
    assert [p.reason for p in pairs] == [
        "a player through without playing and the winner of table 1 of round 1",
        "a player through without playing and the winner of table 2 of round 1",
    ]
    # the player named first (seat A) is the one the reason names first: a walk read
    # "Ada v Dev: the winner of table 1 of round 1 and a player through without playing"
    # with Ada the one who had the bye
    upset = next_elimination_round([4, 1], [2, None], round=1)
    assert upset[0].reason == (
        "the winner of table 2 of round 1 and a player through without playing"
    )
    both = next_elimination_round([1, 2], [None, None], round=3)
    assert [p.reason for p in both] == ["two players through round 3 without playing"]


@pytest.mark.parametrize("n", range(2, 34))
def test_when_the_higher_seed_always_wins_the_top_seeds_meet_as_late_as_possible(n):
    first = elimination_round(list(range(1, n + 1)))
    rounds = [sorted((p.a, p.b) for p in first if p.b is not None)]
    winners = [p.a if p.b is None else min(p.a, p.b) for p in first]
    while len(winners) > 1:
        pairs = next_elimination_round(winners, [None] * len(winners), round=len(rounds))
        rounds.append(sorted((p.a, p.b) for p in pairs))
        winners = [min(p.a, p.b) for p in pairs]
    assert winners == [1]
    assert rounds[-1] == [(1, 2)]
    if n >= 4:
        assert rounds[-2] == [(1, 4), (2, 3)]


@pytest.mark.parametrize(
    ("call", "code"),
    [
        (lambda: elimination_round([1]), "too_few_players"),
        (lambda: elimination_round([1, 2, 2]), "bad_seed"),
        (lambda: next_elimination_round([1], [1], round=1), "bracket_finished"),
        (lambda: next_elimination_round([1, 2, 3], [1, 2, 3], round=1), "bad_bracket"),
        (lambda: bracket_size(0), "too_few_players"),
    ],
)
def test_bad_brackets_raise_pairing_errors(call, code):
    with pytest.raises(PairingError) as raised:
        call()
    assert raised.value.code == code
