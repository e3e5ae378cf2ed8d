"""Seat summaries: what one seat's confirmed hands and finished games of one match add to
that player's statistics, counted when the match changes so a player's page sums a few
hundred summary rows instead of reading every hand they played.

Terms (the seat is "you"; see scoring.stats for the figures made from these counts):
    tally          the counts of one seat in one match, or of a player over many matches
                   (summed): every field of `Tally` is a column of models.SeatSummary.
    hand row       (outcome, knocker, winner, knocker_deadwood, defender_deadwood, cards)
                   of one confirmed hand, as stored.
    game row       (winner, breakdown) of one finished game, as stored: boxes are the
                   engine's Game.breakdown.hands_won.

The services recompute a match on every change to its hands (scoring.services.recompute),
and its two summaries are rewritten there, in the same transaction, by
scoring.services.summaries.write_summaries; `seat_tallies` is the one place that counts,
for that writer, for rebuild_summaries and for the migration that filled the summaries of
the matches played before them. This module only counts: it reads and writes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import Any

KNOCKS = ("knock", "undercut")
OUT = ("knock", "undercut", "gin", "big_gin")
SEATS = ("A", "B")


@dataclass
class Tally:
    """Counts from one seat's side (see scoring.stats for what each one means)."""

    hands: int = 0
    won: int = 0
    knocks: int = 0
    gins: int = 0
    big_gins: int = 0
    suffered: int = 0  # undercuts of your knocks
    opp_knocks: int = 0
    given: int = 0  # undercuts of your opponent's knocks
    knock_deadwood: int = 0  # summed over your knocks
    defended: int = 0  # opponent went out and your deadwood was recorded
    caught: int = 0  # your deadwood then, summed
    games: int = 0  # finished games
    boxes: int = 0
    shutouts: int = 0
    shut_out: int = 0
    card_hands: int = 0  # card-entry hands someone went out in
    sets: int = 0
    runs: int = 0
    card_knocks: int = 0
    laid_off: int = 0  # cards laid off on your melds in your card-entry knocks
    # {deadwood: knocks} of your knocks; JSON keeps the keys as strings.
    knock_deadwoods: dict[int, int] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        for name in COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for deadwood, knocks in other.knock_deadwoods.items():
            self.knock_deadwoods[deadwood] = self.knock_deadwoods.get(deadwood, 0) + knocks

    def as_fields(self) -> dict[str, Any]:
        """The SeatSummary columns."""
        values = {name: getattr(self, name) for name in COUNTS}
        return values | {"knock_deadwoods": {str(d): n for d, n in self.knock_deadwoods.items()}}


COUNTS = tuple(f.name for f in fields(Tally) if f.name != "knock_deadwoods")


def tally_of(row: tuple) -> Tally:
    """A Tally from a SeatSummary row read as values_list(*COUNTS, "knock_deadwoods")."""
    tally = Tally(*row[:-1])
    tally.knock_deadwoods = {int(d): n for d, n in (row[-1] or {}).items()}
    return tally


def meld_shape(meld: list[str]) -> str:
    """'set' (one rank) or 'run' (one suit in sequence), from the stored cards ('7H')."""
    return "set" if len({card[:-1] for card in meld}) == 1 else "run"


def seat_tallies(hands: Iterable[tuple], games: Iterable[tuple]) -> dict[str, Tally]:
    """Both seats' tallies of one match from its confirmed hand rows and its finished
    game rows (see the module's terms)."""
    tallies = {seat: Tally() for seat in SEATS}
    for row in hands:
        for seat, tally in tallies.items():
            _count_hand(tally, seat, *row)
    for winner, breakdown in games:
        won = (breakdown or {}).get("hands_won") or {}
        for seat, tally in tallies.items():
            _count_game(tally, seat, winner, won)
    return tallies


def _count_hand(t: Tally, seat, outcome, knocker, winner, knocker_dw, defender_dw, cards):
    mine, theirs = knocker == seat, knocker not in ("", seat)
    t.hands += 1
    t.won += winner == seat
    if mine and outcome in KNOCKS:
        t.knocks += 1
        t.knock_deadwood += knocker_dw or 0
        t.knock_deadwoods[knocker_dw] = t.knock_deadwoods.get(knocker_dw, 0) + 1
    t.gins += mine and outcome == "gin"
    t.big_gins += mine and outcome == "big_gin"
    t.suffered += mine and outcome == "undercut"
    t.opp_knocks += theirs and outcome in KNOCKS
    t.given += theirs and outcome == "undercut"
    if theirs and outcome in OUT and defender_dw is not None:
        t.defended += 1
        t.caught += defender_dw
    if cards is not None and outcome in OUT:
        t.card_hands += 1
        shapes = [
            meld_shape(m) for m in cards.get(f"{'knocker' if mine else 'defender'}_melds") or []
        ]
        t.sets += shapes.count("set")
        t.runs += shapes.count("run")
        if mine and outcome in KNOCKS:
            t.card_knocks += 1
            t.laid_off += len(cards.get("laid_off") or [])


def _count_game(t: Tally, seat: str, winner: str, won: dict) -> None:
    other = "B" if seat == "A" else "A"
    mine, theirs = _int(won.get(seat)), _int(won.get(other))
    t.games += 1
    t.boxes += mine or 0
    t.shutouts += winner == seat and theirs == 0
    t.shut_out += winner == other and mine == 0


def _int(value) -> int | None:
    # The database read these with CAST(... AS integer): a missing count is no count.
    return None if value is None else int(value)


# A confirmed hand row as the summaries read it (the "hand row" of the terms above).
HAND_ROW = ("outcome", "knocker", "winner", "knocker_deadwood", "defender_deadwood", "cards")
