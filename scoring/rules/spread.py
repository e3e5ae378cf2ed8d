"""The spread after a knock: lay-offs, the defender's best reply, the knocker's choice.

Terms:
    knocker    the player who ends the hand and lays out melds and deadwood.
    defender   the other player.
    lay-off    a defender's deadwood card added to one of the knocker's melds: the fourth
               card of a three-card set, or a card extending a run at either end,
               chains included (5-6-7♥ takes 8♥, then 9♥). Never after gin or big gin,
               never onto the defender's own melds.
The defender chooses their own melds and their lay-offs together, to leave the least
deadwood; the knocker, when their melds are not declared, is assumed to choose the
arrangement that gives them the best net result against that reply.

How, exactly: whether a set of lay-offs is valid is decided suit by suit (a card joins a
run through a chain of laid-off cards of its own suit, or completes a set), so every
valid set is tried as a product of each suit's valid subsets, and the defender's best
deadwood with the rest is looked up each time (melds.deadwood_of_masks). A spread only
matters to the defender through its signature: the cards of its runs and the cards that
would complete its three-card sets. Masks are 13-bit per suit (bit r-1 for rank r) or
52-bit per hand (bit suit*13 + r-1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, combinations
from operator import attrgetter, itemgetter

from scoring.rules.cards import DECK, Card, format_cards
from scoring.rules.errors import RulesError, gettext_noop
from scoring.rules.melds import (
    IN_RUNS,
    RUN_STRETCHES,
    SUIT_BITS,
    VALUE_SUM,
    Meld,
    arrangement_within,
    best_arrangement,
    deadwood_of_masks,
    suit_masks,
    suits_holding,
)

EMPTY: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Reply:
    """The defender's best reply to a spread."""

    deadwood: int
    laid_off: tuple[Card, ...]
    melds: tuple[Meld, ...]

    def __init__(self, deadwood: int, laid_off: tuple[Card, ...], melds: tuple[Meld, ...]):
        # Like Arrangement's: cheaper than a frozen dataclass's generated __init__.
        fields = self.__dict__
        fields["deadwood"] = deadwood
        fields["laid_off"] = laid_off
        fields["melds"] = melds


def spread_masks(knocker_melds: Sequence[Meld]) -> tuple[list[int], list[int]]:
    """Per suit: the ranks in the knocker's runs, and the ranks that would complete one of
    the knocker's three-card sets (as 13-bit masks, bit r-1 for rank r)."""
    runs, fourths = [0, 0, 0, 0], [0, 0, 0, 0]
    for meld in knocker_melds:
        if meld[0].rank != meld[1].rank:  # validated melds: not a set, so a run
            for card in meld:
                runs[card.suit_index] |= card.bit
        elif len(meld) == 3:
            missing = ({0, 1, 2, 3} - {c.suit_index for c in meld}).pop()
            fourths[missing] |= meld[0].bit
    return runs, fourths


def _anchored(run: int, held: int) -> int:
    """Ranks joined to a run through an unbroken chain of `held` ranks (run included)."""
    reach = run
    while True:
        grown = reach | (((reach << 1) | (reach >> 1)) & held)
        if grown == reach:
            return reach
        reach = grown


def valid_layoffs(knocker_melds: Sequence[Meld], laid_off: Iterable[Card]) -> Card | None:
    """None when every card can be laid off together; else the first card that can't."""
    runs, fourths = spread_masks(knocker_melds)
    cards = sorted(laid_off)
    return _first_invalid(runs, fourths, cards)


def _first_invalid(runs: list[int], fourths: list[int], cards: Sequence[Card]) -> Card | None:
    held = suit_masks(cards)
    ok = [_anchored(runs[s], held[s]) | fourths[s] for s in range(4)]
    for card in cards:
        if not ok[card.suit_index] & card.bit:
            return card
    return None


