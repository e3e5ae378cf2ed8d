"""What a hand submission says, and how the rules engine scores it.

A `HandInput` is the plain value that pages and the API both build: quick entry
(outcome, knocker, both deadwoods) or card entry (both hands, optional declared melds
and lay-offs). `evaluate` turns it into the engine's `HandResult` under a match's frozen
rule profile; nothing here touches the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ginclub.errors import ServiceError
from scoring.rules import HandResult, RuleProfile, parse_card, parse_cards, score_cards, score_quick

OUTCOMES = ("knock", "gin", "big_gin", "dead")
SEATS = ("A", "B")


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


@dataclass(frozen=True)
class HandInput:
    game: int
    number: int
    outcome: str
    knocker: str = ""
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None
    knocker_cards: tuple[str, ...] = ()
    defender_cards: tuple[str, ...] = ()
    knocker_melds: tuple[tuple[str, ...], ...] | None = None
    layoffs: tuple[str, ...] | None = None
    upcard: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def by_cards(self) -> bool:
        return bool(self.knocker_cards or self.defender_cards)

    def as_payload(self) -> dict[str, Any]:
        payload = asdict(self)
        payload.pop("extra")
        return payload

    def check_shape(self, names: Mapping[str, str] | None = None) -> None:
        """Refuse what no rule could score, before the engine sees it. `names` (seat ->
        player's name) lets the messages name the players instead of seats."""
        if self.outcome not in OUTCOMES:
            raise ServiceError(
                "invalid",
                "Say how the hand ended: knock, gin, big gin or dead hand.",
                fields={"outcome": "unknown outcome"},
            )
        if self.outcome != "dead" and self.knocker not in SEATS:
            who = f": {names['A']} or {names['B']}" if names else ""
            raise ServiceError(
                "invalid",
                f"Say who knocked{who}.",
                fields={"knocker": f"choose who knocked{who}"},
            )
        if self.outcome == "dead":
            return
        if not self.by_cards:
            for name in ("knocker_deadwood", "defender_deadwood"):
                if getattr(self, name) is None and not (
                    name == "knocker_deadwood" and self.outcome in ("gin", "big_gin")
                ):
                    whose = (
                        names[self.knocker if name == "knocker_deadwood" else other(self.knocker)]
                        if names
                        else ""
                    )
                    raise ServiceError(
                        "invalid",
                        f"Give {whose}'s deadwood." if whose else f"Give the {LABELS[name]}.",
                        fields={name: "required"},
                    )


def hand_input_from(data: Mapping[str, Any], names: Mapping[str, str] | None = None) -> HandInput:
    """Build a HandInput from already shape-checked JSON or form values; `names` (seat ->
    player's name) makes the refusals name the players."""

    def cards(key: str) -> tuple[str, ...]:
        value = data.get(key) or ()
        if isinstance(value, str):
            value = value.replace(",", " ").split()
        return tuple(str(v) for v in value)

    melds = data.get("knocker_melds")
    layoffs = data.get("layoffs")
    hand = HandInput(
        game=int(data["game"]),
        number=int(data["number"]),
        outcome=str(data.get("outcome") or ""),
        knocker=str(data.get("knocker") or ""),
        knocker_deadwood=_optional_int(data.get("knocker_deadwood")),
        defender_deadwood=_optional_int(data.get("defender_deadwood")),
        knocker_cards=cards("knocker_cards"),
        defender_cards=cards("defender_cards"),
        knocker_melds=tuple(tuple(m) for m in melds) if melds else None,
        layoffs=tuple(layoffs) if layoffs is not None else None,
        upcard=str(data.get("upcard") or ""),
    )
    hand.check_shape(names)
    return hand


def _optional_int(value: Any) -> int | None:
    if value is None or value == "":
        return None
    return int(value)


def evaluate(hand: HandInput, profile: RuleProfile) -> HandResult:
    """Score the hand under `profile`; raises the engine's RulesError for a user to fix."""
    upcard = parse_card(hand.upcard) if hand.upcard else None
    if hand.outcome == "dead" or not hand.by_cards:
        knocker_deadwood = hand.knocker_deadwood
        if hand.outcome in ("gin", "big_gin") and knocker_deadwood is None:
            knocker_deadwood = 0
        return score_quick(
            outcome=hand.outcome,
            knocker_deadwood=knocker_deadwood,
            defender_deadwood=hand.defender_deadwood,
            profile=profile,
            upcard=upcard,
        )
    return score_cards(
        knocker=parse_cards(hand.knocker_cards),
        defender=parse_cards(hand.defender_cards),
        knocker_melds=_melds(hand.knocker_melds),
        layoffs=parse_cards(hand.layoffs) if hand.layoffs is not None else None,
        upcard=upcard,
        profile=profile,
    )


def _melds(melds: Sequence[Sequence[str]] | None):
    return [parse_cards(meld) for meld in melds] if melds else None


def winner_seat(result: HandResult, knocker: str) -> str:
    if result.winner is None:
        return ""
    winner = getattr(result.winner, "value", result.winner)
    return knocker if winner == "knocker" else other(knocker)


LABELS = {
    "outcome": "outcome",
    "knocker": "knocker",
    "knocker_deadwood": "knocker's deadwood",
    "defender_deadwood": "defender's deadwood",
    "points": "points",
    "winner": "winner",
    "knocker_cards": "knocker's cards",
    "defender_cards": "defender's cards",
}


def differences(first: Mapping[str, Any], second: Mapping[str, Any]) -> dict[str, list]:
    """Fields where two entries of the same hand disagree, for players to read."""
    diff: dict[str, list] = {}
    for key in LABELS:
        a, b = first.get(key), second.get(key)
        if key.endswith("_cards"):
            if not a or not b:
                continue
            a, b = sorted(a), sorted(b)
        if a != b:
            diff[key] = [first.get(key), second.get(key)]
    return diff


def describe_differences(diff: Mapping[str, list], names: tuple[str, str] | None = None) -> str:
    """'knocker's deadwood: 5 vs 7', or with `names` '... 5 (Alice) vs 7 (you)'."""
    first, second = (f" ({names[0]})", f" ({names[1]})") if names else ("", "")
    parts = []
    for key, (a, b) in diff.items():
        parts.append(f"{LABELS[key]}: {show_value(a)}{first} vs {show_value(b)}{second}")
    return "; ".join(parts)


def show_value(value: Any) -> str:
    """A hand field as players read it: cards as the grid shows them (9♣), no underscores."""
    if isinstance(value, (list, tuple)):
        return " ".join(card_text(str(card)) for card in value) or "none"
    return "none" if value in (None, "") else str(value).replace("_", " ")


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def card_text(card: str) -> str:
    """'9C' -> '9♣', 'TD' -> '10♦' (anything else unchanged)."""
    if len(card) != 2 or card[1] not in SUIT_SYMBOLS:
        return card
    return ("10" if card[0] == "T" else card[0]) + SUIT_SYMBOLS[card[1]]
