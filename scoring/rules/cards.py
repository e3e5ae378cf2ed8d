"""Cards: parsing, canonical text and deadwood values.

A card is written rank then suit: `AS`, `7H`, `TD` (T is the ten), `QC`. Input also
accepts `10D`, lower case and the suit symbols ♣ ♦ ♥ ♠; output is always canonical.
Ace is low and worth 1; two to nine their pips; ten and the faces 10.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from scoring.rules.errors import RulesError, gettext_noop

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}


class Card:
    """One of the 52 cards; there is exactly one object per card (see `DECK`), so a card
    equals only itself and hashes by its index, which keeps the engine's inner loops fast.

    Ordered by suit, then rank; `index` = suit * 13 + rank - 1; `bit` = 1 << (rank - 1)
    (its rank in a 13-bit suit mask); `mask` = 1 << index (the card in a 52-bit hand mask).
    """

    __slots__ = ("suit_index", "rank", "index", "bit", "mask", "value")

    def __init__(self, suit_index: int, rank: int) -> None:
        assert 1 <= rank <= 13 and 0 <= suit_index <= 3
        self.suit_index = suit_index
        self.rank = rank
        self.index = suit_index * 13 + rank - 1
        self.bit = 1 << (rank - 1)
        self.mask = 1 << self.index
        self.value = min(rank, 10)

    # Written out rather than by functools.total_ordering, which mypyc cannot compile;
    # and a class that defines comparisons gets no inherited hash when compiled. Equality
    # stays identity; the hash is the index, unique per card.
    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __reduce__(self) -> tuple[Callable[[int, int], Card], tuple[int, int]]:
        return card_at, (self.suit_index, self.rank)

    @property
    def suit(self) -> str:
        return SUITS[self.suit_index]

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    def __repr__(self) -> str:
        return f"Card({self})"


DECK: tuple[Card, ...] = tuple(Card(s, r) for s in range(4) for r in range(1, 14))
_BY_TEXT = {str(card): card for card in DECK}


def card_at(suit_index: int, rank: int) -> Card:
    return DECK[suit_index * 13 + rank - 1]


def parse_card(text: object) -> Card:
    """The card `text` names; any other value (an int, None: parsed JSON) is refused."""
    if not isinstance(text, str):
        raise RulesError(
            "bad_card",
            gettext_noop("%(card)s is not a card: write cards like AS, 7H, TD"),
            {"card": repr(text)},
        )
    card = _BY_TEXT.get(text)  # already canonical, as the service's forms send them
    if card is not None:
        return card
    token = text.strip().upper()
    for symbol, letter in SUIT_SYMBOLS.items():
        token = token.replace(symbol, letter)
    if token.startswith("10"):
        token = "T" + token[2:]
    card = _BY_TEXT.get(token)
    if card is None:
        raise RulesError(
            "bad_card",
            gettext_noop("%(card)s is not a card: write cards like AS, 7H, TD or 10D"),
            {"card": text.strip() or repr(text)},
        )
    return card


def parse_cards(texts: Iterable[object], *, what: str = "") -> tuple[Card, ...]:
    """Parse tokens and refuse a card given twice ("7H appears twice"). Any token that
    is no string (parsed JSON) is refused by `parse_card` ("is not a card")."""
    if isinstance(texts, str):
        texts = texts.replace(",", " ").split()
    cards = tuple(parse_card(text) for text in texts)
    check_unique(cards, what)
    return cards


# Where a card given twice was found: each place's whole sentence, for the translators.
TWICE = {
    "": gettext_noop("%(card)s appears twice"),
    "a meld": gettext_noop("%(card)s appears twice in a meld"),
    "the knocker's melds": gettext_noop("%(card)s appears twice in the knocker's melds"),
    "the knocker's hand": gettext_noop("%(card)s appears twice in the knocker's hand"),
    "the defender's hand": gettext_noop("%(card)s appears twice in the defender's hand"),
}


def check_unique(cards: Sequence[Card], what: str = "") -> None:
    if len(set(cards)) == len(cards):
        return
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            template = TWICE.get(what) or "%(card)s appears twice in " + what.replace("%", "%%")
            raise RulesError("duplicate_card", template, {"card": str(card)})
        seen.add(card)


def format_cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def total_value(cards: Iterable[Card]) -> int:
    return sum(card.value for card in cards)
