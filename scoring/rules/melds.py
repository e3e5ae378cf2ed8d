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

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from scoring.rules.cards import DECK, Card, check_unique, format_cards

# The deadwood search and its tables live in `deadwood` (compiled when it can be); the
# rest of the engine imports them from here.
from scoring.rules.deadwood import (  # noqa: F401
    IN_RUNS,
    RUN_BEST,
    RUN_CHOICE,
    SUIT_BITS,
    VALUE_SUM,
    _sets_choice,
    best_deadwood,
    by_suit,
    deadwood_of_masks,
    hand_mask,
    suit_masks,
    suits_holding,
)
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
            present = suits_holding(bit, w, x, y, z)
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
