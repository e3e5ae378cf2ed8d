"""Melds, deadwood and the best arrangement of a hand.

Terms:
    set        3 or 4 cards of one rank.
    run        3 or more consecutive cards of one suit; the ace is low only.
    meld       a set or a run; a card belongs to at most one meld.
    deadwood   the total value of the cards in no meld.
    arrangement  a choice of disjoint melds; the best one minimises deadwood.

How the best arrangement is found exactly and fast: a hand is four 13-bit suit masks.
For every one of the 8,192 masks of a single suit, the best deadwood using runs only is
precomputed once. Sets are the only thing that couples suits, and a hand of 10 or 11
cards has at most three ranks with three or more cards. A set whose cards can be in no
run of their suit is always melded whole (nothing else could use its cards); for the
other ranks every choice of sets (none, each 3-card subset, the 4-card set) is tried and
the four suits are then looked up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from scoring.rules.cards import DECK, Card, check_unique, format_cards
from scoring.rules.errors import RulesError, gettext_noop

Meld = tuple[Card, ...]


@dataclass(frozen=True)
class Arrangement:
    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    # Written out: the generated __init__ of a frozen dataclass sets each field through
    # object.__setattr__, and the engine makes one or two of these per hand it scores.
    def __init__(self, melds: tuple[Meld, ...], deadwood_cards: tuple[Card, ...], deadwood: int):
        fields = self.__dict__  # stored one by one: cheaper than update(**three)
        fields["melds"] = melds
        fields["deadwood_cards"] = deadwood_cards
        fields["deadwood"] = deadwood

    def as_dict(self) -> dict:
        return {
            "melds": [format_cards(m) for m in self.melds],
            "deadwood_cards": format_cards(self.deadwood_cards),
            "deadwood": self.deadwood,
        }


# ------------------------------------------------------------------ meld validation


def meld_kind(cards: Sequence[Card]) -> str | None:
    """ "set", "run" or None."""
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return None
    if len({c.rank for c in cards}) == 1:
        return "set" if len(cards) <= 4 else None
    if len({c.suit_index for c in cards}) != 1:
        return None
    ranks = sorted(c.rank for c in cards)
    return "run" if ranks == list(range(ranks[0], ranks[0] + len(ranks))) else None


def check_meld(cards: Sequence[Card]) -> str:
    """The meld's kind, or a RulesError saying why these cards are no meld."""
    kind = meld_kind(cards)
    if kind:
        return kind
    text = " ".join(format_cards(cards))
    check_unique(cards, "a meld")
    if len(cards) < 3:
        raise RulesError(
            "invalid_meld",
            gettext_noop("%(cards)s is not a meld: a meld needs 3 or more cards"),
            {"cards": text},
        )
    if len({c.suit_index for c in cards}) == 1 and _wraps(sorted(c.rank for c in cards)):
        raise RulesError(
            "invalid_meld", gettext_noop("%(cards)s is not a run: aces are low"), {"cards": text}
        )
    raise RulesError(
        "invalid_meld",
        gettext_noop(
            "%(cards)s is not a meld: a set is 3 or 4 cards of one "
            "rank, a run 3 or more cards in sequence in one suit"
        ),
        {"cards": text},
    )


def _wraps(ranks: list[int]) -> bool:
    """Distinct ranks that would be a run only if K-A were allowed to join (Q-K-A, K-A-2)."""
    gaps = [b - a for a, b in zip(ranks, ranks[1:], strict=False)] + [ranks[0] + 13 - ranks[-1]]
    return len(set(ranks)) == len(ranks) and gaps.count(1) == len(ranks) - 1 and gaps[-1] == 1


# ------------------------------------------------------------- precomputed suit tables


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


RUN_BEST, RUN_CHOICE, VALUE_SUM = _build_tables()


def _in_runs(mask: int) -> int:
    """The ranks of a suit mask that lie in some stretch of 3 or more consecutive ranks."""
    starts = mask & (mask >> 1) & (mask >> 2)
    return starts | starts << 1 | starts << 2


# Per 13-bit suit mask: the cards that could be in a run of that suit.
IN_RUNS = [_in_runs(mask) for mask in range(1 << 13)]


SUIT_BITS = 8191  # one suit's 13 ranks in a 52-bit card mask (bit suit*13 + rank-1)


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
    return tuple(tuple(int(s in choice) for s in range(4)) for choice in choices)


_REMOVALS = [_removals(present) for present in range(16)]


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


def _try_sets(a: int, b: int, c: int, d: int, sets: int) -> int:
    """Every choice of sets for the ranks in `sets` (none, the 4-set, each 3-card set),
    the rest of each suit looked up in the run table."""
    bit = sets & -sets
    sets ^= bit
    if sets:
        best = _try_sets(a, b, c, d, sets)
    else:
        best = RUN_BEST[a] + RUN_BEST[b] + RUN_BEST[c] + RUN_BEST[d]
    present = (
        (1 if a & bit else 0)
        | (2 if b & bit else 0)
        | (4 if c & bit else 0)
        | (8 if d & bit else 0)
    )
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
    m = [0, 0, 0, 0]
    for card in cards:
        m[card.suit_index] |= card.bit
    a, b, c, d = m
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
    present = (
        (1 if a & bit else 0)
        | (2 if b & bit else 0)
        | (4 if c & bit else 0)
        | (8 if d & bit else 0)
    )
    for x, y, z, w in _REMOVALS[present]:
        value, more = _try_sets_choice(a ^ bit * x, b ^ bit * y, c ^ bit * z, d ^ bit * w, sets)
        if value < best:
            best = value
            taken = (more[0] | bit * x, more[1] | bit * y, more[2] | bit * z, more[3] | bit * w)
    return best, taken