def defender_reply(
    knocker_melds: Sequence[Meld],
    defender: Sequence[Card],
    *,
    layoffs_allowed: bool = True,
    declared: Sequence[Card] | None = None,
) -> Reply:
    """The defender's least deadwood, own melds and lay-offs chosen together."""
    if declared is not None:
        return _declared_reply(knocker_melds, defender, declared, layoffs_allowed)
    _, laid_off = best_layoffs(knocker_melds, defender, layoffs_allowed=layoffs_allowed)
    return reply_for(defender, laid_off)


def best_layoffs(
    knocker_melds: Sequence[Meld],
    defender: Sequence[Card],
    *,
    layoffs_allowed: bool = True,
    no_layoff_deadwood: int | None = None,
) -> tuple[int, tuple[Card, ...]]:
    """The defender's least deadwood and the lay-offs that give it (deadwood only: the
    melds are found once, for the reply finally shown)."""
    held = suit_masks(defender)
    before = deadwood_of_masks(*held) if no_layoff_deadwood is None else no_layoff_deadwood
    if not layoffs_allowed:
        return before, EMPTY
    runs, fourths = spread_masks(knocker_melds)
    value, off = reply_masks(runs, fourths, held, before)
    return value, tuple(c for c in sorted(defender) if off[c.suit_index] & c.bit)


def reply_masks(
    runs: Sequence[int], fourths: Sequence[int], held: Sequence[int], before: int
) -> tuple[int, tuple[int, ...]]:
    """The least deadwood over every valid set of lay-offs, with the defender's own melds
    found for the rest each time, and the lay-offs (suit masks) that give it.

    A set of lay-offs is valid suit by suit (a card joins a run through a chain of laid-off
    cards of its own suit, or completes a set), so the valid sets are the products of
    each suit's valid subsets."""
    a, b, c, d = held
    r, f = runs[0], fourths[0]  # each suit: a held card next to a run or a set's fourth?
    suit_a = _suit_layoffs(r, f, a) if (r << 1 | r >> 1 | f) & a else _NONE
    r, f = runs[1], fourths[1]
    suit_b = _suit_layoffs(r, f, b) if (r << 1 | r >> 1 | f) & b else _NONE
    r, f = runs[2], fourths[2]
    suit_c = _suit_layoffs(r, f, c) if (r << 1 | r >> 1 | f) & c else _NONE
    r, f = runs[3], fourths[3]
    suit_d = _suit_layoffs(r, f, d) if (r << 1 | r >> 1 | f) & d else _NONE
    best, best_off = before, (0, 0, 0, 0)
    if suit_a is suit_b is suit_c is suit_d is _NONE:
        return best, best_off
    for w in suit_a:
        for x in suit_b:
            for y in suit_c:
                for z in suit_d:
                    if w | x | y | z:
                        value = deadwood_of_masks(a ^ w, b ^ x, c ^ y, d ^ z)
                        if value < best:
                            best, best_off = value, (w, x, y, z)
    return best, best_off


_NONE = (0,)


@lru_cache(maxsize=8192)
def _suit_layoffs(run: int, fourth: int, held: int) -> tuple[int, ...]:
    """Every set of one suit's cards `held` that can be laid off together on a spread
    with these run cards and set fourths of that suit (the empty set first)."""
    fits = (_anchored(run, held) | fourth) & held
    valid = [0]
    sub = fits
    while sub:
        if not sub & ~(_anchored(run, sub) | fourth):
            valid.append(sub)
        sub = (sub - 1) & fits
    return tuple(valid)


def reply_for(defender: Sequence[Card], laid_off: Sequence[Card]) -> Reply:
    arrangement = best_arrangement([c for c in defender if c not in laid_off])
    return Reply(arrangement.deadwood, tuple(sorted(laid_off)), arrangement.melds)


def reply_of_masks(defender: Sequence[Card], held: Sequence[int], off: Sequence[int]) -> Reply:
    """`reply_for` with the defender's cards and lay-offs also given as suit masks."""
    w, x, y, z = off
    arrangement = arrangement_within(
        defender, held[0] & ~w, held[1] & ~x, held[2] & ~y, held[3] & ~z
    )
    laid_off = [card for card in defender if off[card.suit_index] & card.bit]
    laid_off.sort(key=_by_index)
    return Reply(arrangement.deadwood, tuple(laid_off), arrangement.melds)


