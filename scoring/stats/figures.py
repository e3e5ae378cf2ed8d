"""The statistics a player's page shows, made from their summed seat summaries (a
`Tally`, scoring.stats.summaries): each a `Figure` that says what it rests on.

Terms: see scoring.stats (hands, knock, undercut, caught, box, shutout, card entry,
basis).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from scoring.models import SeatSummary
from scoring.stats.summaries import COUNTS, Tally, tally_of

MIN_HANDS = 20
MIN_GAMES = 5


@dataclass(frozen=True)
class Figure:
    """One statistic: `value` (None when nothing to rest on) from `count` of `basis`
    hands or games (`unit`), as a rate per 100, a percentage, an average or a count."""

    key: str
    label: str
    value: float | None
    basis: int
    unit: str
    kind: str  # "per100", "percent", "average", "count"
    count: int | None = None
    # What a percentage is of, when not the basis (melds, of card-entry hands).
    whole: int | None = None
    whole_unit: str = ""

    @property
    def minimum(self) -> int:
        return MIN_GAMES if self.unit == "games" else MIN_HANDS

    @property
    def enough(self) -> bool:
        return self.basis >= self.minimum

    @property
    def text(self) -> str:
        """The value in words: '37.5 per 100 hands (3)', '25% (1 of 4)', '4.33', '2'."""
        if self.value is None:
            return "none yet"
        value = f"{self.value:g}"
        if self.kind == "per100":
            return f"{value} per 100 hands ({self.count})"
        if self.kind == "percent":
            whole = self.basis if self.whole is None else self.whole
            unit = f" {self.whole_unit}" if self.whole_unit else ""
            return f"{value}% ({self.count} of {whole}{unit})"
        return value

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "value": self.value,
            "count": self.count,
            "basis": self.basis,
            "unit": self.unit,
            "kind": self.kind,
            "minimum": self.minimum,
            "enough": self.enough,
            "whole": self.whole,
            "text": self.text,
        }


def _ratio(part: int | None, whole: int, scale: int = 1) -> float | None:
    return round(scale * (part or 0) / whole, 2) if whole else None


def player_tally(player_id: int, hidden: frozenset[int] = frozenset()) -> Tally:
    """The player's seat summaries summed, less the matches whose results the viewer may
    not see (`hidden`): one query of one row per match played."""
    rows = SeatSummary.objects.filter(player_id=player_id)
    if hidden:
        rows = rows.exclude(Q(match_id__in=hidden))
    total = Tally()
    for row in rows.order_by().values_list(*COUNTS, "knock_deadwoods"):
        total.add(tally_of(row))
    return total


def hand_figures(n: Tally) -> list[Figure]:
    """Rates per 100 hands, undercuts and average deadwoods."""
    hands, mine = n.hands, n.knocks

    def per100(key: str, label: str, count: int) -> Figure:
        return Figure(key, label, _ratio(count, hands, 100), hands, "hands", "per100", count)

    return [
        per100("hands_won", "Hands won", n.won),
        per100("knocks", "Knocks", mine),
        per100("gins", "Gins", n.gins),
        per100("big_gins", "Big gins", n.big_gins),
        Figure(
            "undercuts_given", "Undercuts given (of your opponents' knocks)",
            _ratio(n.given, n.opp_knocks, 100), n.opp_knocks, "knocks against you",
            "percent", n.given,
        ),
        Figure(
            "undercuts_suffered", "Undercuts suffered (of your knocks)",
            _ratio(n.suffered, mine, 100), mine, "knocks", "percent", n.suffered,
        ),
        Figure(
            "knock_deadwood", "Average deadwood when knocking",
            _ratio(n.knock_deadwood, mine), mine, "knocks", "average",
        ),
        Figure(
            "caught_deadwood", "Average deadwood caught when defending",
            _ratio(n.caught, n.defended), n.defended, "hands defended", "average",
        ),
    ]  # fmt: skip


def game_figures(n: Tally) -> list[Figure]:
    """Boxes per game and shutouts, from the engine's breakdown of each finished game."""
    played = n.games
    return [
        Figure("boxes", "Boxes per game", _ratio(n.boxes, played), played, "games", "average"),
        Figure("shutouts", "Shutouts won", n.shutouts, played, "games", "count", n.shutouts),
        Figure("shut_out", "Shutouts suffered", n.shut_out, played, "games", "count", n.shut_out),
    ]


def card_figures(n: Tally) -> list[Figure]:
    """Meld shapes and lay-offs against the player, from their card-entry hands."""
    hands, melds = n.card_hands, n.sets + n.runs
    return [
        Figure("sets", "Melds that are sets", _ratio(n.sets, melds, 100), hands,
               "card-entry hands", "percent", n.sets, melds, "melds"),
        Figure("runs", "Melds that are runs", _ratio(n.runs, melds, 100), hands,
               "card-entry hands", "percent", n.runs, melds, "melds"),
        Figure("layoffs_against", "Cards laid off on your melds per knock",
               _ratio(n.laid_off, n.card_knocks), n.card_knocks, "card-entry knocks",
               "average", n.laid_off),
    ]  # fmt: skip


def knock_deadwood_counts(n: Tally) -> list[tuple[int, int]]:
    """[(deadwood, knocks)] of the player's knocks, by deadwood."""
    return sorted(n.knock_deadwoods.items())
