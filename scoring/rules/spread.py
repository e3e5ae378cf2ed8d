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
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from scoring.rules.cards import Card, format_cards
from scoring.rules.errors import RulesError
from scoring.rules.melds import Meld, best_arrangement, best_deadwood, suit_masks

EMPTY: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Reply:
    """The defender's best reply to a spread."""

    deadwood: int
    laid_off: tuple[Card, ...]
    melds: tuple[Meld, ...]


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


def layoff_candidates(knocker_melds: Sequence[Meld], defender: Iterable[Card]) -> list[Card]:
    """Defender cards that some valid set of lay-offs could include."""
    runs, fourths = spread_masks(knocker_melds)
    held = suit_masks(defender)
    return [card for card in defender
            if (_anchored(runs[card.suit_index], held[card.suit_index])
                | fourths[card.suit_index]) & card.bit]


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


def defender_reply(knocker_melds: Sequence[Meld], defender: Sequence[Card], *,
                   layoffs_allowed: bool = True,
                   declared: Sequence[Card] | None = None) -> Reply:
    """The defender's least deadwood, own melds and lay-offs chosen together."""
    if declared is not None:
        return _declared_reply(knocker_melds, defender, declared, layoffs_allowed)
    _, laid_off = best_layoffs(knocker_melds, defender, layoffs_allowed=layoffs_allowed)
    return _reply(defender, laid_off)


def best_layoffs(knocker_melds: Sequence[Meld], defender: Sequence[Card], *,
                 layoffs_allowed: bool = True,
                 no_layoff_deadwood: int | None = None) -> tuple[int, tuple[Card, ...]]:
    """The defender's least deadwood and the lay-offs that give it (deadwood only: the
    melds are found once, for the reply finally shown)."""
    best_value = best_deadwood(defender) if no_layoff_deadwood is None else no_layoff_deadwood
    best_off = EMPTY
    if not layoffs_allowed:
        return best_value, best_off
    candidates = layoff_candidates(knocker_melds, defender)
    runs, fourths = spread_masks(knocker_melds)
    for size in range(1, len(candidates) + 1):
        for chosen in combinations(candidates, size):
            if _first_invalid(runs, fourths, chosen) is not None:
                continue
            value = best_deadwood([c for c in defender if c not in chosen])
            if value < best_value:
                best_value, best_off = value, chosen
    return best_value, best_off


def _reply(defender: Sequence[Card], laid_off: Sequence[Card]) -> Reply:
    arrangement = best_arrangement([c for c in defender if c not in laid_off])
    return Reply(arrangement.deadwood, tuple(sorted(laid_off)), arrangement.melds)


def _declared_reply(knocker_melds, defender, declared, layoffs_allowed) -> Reply:
    if declared and not layoffs_allowed:
        raise RulesError("illegal_layoff", "lay-offs are not played under these rules")
    for card in declared:
        if card not in defender:
            raise RulesError("illegal_layoff", f"{card} is not in the defender's hand")
    bad = valid_layoffs(knocker_melds, declared)
    if bad is not None:
        raise RulesError("illegal_layoff", f"{bad} cannot be laid off on the knocker's melds "
                         f"({'; '.join(' '.join(format_cards(m)) for m in knocker_melds)})")
    return _reply(defender, declared)
