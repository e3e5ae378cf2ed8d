"""Legality checks the rules tests share: is this a meld, is this arrangement of a hand
legal, can these cards be laid off together. Written from docs/rules.md, not from the engine.

The exhaustive reference searches live in test_properties.py; these only check answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANK_TEXT = "A23456789TJQK"


def rank_of(card) -> int:
    return RANK_TEXT.index(str(card)[0]) + 1


def suit_of(card) -> str:
    return str(card)[1]


def value_of(card) -> int:
    return min(rank_of(card), 10)


def is_meld(cards: Sequence) -> bool:
    """3 or 4 cards of one rank, or 3 or more consecutive cards of one suit (ace low)."""
    texts = [str(c) for c in cards]
    if len(texts) < 3 or len(set(texts)) != len(texts):
        return False
    ranks = sorted(rank_of(c) for c in texts)
    if len(set(ranks)) == 1:
        return len(texts) <= 4
    if len({suit_of(c) for c in texts}) != 1:
        return False
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def arrangement_problem(
    hand: Iterable, melds: Iterable[Sequence], deadwood_cards: Iterable | None, deadwood: int
) -> str | None:
    """None when `melds` are disjoint legal melds of `hand`, the cards outside them are
    `deadwood_cards` (when given) and their value is `deadwood`; else what is wrong."""
    hand = {str(c) for c in hand}
    melded: list[str] = []
    for meld in melds:
        if not is_meld(meld):
            return f"{[str(c) for c in meld]} is not a meld"
        melded.extend(str(c) for c in meld)
    if len(set(melded)) != len(melded):
        return f"melds share a card: {melded}"
    if not set(melded) <= hand:
        return f"melds use cards outside the hand: {sorted(set(melded) - hand)}"
    rest = hand - set(melded)
    if deadwood_cards is not None and sorted(str(c) for c in deadwood_cards) != sorted(rest):
        return f"deadwood cards {sorted(map(str, deadwood_cards))} are not {sorted(rest)}"
    if sum(value_of(c) for c in rest) != deadwood:
        return f"unmelded cards {sorted(rest)} are not worth {deadwood}"
    return None


def can_lay_off(knocker_melds: Iterable[Sequence], cards: Iterable) -> bool:
    """Whether all `cards` can go onto the knocker's melds, one at a time, each onto a meld
    it extends into a bigger meld (every order and every choice of meld is tried)."""
    start = tuple(frozenset(str(c) for c in meld) for meld in knocker_melds)
    todo = frozenset(str(c) for c in cards)
    stack, seen = [(todo, start)], set()
    while stack:
        left, melds = stack.pop()
        if not left:
            return True
        if (left, melds) in seen:
            continue
        seen.add((left, melds))
        for card in left:
            for i, meld in enumerate(melds):
                if is_meld([*meld, card]):
                    grown = melds[:i] + (meld | {card},) + melds[i + 1 :]
                    stack.append((left - {card}, grown))
    return False
