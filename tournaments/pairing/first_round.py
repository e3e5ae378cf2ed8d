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
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from tournaments.pairing.errors import PairingError
from tournaments.pairing.values import Pair

RANDOM = "random"
BY_SEED = "seed"
METHODS = (RANDOM, BY_SEED)
DRAW_MAX = 999_999
"""Draws are 1 to DRAW_MAX: short enough to read out, plenty for a club field."""


def drawn_order(ids: Sequence[int], draw: int) -> list[int]:
    """The registration ids in the order the draw gives them."""
    order = sorted(ids)
    random.Random(draw).shuffle(order)
    return order


def first_round(ids: Sequence[int], *, method: str, draw: int | None = None) -> list[Pair]:
    """Round 1 pairs, best table first, then the bye if the field is odd.

    ``ids`` are in seed order. Raises PairingError ``too_few_players``,
    ``duplicate_player``, ``bad_method``; a random round without a draw is a bug.
    """
    if method not in METHODS:
        raise PairingError("bad_method", f"Round 1 is paired at random or by seed, not {method!r}.")
    if len(ids) < 2:
        raise PairingError("too_few_players", "A Swiss round needs at least two players.")
    if len(set(ids)) != len(ids):
        raise PairingError("duplicate_player", "A player is entered twice.")
    if method == RANDOM:
        assert draw is not None, "a random round 1 needs its draw"
        return _random(drawn_order(ids, draw), draw)
    return _by_seed(list(ids))


def _random(order: list[int], draw: int) -> list[Pair]:
    pairs = [
        Pair(a=order[i], b=order[i + 1], reason=f"round 1: random draw {draw}")
        for i in range(0, len(order) - 1, 2)
    ]
    if len(order) % 2:
        pairs.append(Pair(a=order[-1], b=None, reason=f"bye: last in random draw {draw}"))
    return pairs


def _by_seed(order: list[int]) -> list[Pair]:
    bye = order.pop() if len(order) % 2 else None
    half = len(order) // 2
    pairs = [
        Pair(a=order[i], b=order[i + half], reason=f"round 1 by seed: {i + 1} v {i + half + 1}")
        for i in range(half)
    ]
    if bye is not None:
        pairs.append(Pair(a=bye, b=None, reason="bye: lowest seed"))
    return pairs
