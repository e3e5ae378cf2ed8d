"""The deadwood search: the precomputed suit tables and the exact least deadwood of a hand.

How it is found exactly and fast is told in `scoring.rules.melds`, which exports all of this.
The module is plain, type-annotated Python; `pip install` compiles it (with `cards`) by mypyc
when it can (see setup.py), and the engine gives the same answers either way.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Final

from scoring.rules.cards import Card


def _build_tables() -> tuple[list[int], list[tuple[tuple[int, int], ...]], list[int]]:
    size = 1 << 13
    values = [min(bit + 1, 10) for bit in range(13)]
    value_sum = [0] * size
    best = [0] * size
    runs: list[tuple[tuple[int, int], ...]] = [()] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        rest = mask & (mask - 1)
        value_sum[mask] = value_sum[rest] + values[low]
        choice_value, choice_runs = values[low] + best[rest], runs[rest]
        top = low
        while top + 1 < 13 and mask >> (top + 1) & 1:
            top += 1
            if top - low >= 2:
                remaining = mask & ~(((1 << (top + 1)) - 1) ^ ((1 << low) - 1))
                if best[remaining] < choice_value:
                    choice_value = best[remaining]
                    choice_runs = ((low + 1, top + 1),) + runs[remaining]
        best[mask], runs[mask] = choice_value, choice_runs
    return best, runs, value_sum


# Final: compiled, the tables are read from C variables rather than the module's dict.
_TABLES = _build_tables()
RUN_BEST: Final = _TABLES[0]
RUN_CHOICE: Final = _TABLES[1]
VALUE_SUM: Final = _TABLES[2]


def _in_runs(mask: int) -> int:
    """The ranks of a suit mask that lie in some stretch of 3 or more consecutive ranks."""
    starts = mask & (mask >> 1) & (mask >> 2)
    return starts | starts << 1 | starts << 2


# Per 13-bit suit mask: the cards that could be in a run of that suit.
IN_RUNS: Final = [_in_runs(mask) for mask in range(1 << 13)]


SUIT_BITS: Final = 8191  # one suit's 13 ranks in a 52-bit card mask (bit suit*13 + rank-1)


def hand_mask(cards: Iterable[Card]) -> int:
    """The cards as one 52-bit mask (bit suit*13 + rank-1)."""
    if type(cards) is tuple and len(cards) == 10:
        # Ten cards, nearly every call, or-ed written out: a loop costs more.
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
        return (
            c0.mask | c1.mask | c2.mask | c3.mask | c4.mask
            | c5.mask | c6.mask | c7.mask | c8.mask | c9.mask
        )  # fmt: skip
    mask = 0
    for card in cards:
        mask |= card.mask
    return mask


def by_suit(mask: int) -> tuple[int, int, int, int]:
    """A 52-bit card mask as four 13-bit suit masks (bit rank-1)."""
    return (mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39)


def suit_masks(cards: Iterable[Card]) -> list[int]:
    """The cards as four 13-bit suit masks (bit rank-1)."""
    return list(by_suit(hand_mask(cards)))


def _removals(present: int) -> tuple[tuple[int, int, int, int], ...]:
    """For a rank held in the suits of `present` (4 bits): which suits each set choice
    takes out of the hand, as 0/1 per suit (no set, the 4-set, each 3-card set)."""
    suits = [s for s in range(4) if present >> s & 1]
    choices = [suits] if len(suits) == 4 else []
    choices += [list(three) for three in combinations(suits, 3)]
    return tuple(
        (int(0 in choice), int(1 in choice), int(2 in choice), int(3 in choice))
        for choice in choices
    )


_REMOVALS: Final = [_removals(present) for present in range(16)]


def deadwood_of_masks(a: int, b: int, c: int, d: int) -> int:
    """The least deadwood of the hand held as four suit masks (bit r-1 for rank r)."""
    sets = (a & b & (c | d)) | (c & d & (a | b))
    if not sets:
        return RUN_BEST[a] + RUN_BEST[b] + RUN_BEST[c] + RUN_BEST[d]
    return _with_sets(a, b, c, d, sets)


def _with_sets(a: int, b: int, c: int, d: int, sets: int) -> int:
    """The least deadwood when the ranks in `sets` are held three or four times: the
    sets no run could want are melded whole, the others tried every way."""
    free = sets & ~(IN_RUNS[a] | IN_RUNS[b] | IN_RUNS[c] | IN_RUNS[d])
    if free:
        a, b, c, d, sets = a & ~free, b & ~free, c & ~free, d & ~free, sets ^ free
        if not sets:
            return RUN_BEST[a] + RUN_BEST[b] + RUN_BEST[c] + RUN_BEST[d]
    return _try_sets(a, b, c, d, sets)


def suits_holding(bit: int, a: int, b: int, c: int, d: int) -> int:
    """Which of the four suit masks hold the rank `bit`, as 4 bits (suit 0 lowest)."""
    return (
        (1 if a & bit else 0)
        | (2 if b & bit else 0)
        | (4 if c & bit else 0)
        | (8 if d & bit else 0)
    )


def _try_sets(a: int, b: int, c: int, d: int, sets: int) -> int:
    """Every choice of sets for the ranks in `sets` (none, the 4-set, each 3-card set),
    the rest of each suit looked up in the run table."""
    bit = sets & -sets
    sets ^= bit
    if sets:
        best = _try_sets(a, b, c, d, sets)
    else:
        best = RUN_BEST[a] + RUN_BEST[b] + RUN_BEST[c] + RUN_BEST[d]
    present = suits_holding(bit, a, b, c, d)
    for x, y, z, w in _REMOVALS[present]:
        a2, b2, c2, d2 = a ^ bit * x, b ^ bit * y, c ^ bit * z, d ^ bit * w
        if sets:
            value = _try_sets(a2, b2, c2, d2, sets)
        else:
            value = RUN_BEST[a2] + RUN_BEST[b2] + RUN_BEST[c2] + RUN_BEST[d2]
        if value < best:
            best = value
    return best


def best_deadwood(cards: Iterable[Card]) -> int:
    """The least deadwood any arrangement of `cards` leaves."""
    mask = 0
    for card in cards:
        mask |= card.mask
    a, b, c, d = mask & SUIT_BITS, mask >> 13 & SUIT_BITS, mask >> 26 & SUIT_BITS, mask >> 39
    sets = (a & b & (c | d)) | (c & d & (a | b))
    if not sets:
        return RUN_BEST[a] + RUN_BEST[b] + RUN_BEST[c] + RUN_BEST[d]
    return _with_sets(a, b, c, d, sets)


def _sets_choice(a: int, b: int, c: int, d: int, sets: int) -> tuple[int, tuple[int, ...]]:
    """Like `_with_sets`, also saying which cards the chosen sets take (per-suit masks)."""
    free = sets & ~(IN_RUNS[a] | IN_RUNS[b] | IN_RUNS[c] | IN_RUNS[d])
    if not free:
        return _try_sets_choice(a, b, c, d, sets)
    value, taken = _try_sets_choice(a & ~free, b & ~free, c & ~free, d & ~free, sets ^ free)
    return value, (
        taken[0] | a & free,
        taken[1] | b & free,
        taken[2] | c & free,
        taken[3] | d & free,
    )


def _try_sets_choice(a: int, b: int, c: int, d: int, sets: int) -> tuple[int, tuple[int, ...]]:
    """Like `_try_sets`, also saying which cards the chosen sets take (per-suit masks)."""
    if not sets:
        return RUN_BEST[a] + RUN_BEST[b] + RUN_BEST[c] + RUN_BEST[d], (0, 0, 0, 0)
    bit = sets & -sets
    sets ^= bit
    best, taken = _try_sets_choice(a, b, c, d, sets)
    present = suits_holding(bit, a, b, c, d)
    for x, y, z, w in _REMOVALS[present]:
        value, more = _try_sets_choice(a ^ bit * x, b ^ bit * y, c ^ bit * z, d ^ bit * w, sets)
        if value < best:
            best = value
            taken = (more[0] | bit * x, more[1] | bit * y, more[2] | bit * z, more[3] | bit * w)
    return best, taken