_by_index = attrgetter("index")  # the order of sorted(cards), without Card.__lt__


def _declared_reply(knocker_melds, defender, declared, layoffs_allowed) -> Reply:
    if declared and not layoffs_allowed:
        raise RulesError(
            "illegal_layoff", gettext_noop("lay-offs are not played under these rules")
        )
    for card in declared:
        if card not in defender:
            raise RulesError(
                "illegal_layoff",
                gettext_noop("%(card)s is not in the defender's hand"),
                {"card": str(card)},
            )
    bad = valid_layoffs(knocker_melds, declared)
    if bad is not None:
        raise RulesError(
            "illegal_layoff",
            gettext_noop("%(card)s cannot be laid off on the knocker's melds (%(melds)s)"),
            {
                "card": str(bad),
                "melds": "; ".join(" ".join(format_cards(m)) for m in knocker_melds),
            },
        )
    return reply_for(defender, declared)


# ------------------------------------------------------------ the knocker's spreads


def _mask_value(mask: int) -> int:
    return (
        VALUE_SUM[mask & SUIT_BITS]
        + VALUE_SUM[mask >> 13 & SUIT_BITS]
        + VALUE_SUM[mask >> 26 & SUIT_BITS]
        + VALUE_SUM[mask >> 39]
    )


def could_lay_off(knocker: Sequence[int], held: Sequence[int]) -> bool:
    """Whether some spread of the knocker's (suit masks) could take some defender card:
    every card of the knocker's that can be in a run counts as a run card, and every
    rank held exactly three times as a set the defender might complete."""
    a, b, c, d = knocker
    three = (a & b & (c | d) | c & d & (a | b)) & ~(a & b & c & d)
    # A card joins a run through a chain that starts next to it.
    run = IN_RUNS[a]
    if (run << 1 | run >> 1 | (three & ~a)) & held[0]:
        return True
    run = IN_RUNS[b]
    if (run << 1 | run >> 1 | (three & ~b)) & held[1]:
        return True
    run = IN_RUNS[c]
    if (run << 1 | run >> 1 | (three & ~c)) & held[2]:
        return True
    run = IN_RUNS[d]
    return bool((run << 1 | run >> 1 | (three & ~d)) & held[3])


