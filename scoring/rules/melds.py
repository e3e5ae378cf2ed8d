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
cards has at most three ranks with three or more cards, so every choice of sets (none,
each 3-card subset, the 4-card set) is tried and the four suits are then looked up.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from scoring.rules.cards import Card, card_at, check_unique, format_cards
from scoring.rules.errors import RulesError

Meld = tuple[Card, ...]


@dataclass(frozen=True)
class Arrangement:
    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int

    def as_dict(self) -> dict:
        return {"melds": [format_cards(m) for m in self.melds],
                "deadwood_cards": format_cards(self.deadwood_cards),
                "deadwood": self.deadwood}


# ------------------------------------------------------------------ meld validation

def meld_kind(cards: Sequence[Card]) -> str | None:
    """"set", "run" or None."""
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
        raise RulesError("invalid_meld", f"{text} is not a meld: a meld needs 3 or more cards")
    if len({c.suit_index for c in cards}) == 1 and _wraps(sorted(c.rank for c in cards)):
        raise RulesError("invalid_meld", f"{text} is not a run: aces are low")
    raise RulesError("invalid_meld", f"{text} is not a meld: a set is 3 or 4 cards of one "
                     "rank, a run 3 or more cards in sequence in one suit")


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


def suit_masks(cards: Iterable[Card]) -> list[int]:
    masks = [0, 0, 0, 0]
    for card in cards:
        masks[card.suit_index] |= card.bit
    return masks


def _set_ranks(m: Sequence[int]) -> int:
    """Bitmask of ranks present in at least three suits."""
    a, b, c, d = m
    return (a & b & (c | d)) | (c & d & (a | b))


def _set_options(m: Sequence[int], rank_bit: int) -> list[tuple[int, ...]]:
    """For one rank held 3 or 4 times: the suit tuples that may form its set (or none)."""
    suits = tuple(s for s in range(4) if m[s] & rank_bit)
    options: list[tuple[int, ...]] = [()]
    if len(suits) == 4:
        options.append(suits)
    options.extend(combinations(suits, 3))
    return options


def _search(m: list[int], ranks: list[int]) -> tuple[int, tuple[tuple[int, tuple[int, ...]], ...]]:
    """Min deadwood over all set choices for `ranks`, and the sets chosen."""
    if not ranks:
        return RUN_BEST[m[0]] + RUN_BEST[m[1]] + RUN_BEST[m[2]] + RUN_BEST[m[3]], ()
    rank_bit, rest = ranks[0], ranks[1:]
    best_value, best_sets = 1 << 30, ()
    for suits in _set_options(m, rank_bit):
        for s in suits:
            m[s] ^= rank_bit
        value, sets = _search(m, rest)
        for s in suits:
            m[s] ^= rank_bit
        if value < best_value:
            best_value, best_sets = value, (((rank_bit, suits),) + sets if suits else sets)
    return best_value, best_sets


def _rank_bits(mask: int) -> list[int]:
    bits = []
    while mask:
        low = mask & -mask
        bits.append(low)
        mask ^= low
    return bits


def best_deadwood(cards: Iterable[Card]) -> int:
    """The least deadwood any arrangement of `cards` leaves."""
    m = [0, 0, 0, 0]
    for card in cards:
        m[card.suit_index] |= card.bit
    sets = (m[0] & m[1] & (m[2] | m[3])) | (m[2] & m[3] & (m[0] | m[1]))
    if not sets:
        return RUN_BEST[m[0]] + RUN_BEST[m[1]] + RUN_BEST[m[2]] + RUN_BEST[m[3]]
    return _search(m, _rank_bits(sets))[0]


def best_arrangement(cards: Sequence[Card]) -> Arrangement:
    """One arrangement with the least deadwood (melds, deadwood cards, deadwood)."""
    m = suit_masks(cards)
    value, sets = _search(m, _rank_bits(_set_ranks(m)))
    melds: list[Meld] = []
    for rank_bit, suits in sets:
        rank = rank_bit.bit_length()
        melds.append(tuple(card_at(s, rank) for s in suits))
        for s in suits:
            m[s] ^= rank_bit
    for s in range(4):
        for low, high in RUN_CHOICE[m[s]]:
            melds.append(tuple(card_at(s, r) for r in range(low, high + 1)))
    melded = {card for meld in melds for card in meld}
    dead = tuple(sorted((c for c in cards if c not in melded), key=lambda c: (c.rank, c.suit)))
    assert sum(c.value for c in dead) == value
    return Arrangement(tuple(melds), dead, value)


# ----------------------------------------------------------- every possible arrangement

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


_SUB_RUNS = [_sub_runs(mask) if mask & (mask >> 1) & (mask >> 2) else () for mask in range(8192)]


def possible_melds(cards: Sequence[Card]) -> list[Meld]:
    """Every meld the cards can form, sub-melds included (each 3 of a 4-set, every
    stretch of 3 or more inside a longer run)."""
    m = suit_masks(cards)
    melds: list[Meld] = []
    for rank_bit in _rank_bits(_set_ranks(m)):
        rank = rank_bit.bit_length()
        group = [card_at(s, rank) for s in range(4) if m[s] & rank_bit]
        melds.extend(combinations(group, 3))
        if len(group) == 4:
            melds.append(tuple(group))
    for suit in range(4):
        for low, high in _SUB_RUNS[m[suit]]:
            melds.append(tuple(card_at(suit, r) for r in range(low, high + 1)))
    return melds


def all_arrangements(cards: Sequence[Card]) -> Iterator[tuple[Meld, ...]]:
    """Every collection of disjoint melds, the empty one included."""
    for _, melds in arrangements_by_value(cards):
        yield melds


def arrangements_by_value(cards: Sequence[Card]) -> list[tuple[int, tuple[Meld, ...]]]:
    """Every collection of disjoint melds with the total value it melds."""
    melds = possible_melds(cards)
    masks = [sum(1 << c.index for c in meld) for meld in melds]
    values = [sum(c.value for c in meld) for meld in melds]
    found: list[tuple[int, tuple[Meld, ...]]] = []

    def extend(start: int, used: int, value: int, chosen: tuple[Meld, ...]) -> None:
        found.append((value, chosen))
        for i in range(start, len(melds)):
            if not used & masks[i]:
                extend(i + 1, used | masks[i], value + values[i], chosen + (melds[i],))

    extend(0, 0, 0, ())
    return found


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
        raise RulesError("wrong_card_count", f"an 11-card hand needs 11 cards, not {len(cards)}")
    check_unique(cards)
    after = [(card, best_deadwood(c for c in cards if c is not card)) for card in cards]
    best = min(value for _, value in after)
    ordered = sorted(after, key=lambda item: (item[0].rank, item[0].suit))
    all11 = best_deadwood(cards)
    return ElevenAnalysis(
        deadwood_all11=all11,
        best_discard_deadwood=best,
        best_discards=tuple(c for c, v in ordered if v == best),
        knock_discards=tuple(c for c, v in ordered if v <= knock_limit),
        gin_discards=tuple(c for c, v in ordered if v == 0),
        big_gin=all11 == 0,
    )
