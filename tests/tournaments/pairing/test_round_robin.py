"""Round robin by the circle method."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.pairing import PairingError, round_robin


@pytest.mark.parametrize("n", range(2, 14))
def test_every_pair_meets_exactly_once(n):
    ids = [100 + 7 * k for k in range(n)]
    rounds = round_robin(ids)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met = Counter(frozenset((p.a, p.b)) for r in rounds for p in r if p.b is not None)
    assert met == Counter(frozenset(pair) for pair in combinations(ids, 2))


@pytest.mark.parametrize("n", range(2, 14))
def test_everyone_plays_once_a_round_and_an_odd_field_has_one_bye_each(n):
    ids = list(range(1, n + 1))
    byes = Counter()
    for r in round_robin(ids):
        seated = [p.a for p in r] + [p.b for p in r if p.b is not None]
        assert sorted(seated) == ids
        byes.update(p.a for p in r if p.b is None)
    assert byes == (Counter(ids) if n % 2 else Counter())


def test_pairs_list_the_earlier_seed_first_and_say_why():
    assert [[(p.a, p.b, p.reason) for p in r] for r in round_robin([4, 3, 2])] == [
        [(3, 2, "round robin"), (4, None, "round robin: bye")],
        [(4, 2, "round robin"), (3, None, "round robin: bye")],
        [(4, 3, "round robin"), (2, None, "round robin: bye")],
    ]


@pytest.mark.parametrize(
    ("ids", "code"), [([1], "too_few_players"), ([1, 2, 1], "duplicate_player")]
)
def test_bad_fields_raise_pairing_errors(ids, code):
    with pytest.raises(PairingError) as raised:
        round_robin(ids)
    assert raised.value.code == code