@dataclass(frozen=True)
class MeldTable:
    """Every meld a hand can show (sub-melds included), with per meld its 52-bit card
    mask, value, run cards and the card that would complete it as a set of four."""

    melds: tuple[Meld, ...]
    masks: tuple[int, ...]
    values: tuple[int, ...]
    runs: tuple[int, ...]
    fourths: tuple[int, ...]

    def __init__(self, melds, masks, values, runs, fourths) -> None:
        # Like Arrangement's: cheaper than a frozen dataclass's generated __init__.
        self.__dict__.update(melds=melds, masks=masks, values=values, runs=runs, fourths=fourths)

    @classmethod
    def of(cls, masks: Sequence[int]) -> MeldTable:
        rows: list[tuple] = []
        a, b, c, d = masks
        sets = a & b & (c | d) | c & d & (a | b)
        while sets:
            bit = sets & -sets
            sets ^= bit
            present = suits_holding(bit, a, b, c, d)
            rows += _SET_ROWS[bit, present]
        for s in range(4):
            if RUN_STRETCHES[masks[s]]:
                rows += _run_rows(s, masks[s])
        if not rows:
            return cls((), (), (), (), ())
        return cls(*zip(*rows, strict=True))

    def signature(self, chosen: Sequence[int]) -> tuple[int, int]:
        """What a spread of these melds lets the defender lay off: (run cards, fourths)."""
        runs = fourths = 0
        for i in chosen:
            runs |= self.runs[i]
            fourths |= self.fourths[i]
        return runs, fourths

    def legal_spreads(self, total: int, limit: int) -> list[tuple[int, tuple[int, ...]]]:
        """Every collection of disjoint melds leaving deadwood within `limit`, as
        (deadwood, meld indexes), lowest deadwood first (ties in the order the melds are
        listed)."""
        masks, values = self.masks, self.values
        count = len(masks)
        found: list[tuple[int, tuple[int, ...]]] = [(total, ())] if total <= limit else []
        # The melds from i on can lower the deadwood by at most reach[i] (their values
        # added up, shared cards counted twice): a bound cheap enough to test every time.
        reach = list(accumulate(reversed(values), initial=0))[::-1]
        # Spreads of one, two and three melds (all that 10 cards can show) written out
        # in depth-first order; more melds go on in _grow.
        for i in range(count):
            if total - reach[i] > limit:
                break
            used_i, left_i = masks[i], total - values[i]
            if left_i <= limit:
                found.append((left_i, (i,)))
            for j in range(i + 1, count):
                if left_i - reach[j] > limit:
                    break
                if used_i & masks[j]:
                    continue
                used_j, left_j = used_i | masks[j], left_i - values[j]
                if left_j <= limit:
                    found.append((left_j, (i, j)))
                for k in range(j + 1, count):
                    if left_j - reach[k] > limit:
                        break
                    if used_j & masks[k]:
                        continue
                    left_k = left_j - values[k]
                    if left_k <= limit:
                        found.append((left_k, (i, j, k)))
                    if k + 1 < count and left_k - reach[k + 1] <= limit:
                        used_k = used_j | masks[k]
                        _grow(masks, values, reach, limit, found, k + 1, used_k, left_k, (i, j, k))
        found.sort(key=_first)
        return found


def _grow(masks, values, reach, limit, found, start, used, left, chosen) -> None:
    """Add to `found` every spread that extends `chosen` (cards `used`, deadwood `left`)
    with melds from `start` on, in depth-first order."""
    count = len(masks)
    for i in range(start, count):
        if left - reach[i] > limit:
            return
        if not used & masks[i]:
            now = left - values[i]
            spread = chosen + (i,)
            if now <= limit:
                found.append((now, spread))
            if i + 1 < count and now - reach[i + 1] <= limit:
                _grow(masks, values, reach, limit, found, i + 1, used | masks[i], now, spread)


_first = itemgetter(0)


def _set_rows(bit: int, present: int) -> tuple[tuple, ...]:
    """MeldTable rows for the sets of one rank held in the suits of `present` (4 bits)."""
    rank = bit.bit_length()
    suits = [s for s in range(4) if present >> s & 1]
    groups = [suits] if len(suits) == 4 else []
    groups += [list(three) for three in combinations(suits, 3)]
    rows = []
    for group in groups:
        mask = sum(1 << (s * 13 + rank - 1) for s in group)
        missing = [s for s in range(4) if s not in group]
        fourth = 1 << (missing[0] * 13 + rank - 1) if len(group) == 3 else 0
        rows.append(
            (
                tuple(DECK[s * 13 + rank - 1] for s in group),
                mask,
                min(rank, 10) * len(group),
                0,
                fourth,
            )
        )
    return tuple(rows)


_SET_ROWS = {
    (1 << r, present): _set_rows(1 << r, present)
    for r in range(13)
    for present in range(16)
    if bin(present).count("1") >= 3
}


@lru_cache(maxsize=4096)
def _run_rows(suit: int, held: int) -> tuple[tuple, ...]:
    """MeldTable rows for every stretch of a run within one suit's cards."""
    rows = []
    for low, high in RUN_STRETCHES[held]:
        mask = ((1 << (high - low + 1)) - 1) << (suit * 13 + low - 1)
        rows.append(
            (DECK[suit * 13 + low - 1 : suit * 13 + high], mask, _mask_value(mask), mask, 0)
        )
    return tuple(rows)
