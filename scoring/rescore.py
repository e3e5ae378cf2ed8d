"""What a stored hand said, so it can be scored again under other rules.

A hand row keeps the engine's result (outcome, deadwoods, points, winner) and, for card
entry, both hands' cards. To score it again we rebuild the `HandInput` it came from:
card entry from the stored cards (plus the knocker's melds and lay-offs only when they
were declared, read from the accepted entry's payload), quick entry from the stored
outcome and deadwoods (an "undercut" was entered as a knock). The Oklahoma upcard of a
quick-entry hand lives only in the payload. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.hands import HandInput
from scoring.models import Game, Hand, Match


def entered_values(payload: dict[str, Any] | None) -> dict[str, Any]:
    """The hand fields of an entry's payload (a correction nests them under "values")."""
    if not payload:
        return {}
    return dict(payload.get("values") or payload)


def stored_input(hand: Hand, game_number: int, payload: dict[str, Any]) -> HandInput:
    """The HandInput that scores `hand` again: see the module docstring."""
    outcome = "knock" if hand.outcome == Hand.Outcome.UNDERCUT else hand.outcome
    if hand.cards:
        cards = hand.cards
        melds = payload.get("knocker_melds")
        layoffs = payload.get("layoffs")
        return HandInput(
            game=game_number,
            number=hand.number,
            outcome=outcome,
            knocker=hand.knocker,
            knocker_cards=tuple(cards.get("knocker_cards") or ()),
            defender_cards=tuple(cards.get("defender_cards") or ()),
            knocker_melds=tuple(tuple(m) for m in melds) if melds else None,
            layoffs=tuple(layoffs) if layoffs is not None else None,
            upcard=cards.get("upcard") or payload.get("upcard") or "",
        )
    if outcome == Hand.Outcome.DEAD:
        return HandInput(
            game=game_number,
            number=hand.number,
            outcome=outcome,
            upcard=payload.get("upcard") or "",
        )
    return HandInput(
        game=game_number,
        number=hand.number,
        outcome=outcome,
        knocker=hand.knocker,
        knocker_deadwood=hand.knocker_deadwood,
        defender_deadwood=hand.defender_deadwood,
        upcard=payload.get("upcard") or "",
    )


def hand_summary(hand: Hand) -> dict[str, Any]:
    return {
        "outcome": hand.outcome,
        "points": hand.points,
        "winner": hand.winner or None,
        "knocker_deadwood": hand.knocker_deadwood,
        "defender_deadwood": hand.defender_deadwood,
    }


def game_summary(game: Game) -> dict[str, Any]:
    return {
        "state": game.state,
        "winner": game.winner or None,
        "totals": {"A": game.total_a, "B": game.total_b},
    }


def match_summary(match: Match) -> dict[str, Any]:
    return {
        "state": match.state,
        "winner": match.winner or None,
        "games_won": {"A": match.games_won_a, "B": match.games_won_b},
        "points": {"A": match.points_a, "B": match.points_b},
    }


@dataclass
class Rescore:
    """What re-scoring a match under new rules changed (or would change)."""

    match: Match
    hands: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    before: dict[str, Any] = field(default_factory=dict)
    after: dict[str, Any] = field(default_factory=dict)

    @property
    def match_changed(self) -> bool:
        return self.before != self.after

    @property
    def changed(self) -> bool:
        return bool(self.hands or self.games or self.match_changed)