def best_arrangement(cards: Sequence[Card]) -> Arrangement:
    """One arrangement with the least deadwood (melds, deadwood cards, deadwood)."""
    a, b, c, d = suit_masks(cards)
    return arrangement_within(cards, a, b, c, d)


def arrangement_within(cards: Sequence[Card], a: int, b: int, c: int, d: int) -> Arrangement:
    """`best_arrangement` of the cards of `cards` that are in the suit masks a b c d."""
    sets = (a & b & (c | d)) | (c & d & (a | b))
    melds: list[Meld] = []
    if sets:
        value, (w, x, y, z) = _sets_choice(a, b, c, d, sets)
        rank_bits = w | x | y | z
        while rank_bits:
            bit = rank_bits & -rank_bits
            rank_bits ^= bit
            present = (
                (1 if w & bit else 0)
                | (2 if x & bit else 0)
                | (4 if y & bit else 0)
                | (8 if z & bit else 0)
            )
            melds.append(_SET_MELDS[bit, present])
        a, b, c, d = a ^ w, b ^ x, c ^ y, d ^ z
    else:
        value = RUN_BEST[a] + RUN_BEST[b] + RUN_BEST[c] + RUN_BEST[d]
    # Then each suit's runs; `left` keeps the deadwood cards.
    if RUN_CHOICE[a]:
        runs, melded = _suit_runs(0, a)
        melds += runs
        a ^= melded
    if RUN_CHOICE[b]:
        runs, melded = _suit_runs(1, b)
        melds += runs
        b ^= melded
    if RUN_CHOICE[c]:
        runs, melded = _suit_runs(2, c)
        melds += runs
        c ^= melded
    if RUN_CHOICE[d]:
        runs, melded = _suit_runs(3, d)
        melds += runs
        d ^= melded
    left = (a, b, c, d)
    dead = [card for card in cards if left[card.suit_index] & card.bit]
    dead.sort(key=_by_rank)
    return Arrangement(tuple(melds), tuple(dead), value)


# The set of one rank (its bit) held in the suits of `present` (4 bits), as a meld.
_SET_MELDS = {
    (1 << r, present): tuple(DECK[s * 13 + r] for s in range(4) if present >> s & 1)
    for r in range(13)
    for present in range(16)
    if bin(present).count("1") >= 3
}


@cache
def _suit_runs(suit: int, mask: int) -> tuple[tuple[Meld, ...], int]:
    """The runs of the best arrangement of one suit's cards, and the cards they take
    (at most 4 x 8,192 entries)."""
    runs = tuple(DECK[suit * 13 + low - 1 : suit * 13 + high] for low, high in RUN_CHOICE[mask])
    melded = 0
    for low, high in RUN_CHOICE[mask]:
        melded |= ((1 << (high - low + 1)) - 1) << (low - 1)
    return runs, melded


# Deadwood cards are listed by rank, then suit.
_by_rank = {card: card.rank * 4 + card.suit_index for card in DECK}.__getitem__


# ------------------------------------------------------------ every stretch of a run


def _sub_runs(mask: int) -> tuple[tuple[int, int], ...]:
    """Every stretch of 3 or more consecutive ranks inside a suit mask, as (low, high)."""
    found = []
    for low in range(1, 12):
        high = low
        while high <= 13 and mask >> (high - 1) & 1:
            if high - low >= 2:
                found.append((low, high))
            high += 1
    return tuple(found)


RUN_STRETCHES = [
    _sub_runs(mask) if mask & (mask >> 1) & (mask >> 2) else () for mask in range(8192)
]


# ------------------------------------------------------------------------- 11 cards


@dataclass(frozen=True)
class ElevenAnalysis:
    deadwood_all11: int
    best_discard_deadwood: int
    best_discards: tuple[Card, ...]
    knock_discards: tuple[Card, ...]
    gin_discards: tuple[Card, ...]
    big_gin: bool

    @property
    def can_gin(self) -> bool:
        return bool(self.gin_discards)

    def as_dict(self) -> dict:
        return {
            "deadwood_all11": self.deadwood_all11,
            "best_discard_deadwood": self.best_discard_deadwood,
            "best_discards": format_cards(self.best_discards),
            "knock_discards": format_cards(self.knock_discards),
            "gin_discards": format_cards(self.gin_discards),
            "can_gin": self.can_gin,
            "big_gin": self.big_gin,
        }


def analyse_eleven(cards: Sequence[Card], knock_limit: int) -> ElevenAnalysis:
    """After drawing: the deadwood each discard leaves, and which discards may end the
    hand. Knock legality is judged on the 10 cards left, so every discard is tried."""
    if len(cards) != 11:
        raise RulesError(
            "wrong_card_count",
            gettext_noop("an 11-card hand needs 11 cards, not %(count)s"),
            {"count": len(cards)},
        )
    check_unique(cards)
    m = suit_masks(cards)
    after = []
    for card in cards:
        m[card.suit_index] ^= card.bit
        after.append((card, deadwood_of_masks(*m)))
        m[card.suit_index] ^= card.bit
    best = min(value for _, value in after)
    ordered = sorted(after, key=lambda item: (item[0].rank, item[0].suit_index))
    all11 = deadwood_of_masks(*m)
    return ElevenAnalysis(
        deadwood_all11=all11,
        best_discard_deadwood=best,
        best_discards=tuple(c for c, v in ordered if v == best),
        knock_discards=tuple(c for c, v in ordered if v <= knock_limit),
        gin_discards=tuple(c for c, v in ordered if v == 0),
        big_gin=all11 == 0,
    )
