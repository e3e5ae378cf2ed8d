"""Round 1 of a Swiss, before anyone has a score: who meets whom.

Pairing round 1 like any other (score group 0, nearest-ranked first) would make
neighbours in the entry list meet and the last entered sit out. So round 1 has a
method of its own, a tournament setting:

- **random**: the players are shuffled by a **draw**, a whole number that seeds the
  shuffle. The same players and the same draw always give the same order (the order
  is made from the registration ids sorted, so the caller's order does not matter),
  which is why the draw is recorded with the round and in the ledger: anyone can
  redo it. Then 1st v 2nd, 3rd v 4th, ... of the drawn order; in an odd field the
  last drawn takes the bye.
- **by seed**: the field in seed order (the caller's order: seeded players first, then
  by registration) is cut in halves and the top half meets the bottom half in order,
  1 v 5, 2 v 6, 3 v 7, 4 v 8 of eight, so the strongest do not meet in round 1. In an
  odd field the lowest seed takes the bye first.
- **by rating**: the same halves, but of the field in **rating order**: players with a
  club rating first, highest rating first (ratings equal to two decimals, as the rated
  list shows them, keep seed order), then the unrated players in seed order. In an odd
  field the last in that order takes the bye (an unrated player when there is one).
  The caller passes each rated player's rating (the openskill ordinal the club's rated
  list ranks by); a player missing from ``ratings`` is unrated.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from tournaments.pairing.errors import PairingError
from tournaments.pairing.values import Pair
from tournaments.pairing.words import Phrase, Worded, gettext_noop, worded

# Why each pair was made (Pair.reason), worded where it is shown.
RANDOM_DRAW = gettext_noop("round 1: random draw %(draw)s")
BYE_RANDOM_DRAW = gettext_noop("bye: last in random draw %(draw)s")
REASON_BY_SEED = gettext_noop("round 1 by seed: %(a)s v %(b)s")
BYE_LOWEST_SEED = gettext_noop("bye: lowest seed")
REASON_BY_RATING = gettext_noop("round 1 by club rating: %(a)s v %(b)s")
BYE_BY_RATING = gettext_noop("bye: last by club rating, %(who)s")
# Translators: a place in round 1's order and its player's club rating: "3 (rated 1512.40)".
RATED = gettext_noop("%(place)s (rated %(rating)s)")
UNRATED = gettext_noop("%(place)s (unrated)")
REASONS = (
    RANDOM_DRAW,
    BYE_RANDOM_DRAW,
    REASON_BY_SEED,
    BYE_LOWEST_SEED,
    REASON_BY_RATING,
    BYE_BY_RATING,
)
PLACES = (RATED, UNRATED)

RANDOM = "random"
BY_SEED = "seed"
BY_RATING = "rating"
METHODS = (RANDOM, BY_SEED, BY_RATING)
DRAW_MAX = 999_999
"""Draws are 1 to DRAW_MAX: short enough to read out, plenty for a club field."""


def drawn_order(ids: Sequence[int], draw: int) -> list[int]:
    """The registration ids in the order the draw gives them."""
    order = sorted(ids)
    random.Random(draw).shuffle(order)
    return order


def rating_order(ids: Sequence[int], ratings: Mapping[int, float]) -> list[int]:
    """``ids`` (in seed order) in rating order: rated players by rating, highest first
    (equal to two decimals: seed order), then the unrated in seed order."""
    rated = sorted((i for i in ids if i in ratings), key=lambda i: -round(ratings[i], 2))
    return rated + [i for i in ids if i not in ratings]


def first_round(
    ids: Sequence[int],
    *,
    method: str,
    draw: int | None = None,
    ratings: Mapping[int, float] | None = None,
) -> list[Pair]:
    """Round 1 pairs, best table first, then the bye if the field is odd.

    ``ids`` are in seed order; ``ratings`` the rated players' ratings (by rating only).
    Raises PairingError ``too_few_players``, ``duplicate_player``, ``bad_method``; a
    random round without a draw is a bug.
    """
    if method not in METHODS:
        raise PairingError(
            "bad_method",
            gettext_noop("Round 1 is paired at random, by seed or by rating, not %(method)s."),
            {"method": repr(method)},
        )
    if len(ids) < 2:
        raise PairingError(
            "too_few_players", gettext_noop("A Swiss round needs at least two players.")
        )
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_player", gettext_noop("A player is entered twice."))
    if method == RANDOM:
        assert draw is not None, "a random round 1 needs its draw"
        return _random(drawn_order(ids, draw), draw)
    if method == BY_RATING:
        return _by_rating(rating_order(ids, ratings or {}), ratings or {})
    return _by_seed(list(ids))


def _random(order: list[int], draw: int) -> list[Pair]:
    pairs = [
        Pair(a=order[i], b=order[i + 1], reason=worded(RANDOM_DRAW, draw=draw))
        for i in range(0, len(order) - 1, 2)
    ]
    if len(order) % 2:
        pairs.append(Pair(a=order[-1], b=None, reason=worded(BYE_RANDOM_DRAW, draw=draw)))
    return pairs


def _by_seed(order: list[int]) -> list[Pair]:
    bye = order.pop() if len(order) % 2 else None
    half = len(order) // 2
    pairs = [
        Pair(
            a=order[i],
            b=order[i + half],
            reason=worded(REASON_BY_SEED, a=i + 1, b=i + half + 1),
        )
        for i in range(half)
    ]
    if bye is not None:
        pairs.append(Pair(a=bye, b=None, reason=worded(BYE_LOWEST_SEED)))
    return pairs


def _by_rating(order: list[int], ratings: Mapping[int, float]) -> list[Pair]:
    def who(place: int) -> Phrase:
        player = order[place - 1]
        if player in ratings:
            return Phrase(RATED, {"place": place, "rating": f"{ratings[player]:.2f}"})
        return Phrase(UNRATED, {"place": place})

    bye = len(order) if len(order) % 2 else None
    half = len(order) // 2
    pairs = [
        Pair(
            a=order[i],
            b=order[i + half],
            reason=Worded(Phrase(REASON_BY_RATING, {"a": who(i + 1), "b": who(i + half + 1)})),
        )
        for i in range(half)
    ]
    if bye is not None:
        pairs.append(
            Pair(a=order[-1], b=None, reason=Worded(Phrase(BYE_BY_RATING, {"who": who(bye)})))
        )
    return pairs
