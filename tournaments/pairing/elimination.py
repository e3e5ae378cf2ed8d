"""Single-elimination brackets.

Terms:

- **seed**: a player's place in the seeding, 1 being the best; ``seeds[0]`` is seed 1.
  After a Swiss stage the seeding is the standings order.
- **bracket size**: the smallest power of two that holds the field. Seeds beyond the
  field are empty slots; the player drawn against an empty slot has a **bye** and goes
  through. Empty slots are the highest seed numbers, so byes go to the top seeds.
- **bracket order**: the order of the first round's slots, built so that seeds 1 and
  2 can only meet in the final, 1 to 4 only in the semi-finals, and so on. For 8:
  1 v 8, 4 v 5, 2 v 7, 3 v 6. Each round's winners, kept in that order, meet their
  neighbour in the next round.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.errors import PairingError
from tournaments.pairing.values import Pair
from tournaments.pairing.words import gettext_noop, worded

BYE_FOR_SEED = gettext_noop("bye for seed %(seed)s")
SEEDS = gettext_noop("seed %(top)s v seed %(bottom)s")
# A later round's pair, named by where its two players won in the round before: by
# table, as the bracket chart names a box's winner ("winner of table 3"); a bye or a
# walkover has no table.
WINNERS_OF_TABLES = gettext_noop("winners of tables %(first)s and %(second)s of round %(round)s")
WINNER_OF_TABLE_AND_BYE = gettext_noop(
    "the winner of table %(table)s of round %(round)s and a player through without playing"
)
# The same, the player through without playing named first, as the pair reads ("Ada v Dev").
BYE_AND_WINNER_OF_TABLE = gettext_noop(
    "a player through without playing and the winner of table %(table)s of round %(round)s"
)
THROUGH_WITHOUT_PLAYING = gettext_noop("two players through round %(round)s without playing")
# What drafts before the tables named them stored ("matches" by place in the round).
WINNERS_OF = gettext_noop("winners of matches %(first)s and %(second)s")
REASONS = (
    BYE_FOR_SEED,
    SEEDS,
    WINNERS_OF_TABLES,
    WINNER_OF_TABLE_AND_BYE,
    BYE_AND_WINNER_OF_TABLE,
    THROUGH_WITHOUT_PLAYING,
    WINNERS_OF,
)


def bracket_size(n: int) -> int:
    """The smallest power of two that holds ``n`` players (raises ``too_few_players``)."""
    if n < 1:
        raise PairingError("too_few_players", gettext_noop("A bracket needs at least one player."))
    return 1 << (n - 1).bit_length()


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in first-round slot order for a bracket of ``size``."""
    assert size >= 1 and size & (size - 1) == 0, "bracket sizes are powers of two"
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def elimination_round(seeds: Sequence[int]) -> list[Pair]:
    """The first round of a seeded bracket, in bracket order, byes included.

    Raises PairingError ``too_few_players`` or ``bad_seed`` (a player seeded twice).
    """
    if len(seeds) < 2:
        raise PairingError("too_few_players", gettext_noop("A bracket needs at least two players."))
    if len(set(seeds)) != len(seeds):
        raise PairingError("bad_seed", gettext_noop("A player is seeded twice."))
    order = bracket_order(bracket_size(len(seeds)))
    pairs = []
    for top, bottom in zip(order[::2], order[1::2], strict=True):
        if bottom > len(seeds):
            pairs.append(Pair(a=seeds[top - 1], b=None, reason=worded(BYE_FOR_SEED, seed=top)))
        else:
            reason = worded(SEEDS, top=top, bottom=bottom)
            pairs.append(Pair(a=seeds[top - 1], b=seeds[bottom - 1], reason=reason))
    return pairs


def next_elimination_round(
    winners: Sequence[int], tables: Sequence[int | None], round: int
) -> list[Pair]:
    """The next round: the previous round's winners, in bracket order, meet in twos.

    ``tables[k]``: the table of round ``round`` (the previous one) where ``winners[k]``
    won, None for one through without playing (a bye, a walkover); the reasons name
    them. ``a`` is the winner from the upper half of the bracket. Raises PairingError
    ``bracket_finished`` for a single winner, ``bad_bracket`` for an odd number.
    """
    if len(winners) < 2:
        raise PairingError(
            "bracket_finished", gettext_noop("The bracket is finished: one winner is left.")
        )
    if len(winners) % 2 or len(set(winners)) != len(winners):
        raise PairingError(
            "bad_bracket", gettext_noop("Winners must be distinct and even in number.")
        )
    assert len(tables) == len(winners), "a table (or None) for every winner"
    return [
        Pair(a=winners[k], b=winners[k + 1], reason=_fed_by(tables[k], tables[k + 1], round))
        for k in range(0, len(winners), 2)
    ]


def _fed_by(first: int | None, second: int | None, round: int):
    if first is not None and second is not None:
        return worded(WINNERS_OF_TABLES, first=first, second=second, round=round)
    if first is None and second is None:
        return worded(THROUGH_WITHOUT_PLAYING, round=round)
    if first is None:
        return worded(BYE_AND_WINNER_OF_TABLE, table=second, round=round)
    return worded(WINNER_OF_TABLE_AND_BYE, table=first, round=round)
